// The shell and the fixed pages: home, 404, header, search, colour schemes, print, reduced motion.
// (Checks that hold for every page, such as axe and links, are in site.e2e.mjs.)

import assert from 'node:assert/strict';
import { formatViolations, openPage, parseHtml, seriousAxeViolations } from './helpers.mjs';

/** Computed style values of `selector` on the page (the first match), or null when absent. */
function styleOf(page, selector, properties, pseudo) {
  return page.evaluate(
    ({ selector, properties, pseudo }) => {
      const el = document.querySelector(selector);
      if (!el) return null;
      const style = getComputedStyle(el, pseudo);
      return Object.fromEntries(properties.map((p) => [p, style.getPropertyValue(p)]));
    },
    { selector, properties, pseudo },
  );
}

/** The text of a page's main that should be Chinese: names, ids, code and log lines left out (read in the browser). */
function proseOfMain(doc) {
  const m = doc.querySelector('main');
  if (!m) return '';
  const c = m.cloneNode(true);
  // names and ids fill the step summaries: the step list and the player's panels are left out (their words are checked on the player)
  for (const x of c.querySelectorAll('script, style, template, code, pre, [translate="no"], .full-steps, .fp-panels, .fp-facts, .object-view, .compare-wrap')) x.remove();
  return c.textContent;
}

/** The prose is Chinese: most of main's letters are Han characters, English names, code and log lines aside. */
function assertChinese(zhPath, text) {
  const hanCount = (text.match(/\p{Script=Han}/gu) ?? []).length;
  const latin = (text.match(/[A-Za-z]/g) ?? []).length;
  assert.ok(hanCount > latin * 0.5, `${zhPath}: ${hanCount} Han characters vs ${latin} Latin letters`);
}

/**
 * A Chinese page: in Chinese, with its switch to the same page in English, and back. What is
 * checked of a page with prose is in its HTML as served, so it is read parsed, not rendered (no
 * player to hydrate, no trace to fetch, no layout), which keeps these dozens of pages quick; console
 * and page errors with JavaScript are the site crawl's check (site.e2e.mjs), on every page, and
 * switchingLanguageInTheHeaderLandsOnTheSamePage clicks a switch. A player page (present, embed)
 * is rendered: its steps are drawn by its script.
 */
async function checkChinesePair(browser, baseUrl, zhPath, enPath) {
  const bare = /\/(present|embed)\/[a-z0-9-]+\//.test(enPath);
  if (bare) {
    const { page, response, errors, close } = await openPage(browser, `${baseUrl}${zhPath}`);
    try {
      assert.equal(response?.status(), 200, zhPath);
      assert.deepEqual(errors, []);
      assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN', `${zhPath} <html lang>`);
      await page.locator('.fp-stepno').first().waitFor();
      assertChinese(zhPath, await page.evaluate(`(${proseOfMain})(document)`));
      assert.equal(await page.locator(`link[rel="alternate"][hreflang="en"][href="${enPath}"]`).count(), 1);
    } finally {
      await close();
    }
    return;
  }
  const { status, result: zh } = await parseHtml(browser, `${baseUrl}${zhPath}`, (doc, prose) => {
    const sw = doc.querySelector('header a.lang-switch');
    return {
      lang: doc.documentElement.getAttribute('lang'),
      prose: new Function('doc', `return (${prose})(doc);`)(doc),
      alternates: [...doc.querySelectorAll('link[rel="alternate"][hreflang="en"]')].map((l) => l.getAttribute('href')),
      skip: doc.querySelector('.skip-link')?.textContent ?? '',
      switch: sw ? { hreflang: sw.getAttribute('hreflang'), href: sw.getAttribute('href') } : null,
      englishChapters: doc.querySelectorAll('main a[href^="/flows/"]').length,
      englishOnly: [...doc.querySelectorAll('main a[href^="/components/"], main a[href^="/explain/"]')].map((a) => ({ href: a.getAttribute('href'), hreflang: a.getAttribute('hreflang') })),
    };
  }, proseOfMain.toString());
  assert.equal(status, 200, zhPath);
  assert.equal(zh.lang, 'zh-CN', `${zhPath} <html lang>`);
  assertChinese(zhPath, zh.prose);
  assert.deepEqual(zh.alternates, [enPath], `${zhPath}: <link rel="alternate" hreflang="en">`);
  assert.match(zh.skip, /跳到正文/);
  // the switch leads to the same page in English, and says which language it leads to
  assert.deepEqual(zh.switch, { hreflang: 'en', href: enPath }, `${zhPath}: the language switch`);
  // links to chapters stay in Chinese; links to pages that exist only in English say so
  assert.equal(zh.englishChapters, 0, `${zhPath}: a link to an English chapter`);
  for (const a of zh.englishOnly) assert.equal(a.hreflang, 'en', `${zhPath}: ${a.href} says it is English`);
  const { status: enStatus, result: en } = await parseHtml(browser, `${baseUrl}${enPath}`, (doc) => {
    const sw = doc.querySelector('header a.lang-switch');
    return { lang: doc.documentElement.getAttribute('lang'), switch: sw ? { hreflang: sw.getAttribute('hreflang'), href: sw.getAttribute('href') } : null };
  });
  assert.equal(enStatus, 200, enPath);
  assert.equal(en.lang, 'en', `${enPath} <html lang>`);
  assert.deepEqual(en.switch, { hreflang: 'zh-CN', href: zhPath }, `${enPath}: the language switch`);
}

