/**
 * The transitions of a small machine whose targets depend on nothing but its state and the event's
 * type (no context, no guards reading the event), read from the machine once per (state, event) and
 * remembered: the actual-state-of-world tables call them for every volume and node, and XState's
 * `transition()` costs far more than a map lookup. The machine stays the one place that decides.
 */
import { transition, type AnyStateMachine } from 'xstate';

export type TransitionTable = (from: string, type: string) => string | undefined;

export function transitionTable(machine: AnyStateMachine): TransitionTable {
  const memo = new Map<string, string | null>();
  return (from, type) => {
    const key = `${from}\u0000${type}`;
    let next = memo.get(key);
    if (next === undefined) {
      const snap = machine.resolveState({ value: from, context: undefined as never });
      const event = { type };
      next = snap.can(event) ? String(transition(machine, snap, event)[0].value) : null;
      memo.set(key, next);
    }
    return next ?? undefined;
  };
}
