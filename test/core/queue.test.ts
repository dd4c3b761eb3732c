import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Agenda } from '../../src/machines/cluster/queue.ts';

describe('the virtual clock agenda', () => {
  it('runs items in time order, and items due at the same time in the order they were added (interleaved pushes and pops)', () => {
    // a script of operations: a number pushes an item due at that time, null pops one
    fc.assert(fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constant(null)), { maxLength: 400 }), (script) => {
      const agenda = new Agenda();
      const model: Array<{ at: number; id: number }> = [];
      let id = 0;
      for (const op of script) {
        if (op !== null) {
          const mine = id++;
          agenda.push(op, () => mine);
          model.push({ at: op, id: mine });
          continue;
        }
        // the reference: the earliest time, first added among equals
        model.sort((a, b) => a.at - b.at || a.id - b.id);
        const want = model.shift();
        expect(agenda.peekAt()).toBe(want?.at);
        const run = agenda.pop();
        expect(run?.()).toBe(want?.id);
        expect(agenda.size).toBe(model.length);
      }
    }), { numRuns: 300 });
  });

  it('keeps its order past its first allocation (over a thousand items waiting)', () => {
    const agenda = new Agenda();
    const times = Array.from({ length: 5000 }, (_, i) => (i * 7919) % 1000);
    times.forEach((t, i) => agenda.push(t, () => i));
    const popped: Array<[number, number]> = [];
    for (let at = agenda.peekAt(); at !== undefined; at = agenda.peekAt()) popped.push([at, agenda.pop()!() as unknown as number]);
    expect(popped).toHaveLength(5000);
    const sorted = times.map((t, i) => [t, i] as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(popped).toEqual(sorted);
    expect(agenda.pop()).toBeUndefined();
    expect(agenda.peekAt()).toBeUndefined();
  });
});