/** Check the pairs a few at a time (each is a handful of page loads, mostly waiting on the browser). */
async function checkChinesePairs(browser, baseUrl, pairs) {
  const queue = [...pairs];
  const worker = async () => {
    for (let pair = queue.shift(); pair; pair = queue.shift()) await checkChinesePair(browser, baseUrl, pair[0], pair[1]);
  };
  await Promise.all([worker(), worker(), worker()]);
}

/** The ids of the elements in a page's main (anchors other pages link to), sorted: from its HTML as served. */
async function mainIds(browser, url) {
  const { result } = await parseHtml(browser, url, (doc) => [...doc.querySelectorAll('main [id]')].map((e) => e.id));
  return result.sort();
}

/**
 * /zh/components/, two component pages and /zh/components/csi-rpcs/: pairs of their English pages
 * (Chinese text, the switch both ways, no link to an English chapter), with the same anchors, their
 * links in Chinese, and the log lines' summaries from the Chinese catalog.
 */
async function theComponentPagesAreInChineseWithTheSameAnchorsAsInEnglish({ browser, baseUrl }) {
  const han = /\p{Script=Han}/u;
  const pairs = [['/zh/components/', '/components/'], ['/zh/components/kubelet/', '/components/kubelet/'],
    ['/zh/components/attach-detach-controller/', '/components/attach-detach-controller/'], ['/zh/components/csi-rpcs/', '/components/csi-rpcs/']];
  for (const [zhPath, enPath] of pairs) {
    await checkChinesePair(browser, baseUrl, zhPath, enPath);
    assert.deepEqual(await mainIds(browser, `${baseUrl}${zhPath}`), await mainIds(browser, `${baseUrl}${enPath}`), `${zhPath}: the anchors of ${enPath}`);
  }
  const { page, errors, close } = await openPage(browser, `${baseUrl}/zh/components/kubelet/`, { javaScriptEnabled: false });
  try {
    // links to pages that have a Chinese version lead there: components, the RPC page, chapters, players
    const hrefs = await page.locator('main a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.ok(hrefs.length > 20, `${hrefs.length} links`);
    for (const h of hrefs) assert.match(h, /^\/zh\//, `a link from /zh/components/kubelet/ to ${h}`);
    assert.match(await page.locator('.crumbs a').getAttribute('href'), /^\/zh\/components\/$/);
    assert.equal(await page.locator('main a[href^="/zh/flows/mount/"]').count() > 0, true, 'the kubelet acts in the Mount chapter');
    // the log table: the summary in Chinese, the template and the id as klog and the catalog have them
    const row = page.locator('#msg-kubelet-mountVolumeStarted');
    assert.match(await row.locator('.summary').innerText(), han);
    assert.equal(await row.locator('code.template').first().getAttribute('translate'), 'no');
    assert.equal((await row.locator('.meta code').innerText()).trim(), 'kubelet.mountVolumeStarted');
    // headings and table headers are Chinese
    for (const id of ['purpose', 'writes', 'state-charts', 'logs']) assert.match(await page.locator(`h2#${id}`).innerText(), han, `h2#${id}`);
    for (const th of await page.locator('main thead th').allTextContents()) assert.ok(han.test(th) || th.trim() === 'RPC', `table header "${th}"`);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
}
theComponentPagesAreInChineseWithTheSameAnchorsAsInEnglish.timeoutMs = 120_000;

/** The chapters' paths, from the English chapter list. */
async function page0Chapters(browser, baseUrl) {
  const { page, close } = await openPage(browser, `${baseUrl}/flows/`);
  try {
    return await page.$$eval('.chapter-list h2 a', (as) => as.map((a) => new URL(a.href).pathname));
  } finally {
    await close();
  }
}

const tests = [
  async function homePageLoadsWithoutErrorsAndShipsNoScriptsUnlessItHasAWidget({ browser, baseUrl }) {
    const { page, response, errors, requests, close } = await openPage(browser, `${baseUrl}/`);
    try {
      assert.equal(response?.status(), 200);
      assert.deepEqual(errors, []);
      assert.equal(await page.locator('h1').count(), 1);
      assert.match(await page.locator('h1').innerText(), /CSI Flows/);
      // The shell itself adds no script; only a widget on the page may (see scripts/size.mjs).
      if ((await page.locator('astro-island, [data-widget]').count()) === 0) {
        assert.equal(await page.locator('script').count(), 0, 'home page has <script> tags');
        const scripts = requests.filter((r) => r.resourceType() === 'script').map((r) => r.url());
        assert.deepEqual(scripts, [], 'home page requested JavaScript');
      }
    } finally {
      await close();
    }
  },

  async function notFoundPageShipsNoScriptFromTheShell({ browser, baseUrl }) {
    // The 404 page has no widget, so any script on it would come from the shell.
    const { page, close } = await openPage(browser, `${baseUrl}/404.html`);
    try {
      assert.equal(await page.locator('script').count(), 0, 'the shell adds <script> tags');
    } finally {
      await close();
    }
  },

  async function unknownUrlServesNotFoundPage({ browser, baseUrl }) {
    const url = `${baseUrl}/no-such-page/`;
    const { page, response, errors, close } = await openPage(browser, url);
    try {
      assert.equal(response?.status(), 404);
      // Chromium logs the 404 status of the document itself; only that one error is expected.
      const expected = `console.error: Failed to load resource: the server responded with a status of 404 (Not Found) (${url})`;
      const unexpected = errors.filter((e) => e !== expected);
      assert.deepEqual(unexpected, []);
      assert.equal(await page.locator('h1').count(), 1);
      assert.match(await page.locator('h1').innerText(), /not found/i);
      assert.equal(await page.locator('main a[href="/"]').first().isVisible(), true);
    } finally {
      await close();
    }
  },

  async function skipLinkIsFirstFocusAndTargetsMain({ browser, baseUrl }) {
    const { page, close } = await openPage(browser, `${baseUrl}/`);
    try {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement?.getAttribute('href'));
      assert.equal(focused, '#main');
      assert.equal(await page.locator('main#main').count(), 1);
    } finally {
      await close();
    }
  },

  async function colorSchemeFollowsSystemPreference({ browser, baseUrl }) {
    const tokens = ['--bg', '--fg', '--code-bg', '--highlight', '--ok', '--warn', '--err'];
    const read = async (colorScheme) => {
      const { page, close } = await openPage(browser, `${baseUrl}/`, { colorScheme });
      try {
        return {
          body: await page.evaluate(() => getComputedStyle(document.body).backgroundColor),
          tokens: await styleOf(page, ':root', tokens),
        };
      } finally {
        await close();
      }
    };
    const light = await read('light');
    const dark = await read('dark');
    assert.notEqual(light.body, dark.body);
    for (const token of tokens) {
      assert.notEqual(light.tokens?.[token]?.trim() || '', '', `${token} is not defined`);
      assert.notEqual(light.tokens?.[token], dark.tokens?.[token], `${token} has no dark value`);
    }
  },

  async function headerHasTheSiteNameNavAndALabelledSearchForm({ browser, baseUrl }) {
    const { page, close } = await openPage(browser, `${baseUrl}/`);
    try {
      const header = page.locator('header.site-header');
      assert.equal(await header.locator('a.site-name[href="/"]').innerText(), 'CSI Flows');
      assert.equal(await header.locator('a.site-name[href="/"]').getAttribute('aria-current'), 'page');
      const nav = header.getByRole('navigation', { name: 'Main' });
      assert.deepEqual(await nav.getByRole('link').allInnerTexts(), ['Flows', 'Components', 'Explain', 'Embed', 'Search']);
      const form = header.locator('form[role="search"]');
      assert.equal(await form.getAttribute('action'), '/search/');
      assert.equal((await form.getAttribute('method'))?.toLowerCase(), 'get');
      const input = header.getByLabel('Search the site');
      assert.equal(await input.getAttribute('name'), 'q');
    } finally {
      await close();
    }
  },

  async function headerSearchWorksWithoutJavaScript({ browser, baseUrl }) {
    const { page, close } = await openPage(browser, `${baseUrl}/`, { javaScriptEnabled: false });
    try {
      await page.getByLabel('Search the site').fill('kubelet volume');
      await Promise.all([page.waitForURL('**/search/?q=*'), page.keyboard.press('Enter')]);
      const url = new URL(page.url());
      assert.equal(url.pathname, '/search/');
      assert.equal(url.searchParams.get('q'), 'kubelet volume');
      // Without JavaScript the search page says so and offers a way on.
      // (Playwright's text selectors skip <noscript>, so the paragraph is located by CSS.)
      const noScript = page.locator('noscript p');
      assert.match(await noScript.innerText(), /Search runs in your browser and needs JavaScript/);
      assert.equal(await noScript.isVisible(), true);
    } finally {
      await close();
    }
  },

  async function headerFitsA360pxScreenInTwoRows({ browser, baseUrl }) {
    // in both languages: the Chinese header has other labels and a longer switch ("English")
    for (const home of ['/', '/zh/']) {
    const { page, close } = await openPage(browser, `${baseUrl}${home}`, {
      viewport: { width: 360, height: 740 },
    });
    try {
      const header = page.locator('header.site-header');
      const overflow = await header.evaluate((el) => el.scrollWidth - el.clientWidth);
      assert.ok(overflow <= 0, `header scrolls sideways by ${overflow}px`);
      const centres = [];
      for (const locator of [
        page.locator('a.site-name'),
        page.locator('header a.lang-switch'),
        ...(await page.locator('header nav a').all()),
        page.locator('#site-search-q'),
        page.locator('header button[type="submit"]'),
      ]) {
        const box = await locator.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 360, `off screen: ${JSON.stringify(box)}`);
        centres.push(box.y + box.height / 2);
      }
      // Items of one row share their vertical centre (align-items: center); a new row starts
      // where the centre jumps. Site name, language switch and search share a row, the nav links take the next.
      centres.sort((a, b) => a - b);
      const rows = 1 + centres.filter((c, i) => i > 0 && c - (centres[i - 1] ?? c) > 8).length;
      assert.equal(rows, 2, `${home}: header items sit on ${rows} rows (centres ${centres.map(Math.round)})`);
    } finally {
      await close();
    }
    }
  },

  async function searchPageRunsTheQueryFromTheUrl({ browser, baseUrl }) {
    const { page, errors, close } = await openPage(browser, `${baseUrl}/search/?q=kubelet`);
    try {
      // Pagefind UI draws a result's placeholder first and fills in its link when the result's
      // fragment has loaded: wait for the link, or a slow machine reads an empty list.
      const results = page.locator('.pagefind-ui__result-link');
      await results.first().waitFor({ timeout: 10_000 });
      const field = page.getByLabel('Search the chapters and component pages');
      assert.equal(await field.inputValue(), 'kubelet');
      // Every result leads to a page of this site.
      const hrefs = await page.locator('.pagefind-ui__result-link').evaluateAll((links) =>
        links.map((a) => /** @type {HTMLAnchorElement} */ (a).href),
      );
      assert.ok(hrefs.length > 0);
      for (const href of hrefs) {
        assert.ok(href.startsWith(`${baseUrl}/`), `result outside the site: ${href}`);
        const status = (await fetch(href)).status;
        assert.equal(status, 200, `result ${href} answers ${status}`);
      }
      await page.waitForFunction(() =>
        /result/.test(document.getElementById('search-results-announcer')?.textContent ?? ''),
      );
      // Typing a new query keeps ?q= in step, so the address can be shared.
      await field.fill('volume');
      await page.waitForURL((url) => url.searchParams.get('q') === 'volume', { timeout: 5_000 });
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function searchResultsPassAxeInDarkMode({ browser, baseUrl }) {
    const { page, errors, close } = await openPage(browser, `${baseUrl}/search/?q=volume`, {
      colorScheme: 'dark',
    });
    try {
      await page.locator('.pagefind-ui__result-link').first().waitFor({ timeout: 10_000 });
      const violations = await seriousAxeViolations(page);
      assert.deepEqual(violations, [], formatViolations(violations));
      // Result titles follow the site's dark text colour, not Pagefind's default dark grey.
      const [title, body] = await Promise.all([
        styleOf(page, '.pagefind-ui__result-link', ['color']),
        styleOf(page, 'body', ['color']),
      ]);
      assert.equal(title?.color, body?.color);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function searchPageExplainsAMissingIndex({ browser, baseUrl }) {
    const context = await browser.newContext();
    try {
      // As under `astro dev`: no Pagefind bundle.
      await context.route('**/pagefind/**', (route) => route.fulfill({ status: 404, body: '' }));
      const page = await context.newPage();
      await page.goto(`${baseUrl}/search/?q=kubelet`);
      const status = page.getByRole('status').filter({ hasText: 'search index is missing' });
      await status.waitFor({ timeout: 10_000 });
      assert.match(await status.innerText(), /npm run build:site/);
    } finally {
      await context.close();
    }
  },

  async function printHidesChromeAndShowsExternalUrls({ browser, baseUrl }) {
    const { page, close } = await openPage(browser, `${baseUrl}/`, { colorScheme: 'dark' });
    try {
      // Content the shell's print rules are for, added to the page under test.
      await page.evaluate(() => {
        const main = document.querySelector('main');
        main?.insertAdjacentHTML(
          'beforeend',
          '<p><a id="t-ext" href="https://kubernetes.io/docs/">docs</a> <a id="t-int" href="/">home</a></p>' +
            '<button id="t-control" class="no-print">Play</button>' +
            '<div id="t-control2" class="no-print">controls</div>' +
            '<ol id="t-steps" style="max-height: 3rem; overflow: auto"><li>1</li><li>2</li><li>3</li><li>4</li></ol>' +
            `<pre id="t-pre">${'x'.repeat(400)}</pre>`,
        );
      });
      await page.emulateMedia({ media: 'print' });
      const display = (selector) => styleOf(page, selector, ['display']).then((s) => s?.display);
      assert.equal(await display('.site-header nav'), 'none');
      assert.equal(await display('.site-search'), 'none');
      assert.equal(await display('.skip-link'), 'none');
      assert.equal(await display('#t-control'), 'none');
      assert.equal(await display('#t-control2'), 'none');
      const body = await styleOf(page, 'body', ['color', 'background-color']);
      assert.deepEqual(body, { color: 'rgb(0, 0, 0)', 'background-color': 'rgb(255, 255, 255)' });
      const external = await styleOf(page, '#t-ext', ['content'], '::after');
      assert.match(external?.content ?? '', /https:\/\/kubernetes\.io\/docs\//);
      const internal = await styleOf(page, '#t-int', ['content'], '::after');
      assert.equal(internal?.content, 'none');
      const steps = await styleOf(page, '#t-steps', ['max-height', 'overflow-y']);
      assert.deepEqual(steps, { 'max-height': 'none', 'overflow-y': 'visible' });
      const pre = await styleOf(page, '#t-pre', ['white-space']);
      assert.equal(pre?.['white-space'], 'pre-wrap');

      // And on screen the same elements are untouched (the rules above are print-only).
      await page.emulateMedia({ media: 'screen' });
      assert.notEqual(await display('.site-header nav'), 'none');
      assert.notEqual(await display('#t-control'), 'none');
    } finally {
      await close();
    }
  },

  async function reducedMotionTurnsOffTransitionsAndAnimations({ browser, baseUrl }) {
    const durations = async (reducedMotion) => {
      const { page, close } = await openPage(browser, `${baseUrl}/`, { reducedMotion });
      try {
        await page.evaluate(() => {
          document.querySelector('main')?.insertAdjacentHTML(
            'beforeend',
            '<div id="t-moving" style="transition: opacity 2s; animation: t-spin 3s infinite"></div>',
          );
        });
        return await styleOf(page, '#t-moving', ['transition-duration', 'animation-duration']);
      } finally {
        await close();
      }
    };
    assert.deepEqual(await durations('no-preference'), {
      'transition-duration': '2s',
      'animation-duration': '3s',
    });
    const reduced = await durations('reduce');
    assert.deepEqual(reduced, { 'transition-duration': '1e-05s', 'animation-duration': '1e-05s' });
  },
  async function everyPageHasAContentSecurityPolicyThatRefusesForeignCode({ browser, baseUrl }) {
    for (const path of ['/', '/flows/attach/', '/embed/attach/', '/present/attach/', '/explain/', '/search/']) {
      const { page, errors, close } = await openPage(browser, `${baseUrl}${path}`);
      try {
        const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
        assert.match(csp ?? '', /default-src 'self'/, `${path}: a CSP`);
        assert.match(csp ?? '', /object-src 'none'/);
        // a script from elsewhere is refused (and says so in a securitypolicyviolation event)
        const refused = await page.evaluate(() => new Promise((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true });
          const s = document.createElement('script');
          s.src = 'https://cdn.example.com/x.js';
          document.head.append(s);
          setTimeout(() => resolve(null), 2000);
        }));
        assert.match(String(refused), /^script-src/, `${path}: a foreign script is refused`);
        // the page's own code ran under it without a complaint
        assert.deepEqual(errors.filter((e) => !/cdn\.example\.com/.test(e)), [], `${path}`);
      } finally {
        await close();
      }
    }
  },
  async function theGlossaryDefinesTheTermsAndSearchLeadsToIt({ browser, baseUrl }) {
    const { page, errors, close } = await openPage(browser, `${baseUrl}/glossary/`, { javaScriptEnabled: false });
    try {
      // the abbreviations the site uses, each defined, each linking to its entry
      for (const [abbr, id] of [['VA', 'va'], ['PVC', 'pvc'], ['SC', 'storageclass'], ['STS', 'statefulset'], ['DSW', 'desired-state-of-world'], ['ASW', 'actual-state-of-world'], ['ADC', 'attach-detach-controller']]) {
        assert.equal(await page.locator(`.abbrs a[href="#${id}"] abbr`, { hasText: new RegExp(`^${abbr}$`) }).count(), 1, abbr);
        const dd = page.locator(`h2#${id} + p`);
        assert.ok((await dd.innerText()).length > 60, `${abbr} has a definition`);
      }
      for (const id of ['finalizer', 'reconciler', 'uncertain']) assert.equal(await page.locator(`h2#${id}`).count(), 1, id);
      // entries lead to the chapter that shows them
      const href = await page.locator('h2#va + p a').first().getAttribute('href');
      assert.equal(href, '/flows/attach/');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
    // searching a term leads to its definition first, not to diagram sources or log templates
    const search = await openPage(browser, `${baseUrl}/search/?q=VolumeAttachment`);
    try {
      await search.page.locator('.pagefind-ui__result-link').first().waitFor({ timeout: 10_000 });
      // the definition comes first, above the results, with a link to its entry
      const card = search.page.locator('#glossary-hit');
      await card.waitFor({ state: 'visible' });
      assert.match(await card.innerText(), /^VolumeAttachment \(VA\): The object through which the attach\/detach controller/);
      assert.equal(await card.locator('a').getAttribute('href'), '/glossary/#va');
      const excerpts = await search.page.locator('.pagefind-ui__result-excerpt').allInnerTexts();
      for (const x of excerpts) assert.doesNotMatch(x, /stateDiagram-v2|sequenceDiagram|\{[a-zA-Z]+:q\}/, 'no diagram source or log template in an excerpt');
    } finally {
      await search.close();
    }
  },

  async function theChinesePagesAreInChineseAndEveryPageSwitchesToTheSamePageInTheOtherLanguage({ browser, baseUrl }) {
    const han = /\p{Script=Han}/gu;
    await checkChinesePairs(browser, baseUrl, [['/zh/', '/'], ['/zh/glossary/', '/glossary/'], ['/zh/flows/', '/flows/'], ['/zh/explain/', '/explain/'], ['/zh/embed/', '/embed/'],
      ['/zh/playground/', '/playground/'], ['/zh/present/attach/', '/present/attach/'], ['/zh/embed/attach/', '/embed/attach/']]);
    // a page not translated yet leads to the Chinese home page, and its title says so
    const { page, close } = await openPage(browser, `${baseUrl}/search/`);
    try {
      const sw = page.locator('header a.lang-switch');
      assert.equal(await sw.getAttribute('href'), '/zh/');
      assert.match(await sw.getAttribute('title'), /还没有中文版/);
    } finally {
      await close();
    }
    // the glossary keeps its anchors in Chinese, and its terms as the Chinese docs write them
    const g = await openPage(browser, `${baseUrl}/zh/glossary/`);
    try {
      assert.match(await g.page.locator('h2#pvc').innerText(), /持久卷申领/);
      assert.ok((await g.page.locator('h2#va + p').innerText()).match(han)?.length > 20, 'VA has a Chinese definition');
      assert.equal(await g.page.locator('h2#va + p a[href="/zh/flows/attach/"]').count(), 1, 'the VA entry links the Chinese Attach chapter');
    } finally {
      await g.close();
    }
  },
  theComponentPagesAreInChineseWithTheSameAnchorsAsInEnglish,
  async function switchingLanguageInTheHeaderLandsOnTheSamePage({ browser, baseUrl }) {
    // without JavaScript, as the pairs were checked: a click while the player fetches its trace
    // would abort that request (the crawl checks the page with its scripts)
    const { page, errors, close } = await openPage(browser, `${baseUrl}/flows/attach/`, { javaScriptEnabled: false });
    try {
      await page.locator('header a.lang-switch').click();
      await page.waitForURL(`${baseUrl}/zh/flows/attach/`);
      assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
      await page.locator('header a.lang-switch').click();
      await page.waitForURL(`${baseUrl}/flows/attach/`);
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },
  async function theFirstHalfOfTheChaptersIsInChineseWithItsSwitch({ browser, baseUrl }) {
    const chapters = await page0Chapters(browser, baseUrl);
    await checkChinesePairs(browser, baseUrl, chapters.slice(0, Math.ceil(chapters.length / 2)).map((p) => [`/zh${p}`, p]));
  },
  async function theSecondHalfOfTheChaptersIsInChineseWithItsSwitch({ browser, baseUrl }) {
    const chapters = await page0Chapters(browser, baseUrl);
    assert.ok(chapters.length >= 10, `${chapters.length} chapters`);
    await checkChinesePairs(browser, baseUrl, chapters.slice(Math.ceil(chapters.length / 2)).map((p) => [`/zh${p}`, p]));
  },
];

// The Chinese pairs open a dozen pages in a row, each twice (both languages, then the switch): on a
// busy machine more than the runner's 30 s default.
for (const t of tests) if (/Chinese/.test(t.name)) t.timeoutMs ??= 90_000;

export default tests;
