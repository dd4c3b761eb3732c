/**
 * The scenario's sequence diagram, generated from its trace (never drawn by hand): Mermaid
 * `sequenceDiagram` text with one participant per component and a message per API write, CSI call
 * and reply, recorded Event, and a component's own work on its node (a message to itself). Pure: returns text; rendering is the site's business.
 */
import type { Trace, TraceStep } from '../cluster/trace.ts';

export interface SequenceMessage {
  /** 1-based step index this message comes from */
  step: number;
  from: string;
  to: string;
  text: string;
  dashed: boolean;
}

const API = 'kube-apiserver';

/** The messages of the diagram, in step order (also used to highlight the current step). */
export function sequenceMessages(trace: Trace): SequenceMessage[] {
  const out: SequenceMessage[] = [];
  for (const st of trace.steps) {
    const m = messageOf(st);
    if (m) out.push(m);
  }
  return out;
}

function participant(st: TraceStep): string {
  if (st.component === 'user') return 'user';
  return st.component === 'kubelet' || st.component === 'csi-node-plugin' || st.component === 'node-driver-registrar'
    ? `${st.component} (${st.host})` : st.component;
}

function messageOf(st: TraceStep): SequenceMessage | undefined {
  const who = participant(st);
  if ((st.kind === 'api' || st.kind === 'user') && st.api) {
    const ok = st.api.code < 400;
    return { step: st.i, from: who, to: API, dashed: false, text: `${st.api.verb} ${st.api.kind} ${short(st.api.name)}${st.api.subresource ? `/${st.api.subresource}` : ''}${ok ? '' : ` → ${st.api.code}`}` };
  }
  if (st.kind === 'rpc' && st.rpc) {
    return { step: st.i, from: who, to: pluginName(st.rpc.to), dashed: false, text: st.rpc.method.split('/').pop()! };
  }
  if (st.kind === 'rpc-reply' && st.rpc) {
    return { step: st.i, from: who, to: callerName(st.rpc.to), dashed: true, text: `${st.rpc.method.split('/').pop()} ${st.rpc.code}` };
  }
  // the component's own work on its node (the kubelet's walk over a volume's files): a message to itself
  if (st.kind === 'host' && st.hostCall) {
    return { step: st.i, from: who, to: who, dashed: false, text: st.hostCall.op === 'SetVolumeOwnership' ? `SetVolumeOwnership fsGroup ${st.hostCall.fsGroup}` : st.hostCall.op };
  }
  if (st.kind === 'event' && st.objects?.[0]?.after) {
    const ev = st.objects[0].after;
    return { step: st.i, from: who, to: API, dashed: false, text: `Event ${ev.reason}` };
  }
  return undefined;
}

function pluginName(instance: string): string {
  const [name, host] = instance.split('/');
  return host ? `${name} (${host})` : name!;
}
const callerName = pluginName;

function short(name: string): string {
  return name.length > 24 ? `${name.slice(0, 12)}…${name.slice(-6)}` : name;
}

/** Mermaid-safe label text. */
const esc = (s: string): string => s.replace(/[;#]/g, ' ').replace(/"/g, "'");
const id = (s: string): string => s.replace(/[^A-Za-z0-9]/g, '_');

/**
 * Mermaid `sequenceDiagram` text: the participants in the given order, then the messages, with an
 * optional note over a participant for messages left out before and after them.
 */
export function renderSequence(
  participants: readonly string[], msgs: readonly SequenceMessage[],
  notes: { before?: { over: string; text: string }; after?: { over: string; text: string } } = {},
): string {
  const lines = ['sequenceDiagram'];
  for (const p of participants) lines.push(`  participant ${id(p)} as ${esc(p)}`);
  if (notes.before) lines.push(`  Note over ${id(notes.before.over)}: ${notes.before.text}`);
  for (const m of msgs) lines.push(`  ${id(m.from)}${m.dashed ? '-->>' : '->>'}${id(m.to)}: ${esc(`${m.step}. ${m.text}`)}`);
  if (notes.after) lines.push(`  Note over ${id(notes.after.over)}: ${notes.after.text}`);
  return lines.join('\n') + '\n';
}

export function toMermaidSequence(trace: Trace, opts: { maxMessages?: number } = {}): string {
  const msgs = sequenceMessages(trace);
  const limited = opts.maxMessages !== undefined ? msgs.slice(0, opts.maxMessages) : msgs;
  const order: string[] = [];
  const seen = new Set<string>();
  const see = (p: string): void => { if (!seen.has(p)) { seen.add(p); order.push(p); } };
  if (limited.some((m) => m.from === 'user')) see('user');
  see(API);
  for (const m of limited) { see(m.from); see(m.to); }
  return renderSequence(order, limited,
    limited.length < msgs.length ? { after: { over: API, text: `… ${msgs.length - limited.length} more messages` } } : {});
}
