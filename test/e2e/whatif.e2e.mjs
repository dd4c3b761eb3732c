// What if…: a what-if URL re-simulates the chapter's flow in the browser (a Web Worker) and shows the
// new flow in the same player, with the step where it departs from the original marked and a way back;
// the panel builds the same URL; an embed takes the csi-flows:whatif message. Expected figures come
// from the flow model JSON the site serves for the original flow, never from the player.

import assert from 'node:assert/strict';
import { formatViolations, openPage, seriousAxeViolations } from './helpers.mjs';

const FAULT = 'ControllerPublishVolume=DEADLINE_EXCEEDEDx1';

async function model(baseUrl, id, k8s) {
  const res = await fetch(`${baseUrl}/data/flows/${id}.${k8s}.json`);
  assert.equal(res.status, 200, `model ${id}.${k8s}`);
  return res.json();
}

async function shown(scope) {
  const text = (await scope.locator('.fp-stepno').innerText()).trim();
  const m = /^Step (\d+) of (\d+)$/.exec(text);
  assert.ok(m, `step label "${text}"`);
  return { step: Number(m[1]), total: Number(m[2]) };
}

/** The chapter's version: the radio the player has checked. */
/** The step's summary as the player shows it, without the step number or the departure badge. */
async function summaryShown(page) {
  return page.locator('.fp-summary').evaluate((el) => {
    const c = el.cloneNode(true);
    for (const x of c.querySelectorAll('.fp-stepno, .fp-whatif-here')) x.remove();
    return c.textContent.trim();
  });
}

async function versionOf(page) {
  return page.locator('.fp-radios input[type=radio]:checked').first().inputValue();
}

async function aWhatIfUrlShowsTheChangedFlowWhereItDepartsAndTheWayBack({ browser, baseUrl }) {
  const url = `${baseUrl}/flows/attach/?fault=${encodeURIComponent(FAULT)}#player`;
  const { page, errors, close } = await openPage(browser, url, { viewport: { width: 1440, height: 900 } });
  try {
    const bar = page.locator('.fp-whatif-bar');
    const departs = bar.locator('a.fp-whatif-departs');
    await departs.waitFor({ timeout: 30_000 });
    const original = await model(baseUrl, 'attach', await versionOf(page));
    const now = await shown(page);
    assert.ok(now.total > original.steps.length, `the changed flow has more steps (${now.total}) than the original (${original.steps.length})`);
    assert.match(await bar.innerText(), /ControllerPublishVolume=DEADLINE_EXCEEDEDx1/);
    // the log pane holds the DeadlineExceeded lines the original never prints
    const logText = await page.locator('.fp-log').innerText();
    assert.ok(logText.includes('DeadlineExceeded'), 'the log pane shows DeadlineExceeded');
    assert.ok(!original.steps.some((s) => (s.log ?? '').includes('DeadlineExceeded')), 'the original has none');
    // the departure: the steps before it are the original's
    const at = Number(await departs.getAttribute('data-step'));
    assert.ok(at > 1 && at <= original.steps.length, `departs at step ${at}`);
    await departs.click();
    assert.equal((await shown(page)).step, at);
    assert.equal(await page.locator('.fp-summary .fp-whatif-here').count(), 1, 'the step it departs at is marked');
    const summary = await summaryShown(page);
    assert.notEqual(summary, original.steps[at - 1].summary.trim(), 'the step it departs at is not the original one');
    // ...and the one before it still is
    await page.getByRole('button', { name: 'Previous step' }).click();
    await page.locator('.fp-stepno', { hasText: new RegExp(`^Step ${at - 1} of `) }).waitFor({ timeout: 5000 });
    assert.equal(await page.locator('.fp-summary .fp-whatif-here').count(), 0, 'no mark before the departure');
    const previous = await summaryShown(page);
    assert.equal(previous, original.steps[at - 2].summary.trim(), 'the step before the departure is the original one');
    // the way back: the original flow, and the URL without the what-if
    await bar.getByRole('button', { name: 'Back to the original' }).click();
    await page.locator('.fp-whatif-bar').waitFor({ state: 'detached' });
    await page.locator('.fp-stepno', { hasText: new RegExp(` of ${original.steps.length}$`) }).waitFor({ timeout: 5000 });
    await page.waitForFunction(() => !new URL(window.location.href).searchParams.has('fault'));
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
}
aWhatIfUrlShowsTheChangedFlowWhereItDepartsAndTheWayBack.timeoutMs = 90_000;

async function thePanelBuildsTheSameUrlAndPassesAxe({ browser, baseUrl }) {
  const { page, errors, close } = await openPage(browser, `${baseUrl}/flows/attach/#player`, { viewport: { width: 1440, height: 900 } });
  try {
    const open = page.locator('button.fp-whatif-open');
    await page.locator('.fp-stepno', { hasText: /^Step 1 of / }).waitFor({ timeout: 10_000 });
    // nothing of the what-if code has loaded before the reader asks for it
    const before = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name).filter((n) => /WhatIf|sim\.worker/.test(n)));
    assert.deepEqual(before, [], 'no what-if code before the button');
    await open.click();
    const panel = page.locator('.fp-whatif');
    await panel.waitFor();
    const violations = await seriousAxeViolations(page);
    assert.equal(violations.length, 0, formatViolations(violations));
    // for more than the panel offers, the playground opens this scenario as a file
    assert.equal(await panel.getByRole('link', { name: /Open this scenario as a file in the playground/ }).getAttribute('href'), '/playground/?chapter=attach');
    await panel.getByLabel('Call').selectOption('ControllerPublishVolume');
    await panel.getByLabel('Code').selectOption('DEADLINE_EXCEEDED');
    assert.match(await panel.locator('.fp-whatif-meaning').innerText(), /deadline/);
    await panel.getByLabel('How often').selectOption({ label: 'once' });
    await panel.locator('fieldset').first().getByRole('button', { name: 'Add' }).click();
    await panel.getByRole('button', { name: 'Run it' }).click();
    await page.locator('.fp-whatif-bar a.fp-whatif-departs').waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => new URL(window.location.href).searchParams.getAll('fault').length === 1);
    const params = new URL(page.url()).searchParams;
    assert.deepEqual(params.getAll('fault'), [FAULT], 'the panel writes the CLI syntax into the URL');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
}
thePanelBuildsTheSameUrlAndPassesAxe.timeoutMs = 90_000;

