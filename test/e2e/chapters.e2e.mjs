// The chapters at /flows/<id>/ and the /flows/ index: every chapter loads cleanly; without JavaScript
// each chapter's HTML carries every step's summary and klog line of the flows it shows (compared with
// the flow model JSON the site serves, not with anything the page computes); the step anchors and the
// step links point into those flows; the seed 000 links on pod-migration land on steps printing the
// quoted line's file:line; previous/next links walk the learning order both ways; a deep link opens
// the player on its step.

import assert from 'node:assert/strict';
import { openPage, parseHtml } from './helpers.mjs';

const models = new Map();
async function model(baseUrl, flow, k8s) {
  const key = `${flow}.${k8s}`;
  if (!models.has(key)) {
    const res = await fetch(`${baseUrl}/data/flows/${key}.json`);
    assert.equal(res.status, 200, `/data/flows/${key}.json`);
    models.set(key, await res.json());
  }
  return models.get(key);
}

/**
 * The chapters as a reader without JavaScript gets them, each loaded once and shared by the tests that
 * only read the HTML (a chapter's full step list is thousands of elements: loading it in a fresh
 * context for every such test was a third of this file's time). One context with JavaScript off;
 * `close` is a no-op, and no test may leave a page changed (a test that opens a <details> folds it
 * back).
 */
