/**
 * The kubelet's volume lifecycles and operations as machines: every state of each is reachable, and
 * the kubelet driven alone takes the paths upstream's operation generator takes (each test names the
 * upstream function it follows).
 */
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { attachedVolumeMachine, mountedPodMachine } from '../../src/machines/kubelet/volumemanager/cache/actualStateOfWorld.ts';
import {
  expandInUseVolumeMachine, mapVolumeMachine, mountVolumeMachine, unmapDeviceMachine, unmapVolumeMachine, unmountDeviceMachine, unmountVolumeMachine,
  verifyControllerAttachedVolumeMachine, apiFact, csiFact, type OperationEvent,
} from '../../src/machines/kubelet/operationexecutor/operationGenerator.ts';
import { DRIVER, HANDLE, NODE, PV, STAGE_CAPS, UNIQUE, VA, answerCaps, kubeletUpTo, node as nodeObject, pod, pv as pvObject, pvc, unansweredCaps, va } from './kubelet.fixtures.ts';
import { createHarness, kubeletDescriptor } from '../../src/machines/index.ts';
import * as asw from '../../src/machines/kubelet/volumemanager/cache/actualStateOfWorld.ts';
import { begin } from '../../src/machines/kubelet/kubelet.work.ts';
import type { K8sObject } from '../../src/machines/shared/k8s.ts';
import type { CsiRpc } from '../../src/machines/shared/csi.ts';
import { secretScenario } from '../fixtures/secretScenario.ts';
import { mapAccessMode } from '../../src/machines/kubelet/csi/csiAttacher.ts';

