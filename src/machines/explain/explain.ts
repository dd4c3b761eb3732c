/**
 * The log explainer: real lines as people paste them → which component printed each, which stage of
 * the volume's life it belongs to, the step of our flows that prints the same message, and where
 * the whole paste says the flow stopped. Pure and browser-safe: it reads only the Knowledge data
 * (built from the machines' message catalog, see knowledge.ts) and never throws for any string.
 */
import type {
  ExplainedLine, ExplainResult, ExplainSummary, Knowledge, KnownEventReason, KnownMessage, Severity, Stage, StepRef,
} from './types.ts';
import { cutText, ExplainInputError } from './types.ts';
import { isGenericGrpc, isHandshakeMethod, lineStage, stageOfOperation, stageOfPayload, stageOfText, stageOfVolumePhase } from '../shared/stage.ts';
import { STAGE_ZH } from '../shared/stage.zh.ts';
import { stageOfMethod } from '../shared/csi.ts';

export { ExplainInputError };

/** Flow order of the stages, for summaries. */
export const STAGE_ORDER: readonly Stage[] = ['register', 'provision', 'attach', 'mount', 'resize', 'snapshot', 'unmount', 'detach', 'delete', 'other'];

// ------------------------------------------------------------------ input

/** Lines longer than this are cut for matching (the result keeps the line number and a note). */
export const MAX_LINE = 64 * 1024;

/**
 * Bytes → text, or a clear reason why not: empty input, binary data, or text that is neither UTF-8
 * nor UTF-16 with a byte-order mark.
 */
export function decodeInput(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new ExplainInputError('The input is empty: paste or pass kubelet, controller-manager, sidecar or driver log lines.');
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(bytes.subarray(2));
  else {
    const probe = bytes.subarray(0, Math.min(bytes.length, 1 << 20));
    let nul = 0;
    for (const b of probe) if (b === 0) nul++;
    if (nul > 0) throw new ExplainInputError(`This looks like binary data (${nul} NUL byte${nul === 1 ? '' : 's'} in the first ${probe.length} bytes), not a text log. If it is compressed (.gz, journal files), decompress or export it first (journalctl -u kubelet -o short > kubelet.log).`);
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new ExplainInputError('The input is not valid UTF-8 text. Convert it first (for example: iconv -f latin1 -t utf-8 file.log).');
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!text.trim()) throw new ExplainInputError('The input has only blank lines: paste or pass kubelet, controller-manager, sidecar or driver log lines.');
  const controls = (text.slice(0, 1 << 20).match(/[\u0001-\u0008\u000e-\u001a\u001c-\u001f]/g) ?? []).length;
  if (controls > 32 && controls > text.length / 100) throw new ExplainInputError('This looks like binary data (many control characters), not a text log.');
  return text;
}

/** One entry per input line; a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

// ------------------------------------------------------------------ prefixes people's tools add

interface Stripped {
  rest: string;
  host: string | null;
  /** the program or container name a prefix gave (journald identifier, kubectl --prefix container) */
  hint: string | null;
  time: string | null;
}

/** The kernel's subsystems that open its records about disks and file systems ("sd 0:0:2:0: …", "scsi 2:0:0:0: …", "nvme0n1: …") */
const KERNEL_SUBSYSTEM = /^(sd|sr|scsi|ata\d+(\.\d+)?|nvme\w*|rbd\d*|nbd\d*|dm-\d+|md\d+|loop\d+)$/;
const CRI = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2}))\s+(?:stdout|stderr)\s+[FP]\s(.*)$/s;
const KUBECTL_PREFIX = /^\[([^\]\s]+)\]\s(.*)$/s;
/**
 * The stamp a log collector puts on every line it stores: `kubectl logs --timestamps` (RFC 3339 with nanoseconds) and the
 * CRI log file (its stamp, stream and tag). It stamps each line of a multi-line record as well (klog's message with a
 * command's output in it), so a stamp there starts no record of its own. [1]: the collector and stream, [2]: the line.
 */
