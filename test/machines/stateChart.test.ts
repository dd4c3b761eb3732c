import { describe, expect, it } from 'vitest';
import { and, createMachine, setup, type AnyStateMachine } from 'xstate';
import * as lib from '../../src/machines/index.ts';
import { describeStates, mermaidLabel, toMermaidStateChart } from '../../src/machines/diagram/stateChart.ts';
import { volumeAttachmentMachine } from '../../src/machines/external-attacher/index.ts';

/**
 * The line grammar the generator promises, after Mermaid's stateDiagram lexer (mermaid 12): ids are
 * one word of [A-Za-z0-9_] that is not a keyword, labels have no `;`, no `::` and no newline.
 */
const ID = '[A-Za-z_][A-Za-z0-9_]*';
const LINE = {
  header: /^stateDiagram-v2$/,
  direction: /^ {2}direction (LR|TB)$/,
  initial: new RegExp(`^\\s+\\[\\*\\] --> (${ID})$`),
  final: new RegExp(`^\\s+(${ID}) --> \\[\\*\\]$`),
  bare: new RegExp(`^\\s+(${ID})$`),
  label: new RegExp(`^\\s+state "([^"\\n]+)" as (${ID})$`),
  open: new RegExp(`^\\s+state (${ID}) \\{$`),
  close: /^\s+\}$/,
  concurrent: /^\s+--$/,
  edge: new RegExp(`^\\s+(${ID}) --> (${ID}) : ([^;\\n]+)$`),
};
const KEYWORDS = new Set(['click', 'href', 'default', 'state', 'note', 'classdef', 'class', 'style', 'scale', 'direction', 'hide', 'end']);

interface Parsed {
  declared: string[];
  edges: Array<{ from: string; to: string; label: string }>;
  initials: string[];
  finals: string[];
  labels: Map<string, string>;
}

/** Parse the chart line by line; throws on any line outside the grammar or unbalanced blocks. */
function parseChart(text: string): Parsed {
  const lines = text.trimEnd().split('\n');
  expect(lines[0]).toMatch(LINE.header);
  const out: Parsed = { declared: [], edges: [], initials: [], finals: [], labels: new Map() };
  let open = 0;
  for (const line of lines.slice(1)) {
    let m: RegExpExecArray | null;
    if (LINE.direction.test(line) || LINE.concurrent.test(line)) continue;
    if ((m = LINE.initial.exec(line))) out.initials.push(m[1]!);
    else if ((m = LINE.final.exec(line))) out.finals.push(m[1]!);
    else if ((m = LINE.label.exec(line))) out.labels.set(m[2]!, m[1]!);
    else if ((m = LINE.open.exec(line))) { out.declared.push(m[1]!); open++; }
    else if (LINE.close.test(line)) { open--; expect(open).toBeGreaterThanOrEqual(0); }
    else if ((m = LINE.edge.exec(line))) {
      expect(m[3]).not.toContain('::');
      out.edges.push({ from: m[1]!, to: m[2]!, label: m[3]! });
    } else if ((m = LINE.bare.exec(line))) out.declared.push(m[1]!);
    else throw new Error(`line outside the grammar: ${JSON.stringify(line)}`);
  }
  expect(open).toBe(0);
  for (const id of out.labels.keys()) if (!out.declared.includes(id)) out.declared.push(id);
  for (const id of out.declared) expect(KEYWORDS.has(id.toLowerCase()), `keyword used as id: ${id}`).toBe(false);
  // every state is declared once; every edge end is a declared state
  expect(new Set(out.declared).size).toBe(out.declared.length);
  for (const e of out.edges) {
    expect(out.declared, `edge from undeclared ${e.from}`).toContain(e.from);
    expect(out.declared, `edge to undeclared ${e.to}`).toContain(e.to);
  }
  // one edge per (from, to): duplicates are collapsed
  const pairs = out.edges.map((e) => `${e.from}>${e.to}`);
  expect(new Set(pairs).size).toBe(pairs.length);
  return out;
}