/** Leaf state paths of a state value, e.g. {mountDevice: 'nodeStageVolume'} -> mountDevice.nodeStageVolume */
const leaf = (v: unknown): string => (typeof v === 'string' ? v : Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}.${leaf(x)}`).join(','));

function reached(machine: AnyStateMachine, events: OperationEvent[] | Array<{ type: string }>, inputs: object[] = [{}]): Set<string> {
  const out = new Set<string>();
  for (const input of inputs) {
    const paths = getShortestPaths(machine, { input, events, serializeState: (s: { value: unknown; context: unknown }) => JSON.stringify([s.value, s.context]) } as never);
    for (const p of paths) out.add(leaf(p.state.value));
  }
  return out;
}

/** Every leaf state a machine declares where it can rest (a state left by eventless transitions only is a decision, not a state). */
function leaves(machine: AnyStateMachine): Set<string> {
  const out = new Set<string>();
  type Node = { states: Record<string, Node>; always?: unknown[]; config: { always?: unknown } };
  const walk = (node: Node, prefix: string): void => {
    for (const [k, child] of Object.entries(node.states)) {
      if (Object.keys(child.states).length) walk(child, `${prefix}${k}.`);
      else if (!child.config.always) out.add(`${prefix}${k}`);
    }
  };
  walk(machine.root as never, '');
  return out;
}

/** a CSI answer as the adapter at the edge makes it a fact (NodeGetCapabilities: the capabilities the operations ask about) */
const ok = (rpc: string, response?: Record<string, unknown>): OperationEvent =>
  csiFact({ type: 'csi.result', now: 0, requestId: 'r1', rpc: (rpc[0]!.toUpperCase() + rpc.slice(1)) as CsiRpc, code: 'OK', ...(response ? { response } : {}) });
const failed = (rpc: string, code: 'INTERNAL' | 'DEADLINE_EXCEEDED'): OperationEvent => ({ type: `csi.${rpc}.failed`, code, message: 'boom' } as OperationEvent);
const RPC_EVENTS = (rpcs: string[]): OperationEvent[] => rpcs.flatMap((r) => [ok(r, STAGE_CAPS), ok(r), failed(r, 'INTERNAL'), failed(r, 'DEADLINE_EXCEEDED')]);
const CLIENT: OperationEvent[] = [{ type: 'csi.driverClient.created' }, { type: 'csi.driverClient.failed' }];
const GIB = 2 ** 30;
/** NodeGetCapabilities with STAGE_UNSTAGE_VOLUME (1) and EXPAND_VOLUME (3) */
const EXPAND_CAPS = { capabilities: [{ Type: { Rpc: { type: 1 } } }, { Type: { Rpc: { type: 3 } } }] };
const claimOf = (storage: string): K8sObject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, status: { capacity: { storage } } });
/** the claim read (smaller than the PV, or already its size, or not read) and marked resized (or not) */
const EXPANSION_API: OperationEvent[] = [
  apiFact('getPVC', true, claimOf('10Gi'), undefined, UNIQUE), apiFact('getPVC', true, claimOf('20Gi'), undefined, UNIQUE), { type: 'api.getPVC.failed', message: 'x' },
  { type: 'api.patchPVC.succeeded' }, { type: 'api.patchPVC.failed', message: 'x' },
  // the node-expand Secret read (1.25 on), or not
  { type: 'api.getNodeExpandSecret.succeeded' }, { type: 'api.getNodeExpandSecret.failed', message: 'x' },
];
/** the inputs again with a nodeExpandSecretRef the kubelet reads */
const withExpandSecret = <T extends object>(inputs: T[]): T[] => [...inputs, ...inputs.map((i) => ({ ...i, nodeExpandSecret: true }))];

/** the node-stage Secret read, or not */
const SECRET_API: OperationEvent[] = [
  { type: 'api.getNodeStageSecret.succeeded' },
  { type: 'api.getNodeStageSecret.failed', message: 'x' },
];
const PUBLISH_SECRET_API: OperationEvent[] = [
  { type: 'api.getNodePublishSecret.succeeded' },
  { type: 'api.getNodePublishSecret.failed', message: 'x' },
];

describe('the kubelet state machines reach every state', () => {
  it('attachedVolume: DeviceNotMounted, DeviceMountUncertain, DeviceGloballyMounted, Detached', () => {
    const events = ['MarkDeviceAsMounted', 'MarkDeviceAsUncertain', 'MarkDeviceAsUnmounted', 'MarkVolumeAsDetached'].map((type) => ({ type }));
    expect(reached(attachedVolumeMachine, events)).toEqual(leaves(attachedVolumeMachine));
    expect(leaves(attachedVolumeMachine)).toEqual(new Set(['DeviceNotMounted', 'DeviceMountUncertain', 'DeviceGloballyMounted', 'Detached']));
  });

  it('mountedPod: VolumeNotMounted, VolumeMountUncertain, VolumeMounted', () => {
    const events = ['MarkVolumeAsMounted', 'MarkVolumeMountAsUncertain', 'MarkVolumeAsUnmounted'].map((type) => ({ type }));
    expect(reached(mountedPodMachine, events)).toEqual(new Set(['VolumeNotMounted', 'VolumeMountUncertain', 'VolumeMounted']));
  });

  it('VerifyControllerAttachedVolume, for attachable and not attachable volumes, reported in use or not, reading the claim first (1.30) or not', () => {
    const node = (attached: string[]): K8sObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: NODE }, status: { volumesAttached: attached.map((name) => ({ name, devicePath: '' })) } });
    const events: OperationEvent[] = [
      apiFact('getNode', true, node([UNIQUE]), undefined, UNIQUE), apiFact('getNode', true, node([]), undefined, UNIQUE), { type: 'api.getNode.failed', message: 'x' },
      apiFact('getPVC', true, pvc, undefined, UNIQUE), { type: 'api.getPVC.failed', message: 'x' },
    ];
    const inputs = [true, false].flatMap((attachable) => [true, false].flatMap((reportedInUse) => [true, false].map((readsClaim) => ({ volumeName: UNIQUE, attachable, reportedInUse, readsClaim }))));
    expect(reached(verifyControllerAttachedVolumeMachine, events, inputs)).toEqual(leaves(verifyControllerAttachedVolumeMachine));
  });

  it('MountVolume: WaitForAttach, MountDevice and SetUp steps (each with its GET of the VolumeAttachment), the expansion after either (1.20, 1.30), succeeded and failed', () => {
    const events: OperationEvent[] = [
      { type: 'csiAttacher.waitForAttach.succeeded' }, { type: 'csiAttacher.waitForAttach.failed', error: 'not attached' },
      { type: 'api.getVolumeAttachment.succeeded' }, { type: 'api.getVolumeAttachment.failed', message: 'x' },
      ...CLIENT, ...RPC_EVENTS(['nodeGetCapabilities', 'nodeStageVolume', 'nodePublishVolume', 'nodeExpandVolume']), ok('nodeGetCapabilities', EXPAND_CAPS),
      ...EXPANSION_API, ...SECRET_API, ...PUBLISH_SECRET_API,
      { type: 'host.setVolumeOwnership.succeeded' }, { type: 'host.setVolumeOwnership.failed', error: 'readdirent /x: input/output error' },
      { type: 'host.statVolumeRoot.succeeded', rootGid: 2000, rootModeOk: true }, { type: 'host.statVolumeRoot.succeeded', rootGid: 0, rootModeOk: false },
    ];
    // (1.30 asks for VOLUME_MOUNT_GROUP before NodeStageVolume and NodePublishVolume: checksVolumeMountGroup; a PV with a
    // nodeStageSecretRef has its Secret read before both, one with a nodePublishSecretRef that one before NodePublishVolume)
    const inputs = [true, false].flatMap((deviceGloballyMounted) => [true, false].flatMap((expandsAfterMountDevice) => [true, false].flatMap((unsupportedIsDone) => [true, false].flatMap((checksVolumeMountGroup) =>
      [true, false].flatMap((nodeStageSecret) => [true, false].map((nodePublishSecret) => ({ attachable: true, deviceGloballyMounted, expandsAfterMountDevice, unsupportedIsDone, checksVolumeMountGroup, nodeStageSecret, nodePublishSecret, newSize: 20 * GIB })))))));
    // (a nodeExpandSecretRef read before NodeExpandVolume: with neither other Secret)
    // (1.30's access mode question inside NodeStageVolume and NodePublishVolume: mapsAccessMode)
    const more = inputs.filter((i) => !i.nodeStageSecret && !i.nodePublishSecret);
    // (a pod with an fsGroup the kubelet applies itself after NodePublishVolume: SetVolumeOwnership)
    expect(reached(mountVolumeMachine, events, [...inputs, ...more.map((i) => ({ ...i, nodeExpandSecret: true })), ...more.map((i) => ({ ...i, mapsAccessMode: true })), ...more.map((i) => ({ ...i, fsGroup: 2000 })), ...more.map((i) => ({ ...i, fsGroup: 2000, onRootMismatch: true }))])).toEqual(leaves(mountVolumeMachine));
    expect([...leaves(mountVolumeMachine)].filter((l) => l.startsWith('expandAfter')).sort()).toEqual([
      'expandAfterMountDevice.getNodeExpandSecret', 'expandAfterMountDevice.getPVC', 'expandAfterMountDevice.markFSResizeFinished', 'expandAfterMountDevice.newCsiDriverClient',
      'expandAfterMountDevice.nodeExpandVolume', 'expandAfterMountDevice.nodeGetCapabilities', 'expandAfterMountDevice.nodeGetCapabilitiesAgain',
      'expandAfterSetUp.getNodeExpandSecret', 'expandAfterSetUp.getPVC', 'expandAfterSetUp.markFSResizeFinished', 'expandAfterSetUp.newCsiDriverClient',
      'expandAfterSetUp.nodeExpandVolume', 'expandAfterSetUp.nodeGetCapabilities', 'expandAfterSetUp.nodeGetCapabilitiesAgain',
    ]);
  });

  it('ExpandInUseVolume: the claim read, EXPAND_VOLUME asked, NodeExpandVolume, the claim marked resized; succeeded and failed', () => {
    const events: OperationEvent[] = [...CLIENT, ...RPC_EVENTS(['nodeGetCapabilities', 'nodeExpandVolume']), ok('nodeGetCapabilities', EXPAND_CAPS), ...EXPANSION_API];
    const inputs = withExpandSecret([true, false].map((unsupportedIsDone) => ({ newSize: 20 * GIB, unsupportedIsDone })));
    expect(reached(expandInUseVolumeMachine, events, inputs)).toEqual(leaves(expandInUseVolumeMachine));
    expect(leaves(expandInUseVolumeMachine)).toEqual(new Set([
      'nodeExpandVolume.getPVC', 'nodeExpandVolume.getNodeExpandSecret', 'nodeExpandVolume.newCsiDriverClient', 'nodeExpandVolume.nodeGetCapabilities', 'nodeExpandVolume.nodeGetCapabilitiesAgain',
      'nodeExpandVolume.nodeExpandVolume', 'nodeExpandVolume.markFSResizeFinished', 'succeeded', 'failed',
    ]));
  });

  it('UnmountVolume and UnmountDevice', () => {
    expect(reached(unmountVolumeMachine, [...CLIENT, ...RPC_EVENTS(['nodeUnpublishVolume'])])).toEqual(leaves(unmountVolumeMachine));
    expect(reached(unmountDeviceMachine, [...CLIENT, ...RPC_EVENTS(['nodeGetCapabilities', 'nodeUnstageVolume'])])).toEqual(leaves(unmountDeviceMachine));
  });

  it('MapVolume (raw block): WaitForAttach, SetUpDevice with the VolumeAttachment GET and the node-stage Secret, MapPodDevice, the expansion; succeeded and failed', () => {
    const events: OperationEvent[] = [
      { type: 'csiAttacher.waitForAttach.succeeded' }, { type: 'csiAttacher.waitForAttach.failed', error: 'not attached' },
      { type: 'api.getVolumeAttachment.succeeded' }, { type: 'api.getVolumeAttachment.failed', message: 'x' },
      ...CLIENT, ...RPC_EVENTS(['nodeGetCapabilities', 'nodeStageVolume', 'nodePublishVolume', 'nodeExpandVolume']), ok('nodeGetCapabilities', EXPAND_CAPS),
      ...EXPANSION_API, ...SECRET_API,
    ];
    const inputs = [true, false].flatMap((deviceGloballyMounted) => [true, false].flatMap((unsupportedIsDone) => [true, false].flatMap((nodeStageSecret) =>
      [true, false].map((nodePublishSecret) => ({ attachable: true, deviceGloballyMounted, unsupportedIsDone, nodeStageSecret, nodePublishSecret, newSize: 20 * GIB })))));
    expect(reached(mapVolumeMachine, [...events, ...PUBLISH_SECRET_API], [...withExpandSecret(inputs), ...inputs.map((i) => ({ ...i, mapsAccessMode: true }))])).toEqual(leaves(mapVolumeMachine));
    expect([leaves(mapVolumeMachine).has('setUpDevice.getNodeStageSecret'), leaves(mapVolumeMachine).has('mapPodDevice.getNodePublishSecret')]).toEqual([true, true]);
  });

  it('UnmapVolume and UnmapDevice (raw block), marking uncertain first or not', () => {
    const inputs = [{ marksUncertain: true }, { marksUncertain: false }];
    expect(reached(unmapVolumeMachine, [...CLIENT, ...RPC_EVENTS(['nodeUnpublishVolume'])], inputs)).toEqual(leaves(unmapVolumeMachine));
    expect(reached(unmapDeviceMachine, [...CLIENT, ...RPC_EVENTS(['nodeGetCapabilities', 'nodeUnstageVolume'])], inputs)).toEqual(leaves(unmapDeviceMachine));
  });
});

type H = ReturnType<typeof kubeletUpTo>;
const deviceState = (h: H): string | undefined => h.context.asw[UNIQUE]?.deviceState;
const podMount = (h: H): string | undefined => h.context.asw[UNIQUE]?.pods['uid-web-0']?.state;
const lastCall = (h: H, rpc: 'NodeStageVolume' | 'NodePublishVolume' | 'NodeGetCapabilities') => h.csiCalls(rpc).at(-1)!;
/** After a failed attempt: wait out the backoff and answer the new attempt's capability check. */
function retry(h: H): void {
  const before = h.csiCalls('NodeGetCapabilities').length;
  h.advanceUntil(() => h.csiCalls('NodeGetCapabilities').length > before, 10_000);
  answerCaps(h, STAGE_CAPS);
}
/**
 * The pod is deleted and its containers stop: its volume leaves the desired state. A mount retry that
 * started meanwhile fails at its capability check (which marks nothing), so that the volume is free.
 */
/**
 * The pod is deleted; a MountVolume retry that starts before its containers are gone is refused: by its capability call
 * (a finished error, which marks an uncertain mount not mounted), or, `transient`, by its VolumeAttachment GET (which
 * leaves every state as it was).
 */
function deletePod(h: H, refuse: 'capabilities' | 'transient' = 'capabilities'): void {
  const p = pod('web-0', NODE);
  h.modified({ ...p, metadata: { ...p.metadata, deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 } }, p);
  h.advance(5000);
  for (const c of unansweredCaps(h)) {
    if (refuse === 'capabilities') { h.reply(c, 'INTERNAL', {}, 'retry refused'); continue; }
    h.reply(c, 'OK', STAGE_CAPS);
    const get = h.pending().find((x) => !x.answered && x.type === 'api.request' && x.verb === 'get' && x.kind === 'VolumeAttachment');
    if (get) h.answer(get, { ok: false, code: 500, message: 'retry refused' });
  }
  // the reconciler comes back when that failure's backoff ends (it is scheduled on changes, not every 100ms)
  h.advance(5000);
}

describe('NodeGetCapabilities before NodeStageVolume and NodePublishVolume (NodeSupportsStageUnstage, NodeSupportsVolumeMountGroup, getNodeV1AccessModeMapper)', () => {
  it('1.20 asks once before each; 1.30 three times: then for VOLUME_MOUNT_GROUP (csi_attacher.go:392, csi_mounter.go:246), then, inside the call, for SINGLE_NODE_MULTI_WRITER (csi_client.go:408, :237)', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    for (const [k8s, n] of [['1.20', 1], ['1.30', 3]] as const) {
      const rpcs = runScenario('mount', { k8s }).steps.filter((st) => st.kind === 'rpc' && st.component === 'kubelet').map((st) => st.summary.match(/calls (\w+)/)?.[1]);
      const stage = rpcs.indexOf('NodeStageVolume');
      const publish = rpcs.indexOf('NodePublishVolume');
      expect([k8s, rpcs.slice(0, stage).filter((r) => r === 'NodeGetCapabilities').length, rpcs.slice(stage + 1, publish).filter((r) => r === 'NodeGetCapabilities').length]).toEqual([k8s, n, n]);
    }
  });

  it('the NodeGetCapabilities fact says which of STAGE_UNSTAGE_VOLUME (1), EXPAND_VOLUME (3) and SINGLE_NODE_MULTI_WRITER (5) the plugin has, numbered or named', () => {
    const fact = (capabilities: unknown[]) => csiFact({ type: 'csi.result', now: 0, requestId: 'r1', rpc: 'NodeGetCapabilities', code: 'OK', response: { capabilities } });
    expect(fact([{ Type: { Rpc: { type: 5 } } }])).toEqual({ type: 'csi.nodeGetCapabilities.succeeded', stageUnstage: false, nodeExpand: false, singleNodeMultiWriter: true });
    expect(fact([{ rpc: { type: 'SINGLE_NODE_MULTI_WRITER' } }, { rpc: { type: 'STAGE_UNSTAGE_VOLUME' } }])).toMatchObject({ stageUnstage: true, singleNodeMultiWriter: true });
    expect(fact([{ type: 1 }, { type: 3 }])).toEqual({ type: 'csi.nodeGetCapabilities.succeeded', stageUnstage: true, nodeExpand: true, singleNodeMultiWriter: false });
    expect(fact([])).toMatchObject({ stageUnstage: false, nodeExpand: false, singleNodeMultiWriter: false });
  });

  it('the access mode sent follows the SINGLE_NODE_MULTI_WRITER answer (1.30): ReadWriteOnce 7 or 1, ReadWriteOncePod 6 or 1, the others as they were', () => {
    const v = (pvAccessMode: string) => ({ uniqueName: 'u', pvName: 'pv', driver: 'd', handle: 'h', attachable: true, fsType: 'ext4', accessMode: 99, pvAccessMode, readOnly: false, volumeContext: {} });
    const mode = (am: string, snmw: boolean) => mapAccessMode(v(am), snmw).accessMode;
    expect([mode('ReadWriteOnce', true), mode('ReadWriteOncePod', true), mode('ReadWriteMany', true), mode('ReadOnlyMany', true)]).toEqual([7, 6, 5, 3]);
    expect([mode('ReadWriteOnce', false), mode('ReadWriteOncePod', false), mode('ReadWriteMany', false), mode('ReadOnlyMany', false)]).toEqual([1, 1, 5, 3]);
  });

  it('1.30: a ReadWriteOncePod volume of a driver without SINGLE_NODE_MULTI_WRITER is staged and published as SINGLE_NODE_WRITER', async () => {
    const { runScenario, scenarioFromManifests } = await import('../../src/machines/index.ts');
    const file = secretScenario({ classLines: [], withPod: true, spec: '  k8s: "1.30"\n  runFor: 40s\n' }).replace('accessModes: [ReadWriteOnce]', 'accessModes: [ReadWriteOncePod]');
    const t = runScenario(scenarioFromManifests(file));
    for (const m of ['NodeStageVolume', 'NodePublishVolume']) {
      const req = t.steps.find((st) => st.kind === 'rpc' && st.rpc?.method === `/csi.v1.Node/${m}`)!.rpc!.request as { volume_capability: { access_mode: { mode: number } } };
      expect([m, req.volume_capability.access_mode.mode]).toEqual([m, 1]);
    }
    expect(t.final.objects.find((o) => o.kind === 'Pod')!.status.phase).toBe('Running');
  });
});

describe('VerifyControllerAttachedVolume waits for the cached node status (GenerateVerifyControllerAttachedVolumeFunc, kubernetes#106853)', () => {
  /** A kubelet whose pod's volume is reported in use, and whose Node informer does not list it attached yet. */
  function reportedInUse(profile: '1.20' | '1.30') {
    const h = createHarness(kubeletDescriptor, { nodeName: NODE, kubeletRoot: '/var/lib/kubelet' }, { driver: DRIVER, profile });
    h.start([nodeObject(NODE)]);
    h.serve();
    h.send({ type: 'plugin.socketCreated', path: `/var/lib/kubelet/plugins_registry/${DRIVER}-reg.sock`, owner: 'registrar' });
    h.reply(h.csiCalls('GetInfo')[0]!, 'OK', { type: 'CSIPlugin', name: DRIVER, endpoint: `/var/lib/kubelet/plugins/${DRIVER}/csi.sock`, supported_versions: ['1.0.0'] });
    h.reply(h.csiCalls('NodeGetInfo')[0]!, 'OK', { node_id: 'i-1' });
    h.serve();
    h.reply(h.csiCalls('NotifyRegistrationStatus')[0]!);
    h.added(va(false));
    h.added(pod('web-0', NODE));
    h.serve([pvc, pvObject]);
    h.advanceUntil(() => h.apiRequests({ verb: 'patchStatus', kind: 'Node' }).some((r) => JSON.stringify(r.patch).includes(UNIQUE)), 20_000);
    h.serve();
    return h;
  }
  const nodeGets = (h: ReturnType<typeof reportedInUse>) => h.apiRequests({ verb: 'get', kind: 'Node' }).length;
  const said = (h: ReturnType<typeof reportedInUse>) => h.logs().map((l) => l.msg);

  it('1.30: no operation, line or backoff while the informer\'s Node does not list the volume (a MountPreConditionFailedError the reconciler expects, reconciler_common.go:308); the next pass after it does verifies at once', () => {
    const h = reportedInUse('1.30');
    h.advance(30_000);
    expect([nodeGets(h), said(h).filter((m) => m === 'kubelet.verifyControllerAttachedVolumeStarted' || m === 'kubelet.operationFailed')]).toEqual([0, []]);
    h.modified(nodeObject(NODE, [UNIQUE], [UNIQUE]), nodeObject(NODE));
    h.advance(100);
    // (it reads the PV's claim first, for its size: InitializeClaimSize)
    expect([h.apiRequests({ verb: 'get', kind: 'PersistentVolumeClaim' }).length > 0, said(h).filter((m) => m === 'kubelet.verifyControllerAttachedVolumeStarted').length]).toEqual([true, 1]);
    h.serve([pvc, nodeObject(NODE, [UNIQUE], [UNIQUE])]);
    expect(nodeGets(h)).toBe(1);
    expect(said(h)).toContain('kubelet.controllerAttachSucceeded');
    expect(said(h)).not.toContain('kubelet.operationFailed');
  });

  it('1.30 reads the PV\'s claim first and records its size with the attachment (InitializeClaimSize, operation_generator.go:1519-1533, :1582); a failed read fails the check', () => {
    const h = reportedInUse('1.30');
    h.modified(nodeObject(NODE, [UNIQUE], [UNIQUE]), nodeObject(NODE));
    h.advance(100);
    const claimGet = () => h.pending().find((p) => !p.answered && p.type === 'api.request' && p.verb === 'get' && p.kind === 'PersistentVolumeClaim');
    h.answer(claimGet()!, { ok: false, code: 500, reason: 'InternalError', message: 'etcd is down' });
    const failed = h.logs().filter((l) => l.msg === 'kubelet.operationFailed').map((l) => String(l.args.err));
    expect(failed.at(-1)).toMatch(/^VerifyControllerAttachedVolume fetching pvc failed for volume "pvc-1" .* : etcd is down$/);
    expect(nodeGets(h)).toBe(0);
    h.advanceUntil(() => !!claimGet(), 10_000);
    h.serve([{ ...pvc, status: { ...pvc.status, capacity: { storage: '2Gi' } } }, nodeObject(NODE, [UNIQUE], [UNIQUE])]);
    expect(said(h)).toContain('kubelet.controllerAttachSucceeded');
    expect(h.context.asw[UNIQUE]!.claimSize).toBe(2 * 1024 ** 3);
  });

  it('1.20: the operation runs, GETs the Node and fails "Volume not attached according to node status", backing off', () => {
    const h = reportedInUse('1.20');
    h.advanceUntil(() => h.pending().some((p) => !p.answered && p.type === 'api.request' && p.verb === 'get' && p.kind === 'Node'), 20_000);
    const claimGets = h.apiRequests({ verb: 'get', kind: 'PersistentVolumeClaim' }).length;
    h.serve([nodeObject(NODE)]);
    const failed = h.logs().filter((l) => l.msg === 'kubelet.operationFailed').map((l) => String(l.args.err));
    expect(failed.at(-1)).toMatch(/^Volume not attached according to node status for volume "pvc-1"/);
    // (no claim read: v1.20.5's check has none)
    expect(h.apiRequests({ verb: 'get', kind: 'PersistentVolumeClaim' }).length).toBe(claimGets);
    expect(said(h)).toContain('kubelet.verifyControllerAttachedVolumeStarted');
  });
});

describe('a failed capability call or node RPC, worded as each caller in pkg/volume/csi wraps it', () => {
  const failedErr = (h: H): string => String(h.logs().filter((l) => l.msg === 'kubelet.operationFailed').at(-1)!.args.err);
  const rpcErr = 'rpc error: code = Internal desc = caps down';
  it('SetUp (1.30): NodeSupportsStageUnstage wrapped by mounter.SetUpAt (csi_mounter.go:184-187), NodeSupportsVolumeMountGroup by it too (:246-249), the access-mode mapper\'s call as it is (csi_client.go:237-240)', () => {
    const h = kubeletUpTo(true);
    h.reply(lastCall(h, 'NodeStageVolume'), 'OK');
    h.reply(unansweredCaps(h)[0]!, 'INTERNAL', {}, 'caps down');
    expect(failedErr(h)).toMatch(new RegExp(`^MountVolume\\.SetUp failed for volume "pvc-1" .* : kubernetes\\.io/csi: mounter\\.SetUpAt failed to check for STAGE_UNSTAGE_VOLUME capability: ${rpcErr}$`));
    h.advanceUntil(() => unansweredCaps(h).length > 0, 10_000);
    h.reply(unansweredCaps(h)[0]!, 'OK', STAGE_CAPS);
    const get = h.pending().find((p) => !p.answered && p.type === 'api.request' && p.verb === 'get' && p.kind === 'VolumeAttachment')!;
    h.answer(get, { ok: true, code: 200, object: va(true) });
    h.reply(unansweredCaps(h)[0]!, 'INTERNAL', {}, 'caps down');
    expect(failedErr(h)).toMatch(new RegExp(`: kubernetes\\.io/csi: mounter\\.SetUpAt failed to determine if the node service has VOLUME_MOUNT_GROUP capability: ${rpcErr}$`));
    h.advanceUntil(() => unansweredCaps(h).length > 0, 10_000);
    h.reply(unansweredCaps(h)[0]!, 'OK', STAGE_CAPS);
    h.answer(h.pending().find((p) => !p.answered && p.type === 'api.request' && p.verb === 'get' && p.kind === 'VolumeAttachment')!, { ok: true, code: 200, object: va(true) });
    h.reply(unansweredCaps(h)[0]!, 'OK', STAGE_CAPS);
    h.reply(unansweredCaps(h)[0]!, 'INTERNAL', {}, 'caps down');
    expect(failedErr(h)).toMatch(new RegExp(`^MountVolume\\.SetUp failed for volume "pvc-1" .*\\) : ${rpcErr}$`));
    expect(h.csiCalls('NodePublishVolume')).toEqual([]);
  });

  it('MountDevice (1.30): NodeSupportsStageUnstage\'s error as it is (csi_attacher.go:301-304), NodeSupportsVolumeMountGroup\'s wrapped by attacher.MountDevice (:392-395)', () => {
    const h = kubeletUpTo(true, { caps: null });
    h.reply(unansweredCaps(h)[0]!, 'INTERNAL', {}, 'caps down');
    expect(failedErr(h)).toMatch(new RegExp(`^MountVolume\\.MountDevice failed for volume "pvc-1" .*\\) : ${rpcErr}$`));
    h.advanceUntil(() => unansweredCaps(h).length > 0, 10_000);
    h.reply(unansweredCaps(h)[0]!, 'OK', STAGE_CAPS);
    h.answer(h.pending().find((p) => !p.answered && p.type === 'api.request' && p.verb === 'get' && p.kind === 'VolumeAttachment')!, { ok: true, code: 200, object: va(true) });
    h.reply(unansweredCaps(h)[0]!, 'INTERNAL', {}, 'caps down');
    expect(failedErr(h)).toMatch(new RegExp(`: kubernetes\\.io/csi: attacher\\.MountDevice failed to determine if the node service has VOLUME_MOUNT_GROUP capability: ${rpcErr}$`));
    expect(h.csiCalls('NodeStageVolume')).toEqual([]);
  });

  it('TearDownAt and UnmountDevice say which step failed, in each profile\'s words (csi_mounter.go v1.20.5 :403, v1.30.1 :434; csi_attacher.go v1.20.5 :524, :542, v1.30.1 :627, :645)', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const errs = (k8s: '1.20' | '1.30', faults: string[]) => runScenario('teardown', { k8s, faults }).steps
      .filter((st) => st.component === 'kubelet' && /nestedpendingoperations/.test(st.log ?? '')).map((st) => st.log!.replace(/\\"/g, '"'));
    for (const [k8s, tearDown] of [['1.20', 'mounter.TearDownAt failed'], ['1.30', 'Unmounter.TearDownAt failed']] as const) {
      const rpcs = errs(k8s, ['NodeUnpublishVolume=INTERNALx1', 'NodeUnstageVolume=INTERNALx1']);
      expect([k8s, rpcs.length]).toEqual([k8s, 2]);
      expect(rpcs[0]).toMatch(new RegExp(`UnmountVolume\\.TearDown failed for volume "data" .* : kubernetes\\.io/csi: ${tearDown.replace('.', '\\.')}: rpc error: code = Internal desc = injected INTERNAL fault"?$`));
      expect(rpcs[1]).toMatch(/UnmountDevice failed for volume "pvc-.* on node "node-1" : kubernetes\.io\/csi: attacher\.UnmountDevice failed: rpc error: code = Internal desc = injected INTERNAL fault"?$/);
      const caps = errs(k8s, ['NodeGetCapabilities=UNAVAILABLEx1']);
      expect([k8s, caps.length]).toEqual([k8s, 1]);
      expect(caps[0]).toMatch(/UnmountDevice failed for volume .* : kubernetes\.io\/csi: attacher\.UnmountDevice failed to check whether STAGE_UNSTAGE_VOLUME set: rpc error: code = Unavailable desc = injected UNAVAILABLE fault"?$/);
    }
  });

  it('MapVolume.SetUpDevice: csi_block.SetUpDevice returns a failed VolumeAttachment GET as a plain error (v1.30.1 csi_block.go:307), so after an uncertain stage markDeviceErrorState marks the device not mounted; MountDevice\'s same GET is transient', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const volumeState = (states: Record<string, unknown> | undefined) => Object.entries(states ?? {}).find(([k]) => / volume \S+$/.test(k))?.[1];
    for (const id of ['block-volume', 'mount'] as const) {
      const first = runScenario(id, { k8s: '1.30', faults: ['NodeStageVolume=UNAVAILABLEx1'] }).steps.find((st) => st.msg === 'kubelet.operationFailed')!;
      expect([id, volumeState(first.states)]).toEqual([id, 'DeviceMountUncertain']);
      const t = runScenario(id, { k8s: '1.30', faults: ['NodeStageVolume=UNAVAILABLEx1'], apiFaults: [{ verb: 'get', kind: 'VolumeAttachment', component: 'kubelet', code: 500, count: 1, from: first.t + 1 }] });
      const second = t.steps.filter((st) => st.msg === 'kubelet.operationFailed')[1]!;
      expect(second.log).toMatch(id === 'block-volume' ? /blockMapper\.SetupDevice failed to get volume attachment/ : /MountVolume\.MountDevice failed/);
      // (a step's states name what moved: the uncertain device of MountDevice's transient failure does not)
      const moved = t.steps.filter((st) => st.t > first.t && st.t <= second.t).map((st) => volumeState(st.states)).filter(Boolean);
      expect([id, moved]).toEqual([id, id === 'block-volume' ? ['DeviceNotMounted'] : []]);
    }
  });

  it('MapVolume.SetUpDevice: stageVolumeForBlock wraps NodeSupportsStageUnstage\'s error (csi_block.go v1.20.5 :150-153, v1.30.1 :158-161)', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    for (const k8s of ['1.20', '1.30'] as const) {
      const err = runScenario('block-volume', { k8s, faults: ['NodeGetCapabilities=UNAVAILABLEx1'] }).steps
        .find((st) => st.component === 'kubelet' && /nestedpendingoperations.*MapVolume\.SetUpDevice failed/.test(st.log ?? ''))!.log!.replace(/\\"/g, '"');
      expect([k8s, err]).toEqual([k8s, expect.stringMatching(/MapVolume\.SetUpDevice failed for volume .* : kubernetes\.io\/csi: blockMapper\.stageVolumeForBlock failed to check STAGE_UNSTAGE_VOLUME capability: rpc error: code = Unavailable desc = injected UNAVAILABLE fault"?$/)]);
    }
  });
});

describe('MountVolume as GenerateMountVolumeFunc runs it', () => {
  // A restarted 1.30 kubelet found web-0's mount of the volume on disk (kubelet-restart); every later try of the RPC fails
  // with a final error, and the pod is deleted at 5 s: what does the kubelet still clean up?
  const afterRestart = async (fault: string) => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const t = runScenario('kubelet-restart', { k8s: '1.30', faults: [fault], actions: [{ at: '5s', do: 'delete', kind: 'Pod', namespace: 'default', name: 'web-0' }] });
    const kubelet = t.steps.filter((s) => s.component === 'kubelet');
    const rpcs = kubelet.filter((s) => s.kind === 'rpc' && s.t > 5000).map((s) => s.rpc!.method.split('/').pop());
    return { t, msgs: kubelet.map((s) => s.msg), logs: kubelet.map((s) => s.log ?? ''), rpcs };
  };

  it('markDeviceErrorState (1.30): a reconstructed device whose NodeStageVolume fails for good stays DeviceMountUncertain (IsVolumeDeviceReconstructed), so UnmountDevice still unstages it when the pod goes', async () => {
    const { msgs, logs, rpcs } = await afterRestart('NodeStageVolume=INTERNAL');
    expect(msgs).toContain('kubelet.markDeviceErrorStateLeavingUncertain');
    expect(logs.find((l) => /markDeviceErrorState/.test(l))).toMatch(/I\d{4} [\d:.]+ +\d+ operation_generator\.go:785\] "MountVolume\.markDeviceErrorState leaving volume uncertain" volumeName="kubernetes\.io\/csi\/[^"]+\^disk-[a-z0-9]+"$/);
    // the pod's reconstructed mount is torn down, then the device is unstaged (a device marked unmounted would not be)
    expect(rpcs).toEqual(expect.arrayContaining(['NodeUnpublishVolume', 'NodeUnstageVolume']));
    expect(rpcs.indexOf('NodeUnstageVolume')).toBeGreaterThan(rpcs.indexOf('NodeUnpublishVolume'));
  });

  it('markVolumeErrorState (1.30): a reconstructed pod mount whose NodePublishVolume fails for good stays VolumeMountUncertain (IsVolumeReconstructed), so TearDown still unpublishes it when the pod goes', async () => {
    const { msgs, rpcs } = await afterRestart('NodePublishVolume=INTERNAL');
    // (its line is klog.V(3): the kubelet here logs at -v=2)
    expect(msgs).not.toContain('kubelet.markVolumeErrorStateLeavingUncertain');
    expect(rpcs).toEqual(expect.arrayContaining(['NodeUnpublishVolume', 'NodeUnstageVolume']));
    expect(rpcs.indexOf('NodeUnstageVolume')).toBeGreaterThan(rpcs.indexOf('NodeUnpublishVolume'));
  });

  it('markVolumeErrorState (1.30): a pod mount made uncertain by this kubelet (not found on disk) is unmounted after a final error, as before', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const t = runScenario('mount', { k8s: '1.30', faults: ['NodePublishVolume=DEADLINE_EXCEEDEDx1', 'NodePublishVolume=INTERNALx1'] });
    expect(t.steps.some((s) => s.msg === 'kubelet.markVolumeErrorStateLeavingUncertain' || s.msg === 'kubelet.markDeviceErrorStateLeavingUncertain')).toBe(false);
  });

  it('markDeviceErrorState: NodeStageVolume DEADLINE_EXCEEDED leaves the device DeviceMountUncertain, and UnmountDevice still unstages it', () => {
    const h = kubeletUpTo(true);
    h.reply(lastCall(h, 'NodeStageVolume'), 'DEADLINE_EXCEEDED', {}, 'timeout');
    expect(deviceState(h)).toBe('DeviceMountUncertain');
    deletePod(h, 'transient');
    expect(h.logs().map((l) => l.msg)).toContain('kubelet.unmountDeviceStarted');
    h.reply(unansweredCaps(h)[0]!, 'OK', STAGE_CAPS);
    expect(h.csiCalls('NodeUnstageVolume')).toHaveLength(1);
  });

  it('markDeviceErrorState: a final error after an uncertain one calls MarkDeviceAsUnmounted, so nothing is left to unstage', () => {
    const h = kubeletUpTo(true);
    h.reply(lastCall(h, 'NodeStageVolume'), 'DEADLINE_EXCEEDED', {}, 'timeout');
    retry(h);
    h.reply(lastCall(h, 'NodeStageVolume'), 'INTERNAL', {}, 'bad disk');
    expect(deviceState(h)).toBe('DeviceNotMounted');
    deletePod(h);
    expect(h.csiCalls('NodeUnstageVolume')).toEqual([]);
    expect(h.logs().map((l) => l.msg)).toContain('kubelet.volumeDetached');
  });

  it('markDeviceErrorState: a final error on a device not mounted leaves it DeviceNotMounted', () => {
    const h = kubeletUpTo(true);
    h.reply(lastCall(h, 'NodeStageVolume'), 'INTERNAL', {}, 'bad disk');
    expect(deviceState(h)).toBe('DeviceNotMounted');
  });

  // upstream's three kinds of error (pkg/volume/util/types/types.go): a failed capability call is returned as a plain error,
  // so it is finished; a failed read of the VolumeAttachment or the Secret in csi_attacher / csi_mounter is transient
  const vaGet = (h: H) => h.pending().find((p) => !p.answered && p.type === 'api.request' && p.verb === 'get' && p.kind === 'VolumeAttachment')!;
  const nextCaps = (h: H) => h.advanceUntil(() => unansweredCaps(h).length > 0, 10_000);

  it('markDeviceErrorState: NodeSupportsStageUnstage failing after an uncertain stage is a finished error (csi_attacher.go MountDevice returns it as it is, v1.30.1 :301-304): MarkDeviceAsUnmounted, nothing left to unstage', () => {
    const h = kubeletUpTo(true);
    h.reply(lastCall(h, 'NodeStageVolume'), 'DEADLINE_EXCEEDED', {}, 'timeout');
    expect(deviceState(h)).toBe('DeviceMountUncertain');
    nextCaps(h);
    // (UNAVAILABLE would leave a NodeStageVolume uncertain: here it is the capability call's, and the kind is the caller's)
    h.reply(unansweredCaps(h)[0]!, 'UNAVAILABLE', {}, 'socket closed');
    expect(deviceState(h)).toBe('DeviceNotMounted');
    deletePod(h);
    expect(h.csiCalls('NodeUnstageVolume')).toEqual([]);
  });

  it('markDeviceErrorState: a failed GET of the VolumeAttachment (getPublishContext) is transient (NewTransientOperationFailure, csi_attacher.go:306-312): the uncertain device stays uncertain', () => {
    const h = kubeletUpTo(true);
    h.reply(lastCall(h, 'NodeStageVolume'), 'DEADLINE_EXCEEDED', {}, 'timeout');
    nextCaps(h);
    h.reply(unansweredCaps(h)[0]!, 'OK', STAGE_CAPS);
    h.answer(vaGet(h), { ok: false, code: 500, message: 'etcdserver: request timed out' });
    expect(h.logs().at(-1)!.msg).toBe('kubelet.operationFailed');
    expect(deviceState(h)).toBe('DeviceMountUncertain');
  });

  it('markDeviceErrorState: a missing CSI client after an uncertain stage is a plain error on 1.20 (finished: MarkDeviceAsUnmounted, csi_attacher.go v1.20.5 :254), a transient one on 1.30 (the device stays uncertain, v1.30.1 :293)', () => {
    for (const profile of ['1.20', '1.30'] as const) {
      const h = kubeletUpTo(true, { profile });
      h.reply(lastCall(h, 'NodeStageVolume'), 'UNAVAILABLE', {}, 'socket closed');
      expect([profile, deviceState(h)]).toEqual([profile, 'DeviceMountUncertain']);
      // node-driver-registrar goes: the kubelet deregisters the driver, and the retry finds no client
      h.send({ type: 'plugin.socketRemoved', path: `/var/lib/kubelet/plugins_registry/${DRIVER}-reg.sock`, owner: 'registrar' });
      const noClient = () => h.logs().some((l) => l.msg === 'kubelet.operationFailed' && /MountDevice failed .*not found in the list of registered CSI drivers/.test(String(l.args.err)));
      h.advanceUntil(noClient, 10_000);
      expect([profile, noClient()]).toEqual([profile, true]);
      expect([profile, deviceState(h)]).toEqual([profile, profile === '1.20' ? 'DeviceNotMounted' : 'DeviceMountUncertain']);
    }
  });

  it('markVolumeErrorState: NodeSupportsStageUnstage failing in SetUp after an uncertain publish is finished (mounter.SetUpAt wraps it in a plain error, csi_mounter.go:184-187): MarkVolumeAsUnmounted', () => {
    const h = kubeletUpTo(true);
    h.reply(lastCall(h, 'NodeStageVolume'), 'OK');
    answerCaps(h, STAGE_CAPS);
    h.reply(lastCall(h, 'NodePublishVolume'), 'DEADLINE_EXCEEDED', {}, 'timeout');
    expect(podMount(h)).toBe('VolumeMountUncertain');
    nextCaps(h);
    h.reply(unansweredCaps(h)[0]!, 'DEADLINE_EXCEEDED', {}, 'timeout');
    expect(podMount(h)).toBeUndefined();
    expect(deviceState(h)).toBe('DeviceGloballyMounted');
  });

  it('markVolumeErrorState: NodePublishVolume DEADLINE_EXCEEDED leaves the pod VolumeMountUncertain; a final error then MarkVolumeAsUnmounted', () => {
    const h = kubeletUpTo(true);
    h.reply(lastCall(h, 'NodeStageVolume'), 'OK');
    answerCaps(h, STAGE_CAPS);
    h.reply(lastCall(h, 'NodePublishVolume'), 'DEADLINE_EXCEEDED', {}, 'timeout');
    expect(deviceState(h)).toBe('DeviceGloballyMounted');
    expect(podMount(h)).toBe('VolumeMountUncertain');
    retry(h);
    // the device is globally mounted: the retry goes straight to SetUp, which asks for the capabilities itself and so
    // still publishes from the staging path
    expect(h.csiCalls('NodeStageVolume')).toHaveLength(1);
    expect(lastCall(h, 'NodePublishVolume').request).toMatchObject({ staging_target_path: expect.stringMatching(/globalmount$/) });
    expect(h.csiCalls('NodePublishVolume')).toHaveLength(2);
    h.reply(lastCall(h, 'NodePublishVolume'), 'INTERNAL', {}, 'bad target');
    expect(podMount(h)).toBeUndefined();
  });

  it('SetUp succeeds: the success line comes before MarkVolumeAsMounted, and the operation frees its key', () => {
    const h = kubeletUpTo(true);
    h.reply(lastCall(h, 'NodeStageVolume'), 'OK');
    answerCaps(h, STAGE_CAPS);
    expect(lastCall(h, 'NodePublishVolume').request).toMatchObject({ staging_target_path: h.context.asw[UNIQUE].deviceMountPath });
    h.reply(lastCall(h, 'NodePublishVolume'), 'OK');
    // expandVolumeDuringMount reads the claim; its status is the PV's size: nothing to expand
    expect(podMount(h)).toBeUndefined();
    h.serve([pvc]);
    expect(podMount(h)).toBe('VolumeMounted');
    expect(h.logs().map((l) => l.msg).filter((m) => m.endsWith('Succeeded') || m.endsWith('succeeded'))).toEqual(
      expect.arrayContaining(['kubelet.mountDeviceSucceeded', 'kubelet.setUpSucceeded']),
    );
    expect(Object.keys(h.context.inflight)).toEqual([]);
    expect(Object.values(h.context.ops)).toEqual([]);
  });
});