const COLLECTOR_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6,9}(?:Z|[+-]\d{2}:\d{2})( (?:stdout|stderr) [FP])? (.*)$/s;
/** The line as its program wrote it when it and the record before it carry the same collector's stamp, else null. */
function collectedPiece(line: string, headLine: string | undefined): string | null {
  if (headLine === undefined) return null;
  const m = COLLECTOR_STAMP.exec(line);
  const h = m ? COLLECTOR_STAMP.exec(headLine) : null;
  return m && h && (m[1] ?? '') === (h[1] ?? '') ? m[2]! : null;
}
const GREP_FILE_PREFIX = /^(\/var\/log\/[\w.\/-]+|[\w.\/-]+\.log(?:\.\d+)?):(.*)$/s;
/** a log tailer's "[pod container] " prefix (stern, some dashboards): the container is the hint */
const POD_CONTAINER_PREFIX = /^\[([a-z0-9][\w.-]*) ([a-z0-9][\w.-]*)\]\s(.*)$/s;
/** the Kubernetes e2e framework's lines ("Jan 23 03:26:02.029: INFO: …") */
const E2E_STAMP = /^([A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2}\.\d{3}): (?:INFO|STEP|FAIL|WARNING|ERROR): (.*)$/s;
// journalctl's short format, any month name (Jan, janv., Mär, 1月…), and short-iso
const JOURNALD = /^(\S{1,8}\s{1,2}\d{1,2}\s+\d{2}:\d{2}:\d{2}(?:\.\d+)?)\s+(\S+)\s+([^\s[:]+)(?:\[\d+\])?:\s?(.*)$/s;
const JOURNALD_ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s+(\S+)\s+([^\s[:]+)(?:\[\d+\])?:\s?(.*)$/s;
/** Cloud Logging's text export: "INFO 2025-04-18T20:16:24.146Z message" */
const CLOUD_LOGGING = /^(DEFAULT|DEBUG|INFO|NOTICE|WARNING|ERROR|CRITICAL)\s+(\d{4}-\d{2}-\d{2}T\S+)\s+(.*)$/s;
// (and HashiCorp's hclog, which Nomad's agents print indented: "    2025-03-11T17:01:50.738Z [ERROR] nomad.volumes_watcher: …")
const ISO_LEVEL = /^\s*(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s+((?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|PANIC|DPANIC|\[(?:TRACE|DEBUG|INFO|WARN|ERROR)\])\s.*)$/s;
/** Rust's env_logger: "[2020-07-07T14:38:29Z DEBUG mayastor_agent::node] Staging volume …" */
const ENV_LOGGER = /^\s*\[(\d{4}-\d{2}-\d{2}T\S+)\s+((?:TRACE|DEBUG|INFO|WARN|ERROR)\s+[\w:.-]+\]\s?.*)$/s;
const LEADING_STAMP = /^(\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s+(\S.*)$/s;
/** a kubelet or controller operation's message posted without its header ("Operation for \"{volumeName:…", "MountVolume.SetUp failed …") */
const KUBE_OPERATION = /^"?(Operation for "|\w+Volume\.\w+ (failed|succeeded)|\w+Volume\.\w+ started)/;
const KLOG_ANYWHERE = /[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{6}\s+\d+ [\w.-]+\.go:\d+\] /;

/** a field of `kubectl describe` at the left margin, its value aligned by spaces: "Name:          data-claim", "StorageClass:  standard" */
const DESCRIBE_FIELD = /^[A-Z][A-Za-z ]{1,30}:\s{2,}\S/;
/** What a post may glue before what it pasted: a fence (with or without a language tag) or a quotation mark. */
const PASTE_OPENERS = [/^\s*(```\w*\s+|["'`])/, /^\s*```(?=[A-Za-z])/];

/** The opener a post glued to a pasted record, when what follows it is one (a record, a kubelet operation, a printed object). */
function gluedOpener(r: string): string | null {
  for (const re of PASTE_OPENERS) {
    const m = re.exec(r);
    if (!m) continue;
    const rest = r.slice(m[0].length);
    // (or a field of kubectl's describe, "`Name:          data-claim", which the opener left unread as one)
    if (startsRecord(rest) || MOUNT_UTILS_TAIL.test(rest) || KUBE_OPERATION.test(rest) || PRINTED_OBJECT.test(rest) || DESCRIBE_FIELD.test(rest)) return m[0];
  }
  return null;
}

const ANSI_HINT = /(?:\x1b|\uFFFD|\^\[)\[/;
// (a real escape may also be any other control sequence a terminal tool writes, "\x1b[K", "\x1b[2J";
// what a web page or a caret notation left of one is read as colours only)
const TERMINAL_ESCAPE = /\x1b\[[\d;?]*[A-Za-z]|(?:\uFFFD|\^\[)\[[\d;]*m/g;

/**
 * A record of a Kubernetes component run with --logging-format=json (zap with "ts" in epoch milliseconds, "caller" as
 * dir/file.go:line, "msg", the verbosity "v" on info records, "err" on error records that have one, then the call's
 * key/value pairs: component-base/logs/json/json.go and go-logr/zapr, v1.30), as the klog text line the same call
 * prints: the catalog knows its messages in that form. A call with key/value pairs is a structured one (InfoS/ErrorS),
 * whose text form quotes its message; one without is read as printf text.
 */
export function klogJsonAsText(line: string, knows?: (text: string) => boolean): string | null {
  const t = line.trim();
  if (!t.startsWith('{"') || !t.endsWith('}') || !t.includes('"caller"')) return null;
  let j: Record<string, unknown>;
  try { j = JSON.parse(t) as Record<string, unknown>; } catch { return null; }
  const caller = typeof j.caller === 'string' ? /(?:^|\/)([\w.-]+\.go):(\d+)$/.exec(j.caller) : null;
  const level = typeof j.level === 'string' ? j.level.toLowerCase() : null;
  const when = typeof j.ts === 'number' ? (j.ts > 1e11 ? j.ts : j.ts * 1000) : typeof (j.ts ?? j.time) === 'string' ? Date.parse(String(j.ts ?? j.time)) : NaN;
  // (a numeric "ts" is component-base's epoch; a driver's zap logger gives its "level" and an ISO "time" or "ts")
  if (!caller || typeof j.msg !== 'string' || Number.isNaN(when) || (level === null && typeof j.ts !== 'number')) return null;
  const d = new Date(Math.floor(when));
  if (Number.isNaN(d.getTime())) return null;
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const micros = String(Math.floor((when % 1000) * 1000)).padStart(6, '0');
  const stamp = `${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${micros}`;
  // (component-base's info records carry their verbosity "v", its error records none: zapr's Error adds "err" only for an error)
  const sev = level !== null ? (/^(error|dpanic|panic)$/.test(level) ? 'E' : level === 'fatal' ? 'F' : /^warn/.test(level) ? 'W' : 'I') : 'v' in j ? 'I' : 'E';
  const pairs = Object.entries(j).filter(([k]) => k !== 'ts' && k !== 'time' && k !== 'level' && k !== 'caller' && k !== 'msg' && k !== 'v');
  const text = pairs.length
    ? `${JSON.stringify(j.msg)}${pairs.map(([k, v]) => ` ${k}=${JSON.stringify(v)}`).join('')}`
    : j.msg;
  const head = `${sev}${stamp}       1 ${caller[1]}:${caller[2]}] `;
  // (a record without pairs is an Infof's text or an InfoS's message without pairs, whose text form quotes it: the one the
  // catalog knows, when it knows the quoted one)
  if (!pairs.length && typeof j.ts === 'number' && knows?.(head + JSON.stringify(j.msg))) return head + JSON.stringify(j.msg);
  return head + text;
}

function stripPrefixes(line: string): Stripped {
  const s: Stripped = { rest: line, host: null, hint: null, time: null };
  for (let guard = 0; guard < 4; guard++) {
    const r = s.rest;
    // a Markdown quote of a log ("> I0101 …", ">   Warning  FailedMount …"): the quote marker is the post's, not the log's
    // (and a code fence the post glued to its first line: "```  Warning  FailedAttachVolume …")
    // (whatever the quote holds: a post quotes what it pasted, and a quoted prompt or table row is read as one)
    const fromJson = klogJsonAsText(r);
    if (fromJson !== null) { s.rest = fromJson; continue; }
    const quote = /^>+ ?(?=\s*\S)/.exec(r);
    if (quote) { s.rest = r.slice(quote[0].length); continue; }
    // a terminal UI's frame around a record it shows (k9s's "│   Warning  FailedScheduling … │"): the box-drawing bars
    // are the UI's (a framed line that starts no record stays as it is: the middle of a wrapped one)
    const frame = /^[│┃║]\s?(.*?)\s*[│┃║]?\s*$/.exec(r);
    if (frame && startsRecord(frame[1]!)) { s.rest = frame[1]!; continue; }
    // an Event row of a sample output a script or a how-to set in comments ("#  Warning  FailedAttachVolume  6s (x6 over 25s)
    // attachdetach-controller  …"): the comment mark is the post's (a comment of prose or a command stays one; a commented
    // klog record is read from its header already, below)
    const comment = /^#+\s*(?=\S)/.exec(r);
    const commented = comment ? r.slice(comment[0].length) : null;
    // (and a node's syslog line a post set in comments the same way, "# Jul  3 13:12:29 aks-node kernel: [11520.06] CIFS: …")
    if (commented !== null && (DESCRIBE_ROW.test(commented) || JOURNALD.test(commented))) { s.rest = commented; continue; }
    // (and a code fence or a quotation mark the post glued to a record: "```  Warning  FailedAttachVolume …", "\"Warning  VolumeFailedDelete …")
    // (indented or not: " ``` MountVolume.MountDevice failed …"; and before a table row kubectl printed: "`NAME   CAPACITY   ACCESS MODES …")
    // (and a fence with no language tag glued to a record's first word: "```Warning\t\tFailedMount\t…" is no "```Warning" fence)
    const opener = gluedOpener(r);
    if (opener !== null) { s.rest = r.slice(opener.length); continue; }
    // a line a post set in bold ("**volume "pvc-…" no longer needs deletion, skipping**"): the emphasis is the post's
    const bold = /^\*\*(\S.*?)\*\*\s*$/.exec(r);
    if (bold) { s.rest = bold[1]!; continue; }
    // a log store's export: its own timestamp, then the docker json-file record ("2024-06-20T22:23:04+08:00\t{"log":…}")
    const stamped = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s+(\{"log":.*)$/s.exec(r);
    if (stamped) { s.time ??= stamped[1]!; s.rest = stamped[2]!; continue; }
    if (r.startsWith('{"log":')) {
      try {
        const j = JSON.parse(r) as { log?: unknown; time?: unknown };
        if (typeof j.log === 'string') { s.rest = j.log.replace(/\n$/, ''); if (typeof j.time === 'string') s.time ??= j.time; continue; }
      } catch { /* not docker json */ }
    }
    let m = CRI.exec(r);
    if (m) { s.time ??= m[1]!; s.rest = m[2]!; continue; }
    m = KUBECTL_PREFIX.exec(r);
    if (m && m[1]!.includes('/')) { s.hint ??= m[1]!.split('/').pop()!; s.rest = m[2]!; continue; }
    // (and grep's file name before a line it found in several files, "/var/log/messages:Mar 19 18:23:37 node kubelet: …")
    m = GREP_FILE_PREFIX.exec(r);
    if (m && startsRecord(m[2]!)) { s.rest = m[2]!; continue; }
    m = POD_CONTAINER_PREFIX.exec(r);
    if (m && startsRecord(m[3]!)) { s.hint ??= m[2]!; s.rest = m[3]!; continue; }
    m = E2E_STAMP.exec(r);
    if (m) { s.time ??= m[1]!; s.rest = m[2]!; continue; }
    // (journald keeps microseconds: a stamp with nanoseconds is kubectl's --timestamps, or a runtime's, before a record's line,
    // "2023-08-09T14:24:23.168713885Z Mounting command: …" is no host "Mounting" and program "command"; nor is a host name
    // ever followed by a colon, "… Output: mount.nfs: …")
    m = JOURNALD_ISO.exec(r) ?? JOURNALD.exec(r);
    if (m && (/[.,]\d{7,}/.test(m[1]!) || m[2]!.endsWith(':'))) m = null;
    // (a kernel record whose syslog host and "kernel:" the post cut, "Sep 29 09:03:00 sd 0:0:2:0: [sdb] …": what reads as a
    // host is the kernel's subsystem, and the record is the kernel's from there)
    if (m && KERNEL_SUBSYSTEM.test(m[2]!) && /^[\d:.\]]/.test(r.slice(m[0].length - m[4]!.length - 1))) {
      s.time ??= m[1]!; s.hint ??= 'kernel'; s.rest = r.slice(m[1]!.length).trimStart(); continue;
    }
    // (a level word is no host name: "2021-04-01T03:15:10.956Z DEBUG common/util.go:114 …" is zap's console encoder, read below)
    // (nor a klog header a log store printed after its own stamp: "2023-04-18T21:36:43+02:00\tI0418 19:36:43.049702 …")
    if (m && !/^[IWEF]\d{4}$/.test(m[1]!.split(/\s/)[0]!) && !/^[IWEF]\d{4}$/.test(m[2]!) && !/^(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|PANIC|DPANIC)$/.test(m[2]!)) { s.time ??= m[1]!; s.host ??= m[2]!; s.hint ??= m[3]!; s.rest = m[4]!; continue; }
    break;
  }
  // a log shipper's own stamp before the klog header ("2024-01-11 14:58:08.123 I0111 …")
  const k = KLOG_ANYWHERE.exec(s.rest);
  if (k && k.index > 0 && k.index < 120) {
    // "pod container I0101 …", "pod/container: I0101 …", "provisioner: I0101 …": the container is a hint
    for (const tok of s.rest.slice(0, k.index).split(/[\s/:]+/).filter(Boolean).reverse()) if (componentOfHint(tok)) { s.hint ??= tok; break; }
    s.rest = s.rest.slice(k.index);
  }
  const cloud = CLOUD_LOGGING.exec(s.rest);
  if (cloud) { s.time ??= cloud[2]!; s.rest = cloud[3]!; }
  // zap's console encoder and Rust's tracing: "2021-04-01T03:15:10.956Z DEBUG common/util.go:114 …", "  2024-05-10T12:42:05Z  INFO csi_node::…"
  const leveled = ISO_LEVEL.exec(s.rest);
  if (leveled && !s.time) {
    s.time = leveled[1]!; s.rest = leveled[2]!;
    // (zap's console encoder puts a named logger's name in a column of its own, before the caller or the message:
    // "…Z\tINFO\tsetup\tStarting volume condition reporter" (csi-addons): the name says who logs, not what it does,
    // whatever word it is, "setup" no SetUp)
    // (a caller's file:line in that column, "node/node.go:120", is no name: it has a slash or a colon)
    const named = /^([A-Z]+)\t([A-Za-z][\w.-]*)\t(?=\S)/.exec(s.rest);
    if (named) { s.hint ??= named[2]!; s.rest = `${named[1]!}\t${s.rest.slice(named[0].length)}`; }
  }
  // Rust's env_logger: "[2020-07-07T14:38:29Z DEBUG mayastor_agent::node] Staging volume …"
  const bracketed = s.time ? null : ENV_LOGGER.exec(s.rest);
  if (bracketed) { s.time = bracketed[1]!; s.rest = bracketed[2]!; }
  // any other logger's own stamp first (Python's logging "2019-10-10 18:39:54 …", Go's log "2022/06/11 10:17:41 …"): a
  // record, whose indented lines after it (a traceback, a dumped object) continue it
  const stamped = s.time ? null : LEADING_STAMP.exec(s.rest);
  if (stamped) { s.time = stamped[1]!; s.rest = stamped[2]!; }
  return s;
}

const KLOG = /^([IWEF])(\d{4} \d{2}:\d{2}:\d{2}\.\d{6})\s+\d+ ([\w.-]+\.go):(\d+)\] ?(.*)$/s;
/**
 * A klog record whose severity, date and time columns the post cut off ("1 csi-provisioner.go:107]
 * Version: v1.6.0", or only its severity and date, "22:13:14.605908       1 pv_controller_base.go:188] …", or only its
 * severity, "1222 13:47:55.310089 1 connection.go:187] …"): what is left of its header, the thread id and file:line,
 * still makes it a record of its program, and so does the file:line alone ("reflector.go:381] … forcing resync"). Its
 * severity is not known.
 */
const KLOG_HEADERLESS = /^\s*(?:[IWEF] )?(?:(?:\d{4} )?\d{2}:\d{2}:\d{2}\.\d{6}\s+)?(?:(\d+) )?([\w.-]+\.go):(\d+)\] ?(.*)$/s;

export interface KlogLine {
  severity: 'I' | 'W' | 'E' | 'F';
  /** MMDD */
  date: string;
  time: string;
  file: string;
  line: number;
  /** the text after "] " */
  message: string;
}

/** A klog line's header fields and message, behind whatever journald/CRI/kubectl prefixes it has. */
export function parseKlog(line: string): KlogLine | undefined {
  const k = KLOG.exec(stripPrefixes(line.trimEnd()).rest);
  if (!k) return undefined;
  return { severity: k[1] as KlogLine['severity'], date: k[2]!.slice(0, 4), time: k[2]!.slice(5), file: k[3]!, line: Number(k[4]), message: k[5]! };
}

/** Program / container name → the component it is, for names people's prefixes carry. */
function componentOfHint(hint: string | null): { component: string; source: string } | null {
  if (!hint) return null;
  const h = hint.toLowerCase();
  if (/^(kubelet|k3s|k3s-agent|k3s-server|kubenswrapper|hyperkube|kubelite|k0s|k0sworker|rke2|microk8s\.daemon-kubelite)$/.test(h)) return { component: 'kubelet', source: 'kubelet' };
  // (and a wrapper process named after it, "d8-kubelet-forker", whose journal entries are the kubelet's records; not a plugin's)
  if (/(^|-)kubelet(-|$)/.test(h) && !/plugin|csi|registrar/.test(h)) return { component: 'kubelet', source: 'kubelet' };
  if (h.includes('provisioner')) return { component: 'external-provisioner', source: 'csi-provisioner' };
  if (h.includes('attacher')) return { component: 'external-attacher', source: 'csi-attacher' };
  if (h.includes('resizer')) return { component: 'external-resizer', source: 'csi-resizer' };
  if (h.includes('snapshotter')) return { component: 'external-snapshotter', source: 'csi-snapshotter' };
  if (h.includes('registrar')) return { component: 'node-driver-registrar', source: 'node-driver-registrar' };
  if (/^liveness-?probe$/.test(h)) return { component: 'livenessprobe', source: 'livenessprobe' };
  if (h.includes('controller-manager')) return { component: 'kube-controller-manager', source: 'kube-controller-manager' };
  if (h.includes('scheduler')) return { component: 'kube-scheduler', source: 'kube-scheduler' };
  // (a node DaemonSet's pod or container named for its side, "vsphere-csi-node-tjchq", "csi-nodeplugin": the node plugin)
  if (/plugin|driver|csi/.test(h) && /(^|-)node(-|$)|nodeplugin|node-?server/.test(h)) return { component: 'csi-node-plugin', source: 'csi-driver' };
  if (/plugin|driver|csi/.test(h)) return { component: 'csi-plugin', source: 'csi-driver' };
  return null;
}

// ------------------------------------------------------------------ the compiled knowledge

interface CompiledFormat { capture: RegExp | null; names: string[]; msg: KnownMessage; profile: string; file: string; line: number; severity: Severity; strict: RegExp; loose: RegExp; literal: string; head?: string }
interface Compiled {
  byFileLine: Map<string, CompiledFormat[]>;
  byFile: Map<string, CompiledFormat[]>;
  all: CompiledFormat[];
  events: Map<string, KnownEventReason>;
  messages: Map<string, KnownMessage>;
}

const compiledCache = new WeakMap<Knowledge, Compiled>();

function compile(k: Knowledge): Compiled {
  const hit = compiledCache.get(k);
  if (hit) return hit;
  const c: Compiled = { byFileLine: new Map(), byFile: new Map(), all: [], events: new Map(), messages: new Map() };
  for (const msg of k.messages) {
    c.messages.set(msg.id, msg);
    for (const f of msg.formats) {
      let strict: RegExp;
      try { strict = new RegExp(f.pattern, 's'); } catch { continue; }
      let loose = strict;
      try { loose = new RegExp(f.loose, 's'); } catch { /* keep the strict one */ }
      let capture: RegExp | null = null;
      try { capture = new RegExp(f.capture, 's'); } catch { /* explanations keep their placeholders */ }
      const cf: CompiledFormat = { capture, names: f.names ?? [], msg, profile: f.profile, file: f.file, line: f.line, severity: f.severity, strict, loose, literal: f.literal, ...(f.head ? { head: f.head } : {}) };
      c.all.push(cf);
      const fl = `${f.file}:${f.line}`;
      (c.byFileLine.get(fl) ?? c.byFileLine.set(fl, []).get(fl)!).push(cf);
      (c.byFile.get(f.file) ?? c.byFile.set(f.file, []).get(f.file)!).push(cf);
    }
  }
  for (const e of k.events) c.events.set(e.reason, e);
  compiledCache.set(k, c);
  return c;
}

/** A structured klog record's message: a quoted text, then key=value pairs or nothing (klog's InfoS, ErrorS). */
const STRUCTURED_RECORD = /^"(?:[^"\\]|\\.)*"(?: [\w.-]+=|\s*$)/;

/** The best catalog message for a klog line's parts, from exact file:line down to the text alone. */
function identify(c: Compiled, p: { severity: Severity | null; file: string | null; line: number | null; message: string }, sourceHint: string | null): CompiledFormat | null {
  const text = p.message.length > MAX_LINE ? p.message.slice(0, MAX_LINE) : p.message;
  const lower = text.toLowerCase();
  const ok = (cf: CompiledFormat): boolean => !sourceHint || cf.msg.source === sourceHint || sourceHint === 'csi-driver' && cf.msg.source.startsWith('csi-driver');
  // (a template that is all argument, '{err}' at external-attacher v2's main.go:135, matches any text at its file:line; a
  // structured record there, "kubelet-registration-path is a required parameter" err=…, is another program's call)
  const structured = STRUCTURED_RECORD.test(text);
  const pick = (list: CompiledFormat[] | undefined, loose: boolean): CompiledFormat | null => {
    if (!list) return null;
    let best: CompiledFormat | null = null;
    for (const cf of list) {
      if (cf.literal && !lower.includes(cf.literal)) continue;
      if (!cf.literal && structured) continue;
      if (!(loose ? cf.loose : cf.strict).test(text)) continue;
      const better = !best || (ok(cf) && !ok(best)) || (ok(cf) === ok(best) && (cf.severity === p.severity) && best.severity !== p.severity)
        || (ok(cf) === ok(best) && (cf.severity === p.severity) === (best.severity === p.severity) && cf.literal.length > best.literal.length);
      if (better) best = cf;
    }
    return best;
  };
  if (p.file !== null) {
    // at its own file:line a structured line is that call even when its key/value pairs differ: the
    // pairs a logger carries depend on how it was handed on (csi-attacher's driver= only without
    // leader election, v4.6.1 main.go:168/:278), so the quoted message decides
    const atLine = c.byFileLine.get(`${p.file}:${p.line}`);
    const exact = pick(atLine, false) ?? pick(atLine, true);
    if (exact) return exact;
    // another line of the same file: only templates with enough literal text to be told apart
    const inFile = c.byFile.get(p.file) ?? [];
    const sameFile = inFile.filter((cf) => cf.literal.length >= 9);
    // a short template ('Attached %q', external-attacher's csi_handler.go at every release, at another
    // line each) only when the whole message is it: its strict regex is anchored at both ends
    const found = pick(sameFile, false) ?? pick(sameFile, true) ?? pick(inFile.filter((cf) => cf.literal.length >= 4 && cf.literal.length < 9), false);
    if (found) return found;
    // a line of that file cut where its arguments begin: "controller.go:281] Started PVC processing", its claim on the next line
    const cut = cutText(text);
    const headed = (list: CompiledFormat[] | undefined): CompiledFormat | null => list?.find((cf) => cf.head === cut && ok(cf)) ?? list?.find((cf) => cf.head === cut) ?? null;
    const cutAt = headed(atLine) ?? headed(inFile);
    if (cutAt) return cutAt;
  }
  // another version's line numbers, or no klog header at all: the text alone, literal first
  const byText = c.all.filter((cf) => cf.literal.length >= 9 && lower.includes(cf.literal));
  return pick(byText, false) ?? pick(byText, true);
}

// ------------------------------------------------------------------ keywords: the best guess for unknown lines

/** Stage from the words of a line we do not know (the same rules the cluster uses for generic lines). */
export function guessStage(text: string): Stage | null {
  return stageOfText(text);
}

/** A CSI request or response a line prints after saying so ("GRPC request: {…}", "create volume req: name:…"): the call its fields name. */
function printedPayloadStage(text: string): Stage | null {
  const m = /\b(?:request|response|req|resp)\s*[:=]\s*("?)(?=[{a-z])/i.exec(text);
  if (!m) return null;
  // (a logger's quoted value, req="volume_id:\"…\" node_id:\"…\"": the payload inside the quotes)
  if (m[1]) {
    const quoted = /^((?:[^"\\]|\\.)*)"/.exec(text.slice(m.index + m[0].length));
    return quoted ? stageOfPayload(`request: ${quoted[1]!.replace(/\\"/g, '"')}`) : null;
  }
  return stageOfPayload(text.slice(m.index));
}

/** The kubelet's Events about a pod's containers and sandbox (kubelet/events/event.go) */
const CONTAINER_EVENT = /^(Pulling|Pulled|Created|Started|Killing|BackOff|Failed|InspectFailed|ErrImageNeverPull|SandboxChanged|FailedCreatePodSandBox|FailedKillPod|Unhealthy|ProbeWarning|Preempting|ExceededGracePeriod)$/;

/**
 * The Events of kubernetes-csi/external-health-monitor (its controller on claims, its agent on pods: pkg/controller,
 * pkg/agent, reason VolumeConditionAbnormal, and VolumeConditionNormal once it recovers): a periodic check of a volume
 * that exists, no step of its life; and external-resizer's Events for a change of a volume's VolumeAttributesClass
 * (VolumeModify, VolumeModifySuccessful, VolumeModifyFailed; v1.11.1 pkg/util/events.go:24-26): no step the stages name
 * either, whatever their message says ("external resizer is modifying volume …" is no resize).
 */
const VOLUME_NO_STEP_EVENT = /^(VolumeCondition(Abnormal|Normal)|VolumeModify(Successful|Failed)?)$/;

/**
 * The workload controllers' Events about the objects they create and delete (ReplicaSet, Job, DaemonSet: controller_utils.go;
 * StatefulSet: stateful_pod_control.go, whose "create Claim … in StatefulSet … success" creates the claim object, which
 * the provisioner then provisions), the Deployment's scaling, a disruption budget's and an autoscaler's (disruption.go, horizontal.go),
 * and the cluster-autoscaler's about a pending pod ("pod didn't trigger scale-up: … unbound immediate PersistentVolumeClaims":
 * core/scaleup): none is a step of a volume's life, but the claims they create (workloadEventStage).
 */
const WORKLOAD_EVENT = /^(SuccessfulCreate|FailedCreate|SuccessfulDelete|FailedDelete|ScalingReplicaSet|NoPods|SuccessfulRescale|NotTriggerScaleUp|TriggeredScaleUp|ScaleDown)$/;
/**
 * (but a claim a workload controller created for its pod starts that claim's provisioning: the StatefulSet's "create Claim
 * data-0 Pod web-0 in StatefulSet web success", stateful_pod_control.go createPersistentVolumeClaims, an operator's "resource
 * type *v1.PersistentVolumeClaim successfully created"; a claim it failed to create, refused by a quota, is still no step)
 */
const workloadEventStage = (reason: string, message: string): Stage =>
  reason === 'SuccessfulCreate' && /\bcreate Claim \S+ Pod\b|\bPersistentVolumeClaim\b.* created\b/.test(message) ? 'provision' : 'other';

/** Files whose lines are plumbing (leader election, informers, gRPC dialing): never a storage stage. */
const NOISE_FILES = new Set([
  'leaderelection.go', 'leader_election.go', 'reflector.go', 'clientconn.go', 'shared_informer.go', 'round_trippers.go', 'healthz.go', 'leaderelection_metrics.go', 'metrics.go', 'flags.go',
  // grpc-go's own resolver and balancer (dialing a socket, whatever the call will be for), client-go's API warnings
  'passthrough.go', 'balancer_conn_wrappers.go', 'resolver_conn_wrapper.go', 'pickfirst.go', 'warnings.go',
  // kube-controller-manager's PV and PVC protection controllers: a finalizer added or removed, an object processed; no
  // step of a volume's flow (no component of the corpus README's table either)
  'pv_protection_controller.go', 'pvc_protection_controller.go',
  // (secrets-store-csi-driver's secret-sync controller, copying objects a volume mounted into Kubernetes Secrets: "reconcile
  // started" spcps=…, "failed to create Kubernetes secret"; pkg/controllers/secretproviderclasspodstatus_controller.go)
  'secretproviderclasspodstatus_controller.go',
  // kube-controller-manager's and the kubelet's loops that are not about volumes: pods, replicas, probes
  'gc_controller.go', 'replica_set.go', 'deployment_controller.go', 'daemon_controller.go', 'endpoints_controller.go', 'garbagecollector.go', 'graph_builder.go',
  'prober_manager.go', 'prober.go', 'kuberuntime_manager.go', 'kuberuntime_container.go',
  // (the deployment controller's progress checks; the kubelet's admission by its topology, CPU and memory managers and its
  // pod start-up latency metric: a pod's life, whatever volumes it has)
  // (and the topology manager's scope, whose "RemoveContainer" is a container going, pkg/kubelet/cm/topologymanager/scope.go)
  'progress.go', 'topology_manager.go', 'scope.go', 'cpu_manager.go', 'memory_manager.go', 'pod_startup_latency_tracker.go', 'container_manager_linux.go',
  // (the kubelet's dead-container deleter, pkg/kubelet/pod_container_deletor.go: "Container … not found in pod's containers")
  'pod_container_deletor.go',
  // (the kubelet's eviction manager, pkg/kubelet/eviction/eviction_manager.go: node pressure and the stats it reads, "Eviction
  // manager: failed to get summary stats")
  'eviction_manager.go',
  // (and its image garbage collector and the stats it reads of the image and container file systems, "[imageGCManager]:
  // Removing image …", pkg/kubelet/images/image_gc_manager.go; "Detect Split Filesystem", pkg/kubelet/stats/
  // cadvisor_stats_provider.go: an image's disk, no volume's)
  'image_gc_manager.go', 'cadvisor_stats_provider.go',
  // (the kubelet's iptables chains and hairpin mode, pkg/kubelet/kubelet_network*.go: "Failed to ensure that nat chain
  // KUBE-MARK-DROP exists")
  'kubelet_network.go', 'kubelet_network_linux.go',
  // (cAdvisor's container stats inside the kubelet, "conversion.go:133] failed to handle multiple devices for container")
  'conversion.go',
  // (the kubelet's docker runtime before CRI: a pod's sandbox and containers, "Determined pod ip after infra change")
  'docker_manager.go', 'docker_sandbox.go',
]);
/** The controller side never mounts: its "unpublish"/"publish" words mean detach/attach. */
function controllerSide(stage: Stage, text: string, component: string | null): Stage {
  // (and the node side never attaches: a node plugin's "attach" words, "Failed to verify volume attachment", "found
  // attached disk", are its staging's look for the device the controller attached, its "detach" ones the unstaging's)
  if (component === 'csi-node-plugin' && !/Controller(Un)?PublishVolume|ControllerServer|controller_?server/i.test(text)) {
    return stage === 'attach' ? 'mount' : stage === 'detach' ? 'unmount' : stage;
  }
  if (component !== 'csi-controller-plugin' && !/ControllerServer|controller_?server|controllerserver/i.test(text)) return stage;
  return stage === 'unmount' ? 'detach' : stage === 'mount' ? 'attach' : stage;
}

/**
 * The controller sidecars never register a plugin: a CSINode they read is the node an attach or a detach is
 * for (the external-attacher's csi_handler.go "Can't get CSINodeInfo …"); their other registration words are their own
 * start-up (informers, leader election).
 */
function sidecarSide(stage: Stage, component: string | null, operation: string | undefined): Stage {
  if (stage !== 'register') return stage;
  // (which operation it serves, the attach or the detach, its last lines said)
  if (component === 'external-attacher') return operation === 'detach' ? 'detach' : 'attach';
  return component === 'external-provisioner' || component === 'external-resizer' || component === 'external-snapshotter' ? 'other' : stage;
}

/**
 * A call of the CSI-Addons services a driver may serve besides CSI's (csi-addons/spec: replication, network fence, reclaim
 * space, volume group, key rotation, and their identity service), "GRPC call: /fence.FenceController/FenceClusterNetwork":
 * no step of a volume's life, nor are the lines the driver prints while serving it (ceph-csi's omap lookups, its ceph
 * commands).
 */
const CSI_ADDONS_CALL = /\/(?:replication\.Controller|fence\.FenceController|reclaimspace\.ReclaimSpace(?:Controller|Node)|volumegroup\.Controller|encryptionkeyrotation\.\w+|identity\.Identity)\/(\w+)/;
const ADDONS = 'csi-addons/';
/** The call a request's fields name without doubt, by the stage they give (stageOfPayload). */
const CALL_OF_PAYLOAD: Partial<Record<Stage, string>> = { provision: 'CreateVolume', delete: 'DeleteVolume', attach: 'ControllerPublishVolume', detach: 'ControllerUnpublishVolume' };

/**
 * A driver's own line inside a call it logged serves that call:
 * - in a teardown (NodeUnpublishVolume, NodeUnstageVolume, ControllerUnpublishVolume) it speaks of the mount or
 *   attachment it is taking down: "Unable to find PID of fuse mount …" is the unpublish's;
 * - a controller that mounts the backend to make or remove a volume's directory (the NFS and SMB drivers'
 *   "internally mounting …", controllerserver.go) to remove one does so for the DeleteVolume it serves (its
 *   mounts for a CreateVolume are read as the provisioning already: inferFromPaste);
 * - the other way, a publish or a stage undoing what it half did is that call's, a snapshot check inside DeleteVolume
 *   the deletion's, a mount read inside NodeExpandVolume the expansion's; and a CSI-Addons call's lines are none.
 */
function callSide(stage: Stage, call: string | undefined): Stage {
  if (!call) return stage;
  if (call.startsWith(ADDONS)) return 'other';
  if (stage === 'mount' && /^Node(Unpublish|Unstage)Volume$/.test(call)) return 'unmount';
  if (stage === 'attach' && call === 'ControllerUnpublishVolume') return 'detach';
  if ((stage === 'provision' || stage === 'mount' || stage === 'unmount' || stage === 'snapshot') && call === 'DeleteVolume') return 'delete';
  // (a node expansion reads the mount it grows, "NodeExpandVolume: … mounted at …": the expansion's)
  if ((stage === 'mount' || stage === 'unmount') && call === 'NodeExpandVolume') return 'resize';
  // (and the other way: a publish or a stage undoing what it half did, "Failed to unmount targetPath …" in Longhorn's
  // NodePublishVolume, the GCE PD driver's "Failed to unmount" after a failed mount in NodePublishVolume, is that call's)
  if (stage === 'unmount' && /^Node(Publish|Stage)Volume$/.test(call)) return 'mount';
  return stage;
}

/** Files whose every line is about one stage. */
const FILE_STAGE: Record<string, Stage> = {
  'plugin_watcher.go': 'register', 'plugin_manager.go': 'register', 'node_register.go': 'register', 'registration.go': 'register',
  // external-snapshotter's controllers do nothing but snapshots (their PVC finalizer protects a snapshot's source)
  'snapshot_controller.go': 'snapshot', 'snapshot_controller_base.go': 'snapshot', 'snapshotter.go': 'snapshot',
  // mount-utils' mount_helper_common.go holds only CleanupMountPoint and its helpers: what it logs
  // ("Warning: … is not a mountpoint, deleting", "Unmounting …") is a teardown
  'mount_helper_common.go': 'unmount',
  // the kubelet's kubelet_volumes.go cleans up what pods that are gone left on disk (cleanupOrphanedPodDirs)
  'kubelet_volumes.go': 'unmount',
  // the attach/detach controller's node status updater writes the volumes attached to node.status.volumesAttached
  // (statusupdater/node_status_updater.go): the attach's bookkeeping, whatever else its lines say
  'node_status_updater.go': 'attach',
  // files whose every log line is one stage's, read at v1.20.5 and 1.36: the expand controller (pkg/controller/volume/expand),
  // the kubelet's node expansion (operationexecutor/node_expander.go; not mount-utils' resizefs_linux.go, whose NeedResize
  // drivers call while they stage),
  // and the provisioner library's PV store (sig-storage-lib-external-provisioner volume_store.go)
  'expand_controller.go': 'resize', 'node_expander.go': 'resize',
  'volume_store.go': 'provision',
};
/**
 * Files whose lines are one stage's where their words name none: the scheduler's volume binder
 * (scheduling/scheduler_binder.go, scheduler_assume_cache.go at v1.20.5; volumebinding/binder.go, volume_binding.go later)
 * places a pod's claims, but its lines also say what else the pod's node has (a CSINode, a topology), which decides first.
 */
const FILE_STAGE_UNDER_WORDS: Record<string, Stage> = {
  'scheduler_binder.go': 'provision', 'scheduler_assume_cache.go': 'provision', 'binder.go': 'provision', 'volume_binding.go': 'provision',
};
/** The PV controller's files (pkg/controller/volume/persistentvolume) */
const PV_CONTROLLER_FILE = /^pv_controller(_base)?\.go$/;
/** Files whose every line is their stage's even where its words say nothing of one ("Could not update node status …") */
const FILE_STAGE_OVER_WORDS = new Set(['node_status_updater.go']);
/**
 * Whether a line of a plumbing file (NOISE_FILES) is noise: not when it names the kubelet's operation, which it is then a
 * part of (kuberuntime_manager.go's "container start failed: CreateContainerConfigError: failed to prepare subPath for
 * volumeMount …", makeMounts' error). One answer for a record read alone and for the paste read around it.
 */
const noiseFileLine = (inNoiseFile: boolean, text: string): boolean => inNoiseFile && !stageOfOperation(text);
const NOISE_FILE_IN_LINE = new RegExp(` (${[...NOISE_FILES].map((f) => f.replace(/\./g, '\\.')).join('|')}):\\d+\\]`);
// (and the kubelet's volume manager starting, volume_manager.go "Starting Kubelet Volume Manager" and its populator's Run,
// desired_state_of_world_populator.go "Desired state populator starts to run", "Finished populating initial desired state of
// world": start-up, whatever the lines before them were about)
const NOISE_TEXT = /\b(Desired state populator starts to run|Finished populating initial desired state of world|Starting Kubelet Volume Manager|renewed lease|lease is held|attempting to acquire leader lease|successfully acquired lease|Trace\[\d+\]|scheme "[^"]*" not registered, fallback to default scheme|parsed scheme: "[^"]*"|feature gates:|proto: duplicate proto type registered|Throttling request took|Enabling (controller|node|group controller) service capability|Enabling volume access mode|Eviction manager:|\[imageGCManager\]|Failed to get the info of the filesystem with mountpoint|rotation reconciler|failed to rotate objects for pod)|\[rotation\] |"SyncLoop \(|\bSyncLoop \((probe|PLEG|ADD|UPDATE|DELETE|REMOVE|RECONCILE)\b|"SyncLoop (ADD|UPDATE|DELETE|REMOVE|RECONCILE)"|\[\d{2}\/\w{3}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "(GET|POST|PUT|PATCH|DELETE|HEAD) \S+ HTTP\/[\d.]+"|\[core\] \[(Channel|Server) #\d+|\bhttp: (multiple response\.WriteHeader calls|superfluous response\.WriteHeader call|TLS handshake error from)\b/i;
/**
 * A driver announcing itself as it starts, as the drivers modelled on kubernetes-csi's examples do ("Driver: %v " and
 * "Version: %s": csi-driver-host-path's NewHostPathDriver, csi-s3's Run, azurefile's Run), then csi-common's "Enabling
 * controller service capability: …" and "Enabling volume access mode: …" (NOISE_TEXT): start-up, whatever was printed
 * around it (a sidecar's own "Version:" line is known by its catalog, and keeps its stage)
 */
const DRIVER_BANNER = /\.go:\d+\] "?(Driver|Version): [\w.+-]+\s*"?$/;
/**
 * The kubelet's own Node object (kubelet.go getNodeAnyWay, kubelet_node_status.go registerWithAPIServer,
 * tryUpdateNodeStatus): the node looked up, registered, its status written. Not a step of a volume's flow, whatever a
 * line beside it was about (an API server that lost the node prints "node … not found" between volume lines).
 */
const KUBELET_NODE_FILE = /^kubelet(_node_status)?\.go$/;
const KUBELET_NODE_TEXT = /^"?(node \\?"[^"\\]+\\?" not found|Error getting node|Unable to register node|Attempting to register node|Successfully registered node|Error updating node status|Node became not ready|Using Node Hostname from cloudprovider|Failed to check if disk space is available|Housekeeping took longer than expected)/i;
/**
 * The Events whose message users paste alone, without the event's columns, and the message each begins with. The
 * kubelet's and the attach/detach controller's operations record the short form of their error, "<Operation>.<Step>
 * failed for volume "<pv>" : <error>" (operation_executor.go generateVolumeMsg, GenerateError: no UniqueName, pod or
 * node, which their log lines carry); the kubelet's timeout, the Multi-Attach refusal, the provisioner's and the PV
 * controller's messages are their own (kubelet.go, reconciler.go reportMultiAttachError, external-provisioner
 * controller.go, pv_controller.go).
 */
const EVENT_MESSAGES: ReadonlyArray<[RegExp, string]> = [
  [/^AttachVolume\.Attach failed for volume "[^"]*" : /, 'FailedAttachVolume'],
  [/^Multi-Attach error for volume "[^"]*" Volume is already (exclusively attached|used by pods?)\b/, 'FailedAttachVolume'],
  [/^AttachVolume\.Attach succeeded for volume "[^"]*"\s*$/, 'SuccessfulAttachVolume'],
  [/^MapVolume\.\w+ failed for volume "[^"]*" : /, 'FailedMapVolume'],
  [/^MountVolume\.\w+ failed for volume "[^"]*" : /, 'FailedMount'],
  [/^MountVolume\.SetUp succeeded for volume "[^"]*"\s*$/, 'SuccessfulMountVolume'],
  [/^Unable to (attach or )?mount volumes( for pod "[^"]*")?: /, 'FailedMount'],
  [/^failed to provision volume with StorageClass "[^"]*": /, 'ProvisioningFailed'],
  [/^waiting for a volume to be created,? either by external provisioner "[^"]*" or manually created by system administrator$/, 'ExternalProvisioning'],
  // (its later wording, pv_controller.go:1837 at 1.36)
  [/^Waiting for a volume to be created either by the external provisioner '[^']*' or manually by the system administrator\b/, 'ExternalProvisioning'],
  [/^waiting for first consumer to be created before binding$/, 'WaitForFirstConsumer'],
  // (the scheduler's, schedule_one.go: "0/3 nodes are available: …")
  [/^\d+\/\d+ nodes are available: /, 'FailedScheduling'],
];

/**
 * What a deploy tool prints around the cluster's lines: Ansible's task headers, retries and per-host results, as
 * installers built on it (kubespray, kubeasz, KubeOperator) show them ("TASK [cluster-storage : …] ****",
 * "FAILED - RETRYING: … (9 retries left).", "fatal: [node1]: FAILED! => …").
 */
const ANSIBLE_OUTPUT = /^\s*((TASK|PLAY|RUNNING HANDLER) \[.*\]\s*\**\s*$|PLAY RECAP\b|FAILED - RETRYING: |(ok|changed|fatal|failed|skipping|unreachable): \[[^\]]+\])/;
/**
 * A Kubernetes object printed as JSON on one line, kubectl's last-applied-configuration annotation in a `describe`
 * ({"apiVersion":"v1","kind":"PersistentVolumeClaim",…}): an object's spec, no step, whatever kind it is.
 */
const OBJECT_JSON = /^\s*\{"apiVersion":"[^"]*","kind":"/;
/** a timestamp alone on its line: a UI that prints each Event's time above its message */
const STAMP_ALONE = /^\s*\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?\s*$/;
/**
 * The messages of Events posted without their reason, as a UI that lists messages only shows them, that are no volume's
 * step whatever they name: the workload controllers' (WORKLOAD_EVENT: "Created pod: %v", controller_utils.go; "Scaled up
 * replica set %s to %d", the deployment controller's; the StatefulSet's "create Pod … in StatefulSet … successful", not its
 * "create Claim …", which starts a claim's provisioning: workloadEventStage) and the
 * kubelet's about containers (CONTAINER_EVENT: "Back-off restarting failed container …", "Created container csi-provisioner",
 * "Container image \"…csi-provisioner…\" already present on machine"; kubelet/kuberuntime).
 */
const NO_STEP_MESSAGE = /^(Created pod: \S+|Deleted pod: \S+|Scaled (up|down) replica set \S+ (to|from) \d+( to \d+)?|create Pod \S+ in StatefulSet \S+ success(ful)?|Back-off restarting failed container\b.*|(Created|Started|Killing|Stopping) container \S+.*|Pulling image "[^"]*"|Successfully pulled image "[^"]*".*|Container image "[^"]*" already present on machine)\s*$/;
/**
 * What a node's journal says that is no volume's: journalctl -x's catalog text under an entry ("-- Subject: Unit
 * succeeded", "-- Defined-By: systemd", "-- Support: …"), systemd's mount units of container root file systems (the
 * runtime's overlay and rootfs mounts, "var-lib-containers-storage-overlay-….mount: Succeeded", and runc's own,
 * "run-containerd-runc-k8s.io-…-runc.KK81qm.mount: Deactivated successfully"), the kubelet's HTTP
 * server answering a stats scrape ("GET /stats/summary/: (95.9ms) 200 [[Go-http-client/1.1] …]", server.go), and SELinux
 * refusing a process the connection to a socket ("avc:  denied  { connectto } for … comm=\"csi-attacher\"
 * path=\"/csi/csi.sock\""): a sidecar connecting to its driver, as its "Still connecting to unix:///csi/csi.sock" is, names
 * the sidecar, not a step of any volume.
 */
const NODE_NOISE = /^\s*-- (Subject|Defined-By|Support|Documentation): |\bavc:\s+denied\s+\{ connectto \}.*\bpath="[^"]*\.sock"|\b(var-lib-containers-storage-overlay|var-lib-docker-overlay2|run-containerd-io\.containerd|run-containerd-runc|run-k3s-containerd|run-docker-runtime)\S*\.mount\b|\b(GET|POST) \/(stats|metrics|healthz|pods|spec)\b\S*: \([\d.]+(ms|µs|s)\) \d{3}\b/;
/**
 * Kata Containers' shim, whose records name it and its package ("level=warning msg=\"Could not umount\" error=… host-path=…
 * name=containerd-shim-v2 … source=virtcontainers"): the container runtime's own mounts into its sandbox and their
 * rollback, no step of a volume's flow, whatever the msg says (as runc's and CRI-O's errors: stage.ts)
 */
const SANDBOX_RUNTIME = /\bname=containerd-shim-v2\b|\bsource=(virtcontainers|katautils)\b/;
/**
 * A test runner's own lines around what it tested: go test's ("=== RUN TestX", "--- FAIL: TestX (15.43s)") and Ginkgo's
 * summary ("Summarizing 3 Failures:", "[FAIL] External Storage [Driver: …] … [It] should …"), and kubectl's refusal of
 * the command it was given ("Error from server (BadRequest): a container name must be specified …"), but for the API
 * server's refusal of a claim's size, read by its words: a LimitRange's "minimum storage usage per PersistentVolumeClaim
 * is 1Gi, but request is …" (plugin/pkg/admission/limitranger), a growth "only dynamically provisioned pvc can be resized
 * and the storageclass that provisions the pvc must support resize" (plugin/pkg/admission/storage/persistentvolume/resize).
 */
const RUNNER_LINE = /^\s*(=== (RUN|PAUSE|CONT)\s|--- (FAIL|PASS|SKIP): \S+|\[(FAIL|FAILED|PANICKED)\] .*\[It\]|Summarizing \d+ Failures?:|Error from server \([A-Za-z]+\): (?!.*\b(only dynamically provisioned pvc|storage usage per PersistentVolumeClaim)\b)|panic: test timed out after \S+$)/;
const eventOfMessage = (message: string): string | undefined => EVENT_MESSAGES.find(([re]) => re.test(message))?.[1];

/**
 * An Event's message pasted alone, without its columns ("AttachVolume.Attach failed for volume "pvc-…" : rpc error: …"),
 * read as words so far, is that Event: a record of its reason, with its severity, explanation and cause, so that the
 * summary says the flow stopped there. Its stage stays what the reading gave it where its words gave one (else its
 * reason's), and so does everything around it (the last pass: a line read as an Event earlier would take the next lines
 * as its continuation).
 */
function eventMessagesAlone(out: ExplainedLine[], c: Compiled): void {
  for (let i = 0; i < out.length; i++) {
    const l = out[i]!;
    if (l.kind !== 'unrelated' || (l.match !== 'guess' && l.match !== 'none')) continue;
    // (a message after its Event's From column, "persistentvolume-controller  waiting for first consumer …": the message)
    const message = stripPrefixes(l.text).rest.trim().replace(/^[a-z][\w-]*(, [\w.-]+)?\s{2,}(?=\S)/, '');
    const reason = eventOfMessage(message);
    const known = reason ? c.events.get(reason) : undefined;
    if (!reason || !known) continue;
    const e = knownEvent(c, known, message);
    // (a message whose words gave no stage takes its reason's: "waiting for first consumer to be created before binding")
    const stage = l.match === 'none' || l.stage === 'other' ? knownEventStage(reason, known, message) : l.stage;
    out[i] = {
      ...l, stage, kind: 'event', component: known.component, source: 'events', step: e.step, severity: known.type === 'Warning' ? 'W' : 'I', messageId: reason,
      ...e.said, explanation: e.said.explanation + T.eventMessageAlone(known.type, reason),
    };
    // (a Ceph tool's log lines right under it, and what they run on to, are the stderr its error carries, as under a
    // record with its header: "2024-12-30T14:25:53.873+0000 70c869e44000 -1 failed for service _ceph-mon._tcp")
    for (let j = i + 1, inCeph = false; j < out.length; j++) {
      const piece = out[j]!.kind === 'continuation';
      if (piece ? !inCeph : !CEPH_LOG.test(out[j]!.text)) break;
      inCeph = true;
      out[j] = continuing(out[i]!, j + 1, out[j]!.text);
    }
    // (and the prefixed lines of a tool's output it quotes, "… rbd: map failed exit status 2, rbd output: modinfo: ERROR: …" and
    // then "modprobe: FATAL: Module rbd not found.", "rbd: sysfs write failed": under a record with its header they continue it
    // as lines that start lower case)
    if (/\boutput:/i.test(message)) for (let j = i + 1; j < out.length && out[j]!.kind === 'unrelated' && TOOL_OUTPUT_LINE.test(out[j]!.text); j++) out[j] = continuing(out[i]!, j + 1, out[j]!.text);
  }
}

/**
 * The stage of an Event of a known reason: a workload controller's (whatever object it created: "create Claim … success")
 * or a volume health monitor's is no volume's step; a reason of no stage of its own (FailedScheduling) takes the one its
 * message's words say ("unbound … PersistentVolumeClaims"); the others the operation their message names, which refines
 * the reason's (FailedMount also reports the expansion a mount runs, "MountVolume.Setup failed while expanding volume",
 * operation_generator.go).
 */
function knownEventStage(reason: string, known: KnownEventReason, message: string): Stage {
  if (WORKLOAD_EVENT.test(reason) || VOLUME_NO_STEP_EVENT.test(reason)) return workloadEventStage(reason, message);
  return known.stage === 'other' ? guessStage(message) ?? 'other' : stageOfOperation(message) ?? known.stage;
}

/**
 * What an Event of a known reason says, its message read too: a Multi-Attach or an attacher timeout inside
 * FailedAttachVolume is a message of its own, whose step, explanation, cause and next step refine the reason's.
 */
function knownEvent(c: Compiled, known: KnownEventReason, message: string): { step: StepRef | null; said: Pick<ExplainedLine, 'match' | 'explanation' | 'cause' | 'next'> } {
  const inner = identify(c, { severity: null, file: null, line: null, message }, null);
  return {
    step: inner?.msg.step ?? known.step ?? null,
    // (the fields that end an explained line, in its order: the JSON output's)
    said: {
      match: 'event', explanation: known.explanation + (inner ? ` ${renderExplanation(inner.msg, valuesOf(inner, message))}` : ''),
      ...(known.cause || inner?.msg.cause ? { cause: inner?.msg.cause ?? known.cause } : {}), ...(known.next || inner?.msg.next ? { next: inner?.msg.next ?? known.next } : {}),
    },
  };
}

/**
 * What `multipath -ll` prints of a map: its name, WWID and dm device ("mpathb (3618cf2…) dm-12 HUAWEI  ,XSG1"), its size and
 * features ("size=100G features='0' hwhandler='0' wp=rw"), its path groups ("`-+- policy='service-time 0' prio=1
 * status=active") and paths ("  |- 39:0:0:1 sdi 8:48 failed faulty running"): a command's answer about the node's disks.
 */
const MULTIPATH_OUTPUT = /^(\s*\S+ \([0-9a-f]{16,}\) dm-\d+ \S|\s*size=\S+ features='[^']*' hwhandler=|[|`\s]*[|`]-\+- policy='|[|`\s]*[|`]- \d+:\d+:\d+:\d+\s+sd\w+\s+\d+:\d+\s+(active|failed)\b)/;
/**
 * An SELinux audit record (auditd's "type=AVC … avc: denied { relabelto } … comm=\"frigate.output\"", its "type=SYSCALL …
 * exe=\"/usr/bin/python3.11\"") of a process that is not one of the node's storage or container tools: an application denied
 * its own files, no step of a volume (a denial of mount, containerd relabelling or iscsiadm is the step those run).
 */
function applicationAudit(text: string): boolean {
  if (!/\btype=(AVC|SYSCALL)\b|\bavc:\s+denied\b/.test(text)) return false;
  const proc = /\bcomm="([^"]+)"/.exec(text)?.[1] ?? /\bexe="(?:[^"]*\/)?([^"/]+)"/.exec(text)?.[1];
  return proc !== undefined && !STORAGE_PROCESS.test(proc);
}
// (a name anywhere in the command: the kernel cuts comm to 15 characters, "aws-ebs-csi-dri", and runc's init is "runc:[2:INIT]")
const STORAGE_PROCESS = /mount|containerd|runc|crun|conmon|crio|dockerd|kubelet|k3s|iscsi|multipath|mkfs|mke2fs|fsck|blkid|resize2fs|xfs_|rbd|ceph|nfs|rpc\.|csi|plugin|driv|fuse|s3fs|goofys|rclone|juicefs|lvm|zfs|zpool|nvme|losetup|cryptsetup/i;

/**
 * A tool that prints each line of a pod's log behind the time and the pod's name ("22:51:53 pmem-csi-node-k2rsl
 * NodeStageVolume: …", a test harness's or a log viewer's stream): a line behind a time and the same source as the record before it
 * is a record of its own, not a piece of that one.
 */
const TIMED_SOURCE = /^\s*(\d{1,2}:\d{2}:\d{2}(?:\.\d+)?)\s+([a-z0-9][a-z0-9.-]*[a-z0-9])\s+\S/;
function sameTimedSource(text: string, headText: string): boolean {
  const a = TIMED_SOURCE.exec(text);
  return a !== null && TIMED_SOURCE.exec(headText)?.[2] === a[2];
}

/** A row of the node's mount table, as `mount` or /proc/mounts prints it ("udev on /tmp/csi-lvm/pvc-… type devtmpfs (rw,…)"): a command's output, a record of its own. */
const MOUNT_TABLE = /^\s*\S+ on \/\S* type [\w.]+ \([^)]*\)(?:\s*`)?\s*$/;
/** A row of `df -h` (Filesystem, Size, Used, Avail, Use%, Mounted on): a command's answer about the node's file systems. */
const DF_ROW = /^\s*\S+\s+\d+(?:[.,]\d+)?[KMGTPE]?i?\s+\d+(?:[.,]\d+)?[KMGTPE]?i?\s+\d+(?:[.,]\d+)?[KMGTPE]?i?\s+\d{1,3}%\s+\/\S*\s*$/;
/**
 * The kernel's OOM killer: a process that "invoked oom-killer", the task table it dumps ("[3820126]  0 3820126  29598 …
 * -997 mount.efs"), the process it killed: memory pressure on the node, no step of a volume, whichever helper it killed.
 */
const OOM_KILLER = /\binvoked oom-killer\b|\bOut of memory: Kill(ed)? process\b|\boom-kill:constraint=|\bMemory cgroup out of memory\b|\boom_reaper: reaped process\b|^\s*(\[[^\]]*\]\s*)?\[\s*\d+\]\s+\d+\s+\d+(\s+\d+){5,}\s+-?\d+\s+\S+\s*$/;

/** A CSI node plugin's server file (nodeserver.go, node_server.go, node.go), and a line that names a pod (not only its UID). */
const NODE_SERVER = 'node(_?server)?\\.go';
const NODE_SERVER_FILE = new RegExp(`^${NODE_SERVER}$`, 'i');
/** the same file in a klog header left in a line's text ("nodeserver.go:300]") */
const NODE_SERVER_IN_LINE = new RegExp(`\\b${NODE_SERVER}:\\d+\\]`, 'i');
const NAMES_POD = /\bpod(Name)?="[^"]+"|\bpod(Name)?=[\w.-]+\/?[\w.-]*|csi\.storage\.k8s\.io\/pod\.name/;

/** Component from a Go file name, where it is telling. */
const FILE_COMPONENT: Record<string, string> = {
  'attach_detach_controller.go': 'attach-detach-controller', 'pv_controller.go': 'pv-controller', 'pv_controller_base.go': 'pv-controller',
  'operation_generator.go': 'kubelet', 'nestedpendingoperations.go': 'kubelet', 'reconciler_common.go': 'kubelet', 'volume_manager.go': 'kubelet',
  'desired_state_of_world_populator.go': 'kubelet', 'csi_attacher.go': 'kubelet', 'csi_mounter.go': 'kubelet', 'csi_plugin.go': 'kubelet',
  'kubelet.go': 'kubelet', 'kubelet_node_status.go': 'kubelet', 'pod_workers.go': 'kubelet', 'plugin_watcher.go': 'kubelet',
  'csi_handler.go': 'external-attacher', 'node_register.go': 'node-driver-registrar', 'csi_resizer.go': 'external-resizer',
};

function guessComponent(file: string | null, text: string, stage: Stage): string | null {
  if (file && FILE_COMPONENT[file]) return FILE_COMPONENT[file]!;
  if (/attacherDetacher|attach_detach|Multi-Attach error/.test(text)) return 'attach-detach-controller';
  // (a node's paths in it, the kubelet's pod or plugin directories, say the node plugin: a controller call never names them;
  // so does a mount that failed, "failed to mount objects")
  if (/GRPC (call|request|response|error)/.test(text)) return /Node(Stage|Publish|Unstage|Unpublish|GetInfo|GetCapabilities|Expand)|\/var\/lib\/kubelet\/(pods|plugins)\/|\b(staging_)?target_?path\b|\bfailed to (un)?mount\b|\b(un)?mount failed\b/i.test(text) ? 'csi-node-plugin' : 'csi-controller-plugin';
  if (/MountVolume|UnmountVolume|UnmountDevice|volumesInUse/.test(text)) return 'kubelet';
  if (stage === 'register' && /registration|registrar/i.test(text)) return 'node-driver-registrar';
  return null;
}

// ------------------------------------------------------------------ event tables

const DESCRIBE_ROW = /^\s*(Normal|Warning)\s+([A-Z][A-Za-z]+)\s+(\S+(?:\s\(x\d+\sover\s\S+\))?)\s+(.+?)\s{2,}(\S.*)$/;
const DESCRIBE_ROW_SHORT = /^\s*(Normal|Warning)\s+([A-Z][A-Za-z]+)\s+(\S+(?:\s\(x\d+\sover\s\S+\))?)\s+(\S.*)$/;
/** an Event pasted as its reason and message only ("ExternalProvisioning    Waiting for a volume …"): a known reason, two spaces */
const REASON_ROW = /^\s*([A-Z][a-z]+(?:[A-Z][a-z]*)+)\s{2,}(\S.*)$/;
/** the e2e framework's event dump ("INFO: At 2022-01-23 03:17:32 +0000 UTC - event for pvc-x: {source } Reason: message") */
const E2E_EVENT = /\bevent for \S+: \{[^}]*\} ([A-Z][A-Za-z]+): (.*)$/;
/**
 * kubectl describe's Events before 1.14 (FirstSeen LastSeen Count From SubObjectPath Type Reason Message) and rows
 * whose columns a post turned into tabs: the first column is an age, then Type, Reason and Message; as GET_EVENTS_ROW's groups
 * (a reason as wide as its column, "FailedMount", leaves one space before the message)
 */
const OLD_EVENT_ROW = /^\s*(\S+)(?:\t+|\s{2,}).*?(?:\t+|\s{2,})(Normal|Warning)(?:\t+|\s{2,})([A-Z][A-Za-z]+)(?:\t+|\s{2,}| (?=\S))()(\S.*)$/;
const GET_EVENTS_ROW = /^\s*(\S+(?:\s\(x\d+\sover\s\S+\))?)\s+(Normal|Warning)\s+([A-Z][A-Za-z]+)\s+(\S+\/\S+)\s+(\S.*)$/;
// (the paste's own furniture: headings, table headers, prompts, separators; first, a hyphenated key alone on its line, the
// name heading a describe's volume, "registration-dir:", whatever the name says)
const DECORATION = /^\s*([a-z][a-z0-9]*(?:-[a-z0-9]+)+:|(pod|persistentvolumeclaim|persistentvolume|pvc|pv|storageclass(\.storage\.k8s\.io)?|volumeattachment(\.storage\.k8s\.io)?|deployment|statefulset)\/\S+\s{2,}.*|[A-Z][A-Za-z ]{1,40}:((\s{2,}|\t)\S.*|\s*)|Defaulted container .*|(Client|Server|Kustomize) Version: .*|STEP: (?!Event \[[A-Z]\w+\]: ).*|Ran \d+ of \d+ Specs? in [\d.]+ seconds|(SUCCESS|FAIL)! -- \d+ Passed \| \d+ Failed.*|(StorageClass|Claim|Reclaim Policy|Access Modes|VolumeMode|Capacity|Labels|Annotations|Finalizers|Namespace|Used By|Mounted By|Node Affinity|Required Terms): \S+|(❯|➜|%|>|PS [^>]*>) .*|error: (?!.*\b(method: |[A-Z]\w*(Volume|Snapshot)\b|only dynamically provisioned pvc\b|storage usage per PersistentVolumeClaim\b)).*|Events:\s*(<none>)?|Type\s+Reason\s+Age\s+From\s+Message|-{2,}(\s+-{2,})+|\|?\s*:?-{2,}:?(\s*\|\s*:?-{2,}:?)+\s*\|?|LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE|Filesystem\s+(Size|1K-blocks|1M-blocks|Type|Inodes)\s.*\bMounted on|NAME\s+MAJ:MIN\s.*|NAME\s+(READY|STATUS|CAPACITY|ATTACHER|PROVISIONER|DRIVER|SOURCE)\b.*|(NAMESPACE(\s{2,}|\t+))?NAME((\s{2,}|\t+)[A-Z][A-Z0-9()_-]*( [A-Z][A-Z0-9()_-]*)*){2,}|\s{4,}[\w.-]+\.[\w.-]+\/[\w.-]+: \S.*|\$ .*|#{1,6} .*|(\[[^\]]*\] |\([\w.-]+\) )?[\w.-]+@[\w.-]+:[^$#>]*[$#>] .*|[\w.-]+@[\w.-]+ ~?[^\s$#>]*( \([^)]*\))?> .*|([\w.-]+@[\w.-]+ )?[A-Z]:\\[^>]*>.*|Volume in drive [A-Z] (is|has no label).*|[a-z][a-z0-9-]*(\.[a-z0-9-]+)*\/v\d+((alpha|beta)\d+)?|(?<=^ {10,})[a-z0-9]([\w.-]*\/)?[\w.-]+=[\w.-]*|Volume Serial Number is [\dA-F]{4}-[\dA-F]{4}|Directory of [A-Z]:\\.*|[\w.-]+:[^\s$#>]* [\w.-]+[$#] .*|[\w.-]+:[~\/][^\s$#>]* # \S.*|```.*|\.\.\.|…|\[\s*(\.\.\.|…|snip(ped)?|truncated|omitted)\s*\]|(?![^\n]*[\u0370-\u04FF\u0590-\u06FF\u0900-\u0E7F\u3040-\u30FA\u30FC-\u30FF\u3400-\u9FFF\uAC00-\uD7AF])[^\w\s{}[\]()<>]+|[+-] \S+ › \S+|\d{1,6}|!\[[^\]]*\]\([^)]*\))\s*$/;
/**
 * What a shell session shows besides logs: a command line (a bracketed or bare prompt, or the command
 * itself, or a shell's trace of it: "+ kubectl …"; a look at the node's disks and mounts alone on its line: "df -HT", "lsblk";
 * an unmount done by hand, "umount /var/lib/kubelet/pods/…"), a `kubectl get pods` row, a `ps` row (busybox's too, whose
 * columns may be only PID, user and command, and the grep of a `ps | grep` among them), a prompt that is only the working
 * directory (busybox sh's "/ # "), kubectl's "… deleted/created/edited" answers.
 */
