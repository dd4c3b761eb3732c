// The log explainer's throughput: MB/s and lines/s on generated inputs of real trace lines
// (both klog eras, a journald-prefixed kubelet stream) and on the hand-labelled corpus, one run.
// Usage: npm run build:lib && npm run bench:explain
import { readdirSync, readFileSync } from 'node:fs';
import { buildKnowledge, explainText, runScenario } from '../dist/lib/machines/index.js';

let t0 = performance.now();
const knowledge = buildKnowledge();
console.log(`knowledge: ${knowledge.messages.length} messages, ${knowledge.events.length} event reasons, built in ${(performance.now() - t0).toFixed(0)} ms, ${(JSON.stringify(knowledge).length / 1024).toFixed(0)} KiB as JSON`);

const lines = ['1.20', '1.30'].flatMap((k8s) => runScenario('pod-migration', { k8s }).steps.filter((s) => s.log).map((s) => s.log));
for (const mb of [1, 10, 40]) {
  let text = '';
  while (text.length < mb * 1e6) text += lines.join('\n') + '\n';
  t0 = performance.now();
  const r = explainText(text, knowledge);
  const s = (performance.now() - t0) / 1000;
  console.log(`${String(mb).padStart(3)} MB, ${r.lines.length} lines: ${s.toFixed(2)} s (${(text.length / 1e6 / s).toFixed(1)} MB/s, ${(r.lines.length / s / 1000).toFixed(0)}k lines/s)`);
}
const dir = new URL('../test/corpus/', import.meta.url);
const corpus = readdirSync(dir).filter((f) => f.endsWith('.log')).map((f) => readFileSync(new URL(f, dir), 'utf8').split('\n').filter((l) => l && !l.startsWith('# ')).map((l) => l.split('\t').slice(2).join('\t')).join('\n'));
t0 = performance.now();
for (let i = 0; i < 20; i++) for (const c of corpus) explainText(c, knowledge);
console.log(`corpus (${corpus.length} excerpts) ×20: ${((performance.now() - t0) / 20).toFixed(1)} ms per pass`);
