// The flow player (src/components/player): keys, deep links, the log pane, the inspector, the version
// switch, the embed postMessage API in a real <iframe>, Mermaid loading only after interaction in a
// chapter, and the page without JavaScript. Expected values are read from the flow model JSON the
// site serves (the same file the player loads), never from the player itself.

import assert from 'node:assert/strict';
import { formatViolations, openPage, seriousAxeViolations } from './helpers.mjs';

const EMBED = '/embed/attach/';
const CHAPTER = '/flows/attach/';

async function model(baseUrl, id, k8s = '1.30') {
  const res = await fetch(`${baseUrl}/data/flows/${id}.${k8s}.json`);
  assert.equal(res.status, 200, `model ${id}.${k8s}`);
  return res.json();
}

/** The step the player (in a page or a frame) shows, from its "Step N of T" label. */
async function shown(scope) {
  const text = await scope.locator('.fp-stepno').innerText();
  const m = /^Step (\d+) of (\d+)$/.exec(text.trim());
  assert.ok(m, `step label "${text}"`);
  return { step: Number(m[1]), total: Number(m[2]) };
}

async function waitForStep(scope, step) {
  await scope.locator('.fp-stepno', { hasText: new RegExp(`^Step ${step} of `) }).waitFor({ timeout: 5000 });
}

/**
 * The summary the player shows, without its "Step N of T" prefix. Whitespace is normalised on both
 * sides of a comparison (`same`): rendered text loses a trailing space some klog messages carry.
 */
async function summary(scope) {
  const all = await scope.locator('.fp-summary').innerText();
  const label = await scope.locator('.fp-stepno').innerText();
  return all.slice(label.length).trim();
}
const norm = (s) => s.replace(/\s+/g, ' ').trim();



const stepParam = (page) => new URL(page.url()).searchParams.get('step');

/** The player writes ?step once the reader pauses (200 ms): wait for it. */
async function urlStep(page, n) {
  await page.waitForFunction((want) => new URLSearchParams(location.search).get('step') === want, String(n), { timeout: 3000 })
    .catch(() => {});
  return stepParam(page);
}

/** The player shows a step and its panels (which render just after the step's text). */
async function ready(page) {
  await page.locator('.fp-stepno', { hasText: /^Step \d+ of \d+$/ }).waitFor({ timeout: 10_000 });
  await page.locator('.fp-panels').first().waitFor({ state: 'attached', timeout: 10_000 });
}

async function chapterExists(baseUrl) {
  const res = await fetch(`${baseUrl}${CHAPTER}`);
  if (res.status === 200) return true;
  console.log(`    (skipped: ${CHAPTER} is not built yet; the chapter checks run once it exists)`);
  return false;
}

