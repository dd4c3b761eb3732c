/**
 * The playground island (/playground/): a scenario file in a textarea with line numbers, a menu of
 * examples, Run, and the full flow player on the result. The run happens in the simulation worker
 * (whatif/client.ts → sim.worker.ts: scenarioFromManifests + runScenario + buildFlowModel), so a long
 * run never freezes the page and one that runs too long is stopped with a message. A mistake in the
 * YAML comes back as a ScenarioError's message and line: shown above the editor, marked in the
 * gutter and noted after the line's end, never a blank page. The scenario is kept in the URL (?s=, share.ts) so it can be shared;
 * ?example=<id> opens an example. The player's code loads with the first run.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import type { FlowModel } from '../../machines/view/flow.ts';
import type { PlayerFlow } from '../flows/data.ts';
import type { PlayerText } from '../player/text.ts';
import { WHAT_IF_PARAMS } from '../../machines/view/whatif.ts';
import { simulate } from '../whatif/client.ts';
import { EXAMPLES, exampleById, exampleNote, STARTING_EXAMPLE } from './examples.ts';
import { decodeScenario, encodeScenario } from './share.ts';
import '../player/player.css';
import './playground.css';

const FlowPlayer = lazy(() => import('../player/FlowPlayer.tsx'));

/** How long a run may take in the reader's browser before the worker is stopped. */
const RUN_TIMEOUT_MS = 15_000;
export const CLI_COMMAND = 'npx csi-flows trace --file scenario.yaml';

/** The island's words; the scenario's own errors stay in English, as the CLI prints them. */
const WORDS = {
  en: {
    tooLong: 'The scenario ran for more than {s} s and was stopped. Shorten its runFor, or run it on the command line (npx csi-flows trace --file scenario.yaml), which has no limit.',
    noChapter: 'There is no built-in scenario "{id}" (the built-in scenarios: {ids}). Here is the starting example instead.',
    badLink: 'The scenario in this link (?s=) could not be read: {error}. Here is the starting example instead.',
    noExample: 'There is no example "{id}" (the examples: {ids}). Here is the starting example instead.',
    serverAnswered: 'the server answered {status}',
    chapterFailed: 'The scenario “{title}” could not be loaded ({error}). Your text is unchanged.',
    noLink: 'The link could not be made in this browser.',
    copiedCli: 'Copied the command.', copiedLink: 'Copied a link to this scenario.',
    refusedCli: 'Copying was refused: the command is {value}', refusedLink: 'Copying was refused: the link is {value}',
    idle: 'Press Run to simulate this scenario in your browser.',
    loaded: 'Loaded “{label}”. Press Run to see its flow.',
    running: 'Running the simulation…',
    done: 'Ran {steps} steps in {ms} ms (Kubernetes {k8s}, seed {seed}). The flow is below.',
    notRun: 'Not run: line {line} has a mistake.', noFlow: 'No flow: see the message above the scenario.',
    dismiss: 'Dismiss', examples: 'Examples', own: 'Your own scenario', examplesGroup: 'Examples', builtInGroup: 'Built-in scenarios (the chapters’)',
    builtInNote: 'The built-in scenario “{id}” as a file to change and run; ', shownIn: 'the chapter {link} shows it.', ownPage: 'its flow is on {link}.', itsPage: 'its own page',
    putBack: 'Put back your own text', scenario: 'Scenario',
    hint1: 'Kubernetes YAML, and optionally a ', hint2: ' Scenario document (see below). ', hint3: ' runs it.',
    showLine: 'Show line {line}', run: 'Run', runningButton: 'Running…', goToFlow: 'Go to the flow',
    cli1: 'The same YAML runs to the same trace on the command line (same default seed, 1): save it as ', cli2: ' and run',
    copyCli: 'Copy the CLI command', download: 'Download scenario.yaml', copyLink: 'Copy a link',
    flow: 'The flow', stale: 'This is the flow of the last successful run, not of the text above.', loadingPlayer: 'Loading the player…',
    placeholder: 'Run the scenario to see its flow here: the sequence diagram, the logs, the objects and each component’s state, step by step.',
  },
  zh: {
    tooLong: '场景运行超过 {s} 秒，已停止。请缩短它的 runFor，或者在命令行运行（npx csi-flows trace --file scenario.yaml），命令行没有时间限制。',
    noChapter: '没有名为 “{id}” 的内置场景（内置场景：{ids}）。这里显示的是起始示例。',
    badLink: '无法读取这个链接中的场景（?s=）：{error}。这里显示的是起始示例。',
    noExample: '没有名为 “{id}” 的示例（示例：{ids}）。这里显示的是起始示例。',
    serverAnswered: '服务器返回 {status}',
    chapterFailed: '无法载入场景 “{title}”（{error}）。你的文本没有改变。',
    noLink: '这个浏览器无法生成链接。',
    copiedCli: '已复制命令。', copiedLink: '已复制这个场景的链接。',
    refusedCli: '复制被拒绝：命令是 {value}', refusedLink: '复制被拒绝：链接是 {value}',
    idle: '按“运行”，在你的浏览器中模拟这个场景。',
    loaded: '已载入 “{label}”。按“运行”查看它的流程。',
    running: '正在运行模拟……',
    done: '运行了 {steps} 步，用时 {ms} 毫秒（Kubernetes {k8s}，种子 {seed}）。流程在下方。',
    notRun: '没有运行：第 {line} 行有错误。', noFlow: '没有流程：请看场景上方的信息。',
    dismiss: '关闭', examples: '示例', own: '你自己的场景', examplesGroup: '示例', builtInGroup: '内置场景（来自各章节）',
    builtInNote: '内置场景 “{id}” 的场景文件，可以修改后运行；', shownIn: '章节 {link} 讲解了它。', ownPage: '流程见{link}。', itsPage: '其单独页面',
    putBack: '恢复你自己的文本', scenario: '场景',
    hint1: 'Kubernetes YAML，以及可选的 ', hint2: ' Scenario 文档（见下文）。错误信息为英文，与命令行相同。按 ', hint3: ' 运行。',
    showLine: '显示第 {line} 行', run: '运行', runningButton: '正在运行……', goToFlow: '查看流程',
    cli1: '同样的 YAML 在命令行上得到同样的轨迹（默认种子相同，为 1）：保存为 ', cli2: '，然后运行',
    copyCli: '复制命令', download: '下载 scenario.yaml', copyLink: '复制链接',
    flow: '流程', stale: '这是上一次成功运行的流程，不是上面文本的流程。', loadingPlayer: '正在载入播放器……',
    placeholder: '运行场景后，这里会逐步显示它的流程：时序图、日志、对象以及每个组件的状态。',
  },
} as const;
export type PlaygroundLang = keyof typeof WORDS;