async function anEmbedTakesTheWhatIfMessage({ browser, baseUrl }) {
  const { page, errors, close } = await openPage(browser, `${baseUrl}/embed/example/`);
  try {
    const log = page.locator('#log li');
    await log.first().waitFor({ timeout: 10_000 });
    const first = JSON.parse(await log.first().innerText());
    const frame = page.frameLocator('#player');
    await page.evaluate((fault) => {
      document.querySelector('#player').contentWindow.postMessage({ type: 'csi-flows:whatif', faults: [fault] }, '*');
    }, 'NodeStageVolume=INTERNALx1');
    await frame.locator('.fp-whatif-bar a.fp-whatif-departs').waitFor({ timeout: 30_000 });
    const now = await shown(frame);
    assert.ok(now.total > first.total, `more steps with a failed NodeStageVolume (${now.total} > ${first.total})`);
    // an empty what-if is the way back
    await page.evaluate(() => {
      document.querySelector('#player').contentWindow.postMessage({ type: 'csi-flows:whatif', faults: [] }, '*');
    });
    await frame.locator('.fp-whatif-bar').waitFor({ state: 'detached' });
    await frame.locator('.fp-stepno', { hasText: new RegExp(` of ${first.total}$`) }).waitFor({ timeout: 5000 });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
}
anEmbedTakesTheWhatIfMessage.timeoutMs = 90_000;

async function aBadWhatIfUrlSaysWhatIsWrong({ browser, baseUrl }) {
  const { page, errors, close } = await openPage(browser, `${baseUrl}/flows/attach/?fault=NodeStageVolume%3DBOGUS&shutdown=nowhere#player`);
  try {
    const notice = page.locator('.fp-notice');
    await notice.waitFor({ timeout: 10_000 });
    const text = await notice.innerText();
    assert.match(text, /fault "NodeStageVolume=BOGUS"/);
    assert.match(text, /shutdown="nowhere": expected <node>@<step>/);
    // nothing valid was asked: the original flow, no what-if bar
    assert.equal(await page.locator('.fp-whatif-bar').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
}

// "What if our driver needs no attach?": the panel's capability boxes start as the flow's driver has
// them, and unticking attach re-runs the flow without VolumeAttachment or ControllerPublishVolume.
async function thePanelSwitchesTheDriversCapabilities({ browser, baseUrl }) {
  const { page, errors, close } = await openPage(browser, `${baseUrl}/flows/attach/#player`, { viewport: { width: 1440, height: 900 } });
  try {
    await page.locator('.fp-stepno', { hasText: /^Step 1 of / }).waitFor({ timeout: 10_000 });
    const original = await model(baseUrl, 'attach', await versionOf(page));
    assert.ok(original.steps.some((s) => s.rpc?.method?.endsWith('/ControllerPublishVolume')), 'the original attaches');
    await page.locator('button.fp-whatif-open').click();
    const caps = page.locator('.fp-whatif-caps');
    await caps.waitFor();
    const attach = caps.getByRole('checkbox', { name: /^Attach required/ });
    const stage = caps.getByRole('checkbox', { name: /^STAGE_UNSTAGE_VOLUME/ });
    assert.equal(await attach.isChecked(), true, 'the cbs driver of the chapter needs attach');
    assert.equal(await stage.isChecked(), true, 'and stages');
    await attach.uncheck();
    assert.match(await page.locator('.fp-whatif-foot').innerText(), /attachRequired=false/);
    await page.locator('.fp-whatif').getByRole('button', { name: 'Run it' }).click();
    await page.locator('.fp-whatif-bar a.fp-whatif-departs').waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => new URL(window.location.href).searchParams.has('driver'));
    assert.deepEqual(new URL(page.url()).searchParams.getAll('driver'), ['attachRequired=false']);
    const now = await shown(page);
    assert.ok(now.total < original.steps.length, `fewer steps without the attach (${now.total} < ${original.steps.length})`);
    const logText = await page.locator('.fp-log').innerText();
    assert.ok(!logText.includes('ControllerPublishVolume'), 'no ControllerPublishVolume in the log');
    assert.ok(logText.includes('NodePublishVolume'), 'the node still publishes');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
}
thePanelSwitchesTheDriversCapabilities.timeoutMs = 90_000;

// The bar says what changed in words, in the page's language.
async function theBarSaysWhatChangedInTheReadersLanguage({ browser, baseUrl }) {
  for (const [url, want] of [
    ['/flows/attach/?shutdown=node-1@5&delete=web-0@3#player', /node-1 shuts down \(at step 5\); pod web-0 is force-deleted \(at step 3\)/],
    ['/zh/flows/attach/?shutdown=node-1@5#player', /node-1 关机 \(在第 5 步\)/],
  ]) {
    const { page, errors, close } = await openPage(browser, `${baseUrl}${url}`, { viewport: { width: 1440, height: 900 } });
    try {
      const bar = page.locator('.fp-whatif-bar');
      await bar.locator('a.fp-whatif-departs').waitFor({ timeout: 30_000 });
      assert.match(await bar.innerText(), want, url);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
}
theBarSaysWhatChangedInTheReadersLanguage.timeoutMs = 90_000;

// A flow whose pod sets an fsGroup offers the kubelet's walk over the volume's files; a failed walk is a FailedMount
// "applyFSGroup failed" in the changed flow. A flow without an fsGroup does not offer it.
async function thePanelOffersTheFsGroupWalkWhereAPodSetsOne({ browser, baseUrl }) {
  const { page, errors, close } = await openPage(browser, `${baseUrl}/flows/mount/?flow=fsgroup&k8s=1.30#player`, { viewport: { width: 1440, height: 900 } });
  try {
    await page.locator('.fp-stepno', { hasText: /^Step 1 of / }).waitFor({ timeout: 10_000 });
    await page.locator('button.fp-whatif-open').click();
    const walk = page.locator('.fp-whatif fieldset', { hasText: 'fsGroup' });
    await walk.waitFor();
    await walk.getByRole('combobox', { name: 'The walk' }).selectOption('EACCES');
    await walk.getByRole('button', { name: 'Add' }).click();
    assert.match(await page.locator('.fp-whatif-foot').innerText(), /host:SetVolumeOwnership=EACCESx1/);
    await page.locator('.fp-whatif').getByRole('button', { name: 'Run it' }).click();
    await page.locator('.fp-whatif-bar a.fp-whatif-departs').waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => new URL(window.location.href).searchParams.has('fault'));
    assert.deepEqual(new URL(page.url()).searchParams.getAll('fault'), ['host:SetVolumeOwnership=EACCESx1']);
    assert.match(await page.locator('.fp-log').innerText(), /applyFSGroup failed for vol disk-f5g2r8w1: open \S+\/mount: permission denied/);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
  const other = await openPage(browser, `${baseUrl}/flows/mount/?k8s=1.30#player`, { viewport: { width: 1440, height: 900 } });
  try {
    await other.page.locator('.fp-stepno', { hasText: /^Step 1 of / }).waitFor({ timeout: 10_000 });
    await other.page.locator('button.fp-whatif-open').click();
    await other.page.locator('.fp-whatif-caps').waitFor();
    assert.equal(await other.page.locator('.fp-whatif fieldset', { hasText: 'fsGroup' }).count(), 0, 'the mount flow has no fsGroup');
  } finally {
    await other.close();
  }
}
thePanelOffersTheFsGroupWalkWhereAPodSetsOne.timeoutMs = 90_000;

export default [
  thePanelOffersTheFsGroupWalkWhereAPodSetsOne,
  theBarSaysWhatChangedInTheReadersLanguage,
  aWhatIfUrlShowsTheChangedFlowWhereItDepartsAndTheWayBack,
  thePanelBuildsTheSameUrlAndPassesAxe,
  thePanelSwitchesTheDriversCapabilities,
  anEmbedTakesTheWhatIfMessage,
  aBadWhatIfUrlSaysWhatIsWrong,
];
