// Static pages: they load cleanly, have a heading, and the home page ships no JavaScript.

import assert from 'node:assert/strict';
import { openPage } from './helpers.mjs';

export default [
  async function homePageLoadsWithoutErrorsAndShipsNoScripts({ browser, baseUrl }) {
    const { page, response, errors, requests, close } = await openPage(browser, `${baseUrl}/`);
    try {
      assert.equal(response?.status(), 200);
      assert.deepEqual(errors, []);
      assert.equal(await page.locator('h1').count(), 1);
      assert.match(await page.locator('h1').innerText(), /CSI Flows/);
      assert.equal(await page.locator('script').count(), 0, 'home page has <script> tags');
      const scripts = requests.filter((r) => r.resourceType() === 'script').map((r) => r.url());
      assert.deepEqual(scripts, [], 'home page requested JavaScript');
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
      assert.equal(await page.locator('a[href="/"]').first().isVisible(), true);
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
    const background = async (colorScheme) => {
      const { page, close } = await openPage(browser, `${baseUrl}/`, { colorScheme });
      try {
        return await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      } finally {
        await close();
      }
    };
    const light = await background('light');
    const dark = await background('dark');
    assert.notEqual(light, dark);
  },
];