const SESSION = /^\s*`?(\[[^\]]*[@ ][^\]]*\][#$] .*|\S*[@\w]\S* [^$#]{0,60}[$#%>]\]? ?(kubectl|oc|helm) [\w-]+\b.*|\s*- [\w.-]+\.(kubernetes\.io|k8s\.io|openshift\.io)\/[\w-]*(finalizer|protection)|(sudo )?(df|lsblk|findmnt|blkid|lsof|ls|ll|dmesg|umount)( -{1,2}[A-Za-z-]+)*( [\/~.][\S]*)?|(sudo )?journalctl( -{1,2}[\w-]+(=\S+| (?!-)\S+)?)+|(sudo )?(nvme (connect|disconnect|list|discover)|iscsiadm -m) .*|(sudo )?multipath -ll?( .*)?|(sudo )?mount \| grep .*|(\+ )?([\w.-]+%\s*|[\w.-]+ |[^\w\s`]{1,3} ?)?(kubectl|k|kc|oc|sudo|crictl|journalctl|helm) ([\w-]+ |--?[\w-]+(=\S+| (?!-)\S+)? )?(logs|get|describe|delete|apply|create|edit|exec|-n|--namespace|-c|-f|-u|ps|inspect|rollout|patch|label|install|upgrade|uninstall|template)\b.*|(\+ )?([\w.-]+%\s*|[\w.-]+ |[^\w\s`]{1,3} )?(kubectl|oc)( --?[\w-]+(=\S+| [\w:.-]+)?)* (adm|drain|cordon|uncordon|taint|scale|wait|debug|annotate|top)\b.*|(\$ )?(gcloud|aws|az|doctl|hcloud|openstack|ibmcloud|oci) [a-z][\w-]* [a-z][\w-]*( .*)?|\S+\s+\d+\/\d+\s+(Running|Pending|CrashLoopBackOff|ContainerCreating|Completed|Error|Terminating|Init:\S+|ImagePullBackOff|ErrImagePull|Unknown|Evicted)\s+\d+.*|\d+\s+\S+\s+([SRDZTIsl<NL+]+\s+)?(\d+:\d+\s+)?(\/\S*|grep)( .*)?|[\/~][\w\/.-]* [$#]( .*)?|~[\w\/.-]*[$#] .*|[\w.-]+:[~\/][\w\/.-]*\$ .*|[\w.-]+@[\w.-]+(:[^\s$#>]*)?[$#]|[\w.-]+(\/[\w.-]+)?( "[^"]+")? (deleted|created|configured|unchanged|patched|labeled|annotated|edited|replaced|scaled|restarted|cordoned|uncordoned|drained|evicted|tainted|untainted))\s*$/;
/**
 * What kubectl prints of objects, not what a program logged: an object's field as YAML ("    type:
 * FileSystemResizePending", "  message: >-"), a container's mount in `describe pod` ("/var/run/secrets from token
 * (ro)"), a row of a `get` table (columns three spaces apart or more; not `get events`, whose rows are Events), a
 * container's command-line flag in `describe`
 * ("--kubelet-registration-path=…"); and a field of a pretty-printed JSON document on its own line, other than the
 * record's message ('  "pod_name": "csi-attacher-…",', '"labels": {': a log store's hit around the line it holds), and not
 * a piece of a compact one, whose next key follows a comma with no space ('"access_mode":{"mode":1}},"volume_id":…': a
 * wrapped GRPC request, which continues its record); and the API server's diff of an object it refused to update, as go-cmp
 * prints it under the error ("  core.PersistentVolumeClaimSpec{", "- \tStorageClassName: &\"rook-ceph-block\",", "  \t... // 2
 * identical fields"). A line with its own time stamp is a log record whatever it reads like.
 */
const PRINTED_OBJECT = /^\s*((?!.*"(msg|message|log|level|error|err)":)(?!.*[}\]"\d],"[\w.@-]+":)"(?!(msg|message|log|error|err|reason|description)")[\w.@-]+(\/[\w.@-]+)?":\s*(["{[\d]|true|false|null).*|(- )?(type|status|message|reason|lastProbeTime|lastTransitionTime|lastHeartbeatTime|phase|capacity|accessModes|conditions|allocatedResources|resizeStatus|storage|apiVersion|kind|metadata|name|namespace|uid|resourceVersion|creationTimestamp|generation|spec|source|count|firstTimestamp|lastTimestamp|eventTime|reportingComponent|reportingInstance|involvedObject|component|host|selfLink|labels|annotations|finalizers|volumeName|volumeHandle|driver|storageClassName|volumeMode|resources|requests|limits|claimRef|nodeName|fsType|readOnly|attacher|attached|time):( .*)?|[\w.@:/-]+( {3,}[^\s]+(?: [^\s]+)*){3,}|[\w.@:/-]+ {3,}[^\s]+(?: [^\s]+)*( {3,}[^\s]+(?: [^\s]+)*){2,}( {2,}[^\s]+(?: [^\s]+)*)+|--[\w-]+(=\S*)?|(- )?[a-z]+(?:[A-Z][a-z0-9]*)+:( \S+)?|\/\S* from [\w.-]+ \((rw|ro)\b[^)]*\)|[a-z]+\.[A-Z]\w*\{|[-+]? ?\t(\.\.\. \/\/ \d+ identical \w+|[A-Z]\w*: .*,))\s*$/;

// ------------------------------------------------------------------ explain

/** Whether a line begins a log record of its own (so it cannot continue the previous one). */
function startsRecord(line: string): boolean {
  return KLOG_ANYWHERE.test(line.slice(0, 160)) || KLOG_HEADERLESS.test(line) || JOURNALD.test(line) || JOURNALD_ISO.test(line) || CRI.test(line) || line.startsWith('{"log":')
    // (and a Ginkgo test's "STEP: …" between the records of the component it tests)
    // (a logfmt record indented by the post, as a Markdown code block or a quote, is one still)
    // (and an Event's message posted alone, whose reason we know, "0/1 nodes are available: …": no piece of the line above)
    || eventOfMessage(line.trim()) !== undefined
    // (and a test runner's own line, "--- FAIL: TestAttacherWithCSIDriver (15.43s)": no piece of the record before it)
    || RUNNER_LINE.test(line)
    // (and a logfmt or JSON record behind a log tailer's bare "pod container " prefix, stern's default: "csi-do-node-mv4pf
    // csi-do-plugin time=\"…\" level=info …")
    // (and logrus's text formatter on a terminal, "INFO[0030] Waiting for deletion of … pod": a record a line)
    || /^\s*time="|^\s*(level|lvl|ts)=\S+ |^\s*(TRAC|DEBU|INFO|WARN|ERRO|FATA|PANI)\[[\w:.+-]+\] |^\s*STEP: |^[a-z0-9][a-z0-9.-]*-[a-z0-9]{1,10} [a-z0-9][a-z0-9.-]* (time="|level=\w+ |\{")/.test(line) || CLOUD_LOGGING.test(line) || /^\s*(Normal|Warning)\s+[A-Z]/.test(line) || GET_EVENTS_ROW.test(line) || OLD_EVENT_ROW.test(line) || JSON_RECORD.test(line) || LEADING_STAMP.test(line)
    // (and the kernel's, as dmesg -T prints it: "[Fri Apr 28 09:11:23 2023] scsi host19: …" (not its seconds since boot,
    // "[19233.677582] …": read as a record's start, it cost a held-out line its stage and gained none); and grpc-go's logger, whose components prefix
    // their lines: "[core] grpc: addrConn.createTransport failed …", grpclog/component.go)
    || /^\s*\[(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}\] \S|^\s*\[(core|transport|channelz|balancer|xds)\] \S/.test(line)
    // (and an HTTP server's access log in the Common Log Format, "10.0.0.7 - - [11/Apr/2023:09:13:25 +0000] \"POST /v1/register
    // HTTP/1.1\" 200 0": a request a line)
    || /^\s*\S+ \S+ \S+ \[\d{2}\/\w{3}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "/.test(line)
    // (and Python's logging in its basicConfig format, "ERROR:grpc._server:Exception calling application: …", a Python driver's)
    || PYTHON_LOGGING.test(line)
    // (and a Java logger's, logback's default pattern: "17:16:50.675 [grizzly-http-server-1] INFO  LINSTOR/Controller - …")
    || /^\s*\d{2}:\d{2}:\d{2}[.,]\d{3} \[[^\]]+\] (TRACE|DEBUG|INFO|WARN|ERROR)\b/.test(line)
    // (and klog's structured record with its header cut off, "\"unable to get node list\" error=\"…\"": a quoted message and its
    // key=value pairs, a record a line)
    || /^\s*"(?:[^"\\]|\\.)+" [\w.-]+=/.test(line)
    // (and a shell prompt with its command, "$ sudo losetup -a", "root@node:~# lsblk", a container's "sh-4.4# rbd info …":
    // what follows is that command's output, no piece of the record before it, however that record's text was left open)
    || SHELL_PROMPT.test(line);
}
const TOOL_OUTPUT_LINE = /^\s*(modprobe|modinfo|rbd|rbd-nbd|u?mount(\.\w+)?|mkfs(\.\w+)?|mke2fs|e2fsck|fsck(\.\w+)?|xfs_repair|iscsiadm|multipath|blkid|losetup|nvme): /;
const PYTHON_LOGGING = /^\s*(DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]+:\S/;
const SHELL_PROMPT = /^\s*(\$|❯|➜) \S|^\s*[\w.-]+@[\w.-]+(:[^\s$#>]*)?\s?[$#] \S|^\s*(ba)?sh-\d+(\.\d+)?[$#] \S/;

/** a post's caption over what it pasted, at the start of its line ("Pod (with PVC mount) events:"), not a traceback's heading */
const CAPTION = /^(?!Traceback\b)[A-Z][\w ()/,'-]{2,60}:\s*$/;
/**
 * A cell of an Events table copied on its own line (a web console's event cards put each field on a line): a column's
 * title ("Source", "Count"), or the From column, a reporting controller with or without its node ("kubelet pool-18f82-krhyi",
 * "attachdetach-controller").
 */
/** The HTML a post wraps a log in (a collapsed section: "<details>", "</details>", "<summary>…</summary>", "<pre>"). */
const HTML_WRAPPER = /^\s*<\/?(details|summary|pre|code|p|div|br)\b[^>]*>(.{0,80}<\/(summary|code|p)>)?\s*$/i;
/**
 * A tool asked its version ("kbcli version", "helm version --short") and its report, a name and a version on each
 * line ("Kubernetes: v1.26.7-gke.500", "Client Version: v1.28.2"): the post's setting, not a log (unless it goes on a
 * record's multi-line output: "FUSE library version: 2.9.7" inside a mount's).
 */
const VERSION_REPORT = /^\s*(\$ )?[a-z][\w.-]* (version|--version|-v)( --?[\w-]+)*\s*$|^\s*[A-Za-z][\w .()/-]{0,40}:\s+v?\d+\.\d+(\.\d+)?([-+.][\w.+-]*)?\s*$/;
const EVENT_CELL = /^\s*(Source|Count|Message|Reason|Type|Age|From|Object|Sub-?object|First ?Seen|Last ?Seen|(kubelet|default-scheduler|attachdetach-controller|persistentvolume-controller|persistentvolume-expander|volume_expand)(,?\s+[\w.-]+)?)\s*$/;
/** a klog header whose message went to the next line ("E0811 09:17:42.907060   14694 nestedpendingoperations.go:301] ") */
const KLOG_HEADER_ALONE = /\b[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [\w.-]+\.go:\d+\]\s*$/;
const CEPH_LOG = /^\s*\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d\.\d{3,6}([+-]\d{4})? [0-9a-f]{8,16} +-?\d+ \S/;
/**
 * What a Prometheus endpoint answers, "kubelet_volume_stats_used_bytes{namespace=\"default\",persistentvolumeclaim=\"data\"}
 * 4.9381376e+07" and its "# HELP"/"# TYPE" lines (the exposition format; the web console's table puts a "|" before the
 * value): a measurement the post shows, not a log record, whatever its labels name. A sample needs its labels or a name
 * with an underscore: "tatus 32", a wrapped record's piece, and "size: 2147483648", a field, are no samples.
 */
const PROMETHEUS_SAMPLE = /^\s*(# (HELP|TYPE) [a-zA-Z_:][\w:]* .*|([a-zA-Z_:][\w:]*\{[^}]*\}|[a-zA-Z_:][\w:]*_\w+)\s+(\|\s*)?[-+]?(\d+(\.\d*)?([eE][-+]?\d+)?|NaN|Inf)(\s+\d+)?)\s*$/;
const MOUNT_UTILS_TAIL = /^\s*(Mounting command|Mounting arguments|Unmounting arguments|Output):/;
/**
 * HashiCorp Vault's API error inside the error of a driver that keeps its keys there (ceph-csi's KMS, a secrets provider):
 * "Error making API request.", a blank line, "URL: PUT https://…/login", "Code: 400. Errors:", a blank line, "* invalid role
 * name …" (vault api/response.go Error): its lines, across the blank lines it prints, are the record's.
 */
const VAULT_ERROR_PIECE = /^\s*(URL: (GET|PUT|POST|DELETE|LIST|PATCH|HEAD) https?:\/\/\S+|Code: \d{3}\. Errors:)\s*$/;
/** the line of a Vault error after which, and a blank line, it lists its errors */
const VAULT_ERRORS_FOLLOW = /^\s*Code: \d{3}\. Errors:\s*$/;

/**
 * HashiCorp's hclog (Vault, its CSI provider) prints a value of several lines after its record: the key alone ("  err="), then
 * each line of the value behind a bar ("  | error making mount request: …", "  |", "  | Code: 503. Errors:"): the record's.
 */
const HCLOG_VALUE_KEY = /^\s{1,4}[\w.-]+=\s*$/;
const HCLOG_VALUE_LINE = /^\s{1,4}\|(\s.*)?$/;

/** A JSON logger's record (logrus, zap, klog's JSON format): one object per line, with a message or a level. */
const JSON_RECORD = /^\s*(>\s*)?\{"[\w.@-]+":.*"(msg|message|level|severity|ts|time|caller)":/;

const TERMINAL_WIDTHS = new Set([80, 90, 100, 110, 120, 128, 132, 140, 150, 160, 170, 180, 190, 200, 210, 220, 230, 240, 250, 256]);

/**
 * What a summary says for a value the line does not carry (a line cut short, or another release's
 * wording): "volume the volume is unmounted from pod the pod" reads badly, so the summaries name
 * these values in a way that reads without them ("the volume", "the pod").
 */

function renderExplanation(msg: KnownMessage, values: Record<string, string> = {}): string {
  const { text, unknown } = fillSummary(msg, values);
  return msg.explain && unknown ? msg.explain : msg.explain ? `${text}${T === TEXT.zh ? '' : ' '}${msg.explain}` : text;
}

/** A message's summary with its placeholders filled from values, or named generically ("the volume") where none is given. */
function fillSummary(msg: KnownMessage, values: Record<string, string>): { text: string; unknown: boolean } {
  let unknown = false;
  const filled = msg.summary.replace(/\{([A-Za-z0-9_]+)(?::[qp])?\}/g, (_m, name: string) => {
    const v = values[name];
    if (v !== undefined && v !== '') return v;
    if (T.unnamed[name]) return T.unnamed[name]!;
    unknown = true;
    return '…';
  });
  // the article after a noun that names its value ("volume the volume", "pod the pod") goes
  const text = filled.replace(/\b(volume|pod|node|claim|driver|PV|VolumeAttachment|image|snapshot) the \1\b/g, 'the $1')
    // and the same in Chinese ("卷 该卷" → "该卷")
    .replace(/(卷|Pod|节点|申领|驱动|PV|VolumeAttachment|镜像|快照) ?该\1/g, '该$1');
  return { text, unknown };
}

/** The placeholder values of a matched line (quoted ones unquoted), to fill the message's summary. */
function valuesOf(cf: CompiledFormat, message: string): Record<string, string> {
  const m = cf.capture?.exec(message);
  if (!m) return {};
  const out: Record<string, string> = {};
  cf.names.forEach((name, i) => {
    let v = m[i + 1];
    if (v === undefined || name in out) return;
    if (/^\\?".*\\?"$/s.test(v)) v = v.replace(/^\\?"|\\?"$/g, '').replace(/\\(["\\])/g, '$1');
    out[name] = v.length > 200 ? `${v.slice(0, 199)}…` : v;
  });
  return out;
}

function blankResult(line: number, text: string, kind: ExplainedLine['kind'], explanation: string): ExplainedLine {
  return {
    line, text, kind, component: null, source: null, stage: 'other', step: null, severity: null, time: null, host: null,
    messageId: null, match: 'none', explanation,
  };
}

/** The error a generic failure line carries: after "Error: ", "GRPC error: " or err=. */
function errorPart(message: string): string | null {
  // csi-attacher's printf "Error processing \"<va>\": failed to detach: …" (1.20-era csi_handler.go) names the operation after the VA
  const m = /(?:Error: |GRPC error: |err=|Error processing "[^"]*": )(.*)$/s.exec(message);
  return m && m[1] !== '<nil>' ? m[1]! : null;
}

const CAPABILITIES_RESPONSE = /(?:GRPC response: |response=")\{\\?"capabilities\\?":/;
/** A structured record's message: logfmt's msg="…" (group 1), a JSON record's "msg" or "message" (group 2). */
const MSG_FIELD = /(?:^|\s)msg="((?:[^"\\]|\\.)*)"|"(?:msg|message)":\s*"((?:[^"\\]|\\.)*)"/;
/** calls whose answer always has content: the capabilities lists, the plugin's name (Probe's may be empty) */
const ANSWERS_WITH_CONTENT = /GetCapabilities$|^GetPluginInfo$/;
const EMPTY_RESPONSE = /(?:GRPC response: |response=")\{\}"?(?:\s+err=\S+)?\s*$/;
/** The GetCapabilities method of the service the program's last call went to. */
const capabilitiesMethod = (last: string | undefined): string =>
  last?.startsWith('Node') ? 'NodeGetCapabilities' : last?.startsWith('Controller') ? 'ControllerGetCapabilities' : 'GetPluginCapabilities';

/** The method a generic "GRPC request/response" line belongs to: the last call logged by the same program. */
// csi.v0 too: old sidecars and drivers still print /csi.v0.Node/NodeGetId
const METHOD_IN = /\/csi\.v\d+\.\w+\/(\w+)|\/pluginregistration\.Registration\/(\w+)/;
/** The CSI calls that do a volume's work, named as a driver names the call it serves. */
const WORK_CALL = /\b(Node(?:Stage|Unstage|Publish|Unpublish|Expand)Volume|Controller(?:Publish|Unpublish|Expand)Volume|(?:Create|Delete)(?:Volume|Snapshot))\b/;

const methodIn = (text: string): string | null => {
  const m = METHOD_IN.exec(text);
  return m ? m[1] ?? m[2]! : null;
};

// ------------------------------------------------------------------ the explainer's own words


/** The sentences the explainer adds around the knowledge's texts, in the knowledge's language. */
const TEXT = {
  en: {
    stage: (s: Stage): string => s,
    guessedFrom: (stage: Stage): string => `guessed from its words: ${stage === 'other' ? 'no storage stage' : `the ${stage} stage`}.`,
    continues: (line: number): string => `Continues line ${line}.`,
    unreadable: (e: string): string => `This line could not be read (${e}).`,
    blank: 'Blank line.',
    long: (len: number, max: number): string => ` (The line is ${len} characters long; only its first ${max} were read.)`,
    broadcaster: (component: string): string => ` (printed by the event broadcaster of ${component})`,
    notOurs: (where: string): string => `Not a line our flows print (${where}); `,
    notOursBare: 'Not a line our flows print; ',
    unknownEvent: (type: string, reason: string): string => `A ${type} event ${reason} we do not know; `,
    eventMessageAlone: (type: string, reason: string): string => ` (The message of a ${type} event ${reason}, pasted without the event's columns.)`,
    decoration: 'Part of the paste (a table header, a separator or a shell prompt), not a log record.',
    metricSample: 'A metrics sample as a Prometheus endpoint or console shows it (name, labels, value), not a log record: a measurement, no step of a volume\'s flow.',
    flagUsage: 'Part of a program\'s usage text (Go\'s flag package or a Cobra command prints it when the program is started with a flag or an argument it does not take): no volume\'s step.',
    unrelated: 'Not a log line we can read (no klog header, no known message or keyword).',
    sameProgram: (stage: Stage, line: number): string => ` Read as part of the ${stage} operation its program was doing (line ${line}).`,
    sameMessage: (line: number): string => ` Read as more of the message on line ${line} (a message posted over several lines without headers).`,
    commandAnswer: (line: number): string => `The answer of the command typed at the prompt on line ${line}: the node as that command shows it, not a step of a volume's flow.`,
    sameCall: (line: number): string => ` Read with line ${line}, the same call's next line.`,
    sameRequest: (line: number): string => ` Read with line ${line}: the same request id, so the same call.`,
    noRecords: 'No log records found in the input.',
    records: (n: number, recognised: number, guessed: number): string => `${n} log record${n === 1 ? '' : 's'}: ${recognised} recognised, ${guessed} guessed from keywords.`,
    stages: (stages: Stage[]): string => `Stages seen: ${stages.join(' → ')}.`,
    stops: (stage: Stage, line: number, reason: string): string => `The flow stops in the ${stage} stage at line ${line}: ${reason}`,
    noErrorAfter: (line: number, stage: Stage): string => `No error after the last healthy line (${line}, ${stage}).`,
    recovered: (n: number): string => `${n} earlier warning${n === 1 ? '' : 's'} or error${n === 1 ? '' : 's'} ${n === 1 ? 'is' : 'are'} followed by informational lines (retried; check whether the same error comes back).`,
    nextExpected: (summary: string, where: string): string => `A healthy system would next print "${summary}" — ${where}.`,
    where: {
      kubelet: 'look in the kubelet journal of the pod\'s node (journalctl -u kubelet)',
      'kube-controller-manager': 'look in the kube-controller-manager log (kubectl -n kube-system logs kube-controller-manager-<node>)',
      'kube-scheduler': 'look in the kube-scheduler log',
      'csi-provisioner': 'look in the csi-provisioner container of the CSI driver\'s controller pod',
      'csi-attacher': 'look in the csi-attacher container of the CSI driver\'s controller pod',
      'csi-resizer': 'look in the csi-resizer container of the CSI driver\'s controller pod',
      'csi-snapshotter': 'look in the csi-snapshotter container of the CSI driver\'s controller pod',
      'node-driver-registrar': 'look in the node-driver-registrar container of the CSI node pod on that node',
      'csi-driver-controller': 'look in the driver container of the CSI controller pod',
      'csi-driver-node': 'look in the driver container of the CSI node pod on that node',
    } as Record<string, string>,
    whereElse: (source: string): string => `look in the ${source} log`,
    unnamed: {
      va: 'the VolumeAttachment', pv: 'the PV', volume: 'the volume', specName: 'the volume', volumeId: 'the volume',
      uniqueName: 'the volume', handle: 'the volume', node: 'the node', nodeID: 'the node', pod: 'the pod', podName: 'the pod',
      podUid: 'the pod', kpod: 'the pod', claim: 'the claim', pvc: 'the claim', claimName: 'the claim', driver: 'the driver',
      method: 'the call', imageName: 'the image', snapName: 'the snapshot', content: 'the VolumeSnapshotContent',
      err: 'an error', error: 'an error', otherNodes: 'another node', pods: 'other pods', operation: 'attach or detach',
    } as Record<string, string>,
  },
  zh: {
    stage: (s: Stage): string => STAGE_ZH[s] ?? s,
    guessedFrom: (stage: Stage): string => `根据其中的词语推测：${stage === 'other' ? '不属于任何存储阶段' : `属于${STAGE_ZH[stage]}阶段`}。`,
    continues: (line: number): string => `接续第 ${line} 行。`,
    unreadable: (e: string): string => `无法读取这一行（${e}）。`,
    blank: '空行。',
    long: (len: number, max: number): string => `（这一行长 ${len} 个字符；只读取了前 ${max} 个。）`,
    broadcaster: (component: string): string => `（由 ${component} 的事件广播器打印）`,
    notOurs: (where: string): string => `不是本站流程会打印的日志行（${where}）；`,
    notOursBare: '不是本站流程会打印的日志行；',
    unknownEvent: (type: string, reason: string): string => `一个我们不认识的 ${type} 事件 ${reason}；`,
    eventMessageAlone: (type: string, reason: string): string => `（这是 ${type} 事件 ${reason} 的消息，粘贴时没有带上事件的各列。）`,
    decoration: '粘贴内容的一部分（表头、分隔线或命令提示符），不是日志记录。',
    metricSample: 'Prometheus 端点或控制台显示的一个指标样本（名称、标签、数值），不是日志记录：这是一个测量值，不是卷流程中的一步。',
    flagUsage: '程序用法说明的一部分（程序启动时遇到不认识的参数或不接受的参数，Go 的 flag 包或 Cobra 命令打印用法），不是卷的某个步骤。',
    unrelated: '无法识别的日志行（没有 klog 行首，也没有已知的消息或关键词）。',
    sameProgram: (stage: Stage, line: number): string => `按同一程序正在进行的${STAGE_ZH[stage]}操作来理解（第 ${line} 行）。`,
    sameMessage: (line: number): string => `按第 ${line} 行消息的后续部分来理解（一条没有行首、跨多行贴出的消息）。`,
    commandAnswer: (line: number): string => `第 ${line} 行提示符下所输入命令的输出：该命令所显示的节点状态，不是卷流程中的一步。`,
    sameCall: (line: number): string => `与第 ${line} 行（同一次调用的下一行）一起理解。`,
    sameRequest: (line: number): string => `与第 ${line} 行一起理解：请求 ID 相同，属于同一次调用。`,
    noRecords: '输入中没有找到日志记录。',
    records: (n: number, recognised: number, guessed: number): string => `共 ${n} 条日志记录：${recognised} 条已识别，${guessed} 条根据关键词推测。`,
    stages: (stages: Stage[]): string => `出现的阶段：${stages.map((x) => STAGE_ZH[x]).join(' → ')}。`,
    stops: (stage: Stage, line: number, reason: string): string => `流程停在第 ${line} 行的${STAGE_ZH[stage]}阶段：${reason}`,
    noErrorAfter: (line: number, stage: Stage): string => `最后一条正常日志（第 ${line} 行，${STAGE_ZH[stage]}阶段）之后没有错误。`,
    recovered: (n: number): string => `之前有 ${n} 条警告或错误，其后出现了信息级日志（说明在重试；请确认同样的错误是否再次出现）。`,
    nextExpected: (summary: string, where: string): string => `正常情况下，接下来应该打印“${summary}”——${where}。`,
    where: {
      kubelet: '请查看该 Pod 所在节点的 kubelet 日志（journalctl -u kubelet）',
      'kube-controller-manager': '请查看 kube-controller-manager 的日志（kubectl -n kube-system logs kube-controller-manager-<node>）',
      'kube-scheduler': '请查看 kube-scheduler 的日志',
      'csi-provisioner': '请查看 CSI 驱动控制器 Pod 中的 csi-provisioner 容器',
      'csi-attacher': '请查看 CSI 驱动控制器 Pod 中的 csi-attacher 容器',
      'csi-resizer': '请查看 CSI 驱动控制器 Pod 中的 csi-resizer 容器',
      'csi-snapshotter': '请查看 CSI 驱动控制器 Pod 中的 csi-snapshotter 容器',
      'node-driver-registrar': '请查看该节点上 CSI 节点 Pod 中的 node-driver-registrar 容器',
      'csi-driver-controller': '请查看 CSI 控制器 Pod 中的驱动容器',
      'csi-driver-node': '请查看该节点上 CSI 节点 Pod 中的驱动容器',
    } as Record<string, string>,
    whereElse: (source: string): string => `请查看 ${source} 的日志`,
    unnamed: {
      va: '该 VolumeAttachment', pv: '该 PV', volume: '该卷', specName: '该卷', volumeId: '该卷',
      uniqueName: '该卷', handle: '该卷', node: '该节点', nodeID: '该节点', pod: '该 Pod', podName: '该 Pod',
      podUid: '该 Pod', kpod: '该 Pod', claim: '该申领', pvc: '该申领', claimName: '该申领', driver: '该驱动',
      method: '该调用', imageName: '该镜像', snapName: '该快照', content: '该 VolumeSnapshotContent',
      err: '一个错误', error: '一个错误', otherNodes: '另一个节点', pods: '其他 Pod', operation: '挂接或解除挂接',
    } as Record<string, string>,
  },
};

/**
 * The words of the explanation in progress: set by explainLines from its knowledge's language.
 * explainLines runs to its end synchronously, so no other explanation can change them meanwhile.
 */
let T = TEXT.en;

/** The sidecars that share csi-lib-utils' gRPC logging (connection.go). */
const SIDECAR_SOURCE = /^csi-(provisioner|attacher|resizer|snapshotter)$/;

const guessedFrom = (stage: Stage): string => T.guessedFrom(stage);

/** Line n continues the record `head` began: it is read as part of it. */
const continuing = (head: ExplainedLine, n: number, text: string): ExplainedLine =>
  ({ ...head, line: n, text, kind: 'continuation', continues: head.line, explanation: T.continues(head.line) });

export interface ExplainOptions {
  onProgress?: (done: number, total: number) => void;
  /** report progress every this many lines (default 5000) */
  progressEvery?: number;
}

export function explainText(text: string, knowledge: Knowledge, opts: ExplainOptions = {}): ExplainResult {
  const lines = splitLines(typeof text === 'string' ? text : String(text));
  return explainLines(lines, knowledge, opts);
}

/** a field of a record printed alone on its line as "key value": "fstype ext4", "readonly false", "context map[…]" */
const FIELD_PIECE = /^[a-z][A-Za-z0-9]{1,30} \S/;

export function explainLines(lines: readonly string[], knowledge: Knowledge, opts: ExplainOptions = {}): ExplainResult {
  // a terminal's colours and other control sequences, or what a web page left of them
  // ("\uFFFD[1mSTEP\uFFFD[0m: …", "^[[31m"): they are the terminal's, not the program's, and are read and
  // shown without them
  if (lines.some((l) => ANSI_HINT.test(l))) lines = lines.map((l) => l.replace(TERMINAL_ESCAPE, ''));
  // a Kubernetes component's JSON records are read as the klog lines they stand for, by every rule (those that look at
  // a neighbour's text too), and shown as posted
  const c = compile(knowledge);
  const posted = lines;
  // (behind a journald or CRI prefix too: the record is the line from its first "{")
  if (lines.some((l) => l.includes('"caller"'))) {
    lines = lines.map((l) => {
      const at = l.indexOf('{"');
      const text = at < 0 ? null : klogJsonAsText(l.slice(at), (t) => {
        const k = KLOG.exec(t);
        return !!k && identify(c, { severity: k[1] as Severity, file: k[3]!, line: Number(k[4]), message: k[5]! }, null) !== null;
      });
      return text === null ? l : l.slice(0, at) + text;
    });
  }
  T = TEXT[knowledge.lang ?? 'en'];
  const out: ExplainedLine[] = [];
  const every = opts.progressEvery ?? 5000;
  let head: ExplainedLine | null = null;
  let headLen = 0;
  let groupText = '';
  let groupTextSpaced = '';
  const lastMethod = new Map<string, string>();
  let prevContinued = false;
  // inside a klog multi-line value (key=< … >)
  let multiline = false;
  // inside a command's output that an error quotes in parentheses, "output:(mke2fs 1.46.4 …" (mount-utils'
  // formatAndMount error, mount_linux.go): its lines, blank ones included, are the record's up to the closing one
  let outputDepth = 0;
  let outputLines = 0;
  // the record before a blank line: an object printed after it ("{" alone on its line) is still that record's
  let beforeBlank: ExplainedLine | null = null;
  // the record whose last piece before a blank line was one of its fields printed as "key value" ("fstype ext4"): a driver
  // printing a request's fields one a line (azurefile's and blobfuse's NodePublishVolume) may leave a blank line among them
  let piecesOf: ExplainedLine | null = null;
  // the last line read was a Vault error's "Code: 400. Errors:": the errors it lists come next
  let vaultErrors = false;
  // the last line read was a piece of an hclog multi-line value (its "  err=" line, then "  | …" lines)
  let hclogValue = false;
  for (let i = 0; i < lines.length; i++) {
    let r: ExplainedLine;
    // a JSON logger's record printed over several lines (zap's or jq's pretty output: "{", one field a line, "}"):
    // read whole, as the one-line record it is, and every line of it is that record's
    const pretty = prettyJsonRecord(lines, i);
    if (pretty) {
      const whole = explainOne(c, pretty.compact, i + 1, null, 0, lastMethod);
      const first: ExplainedLine = { ...whole, line: i + 1, text: lines[i]! };
      out.push(first);
      for (let j = i + 1; j <= pretty.end; j++) out.push(continuing(first, j + 1, lines[j]!));
      head = null; headLen = 0; multiline = false; outputDepth = 0; prevContinued = false; beforeBlank = null;
      i = pretty.end;
      continue;
    }
    if (!head && beforeBlank && /^\s*[{[]\s*$/.test(lines[i]!)) { head = beforeBlank; headLen = 0; }
    // (and mount-utils' tail, "Mounting command: …", after a blank line the post put inside the error that carries it)
    // (and a Vault error's pieces, and the errors it lists after "Code: 400. Errors:" and a blank line)
    const vaultItem = vaultErrors && lines[i]!.trim() !== '' && !startsRecord(lines[i]!);
    if (!head && beforeBlank && (MOUNT_UTILS_TAIL.test(lines[i]!) || VAULT_ERROR_PIECE.test(lines[i]!) || vaultItem)) { head = beforeBlank; headLen = 0; }
    const morePieces = !head && piecesOf !== null && FIELD_PIECE.test(lines[i]!);
    if (morePieces) { head = piecesOf; headLen = 0; }
    // (a line a collector stamped, after a record it stamped the same way, is read as its program wrote it: it may be a
    // piece of that record, "2023-08-07T05:42:12.929203710Z Creating filesystem with …" of mke2fs's output in a format error)
    const piece = head ? collectedPiece(lines[i]!, lines[head.line - 1]) : null;
    const line = piece ?? lines[i]!;
    try {
      // klog's structured records print a multi-line value as key=< on the header line, then its lines
      // (tab-indented) and a closing line " >" that may carry the next keys (klog's KObj/KVListFormat):
      // every line up to that closing one is the record's, whatever it looks like
      // (and a message cut after its colon, "last err seen:", goes on with the next line's plain text)
      // (a new record's header ends it: a paste cut inside the value)
      const inValue = head !== null && multiline && !startsRecord(line);
      const inOutput = head !== null && outputDepth > 0 && outputLines < 200 && !startsRecord(line) && !/^\s*```/.test(line);
      if (inOutput) {
        outputLines++;
        outputDepth = parenDepth(line, outputDepth);
      } else outputDepth = 0;
      const afterColon = head !== null && !inValue && /:\s*$/.test(lines[i - 1] ?? '') && /\S/.test(line) && !startsRecord(line.trimStart()) && !ISO_LEVEL.test(line)
        && !/^\s*[\w .-]+:(\s|$)/.test(line) && !/^\s*[{[]/.test(line);
      const hclogPiece = head !== null && hclogValue && HCLOG_VALUE_LINE.test(line);
      if (inOutput && line.trim() === '') r = blankResult(i + 1, lines[i]!, 'blank', T.blank);
      else if (inValue || afterColon || inOutput || morePieces || hclogPiece) r = continuing(head!, i + 1, lines[i]!);
      else {
        // (a piece that starts a record of its own is no piece: read it once, whole)
        const asPiece = piece === null || startsRecord(piece) ? null : explainOne(c, piece, i + 1, head, headLen, lastMethod, prevContinued);
        r = asPiece?.kind === 'continuation' ? continuing(head!, i + 1, lines[i]!) : explainOne(c, lines[i]!, i + 1, head, headLen, lastMethod, prevContinued);
      }
      if (inValue && /^\s?>(\s|$)/.test(lines[i]!)) multiline = false;
    } catch (e) {
      // never let one odd line stop the rest
      r = blankResult(i + 1, lines[i]!, 'unrelated', T.unreadable(e instanceof Error ? e.message : String(e)));
    }
    if (r.kind === 'continuation' && head && groupText.length + lines[i]!.length <= 16 * 1024) {
      // read the record whole: the head line alone may have been cut before the words that identify it
      // (records are re-read up to 16 KiB: a paste of endless fragments must not cost quadratic time)
      // (joined as a terminal wraps, mid-word; a poster who broke the lines at spaces dropped them: the record is re-read
      // with a space at each break as well when the first reading names no message or no stage)
      groupText += line;
      groupTextSpaced += ` ${line.trimStart()}`;
      let whole = explainOne(c, groupText, head.line, null, 0, new Map(lastMethod));
      if (whole.stage === 'other' || (whole.match !== 'catalog' && whole.match !== 'event')) {
        const spaced = explainOne(c, groupTextSpaced, head.line, null, 0, new Map(lastMethod));
        if (spaced.stage !== 'other' && (spaced.match === 'catalog' || spaced.match === 'event')) whole = spaced;
      }
      if (whole.match === 'catalog' || whole.match === 'event' || (whole.match === 'guess' && head.match === 'none')
        || (whole.match === 'guess' && head.match === 'guess' && head.stage === 'other')) {
        const updated: ExplainedLine = { ...whole, line: head.line, text: head.text, kind: head.kind };
        out[head.line - 1] = updated;
        for (let j = head.line; j < i; j++) if (out[j]!.kind !== 'blank') out[j] = continuing(updated, j + 1, lines[j]!);
        head = updated;
      }
    }
    // (an error a Vault error lists reads like anything: it is the record's, as its pieces are, explainRecord)
    if (head && vaultItem) r = continuing(head, i + 1, lines[i]!);
    if (r.kind === 'continuation' && head) r = continuing(head, i + 1, lines[i]!);
    // the operation a program's last attach or detach line was about (sidecarSide: the attacher's CSINode read serves it)
    if (r.kind === 'log' && (r.stage === 'attach' || r.stage === 'detach')) lastMethod.set(`op|${String((r as unknown as Record<symbol, unknown>)[PROGRAM] ?? '')}`, r.stage);
    out.push(r);
    if (r.kind === 'log' || r.kind === 'event') {
      head = r; headLen = lines[i]!.length; groupText = lines[i]!; groupTextSpaced = lines[i]!; multiline = r.kind === 'log' && /\w=<\s*$/.test(lines[i]!);
      const output = /\boutput:\s*\(/i.exec(lines[i]!);
      outputDepth = output ? parenDepth(lines[i]!.slice(output.index + output[0].length - 1), 0) : 0;
      outputLines = 0;
    } else if (r.kind === 'continuation') headLen = lines[i]!.length;
    else if (outputDepth > 0 && r.kind === 'blank') { /* a blank line inside the quoted output: the record goes on */ }
    else { head = null; headLen = 0; multiline = false; outputDepth = 0; } // a blank line, a table header or prose ends the record
    // (a headerless line that said which operation it is counts as a record here: a driver's "handler error … DeleteVolume")
    if (lines[i]!.trim() !== '') piecesOf = r.kind === 'continuation' && head && FIELD_PIECE.test(lines[i]!) ? head : null;
    if (lines[i]!.trim() !== '') beforeBlank = r.kind === 'log' || r.kind === 'event' || (r.kind === 'unrelated' && r.stage !== 'other') ? r
      : r.kind === 'continuation' && head && VAULT_ERROR_PIECE.test(lines[i]!) ? head : null;
    if (lines[i]!.trim() !== '') vaultErrors = r.kind === 'continuation' && VAULT_ERRORS_FOLLOW.test(lines[i]!);
    hclogValue = r.kind === 'continuation' && (HCLOG_VALUE_KEY.test(lines[i]!) || HCLOG_VALUE_LINE.test(lines[i]!));
    prevContinued = r.kind === 'continuation';
    if (opts.onProgress && (i + 1) % every === 0) opts.onProgress(i + 1, lines.length);
  }
  opts.onProgress?.(lines.length, lines.length);
  stackTraces(out);
  fieldRuns(out);
  pythonTracebacks(out);
  goPanics(out);
  pendingOperationFailures(out);
  requestIds(out);
  inferFromPaste(out);
  tableRows(out);
  eventMessagesAlone(out, c);
  flagUsage(out);
  if (posted !== lines) for (const l of out) l.text = posted[l.line - 1]!;
  return { lines: out, summary: summarise(out, c) };
}

/**
 * A `kubectl get` table's header ("NAME PROVISIONER RECLAIMPOLICY …", "NAMESPACE NAME READYTOUSE …"), its columns
 * apart by runs of spaces or, where a copy collapsed them, by single spaces: every column name upper case, the first
 * NAME or NAMESPACE. An events table (LAST SEEN … REASON … MESSAGE) is not one: its rows are the Events' records.
 */
// (a namespaced list of objects with no columns of their own, "kubectl get -A zfssnapshots": NAMESPACE NAME AGE, is one too)
const GET_TABLE_HEADER = /^\s*(?:NAMESPACE\s+NAME(?:\s+[A-Z][A-Z0-9()_-]*)+|NAME(?:\s+[A-Z][A-Z0-9()_-]*){2,})\s*$/;
const EVENTS_TABLE = /\bREASON\b|\bMESSAGE\b/;
/**
 * A row of `helm history` ("2  Tue Mar 17 17:09:08 2026  deployed  harvester-csi-driver-109.0.0  v0.2.6  Upgrade complete":
 * REVISION UPDATED STATUS CHART APP VERSION DESCRIPTION) or `helm list` ("csi  kube-system  3  2024-01-02 03:04:05.67 +0000
 * UTC  deployed  csi-driver-1.2.3  1.2.3"): the release's status after its time (helm's release.Status values).
 */
const HELM_RELEASE_ROW = /^\s*(?:\d+\s+(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3}\s+\d{1,2} \d\d:\d\d:\d\d \d{4}|\S+\s+\S+\s+\d+\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? [+-]\d{4} \w+)\s+(?:deployed|superseded|failed|uninstalled|uninstalling|pending-install|pending-upgrade|pending-rollback|unknown)\s+\S+/;
/**
 * The rows under a `get` table's header list objects, they are no step of a flow (README `other`: "get tables"): a
 * row the paste's words or its neighbours gave a stage (a StorageClass row names its provisioner, a snapshot's its
 * class) is `other`. The table ends at a blank line, a prompt or any line that is not such a row.
 */
function tableRows(out: ExplainedLine[]): void {
  for (let i = 0; i < out.length; i++) {
    const h = out[i]!.text;
    // (a row of Helm's release tables, with or without their header: a release of a chart, no step of a volume)
    if (HELM_RELEASE_ROW.test(h) && out[i]!.kind === 'unrelated' && out[i]!.stage !== 'other') { out[i] = { ...out[i]!, stage: 'other' }; continue; }
    if (!GET_TABLE_HEADER.test(h) || EVENTS_TABLE.test(h)) continue;
    // (the header too: a column named RESTORESIZE is no resize)
    if (out[i]!.stage !== 'other' && out[i]!.kind === 'unrelated') out[i] = { ...out[i]!, stage: 'other' };
    let j = i + 1;
    for (; j < out.length; j++) {
      const l = out[j]!;
      if (l.kind !== 'unrelated' || l.match === 'catalog' || l.match === 'event') break;
      if (l.stage !== 'other') out[j] = { ...l, stage: 'other' };
    }
    i = j - 1;
  }
}

/**
 * Whose nestedpendingoperations line "Operation for {volumeName:… podName:… nodeName:…} failed …" is, when no prefix says:
 * the kubelet and the attach/detach controller print it from the same file. The operation its error names says (an
 * attach or a detach is the controller's: the kubelet attaches only with --enable-controller-attach-detach=false); else
 * the key: only an attach or detach of a volume several nodes may use keys on a node, only the kubelet's operations on
 * a pod (operation_executor.go AttachVolume/DetachVolume, IsMultiAttachAllowed; MountVolume's podName for a plugin that
 * neither attaches nor mounts devices). An attach of a single-node volume and the kubelet's device operations both key
 * on the volume alone: then nothing says.
 */
function pendingOperationOwner(message: string): string | null {
  if (!/^\s*Operation for /.test(message)) return null;
  if (/\b(AttachVolume\.Attach|DetachVolume\.Detach)\b/.test(message)) return 'kube-controller-manager';
  if (/\b(MountVolume|UnmountVolume|UnmountDevice|MapVolume|UnmapVolume|UnmapDevice|VerifyControllerAttachedVolume)\b/.test(message)) return 'kubelet';
  if (/\bnodeName:[^\s}"\\]+\}/.test(message)) return 'kube-controller-manager';
  return /\bpodName:[^\s}"\\]+ /.test(message) ? 'kubelet' : null;
}

/**
 * nestedpendingoperations' "Operation for {volumeName:… podName:… nodeName:…} failed … Error: …" reports the operation
 * pending on that key: when its error names none ("recovered from panic …"), it is the one the paste last showed
 * starting on the same volume (a few lines up: "operationExecutor.AttachVolume started for volume …"), and the lines
 * that continue it (the panic's goroutine dump) are too.
 */
function pendingOperationFailures(out: ExplainedLine[]): void {
  for (let i = 0; i < out.length; i++) {
    const l = out[i]!;
    if (l.messageId !== 'kubelet.operationFailed' && l.messageId !== 'attachDetachController.operationFailed') continue;
    // (the kubelet's message stands for a mount where its error names nothing: the paste may say better)
    if (l.stage !== 'other' && stageOfText(errorPart(l.text) ?? '') !== null) continue;
    const volume = /volumeName:(\S+?)[ }]/.exec(l.text)?.[1];
    if (!volume) continue;
    let stage: Stage | undefined;
    for (let j = i - 1; j >= Math.max(0, i - 30) && !stage; j--) {
      const x = out[j]!;
      if (x.kind === 'log' && x.stage !== 'other' && x.text.includes(volume)) stage = x.stage;
    }
    if (!stage) continue;
    for (let k = i; k < out.length && (k === i || (out[k]!.kind === 'continuation' && out[k]!.continues === l.line)); k++) out[k] = { ...out[k]!, stage };
  }
}

const REQUEST_ID = /\bID: (\d+) Req-ID: |\[ID:(\d+)\]|\bTraceId"?[=:] ?"([\w-]{8,})"/;
/**
 * The id a program gives each request it serves and prints on every line of it: ceph-csi's "ID: 11 Req-ID: …" (its gRPC
 * interceptor's serial, internal/csi-common/utils.go), cloud-provider-openstack's "[ID:436]", vSphere's CNS operator
 * "TraceId". The lines of one request are one operation's: where one of them names the CSI call (its "GRPC call:
 * /csi.v1.Node/NodeStageVolume"), else where most of its placed lines read one stage, the lines read from their words alone
 * follow it ("rbd: unmap" inside a NodeStageVolume that rolls back is the staging's, not an unstaging). A program's restart
 * starts its ids again.
 */
function requestIds(out: ExplainedLine[]): void {
  const groups = new Map<string, number[]>();
  const epoch = new Map<string, number>();
  for (let i = 0; i < out.length; i++) {
    const l = out[i]!;
    if (l.kind !== 'log') continue;
    const prog = String((l as unknown as Record<symbol, unknown>)[PROGRAM] ?? '');
    if (PROCESS_START.test(l.text)) epoch.set(prog, (epoch.get(prog) ?? 0) + 1);
    const m = REQUEST_ID.exec(l.text);
    if (!m) continue;
    // (a serial is the program's own, and starts again when it restarts; a trace id is unique)
    const serial = m[1] ?? m[2];
    const key = serial !== undefined ? `${prog}|${epoch.get(prog) ?? 0}|${serial}` : `trace|${m[3]}`;
    const g = groups.get(key);
    if (g) g.push(i); else groups.set(key, [i]);
  }
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    // (the line that names the call: its interceptor's "GRPC call: /csi.v1.Node/NodeStageVolume", a driver's own
    // "ControllerGetCapabilities: called with args …"; an identity or capability call's lines stay what they read)
    const named = members.map((i) => out[i]!).find((l) => {
      const m = /\bGRPC call:? \/?csi\.v\d+\.\w+\/(\w+)|\b([A-Z]\w+): called\b/.exec(l.text);
      const rpc = m ? m[1] ?? m[2]! : null;
      return rpc !== null && (stageOfMethod(rpc) !== undefined || isHandshakeMethod(rpc));
    });
    // (no line names the call: the stage most of its placed lines read, when one does)
    const votes = new Map<Stage, number>();
    for (const i of members) if (out[i]!.stage !== 'other') votes.set(out[i]!.stage, (votes.get(out[i]!.stage) ?? 0) + 1);
    const ranked = [...votes].sort((a, b) => b[1] - a[1]);
    const stage = named ? named.stage : ranked.length && (ranked.length === 1 || ranked[0]![1] > ranked[1]![1]) ? ranked[0]![0] : null;
    if (stage === null || (named && stage === 'other')) continue;
    const said = T.sameRequest(named ? named.line : out[members.find((j) => out[j]!.stage === stage)!]!.line);
    for (const i of members) {
      const l = out[i]!;
      if ((l.match === 'guess' || l.match === 'none') && l.stage !== stage) {
        // (its continuation lines follow it at the end, as every record's do)
        out[i] = { ...l, stage, explanation: `${l.explanation}${said}` };
      }
    }
  }
}

/**
 * Go's flag package printing a program's usage ("Usage of /csi-attacher:", then each flag, "  -csi-address string", and its
 * description indented below it, flag.PrintDefaults): a sidecar started with a flag it does not know ("flag provided but
 * not defined: -provisioner") exits with it. No volume's step, whatever a description says ("marking everything as attached").
 */
function flagUsage(out: ExplainedLine[]): void {
  for (let i = 0; i < out.length; i++) {
    // (a Cobra command's usage, "Usage:", "  virt-chroot mount [flags]", "Flags:", "  -h, --help   help for mount", "Global
    // Flags:", cobra's command.go usage template: sections of indented lines, blank lines between them)
    if (/^\s*Usage:\s*$/.test(out[i]!.text) && i + 1 < out.length && /^\s{2,}\S+.*\[(flags|command)\]/.test(out[i + 1]!.text)) {
      let j = i;
      for (; j < out.length; j++) {
        const t = out[j]!.text;
        if (j > i && !/^\s*$|^\s{2,}\S|^\s*(Flags|Global Flags|Aliases|Examples|Available Commands|Additional help topics):\s*$/.test(t)) break;
        if (t.trim() !== '') out[j] = usageLine(out[j]!);
      }
      i = j - 1;
      continue;
    }
    const program = /^\s*Usage of (\S+):\s*$/.exec(out[i]!.text)?.[1];
    if (program === undefined) continue;
    // (node-driver-registrar's own lines are the registration's, its usage too)
    const registrar = /driver-registrar/.test(program);
    let j = i + 1;
    for (; j < out.length; j++) {
      const t = out[j]!.text;
      if (!/^ {1,4}-{1,2}[\w.-]+( [\w.]+)?\s*$|^(\s{4,}|\t)\S/.test(t)) break;
      out[j] = registrar ? { ...out[j]!, stage: 'register' } : usageLine(out[j]!);
    }
    i = j - 1;
  }
}
/** A line of a program's usage text: its own, no piece of the record above it, and no volume's step. */
function usageLine(l: ExplainedLine): ExplainedLine {
  const { continues: _c, ...rest } = l;
  return { ...rest, kind: 'unrelated', stage: 'other', component: null, source: null, step: null, match: 'none', explanation: T.flagUsage };
}

/**
 * A Python traceback ("Traceback (most recent call last):", its frames, the exception's line) is one error: the CSI
 * call a frame is in ("File "/kadalu/nodeserver.py", line 154, in NodeUnpublishVolume") is what failed, for all its
 * lines and for the line that announced it just before ("ERROR … Exception calling application: [1]").
 */
function pythonTracebacks(out: ExplainedLine[]): void {
  for (let i = 0; i < out.length; i++) {
    if (!/^\s*Traceback \(most recent call last\):\s*$/.test(out[i]!.text)) continue;
    let j = i + 1;
    while (j < out.length && /^\s+\S/.test(out[j]!.text)) j++;
    // the exception's own line ends it ("kadalulib.CommandException: [1]")
    if (j < out.length && /^[\w.]+(Error|Exception|Exit|Interrupt)\b/.test(out[j]!.text)) j++;
    let stage: Stage | null = null;
    for (let k = i + 1; k < j && !stage; k++) {
      const fn = /^\s*File "[^"]*", line \d+, in (\w+)/.exec(out[k]!.text)?.[1];
      stage = fn ? stageOfMethod(fn) ?? null : null;
    }
    if (!stage) { i = j - 1; continue; }
    const before = i > 0 && /\b(exception|error)\b/i.test(out[i - 1]!.text) && out[i - 1]!.stage === 'other' ? i - 1 : i;
    for (let k = before; k < j; k++) if (out[k]!.stage === 'other' && out[k]!.kind !== 'blank' && out[k]!.kind !== 'decoration') out[k] = { ...out[k]!, stage };
    i = j - 1;
  }
}

/**
 * A Go panic is one error: its "panic: …", the signal, the "goroutine N [running]:" header and its frames, each a function then its file:line. The first frame that names a CSI call
 * (a driver's "(*Driver).DeleteVolume(…)") or a sidecar's operation (csi-provisioner's "(*csiProvisioner).Delete(…)",
 * csi-attacher's "(*csiHandler).syncAttach(…)") says what crashed, for all its lines; a blank line inside it stays one.
 * (The frames may come after a log viewer's own columns: matched anywhere in the line, the frame at its end. client-go's
 * "Observed a panic: …" record takes its frames as its pieces, and their words with them.)
 */
function goPanics(out: ExplainedLine[]): void {
  for (let i = 0; i < out.length; i++) {
    if (!PANIC_START.test(out[i]!.text)) continue;
    let j = i + 1;
    for (; j < out.length; j++) {
      const t = out[j]!.text;
      if (PANIC_LINE.test(t)) continue;
      // (a blank line inside it belongs to it, and so does the one row between the signal and the goroutine header that
      // a log viewer shows with its own columns and no message)
      if (j + 1 < out.length && (t.trim() === '' ? PANIC_LINE.test(out[j + 1]!.text) : GOROUTINE.test(out[j + 1]!.text) && t.length < 60)) continue;
      break;
    }
    let stage: Stage | null = null;
    for (let k = i; k < j && !stage; k++) stage = panicFrameStage(out[k]!.text);
    // (no frame names the operation, "(*ControllerServer).getBackupVolume": the panic is still one error, of the record its
    // first line broke off, "CreateSnapshot is called with req …" then "panic: …": every line of it is that record's piece,
    // whatever the passes after this one decide the record is about)
    const first = out[i]!;
    const record = stage ? null : first.kind === 'continuation' && first.continues !== undefined ? out[first.continues - 1]! : first.kind === 'log' ? first : null;
    if (record) {
      for (let k = i + 1; k < j; k++) {
        const l = out[k]!;
        if (l.kind !== 'blank' && (PANIC_START.test(l.text) || PANIC_LINE.test(l.text))) out[k] = continuing(record, k + 1, l.text);
      }
    }
    if (stage) {
      for (let k = i; k < j; k++) {
        const l = out[k]!;
        // (its blank lines and a viewer's empty row keep their own reading)
        if (l.kind === 'blank' || !(PANIC_START.test(l.text) || PANIC_LINE.test(l.text))) continue;
        // (a panic pasted after an unrelated record, newest first from a log viewer, was read as that record's pieces:
        // whose frames name another operation, it is a record of its own)
        const foreignHead = l.kind === 'continuation' && l.continues !== undefined && l.continues - 1 < i && out[l.continues - 1]!.stage !== stage;
        const { continues: _c, ...rest } = l;
        out[k] = foreignHead ? { ...rest, kind: 'unrelated', match: 'guess', stage, explanation: `${T.notOursBare}${guessedFrom(stage)}` } : { ...l, stage };
      }
    }
    i = j - 1;
  }
}
const GOROUTINE = /(^|\s)goroutine \d+ \[[\w ,]+\]:\s*$/;
const PANIC_START = new RegExp(`\\bpanic: |${GOROUTINE.source}`);
/** a line of a Go panic: its message, the signal, a goroutine header, a frame ("pkg.(*T).F(0x…)"), a frame's file:line, "created by …" */
const PANIC_LINE = /\bpanic: |\[signal SIG\w+|(^|\s)goroutine \d+ \[|[\w.\/-]+\.(\(\*?\w+\)\.)?\w+\([^()]*\)\s*$|\/[\w.\/-]+\.go:\d+( \+0x[0-9a-f]+)?\s*$|(^|\s)created by \S+|(^|\s)panic\(/;
const IN_TREE_FRAMES: ReadonlyArray<[RegExp, Stage]> = [
  [/\(\*expandController\)\.|\(\*operationGenerator\)\.GenerateExpand(InUse)?VolumeFunc\b|\(\*resizeController\)\.(resizePVC|expandAndRecover)\b/, 'resize'],
  [/\(\*PersistentVolumeController\)\.provisionClaim(Operation)?\b/, 'provision'],
  [/\(\*PersistentVolumeController\)\.deleteVolumeOperation\b/, 'delete'],
  [/\(\*operationGenerator\)\.Generate(Mount|Map)VolumeFunc\b/, 'mount'],
  [/\(\*operationGenerator\)\.GenerateUn(mount|map)(Volume|Device)Func\b/, 'unmount'],
  [/\(\*operationGenerator\)\.GenerateAttachVolumeFunc\b/, 'attach'],
  [/\(\*operationGenerator\)\.GenerateDetachVolumeFunc\b/, 'detach'],
];
function panicFrameStage(text: string): Stage | null {
  // (a frame is its function, then its arguments in parentheses, at the line's end)
  const fn = /([\w.\/*()-]*\w)\([^()]*\)\s*$/.exec(text)?.[1];
  const call = fn ? csiCallOfFrame(fn) : null;
  if (call) return call;
  const op = /\(\*csiProvisioner\)\.(Provision|Delete)\(|\(\*csiHandler\)\.(syncAttach|syncDetach)\(/.exec(text);
  if (op) return op[1] === 'Provision' ? 'provision' : op[1] === 'Delete' ? 'delete' : op[2] === 'syncAttach' ? 'attach' : 'detach';
  // the in-tree controllers' and the kubelet's own operations (pkg/controller/volume/expand expand_controller.go; persistentvolume
  // pv_controller.go provisionClaimOperation, deleteVolumeOperation; pkg/volume/util/operationexecutor operation_generator.go
  // Generate…Func) and csi-resizer's (pkg/controller/controller.go:462 resizePVC, expand_and_recover.go:35 expandAndRecover)
  for (const [re, st] of IN_TREE_FRAMES) if (re.test(text)) return st;
  return null;
}

/**
 * A pretty-printed JSON log record starting at line `i`: "{" alone, its fields one a line, "}" at the same
 * indentation; a record when it parses and carries a logger's fields (a level, or a message with a time).
 * Its one-line form, and the index of its closing line.
 */
function prettyJsonRecord(lines: readonly string[], i: number): { compact: string; end: number } | null {
  const open = /^(\s*)\{\s*$/.exec(lines[i]!);
  if (!open) return null;
  const close = new RegExp(`^${open[1]}\\}\\s*,?\\s*$`);
  for (let j = i + 1; j < lines.length && j <= i + 80; j++) {
    if (!close.test(lines[j]!)) continue;
    let obj: unknown;
    try { obj = JSON.parse(lines.slice(i, j + 1).join('\n').replace(/,\s*$/, '')); } catch { return null; }
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return null;
    const o = obj as Record<string, unknown>;
    const logger = 'level' in o || 'severity' in o || (('msg' in o || 'message' in o) && ('ts' in o || 'time' in o || 'timestamp' in o));
    return logger ? { compact: JSON.stringify(o), end: j } : null;
  }
  return null;
}

/** How many parentheses are still open after `text`, starting from `depth`. */
function parenDepth(text: string, depth: number): number {
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return 0;
  }
  return depth;
}

/**
 * A provisioner's helper pod named after the operation it runs for a claim, as `kubectl logs --prefix` or a log
 * store puts its name before each record: csi-lvm's "create-pvc-<uid>" / "delete-pvc-<uid>", local-path-provisioner's
 * "helper-pod-create-pvc-<uid>" / "helper-pod-delete-pvc-<uid>". Whatever its records say (an unmount of the LV it
 * removes), they serve that operation.
 */
const HELPER_POD = /^\s*(?:\[?pod\/)?(?:helper-pod-)?(create|delete)-pvc-[0-9a-f]{8}-[0-9a-f-]{27}\b/;

function explainOne(c: Compiled, raw: string, n: number, head: ExplainedLine | null, headLen: number, lastMethod: Map<string, string>, prevContinued = false): ExplainedLine {
  const r = explainRecord(c, raw, n, head, headLen, lastMethod, prevContinued);
  const helper = r.match === 'guess' ? HELPER_POD.exec(raw) : null;
  // (a line a rule decided is 'other', the helper's start-up, stays so)
  return helper && (r.stage !== 'other' || (r as unknown as Record<symbol, unknown>)[OPEN]) ? { ...r, stage: helper[1] === 'create' ? 'provision' : 'delete' } : r;
}

function explainRecord(c: Compiled, raw: string, n: number, head: ExplainedLine | null, headLen: number, lastMethod: Map<string, string>, prevContinued: boolean): ExplainedLine {
  const text = raw;
  if (!text.trim()) return blankResult(n, text, 'blank', T.blank);
  const long = text.length > MAX_LINE;
  const s = stripPrefixes(long ? text.slice(0, MAX_LINE) : text);
  const hint = componentOfHint(s.hint);
  const full = KLOG.exec(s.rest);
  const headerless = full ? null : KLOG_HEADERLESS.exec(s.rest);
  // (the same groups as a whole header's, with no severity and no time)
  const k = full ?? (headerless ? [headerless[0], '', '', headerless[2]!, headerless[3]!, headerless[4]!] : null);
  const program = `${s.hint ?? ''}|${s.host ?? ''}|${k ? /(?:^|\s)(\d+) [\w.-]+\.go:/.exec(s.rest)?.[1] ?? '' : ''}`;
  const note = long ? T.long(text.length, MAX_LINE) : '';

  // (the e2e framework logs each Event of a failed test's namespace through klog, "dump.go:53] At … - event for
  // pod-x: {default-scheduler } Scheduled: …": the Event is what the line says, read below as the Events are)
  if (k && !E2E_EVENT.test(k[5]!)) {
    const severity = (k[1] || null) as Severity | null;
    const file = k[3]!;
    const lineNo = Number(k[4]);
    const message = k[5]!;
    const cf = identify(c, { severity, file, line: lineNo, message }, hint?.source ?? pendingOperationOwner(message));
    const base = { line: n, text, kind: 'log' as const, severity, time: s.time ? `${s.time} (${k[2]})` : k[2]!, host: s.host, [PROGRAM]: program };
    // a program's gRPC interceptor logs the call, then its request/response: remember the method per program
    const key = `${hint?.source ?? ''}|${s.host ?? ''}|${file}|${/^ID: (\d+)/.exec(message)?.[1] ?? ''}`;
    const anyKey = `*|${s.host ?? ''}|${file}|${/^ID: (\d+)/.exec(message)?.[1] ?? ''}`;
    const method = methodIn(message);
    // (and per program, whatever file logs it: the call a driver's own lines serve, "Method NodeUnpublishVolume called with …")
    const addons = CSI_ADDONS_CALL.exec(message);
    const call = addons ? `${ADDONS}${addons[1]}` : WORK_CALL.exec(message)?.[1];
    if (call) lastMethod.set(`call|${program}`, call);
    if (addons) { lastMethod.set(key, call!); lastMethod.set(anyKey, call!); }
    if (method) {
      lastMethod.set(key, method); lastMethod.set(anyKey, method);
      // (and the last call that does work, not a handshake: see the empty response below)
      if (!ANSWERS_WITH_CONTENT.test(method)) { lastMethod.set(`work|${key}`, method); lastMethod.set(`work|${anyKey}`, method); }
    }
    if (cf) {
      const m = cf.msg;
      const before = lastMethod.get(key) ?? lastMethod.get(anyKey);
      // a response whose body is a capabilities list answers a GetCapabilities call, whatever call was
      // logged after that one (a busy plugin interleaves calls and responses)
      // and an empty response cannot answer a GetCapabilities or GetPluginInfo call (they always list
      // something): it is the answer to the last call that did work (NodeStageVolume's is empty)
      const answered = CAPABILITIES_RESPONSE.test(message) ? capabilitiesMethod(before)
        : before && ANSWERS_WITH_CONTENT.test(before) && EMPTY_RESPONSE.test(message) ? lastMethod.get(`work|${key}`) ?? lastMethod.get(`work|${anyKey}`) ?? null : null;
      // (and with no call logged by its file, the call the program's own lines named: "NodeUnpublishVolume - deleting …" then the interceptor's error)
      const meth = /grpc/i.test(m.id) ? method ?? answered ?? before ?? lastMethod.get(`call|${program}`) ?? null : null;
      // (a request posted without its call line whose fields say which call it is, {"secrets":…,"volume_id":…} DeleteVolume's:
      // the call the program's next lines serve, as if its call line were there)
      const payload = meth === null && /grpc/i.test(m.id) ? printedPayloadStage(message) : undefined;
      const called = payload && /^GRPC request\b/.test(message) ? CALL_OF_PAYLOAD[payload] : undefined;
      if (called) lastMethod.set(`call|${program}`, called);
      // the same rule the cluster applies when it prints the line (shared/stage.ts)
      // (a driver's own line that more than one call prints: the call its program is serving)
      const ownStage = meth?.startsWith(ADDONS) ? 'other' : lineStage(m.id, m, { method: meth, error: errorPart(message), text: message });
      const stage = m.source.startsWith('csi-driver') && !/grpc/i.test(m.id) ? callSide(ownStage, lastMethod.get(`call|${program}`)) : ownStage;
      // nothing on the line or before it said which call this is: the whole paste may (inferFromPaste)
      // (a response whose body says what it is, a capabilities list, is decided; a payload is read only with no call known)
      const open = stage === 'other' && /grpc/i.test(m.id) && payload === null;
      let component = m.component;
      // the driver's controller and node plugins print the same interceptor lines: the method tells them apart
      // (an Identity method both serve: the paste may tell, inferFromPaste)
      const side = meth && m.source.startsWith('csi-driver') ? (IDENTITY_METHOD.test(meth) ? 'identity' : /^Node/.test(meth) ? 'node' : 'controller') : null;
      if (side) component = side === 'node' ? 'csi-node-plugin' : 'csi-controller-plugin';
      // the sidecars share csi-lib-utils' connection.go lines: the method says which sidecar called
      else if (meth && SIDECAR_OF_STAGE[stage] && SIDECAR_SOURCE.test(m.source)) component = SIDECAR_OF_STAGE[stage]!;
      else if (hint && SIDECAR_SOURCE.test(hint.source) && SIDECAR_SOURCE.test(m.source)) component = hint.component;
      // (a handshake any sidecar makes, ControllerGetCapabilities: the sidecar whose own line the program printed last,
      // csi-resizer's "Started PVC processing" before the capabilities it asks ahead of each ControllerExpandVolume)
      else if (stage === 'other' && isGenericGrpc(m.id) && SIDECAR_SOURCE.test(m.source) && lastMethod.has(`sidecar|${program}`)) component = lastMethod.get(`sidecar|${program}`)!;
      if (SIDECAR_SOURCE.test(m.source) && !isGenericGrpc(m.id) && m.id !== 'event.recorded' && !SHARED_SIDECAR_LINE.test(m.id)) lastMethod.set(`sidecar|${program}`, component);
      if (m.id === 'event.recorded') {
        const reason = /reason[=:] ?["']?(\w+)/.exec(message)?.[1];
        const ev = reason ? c.events.get(reason) : undefined;
        if (ev) {
          return { ...base, component: ev.component, source: m.source, stage: ev.stage, step: ev.step ?? m.step ?? null, messageId: m.id, match: 'catalog',
            explanation: `${ev.explanation}${T.broadcaster(ev.component)}${note}`, ...(ev.cause ? { cause: ev.cause } : {}), ...(ev.next ? { next: ev.next } : {}) };
        }
        // an Event we do not know: the kind of object it is about and its reason and message say what for
        // ("Kind:\"VolumeGroupSnapshotContent\" … reason: 'GroupSnapshotContentCheckandUpdateFailed'")
        const kind = /Kind:"(\w+)"/.exec(message)?.[1] ?? '';
        const said = reason ? guessStage(`${kind} ${message.slice(message.indexOf(reason))}`) : null;
        if (said && said !== 'other') return { ...base, component, source: m.source, stage: said, step: null, messageId: m.id, match: 'catalog', explanation: renderExplanation(m, valuesOf(cf, message)) + note };
      }
      return {
        ...base, component, source: m.source, stage, step: stepFor(cf, stage), messageId: m.id, match: 'catalog',
        explanation: renderExplanation(m, valuesOf(cf, message)) + note, ...(m.cause && severity && severity !== 'I' ? { cause: m.cause } : {}), ...(m.next && severity && severity !== 'I' ? { next: m.next } : {}),
        ...(open ? { [OPEN]: true } : {}), ...(side ? { [SIDE]: side } : {}),
      };
    }
    const noise = noiseFileLine(NOISE_FILES.has(file), message) || NOISE_TEXT.test(message) || (KUBELET_NODE_FILE.test(file) && KUBELET_NODE_TEXT.test(message));
    const ctxMethod = /^GRPC (request|response|error)/.test(message) ? lastMethod.get(key) ?? lastMethod.get(`call|${program}`) : undefined;
    // (a program starting up says so whatever its file: "snapshot_controller_base.go] Starting CSI snapshotter")
    // (a CSI request or response the line prints says which call by its fields, before any word does)
    const words = noise ? null : printedPayloadStage(message) ?? guessStage(message);
    // (a node plugin's server naming a pod is serving NodePublishVolume, the one node call that knows the pod: podInfoOnMount)
    const publishing = (words === null || words === 'other') && NODE_SERVER_FILE.test(file) && NAMES_POD.test(message) ? 'mount' : null;
    // (the PV controller binds claims, provisions in-tree and reclaims: a line of its sync whose words name no stage, "enqueued
    // \"pv1\" for sync", "storeObjectUpdate updating volume", "synchronizing PersistentVolume[pv1]: phase: Available", is
    // the binding's, unless the volume's phase says it is being reclaimed, stageOfVolumePhase)
    const pvController = !PV_CONTROLLER_FILE.test(file) ? null
      : stageOfVolumePhase(/\bphase: (\w+)/.exec(message)?.[1] ?? '') ?? (words === null || words === 'other' ? 'provision' : null);
    const guessed = noise ? 'other' : (ctxMethod ? lineStage('x.grpcRequest', { stage: 'other', source: '' }, { method: ctxMethod }) : null) ?? publishing ?? pvController ?? (words === 'other' && !FILE_STAGE_OVER_WORDS.has(file) ? 'other' : FILE_STAGE[file] ?? words ?? FILE_STAGE_UNDER_WORDS[file]) ?? 'other';
    const component = hint?.component ?? guessComponent(file, message, guessed);
    const stage = !noise && component === 'node-driver-registrar' ? 'register'
      : callSide(sidecarSide(controllerSide(guessed, message, component), component, lastMethod.get(`op|${program}`)), lastMethod.get(`call|${program}`));
    // (open: nothing said what it is; a line a rule calls 'other', a start-up line, is decided)
    const open = stage === 'other' && words === null && !noise && !ctxMethod && !/Get(Plugin)?Capabilities|GetPluginInfo|Probe\b/.test(message);
    return {
      ...base, component, source: hint?.source ?? null, stage, step: null, messageId: null, match: 'guess', ...(open ? { [OPEN]: true } : {}),
      explanation: `${T.notOurs(`${file}:${lineNo}`)}${guessedFrom(stage)}${note}`,
    };
  }

  // kubectl describe / get events rows
  const ev = DESCRIBE_ROW.exec(s.rest) ?? DESCRIBE_ROW_SHORT.exec(s.rest);
  const ge = ev ? null : GET_EVENTS_ROW.exec(s.rest) ?? OLD_EVENT_ROW.exec(s.rest);
  // (only a reason we know makes a bare "Reason  message" line an Event)
  // (the e2e framework's dump is an Event whatever its reason: its source in braces says so)
  const e2e = ev || ge ? null : E2E_EVENT.exec(s.rest);
  const row = ev || ge || e2e ? null : REASON_ROW.exec(s.rest);
  const bare = e2e ?? (row && c.events.has(row[1]!) ? row : null);
  if (ev || ge || bare) {
    const reason = ev ? ev[2]! : ge ? ge[3]! : bare![1]!;
    // (the dump prints no type: an unknown reason's is read from its name, "FailedX" a Warning)
    const type = (ev ? ev[1] : ge ? ge[2] : c.events.get(reason)?.type ?? (/Fail|^Error/.test(reason) ? 'Warning' : 'Normal')) as 'Normal' | 'Warning';
    const age = ev ? ev[3]! : ge ? ge[1]! : e2e ? /\bAt (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/.exec(s.rest)?.[1] ?? null : null;
    const message = ev ? (ev[5] ?? ev[4]!) : ge ? ge[5]! : bare![2]!;
    const known = c.events.get(reason);
    const severity: Severity = type === 'Warning' ? 'W' : 'I';
    if (known) {
      const stage = knownEventStage(reason, known, message);
      const e = knownEvent(c, known, message);
      return { line: n, text, kind: 'event', component: known.component, source: 'events', stage, step: e.step, severity, time: age, host: s.host, messageId: reason, ...e.said };
    }
    // (a container's own Events name images and containers, "csi-attacher" among them: no volume's step; nor is a volume
    // health monitor's report of a volume's condition, whatever the condition says: "The volume isn't mounted"), unless it
    // names the kubelet's operation that kept the container from starting ("Error: failed to prepare subPath for volumeMount …")
    const stage = CONTAINER_EVENT.test(reason) ? stageOfOperation(message) ?? 'other'
      : VOLUME_NO_STEP_EVENT.test(reason) || WORKLOAD_EVENT.test(reason) ? workloadEventStage(reason, message) : guessStage(`${reason} ${message}`) ?? 'other';
    return {
      line: n, text, kind: 'event', component: null, source: 'events', stage, step: null, severity, time: age, host: s.host, messageId: reason, match: 'guess',
      explanation: `${T.unknownEvent(type, reason)}${guessedFrom(stage)}`,
    };
  }

  // mount-utils' multi-line error ("Mounting command: … / Mounting arguments: … / Output: …") continues the
  // record that printed its first line (mount_linux.go), however its fields are spaced
  // (and so do a Vault API error's pieces inside a driver's error, "URL: PUT https://…", "Code: 400. Errors:": VAULT_ERROR_PIECE)
  if (head && (MOUNT_UTILS_TAIL.test(s.rest) || VAULT_ERROR_PIECE.test(s.rest))) return continuing(head, n, text);
  // (and so do the lines a Ceph tool logs to its stderr, "2019-02-13 12:15:37.021148 7fddbda08d40 -1 parse_file: cannot
  // open /etc/ceph/ceph.conf …" (Ceph's own log format: time, thread, level), that the error of the program that ran it
  // carries, an Event's message, the kubelet's or a provisioner's; a Ceph daemon's log is its own records)
  if (head && CEPH_LOG.test(text) && !CEPH_LOG.test(head.text)) return continuing(head, n, text);
  // journald stores each line of a multi-line record as an entry of its own, under the same prefix ("… mount
  // failed: exit status 32" / "… missing codepage or helper program …"): an entry of the same program and host
  // without a header of its own continues the record before it
  // (a klog record's: systemd's own entries, "Unmounted /var/lib/kubelet/…", are each a record)
  if (head && s.host !== null && s.hint !== null && head.host === s.host && KLOG_ANYWHERE.test(head.text) && !startsRecord(s.rest) && !/^\s*[{[]/.test(s.rest)
    && String((head as unknown as Record<symbol, unknown>)[PROGRAM] ?? '').startsWith(`${s.hint}|${s.host}|`)) return continuing(head, n, text);
  // (a caption that is only a container's name, "csi-snapshotter", over the log the post pasted; or that says it is one,
  // "[node-driver-registrar container]", "csi-attacher logs:")
  const caption = /^\s*([a-z][\w.-]*)\s*$/.exec(text)?.[1];
  // (an error report's field that says what failed, "Error message:   Storage driver 'FILE_THIN' does not support snapshots.", is that failure)
  const field = /^\s*(Error message|Error|Cause|Details?|Description):\s+(\S.*)$/.exec(s.rest);
  const fieldSays = field ? guessStage(field[2]!) : null;
  if (((DECORATION.test(s.rest) && !(fieldSays && fieldSays !== 'other')) || SESSION.test(s.rest)) || CAPTION.test(text) || EVENT_CELL.test(text) || HTML_WRAPPER.test(text) || (VERSION_REPORT.test(s.rest) && !(head && prevContinued)) || (caption !== undefined && componentOfHint(caption) !== null) || containerOfCaption(text) !== null || (!s.time && PRINTED_OBJECT.test(s.rest) && !/\b(Normal|Warning)\b/.test(s.rest) && !(head && prevContinued))) return blankResult(n, text, 'decoration', T.decoration);

  if (PROMETHEUS_SAMPLE.test(s.rest)) return blankResult(n, text, 'decoration', T.metricSample);

  // (Python's logging prints a message of several lines as they are: a line after its record that starts none is its, unless
  // its words name another step than the record's: "Detaching volume vol-1 from node …" pasted below it is another program's)
  const pythonHead = head !== null && PYTHON_LOGGING.test(head.text) && text.trim() !== '' && !startsRecord(text);
  const anotherStep = pythonHead && ![null, 'other', head.stage].includes(guessStage(text));
  if (pythonHead && !anotherStep) return continuing(head, n, text);

  // a piece of the previous record: indented, or the previous line filled the terminal's width
  // (terminals cut at their exact width, so the previous piece is exactly 80, 100, 120… characters long)
  // (or a fragment: the line starts no record of its own and reads like the middle of one)
  // (or the next line of a multi-line message: a command's output printed after its first lines had already continued the record)
  // (a kubelet operation's message quoted at the head's own indent, '    "MountVolume.SetUp succeeded …', is another record,
  // unless the head is a header still waiting for its message, "… nestedpendingoperations.go:335]")
  if (head && !anotherStep && !startsRecord(text) && !MOUNT_TABLE.test(s.rest) && !(s.rest !== text && (s.time !== null || startsRecord(s.rest))) && !sameTimedSource(text, head.text)
    && !(KUBE_OPERATION.test(text.trimStart()) && indentOf(text) <= indentOf(head.text) && !/\.go:\d+\]\s*$/.test(head.text))
    && (/^\s{2,}\S/.test(text) || TERMINAL_WIDTHS.has(headLen) || /^[^A-Z\s]/.test(text) || headLen >= 120 || (prevContinued && text.trim() !== '')
      // (or the line under a header that has no message yet, "… nestedpendingoperations.go:301] " wrapped at a space; a blank
      // line or a fence between them ends the record before this)
      || KLOG_HEADER_ALONE.test(head.text))) {
    return continuing(head, n, text);
  }

  // no klog header: a message we know by its text, or keywords
  // (a container's prefix or a logger's fields say whose record this is; a bare stamp does not)
  // (and Go's log package, "2024/07/23 21:18:22 …": one Go program's records, a gRPC proxy's or a driver's)
  // (and a stamp followed by a level word, zap's console encoder "2022-07-22T23:30:23.642Z\tINFO\tnode/manager.go:195\t…": a logger's record)
  // (and a JSON logger's record that no parser took whole, cut by the post inside its stack trace: its fields say it is one)
  const ownProgram = hint !== null || /^time="|level=/.test(s.rest) || (JSON_RECORD.test(s.rest) && !/\}\s*$/.test(s.rest)) || (s.time !== null && /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}/.test(s.time))
    || (s.time !== null && /^(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|PANIC|DPANIC)\s/.test(s.rest))
    // (and a stamp, the process id, then the level in brackets, "2021-11-17 12:02:10.447586 3935702 [ERROR]: …": Huawei's CSI logger)
    || (s.time !== null && /^\d+ \[(DEBUG|INFO|WARNING|WARN|ERROR|FATAL)\]:? /.test(s.rest)) || PYTHON_LOGGING.test(s.rest);
  const cf = identify(c, { severity: null, file: null, line: null, message: s.rest.trim() }, hint?.source ?? pendingOperationOwner(s.rest));
  // (the call a logger's records serve, as for klog's: "/csi.v1.Node/NodeUnpublishVolume: REQ 0007 …", then its own lines)
  const ownCall = ownProgram ? WORK_CALL.exec(s.rest)?.[1] : undefined;
  if (ownCall) lastMethod.set(`call|${program}`, ownCall);
  if (cf) {
    const m = cf.msg;
    const named = methodIn(s.rest);
    // (a logger's gRPC interceptor logs the call, then its request and response: they are that call's, as klog's are; "GRPC
    // request: {}" after "GRPC call: /csi.v1.Node/NodeGetCapabilities" is the handshake's, whatever failed before it)
    // (and an empty response answers no capabilities or plugin-info call, which always list something: the last call that did work)
    if (named && ownProgram) {
      lastMethod.set(`grpc|${program}`, named);
      if (!ANSWERS_WITH_CONTENT.test(named)) lastMethod.set(`grpcWork|${program}`, named);
    }
    const before = ownProgram && /grpc/i.test(m.id) ? lastMethod.get(`grpc|${program}`) : undefined;
    const method = named ?? (before && ANSWERS_WITH_CONTENT.test(before) && EMPTY_RESPONSE.test(MSG_FIELD.exec(s.rest)?.[1] ?? s.rest) ? lastMethod.get(`grpcWork|${program}`) : before) ?? null;
    const stage = lineStage(m.id, m, { method, error: errorPart(s.rest), text: s.rest });
    // (a gRPC line that names no call, in a logger's record: the paste may say which, as for klog's)
    const open = method === null && stage === 'other' && /grpc/i.test(m.id) && ownProgram;
    return {
      line: n, text, kind: 'log', component: m.component, source: m.source, stage, step: m.step ?? null, severity: null, time: s.time, host: s.host, ...{ [PROGRAM]: program },
      messageId: m.id, match: 'catalog', explanation: renderExplanation(m, valuesOf(cf, s.rest.trim())) + note, ...(m.cause ? { cause: m.cause } : {}), ...(m.next ? { next: m.next } : {}),
      ...(open ? { [OPEN]: true } : {}),
    };
  }
  // (a time alone on its line, above an Event's message in a UI's list: the message's, which says what it is)
  if (STAMP_ALONE.test(text) || ANSIBLE_OUTPUT.test(text) || OBJECT_JSON.test(text) || RUNNER_LINE.test(text)) return blankResult(n, text, 'decoration', T.decoration);
  // (a logger's caller, "app/provisioner.go:174", names a file, not what the record says)
  // (a structured record's msg says what it is before its other fields do: msg="failed to delete volume" err="… still attached")
  const msgField = MSG_FIELD.exec(s.rest);
  const byMsg = msgField ? guessStage(msgField[1] ?? msgField[2]!) : null;
  // (an Event's reason alone on its line, its row's columns copied one a line: "FailedMount", whose words run together)
  const reasonAlone = /^\s*([A-Z][a-z]+[A-Z][A-Za-z]+)\s*$/.exec(s.rest)?.[1];
  const knownAlone = reasonAlone !== undefined ? c.events.get(reasonAlone) : undefined;
  const byReason = knownAlone ? knownEventStage(reasonAlone!, knownAlone, '') : null;
  const stage = byReason ?? (NOISE_TEXT.test(s.rest) || SANDBOX_RUNTIME.test(s.rest) || MOUNT_TABLE.test(s.rest) || DF_ROW.test(s.rest) || OOM_KILLER.test(text) || MULTIPATH_OUTPUT.test(s.rest) || applicationAudit(s.rest) || NO_STEP_MESSAGE.test(s.rest.trim()) || NODE_NOISE.test(text) ? 'other' : printedPayloadStage(s.rest)
    ?? byMsg ?? guessStage(s.rest.replace(/(^|\s)[\w./-]+\.go:\d+(?=\s)/g, ' ')));
  // (a msg that says nothing, "handler failed", with an error that names something: the error may be the reason, not the operation;
  // but a field that names the CSI call, msg="method called" method=/csi.v1.Controller/ControllerUnpublishVolume, says which it is)
  const weak = msgField !== null && byMsg === null && stage !== null && stage !== 'other' && !/\/csi\.v\d+\.\w+\/\w+/.test(s.rest);
  if (stage || hint || s.time || ownProgram) {
    const severity: Severity | null = /\b(error|failed|fatal)\b/i.test(s.rest) ? 'E' : /\bwarn(ing)?\b/i.test(s.rest) ? 'W' : null;
    const component = hint?.component ?? guessComponent(null, s.rest, stage ?? 'other');
    const side = controllerSide(stage ?? 'other', s.rest, component);
    const st = ownProgram ? callSide(side, lastMethod.get(`call|${program}`)) : side;
    // (a record of a known program whose words said nothing: its program's operation, as for klog's)
    const open = stage === null && ownProgram;
    return {
      line: n, text, kind: ownProgram || s.time !== null ? 'log' : 'unrelated', component, source: hint?.source ?? null, stage: st, step: null, ...{ [PROGRAM]: program },
      severity, time: s.time, host: s.host, messageId: null, match: 'guess', ...(open ? { [OPEN]: true } : {}), ...(weak ? { [WEAK]: true } : {}),
      explanation: `${T.notOursBare}${guessedFrom(st)}${note}`,
    };
  }
  return blankResult(n, text, 'unrelated', T.unrelated + note);
}

/** Our step for a matched format: the run of the same version profile when there is one. */
/** Our flow's step for a line: of the line's stage where the message is printed in several (byStage), of its format's profile where there is one. */
function stepFor(cf: CompiledFormat, stage?: Stage): StepRef | null {
  const profile = cf.profile as keyof NonNullable<KnownMessage['steps']>;
  const own = stage ? cf.msg.byStage?.[stage] : undefined;
  if (own) return own[profile] ?? own['1.30'] ?? own['1.20'] ?? null;
  return cf.msg.steps?.[profile] ?? cf.msg.step ?? null;
}

const SIDECAR_OF_STAGE: Partial<Record<Stage, string>> = {
  provision: 'external-provisioner', delete: 'external-provisioner', attach: 'external-attacher', detach: 'external-attacher',
  resize: 'external-resizer', snapshot: 'external-snapshotter',
};

/**
 * The stage of the CSI call a stack frame's function is ("FreeNASApiDriver.DeleteVolume", a Go panic's
 * "driver.(*Driver).NodeStageVolume"): its last name, a call on a volume or a snapshot; null for any other function.
 */
function csiCallOfFrame(fn: string): Stage | null {
  const method = /(?:^|\.)([A-Z]\w*(?:Volume|Snapshot))$/.exec(fn)?.[1];
  return method ? stageOfMethod(method) ?? null : null;
}

/** a frame of a JavaScript or Java stack trace ("    at async FreeNASApiDriver.DeleteVolume (/app/api.js:3013:7)") */
const STACK_FRAME = /^\s*at (?:async )?(?:([\w$.<>]+)(?: \[as \w+\])? \(.*\)|\S+:\d+(?::\d+)?\)?)\s*$/;

/**
 * A stack trace is one thing that happened: its frames name the call it happened in (a driver's
 * "FreeNASApiDriver.DeleteVolume" frame, under the API call that failed), so every frame takes the stage
 * of the CSI method a frame names, when one does.
 */
function stackTraces(out: ExplainedLine[]): void {
  for (let i = 0; i < out.length;) {
    if (!STACK_FRAME.test(out[i]!.text)) { i++; continue; }
    let j = i;
    let stage: Stage | null = null;
    for (let f: RegExpExecArray | null; j < out.length && (f = STACK_FRAME.exec(out[j]!.text)); j++) stage ??= f[1] ? csiCallOfFrame(f[1]) : null;
    if (stage) for (let k = i; k < j; k++) if (out[k]!.stage === 'other') out[k] = { ...out[k]!, stage };
    i = j;
  }
}

/**
 * A run of a record's fields printed one a line ("volumeId …", "context map[…]", "mountflags […]"), whose header the
 * paste cut: the fields are one record's, so they share the stage that most of those that say one say ("mountflags" and
 * "mountOptions" are a mount's whatever "volumeId" says). A blank line may sit among them.
 */
function fieldRuns(out: ExplainedLine[]): void {
  const piece = (l: ExplainedLine): boolean => l.kind === 'unrelated' && FIELD_PIECE.test(l.text);
  for (let i = 0; i < out.length;) {
    if (!piece(out[i]!)) { i++; continue; }
    const run: number[] = [];
    let j = i;
    for (; j < out.length; j++) {
      if (piece(out[j]!)) run.push(j);
      else if (!(out[j]!.kind === 'blank' && j + 1 < out.length && piece(out[j + 1]!))) break;
    }
    if (run.length >= 3) {
      const votes = new Map<Stage, number>();
      for (const k of run) if (out[k]!.stage !== 'other') votes.set(out[k]!.stage, (votes.get(out[k]!.stage) ?? 0) + 1);
      const [best, n] = [...votes].sort((a, b) => b[1] - a[1])[0] ?? [null, 0];
      if (best && n >= 2) for (const k of run) if (out[k]!.stage !== best) out[k] = { ...out[k]!, stage: best };
    }
    i = j;
  }
}

// ------------------------------------------------------------------ what the paste as a whole says

/** Marks a line whose stage nothing on it decided (internal; removed before results are returned). */
const OPEN = Symbol('open');
/** Marks a structured record whose msg said nothing, placed by its other fields only (internal) */
const WEAK = Symbol('weak');
/** csi-attacher's lines before it has decided between attaching and detaching a VolumeAttachment */
const VA_UNDECIDED = new Set(['externalAttacher.startedVAProcessing', 'externalAttacher.processingVA', 'externalAttacher.foundNodeID']);
const VA_NAME = /csi-[0-9a-f]{64}/;
/** a sync that finds its VolumeAttachment attached already: nothing runs, and the sync's lines are no attach (`other`) */
const VA_ALREADY_ATTACHED = 'externalAttacher.alreadyAttached';
/** csi-attacher's lookup of the node's ID in its CSINode, for either operation */
const NODE_LOOKUP = new Set(['externalAttacher.foundNodeID', 'externalAttacher.cantGetCSINode']);
/** a table's row (columns apart by runs of spaces or by '|') or an object's field ("source:", "  count: 4") */
const NOT_PROSE = /^\s*[{[]|\S {3,}\S.* {3,}\S| \| |^\s*[\w.-]+:(\s|$)|^\s*-{2,}/;
/**
 * Lines before a PersistentVolume's sync has decided whether it is a delete: csi-attacher's before it
 * looked at the deletion timestamp, csi-provisioner's "shouldDelete" before its verdict (lib v10)
 */
/** (and csi-resizer's first line about a claim, which its queue takes at every update: only its next line says whether it resizes it) */
const PV_UNDECIDED = new Set(['externalAttacher.startedPVProcessing', 'externalAttacher.processingPV', 'externalProvisioner.shouldDelete', 'externalResizer.startedPvcProcessing']);
const PV_NAME = /PersistentVolume="([^"]+)"|\bPV[ =]"([^"]+)"|processing "([^"]+)"|PVC processing(?: for resize controller"?)? (?:key=)?"([^"]+)"/;
/** the first line of a new sync of the same PV, per component (its lines after it are that sync's) */
const PV_SYNC_START: Record<string, string> = { 'externalAttacher.': 'externalAttacher.startedPVProcessing', 'externalProvisioner.': 'externalProvisioner.shouldDelete', 'externalResizer.': 'externalResizer.startedPvcProcessing' };
/** A program stopping: a Go server's signal handler ("received signal; shutting down", "gracefully stopped", "Received SIGTERM, exiting"). */
const PROCESS_STOP = /\b(received|caught|got) (a |the )?(signal\b|SIG(TERM|INT|QUIT)\b|terminat(ed|ion) signal\b)|\bgracefully (stopped|shut ?down)\b|\bshutting down (the )?(g?rpc |csi |http |metrics )?(server|driver|plugin|service)\b/i;
/** A driver's or sidecar's start-up banner: the lines after it belong to the new process, not to the operation before. */
const PROCESS_START = /\bDriver: \S+ Version: |\bDRIVER INFORMATION\b|"Version" version=|\bVersion: v\d+\.\d+|\bStarting (?:the )?(?:CSI )?(?:driver|plugin|server|node service|controller service)\b|\bListening for connections\b/i;
/**
 * What a program's first lines say: its version, build, flags, banner or start ("FLAG: --v=\"5\"", "Starting …", "Driver version: …",
 * "csiVersion: 0.3.0", Go protobuf's "proto: duplicate proto type registered").
 */
const START_LIKE = new RegExp(`${PROCESS_START.source}|version|\\bproto: duplicate proto type registered\\b|\\b(build|commit|flags?|starting|started|initiali[sz]\\w*|listening|serving|loaded|loading|config(uration)?|feature gates?|driver name|node ?id|endpoint|socket|connecting|connected|leader)\\b`, 'i');
/** a CSI driver's gRPC line: the service of its method (identity: both plugins serve it) */
const SIDE = Symbol('side');
/** a command that prints one container's or program's log ("kubectl logs pod -c csi-attacher", "# journalctl -u kubelet") */
const LOGS_COMMAND = /\b(kubectl|oc|k|crictl|docker|nerdctl|podman) (\S+ )*logs\b|\bjournalctl\b/;
/**
 * The container a post's caption names over the log it pasted: "[node-driver-registrar container]",
 * "csi-attacher logs:", "Logs from the liveness-probe container:" (null: no caption of one container).
 */
function containerOfCaption(text: string): string | null {
  const m = /^[\s*_#>`[]*(?:(?:the\s+)?logs?\s+(?:of|from|for)\s+(?:the\s+)?)?([a-z][\w.-]*[a-z0-9])(?:\s+(container|sidecar|pod))?(?:'s)?(?:\s+(logs?|output))?[\s*_`\]]*:?[\s*_`\]]*$/i.exec(text);
  if (!m) return null;
  // (a word alone is a caption only when it names a component, "csi-attacher:"; "<name> container", "<name> logs" say
  // it is one; "Events:", "[snip]" are not)
  return m[2] || m[3] || componentOfHint(m[1]!) ? m[1]!.toLowerCase() : null;
}

/** The container a logs command names: its -c/--container value, or the positional word after the pod's. */
function containerOfLogsCommand(text: string): string | null {
  const words = text.slice(LOGS_COMMAND.exec(text)!.index).trim().split(/\s+/).slice(1);
  const positional: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const flag = /^(-c|--container)(=(.+))?$/.exec(w);
    if (flag) return flag[3] ?? words[i + 1] ?? null;
    if (w.startsWith('-')) { if (/^(-n|--namespace|--tail|--since)$/.test(w)) i++; continue; }
    if (w !== 'logs') positional.push(w);
  }
  if (positional.length >= 2) return positional.at(-1)!;
  // only a pod, of a Deployment named after one sidecar ("csi-attacher-7b645fb6b-65b6b"): that sidecar's log
  // (not "csi-rbdplugin-provisioner-…", whose pod runs every controller sidecar beside the driver)
  const pod = positional[0];
  return pod && /^(csi-)?(external-)?(attacher|provisioner|resizer|snapshotter|node-driver-registrar)-/.test(pod) ? pod : null;
}

/**
 * The lines every sidecar prints, filed in the catalog under csi-provisioner or csi-attacher: csi-lib-utils'
 * connection and start-up lines (version, connecting, probing the driver, its name and capabilities)
 */
const SHARED_SIDECAR_LINE = /\.(version|connecting|stillConnecting|legacyStillTrying|probing|probeTimedOut|driverNotReady|probeFailed|getDriverNameFailed|capabilitiesFailed|controllerCapabilitiesFailed|driverName|detectedDriver)$/;
/** csi.proto's Identity service: GetPluginInfo, GetPluginCapabilities, Probe */
const IDENTITY_METHOD = /^(GetPluginInfo|GetPluginCapabilities|Probe)$/;
/** The program a log line came from (prefix hint, host, klog thread id), noted while reading it (internal). */
const PROGRAM = Symbol('program');

/**
 * Lines only one sidecar prints: a paste with them (and no other sidecar's) is that sidecar's log. A
 * line known from node-driver-registrar's catalog is one too: it shares no message with the others
 * (the csi-lib-utils lines every sidecar prints are filed under csi-provisioner and csi-attacher).
 */
/**
 * The sidecars a paste's part can be told to be by its lines (the regex) or by the container a command names; `speaksAs`:
 * the source whose catalog wording the program prints as its own start-up, which then neither marks that other program nor
 * stays its line.
 */
const SIDECAR_MARKERS: Array<[RegExp, { component: string; source: string; stage: Stage | null; speaksAs?: string }]> = [
  // ("Attempting to open a gRPC connection with": the registrars' main.go at every tag, driver-registrar v0.x to
  // node-driver-registrar v2; no other sidecar prints it)
  [/node-driver-registrar|node_register\.go|Registration Server|Received (GetInfo|NotifyRegistrationStatus) call|Attempting to open a gRPC connection\b/, { component: 'node-driver-registrar', source: 'node-driver-registrar', stage: 'register' }],
  [/csi-provisioner|external-provisioner|Started provisioner controller/, { component: 'external-provisioner', source: 'csi-provisioner', stage: null }],
  [/csi-attacher|external-attacher|csi_handler\.go/, { component: 'external-attacher', source: 'csi-attacher', stage: null }],
  [/csi-resizer|external-resizer/, { component: 'external-resizer', source: 'csi-resizer', stage: null }],
  [/csi-snapshotter|external-snapshotter|snapshot_controller/, { component: 'external-snapshotter', source: 'csi-snapshotter', stage: null }],
  // (kubernetes-csi/livenessprobe: only by the container a command or kubectl's notice names, "Defaulted container
  // "liveness-probe""; its start-up is the registrar's, word for word: cmd/livenessprobe/main.go:137 and :145 at v2.19.0,
  // "Calling CSI driver to discover driver name", "CSI driver name"; and it serves a health check: no step)
  [/^(?!)/, { component: 'livenessprobe', source: 'livenessprobe', stage: 'other', speaksAs: 'node-driver-registrar' }],
];

/** The index in SIDECAR_MARKERS of the sidecar a container name is (-1: none, or not a sidecar). */
const sidecarMarkerOf = (container: string | null): number => {
  const who = componentOfHint(container);
  return SIDECAR_MARKERS.findIndex(([, m]) => m.source === who?.source);
};

/**
 * The line that says what the sync line `i` belongs to: the first deciding one among the next 15, up to
 * the object's next sync (whose lines are that sync's).
 */
function decidingLine(out: ExplainedLine[], i: number, isNextSync: (x: ExplainedLine) => boolean, decides: (x: ExplainedLine) => boolean): ExplainedLine | undefined {
  const window = out.slice(i + 1, i + 16);
  const end = window.findIndex(isNextSync);
  return (end < 0 ? window : window.slice(0, end)).find(decides);
}

/** A csi-attacher line that says what its VolumeAttachment's sync is: an attach, a detach, or nothing (already attached). */
const decidesVASync = (x: ExplainedLine): boolean => x.component === 'external-attacher' && !VA_UNDECIDED.has(x.messageId ?? '')
  && (x.stage === 'attach' || x.stage === 'detach' || x.messageId === VA_ALREADY_ATTACHED);

/**
 * csi-attacher's nearest line before `i` (at most `window` back) that had decided between attaching and
 * detaching, among those `also` accepts: the operation the lines after it belong to.
 */
function attacherOperationBefore(out: ExplainedLine[], i: number, window: number, also: (x: ExplainedLine) => boolean): ExplainedLine | undefined {
  for (let j = i - 1; j >= Math.max(0, i - window); j--) {
    const x = out[j]!;
    if (decidesVASync(x) && also(x)) return x;
  }
  return undefined;
}

/** a CSI driver's identity server's own line (klog's file name): identityserver.go, identity_server.go, identity.go */
const IDENTITY_SERVER = /\bidentity(_?server)?\.go:\d+\]/;

/**
 * Two readings only the whole paste allows:
 * - a paste that is one sidecar's log (its own marker lines, no other sidecar's): its startup lines that
 *   every sidecar prints (version, connecting, probing) are that sidecar's; node-driver-registrar's are `register`;
 * - a program's lines we cannot place (a driver's own chatter while it stages a volume) belong to the
 *   operation that program was just doing: the stage of its previous placed line, a few lines back at most.
 */
function inferFromPaste(out: ExplainedLine[]): void {
  // a paste of several containers' logs, each after its own "kubectl logs …" command: each part is read on its own
  const section: number[] = [];
  const foundIn: Array<Set<number>> = [new Set()];
  /** sections that are a container's whole log, from its start */
  const wholeLogAt = new Set<number>();
  /** sections that are a driver's log (the logs command or the caption names a plugin's container): its words "registered" are its own set-up */
  const driverLogAt = new Set<number>();
  /** sections with a log line so far */
  const loggedIn = new Set<number>();
  /** a whole log's first lines read so far, and whether one of them was a start-up's */
  const firstLines = new Map<number, number>();
  const startSeen = new Set<number>();
  for (const l of out) {
    // a post's caption naming the container whose log follows ("[node-driver-registrar container]", "csi-attacher logs:")
    // starts that container's part, as a logs command does
    const captioned = l.kind === 'decoration' && !LOGS_COMMAND.test(l.text) ? containerOfCaption(l.text) : null;
    if (captioned !== null) {
      const marker = sidecarMarkerOf(captioned);
      if (/plugin|driver|csi/.test(componentOfHint(captioned)?.component ?? '')) driverLogAt.add(foundIn.length);
      foundIn.push(new Set(marker >= 0 ? [marker] : []));
    }
    if (l.kind === 'decoration' && LOGS_COMMAND.test(l.text)) {
      if (/plugin|driver|csi/.test(componentOfHint(containerOfLogsCommand(l.text))?.component ?? '')) driverLogAt.add(foundIn.length);
      // the whole log of a container (no --tail, --since or label selector, which shows the last ten lines) opens with its start-up
      // (nor piped through a filter: "kubectl logs … | grep <volume>" keeps only some lines of it)
      if (/\blogs\b/.test(l.text) && !/\s(--tail|--since|--since-time|-l|--selector)\b|\|/.test(l.text)) wholeLogAt.add(foundIn.length);
      // the container the command names says whose log follows ("kubectl logs pod -n ns node-driver-registrar")
      const marker = sidecarMarkerOf(containerOfLogsCommand(l.text));
      foundIn.push(new Set(marker >= 0 ? [marker] : []));
    }
    // kubectl's notice before the log of the container it picked ("Defaulted container "csi-snapshotter" out of: …") says whose log follows
    const defaulted = l.kind === 'decoration' ? /^\s*Defaulted container "([^"]+)"/.exec(l.text) : null;
    const marker = defaulted ? sidecarMarkerOf(defaulted[1]!) : -1;
    if (marker >= 0) foundIn[foundIn.length - 1]!.add(marker);
    section.push(foundIn.length - 1);
    // (a post that cut the log's beginning says so before its first line, "...", "・・・", "[snip]": what follows is no start-up)
    if (l.kind === 'decoration' && ELISION.test(l.text) && wholeLogAt.has(foundIn.length - 1) && !loggedIn.has(foundIn.length - 1)) wholeLogAt.delete(foundIn.length - 1);
    // (nor does one whose first lines are no start-up's: a program's log opens with its version, flags or banner within its
    // first three lines; a post that begins in the middle of a request, "… (executer.go:75) - Executing command :
    // {multipath}", pasted a part of it)
    if (l.kind === 'log' && wholeLogAt.has(foundIn.length - 1) && !startSeen.has(foundIn.length - 1)) {
      const seen = (firstLines.get(foundIn.length - 1) ?? 0) + 1;
      firstLines.set(foundIn.length - 1, seen);
      if (START_LIKE.test(l.text)) startSeen.add(foundIn.length - 1);
      else if (seen >= 3) wholeLogAt.delete(foundIn.length - 1);
    }
    if (l.kind === 'log') loggedIn.add(foundIn.length - 1);
    if (l.kind !== 'log' && l.kind !== 'continuation') continue;
    const found = foundIn[foundIn.length - 1]!;
    // (in the log of a program that speaks another's wording, named so, that wording is its own: the liveness probe's start-up)
    SIDECAR_MARKERS.forEach(([re, who], i) => { if ([...found].some((j) => SIDECAR_MARKERS[j]![1].speaksAs === who.source)) return; if (re.test(l.text) || (l.match === 'catalog' && l.source === who.source && !SIDECAR_SOURCE.test(who.source) && !(l.messageId && SHARED_SIDECAR_LINE.test(l.messageId)))) found.add(i); });
  }
  const onlyIn = foundIn.map((found) => found.size === 1 ? SIDECAR_MARKERS[[...found][0]!]![1] : null);
  // (a program is known within its part of the paste: another logs command shows another container)
  const programAt = (j: number): string => `${section[j]!}|${String((out[j] as unknown as Record<symbol, unknown>)[PROGRAM] ?? '')}`;
  const lastStage = new Map<string, { stage: Stage; at: number }>();
  // programs starting up (after their banner, or at the top of a container's whole log) until their first call
  const starting = new Set<string>();
  const startedSections = new Set<number>();
  // the Controller call each program is serving (its gRPC line named it)
  const serving = new Map<string, { stage: Stage; at: number; side: unknown }>();
  for (let i = 0; i < out.length; i++) {
    const l = out[i]!;
    if (l.kind !== 'log') continue;
    const noise = NOISE_TEXT.test(l.text) || (l.match !== 'catalog' && DRIVER_BANNER.test(l.text)) || noiseFileLine(NOISE_FILE_IN_LINE.test(l.text), l.text);
    const only = onlyIn[section[i]!];
    // (a sidecar logs through klog: a line without a klog header is another program's, the driver's)
    // (a line known as another sidecar's own, not one they all print, stays that sidecar's)
    const othersOwn = l.match === 'catalog' && l.source !== only?.source && !(l.messageId && (isGenericGrpc(l.messageId) || SHARED_SIDECAR_LINE.test(l.messageId)))
      && l.source !== only?.speaksAs;
    // (a start-up line every sidecar prints, matched to node-driver-registrar's wording in another sidecar's
    // log: "CSI driver name" is csi-attacher v4.4's main.go:154 as much as the registrar's; not registration there)
    const registrarWording = l.source === 'node-driver-registrar' && only != null && only.source !== l.source && !!l.messageId && (SHARED_SIDECAR_LINE.test(l.messageId) || only.speaksAs === l.source);
    if (only && !noise && !othersOwn && (l.stage === 'other' || registrarWording) && KLOG_ANYWHERE.test(l.text) && (l.source === null || SIDECAR_SOURCE.test(l.source) || l.source === only.source || registrarWording)) {
      out[i] = { ...l, component: only.component, source: only.source, stage: only.stage ?? 'other' };
    }
    const cur = out[i]!;
    const prog = programAt(i);
    // a process that (re)starts is no longer doing what its previous lines were about
    if (PROCESS_START.test(cur.text)) { lastStage.delete(prog); serving.delete(prog); starting.add(prog); }
    // (and one that stops, on a signal, is done with them: its "shutting down" is its own, no step of a volume)
    if (cur.stage === 'other' && PROCESS_STOP.test(cur.text)) { lastStage.delete(prog); serving.delete(prog); continue; }
    if (wholeLogAt.has(section[i]!) && !startedSections.has(section[i]!)) { startedSections.add(section[i]!); starting.add(prog); }
    // a program starting up serves no volume yet: what its words seemed to say ("loaded mounter: kernel",
    // "PluginInitialize") is its set-up, until it names a CSI call or a line the catalog knows places it
    if (starting.has(prog)) {
      // (or says what it is doing to a volume, "attaching volume", "deleting volume …": that is an operation, not set-up)
      const placed = (cur.match === 'catalog' && cur.stage !== 'other') || /\b\w+(Volume|Snapshot)\b/i.test(cur.text) || (cur as unknown as Record<symbol, unknown>)[SIDE] !== undefined
        || (cur.match === 'guess' && VOLUME_OPERATION.test(cur.text))
        // (or mounts or unmounts at a path the kubelet gave a volume, a pod's volume directory or a staging "globalmount")
        || (cur.match === 'guess' && (cur.stage === 'mount' || cur.stage === 'unmount') && KUBELET_VOLUME_PATH.test(cur.text))
        // (or its node server names the pod it publishes for)
        || (cur.match === 'guess' && cur.stage === 'mount' && NODE_SERVER_IN_LINE.test(cur.text) && NAMES_POD.test(cur.text))
        // (or formats a disk to mount it: mount-utils' formatAndMount, which only NodeStageVolume or a mount runs)
        || (cur.match === 'guess' && FORMAT_AND_MOUNT.test(cur.text));
      if (placed) starting.delete(prog);
      // (an error is no set-up chatter: a failing operation says so whatever started before it; nor a warning that
      // reports a failure, "W… rbd_attach.go:469] … rbd: map error …")
      // (a driver's own words at start-up, "proto type registered", "CSI Driver: … csiVersion", are no registration: its
      // NodeGetInfo answer is, the registrar asks it)
      else if (cur.match === 'guess' && cur.stage !== 'other' && (cur.stage !== 'register' || (driverLogAt.has(section[i]!) && !/\bNodeGetInfo\b/.test(cur.text))) && cur.severity !== 'E' && !(cur.severity === 'W' && /\b(error|failed|failure)\b/i.test(cur.text))) { out[i] = { ...cur, stage: 'other' }; continue; }
    }
    // a controller plugin's own mounts inside the call it serves (csi-driver-smb mounts the share to make a
    // volume's directory in CreateVolume and DeleteVolume) are that call's steps, not a node's mount
    // (and a node plugin's "attach" words inside NodeStageVolume, "found attached GCE PD at /dev/…", are the staging's
    // look for the device the controller attached: the node side never attaches)
    // (and a driver's interceptor line read as a sidecar's, "server.go:117] GRPC call: /csi.v1.Controller/CreateVolume" in a
    // driver that logs as csi-lib-utils does: the program serves that call)
    const side = (cur as unknown as Record<symbol, unknown>)[SIDE]
      ?? ((cur.match === 'guess' || /\bGRPC call: /.test(cur.text)) && cur.stage !== 'other' ? /\/csi\.v\d+\.(Node|Controller)\/\w+/.exec(cur.text)?.[1]?.toLowerCase() : undefined);
    if ((side === 'controller' || side === 'node') && cur.stage !== 'other') serving.set(prog, { stage: cur.stage, at: i, side });
    const call = serving.get(prog);
    const foreign = call?.side === 'node' ? cur.stage === 'attach' || cur.stage === 'detach' : cur.stage === 'mount' || cur.stage === 'unmount';
    if (call && cur.match === 'guess' && foreign && i - call.at <= 20) {
      out[i] = { ...cur, stage: call.stage };
      lastStage.set(prog, { stage: call.stage, at: i });
      continue;
    }
    const prev = lastStage.get(prog);
    // a program's look at mounts while it tears a volume down ("executing mount command: findmnt --mountpoint …",
    // "mounter.GetPath", "IsLikelyNotMountPoint", a mount point's path) is the teardown's: the word "mount" alone names
    // no mounting
    // (and while it grows a mounted file system: "Device /dev/mapper/pvc-… contains filesystem of format ext4" is the resize's look)
    // (not a line that names the kubelet's mount operation itself: "Failed to prepare subPath for volumeMount" after the
    // clean-up of the bind mount that failed)
    if (cur.match === 'guess' && cur.stage === 'mount' && (prev?.stage === 'unmount' || prev?.stage === 'resize') && i - prev.at <= 20 && !MOUNTING.test(cur.text) && stageOfOperation(cur.text) !== 'mount') {
      out[i] = { ...cur, stage: prev.stage, explanation: `${cur.explanation}${T.sameProgram(prev.stage, prev.at + 1)}` };
      lastStage.set(prog, { stage: prev.stage, at: i });
      continue;
    }
    // a line nothing placed (a driver's own chatter, a gRPC line with no method known): its program's operation
    const open = (cur as unknown as Record<symbol, unknown>)[OPEN] === true;
    if ((cur as unknown as Record<symbol, unknown>)[WEAK] === true && prev && i - prev.at <= 20 && prev.stage !== cur.stage) {
      out[i] = { ...cur, stage: prev.stage, explanation: `${cur.explanation}${T.sameProgram(prev.stage, prev.at + 1)}` };
      lastStage.set(prog, { stage: prev.stage, at: i });
      continue;
    }
    const bareGrpc = open && cur.match === 'catalog';
    // (a driver's identity server answers GetPluginInfo, GetPluginCapabilities and Probe, which both plugins' callers ask
    // at any time: its lines, "identityserver.go:59] Using default capabilities", are never a volume operation's)
    if (open && cur.stage === 'other' && !noise && !IDENTITY_SERVER.test(cur.text)) {
      if (prev && i - prev.at <= 20) {
        out[i] = { ...cur, stage: prev.stage, explanation: `${cur.explanation}${T.sameProgram(prev.stage, prev.at + 1)}` };
      } else if (bareGrpc) {
        // the response and error lines come in pairs: the next one may say what the call was; and the
        // caller reports the call's outcome right after its gRPC lines ("CreateVolume failed, …")
        const samePlaced = (x: ExplainedLine): boolean => x.kind === 'log' && x.stage !== 'other' && programAt(x.line - 1) === prog;
        const next = out.slice(i + 1, i + 3).find((x) => x.kind === 'log' && /GRPC (request|response|error)/.test(x.text) && x.stage !== 'other')
          ?? out.slice(i + 1, i + 3).find((x) => samePlaced(x) && !/GRPC (call|request|response|error)/.test(x.text));
        if (next) out[i] = { ...cur, stage: next.stage, explanation: `${cur.explanation}${T.sameCall(next.line)}` };
      }
    }
    if (out[i]!.stage !== 'other') lastStage.set(prog, { stage: out[i]!.stage, at: i });
  }
  // an Identity call (GetPluginInfo, Probe…) is served by both plugins: it is the plugin whose Node or
  // Controller calls sit nearest to it in the same program's lines (node-driver-registrar's start-up, or
  // a sidecar's). A paste of one plugin's container shows only that plugin's calls.
  // One pass each way, keeping each program's last Node/Controller line, so a large paste stays linear;
  // on a tie the earlier line wins.
  const sideOf = (i: number): { side: unknown; prog: unknown } => {
    const r = out[i] as unknown as Record<symbol, unknown>;
    return { side: r[SIDE], prog: r[PROGRAM] };
  };
  const before = new Map<number, { at: number; side: unknown }>();
  const seen = new Map<unknown, { at: number; side: unknown }>();
  for (let i = 0; i < out.length; i++) {
    const { side, prog } = sideOf(i);
    if (side === 'node' || side === 'controller') seen.set(prog, { at: i, side });
    else if (side === 'identity' && seen.has(prog)) before.set(i, seen.get(prog)!);
  }
  seen.clear();
  for (let i = out.length - 1; i >= 0; i--) {
    const { side, prog } = sideOf(i);
    if (side === 'node' || side === 'controller') { seen.set(prog, { at: i, side }); continue; }
    if (side !== 'identity') continue;
    const prev = before.get(i);
    const next = seen.get(prog);
    const best = prev && (!next || i - prev.at <= next.at - i) ? prev : next;
    if (best?.side === 'node') out[i] = { ...out[i]!, component: 'csi-node-plugin' };
  }
  // csi-attacher takes a VolumeAttachment from its queue before it knows whether to attach or detach it:
  // those first lines are about the operation the next decided line of that VolumeAttachment names
  // (external-attacher controller.go syncVA, csi_handler.go SyncNewOrUpdatedVolumeAttachment)
  // (the last line that names each VolumeAttachment, looked up once per name: a long attacher log has thousands of syncs)
  const lastMention = new Map<string, number>();
  const lastLineNaming = (va: string): number => {
    let k = lastMention.get(va);
    if (k === undefined) {
      for (k = out.length - 1; k >= 0 && !out[k]!.text.includes(va); k--);
      lastMention.set(va, k);
    }
    return k;
  };
  for (let i = 0; i < out.length; i++) {
    const l = out[i]!;
    if (!VA_UNDECIDED.has(l.messageId ?? '')) continue;
    const va = VA_NAME.exec(l.text)?.[0];
    const next = decidingLine(out, i, (x) => x.messageId === 'externalAttacher.startedVAProcessing' && (!va || x.text.includes(va)),
      (x) => decidesVASync(x) && (!va || !VA_NAME.test(x.text) || x.text.includes(va)));
    if (next && next.stage !== l.stage) out[i] = { ...l, stage: next.stage };
    // a sync whose next lines the paste does not have (it ends there, or shows only other VolumeAttachments' syncs)
    // says of no operation: it may as well find the VolumeAttachment attached already, as most syncs do
    else if (!next && va && lastLineNaming(va) <= i) out[i] = { ...l, stage: 'other' };
  }
  // and "finished processing" closes whichever it was: the VolumeAttachment's previous decided line says
  for (let i = 0; i < out.length; i++) {
    const l = out[i]!;
    const va = l.messageId === 'externalAttacher.finishedProcessing' ? VA_NAME.exec(l.text)?.[0] : undefined;
    if (!va) continue;
    const prev = attacherOperationBefore(out, i, 15, (x) => x.messageId !== l.messageId && x.text.includes(va));
    if (prev && prev.stage !== l.stage) out[i] = { ...l, stage: prev.stage };
  }
  // it looks the node's ID up in its CSINode for a detach as for an attach (v4.6.1 csi_handler.go getNodeID,
  // called by csiAttach at :511 and csiDetach at :581): the lookup belongs to the operation its handler had just started
  for (let i = 0; i < out.length; i++) {
    const l = out[i]!;
    if (!NODE_LOOKUP.has(l.messageId ?? '')) continue;
    const prev = attacherOperationBefore(out, i, 6, (x) => !NODE_LOOKUP.has(x.messageId ?? ''));
    if (prev && prev.stage !== l.stage) out[i] = { ...l, stage: prev.stage };
  }
  // its PV queue likewise takes every updated PersistentVolume: only the next line about that PV says
  // whether it is being deleted (csi_handler.go SyncNewOrUpdatedPersistentVolume: "no deletion timestamp,
  // ignoring" for every other update); csi-provisioner's volume queue too (shouldDelete, then its verdict)
  for (let i = 0; i < out.length; i++) {
    const l = out[i]!;
    if (!PV_UNDECIDED.has(l.messageId ?? '')) continue;
    const pv = PV_NAME.exec(l.text);
    const name = pv?.[1] ?? pv?.[2] ?? pv?.[3] ?? pv?.[4];
    if (!name) continue;
    const prefix = l.messageId!.slice(0, l.messageId!.indexOf('.') + 1);
    const next = decidingLine(out, i, (x) => x.messageId === PV_SYNC_START[prefix] && x.text.includes(name),
      (x) => x.component === l.component && !!x.messageId?.startsWith(prefix) && !PV_UNDECIDED.has(x.messageId) && x.text.includes(name));
    if (next && next.stage !== l.stage) out[i] = { ...l, stage: next.stage };
  }
  // a message posted without headers over several lines ("MountVolume.MountDevice failed … desc =" and the
  // driver's error text on the lines below it): a bare line nothing placed, right under a bare line that
  // was placed, is more of that message
  // (a few lines at most, and not a table's row or an object's field: those are other things printed after it)
  for (let i = 0, head = -1; i < out.length; i++) {
    const l = out[i]!;
    if (l.kind === 'unrelated' && l.match !== 'none') { head = l.stage !== 'other' ? i : -1; continue; }
    // (nor a line behind a time and the same source as that one: a record of its own, sameTimedSource)
    if (head >= 0 && l.kind === 'unrelated' && l.match === 'none' && i - head <= 3 && !NOT_PROSE.test(l.text) && !sameTimedSource(l.text, out[head]!.text)) {
      out[i] = { ...l, stage: out[head]!.stage, component: out[head]!.component, explanation: `${l.explanation}${T.sameMessage(head + 1)}` };
      continue;
    }
    head = -1;
  }
  printedObjects(out);
  commandOutput(out);
  for (const l of out) { const r = l as unknown as Record<symbol, unknown>; delete r[OPEN]; delete r[PROGRAM]; delete r[SIDE]; delete r[WEAK]; }
  // continuation lines follow their head
  for (let i = 0; i < out.length; i++) {
    const l = out[i]!;
    if (l.kind === 'continuation' && l.continues) {
      const h = out[l.continues - 1]!;
      out[i] = { ...l, stage: h.stage, component: h.component, source: h.source };
    }
  }
}

/**
 * mount-utils' formatAndMount looking at a disk before it mounts it (mount_linux.go formatAndMountSensitive: "Attempting to
 * determine if disk %q is formatted using blkid with args: (%v)", "Disk %q appears to be unformatted, attempting to format as
 * type: %q with options: %v", "Disk successfully formatted (mkfs): …", "Attempting to mount disk %s in %s format at %s").
 */
const FORMAT_AND_MOUNT = /\bAttempting to determine if disk "[^"]*" is formatted\b|\bappears to be unformatted, attempting to format\b|\bDisk successfully formatted\b|\bAttempting to mount disk \S+ in \S+ format\b/;