describe('every write to a table is counted (own), so the passes that skip unchanged tables never miss one', () => {
  // The tables are updated in place (kubelet.types.ts Table); the populator, syncPods and GetVolumesInUse skip their
  // work while `versions` says the tables they read are as their last pass left them. A write that bypassed own()
  // would leave a pod waiting for a pass that never comes.
  const TABLES = ['pods', 'vas', 'csiDrivers', 'plugins', 'pluginRequests', 'registered', 'podVolumes', 'processedPods', 'volumeRequests', 'dsw', 'asw', 'inflight', 'podStates'] as const;
  it('through mount and unmount, a table whose content changed in an event has its count raised by one, and one left alone keeps it', () => {
    const seen: Array<{ table: string; changed: boolean; by: number }> = [];
    const proto = Object.getPrototypeOf(createHarness(kubeletDescriptor, { nodeName: NODE, kubeletRoot: '/var/lib/kubelet' })) as { send: (this: H, e: unknown) => H };
    const send = proto.send;
    proto.send = function (e) {
      const before = this.context?.versions ? { json: Object.fromEntries(TABLES.map((t) => [t, JSON.stringify(this.context[t])])), v: { ...this.context.versions }, of: this.context.versions } : undefined;
      const r = send.call(this, e);
      if (before && this.context.versions === before.of) {
        for (const t of TABLES) seen.push({ table: t, changed: JSON.stringify(this.context[t]) !== before.json[t], by: this.context.versions[t] - before.v[t] });
      }
      return r;
    };
    try {
      const h = kubeletUpTo(true);
      h.reply(lastCall(h, 'NodeStageVolume'), 'OK');
      answerCaps(h, STAGE_CAPS);
      h.reply(lastCall(h, 'NodePublishVolume'), 'OK');
      h.serve([pvc]);
      expect(podMount(h)).toBe('VolumeMounted');
      deletePod(h);
      for (let i = 0; i < 4; i++) { for (const c of h.pending().filter((p) => !p.answered && p.type === 'csi.call')) h.reply(c, 'OK', STAGE_CAPS); h.serve(); h.advance(2000); }
      expect(h.csiCalls('NodeUnstageVolume').length).toBeGreaterThan(0);
    } finally {
      proto.send = send;
    }
    // the run wrote the volume manager's tables many times
    for (const t of ['dsw', 'asw', 'inflight', 'podStates', 'podVolumes'] as const) expect(seen.filter((s) => s.table === t && s.changed).length, t).toBeGreaterThan(0);
    expect(seen.filter((s) => s.changed && s.by !== 1)).toEqual([]);
    expect(seen.filter((s) => s.by < 0 || s.by > 1)).toEqual([]);
  });
});

