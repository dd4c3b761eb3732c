// /explain/: paste or choose logs, explained in a worker; summary, annotated listing, filters, bad
// input, a 20 MB file with progress, no JavaScript, axe with results on screen, screenshots.
// (The site-wide checks of site.e2e.mjs cover the untouched page.)

import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { axeLightAndDark, formatViolations, openPage } from './helpers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots';

/** Seed 000's log lines without the stream column, read here independently of the page. */
async function seedLines() {
  const raw = await readFile(path.resolve(here, '../../src/data/seeds/seed-000.log'), 'utf8');
  return raw
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => l.slice(l.indexOf('\t') + 1));
}

/**
 * Give the file input a large file from disk: Chromium reads a path itself, where a buffer is sent
 * over the DevTools protocol (17 s for 28 MB here). The page reads the file lazily, so it stays
 * until the returned function removes it, when the test is over.
 */
async function chooseLargeFile(page, name, buffer) {
  const dir = await mkdtemp(path.join(tmpdir(), 'csi-flows-explain-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const file = path.join(dir, name);
    await writeFile(file, buffer);
    await page.locator('#explain-file').setInputFiles(file);
  } catch (error) {
    await remove();
    throw error;
  }
  return remove;
}

const open = (browser, baseUrl, options) => openPage(browser, `${baseUrl}/explain/`, options);

/** Run the explainer on what the form holds and wait for the first page of lines. */
async function explain(page, { timeout = 30_000 } = {}) {
  await page.locator('#explain-run').click();
  await page.locator('#explain-results').waitFor({ state: 'visible', timeout });
  await page.locator('#explain-lines > li').first().waitFor({ timeout });
}

/** The summary's facts as { term: text }. */
function summaryFacts(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('#explain-summary dt')].map((dt) => [
        dt.textContent?.trim() ?? '',
        dt.nextElementSibling?.textContent?.trim() ?? '',
      ]),
    ),
  );
}

const countOf = (text) => Number(/^([\d,]+)/.exec(text ?? '')?.[1]?.replaceAll(',', '') ?? NaN);

/** A longer limit for the tests that explain 20 MB (run.mjs reads fn.timeoutMs). */
const slow = (fn, ms = 180_000) => Object.assign(fn, { timeoutMs: ms });

// Rows use content-visibility: auto, so the text of rows off screen is read with textContent
// (innerText leaves out what is not rendered yet).

