// Mutation score per component from a Stryker JSON report (default reports/mutation/mutation.json):
// node scripts/mutation-scores.mjs [report.json]. Score = (killed + timeout) / (killed + timeout +
// survived + no coverage), as Stryker counts it; mutants a checker rejected (CompileError: outside a
// MUTATE_SAMPLE sample) are left out. For a sample, the 95% Wilson interval says how far off the
// whole run's score may be.
import fs from 'node:fs';

const file = process.argv[2] ?? 'reports/mutation/mutation.json';
let report;
try { report = JSON.parse(fs.readFileSync(file, 'utf8')); } catch (e) { console.error(`cannot read ${file}: ${e.message}`); process.exit(2); }
const component = (f) => f.match(/src\/machines\/([^/]+)/)?.[1] ?? f;
const rows = new Map();
for (const [f, { mutants }] of Object.entries(report.files)) {
  const r = rows.get(component(f)) ?? { killed: 0, timeout: 0, survived: 0, noCoverage: 0, outside: 0 };
  for (const m of mutants) {
    if (m.status === 'Killed') r.killed++;
    else if (m.status === 'Timeout') r.timeout++;
    else if (m.status === 'Survived') r.survived++;
    else if (m.status === 'NoCoverage') r.noCoverage++;
    else r.outside++;
  }
  rows.set(component(f), r);
}
function wilson(k, n) {
  if (!n) return [0, 0];
  const z = 1.96, p = k / n, d = 1 + z * z / n;
  const c = (p + z * z / (2 * n)) / d, h = (z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / d;
  return [c - h, c + h];
}
const pct = (x) => `${(x * 100).toFixed(1)}%`;
console.log('component                    score    95% interval     killed timeout survived no-cov  not run');
const total = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, outside: 0 };
for (const [name, r] of [...rows, ['all', total]]) {
  if (name !== 'all') for (const k of Object.keys(total)) total[k] += r[k];
  const detected = r.killed + r.timeout, n = detected + r.survived + r.noCoverage;
  const [lo, hi] = wilson(detected, n);
  console.log(`${name.padEnd(26)} ${pct(n ? detected / n : 0).padStart(7)}  ${`${pct(lo)}–${pct(hi)}`.padEnd(15)} ${String(r.killed).padStart(7)} ${String(r.timeout).padStart(7)} ${String(r.survived).padStart(8)} ${String(r.noCoverage).padStart(6)} ${String(r.outside).padStart(8)}`);
}
