/**
 * The child machines' transitions (operations, lifecycles) are looked up, not computed again, for a
 * fact seen before in the same state (shared/pureTransition.ts): a fact carries strings, numbers and
 * booleans only, so an equal fact is the same input. That is only a shortcut if every trace is the
 * same either way: every scenario on both profiles is run with the lookup and without it, with every
 * step's states and the components' tables captured, and the traces compared whole.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { assign, setup, type AnyStateMachine } from 'xstate';
import { pureInitialTransition, pureTransition } from '../../src/machines/shared/pureTransition.ts';
import { runScenario, SCENARIOS } from '../../src/machines/index.ts';

const CACHE_BY_DEFAULT = pureTransition.cache;
afterEach(() => { pureTransition.cache = true; });

const run = (id: string, k8s: '1.20' | '1.30', cache: boolean) => {
  pureTransition.cache = cache;
  return JSON.stringify(runScenario(id, { k8s, captureWorld: true }));
};

describe('looking a transition up is computing it with XState', () => {
  it('is how every child machine is stepped unless a test switches it off', () => {
    expect(CACHE_BY_DEFAULT).toBe(true);
  });

  for (const s of SCENARIOS) {
    it(`${s.id}: the same trace, states and tables both ways on 1.20 and 1.30`, () => {
      for (const k8s of ['1.20', '1.30'] as const) {
        const computed = run(s.id, k8s, false);
        expect(run(s.id, k8s, true)).toBe(computed);
      }
    });
  }
});

describe('which facts are looked up', () => {
  type Ev = { type: 'answered'; ok?: unknown; code?: unknown; text?: unknown };
  /** a machine that counts the transitions XState computes, and whose next state depends on the fact's fields */
  const counted = (): { machine: AnyStateMachine; computed: () => number } => {
    const machine = setup({ types: {} as { context: { last: string }; events: Ev } }).createMachine({
      context: { last: '' }, initial: 'waiting',
      states: {
        waiting: {
          on: {
            answered: [
              { guard: ({ event }) => event.ok === true, target: 'done', actions: assign({ last: ({ event }) => `ok ${String(event.code)}` }) },
              { target: 'failed', actions: assign({ last: ({ event }) => `${typeof event.code} ${String(event.code)} ${String(event.text).length}` }) },
            ],
          },
        },
        done: {}, failed: {},
      },
    }) as unknown as AnyStateMachine;
    let n = 0;
    const real = machine.transition.bind(machine);
    machine.transition = ((...a: Parameters<typeof real>) => { n++; return real(...a); }) as typeof machine.transition;
    return { machine, computed: () => n };
  };

  it('an equal fact in the same state is answered with the transition computed the first time', () => {
    const { machine, computed } = counted();
    const [start] = pureInitialTransition(machine);
    const [a] = pureTransition(machine, start, { type: 'answered', ok: false, code: 'INTERNAL', text: 'boom' });
    const [b] = pureTransition(machine, start, { type: 'answered', ok: false, code: 'INTERNAL', text: 'boom' });
    expect(b).toBe(a);
    expect(computed()).toBe(1);
    expect(a.value).toBe('failed');
  });

  it('a fact whose fields are numbers, booleans or absent is looked up as well as one of strings', () => {
    for (const fact of [{ type: 'answered', code: 13 }, { type: 'answered', ok: false }, { type: 'answered', code: undefined }] as Ev[]) {
      const { machine, computed } = counted();
      const [start] = pureInitialTransition(machine);
      const [a] = pureTransition(machine, start, { ...fact });
      const [b] = pureTransition(machine, start, { ...fact });
      expect([fact, b === a, computed()]).toEqual([fact, true, 1]);
    }
  });

  it('a fact that differs in any field is computed: other values, the string "1" and the number 1, a field present or not', () => {
    const { machine, computed } = counted();
    const [start] = pureInitialTransition(machine);
    const events: Ev[] = [
      { type: 'answered', ok: false, code: 'INTERNAL' }, { type: 'answered', ok: true, code: 'INTERNAL' },
      { type: 'answered', ok: false, code: 1 }, { type: 'answered', ok: false, code: '1' }, { type: 'answered', ok: false },
    ];
    const states = events.map((e) => pureTransition(machine, start, e)[0]);
    expect(computed()).toBe(5);
    expect(states.map((s) => (s.context as { last: string }).last)).toEqual(['string INTERNAL 9', 'ok INTERNAL', 'number 1 9', 'string 1 9', 'undefined undefined 9']);
    expect(states[1]!.value).toBe('done');
  });

  it('a fact that carries an object, or a very long text, is computed every time', () => {
    const { machine, computed } = counted();
    const [start] = pureInitialTransition(machine);
    const withObject: Ev = { type: 'answered', ok: false, code: { grpc: 13 } };
    pureTransition(machine, start, withObject);
    pureTransition(machine, start, withObject);
    const long: Ev = { type: 'answered', ok: false, code: 'INTERNAL', text: 'x'.repeat(5000) };
    pureTransition(machine, start, long);
    const [s] = pureTransition(machine, start, long);
    expect(computed()).toBe(4);
    expect((s.context as { last: string }).last).toBe('string INTERNAL 5000');
  });

  it('switched off, every transition is computed', () => {
    const { machine, computed } = counted();
    const [start] = pureInitialTransition(machine);
    pureTransition.cache = false;
    pureTransition(machine, start, { type: 'answered', ok: true });
    pureTransition(machine, start, { type: 'answered', ok: true });
    expect(computed()).toBe(2);
  });
});
