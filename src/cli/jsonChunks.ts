/**
 * JSON.stringify(value, null, 2), as a sequence of pieces: the big arrays (a trace's steps, its
 * objects) are written one element at a time, so a trace of a thousand replicas never sits in memory
 * as one string (hundreds of MB) next to the trace itself. The pieces joined are byte for byte what
 * JSON.stringify gives.
 */

/** Arrays longer than this are streamed element by element; the rest go through JSON.stringify whole. */
const STREAM_ABOVE = 64;

/**
 * `raw`: keys of `value` (an object) whose JSON text the caller writes itself, already indented as a
 * value of this object (the CLI's steps, kept in a file while the simulation runs).
 */
export function* jsonChunks(value: unknown, indent = '', raw: Record<string, () => Iterable<string>> = {}): Generator<string> {
  if (Array.isArray(value) && value.length > STREAM_ABOVE) {
    const inner = indent + '  ';
    yield '[';
    for (let i = 0; i < value.length; i++) {
      yield (i ? ',\n' : '\n') + inner;
      // JSON.stringify writes undefined, functions and symbols in an array as null
      const v = value[i];
      yield* jsonChunks(v === undefined || typeof v === 'function' || typeof v === 'symbol' ? null : v, inner);
    }
    yield '\n' + indent + ']';
    return;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function'
    && (hasBigArray(value) || Object.keys(raw).length > 0)) {
    const inner = indent + '  ';
    let first = true;
    yield '{';
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue; // JSON.stringify leaves these keys out
      yield (first ? '\n' : ',\n') + inner + JSON.stringify(k) + ': ';
      first = false;
      // own keys only: an object key such as "valueOf" or "constructor" must not find Object.prototype's
      yield* (Object.hasOwn(raw, k) ? raw[k]!() : jsonChunks(v, inner));
    }
    yield first ? '}' : '\n' + indent + '}';
    return;
  }
  const s = JSON.stringify(value, null, 2);
  yield indent ? s.replaceAll('\n', '\n' + indent) : s;
}

/** Whether an object holds, at any depth, an array worth streaming (only such objects are taken apart). */
function hasBigArray(o: object, depth = 0): boolean {
  if (depth > 3) return false;
  for (const v of Object.values(o)) {
    if (Array.isArray(v)) { if (v.length > STREAM_ABOVE) return true; }
    else if (v !== null && typeof v === 'object' && hasBigArray(v, depth + 1)) return true;
  }
  return false;
}
