/**
 * The virtual clock's agenda: a binary min-heap ordered by (at, seq), so equal times keep insertion order.
 * The keys live in two typed arrays beside the callbacks: a sift compares numbers that sit next to each other in
 * memory instead of following a pointer to an object per level (a 10 000-replica rollout keeps tens of thousands of
 * items here, and each of its millions of pops walks ~16 levels).
 */
export class Agenda {
  private at = new Float64Array(1024);
  private seqs = new Float64Array(1024);
  private runs: Array<(() => void) | undefined> = [];
  private n = 0;
  private seq = 0;

  get size(): number { return this.n; }

  push(at: number, run: () => void): void {
    if (this.n === this.at.length) this.grow();
    const A = this.at, S = this.seqs, R = this.runs;
    const seq = this.seq++;
    let i = this.n++;
    // sift up: move parents down until the new item's place is found, then write it once (the new item has the
    // largest seq: a parent due at the same time stays before it)
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pa = A[p]!;
      if (pa <= at) break;
      A[i] = pa; S[i] = S[p]!; R[i] = R[p];
      i = p;
    }
    A[i] = at; S[i] = seq; R[i] = run;
  }

  peekAt(): number | undefined { return this.n > 0 ? this.at[0] : undefined; }

  /** The earliest item's callback (its time is peekAt()'s), removed from the agenda. */
  pop(): (() => void) | undefined {
    const n = this.n;
    if (n === 0) return undefined;
    const A = this.at, S = this.seqs, R = this.runs;
    const top = R[0];
    const last = n - 1;
    this.n = last;
    const at = A[last]!, seq = S[last]!, run = R[last];
    R[last] = undefined;
    if (last > 0) {
      // sift down the last item from the root
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= last) break;
        let m = l;
        const r = l + 1;
        if (r < last && (A[r]! < A[l]! || (A[r] === A[l] && S[r]! < S[l]!))) m = r;
        const ma = A[m]!;
        if (at < ma || (at === ma && seq < S[m]!)) break;
        A[i] = ma; S[i] = S[m]!; R[i] = R[m];
        i = m;
      }
      A[i] = at; S[i] = seq; R[i] = run;
    }
    return top;
  }

  private grow(): void {
    const a = new Float64Array(this.at.length * 2); a.set(this.at); this.at = a;
    const s = new Float64Array(this.seqs.length * 2); s.set(this.seqs); this.seqs = s;
  }
}