describe('steps[].states name what the kubelet acted on', () => {
  it('pod-migration on 1.20: the new node verifies, stages and publishes the volume; the old one unmounts, unstages and forgets it', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const t = runScenario('pod-migration', { k8s: '1.20' });
    const seen = (prefix: string): string[] => {
      const out: string[] = [];
      for (const s of t.steps) for (const [k, v] of Object.entries(s.states)) if (k.startsWith(prefix) && out.at(-1) !== v) out.push(String(v));
      return out;
    };
    const vol = 'kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-adge0gvc';
    expect(seen(`kubelet/11.142.60.212 volume ${vol}`).slice(0, 3)).toEqual(['DeviceNotMounted', 'DeviceGloballyMounted', 'VolumeMounted']);
    expect(seen(`kubelet/11.142.60.212 volume_mount ${vol}`)).toEqual(
      // 1.20 reads the claim right after MountDevice (nodeExpandVolume): its status is the PV's size, nothing to expand
      ['mountDevice.nodeGetCapabilities', 'mountDevice.nodeStageVolume', 'expandAfterMountDevice.getPVC', 'setUp.nodeGetCapabilities', 'setUp.nodePublishVolume', 'succeeded'],
    );
    expect(seen(`kubelet/11.142.61.164 volume ${vol}`)).toEqual(['VolumeNotMounted', 'DeviceNotMounted', 'Detached']);
    // the step that prints "MountVolume.MountDevice succeeded" carries the device's new state
    const staged = t.steps.find((s) => s.msg === 'kubelet.mountDeviceSucceeded')!;
    expect(staged.states[`kubelet/11.142.60.212 volume ${vol}`]).toBe('DeviceGloballyMounted');
  });
});