const edge = (p: Parsed, from: string, to: string) => p.edges.find((e) => e.from === from && e.to === to);
const events = (p: Parsed, from: string, to: string): string[] => edge(p, from, to)?.label.split(', ') ?? [];

describe('toMermaidStateChart over the CSI volume lifecycle (spec Figures 5 and 6)', () => {
  const chart = toMermaidStateChart(lib.csiVolumeLifecycleMachine);
  const p = parseChart(chart);

  it('draws every lifecycle state, starting in absent and ending in deleted', () => {
    expect(p.declared.sort()).toEqual(['CREATED', 'NODE_READY', 'PUBLISHED', 'VOL_READY', 'absent', 'deleted'].sort());
    expect(p.initials).toEqual(['absent']);
    expect(p.finals).toEqual(['deleted']);
  });

  it('draws the spec transitions with their RPC events', () => {
    expect(events(p, 'absent', 'CREATED')).toEqual(['csi.createVolume']);
    expect(events(p, 'CREATED', 'NODE_READY')).toEqual(['csi.controllerPublishVolume']);
    expect(events(p, 'CREATED', 'deleted')).toEqual(['csi.deleteVolume']);
    expect(events(p, 'VOL_READY', 'PUBLISHED')).toEqual(['csi.nodePublishVolume']);
    expect(events(p, 'VOL_READY', 'NODE_READY')).toEqual(['csi.nodeUnstageVolume']);
    // guarded: staging only when the node plugin advertises STAGE_UNSTAGE_VOLUME
    expect(events(p, 'NODE_READY', 'VOL_READY')).toEqual(['csi.nodeStageVolume [isStageUnstageAdvertised]']);
    expect(events(p, 'NODE_READY', 'PUBLISHED')).toEqual(['csi.nodePublishVolume [isStageUnstageNotAdvertised]']);
    // and() guards are spelled out
    expect(events(p, 'PUBLISHED', 'VOL_READY')).toEqual(['csi.nodeUnpublishVolume [isLastTarget and isStageUnstageAdvertised]']);
    expect(events(p, 'NODE_READY', 'CREATED')).toEqual(['csi.controllerUnpublishVolume [isLastPublishedNode]']);
  });

  it('draws no transition the machine does not have', () => {
    expect(edge(p, 'absent', 'NODE_READY')).toBeUndefined();
    expect(edge(p, 'CREATED', 'PUBLISHED')).toBeUndefined();
    expect(edge(p, 'deleted', 'absent')).toBeUndefined();
    // targetless (idempotent repeat) transitions are left out by default
    expect(p.edges.filter((e) => e.from === e.to)).toEqual([]);
    expect(p.edges).toHaveLength(10);
  });

  it('without guards, shows bare event names', () => {
    const bare = parseChart(toMermaidStateChart(lib.csiVolumeLifecycleMachine, { guards: false }));
    expect(events(bare, 'NODE_READY', 'VOL_READY')).toEqual(['csi.nodeStageVolume']);
    expect(bare.edges.every((e) => !e.label.includes('['))).toBe(true);
  });

  it('with internal transitions, collapses the repeats of a state into one self-loop', () => {
    const withInternal = parseChart(toMermaidStateChart(lib.csiVolumeLifecycleMachine, { internal: true, guards: false }));
    const loop = events(withInternal, 'NODE_READY', 'NODE_READY');
    // NODE_READY handles these events without leaving (see csiVolumeLifecycle.machine.ts)
    expect(loop).toEqual(expect.arrayContaining([
      'csi.createVolume', 'csi.controllerPublishVolume', 'csi.controllerUnpublishVolume', 'csi.nodeUnstageVolume', 'csi.nodeUnpublishVolume',
    ]));
    expect(new Set(loop).size).toBe(loop.length);
  });
});

