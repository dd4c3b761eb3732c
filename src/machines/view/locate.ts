/**
 * Real log lines back to the message definitions the machines print them with, and to the steps of
 * a trace that print the same messages. The pod-migration chapter uses it to link each line quoted
 * from seed 000 to its simulated step; the log explainer (issue #4) builds on the same matching.
 */
import { catalog } from '../catalog.ts';
import { formatRegex, type LogFormat, type MessageDef, type ProfileId } from '../shared/messages.ts';
import type { Trace } from '../cluster/trace.ts';

// one reading of klog headers (and the prefixes tools add) for the whole project: the explainer's
export { parseKlog, type KlogLine } from '../explain/explain.ts';
import { parseKlog } from '../explain/explain.ts';

export interface Identified { id: string; def: MessageDef; profile: ProfileId }

const compiled = new Map<string, RegExp>();
const regexOf = (id: string, profile: ProfileId, f: LogFormat): RegExp => {
  const k = `${id}@${profile}`;
  let r = compiled.get(k);
  if (!r) { r = formatRegex(f); compiled.set(k, r); }
  return r;
};

/**
 * The catalog messages a klog line can be: same file:line and severity, and the message text
 * matches the template with its placeholders free. `source` narrows to one program's messages.
 */
export function identifyLine(line: string, opts: { profiles?: ProfileId[]; source?: string } = {}): Identified[] {
  const p = parseKlog(line);
  if (!p) return [];
  const out: Identified[] = [];
  for (const [id, def] of Object.entries(catalog)) {
    if (opts.source && def.source !== opts.source) continue;
    for (const profile of opts.profiles ?? (Object.keys(def.formats) as ProfileId[])) {
      const f = def.formats[profile];
      if (!f || f.file !== p.file || f.line !== p.line || (f.severity ?? def.severity) !== p.severity) continue;
      if (regexOf(id, profile, f).test(p.message)) out.push({ id, def, profile });
    }
  }
  return out;
}

/**
 * For each quoted line (in the order its author quoted them, one log stream each), the step of
 * `trace` that prints the same message: the first not yet used, after the previous match on that
 * stream, so repeated messages pair up in order. A stream is a program's source name, or
 * `kubelet@<host>` to tell kubelets apart. Lines that are not known messages get no step.
 */
export function locateQuotedLines(trace: Trace, quoted: Array<{ stream: string; line: string }>): Array<{ step?: number; msg?: string }> {
  const sourceOf = new Map(trace.components.map((c) => [c.instance, c.source]));
  const streamOf = (instance: string, host: string): string => {
    const s = sourceOf.get(instance) ?? instance;
    return s === 'kubelet' ? `kubelet@${host}` : s;
  };
  const byStream = new Map<string, Array<{ step: number; msg: string }>>();
  for (const st of trace.steps) {
    if (!st.log || !st.msg) continue;
    const s = streamOf(st.instance, st.host);
    (byStream.get(s) ?? byStream.set(s, []).get(s)!).push({ step: st.i, msg: st.msg });
  }
  const cursor = new Map<string, number>();
  return quoted.map(({ stream, line }) => {
    const source = stream.split('@')[0]!;
    const ids = identifyLine(line, { profiles: [trace.k8s], source }).map((x) => x.id);
    if (ids.length === 0) return {};
    const printed = byStream.get(stream) ?? [];
    let j = cursor.get(stream) ?? 0;
    while (j < printed.length && !ids.includes(printed[j]!.msg)) j++;
    if (j === printed.length) return { msg: ids[0]! };
    cursor.set(stream, j + 1);
    return { step: printed[j]!.step, msg: printed[j]!.msg };
  });
}

/** Parses the "<stream>\t<line>" files of quoted seed logs ('#' starts a comment line). */
export function parseQuotedLog(text: string): Array<{ stream: string; line: string }> {
  return text.split('\n').filter((l) => l.trim() && !l.startsWith('#')).map((l) => {
    const tab = l.indexOf('\t');
    return tab < 0 ? { stream: '', line: l } : { stream: l.slice(0, tab), line: l.slice(tab + 1) };
  });
}