describe('the stage of a failed operation comes from the operation', () => {
  it('WaitForAttach and VerifyControllerAttachedVolume failures are attach work; MountDevice and SetUp failures mount work', () => {
    const notAttached = kubeletUpTo(false);
    const waitFailed = notAttached.logs().filter((l) => l.msg === 'kubelet.operationFailed').at(-1)!;
    expect(String(waitFailed.args.err)).toContain('MountVolume.WaitForAttach failed');
    expect(waitFailed.stage).toBe('attach');
    const h = kubeletUpTo(true);
    h.reply(lastCall(h, 'NodeStageVolume'), 'INTERNAL', {}, 'bad disk');
    const stageFailed = h.logs().filter((l) => l.msg === 'kubelet.operationFailed').at(-1)!;
    expect(String(stageFailed.args.err)).toContain('MountVolume.MountDevice failed');
    expect(stageFailed.stage).toBe('mount');
  });
});

describe('the CSI requests and failures of the kubelet, as pkg/volume/csi makes them', () => {
  it('csi_attacher.go MountDevice: a driver that never registered fails "driver name … not found in the list of registered CSI drivers", with a FailedMount event', () => {
    const h = kubeletUpTo(true, { register: false });
    h.advance(2000);
    expect(h.csiCalls('NodeStageVolume')).toEqual([]);
    const failed = h.logs().filter((l) => l.msg === 'kubelet.operationFailed').map((l) => String(l.args.err));
    expect(failed.some((e) => e.includes('MountVolume.MountDevice failed') && e.includes(`kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name ${DRIVER} not found in the list of registered CSI drivers`))).toBe(true);
    expect(h.events('FailedMount').map((e) => e.message)).toContain(
      `MountVolume.MountDevice failed for volume "${PV}" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name ${DRIVER} not found in the list of registered CSI drivers`);
  });

  it('NodeStageVolume and NodePublishVolume carry the VolumeAttachment\'s attachmentMetadata as publish_context, the PV\'s volumeAttributes as volume_context, and readonly: the pod\'s claim\'s readOnly (csi_plugin.go NewMounter: spec.ReadOnly)', () => {
    const attached = { ...va(true), status: { attached: true, attachmentMetadata: { devicePath: '/dev/vdb' } } };
    const attrsPv = { ...pvObject, spec: { ...pvObject.spec, csi: { ...pvObject.spec.csi, volumeAttributes: { diskType: 'CLOUD_SSD' } } } };
    const p = pod('web-0', NODE);
    const readOnlyClaim = { ...p, spec: { ...p.spec, volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data', readOnly: true } }] } };
    const h = kubeletUpTo(true, { vaObject: attached, pvObject: attrsPv, podObject: readOnlyClaim });
    const stage = lastCall(h, 'NodeStageVolume').request as Record<string, unknown>;
    expect(stage).toMatchObject({ volume_id: HANDLE, publish_context: { devicePath: '/dev/vdb' }, volume_context: { diskType: 'CLOUD_SSD' } });
    h.reply(lastCall(h, 'NodeStageVolume'), 'OK');
    answerCaps(h, STAGE_CAPS);
    expect(lastCall(h, 'NodePublishVolume').request).toMatchObject({ publish_context: { devicePath: '/dev/vdb' }, volume_context: { diskType: 'CLOUD_SSD' }, readonly: true });
  });

  it('getPublishContext: MountDevice and SetUp each GET the VolumeAttachment after their capability check, and send what that GET read, not the informer\'s copy (csi_plugin.go getPublishContext)', () => {
    const seen = { ...va(true), status: { attached: true, attachmentMetadata: { devicePath: '/dev/vdb' } } };
    const h = kubeletUpTo(true, { vaObject: seen, caps: STAGE_CAPS });
    // kubeletUpTo answered MountDevice's GET with the informer's copy: that is what NodeStageVolume carries
    const gets = () => h.apiRequests({ verb: 'get', kind: 'VolumeAttachment' });
    expect(gets()).toHaveLength(1);
    expect(gets()[0]!.name).toBe(VA);
    expect(lastCall(h, 'NodeStageVolume').request).toMatchObject({ publish_context: { devicePath: '/dev/vdb' } });
    h.reply(lastCall(h, 'NodeStageVolume'), 'OK');
    // SetUp asks again; the API server's copy now says another device: NodePublishVolume carries the GET's
    const c = unansweredCaps(h)[0]!;
    h.reply(c, 'OK', STAGE_CAPS);
    expect(gets()).toHaveLength(2);
    h.answer(gets()[1]!, { ok: true, code: 200, object: { ...seen, status: { attached: true, attachmentMetadata: { devicePath: '/dev/vdc' } } } });
    answerCaps(h, STAGE_CAPS);
    expect(lastCall(h, 'NodePublishVolume').request).toMatchObject({ publish_context: { devicePath: '/dev/vdc' } });
  });

  it('getPublishContext failing: MountDevice fails with the GET\'s error, SetUp with "mounter.SetUpAt failed to fetch publishContext", transient (the device\'s state stays), FailedMount, retried', () => {
    const h = kubeletUpTo(true, { caps: STAGE_CAPS });
    // kubeletUpTo answered the GET: fail the retry instead, after a NodeStageVolume that timed out (the device uncertain)
    h.reply(lastCall(h, 'NodeStageVolume'), 'DEADLINE_EXCEEDED', {}, 'timeout');
    expect(deviceState(h)).toBe('DeviceMountUncertain');
    const before = h.csiCalls('NodeGetCapabilities').length;
    h.advanceUntil(() => h.csiCalls('NodeGetCapabilities').length > before, 10_000);
    h.reply(unansweredCaps(h)[0]!, 'OK', STAGE_CAPS);
    const get = h.pending().find((p) => !p.answered && p.type === 'api.request' && p.verb === 'get' && p.kind === 'VolumeAttachment')!;
    h.answer(get, { ok: false, code: 404, reason: 'NotFound', message: `volumeattachments.storage.k8s.io "${VA}" not found` });
    const errs = h.logs().filter((l) => l.msg === 'kubelet.operationFailed').map((l) => String(l.args.err));
    expect(errs.at(-1)).toMatch(new RegExp(`^MountVolume\\.MountDevice failed for volume "${PV}" .* : volumeattachments\\.storage\\.k8s\\.io "${VA}" not found$`));
    expect(h.events('FailedMount').map((e) => e.message)).toContain(`MountVolume.MountDevice failed for volume "${PV}" : volumeattachments.storage.k8s.io "${VA}" not found`);
    // a transient failure: markDeviceErrorState changes nothing, the device stays uncertain, and no NodeStageVolume went out
    expect(deviceState(h)).toBe('DeviceMountUncertain');
    expect(h.csiCalls('NodeStageVolume')).toHaveLength(1);
    // the retry stages, then SetUp's own GET fails
    retry(h);
    h.reply(lastCall(h, 'NodeStageVolume'), 'OK');
    h.reply(unansweredCaps(h)[0]!, 'OK', STAGE_CAPS);
    const again = h.pending().find((p) => !p.answered && p.type === 'api.request' && p.verb === 'get' && p.kind === 'VolumeAttachment')!;
    h.answer(again, { ok: false, code: 500, reason: 'InternalError', message: 'etcdserver: request timed out' });
    expect(h.events('FailedMount').map((e) => e.message)).toContain(`MountVolume.SetUp failed for volume "${PV}" : kubernetes.io/csi: mounter.SetUpAt failed to fetch publishContext: etcdserver: request timed out`);
    expect(h.csiCalls('NodePublishVolume')).toEqual([]);
    expect(podMount(h)).toBeUndefined();
  });

  it('a driver that needs no attach (attachRequired false): no GET of a VolumeAttachment, no publish_context', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario('no-attach', { k8s });
      expect([k8s, t.steps.some((st) => st.kind === 'rpc' && st.rpc?.method === '/csi.v1.Node/NodePublishVolume' && 'publish_context' in (st.rpc.request as object))]).toEqual([k8s, false]);
    }
  });

  it('without attachmentMetadata, volumeAttributes or readOnly the requests leave those fields out (not empty values)', () => {
    // (an empty attachmentMetadata is no publish context either: protobuf has no empty map to send)
    const h = kubeletUpTo(true, { vaObject: { ...va(true), status: { attached: true, attachmentMetadata: {} } } });
    const stage = lastCall(h, 'NodeStageVolume').request as Record<string, unknown>;
    expect(Object.keys(stage).sort()).toEqual(['staging_target_path', 'volume_capability', 'volume_id']);
    h.reply(lastCall(h, 'NodeStageVolume'), 'OK');
    answerCaps(h, STAGE_CAPS);
    expect(Object.keys(lastCall(h, 'NodePublishVolume').request as object).sort()).toEqual(['staging_target_path', 'target_path', 'volume_capability', 'volume_id']);
  });
});

