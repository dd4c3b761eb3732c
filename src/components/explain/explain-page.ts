/**
 * The /explain/ page's client: input (paste, file, drop, sample), the worker's progress, the
 * summary and the paged listing with filters. Plain DOM, no framework: the page's initial script
 * is this file only; the worker (the explainer and its knowledge) is created on first use.
 *
 * Log text is untrusted: it only ever reaches the DOM through textContent.
 */
import type { ExplainedLine, ExplainSummary, Severity, Stage, StepRef } from '../../machines/explain/types.ts';
import { STAGE_ZH } from '../../machines/shared/stage.zh.ts';
import { NO_FILTERS, PAGE_SIZE, type Facets, type Filters, type FromWorker, type ToWorker } from './protocol.ts';

/** Stages in the order a volume's life goes through them (the summary lists them this way too). */
const FLOW_ORDER: Stage[] = ['register', 'provision', 'attach', 'mount', 'resize', 'snapshot', 'unmount', 'detach', 'delete', 'other'];
/** A screen reader hears progress at most this often. */
const ANNOUNCE_INTERVAL_MS = 2500;
/** Longer lines are shown cut (a 5 MB line would stall layout); the explainer has read them already. */
const SHOWN_CHARS = 4000;


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

/** The page's language: its <html lang> (zh-CN on /zh/explain/). */
const ZH = typeof document !== 'undefined' && document.documentElement.lang.startsWith('zh');
const num = (n: number): string => n.toLocaleString(ZH ? 'zh-CN' : 'en');
/** The page's own words (the explanations come from the knowledge, in the same language). */
const W = ZH
  ? {
      empty: '还没有可解读的内容：请粘贴日志行（kubelet 的 journal、kube-controller-manager、csi-provisioner、csi-attacher、node-driver-registrar 或 CSI 驱动的日志，或者 kubectl describe 中的事件），或者选择一个文件。',
      cut: (rest: number) => ` …（还有 ${num(rest)} 个字符未显示）`, seeStep: '在流程中查看这一步', seeIt: '在流程中查看',
      stepTitle: (sc: string, k8s: string, step: number, summary: string) => `${sc}（Kubernetes ${k8s}），第 ${step} 步：${summary}`,
      stopped: (m: string) => `解读器意外停止${m ? `（${m}）` : ''}。请重新加载页面再试；如果再次发生，命令行工具（npx csi-flows explain）可以读取同样的日志。`,
      badMessage: '解读器发来了一条页面无法读取的消息。请重新加载页面再试。', droppedFile: '拖入的文件',
      starting: '正在启动解读器…', explaining: '正在解读…', unreadable: (m: string) => `无法读取输入：${m}`,
      loadingKnowledge: '正在加载解读器关于 CSI 日志行的知识…', reading: '正在读取输入…',
      noKnowledge: (m: string) => `解读器无法加载它关于日志行的知识（${m}）。请检查网络连接后重试。`,
      failed: (m: string) => `解读器处理这份输入时出错（${m}）。命令行工具（npx csi-flows explain）也许能告诉你更多。`,
      line: (n: number) => `第 ${num(n)} 行`, lines: '行数', linesValue: (n: number, r: number, g: number) => `${num(n)}（${num(r)} 行已识别，${num(g)} 行推测）`,
      problems: '问题', errors: (n: number) => `${num(n)} 个错误`, warnings: (n: number) => `${num(n)} 个警告`, sep: '，',
      stagesSeen: '出现的阶段', noneRecognised: '没有识别出', components: '组件', whereStopped: '停在哪里',
      lastHealthy: '最后一个正常步骤', nextHealthy: '正常情况下接下来打印的行', inLog: (c: string, src: string) => `（${c}，在 ${src} 日志中）`,
      stage: (st: string) => STAGE_ZH[st as Stage] ?? st, allStages: '全部阶段', allComponents: '全部组件', unknownComponent: '未知组件',
      lineWord: '第 ', continues: (n: string) => `接续第 ${n} 行`, blank: '空行', stageWord: '阶段 ', componentUnknown: '组件未知',
      inSource: (s: string) => `在 ${s} 中`, onHost: (h: string) => `在 ${h} 上`, keywordsOnly: '仅根据关键词匹配', guess: '推测', notRecognised: '未识别',
      cause: '可能的原因', checkNext: '接下来检查', noMatch: '没有符合这些筛选条件的行。',
      showing: (a: number, b: number, n: number, page: number, pages: number) => `显示第 ${num(a)}–${num(b)} 行，共 ${num(n)} 行${pages > 1 ? `（第 ${page} 页，共 ${pages} 页）` : ''}`,
      sampleLoaded: '示例已载入：一个 Pod 迁移到另一个节点时的日志行。请按“解读”。',
      severity: { I: '信息', W: '警告', E: '错误', F: '致命' } as Record<Severity, string>,
    }
  : {
      empty: 'Nothing to explain yet: paste log lines (a kubelet journal, kube-controller-manager, csi-provisioner, ' +
        'csi-attacher, node-driver-registrar or CSI driver logs, or the Events of kubectl describe), or choose a file.',
      cut: (rest: number) => ` … (${num(rest)} more characters not shown)`, seeStep: 'see this step in the flow', seeIt: 'see it in the flow',
      stepTitle: (sc: string, k8s: string, step: number, summary: string) => `${sc} (Kubernetes ${k8s}), step ${step}: ${summary}`,
      stopped: (m: string) => `The explainer stopped unexpectedly${m ? ` (${m})` : ''}. Reload the page and try again; if it happens again, the command line tool (npx csi-flows explain) reads the same logs.`,
      badMessage: 'The explainer sent a message the page could not read. Reload the page and try again.', droppedFile: 'dropped file',
      starting: 'Starting the explainer…', explaining: 'Explaining…', unreadable: (m: string) => `The input could not be read: ${m}`,
      loadingKnowledge: 'Loading what the explainer knows about CSI log lines…', reading: 'Reading the input…',
      noKnowledge: (m: string) => `The explainer could not load what it knows about log lines (${m}). Check your connection and try again.`,
      failed: (m: string) => `The explainer failed on this input (${m}). The command line tool (npx csi-flows explain) may tell you more.`,
      line: (n: number) => `line ${num(n)}`, lines: 'Lines', linesValue: (n: number, r: number, g: number) => `${num(n)} (${num(r)} recognised, ${plural(g, 'guess', 'guesses')})`,
      problems: 'Problems', errors: (n: number) => plural(n, 'error'), warnings: (n: number) => plural(n, 'warning'), sep: ', ',
      stagesSeen: 'Stages seen', noneRecognised: 'none recognised', components: 'Components', whereStopped: 'Where it stopped',
      lastHealthy: 'Last healthy step', nextHealthy: 'Next line a healthy system prints', inLog: (c: string, src: string) => `(${c}, in the ${src} log)`,
      stage: (st: string) => st, allStages: 'All stages', allComponents: 'All components', unknownComponent: 'unknown component',
      lineWord: 'Line ', continues: (n: string) => `continues line ${n}`, blank: 'blank line', stageWord: 'stage ', componentUnknown: 'component unknown',
      inSource: (s: string) => `in ${s}`, onHost: (h: string) => `on ${h}`, keywordsOnly: 'matched by keywords only', guess: 'guess', notRecognised: 'not recognised',
      cause: 'Likely cause', checkNext: 'Check next', noMatch: 'No line matches these filters.',
      showing: (a: number, b: number, n: number, page: number, pages: number) => `Showing ${num(a)}–${num(b)} of ${plural(n, 'line')}${pages > 1 ? ` (page ${page} of ${pages})` : ''}`,
      sampleLoaded: 'Sample loaded: log lines of a pod moving to another node. Press Explain.',
      severity: { I: 'info', W: 'warning', E: 'error', F: 'fatal' } as Record<Severity, string>,
    };

