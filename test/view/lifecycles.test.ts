/**
 * Which machine a step's states entry is a state of, what the runs show the machines doing (the
 * marks on the component pages' charts), and the machines the flow model puts beside each step.
 */
import { describe, expect, it } from 'vitest';
import {
  attachStateMachine, attachVolumeMachine, detachVolumeMachine,
} from '../../src/machines/attach-detach-controller/index.ts';
import { csiVolumeLifecycleMachine } from '../../src/machines/csi-plugin/index.ts';
import { volumeAttachmentMachine } from '../../src/machines/external-attacher/index.ts';
import {
  attachedVolumeMachine, kubeletMachine, mountedPodMachine, mountVolumeMachine, unmountDeviceMachine, unmountVolumeMachine,
  verifyControllerAttachedVolumeMachine,
} from '../../src/machines/kubelet/index.ts';
import { pvcPhaseMachine, pvPhaseMachine } from '../../src/machines/pv-controller/index.ts';
import { isTaken, takenKey, toMermaidStateChart } from '../../src/machines/diagram/stateChart.ts';
import { machineOfSubject, stateEntries, TakenTally } from '../../src/machines/view/lifecycles.ts';
import { buildFlowModel, runScenario } from '../../src/machines/index.ts';

const VOL = 'kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-adge0gvc';

describe('machineOfSubject: the machine a states key names', () => {
  it.each([
    ['kubelet', '', kubeletMachine],
    ['kubelet', `volume ${VOL} pod default/web-0`, mountedPodMachine],
    ['kubelet', `volume ${VOL}`, attachedVolumeMachine],
    ['kubelet', `verify_controller_attached_volume ${VOL} pod default/web-0`, verifyControllerAttachedVolumeMachine],
    ['kubelet', `volume_mount ${VOL} pod default/web-0`, mountVolumeMachine],
    ['kubelet', `volume_unmount ${VOL} pod default/web-0`, unmountVolumeMachine],
    ['kubelet', `unmount_device ${VOL}`, unmountDeviceMachine],
    ['attach-detach-controller', `volume_attach ${VOL} node node-1`, attachVolumeMachine],
    ['attach-detach-controller', `volume_detach ${VOL} node node-1`, detachVolumeMachine],
    ['attach-detach-controller', `volume ${VOL} node node-1`, attachStateMachine],
    ['external-attacher', 'volumeattachment csi-3a36', volumeAttachmentMachine],
    ['csi-controller-plugin', 'volume disk-1', csiVolumeLifecycleMachine],
    ['csi-node-plugin', 'volume disk-1', csiVolumeLifecycleMachine],
    ['pv-controller', 'persistentvolumeclaim default/data-web-0', pvcPhaseMachine],
    ['pv-controller', 'persistentvolume pvc-4f3a', pvPhaseMachine],
  ])('%s %s', (component, subject, machine) => {
    expect(machineOfSubject(component, subject)).toBe(machine);
  });

  it('names no machine for a subject the descriptor does not list, or an unknown component', () => {
    expect(machineOfSubject('kubelet', 'something else')).toBeUndefined();
    expect(machineOfSubject('no-such-component', '')).toBeUndefined();
  });

  it('stateEntries keeps only the acting instance\'s entries', () => {
    const entries = stateEntries({
      component: 'kubelet', instance: 'kubelet/node-1',
      states: { 'kubelet/node-1': 'running', [`kubelet/node-1 volume ${VOL}`]: 'DeviceGloballyMounted', 'kubelet/node-2': 'running', [`kubelet/node-10 volume ${VOL}`]: 'Detached' },
    });
    expect(entries.map((e) => [e.subject, e.machine.id, e.state])).toEqual([
      ['', 'kubelet', 'running'],
      [`volume ${VOL}`, 'kubeletAttachedVolume', 'DeviceGloballyMounted'],
    ]);
  });
});

