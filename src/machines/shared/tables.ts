/**
 * Copy-on-write for the machines' tables (request ids, pod uids, volume ids as keys).
 * Object spread is very slow on such dictionary-mode objects, whose keys come and go, in V8
 * (hundreds of µs for a hundred keys); a loop over Object.keys is not (about 1.8x faster than for-in
 * and 5x faster than spread or Object.assign on a 40-key table with deleted keys, measured here).
 */
export function copyTable<T>(o: Readonly<Record<string, T>>, key?: string, value?: T): Record<string, T> {
  // a null-prototype object starts in dictionary mode: a literal {} would build a hidden class per
  // key added, a new chain for every set of keys (volume ids, uids), and copies ran 6x slower
  // (24 µs vs 4 µs for 15 volume-id keys, and most of the simulation's garbage)
  const r = Object.create(null) as Record<string, T>;
  const keys = Object.keys(o);
  for (let i = 0; i < keys.length; i++) { const k = keys[i]!; r[k] = o[k]!; }
  if (key !== undefined) r[key] = value as T;
  return r;
}

/**
 * A new plain object for keys that come and go (component ids, volume subjects), in dictionary mode
 * from the start. A literal {} given such keys builds a hidden class per key set: a step's keyed
 * states name a volume each, and a million of them cost 1.2 µs each against 0.2 µs this way (measured
 * here). Its prototype is Object.prototype, as a literal's: traces stay plain objects (toStrictEqual,
 * hasOwnProperty) for the teams that read them.
 */
export const newTable = <T>(): Record<string, T> => Object.setPrototypeOf(Object.create(null), Object.prototype) as Record<string, T>;

/** Whether a table has no keys, without listing them (Object.keys would build an array of every key). */
export function isEmptyTable(o: object): boolean {
  for (const _ in o) return false;
  return true;
}
