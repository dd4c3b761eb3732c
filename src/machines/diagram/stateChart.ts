/**
 * A machine's state chart, generated from its definition (never drawn by hand): Mermaid
 * `stateDiagram-v2` text read from `machine.root` (states, nested and parallel regions, initial and
 * final states, transitions with their events and guards). Pure: returns text; rendering is the
 * site's business.
 *
 * Mermaid limits that shape the output (its state grammar, mermaid 12 stateDiagram lexer):
 * - a state id is one token without `:`, `-`, `{` or spaces, so ids are sanitised and the real name
 *   goes in a `state "name" as id` label;
 * - an edge label runs to the end of the line and may not contain `;`, `::` or a newline;
 * - an edge cannot join inner states of two different composite states, so such an edge is drawn
 *   between the outermost states that contain its ends (the label keeps the event name).
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { isWithinState } from '../shared/machineParts.ts';

export interface StateChartOptions {
  /**
   * Levels of states to draw below the machine (1: its top-level states only). Deeper states fold
   * into their nearest drawn ancestor, and transitions between them disappear into it.
   */
  maxDepth?: number;
  /** Name the guard after the event: `csi.nodeStageVolume [isStageUnstageAdvertised]` (default true). */
  guards?: boolean;
  /** Draw transitions without a target (actions only; the state stays) as self-loops (default false). */
  internal?: boolean;
  /** Layout direction (default: Mermaid's, top to bottom). */
  direction?: 'LR' | 'TB';
  /**
   * What traces showed the machine doing (takenInTraces): its states reached are drawn in the
   * `taken` class, the edges of its transitions taken get a "✔ " label prefix.
   */
  taken?: TakenStates;
}

/** States (dot-joined paths) a machine was seen in, and the moves between them (`from → to`). */
export interface TakenStates {
  states: ReadonlySet<string>;
  transitions: ReadonlySet<string>;
}

/** The key of a move in TakenStates.transitions. */
export const takenKey = (from: string, to: string): string => `${from} → ${to}`;


/**
 * Whether a transition from the state at `source` to the one at `target` is one the traces took:
 * some recorded move left `source` (or a state inside it) for `target` (or a state inside it).
 */
export function isTaken(taken: TakenStates | undefined, source: string, target: string): boolean {
  if (!taken) return false;
  for (const move of taken.transitions) {
    const [from, to] = move.split(' → ') as [string, string];
    if (isWithinState(from, source) && isWithinState(to, target)) return true;
  }
  return false;
}

/** One outgoing transition of a state, as a reader would name it. */
export interface StateTransitionInfo {
  /** event label: the event type, `always`, `after 500ms`, … */
  event: string;
  guard?: string;
  /** target state paths (dot-joined); empty for a targetless transition */
  targets: string[];
}

export interface StateInfo {
  /** dot-joined path from the machine, e.g. `running.attaching` */
  path: string;
  key: string;
  depth: number;
  type: AnyStateNode['type'];
  /** the initial state of its parent */
  initial: boolean;
  description?: string;
  transitions: StateTransitionInfo[];
}

// Words the Mermaid state lexer reads as keywords when they start a statement (case-insensitive).
const RESERVED = new Set([
  'click', 'href', 'default', 'state', 'note', 'classdef', 'class', 'style', 'scale', 'acctitle',
  'accdescr', 'direction', 'hide', 'end', 'statediagram', 'statediagram-v2',
]);

/** A Mermaid-safe edge label: one line, no `;`, no colon (`::` ends a label), no HTML brackets. */
export function mermaidLabel(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/;/g, ',')
    .replace(/:/g, '∶')
    .replace(/</g, '‹').replace(/>/g, '›')
    .replace(/"/g, "'")
    .replace(/%%/g, '% %')
    // the lexer takes any line containing "direction XX" for a direction statement (\s matches
    // every Unicode space, so only a non-space joiner keeps the words apart)
    .replace(/direction\s+(TB|BT|RL|LR)/gi, (_m, d: string) => `direction-${d}`)
    .trim();
}

/** A Mermaid state label inside `state "…" as id`: the same rules (no double quote may end it early). */
const quotedLabel = (text: string): string => mermaidLabel(text);

function guardName(guard: unknown): string | undefined {
  if (guard === undefined || guard === null) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    // xstate's and()/or()/not() return functions carrying their operands in `.guards`
    const g = guard as { name?: string; guards?: unknown };
    const parts = Array.isArray(g.guards) ? g.guards.map(guardName) : g.guards !== undefined ? [guardName(g.guards)] : [];
    if (g.name === 'and' || g.name === 'or') return parts.join(` ${g.name} `);
    if (g.name === 'not') return `not ${parts[0] ?? '?'}`;
    return g.name || 'guard';
  }
  if (typeof guard === 'object' && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'guard';
}