describe('TakenTally: what the runs show the machines doing', () => {
  const move = (tally: TakenTally, subject: string, state: string, instance = 'kubelet/node-1') =>
    tally.move({ component: 'kubelet', instance, subject, state });

  it('records a move only where the machine has a transition, and infers the start from the initial state', () => {
    const t = new TakenTally();
    const s = `volume_mount ${VOL} pod default/web-0`;
    // mountVolumeMachine: waitForAttach is the initial state and leads to mountDevice
    move(t, s, 'mountDevice.newCsiDriverClient');
    move(t, s, 'mountDevice.nodeGetCapabilities');
    move(t, s, 'mountDevice.nodeGetCapabilities'); // the same state again: no move
    move(t, s, 'failed');
    const taken = t.of('kubelet', mountVolumeMachine);
    expect([...taken.transitions]).toEqual([
      takenKey('waitForAttach', 'mountDevice.newCsiDriverClient'),
      takenKey('mountDevice.newCsiDriverClient', 'mountDevice.nodeGetCapabilities'),
      takenKey('mountDevice.nodeGetCapabilities', 'failed'),
    ]);
    expect([...taken.states].sort()).toEqual(['failed', 'mountDevice', 'mountDevice.newCsiDriverClient', 'mountDevice.nodeGetCapabilities', 'waitForAttach']);
  });

  it('an operation started again for the same key is a new run, not a move from where the last one ended', () => {
    const t = new TakenTally();
    const s = `verify_controller_attached_volume ${VOL} pod default/web-0`;
    move(t, s, 'fetchingNode');
    move(t, s, 'failed');
    move(t, s, 'fetchingNode'); // the retry: checkingPlugin → fetchingNode again, not failed → fetchingNode
    const taken = t.of('kubelet', verifyControllerAttachedVolumeMachine);
    expect(taken.transitions.has(takenKey('failed', 'fetchingNode'))).toBe(false);
    expect(taken.transitions.has(takenKey('checkingPlugin', 'fetchingNode'))).toBe(true);
  });

  it('keeps subjects and instances apart, and forgets the last states between runs', () => {
    const t = new TakenTally();
    const s = `volume ${VOL}`;
    move(t, s, 'DeviceGloballyMounted', 'kubelet/node-1');
    move(t, s, 'DeviceNotMounted', 'kubelet/node-2'); // another node's volume: not a move of node-1's
    expect(t.of('kubelet', attachedVolumeMachine).transitions.has(takenKey('DeviceGloballyMounted', 'DeviceNotMounted'))).toBe(false);
    t.endRun();
    move(t, s, 'Detached', 'kubelet/node-1');
    expect(t.of('kubelet', attachedVolumeMachine).transitions.has(takenKey('DeviceGloballyMounted', 'Detached'))).toBe(false);
  });

  it('a volume first seen in a state its initial state does not lead to directly claims no move', () => {
    const t = new TakenTally();
    t.move({ component: 'csi-node-plugin', instance: 'csi-node-plugin/node-1', subject: 'volume disk-1', state: 'VOL_READY' });
    expect(t.of('csi-node-plugin', csiVolumeLifecycleMachine).transitions.size).toBe(0);
    expect(t.of('csi-controller-plugin', csiVolumeLifecycleMachine).states.size).toBe(0);
  });

  it('the attach scenario takes the attach operation through every state of its success path', () => {
    const t = new TakenTally();
    runScenario('attach', { k8s: '1.30', warmUp: true, onStateMove: t.move });
    const attach = t.of('attach-detach-controller', attachVolumeMachine);
    for (const [from, to] of [['lookingUpVolumeAttachment', 'creatingVolumeAttachment'], ['creatingVolumeAttachment', 'waitingForAttach'], ['waitingForAttach', 'succeeded']]) {
      expect(attach.transitions.has(takenKey(from!, to!)), `${from} → ${to}`).toBe(true);
    }
    const va = t.of('external-attacher', volumeAttachmentMachine);
    expect(va.transitions.has(takenKey('Attaching.markingAttached', 'Attached'))).toBe(true);
    const csi = t.of('csi-controller-plugin', csiVolumeLifecycleMachine);
    expect(csi.transitions.has(takenKey('CREATED', 'NODE_READY'))).toBe(true);
    const node = t.of('csi-node-plugin', csiVolumeLifecycleMachine);
    expect(node.transitions.has(takenKey('VOL_READY', 'PUBLISHED'))).toBe(true);
  });

  it('provision and teardown take the PV and PVC phases the PV controller writes (syncUnboundClaim bind, syncVolume on a deleted claim)', () => {
    const t = new TakenTally();
    runScenario('provision', { k8s: '1.30', onStateMove: t.move });
    t.endRun();
    runScenario('teardown', { k8s: '1.30', onStateMove: t.move });
    const pv = t.of('pv-controller', pvPhaseMachine);
    const pvc = t.of('pv-controller', pvcPhaseMachine);
    expect(pvc.transitions.has(takenKey('Pending', 'Bound'))).toBe(true);
    expect(pv.transitions.has(takenKey('Pending', 'Bound'))).toBe(true);
    expect(pv.transitions.has(takenKey('Bound', 'Released'))).toBe(true);
    expect(pv.states.has('Failed')).toBe(false);
  });

  it('the step that logs a phase shows the object\'s phase', () => {
    const tr = runScenario('provision', { k8s: '1.30' });
    const st = tr.steps.find((s) => s.component === 'pv-controller' && /^PersistentVolumeClaim \S+ enters phase Bound/.test(s.summary) && Object.keys(s.states ?? {}).some((k) => k.includes('persistentvolumeclaim ')));
    expect(st, 'a pv-controller step with the claim\'s phase').toBeDefined();
    const entry = stateEntries(st!).find((e) => e.machine === pvcPhaseMachine);
    expect(entry?.state).toBe('Bound');
  });
});

