/**
 * The cluster's check that a write changed nothing but heartbeat times compares two objects as
 * JSON.stringify would, without the strings (cluster.ts sameJson): the same answer for any JSON data,
 * members in another order, undefined members, nested arrays.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sameJson } from '../../src/machines/cluster/cluster.ts';

const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, fc.constantFrom(null, true, false, 0, 1, -1, 'a', 'b', ''), fc.constant(undefined),
    fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(fc.constantFrom('a', 'b', 'c', '0', '1'), tie('v'), { maxKeys: 4 })),
})).v;
/** a value and a near copy: the same, a member changed, members in another order */
const pair = value.chain((v) => fc.tuple(fc.constant(v), fc.oneof(fc.constant(structuredClone(v)), value, fc.constant(reordered(v)))));
function reordered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reordered);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reordered(x)]));
  return v;
}

describe('sameJson', () => {
  it('says what comparing the two JSON.stringify texts says', () => {
    fc.assert(fc.property(pair, ([a, b]) => {
      expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
    }), { numRuns: 3000 });
  });

  it('order counts, undefined members do not, an array\'s undefined is null', () => {
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson([undefined], [null])).toBe(true);
    expect(sameJson({ status: { conditions: [{ type: 'Ready' }] } }, { status: { conditions: [{ type: 'Ready' }] } })).toBe(true);
    expect(sameJson({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false);
  });
});
