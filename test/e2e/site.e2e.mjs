// Site-wide checks over every HTML page of dist/site, found on disk so that new pages are covered
// without touching this file (Pagefind's own files excluded).
//
// One test per page: status 200, no console errors / page errors / failed requests, <html lang>,
// a <title>, a meta description, exactly one <h1>, no Pagefind outside /search/, no horizontal
// scrolling at 360px, and no serious or critical axe-core violations in the light and the dark
// colour scheme. Then: no broken internal links or fragments across the site, and the JavaScript
// budgets of scripts/size.mjs (measured on each page's first, untouched visit with its recorder).
//
// Each page is visited once, in a tab reused from page to page (reset in between as a fresh context
// would be), by a pool (E2E_CONCURRENCY, default 4) that the first page test starts; each page test
// awaits its own page's result, so the run stays short and a failure still names its page. Most
// per-scenario player pages are parsed rather than rendered (rendersInBrowser says which).

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { budgetViolations, isChapter, isEmbed, measureScripts, recordScripts } from '../../scripts/size.mjs';
import { fileForPath, listHtmlPages, siteRoot } from '../../scripts/static-site.mjs';
import { AXE_SAMPLE, axeLightAndDark, borrowTab, formatViolations, parseHtml, returnTab, seriousAxeViolations, visitInTab } from './helpers.mjs';

const pages = await listHtmlPages(siteRoot);
const concurrency = Number(process.env.E2E_CONCURRENCY) || 4;
const PHONE_WIDTH = 360;

/** Facts about one page, from one visit in `tab`: light scheme first, then dark, then phone width. */
async function visitPage(tab, baseUrl, pagePath) {
  let recorder;
  // recordScripts listens on a context: give it one whose responses are this visit's
  const visit = await visitInTab(tab, `${baseUrl}${pagePath}`, () => {
    recorder = recordScripts({ on: (_event, listener) => void (tab.onResponse = listener) }, siteRoot);
  });
  const { page, response } = visit;
  await page.waitForLoadState('networkidle');
  // The JavaScript budget is measured on this untouched first visit, as `npm run size` does, and
  // before axe adds its own script.
  const javascript = await recorder.collect(page, baseUrl);
  const facts = await page.evaluate(() => ({
    lang: document.documentElement.getAttribute('lang')?.trim() ?? '',
    title: document.title.trim(),
    description:
      document.querySelector('meta[name="description"]')?.getAttribute('content')?.trim() ?? '',
    h1: document.querySelectorAll('h1').length,
    ids: [
      ...[...document.querySelectorAll('[id]')].map((el) => el.id),
      ...[...document.querySelectorAll('a[name]')].map((el) => el.getAttribute('name') ?? ''),
    ],
    links: [
      ...[...document.querySelectorAll('a[href]')].map((el) => ({
        tag: 'a href',
        raw: el.getAttribute('href') ?? '',
        url: /** @type {HTMLAnchorElement} */ (el).href,
      })),
      ...[...document.querySelectorAll('iframe[src]')].map((el) => ({
        tag: 'iframe src',
        raw: el.getAttribute('src') ?? '',
        url: /** @type {HTMLIFrameElement} */ (el).src,
      })),
    ],
  }));
  facts.status = response?.status() ?? 0;
  facts.javascript = { page: pagePath, status: facts.status, ...javascript };
  const axe = runsAxe(pagePath) ? await axeLightAndDark(page) : { light: [], dark: [] };
  facts.axeLight = axe.light;
  facts.axeDark = axe.dark;

  await page.setViewportSize({ width: PHONE_WIDTH, height: 740 });
  facts.overflowAtPhoneWidth = await page.evaluate(() => {
    const root = document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });

  facts.errors = [...visit.errors];
  facts.pagefindRequests = visit.requests
    .map((req) => new URL(req.url()))
    .filter((u) => u.origin === baseUrl && u.pathname.startsWith('/pagefind/'))
    .map((u) => u.pathname);
  return facts;
}