const staticPages = new Map();
let staticContext;
async function openStatic(browser, baseUrl, path) {
  if (!staticPages.has(path)) {
    staticPages.set(path, (async () => {
      staticContext ??= browser.newContext({ javaScriptEnabled: false });
      const page = await (await staticContext).newPage();
      const errors = [];
      const requests = [];
      page.on('console', (msg) => { if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`); });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      page.on('requestfailed', (req) => errors.push(`requestfailed: ${req.url()} ${req.failure()?.errorText ?? ''}`));
      page.on('request', (req) => requests.push(req));
      const response = await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
      return { page, response, errors, requests, close: async () => {} };
    })());
  }
  return staticPages.get(path);
}

/** The chapters in learning order, as the /flows/ index lists them (the index is under test too). */
async function chapterPaths(browser, baseUrl) {
  const { page, response, errors, close } = await openPage(browser, `${baseUrl}/flows/`, { javaScriptEnabled: false });
  try {
    assert.equal(response?.status(), 200, '/flows/');
    assert.deepEqual(errors, [], '/flows/ errors');
    const paths = await page.$$eval('.chapter-list h2 a', (as) => as.map((a) => new URL(a.href).pathname));
    return paths;
  } finally {
    await close();
  }
}

const EXPECTED_ORDER = [
  'provision', 'wffc-provision', 'attach', 'mount', 'teardown', 'register', 'multi-attach', 'no-attach', 'expand', 'snapshot', 'pod-migration', 'node-failure', 'ad-detach-backoff',
  'provision-failure', 'attach-failure', 'mount-failure', 'driver-not-registered', 'ceph-rbd',
].map((id) => `/flows/${id}/`);

/** Every step list on the page: its flow, version, and per step the anchor id, summary and log text. */
function readStepLists(page) {
  return page.$$eval('.step-list', (lists) =>
    lists.map((l) => ({
      flow: l.getAttribute('data-flow'),
      k8s: l.getAttribute('data-k8s'),
      steps: [...l.querySelectorAll('li.step')].map((li) => ({
        id: li.id,
        num: li.querySelector('a.num')?.textContent ?? '',
        summary: li.querySelector('.summary')?.textContent ?? null,
        log: li.querySelector('.log')?.textContent ?? null,
      })),
    })),
  );
}

function stepOfHref(href) {
  const u = new URL(href);
  assert.equal(u.hash, '#player', `step link ${href} targets #player`);
  const step = Number(u.searchParams.get('step'));
  assert.ok(Number.isInteger(step) && step >= 1, `step link ${href} has ?step=N`);
  return { step, flow: u.searchParams.get('flow'), k8s: u.searchParams.get('k8s') };
}

async function indexListsChaptersInOrderAndTheOtherScenarios({ browser, baseUrl }) {
  assert.deepEqual(await chapterPaths(browser, baseUrl), EXPECTED_ORDER);
  const { page, close } = await openPage(browser, `${baseUrl}/flows/`);
  try {
    assert.equal(await page.locator('h1').innerText(), 'Flows');
    const descriptions = await page.$$eval('.chapter-list li > p:not(.facts)', (ps) => ps.map((p) => p.textContent.trim()));
    assert.equal(descriptions.length, EXPECTED_ORDER.length);
    for (const d of descriptions) assert.ok(d.length > 40, `one-line description: "${d}"`);
    // the scenarios without a chapter open in their embed players
    const embeds = await page.$$eval('.scenario-list a', (as) => as.map((a) => new URL(a.href).pathname));
    assert.deepEqual(embeds.sort(), ['/embed/statefulset-rollout/']);
    for (const p of embeds) assert.equal((await fetch(`${baseUrl}${p}`)).status, 200, p);
  } finally {
    await close();
  }
}

/**
 * Every chapter has its sections. Read from the HTML as served (parsed, not rendered): the site
 * crawl (site.e2e.mjs) renders every chapter and fails on a console error, a failed request or a
 * second <h1>.
 */
async function everyChapterHasItsSections({ browser, baseUrl }) {
  for (const path of EXPECTED_ORDER) {
    const { status, result: c } = await parseHtml(browser, `${baseUrl}${path}`, (doc) => ({
      h1: doc.querySelectorAll('h1').length,
      sections: ['what-you-will-learn', 'walkthrough', 'what-to-remember', 'components-involved', 'full-step-list'].map((id) => doc.querySelectorAll(`#${id}`).length),
      player: doc.querySelectorAll('#player').length,
      learn: doc.querySelectorAll('.learn li').length,
      remember: doc.querySelectorAll('.remember li').length,
      components: [...doc.querySelectorAll('.component-links a')].map((a) => a.getAttribute('href') ?? ''),
    }));
    assert.equal(status, 200, path);
    assert.equal(c.h1, 1, `${path}: one h1`);
    assert.deepEqual(c.sections, [1, 1, 1, 1, 1], `${path}: one of each section (what you will learn, walkthrough, what to remember, components involved, full step list)`);
    assert.equal(c.player, 1, `${path}: #player`);
    assert.ok(c.learn > 0, `${path}: what you will learn`);
    assert.ok(c.remember > 0, `${path}: what to remember`);
    const components = c.components.map((href) => new URL(href, `${baseUrl}${path}`).pathname);
    assert.ok(components.length >= 2, `${path}: components involved`);
    for (const x of components) assert.match(x, /^\/components\/[a-z-]+\/$/, `${path}: component link ${x}`);
  }
}
everyChapterHasItsSections.timeoutMs = 90_000;

async function withoutJavaScriptEveryStepAndLogLineIsInTheHtml({ browser, baseUrl }) {
  for (const path of EXPECTED_ORDER) {
    const { page, response, errors, requests, close } = await openStatic(browser, baseUrl, path);
    try {
      assert.equal(response?.status(), 200, path);
      assert.deepEqual(errors, [], `${path}: errors without JavaScript`);
      assert.equal(requests.filter((r) => r.resourceType() === 'script').length, 0, `${path}: no script fetched without JavaScript`);
      const lists = await readStepLists(page);
      assert.ok(lists.length >= 1, `${path}: a step list`);
      const primary = lists[0];
      for (const list of lists) {
        const m = await model(baseUrl, list.flow, list.k8s);
        const where = `${path} ${list.flow} ${list.k8s}`;
        assert.equal(list.steps.length, m.steps.length, `${where}: one entry per step`);
        m.steps.forEach((s, i) => {
          const shown = list.steps[i];
          assert.equal(shown.num, String(s.i), `${where}: step ${s.i} numbered`);
          assert.equal(shown.summary, s.summary, `${where}: step ${s.i} summary`);
          assert.equal(shown.log, s.log ?? null, `${where}: step ${s.i} klog line`);
        });
        // the anchors: plain step-N on the chapter's first list, scenario-and-version ones elsewhere
        const expectedIds = m.steps.map((s) => (list === primary ? `step-${s.i}` : `${list.flow}-${list.k8s.replace('.', '')}-step-${s.i}`));
        assert.deepEqual(list.steps.map((s) => s.id), expectedIds, `${where}: anchors`);
      }
      // Readable, not just present: the main list's first and last steps are laid out without scripts;
      // a list folded in a <details> (another version of the same flow) opens without scripts too.
      const main = page.locator('.step-list').first().locator('li.step');
      assert.ok(await main.first().isVisible(), `${path}: first step visible`);
      await main.last().scrollIntoViewIfNeeded();
      assert.ok(await main.last().isVisible(), `${path}: last step visible`);
      for (const folded of await page.locator('details.step-list-section').all()) {
        await folded.locator('summary').click();
        const last = folded.locator('li.step').last();
        // (the toggle is laid out on the next frame: wait for it, as a loaded machine must)
        await last.waitFor({ state: 'visible', timeout: 5000 }).catch(() => {});
        await last.scrollIntoViewIfNeeded();
        assert.ok(await last.isVisible(), `${path}: a folded step list opens without JavaScript`);
        await folded.locator('summary').click(); // fold it back: the page is shared (openStatic)
      }
      // A reader without JavaScript is told where the steps are.
      assert.ok((await page.locator('#player').innerText()).length > 0, `${path}: #player has a text fallback`);
    } finally {
      await close();
    }
  }
}
withoutJavaScriptEveryStepAndLogLineIsInTheHtml.timeoutMs = 120_000;

async function stepLinksPointIntoTheChaptersFlows({ browser, baseUrl }) {
  for (const path of EXPECTED_ORDER) {
    const { page, close } = await openStatic(browser, baseUrl, path);
    try {
      const lists = await readStepLists(page);
      const flows = [...new Set(lists.map((l) => l.flow))];
      const base = { flow: lists[0].flow, k8s: lists[0].k8s };
      const hrefs = await page.$$eval('main a[href*="#player"]', (as) => as.map((a) => a.href));
      assert.ok(hrefs.length > lists.reduce((n, l) => n + l.steps.length, 0), `${path}: prose step links besides the lists`);
      for (const href of hrefs) {
        const { step, flow, k8s } = stepOfHref(href);
        const f = flow ?? base.flow;
        assert.ok(flows.includes(f), `${path}: ${href} names a flow of this chapter`);
        if (flows.length === 1) assert.equal(flow, null, `${path}: ${href} names no flow in a one-flow chapter`);
        const m = await model(baseUrl, f, k8s ?? base.k8s);
        assert.ok(step <= m.steps.length, `${path}: ${href} is within ${f} ${m.k8s} (${m.steps.length} steps)`);
      }
      // Prose links that carry data-step say the step they show ("step 12" -> ?step=12).
      const prose = await page.$$eval('a.step-link', (as) => as.map((a) => ({ href: a.href, n: a.getAttribute('data-step'), text: a.textContent })));
      assert.ok(prose.length >= 5, `${path}: prose step links`);
      for (const p of prose) {
        assert.equal(String(stepOfHref(p.href).step), p.n, `${path}: ${p.href}`);
        if (/^step \d+$/.test(p.text)) assert.equal(p.text, `step ${p.n}`, `${path}: link text of ${p.href}`);
      }
    } finally {
      await close();
    }
  }
}
stepLinksPointIntoTheChaptersFlows.timeoutMs = 90_000;

async function podMigrationSeedLinksLandOnStepsWithTheSameFileAndLine({ browser, baseUrl }) {
  const { page, close } = await openStatic(browser, baseUrl, '/flows/pod-migration/');
  try {
    const lines = await page.$$eval('.seed-line', (lis) =>
      lis.map((li) => ({ quoted: li.querySelector('.quoted')?.textContent ?? '', href: li.querySelector('a.sim')?.href ?? null, note: li.querySelector('.note')?.textContent ?? '' })),
    );
    assert.equal(lines.length, 46, 'seed 000 quotes 46 lines');
    const m = await model(baseUrl, 'pod-migration', '1.20');
    const site = (line) => /\s(\S+\.go:\d+)\] /.exec(line)?.[1];
    for (const l of lines) {
      assert.ok(l.href, `a link for: ${l.quoted.slice(0, 90)}`);
      const { step, k8s, flow } = stepOfHref(l.href);
      assert.equal(k8s, '1.20', `${l.href}: the 1.20 run`);
      assert.equal(flow, null);
      const printed = m.steps[step - 1]?.log;
      assert.ok(printed, `step ${step} prints a klog line`);
      assert.ok(site(l.quoted), `quoted line has file:line: ${l.quoted.slice(0, 90)}`);
      assert.equal(site(printed), site(l.quoted), `step ${step} prints ${site(l.quoted)}`);
      assert.ok(l.note.length > 20, `an annotation for ${site(l.quoted)}`);
    }
    // order per stream follows the trace (the pairing never goes back in time)
    const streams = await page.$$eval('.seed-line', (lis) => lis.map((li) => li.getAttribute('data-stream')));
    const last = new Map();
    lines.forEach((l, i) => {
      const step = stepOfHref(l.href).step;
      assert.ok(step > (last.get(streams[i]) ?? 0), `stream ${streams[i]}: step ${step} after ${last.get(streams[i])}`);
      last.set(streams[i], step);
    });
  } finally {
    await close();
  }
}

async function previousAndNextWalkTheLearningOrder({ browser, baseUrl }) {
  // follows each page's link to the page it names, which must load (openStatic's response)
  const walk = async (start, rel) => {
    const seen = [start];
    let path = start;
    for (let i = 0; i < EXPECTED_ORDER.length; i++) {
      const { page, response } = await openStatic(browser, baseUrl, path);
      assert.equal(response?.status(), 200, path);
      const link = page.locator(`nav.pager a[rel="${rel}"]`);
      if ((await link.count()) === 0) break;
      assert.equal(await link.count(), 1, `${path}: one ${rel} link`);
      path = new URL(await link.evaluate((a) => a.href)).pathname;
      seen.push(path);
    }
    return seen;
  };
  assert.deepEqual(await walk(EXPECTED_ORDER[0], 'next'), EXPECTED_ORDER);
  assert.deepEqual(await walk(EXPECTED_ORDER.at(-1), 'prev'), [...EXPECTED_ORDER].reverse());
}
previousAndNextWalkTheLearningOrder.timeoutMs = 60_000;

async function aDeepLinkOpensThePlayerOnItsStep({ browser, baseUrl }) {
  const m = await model(baseUrl, 'pod-migration', '1.20');
  const n = 57;
  const { page, errors, close } = await openPage(browser, `${baseUrl}/flows/pod-migration/?k8s=1.20&step=${n}#player`);
  try {
    await page.locator('.fp-stepno', { hasText: new RegExp(`^Step ${n} of ${m.steps.length}$`) }).waitFor({ timeout: 10_000 });
    const norm = (s) => s.replace(/\s+/g, ' ').trim();
    assert.ok(norm(await page.locator('#player').innerText()).includes(norm(m.steps[n - 1].summary)), 'the player shows the step summary');
    const top = await page.locator('#player').evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(Math.abs(top) < 200, `#player is scrolled into view (top ${top})`);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
}

/** Issue and PR numbers are links to them, in the chapters and on the component pages. */
async function issueNumbersAreLinksAndUpstreamLinksAreTagged({ browser, baseUrl }) {
  const pages = [...(await chapterPaths(browser, baseUrl)), '/components/attach-detach-controller/', '/components/kubelet/'];
  let refs = 0;
  for (const path of pages) {
    const { page, close } = await openStatic(browser, baseUrl, path);
    try {
      const found = await page.locator('main').evaluate((main) => {
        const out = [];
        const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          // a term's tooltip is plain text (nothing in it can take focus); the glossary entry it opens links the issue
          if (n.parentElement?.closest('code, pre, script, style, [data-widget], astro-island, [role="tooltip"]')) continue;
          for (const m of n.textContent.matchAll(/\bkubernetes#(\d+)\b/g)) out.push({ n: m[1], href: n.parentElement?.closest('a')?.getAttribute('href') ?? null });
        }
        return out;
      });
      for (const f of found) assert.equal(f.href, `https://github.com/kubernetes/kubernetes/issues/${f.n}`, `${path}: kubernetes#${f.n} links to it`);
      refs += found.length;
      // upstream code links name a release, never a moving branch
      const hrefs = await page.locator('main a[href^="https://github.com/kubernetes"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      for (const h of hrefs) assert.doesNotMatch(h, /\/(blob|tree)\/(master|main|HEAD)\//, `${path}: ${h} points at a branch`);
    } finally {
      await close();
    }
  }
  assert.ok(refs >= 5, `the chapters cite issues (${refs} found)`);
  // a component page links each upstream file at both profiles' releases
  const { page, close } = await openStatic(browser, baseUrl, '/components/kubelet/');
  try {
    const item = page.locator('#upstream + ul li', { hasText: 'reconciler_common.go' });
    const links = await item.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(links, [
      'https://github.com/kubernetes/kubernetes/blob/v1.30.4/pkg/kubelet/volumemanager/reconciler/reconciler_common.go',
      'https://github.com/kubernetes/kubernetes/blob/v1.30.4/pkg/kubelet/volumemanager/reconciler/reconciler_common.go',
      // in 1.20 the reconciler was one file
      'https://github.com/kubernetes/kubernetes/blob/v1.20.6/pkg/kubelet/volumemanager/reconciler/reconciler.go',
    ]);
  } finally {
    await close();
  }
}

/** Chapters link a term to the glossary on first use, with its definition on hover and on focus. */
async function chaptersLinkTermsToTheGlossary({ browser, baseUrl }) {
  const glossary = await fetch(`${baseUrl}/glossary/`).then((r) => r.text());
  const { page, errors, close } = await openPage(browser, `${baseUrl}/flows/attach/`, { viewport: { width: 1440, height: 900 } });
  try {
    const terms = page.locator('main a.term');
    const hrefs = await terms.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const id of ['desired-state-of-world', 'actual-state-of-world', 'reconciler', 'va', 'finalizer']) {
      assert.ok(hrefs.includes(`/glossary/#${id}`), `attach links ${id}`);
      assert.ok(glossary.includes(`id="${id}"`), `the glossary has ${id}`);
    }
    const first = terms.first();
    const tip = page.locator(`#${await first.getAttribute('aria-describedby')}`);
    assert.equal(await tip.isVisible(), false);
    await first.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await tip.waitFor({ state: 'visible' });
    assert.match(await tip.innerText(), /desired state of world \(DSW\): /);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
}

/** A chapter ends with checks (answers behind a disclosure), a real-cluster walkthrough and the upstream docs. */
async function chaptersEndWithChecksTryItAndDocs({ browser, baseUrl }) {
  for (const path of await chapterPaths(browser, baseUrl)) {
    const { page, errors, close } = await openStatic(browser, baseUrl, path);
    try {
      const checks = page.locator('section.checks li');
      assert.ok(await checks.count() >= 3, `${path}: checks`);
      const answer = checks.first().locator('details');
      assert.equal(await answer.getAttribute('open'), null, `${path}: the answer is hidden until asked for`);
      // multi-attach and node-failure have none: the hostpath driver keeps a volume on one node, and a kind node is its control plane too
      if (path !== '/flows/multi-attach/' && path !== '/flows/node-failure/') assert.ok(await page.locator('section.try pre[translate="no"] code').count() >= 2, `${path}: commands to try`);
      const docs = await page.locator('section.docs a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      assert.ok(docs.some((h) => h.startsWith('https://kubernetes.io/docs/') || h.startsWith('https://kubernetes-csi.github.io/docs/')), `${path}: upstream docs`);
      // every chapter links the glossary terms it uses
      assert.ok(await page.locator('main a.term').count() >= 4, `${path}: glossary links`);
      // file and function detail sits in folded notes for experts, closed at first
      for (const note of await page.locator('details.expert').all()) {
        assert.equal(await note.getAttribute('open'), null, `${path}: an expert note is folded`);
        assert.match(await note.locator('summary').innerText(), /for experts/);
      }
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
}

/** The chapters that moved their upstream file detail out of the prose keep it in expert notes. */
async function fileDetailIsInExpertNotes({ browser, baseUrl }) {
  for (const path of ['/flows/provision/', '/flows/attach/', '/flows/mount/', '/flows/multi-attach/', '/flows/wffc-provision/']) {
    const { page, close } = await openStatic(browser, baseUrl, path);
    try {
      const notes = page.locator('details.expert');
      assert.ok(await notes.count() >= 1, `${path}: an expert note`);
      assert.match(await notes.first().locator('.expert-body').textContent(), /\.go\b/, `${path}: the note names the file`);
      // the running prose no longer stops for package paths
      const prose = await page.locator('main > .walkthrough > p, main p').evaluateAll((ps) => ps.filter((p) => !p.closest('details, .checks, .try, .docs')).map((p) => p.textContent));
      assert.equal(prose.filter((t) => /pkg\/[a-z]+\/[a-z/_]+\.go/.test(t)).length, 0, `${path}: a package path in the prose`);
    } finally {
      await close();
    }
  }
}

export default [
  indexListsChaptersInOrderAndTheOtherScenarios,
  everyChapterHasItsSections,
  withoutJavaScriptEveryStepAndLogLineIsInTheHtml,
  stepLinksPointIntoTheChaptersFlows,
  podMigrationSeedLinksLandOnStepsWithTheSameFileAndLine,
  previousAndNextWalkTheLearningOrder,
  aDeepLinkOpensThePlayerOnItsStep,
  issueNumbersAreLinksAndUpstreamLinksAreTagged,
  chaptersLinkTermsToTheGlossary,
  chaptersEndWithChecksTryItAndDocs,
  fileDetailIsInExpertNotes,
];
