/**
 * A component's reaction to one event as a pure function: the context it leaves and the events it
 * emits, in order. Every component machine reacts this way inside its states (an `enqueueActions`
 * that assigns the new context, then emits); `reaction()` makes that action from the function and
 * keeps the function on it, so the cluster's stepper (cluster/componentStepper.ts) can call it
 * directly when XState's transition would do nothing else: a targetless, unguarded transition of an
 * atomic state, in a machine without eventless transitions. The action XState runs and the function
 * the stepper calls are the same function; a machine given other implementations (`machine.provide`)
 * is stepped by XState.
 */
import { enqueueActions, type EventObject } from 'xstate';

/** What a reaction leaves: the whole new context and what it emitted, in order. */
export interface Reacted<C, E> { ctx: C; out: readonly E[] }
export type ReactionFn<C, Ev, Em> = (context: C, event: Ev) => Reacted<C, Em>;

/** The property of an action that holds its reaction function. */
export const REACTION: unique symbol = Symbol.for('csi-flows.reaction');

/**
 * The action for a reaction: XState assigns the new context (merged over the old one, as `assign`
 * merges) and emits what it emitted.
 */
export function reaction<C extends object, Ev extends EventObject, Em extends EventObject>(fn: ReactionFn<C, Ev, Em>) {
  const action = enqueueActions<C, Ev, undefined, Ev, never, never, never, never, Em>(({ context, event, enqueue }) => {
    const r = fn(context, event);
    enqueue.assign(() => r.ctx);
    for (const e of r.out) enqueue.emit(e);
  });
  return Object.assign(action, { [REACTION]: fn as unknown as ReactionFn<unknown, EventObject, EventObject> });
}

/** The reaction function an action carries, if it was made by `reaction()`. */
export const reactionOf = (action: unknown): ReactionFn<unknown, EventObject, EventObject> | undefined =>
  (typeof action === 'function' ? (action as unknown as Record<symbol, unknown>)[REACTION] as ReactionFn<unknown, EventObject, EventObject> | undefined : undefined);

/**
 * A reaction for a handler that updates its component's caches in place and emits as it goes (the
 * StatefulSet controller, the resizer, the snapshotters): the context it changed, and what it emitted.
 */
export function inPlaceReaction<C extends object, Ev extends EventObject, Em extends EventObject>(fn: (ctx: C, event: Ev, emit: (e: Em) => void) => void) {
  return reaction<C, Ev, Em>((ctx, event) => {
    const out: Em[] = [];
    fn(ctx, event, (e) => { out.push(e); });
    return { ctx, out };
  });
}