/** `xstate.after.500.m.s` → `after 500ms`, `xstate.done.state.x` → `done`, … */
function eventLabel(eventType: string): string {
  if (eventType === '') return 'always';
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after) return /^\d+$/.test(after[1]!) ? `after ${after[1]}ms` : `after ${after[1]}`;
  if (eventType.startsWith('xstate.done.state.')) return 'done';
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (actor) return `${actor[1]} ${actor[2]}`;
  return eventType;
}

interface TransitionDef {
  eventType: string;
  source: AnyStateNode;
  target?: ReadonlyArray<AnyStateNode>;
  guard?: unknown;
}

/** Every transition defined on a node: `on`, delayed, done/error, then eventless ones. */
function transitionsOf(node: AnyStateNode): TransitionDef[] {
  const out: TransitionDef[] = [];
  for (const defs of node.transitions.values()) out.push(...(defs as TransitionDef[]));
  for (const def of (node.always ?? []) as TransitionDef[]) out.push({ ...def, eventType: '' });
  return out;
}

const childrenOf = (node: AnyStateNode): AnyStateNode[] => Object.values(node.states) as AnyStateNode[];
const pathOf = (node: AnyStateNode): string => node.path.join('.');

/** The states of a machine in document order, with their descriptions and outgoing transitions. */
export function describeStates(machine: AnyStateMachine): StateInfo[] {
  const out: StateInfo[] = [];
  const visit = (node: AnyStateNode): void => {
    for (const child of childrenOf(node)) {
      const initialTargets = node.type === 'compound' ? (node.initial?.target ?? []) : [];
      out.push({
        path: pathOf(child),
        key: child.key,
        depth: child.path.length,
        type: child.type,
        initial: initialTargets.includes(child),
        ...(child.description ? { description: child.description } : {}),
        transitions: transitionsOf(child).map((t) => {
          const guard = guardName(t.guard);
          return { event: eventLabel(t.eventType), ...(guard ? { guard } : {}), targets: (t.target ?? []).map(pathOf) };
        }),
      });
      visit(child);
    }
  };
  visit(machine.root);
  return out;
}

/**
 * Mermaid `stateDiagram-v2` text for an XState v5 machine. Edges with the same ends are drawn once
 * with their event names joined; transitions defined on the machine itself (e.g. `host.shutdown`
 * from anywhere) are drawn from each top-level state that does not handle the event itself.
 */