export default [
  async function embedKeysStepPlayAndFollowTheUrl({ browser, baseUrl }) {
    const m = await model(baseUrl, 'attach');
    const { page, errors, close } = await openPage(browser, `${baseUrl}${EMBED}`);
    try {
      await ready(page);
      assert.deepEqual(await shown(page), { step: 1, total: m.steps.length });
      assert.equal(norm(await summary(page)), norm(m.steps[0].summary));
      await page.keyboard.press('ArrowRight');
      await waitForStep(page, 2);
      await page.keyboard.press('PageDown');
      await waitForStep(page, 3);
      assert.equal(await urlStep(page, 3), '3', 'the URL follows the step');
      await page.keyboard.press('ArrowLeft');
      await waitForStep(page, 2);
      await page.keyboard.press('PageUp');
      await waitForStep(page, 1);
      await page.keyboard.press('End');
      await waitForStep(page, m.steps.length);
      assert.equal(await urlStep(page, m.steps.length), String(m.steps.length));
      await page.keyboard.press('Home');
      await waitForStep(page, 1);
      assert.equal(norm(await summary(page)), norm(m.steps[0].summary));

      // Space plays (the step advances by itself) and pauses (it stops).
      await page.locator('.fp-speed select').selectOption('4');
      await page.locator('.fp-summary').click(); // focus back on the page, off the select
      await page.keyboard.press(' ');
      await page.locator('button[aria-label="Pause"]').waitFor();
      await page.waitForTimeout(1300);
      await page.keyboard.press(' ');
      await page.locator('button[aria-label="Play"]').waitFor();
      const paused = (await shown(page)).step;
      assert.ok(paused >= 3, `playing at 4× for 1.3 s advanced to step ${paused}`);
      await page.waitForTimeout(700);
      assert.equal((await shown(page)).step, paused, 'paused: the step stays');
      assert.equal(norm(await summary(page)), norm(m.steps[paused - 1].summary));
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function deepLinksOpenOnTheStepAndClampBadOnes({ browser, baseUrl }) {
    const m = await model(baseUrl, 'attach');
    const last = m.steps.length;
    const open = async (query) => {
      const visit = await openPage(browser, `${baseUrl}${EMBED}${query}#keep`);
      await ready(visit.page);
      return visit;
    };
    let v = await open('?step=7&other=x');
    try {
      assert.deepEqual(await shown(v.page), { step: 7, total: last });
      assert.equal(norm(await summary(v.page)), norm(m.steps[6].summary));
      assert.equal(await v.page.locator('.fp-notice').count(), 0);
      await v.page.keyboard.press('ArrowRight');
      await waitForStep(v.page, 8);
      await urlStep(v.page, 8);
      const url = new URL(v.page.url());
      assert.equal(url.searchParams.get('step'), '8');
      assert.equal(url.searchParams.get('other'), 'x', 'other parameters are kept');
      assert.equal(url.hash, '#keep', 'the hash is kept');
      assert.deepEqual(v.errors, []);
    } finally {
      await v.close();
    }
    const cases = [
      ['99999', last, `Step 99999 does not exist; showing step ${last}, the last.`],
      ['0', 1, 'Step 0 does not exist; showing step 1, the first.'],
      ['-3', 1, 'Step -3 does not exist; showing step 1, the first.'],
      ['abc', 1, '“abc” is not a step number; showing step 1, the first.'],
    ];
    for (const [raw, step, notice] of cases) {
      v = await open(`?step=${raw}`);
      try {
        assert.equal((await shown(v.page)).step, step, `?step=${raw}`);
        assert.equal(norm(await summary(v.page)), norm(m.steps[step - 1].summary));
        const box = v.page.locator('.fp-notice');
        assert.equal(await box.getAttribute('role'), 'status');
        assert.match(await box.innerText(), new RegExp(notice.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
        assert.equal(await urlStep(v.page, step), String(step), 'the URL is corrected');
        assert.deepEqual(v.errors, []);
      } finally {
        await v.close();
      }
    }
  },

  async function logLineClickSeeksAndTheInspectorMarksChangedLines({ browser, baseUrl }) {
    const m = await model(baseUrl, 'attach');
    let { page, errors, close } = await openPage(browser, `${baseUrl}${EMBED}`);
    try {
      await ready(page);
      // A log line of some later step: click it, the player goes there and highlights it.
      const target = m.steps.filter((s) => s.log)[20];
      const line = page.locator(`.fp-ll[data-step="${target.i}"]`);
      await line.click();
      await waitForStep(page, target.i);
      assert.equal(norm(await summary(page)), norm(target.summary));
      // the log pane marks its line in an effect after the step is painted
      await page.locator(`.fp-ll.is-current[data-step="${target.i}"]`).waitFor({ timeout: 5000 });
      assert.match(await line.getAttribute('class'), /is-current/);
      assert.equal(await page.locator('.fp-ll.is-current').count(), 1);
      assert.equal(await line.getAttribute('aria-current'), 'step');
      // Enter on another focused line seeks too.
      const other = m.steps.filter((s) => s.log)[5];
      await page.locator(`.fp-ll[data-step="${other.i}"]`).focus();
      await page.keyboard.press('Enter');
      await waitForStep(page, other.i);

      // A step that changes (not creates) an object: its card is marked, with as many marked lines
      // as the model lists for that version.
      const pick = m.steps.find((s) => s.changes?.length === 1 && (() => {
        const [o, v] = s.changes[0];
        return v > 0 && m.objects[o].versions[v].yaml && m.objects[o].versions[v].changed.length > 0;
      })());
      assert.ok(pick, 'the attach flow has a step that changes an existing object');
      const [o, v] = pick.changes[0];
      const version = m.objects[o].versions[v];
      assert.deepEqual(errors, []);
      await close();
      ({ page, errors, close } = await openPage(browser, `${baseUrl}${EMBED}?step=${pick.i}`));
      await ready(page);
      const card = page.locator('.fp-inspector .fp-obj.is-changed');
      assert.equal(await card.count(), 1);
      assert.match(await card.locator('.fp-objhead').innerText(), new RegExp(`${m.objects[o].name}.*changed at this step`));
      const marked = card.locator('mark.fp-yl');
      assert.equal(await marked.count(), version.changed.length);
      const yamlLines = version.yaml.replace(/\n$/, '').split('\n');
      const firstMarked = (await marked.first().innerText()).replace(/\n$/, '');
      assert.equal(firstMarked, `~${yamlLines[version.changed[0] - 1]}`, 'the marked line, with its "~" gutter');
      // The step before writes nothing to that object: nothing marked on its card.
      await page.keyboard.press('ArrowLeft');
      await waitForStep(page, pick.i - 1);
      const before = m.steps[pick.i - 2];
      if (!before.changes?.some(([x]) => x === o)) {
        assert.equal(await page.locator('.fp-inspector .fp-obj.is-changed', { hasText: m.objects[o].name }).count(), 0);
      }
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function versionSwitchLoadsTheOtherVersion({ browser, baseUrl }) {
    const m120 = await model(baseUrl, 'ad-detach-backoff', '1.20');
    const m130 = await model(baseUrl, 'ad-detach-backoff', '1.30');
    let { page, errors, close } = await openPage(browser, `${baseUrl}/embed/ad-detach-backoff/?step=40`);
    try {
      await ready(page);
      assert.deepEqual(await shown(page), { step: 40, total: m130.steps.length });
      const t = m130.steps[39].t;
      await page.getByRole('radio', { name: '1.20' }).check();
      // The player keeps the trace time: the last 1.20 step at or before step 40's time.
      let expected = 1;
      m120.steps.forEach((s, i) => { if (s.t <= t) expected = i + 1; });
      await page.locator('.fp-stepno', { hasText: `of ${m120.steps.length}` }).waitFor();
      assert.deepEqual(await shown(page), { step: expected, total: m120.steps.length });
      assert.equal(norm(await summary(page)), norm(m120.steps[expected - 1].summary));
      await page.waitForFunction(() => new URLSearchParams(location.search).get('k8s') === '1.20');
      assert.deepEqual(errors, []);
      await close();
      // ?k8s opens a version directly; an unknown one is reported and falls back.
      ({ page, errors, close } = await openPage(browser, `${baseUrl}/embed/ad-detach-backoff/?k8s=1.20&step=3`));
      await ready(page);
      assert.deepEqual(await shown(page), { step: 3, total: m120.steps.length });
      assert.equal(await page.getByRole('radio', { name: '1.20' }).isChecked(), true);
      assert.deepEqual(errors, []);
      await close();
      ({ page, errors, close } = await openPage(browser, `${baseUrl}/embed/ad-detach-backoff/?k8s=9.99`));
      await ready(page);
      assert.equal((await shown(page)).total, m130.steps.length);
      assert.match(await page.locator('.fp-notice').innerText(), /Kubernetes 9\.99 is not available/);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function embedApiInAnIframeGotoPlayPause({ browser, baseUrl }) {
    // the pod-migration embed opens on its chapter's version, 1.20 (the one that reproduces seed 000)
    const m = await model(baseUrl, 'pod-migration', '1.20');
    const { page, errors, close } = await openPage(browser, `${baseUrl}/embed/example/`);
    try {
      const log = page.locator('#log li');
      // The first csi-flows:step arrives once the player is ready.
      await log.first().waitFor({ timeout: 10_000 });
      assert.deepEqual(JSON.parse(await log.first().innerText()), { type: 'csi-flows:step', scenario: 'pod-migration', step: 1, total: m.steps.length, k8s: '1.20' });
      const frame = page.frameLocator('#player');

      // goto moves the player, and a step message comes back with the step and total.
      await page.locator('#step').fill('12');
      await page.locator('#goto').click();
      await waitForStep(frame, 12);
      await page.locator('#log li[data-step="12"]').first().waitFor();
      assert.equal(await log.first().getAttribute('data-total'), String(m.steps.length));
      assert.equal(norm(await summary(frame)), norm(m.steps[11].summary));

      // A bad goto clamps like ?step and says which step is shown.
      await page.locator('#step').fill('99999');
      await page.locator('#goto').click();
      await waitForStep(frame, m.steps.length);
      await page.locator(`#log li[data-step="${m.steps.length}"]`).first().waitFor();
      assert.match(await frame.locator('.fp-notice').innerText(), /Step 99999 does not exist/);

      // play advances on its own; pause stops it.
      await page.locator('#step').fill('1');
      await page.locator('#goto').click();
      await waitForStep(frame, 1);
      await page.locator('#play').click();
      await waitForStep(frame, 3);
      await page.locator('#pause').click();
      await frame.locator('button[aria-label="Play"]').waitFor();
      const at = (await shown(frame)).step;
      await page.waitForTimeout(1500);
      assert.equal((await shown(frame)).step, at, 'paused');

      // Only the parent may drive the player: the same message from the frame's own window, or a
      // malformed one from the parent, changes nothing.
      const inner = page.frames().find((f) => f.url().includes('/embed/pod-migration/'));
      await inner.evaluate(() => window.postMessage({ type: 'csi-flows:goto', step: 5 }, '*'));
      await page.evaluate(() => {
        const w = document.querySelector('#player').contentWindow;
        w.postMessage({ type: 'csi-flows:goto' }, '*');
        w.postMessage('csi-flows:play', '*');
        w.postMessage({ type: 'csi-flows:jump', step: 5 }, '*');
      });
      await page.waitForTimeout(500);
      assert.equal((await shown(frame)).step, at, 'ignored messages');
      assert.equal(await frame.locator('button[aria-label="Play"]').count(), 1);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function embedDrawsTheDiagramAndHighlightsTheCurrentMessage({ browser, baseUrl }) {
    const m = await model(baseUrl, 'attach');
    const { page, errors, requests, close } = await openPage(browser, `${baseUrl}${EMBED}?step=10`);
    try {
      await ready(page);
      const msg = m.messages.filter((x) => x.step <= 10).at(-1);
      const current = page.locator('.fp-diagram-box .fp-seq-row.is-current');
      await current.waitFor({ timeout: 5000 });
      assert.equal(await current.count(), 1);
      assert.equal(await current.locator('.fp-seq-no').innerText(), String(msg.step), 'the message carries its step number');
      assert.equal(norm(await current.locator('.fp-seq-text').innerText()), norm(msg.text), 'the full label');
      await page.keyboard.press('End');
      const lastMsg = m.messages.at(-1);
      await page.locator('.fp-diagram-box .fp-seq-row.is-current', { has: page.locator('.fp-seq-no', { hasText: new RegExp(`^${lastMsg.step}$`) }) }).waitFor();
      // drawn by the player itself: Mermaid is never fetched
      assert.deepEqual(requests.map((r) => new URL(r.url()).pathname).filter((u) => /mermaid/i.test(u)), []);
      // Accessibility of the hydrated player, diagram drawn (light and dark).
      const light = await seriousAxeViolations(page);
      assert.equal(light.length, 0, formatViolations(light));
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForTimeout(500);
      const dark = await seriousAxeViolations(page);
      assert.equal(dark.length, 0, formatViolations(dark));
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function timersCountAtAStepWithBackoff({ browser, baseUrl }) {
    const m = await model(baseUrl, 'ad-detach-backoff');
    // The first step at which a kubelet backoff timer runs, from the model.
    let at = 0;
    for (const w of m.worlds) for (const v of w.versions) {
      const t = m.steps[v.step - 1]?.t;
      if (v.timers.some((x) => x.name === 'durationBeforeRetry' && x.startMs <= t && t < x.endMs) && (!at || v.step < at)) at = v.step;
    }
    assert.ok(at > 0, 'ad-detach-backoff has a step with a backoff timer running');
    const { page, errors, close } = await openPage(browser, `${baseUrl}/embed/ad-detach-backoff/?step=${at}`);
    try {
      await ready(page);
      const timer = page.locator('.fp-timer-list li', { hasText: 'durationBeforeRetry' }).first();
      await timer.waitFor();
      assert.match(await timer.innerText(), /backoff \d/);
      assert.match(await timer.innerText(), /left/);
      assert.equal(await timer.locator('progress').count(), 1);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function aFailedOrWrongTraceSaysSoAndRetryLoadsIt({ browser, baseUrl }) {
    const m = await model(baseUrl, 'attach');
    let calls = 0;
    const { page, errors, close } = await openPage(browser, `${baseUrl}${EMBED}`, {}, {
      beforeGoto: (context) => context.route('**/data/flows/attach.1.30.json', (route) => {
        calls += 1;
        if (calls === 1) return route.fulfill({ status: 500, body: 'boom' });
        if (calls === 2) return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ ...m, version: 99 }) });
        return route.continue();
      }),
    });
    try {
      const alert = page.locator('.fp-error[role="alert"]');
      await alert.waitFor();
      assert.match(await alert.innerText(), /HTTP 500/);
      await page.getByRole('button', { name: 'Retry' }).click();
      await page.locator('.fp-error', { hasText: 'model version 99' }).waitFor();
      await page.getByRole('button', { name: 'Retry' }).click();
      await ready(page);
      assert.deepEqual(await shown(page), { step: 1, total: m.steps.length });
      assert.equal(await page.locator('.fp-error').count(), 0);
      assert.equal(calls, 3);
      // Chromium reports the 500 itself; a fetch the player cancels itself (AbortController, when its
      // effect re-runs under a slow machine) shows as ERR_ABORTED and is not an error. Nothing else may go wrong.
      assert.deepEqual(errors.filter((e) => !/status of 500/.test(e) && !/attach\.1\.30\.json net::ERR_ABORTED$/.test(e)), []);
    } finally {
      await close();
    }
  },

  async function scrubberAndLaneFilter({ browser, baseUrl }) {
    // the pod-migration embed opens on its chapter's version, 1.20 (the one that reproduces seed 000)
    const m = await model(baseUrl, 'pod-migration', '1.20');
    const { page, errors, close } = await openPage(browser, `${baseUrl}/embed/pod-migration/?step=5`);
    try {
      await ready(page);
      const range = page.locator('[data-fp-scrubber]');
      assert.equal(await range.getAttribute('aria-valuetext'), `Step 5 of ${m.steps.length}: ${m.steps[4].summary}`);
      await range.fill('30');
      await waitForStep(page, 30);
      assert.equal(norm(await summary(page)), norm(m.steps[29].summary));
      // Hiding a lane hides exactly its lines; the chip shows its count.
      const lane = 'external-attacher';
      const n = m.steps.filter((s) => s.log && s.instance === lane).length;
      assert.ok(n > 0);
      await page.locator('.fp-lanes-box summary').click();
      const chip = page.locator('.fp-chip', { hasText: lane });
      assert.match(await chip.innerText(), new RegExp(`${lane}\\s+${n}$`));
      const visible = () => page.locator('.fp-ll:visible').count();
      const all = await visible();
      assert.equal(all, m.steps.filter((s) => s.log).length);
      await chip.locator('input').uncheck();
      assert.equal(await visible(), all - n);
      await page.getByRole('button', { name: 'Show all' }).click();
      assert.equal(await visible(), all);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function withoutJavaScriptTheEmbedSaysSo({ browser, baseUrl }) {
    const { page, errors, close } = await openPage(browser, `${baseUrl}${EMBED}`, { javaScriptEnabled: false });
    try {
      assert.match(await page.locator('.fp-nojs').innerText(), /needs JavaScript/);
      assert.equal(await page.locator('.fp button, .fp input').count(), 0, 'no dead controls');
      assert.ok((await page.title()).startsWith(`${(await model(baseUrl, 'attach')).title} (embed) · CSI Flows`), await page.title());
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function unknownEmbedIsNotFound({ browser, baseUrl }) {
    const res = await fetch(`${baseUrl}/embed/no-such-flow/`);
    assert.equal(res.status, 404);
    const index = await (await fetch(`${baseUrl}/embed/`)).text();
    for (const id of ['attach', 'pod-migration', 'statefulset-rollout', 'ceph-rbd-clone']) {
      assert.ok(index.includes(`/embed/${id}/`), `/embed/ lists ${id}`);
      assert.ok(index.includes(`&lt;iframe src=&quot;`) || index.includes('&lt;iframe src="'), '/embed/ shows iframe snippets');
    }
    assert.ok(index.includes('csi-flows:goto') && index.includes('csi-flows:step'), '/embed/ documents the API');
  },

  async function chapterKeysAndMermaidOnlyAfterInteraction({ browser, baseUrl }) {
    if (!(await chapterExists(baseUrl))) return;
    const m = await model(baseUrl, 'attach');
    const { page, errors, requests, close } = await openPage(browser, `${baseUrl}${CHAPTER}`);
    try {
      await ready(page);
      await page.waitForLoadState('networkidle');
      const isMermaid = (r) => /mermaid|sequenceDiagram/i.test(new URL(r.url()).pathname);
      assert.deepEqual(requests.filter(isMermaid).map((r) => r.url()), [], 'Mermaid requested');
      // the diagram is drawn at load, without a click
      assert.equal(await page.getByRole('button', { name: 'Show diagram' }).count(), 0);
      assert.ok(await page.locator('.fp-diagram-box .fp-seq-row').count() > 0, 'the sequence is drawn at load');

      // PageDown with the player neither focused nor used scrolls the page, not the player.
      await page.keyboard.press('PageDown');
      await page.waitForTimeout(300);
      assert.equal((await shown(page)).step, 1);

      await page.locator('#player').scrollIntoViewIfNeeded();
      await page.keyboard.press('ArrowRight');
      await waitForStep(page, 2);
      assert.equal(await urlStep(page, 2), '2');
      const msg = m.messages.filter((x) => x.step <= 2).at(-1);
      if (msg) await page.locator('.fp-diagram-box .fp-seq-row.is-current .fp-seq-no', { hasText: new RegExp(`^${msg.step}$`) }).waitFor();
      assert.deepEqual(requests.filter(isMermaid).map((r) => r.url()), [], 'Mermaid is never needed');

      // Once the reader has clicked in the player, PageDown/PageUp step it.
      await page.locator('.fp-summary').click();
      await page.keyboard.press('PageDown');
      await waitForStep(page, 3);
      await page.keyboard.press('PageUp');
      await waitForStep(page, 2);
      await page.keyboard.press('End');
      await waitForStep(page, m.steps.length);
      await page.keyboard.press('Home');
      await waitForStep(page, 1);
      // Keys typed into a form field are not the player's.
      const field = page.locator('input[type="search"], input[type="text"]').first();
      if (await field.count()) {
        await field.focus();
        await page.keyboard.press('ArrowRight');
        await page.waitForTimeout(200);
        assert.equal((await shown(page)).step, 1);
      }
      // Space on a focused button activates the button (here: Next), it does not toggle play.
      await page.getByRole('button', { name: 'Next step' }).focus();
      await page.keyboard.press(' ');
      await waitForStep(page, 2);
      assert.equal(await page.locator('button[aria-label="Play"]').count(), 1, 'still paused');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function chapterDeepLinkAndStepLinks({ browser, baseUrl }) {
    if (!(await chapterExists(baseUrl))) return;
    const m = await model(baseUrl, 'attach');
    const { page, errors, close } = await openPage(browser, `${baseUrl}${CHAPTER}?step=7#player`);
    try {
      await ready(page);
      assert.equal((await shown(page)).step, 7);
      assert.equal(norm(await summary(page)), norm(m.steps[6].summary));
      // A link to a step of this page moves the player in place (no reload) and Back returns.
      const link = page.locator('a.step-link[href^="?step="]').first();
      if (await link.count()) {
        const n = Number(await link.getAttribute('data-step'));
        await page.evaluate(() => { window.__noReload = true; });
        await link.click();
        await waitForStep(page, n);
        assert.equal(await page.evaluate(() => window.__noReload), true, 'the page did not reload');
        await page.goBack();
        await waitForStep(page, 7);
      }
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },
  async function theMachinesTheStepActedOnAreShownWithTheCurrentStateMarked({ browser, baseUrl }) {
    // Expected: read from the model file. A step where the external-attacher moved a VolumeAttachment
    // and one where the attach/detach controller moved its detach operation, both with a `from`.
    const m = await model(baseUrl, 'pod-migration', '1.20');
    const find = (name) => m.steps.find((s) => (s.machines ?? []).some((x) => m.charts[x.chart].name === name && x.from !== undefined));
    for (const name of ['volumeAttachmentMachine', 'detachVolumeMachine']) {
      const st = find(name);
      assert.ok(st, `pod-migration has a step that moves ${name}`);
      const entry = st.machines.find((x) => m.charts[x.chart].name === name && x.from !== undefined);
      const chart = m.charts[entry.chart];
      const { page, errors, close } = await openPage(browser, `${baseUrl}/embed/pod-migration/?k8s=1.20&step=${st.i}`);
      try {
        await waitForStep(page, st.i);
        const box = page.locator(`.fp-machine[data-machine="${chart.id}"]`).first();
        await box.waitFor({ timeout: 5000 });
        const current = box.locator('.fp-states li[aria-current="step"]');
        assert.equal(await current.count(), 1, `${name}: one current state`);
        assert.match(norm(await current.innerText()), new RegExp(`^${entry.state.split('.')[0]}\\b`), `${name}: the current state at step ${st.i}`);
        const topFrom = entry.from.split('.')[0];
        if (topFrom !== entry.state.split('.')[0]) assert.equal(norm(await box.locator('.fp-states li.is-left').innerText()).replace(/ \(left at this step\)$/, ''), topFrom);
        assert.match(norm(await box.locator('.fp-machine-move').innerText()), new RegExp(`^Moved ${entry.from.replace(/\./g, '\\.')} → ${entry.state.replace(/\./g, '\\.')}`));
        assert.equal(
          await box.locator('.fp-states li').count(), chart.states.filter((x) => x.depth === 1).length,
          `${name}: every top-level state of the machine is drawn`,
        );
        const href = await box.locator('.fp-machine-head a').getAttribute('href');
        assert.equal(href, `/components/${st.component}/#chart-${chart.name}`);
        assert.deepEqual(errors, []);
      } finally {
        await close();
      }
      // the Chinese player links the Chinese component page, at the same chart
      const zh = await openPage(browser, `${baseUrl}/zh/embed/pod-migration/?k8s=1.20&step=${st.i}`);
      try {
        await zh.page.locator('.fp-stepno', { hasText: new RegExp(`^第 ${st.i} 步`) }).waitFor({ timeout: 5000 });
        const box = zh.page.locator(`.fp-machine[data-machine="${chart.id}"]`).first();
        await box.waitFor({ timeout: 5000 });
        assert.equal(await box.locator('.fp-machine-head a').getAttribute('href'), `/zh/components/${st.component}/#chart-${chart.name}`);
        assert.deepEqual(zh.errors, []);
      } finally {
        await zh.close();
      }
    }
  },
  async function theWhyLinkLandsOnTheCausingStep({ browser, baseUrl }) {
    // Expected: from the model file. The first step of the external-attacher in pod-migration 1.20 is
    // caused by an earlier step (a watch event of the VolumeAttachment the controller wrote).
    const m = await model(baseUrl, 'pod-migration', '1.20');
    const st = m.steps.find((s) => s.component === 'external-attacher' && s.cause?.step !== undefined && s.cause.kind === 'watch');
    assert.ok(st, 'a step caused by a watch event of an earlier step');
    const { page, errors, close } = await openPage(browser, `${baseUrl}/embed/pod-migration/?k8s=1.20&step=${st.i}`);
    try {
      await waitForStep(page, st.i);
      const why = page.locator('.fp-why dd');
      assert.match(norm(await why.innerText()), new RegExp(`^its informer saw ${st.cause.object.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ${st.cause.event} \\(step ${st.cause.step}\\)$`));
      await why.locator('a.fp-why-link').click();
      await waitForStep(page, st.cause.step);
      assert.equal(norm(await summary(page)), norm(m.steps[st.cause.step - 1].summary), 'the link lands on the causing step');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function theLogPaneSeparatesWhatHappenedFromWhatIsToCome({ browser, baseUrl }) {
    const m = await model(baseUrl, 'attach');
    const logged = m.steps.filter((s) => s.log);
    const { page, errors, close } = await openPage(browser, `${baseUrl}${EMBED}?step=1`);
    try {
      await ready(page);
      const legend = norm(await page.locator('.fp-log-legend').innerText());
      assert.match(legend, /this step’s line/);
      assert.match(legend, /the last line before a step that prints none/);
      assert.match(legend, /still to come/);
      const colour = (sel) => page.locator(sel).first().evaluate((el) => getComputedStyle(el).color);
      const muted = await page.evaluate(() => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--muted)';
        document.body.append(probe);
        const c = getComputedStyle(probe).color;
        probe.remove();
        return c;
      });
      // step 1 prints nothing in this flow: every line is still to come, the last one included
      assert.equal(logged[0].i > 1, true, 'the first step of attach prints no line');
      assert.equal(await colour(`.fp-ll[data-step="${logged.at(-1).i}"]`), muted, 'the final line is shown as still to come at step 1');
      // at a logged step in the middle: its line is current, the ones before are plain, the ones after muted
      const mid = logged[Math.floor(logged.length / 2)];
      await page.goto(`${baseUrl}${EMBED}?step=${mid.i}`);
      await waitForStep(page, mid.i);
      // the log pane marks its lines in an effect after the step is painted: wait for the mark (a
      // missing mark fails here, after 5 s)
      await page.locator(`.fp-ll[data-step="${mid.i}"][aria-current="step"]`).waitFor({ timeout: 5000 });
      assert.equal(await page.locator(`.fp-ll[data-step="${mid.i}"]`).getAttribute('aria-current'), 'step');
      const after = logged[logged.indexOf(mid) + 1];
      const before = logged[logged.indexOf(mid) - 1];
      assert.equal(await colour(`.fp-ll[data-step="${after.i}"]`), muted, 'a later line is muted');
      if (before.severity === 'I' || !before.severity) assert.notEqual(await colour(`.fp-ll[data-step="${before.i}"]`), muted, 'an earlier line is not muted');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },
  async function participantNamesStayInViewAndMatchTheLanes({ browser, baseUrl }) {
    // pod-migration on 1.20 has 11 participants; at steps 1, 40 and the last, the names of the lanes
    // the window draws are in view at the top of the diagram box, and every message of the window
    // runs between two of them (expected lanes from the model file)
    const m = await model(baseUrl, 'pod-migration', '1.20');
    const last = m.steps.length;
    for (const [w, h] of [[1440, 900], [390, 844]]) {
      const { page, errors, close } = await openPage(browser, `${baseUrl}/embed/pod-migration/?k8s=1.20&step=1`, { viewport: { width: w, height: h } });
      try {
        await ready(page);
        for (const step of [1, 40, last]) {
          await page.goto(`${baseUrl}/embed/pod-migration/?k8s=1.20&step=${step}`);
          await waitForStep(page, step);
          const box = page.locator('.fp-diagram-box');
          const [from, to] = (await box.getAttribute('data-window')).split('-').map(Number);
          const msgs = m.messages.slice(from, to);
          const want = m.participants.filter((p) => msgs.some((x) => x.from === p || x.to === p));
          const names = (await box.locator('.fp-seq-head li').allInnerTexts()).map((t) => norm(t));
          assert.deepEqual(names, want, `step ${step}: the lanes of the window`);
          assert.ok(want.length < m.participants.length || m.participants.length <= 6, `step ${step}: only the lanes the window needs`);
          // the header is at the top of the box, in view, whatever the box has scrolled to
          await page.waitForTimeout(400);
          const b = await box.boundingBox();
          const hd = await box.locator('.fp-seq-head').boundingBox();
          assert.ok(hd && b && Math.abs(hd.y - b.y) <= 2, `step ${step} at ${w}px: the names sit at the top of the box (${hd?.y} vs ${b?.y})`);
          // and the current message is in view below them
          const cur = await box.locator('.fp-seq-row.is-current').boundingBox();
          if (cur) assert.ok(cur.y >= hd.y + hd.height - 2 && cur.y + Math.min(cur.height, 20) <= b.y + b.height + 2, `step ${step} at ${w}px: the current message is in view`);
        }
        assert.deepEqual(errors, []);
      } finally {
        await close();
      }
    }
  },
  async function presenterModeIsLargeFollowsTheClickerAndTheNotesWindowFollowsIt({ browser, baseUrl }) {
    const m = await model(baseUrl, 'pod-migration', '1.20');
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    // a hang names its step (Playwright's default 30 s is the whole test's budget)
    context.setDefaultTimeout(8000);
    const errors = [];
    try {
      const main = await context.newPage();
      main.on('pageerror', (e) => errors.push(e.message));
      main.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
      await main.goto(`${baseUrl}/present/pod-migration/`);
      await ready(main);
      // it opens on the chapter's version, the one that reproduces seed 000
      assert.equal(await main.locator('input[type="radio"][value="1.20"]').isChecked(), true);
      const px = (loc) => loc.first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      assert.ok((await px(main.locator('.fp-summary'))) >= 24, 'the step text is at least 24 px');
      // the presenter's menu arrives in a chunk of its own, after the player (the speed menu is there first)
      const beside = main.getByLabel('Beside the step');
      await beside.waitFor({ timeout: 15_000 });
      await beside.selectOption('log');
      await main.locator('.fp-ll').first().waitFor({ timeout: 10_000 });
      // a clicker's keys reach the page, not the view menu just used (a focused form field keeps its keys)
      await main.evaluate(() => /** @type {HTMLElement | null} */ (document.activeElement)?.blur());
      assert.ok((await px(main.locator('.fp-ll'))) >= 24, 'log lines are at least 24 px');
      assert.ok((await px(main.locator('.fp-facts dd'))) >= 24, 'the facts are at least 24 px');
      // the speaker window follows the presenter, and moves it
      const notes = await context.newPage();
      notes.on('pageerror', (e) => errors.push(e.message));
      await notes.goto(`${baseUrl}/present/pod-migration/notes/`);
      await notes.locator('.fp-notes-now h2', { hasText: /^Step 1 of / }).waitFor({ timeout: 10_000 });
      assert.equal(norm(await notes.locator('.fp-notes-now .fp-summary').innerText()), norm(m.steps[0].summary));
      assert.equal(norm(await notes.locator('.fp-notes-next p').innerText()), norm(m.steps[1].summary), 'the next step is shown');
      // Both pages are tabs of one window here (a speaker's are two windows): the one in the back
      // gets no animation frames, which Playwright's click waits for, so each is brought to the
      // front before it is used.
      await main.bringToFront();
      await main.keyboard.press('PageDown');
      await waitForStep(main, 2);
      await notes.bringToFront();
      await notes.locator('.fp-notes-now h2', { hasText: /^Step 2 of / }).waitFor({ timeout: 5000 });
      await notes.getByRole('button', { name: 'Next' }).click();
      await waitForStep(main, 3);
      await notes.locator('.fp-notes-now h2', { hasText: /^Step 3 of / }).waitFor({ timeout: 5000 });
      assert.match(await notes.locator('.fp-notes-timer').innerText(), /^\d+:\d\d$/);
      // B blanks the screen, B again brings it back
      await main.bringToFront();
      await main.evaluate(() => /** @type {HTMLElement | null} */ (document.activeElement)?.blur());
      await main.keyboard.press('b');
      await main.locator('.fp-blank').waitFor({ state: 'visible', timeout: 5000 });
      await main.keyboard.press('b');
      await main.locator('.fp-blank').waitFor({ state: 'detached', timeout: 5000 });
      const violations = await seriousAxeViolations(main);
      assert.deepEqual(violations, [], formatViolations(violations));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  },
  async function theParentOriginAllowListRefusesAForeignOrigin({ browser, baseUrl }) {
    const origin = new URL(baseUrl).origin;
    const { page, errors, close } = await openPage(browser, `${baseUrl}/embed/example/`);
    try {
      // a frame of our own, allowed only https://slides.example.com: our page is foreign to it
      const frameFor = async (allow) => {
        await page.evaluate((src) => {
          document.querySelector('#t-frame')?.remove();
          const f = document.createElement('iframe');
          f.id = 't-frame'; f.src = src; f.width = '800'; f.height = '600'; f.title = 'test';
          document.body.append(f);
        }, `/embed/attach/?parentOrigin=${encodeURIComponent(allow)}`);
        const frame = page.frameLocator('#t-frame');
        await frame.locator('.fp-stepno', { hasText: /^Step 1 of \d+$/ }).waitFor({ timeout: 10_000 });
        return frame;
      };
      const received = () => page.evaluate(() => window.__steps ?? []);
      await page.evaluate(() => { window.__steps = []; window.addEventListener('message', (e) => { if (e.data?.type === 'csi-flows:step' && e.source === document.querySelector('#t-frame')?.contentWindow) window.__steps.push(e.data.step); }); });
      let frame = await frameFor('https://slides.example.com');
      await page.evaluate(() => document.querySelector('#t-frame').contentWindow.postMessage({ type: 'csi-flows:goto', step: 5 }, '*'));
      await page.waitForTimeout(700);
      assert.equal((await shown(frame)).step, 1, 'a message from a foreign origin is ignored');
      assert.deepEqual(await received(), [], 'and the player tells a foreign origin nothing');
      // allowed: the same message moves it, and it reports its steps to us
      frame = await frameFor(origin);
      await page.evaluate(() => document.querySelector('#t-frame').contentWindow.postMessage({ type: 'csi-flows:goto', step: 5 }, '*'));
      await waitForStep(frame, 5);
      assert.ok((await received()).includes(5), 'the allowed parent hears the step');
      // a typo fails closed, with a notice naming it
      frame = await frameFor('slides.example.com');
      assert.match(await frame.locator('.fp-notice').innerText(), /parentOrigin: “slides\.example\.com” is not an origin/);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  // A phone opens a chapter on its prose: the player (below it) hydrates only when scrolled near,
  // which keeps React off the main thread while the page loads (Lighthouse's blocking time). A URL
  // that asks the player for something (?step=N#player, a what-if, a version) hydrates it at once.
  async function aChapterPlayerOnAPhoneHydratesWhenReachedOrAskedFor({ browser, baseUrl }) {
    if (!(await chapterExists(baseUrl))) return;
    const phone = { viewport: { width: 390, height: 844 } };
    const hydrated = (page) => page.evaluate(() => !document.querySelector('#player astro-island')?.hasAttribute('ssr'));
    const { page, errors, close } = await openPage(browser, `${baseUrl}${CHAPTER}`, phone);
    try {
      await page.waitForTimeout(1500);
      const top = await page.evaluate(() => document.getElementById('player').getBoundingClientRect().top);
      assert.ok(top > 844 + 200, `the player starts below the first screen and its margin (top ${top})`);
      assert.equal(await hydrated(page), false, 'not hydrated before the reader gets near it');
      await page.locator('#player').scrollIntoViewIfNeeded();
      await ready(page);
      assert.equal(await hydrated(page), true);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
    for (const [what, url] of [
      ['a step link', `${CHAPTER}?step=5#player`],
      ['a what-if link', `${CHAPTER}?fault=ControllerPublishVolume=DEADLINE_EXCEEDED`],
      ['a version link', `${CHAPTER}?k8s=1.20`],
    ]) {
      const o = await openPage(browser, `${baseUrl}${url}`, phone);
      try {
        await o.page.waitForFunction(() => !document.querySelector('#player astro-island')?.hasAttribute('ssr'), null, { timeout: 10_000 })
          .catch(() => assert.fail(`${what} (${url}) hydrates the player without scrolling`));
        assert.deepEqual(o.errors, []);
      } finally {
        await o.close();
      }
    }
  },

  // The controls row has its final height before the trace arrives (the legend comes with the page),
  // so the step's text does not jump down when it loads (Lighthouse counted that as layout shift).
  async function theStepTextDoesNotMoveWhenTheTraceArrives({ browser, baseUrl }) {
    let release;
    const gate = new Promise((r) => { release = r; });
    const { page, errors, close } = await openPage(browser, `${baseUrl}${EMBED}`, { viewport: { width: 390, height: 844 } }, {
      beforeGoto: (_ctx, pg) => pg.route('**/data/flows/**', async (route) => { await gate; await route.continue(); }),
    });
    try {
      await page.locator('.fp-now').waitFor();
      const before = await page.locator('.fp-now').boundingBox();
      const legend = await page.locator('.fp-legend').innerText();
      release();
      await ready(page);
      const after = await page.locator('.fp-now').boundingBox();
      assert.equal(after.y, before.y, 'the step text stays where it was');
      assert.equal(await page.locator('.fp-legend').innerText(), legend, 'the legend the page carried is the trace\'s');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },
];