/** The facts of a page that is fetched and parsed, not rendered (see rendersInBrowser). */
async function parsePage(browser, baseUrl, pagePath) {
  const { status, result: facts } = await parseHtml(browser, `${baseUrl}${pagePath}`, (doc) => ({
    lang: doc.documentElement.getAttribute('lang')?.trim() ?? '',
    title: doc.title.trim(),
    description: doc.querySelector('meta[name="description"]')?.getAttribute('content')?.trim() ?? '',
    h1: doc.querySelectorAll('h1').length,
    ids: [
      ...[...doc.querySelectorAll('[id]')].map((el) => el.id),
      ...[...doc.querySelectorAll('a[name]')].map((el) => el.getAttribute('name') ?? ''),
    ],
    links: [
      ...[...doc.querySelectorAll('a[href]')].map((el) => ({ tag: 'a href', raw: el.getAttribute('href') ?? '' })),
      ...[...doc.querySelectorAll('iframe[src]')].map((el) => ({ tag: 'iframe src', raw: el.getAttribute('src') ?? '' })),
    ],
    loads: [...doc.querySelectorAll('script[src], link[href]')].map((el) => el.getAttribute('src') ?? el.getAttribute('href') ?? ''),
  }));
  const base = `${baseUrl}${pagePath}`;
  const resolve = (raw) => {
    try {
      return new URL(raw, base).href;
    } catch {
      return raw;
    }
  };
  return {
    ...facts,
    parsedOnly: true,
    status,
    links: facts.links.map((l) => ({ ...l, url: resolve(l.raw) })),
    pagefindRequests: facts.loads.map(resolve).filter((u) => u.startsWith(`${baseUrl}/pagefind/`)).map((u) => new URL(u).pathname),
    errors: [],
    axeLight: [],
    axeDark: [],
    overflowAtPhoneWidth: 0,
  };
}

/**
 * The per-scenario pages (/present/<id>/, /present/<id>/notes/, /embed/<id>/, and their /zh/ pairs)
 * are one template each filled with a scenario's trace: axe, the slow part of a visit (two full
 * passes), runs on the pages of AXE_SCENARIOS only, the trace with the most lifelines and steps per
 * step list and the largest cast; every other per-scenario page gets every other check. The
 * player's own axe checks (player.e2e.mjs, pages.e2e.mjs) cover the widgets in their states.
 */
export const AXE_SCENARIOS = new Set(['pod-migration', 'statefulset-rollout']);
const PER_SCENARIO_PAGE = /^(?:\/zh)?\/(?:present|embed)\/([a-z0-9-]+)\/(?:notes\/)?$/;
/**
 * The Chinese chapters and component pages are their English pages' templates and styles with the
 * text translated, and every English one runs axe: axe runs on the Chinese pages of these (the
 * chapters with seed logs and the longest step lists, the largest component pages), and on every
 * Chinese page that has no English twin of the same template.
 */
export const AXE_ZH_PAGES = new Set(['/zh/flows/pod-migration/', '/zh/flows/ceph-rbd/', '/zh/components/kubelet/', '/zh/components/external-attacher/']);
const ZH_TWIN = /^\/zh\/(?:flows|components)\/(?!csi-rpcs\/)[a-z0-9-]+\/$/;
export function runsAxe(pagePath) {
  if (ZH_TWIN.test(pagePath)) return AXE_ZH_PAGES.has(pagePath);
  const m = PER_SCENARIO_PAGE.exec(pagePath);
  return !m || m[1] === 'example' || AXE_SCENARIOS.has(m[1]);
}

/**
 * Which pages the crawl renders in Chromium. Rendering is the cost of a visit (a renderer process's
 * layout, paint and scripts), and the per-scenario pages are 6 per scenario filled from one template
 * each: every scenario has one English and one Chinese page rendered (its trace fetched and its
 * player hydrated in both languages), the kind rotating across scenarios (present, notes, embed), so
 * each template is rendered in each language for a third of the scenarios; AXE_SCENARIOS and the
 * example are rendered in full. The other per-scenario pages are fetched and parsed (DOMParser, no
 * scripts, no layout): status, lang, title, description, one h1, no Pagefind, and their links and ids
 * for the link check.
 */
const PLAYER_KINDS = ['present', 'notes', 'embed'];
const playerKind = (pagePath) => (pagePath.endsWith('/notes/') ? 'notes' : pagePath.includes('/embed/') ? 'embed' : 'present');
const scenarioIds = [...new Set(pages.map((p) => PER_SCENARIO_PAGE.exec(p)?.[1]).filter((id) => id && id !== 'example'))].sort();
export function rendersInBrowser(pagePath) {
  const m = PER_SCENARIO_PAGE.exec(pagePath);
  if (!m || m[1] === 'example' || AXE_SCENARIOS.has(m[1])) return true;
  const i = scenarioIds.indexOf(m[1]);
  const zh = pagePath.startsWith('/zh/') ? 1 : 0;
  return PLAYER_KINDS.indexOf(playerKind(pagePath)) === (i + zh) % PLAYER_KINDS.length;
}

