// Shared helpers for *.e2e.mjs modules. Not a test module itself.

import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const axePath = path.resolve(here, '../../node_modules/axe-core/axe.min.js');

const DESKTOP = { width: 1280, height: 720 };
/** the page events a test may listen to; a reused tab drops the listeners a test left */
const PAGE_EVENTS = ['console', 'pageerror', 'request', 'requestfailed', 'requestfinished', 'response', 'dialog', 'popup',
  'framenavigated', 'frameattached', 'framedetached', 'load', 'domcontentloaded', 'download', 'filechooser', 'websocket', 'worker'];
/** idle tabs per browser, by context options and cache mode */
const idleTabs = new WeakMap();

/**
 * A browser tab that visits pages one after another. Opening a fresh context per page cost about
 * three times the CPU of the visit itself here (a renderer process each: 6 pages took 1,920 jiffies
 * fresh against 650 in one tab), and the browser tests are CPU-bound. Each visit still starts as in
 * a fresh context: the tab goes to about:blank (nothing of the previous page is counted against the
 * next), the HTTP cache is emptied (`cache: 'clear'`, within a visit it works as usual) or off
 * (`cache: 'off'`, every request reaches the server, as the budget measurement needs), and the media
 * emulation and viewport are set back. The site keeps no storage.
 */
export async function openTab(browser, contextOptions = {}, { cache = 'off' } = {}) {
  const context = await browser.newContext({ colorScheme: 'light', viewport: DESKTOP, ...contextOptions });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (cache === 'off') await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const tab = { context, page, cdp, cache, options: contextOptions, visit: null, onResponse: null };
  context.on('response', (response) => tab.onResponse?.(response));
  listen(page, () => tab.visit);
  return tab;
}

/**
 * Record on `page` what DevTools would show as an error (console.error, uncaught page errors, failed
 * requests) and every request, into the visit `current()` returns ({ errors, requests }, or null).
 */
function listen(page, current) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') current()?.errors.push(`console.error: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => current()?.errors.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (req) => current()?.errors.push(`requestfailed: ${req.url()} ${req.failure()?.errorText ?? ''}`));
  page.on('request', (req) => current()?.requests.push(req));
}

/**
 * Start a visit in `tab`: a clean page, then `url` (`beforeGoto(tab)` runs in between, once the
 * previous page is gone). Returns { page, response, errors, requests }.
 */
export async function visitInTab(tab, url, beforeGoto) {
  const { page } = tab;
  tab.visit = null;
  tab.onResponse = null;
  await page.goto('about:blank');
  if (tab.cache === 'clear') await tab.cdp.send('Network.clearBrowserCache');
  await page.emulateMedia({ media: null, colorScheme: tab.options.colorScheme ?? 'light', reducedMotion: tab.options.reducedMotion ?? null, forcedColors: null });
  await page.setViewportSize(tab.options.viewport ?? DESKTOP);
  beforeGoto?.(tab);
  const visit = { errors: [], requests: [] };
  tab.visit = visit;
  const response = await page.goto(url, { waitUntil: 'load' });
  return { page, response, errors: visit.errors, requests: visit.requests };
}

/**
 * An idle tab with these context options and cache mode, or a new one. Give it back with returnTab
 * once its visit is over, or close its context if the visit failed (the tab may be what broke).
 */
export async function borrowTab(browser, contextOptions = {}, { cache = 'clear' } = {}) {
  const key = JSON.stringify([contextOptions, cache]);
  const pools = idleTabs.get(browser) ?? idleTabs.set(browser, new Map()).get(browser);
  const pool = pools.get(key) ?? pools.set(key, []).get(key);
  const tab = pool.pop() ?? (await openTab(browser, contextOptions, { cache }));
  tab.pool = pool;
  return tab;
}

/** Hand a tab back for the next visit: what the visit added (routes, listeners, other pages) goes. */
export async function returnTab(tab) {
  tab.visit = null;
  tab.onResponse = null;
  try {
    if (tab.page.isClosed()) throw new Error('closed');
    for (const p of tab.context.pages()) if (p !== tab.page) await p.close();
    await tab.page.unrouteAll({ behavior: 'ignoreErrors' });
    await tab.context.unrouteAll({ behavior: 'ignoreErrors' });
    for (const event of PAGE_EVENTS) tab.page.removeAllListeners(event);
    listen(tab.page, () => tab.visit);
    tab.pool.push(tab);
  } catch {
    await tab.context.close().catch(() => {});
  }
}

/**
 * Open `url` as a fresh browser context would and record everything that would show up as an error
 * in DevTools: console.error messages, uncaught page errors and failed requests. Returns { page,
 * response, errors, requests, close }; close() hands the tab back for the next visit with the same
 * context options. With `beforeGoto(context, page)` (listeners or routes before navigation) the page
 * gets a context of its own, closed by close().
 */
export async function openPage(browser, url, contextOptions = {}, { beforeGoto } = {}) {
  if (beforeGoto) return openOwnPage(browser, url, contextOptions, beforeGoto);
  const tab = await borrowTab(browser, contextOptions);
  let visit;
  try {
    visit = await visitInTab(tab, url);
  } catch (error) {
    await tab.context.close().catch(() => {});
    throw error;
  }
  return { ...visit, close: () => returnTab(tab) };
}

