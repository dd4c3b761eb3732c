// The playground (/playground/, src/components/playground): every example runs to a flow in the
// player; broken YAML shows its message at its line and marks that line in the gutter; the URL after
// a run reopens the same scenario; ?example= and a bad ?s= link; the page without JavaScript; axe;
// no sideways scrolling on a phone. The examples are read from their files, as the page imports them.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { axeLightAndDark, formatViolations, openPage } from './helpers.mjs';

const PAGE = '/playground/';
const here = path.dirname(fileURLToPath(import.meta.url));
const examplesDir = path.resolve(here, '../../src/components/playground/examples');

const example = (id) => readFile(path.join(examplesDir, `${id}.yaml`), 'utf8');

/** Open the playground and wait until its island is live (Run enabled). */
async function openPlayground(browser, baseUrl, search = '', contextOptions = {}) {
  const visit = await openPage(browser, `${baseUrl}${PAGE}${search}`, contextOptions);
  await visit.page.locator('.pg-primary:not([disabled])').waitFor({ timeout: 10_000 });
  return visit;
}

const editor = (page) => page.getByRole('textbox', { name: 'Scenario', exact: true });
const runButton = (page) => page.getByRole('button', { name: 'Run', exact: true });

/** Press Run and wait for the run's outcome: { steps } from the status line, or { problem } from the message. */
async function run(page) {
  const before = await page.locator('.pg').getAttribute('data-finished');
  await runButton(page).click();
  return settled(page, before);
}

/** Wait until a run ends (the status line says how) and, on success, the new player shows step 1. */
async function settled(page, before = null) {
  const status = page.locator('#pg-status');
  await page.waitForFunction(
    (prev) => {
      const s = document.getElementById('pg-status')?.textContent ?? '';
      const finished = document.querySelector('.pg')?.getAttribute('data-finished') ?? null;
      return finished !== prev && (/^Ran \d+ steps/.test(s) || /^(Not run|No flow)/.test(s));
    },
    before,
    { timeout: 20_000 },
  );
  const text = (await status.innerText()).trim();
  const m = /^Ran (\d+) steps/.exec(text);
  if (!m) return { problem: (await page.locator('.pg-problem').innerText()).trim(), status: text };
  const steps = Number(m[1]);
  await page.locator('.fp-stepno', { hasText: new RegExp(`^Step 1 of ${steps}$`) }).waitFor({ timeout: 10_000 });
  return { steps, status: text };
}

/** Where the gutter's mark and line `n` of the textarea sit: their vertical centres must agree. */
async function markAndLine(page, n) {
  return page.evaluate((line) => {
    const ta = /** @type {HTMLTextAreaElement} */ (document.getElementById('pg-text'));
    const mark = document.querySelector('.pg-mark');
    if (!mark) return null;
    const cs = getComputedStyle(ta);
    const lh = parseFloat(cs.lineHeight);
    const top = ta.getBoundingClientRect().top + parseFloat(cs.paddingTop) + (line - 1) * lh - ta.scrollTop;
    const m = mark.getBoundingClientRect();
    return { markText: mark.textContent, markCentre: m.top + m.height / 2, lineCentre: top + lh / 2, markVisible: m.height > 0 };
  }, n);
}

