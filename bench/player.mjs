// npm run bench:player: how long the flow player takes to show a step on the 1000-step trace.
//
// Opens /embed/statefulset-rollout/ (8 replicas: 1027 steps) in Chromium from the built site and
// measures, for real key presses and clicks sent through the browser's input pipeline, the time from
// the input event (event.timeStamp) to the next animation frame (the requestAnimationFrame callback
// after the update; by then React has rendered and the browser paints next), and to just after that
// frame (a task queued from the rAF callback, so the frame's style, layout and paint are included).
// Three kinds of input: ~200 → steps, End/Home jumps, and clicks at random points of the scrubber;
// and, as the floor, a key the player ignores (the wait for the next frame alone).
// Prints median / p95 / max in ms per kind (and the p90 after the frame, the target), and the
// size of the JSON model. It asserts nothing.
//
// Usage: npm run build:site && npm run bench:player        Env: SITE_ROOT (default dist/site), STEPS (200)

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium, siteRoot, startStaticServer, statOrNull } from '../scripts/static-site.mjs';

const root = process.env.SITE_ROOT || siteRoot;
const STEPS = Number(process.env.STEPS) || 200;
const SCENARIO = 'statefulset-rollout';

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, median: q(0.5), p90: q(0.9), p95: q(0.95), max: s[s.length - 1] };
}

const fmt = (x) => x.toFixed(1).padStart(7);

async function main() {
  const json = path.join(root, 'data', 'flows', `${SCENARIO}.1.30.json`);
  if (!(await statOrNull(json))) {
    console.error(`No built site with ${SCENARIO} at ${root}. Run "npm run build:site" first.`);
    process.exitCode = 1;
    return;
  }
  const bytes = await readFile(json);
  const model = JSON.parse(bytes.toString('utf8'));

  const server = await startStaticServer(root);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${server.baseUrl}/embed/${SCENARIO}/`);
    await page.locator('.fp-stepno', { hasText: /^Step 1 of \d+$/ }).waitFor({ timeout: 30_000 });
    // Let the first diagram draw so start-up is not measured as a step.
    await page.locator('.fp-diagram-box .fp-seq-row').first().waitFor({ timeout: 30_000 });

    // In the page: per input event, the delay to the next rAF callback and to a task after it.
    await page.evaluate(() => {
      const w = /** @type {any} */ (window);
      w.__bench = [];
      const measure = (e) => {
        const t0 = e.timeStamp;
        requestAnimationFrame(() => {
          const frame = performance.now() - t0;
          const ch = new MessageChannel();
          ch.port1.onmessage = () => w.__bench.push({ frame, after: performance.now() - t0 });
          ch.port2.postMessage(0);
        });
      };
      window.addEventListener('keydown', measure, true);
      window.addEventListener('pointerdown', measure, true);
    });
    const results = async (n) => {
      await page.waitForFunction((k) => /** @type {any} */ (window).__bench.length >= k, n);
      return page.evaluate(() => /** @type {any} */ (window).__bench.splice(0));
    };
    const stepNow = async () => Number((await page.locator('.fp-stepno').innerText()).match(/^Step (\d+)/)?.[1]);

    const runs = {};
    // 0. the floor: a key the player ignores, so the figure is only the wait for the next frame
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('x');
      await page.waitForTimeout(20);
    }
    runs['ignored key (floor)'] = await results(40);

    // 1. → steps (a short pause between presses, as a reader or a held key would leave), with the
    // renderer main thread's own accounting of its work (CDP Performance metrics) around them: less
    // sensitive to a busy machine than wall-clock frame times.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const m0 = await metrics();
    for (let i = 0; i < STEPS; i++) {
      await page.keyboard.press('ArrowRight');
      await page.waitForTimeout(20);
    }
    const m1 = await metrics();
    runs['→ step'] = await results(STEPS);
    const perStep = (k) => ((m1[k] - m0[k]) * 1000) / STEPS;
    const reached = await stepNow();

    // 2. jumps: End / Home
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press(i % 2 ? 'Home' : 'End');
      await page.waitForTimeout(60);
    }
    runs['End/Home'] = await results(20);

    // 3. scrubber seeks: clicks at seeded pseudo-random points along the range input
    const box = await page.locator('[data-fp-scrubber]').boundingBox();
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 40; i++) {
      await page.mouse.click(box.x + 8 + rnd() * (box.width - 16), box.y + box.height / 2);
      await page.waitForTimeout(60);
    }
    runs['scrubber'] = await results(40);
    const seekedTo = await stepNow();

    console.log(`Flow player on /embed/${SCENARIO}/ (Chromium ${browser.version()}, 1440×900)`);
    console.log(`model: ${model.steps.length} steps, ${model.objects.length} objects, ${model.messages.length} diagram messages; ` +
      `JSON ${(bytes.length / 1024).toFixed(0)} KiB (${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(0)} KiB gzip)`);
    console.log(`after the → presses the player showed step ${reached}; after the scrubber clicks, step ${seekedTo}`);
    console.log('input → next frame (ms)            n   median      p95      max │ → after frame: median      p95      max │ p90 after frame');
    for (const [name, list] of Object.entries(runs)) {
      const f = stats(list.map((r) => r.frame));
      const a = stats(list.map((r) => r.after));
      console.log(`${name.padEnd(28)} ${String(f.n).padStart(5)}  ${fmt(f.median)}  ${fmt(f.p95)}  ${fmt(f.max)} │               ${fmt(a.median)}  ${fmt(a.p95)}  ${fmt(a.max)} │ ${fmt(a.p90)}`);
    }
    console.log(`main-thread work per → step (mean of ${STEPS}, CDP Performance metrics): tasks ${perStep('TaskDuration').toFixed(1)} ms = ` +
      `script ${perStep('ScriptDuration').toFixed(1)} + style ${perStep('RecalcStyleDuration').toFixed(1)} + layout ${perStep('LayoutDuration').toFixed(1)} + other`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
