/**
 * Small pieces the component machines share when they keep child machines (lifecycles, operations)
 * as state values in their context and show those states on the trace's steps.
 */
import { newTable } from './tables.ts';

/** A state value as one string: {mountDevice: 'nodeStageVolume'} -> "mountDevice.nodeStageVolume". */
export const stateText = (v: unknown): string =>
  typeof v === 'string' ? v : Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}.${stateText(x)}`).join(',');

/** Whether a state path is the state `state` or one inside it ("Detaching.markingDetached" is within "Detaching"). */
export const isWithinState = (path: string, state: string): boolean => path === state || path.startsWith(`${state}.`);

/** Note the new state of something a machine holds (a volume, an operation) for the step's `states` (emitted as states.changed). */
/** One subject's state, for a states.changed event (a table: the subjects name volumes, see newTable). */
export function stateOf(subject: string, state: string): Record<string, string> {
  const t = newTable<string>();
  t[subject] = state;
  return t;
}

export function noteState(draft: { states?: Record<string, string>; moves?: Array<[string, string]> }, subject: string, state: string): void {
  (draft.states ??= newTable<string>())[subject] = state;
  (draft.moves ??= []).push([subject, state]);
}

/** What a draft emits when its reaction ends: the states it noted first (one states.changed), then its outputs in order. */
export function emittedWithStates<E>(draft: { states?: Record<string, string>; moves?: Array<[string, string]>; out: E[] }): Array<E | { type: 'states.changed'; states: Record<string, string>; moves: Array<[string, string]> }> {
  return draft.states ? [{ type: 'states.changed', states: draft.states, moves: draft.moves! }, ...draft.out] : draft.out;
}

/**
 * No-op implementations that declare a child machine's action names to XState: the machine only
 * names the upstream step to run, and its component performs it on its own context.
 */
export const namedActions = <K extends string>(names: readonly K[]): Record<K, () => void> =>
  Object.fromEntries(names.map((n) => [n, () => {}])) as Record<K, () => void>;
