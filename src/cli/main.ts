/**
 * csi-flows: list scenarios, print a scenario's trace (merged klog, JSON, or Mermaid).
 * Usage errors print one line and exit 2.
 */
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  buildKnowledge, decodeInput, explainText, ExplainInputError, FaultSyntaxError, parseFaultText, runScenario, ScenarioError, SCENARIOS, toMermaidSequence,
  type ExplainedLine, type ExplainResult, type Trace,
} from '../machines/index.ts';

const USAGE = `usage:
  csi-flows scenarios [--json]
  csi-flows trace <scenario> [--k8s 1.20|1.30] [--format klog|json|mermaid] [--replicas N] [--seed N]
                              [--fault <RPC>=<CODE>[x<count>]]... [--no-tags]
  csi-flows explain [<file>|-] [--json]     (reads standard input when no file is given or with -)`;

class UsageError extends Error {}

export function main(argv: string[], out: (s: string) => void = (s) => process.stdout.write(s)): number {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      out(USAGE + '\n');
      return command === undefined ? 2 : 0;
    }
    if (command === 'scenarios') return scenarios(rest, out);
    if (command === 'trace') return trace(rest, out);
    if (command === 'explain') return explain(rest, out);
    throw new UsageError(`unknown command "${command}" (expected scenarios, trace or explain)`);
  } catch (e) {
    if (e instanceof UsageError || e instanceof ScenarioError || e instanceof ExplainInputError || isParseArgsError(e)) {
      process.stderr.write(`csi-flows: ${(e as Error).message.split('\n')[0]}\n`);
      return 2;
    }
    throw e;
  }
}

function isParseArgsError(e: unknown): boolean {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'string' && (e as unknown as { code: string }).code.startsWith('ERR_PARSE_ARGS');
}

function scenarios(args: string[], out: (s: string) => void): number {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: false });
  const list = SCENARIOS.map((s) => ({
    id: s.id, title: s.title, summary: s.summary, ...(s.seed ? { seed: s.seed } : {}),
    takesReplicas: !!s.takesReplicas, ...(s.takesReplicas ? { defaultReplicas: s.defaultReplicas } : {}),
  }));
  if (values.json) out(JSON.stringify(list, null, 2) + '\n');
  else {
    const w = Math.max(...list.map((s) => s.id.length));
    for (const s of list) out(`${s.id.padEnd(w)}  ${s.title}\n`);
  }
  return 0;
}