let crawl;

const FILE = 'site.e2e.mjs';
const pageTestName = (pagePath) =>
  !rendersInBrowser(pagePath)
    ? `${pagePath}: is well-formed, parsed without rendering (its template is rendered for other scenarios)`
    : runsAxe(pagePath)
    ? `${pagePath}: loads cleanly, is well-formed, passes axe (light and dark) and fits ${PHONE_WIDTH}px`
    : `${pagePath}: loads cleanly, is well-formed and fits ${PHONE_WIDTH}px (axe: on its English twin and a sample of its template)`;
/** Whether run.mjs runs this page's test (its E2E_FILTER matches "file > name"). */
const isSelected = (pagePath) =>
  `${FILE} > ${pageTestName(pagePath)}`.includes(process.env.E2E_FILTER ?? '');

/**
 * The shared visits of all pages, `concurrency` at a time: { results, want }. results is
 * Map<pagePath, Promise<facts>>; want(pagePath) asks for a page's facts, visiting it next if it
 * has not started. In a full run every page is queued at once, so visits run ahead of the tests
 * that read them; in a filtered run (E2E_FILTER) only the pages whose tests run are queued.
 */
function crawlSite(browser, baseUrl) {
  if (crawl) return crawl;
  const results = new Map();
  const settle = new Map();
  for (const pagePath of pages) {
    results.set(pagePath, new Promise((resolve, reject) => settle.set(pagePath, { resolve, reject })));
    // A rejected result that no test awaits yet must not count as unhandled.
    results.get(pagePath)?.catch(() => {});
  }
  const queue = pages.filter(isSelected);
  const started = new Set();
  let running = 0;
  // the budget must see every script a page loads: the crawl's tabs keep the HTTP cache off
  const visitInATab = async (pagePath) => {
    if (!rendersInBrowser(pagePath)) return parsePage(browser, baseUrl, pagePath);
    const tab = await borrowTab(browser, { colorScheme: 'light' }, { cache: 'off' });
    let facts;
    try {
      facts = await visitPage(tab, baseUrl, pagePath);
    } catch (error) {
      await tab.context.close().catch(() => {});
      throw error;
    }
    await returnTab(tab);
    return facts;
  };
  const pump = () => {
    while (running < concurrency && queue.length > 0) {
      const pagePath = /** @type {string} */ (queue.shift());
      if (started.has(pagePath)) continue;
      started.add(pagePath);
      running += 1;
      const { resolve, reject } = settle.get(pagePath);
      visitInATab(pagePath)
        .then(resolve, reject)
        .finally(() => {
          running -= 1;
          pump();
        });
    }
  };
  const want = (pagePath) => {
    if (!started.has(pagePath)) {
      queue.unshift(pagePath);
      pump();
    }
    return results.get(pagePath);
  };
  // Queued pages start once the caller's first want() has put its page in front.
  queueMicrotask(pump);
  crawl = { results, want };
  return crawl;
}

/** Every page's facts, once all visits have ended; throws naming the pages that failed. */
async function allFacts(browser, baseUrl) {
  const factsByPage = new Map();
  const unvisited = [];
  const { results, want } = crawlSite(browser, baseUrl);
  for (const pagePath of results.keys()) want(pagePath);
  for (const [pagePath, promise] of results) {
    try {
      factsByPage.set(pagePath, await promise);
    } catch (error) {
      unvisited.push(`${pagePath}: ${error instanceof Error ? error.message : error}`);
    }
  }
  if (unvisited.length > 0) assert.fail(`pages that could not be visited:\n${unvisited.join('\n')}`);
  return factsByPage;
}

