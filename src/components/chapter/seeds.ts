/**
 * Real log lines quoted in the seed articles (src/data/seeds/seed-*.log) matched to the simulated
 * steps that print the same message, for the chapters that show them line by line.
 *
 * File format (as seed-000.log): '#' lines are comments, every other line is "<stream>\t<line>". A
 * comment "# scenario: <id>" starts a section whose lines belong to that scenario (seed 004 quotes
 * three ceph-csi flows); parseQuotedLog in src/machines reads the same files and skips these comments.
 */
import { catalog } from '../../machines/catalog.ts';
import { legacyMessages } from '../../machines/explain/legacy.ts';
import { formatRegex, type LogFormat, type MessageCatalog, type ProfileId } from '../../machines/shared/messages.ts';
import { locateQuotedLines, parseKlog } from '../../machines/view/locate.ts';
import type { Trace, TraceStep } from '../../machines/cluster/trace.ts';
import type { FlowModel } from '../../machines/view/flow.ts';

export interface QuotedLine {
  stream: string;
  line: string;
}

export interface SeedSection {
  /** the scenario the section's lines come from, when the file says so */
  scenario?: string;
  lines: QuotedLine[];
}

export interface SeedFile {
  /** the comment lines before the first quoted line, without the leading '#' */
  header: string[];
  sections: SeedSection[];
}

const SCENARIO_DIRECTIVE = /^#\s*scenario:\s*(\S+)\s*$/;

