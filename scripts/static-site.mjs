// The built site, served and opened in a browser: shared by the browser tests (test/e2e/run.mjs)
// and the JavaScript budget check (scripts/size.mjs), so both see the site the same way.
//
// - startStaticServer(root): dist/site on 127.0.0.1 (random free port) with node:http, resolving
//   paths the way static hosts do for Astro's "directory" build format.
// - listHtmlPages(root): the URL path of every HTML page in the build (Pagefind's bundle excluded).
// - launchChromium(): Debian's Chromium through playwright-core (CHROMIUM_PATH overrides the path).

import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * dist/site, where `npm run build:site` writes the site; SITE_DIR points the tests and the budget
 * check at another build (e.g. `astro build --outDir /tmp/site && pagefind --site /tmp/site`).
 */
export const siteRoot = process.env.SITE_DIR
  ? path.resolve(process.env.SITE_DIR)
  : path.resolve(here, '../dist/site');

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

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

/** stat() that returns null instead of throwing for a missing path. */
export async function statOrNull(file) {
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
export async function resolveRequest(root, pathname) {
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

/**
 * Serve `root` on 127.0.0.1 at a free port. Unknown paths get root/404.html with status 404.
 * Resolves to { server, baseUrl, close() }.
 */
export async function startStaticServer(root = siteRoot) {
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
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    server,
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

/**
 * The URL path of every HTML page under root, sorted: index.html -> "/", a/b/index.html -> "/a/b/",
 * 404.html -> "/404.html". Pagefind's own files (root/pagefind/) are not pages of the site.
 */
export async function listHtmlPages(root = siteRoot) {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const pages = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const relative = path.relative(root, path.join(entry.parentPath, entry.name));
    const parts = relative.split(path.sep);
    if (parts[0] === 'pagefind') continue;
    const urlPath = `/${parts.map(encodeURIComponent).join('/')}`;
    pages.push(urlPath.endsWith('/index.html') || urlPath === '/index.html'
      ? urlPath.slice(0, -'index.html'.length)
      : urlPath);
  }
  return pages.sort();
}

/** The file in root that serves a same-origin URL path, or null. */
export async function fileForPath(root, pathname) {
  const found = await resolveRequest(root, decodeURIComponent(pathname));
  return found?.file ?? null;
}

/** Launch the browser the tests and the budget check use. */
export function launchChromium() {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}
