// npm run bench:whatif: per chapter, the time from applying a what-if to the new flow's step painted.
//
// Opens each chapter of the built site in Chromium, opens the What if… panel (its code loads then, not
// timed), picks the first CSI call the flow makes and the first code the panel offers for it (once), and
// times from the click on "Run it" to the frame after the new flow's step is shown (the bar's link to
// the step where the flow departs is in the DOM, then one requestAnimationFrame and a task). That
// includes the worker's run of the whole scenario in the browser. Per chapter:
//   first ms   the reader's first what-if: the panel has been open for READER_MS (a reader picks the
//              call and the code), in which the worker loads and runs the chapter's own flow once
//              (client.ts prewarm);
//   at once ms the same, clicked as soon as the panel opens, on a fresh page: the run waits for the
//              worker's code and its warm-up;
//   next ms    the same what-if again, after going back to the original, on that page.
// The target is for the first and the next; "at once" shows what a hurried click costs. Prints
// figures; asserts nothing.
//
// Usage: npm run build:site && npm run bench:whatif        Env: SITE_ROOT (default dist/site)

import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { launchChromium, siteRoot, startStaticServer, statOrNull } from '../scripts/static-site.mjs';

const root = process.env.SITE_ROOT || siteRoot;
const TARGET_MS = 300;
/** how long a reader takes to choose a what-if, at least (open the panel, pick a call and a code, Add) */
const READER_MS = 3000;

async function timeOneRun(page) {
  return page.evaluate(async () => {
    const run = [...document.querySelectorAll('.fp-whatif button')].find((b) => b.textContent === 'Run it');
    const t0 = performance.now();
    run.click();
    await new Promise((resolve) => {
      const check = () => (document.querySelector('.fp-whatif-bar a.fp-whatif-departs') || document.querySelector('.fp-whatif-bar .fp-whatif-error') ? resolve() : requestAnimationFrame(check));
      check();
    });
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return performance.now() - t0;
  });
}

async function main() {
  const flowsDir = path.join(root, 'flows');
  if (!(await statOrNull(flowsDir))) {
    console.error(`No built site at ${root}. Run "npm run build:site" first.`);
    process.exitCode = 1;
    return;
  }
  const chapters = (await readdir(flowsDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const site = await startStaticServer(root);
  const browser = await launchChromium();
  console.log(`What-if: apply → new step painted (Chromium ${browser.version()}; target <= ${TARGET_MS} ms each)`);
  console.log('  chapter                 fault                                      first ms  next ms  at once ms   steps');
  try {
    for (const id of chapters) {
      /** open the chapter and the panel; null when the flow makes no CSI call */
      const open = async (context) => {
        const page = await context.newPage();
        await page.goto(`${site.baseUrl}/flows/${id}/#player`, { waitUntil: 'networkidle' });
        await page.locator('.fp-stepno', { hasText: /^Step 1 of / }).waitFor({ timeout: 15_000 });
        await page.locator('button.fp-whatif-open').click();
        const panel = page.locator('.fp-whatif');
        await panel.waitFor();
        const call = panel.getByLabel('Call');
        if ((await call.count()) === 0) return null;
        return { page, panel, rpc: await call.inputValue(), code: await panel.getByLabel('Code').inputValue() };
      };
      const add = (panel) => panel.locator('fieldset').first().getByRole('button', { name: 'Add' }).click();
      const hurried = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const paced = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      try {
        const h = await open(hurried);
        if (!h) { console.log(`  ${id.padEnd(22)}  (no CSI calls)`); continue; }
        await add(h.panel);
        const atOnce = await timeOneRun(h.page);
        // again, with the worker warm: back to the original, the same what-if once more
        await h.page.getByRole('button', { name: 'Back to the original' }).click();
        await h.page.locator('.fp-whatif-bar').waitFor({ state: 'detached' });
        await h.page.locator('button.fp-whatif-open').click();
        await add(h.panel);
        const next = await timeOneRun(h.page);
        const steps = (await h.page.locator('.fp-stepno').innerText()).replace(/^.* of /, '');
        const p = await open(paced);
        await p.page.waitForTimeout(READER_MS);
        await add(p.panel);
        const first = await timeOneRun(p.page);
        console.log(`  ${id.padEnd(22)}  ${`${h.rpc}=${h.code}x1`.padEnd(42)} ${first.toFixed(0).padStart(8)} ${next.toFixed(0).padStart(8)} ${atOnce.toFixed(0).padStart(10)} ${steps.padStart(7)}`);
      } catch (e) {
        console.log(`  ${id.padEnd(22)}  failed: ${e instanceof Error ? e.message.split('\n')[0] : e}`);
      } finally {
        await hurried.close();
        await paced.close();
      }
    }
  } finally {
    await browser.close();
    await site.close();
  }
}

await main();
