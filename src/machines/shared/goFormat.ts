/**
 * Go's fmt/strconv/time text, reproduced so simulated log lines read exactly like real ones.
 * upstream: go/src/strconv/quote.go (Quote), go/src/time/time.go (Duration.String, Time.String).
 */

const NEEDS_ESCAPE = /["\\\x00-\x1f\x7f]/;
const TO_ESCAPE = /["\\\x00-\x1f\x7f]/g;
/** strconv.Quote's escapes (quote.go appendEscapedRune); the other control characters are \xNN */
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"', '\\': '\\\\', '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v',
};
const escapeOne = (ch: string): string => ESCAPES[ch] ?? '\\x' + ch.charCodeAt(0).toString(16).padStart(2, '0');

/** strconv.Quote: double-quoted, with Go escapes. Printable non-ASCII stays as is, like Go. */
export function goQuote(s: string): string {
  // most arguments (names, ids, paths) need no escape: quote them without walking each character;
  // the others in one replace (a character at a time built a string per character: a large rollout's
  // structured messages quote their own quotes)
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  return '"' + s.replace(TO_ESCAPE, escapeOne) + '"';
}

/** time.Duration.String for a duration in nanoseconds: "500ms", "2m2s", "189.597303ms", "6m0s". */
export function goDuration(ns: number): string {
  ns = Math.round(ns);
  if (ns === 0) return '0s';
  const neg = ns < 0;
  let u = Math.abs(ns);
  let s: string;
  if (u < 1_000_000_000) {
    // Sub-second: the largest unit that keeps the integer part non-zero, trailing zeros trimmed.
    let unit: string;
    let div: number;
    if (u < 1_000) { unit = 'ns'; div = 1; }
    else if (u < 1_000_000) { unit = 'µs'; div = 1_000; }
    else { unit = 'ms'; div = 1_000_000; }
    s = fraction(u, div) + unit;
  } else {
    const h = Math.floor(u / 3_600_000_000_000);
    u -= h * 3_600_000_000_000;
    const m = Math.floor(u / 60_000_000_000);
    u -= m * 60_000_000_000;
    const sec = fraction(u, 1_000_000_000) + 's';
    s = h > 0 ? `${h}h${m}m${sec}` : m > 0 ? `${m}m${sec}` : sec;
  }
  return (neg ? '-' : '') + s;
}

function fraction(v: number, div: number): string {
  const int = Math.floor(v / div);
  const rem = v - int * div;
  if (rem === 0) return String(int);
  const digits = String(div).length - 1;
  return `${int}.${String(rem).padStart(digits, '0').replace(/0+$/, '')}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Wall-clock fields of an epoch-millisecond instant in a fixed UTC offset (minutes). */
export interface WallClock {
  year: number; month: number; day: number; hour: number; minute: number; second: number;
  /** microseconds within the second */
  micro: number;
}

export function wallClock(epochUs: number, offsetMin: number): WallClock {
  const shifted = epochUs + offsetMin * 60_000_000;
  const ms = Math.floor(shifted / 1000);
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(),
    hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(),
    micro: ((shifted % 1_000_000) + 1_000_000) % 1_000_000,
  };
}

export const pad = (n: number, w: number, c = '0'): string => String(n).padStart(w, c);
export const monthAbbrev = (m: number): string => MONTHS[m - 1]!;

export function offsetString(offsetMin: number): string {
  const sign = offsetMin < 0 ? '-' : '+';
  const a = Math.abs(offsetMin);
  return `${sign}${pad(Math.floor(a / 60), 2)}${pad(a % 60, 2)}`;
}

/**
 * time.Time.String with a monotonic reading, as nestedpendingoperations prints "No retries permitted
 * until …": "2023-01-11 14:58:19.380344104 +0800 CST m=+132526.556747154".
 * Our clock has microseconds; the three nanosecond digits come from `nsExtra` (0..999) so lines look
 * like real ones while staying deterministic.
 */
export function goTimeString(epochUs: number, offsetMin: number, zone: string, nsExtra: number, monotonicUs?: number): string {
  const w = wallClock(epochUs, offsetMin);
  let frac = (pad(w.micro, 6) + pad(nsExtra, 3)).replace(/0+$/, '');
  frac = frac ? '.' + frac : '';
  let s = `${w.year}-${pad(w.month, 2)}-${pad(w.day, 2)} ${pad(w.hour, 2)}:${pad(w.minute, 2)}:${pad(w.second, 2)}${frac} ${offsetString(offsetMin)} ${zone}`;
  if (monotonicUs !== undefined) {
    const secs = Math.floor(monotonicUs / 1_000_000);
    const nanos = (monotonicUs % 1_000_000) * 1000 + nsExtra;
    s += ` m=+${secs}.${pad(nanos, 9)}`;
  }
  return s;
}

/** The zone of a host that runs on UTC. */
export const UTC_ZONE = { offsetMin: 0, zone: 'UTC' } as const;

/**
 * A time.Time as encoding/json marshals it (RFC3339Nano: trailing zeros of the fraction dropped, "Z"
 * for UTC, else the zone's offset), as klog's structured lines print a struct's time field.
 */
export function goTimeJSON(epochUs: number, offsetMin: number, nsExtra = 0): string {
  const w = wallClock(epochUs, offsetMin);
  const frac = (pad(w.micro, 6) + pad(nsExtra, 3)).replace(/0+$/, '');
  const zone = offsetMin === 0 ? 'Z' : `${offsetMin < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offsetMin) / 60), 2)}:${pad(Math.abs(offsetMin) % 60, 2)}`;
  return `${w.year}-${pad(w.month, 2)}-${pad(w.day, 2)}T${pad(w.hour, 2)}:${pad(w.minute, 2)}:${pad(w.second, 2)}${frac ? '.' + frac : ''}${zone}`;
}

/** RFC 3339 in UTC with second precision, as metav1.Time marshals. */
export function rfc3339(epochUs: number): string {
  // (joined: one flat string; a replace() leaves a tree of pieces, kept in every object's timestamps)
  const iso = new Date(Math.floor(epochUs / 1000)).toISOString();
  // (without its ".sssZ")
  return [iso.slice(0, -5), 'Z'].join('');
}

/** JSON with object keys sorted, as Go's encoding/json prints a map (protosanitizer output). */
export function sortedJson(v: unknown): string {
  // (built by concatenation, not filter/map/join: every CSI message a plugin logs goes through here,
  // and the intermediate arrays were a few % of a large rollout's garbage. An element that prints as
  // nothing (undefined) is empty, as join() leaves it; a key's undefined value is left out)
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) {
      if (i > 0) s += ',';
      const x = i in v ? sortedJson(v[i]) : undefined;
      if (x !== undefined && x !== null) s += x;
    }
    return s + ']';
  }
  const o = v as Record<string, unknown>;
  const keys: string[] = [];
  for (const k of Object.keys(o)) if (o[k] !== undefined) keys.push(k);
  keys.sort();
  let s = '{';
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) s += ',';
    s += JSON.stringify(keys[i]) + ':' + sortedJson(o[keys[i]!]);
  }
  return s + '}';
}

/** fmt %v of a map[string]string: "map[a:1 b:2]" (keys sorted, as fmt does since Go 1.12). */
export function goMap(m: Record<string, string>): string {
  return 'map[' + Object.keys(m).sort().map((k) => `${k}:${m[k]}`).join(' ') + ']';
}

/** A heap address as Go prints a pointer (0xc000…), made up but stable for the same thing. */
export function goPointer(of: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < of.length; i++) h = Math.imul(h ^ of.charCodeAt(i), 0x01000193) >>> 0;
  return `0xc00${(h & 0xfffffff).toString(16).padStart(7, '0')}`;
}

/** ObjectMeta's fields in the Go struct's order (k8s.io/apimachinery meta/v1 types.go), the order encoding/json writes them in. */
const OBJECT_META_ORDER = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'];

/**
 * An API object as Go's encoding/json writes a typed object from an informer: no kind or apiVersion (a typed
 * client's objects have an empty TypeMeta, omitted), metadata's fields in ObjectMeta's order, the rest in the
 * order the object holds them (spec, then status), and <, > and & escaped as json.Encoder does by default.
 */
export function goJsonObject(o: Record<string, unknown>): string {
  const { apiVersion: _a, kind: _k, metadata, ...rest } = o;
  const meta = (metadata ?? {}) as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const k of OBJECT_META_ORDER) if (meta[k] !== undefined) ordered[k] = meta[k];
  for (const k of Object.keys(meta)) if (!(k in ordered)) ordered[k] = meta[k];
  return goJsonEscape(JSON.stringify({ metadata: ordered, ...rest }));
}

/** json.Encoder's SetEscapeHTML(true), its default: <, > and & as \u003c, \u003e and \u0026. */
export const goJsonEscape = (json: string): string => json.replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
