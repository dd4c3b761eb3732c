/**
 * resource.Quantity, only as far as storage sizes need: parse "10Gi" / "500M" / "1073741824" to
 * bytes, and print bytes the way resource.NewQuantity(bytes, BinarySI).String() does ("20Gi").
 * upstream: k8s.io/apimachinery/pkg/api/resource/quantity.go, suffix.go.
 */
const BIN: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DEC: Record<string, number> = { k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

export function parseQuantity(q: string | number | undefined): number {
  if (q === undefined || q === null) return 0;
  if (typeof q === 'number') return q;
  const m = /^([0-9.]+)([a-zA-Z]*)$/.exec(q.trim());
  if (!m) return 0;
  const n = Number(m[1]);
  const suffix = m[2] ?? '';
  return Math.ceil(n * (BIN[suffix] ?? DEC[suffix] ?? 1));
}

/** BinarySI canonical form: the largest binary suffix that divides the value exactly. */
export function formatBinary(bytes: number): string {
  for (const s of ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki']) {
    const f = BIN[s]!;
    if (bytes >= f && bytes % f === 0) return `${bytes / f}${s}`;
  }
  return String(bytes);
}
