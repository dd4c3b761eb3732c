// npm run lighthouse: Lighthouse's scores of the built site, against issue 10's budget.
//
// Budget (mobile defaults: a mid-range phone, slow 4G, 4× CPU slowdown, all simulated): performance
// ≥ 0.95, accessibility and best practices 1.0, on the home page, a chapter and an embed.
//
// The site is served by `astro preview` (compressed, as a static host serves it; the tests' plain
// server is not) and each page is audited --runs times in Debian's Chromium; the median run per page
// is reported, since the machines here are noisy and one run can land 0.05 either side.
//
// Lighthouse is not a dependency of the project (it is large, and only this script needs it): set
// LIGHTHOUSE to its CLI (e.g. node_modules/lighthouse/cli/index.js of a separate install), or the
// script runs `npx --yes lighthouse@13`.
//
// Usage: npm run build:site && npm run lighthouse [-- --runs=3] [-- --pages=/,/flows/attach/]
// Exit status: 0 within budget, 1 over budget, 2 bad arguments or no built site.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { preview } from 'astro';
import { chromiumPath } from './static-site.mjs';

const run = promisify(execFile);
const DEFAULT_PAGES = ['/', '/flows/pod-migration/', '/embed/pod-migration/'];
const BUDGET = { performance: 0.95, accessibility: 1, 'best-practices': 1 };

let args;
try {
  ({ values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, pages: { type: 'string' } } }));
} catch (e) {
  console.error(`lighthouse: ${e.message}\nusage: npm run lighthouse [-- --runs=N] [-- --pages=/,/flows/attach/]`);
  process.exit(2);
}
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 20) {
  console.error(`lighthouse: --runs must be a whole number from 1 to 20, not "${args.runs}"`);
  process.exit(2);
}
const pages = args.pages ? args.pages.split(',').map((p) => p.trim()).filter(Boolean) : DEFAULT_PAGES;
const bad = pages.find((p) => !p.startsWith('/'));
if (bad) {
  console.error(`lighthouse: a page is a path of the site starting with "/", not "${bad}"`);
  process.exit(2);
}
if (!(await stat(path.join('dist/site', 'index.html')).catch(() => null))) {
  console.error('lighthouse: no built site in dist/site; run npm run build:site first');
  process.exit(2);
}

const cli = process.env.LIGHTHOUSE ? ['node', [process.env.LIGHTHOUSE]] : ['npx', ['--yes', 'lighthouse@13']];
// astro preview serves astro.config's outDir (dist/site) on a port found free here
const port = await new Promise((resolve, reject) => {
  const s = createServer().once('error', reject).listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
});
const server = await preview({ root: process.cwd(), logLevel: 'error', server: { host: '127.0.0.1', port } });
const baseUrl = `http://127.0.0.1:${port}`;
const tmp = await mkdtemp(path.join(os.tmpdir(), 'csi-flows-lh-'));

/** One Lighthouse run of a page: its category scores and the metrics behind performance. */
async function audit(page, i) {
  const out = path.join(tmp, `${i}.json`);
  await run(cli[0], [...cli[1], `${baseUrl}${page}`, '--quiet', '--output=json', `--output-path=${out}`,
    '--only-categories=performance,accessibility,best-practices', '--chrome-flags=--headless=new --no-sandbox'],
  { env: { ...process.env, CHROME_PATH: chromiumPath }, maxBuffer: 64 << 20 });
  const r = JSON.parse(await readFile(out, 'utf8'));
  const metric = (id) => r.audits[id]?.numericValue ?? NaN;
  return {
    scores: Object.fromEntries(Object.keys(BUDGET).map((c) => [c, r.categories[c]?.score ?? 0])),
    fcp: metric('first-contentful-paint'), lcp: metric('largest-contentful-paint'), tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'), si: metric('speed-index'),
    failing: Object.values(r.audits).filter((a) => a.score !== null && a.score < 1 && ['accessibility', 'best-practices'].some((c) => r.categories[c]?.auditRefs.some((ref) => ref.id === a.id && ref.weight > 0))).map((a) => a.id),
  };
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
let over = false;
let n = 0;
try {
  console.log(`Lighthouse, mobile defaults, ${runs} run(s) per page, median shown (${baseUrl})`);
  for (const page of pages) {
    const results = [];
    try {
      for (let i = 0; i < runs; i++) results.push(await audit(page, n++));
    } catch (e) {
      // a page that does not load (a 404, a wrong path), or Lighthouse that cannot run: say which, go on
      const why = String(e?.stderr || e?.message || e).trim().split('\n').find((l) => l.trim()) ?? 'unknown error';
      console.log(`${page}: not measured: ${why.replace(/^Runtime error encountered: /, '')}`);
      over = true;
      continue;
    }
    const byPerf = [...results].sort((a, b) => a.scores.performance - b.scores.performance);
    const mid = byPerf[Math.floor((byPerf.length - 1) / 2)];
    const medians = Object.fromEntries(Object.keys(BUDGET).map((c) => [c, median(results.map((r) => r.scores[c]))]));
    const cats = Object.entries(medians).map(([c, m]) => `${c} ${m.toFixed(2)}`).join(', ');
    const misses = Object.entries(BUDGET).filter(([c, min]) => medians[c] < min).map(([c]) => c);
    over ||= misses.length > 0;
    console.log(`${page}: ${cats} (performance per run: ${results.map((r) => r.scores.performance.toFixed(2)).join(' ')})`);
    console.log(`  median run: FCP ${Math.round(mid.fcp)} ms, LCP ${Math.round(mid.lcp)} ms, TBT ${Math.round(mid.tbt)} ms, CLS ${mid.cls.toFixed(3)}, SI ${Math.round(mid.si)} ms`);
    if (misses.length) console.log(`  OVER BUDGET: ${misses.join(', ')}${mid.failing.length ? ` (failing audits: ${mid.failing.join(', ')})` : ''}`);
  }
} finally {
  await server.stop();
  await rm(tmp, { recursive: true, force: true });
}
process.exit(over ? 1 : 0);
