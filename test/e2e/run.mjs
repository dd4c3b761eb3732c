// Browser test runner for the built site.
//
// Serves dist/site on 127.0.0.1 (random free port) and starts Debian's Chromium through
// playwright-core (both from scripts/static-site.mjs, shared with `npm run size`), and runs every
// test/e2e/*.e2e.mjs module. A module's default export (or its `tests` export) is either an array of named async functions or an object of { name: fn }; each
// test receives { browser, baseUrl }. A test function may carry a `timeoutMs` property for a longer
// limit (a check that visits every page). One line is printed per test, then "N passed, N failed".
// The process exits non-zero if any test fails, or if there is nothing to test.
//
// Usage: npm run build:site && npm run e2e
// Env:   CHROMIUM_PATH   browser binary (default /usr/bin/chromium)
//        SITE_DIR        the built site to test (default dist/site)
//        E2E_TIMEOUT_MS  per-test timeout (default 30000)
//        E2E_FILTER      run only the tests whose "file > name" contains this text
//        E2E_CONCURRENCY pages site.e2e.mjs visits at once (default 4)

import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  chromiumPath,
  launchChromium,
  siteRoot,
  startStaticServer,
  statOrNull,
} from '../../scripts/static-site.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const testTimeoutMs = Number(process.env.E2E_TIMEOUT_MS) || 30_000;
const filter = process.env.E2E_FILTER ?? '';

/** Normalise a module's export into [{ name, fn }]. */
function collectTests(mod, file) {
  const exported = mod.default ?? mod.tests;
  let entries;
  if (Array.isArray(exported)) {
    entries = exported.map((fn, i) => ({ name: fn?.name || `test #${i + 1}`, fn }));
  } else if (exported && typeof exported === 'object') {
    entries = Object.entries(exported).map(([name, fn]) => ({ name, fn }));
  } else {
    throw new Error(`${file}: export default (or export const tests) an array or object of tests`);
  }
  for (const { name, fn } of entries) {
    if (typeof fn !== 'function') throw new Error(`${file}: test "${name}" is not a function`);
  }
  return entries;
}

async function withTimeout(promise, ms, name) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${name}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function indent(text) {
  return String(text)
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

/** A problem that stops the run before any test: counted as one failure so the summary stays. */
function setupFailure(message) {
  console.error(message);
  console.log('0 passed, 1 failed');
  return 1;
}

async function main() {
  if (!(await statOrNull(path.join(siteRoot, 'index.html')))?.isFile()) {
    return setupFailure(`No built site at ${siteRoot}. Run "npm run build:site" first.`);
  }
  if (!(await statOrNull(chromiumPath))) {
    return setupFailure(
      `Chromium not found at ${chromiumPath}. Install it (apt-get install -y chromium) ` +
        'or set CHROMIUM_PATH.',
    );
  }

  const files = (await readdir(here)).filter((f) => f.endsWith('.e2e.mjs')).sort();
  const suites = [];
  for (const file of files) {
    const mod = await import(pathToFileURL(path.join(here, file)).href);
    const tests = collectTests(mod, file).filter(({ name }) => `${file} > ${name}`.includes(filter));
    suites.push({ file, tests });
  }
  if (suites.every((s) => s.tests.length === 0)) {
    return setupFailure(`No tests found in test/e2e/*.e2e.mjs${filter ? ` matching "${filter}"` : ''}.`);
  }

  const site = await startStaticServer(siteRoot);
  const { baseUrl } = site;
  let browser;
  let passed = 0;
  let failed = 0;
  const started = performance.now();
  try {
    browser = await launchChromium();
    console.log(`Chromium ${browser.version()}, serving dist/site at ${baseUrl}`);
    for (const { file, tests } of suites) {
      for (const { name, fn } of tests) {
        const t0 = performance.now();
        try {
          const limit = Math.max(Number(fn.timeoutMs) || 0, testTimeoutMs);
          await withTimeout(Promise.resolve().then(() => fn({ browser, baseUrl })), limit, name);
          passed += 1;
          console.log(`ok   ${file} > ${name} (${Math.round(performance.now() - t0)} ms)`);
        } catch (error) {
          failed += 1;
          console.log(`FAIL ${file} > ${name} (${Math.round(performance.now() - t0)} ms)`);
          console.log(indent(error instanceof Error ? (error.stack ?? error.message) : error));
        }
      }
    }
  } finally {
    await browser?.close();
    await site.close();
  }
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.exitCode = setupFailure(error instanceof Error ? (error.stack ?? error.message) : error);
  },
);