function pageTest(pagePath) {
  const name = pageTestName(pagePath);
  const test = async ({ browser, baseUrl }) => {
    const facts = await crawlSite(browser, baseUrl).want(pagePath);
    // Every problem of the page is listed at once, so one run shows all there is to fix.
    const problems = [];
    const check = (ok, message) => {
      if (!ok) problems.push(message);
    };
    check(facts.status === 200, `HTTP status ${facts.status}`);
    check(
      facts.errors.length === 0,
      `console errors, page errors or failed requests:\n  ${facts.errors.join('\n  ')}`,
    );
    check(facts.lang !== '', '<html> has no lang');
    check(facts.title !== '', 'no <title>');
    check(facts.description !== '', 'no <meta name="description">');
    check(facts.h1 === 1, `${facts.h1} <h1> elements, expected exactly one`);
    check(
      pagePath === '/search/' || facts.pagefindRequests.length === 0,
      `loads Pagefind outside /search/: ${facts.pagefindRequests.join(', ')}`,
    );
    check(
      facts.overflowAtPhoneWidth <= 0,
      `scrolls sideways by ${facts.overflowAtPhoneWidth}px at ${PHONE_WIDTH}px wide`,
    );
    check(facts.axeLight.length === 0, `axe, light scheme:\n${formatViolations(facts.axeLight)}`);
    check(facts.axeDark.length === 0, `axe, dark scheme:\n${formatViolations(facts.axeDark)}`);
    if (problems.length > 0) assert.fail(`page ${pagePath}:\n- ${problems.join('\n- ')}`);
  };
  // A page with thousands of elements (a chapter's full step list) takes axe a few seconds, more
  // on a busy machine; the visit is shared, so a generous limit costs nothing when all is well.
  test.timeoutMs = 90_000;
  return [name, test];
}

/** The page path (as listed by listHtmlPages) that serves a same-origin URL path, if any. */
async function pageServing(pathname, pageByFile) {
  const file = await fileForPath(siteRoot, pathname);
  return file ? pageByFile.get(file) : undefined;
}

/**
 * Every same-origin <a href> / <iframe src> on the given pages that does not lead to a 200, or whose
 * #fragment names no element on the target page. `factsByPage`: Map<pagePath, { links, ids }>.
 * Returns one message per problem, naming the page and the link.
 */
export async function brokenLinks(baseUrl, factsByPage) {
  const pageByFile = new Map();
  for (const pagePath of factsByPage.keys()) {
    const file = await fileForPath(siteRoot, pagePath);
    if (file) pageByFile.set(file, pagePath);
  }
  const statusCache = new Map();
  const statusOf = (pathname) => {
    if (!statusCache.has(pathname)) {
      statusCache.set(
        pathname,
        fetch(`${baseUrl}${pathname}`, { method: 'HEAD', redirect: 'manual' }).then((r) => ({
          status: r.status,
          location: r.headers.get('location'),
        })),
      );
    }
    return statusCache.get(pathname);
  };

  const problems = [];
  for (const [pagePath, facts] of factsByPage) {
    for (const link of facts.links) {
      let target;
      try {
        target = new URL(link.url);
      } catch {
        problems.push(`${pagePath}: <${link.tag}="${link.raw}"> is not a valid URL`);
        continue;
      }
      if (target.origin !== baseUrl) continue;
      const { status, location } = await statusOf(target.pathname);
      if (status !== 200) {
        const hint = location ? ` (redirects to ${location}; link there directly)` : '';
        problems.push(`${pagePath}: <${link.tag}="${link.raw}"> answers ${status}${hint}`);
        continue;
      }
      const fragment = decodeURIComponent(target.hash.slice(1));
      // "#" and "#top" scroll to the top of any page without a matching element (HTML spec).
      if (fragment === '' || fragment.toLowerCase() === 'top') continue;
      const targetPage = await pageServing(target.pathname, pageByFile);
      const targetIds = targetPage ? factsByPage.get(targetPage)?.ids : undefined;
      if (targetIds && !targetIds.includes(fragment)) {
        problems.push(
          `${pagePath}: <${link.tag}="${link.raw}">: no element with id "${fragment}" on ${targetPage}`,
        );
      }
    }
  }
  return problems;
}

async function noBrokenInternalLinksOrFragments({ browser, baseUrl }) {
  const factsByPage = await allFacts(browser, baseUrl);
  const links = [...factsByPage.values()].reduce((n, f) => n + f.links.length, 0);
  assert.ok(links > 0, 'no links found at all: the crawl is not reading the pages');
  const problems = await brokenLinks(baseUrl, factsByPage);
  if (problems.length > 0) assert.fail(`broken internal links:\n${problems.join('\n')}`);
}