/** A text of WORDS with its {placeholders} filled. */
const fill = (text: string, values: Record<string, string | number>): string => text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));

interface Result {
  model: FlowModel;
  ms: number;
  notes: string[];
  /** the text the run ran: the player's what-if re-runs it with the reader's changes */
  yaml: string;
  /** remounts the player for each run */
  key: number;
}

interface Problem {
  message: string;
  line?: number;
}

type Status =
  | { kind: 'idle' }
  | { kind: 'loaded'; label: string }
  | { kind: 'running' }
  | { kind: 'done'; steps: number; ms: number; k8s: string; seed: number }
  | { kind: 'failed' };

/** "line 28, document 3 (Pod app), spec…: no …" → "line 28: document 3 (Pod app), spec…: no …"; a line prefix when the message has none. */
export function problemText(p: Problem): string {
  if (p.line === undefined) return p.message;
  const prefix = `line ${p.line}`;
  if (p.message.startsWith(`${prefix}, `)) return `${prefix}: ${p.message.slice(prefix.length + 2)}`;
  if (p.message.startsWith(`${prefix}:`)) return p.message;
  return `${prefix}: ${p.message}`;
}

/** What is wrong, without where ("line 28, document 3 (Pod app), spec…: "): the marked line's inline note. */
function problemReason(p: Problem): string {
  return p.message.replace(/^line \d+(, [^:]*)?: /, '');
}

/** How many columns a 1-based line of `text` takes (tabs as 2, the textarea's tab-size). */
function lineWidth(text: string, line: number): number {
  const [a, b] = lineRange(text, line);
  let w = 0;
  for (let i = a; i < b; i++) w += text[i] === '\t' ? 2 : 1;
  return w;
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The start and end offsets of a 1-based line of `text`. */
function lineRange(text: string, line: number): [number, number] {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) return [text.length, text.length];
    start = nl + 1;
  }
  const end = text.indexOf('\n', start);
  return [start, end === -1 ? text.length : end];
}

