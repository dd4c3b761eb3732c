/**
 * Faults the cluster can inject, as data: a CSI RPC answering with an error code, an API request
 * failing or arriving late (a lagging status update), an informer that delivers its events late (a
 * stale cache). Times are milliseconds from the story start (trace t = 0); a fault with no `from`
 * starts hitting at the story start, so the unrecorded warm-up never uses it up.
 *
 * Text forms (the CLI's --fault, the scenario document's faults, trace.options.faults):
 *   ControllerPublishVolume=DEADLINE_EXCEEDEDx2        a CSI RPC fails twice (no count: every call)
 *   api:patchStatus:Node@kubelet=+5s                   every node status patch by a kubelet lands 5s late
 *   api:create:VolumeAttachment=500x1                  the first VolumeAttachment create fails with 500
 *   informer:attach-detach-controller:Node=+20s        that component's Node informer runs 20s behind
 *   host:SetVolumeOwnership=+45s                       the kubelet's walk over a volume's files (fsGroup) takes 45s
 *   host:SetVolumeOwnership=EIOx1                      the first such walk fails: readdirent … input/output error
 *   host:StatVolumeRoot=ESTALE                         OnRootMismatch's stat of the volume's top directory fails (the walk runs anyway)
 */
import type { ApiVerb } from '../shared/contract.ts';
import { isCsiRpc, isGrpcCode, type CsiRpc, type GrpcCode } from '../shared/csi.ts';
import { API_VERSION, type Kind } from '../shared/k8s.ts';

export interface CsiFault {
  rpc: CsiRpc;
  code: GrpcCode;
  /** how many calls fail (default: every call) */
  count?: number;
  message?: string;
  /** only calls made at or after this story time (ms; default 0, the story start) */
  from?: number;
  /** only calls made before this story time (ms) */
  until?: number;
  /** only calls to this node's plugin */
  node?: string;
}

export interface ApiFault {
  verb: ApiVerb;
  kind: Kind;
  name?: string;
  /** only requests from this component (e.g. "attach-detach-controller", "kubelet") */
  component?: string;
  /** only requests from components on this host (a kubelet's node) */
  node?: string;
  /** the API server answers with this HTTP status instead of applying the request */
  code?: number;
  /** the request reaches the API server this many ms late (a lagging status update), and the component's later requests after it; with `code`, late and failed */
  delayMs?: number;
  /** how many requests it hits (default: every one) */
  count?: number;
  message?: string;
  from?: number;
  until?: number;
}

export interface InformerDelay {
  /** the component whose informer lags (its name, e.g. "attach-detach-controller", or an instance id "kubelet/node-1") */
  component: string;
  /** only this kind's informer (default: every informer of the component) */
  kind?: Kind;
  /** how late its watch events arrive (ms) */
  delayMs: number;
  from?: number;
  until?: number;
}

/** What a node's own file system does to the kubelet's work on a volume (not a CSI call, not the API). */
export type HostOp = 'SetVolumeOwnership' | 'StatVolumeRoot';
export const HOST_OPS: readonly HostOp[] = ['SetVolumeOwnership', 'StatVolumeRoot'];
/**
 * The errors the node's file system can answer the kubelet's work with, as Go's syscall package words them
 * (zerrors_linux_amd64.go errors table): EIO a file system gone bad under the mount, EACCES root squashing on an NFS
 * export, ESTALE an NFS handle the server no longer knows.
 */
export const HOST_ERRNOS = { EIO: 'input/output error', EACCES: 'permission denied', ESTALE: 'stale NFS file handle' } as const;
export type HostErrno = keyof typeof HOST_ERRNOS;
/**
 * The error of the kubelet's work under `path`, as Go's os package returns it (a *PathError, "<op> <path>: <errno>"):
 * for SetVolumeOwnership's walk, a directory that cannot be read ("readdirent …: input/output error"; before Go 1.16
 * without the path, `namesPath` false) or opened ("open …: permission denied"); for StatVolumeRoot, os.Stat's
 * ("stat …: stale NFS file handle").
 */
export const hostErrorText = (errno: HostErrno, path: string, namesPath = true, op: HostOp = 'SetVolumeOwnership'): string =>
  op === 'StatVolumeRoot' ? `stat ${path}: ${HOST_ERRNOS[errno]}`
    : errno === 'EACCES' ? `open ${path}: ${HOST_ERRNOS[errno]}` : `readdirent${namesPath ? ` ${path}` : ''}: ${HOST_ERRNOS[errno]}`;

export interface HostFault {
  op: HostOp;
  /** the operation fails with this error */
  errno?: HostErrno;
  /** the operation takes this long (ms): a volume with many files */
  delayMs?: number;
  count?: number;
  message?: string;
  from?: number;
  until?: number;
  /** only on this node */
  node?: string;
}

