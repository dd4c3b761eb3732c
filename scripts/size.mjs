// npm run size: the JavaScript every page of the built site loads before any interaction, and the
// budgets from issue #3.
//
// Each HTML page of dist/site is opened in Chromium (fresh context, no cache), left alone until
// the network has been idle for 500 ms, and every JavaScript response is recorded, together with
// the page's inline <script> elements (Astro inlines small scripts and the island bootstrap, and
// that code ships as surely as a file). Each script is gzipped (level 9) and summed per page.
//
// Budgets:
// - a chapter (/flows/<id>/) loads at most 100 KiB gzip of JavaScript;
// - an embed (/embed/<id>/) at most 120 KiB, dynamic imports included (issue 10);
// - a page with no widget (no <astro-island>, no [data-widget] element) loads no JavaScript at all.
//   Plain-JS widgets (a Mermaid loader, search) mark their element with data-widget.
//
// Usage: npm run build:site && npm run size [-- --json]
// Exit status: 0 within budget, 1 over budget (or no built site).
// measureScripts(), recordScripts() and budgetViolations() are exported for test/e2e/site.e2e.mjs.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import {
  fileForPath,
  launchChromium,
  listHtmlPages,
  siteRoot,
  startStaticServer,
  statOrNull,
} from './static-site.mjs';

export const CHAPTER_BUDGET_BYTES = 100 * 1024;
export const EMBED_BUDGET_BYTES = 120 * 1024;

/** An embed page: /embed/<scenario>/ (not the /embed/ docs, nor the example page that frames one). */
export function isEmbed(pagePath) {
  return /^\/embed\/[^/]+\/$/.test(pagePath) && pagePath !== '/embed/example/';
}

/** A chapter page: /flows/<id>/ (the /flows/ index itself is not one). */
export function isChapter(pagePath) {
  return /^\/flows\/[^/]+\/$/.test(pagePath);
}

const JS_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript', 'text/ecmascript']);

function gzipSize(bytes) {
  return gzipSync(bytes, { level: 9 }).length;
}

function isJavaScript(response) {
  if (response.request().resourceType() === 'script') return true;
  return /javascript|ecmascript/i.test(response.headers()['content-type'] ?? '');
}

/** The bytes of a JS response; from dist/site when the browser no longer holds the body. */
async function responseBytes(response, root) {
  try {
    return await response.body();
  } catch {
    const url = new URL(response.url());
    const file = await fileForPath(root, url.pathname);
    return file ? readFile(file) : Buffer.alloc(0);
  }
}

/**
 * Start recording the JavaScript a browser context loads; call before the page navigates.
 * `collect(page, baseUrl)`, once the page has settled and before anything injects a script,
 * returns { hasWidget, scripts: [{ url, bytes, gzipBytes }], count, gzipBytes }; inline scripts are
 * listed as "<inline #n>". Used by measureScripts() and by the site-wide browser checks.
 */
export function recordScripts(context, root = siteRoot) {
  const seen = new Map();
  // Context-wide, so worker scripts and dynamic imports are counted as well as <script src>.
  context.on('response', (response) => {
    if (response.status() >= 300 || !isJavaScript(response)) return;
    if (!seen.has(response.url())) seen.set(response.url(), responseBytes(response, root));
  });
  const collect = async (page, baseUrl) => {
    const { hasWidget, inline } = await page.evaluate((jsTypes) => {
      const types = new Set(jsTypes);
      return {
        hasWidget: document.querySelector('astro-island, [data-widget]') !== null,
        inline: [...document.querySelectorAll('script:not([src])')]
          .filter((s) => types.has((s.getAttribute('type') ?? '').trim().toLowerCase()))
          .map((s) => s.textContent ?? ''),
      };
    }, [...JS_TYPES]);
    const scripts = [];
    for (const [url, bytesPromise] of seen) {
      const bytes = await bytesPromise;
      const shown = url.startsWith(baseUrl) ? url.slice(baseUrl.length) : url;
      scripts.push({ url: shown, bytes: bytes.length, gzipBytes: gzipSize(bytes) });
    }
    inline.forEach((text, i) => {
      const bytes = Buffer.from(text);
      scripts.push({ url: `<inline #${i + 1}>`, bytes: bytes.length, gzipBytes: gzipSize(bytes) });
    });
    return {
      hasWidget,
      scripts,
      count: scripts.length,
      gzipBytes: scripts.reduce((sum, s) => sum + s.gzipBytes, 0),
    };
  };
  return { collect };
}