describe('toMermaidStateChart over other real machines', () => {
  it('VolumeAttachment lifecycle (external-attacher csi_handler.go)', () => {
    const p = parseChart(toMermaidStateChart(volumeAttachmentMachine));
    expect(p.initials).toEqual(['New', 'Attaching_checkingPV', 'Detaching_checkingDetach']);
    expect(p.finals).toEqual(['Detached']);
    expect(events(p, 'New', 'Attaching')).toEqual(['csiHandler.syncAttach']);
    expect(events(p, 'New', 'TrivialAttaching')).toEqual(['trivialHandler.sync']);
    expect(events(p, 'Attaching_controllerPublishing', 'Attaching_markingAttached')).toEqual(['csi.controllerPublishVolume.succeeded']);
    expect(events(p, 'Attaching', 'Attached')).toEqual(['va.markedAttached']);
    expect(events(p, 'Attaching', 'AttachFailed')).toEqual(['va.markAttachedFailed', 'va.errorSaved', 'va.errorSaveFailed']);
    expect(events(p, 'AttachFailed', 'Attaching')).toEqual(['csiHandler.syncAttach']);
    expect(events(p, 'Detaching_controllerUnpublishing', 'Detaching_detachedFromNode')).toEqual(['csi.controllerUnpublishVolume.succeeded']);
    expect(events(p, 'Detaching', 'Detached')).toEqual(['va.alreadyFullyDetached', 'va.fullyDetached', 'va.finalizerRemoved']);
    expect(events(p, 'DetachFailed', 'Detaching')).toEqual(['csiHandler.syncDetach']);
    // no way back to attach from a detach: a VA being deleted never attaches again
    expect(edge(p, 'Detaching', 'Attaching')).toBeUndefined();
  });

  it('PVC and PV phases of the PV controller', () => {
    const pvc = parseChart(toMermaidStateChart(lib.pvcPhaseMachine));
    expect(pvc.initials).toEqual(['Pending']);
    expect(events(pvc, 'Pending', 'Bound')).toEqual(['claim.bound']);
    expect(events(pvc, 'Bound', 'Lost')).toEqual(['claim.lost']);
    expect(edge(pvc, 'Bound', 'Pending')).toBeUndefined();
    const pv = parseChart(toMermaidStateChart(lib.pvPhaseMachine));
    expect(pv.declared.sort()).toEqual(['Available', 'Bound', 'Failed', 'Pending', 'Released']);
    expect(events(pv, 'Available', 'Bound')).toEqual(['volume.bound']);
    expect(events(pv, 'Bound', 'Released')).toEqual(['volume.released']);
    expect(events(pv, 'Released', 'Available')).toEqual(['volume.available']);
    expect(edge(pv, 'Bound', 'Available')).toBeUndefined();
  });

  it('external-attacher: machine-level host.shutdown from every other state, start-up steps guarded by what main.go does with each answer', () => {
    const p = parseChart(toMermaidStateChart(lib.externalAttacherMachine));
    expect(p.initials).toEqual(['Stopped']);
    for (const s of ['Probing', 'Starting', 'Running', 'Failed']) expect(events(p, s, 'Stopped')).toEqual(['host.shutdown']);
    expect(edge(p, 'Stopped', 'Stopped')).toBeUndefined();
    expect(events(p, 'Stopped', 'Probing')).toEqual(['component.started']);
    expect(events(p, 'Probing', 'Starting')).toEqual(['csi.result [isDriverReady]']);
    expect(events(p, 'Probing', 'Failed')).toEqual(['csi.result [isStartupFailed]']);
    expect(events(p, 'Starting', 'Running')).toEqual(['csi.result [isStartupComplete]']);
    expect(events(p, 'Starting', 'Failed')).toEqual(['csi.result [isStartupFailed]']);
    expect(p.edges.some((e) => e.label.startsWith('always'))).toBe(false);
  });

  it('node-driver-registrar: registration states', () => {
    const p = parseChart(toMermaidStateChart(lib.nodeDriverRegistrarMachine));
    expect(events(p, 'discoveringDriverName', 'serving')).toEqual(['csi.result [isOurGetPluginInfoAnswer and succeeded]']);
    expect(events(p, 'serving', 'registered')).toEqual(['csi.request [isRegistered]']);
  });

  it('every machine the library exports gives output in the grammar', () => {
    const machines = Object.entries(lib).filter(([name, v]) => name.endsWith('Machine') && v && typeof v === 'object' && 'root' in v);
    expect(machines.length).toBeGreaterThanOrEqual(15);
    // one initial arrow per compound state (the root and each nested one), one declaration per state node
    type Node = { states: Record<string, Node> };
    const count = (n: Node): { compound: number; nodes: number } => Object.values(n.states).reduce((acc, c) => {
      const inner = count(c);
      const nested = Object.keys(c.states).length > 0;
      return { compound: acc.compound + inner.compound + (nested ? 1 : 0), nodes: acc.nodes + 1 + inner.nodes };
    }, { compound: 0, nodes: 0 });
    for (const [name, machine] of machines) {
      const p = parseChart(toMermaidStateChart(machine as AnyStateMachine, { direction: 'LR' }));
      const c = count((machine as AnyStateMachine).root as unknown as Node);
      expect(p.initials.length, name).toBe(1 + c.compound);
      expect(p.declared.length, name).toBe(c.nodes);
    }
  });
});

