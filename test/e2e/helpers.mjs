// Shared helpers for *.e2e.mjs modules. Not a test module itself.

/**
 * Open `url` in a fresh browser context and record everything that would show up as an error in
 * DevTools: console.error messages, uncaught page errors and failed requests.
 * Call `close()` when done.
 */
export async function openPage(browser, url, contextOptions = {}) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (req) =>
    errors.push(`requestfailed: ${req.url()} ${req.failure()?.errorText ?? ''}`),
  );
  page.on('request', (req) => requests.push(req));
  const response = await page.goto(url, { waitUntil: 'load' });
  return { page, response, errors, requests, close: () => context.close() };
}
