/**
 * The cluster's stepper calls a component's reaction directly when XState's transition would do
 * nothing but run it (cluster/componentStepper.ts, shared/reaction.ts). That is only a shortcut if
 * every trace is the same either way: every scenario on both profiles is stepped both ways here, with
 * every step's states and the components' tables captured, and the traces compared whole.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setup, type AnyStateMachine, type MachineConfig } from 'xstate';
import { ComponentStepper } from '../../src/machines/cluster/componentStepper.ts';
import { reaction } from '../../src/machines/shared/reaction.ts';
import { runScenario, SCENARIOS } from '../../src/machines/index.ts';

/** as a team's test or the site gets it, before any test here switches it */
const DIRECT_BY_DEFAULT = ComponentStepper.direct;
afterEach(() => { ComponentStepper.direct = true; });

const run = (id: string, k8s: '1.20' | '1.30', direct: boolean) => {
  ComponentStepper.direct = direct;
  return JSON.stringify(runScenario(id, { k8s, captureWorld: true }));
};

describe('stepping a reaction directly is stepping it with XState', () => {
  for (const s of SCENARIOS) {
    it(`${s.id}: the same trace, states and tables both ways on 1.20 and 1.30`, () => {
      for (const k8s of ['1.20', '1.30'] as const) {
        const viaXState = run(s.id, k8s, false);
        expect(run(s.id, k8s, true)).toBe(viaXState);
      }
    });
  }
});

describe('when the stepper leaves the event to XState', () => {
  type Ctx = { n: number; log: string[] };
  type Ev = { type: 'bump' } | { type: 'go' };
  const bump = reaction<Ctx, Ev, { type: 'bumped'; n: number }>((c) => ({ ctx: { ...c, n: c.n + 1 }, out: [{ type: 'bumped', n: c.n + 1 }] }));
  const make = (config: MachineConfig<Ctx, Ev>, actions = { bump }): AnyStateMachine =>
    setup({ types: {} as { context: Ctx; events: Ev }, actions }).createMachine(config as never) as unknown as AnyStateMachine;
  const step = (machine: AnyStateMachine, events: Ev[]) => {
    const emitted: unknown[] = [];
    const st = new ComponentStepper(machine, undefined, (e) => emitted.push(e));
    for (const e of events) st.send(e);
    return { value: st.snapshot.value, context: st.snapshot.context, emitted };
  };

  it('is how every component is stepped unless a test switches it off', () => {
    expect(DIRECT_BY_DEFAULT).toBe(true);
  });

  it('a wildcard transition beside an exact one does not change which runs: the exact one, without XState', () => {
    const other = reaction<Ctx, Ev, never>((c) => ({ ctx: { ...c, n: -1 }, out: [] }));
    const m = make({ context: { n: 0, log: [] }, initial: 'a', states: { a: { on: { bump: { actions: 'bump' }, '*': { actions: 'other' } } } } }, { bump, other } as never);
    m.transition = () => { throw new Error('stepped by XState'); };
    expect(step(m, [{ type: 'bump' }]).context).toEqual({ n: 1, log: [] });
  });

  it('a targetless transition runs the reaction without XState: the context it left (merged over the old, as assign merges), what it emitted, the same state', () => {
    const m = make({ context: { n: 0, log: [] }, initial: 'a', states: { a: { on: { bump: { actions: 'bump' } } } } });
    // (the stepper does not ask XState once the machine has started)
    m.transition = () => { throw new Error('stepped by XState'); };
    expect(step(m, [{ type: 'bump' }, { type: 'bump' }])).toEqual({ value: 'a', context: { n: 2, log: [] }, emitted: [{ type: 'bumped', n: 1 }, { type: 'bumped', n: 2 }] });
    const partial = reaction<Ctx, Ev, never>(() => ({ ctx: { n: 7 } as Ctx, out: [] }));
    const m2 = make({ context: { n: 0, log: ['kept'] }, initial: 'a', states: { a: { on: { bump: { actions: 'partial' } } } } }, { partial } as never);
    m2.transition = () => { throw new Error('stepped by XState'); };
    expect(step(m2, [{ type: 'bump' }]).context).toEqual({ n: 7, log: ['kept'] });
  });

  it('a reaction that changed its context in place still leaves a new context object, as assign does', () => {
    const inPlace = reaction<Ctx, Ev, never>((c) => { c.log.push('x'); return { ctx: c, out: [] }; });
    const m = make({ context: { n: 0, log: [] }, initial: 'a', states: { a: { on: { bump: { actions: 'inPlace' } } } } }, { inPlace } as never);
    m.transition = () => { throw new Error('stepped by XState'); };
    const st = new ComponentStepper(m, undefined, () => {});
    const before = st.snapshot.context;
    st.send({ type: 'bump' });
    expect(st.snapshot.context).not.toBe(before);
    expect(st.snapshot.context).toEqual({ n: 0, log: ['x'] });
  });

  it('several reactions in one transition run in order without XState, each on the context the one before left', () => {
    const double = reaction<Ctx, Ev, { type: 'doubled'; n: number }>((c) => ({ ctx: { ...c, n: c.n * 2 }, out: [{ type: 'doubled', n: c.n * 2 }] }));
    const m = make({ context: { n: 1, log: [] }, initial: 'a', states: { a: { on: { bump: { actions: ['bump', 'double'] } } } } }, { bump, double } as never);
    m.transition = () => { throw new Error('stepped by XState'); };
    expect(step(m, [{ type: 'bump' }])).toEqual({ value: 'a', context: { n: 4, log: [] }, emitted: [{ type: 'bumped', n: 2 }, { type: 'doubled', n: 4 }] });
  });

  it('an entry action of the state the transition enters still runs (a target: XState steps it)', () => {
    const m = make({
      context: { n: 0, log: [] }, initial: 'a',
      states: { a: { on: { bump: { target: 'b', actions: 'bump' } } }, b: { entry: 'bump' } },
    });
    expect(step(m, [{ type: 'bump' }])).toMatchObject({ value: 'b', context: { n: 2 } });
  });

  it('an eventless transition anywhere in the machine is taken after the reaction (XState steps it)', () => {
    const m = make({
      context: { n: 0, log: [] }, initial: 'a',
      states: { a: { on: { bump: { actions: 'bump' } }, always: { guard: ({ context }) => context.n >= 2, target: 'done' } }, done: {} },
    });
    expect(step(m, [{ type: 'bump' }, { type: 'bump' }]).value).toBe('done');
  });

  it('a guarded transition is decided by its guard (XState steps it)', () => {
    const m = make({
      context: { n: 0, log: [] }, initial: 'a',
      states: { a: { on: { bump: [{ guard: ({ context }) => context.n > 0, actions: 'bump' }, { actions: 'bump', target: 'b' }] } }, b: {} },
    });
    expect(step(m, [{ type: 'bump' }]).value).toBe('b');
  });

  it('a machine given other actions (machine.provide) runs those, not the reaction', () => {
    const m = make({ context: { n: 0, log: [] }, initial: 'a', states: { a: { on: { bump: { actions: 'bump' } } } } })
      .provide({ actions: { bump: () => {} } });
    expect(step(m, [{ type: 'bump' }])).toEqual({ value: 'a', context: { n: 0, log: [] }, emitted: [] });
  });
});