describe('node status without heartbeats (kubelet_node_status.go tryUpdateNodeStatus)', () => {
  it('an unchanged status is posted only when nodeStatusReportFrequency (5m) has passed since the last one', () => {
    const h = createHarness(kubeletDescriptor, { nodeName: NODE, kubeletRoot: '/var/lib/kubelet', heartbeat: false }, { driver: DRIVER });
    h.start([nodeObject(NODE)]);
    h.serve();
    const statusWrites = () => h.apiRequests({ verb: 'patchStatus', kind: 'Node' }).filter((r) => JSON.stringify(r.patch).includes('volumesInUse'));
    const before = statusWrites().length;
    h.advance(4 * 60_000);
    h.serve();
    expect(statusWrites().length).toBe(before);
    h.advance(61_000);
    h.serve();
    expect(statusWrites().length).toBe(before + 1);
    // and none again before the next 5 minutes
    h.advance(4 * 60_000);
    h.serve();
    expect(statusWrites().length).toBe(before + 1);
  });
});

describe('the actual state of world mutators guard their transitions (actual_state_of_world.go)', () => {
  const spec = { uniqueName: UNIQUE, pvName: PV, driver: DRIVER, handle: HANDLE, attachable: true, fsType: 'ext4', accessMode: 1, readOnly: false, volumeContext: {} };
  const podVol = { podName: 'web-0', namespace: 'default', outerName: 'd' };
  const fresh = () => {
    const h = createHarness(kubeletDescriptor, { nodeName: NODE, kubeletRoot: '/var/lib/kubelet' }, { driver: DRIVER });
    const w = begin(h.context, 0);
    asw.markVolumeAsAttached(w, spec, '/dev/vdb', '/var/lib/kubelet/plugins/kubernetes.io/csi/pv/pvc-1/globalmount');
    return w;
  };

  it('MarkVolumeAsDetached: a volume whose device is globally mounted or uncertain stays in the table; one not mounted leaves it', () => {
    const w = fresh();
    expect(asw.markDeviceAsMounted(w, UNIQUE)).toBe(true);
    expect(asw.markVolumeAsDetached(w, UNIQUE)).toBeUndefined();
    expect(w.c.asw[UNIQUE]?.deviceState).toBe('DeviceGloballyMounted');
    // MarkDeviceAsUncertain on a globally mounted device is allowed, as upstream's SetDeviceMountState
    // (UnmapDevice does it before TearDownDevice); markDeviceErrorState itself asks for DeviceNotMounted first
    expect(asw.markDeviceAsUncertain(w, UNIQUE)).toBe(true);
    expect(w.c.asw[UNIQUE]?.deviceState).toBe('DeviceMountUncertain');
    expect(asw.markDeviceAsMounted(w, UNIQUE)).toBe(true);
    expect(asw.markDeviceAsUnmounted(w, UNIQUE)).toBe(true);
    expect(asw.markDeviceAsUncertain(w, UNIQUE)).toBe(true);
    expect(asw.markVolumeAsDetached(w, UNIQUE)).toBeUndefined();
    expect(w.c.asw[UNIQUE]?.deviceState).toBe('DeviceMountUncertain');
    expect(asw.markDeviceAsUnmounted(w, UNIQUE)).toBe(true);
    expect(asw.markVolumeAsDetached(w, UNIQUE)?.uniqueName).toBe(UNIQUE);
    expect(w.c.asw[UNIQUE]).toBeUndefined();
    expect(asw.markVolumeAsDetached(w, UNIQUE)).toBeUndefined();
  });

  it('foundDuringReconstruction (1.30): CheckAndMarkVolumeAsUncertainViaReconstruction records the pod; MarkVolumeAsMounted and MarkVolumeAsUnmounted drop the pod but keep the volume listed, so IsVolumeDeviceReconstructed holds until the volume leaves the table (actual_state_of_world.go:428-483, :741-744, :866-870, :892)', () => {
    const w = fresh();
    expect(asw.isVolumeDeviceReconstructed(w, UNIQUE)).toBe(false);
    expect(asw.checkAndMarkVolumeAsUncertainViaReconstruction(w, UNIQUE, 'uid-web-0', podVol)).toBe(true);
    expect(asw.checkAndMarkVolumeAsUncertainViaReconstruction(w, UNIQUE, 'uid-web-1', { ...podVol, podName: 'web-1' })).toBe(true);
    // a pod mount already known is not found again
    expect(asw.checkAndMarkVolumeAsUncertainViaReconstruction(w, UNIQUE, 'uid-web-0', podVol)).toBe(false);
    expect(w.c.asw[UNIQUE]!.foundDuringReconstruction).toEqual({ 'uid-web-0': true, 'uid-web-1': true });
    expect([asw.isVolumeReconstructed(w, UNIQUE, 'uid-web-0'), asw.isVolumeDeviceReconstructed(w, UNIQUE)]).toEqual([true, true]);
    expect(asw.markVolumeAsMounted(w, UNIQUE, 'uid-web-0', podVol)).toBe(true);
    expect(asw.isVolumeReconstructed(w, UNIQUE, 'uid-web-0')).toBe(false);
    expect(w.c.asw[UNIQUE]!.foundDuringReconstruction).toEqual({ 'uid-web-1': true });
    expect(asw.markVolumeAsUnmounted(w, UNIQUE, 'uid-web-1')?.podName).toBe('web-1');
    expect(w.c.asw[UNIQUE]!.foundDuringReconstruction).toEqual({});
    expect(asw.isVolumeDeviceReconstructed(w, UNIQUE)).toBe(true);
    // a mount this kubelet made is no reconstruction
    expect(asw.markVolumeMountAsUncertain(w, UNIQUE, 'uid-web-2', podVol)).toBe(true);
    expect(asw.isVolumeReconstructed(w, UNIQUE, 'uid-web-2')).toBe(false);
    expect(asw.isVolumeReconstructed(w, 'kubernetes.io/csi/other^x', 'uid-web-0')).toBe(false);
    expect(asw.isVolumeDeviceReconstructed(w, 'kubernetes.io/csi/other^x')).toBe(false);
  });

  it('MarkVolumeAsMounted / MarkVolumeAsUnmounted: a pod is mounted only on a volume in the table, and unmounting forgets that pod only', () => {
    const w = fresh();
    expect(asw.markVolumeAsMounted(w, 'kubernetes.io/csi/other^x', 'uid-web-0', podVol)).toBe(false);
    expect(asw.markVolumeMountAsUncertain(w, UNIQUE, 'uid-web-0', podVol)).toBe(true);
    expect(asw.markVolumeAsMounted(w, UNIQUE, 'uid-web-0', podVol)).toBe(true);
    expect(asw.markVolumeAsMounted(w, UNIQUE, 'uid-web-1', { ...podVol, podName: 'web-1' })).toBe(true);
    expect(asw.getVolumeMountState(w, UNIQUE, 'uid-web-0')).toBe('VolumeMounted');
    expect(asw.markVolumeAsUnmounted(w, UNIQUE, 'uid-nobody')).toBeUndefined();
    expect(asw.markVolumeAsUnmounted(w, UNIQUE, 'uid-web-0')?.podName).toBe('web-0');
    expect(Object.keys(w.c.asw[UNIQUE]!.pods)).toEqual(['uid-web-1']);
    expect(asw.getVolumeMountState(w, UNIQUE, 'uid-web-0')).toBe('VolumeNotMounted');
  });
});