describe('the chart marks what the runs took', () => {
  const taken = { states: new Set(['AttachStateDetached', 'AttachStateAttached']), transitions: new Set([takenKey('AttachStateDetached', 'AttachStateAttached')]) };

  it('isTaken matches a move from or to a state inside the transition\'s ends', () => {
    const va = { states: new Set<string>(), transitions: new Set([takenKey('Attaching.markingAttached', 'Attached')]) };
    expect(isTaken(va, 'Attaching', 'Attached')).toBe(true);
    expect(isTaken(va, 'Attaching.markingAttached', 'Attached')).toBe(true);
    expect(isTaken(va, 'Attaching.controllerPublishing', 'Attached')).toBe(false);
    expect(isTaken(va, 'Attached', 'Attaching')).toBe(false);
    expect(isTaken(undefined, 'Attaching', 'Attached')).toBe(false);
  });

  it('prefixes the taken edge with ✔ and puts the reached states in the taken class', () => {
    const code = toMermaidStateChart(attachStateMachine, { taken });
    const edges = code.split('\n').filter((l) => l.includes(' --> ') && !l.includes('[*]'));
    expect(edges.filter((l) => l.includes(': ✔ '))).toEqual(['  AttachStateDetached --> AttachStateAttached : ✔ MarkVolumeAsAttached']);
    expect(edges.length).toBeGreaterThan(1);
    expect(code).toContain('  classDef taken stroke-width:3px,font-weight:bold\n');
    expect(code).toContain('  class AttachStateDetached,AttachStateAttached taken\n');
  });

  it('without taken, the chart is as before: no marks, no class lines', () => {
    const code = toMermaidStateChart(attachStateMachine);
    expect(code).not.toContain('✔');
    expect(code).not.toContain('classDef');
  });
});

describe('the flow model: the machines beside each step', () => {
  const model = buildFlowModel(runScenario('pod-migration', { k8s: '1.20' }));
  const chartOf = (i: number) => model.charts[i]!;

  it('lists the charts of the machines the steps acted on, generated from the machines', () => {
    const names = model.charts.map((c) => c.name);
    for (const n of ['unmountVolumeMachine', 'unmountDeviceMachine', 'verifyControllerAttachedVolumeMachine', 'detachVolumeMachine', 'volumeAttachmentMachine', 'attachVolumeMachine', 'mountVolumeMachine']) {
      expect(names).toContain(n);
    }
    const va = model.charts.find((c) => c.name === 'volumeAttachmentMachine')!;
    expect(va.states.filter((s) => s.depth === 1).map((s) => s.path)).toEqual(expect.arrayContaining(['New', 'Attaching', 'Attached', 'Detaching', 'Detached']));
  });

  it('a step that moves an operation says from where; the external-attacher\'s VolumeAttachment changes state on its steps', () => {
    const moves = model.steps.flatMap((s) => (s.machines ?? []).map((m) => ({ step: s.i, component: s.component, name: chartOf(m.chart).name, ...m })));
    const detach = moves.find((m) => m.name === 'detachVolumeMachine' && m.from === 'fetchingNode');
    expect(detach?.state).toBe('deletingVolumeAttachment');
    const vaStates = new Set(moves.filter((m) => m.name === 'volumeAttachmentMachine').map((m) => m.state));
    expect(vaStates.size).toBeGreaterThan(2);
    // every step whose component moved a volume or an operation names it with a machine of that component
    for (const m of moves) expect(m.component).not.toBe('user');
  });

  it('an operation retried for the same key starts again: no move from failed back to fetchingNode', () => {
    const verify = model.steps.flatMap((s) => s.machines ?? []).filter((m) => chartOf(m.chart).name === 'verifyControllerAttachedVolumeMachine');
    expect(verify.some((m) => m.state === 'fetchingNode')).toBe(true);
    expect(verify.some((m) => m.state === 'fetchingNode' && m.from === 'failed')).toBe(false);
    expect(verify.some((m) => m.state === 'failed' && m.from === 'fetchingNode')).toBe(true);
  });
});
