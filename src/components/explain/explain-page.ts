/**
 * The /explain/ page's client: input (paste, file, drop, sample), the worker's progress, the
 * summary and the paged listing with filters. Plain DOM, no framework: the page's initial script
 * is this file only; the worker (the explainer and its knowledge) is created on first use.
 *
 * Log text is untrusted: it only ever reaches the DOM through textContent.
 */
import type { ExplainedLine, ExplainSummary, Severity, Stage, StepRef } from '../../machines/explain/types.ts';
import { NO_FILTERS, PAGE_SIZE, type Facets, type Filters, type FromWorker, type ToWorker } from './protocol.ts';

/** Stages in the order a volume's life goes through them (the summary lists them this way too). */
const FLOW_ORDER: Stage[] = ['register', 'provision', 'attach', 'mount', 'resize', 'snapshot', 'unmount', 'detach', 'delete', 'other'];
const SEVERITY_TEXT: Record<Severity, string> = { I: 'info', W: 'warning', E: 'error', F: 'fatal' };
/** A screen reader hears progress at most this often. */
const ANNOUNCE_INTERVAL_MS = 2500;
/** Longer lines are shown cut (a 5 MB line would stall layout); the explainer has read them already. */
const SHOWN_CHARS = 4000;
const EMPTY_MESSAGE =
  'Nothing to explain yet: paste log lines (a kubelet journal, kube-controller-manager, csi-provisioner, ' +
  'csi-attacher, node-driver-registrar or CSI driver logs, or the Events of kubectl describe), or choose a file.';

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing from the page`);
  return el as T;
};

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

/** Only our own site paths become links; anything else in the data is shown as text. */
const safeHref = (url: string): string | null => (/^\/(?!\/)/.test(url) ? url : null);

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** A log line's text for display, cut to SHOWN_CHARS with a note of what was left out. */
function shownText(text: string): (Node | string)[] {
  if (text.length <= SHOWN_CHARS) return [text];
  const rest = text.length - SHOWN_CHARS;
  return [text.slice(0, SHOWN_CHARS), el('span', { class: 'xp-cut' }, ` … (${rest.toLocaleString('en')} more characters not shown)`)];
}

const sentence = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? '' : '.');

function stepLink(step: StepRef | null | undefined, text = 'see this step in the flow'): HTMLAnchorElement | null {
  const href = step ? safeHref(step.url) : null;
  if (!step || !href) return null;
  return el('a', { href, class: 'xp-step', title: `${step.scenario} (Kubernetes ${step.k8s}), step ${step.step}: ${step.summary}` }, text);
}

function start(): void {
  const root = $('explain-tool');
  const form = $<HTMLFormElement>('explain-form');
  const textarea = $<HTMLTextAreaElement>('explain-text');
  const fileInput = $<HTMLInputElement>('explain-file');
  const fileChosen = $('explain-file-chosen');
  const fileName = $('explain-file-name');
  const fileRemove = $<HTMLButtonElement>('explain-file-remove');
  const runButton = $<HTMLButtonElement>('explain-run');
  const sampleButton = $<HTMLButtonElement>('explain-sample');
  const clearButton = $<HTMLButtonElement>('explain-clear');
  const alertBox = $('explain-alert');
  const progressBox = $('explain-progress');
  const progressLabel = $('explain-progress-label');
  const bar = $<HTMLProgressElement>('explain-bar');
  const cancelButton = $<HTMLButtonElement>('explain-cancel');
  const status = $('explain-status');
  const results = $('explain-results');
  const summaryHeading = $('explain-summary-heading');
  const summaryBox = $('explain-summary');
  const filtersForm = $<HTMLFormElement>('explain-filters');
  const stageSelect = $<HTMLSelectElement>('xp-f-stage');
  const componentSelect = $<HTMLSelectElement>('xp-f-component');
  const severitySelect = $<HTMLSelectElement>('xp-f-severity');
  const recognisedBox = $<HTMLInputElement>('xp-f-recognised');
  const problemsBox = $<HTMLInputElement>('xp-f-problems');
  const listingHeading = $('explain-listing-heading');
  const list = $<HTMLOListElement>('explain-lines');
  const pagers = [...document.querySelectorAll<HTMLElement>('[data-xp-pager]')];
  const sample = document.getElementById('explain-sample-text') as HTMLTemplateElement | null;

  root.hidden = false;

  let worker: Worker | null = null;
  let runId = 0;
  let running = false;
  let file: File | null = null;
  let filters: Filters = { ...NO_FILTERS };
  let page = 0;
  let pageCount = 1;
  let lastAnnounce = 0;
  /** a line to show and focus once its page arrives */
  let focusLine: number | null = null;

  const showAlert = (message: string): void => {
    alertBox.textContent = message;
    alertBox.hidden = false;
  };
  const clearAlert = (): void => {
    alertBox.textContent = '';
    alertBox.hidden = true;
  };
  const announce = (message: string): void => {
    status.textContent = message;
    lastAnnounce = performance.now();
  };

  const setRunning = (on: boolean): void => {
    running = on;
    runButton.disabled = on;
    progressBox.hidden = !on;
    root.setAttribute('aria-busy', String(on));
  };

  const send = (message: ToWorker, transfer: Transferable[] = []): void => worker?.postMessage(message, transfer);

  function ensureWorker(): Worker {
    if (worker) return worker;
    // Vite bundles the worker and everything it imports (the explainer) into its own file.
    const w = new Worker(new URL('./explain.worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (event: MessageEvent<FromWorker>) => onWorkerMessage(event.data);
    w.onerror = (event) => {
      // Reported in the page; preventDefault keeps it from also surfacing as an uncaught error.
      event.preventDefault();
      fail(`The explainer stopped unexpectedly${event.message ? ` (${event.message})` : ''}. Reload the page and try again; if it happens again, the command line tool (npx csi-flows explain) reads the same logs.`);
    };
    w.onmessageerror = () => fail('The explainer sent a message the page could not read. Reload the page and try again.');
    worker = w;
    return w;
  }

  function stopWorker(): void {
    worker?.terminate();
    worker = null;
  }

  function fail(message: string): void {
    stopWorker();
    setRunning(false);
    results.hidden = true;
    showAlert(message);
    announce('');
  }

  function setFile(f: File | null): void {
    file = f;
    if (!f) fileInput.value = '';
    fileChosen.hidden = !f;
    fileName.textContent = f ? `${f.name || 'dropped file'} (${formatBytes(f.size)})` : '';
    textarea.disabled = !!f;
  }

  async function run(): Promise<void> {
    if (running) return;
    clearAlert();
    const text = textarea.value;
    if (!file && text.trim() === '') {
      showAlert(EMPTY_MESSAGE);
      textarea.focus();
      return;
    }
    const id = ++runId;
    setRunning(true);
    results.hidden = true;
    setProgress('Starting the explainer…', null);
    announce('Explaining…');
    try {
      ensureWorker();
      if (file) {
        const name = file.name;
        // Read as bytes: the worker decodes (UTF-8, UTF-16 with a BOM) and rejects binary files.
        const bytes = await file.arrayBuffer();
        if (id !== runId) return;
        send({ type: 'explain', id, input: { kind: 'bytes', bytes, name } }, [bytes]);
      } else {
        send({ type: 'explain', id, input: { kind: 'text', text } });
      }
    } catch (error) {
      fail(`The input could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  function cancel(): void {
    if (!running) return;
    runId += 1;
    // The explainer runs synchronously inside the worker; ending the worker is the way to stop it.
    stopWorker();
    setRunning(false);
    results.hidden = true;
    announce('Cancelled. Nothing was explained.');
    runButton.focus();
  }

  function setProgress(label: string, fraction: number | null): void {
    progressLabel.textContent = label;
    if (fraction === null) bar.removeAttribute('value');
    else bar.value = Math.round(fraction * 1000) / 10;
  }

  function onWorkerMessage(m: FromWorker): void {
    if (m.id !== runId) return;
    switch (m.type) {
      case 'progress': {
        if (m.phase === 'knowledge') setProgress('Loading what the explainer knows about CSI log lines…', null);
        else if (m.phase === 'decode') setProgress('Reading the input…', null);
        else {
          const fraction = m.total > 0 ? m.done / m.total : 1;
          setProgress(`Explained ${m.done.toLocaleString('en')} of ${plural(m.total, 'line')}`, fraction);
          if (performance.now() - lastAnnounce > ANNOUNCE_INTERVAL_MS) {
            announce(`Explaining: ${Math.floor(fraction * 100)}% (${m.done.toLocaleString('en')} of ${plural(m.total, 'line')})`);
          }
        }
        break;
      }
      case 'done':
        setRunning(false);
        renderSummary(m.summary, m.chapters);
        renderFacets(m.facets);
        filters = { ...NO_FILTERS };
        syncFilterControls();
        results.hidden = false;
        announce(
          `Explained ${plural(m.summary.lines, 'line')}: ${plural(m.summary.errors, 'error')}, ${plural(m.summary.warnings, 'warning')}.`,
        );
        send({ type: 'query', id: runId, filters, page: 0 });
        // The summary is the answer to the button press: take the reader there.
        summaryHeading.focus();
        break;
      case 'page':
        renderPage(m);
        break;
      case 'error':
        if (m.kind === 'input') {
          stopWorker();
          setRunning(false);
          results.hidden = true;
          showAlert(m.message);
          announce('');
        } else if (m.kind === 'knowledge') {
          fail(`The explainer could not load what it knows about log lines (${m.message}). Check your connection and try again.`);
        } else {
          fail(`The explainer failed on this input (${m.message}). The command line tool (npx csi-flows explain) may tell you more.`);
        }
        break;
    }
  }

  // ---- summary ----

  function lineLink(line: number): HTMLAnchorElement {
    const a = el('a', { href: `#L${line}`, 'data-xp-line': String(line) }, `line ${line.toLocaleString('en')}`);
    return a;
  }

  function chapterLink(stage: Stage, chapters: Partial<Record<Stage, string>>): Node {
    const href = chapters[stage] ? safeHref(chapters[stage]!) : null;
    return href ? el('a', { href }, stage) : document.createTextNode(stage);
  }

  function renderSummary(s: ExplainSummary, chapters: Partial<Record<Stage, string>>): void {
    const facts = el('dl', { class: 'xp-facts' });
    const fact = (term: string, ...value: (Node | string | null)[]): void => {
      facts.append(el('dt', {}, term), el('dd', {}, ...value));
    };
    fact(
      'Lines',
      `${s.lines.toLocaleString('en')} (${s.recognised.toLocaleString('en')} recognised, ${plural(s.guessed, 'guess', 'guesses')})`,
    );
    fact('Problems', el('span', { class: s.errors ? 'xp-sev-E' : '' }, plural(s.errors, 'error')), ', ', el('span', { class: s.warnings ? 'xp-sev-W' : '' }, plural(s.warnings, 'warning')));
    if (s.stages.length > 0) {
      const stages = el('ol', { class: 'xp-stages' });
      for (const st of s.stages) stages.append(el('li', {}, chapterLink(st, chapters)));
      fact('Stages seen', stages);
    } else {
      fact('Stages seen', 'none recognised');
    }
    if (s.components.length > 0) fact('Components', s.components.join(', '));
    if (s.stoppedAt) {
      fact(
        'Where it stopped',
        `${s.stoppedAt.stage}, `,
        lineLink(s.stoppedAt.line),
        ': ',
        s.stoppedAt.reason,
        el('code', { class: 'xp-quote' }, ...shownText(s.stoppedAt.text)),
      );
    }
    if (s.lastHealthy) {
      const h = s.lastHealthy;
      fact('Last healthy step', `${h.component} (${h.stage}), `, lineLink(h.line), ' ', stepLink(h.step));
    }
    if (s.nextExpected) {
      const n = s.nextExpected;
      fact(
        'Next line a healthy system prints',
        `${n.summary} `,
        el('span', { class: 'xp-muted' }, `(${n.component}, in the ${n.source} log)`),
        el('span', { class: 'xp-where' }, sentence(n.where)),
        stepLink(n.step, 'see it in the flow'),
      );
    }
    summaryBox.replaceChildren(el('p', { class: 'xp-verdict' }, s.verdict), facts);
  }

  // ---- filters ----

  function renderFacets(f: Facets): void {
    const option = (value: string, text: string): HTMLOptionElement => el('option', { value }, text);
    const stages = FLOW_ORDER.filter((s) => f.stages.includes(s));
    stageSelect.replaceChildren(option('', 'All stages'), ...stages.map((s) => option(s, s)));
    componentSelect.replaceChildren(
      option('', 'All components'),
      ...f.components.map((c) => option(c, c)),
      ...(f.unknownComponent ? [option('(unknown)', 'unknown component')] : []),
    );
  }

  function syncFilterControls(): void {
    stageSelect.value = filters.stage;
    componentSelect.value = filters.component;
    severitySelect.value = filters.severity;
    recognisedBox.checked = filters.recognised;
    problemsBox.checked = filters.problems;
  }

  function readFilterControls(): Filters {
    return {
      stage: stageSelect.value as Filters['stage'],
      component: componentSelect.value,
      severity: severitySelect.value as Filters['severity'],
      recognised: recognisedBox.checked,
      problems: problemsBox.checked,
    };
  }

  // ---- listing ----

  function renderLine(l: ExplainedLine): HTMLLIElement {
    const classes = ['xp-row', `xp-kind-${l.kind}`];
    if (l.severity) classes.push(`xp-row-${l.severity}`);
    const li = el('li', { id: `L${l.line}`, class: classes.join(' ') });
    const num = el('span', { class: 'xp-ln' }, el('span', { class: 'visually-hidden' }, 'Line '), String(l.line));

    if (l.kind === 'continuation') {
      li.append(
        el('div', { class: 'xp-meta' }, num, el('span', { class: 'xp-muted' }, `continues line ${l.continues ?? '?'}`)),
        el('code', { class: 'xp-text' }, ...shownText(l.text)),
      );
      return li;
    }
    if (l.kind === 'blank') {
      li.append(el('div', { class: 'xp-meta' }, num, el('span', { class: 'xp-muted' }, 'blank line')));
      return li;
    }
    if (l.kind === 'decoration') {
      // Table headers, separators and prompts: kept small, they only frame the records.
      li.append(el('div', { class: 'xp-meta' }, num, el('span', { class: 'xp-muted' }, l.explanation)), el('code', { class: 'xp-text' }, ...shownText(l.text)));
      return li;
    }

    const meta = el('div', { class: 'xp-meta' }, num);
    if (l.severity) meta.append(el('span', { class: `xp-sev xp-sev-${l.severity}` }, SEVERITY_TEXT[l.severity]));
    if (l.kind === 'log' || l.kind === 'event') meta.append(el('span', { class: 'xp-stage' }, el('span', { class: 'visually-hidden' }, 'stage '), l.stage));
    if (l.component) meta.append(el('span', { class: 'xp-comp' }, l.component));
    else if (l.kind === 'log' || l.kind === 'event') meta.append(el('span', { class: 'xp-muted' }, 'component unknown'));
    if (l.source && l.source !== l.component) meta.append(el('span', { class: 'xp-muted' }, `in ${l.source}`));
    if (l.host) meta.append(el('span', { class: 'xp-muted' }, `on ${l.host}`));
    if (l.time) meta.append(el('time', { class: 'xp-time' }, l.time));
    if (l.match === 'guess') meta.append(el('span', { class: 'xp-guess', title: 'matched by keywords only' }, 'guess'));
    else if (l.match === 'none') meta.append(el('span', { class: 'xp-unknown' }, 'not recognised'));

    li.append(meta, el('code', { class: 'xp-text' }, ...shownText(l.text)));
    if (l.explanation) li.append(el('p', { class: 'xp-expl' }, l.explanation));
    if (l.cause || l.next) {
      const advice = el('dl', { class: 'xp-advice' });
      if (l.cause) advice.append(el('dt', {}, 'Likely cause'), el('dd', {}, l.cause));
      if (l.next) advice.append(el('dt', {}, 'Check next'), el('dd', {}, l.next));
      li.append(advice);
    }
    const link = stepLink(l.step);
    if (link) li.append(el('p', { class: 'xp-links' }, link));
    return li;
  }

  function renderPage(m: Extract<FromWorker, { type: 'page' }>): void {
    page = m.page;
    pageCount = m.pageCount;
    const fragment = document.createDocumentFragment();
    for (const l of m.lines) fragment.append(renderLine(l));
    list.replaceChildren(fragment);
    const first = m.page * PAGE_SIZE + 1;
    const last = m.page * PAGE_SIZE + m.lines.length;
    const range =
      m.matching === 0
        ? 'No line matches these filters.'
        : `Showing ${first.toLocaleString('en')}–${last.toLocaleString('en')} of ${plural(m.matching, 'line')}` +
          (m.pageCount > 1 ? ` (page ${m.page + 1} of ${m.pageCount})` : '');
    for (const pager of pagers) {
      pager.querySelector('[data-xp-range]')!.textContent = range;
      pager.querySelector<HTMLButtonElement>('[data-xp-prev]')!.disabled = m.page === 0;
      pager.querySelector<HTMLButtonElement>('[data-xp-next]')!.disabled = m.page >= m.pageCount - 1;
      // One set of page buttons is enough when everything fits on one page.
      pager.hidden = m.pageCount <= 1 && pager.dataset.xpPager === 'bottom';
    }
    if (focusLine !== null) {
      const row = document.getElementById(`L${focusLine}`);
      focusLine = null;
      if (row) {
        row.classList.add('xp-target');
        row.tabIndex = -1;
        row.focus();
        row.scrollIntoView({ block: 'center' });
      }
    }
  }

  function query(p: number): void {
    send({ type: 'query', id: runId, filters, page: p });
  }

  function goToLine(line: number): void {
    // The line may be hidden by the filters: show everything around it.
    filters = { ...NO_FILTERS };
    syncFilterControls();
    focusLine = line;
    send({ type: 'query', id: runId, filters, line });
  }

  // ---- events ----

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run();
  });
  textarea.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void run();
    }
  });
  // Start fetching the explainer as soon as the reader shows intent, so the first run is quicker.
  const warmUp = (): void => void ensureWorker();
  textarea.addEventListener('input', warmUp, { once: true });
  fileInput.addEventListener('change', () => {
    setFile(fileInput.files?.[0] ?? null);
    clearAlert();
  });
  fileRemove.addEventListener('click', () => {
    setFile(null);
    textarea.focus();
  });
  sampleButton.addEventListener('click', () => {
    setFile(null);
    clearAlert();
    textarea.value = sample?.content.textContent?.trim() ?? '';
    announce('Sample loaded: log lines of a pod moving to another node. Press Explain.');
    textarea.focus();
    warmUp();
  });
  clearButton.addEventListener('click', () => {
    if (running) cancel();
    setFile(null);
    textarea.value = '';
    clearAlert();
    results.hidden = true;
    announce('Cleared.');
    textarea.focus();
  });
  cancelButton.addEventListener('click', cancel);

  root.addEventListener('dragover', (event) => {
    event.preventDefault();
    root.classList.add('xp-drop');
  });
  root.addEventListener('dragleave', (event) => {
    if (!root.contains(event.relatedTarget as Node | null)) root.classList.remove('xp-drop');
  });
  root.addEventListener('drop', (event) => {
    event.preventDefault();
    root.classList.remove('xp-drop');
    const dropped = event.dataTransfer?.files?.[0];
    if (dropped) {
      setFile(dropped);
      clearAlert();
      announce(`File ${dropped.name} chosen. Press Explain.`);
      warmUp();
    } else {
      const text = event.dataTransfer?.getData('text/plain');
      if (text) textarea.value = text;
    }
  });

  filtersForm.addEventListener('change', () => {
    filters = readFilterControls();
    query(0);
  });
  filtersForm.addEventListener('submit', (event) => event.preventDefault());
  filtersForm.addEventListener('reset', () => {
    // After the browser has reset the controls.
    setTimeout(() => {
      filters = { ...NO_FILTERS };
      syncFilterControls();
      query(0);
    });
  });
  for (const pager of pagers) {
    pager.querySelector('[data-xp-prev]')!.addEventListener('click', () => {
      if (page > 0) query(page - 1);
      if (pager.dataset.xpPager === 'bottom') listingHeading.focus();
    });
    pager.querySelector('[data-xp-next]')!.addEventListener('click', () => {
      if (page < pageCount - 1) query(page + 1);
      if (pager.dataset.xpPager === 'bottom') listingHeading.focus();
    });
  }
  results.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('a[data-xp-line]');
    if (!link) return;
    event.preventDefault();
    goToLine(Number(link.getAttribute('data-xp-line')));
  });
}

start();