async function linkCheckerReportsMissingPagesFragmentsAndRedirects({ baseUrl }) {
  // A made-up page whose links are known to be bad, checked against the real build: proves the
  // checker above can fail.
  const factsByPage = new Map([
    [
      '/',
      {
        ids: ['main'],
        links: [
          { tag: 'a href', raw: '/', url: `${baseUrl}/` },
          { tag: 'a href', raw: '#main', url: `${baseUrl}/#main` },
          { tag: 'a href', raw: '/no-such-page/', url: `${baseUrl}/no-such-page/` },
          { tag: 'a href', raw: '/#no-such-id', url: `${baseUrl}/#no-such-id` },
          { tag: 'iframe src', raw: '/search', url: `${baseUrl}/search` },
          { tag: 'a href', raw: 'https://kubernetes.io/', url: 'https://kubernetes.io/' },
        ],
      },
    ],
  ]);
  const problems = await brokenLinks(baseUrl, factsByPage);
  assert.equal(problems.length, 3, problems.join('\n'));
  assert.match(problems[0], /\/no-such-page\/.*answers 404/);
  assert.match(problems[1], /no element with id "no-such-id" on \//);
  assert.match(problems[2], /"\/search".*answers 301 \(redirects to \/search\/;/);
}

async function axeHarnessReportsSeriousViolations({ browser }) {
  // The same harness as the page checks, on a page with known serious/critical problems: an image
  // without alt text (critical) and grey-on-grey text (serious).
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>t</title></head><body><main>' +
        '<h1>t</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">' +
        '<p style="color:#999;background:#aaa">faint</p></main></body></html>',
    );
    const ids = (await seriousAxeViolations(page)).map((v) => v.id).sort();
    assert.deepEqual(ids, ['color-contrast', 'image-alt']);
  } finally {
    await context.close();
  }
}

async function axeSamplesLongListsButChecksEveryShapeOfRow({ browser }) {
  // A list of 100 rows of one shape with one row of its own shape at 90 (an image without alt
  // text: a critical violation that does not depend on where the row is on screen, as contrast
  // does): sampling leaves out copies of a shape, never the only row of a shape. Then a list whose
  // rows all lack alt text: its first rows are checked, so the violation is still found.
  const context = await browser.newContext();
  const img = '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">';
  const doc = (list) =>
    `<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>t</h1>${list}</main></body></html>`;
  try {
    const page = await context.newPage();
    const row = (i) => (i === 90 ? `<li class="step sev-E">${img}</li>` : `<li class="step"><span>row ${i}</span></li>`);
    await page.setContent(doc(`<ol>${Array.from({ length: 100 }, (_, i) => row(i)).join('')}</ol>`));
    const found = await seriousAxeViolations(page);
    assert.deepEqual(found.map((v) => [v.id, v.nodes]), [['image-alt', 1]], 'the one row of its shape is checked');
    const sampled = await page.locator('[data-axe-sampled-out]').count();
    assert.equal(sampled, 100 - 1 - AXE_SAMPLE.keep, 'copies of the common row are left out');
    // they were out of the document only while axe ran: every row is back, in its place
    const rows = await page.locator('ol > li').evaluateAll((lis) => lis.map((li) => li.textContent || li.firstElementChild?.tagName));
    assert.deepEqual(rows, Array.from({ length: 100 }, (_, i) => (i === 90 ? 'IMG' : `row ${i}`)), 'the rows are back in order after axe');
    await page.setContent(doc(`<ul>${`<li>${img}</li>`.repeat(100)}</ul>`));
    const all = await seriousAxeViolations(page);
    assert.deepEqual(all.map((v) => [v.id, v.nodes]), [['image-alt', AXE_SAMPLE.keep]], 'the first rows of a shape are checked');
  } finally {
    await context.close();
  }
}

async function axeDarkPassCatchesContrastThatFailsInDarkOnly({ browser }) {
  // Readable in light; in dark the text turns dark grey on black. The light pass must pass and the
  // dark pass must flag it, through the same axeLightAndDark() the page checks use.
  const context = await browser.newContext({ colorScheme: 'light' });
  try {
    const page = await context.newPage();
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>t</title><style>' +
        'body { background: #fff; color: #111; transition: color 0.3s; }' +
        '@media (prefers-color-scheme: dark) { body { background: #000; color: #333; } }' +
        '</style></head><body><main><h1>t</h1><p id="x">text</p></main></body></html>',
    );
    const { light, dark } = await axeLightAndDark(page);
    assert.deepEqual(light, []);
    assert.deepEqual(
      dark.map((v) => v.id),
      ['color-contrast'],
    );
  } finally {
    await context.close();
  }
}