export type Fault =
  | ({ type?: 'csi' } & CsiFault)
  | ({ type: 'api' } & ApiFault)
  | ({ type: 'informer' } & InformerDelay)
  | ({ type: 'host' } & HostFault);

/** What a trace says about one fault: its text form and every time it hit. */
export interface FaultReport {
  fault: string;
  type: 'csi' | 'api' | 'informer' | 'host';
  /** each hit: the recorded step it shows up on (null when it hit outside the recording), and when (story ms) */
  fired: Array<{ step: number | null; t: number }>;
}

export class FaultSyntaxError extends Error {
  override name = 'FaultSyntaxError';
}

const API_VERBS: readonly ApiVerb[] = ['create', 'update', 'updateStatus', 'patch', 'patchStatus', 'delete', 'get'];
const isKind = (s: string): s is Kind => Object.prototype.hasOwnProperty.call(API_VERSION, s) && s !== 'Event';

/** Go-style durations: "90s", "1m30s", "500ms", "2h"; a bare number is milliseconds. */
export function parseDuration(text: string | number): number {
  if (typeof text === 'number') {
    if (!Number.isFinite(text)) throw new FaultSyntaxError(`bad duration ${text}`);
    return text;
  }
  const s = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  const m = /^(-)?((?:\d+(?:\.\d+)?(?:ms|h|m|s))+)$/.exec(s);
  if (!m) throw new FaultSyntaxError(`bad duration "${text}": expected e.g. 500ms, 30s, 1m30s or a number of milliseconds`);
  let ms = 0;
  for (const [, n, unit] of m[2]!.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    ms += Number(n) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000);
  }
  return m[1] ? -ms : ms;
}

/** 20000 → "20s", 90000 → "1m30s", 250 → "250ms". */
export function formatDuration(ms: number): string {
  if (ms < 0) return `-${formatDuration(-ms)}`;
  if (ms === 0) return '0s';
  // (an hour or more in hours, minutes and seconds even with a fraction, as Go prints a Duration: an uptime of
  // "36h46m49.5s"; shorter ones with a fraction stay in seconds, "120.6s")
  if (ms < 1000 || (!Number.isInteger(ms / 1000) && ms < 3_600_000)) return ms >= 1000 ? `${ms / 1000}s` : `${ms}ms`;
  let s = ms / 1000;
  const h = Math.floor(s / 3600); s -= h * 3600;
  const m = Math.floor(s / 60); s = Number((s - m * 60).toFixed(3));
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}

const countPart = (count: number | undefined): string => (count !== undefined && Number.isFinite(count) ? `x${count}` : '');

function parseCount(text: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new FaultSyntaxError(`bad fault "${text}": the count must be at least 1`);
  return n;
}

