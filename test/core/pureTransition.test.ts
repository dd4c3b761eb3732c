/**
 * shared/pureTransition.ts answers a transition it has already computed, for an event that is its
 * type alone, from the same snapshot; an event with a payload (which a guard may read) is always
 * computed.
 */
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { pureTransition } from '../../src/machines/shared/pureTransition.ts';

type Ev = { type: 'go' } | { type: 'check'; ok: boolean };
const machine = setup({
  types: {} as { events: Ev },
  actions: { started: () => {}, passed: () => {}, failed: () => {} },
  guards: { isOk: ({ event }) => event.type === 'check' && event.ok },
}).createMachine({
  initial: 'idle',
  states: {
    idle: { on: { go: { target: 'running', actions: 'started' } } },
    running: { on: { check: [{ guard: 'isOk', target: 'done', actions: 'passed' }, { target: 'idle', actions: 'failed' }] } },
    done: {},
  },
});

describe('pureTransition', () => {
  it('an event that is its type alone, from the same snapshot: the answer computed the first time, the same objects', () => {
    const start = machine.resolveState({ value: 'idle', context: {} });
    const [a, actionsA] = pureTransition(machine, start, { type: 'go' });
    const [b, actionsB] = pureTransition(machine, start, { type: 'go' });
    expect(a.value).toBe('running');
    expect(actionsA.map((x) => x.type)).toEqual(['started']);
    expect(b).toBe(a);
    expect(actionsB).toBe(actionsA);
  });

  it('an event with a payload is computed every time: a guard may read it', () => {
    const running = machine.resolveState({ value: 'running', context: {} });
    const [ok, okActions] = pureTransition(machine, running, { type: 'check', ok: true });
    const [no, noActions] = pureTransition(machine, running, { type: 'check', ok: false });
    expect([ok.value, okActions.map((x) => x.type)]).toEqual(['done', ['passed']]);
    expect([no.value, noActions.map((x) => x.type)]).toEqual(['idle', ['failed']]);
  });
});