function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** A log line's text for display, cut to SHOWN_CHARS with a note of what was left out. */
function shownText(text: string): (Node | string)[] {
  if (text.length <= SHOWN_CHARS) return [text];
  const rest = text.length - SHOWN_CHARS;
  return [text.slice(0, SHOWN_CHARS), el('span', { class: 'xp-cut' }, W.cut(rest))];
}

const sentence = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? '' : '.');

function stepLink(step: StepRef | null | undefined, text = W.seeStep): HTMLAnchorElement | null {
  const href = step ? safeHref(step.url) : null;
  if (!step || !href) return null;
  return el('a', { href, class: 'xp-step', title: W.stepTitle(step.scenario, step.k8s, step.step, step.summary) }, text);
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
      fail(W.stopped(event.message ?? ''));
    };
    w.onmessageerror = () => fail(W.badMessage);
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
    fileName.textContent = f ? `${f.name || W.droppedFile} (${formatBytes(f.size)})` : '';
    textarea.disabled = !!f;
  }

  async function run(): Promise<void> {
    if (running) return;
    clearAlert();
    const text = textarea.value;
    if (!file && text.trim() === '') {
      showAlert(W.empty);
      textarea.focus();
      return;
    }
    const id = ++runId;
    setRunning(true);
    results.hidden = true;
    setProgress(W.starting, null);
    announce(W.explaining);
    try {
      ensureWorker();
      if (file) {
        const name = file.name;
        // Read as bytes: the worker decodes (UTF-8, UTF-16 with a BOM) and rejects binary files.
        const bytes = await file.arrayBuffer();
        if (id !== runId) return;
        send({ type: 'explain', id, input: { kind: 'bytes', bytes, name }, ...(ZH ? { lang: 'zh' as const } : {}) }, [bytes]);
      } else {
        send({ type: 'explain', id, input: { kind: 'text', text }, ...(ZH ? { lang: 'zh' as const } : {}) });
      }
    } catch (error) {
      fail(W.unreadable(error instanceof Error ? error.message : String(error)));
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
        if (m.phase === 'knowledge') setProgress(W.loadingKnowledge, null);
        else if (m.phase === 'decode') setProgress(W.reading, null);
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
          fail(W.noKnowledge(m.message));
        } else {
          fail(W.failed(m.message));
        }
        break;
    }
  }

  // ---- summary ----

  function lineLink(line: number): HTMLAnchorElement {
    const a = el('a', { href: `#L${line}`, 'data-xp-line': String(line) }, W.line(line));
    return a;
  }

  function chapterLink(stage: Stage, chapters: Partial<Record<Stage, string>>): Node {
    const href = chapters[stage] ? safeHref(chapters[stage]!) : null;
    return href ? el('a', { href }, W.stage(stage)) : document.createTextNode(W.stage(stage));
  }

  function renderSummary(s: ExplainSummary, chapters: Partial<Record<Stage, string>>): void {
    const facts = el('dl', { class: 'xp-facts' });
    const fact = (term: string, ...value: (Node | string | null)[]): void => {
      facts.append(el('dt', {}, term), el('dd', {}, ...value));
    };
    fact(W.lines, W.linesValue(s.lines, s.recognised, s.guessed));
    fact(W.problems, el('span', { class: s.errors ? 'xp-sev-E' : '' }, W.errors(s.errors)), W.sep, el('span', { class: s.warnings ? 'xp-sev-W' : '' }, W.warnings(s.warnings)));
    if (s.stages.length > 0) {
      const stages = el('ol', { class: 'xp-stages' });
      for (const st of s.stages) stages.append(el('li', {}, chapterLink(st, chapters)));
      fact(W.stagesSeen, stages);
    } else {
      fact(W.stagesSeen, W.noneRecognised);
    }
    if (s.components.length > 0) fact(W.components, s.components.join(', '));
    if (s.stoppedAt) {
      fact(
        W.whereStopped,
        `${W.stage(s.stoppedAt.stage)}${W.sep}`,
        lineLink(s.stoppedAt.line),
        ': ',
        s.stoppedAt.reason,
        el('code', { class: 'xp-quote' }, ...shownText(s.stoppedAt.text)),
      );
    }
    if (s.lastHealthy) {
      const h = s.lastHealthy;
      fact(W.lastHealthy, `${h.component} (${W.stage(h.stage)})${W.sep}`, lineLink(h.line), ' ', stepLink(h.step));
    }
    if (s.nextExpected) {
      const n = s.nextExpected;
      fact(
        W.nextHealthy,
        `${n.summary} `,
        el('span', { class: 'xp-muted' }, W.inLog(n.component, n.source)),
        el('span', { class: 'xp-where' }, ZH ? n.where + '。' : sentence(n.where)),
        stepLink(n.step, W.seeIt),
      );
    }
    summaryBox.replaceChildren(el('p', { class: 'xp-verdict' }, s.verdict), facts);
  }

  // ---- filters ----

  function renderFacets(f: Facets): void {
    const option = (value: string, text: string): HTMLOptionElement => el('option', { value }, text);
    const stages = FLOW_ORDER.filter((s) => f.stages.includes(s));
    stageSelect.replaceChildren(option('', W.allStages), ...stages.map((s) => option(s, W.stage(s))));
    componentSelect.replaceChildren(
      option('', W.allComponents),
      ...f.components.map((c) => option(c, c)),
      ...(f.unknownComponent ? [option('(unknown)', W.unknownComponent)] : []),
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
    const num = el('span', { class: 'xp-ln' }, el('span', { class: 'visually-hidden' }, W.lineWord), String(l.line));

    if (l.kind === 'continuation') {
      li.append(
        el('div', { class: 'xp-meta' }, num, el('span', { class: 'xp-muted' }, W.continues(String(l.continues ?? '?')))),
        el('code', { class: 'xp-text' }, ...shownText(l.text)),
      );
      return li;
    }
    if (l.kind === 'blank') {
      li.append(el('div', { class: 'xp-meta' }, num, el('span', { class: 'xp-muted' }, W.blank)));
      return li;
    }
    if (l.kind === 'decoration') {
      // Table headers, separators and prompts: kept small, they only frame the records.
      li.append(el('div', { class: 'xp-meta' }, num, el('span', { class: 'xp-muted' }, l.explanation)), el('code', { class: 'xp-text' }, ...shownText(l.text)));
      return li;
    }

    const meta = el('div', { class: 'xp-meta' }, num);
    if (l.severity) meta.append(el('span', { class: `xp-sev xp-sev-${l.severity}` }, W.severity[l.severity]));
    if (l.kind === 'log' || l.kind === 'event') meta.append(el('span', { class: 'xp-stage' }, el('span', { class: 'visually-hidden' }, W.stageWord), W.stage(l.stage)));
    if (l.component) meta.append(el('span', { class: 'xp-comp' }, l.component));
    else if (l.kind === 'log' || l.kind === 'event') meta.append(el('span', { class: 'xp-muted' }, W.componentUnknown));
    if (l.source && l.source !== l.component) meta.append(el('span', { class: 'xp-muted' }, W.inSource(l.source)));
    if (l.host) meta.append(el('span', { class: 'xp-muted' }, W.onHost(l.host)));
    if (l.time) meta.append(el('time', { class: 'xp-time' }, l.time));
    if (l.match === 'guess') meta.append(el('span', { class: 'xp-guess', title: W.keywordsOnly }, W.guess));
    else if (l.match === 'none') meta.append(el('span', { class: 'xp-unknown' }, W.notRecognised));

    li.append(meta, el('code', { class: 'xp-text' }, ...shownText(l.text)));
    if (l.explanation) li.append(el('p', { class: 'xp-expl' }, l.explanation));
    if (l.cause || l.next) {
      const advice = el('dl', { class: 'xp-advice' });
      if (l.cause) advice.append(el('dt', {}, W.cause), el('dd', {}, l.cause));
      if (l.next) advice.append(el('dt', {}, W.checkNext), el('dd', {}, l.next));
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
        ? W.noMatch
        : W.showing(first, last, m.matching, m.page + 1, m.pageCount);
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
    announce(W.sampleLoaded);
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
