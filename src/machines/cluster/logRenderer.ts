/**
 * A component's log line as its real process prints it: the catalog's format for the profile, at the
 * verbosity its process runs at, behind the klog header (and the journald prefix for the
 * kubelet), with the stage of the volume's life it belongs to.
 */
import { journaldPrefix, klogHeader, type LogStream } from '../shared/klog.ts';
import { formatOf, renderMessage, type LogArgs, type LogSource, type MessageCatalog, type ProfileId, type Severity, type Stage } from '../shared/messages.ts';
import { lineStage } from '../shared/stage.ts';

export interface RenderedLine { text: string; severity: Severity; stage: Stage; summary: string }

/** `v`: the process's klog -v (its scenario's flag, else the profile's for its program) */
export interface LogSink { id: string; source: LogSource; stream: LogStream; v: number }

export class LogRenderer {
  constructor(private readonly catalog: MessageCatalog, private readonly profileId: ProfileId, private readonly epochUs: number) {}

  /** The line, or undefined when this profile has no such line or prints it only at a higher -v. */
  render(sink: LogSink, msgId: string, args: LogArgs, atUs: number, machineStage?: Stage, variant?: string): RenderedLine | undefined {
    const def = this.catalog[msgId];
    if (!def) throw new Error(`component ${sink.id} logged unknown message id "${msgId}"`);
    const base = def.formats[this.profileId];
    if (!base) return undefined;
    const fmt = formatOf(base, base.bySource?.[sink.source]);
    if ((fmt.v ?? 0) > sink.v) return undefined;
    const severity = fmt.severity ?? def.severity;
    const epoch = this.epochUs + atUs;
    const text = journaldPrefix(epoch, sink.stream) + klogHeader(severity, epoch, sink.stream, fmt.file, fmt.lineBySource?.[sink.source] ?? fmt.line) + renderMessage(fmt, args);
    // a generic line belongs to the stage of the method it logs or the error it carries (shared/stage.ts)
    const err = [args.err, args.error, args.errText].find((x) => typeof x === 'string' && x !== '<nil>') as string | undefined;
    // the machine that printed it knows which work it belongs to; the rule is for lines it does not say
    const stage = machineStage ?? lineStage(msgId, def, { method: typeof args.method === 'string' ? args.method : null, error: err ?? null });
    let summary = def.summary;
    if (variant !== undefined) {
      const v = def.variants?.[variant];
      if (v === undefined) throw new Error(`component ${sink.id} logged ${msgId} with summary variant "${variant}", which the catalog does not have (known: ${Object.keys(def.variants ?? {}).join(', ') || 'none'})`);
      summary = v;
    }
    return { text, severity, stage, summary };
  }
}
