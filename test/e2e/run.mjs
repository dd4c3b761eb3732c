// Browser test runner for the built site.
//
// Serves dist/site on 127.0.0.1 (random free port) with node:http, starts Debian's Chromium through
// playwright-core, and runs every test/e2e/*.e2e.mjs module. A module's default export (or its
// `tests` export) is either an array of named async functions or an object of { name: fn }; each
// test receives { browser, baseUrl }. One line is printed per test, then "N passed, N failed".
// The process exits non-zero if any test fails, or if there is nothing to test.
//
// Usage: npm run build:site && npm run e2e
// Env:   CHROMIUM_PATH   browser binary (default /usr/bin/chromium)
//        E2E_TIMEOUT_MS  per-test timeout (default 30000)

import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const siteRoot = path.resolve(here, '../../dist/site');
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const testTimeoutMs = Number(process.env.E2E_TIMEOUT_MS) || 30_000;
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const contentTypes = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.wasm': 'application/wasm',
};

async function statOrNull(file) {
  try {
    return await stat(file);
  } catch {
    return null;
  }
}

/**
 * Map a request path to a file under root, the way static hosts do for Astro's "directory" build
 * format: /a/ -> /a/index.html, /a -> /a.html or a redirect to /a/. Returns { file } or
 * { redirect } or null when nothing matches.
 */
async function resolveRequest(root, pathname) {
  const target = path.join(root, pathname);
  if (target !== root && !target.startsWith(root + path.sep)) return null;
  if (pathname.endsWith('/')) {
    const index = path.join(target, 'index.html');
    return (await statOrNull(index))?.isFile() ? { file: index } : null;
  }
  const info = await statOrNull(target);
  if (info?.isFile()) return { file: target };
  if ((await statOrNull(`${target}.html`))?.isFile()) return { file: `${target}.html` };
  if (info?.isDirectory() && (await statOrNull(path.join(target, 'index.html')))?.isFile()) {
    return { redirect: `${pathname}/` };
  }
  return null;
}

function sendFile(req, res, status, file) {
  const type = contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file).pipe(res);
}

function startServer(root) {
  const server = createServer(async (req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD' }).end();
        return;
      }
      let pathname;
      try {
        pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
      } catch {
        res.writeHead(400).end();
        return;
      }
      const found = await resolveRequest(root, pathname);
      if (found?.redirect) {
        res.writeHead(301, { location: found.redirect }).end();
      } else if (found?.file) {
        sendFile(req, res, 200, found.file);
      } else {
        const notFound = path.join(root, '404.html');
        if ((await statOrNull(notFound))?.isFile()) sendFile(req, res, 404, notFound);
        else res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      }
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

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
  if (!(await statOrNull(executablePath))) {
    return setupFailure(
      `Chromium not found at ${executablePath}. Install it (apt-get install -y chromium) ` +
        'or set CHROMIUM_PATH.',
    );
  }

  const files = (await readdir(here)).filter((f) => f.endsWith('.e2e.mjs')).sort();
  const suites = [];
  for (const file of files) {
    const mod = await import(pathToFileURL(path.join(here, file)).href);
    suites.push({ file, tests: collectTests(mod, file) });
  }
  if (suites.every((s) => s.tests.length === 0)) {
    return setupFailure('No tests found in test/e2e/*.e2e.mjs.');
  }

  const server = await startServer(siteRoot);
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  const baseUrl = `http://127.0.0.1:${port}`;
  let browser;
  let passed = 0;
  let failed = 0;
  const started = performance.now();
  try {
    browser = await chromium.launch({ executablePath, args: chromiumArgs });
    console.log(`Chromium ${browser.version()}, serving dist/site at ${baseUrl}`);
    for (const { file, tests } of suites) {
      for (const { name, fn } of tests) {
        const t0 = performance.now();
        try {
          await withTimeout(Promise.resolve().then(() => fn({ browser, baseUrl })), testTimeoutMs, name);
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
    await new Promise((resolve) => server.close(resolve));
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
