/**
 * The log message catalog. Machines never build log text: they emit `{type:'log', msg, args}` with a
 * message id, and the cluster renders it through this catalog for the scenario's version profile.
 * The same definitions let the log explainer (issue #4) map a real line back to a step, so the two
 * cannot drift.
 *
 * Template language (both styles):
 *   {name}    fmt %v of args.name
 *   {name:q}  fmt %q of args.name (Go double-quoted string)
 * printf style renders `text` as is. Structured style (klog.InfoS / contextual logging) renders `msg`,
 * Go-quotes the whole result (so inner quotes become \"), then appends ` ` + rendered `kv` if any.
 * upstream: k8s.io/klog/v2 klog.go (printf) and internal/serialize/keyvalues.go (structured).
 */
import { goQuote } from './goFormat.ts';

export type Severity = 'I' | 'W' | 'E' | 'F';
export type Stage =
  | 'provision' | 'attach' | 'mount' | 'unmount' | 'detach' | 'delete'
  | 'register' | 'resize' | 'snapshot' | 'other';
export type ProfileId = '1.20' | '1.30';

/** Which program prints the line: one log stream each (a sidecar container, a host daemon…). */
export type LogSource =
  | 'kube-controller-manager' | 'kube-scheduler' | 'kubelet'
  | 'csi-provisioner' | 'csi-attacher' | 'csi-resizer' | 'csi-snapshotter' | 'snapshot-controller'
  | 'node-driver-registrar' | 'csi-driver-controller' | 'csi-driver-node';

export interface LogFormat {
  /** base file name and line, as klog prints them */
  file: string;
  line: number;
  /**
   * the line where a component prints the same file from another build (a sidecar vendoring another
   * client-go than the control plane's): by log source
   */
  lineBySource?: Partial<Record<LogSource, number>>;
  /**
   * the line and wording a component prints instead (a sidecar whose event broadcaster logs with StartLogging's
   * printf form while the control plane's use StartStructuredLogging): by log source
   */
  bySource?: Partial<Record<LogSource, { line: number; text?: string; msg?: string; kv?: string }>>;
  /** printf-style template */
  text?: string;
  /** structured message template (quoted as a whole after rendering) */
  msg?: string;
  /** structured key/value template, appended after the quoted message */
  kv?: string;
  /** overrides the definition's severity for this profile */
  severity?: Severity;
  /** klog verbosity (-v) needed for the line to be printed; 0 when omitted */
  v?: number;
}

/** The format a component prints `base` in: its own wording where `bySource` gives one (that wording replaces the template whole). */
export function formatOf(base: LogFormat, own: NonNullable<LogFormat['bySource']>[LogSource]): LogFormat {
  return own ? { ...base, text: undefined, msg: undefined, kv: undefined, ...own } : base;
}

export interface MessageDef {
  source: LogSource;
  stage: Stage;
  severity: Severity;
  /** one plain-English sentence for the trace step, same template language */
  summary: string;
  /**
   * other sentences for the same line, by name, for what the machine knows and the line does not print
   * (MountDevice succeeded: staged, or nothing to stage for a driver without STAGE_UNSTAGE_VOLUME).
   * The machine names one in the log it emits (`variant`); the explainer, which sees only the line,
   * says `summary`, so `summary` must be true of every variant.
   */
  variants?: Record<string, string>;
  /** what the line means, for the log explainer */
  explain?: string;
  /** for warnings and errors: the likely cause and what to check next */
  cause?: string;
  next?: string;
  /** per version profile; a profile without an entry does not print this message */
  formats: Partial<Record<ProfileId, LogFormat>>;
  /**
   * (explainer knowledge only) an older release's wording of this catalog message: a quoted line in it is
   * the same step as the message named here ("created volume … backed by image …", ceph-csi before v3.5)
   */
  sameAs?: string;
}

export type MessageCatalog = Record<string, MessageDef>;

/** Identity helper that keeps literal message ids typed. */
export function defineMessages<const T extends MessageCatalog>(m: T): T {
  return m;
}

export type LogArgs = Record<string, string | number | boolean | null | undefined>;

/**
 * `{x}` a value as is, `{x:q}` Go-quoted (%q), `{x:p}` an absolute file path printed as is: to a
 * reader of logs the same as `{x}`, but only a path matches it, where the same line format also
 * prints other operation names (goroutinemap's "Operation for …": a kubelet plugin socket, a PV
 * controller's "delete-<pv>[<uid>]").
 */
const PLACEHOLDER = /\{([A-Za-z0-9_]+)(?::([qp]))?\}/g;

export function renderTemplate(tpl: string, args: LogArgs): string {
  const parts = compiled(tpl);
  let out = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const { name, quote } = parts[i] as Placeholder;
    if (!(name in args)) throw new Error(`log template needs argument "${name}": ${tpl}`);
    const v = args[name];
    const s = v === null || v === undefined ? '<nil>' : String(v);
    out += (quote ? goQuote(s) : s) + (parts[i + 1] as string);
  }
  return out;
}

