/**
 * A component's machine, stepped with XState's own transition function instead of run as an actor.
 *
 * The cluster is the only thing that ever sends a component an event, one at a time, and reads what it
 * emitted right after: an actor's mailbox, its observers and its deferred emit (an action object, a
 * bound function and a listener lookup per emitted event) were a fifth of the simulation's time in a
 * large rollout. This holds the snapshot and one scope per component, made once, whose action executor
 * hands emitted events straight to the cluster and runs custom actions in place, as an actor would.
 * What a component machine may not use, because nothing here would run it later: delayed events,
 * invoked or spawned actors, sendTo. Time comes from the cluster's virtual clock (timer.requested).
 * upstream of this: xstate/src/createActor.ts (Actor._process), xstate/src/transition.ts.
 */
import { createActor, type AnyActorScope, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';

type Executable = Parameters<AnyActorScope['actionExecutor']>[0];

/** Built-in actions an actor would run after the transition, which a stepped machine cannot. */
const UNSUPPORTED: Record<string, string> = {
  'xstate.spawnChild': 'spawns an actor',
  'xstate.sendTo': 'sends to another actor',
  'xstate.stopChild': 'stops a child actor',
  'xstate.cancel': 'cancels a delayed event',
};

export class ComponentStepper {
  snapshot: AnyMachineSnapshot;
  private readonly scope: AnyActorScope;

  constructor(private readonly machine: AnyStateMachine, input: unknown, emit: (event: unknown) => void) {
    // an unstarted actor lends its system and self reference: nothing is ever sent to it
    const self = createActor(machine, { input });
    const id = machine.id;
    this.scope = {
      self, defer: () => {}, id, logger: () => {}, sessionId: '', stopChild: () => {}, system: self.system, emit,
      actionExecutor: (a: Executable) => {
        if (a.type === 'xstate.emit') { emit((a.params as { event: unknown }).event); return; }
        const params = a.params as { delay?: unknown } | undefined;
        if (a.type === 'xstate.raise') {
          // an undelayed raise is handled inside the transition; a delayed one would need a scheduler
          if (params?.delay !== undefined) throw new Error(`machine "${id}" raises a delayed event: ask the cluster for a timer (emit timer.requested) instead`);
          return;
        }
        const what = UNSUPPORTED[a.type];
        if (what) throw new Error(`machine "${id}" ${what} (${a.type}): a component machine is stepped by the cluster, one event at a time, and cannot`);
        if (a.type.startsWith('xstate.')) return; // resolved in the transition (assign, log)
        if (typeof a.exec === 'function') (a.exec as (info: unknown, params: unknown) => void)(a.info, a.params);
      },
    } as unknown as AnyActorScope;
    this.snapshot = machine.getInitialSnapshot(this.scope, input) as AnyMachineSnapshot;
  }

  /** Take one event; what the machine emitted has been handed over when this returns. Throws what its actions threw. */
  send(event: { type: string }): void {
    if (this.snapshot.status !== 'active') return; // a machine in a final state takes nothing more, as an actor would
    this.snapshot = this.machine.transition(this.snapshot, event, this.scope) as AnyMachineSnapshot;
  }
}