export function toMermaidStateChart(machine: AnyStateMachine, opts: StateChartOptions = {}): string {
  const maxDepth = opts.maxDepth ?? Infinity;
  if (!(maxDepth >= 1)) throw new Error(`toMermaidStateChart: maxDepth must be at least 1 (got ${opts.maxDepth})`);
  const showGuards = opts.guards ?? true;
  const root = machine.root;
  const depth = (n: AnyStateNode): number => n.path.length;

  // ids: sanitised path, unique, never a lexer keyword
  const ids = new Map<AnyStateNode, string>();
  const used = new Set<string>();
  const assignIds = (node: AnyStateNode): void => {
    for (const child of childrenOf(node)) {
      if (depth(child) > maxDepth) continue;
      let id = child.path.join('_').replace(/[^A-Za-z0-9_]/g, '_');
      if (/^[0-9_]/.test(id) || RESERVED.has(id.toLowerCase())) id = `s_${id}`;
      let unique = id;
      for (let n = 2; used.has(unique.toLowerCase()); n++) unique = `${id}_${n}`;
      used.add(unique.toLowerCase());
      ids.set(child, unique);
      assignIds(child);
    }
  };
  assignIds(root);

  /** the node itself if drawn, else its nearest drawn ancestor (root for none) */
  const visible = (n: AnyStateNode): AnyStateNode => {
    let cur: AnyStateNode = n;
    while (cur !== root && depth(cur) > maxDepth) cur = cur.parent!;
    return cur;
  };
  const ancestors = (n: AnyStateNode): AnyStateNode[] => {
    const out: AnyStateNode[] = [];
    for (let cur: AnyStateNode | undefined = n; cur; cur = cur.parent) out.unshift(cur);
    return out;
  };

  // edges, grouped by the block (scope) they are written in; labels collapsed per (from, to)
  type Edge = { scope: AnyStateNode; from: AnyStateNode; to: AnyStateNode; labels: string[]; taken: boolean };
  const edges = new Map<string, Edge>();
  const addEdge = (from: AnyStateNode, to: AnyStateNode, label: string, taken = false): void => {
    let scope: AnyStateNode;
    if (from === to) {
      scope = from.parent ?? root;
    } else {
      const a = ancestors(from);
      const b = ancestors(to);
      let i = 0;
      while (i < a.length && i < b.length && a[i] === b[i]) i++;
      // the deepest common ancestor that strictly contains both ends
      scope = a[i - 1]!;
      if (scope === from || scope === to) scope = scope.parent ?? root;
      const si = ancestors(scope).length;
      from = a[si] ?? from;
      to = b[si] ?? to;
    }
    // the regions of a parallel state are concurrent blocks that no edge may cross or sit between:
    // draw such an edge on the parallel state itself
    while (scope !== root && scope.type === 'parallel') {
      from = scope;
      to = scope;
      scope = scope.parent ?? root;
    }
    if (from === root || to === root) return;
    const key = `${ids.get(from)}\u0000${ids.get(to)}`;
    const edge = edges.get(key) ?? { scope, from, to, labels: [], taken: false };
    if (!edge.labels.includes(label)) edge.labels.push(label);
    edge.taken ||= taken;
    edges.set(key, edge);
  };

  const collect = (node: AnyStateNode): void => {
    // the machine's own transitions last, so that the states' own edges lead the layout
    if (node === root) childrenOf(node).forEach(collect);
    for (const t of transitionsOf(node)) {
      const guard = showGuards ? guardName(t.guard) : undefined;
      const label = guard ? `${eventLabel(t.eventType)} [${guard}]` : eventLabel(t.eventType);
      const targets = t.target ?? [];
      // a transition on the machine itself applies in every top-level state that has no handler of
      // its own for the event (a top-level final state ends the machine, so none applies there)
      const sources = node === root
        ? childrenOf(root).filter((c) => c.type !== 'final' && !c.transitions.has(t.eventType) && !(t.eventType === '' && c.always?.length))
        : [node];
      for (const src of sources) {
        const from = visible(src);
        if (from === root) continue;
        if (targets.length === 0) {
          if (opts.internal) addEdge(from, from, label);
          continue;
        }
        for (const target of targets) {
          const to = visible(target);
          if (to === root) continue;
          // folded inside one drawn state: invisible at this depth (a real self-transition stays)
          if (from === to && !(src === target && src === from)) continue;
          // a machine-level transition back into the state it starts from changes nothing visible
          if (node === root && from === to) continue;
          addEdge(from, to, label, isTaken(opts.taken, pathOf(src), pathOf(target)));
        }
      }
    }
    if (node !== root) childrenOf(node).forEach(collect);
  };
  collect(root);

  const lines: string[] = ['stateDiagram-v2'];
  if (opts.direction) lines.push(`  direction ${opts.direction}`);

  const writeBlock = (node: AnyStateNode, indent: string): void => {
    const children = childrenOf(node).filter((c) => ids.has(c));
    const isParallel = node.type === 'parallel';
    if (!isParallel && node.type === 'compound' && children.length) {
      for (const init of node.initial?.target ?? []) {
        const v = visible(init);
        if (ids.has(v)) lines.push(`${indent}[*] --> ${ids.get(v)}`);
      }
    }
    children.forEach((child, i) => {
      const id = ids.get(child)!;
      if (child.key !== id) lines.push(`${indent}state "${quotedLabel(child.key)}" as ${id}`);
      const drawnChildren = childrenOf(child).some((c) => ids.has(c));
      if (drawnChildren) {
        lines.push(`${indent}state ${id} {`);
        writeBlock(child, `${indent}  `);
        lines.push(`${indent}}`);
      } else if (child.key === id) {
        // a bare id declares the state, so that a state without transitions still appears
        lines.push(`${indent}${id}`);
      }
      if (child.type === 'final') lines.push(`${indent}${id} --> [*]`);
      if (isParallel && i < children.length - 1) lines.push(`${indent}--`);
    });
    for (const edge of edges.values()) {
      if (edge.scope !== node) continue;
      lines.push(`${indent}${ids.get(edge.from)} --> ${ids.get(edge.to)} : ${edge.taken ? '✔ ' : ''}${mermaidLabel(edge.labels.join(', '))}`);
    }
  };
  writeBlock(root, '  ');
  if (opts.taken) {
    const reached = [...ids].filter(([n]) => opts.taken!.states.has(pathOf(n))).map(([, id]) => id);
    if (reached.length) {
      lines.push('  classDef taken stroke-width:3px,font-weight:bold');
      lines.push(`  class ${reached.join(',')} taken`);
    }
  }
  return lines.join('\n') + '\n';
}