/** openPage in a context of its own, for a test that sets routes or listeners before the page loads. */
async function openOwnPage(browser, url, contextOptions, beforeGoto) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  await beforeGoto(context, page);
  const visit = { errors: [], requests: [] };
  listen(page, () => visit);
  const response = await page.goto(url, { waitUntil: 'load' });
  return { page, response, ...visit, close: () => context.close() };
}

/** One blank tab per browser that parses fetched HTML (see parseHtml). */
const parsers = new WeakMap();

/**
 * Fetch a page's HTML and hand its document, parsed with DOMParser in a blank tab (no scripts run,
 * nothing is fetched or laid out), to `read(doc, arg)`, which runs in the browser and returns what
 * to check; `read` must not close over anything but `arg`. For checks of the HTML as served, at a
 * small part of the cost of rendering the page. Returns { status, result }.
 */
export async function parseHtml(browser, url, read, arg) {
  const response = await fetch(url);
  const html = await response.text();
  if (!parsers.has(browser)) parsers.set(browser, browser.newContext().then((c) => c.newPage()));
  const parser = await parsers.get(browser);
  const result = await parser.evaluate(([source, reader, a]) => {
    const doc = new DOMParser().parseFromString(source, 'text/html');
    return new Function('doc', 'arg', `return (${reader})(doc, arg);`)(doc, a);
  }, [html, read.toString(), arg]);
  return { status: response.status, result };
}

/** The standard axe rules whose outcome depends on colours, and so on the colour scheme. */
export const AXE_COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * A list of more than `longList` items is sampled: `keep` items of each shape are checked. 12 rather
 * than 40 samples the seed logs and the component pages' tables too (the crawl: 184 s -> 159 s here).
 */
export const AXE_SAMPLE = { longList: 12, keep: 3 };

/**
 * Run axe-core (standard rules, or only `rules`) on the page's document and return the violations
 * of impact "serious" or "critical" as [{ id, impact, help, nodes, targets }], `targets` being the
 * first three failing selectors. Frames are left out: every embedded page is checked as a page of
 * its own. Long lists are sampled (AXE_SAMPLE).
 */
export async function seriousAxeViolations(page, rules) {
  const loaded = await page.evaluate(() => typeof (/** @type {any} */ (window).axe) === 'object');
  if (!loaded) await page.addScriptTag({ path: axePath });
  return page.evaluate(async ({ rules, keep, longList }) => {
    const axe = /** @type {any} */ (window).axe;
    // A long list (a chapter's 500-step list, a seed's log) is one template repeated: axe checks
    // the first `keep` items of each shape (the item's and its descendants' tags and classes, so an
    // error row and a warning row are both checked) and leaves the other copies out. Most of axe's
    // time on a long chapter went to re-checking the same row; the list itself is still checked.
    const shapeOf = (/** @type {Element} */ el) =>
      [el, ...el.querySelectorAll('*')].map((e) => `${e.tagName}.${[...e.classList].sort().join('.')}`).join(' ');
    // The copies left out are taken out of the document while axe runs (a placeholder keeps each
    // one's place) rather than only excluded: axe builds its tree of the whole document on every run,
    // and on a chapter with two long step lists that tree was most of its time.
    const left = [];
    for (const list of document.querySelectorAll('body *')) {
      if (list.childElementCount <= longList) continue;
      const seen = new Map();
      for (const item of list.children) {
        const shape = shapeOf(item);
        const n = (seen.get(shape) ?? 0) + 1;
        seen.set(shape, n);
        if (n > keep) left.push(item);
      }
    }
    const placeholders = left.map((item) => {
      item.setAttribute('data-axe-sampled-out', '');
      const placeholder = document.createComment('axe: a copy of a checked row');
      item.replaceWith(placeholder);
      return placeholder;
    });
    const options = { resultTypes: ['violations'], iframes: false };
    let result;
    try {
      result = await axe.run(document, rules ? { ...options, runOnly: rules } : options);
    } finally {
      placeholders.forEach((placeholder, i) => placeholder.replaceWith(left[i]));
    }
    return result.violations
      .filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical')
      .map((/** @type {any} */ v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.length,
        targets: v.nodes.slice(0, 3).map((/** @type {any} */ n) => n.target.join(' ')),
      }));
  }, { rules, keep: AXE_SAMPLE.keep, longList: AXE_SAMPLE.longList });
}

/**
 * axe in the light scheme (standard rules), then in the dark scheme on the same page (colour rules:
 * on the same DOM only they can come out differently, and color-contrast is most of axe's time).
 * The scheme is switched with emulateMedia rather than by loading the page again: the site's
 * colours are CSS custom properties under prefers-color-scheme, which apply at once. After two
 * frames the new styles apply; colour transitions they start are awaited so axe reads the final
 * colours. Leaves the page in the dark scheme. Returns { light, dark }.
 */
export async function axeLightAndDark(page) {
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await seriousAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const transitions = document.getAnimations().filter((a) => a instanceof CSSTransition);
    await Promise.all(transitions.map((a) => a.finished.catch(() => undefined)));
  });
  const dark = await seriousAxeViolations(page, AXE_COLOUR_RULES);
  return { light, dark };
}

/** One line per axe violation, for assertion messages. */
export function formatViolations(violations) {
  return violations
    .map((v) => `${v.id} (${v.impact}, ${v.nodes} node(s)): ${v.help}; first: ${v.targets.join(' | ')}`)
    .join('\n');
}
