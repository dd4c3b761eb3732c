/**
 * XState's pure `transition(machine, snapshot, event)`, without its cost per call: xstate's
 * transition() builds an inert actor scope every time (an actor, which computes the machine's initial
 * state, and an actor system), which costs more than the transition itself. The child machines here
 * (volume, operation and VolumeAttachment lifecycles) take thousands of transitions in a large
 * rollout, so each machine gets one inert scope, made once, whose action executor only collects the
 * actions, as transition()'s does. The machines have no invoked or spawned actors, so nothing is
 * left in the shared scope between calls.
 * upstream of this: xstate/src/transition.ts (transition, createInertActorScope).
 */
import { createActor, type AnyActorScope, type AnyStateMachine, type EventFromLogic, type SnapshotFrom } from 'xstate';

type Executable = Parameters<AnyActorScope['actionExecutor']>[0];
interface Scope { scope: AnyActorScope; actions: Executable[] }
const scopes = new WeakMap<AnyStateMachine, Scope>();

function scopeOf(machine: AnyStateMachine): Scope {
  let s = scopes.get(machine);
  if (!s) {
    const self = createActor(machine);
    const held: Scope = { actions: [], scope: undefined as unknown as AnyActorScope };
    held.scope = {
      self, defer: () => {}, id: '', logger: () => {}, sessionId: '', stopChild: () => {}, system: self.system, emit: () => {},
      actionExecutor: (a: Executable) => { held.actions.push(a); },
    } as unknown as AnyActorScope;
    scopes.set(machine, held);
    s = held;
  }
  return s;
}

/**
 * The next snapshot and the actions the transition would execute, as xstate's transition() returns them.
 * A transition depends on the snapshot and the event only (guards are pure, actions are only
 * collected): for an event whose fields are all strings, numbers or booleans (a domain fact:
 * "va.metadataSaved", "csi.nodeStageVolume.failed" with its code and message), the answer from a
 * snapshot seen before with an equal event is the one computed then. Snapshots and actions are never
 * changed by their users, and no user reads the event an action was collected with.
 */
export function pureTransition<M extends AnyStateMachine>(machine: M, snapshot: SnapshotFrom<M>, event: EventFromLogic<M>): [SnapshotFrom<M>, Executable[]] {
  const key = pureTransition.cache ? factKey(event) : undefined;
  let seen: Map<string, [unknown, Executable[]]> | undefined;
  if (key !== undefined) {
    seen = BY_SNAPSHOT.get(snapshot);
    const hit = seen?.get(key);
    if (hit) return hit as [SnapshotFrom<M>, Executable[]];
  }
  const s = scopeOf(machine);
  s.actions = [];
  const next = machine.transition(snapshot, event, s.scope) as SnapshotFrom<M>;
  const made: [SnapshotFrom<M>, Executable[]] = [next, s.actions];
  if (key !== undefined) {
    if (!seen) BY_SNAPSHOT.set(snapshot, (seen = new Map()));
    seen.set(key, made);
  }
  return made;
}
/** Off, every transition is computed by XState: the tests run every scenario both ways and compare the traces. */
pureTransition.cache = true;
const BY_SNAPSHOT = new WeakMap<object, Map<string, [unknown, Executable[]]>>();

/**
 * The event as a key, when its fields are all strings, numbers, booleans (or absent): its type alone
 * for an event that is only its type. Undefined for an event that carries an object (a Kubernetes
 * object, a response), which is compared by nothing cheaper than the transition itself, or a long text.
 */
function factKey(event: { type: string }): string | undefined {
  let key = event.type;
  for (const k in event) {
    if (k === 'type') continue;
    const v = (event as unknown as Record<string, unknown>)[k];
    const t = typeof v;
    if (t !== 'string' && t !== 'number' && t !== 'boolean' && t !== 'undefined') return undefined;
    // (the type's initial keeps the string "1" apart from the number 1)
    key += `\u0000${k}\u0001${t[0]}${t === 'string' ? v as string : String(v)}`;
  }
  return key.length <= FACT_KEY_LENGTH ? key : undefined;
}
const FACT_KEY_LENGTH = 1024;

/**
 * The initial snapshot and its entry actions, as xstate's initialTransition() returns them, in the machine's one scope.
 * A machine's initial transition depends on its input only (these machines read no clock and no
 * randomness), and an operation is started again with the same input after each failure (the
 * kubelet's VerifyControllerAttachedVolume polls until the volume is attached): the answer for an
 * input seen before is the one computed then. Snapshots and actions are never changed by their users.
 */
export function pureInitialTransition<M extends AnyStateMachine>(machine: M, input?: unknown): [SnapshotFrom<M>, Executable[]] {
  let cache = INITIAL.get(machine);
  if (!cache) INITIAL.set(machine, (cache = new Map()));
  const key = input === undefined ? '' : JSON.stringify(input);
  const hit = cache.get(key);
  if (hit) return hit as [SnapshotFrom<M>, Executable[]];
  const s = scopeOf(machine);
  s.actions = [];
  const snap = machine.getInitialSnapshot(s.scope, input) as SnapshotFrom<M>;
  const made: [SnapshotFrom<M>, Executable[]] = [snap, s.actions];
  // bounded: a long run starts operations on ever new volumes
  if (cache.size >= INITIAL_CACHE_SIZE) cache.clear();
  cache.set(key, made);
  return made;
}
const INITIAL = new WeakMap<AnyStateMachine, Map<string, [unknown, Executable[]]>>();
const INITIAL_CACHE_SIZE = 4096;

/**
 * machine.resolveState({ value, context }), for machines whose state is kept as plain data (a state
 * value and a small context) and resolved again at each step: resolveState walks the machine's state
 * nodes, and a large rollout resolves the same few states thousands of times. Snapshots are never
 * changed by their users, so one per (value, context) serves them all.
 */
export function resolvedSnapshot<M extends AnyStateMachine>(machine: M, value: unknown, context: Record<string, unknown>): SnapshotFrom<M> {
  let cache = RESOLVED.get(machine);
  if (!cache) RESOLVED.set(machine, (cache = new Map()));
  const key = JSON.stringify([value, context]);
  let snap = cache.get(key);
  if (!snap) {
    if (cache.size >= INITIAL_CACHE_SIZE) cache.clear();
    snap = machine.resolveState({ value, context } as Parameters<M['resolveState']>[0]);
    cache.set(key, snap);
  }
  return snap as SnapshotFrom<M>;
}
const RESOLVED = new WeakMap<AnyStateMachine, Map<string, unknown>>();
