// Shared helpers for *.e2e.mjs modules. Not a test module itself.

import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const axePath = path.resolve(here, '../../node_modules/axe-core/axe.min.js');

/**
 * Open `url` in a fresh browser context and record everything that would show up as an error in
 * DevTools: console.error messages, uncaught page errors and failed requests.
 * `beforeGoto(context, page)` runs before navigation (to attach more listeners).
 * Call `close()` when done.
 */
export async function openPage(browser, url, contextOptions = {}, { beforeGoto } = {}) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  await beforeGoto?.(context, page);
  const errors = [];
  const requests = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (req) =>
    errors.push(`requestfailed: ${req.url()} ${req.failure()?.errorText ?? ''}`),
  );
  page.on('request', (req) => requests.push(req));
  const response = await page.goto(url, { waitUntil: 'load' });
  return { page, response, errors, requests, close: () => context.close() };
}

/**
 * Run axe-core (standard rules) on the page's document and return the violations of impact
 * "serious" or "critical" as [{ id, impact, help, nodes, targets }], `targets` being the first three
 * failing selectors. Frames are left out: every embedded page is checked as a page of its own.
 */
export async function seriousAxeViolations(page) {
  const loaded = await page.evaluate(() => typeof (/** @type {any} */ (window).axe) === 'object');
  if (!loaded) await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const axe = /** @type {any} */ (window).axe;
    const result = await axe.run(document, { resultTypes: ['violations'], iframes: false });
    return result.violations
      .filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical')
      .map((/** @type {any} */ v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.length,
        targets: v.nodes.slice(0, 3).map((/** @type {any} */ n) => n.target.join(' ')),
      }));
  });
}

/** One line per axe violation, for assertion messages. */
export function formatViolations(violations) {
  return violations
    .map((v) => `${v.id} (${v.impact}, ${v.nodes} node(s)): ${v.help}; first: ${v.targets.join(' | ')}`)
    .join('\n');
}
