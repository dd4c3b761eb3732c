/**
 * Seeded randomness for the simulation (uids, latencies, jitter). mulberry32: small, fast and
 * deterministic across platforms; the same seed gives the same sequence.
 */
export interface Rng {
  /** float in [0, 1) */
  next(): number;
  /** integer in [min, max] */
  int(min: number, max: number): number;
  /** a random UUID v4 string */
  uuid(): string;
  /** lowercase alphanumeric string of the given length (e.g. cloud disk ids) */
  alnum(len: number): string;
  /** a new generator derived from this one and a label, independent of later draws here */
  fork(label: string): Rng;
}

function hashString(s: string): number {
  let h = 2166136261 >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h >>> 0;
}

export function createRng(seed: number | string): Rng {
  let a = (typeof seed === 'number' ? seed : hashString(seed)) >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(next() * 16).toString(16);
    return s;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    // (joined, not a template: one flat string, not a tree of nine pieces kept in every object's uid)
    uuid: () => [hex(8), hex(4), `4${hex(3)}`, `${'89ab'[Math.floor(next() * 4)]}${hex(3)}`, hex(12)].join('-'),
    alnum: (len) => {
      const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
      let s = '';
      for (let i = 0; i < len; i++) s += chars[Math.floor(next() * chars.length)];
      return s;
    },
    fork: (label) => createRng((hashString(label) ^ Math.floor(next() * 4294967296)) >>> 0),
  };
  return rng;
}
