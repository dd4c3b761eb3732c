// Component pages, the CSI RPC page and the home page map.
//
// Expected values come from the built library (dist/lib: descriptors, the topology, the log
// catalog), not from the site's own view code, so a page that drops a component, a watched kind or
// a log line fails here.

import assert from 'node:assert/strict';
import { formatViolations, openPage, seriousAxeViolations } from './helpers.mjs';
import {
  buildComponents, catalog, DRIVERS, externalAttacherDescriptor, kubeletDescriptor, runScenario, SCENARIOS, TakenTally,
} from '../../dist/lib/machines/index.js';
import { CSI_RPCS } from '../../dist/lib/machines/shared/csi.js';

const norm = (t) => t.replace(/\s+/g, ' ').trim();

/** Component names of the standard topology, straight from buildComponents over every scenario. */
function topologyNames() {
  const names = new Set();
  for (const s of SCENARIOS) {
    const data = s.build({ k8s: '1.30', seed: 1, replicas: s.defaultReplicas ?? 1, faults: [] });
    for (const spec of buildComponents(data, DRIVERS[data.driver], '1.30', 1, 0)) names.add(spec.descriptor.name);
  }
  return [...names].sort();
}

const REQUIRED = [
  'pv-controller', 'external-provisioner', 'attach-detach-controller', 'external-attacher', 'kubelet',
  'csi-controller-plugin', 'csi-node-plugin', 'node-driver-registrar', 'external-resizer',
  'external-snapshotter', 'kube-scheduler',
];

const CHAPTER_ORDER = [
  'provision', 'wffc-provision', 'attach', 'mount', 'teardown', 'register', 'multi-attach', 'no-attach', 'expand', 'snapshot', 'pod-migration', 'node-failure',
  'ad-detach-backoff', 'provision-failure', 'attach-failure', 'mount-failure', 'driver-not-registered', 'ceph-rbd',
];

/** Requests that fetch Mermaid itself (the lazily imported library), not the small loader. */
const isMermaidChunk = (url) => /\/mermaid\.core\.|stateDiagram|mermaid-parser/.test(url);