function intOption(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} expects a non-negative integer, got "${v}"`);
  return Number(v);
}

function trace(args: string[], out: (s: string) => void): number {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true,
    options: {
      k8s: { type: 'string' }, format: { type: 'string' }, replicas: { type: 'string' }, seed: { type: 'string' },
      fault: { type: 'string', multiple: true }, 'no-tags': { type: 'boolean' },
    },
  });
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'trace needs a scenario id (see: csi-flows scenarios)' : `trace takes one scenario id, got ${positionals.length}`);
  const format = values.format ?? 'klog';
  if (!['klog', 'json', 'mermaid'].includes(format)) throw new UsageError(`--format must be klog, json or mermaid, got "${format}"`);
  const replicas = intOption('replicas', values.replicas);
  const seed = intOption('seed', values.seed);
  const faults = (values.fault ?? []).map((f) => {
    try { return parseFaultText(f); } catch (e) {
      if (e instanceof FaultSyntaxError) throw new UsageError(e.message.replace(/^bad fault /, 'bad --fault '));
      throw e;
    }
  });
  const t: Trace = runScenario(positionals[0]!, {
    ...(values.k8s !== undefined ? { k8s: values.k8s } : {}),
    ...(replicas !== undefined ? { replicas } : {}), ...(seed !== undefined ? { seed } : {}),
    faults,
  });
  if (format === 'json') out(JSON.stringify(t, null, 2) + '\n');
  else if (format === 'mermaid') out(toMermaidSequence(t));
  else {
    const tags = !values['no-tags'];
    for (const st of t.steps) if (st.log) out(tags ? `[${st.component}/${st.host}] ${st.log}\n` : `${st.log}\n`);
  }
  return 0;
}

/** Inputs above this size are refused: the explainer holds every line's result in memory. */
const MAX_INPUT_BYTES = 512 * 1024 * 1024;

function readInput(path: string | undefined): Uint8Array {
  if (path === undefined || path === '-') {
    if (path === undefined && process.stdin.isTTY) throw new UsageError('explain needs a file, or log lines on standard input (csi-flows explain kubelet.log, or … | csi-flows explain -)');
    return readFileSync(0);
  }
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw new UsageError(`${path} is a directory, not a log file`);
    size = st.size;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  if (size > MAX_INPUT_BYTES) throw new UsageError(`${path} is ${(size / 2 ** 20).toFixed(0)} MiB; explain reads at most ${MAX_INPUT_BYTES / 2 ** 20} MiB (cut it first, e.g. with grep or tail)`);
  return readFileSync(path);
}

function explain(args: string[], out: (s: string) => void): number {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' } } });
  if (positionals.length > 1) throw new UsageError(`explain takes one file (or -), got ${positionals.length}`);
  const text = decodeInput(readInput(positionals[0]));
  const result = explainText(text, buildKnowledge());
  if (values.json) {
    out(JSON.stringify(result.lines, null, 2) + '\n');
    return 0;
  }
  out(renderListing(result));
  return 0;
}

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The readable listing: one entry per input line, then the summary. */
export function renderListing(r: ExplainResult): string {
  const lines: string[] = [];
  const w = String(r.lines.length).length;
  for (const l of r.lines) {
    const n = String(l.line).padStart(w);
    if (l.kind === 'blank') { lines.push(`${n}`); continue; }
    if (l.kind === 'continuation') { lines.push(`${n}  ${' '.repeat(44)}(continues line ${l.continues}) ${cut(l.text.trim(), 80)}`); continue; }
    if (l.kind === 'decoration' || l.kind === 'unrelated') { lines.push(`${n}  ${'-'.padEnd(44)}${cut(l.text.trim(), 100)}`); continue; }
    lines.push(`${n}  ${(l.severity ?? '·').padEnd(2)}${l.stage.padEnd(10)}${(l.component ?? '?').padEnd(26)}${l.match === 'guess' ? '(guess) ' : ''}${cut(l.text.trim(), 110)}`);
    lines.push(`${' '.repeat(w)}    ${explanationOf(l)}`);
    if (l.cause) lines.push(`${' '.repeat(w)}    cause: ${l.cause}`);
    if (l.next) lines.push(`${' '.repeat(w)}    check next: ${l.next}`);
    if (l.step) lines.push(`${' '.repeat(w)}    our flow: ${l.step.scenario} (${l.step.k8s}) step ${l.step.step} — ${l.step.url}`);
  }
  const s = r.summary;
  lines.push('', 'Summary', `  ${s.verdict}`);
  if (s.lastHealthy) lines.push(`  last healthy line: ${s.lastHealthy.line} (${s.lastHealthy.component}, ${s.lastHealthy.stage})${s.lastHealthy.step ? ` — ${s.lastHealthy.step.url}` : ''}`);
  if (s.stoppedAt) lines.push(`  stopped at line ${s.stoppedAt.line} (${s.stoppedAt.stage}): ${cut(s.stoppedAt.text.trim(), 140)}`);
  if (s.nextExpected) lines.push(`  next healthy line: "${s.nextExpected.summary}" from ${s.nextExpected.component}: ${s.nextExpected.where}${s.nextExpected.step ? ` — ${s.nextExpected.step.url}` : ''}`);
  return lines.join('\n') + '\n';
}

const explanationOf = (l: ExplainedLine): string => l.explanation;
