/**
 * Which machine a step's `states` entry is the state of, and what the traces show the machines
 * doing. A step's `states` holds, keyed by instance id, the acting component's own state and, keyed
 * `<instance> <subject>`, the state of each volume, attachment or operation that reaction moved
 * (noteState). The component's descriptor says which lifecycle machine a subject belongs to
 * (ComponentDescriptor.stateSubjects), so the player can draw the machine that acted and the
 * component pages can mark the transitions the scenarios take. Runs at build time (Node).
 */
import type { AnyStateMachine } from 'xstate';
import type { TraceStep } from '../cluster/trace.ts';
import type { StateMove } from '../cluster/cluster.ts';
import { COMPONENTS } from '../registry.ts';
import { describeStates, takenKey, type TakenStates } from '../diagram/stateChart.ts';
import type { FlowChart } from './flow.ts';
import { isWithinState, stateText } from '../shared/machineParts.ts';

const descriptorOf = new Map(COMPONENTS.map((c) => [c.descriptor.name as string, c.descriptor]));

/** One entry of a step's `states`: whose it is, what it is about, and which machine it is a state of. */
export interface StateEntry {
  /** the states key */
  key: string;
  instance: string;
  /** what the state is about ("" for the component itself) */
  subject: string;
  machine: AnyStateMachine;
  state: string;
}

/** The machine a `states` key of `component`'s step names, or undefined when the descriptor does not say. */
export function machineOfSubject(component: string, subject: string): AnyStateMachine | undefined {
  const d = descriptorOf.get(component);
  if (!d) return undefined;
  if (subject === '') return d.machine;
  return d.stateSubjects?.find((s) => s.match.test(subject))?.machine;
}

/** The entries of a step's `states` that belong to its acting instance, with their machines. */
export function stateEntries(st: Pick<TraceStep, 'component' | 'instance' | 'states'>): StateEntry[] {
  const out: StateEntry[] = [];
  for (const [key, value] of Object.entries(st.states ?? {})) {
    let subject: string;
    if (key === st.instance) subject = '';
    else if (key.startsWith(`${st.instance} `)) subject = key.slice(st.instance.length + 1);
    else continue;
    const machine = machineOfSubject(st.component, subject);
    if (!machine) continue;
    out.push({ key, instance: st.instance, subject, machine, state: stateText(value) });
  }
  return out;
}

/** A state path and each state that contains it ("a.b.c" → a, a.b, a.b.c). */
const withAncestors = (path: string): string[] => path.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'));

/**
 * What the machines were seen doing: the states each was in and the moves between consecutive
 * states of the same subject, per component (the CSI controller and node plugins share the volume
 * lifecycle machine). Fed with every state move of a run (RunOptions.onStateMove), which sees the
 * states a reaction passes through without a step, and with the steps' own states (the component
 * machines' states, which are not moves of a subject). Call `endRun()` between runs.
 */
export class TakenTally {
  readonly byComponent = new Map<string, Map<AnyStateMachine, { states: Set<string>; transitions: Set<string> }>>();
  private last = new Map<string, string>();

  /** a state move as the cluster reports it */
  readonly move = (m: StateMove): void => {
    const machine = machineOfSubject(m.component, m.subject);
    if (machine) this.see(m.component, `${m.instance} ${m.subject}`, machine, m.state);
  };

  /** the component machine's own state on a step (its subjects come through move) */
  step(st: Pick<TraceStep, 'component' | 'instance' | 'states'>): void {
    for (const e of stateEntries(st)) if (e.subject === '') this.see(st.component, `${e.key}\u0000own`, e.machine, e.state);
  }

  endRun(): void {
    this.last.clear();
  }

  /** the states and moves seen of `machine` in `component` */
  of(component: string, machine: AnyStateMachine): TakenStates {
    return this.byComponent.get(component)?.get(machine) ?? { states: new Set(), transitions: new Set() };
  }

