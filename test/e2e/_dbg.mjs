import { launchChromium, startStaticServer, siteRoot } from '../../scripts/static-site.mjs';
import { seriousAxeViolations, axeLightAndDark } from './helpers.mjs';
const site = await startStaticServer(siteRoot);
const browser = await launchChromium();
const ctx = await browser.newContext();
const page = await ctx.newPage();
for (const p of (process.env.PAGES ?? '/flows/ad-detach-backoff/').split(',')) {
  await page.goto(site.baseUrl + p, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle');
  const n = await page.evaluate(() => document.querySelectorAll('*').length);
  let t = performance.now();
  await seriousAxeViolations(page);
  const light = performance.now() - t; t = performance.now();
  await seriousAxeViolations(page, ['color-contrast', 'link-in-text-block']);
  const dark = performance.now() - t; t = performance.now();
  const rules = process.env.RULES ? process.env.RULES.split(',') : null;
  const per = {};
  if (rules) for (const r of rules) { const t1 = performance.now(); await seriousAxeViolations(page, [r]); per[r] = Math.round(performance.now() - t1); }
  const sampled = await page.evaluate(() => document.querySelectorAll('[data-axe-sampled-out]').length);
  console.log(p, 'elements', n, 'sampledOut', sampled, 'light', Math.round(light), 'colour', Math.round(dark), JSON.stringify(per));
}
await browser.close(); await site.close();
