/**
 * The /explain/ page's worker: fetches the log knowledge once, decodes the input (bytes of a file
 * or a pasted string), explains it line by line with progress, then keeps the result and answers
 * page-sized queries under filters. Tens of MB of log stay off the main thread, both while they are
 * parsed and afterwards (the page only ever holds one page of lines).
 */
import { decodeInput, explainText } from '../../machines/explain/explain.ts';
import type { ExplainedLine, Knowledge } from '../../machines/explain/types.ts';
import { PAGE_SIZE, type Facets, type Filters, type FromWorker, type ToWorker } from './protocol.ts';

/** The knowledge per language: the Chinese one's texts are in Chinese (knowledge.zh.json.ts). */
const KNOWLEDGE_URL = { en: '/data/explain/knowledge.json', zh: '/data/explain/knowledge.zh.json' } as const;
/** Progress messages at most this often: enough for a smooth bar, few enough not to flood the page. */
const PROGRESS_INTERVAL_MS = 80;

const scope = self as unknown as {
  postMessage(message: FromWorker): void;
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
};
const post = (message: FromWorker): void => scope.postMessage(message);

const knowledge: Partial<Record<'en' | 'zh', Promise<Knowledge>>> = {};
let lines: ExplainedLine[] = [];

function loadKnowledge(lang: 'en' | 'zh'): Promise<Knowledge> {
  const url = KNOWLEDGE_URL[lang];
  const loading = (knowledge[lang] ??= fetch(url).then(async (response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
    const data = (await response.json()) as Knowledge;
    if (data?.version !== 1 || !Array.isArray(data.messages)) throw new Error(`${url} is not version 1 knowledge`);
    return data;
  }));
  // A failed fetch is not cached: the next attempt tries again.
  loading.catch(() => { delete knowledge[lang]; });
  return loading;
}

const isInputError = (error: unknown): error is Error =>
  error instanceof Error && error.name === 'ExplainInputError';

function facetsOf(all: ExplainedLine[]): Facets {
  const stages = new Set<ExplainedLine['stage']>();
  const components = new Set<string>();
  const severities = new Set<NonNullable<ExplainedLine['severity']>>();
  let unknownComponent = false;
  for (const l of all) {
    if (l.kind === 'blank' || l.kind === 'decoration' || l.kind === 'continuation') continue;
    stages.add(l.stage);
    if (l.component) components.add(l.component);
    else unknownComponent = true;
    if (l.severity) severities.add(l.severity);
  }
  return {
    stages: [...stages],
    components: [...components].sort(),
    severities: (['F', 'E', 'W', 'I'] as const).filter((s) => severities.has(s)),
    unknownComponent,
  };
}

/** Whether a line passes the filters; a continuation line goes with the line it continues. */
function passes(line: ExplainedLine, f: Filters): boolean {
  const head = line.kind === 'continuation' && line.continues ? (lines[line.continues - 1] ?? line) : line;
  const filtering = f.stage !== '' || f.component !== '' || f.severity !== 'all' || f.recognised || f.problems;
  if (!filtering) return true;
  if (head.kind === 'blank' || head.kind === 'decoration') return false;
  if (f.stage !== '' && head.stage !== f.stage) return false;
  if (f.component === '(unknown)' ? head.component !== null : f.component !== '' && head.component !== f.component) return false;
  const sev = head.severity;
  if (f.severity === 'error' && sev !== 'E' && sev !== 'F') return false;
  if (f.severity === 'warning' && sev !== 'W') return false;
  if (f.severity === 'info' && sev !== 'I') return false;
  if (f.recognised && head.match !== 'catalog' && head.match !== 'event') return false;
  if (f.problems && sev !== 'E' && sev !== 'F' && sev !== 'W') return false;
  return true;
}

function query(id: number, filters: Filters, page?: number, line?: number): void {
  const matching: number[] = [];
  let target = -1;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (!passes(l, filters)) continue;
    if (line !== undefined && target < 0 && l.line >= line) target = matching.length;
    matching.push(i);
  }
  const pageCount = Math.max(1, Math.ceil(matching.length / PAGE_SIZE));
  let p = page ?? 0;
  if (line !== undefined && target >= 0) p = Math.floor(target / PAGE_SIZE);
  p = Math.min(Math.max(0, p), pageCount - 1);
  const slice = matching.slice(p * PAGE_SIZE, (p + 1) * PAGE_SIZE).map((i) => lines[i]!);
  post({ type: 'page', id, filters, page: p, pageCount, matching: matching.length, lines: slice });
}

async function explain(id: number, input: Extract<ToWorker, { type: 'explain' }>['input'], lang: 'en' | 'zh' = 'en'): Promise<void> {
  lines = [];
  post({ type: 'progress', id, phase: 'knowledge', done: 0, total: 0 });
  let known: Knowledge;
  try {
    known = await loadKnowledge(lang);
  } catch (error) {
    post({ type: 'error', id, kind: 'knowledge', message: error instanceof Error ? error.message : String(error) });
    return;
  }

  post({ type: 'progress', id, phase: 'decode', done: 0, total: 0 });
  let text: string;
  try {
    // Pasted text goes through the same checks as a file (empty, NUL bytes, over-long lines).
    const bytes = input.kind === 'bytes' ? new Uint8Array(input.bytes) : new TextEncoder().encode(input.text);
    text = decodeInput(bytes);
  } catch (error) {
    if (isInputError(error)) post({ type: 'error', id, kind: 'input', message: error.message });
    else throw error;
    return;
  }

  let last = 0;
  const result = explainText(text, known, {
    onProgress: (done, total) => {
      const now = performance.now();
      if (now - last < PROGRESS_INTERVAL_MS && done < total) return;
      last = now;
      post({ type: 'progress', id, phase: 'explain', done, total });
    },
  });
  lines = result.lines;
  post({ type: 'done', id, summary: result.summary, facets: facetsOf(lines), chapters: known.chapters });
}

scope.onmessage = (event) => {
  const message = event.data;
  const run = async (): Promise<void> => {
    if (message.type === 'explain') await explain(message.id, message.input, message.lang ?? 'en');
    else query(message.id, message.filters, message.page, message.line);
  };
  // explainText never throws by contract; anything that does is a bug, reported to the page
  // instead of surfacing as an uncaught error.
  run().catch((error: unknown) => {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    post({ type: 'error', id: message.id, kind: 'internal', message: detail });
  });
};