export default [
  async function sampleIsExplainedWithSummaryStagesAndOneRowPerLine({ browser, baseUrl }) {
    const lines = await seedLines();
    const { page, errors, close } = await open(browser, baseUrl);
    try {
      await page.getByRole('button', { name: 'Load a sample' }).click();
      const pasted = await page.locator('#explain-text').inputValue();
      assert.deepEqual(pasted.split('\n'), lines, 'the sample is seed 000 without its stream column');
      await explain(page);

      const facts = await summaryFacts(page);
      assert.equal(countOf(facts.Lines), lines.length, `summary line count: ${facts.Lines}`);
      const stages = await page.locator('.xp-stages li').allInnerTexts();
      // The seed has kubelet MountVolume lines and the controller's AttachVolume/DetachVolume lines.
      for (const st of ['attach', 'mount', 'detach']) assert.ok(stages.includes(st), `stage ${st} in ${stages}`);
      assert.ok((await page.locator('.xp-verdict').innerText()).length > 20, 'a verdict paragraph');
      assert.equal(await page.locator('#explain-lines > li').count(), lines.length, 'one row per input line');
      assert.equal(await page.locator('#explain-summary-heading').evaluate((h) => h === document.activeElement), true, 'focus moves to the summary');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function knownKubeletLineGetsComponentAndAStepLinkThatExists({ browser, baseUrl }) {
    const lines = await seedLines();
    const n = lines.findIndex((l) => l.includes('operationExecutor.MountVolume started')) + 1;
    assert.ok(n > 0, 'the seed has the MountVolume started line');
    const { page, errors, close } = await open(browser, baseUrl);
    try {
      await page.getByRole('button', { name: 'Load a sample' }).click();
      await explain(page);
      const row = page.locator(`#L${n}`);
      assert.equal(await row.locator('.xp-comp').textContent(), 'kubelet');
      assert.match(await row.locator('.xp-stage').textContent(), /mount$/);
      const href = await row.getByRole('link', { name: 'see this step in the flow' }).getAttribute('href');
      assert.match(href ?? '', /^\/(flows|embed)\/[\w-]+\/\?(.*&)?step=\d+/, `step link ${href}`);
      const target = await page.request.get(`${baseUrl}${href}`);
      assert.equal(target.status(), 200, `${href} is a page of the site`);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function unrecognisedLinesAreMarkedGuessOrNotRecognised({ browser, baseUrl }) {
    const { page, errors, close } = await open(browser, baseUrl);
    try {
      await page.locator('#explain-text').fill(
        [
          'the coffee machine on floor 3 is out of beans',
          'I0111 14:58:08.573794   21944 frobnicator.go:12] frobnicated the widget volume attachment',
        ].join('\n'),
      );
      // Ctrl+Enter runs it as the Explain button does.
      await page.locator('#explain-text').press('Control+Enter');
      await page.locator('#L2').waitFor();
      assert.equal(await page.locator('#L1 .xp-unknown').textContent(), 'not recognised');
      assert.equal(await page.locator('#L1 .xp-step').count(), 0);
      assert.equal(await page.locator('#L2 .xp-guess').textContent(), 'guess');
      assert.equal(await page.locator('#L2 .xp-step').count(), 0, 'a guess links to no step');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function continuationLinesAreGroupedWithTheirHeadLine({ browser, baseUrl }) {
    const { page, errors, close } = await open(browser, baseUrl);
    try {
      await page.locator('#explain-text').fill(
        [
          'I0111 14:58:34.547876   20721 reconciler.go:269] operationExecutor.MountVolume started for volume "pvc-1" pod "web-0"',
          '    (UID: "e0d0fa80-cc4a-4d44-8fae-154aa8142e3a")',
        ].join('\n'),
      );
      await explain(page);
      const cont = page.locator('#L2');
      assert.match((await cont.getAttribute('class')) ?? '', /xp-kind-continuation/);
      assert.match((await cont.textContent()) ?? '', /continues line 1/);
      // No rule between a line and its continuation: the continuation's top edge hides the separator.
      const gap = await page.evaluate(() => {
        const a = document.getElementById('L1')?.getBoundingClientRect();
        const b = document.getElementById('L2')?.getBoundingClientRect();
        return a && b ? b.top - a.bottom : NaN;
      });
      assert.ok(gap <= 0, `continuation starts ${gap}px below its head`);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function aDroppedFileIsTakenAsTheInput({ browser, baseUrl }) {
    const lines = await seedLines();
    const { page, errors, close } = await open(browser, baseUrl);
    try {
      await page.evaluate((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'kubelet.log', { type: 'text/plain' }));
        const tool = /** @type {HTMLElement} */ (document.getElementById('explain-tool'));
        for (const type of ['dragover', 'drop']) tool.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, lines.join('\n'));
      assert.match(await page.locator('#explain-file-name').innerText(), /^kubelet\.log \(/);
      assert.equal(await page.locator('#explain-text').isDisabled(), true, 'the text box is not used while a file is chosen');
      await explain(page);
      assert.equal(countOf((await summaryFacts(page)).Lines), lines.length);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function knowledgeThatCannotBeLoadedIsReportedInThePage({ browser, baseUrl }) {
    const { page, errors, close } = await open(browser, baseUrl);
    try {
      // Workers' requests go through the context, so route there.
      await page.context().route('**/data/explain/knowledge.json', (route) => route.fulfill({ status: 503, body: 'down' }));
      await page.getByRole('button', { name: 'Load a sample' }).click();
      await page.locator('#explain-run').click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.match(await alert.innerText(), /could not load .*HTTP 503/);
      assert.equal(await page.locator('#explain-progress').isVisible(), false);
      assert.equal(await page.locator('#explain-run').isEnabled(), true, 'the reader can try again');
      // The browser logs the 503 itself; nothing else may reach the console.
      assert.deepEqual(errors.filter((e) => !/status of 503/.test(e)), []);
    } finally {
      await close();
    }
  },

  async function emptyPasteSaysWhatToPaste({ browser, baseUrl }) {
    const { page, errors, close } = await open(browser, baseUrl);
    try {
      const alert = page.getByRole('alert');
      await page.locator('#explain-run').click();
      await alert.waitFor();
      assert.match(await alert.innerText(), /paste log lines .*kubelet/i);
      assert.equal(await page.locator('#explain-results').isVisible(), false);
      // Whitespace only is empty too; the message stays put and focus returns to the text box.
      await page.locator('#explain-text').fill('   \n\t\n');
      await page.locator('#explain-run').click();
      assert.match(await alert.innerText(), /Nothing to explain/);
      assert.equal(await page.locator('#explain-text').evaluate((t) => t === document.activeElement), true);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function binaryFileShowsTheUnusableInputMessage({ browser, baseUrl }) {
    const { page, errors, close } = await open(browser, baseUrl);
    try {
      const bytes = Buffer.alloc(4096);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
      await page.locator('#explain-file').setInputFiles({ name: 'core.dump', mimeType: 'application/octet-stream', buffer: bytes });
      assert.match(await page.locator('#explain-file-name').innerText(), /core\.dump \(4\.0 KiB\)/);
      await page.locator('#explain-run').click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.match(await alert.innerText(), /binary/i);
      assert.equal(await page.locator('#explain-results').isVisible(), false);
      assert.equal(await page.locator('#explain-progress').isVisible(), false);
      // Removing the file and pasting text works after the rejection.
      await page.getByRole('button', { name: 'Remove the file' }).click();
      await page.locator('#explain-text').fill('I0111 14:58:08.573794   21944 reconciler.go:1] x');
      await explain(page);
      assert.equal(await alert.isVisible(), false, 'the old message is cleared');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function notUtf8FileIsRejectedWithAClearMessage({ browser, baseUrl }) {
    const { page, errors, close } = await open(browser, baseUrl);
    try {
      // Latin-1 "é" (0xE9) alone is not valid UTF-8.
      const buffer = Buffer.from('I0111 14:58:08.573794   1 x.go:1] caf\xe9 volume\n', 'latin1');
      await page.locator('#explain-file').setInputFiles({ name: 'latin1.log', mimeType: 'text/plain', buffer });
      await page.locator('#explain-run').click();
      await page.getByRole('alert').waitFor();
      assert.match(await page.getByRole('alert').innerText(), /UTF-8/);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function filtersNarrowTheListingAndSummaryLinksJumpToTheLine({ browser, baseUrl }) {
    const { page, errors, close } = await open(browser, baseUrl);
    try {
      await page.getByRole('button', { name: 'Load a sample' }).click();
      await explain(page);
      const all = await page.locator('#explain-lines > li').count();

      await page.getByLabel('Only problems').check();
      await page.waitForFunction((n) => document.querySelectorAll('#explain-lines > li').length < n, all);
      const severities = await page.locator('#explain-lines > li .xp-sev').allTextContents();
      assert.ok(severities.length > 0, 'the sample has problem lines (its kubelet E lines)');
      for (const s of severities) assert.match(s, /^(error|warning|fatal)$/);

      await page.getByRole('button', { name: 'Show all lines' }).click();
      await page.waitForFunction((n) => document.querySelectorAll('#explain-lines > li').length === n, all);

      await page.getByLabel('Component').selectOption('kubelet');
      await page.waitForFunction((n) => document.querySelectorAll('#explain-lines > li').length < n, all);
      const comps = await page.locator('#explain-lines > li:not(.xp-kind-continuation) .xp-comp').allTextContents();
      assert.ok(comps.length > 0);
      assert.deepEqual([...new Set(comps)], ['kubelet']);

      // A line link in the summary clears the filters, shows the line and focuses it.
      const link = page.locator('#explain-summary a[data-xp-line]').first();
      const line = Number(await link.getAttribute('data-xp-line'));
      await link.click();
      await page.waitForFunction((n) => document.activeElement?.id === `L${n}`, line);
      assert.equal(await page.getByLabel('Component').inputValue(), '');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  slow(async function twentyMegabyteFileCompletesWithProgressAndAResponsivePage({ browser, baseUrl }) {
    const seed = await seedLines();
    const lines = [];
    let bytes = 0;
    for (let i = 0; bytes < 20 * 1024 * 1024; i++) {
      const l = seed[i % seed.length];
      lines.push(l);
      bytes += Buffer.byteLength(l) + 1;
    }
    const buffer = Buffer.from(`${lines.join('\n')}\n`);
    const { page, errors, close } = await open(browser, baseUrl);
    let removeFile;
    try {
      removeFile = await chooseLargeFile(page, 'big.log', buffer);
      // Record the progress bar's values and the longest gap between timer ticks on the main thread.
      await page.evaluate(() => {
        const w = /** @type {any} */ (window);
        w.__progress = [];
        new MutationObserver(() => {
          const v = document.getElementById('explain-bar')?.getAttribute('value');
          if (v !== null && v !== undefined) w.__progress.push(Number(v));
        }).observe(/** @type {Node} */ (document.getElementById('explain-bar')), { attributes: true });
        w.__maxGap = 0;
        let last = performance.now();
        w.__ticker = setInterval(() => {
          const now = performance.now();
          w.__maxGap = Math.max(w.__maxGap, now - last);
          last = now;
        }, 20);
      });
      const t0 = Date.now();
      await page.locator('#explain-run').click();
      assert.equal(await page.locator('#explain-progress').isVisible(), true, 'a progress bar while it runs');
      assert.equal(await page.getByRole('button', { name: 'Cancel' }).isVisible(), true);
      await explain(page, { timeout: 120_000 });
      const { progress, maxGap } = await page.evaluate(() => {
        const w = /** @type {any} */ (window);
        clearInterval(w.__ticker);
        return { progress: w.__progress, maxGap: w.__maxGap };
      });
      const partial = new Set(progress.filter((v) => v > 0 && v < 100));
      assert.ok(partial.size >= 2, `progress values between 0 and 100 were shown: ${[...partial]}`);
      assert.ok(maxGap < 400, `main thread blocked for ${Math.round(maxGap)} ms`);

      const facts = await summaryFacts(page);
      assert.equal(countOf(facts.Lines), lines.length, `summary line count ${facts.Lines}`);
      assert.equal(await page.locator('#explain-lines > li').count(), 500, 'one page of 500 rows, not every line');
      const range = await page.locator('[data-xp-pager="top"] [data-xp-range]').innerText();
      assert.match(range, new RegExp(`of ${lines.length.toLocaleString('en')} lines \\(page 1 of ${Math.ceil(lines.length / 500)}\\)`));
      await page.locator('[data-xp-pager="top"] [data-xp-next]').click();
      await page.locator('#L501').waitFor();
      assert.equal(await page.locator('#explain-lines > li').first().getAttribute('id'), 'L501');
      console.log(`    20 MB: ${lines.length} lines in ${((Date.now() - t0) / 1000).toFixed(1)} s, longest main-thread gap ${Math.round(maxGap)} ms`);
      assert.deepEqual(errors, []);
    } finally {
      await close();
      await removeFile?.();
    }
  }),

  async function cancelStopsARunAndTheNextRunWorks({ browser, baseUrl }) {
    const seed = await seedLines();
    const big = Buffer.from(`${Array.from({ length: 120_000 }, (_, i) => seed[i % seed.length]).join('\n')}\n`);
    const { page, errors, close } = await open(browser, baseUrl);
    let removeFile;
    try {
      removeFile = await chooseLargeFile(page, 'big.log', big);
      await page.locator('#explain-run').click();
      await page.getByRole('button', { name: 'Cancel' }).click();
      assert.equal(await page.locator('#explain-progress').isVisible(), false);
      assert.equal(await page.locator('#explain-results').isVisible(), false);
      assert.match(await page.locator('#explain-status').innerText(), /Cancelled/);
      await page.getByRole('button', { name: 'Load a sample' }).click();
      await explain(page);
      assert.equal(countOf((await summaryFacts(page)).Lines), seed.length);
      assert.deepEqual(errors, []);
    } finally {
      await close();
      await removeFile?.();
    }
  },

  async function withoutJavaScriptThePageExplainsItselfAndPointsToTheCli({ browser, baseUrl }) {
    const { page, errors, close } = await open(browser, baseUrl, { javaScriptEnabled: false });
    try {
      assert.equal(await page.locator('h1').innerText(), 'Explain logs');
      assert.equal(await page.locator('#explain-tool').isVisible(), false, 'no dead form without JavaScript');
      const text = await page.locator('main').innerText();
      assert.match(text, /needs JavaScript/);
      assert.match(text, /npx csi-flows explain/);
      assert.match(text, /nothing is uploaded/i);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  slow(async function resultsPassAxeAndFitAPhoneInBothSchemes({ browser, baseUrl }) {
    await mkdir(SHOTS, { recursive: true });
    for (const width of [1280, 390]) {
      const { page, errors, close } = await open(browser, baseUrl, { viewport: { width, height: 900 } });
      try {
        await page.getByRole('button', { name: 'Load a sample' }).click();
        await explain(page);
        const { light, dark } = await axeLightAndDark(page);
        assert.deepEqual(light, [], `axe, light, ${width}px:\n${formatViolations(light)}`);
        assert.deepEqual(dark, [], `axe, dark, ${width}px:\n${formatViolations(dark)}`);
        await page.setViewportSize({ width: width === 390 ? 360 : width, height: 900 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `scrolls sideways by ${overflow}px`);
        await page.setViewportSize({ width, height: 900 });
        for (const scheme of ['light', 'dark']) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.screenshot({ path: path.join(SHOTS, `G-${scheme}-${width}.png`), fullPage: true });
        }
        assert.deepEqual(errors, []);
      } finally {
        await close();
      }
    }
  }, 90_000),
  async function theChineseExplainerReadsTheSampleLikeTheEnglishAndExplainsItInChinese({ browser, baseUrl }) {
    const han = /\p{Script=Han}/u;
    const runOn = async (path) => {
      const { page, errors, close } = await openPage(browser, `${baseUrl}${path}`);
      try {
        await page.locator('#explain-sample').click();
        await explain(page);
        const rows = await page.locator('#explain-lines > li').evaluateAll((lis) => lis.map((li) => ({
          comp: li.querySelector('.xp-comp')?.textContent ?? '', expl: li.querySelector('.xp-expl')?.textContent ?? '', link: li.querySelector('.xp-links a')?.getAttribute('href') ?? '',
        })));
        const verdict = await page.locator('.xp-verdict').innerText();
        assert.deepEqual(errors, [], `${path}: console errors`);
        return { rows, verdict };
      } finally {
        await close();
      }
    };
    const en = await runOn('/explain/');
    const zh = await runOn('/zh/explain/');
    // the same reading, line for line: the same components, and every explained line explained
    assert.deepEqual(zh.rows.map((r) => r.comp), en.rows.map((r) => r.comp));
    assert.equal(zh.rows.filter((r) => r.expl).length, en.rows.filter((r) => r.expl).length);
    for (const r of zh.rows) if (r.expl) assert.match(r.expl, han, `explanation in Chinese: ${r.expl}`);
    assert.match(zh.verdict, /共 \d+ 条日志记录/);
    // its step links open the Chinese chapters
    assert.ok(zh.rows.some((r) => r.link.startsWith('/zh/flows/')), 'a step link into a Chinese chapter');
    assert.ok(zh.rows.every((r) => !r.link || r.link.startsWith('/zh/')), 'no step link into an English page');
  },
];