/**
 * Open one page in a fresh context, leave it until the network is idle, and record its JavaScript.
 * Returns { page, status, hasWidget, scripts, count, gzipBytes }.
 */
async function measurePage(browser, baseUrl, pagePath, root) {
  const context = await browser.newContext();
  try {
    const recorder = recordScripts(context, root);
    const page = await context.newPage();
    const response = await page.goto(`${baseUrl}${pagePath}`, { waitUntil: 'networkidle' });
    return { page: pagePath, status: response?.status() ?? 0, ...(await recorder.collect(page, baseUrl)) };
  } finally {
    await context.close();
  }
}

/**
 * Measure every page in `pages` (default: every HTML page of the build), `concurrency` at a time.
 * Results come back in the order of `pages`.
 */
export async function measureScripts({ browser, baseUrl, pages, root = siteRoot, concurrency = 4 }) {
  const list = pages ?? (await listHtmlPages(root));
  const results = new Array(list.length);
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const index = next++;
      results[index] = await measurePage(browser, baseUrl, list[index], root);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, list.length) }, worker));
  return results;
}

const kib = (bytes) => (bytes / 1024).toFixed(1);

/** Every budget a measured page breaks: [{ page, message }]. */
export function budgetViolations(results) {
  const violations = [];
  for (const result of results) {
    if (isChapter(result.page) && result.gzipBytes > CHAPTER_BUDGET_BYTES) {
      violations.push({
        page: result.page,
        message: `chapter loads ${kib(result.gzipBytes)} KiB gzip of JavaScript, budget ${kib(CHAPTER_BUDGET_BYTES)} KiB`,
      });
    }
    if (isEmbed(result.page) && result.gzipBytes > EMBED_BUDGET_BYTES) {
      violations.push({
        page: result.page,
        message: `embed loads ${kib(result.gzipBytes)} KiB gzip of JavaScript, budget ${kib(EMBED_BUDGET_BYTES)} KiB`,
      });
    }
    if (!result.hasWidget && result.count > 0) {
      violations.push({
        page: result.page,
        message: `no widget on the page, yet it loads ${result.count} script(s): ${result.scripts.map((s) => s.url).join(', ')}`,
      });
    }
  }
  return violations;
}

function budgetLabel(result) {
  if (isChapter(result.page)) return `chapter ≤ ${kib(CHAPTER_BUDGET_BYTES)} KiB`;
  if (isEmbed(result.page)) return `embed ≤ ${kib(EMBED_BUDGET_BYTES)} KiB`;
  if (!result.hasWidget) return 'no widget: 0 scripts';
  return 'widget';
}

function printTable(results, violations) {
  const failing = new Set(violations.map((v) => v.page));
  const rows = results.map((r) => [
    r.page,
    String(r.count),
    kib(r.gzipBytes),
    `${failing.has(r.page) ? 'OVER ' : 'ok   '}${budgetLabel(r)}`,
  ]);
  const header = ['page', '#scripts', 'KiB gzip', 'budget'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells.map((cell, i) => (i === 1 || i === 2 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd();
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log('');
  console.log(
    `Budgets: chapters (/flows/<id>/) ≤ ${kib(CHAPTER_BUDGET_BYTES)} KiB gzip of JavaScript before ` +
      `interaction, embeds (/embed/<id>/) ≤ ${kib(EMBED_BUDGET_BYTES)} KiB; pages without a widget (<astro-island> or [data-widget]) load no JavaScript.`,
  );
  if (violations.length === 0) {
    console.log(`All ${results.length} pages within budget.`);
  } else {
    console.log(`${violations.length} over budget:`);
    for (const v of violations) console.log(`  ${v.page}: ${v.message}`);
  }
}

async function main(argv) {
  const json = argv.includes('--json');
  if (!(await statOrNull(path.join(siteRoot, 'index.html')))?.isFile()) {
    console.error(`No built site at ${siteRoot}. Run "npm run build:site" first.`);
    return 1;
  }
  const site = await startStaticServer(siteRoot);
  let browser;
  try {
    browser = await launchChromium();
    const results = await measureScripts({ browser, baseUrl: site.baseUrl });
    const violations = budgetViolations(results);
    if (json) {
      console.log(JSON.stringify({ budgets: { chapterGzipBytes: CHAPTER_BUDGET_BYTES, embedGzipBytes: EMBED_BUDGET_BYTES, noWidgetScripts: 0 }, pages: results, violations }, null, 2));
    } else {
      printTable(results, violations);
    }
    return violations.length === 0 ? 0 : 1;
  } finally {
    await browser?.close();
    await site.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exitCode = 1;
    },
  );
}