/** Words that say a volume is being mounted, staged or published, or its device connected (not only that mounts are looked at). */
const MOUNTING = /\b(mounting|mounted|mount(ed)? (succeeded|successful|failed|volume|device|options)|MountDevice|MountVolume|SetUp|NodeStage\w*|NodePublish\w*|stag(e|ed|ing) (the )?volume|publish(ed|ing)? (the )?volume|formatting|mkfs|fsck|log(ged)? ?in(to)?|operational|couldn't get (configMap|secret))\b/i;

/** A post's mark for lines it left out: "...", "…", "・・・", "[snip]", "<snip>". */
const ELISION = /^\s*(\.{3,}|…+|・{2,}|⋮|\[\s*(\.\.\.|…|snip(ped)?|truncated|omitted)\s*\]|<\s*snip(ped)?\s*>)\s*$/i;

/** A line that says what its program is doing to a volume: an operation's verb, then the volume ("attaching volume", "failed to delete share"). */
/** a path the kubelet gives a volume: a pod's volume directory, or a CSI volume's staging directory ("…/globalmount") */
const KUBELET_VOLUME_PATH = /\/pods\/[0-9a-f-]{36}\/volumes\/|\/globalmount\b/;
const VOLUME_OPERATION = /\b(attach|detach|mount|unmount|stag|unstag|publish|unpublish|provision|delet|expand|resiz|creat)(e|es|ed|ing)? (the )?(volume|disk|share|pv)\b/i;

const indentOf = (text: string): number => /^\s*/.exec(text.replace(/^```\w*/, ''))![0].length;

/**
 * A shell prompt and the command an engineer typed at it to look at the node ("root@node:~# sudo mkfs.ext4 /tmp/disk",
 * "$ multipath -ll", "# mount -t nfs …", "$ fuser -vm …"): what it prints, up to a blank line or the next record, is that
 * command's answer, no step of a volume's flow, though mke2fs's, mount.nfs's or multipath's words are the ones the
 * kubelet's and a driver's errors quote when they fail (the log readers and `kubectl` are not among these commands: what
 * they print is records).
 */
const INSPECTING_COMMAND = /^\s*`?(?:[$❯➜#]|[\w.-]+@[\w.-]+(?::[^\s$#>]*)?[$#]|[\w.-]+:[~\/][^\s$#>]*(?: #|\$)|~[^\s$#>]*#)\s+(?:sudo\s+)?(?:mkfs(?:\.\w+)?|mke2fs|multipath|fuser|lsof|ps|u?mount|findmnt|df|lsblk|blkid|dd|losetup|stat|ping|showmount|rpcinfo|tune2fs|dumpe2fs|xfs_info)(?=[\s|]|$)/;

function commandOutput(out: ExplainedLine[]): void {
  for (let i = 0; i < out.length; i++) {
    if (out[i]!.kind !== 'decoration' || !INSPECTING_COMMAND.test(out[i]!.text)) continue;
    // (up to a blank line, a record or the next prompt: none of those is 'unrelated', nor what continues a record)
    for (let j = i + 1; j < out.length && out[j]!.kind === 'unrelated'; j++) {
      out[j] = { ...out[j]!, stage: 'other', component: null, explanation: T.commandAnswer(out[i]!.line) };
    }
  }
}

/**
 * Fields of a printed VolumeAttachment (describe or YAML): the message under status.attachError or
 * status.detachError is the error csi-attacher saved from ControllerPublishVolume or ControllerUnpublishVolume,
 * a step of that attach or detach (and the lines a quoted message runs on to); the entries under Finalizers
 * are names ("external-attacher/<driver>"), no step.
 */
function printedObjects(out: ExplainedLine[]): void {
  for (let i = 0; i < out.length; i++) {
    const head = out[i]!;
    // a status message that saved an operation's error ("message: 'Failed to check and update snapshot content: …'")
    // is that operation's step; a condition's message that fails nothing ("Waiting for user to (re-)start a pod …") is not
    // (and a report's "Error message:" field, however its value is aligned)
    const saved = (head.kind === 'decoration' || head.kind === 'unrelated') && (head.stage === 'other' || head.match === 'guess') ? /^\s*(?:- )?(?:(?:error|failure|status) )?message:\s*['"]?(.*\b(?:fail(?:ed|ure|s)?|error)\b.*)$/i.exec(head.text) : null;
    const savedStage = saved ? guessStage(saved[1]!) : null;
    if (savedStage && savedStage !== 'other') {
      out[i] = { ...head, kind: 'unrelated', stage: savedStage, match: 'guess', explanation: `${T.notOursBare}${guessedFrom(savedStage)}` };
      // (the message folded over the lines indented under it, up to the next field: "    time: …")
      for (let j = i + 1; j < out.length && indentOf(out[j]!.text) > indentOf(head.text); j++) out[j] = { ...out[j]!, stage: savedStage };
      continue;
    }
    const field = /\b(attach|detach) ?error:\s*$/i.exec(head.text) ?? /^\s*Finalizers:\s*$/i.exec(head.text);
    if (!field || (head.kind !== 'decoration' && head.kind !== 'unrelated')) continue;
    const stage = field[1] ? (field[1].toLowerCase() as Stage) : null;
    // (the field's own name is a heading of the printout)
    if (/^\s*(```\w*)?\s*(attach|detach) ?error:\s*$/i.test(head.text)) out[i] = blankResult(head.line, head.text, 'decoration', T.decoration);
    const indent = indentOf(head.text);
    let inMessage = false;
    for (let j = i + 1; j < out.length && out[j]!.text.trim() !== '' && indentOf(out[j]!.text) > indent; j++) {
      const l = out[j]!;
      if (!stage) {
        if (/^\s*(- )?[\w.-]+(\/[\w.-]+)?\s*$/.test(l.text)) out[j] = blankResult(l.line, l.text, 'decoration', T.decoration);
        continue;
      }
      inMessage = /^\s*message:/i.test(l.text) || (inMessage && !/^\s*([a-z][A-Za-z]*|[A-Z][a-z]*( [A-Z][a-z]*)*):(\s|$)/.test(l.text));
      if (inMessage) out[j] = { ...l, stage };
    }
  }
}

// ------------------------------------------------------------------ summary

function summarise(lines: ExplainedLine[], c: Compiled): ExplainSummary {
  const records = lines.filter((l) => l.kind === 'log' || l.kind === 'event');
  const recognised = records.filter((l) => l.match === 'catalog' || l.match === 'event').length;
  const guessed = records.filter((l) => l.match === 'guess').length;
  const errors = records.filter((l) => l.severity === 'E' || l.severity === 'F').length;
  const warnings = records.filter((l) => l.severity === 'W').length;
  const stagesSeen = new Set<Stage>(records.map((l) => l.stage).filter((s) => s !== "other"));
  const stages = STAGE_ORDER.filter((s) => stagesSeen.has(s));
  const components = [...new Set(records.map((l) => l.component).filter((x): x is string => !!x))].sort();

  let lastHealthyLine: ExplainedLine | null = null;
  for (const l of records) if (l.severity === 'I' && l.match === 'catalog' && l.messageId && l.messageId !== 'event.recorded' && l.stage !== 'other') lastHealthyLine = l;
  const problems = records.filter((l) => (l.severity === 'E' || l.severity === 'F' || l.severity === 'W') && l.stage !== 'other');
  const after = problems.filter((p) => !lastHealthyLine || p.line > lastHealthyLine.line);
  // errors followed by informational lines were retried: the flow stops at the first problem after the last healthy line
  const firstProblem = after[0] ?? null;
  const recovered = problems.length - after.length;

  const lastHealthy = lastHealthyLine
    ? { line: lastHealthyLine.line, messageId: lastHealthyLine.messageId!, stage: lastHealthyLine.stage, component: lastHealthyLine.component ?? '?', step: lastHealthyLine.step }
    : null;
  const stoppedAt = firstProblem
    ? { stage: firstProblem.stage, line: firstProblem.line, text: firstProblem.text.slice(0, 500), reason: firstProblem.cause ?? firstProblem.explanation }
    : null;

  let nextExpected: ExplainSummary['nextExpected'] = null;
  const nh = lastHealthyLine ? c.messages.get(lastHealthyLine.messageId!)?.nextHealthy : undefined;
  if (nh) {
    // (said of the reader's volume, not of our flow's: the next message's summary with its names left generic, "The kubelet
    // waits for the VolumeAttachment of the volume to be attached.", where the flow's step names its own pvc-…)
    const m = c.messages.get(nh.id);
    nextExpected = {
      messageId: nh.id, component: nh.component, source: nh.source, summary: m ? fillSummary(m, {}).text : nh.step.summary, step: nh.step,
      where: whereToLook(nh.source),
    };
  }

  const parts: string[] = [];
  if (!records.length) parts.push(T.noRecords);
  else {
    parts.push(T.records(records.length, recognised, guessed));
    if (stages.length) parts.push(T.stages(stages));
    if (stoppedAt) parts.push(T.stops(stoppedAt.stage, stoppedAt.line, stoppedAt.reason));
    else if (lastHealthy) parts.push(T.noErrorAfter(lastHealthy.line, lastHealthy.stage));
    // an informational line after an error usually means a retry went on; it does not prove the retry worked
    if (recovered > 0) parts.push(T.recovered(recovered));
    if (nextExpected) parts.push(T.nextExpected(nextExpected.summary, nextExpected.where));
  }
  return { lines: lines.length, recognised, guessed, errors, warnings, stages, components, lastHealthy, stoppedAt, nextExpected, verdict: parts.join(' ') };
}

const whereToLook = (source: string): string => T.where[source] ?? T.whereElse(source);