async function javascriptBudgetsHoldOnEveryPage({ browser, baseUrl }) {
  const results = [...(await allFacts(browser, baseUrl)).values()].filter((facts) => !facts.parsedOnly).map((facts) => facts.javascript);
  assert.equal(results.length, pages.filter(rendersInBrowser).length);
  // the crawl reuses its tabs: a page with a widget that seems to load nothing means the recorder
  // missed its scripts, and a page must measure what a fresh browser context measures (an embed: its
  // player hydrates at once, where a chapter's waits until the reader nears it, which depends on
  // layout timing at the fold)
  const unseen = results.filter((r) => r.hasWidget && r.count === 0).map((r) => r.page);
  assert.deepEqual(unseen, [], 'pages with a widget whose scripts were not seen');
  const chapter = '/embed/pod-migration/';
  const [fresh] = await measureScripts({ browser, baseUrl, pages: [chapter] });
  const crawled = results.find((r) => r.page === chapter);
  assert.deepEqual(
    crawled?.scripts.map((x) => `${x.url} ${x.gzipBytes}`).sort(),
    fresh.scripts.map((x) => `${x.url} ${x.gzipBytes}`).sort(),
    `${chapter}: the crawl's tab and a fresh context see the same scripts`,
  );
  const violations = budgetViolations(results).map((v) => `${v.page}: ${v.message}`);
  if (violations.length > 0) assert.fail(`over budget:\n${violations.join('\n')}`);
}

// Both wait for the visits of every page (a filtered run starts them here).
noBrokenInternalLinksOrFragments.timeoutMs = 300_000;
javascriptBudgetsHoldOnEveryPage.timeoutMs = 300_000;

async function budgetMeasurementCountsRealResponsesAndBudgetRulesFire({ browser, baseUrl }) {
  // The search page loads Pagefind's UI by a dynamic import; the measurement must see that file
  // with the gzip size of the file on disk.
  const [search] = await measureScripts({ browser, baseUrl, pages: ['/search/'] });
  const ui = search?.scripts.find((s) => s.url === '/pagefind/pagefind-ui.js');
  assert.ok(ui, `pagefind-ui.js not measured on /search/: ${JSON.stringify(search?.scripts)}`);
  const onDisk = await readFile(path.join(siteRoot, 'pagefind', 'pagefind-ui.js'));
  assert.equal(ui.bytes, onDisk.length);
  assert.equal(ui.gzipBytes, gzipSync(onDisk, { level: 9 }).length);
  assert.equal(search?.hasWidget, true, '/search/ is not marked as a widget page');

  assert.equal(isChapter('/flows/attach/'), true);
  assert.equal(isChapter('/flows/'), false);
  assert.equal(isChapter('/embed/attach/'), false);
  const over = budgetViolations([
    { page: '/flows/x/', hasWidget: true, scripts: [], count: 3, gzipBytes: 100 * 1024 + 1 },
    { page: '/flows/y/', hasWidget: true, scripts: [], count: 3, gzipBytes: 100 * 1024 },
    { page: '/plain/', hasWidget: false, scripts: [{ url: '/a.js' }], count: 1, gzipBytes: 10 },
    { page: '/island/', hasWidget: true, scripts: [{ url: '/a.js' }], count: 1, gzipBytes: 999_999 },
    { page: '/embed/x/', hasWidget: true, scripts: [], count: 3, gzipBytes: 120 * 1024 + 1 },
    { page: '/embed/y/', hasWidget: true, scripts: [], count: 3, gzipBytes: 120 * 1024 },
  ]).map((v) => v.page);
  assert.deepEqual(over, ['/flows/x/', '/plain/', '/embed/x/']);
  assert.equal(isEmbed('/embed/attach/'), true);
  assert.equal(isEmbed('/embed/'), false);
  assert.equal(isEmbed('/embed/example/'), false);
}