const tests = [
  async function theStartingExampleIsThereAndEachExampleRunsToAFlow({ browser, baseUrl }) {
    const { page, errors, close } = await openPlayground(browser, baseUrl);
    try {
      assert.equal(await editor(page).inputValue(), await example('pod-with-claim'));
      // the player is not there before a run: a placeholder says what Run does
      assert.equal(await page.locator('.fp').count(), 0);
      const ids = await page.locator('#pg-example optgroup[label="Examples"] option').evaluateAll((os) => os.map((o) => /** @type {HTMLOptionElement} */ (o).value));
      assert.deepEqual(ids, ['pod-with-claim', 'no-attach', 'rwx-two-nodes', 'statefulset-move', 'node-shutdown', 'stage-fault', 'late-node-plugin']);
      for (const id of ids) {
        await page.getByLabel('Examples').selectOption(id);
        assert.equal(await editor(page).inputValue(), await example(id), `${id}: the editor holds the example`);
        const r = await run(page);
        assert.ok(r.steps, `${id}: ${r.problem ?? r.status}`);
        assert.ok(r.steps > 5, `${id}: ${r.steps} steps`);
        // the flow's title is the Scenario document's; the URL carries the scenario now
        const title = /title: "([^"]+)"/.exec(await example(id))?.[1];
        assert.equal((await page.locator('.fp-title').innerText()).trim(), title, `${id}: the player's title`);
        assert.ok(new URL(page.url()).searchParams.get('s'), `${id}: ?s= after the run`);
        // the player is the full one: diagram, log, objects, state of world (the panels render just
        // after the step's text)
        for (const heading of ['Sequence', 'Log', 'Objects']) {
          const h = page.locator('.fp-panels').getByRole('heading', { name: heading }).first();
          await h.waitFor({ timeout: 5000 }).catch(() => {});
          assert.equal(await h.isVisible(), true, `${id}: ${heading}`);
        }
        // and it steps
        await page.locator('.fp-controls').getByRole('button', { name: /next/i }).click();
        await page.locator('.fp-stepno', { hasText: new RegExp(`^Step 2 of ${r.steps}$`) }).waitFor({ timeout: 5000 });
      }
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function everyBuiltInScenarioIsInTheMenuAsAFileThatRunsToItsChaptersFlow({ browser, baseUrl }) {
    // the library the site is built from: the built-in scenarios and their traces
    const lib = await import('../../dist/lib/machines/index.js');
    const { page, errors, close } = await openPlayground(browser, baseUrl);
    try {
      const group = page.locator('#pg-example optgroup', { hasText: '' }).nth(1);
      assert.match(await group.getAttribute('label') ?? '', /^Built-in scenarios/);
      const values = await group.locator('option').evaluateAll((os) => os.map((o) => /** @type {HTMLOptionElement} */ (o).value));
      assert.deepEqual([...values].sort(), lib.SCENARIOS.map((s) => `chapter:${s.id}`).sort(), 'every built-in scenario, once');
      // learning order: the first chapter's scenario first
      assert.equal(values[0], 'chapter:provision');
      // every one of them runs in the browser to its chapter's flow (the mount chapters start their
      // trace mid-story: their files run the whole story, so more steps)
      for (const value of values) {
        const id = value.slice('chapter:'.length);
        await page.getByLabel('Examples').selectOption(value);
        await page.waitForFunction((want) => /** @type {HTMLTextAreaElement} */ (document.getElementById('pg-text')).value.includes(`name: ${want}\n`), id);
        const served = await (await fetch(`${baseUrl}/scenarios/${id}.yaml`)).text();
        assert.equal(await editor(page).inputValue(), served, `${id}: the editor holds /scenarios/${id}.yaml`);
        assert.equal(served, lib.scenarioFile(id).yaml, `${id}: the served file is scenarioFile's`);
        const r = await run(page);
        const chapter = lib.runScenario(id).steps.length;
        if (lib.scenarioFile(id).differences.length === 0) assert.equal(r.steps, chapter, `${id}: the chapter's number of steps`);
        else assert.ok(r.steps > chapter, `${id}: the whole story, ${r.steps} steps, holds the chapter's ${chapter}`);
      }
      // the note leads to the chapter that shows it
      // the note of the scenario loaded before stays until the file has come: wait for the new one
      await page.getByLabel('Examples').selectOption('chapter:pod-migration');
      await page.waitForFunction(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('pg-text')).value.includes('name: pod-migration\n'));
      assert.equal(await page.locator('.pg-note a').getAttribute('href'), '/flows/pod-migration/');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
    // ?chapter= opens a built-in scenario's file and runs it; an unknown one says so
    const linked = await openPlayground(browser, baseUrl, '?chapter=teardown');
    try {
      const r = await settled(linked.page);
      assert.equal(r.steps, lib.runScenario('teardown').steps.length);
      assert.equal(await linked.page.getByLabel('Examples').inputValue(), 'chapter:teardown');
      assert.deepEqual(linked.errors, []);
    } finally {
      await linked.close();
    }
    const bad = await openPlayground(browser, baseUrl, '?chapter=atach');
    try {
      await bad.page.locator('.pg-notice').waitFor({ timeout: 5000 });
      assert.match(await bad.page.locator('.pg-notice').innerText(), /no built-in scenario "atach" \(the built-in scenarios: provision, /);
      assert.deepEqual(bad.errors, []);
    } finally {
      await bad.close();
    }
  },

  async function theChinesePlaygroundRunsInChineseWithTheScenarioFormatInEnglish({ browser, baseUrl }) {
    const lib = await import('../../dist/lib/machines/index.js');
    const { page, errors, close } = await openPage(browser, `${baseUrl}/zh/playground/?chapter=attach`);
    try {
      const status = page.locator('#pg-status');
      await page.waitForFunction(() => /^运行了 \d+ 步/.test(document.getElementById('pg-status')?.textContent ?? ''), null, { timeout: 20_000 });
      const steps = Number(/^运行了 (\d+) 步/.exec(await status.innerText())?.[1]);
      assert.equal(steps, lib.runScenario('attach').steps.length, 'the chapter\'s flow');
      // the built-in scenario's title and the chapter it leads to, in Chinese
      assert.equal((await page.locator('#pg-example option:checked').innerText()).trim(), '挂接：Pod 的卷被挂接到它所在的节点');
      assert.equal(await page.locator('.pg-note a').getAttribute('href'), '/zh/flows/attach/');
      // the player speaks Chinese: its steps' summaries come from the Chinese catalog
      await page.locator('.fp-stepno').first().waitFor({ timeout: 10_000 });
      assert.match(await page.locator('.fp').first().innerText(), /\p{Script=Han}{4}/u);
      // an example's label and note in Chinese; its YAML as written
      await page.getByLabel('示例').selectOption('stage-fault');
      assert.match(await page.locator('.pg-note').innerText(), /^一个故障：驱动对第一次 NodeStageVolume 返回 INTERNAL/);
      assert.equal(await page.getByRole('textbox', { name: '场景', exact: true }).inputValue(), await example('stage-fault'));
      // a mistake: the status in Chinese, the scenario's own message in English at its line
      await page.getByRole('textbox', { name: '场景', exact: true }).fill('apiVersion: v1\nkind: Pod\nmetadata: { name: app }\nspec: { containers: [] , volumes: [{ name: d, persistentVolumeClaim: { claimName: nope } }] }\n');
      await page.getByRole('button', { name: '运行', exact: true }).click();
      await page.waitForFunction(() => /^没有运行：第 \d+ 行有错误。/.test(document.getElementById('pg-status')?.textContent ?? ''), null, { timeout: 20_000 });
      assert.match(await page.locator('.pg-problem').innerText(), /^line 4: document 1 \(Pod app\), spec.containers: needs at least one container\n+显示第 4 行$/);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function brokenYamlShowsItsMessageAtItsLineAndMarksTheLine({ browser, baseUrl }) {
    const { page, errors, close } = await openPlayground(browser, baseUrl);
    try {
      const good = await example('pod-with-claim');
      // a claim that does not exist
      const wrongClaim = good.replace('claimName: data', 'claimName: dta');
      const line = wrongClaim.split('\n').findIndex((l) => l.includes('claimName: dta')) + 1;
      await editor(page).fill(wrongClaim);
      let r = await run(page);
      assert.ok(r.problem, `no error: ${r.status}`);
      assert.match(r.problem, new RegExp(`^line ${line}: document 3 \\(Pod app\\), spec\\.volumes\\[0\\]\\.persistentVolumeClaim\\.claimName: no PersistentVolumeClaim "dta"`));
      assert.match(r.status, new RegExp(`line ${line}`));
      assert.equal(await editor(page).getAttribute('aria-invalid'), 'true');
      let at = await markAndLine(page, line);
      assert.ok(at, 'no mark in the gutter');
      assert.equal(at.markText, String(line));
      assert.ok(Math.abs(at.markCentre - at.lineCentre) < 2, `the mark (${at.markCentre}) is not beside line ${line} (${at.lineCentre})`);
      // the inline note after the line says what is wrong
      assert.match(await page.locator('.pg-lens').innerText(), /no PersistentVolumeClaim "dta"/);
      // "Show line N" selects that line in the editor
      await page.getByRole('button', { name: `Show line ${line}` }).click();
      const selected = await editor(page).evaluate((ta) => ta.value.slice(ta.selectionStart, ta.selectionEnd));
      assert.equal(selected.trim(), 'claimName: dta');
      // never a blank page: the page and its editor are still there, nothing was thrown
      assert.equal(await page.locator('.fp').count(), 0);

      // a YAML syntax error, far down the text (the editor scrolls to it, the gutter follows)
      const broken = `${good}\n${'# padding\n'.repeat(40)}apiVersion: v1\nkind: Pod\nmetadata: {name: x\n`;
      await editor(page).fill(broken);
      r = await run(page);
      assert.ok(r.problem, `no error: ${r.status}`);
      const m = /^line (\d+): .*not valid YAML/s.exec(r.problem);
      assert.ok(m, `message: ${r.problem}`);
      const yamlLine = Number(m[1]);
      assert.ok(yamlLine > 80, `line ${yamlLine}`);
      at = await markAndLine(page, yamlLine);
      assert.ok(at, 'no mark in the gutter');
      assert.equal(at.markText, String(yamlLine));
      assert.ok(Math.abs(at.markCentre - at.lineCentre) < 2, `the mark (${at.markCentre}) is not beside line ${yamlLine} (${at.lineCentre})`);
      const box = await editor(page).boundingBox();
      assert.ok(at.lineCentre > box.y && at.lineCentre < box.y + box.height, 'the marked line is scrolled into view');

      // fixed: the run succeeds and the mark goes
      await editor(page).fill(good);
      r = await run(page);
      assert.ok(r.steps > 5, r.problem ?? r.status);
      assert.equal(await page.locator('.pg-mark').count(), 0);
      assert.equal(await editor(page).getAttribute('aria-invalid'), null);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function theUrlAfterARunReopensTheSameScenario({ browser, baseUrl }) {
    const first = await openPlayground(browser, baseUrl);
    let shared;
    let text;
    let steps;
    try {
      text = (await example('rwx-two-nodes')).replace('storage: 10Gi', 'storage: 20Gi');
      await editor(first.page).fill(text);
      const r = await run(first.page);
      assert.ok(r.steps > 5, r.problem ?? r.status);
      steps = r.steps;
      shared = first.page.url();
      assert.match(new URL(shared).searchParams.get('s') ?? '', /^[A-Za-z0-9_-]+$/);
      assert.deepEqual(first.errors, []);
    } finally {
      await first.close();
    }
    const second = await openPage(browser, shared);
    try {
      const r = await settled(second.page);
      assert.equal(await editor(second.page).inputValue(), text);
      assert.equal(r.steps, steps);
      // a text of its own: the menu says so
      assert.equal(await second.page.getByLabel('Examples').inputValue(), '');
      assert.deepEqual(second.errors, []);
    } finally {
      await second.close();
    }
    // ?example= opens (and runs) an example
    const third = await openPage(browser, `${baseUrl}${PAGE}?example=no-attach`);
    try {
      const r = await settled(third.page);
      assert.ok(r.steps > 5, r.problem ?? r.status);
      assert.equal(await editor(third.page).inputValue(), await example('no-attach'));
      assert.equal(await third.page.getByLabel('Examples').inputValue(), 'no-attach');
      assert.deepEqual(third.errors, []);
    } finally {
      await third.close();
    }
  },

  // The result's player has the what-if too: it re-runs the reader's own text with the change, and
  // the link with the what-if reopens both.
  async function theResultsWhatIfReRunsTheReadersScenario({ browser, baseUrl }) {
    const { page, errors, close } = await openPlayground(browser, baseUrl, '', { viewport: { width: 1440, height: 900 } });
    let shared;
    try {
      const text = (await example('rwx-two-nodes')).replace('storage: 10Gi', 'storage: 30Gi');
      await editor(page).fill(text);
      const r = await run(page);
      assert.ok(r.steps > 5, r.problem ?? r.status);
      await page.locator('button.fp-whatif-open').click();
      const panel = page.locator('.fp-whatif');
      await panel.waitFor();
      await panel.getByLabel('Call').selectOption('NodePublishVolume');
      await panel.getByLabel('Code').selectOption('INTERNAL');
      await panel.getByLabel('How often').selectOption({ label: 'once' });
      await panel.locator('fieldset').first().getByRole('button', { name: 'Add' }).click();
      await panel.getByRole('button', { name: 'Run it' }).click();
      // the changed flow takes 3-8 s here from the click to its mark (the worker starts, runs the
      // scenario, the player redraws); a loaded CI machine took over 30 s once: wait up to 60
      await page.locator('.fp-whatif-bar a.fp-whatif-departs').waitFor({ timeout: 60_000 });
      const now = Number(/of (\d+)$/.exec((await page.locator('.fp-stepno').innerText()).trim())[1]);
      assert.ok(now > r.steps, `a failed NodePublishVolume adds steps (${now} > ${r.steps})`);
      // the call failed in the changed flow (the playground's scenario has no fault of its own)
      assert.match(await page.locator('.fp-log').innerText(), /code = Internal/);
      await page.waitForFunction(() => new URL(window.location.href).searchParams.has('fault'));
      shared = page.url();
      assert.ok(new URL(shared).searchParams.get('s'), 'the link keeps the scenario');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
    const again = await openPage(browser, shared, { viewport: { width: 1440, height: 900 } });
    try {
      await again.page.locator('.fp-whatif-bar a.fp-whatif-departs').waitFor({ timeout: 60_000 });
      assert.match(await again.page.locator('.fp-whatif-bar').innerText(), /NodePublishVolume=INTERNALx1/);
      assert.deepEqual(again.errors, []);
    } finally {
      await again.close();
    }
  },

  async function aLinkThatCannotBeReadSaysSoAndShowsTheStartingExample({ browser, baseUrl }) {
    for (const search of ['?s=nonsense!', '?s=AAAA', '?example=nope']) {
      const { page, errors, close } = await openPlayground(browser, baseUrl, search);
      try {
        await page.locator('.pg-notice').waitFor({ timeout: 5000 });
        assert.match(await page.locator('.pg-notice').innerText(), search.startsWith('?s') ? /could not be read.*starting example/s : /no example "nope".*starting example/s);
        assert.equal(await editor(page).inputValue(), await example('pod-with-claim'));
        assert.deepEqual(errors, [], search);
      } finally {
        await close();
      }
    }
  },

  async function withoutJavaScriptThePageSaysSoAndShowsTheStartingExample({ browser, baseUrl }) {
    const { page, close } = await openPage(browser, `${baseUrl}${PAGE}`, { javaScriptEnabled: false });
    try {
      // (Playwright's text selectors skip <noscript>, so its content is located by CSS)
      const note = page.locator('.pg-noscript');
      assert.equal(await note.isVisible(), true);
      assert.match(await note.innerText(), /needs JavaScript/);
      assert.match(await note.innerText(), /npx csi-flows trace --file scenario\.yaml/);
      const shown = await page.locator('.pg-noscript-example').innerText();
      assert.equal(shown.trim(), (await example('pod-with-claim')).trim());
      // no dead editor or Run button
      assert.equal(await page.locator('.pg-island').isVisible(), false);
    } finally {
      await close();
    }
  },

  async function axeFindsNoSeriousViolationsBeforeAfterARunAndWithAnError({ browser, baseUrl }) {
    const { page, errors, close } = await openPlayground(browser, baseUrl);
    try {
      const check = async (when) => {
        const { light, dark } = await axeLightAndDark(page);
        assert.deepEqual(light, [], `${when}, light:\n${formatViolations(light)}`);
        assert.deepEqual(dark, [], `${when}, dark:\n${formatViolations(dark)}`);
        await page.emulateMedia({ colorScheme: 'light' });
      };
      await check('before a run');
      const r = await run(page);
      assert.ok(r.steps > 5, r.problem ?? r.status);
      await check('after a run');
      await editor(page).fill((await example('pod-with-claim')).replace('claimName: data', 'claimName: dta'));
      const bad = await run(page);
      assert.ok(bad.problem);
      await check('with an error');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function noSidewaysScrollingAt390px({ browser, baseUrl }) {
    const { page, errors, close } = await openPlayground(browser, baseUrl, '', { viewport: { width: 390, height: 844 } });
    try {
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok((await overflow()) <= 0, `before a run: scrolls sideways by ${await overflow()}px`);
      await page.getByLabel('Examples').selectOption('statefulset-move');
      const r = await run(page);
      assert.ok(r.steps > 5, r.problem ?? r.status);
      assert.ok((await overflow()) <= 0, `after a run: scrolls sideways by ${await overflow()}px`);
      await editor(page).fill((await example('pod-with-claim')).replace('claimName: data', 'claimName: a-claim-with-a-rather-long-name-that-does-not-exist-anywhere'));
      const bad = await run(page);
      assert.ok(bad.problem);
      assert.ok((await overflow()) <= 0, `with an error: scrolls sideways by ${await overflow()}px`);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },
];

// every example runs and renders the player: more than the default 30 s on two busy cores
for (const t of tests) t.timeoutMs = 120_000;

export default tests;
