import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonChunks } from '../../src/cli/jsonChunks.ts';
import { runScenario } from '../../src/machines/index.ts';

const joined = (v: unknown): string => [...jsonChunks(v)].join('');

describe('jsonChunks: JSON.stringify(v, null, 2) in pieces', () => {
  it('gives a trace byte for byte as JSON.stringify does, in many pieces', () => {
    const t = runScenario('statefulset-rollout', { replicas: 5 });
    const pieces = [...jsonChunks(t)];
    expect(t.steps.length).toBeGreaterThan(64);
    expect(pieces.length).toBeGreaterThan(t.steps.length);
    expect(pieces.join('')).toBe(JSON.stringify(t, null, 2));
  });

  it('keeps what JSON.stringify drops or turns into null, inside streamed arrays and objects', () => {
    const big = Array.from({ length: 70 }, (_, i) => (i % 7 === 0 ? undefined : i % 5 === 0 ? { a: undefined, b: [i, 'x\ny'] } : i));
    const v = { skip: undefined, fn: () => 1, empty: {}, none: [], nested: { list: big, date: new Date(0) }, s: 'multi\nline', big };
    expect(joined(v)).toBe(JSON.stringify(v, null, 2));
  });

  it('takes keys named like Object.prototype\'s methods as plain keys (fast-check found "valueOf")', () => {
    const big = Array.from({ length: 70 }, (_, i) => i);
    const v = { valueOf: {}, constructor: 'x', toString: [1], '': big };
    expect(joined(v)).toBe(JSON.stringify(v, null, 2));
  });

  it('matches JSON.stringify on any JSON value with big arrays in it', () => {
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
      // arrays around the streaming threshold (64) and small ones, nested in objects and arrays
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('leaf'), { minLength: 60, maxLength: 70 }),
        fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(fc.property(value, (v) => joined(v) === JSON.stringify(v, null, 2)), { numRuns: 200 });
  });
});