describe('toMermaidStateChart: nesting, parallel regions, escaping, depth', () => {
  const player = setup({ guards: { isHot: () => true } }).createMachine({
    id: 'player',
    initial: 'off',
    on: { 'power.cut': '.off' },
    states: {
      off: { on: { 'power.on': 'on' } },
      on: {
        type: 'parallel',
        on: { 'power.off': 'off' },
        states: {
          light: {
            initial: 'dim',
            states: {
              dim: { on: { 'light.up': 'bright', 'light.toggle': 'bright' } },
              bright: { on: { 'light.down': 'dim', 'fan.boost': '#player.on.fan.fast' } },
            },
          },
          fan: {
            initial: 'slow',
            states: {
              slow: { after: { 1000: 'fast' } },
              fast: { always: { target: '#player.done', guard: 'isHot' } },
            },
          },
        },
      },
      done: { type: 'final' },
    },
  });
  const p = parseChart(toMermaidStateChart(player));

  it('draws nested states inside their composite, with their own initial states', () => {
    expect(p.labels.get('on_light_dim')).toBe('dim');
    expect(p.labels.get('on_fan_slow')).toBe('slow');
    expect(p.initials).toEqual(['off', 'on_light_dim', 'on_fan_slow']);
    expect(p.finals).toEqual(['done']);
  });

  it('separates parallel regions with -- inside the parallel state', () => {
    const lines = toMermaidStateChart(player).split('\n');
    const open = lines.findIndex((l) => l.trim() === 'state on {');
    const sep = lines.findIndex((l) => l.trim() === '--');
    const light = lines.findIndex((l) => l.trim() === 'state on_light {');
    const fan = lines.findIndex((l) => l.trim() === 'state on_fan {');
    expect(open).toBeGreaterThan(0);
    expect(light).toBeGreaterThan(open);
    expect(sep).toBeGreaterThan(light);
    expect(fan).toBeGreaterThan(sep);
  });

  it('keeps edges inside their region, collapses duplicates, names delayed and eventless transitions', () => {
    expect(events(p, 'on_light_dim', 'on_light_bright')).toEqual(['light.up', 'light.toggle']);
    expect(events(p, 'on_light_bright', 'on_light_dim')).toEqual(['light.down']);
    expect(events(p, 'on_fan_slow', 'on_fan_fast')).toEqual(['after 1000ms']);
    // leaving the parallel state from deep inside: drawn from the parallel state
    expect(events(p, 'on', 'done')).toEqual(['always [isHot]']);
    // crossing regions: drawn on the parallel state itself
    expect(events(p, 'on', 'on')).toEqual(['fan.boost']);
    // the machine-level power.cut joins power.off on the same edge
    expect(events(p, 'on', 'off').sort()).toEqual(['power.cut', 'power.off']);
    expect(edge(p, 'done', 'off')).toBeUndefined();
  });

  it('maxDepth folds deeper states into their ancestor', () => {
    const top = parseChart(toMermaidStateChart(player, { maxDepth: 1 }));
    expect(top.declared.sort()).toEqual(['done', 'off', 'on']);
    expect(edge(top, 'on', 'on')).toBeUndefined();
    expect(events(top, 'on', 'done')).toEqual(['always [isHot]']);
    const two = parseChart(toMermaidStateChart(player, { maxDepth: 2 }));
    expect(two.declared.sort()).toEqual(['done', 'off', 'on', 'on_fan', 'on_light']);
    expect(() => toMermaidStateChart(player, { maxDepth: 0 })).toThrow(/maxDepth/);
  });

  it('escapes state names and event names Mermaid would misread', () => {
    const odd = createMachine({
      id: 'odd',
      initial: 'state',
      states: {
        state: { on: { 'a:b;c': 'end', 'x::y': 'my-state' } },
        end: { on: { '<b>"quoted"</b>\nnext': 'my state' } },
        'my-state': { on: { go: 'direction' } },
        'my state': {},
        direction: { on: { 'set direction LR': 'state' } },
        '2fast': {},
      },
    });
    const text = toMermaidStateChart(odd);
    const q = parseChart(text);
    expect([...q.labels.values()].sort()).toEqual(['2fast', 'direction', 'end', 'my state', 'my-state', 'state']);
    // a line with "direction LR" anywhere would be read as a direction statement
    expect(text).not.toMatch(/direction\s+LR/);
    expect(text).not.toMatch(/<b>/);
    expect(q.edges).toHaveLength(5);
    expect(events(q, 's_direction', 's_state')).toEqual(['set direction-LR']);
    expect(mermaidLabel('a:b;c')).toBe('a∶b,c');
  });

  it('describeStates lists states with descriptions, initial flags and transitions', () => {
    const rows = describeStates(lib.csiVolumeLifecycleMachine);
    expect(rows.map((r) => r.path)).toEqual(['absent', 'CREATED', 'NODE_READY', 'VOL_READY', 'PUBLISHED', 'deleted']);
    expect(rows.find((r) => r.initial)?.path).toBe('absent');
    expect(rows.find((r) => r.path === 'deleted')?.type).toBe('final');
    expect(rows.find((r) => r.path === 'VOL_READY')?.description).toMatch(/NodeStageVolume/);
    const stage = rows.find((r) => r.path === 'NODE_READY')!.transitions.find((t) => t.event === 'csi.nodeStageVolume');
    expect(stage).toEqual({ event: 'csi.nodeStageVolume', guard: 'isStageUnstageAdvertised', targets: ['VOL_READY'] });
    const nested = describeStates(player);
    expect(nested.find((r) => r.path === 'on.fan.fast')).toMatchObject({ depth: 3, transitions: [{ event: 'always', guard: 'isHot', targets: ['done'] }] });
    expect(nested.find((r) => r.path === 'on.light.dim')?.initial).toBe(true);
  });

  it('a guard built with and() reads as a phrase', () => {
    const m = setup({ guards: { a: () => true, b: () => true } }).createMachine({
      initial: 'x', states: { x: { on: { go: { target: 'y', guard: and(['a', 'b']) } } }, y: {} },
    });
    expect(events(parseChart(toMermaidStateChart(m)), 'x', 'y')).toEqual(['go [a and b]']);
  });
});
