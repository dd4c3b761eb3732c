/**
 * Copy-on-write for the machines' tables (request ids, pod uids, volume ids as keys).
 * Object spread is very slow on such dictionary-mode objects, whose keys come and go, in V8
 * (hundreds of µs for a hundred keys); a for-in copy is not.
 */
export function copyTable<T>(o: Readonly<Record<string, T>>, key?: string, value?: T): Record<string, T> {
  const r: Record<string, T> = {};
  for (const k in o) r[k] = o[k]!;
  if (key !== undefined) r[key] = value as T;
  return r;
}