/** A fault from its text form. Throws FaultSyntaxError naming what is wrong. */
export function parseFaultText(input: string): Fault {
  const text = input.trim();
  if (text.startsWith('api:')) {
    const m = /^api:([A-Za-z]+):([A-Za-z]+)(?:\/([^@=\s]+))?(?:@([^=\s]+))?=(?:(\d{3})|\+([^x\s]+))(?:x(\d+))?$/.exec(text);
    if (!m) throw new FaultSyntaxError(`bad fault "${text}": expected api:<verb>:<Kind>[/<name>][@<component>]=<HTTP code>|+<delay>[x<count>], e.g. api:patchStatus:Node@kubelet=+5s`);
    const [, verb, kind, name, component, code, delay, count] = m;
    if (!API_VERBS.includes(verb as ApiVerb)) throw new FaultSyntaxError(`bad fault "${text}": unknown API verb "${verb}" (known: ${API_VERBS.join(', ')})`);
    if (!isKind(kind!)) throw new FaultSyntaxError(`bad fault "${text}": unknown kind "${kind}"`);
    const c = code === undefined ? undefined : Number(code);
    if (c !== undefined && (c < 400 || c > 599)) throw new FaultSyntaxError(`bad fault "${text}": an API error code is an HTTP status from 400 to 599`);
    const n = parseCount(text, count);
    return {
      type: 'api', verb: verb as ApiVerb, kind: kind as Kind, ...(name ? { name } : {}), ...(component ? { component } : {}),
      ...(c !== undefined ? { code: c } : {}), ...(delay !== undefined ? { delayMs: durationIn(text, delay) } : {}), ...(n !== undefined ? { count: n } : {}),
    };
  }
  if (text.startsWith('host:')) {
    const m = /^host:([A-Za-z]+)=(?:\+([^x\s]+)|([A-Z]+))(?:x(\d+))?$/.exec(text);
    if (!m) throw new FaultSyntaxError(`bad fault "${text}": expected host:<operation>=+<duration>|<errno>[x<count>], e.g. host:SetVolumeOwnership=+45s or host:SetVolumeOwnership=EIO`);
    const [, op, delay, errno, count] = m;
    if (!(HOST_OPS as readonly string[]).includes(op!)) throw new FaultSyntaxError(`bad fault "${text}": unknown host operation "${op}" (known: ${HOST_OPS.join(', ')})`);
    if (errno !== undefined && !(errno in HOST_ERRNOS)) throw new FaultSyntaxError(`bad fault "${text}": unknown error "${errno}" (known: ${Object.keys(HOST_ERRNOS).join(', ')})`);
    const n = parseCount(text, count);
    return { type: 'host', op: op as HostOp, ...(errno ? { errno: errno as HostErrno } : {}), ...(delay !== undefined ? { delayMs: durationIn(text, delay) } : {}), ...(n !== undefined ? { count: n } : {}) };
  }
  if (text.startsWith('informer:')) {
    const m = /^informer:([^:=\s]+)(?::([A-Za-z]+))?=\+(\S+)$/.exec(text);
    if (!m) throw new FaultSyntaxError(`bad fault "${text}": expected informer:<component>[:<Kind>]=+<delay>, e.g. informer:attach-detach-controller:Node=+20s`);
    const [, component, kind, delay] = m;
    if (kind !== undefined && !isKind(kind)) throw new FaultSyntaxError(`bad fault "${text}": unknown kind "${kind}"`);
    return { type: 'informer', component: component!, ...(kind ? { kind: kind as Kind } : {}), delayMs: durationIn(text, delay!) };
  }
  const m = /^([A-Za-z]+)=([A-Z_]+)(?:x(\d+))?$/.exec(text);
  if (!m) throw new FaultSyntaxError(`bad fault "${text}": expected <RPC>=<CODE>[x<count>], e.g. ControllerPublishVolume=DEADLINE_EXCEEDEDx2 (or api:… / informer:… / host:…)`);
  const [, rpc, code, count] = m as unknown as [string, string, string, string | undefined];
  if (!isCsiRpc(rpc)) throw new FaultSyntaxError(`bad fault "${text}": unknown CSI RPC "${rpc}"`);
  if (!isGrpcCode(code) || code === 'OK') throw new FaultSyntaxError(`bad fault "${text}": unknown gRPC error code "${code}" (e.g. DEADLINE_EXCEEDED, ABORTED, INTERNAL)`);
  const n = parseCount(text, count);
  return { rpc, code, ...(n !== undefined ? { count: n } : {}) };
}

function durationIn(text: string, d: string): number {
  try {
    const ms = parseDuration(d);
    if (ms <= 0) throw new FaultSyntaxError('');
    return ms;
  } catch {
    throw new FaultSyntaxError(`bad fault "${text}": bad delay "${d}" (e.g. +500ms, +5s, +1m)`);
  }
}

const window = (f: { from?: number; until?: number }): string =>
  f.from === undefined && f.until === undefined ? '' : ` (${f.from !== undefined ? `from ${formatDuration(f.from)}` : ''}${f.from !== undefined && f.until !== undefined ? ' ' : ''}${f.until !== undefined ? `until ${formatDuration(f.until)}` : ''})`;

export const faultType = (f: Fault): 'csi' | 'api' | 'informer' | 'host' => (f.type === 'api' || f.type === 'informer' || f.type === 'host' ? f.type : 'csi');

/** The text form of a fault; a window or node the text form cannot say is added in parentheses. */
export function faultToText(f: Fault): string {
  switch (faultType(f)) {
    case 'api': {
      const a = f as ApiFault;
      const what = a.code !== undefined ? `${a.code}${a.delayMs ? `+${formatDuration(a.delayMs)}` : ''}` : `+${formatDuration(a.delayMs ?? 0)}`;
      return `api:${a.verb}:${a.kind}${a.name ? `/${a.name}` : ''}${a.component ? `@${a.component}` : ''}=${what}${countPart(a.count)}${a.node ? ` (node ${a.node})` : ''}${window(a)}`;
    }
    case 'informer': {
      const i = f as InformerDelay;
      return `informer:${i.component}${i.kind ? `:${i.kind}` : ''}=+${formatDuration(i.delayMs)}${window(i)}`;
    }
    case 'host': {
      const h = f as HostFault;
      const what = h.errno ? `${h.errno}${h.delayMs ? ` after ${formatDuration(h.delayMs)}` : ''}` : `+${formatDuration(h.delayMs ?? 0)}`;
      return `host:${h.op}=${what}${countPart(h.count)}${h.node ? ` (node ${h.node})` : ''}${window(h)}`;
    }
    default: {
      const c = f as CsiFault;
      return `${c.rpc}=${c.code}${countPart(c.count)}${c.node ? ` (node ${c.node})` : ''}${window(c)}`;
    }
  }
}