/** axe still reaches every per-scenario template, in both languages, and every other page. */
async function axeRunsOnEveryTemplateInBothLanguages() {
  for (const id of AXE_SCENARIOS) {
    for (const p of [`/present/${id}/`, `/present/${id}/notes/`, `/embed/${id}/`, `/zh/present/${id}/`, `/zh/present/${id}/notes/`, `/zh/embed/${id}/`]) {
      assert.ok(pages.includes(p), `${p} is built (axe checks its template there)`);
      assert.equal(runsAxe(p), true, p);
    }
  }
  for (const p of AXE_ZH_PAGES) assert.ok(pages.includes(p), `${p} is built (axe checks the Chinese template there)`);
  for (const p of ['/present/attach/', '/zh/present/attach/notes/', '/embed/mount/', '/zh/embed/mount/', '/zh/flows/attach/', '/zh/components/pv-controller/']) assert.equal(runsAxe(p), false, p);
  for (const p of ['/', '/flows/attach/', '/zh/flows/pod-migration/', '/zh/flows/', '/zh/', '/zh/components/', '/zh/components/csi-rpcs/', '/zh/components/kubelet/', '/embed/', '/embed/example/', '/components/kubelet/', '/components/pv-controller/', '/present/', '/playground/']) assert.equal(runsAxe(p), true, p);
  // every Chinese chapter and component page left out has its English twin checked
  for (const p of pages.filter((x) => ZH_TWIN.test(x) && !runsAxe(x))) assert.ok(pages.includes(p.slice(3)) && runsAxe(p.slice(3)), `${p.slice(3)} runs axe`);
  // and every page that is not a per-scenario player page or a Chinese twin runs it
  for (const p of pages.filter((x) => !PER_SCENARIO_PAGE.test(x) && !ZH_TWIN.test(x))) assert.equal(runsAxe(p), true, p);
}

/** The crawl renders every page but the per-scenario ones, and of those one per scenario and language, every kind in turn. */
async function everyScenarioIsRenderedInBothLanguagesAndEveryTemplateForSeveral() {
  assert.ok(scenarioIds.length >= 10, `only ${scenarioIds.length} scenarios found`);
  for (const p of pages.filter((x) => !PER_SCENARIO_PAGE.test(x))) assert.equal(rendersInBrowser(p), true, p);
  for (const id of [...AXE_SCENARIOS, 'example']) {
    for (const p of pages.filter((x) => PER_SCENARIO_PAGE.exec(x)?.[1] === id)) assert.equal(rendersInBrowser(p), true, p);
  }
  const rendered = new Map();
  for (const id of scenarioIds) {
    for (const lang of ['', '/zh']) {
      const own = [`${lang}/present/${id}/`, `${lang}/present/${id}/notes/`, `${lang}/embed/${id}/`];
      for (const p of own) assert.ok(pages.includes(p), `${p} is built`);
      const shown = own.filter(rendersInBrowser);
      assert.ok(shown.length >= 1, `no ${lang || 'English'} page of ${id} is rendered`);
      for (const p of shown) rendered.set(`${lang} ${playerKind(p)}`, (rendered.get(`${lang} ${playerKind(p)}`) ?? 0) + 1);
    }
  }
  for (const lang of ['', '/zh']) {
    for (const kind of PLAYER_KINDS) {
      const n = rendered.get(`${lang} ${kind}`) ?? 0;
      assert.ok(n >= Math.min(3, Math.floor(scenarioIds.length / 3)), `the ${lang || 'English'} ${kind} template is rendered for ${n} scenarios`);
    }
  }
}

export default Object.fromEntries([
  [
    'the crawl renders every scenario in both languages, and every player template for several scenarios',
    everyScenarioIsRenderedInBothLanguagesAndEveryTemplateForSeveral,
  ],
  ...pages.map(pageTest),
  ['axe runs on every template in both languages, and on every page without a twin of its template', axeRunsOnEveryTemplateInBothLanguages],
  ['no broken internal links or #fragments on any page', noBrokenInternalLinksOrFragments],
  [
    'the link checker reports a missing page, a missing fragment and a redirect',
    linkCheckerReportsMissingPagesFragmentsAndRedirects,
  ],
  ['the axe harness reports serious and critical violations', axeHarnessReportsSeriousViolations],
  ['axe samples long lists but checks every shape of row', axeSamplesLongListsButChecksEveryShapeOfRow],
  [
    'the dark pass catches contrast that fails in the dark scheme only',
    axeDarkPassCatchesContrastThatFailsInDarkOnly,
  ],
  ['JavaScript budgets (scripts/size.mjs) hold on every page', javascriptBudgetsHoldOnEveryPage],
  [
    'the budget measurement counts real responses, and the budget rules fire',
    budgetMeasurementCountsRealResponsesAndBudgetRulesFire,
  ],
]);