describe('a driver without STAGE_UNSTAGE_VOLUME (csi_attacher.go MountDevice / UnmountDevice skip the RPC)', () => {
  it('mounts with NodePublishVolume only, and UnmountDevice marks the device unmounted without NodeUnstageVolume', () => {
    const NO_STAGE = { capabilities: [] };
    const h = kubeletUpTo(true, { caps: NO_STAGE });
    expect(h.csiCalls('NodeStageVolume')).toEqual([]);
    expect(deviceState(h)).toBe('DeviceGloballyMounted');
    const caps = unansweredCaps(h)[0];
    if (caps) h.reply(caps, 'OK', NO_STAGE);
    const publish = lastCall(h, 'NodePublishVolume');
    expect(publish.request).not.toHaveProperty('staging_target_path');
    h.reply(publish, 'OK');
    h.serve([pvc]);
    expect(podMount(h)).toBe('VolumeMounted');
    const p = pod('web-0', NODE);
    h.modified({ ...p, metadata: { ...p.metadata, deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 } }, p);
    for (let i = 0; i < 6; i++) {
      h.advance(2000);
      for (const c of h.pending().filter((x) => !x.answered && x.type === 'csi.call')) h.reply(c, 'OK', (c as { rpc?: string }).rpc === 'NodeGetCapabilities' ? NO_STAGE : {});
      h.serve();
    }
    expect(h.csiCalls('NodeUnpublishVolume')).toHaveLength(1);
    expect(h.csiCalls('NodeUnstageVolume')).toEqual([]);
    expect(h.logs().map((l) => l.msg)).toContain('kubelet.unmountDeviceSucceeded');
    expect(deviceState(h) ?? 'gone').not.toBe('DeviceGloballyMounted');
  });
});