interface Placeholder { name: string; quote: boolean }
/** A template split once into text and placeholders (text, placeholder, text, …): every log line and summary renders one. */
const COMPILED = new Map<string, Array<string | Placeholder>>();
function compiled(tpl: string): Array<string | Placeholder> {
  let parts = COMPILED.get(tpl);
  if (!parts) {
    parts = [];
    let last = 0;
    for (const m of tpl.matchAll(PLACEHOLDER)) {
      parts.push(tpl.slice(last, m.index), { name: m[1]!, quote: m[2] === 'q' });
      last = m.index! + m[0].length;
    }
    parts.push(tpl.slice(last));
    COMPILED.set(tpl, parts);
  }
  return parts;
}

/** Step summaries by id: kept in each component's catalog beside its log lines, so all its text is in one place to translate. */
export type SummaryCatalog = Record<string, string>;

/** Identity helper that keeps literal summary ids typed, like defineMessages. */
export function defineSummaries<const T extends SummaryCatalog>(s: T): T {
  return s;
}

/** A catalog summary rendered with the log template language, so machines never build step text inline. */
export function summarize<T extends SummaryCatalog>(catalog: T, id: keyof T & string, args: LogArgs): string {
  const tpl = catalog[id];
  if (tpl === undefined) throw new Error(`unknown summary "${id}"`);
  return renderTemplate(tpl, args);
}

/** The text after `file:line] `. */
export function renderMessage(f: LogFormat, args: LogArgs): string {
  if (f.text !== undefined) return renderTemplate(f.text, args);
  if (f.msg === undefined) throw new Error(`log format ${f.file}:${f.line} has neither text nor msg`);
  const m = goQuote(renderTemplate(f.msg, args));
  return f.kv ? `${m} ${renderTemplate(f.kv, args)}` : m;
}

const GO_QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A template as a regex source: literal text exact, `{x}` any text, `{x:q}` one Go-quoted string. */
function templateSource(tpl: string, quotedInside: boolean, capture = false): string {
  let out = '';
  let last = 0;
  for (const m of tpl.matchAll(PLACEHOLDER)) {
    const lit = tpl.slice(last, m.index);
    out += escapeRe(quotedInside ? goQuote(lit).slice(1, -1) : lit);
    // inside a structured message every quote is escaped once more (\"…\")
    const part = m[2] === 'q' ? (quotedInside ? '\\\\"(?:[^"\\\\]|\\\\\\\\.|\\\\\\\\\\\\")*?\\\\"' : GO_QUOTED) : m[2] === 'p' ? '/[^"\\s]*' : '.*?';
    out += capture ? `(${part})` : part;
    last = m.index + m[0].length;
  }
  out += escapeRe(quotedInside ? goQuote(tpl.slice(last)).slice(1, -1) : tpl.slice(last));
  return out;
}

/**
 * A regex matching the message part (after `file:line] `) of every line this format can print,
 * trailing whitespace ignored. The log explainer and the seed fidelity test read real lines with it.
 */
export function formatRegex(f: LogFormat): RegExp {
  if (f.text !== undefined) return new RegExp('^' + templateSource(f.text.trimEnd(), false) + '\\s*$', 's');
  const msg = '"' + templateSource(f.msg ?? '', true) + '"';
  const kv = f.kv ? ' ' + templateSource(f.kv.trimEnd(), false) : '';
  return new RegExp('^' + msg + kv + '\\s*$', 's');
}

/**
 * Like formatRegex, with one capturing group per placeholder, in template order, and the names they
 * fill: the log explainer reads a real line's values back to fill the message's plain-English summary.
 * Each key=value pair of a structured line is optional here (a logger's context pairs depend on the
 * deployment), and pairs the template does not know may follow.
 */
export function formatCaptures(f: LogFormat): { source: string; names: string[] } {
  const names = [...(f.text ?? `${f.msg ?? ''} ${f.kv ?? ''}`).matchAll(PLACEHOLDER)].map((m) => m[1]!);
  if (f.text !== undefined) return { source: '^' + templateSource(f.text.trimEnd(), false, true) + '\\s*$', names };
  const msg = '"' + templateSource(f.msg ?? '', true, true) + '"';
  const kv = f.kv ? f.kv.trim().split(/ (?=[\w.-]+=)/).map((pair) => `(?: ${templateSource(pair, false, true)})?`).join('') : '';
  return { source: '^' + msg + kv + '(?:\\s.*)?$', names };
}

/**
 * A message's text in Simplified Chinese (zh-CN), for /zh/: the same id, the same {placeholders} as
 * the English, so the two render from the same arguments. Object, field, component and RPC names stay
 * in English, as the Chinese Kubernetes docs keep them; log text is never translated (it is printed).
 */
export interface MessageTextZh {
  summary: string;
  /** the English `variants`, in Chinese */
  variants?: Record<string, string>;
  explain?: string;
  cause?: string;
  next?: string;
}

/** A component's Chinese message texts by message id (each *.messages.zh.ts beside its *.messages.ts). */
export type MessageCatalogZh = Record<string, MessageTextZh>;

/** Identity helper for a *.messages.zh.ts file, like defineMessages. */
export function defineMessagesZh<const T extends MessageCatalogZh>(m: T): T {
  return m;
}