  private see(component: string, key: string, machine: AnyStateMachine, state: string): void {
    let byMachine = this.byComponent.get(component);
    if (!byMachine) this.byComponent.set(component, (byMachine = new Map()));
    let t = byMachine.get(machine);
    if (!t) byMachine.set(machine, (t = { states: new Set(), transitions: new Set() }));
    for (const part of state.split(',')) for (const p of withAncestors(part)) t.states.add(p);
    const before = this.last.get(key);
    this.last.set(key, state);
    if (before === state) return;
    if (before !== undefined && hasMove(machine, before, state)) {
      t.transitions.add(takenKey(before, state));
      return;
    }
    // first seen, or an operation started again for the same key: when its initial state leads
    // there directly, it came that way (a volume that existed before the run did not: no move)
    const initial = initialOf(machine);
    if (initial === undefined || isWithinState(state, initial)) return;
    // directly, or through eventless (always) moves taken in the same step (the 1.30 check of the claim size first)
    const path = hasMove(machine, initial, state) ? [initial, state] : alwaysPath(machine, initial, state);
    if (!path) return;
    for (let i = 0; i + 1 < path.length; i++) {
      for (const p of withAncestors(path[i]!)) t.states.add(p);
      t.transitions.add(takenKey(path[i]!, path[i + 1]!));
    }
  }
}

/** The states an eventless chain from `from` passes on its way to `to` (both included), if there is one. */
function alwaysPath(machine: AnyStateMachine, from: string, to: string): string[] | undefined {
  const eventless = movesOfMachine(machine).filter((m) => m.always);
  const queue: string[][] = [[from]];
  const seen = new Set([from]);
  while (queue.length) {
    const path = queue.shift()!;
    const at = path.at(-1)!;
    for (const m of eventless) {
      if (!isWithinState(at, m.from) || seen.has(m.to)) continue;
      if (isWithinState(to, m.to)) return [...path, to];
      seen.add(m.to);
      queue.push([...path, m.to]);
    }
  }
  return undefined;
}


/** The machine's initial state path, descending into compound states ("mountDevice.newCsiDriverClient"). */
function initialOf(machine: AnyStateMachine): string | undefined {
  let node = machine.root;
  const parts: string[] = [];
  for (;;) {
    const next = node.type === 'compound' ? node.initial?.target?.[0] : undefined;
    if (!next) break;
    parts.push(next.key);
    node = next;
  }
  return parts.length ? parts.join('.') : undefined;
}

const movesOf = new WeakMap<AnyStateMachine, Array<{ from: string; to: string; always: boolean }>>();

/** Every transition of the machine, once (`always`: an eventless one). */
function movesOfMachine(machine: AnyStateMachine): Array<{ from: string; to: string; always: boolean }> {
  let moves = movesOf.get(machine);
  if (!moves) {
    moves = describeStates(machine).flatMap((s) => s.transitions.flatMap((t) => t.targets.map((target) => ({ from: s.path, to: target, always: t.event === 'always' }))));
    movesOf.set(machine, moves);
  }
  return moves;
}

/** Whether the machine has a transition from `from` (or a state containing it) to `to` (or one containing it). */
function hasMove(machine: AnyStateMachine, from: string, to: string): boolean {
  return movesOfMachine(machine).some((m) => isWithinState(from, m.from) && isWithinState(to, m.to));
}

/** A machine's chart as the player draws it: its states in definition order and its transitions. */
export function flowChart(machine: AnyStateMachine, name: string): FlowChart {
  const states = describeStates(machine);
  return {
    id: machine.id, name,
    states: states.map((s) => ({
      path: s.path, depth: s.depth,
      ...(s.initial ? { initial: true } : {}), ...(s.type === 'final' ? { final: true } : {}),
      ...(s.description ? { description: s.description } : {}),
    })),
    transitions: states.flatMap((s) => s.transitions.filter((t) => t.targets.length > 0).flatMap((t) => t.targets.map((to) => ({
      from: s.path, to, event: t.event, ...(t.guard ? { guard: t.guard } : {}),
    })))),
  };
}

/** The export name of a lifecycle machine in its component's folder (e.g. mountVolumeMachine), or its id. */
export function machineName(machine: AnyStateMachine): string {
  for (const c of COMPONENTS) {
    for (const [name, v] of Object.entries(c.folder)) if (v === machine) return name;
  }
  return machine.id;
}