describe('the node-stage and controller-expand Secrets a PV names (getCredentialsFromSecret, csi-resizer getCredentials)', () => {
  const lib = () => import('../../src/machines/index.ts');
  const rpcRequest = (t: { steps: Array<{ kind: string; rpc?: { method: string; request?: unknown } }> }, method: string) =>
    t.steps.find((s) => s.kind === 'rpc' && s.rpc?.method === method)?.rpc?.request as Record<string, unknown> | undefined;
  const CEPH_USER = { userID: 'kubernetes', userKey: 'AQBr8dRmXxk0JBAAz3kq9yQwM1s0vV5h0r6FkA==' };

  it('ceph-rbd: NodeStageVolume (mounted or mapped as a block device) and ControllerExpandVolume carry the Secret\'s keys; their logs print ***stripped***', async () => {
    const { runScenario } = await lib();
    for (const k8s of ['1.20', '1.30'] as const) {
      const offline = runScenario('expand-offline', { k8s });
      expect([k8s, rpcRequest(offline, '/csi.v1.Node/NodeStageVolume')?.secrets]).toEqual([k8s, CEPH_USER]);
      expect([k8s, rpcRequest(offline, '/csi.v1.Controller/ControllerExpandVolume')?.secrets]).toEqual([k8s, CEPH_USER]);
      const block = runScenario('block-volume', { k8s });
      expect([k8s, rpcRequest(block, '/csi.v1.Node/NodeStageVolume')?.secrets]).toEqual([k8s, CEPH_USER]);
      // NodePublishVolume has no nodePublishSecretRef here: no secrets
      expect([k8s, rpcRequest(block, '/csi.v1.Node/NodePublishVolume')?.secrets]).toEqual([k8s, undefined]);
      for (const t of [offline, block]) {
        expect(t.steps.some((s) => (s.log ?? '').includes('AQBr8dRm'))).toBe(false);
        expect(t.steps.some((s) => s.component === 'csi-node-plugin' && (s.log ?? '').includes('NodeStageVolume') === false && (s.log ?? '').includes('"secrets":"***stripped***","staging_target_path"'))).toBe(true);
      }
    }
  });

  it('a node-stage Secret that cannot be read fails MountDevice before NodeStageVolume, with csi_attacher\'s words, and again after the backoff', async () => {
    const { runScenario, scenarioFromManifests } = await lib();
    const file = (k8s: string) => secretScenario({
      classLines: ['parameters:', '  csi.storage.k8s.io/node-stage-secret-name: stage-creds', '  csi.storage.k8s.io/node-stage-secret-namespace: default'],
      withPod: true, spec: `  k8s: "${k8s}"\n  runFor: 40s\n`,
    });
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario(scenarioFromManifests(file(k8s)));
      expect([k8s, t.steps.some((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Node/NodeStageVolume')]).toEqual([k8s, false]);
      const failed = t.steps.filter((s) => s.kind === 'event' && /FailedMount/.test(s.summary));
      expect(failed.length).toBeGreaterThan(1);
      expect(failed[0]!.summary).toContain('MountVolume.MountDevice failed for volume "pvc-');
      expect(failed[0]!.summary).toContain('fetching NodeStageSecretRef default/stage-creds failed: kubernetes.io/csi: failed to find the secret stage-creds in the namespace default with error: secrets "stage-creds" not found');
      const pv = t.final.objects.find((o) => o.kind === 'PersistentVolume')!;
      expect(pv.spec.csi.nodeStageSecretRef).toEqual({ name: 'stage-creds', namespace: 'default' });
    }
  });

  it('the node-publish Secret a PV names: SetUp reads it after the publish context and NodePublishVolume carries its keys (the log: ***stripped***); one that cannot be read fails SetUp with csi_mounter\'s words, the pod\'s mount not made', async () => {
    const { runScenario, scenarioFromManifests } = await lib();
    const classLines = (name: string) => ['parameters:', `  csi.storage.k8s.io/node-publish-secret-name: ${name}`, '  csi.storage.k8s.io/node-publish-secret-namespace: default'];
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario(scenarioFromManifests(secretScenario({ classLines: classLines('creds'), withSecret: true, withPod: true, spec: `  k8s: "${k8s}"\n  runFor: 40s\n` })));
      const publish = t.steps.find((st) => st.kind === 'rpc' && st.rpc?.method === '/csi.v1.Node/NodePublishVolume')!;
      expect([k8s, (publish.rpc!.request as Record<string, unknown>).secrets]).toEqual([k8s, { token: 'secret' }]);
      // NodeStageVolume has no nodeStageSecretRef here: no secrets
      expect([k8s, 'secrets' in (t.steps.find((st) => st.kind === 'rpc' && st.rpc?.method === '/csi.v1.Node/NodeStageVolume')!.rpc!.request as object)]).toEqual([k8s, false]);
      expect(t.steps.some((st) => (st.log ?? '').includes('"secret"'))).toBe(false);
      expect(t.steps.some((st) => st.component === 'csi-node-plugin' && /NodePublishVolume|"target_path"/.test(st.log ?? '') && (st.log ?? '').includes('"secrets":"***stripped***"'))).toBe(true);
      expect(t.final.objects.find((o) => o.kind === 'Pod')!.status.phase).toBe('Running');

      const missing = runScenario(scenarioFromManifests(secretScenario({ classLines: classLines('publish-creds'), withPod: true, spec: `  k8s: "${k8s}"\n  runFor: 40s\n` })));
      expect([k8s, missing.steps.some((st) => st.kind === 'rpc' && st.rpc?.method === '/csi.v1.Node/NodePublishVolume')]).toEqual([k8s, false]);
      const failed = missing.steps.filter((st) => st.kind === 'event' && /FailedMount/.test(st.summary));
      expect(failed.length).toBeGreaterThan(1);
      expect(failed[0]!.summary).toContain('MountVolume.SetUp failed for volume "pvc-');
      expect(failed[0]!.summary).toContain('fetching NodePublishSecretRef default/publish-creds failed: kubernetes.io/csi: failed to find the secret publish-creds in the namespace default with error: secrets "publish-creds" not found');
      // the device was staged; SetUp never published
      expect(missing.steps.some((st) => st.kind === 'rpc' && st.rpc?.method === '/csi.v1.Node/NodeStageVolume')).toBe(true);
      expect(missing.final.objects.find((o) => o.kind === 'Pod')!.status.phase).not.toBe('Running');
    }
  });

  it('1.30: the node-expand Secret a PV names: NodeExpand reads it after the EXPAND_VOLUME check and NodeExpandVolume carries its keys; one that cannot be read fails the expansion with expander.go\'s words', async () => {
    const { runScenario, scenarioFromManifests } = await lib();
    const file = (name: string, withSecret: boolean) => secretScenario({
      classLines: ['allowVolumeExpansion: true', 'parameters:', `  csi.storage.k8s.io/node-expand-secret-name: ${name}`, '  csi.storage.k8s.io/node-expand-secret-namespace: default'],
      withSecret, withPod: true,
      spec: '  k8s: "1.30"\n  driver: { expansion: true }\n  actions:\n    - { at: 20s, patch: PersistentVolumeClaim/data, with: { spec: { resources: { requests: { storage: 2Gi } } } } }\n  runFor: 120s\n',
    });
    const t = runScenario(scenarioFromManifests(file('creds', true)));
    const expand = t.steps.find((st) => st.kind === 'rpc' && st.rpc?.method === '/csi.v1.Node/NodeExpandVolume')!;
    expect((expand.rpc!.request as Record<string, unknown>).secrets).toEqual({ token: 'secret' });
    expect(Object.keys(expand.rpc!.request as object).at(-1)).toBe('secrets');
    expect(t.steps.some((st) => (st.log ?? '').includes('"secret"'))).toBe(false);
    expect(t.steps.some((st) => st.kind === 'event' && /FileSystemResizeSuccessful/.test(st.summary))).toBe(true);
    // NodeStageVolume and NodePublishVolume do not carry it
    for (const m of ['NodeStageVolume', 'NodePublishVolume']) {
      expect([m, 'secrets' in (t.steps.find((st) => st.kind === 'rpc' && st.rpc?.method === `/csi.v1.Node/${m}`)!.rpc!.request as object)]).toEqual([m, false]);
    }

    const missing = runScenario(scenarioFromManifests(file('expand-creds', false)));
    expect(missing.steps.some((st) => st.kind === 'rpc' && st.rpc?.method === '/csi.v1.Node/NodeExpandVolume')).toBe(false);
    const failed = missing.steps.filter((st) => st.kind === 'event' && /VolumeResizeFailed/.test(st.summary) && st.component === 'kubelet');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.summary).toContain('expander.NodeExpand failed to get NodeExpandSecretRef default/expand-creds: kubernetes.io/csi: failed to find the secret expand-creds in the namespace default with error: secrets "expand-creds" not found');
  });

  it('a raw block volume\'s node-publish Secret: MapPodDevice reads it (publishVolumeForBlock) and NodePublishVolume carries its keys; one that cannot be read fails MapPodDevice with csi_block\'s words', async () => {
    const { runScenario, scenarioFromManifests } = await lib();
    const classLines = (name: string) => ['parameters:', `  csi.storage.k8s.io/node-publish-secret-name: ${name}`, '  csi.storage.k8s.io/node-publish-secret-namespace: default'];
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario(scenarioFromManifests(secretScenario({ classLines: classLines('creds'), withSecret: true, withPod: true, block: true, spec: `  k8s: "${k8s}"\n  runFor: 40s\n` })));
      const publish = rpcRequest(t, '/csi.v1.Node/NodePublishVolume')!;
      expect([k8s, publish.secrets, (publish.volume_capability as { AccessType?: object }).AccessType]).toEqual([k8s, { token: 'secret' }, { Block: {} }]);
      expect([k8s, 'secrets' in rpcRequest(t, '/csi.v1.Node/NodeStageVolume')!]).toEqual([k8s, false]);
      expect(t.final.objects.find((o) => o.kind === 'Pod')!.status.phase).toBe('Running');

      const missing = runScenario(scenarioFromManifests(secretScenario({ classLines: classLines('publish-creds'), withPod: true, block: true, spec: `  k8s: "${k8s}"\n  runFor: 40s\n` })));
      expect([k8s, rpcRequest(missing, '/csi.v1.Node/NodePublishVolume'), !!rpcRequest(missing, '/csi.v1.Node/NodeStageVolume')]).toEqual([k8s, undefined, true]);
      const failed = missing.steps.filter((st) => st.kind === 'event' && /FailedMapVolume/.test(st.summary));
      expect(failed.length).toBeGreaterThan(1);
      expect(failed[0]!.summary).toContain('MapVolume.MapPodDevice failed for volume "pvc-');
      expect(failed[0]!.summary).toContain('kubernetes.io/csi: blockMapper.publishVolumeForBlock failed to get NodePublishSecretRef default/publish-creds: kubernetes.io/csi: failed to find the secret publish-creds in the namespace default with error: secrets "publish-creds" not found');
    }
  });

  it('a controller-expand Secret that cannot be read fails csi-resizer\'s Resize before ControllerExpandVolume (VolumeResizeFailed)', async () => {
    const { runScenario, scenarioFromManifests } = await lib();
    const file = secretScenario({
      classLines: ['allowVolumeExpansion: true', 'parameters:', '  csi.storage.k8s.io/controller-expand-secret-name: expand-creds', '  csi.storage.k8s.io/controller-expand-secret-namespace: default'],
      spec: '  k8s: "1.30"\n  driver: { expansion: true }\n  actions:\n    - { at: 5s, patch: PersistentVolumeClaim/data, with: { spec: { resources: { requests: { storage: 2Gi } } } } }\n  runFor: 30s\n',
    });
    const t = runScenario(scenarioFromManifests(file));
    expect(t.steps.some((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/ControllerExpandVolume')).toBe(false);
    const failed = t.steps.filter((s) => s.kind === 'event' && /VolumeResizeFailed/.test(s.summary));
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.summary).toMatch(/resize volume "pvc-[0-9a-f-]+" by resizer "disk\.csi\.example\.com" failed: error getting secret expand-creds in namespace default: secrets "expand-creds" not found/);
  });
});

describe('the pod\'s information a CSIDriver asks for (podInfoOnMount: getPodInfoAttrs, podAttributes)', () => {
  const lib = () => import('../../src/machines/index.ts');
  const CSI_DRIVER = 'apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: { name: disk.csi.example.com }\nspec: { attachRequired: true, podInfoOnMount: true }';
  const file = (k8s: string, o: { block?: boolean; podInfo?: boolean; serviceAccount?: string } = {}) => {
    let f = secretScenario({ classLines: [], withPod: true, block: o.block, spec: `  k8s: "${k8s}"\n  runFor: 40s\n` });
    if (o.serviceAccount) f = f.replace('  containers: [{ name: app', `  serviceAccountName: ${o.serviceAccount}\n  containers: [{ name: app`);
    return o.podInfo === false ? f : `${CSI_DRIVER}\n---\n${f}`;
  };
  const publishContext = (t: { steps: Array<{ kind: string; rpc?: { method: string; request?: unknown } }> }) =>
    (t.steps.find((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Node/NodePublishVolume')!.rpc!.request as { volume_context?: Record<string, string> }).volume_context ?? {};

  it('NodePublishVolume\'s volume_context carries the pod\'s name, namespace, uid and service account, and ephemeral "false", merged over the PV\'s attributes; NodeStageVolume\'s does not', async () => {
    const { runScenario, scenarioFromManifests } = await lib();
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario(scenarioFromManifests(file(k8s, { serviceAccount: 'app-sa' })));
      const pod = t.final.objects.find((o) => o.kind === 'Pod')!;
      const ctx = publishContext(t);
      expect([k8s, ctx]).toEqual([k8s, {
        'storage.kubernetes.io/csiProvisionerIdentity': expect.any(String),
        'csi.storage.k8s.io/pod.name': 'app', 'csi.storage.k8s.io/pod.namespace': 'default', 'csi.storage.k8s.io/pod.uid': pod.metadata.uid,
        'csi.storage.k8s.io/serviceAccount.name': 'app-sa', 'csi.storage.k8s.io/ephemeral': 'false',
      }]);
      const stage = t.steps.find((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Node/NodeStageVolume')!.rpc!.request as { volume_context?: Record<string, string> };
      expect(Object.keys(stage.volume_context ?? {}).some((key) => key.startsWith('csi.storage.k8s.io/pod'))).toBe(false);
      // a pod that names no service account runs as "default" (the ServiceAccount admission plugin)
      expect(publishContext(runScenario(scenarioFromManifests(file(k8s))))['csi.storage.k8s.io/serviceAccount.name']).toBe('default');
      // a driver that does not ask gets none
      expect(Object.keys(publishContext(runScenario(scenarioFromManifests(file(k8s, { podInfo: false }))))).some((key) => key.startsWith('csi.storage.k8s.io/'))).toBe(false);
    }
  });

  it('a raw block volume\'s NodePublishVolume carries it from 1.30 (publishVolumeForBlock); 1.20\'s does not', async () => {
    const { runScenario, scenarioFromManifests } = await lib();
    expect(publishContext(runScenario(scenarioFromManifests(file('1.30', { block: true }))))['csi.storage.k8s.io/pod.name']).toBe('app');
    expect(publishContext(runScenario(scenarioFromManifests(file('1.20', { block: true }))))['csi.storage.k8s.io/pod.name']).toBeUndefined();
  });
});