/**
 * Replace the page's URL: the scenario in ?s=, no ?example. A new run drops what the player wrote
 * for the last one (?step, and a what-if's ?fault/?shutdown/?delete); a link's first run keeps them.
 */
function writeUrl(s: string | null, keepStep: boolean): void {
  const u = new URL(window.location.href);
  if (s !== null) u.searchParams.set('s', s);
  u.searchParams.delete('example');
  u.searchParams.delete('chapter');
  // a new run starts from its own step 1, without the last flow's what-if (a shared link keeps both)
  if (!keepStep) for (const k of ['step', 'k8s', 'flow', ...WHAT_IF_PARAMS]) u.searchParams.delete(k);
  const href = u.pathname + u.search + u.hash;
  if (href !== window.location.pathname + window.location.search + window.location.hash) window.history.replaceState(window.history.state, '', href);
}

/** A built-in scenario the menu offers: its file is /scenarios/<id>.yaml (src/pages/scenarios/[id].yaml.ts). */
export interface ChapterScenario {
  id: string;
  title: string;
  /** the page that shows it: its chapter, or its embed page */
  href: string;
  /** the chapter's title, when a chapter shows it */
  chapter?: string;
  /** the language of the page at href, when it is not the playground's */
  hreflang?: string;
}

/** "the chapter {link} shows it." with the link element in place of {link}. */
function withLink(text: string, link: ReactElement): ReactElement {
  const [before, after] = text.split('{link}');
  return <>{before}{link}{after}</>;
}

export const chapterFileUrl = (id: string): string => `/scenarios/${encodeURIComponent(id)}.yaml`;
const CHAPTER_PREFIX = 'chapter:';

