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
import { reactionOf } from '../shared/reaction.ts';

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

  constructor(private readonly machine: AnyStateMachine, input: unknown, private readonly emit: (event: unknown) => void) {
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
    // every later snapshot is made by XState's transition or by withContext, with these keys
    this.xstateShape = Object.keys(this.snapshot).join(',') === SNAPSHOT_KEYS;
  }

  private readonly xstateShape: boolean;

  /** Take one event; what the machine emitted has been handed over when this returns. Throws what its actions threw. */
  send(event: { type: string }): void {
    if (this.snapshot.status !== 'active') return; // a machine in a final state takes nothing more, as an actor would
    const value = this.snapshot.value;
    if (ComponentStepper.direct && typeof value === 'string') {
      // (the reactions of the state the machine is in, looked up once per state it enters)
      if (value !== this.directValue) { this.directValue = value; this.directTable = directTable(this.machine, value); }
      let react = this.directTable!.get(event.type);
      if (react === undefined) this.directTable!.set(event.type, (react = findDirectReaction(this.machine, value, event.type)));
      if (react) {
        // what XState's transition would do here, and nothing else: the reaction assigns (merged over
        // the old context, as assign merges) and emits, in that order; the state stays
        const old = this.snapshot.context as Record<string, unknown>;
        const r = react(old, event);
        for (const e of r.out) this.emit(e);
        const context = mergedContext(old, r.ctx as Record<string, unknown>);
        this.snapshot = this.xstateShape ? withContext(this.snapshot, context) : { ...this.snapshot, context } as AnyMachineSnapshot;
        return;
      }
    }
    this.snapshot = this.machine.transition(this.snapshot, event, this.scope) as AnyMachineSnapshot;
  }

  /**
   * Whether a reaction is called directly when XState's transition would only run it (see
   * findDirectReaction). Off, every event goes through XState: the tests step every scenario both ways
   * and compare the traces.
   */
  static direct = true;
  private directValue: string | undefined;
  private directTable: Map<string, Reaction | null> | undefined;
}

/** The keys of XState's machine snapshot, in its order (xstate/src/State.ts createMachineSnapshot). */
const SNAPSHOT_KEYS = 'status,output,error,machine,context,_nodes,value,tags,children,historyValue,matches,hasTag,can,getMeta,toJSON';

/**
 * `{ ...s, context }` for a snapshot with the keys XState's createMachineSnapshot gives it (checked on
 * the stepper's first snapshot): the same keys in the same order, the same values but the context,
 * written out. The spread of a fifteen-key object was the stepper's largest cost per event.
 */
function withContext(s: AnyMachineSnapshot, context: unknown): AnyMachineSnapshot {
  const x = s as unknown as Record<string, unknown>;
  return {
    status: x.status, output: x.output, error: x.error, machine: x.machine, context, _nodes: x._nodes, value: x.value, tags: x.tags,
    children: x.children, historyValue: x.historyValue, matches: x.matches, hasTag: x.hasTag, can: x.can, getMeta: x.getMeta, toJSON: x.toJSON,
  } as unknown as AnyMachineSnapshot;
}

/**
 * `Object.assign({}, old, next)`, as XState's assign builds the next context: a new object with every
 * key of the old one. A context the reaction built with every old key (a copy it changed) is that
 * object already; one it changed in place, or built with fewer keys, is merged into a new one.
 */
function mergedContext(old: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  if (next !== old) {
    let all = true;
    for (const k in old) if (!(k in next)) { all = false; break; }
    if (all) return next;
  }
  return Object.assign({}, old, next);
}

type Reaction = NonNullable<ReturnType<typeof reactionOf>>;
const DIRECT = new WeakMap<AnyStateMachine, Map<string, Map<string, Reaction | null>>>();

/** The reactions found so far for each state of a machine, by event type (null: XState steps it). */
function directTable(machine: AnyStateMachine, value: string): Map<string, Reaction | null> {
  let byValue = DIRECT.get(machine);
  if (!byValue) DIRECT.set(machine, (byValue = new Map()));
  let table = byValue.get(value);
  if (!table) byValue.set(value, (table = new Map()));
  return table;
}

/**
 * The reaction XState's transition would run, and all it would do, for `eventType` in the top-level
 * atomic state `value`: the state's first candidate is an exact, unguarded, targetless transition
 * whose actions are all made by reaction() (shared/reaction.ts), and the machine has no eventless
 * transitions (so no state is exited or entered, nothing else runs, and the next
 * snapshot differs only in its context). Null when XState must step it.
 * upstream of this: xstate/src/stateUtils.ts (transitionAtomicNode, microstep), StateNode.next.
 */
function findDirectReaction(machine: AnyStateMachine, value: string, eventType: string): Reaction | null {
  if (hasEventless(machine.root)) return null;
  const node = machine.root.states[value];
  if (!node || node.type !== 'atomic') return null;
  // (an exact, unguarded transition is the one XState picks, before any wildcard one: StateNode.next
  // tries the exact candidates first)
  const t = node.transitions.get(eventType)?.[0];
  if (!t || t.guard || (t.target && t.target.length > 0) || t.reenter || t.actions.length === 0) return null;
  const reactions: Reaction[] = [];
  for (const a of t.actions as unknown[]) {
    const name = typeof a === 'string' ? a : typeof a === 'object' && a !== null ? (a as { type?: string }).type : undefined;
    const react = reactionOf(name !== undefined ? (machine.implementations.actions as Record<string, unknown>)[name] : a);
    if (!react) return null;
    reactions.push(react);
  }
  if (reactions.length === 1) return reactions[0]!;
  // several reactions in one transition run in order, each on the context the one before assigned
  // (XState resolves an enqueueActions' assign before the next action): their outputs in that order
  return (context, event) => {
    let ctx = context;
    const out: unknown[] = [];
    for (const react of reactions) {
      const r = react(ctx, event);
      for (const e of r.out) out.push(e);
      ctx = mergedContext(ctx as Record<string, unknown>, r.ctx as Record<string, unknown>);
    }
    return { ctx, out } as ReturnType<Reaction>;
  };
}

const hasEventless = (node: AnyStateMachine['root']): boolean =>
  (node.always?.length ?? 0) > 0 || Object.values(node.states).some((n) => hasEventless(n));
