/** A binary min-heap ordered by (at, seq): the virtual clock's agenda. Equal times keep insertion order. */
export interface Agendum { at: number; seq: number; run: () => void }

export class Agenda {
  private heap: Agendum[] = [];
  private seq = 0;

  get size(): number { return this.heap.length; }

  push(at: number, run: () => void): void {
    const item = { at, seq: this.seq++, run };
    const h = this.heap;
    h.push(item);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(h[i]!, h[p]!)) break;
      // (a swap through a temporary: a destructuring swap allocated an array per level, on every event)
      const t = h[i]!; h[i] = h[p]!; h[p] = t;
      i = p;
    }
  }

  peekAt(): number | undefined { return this.heap[0]?.at; }

  pop(): Agendum | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < h.length && less(h[l]!, h[m]!)) m = l;
        if (r < h.length && less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        const t = h[i]!; h[i] = h[m]!; h[m] = t;
        i = m;
      }
    }
    return top;
  }
}

const less = (a: Agendum, b: Agendum): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);