export default function Playground({ chapters = [], lang = 'en', playerText }: {
  chapters?: ChapterScenario[]; lang?: PlaygroundLang;
  /** the player's words on a Chinese page (text.zh.ts), as chapters pass them */
  playerText?: PlayerText;
}) {
  const w = WORDS[lang];
  const [hydrated, setHydrated] = useState(false);
  const [text, setText] = useState(STARTING_EXAMPLE.yaml);
  /** the chapter scenario file loaded last, as it came (the menu shows it while the text is unchanged) */
  const [chapterFile, setChapterFile] = useState<{ id: string; yaml: string } | null>(null);
  /** the reader's own text, kept when an example replaced it */
  const [saved, setSaved] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [problem, setProblem] = useState<Problem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  /** the flow shown is not the text's any more (a failed run, another example) */
  const [stale, setStale] = useState(false);
  const [running, setRunning] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  /** runs finished, with a flow or a message (data-finished: tests wait on it) */
  const [finished, setFinished] = useState(0);

  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const band = useRef<HTMLDivElement>(null);
  const lens = useRef<HTMLDivElement>(null);
  const result$ = useRef<HTMLElement>(null);
  const runs = useRef(0);
  const busy = useRef(false);

  const lines = useMemo(() => countLines(text), [text]);
  const numbers = useMemo(() => Array.from({ length: lines }, (_, i) => i + 1).join('\n'), [lines]);
  const digits = String(lines).length;
  // the menu shows the example the text is, unchanged; any other text is the reader's own
  const example = useMemo(() => EXAMPLES.find((e) => e.yaml === text), [text]);
  const chapter = chapterFile && chapterFile.yaml === text ? chapters.find((c) => c.id === chapterFile.id) : undefined;
  const exampleId = example?.id ?? (chapter ? `${CHAPTER_PREFIX}${chapter.id}` : '');
  const isAsLoaded = (t: string) => EXAMPLES.some((e) => e.yaml === t) || (chapterFile !== null && chapterFile.yaml === t);

  /** Keep the gutter (and the error band) in step with the textarea's scroll. */
  const follow = useCallback(() => {
    const ta = area.current;
    if (!ta) return;
    const y = `translateY(${-ta.scrollTop}px)`;
    if (gutter.current) gutter.current.style.transform = y;
    if (band.current) band.current.style.transform = y;
    if (lens.current) lens.current.style.transform = `translate(${-ta.scrollLeft}px, ${-ta.scrollTop}px)`;
  }, []);
  useEffect(follow, [follow, text, problem]);

  /** Scroll the textarea so `line` is in view (a third from the top), and select it when asked. */
  const showLine = useCallback((line: number, select: boolean) => {
    const ta = area.current;
    if (!ta) return;
    const lh = parseFloat(getComputedStyle(ta).lineHeight) || 20;
    const top = (line - 1) * lh;
    if (top < ta.scrollTop || top + lh > ta.scrollTop + ta.clientHeight) ta.scrollTop = Math.max(0, top - ta.clientHeight / 3);
    if (select) {
      const [a, b] = lineRange(ta.value, line);
      ta.focus({ preventScroll: true });
      ta.setSelectionRange(a, b);
    }
    follow();
  }, [follow]);

  const run = useCallback(async (yaml: string, { keepStep = false, reveal = false } = {}) => {
    if (busy.current) return;
    busy.current = true;
    setRunning(true);
    setStatus({ kind: 'running' });
    setProblem(null);
    setCopied(null);
    // the player's code loads while the simulation runs
    void import('../player/FlowPlayer.tsx');
    const r = await simulate({ scenario: { yaml }, lang }, { timeoutMs: RUN_TIMEOUT_MS, tooLong: w.tooLong });
    let s: string | null = null;
    try { s = await encodeScenario(yaml); } catch { s = null; }
    // the URL first (without the last run's ?step), then the new player, which reads it
    writeUrl(s, keepStep);
    busy.current = false;
    setRunning(false);
    setFinished((n) => n + 1);
    if (r.ok) {
      runs.current += 1;
      setResult({ model: r.model, ms: r.ms, notes: r.notes, yaml, key: runs.current });
      setStale(false);
      setStatus({ kind: 'done', steps: r.model.steps.length, ms: r.ms, k8s: r.model.k8s, seed: r.model.seed });
      // the reader pressed Run: bring the flow into view when none of it is (not on a link's first load)
      if (reveal) {
        requestAnimationFrame(() => {
          const el = result$.current;
          if (!el || el.getBoundingClientRect().top < window.innerHeight - 80) return;
          const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
          el.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
        });
      }
    } else {
      setProblem({ message: r.message, ...(r.line !== undefined ? { line: r.line } : {}) });
      setStale(true);
      setStatus({ kind: 'failed' });
      if (r.line !== undefined) showLine(r.line, false);
    }
  }, [showLine]);

  // ---- start: the URL's scenario (?s=) or example (?example=), run at once: a shared link shows its flow
  useEffect(() => {
    setHydrated(true);
    const p = new URLSearchParams(window.location.search);
    const s = p.get('s');
    const ex = p.get('example');
    const ch = p.get('chapter');
    if (s === null && ex === null && ch !== null) {
      if (chapters.some((c) => c.id === ch)) {
        void loadChapter(ch).then((yaml) => { if (yaml !== null) void run(yaml, { keepStep: true }); });
      } else {
        setNotice(fill(w.noChapter, { id: ch.slice(0, 40), ids: chapters.map((c) => c.id).join(', ') }));
      }
    }
    if (s !== null) {
      decodeScenario(s).then(
        (yaml) => {
          setText(yaml);
          void run(yaml, { keepStep: true });
        },
        (e: unknown) => {
          setNotice(fill(w.badLink, { error: e instanceof Error ? e.message : String(e) }));
        },
      );
    } else if (ex !== null) {
      const hit = exampleById(ex);
      if (hit) {
        setText(hit.yaml);
        void run(hit.yaml, { keepStep: true });
      } else {
        setNotice(fill(w.noExample, { id: ex.slice(0, 40), ids: EXAMPLES.map((e) => e.id).join(', ') }));
      }
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** Fetch a chapter's scenario file into the editor; null (and a message) when it cannot be had. */
  const loadChapter = async (id: string): Promise<string | null> => {
    const title = chapters.find((c) => c.id === id)?.title ?? id;
    let yaml: string;
    try {
      const res = await fetch(chapterFileUrl(id));
      if (!res.ok) throw new Error(fill(w.serverAnswered, { status: res.status }));
      yaml = await res.text();
    } catch (e) {
      setNotice(fill(w.chapterFailed, { title, error: e instanceof Error ? e.message : String(e) }));
      return null;
    }
    setChapterFile({ id, yaml });
    showLoaded(yaml, title);
    return yaml;
  };

  /** Put an example's or a built-in scenario's text in the editor; the reader's own text is kept, to put back. */
  const showLoaded = (yaml: string, label: string) => {
    if (!isAsLoaded(text)) setSaved(text);
    setText(yaml);
    setProblem(null);
    setStatus({ kind: 'loaded', label });
    if (result) setStale(true);
    if (area.current) area.current.scrollTop = 0;
  };

  const chooseExample = (id: string) => {
    if (id.startsWith(CHAPTER_PREFIX)) {
      void loadChapter(id.slice(CHAPTER_PREFIX.length));
      return;
    }
    const hit = exampleById(id);
    if (hit) showLoaded(hit.yaml, lang === 'zh' ? hit.zh.label : hit.label);
  };

  const restore = () => {
    if (saved === null) return;
    setText(saved);
    setSaved(null);
    setStatus({ kind: 'idle' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void run(e.currentTarget.value, { reveal: true });
    }
  };

  const copy = async (what: 'cli' | 'link') => {
    let value = CLI_COMMAND;
    if (what === 'link') {
      try {
        const u = new URL(window.location.href);
        u.search = '';
        u.hash = '';
        u.searchParams.set('s', await encodeScenario(text));
        value = u.href;
      } catch {
        setCopied(w.noLink);
        return;
      }
    }
    try {
      await navigator.clipboard.writeText(value);
      setCopied(what === 'cli' ? w.copiedCli : w.copiedLink);
    } catch {
      setCopied(fill(what === 'cli' ? w.refusedCli : w.refusedLink, { value }));
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'scenario.yaml';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const flow: PlayerFlow | null = result
    ? { scenario: result.model.scenario, title: result.model.title, versions: [result.model.k8s], totals: { [result.model.k8s]: result.model.steps.length }, dataUrls: {} }
    : null;

  const statusText = (() => {
    switch (status.kind) {
      case 'idle': return w.idle;
      case 'loaded': return fill(w.loaded, { label: status.label });
      case 'running': return w.running;
      case 'done': return fill(w.done, { steps: status.steps, ms: status.ms, k8s: status.k8s, seed: status.seed });
      case 'failed': return problem?.line !== undefined ? fill(w.notRun, { line: problem.line }) : w.noFlow;
    }
  })();

  return (
    <div className="pg" data-finished={finished}>
      {notice && (
        <div className="pg-notice" role="status">
          <p>{notice}</p>
          <button type="button" onClick={() => setNotice(null)}>{w.dismiss}</button>
        </div>
      )}
      <div className="pg-top">
        <div className="pg-field">
          <label htmlFor="pg-example">{w.examples}</label>
          <select id="pg-example" value={exampleId} onChange={(e) => chooseExample(e.currentTarget.value)} disabled={!hydrated}>
            {exampleId === '' && <option value="">{w.own}</option>}
            <optgroup label={w.examplesGroup}>
              {EXAMPLES.map((e) => <option key={e.id} value={e.id}>{lang === 'zh' ? e.zh.label : e.label}</option>)}
            </optgroup>
            {chapters.length > 0 && (
              <optgroup label={w.builtInGroup}>
                {chapters.map((c) => <option key={c.id} value={`${CHAPTER_PREFIX}${c.id}`}>{c.title}</option>)}
              </optgroup>
            )}
          </select>
          {example && <p className="pg-note">{lang === 'zh' ? example.zh.note : exampleNote(example.yaml)}</p>}
          {chapter && (
            <p className="pg-note">
              {fill(w.builtInNote, { id: chapter.id })}
              {withLink(chapter.chapter ? w.shownIn : w.ownPage, <a href={chapter.href} {...(chapter.hreflang ? { hrefLang: chapter.hreflang } : {})}>{chapter.chapter ?? w.itsPage}</a>)}
            </p>
          )}
          {saved !== null && saved !== text && (
            <button type="button" className="fp-linkbtn pg-linkbtn" onClick={restore}>{w.putBack}</button>
          )}
        </div>
        <div className="pg-edit">
          <label htmlFor="pg-text" className="pg-label">{w.scenario}</label>
          <p id="pg-text-hint" className="pg-hint">
            {w.hint1}<code>csi-flows/v1</code>{w.hint2}<kbd>Ctrl</kbd>+<kbd>Enter</kbd>{w.hint3}
          </p>
          {problem && (
            <div id="pg-problem" className="pg-problem" role="alert">
              <p><strong>{problemText(problem)}</strong></p>
              {problem.line !== undefined && (
                <button type="button" onClick={() => showLine(problem.line!, true)}>{fill(w.showLine, { line: problem.line })}</button>
              )}
            </div>
          )}
          <div className={`pg-editor${problem?.line !== undefined ? ' pg-has-mark' : ''}`} style={{ ['--pg-digits' as string]: String(Math.max(2, digits)) }}>
            <div className="pg-gutter" aria-hidden="true">
              <div className="pg-gutter-inner" ref={gutter}>
                {numbers}
                {problem?.line !== undefined && (
                  <span className="pg-mark" style={{ ['--pg-line' as string]: String(problem.line) }} data-line={problem.line}>{problem.line}</span>
                )}
              </div>
            </div>
            <div className="pg-text-wrap">
              {problem?.line !== undefined && (
                <div className="pg-band-layer" aria-hidden="true">
                  <div className="pg-band" ref={band} style={{ ['--pg-line' as string]: String(problem.line) }} />
                  <div className="pg-lens" ref={lens} style={{ ['--pg-line' as string]: String(problem.line), ['--pg-col' as string]: String(lineWidth(text, problem.line)) }}>
                    {problemReason(problem)}
                  </div>
                </div>
              )}
              <textarea
                id="pg-text"
                ref={area}
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                onScroll={follow}
                onKeyDown={onKeyDown}
                wrap="off"
                spellCheck={false}
                autoCapitalize="off"
                autoComplete="off"
                autoCorrect="off"
                aria-describedby={problem ? 'pg-text-hint pg-problem' : 'pg-text-hint'}
                aria-invalid={problem ? true : undefined}
              />
            </div>
          </div>
        </div>

        <div className="pg-run">
          <button type="button" className="pg-primary" onClick={() => void run(text, { reveal: true })} disabled={!hydrated || running} aria-describedby="pg-status">
            {running ? w.runningButton : w.run}
          </button>
          <p id="pg-status" className={`pg-status pg-${status.kind}`} role="status">
            {statusText}
            {status.kind === 'done' && <> <a href="#pg-result">{w.goToFlow}</a></>}
          </p>
          {result && result.notes.length > 0 && !stale && (
            <ul className="pg-notes">
              {result.notes.map((n) => <li key={n}>{n}</li>)}
            </ul>
          )}
        </div>
        <div className="pg-cli">
          <p>
            {w.cli1}<code>scenario.yaml</code>{w.cli2}
          </p>
          <pre><code>{CLI_COMMAND}</code></pre>
          <div className="pg-cli-actions">
            <button type="button" onClick={() => void copy('cli')} disabled={!hydrated}>{w.copyCli}</button>
            <button type="button" onClick={download} disabled={!hydrated}>{w.download}</button>
            <button type="button" onClick={() => void copy('link')} disabled={!hydrated}>{w.copyLink}</button>
          </div>
          <p className="pg-copied" aria-live="polite">{copied}</p>
        </div>
      </div>

      <section id="pg-result" ref={result$} className="pg-result" aria-labelledby="pg-result-heading" tabIndex={-1}>
        <h2 id="pg-result-heading">{w.flow}</h2>
        {stale && result && <p className="pg-stale">{w.stale}</p>}
        {result && flow ? (
          <Suspense fallback={<p className="pg-placeholder" role="status">{w.loadingPlayer}</p>}>
            <FlowPlayer key={result.key} model={result.model} yaml={result.yaml} {...flow} flows={[flow]} initialK8s={result.model.k8s} mode="chapter" {...(playerText ? { text: playerText } : {})} />
          </Suspense>
        ) : (
          <p className="pg-placeholder">{running ? w.runningButton : w.placeholder}</p>
        )}
      </section>
    </div>
  );
}