export function parseSeedFile(text: string): SeedFile {
  const header: string[] = [];
  const sections: SeedSection[] = [];
  let current: SeedSection | undefined;
  let inHeader = true;
  for (const raw of text.split('\n')) {
    const l = raw.replace(/\r$/, '');
    if (!l.trim()) continue;
    const directive = SCENARIO_DIRECTIVE.exec(l);
    if (directive) {
      inHeader = false;
      current = { scenario: directive[1]!, lines: [] };
      sections.push(current);
      continue;
    }
    if (l.startsWith('#')) {
      if (inHeader) header.push(l.replace(/^#\s?/, ''));
      continue;
    }
    inHeader = false;
    if (!current) {
      current = { lines: [] };
      sections.push(current);
    }
    const tab = l.indexOf('\t');
    current.lines.push(tab < 0 ? { stream: '', line: l } : { stream: l.slice(0, tab), line: l.slice(tab + 1) });
  }
  return { header, sections };
}

export interface Located {
  /** 1-based step of the model that prints the same message */
  step?: number;
  /** the catalog message the line was identified as */
  msg?: string;
}

/**
 * locateQuotedLines reads a Trace; a flow model carries the same steps and lanes, so it is adapted
 * rather than re-running the scenario. That keeps the step numbers identical to the ones the page's
 * player and JSON use. Only components (instance, source), steps (i, log, msg, instance, host) and
 * k8s are read there.
 */
function traceOf(model: FlowModel): Trace {
  return {
    scenario: model.scenario, title: model.title, k8s: model.k8s, seed: model.seed, options: model.options,
    durationMs: model.durationMs, originUs: 0,
    components: model.lanes.map((l) => ({ instance: l.id, component: l.component, host: l.host, source: l.source })),
    steps: model.steps.map((s) => ({ ...s, states: {} }) as TraceStep),
    objectsRecorded: false, initial: { objects: [] }, final: { objects: [] }, faults: [], stats: { events: 0, steps: model.steps.length },
  };
}

const tokens = (text: string): string[] => text.match(/[A-Za-z0-9][\w.\-/^]*/g) ?? [];

/** Words the quoted message shares with a printed one; redacted words (XXX) never count. */
function overlap(quoted: string, printed: string): number {
  const have = new Set(tokens(printed));
  return tokens(quoted).filter((w) => !w.includes('XXX') && have.has(w)).length;
}

/**
 * Klog lines (with their header) to steps. locateQuotedLines identifies each line's message; the
 * pairing here also reads the arguments: among the steps of the same stream that print that message
 * (after the previous match), it takes the one whose text shares the most words with the quoted line,
 * the earliest on a tie. So a "Started VA processing" line about the new VolumeAttachment lands on the
 * step about that VolumeAttachment, not on the old one's requeue that prints the same message first.
 */
export function locateKlogLines(model: FlowModel, quoted: QuotedLine[]): Located[] {
  const identified = locateQuotedLines(traceOf(model), quoted);
  const sourceOf = new Map(model.lanes.map((l) => [l.id, l.source]));
  const streamOf = (instance: string, host: string): string => {
    const src = sourceOf.get(instance) ?? instance;
    return src === 'kubelet' ? `kubelet@${host}` : src;
  };
  const cursor = new Map<string, number>();
  return quoted.map((q, k) => {
    const msg = identified[k]?.msg;
    if (!msg) return {};
    const text = parseKlog(q.line)?.message ?? q.line;
    const from = cursor.get(q.stream) ?? 0;
    let best: { index: number; score: number } | undefined;
    for (let j = from; j < model.steps.length; j++) {
      const s = model.steps[j]!;
      if (s.msg !== msg || !s.log || streamOf(s.instance, s.host) !== q.stream) continue;
      const score = overlap(text, parseKlog(s.log)?.message ?? s.log);
      if (!best || score > best.score) best = { index: j, score };
    }
    if (!best) return { msg };
    cursor.set(q.stream, best.index + 1);
    return { step: model.steps[best.index]!.i, msg };
  });
}

const headerlessRegex = new Map<string, RegExp>();

/**
 * The catalog messages of `source` whose text a line without a klog header can be. ceph-csi lines
 * quoted in seed 004 carry neither the header nor the "ID: n Req-ID: x" prefix; the templates start
 * with a {prefix} placeholder, which matches the empty string.
 */
export function identifyHeaderless(text: string, source: string, profile: ProfileId): string[] {
  const out: string[] = [];
  const matches = (key: string, f: LogFormat): boolean => {
    let re = headerlessRegex.get(key);
    if (!re) { re = formatRegex(f); headerlessRegex.set(key, re); }
    // An article that cut a line right after its last word ("… using mon") dropped the space before
    // the last value too: accept the line with that space put back, so the cut line still matches.
    return re.test(text) || re.test(`${text} `);
  };
  for (const [id, def] of Object.entries(catalog)) {
    if (def.source !== source) continue;
    const f: LogFormat | undefined = def.formats[profile];
    if (f && matches(`${id}@${profile}`, f)) out.push(id);
  }
  // an older release's wording of a catalog message (seed 004's ceph-csi) is that message's step
  for (const [id, def] of Object.entries(legacyMessages as MessageCatalog)) {
    if (!def.sameAs || def.source !== source || out.includes(def.sameAs)) continue;
    const f: LogFormat | undefined = def.formats['1.20'];
    if (f && matches(`${id}@legacy`, f)) out.push(def.sameAs);
  }
  return out;
}

/**
 * Header-less lines to steps: each line's message, found in the model's steps of the same program
 * (lane source) in order, one step per line, so repeated messages pair up in the order they were printed.
 */
export function locateHeaderlessLines(model: FlowModel, quoted: QuotedLine[]): Located[] {
  const sourceOf = new Map(model.lanes.map((l) => [l.id, l.source]));
  let cursor = 0;
  return quoted.map(({ stream, line }) => {
    const ids = identifyHeaderless(line, stream, model.k8s);
    if (!ids.length) return {};
    for (let j = cursor; j < model.steps.length; j++) {
      const s = model.steps[j]!;
      if (s.msg && ids.includes(s.msg) && sourceOf.get(s.instance) === stream) {
        cursor = j + 1;
        return { step: s.i, msg: s.msg };
      }
    }
    return { msg: ids[0]! };
  });
}

/** "operation_generator.go:782" of a klog line, if it has a header. */
export function klogSite(line: string): string | undefined {
  const k = parseKlog(line);
  return k ? `${k.file}:${k.line}` : undefined;
}

export interface NoteGroup {
  title: string;
  /** a sentence or two before the group's lines */
  intro?: string;
  /** one note per quoted line, in the file's order */
  notes: string[];
}

export interface AnnotatedLine extends QuotedLine {
  note: string;
  located: Located;
}

export interface AnnotatedGroup {
  title: string;
  intro?: string;
  lines: AnnotatedLine[];
}

/**
 * Pairs quoted lines with the chapter's notes, group by group, in order. The counts must agree
 * exactly: a note written for a line that is not there (or a line without its note) fails the build.
 */
export function annotate(lines: QuotedLine[], located: Located[], groups: NoteGroup[]): AnnotatedGroup[] {
  const total = groups.reduce((n, g) => n + g.notes.length, 0);
  if (total !== lines.length) throw new Error(`${total} notes for ${lines.length} quoted lines`);
  if (located.length !== lines.length) throw new Error(`${located.length} located entries for ${lines.length} quoted lines`);
  let i = 0;
  return groups.map((g) => ({
    title: g.title,
    ...(g.intro ? { intro: g.intro } : {}),
    lines: g.notes.map((note) => {
      const k = i++;
      return { ...lines[k]!, note, located: located[k]! };
    }),
  }));
}