export default [
  async function componentsIndexListsEveryComponentAndLinksToItsPage({ browser, baseUrl }) {
    const expected = topologyNames();
    for (const name of REQUIRED) assert.ok(expected.includes(name), `topology lacks ${name}`);
    const { page, response, errors, close } = await openPage(browser, `${baseUrl}/components/`);
    try {
      assert.equal(response?.status(), 200);
      const rows = await page.$$eval('table.components tr[data-component]', (trs) =>
        trs.map((tr) => ({ name: tr.getAttribute('data-component'), href: tr.querySelector('th a')?.getAttribute('href') })),
      );
      assert.deepEqual(rows.map((r) => r.name).sort(), expected);
      for (const r of rows) assert.equal(r.href, `/components/${r.name}/`);
      // the kubelet's row says what it watches
      const kubeletRow = await page.locator('table.components tr[data-component="kubelet"]').innerText();
      for (const kind of kubeletDescriptor.watches) assert.match(kubeletRow, new RegExp(kind));
      assert.deepEqual(errors, []);
      // every link leads to that component's page
      for (const r of rows) {
        const res = await page.goto(`${baseUrl}${r.href}`);
        assert.equal(res?.status(), 200, r.href);
        assert.equal((await page.locator('h1').innerText()).trim(), r.name);
      }
    } finally {
      await close();
    }
  },

  async function componentPageShowsWatchesAndLogLinesAndDrawsItsChartOnlyWhenScrolledTo({ browser, baseUrl }) {
    const { page, response, errors, requests, close } = await openPage(browser, `${baseUrl}/components/external-attacher/`, {
      viewport: { width: 1280, height: 700 },
    });
    try {
      assert.equal(response?.status(), 200);
      const watches = await page.locator('[data-facts="watches"]').innerText();
      for (const kind of externalAttacherDescriptor.watches) assert.match(watches, new RegExp(`\\b${kind}\\b`));

      // log lines: both profiles' templates with file:line, from the catalog
      const attaching = catalog['externalAttacher.attaching'];
      const row = page.locator('#msg-externalAttacher-attaching');
      const rowText = await row.innerText();
      assert.ok(rowText.includes(attaching.formats['1.20'].text), 'the 1.20 template');
      assert.ok(rowText.includes(`"${attaching.formats['1.30'].msg}"`), 'the 1.30 message');
      assert.ok(rowText.includes(`${attaching.formats['1.20'].file}:${attaching.formats['1.20'].line}`));
      assert.ok(rowText.includes(`${attaching.formats['1.30'].file}:${attaching.formats['1.30'].line}`));
      const ownIds = Object.keys(externalAttacherDescriptor.messages);
      assert.equal(await page.locator('tr[id^="msg-externalAttacher"]').count(), ownIds.length);

      // nothing of Mermaid before the chart is near the viewport; the source is readable meanwhile
      await page.waitForLoadState('networkidle');
      const figure = page.locator('figure[data-widget="mermaid"]').first();
      assert.equal(await figure.getAttribute('data-state'), null);
      assert.deepEqual(requests.map((r) => r.url()).filter(isMermaidChunk), [], 'Mermaid fetched before scrolling');
      assert.match(await figure.locator('pre').innerText(), /^stateDiagram-v2/);
      assert.equal(await figure.locator('details').getAttribute('open'), '');

      await figure.scrollIntoViewIfNeeded();
      await figure.locator('svg').first().waitFor({ state: 'attached', timeout: 15000 });
      assert.equal(await figure.getAttribute('data-state'), 'drawn');
      const svgText = await figure.locator('svg').first().textContent();
      for (const state of ['Stopped', 'Probing', 'Running']) assert.ok(svgText?.includes(state), `chart lacks ${state}`);
      assert.equal(await figure.locator('svg').first().getAttribute('role'), 'img');
      assert.ok(requests.some((r) => isMermaidChunk(r.url())), 'Mermaid was not fetched after scrolling');
      // the source folds away but stays reachable
      assert.equal(await figure.locator('details').getAttribute('open'), null);
      assert.equal(await figure.locator('details pre').count(), 1);
      assert.deepEqual(errors, []);
      const violations = await seriousAxeViolations(page);
      assert.deepEqual(violations, [], formatViolations(violations));
    } finally {
      await close();
    }
  },

  async function chartsMarkTheTransitionsTheScenariosTake({ browser, baseUrl }) {
    // Expected: what the attach scenario alone makes the attach/detach controller's attach
    // operation do (the page tallies every scenario, a superset)
    const tally = new TakenTally();
    runScenario('attach', { k8s: '1.30', warmUp: true, onStateMove: tally.move });
    const component = 'attach-detach-controller';
    const machine = (await import('../../dist/lib/machines/attach-detach-controller/index.js')).attachVolumeMachine;
    const taken = tally.of(component, machine);
    assert.ok(taken.transitions.size >= 3, 'the attach scenario moves the attach operation');
    const { page, errors, close } = await openPage(browser, `${baseUrl}/components/${component}/`, { viewport: { width: 1440, height: 900 } });
    try {
      const figure = page.locator('#diagram-attachVolumeMachine');
      const source = await figure.locator('pre').innerText();
      for (const move of taken.transitions) {
        const [from, to] = move.split(' → ');
        assert.match(source, new RegExp(`^\\s+${from} --> ${to} : ✔ `, 'm'), `the edge ${move} is marked taken`);
      }
      assert.match(source, /^\s+classDef taken /m);
      for (const state of taken.states) assert.match(source, new RegExp(`^\\s+class [A-Za-z0-9_,]*\\b${state}\\b[A-Za-z0-9_,]* taken$`, 'm'), `${state} is drawn as reached`);
      // the legend and the table say the same in words
      const section = page.locator('section.chart', { has: figure });
      assert.match(norm(await section.locator('.taken-legend').innerText()), /the states the site’s scenarios reach \(\d+ of \d+\)/);
      const table = section.locator('details.states');
      await table.locator('summary').click();
      assert.ok(await table.locator('.tag', { hasText: /^taken$/ }).count() >= taken.transitions.size);
      // drawn: the reached states carry the class in the picture
      await figure.scrollIntoViewIfNeeded();
      await figure.locator('svg').first().waitFor({ state: 'attached', timeout: 15000 });
      assert.ok(await figure.locator('svg .taken').count() > 0, 'the picture styles the reached states');
      assert.ok((await figure.locator('svg').first().textContent())?.includes('✔'), 'the picture shows the ✔ marks');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function chartRedrawsInTheDarkSchemeAndABrokenDiagramShowsAMessage({ browser, baseUrl }) {
    const { page, errors, close } = await openPage(browser, `${baseUrl}/components/csi-node-plugin/`, {
      viewport: { width: 1280, height: 700 }, colorScheme: 'light',
    });
    try {
      const figures = page.locator('figure[data-widget="mermaid"]');
      assert.ok((await figures.count()) >= 2, 'the node plugin and the volume lifecycle charts');
      // break the second diagram's source before it is drawn
      await figures.nth(1).evaluate((fig) => {
        const code = fig.querySelector('pre code');
        if (code) code.textContent = 'stateDiagram-v2\n  A --> : ::: {{{';
      });
      const first = figures.nth(0);
      await first.scrollIntoViewIfNeeded();
      await first.locator('svg').first().waitFor({ state: 'attached', timeout: 15000 });
      await first.locator('svg').first().evaluate((svg) => svg.setAttribute('data-before', 'light'));
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForFunction(
        () => {
          const svg = document.querySelector('figure[data-widget="mermaid"] svg');
          return svg !== null && !svg.hasAttribute('data-before');
        },
        undefined,
        { timeout: 15000 },
      );

      const broken = figures.nth(1);
      await broken.scrollIntoViewIfNeeded();
      await page.waitForFunction(
        (n) => document.querySelectorAll('figure[data-widget="mermaid"]')[n]?.getAttribute('data-state') === 'failed',
        1,
        { timeout: 15000 },
      );
      assert.match(await broken.locator('.mermaid-error').innerText(), /could not be drawn/);
      // the source stays open under the message
      assert.equal(await broken.locator('details').getAttribute('open'), '');
      assert.deepEqual(errors, []);
      const violations = await seriousAxeViolations(page);
      assert.deepEqual(violations, [], formatViolations(violations));
    } finally {
      await close();
    }
  },

  async function unknownComponentIsTheSitesNotFoundPage({ browser, baseUrl }) {
    const url = `${baseUrl}/components/no-such-component/`;
    const { page, response, close } = await openPage(browser, url);
    try {
      assert.equal(response?.status(), 404);
      assert.match(await page.locator('h1').innerText(), /not found/i);
    } finally {
      await close();
    }
  },

  async function rpcPageDescribesEveryCsiRpc({ browser, baseUrl }) {
    const { page, response, errors, close } = await openPage(browser, `${baseUrl}/components/csi-rpcs/`);
    try {
      assert.equal(response?.status(), 200);
      for (const rpc of Object.keys(CSI_RPCS)) {
        const article = page.locator(`article#rpc-${rpc}`);
        assert.equal(await article.count(), 1, rpc);
        assert.ok((await article.innerText()).includes(`/csi.v1.${CSI_RPCS[rpc]}/${rpc}`), rpc);
      }
      // who calls ControllerPublishVolume, from the traces
      const publish = await page.locator('article#rpc-ControllerPublishVolume .observed').innerText();
      assert.match(publish, /external-attacher.*→.*csi-controller-plugin/);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },

  async function homePageIsAFrontDoorAndTheComponentsPageHasTheMap({ browser, baseUrl }) {
    const home = await openPage(browser, `${baseUrl}/`, { viewport: { width: 1440, height: 900 } });
    try {
      assert.equal(home.response?.status(), 200);
      assert.equal(await home.page.locator('script').count(), 0);
      // in one screen: what the site is and the three ways in
      const doors = home.page.locator('.doors a.door');
      assert.deepEqual(await doors.evaluateAll((as) => as.map((a) => a.getAttribute('href'))), [`/flows/${CHAPTER_ORDER[0]}/`, '/explain/', '/embed/']);
      for (const box of [await home.page.locator('h1').boundingBox(), await doors.last().boundingBox()]) assert.ok(box && box.y + box.height <= 900, 'above the fold at 1440×900');
      // the learning path, each chapter with its reading time
      const minutes = await home.page.locator('ol.chapters li .minutes').allInnerTexts();
      assert.equal(minutes.length, CHAPTER_ORDER.length);
      for (const m of minutes) assert.match(m, /^\d+ min$/);
      // the overview names every component of the topology, in its place
      const named = await home.page.locator('.overview .place li a').allInnerTexts();
      assert.deepEqual([...named].sort(), topologyNames());
      assert.equal(await home.page.locator('table.grid').count(), 0, 'the matrix moved to /components/');
      assert.deepEqual(home.errors, []);
    } finally {
      await home.close();
    }
    const { page, response, errors, requests, close } = await openPage(browser, `${baseUrl}/components/`, { viewport: { width: 375, height: 800 } });
    try {
      assert.equal(response?.status(), 200);
      assert.deepEqual(requests.filter((r) => r.resourceType() === 'script').map((r) => r.url()), []);
      const mapRows = await page.$$eval('table.grid tr[data-component]', (trs) => trs.map((tr) => tr.getAttribute('data-component')));
      assert.deepEqual([...mapRows].sort(), topologyNames());
      // the A/D controller creates and deletes VolumeAttachments; the kubelet watches them
      const cell = (row, attr) => page.locator(`tr[data-component="${row}"] td[${attr}] .visually-hidden`).textContent();
      const adcVa = await cell('attach-detach-controller', 'data-kind="VolumeAttachment"');
      assert.match(adcVa, /writes \(create, delete\); watches/);
      const kubeletVa = await cell('kubelet', 'data-kind="VolumeAttachment"');
      assert.match(kubeletVa, /^watches$/);
      const kubeletNode = await cell('kubelet', 'data-service="Node"');
      assert.match(kubeletNode, /calls .*NodeStageVolume/);
      // the home page lists the chapters in learning order
      const h = await openPage(browser, `${baseUrl}/`, { javaScriptEnabled: false });
      const chapterHrefs = await h.page.$$eval('ol.chapters a', (as) => as.map((a) => a.getAttribute('href')));
      assert.deepEqual(chapterHrefs, CHAPTER_ORDER.map((id) => `/flows/${id}/`));
      for (const href of ['/components/', '/embed/']) assert.equal(await h.page.locator(`main a[href="${href}"]`).count() > 0, true, href);
      await h.close();
      // readable on a phone: the page itself does not scroll sideways (the map scrolls in its box)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `page overflows by ${overflow}px at 375px`);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  },
];
