/**
 * The checker on hand-made traces: each rule's edges (what must and must not count), and traces with
 * odd objects a team's own scenario or an older trace can hold (in-tree PVs, objects without status,
 * no `initial`), which must be judged, not crash.
 */
import { describe, expect, it } from 'vitest';
import {
  checkInvariants, RULES, uniqueVolumeName, volumeAttachmentName, type K8sObject, type Trace, type TraceStep,
} from '../../src/machines/index.ts';

const DRV = 'disk.csi.example.com';
const H = 'vol-1';
const PV = 'pvc-1';
const UNIQ = uniqueVolumeName(DRV, H);
const va = (node: string, o: { attached?: boolean; finalizer?: boolean; pv?: string; deleting?: boolean } = {}): K8sObject => ({
  apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment',
  metadata: {
    name: volumeAttachmentName(H, DRV, node), ...(o.finalizer === false ? {} : { finalizers: ['external-attacher/disk-csi-example-com'] }),
    ...(o.deleting ? { deletionTimestamp: '2024-05-14T09:30:10Z' } : {}),
  },
  spec: { attacher: DRV, nodeName: node, source: { persistentVolumeName: o.pv ?? PV } }, status: { attached: o.attached ?? true },
});
const pv = (modes = ['ReadWriteOnce'], name = PV, handle = H): K8sObject => ({
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name }, spec: { accessModes: modes, capacity: { storage: '1Gi' }, csi: { driver: DRV, volumeHandle: handle } },
});
const node = (name: string, inUse: string[] = []): K8sObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { volumesInUse: inUse } });
const csiNode = (name: string): K8sObject => ({ apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name }, spec: { drivers: [{ name: DRV, nodeID: `id-${name}`, topologyKeys: null }] } });
const claim: K8sObject = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec: { volumeName: PV } };
const pod = (name: string, nodeName: string, phase = 'Running', uid = `uid-${name}`): K8sObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid },
  spec: { nodeName, volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }, { name: 'scratch', emptyDir: {} }] }, status: { phase },
});
const target = (uid: string) => `/var/lib/kubelet/pods/${uid}/volumes/kubernetes.io~csi/${PV}/mount`;
const STAGING = `/var/lib/kubelet/plugins/kubernetes.io/csi/${DRV}/abc/globalmount`;

let n = 0;
const step = (s: Partial<TraceStep>): TraceStep => ({ i: 0, t: ++n, component: 'kubelet', instance: 'kubelet/node-1', host: 'node-1', kind: 'log', summary: '', states: {}, ...s });
const call = (rpc: string, request: Record<string, unknown>, id: string, host = 'node-1', from = `kubelet/${host}`): TraceStep =>
  step({ kind: 'rpc', host, instance: from, rpc: { method: `/csi.v1.Node/${rpc}`, from, to: `csi-node-plugin/${host}`, requestId: id, request } });
const reply = (rpc: string, id: string, code = 'OK', late = false, host = 'node-1'): TraceStep =>
  step({ kind: 'rpc-reply', host, component: 'csi-node-plugin', rpc: { method: `/csi.v1.Node/${rpc}`, from: `csi-node-plugin/${host}`, to: `kubelet/${host}`, requestId: `kubelet/${host}#${id}`, code, ...(late ? { late: true } : {}) } });
const change = (before: K8sObject | null, after: K8sObject | null): TraceStep => {
  const o = (after ?? before)!;
  return step({ kind: 'api', objects: [{ kind: o.kind, ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}), name: o.metadata.name, before, after }] });
};
const trace = (initial: K8sObject[], steps: TraceStep[]): Trace => ({
  scenario: 'hand-made', title: '', k8s: '1.30', seed: 1, options: {}, durationMs: 0, originUs: 0, components: [],
  steps: steps.map((s, i) => ({ ...s, i: i + 1 })), objectsRecorded: true, initial: { objects: initial }, final: { objects: [] }, faults: [], stats: { events: 0, steps: steps.length },
});
const rules = (t: Trace) => checkInvariants(t).map((v) => v.rule);
const base = [pv(), claim, node('node-1', [UNIQ]), node('node-2'), csiNode('node-1'), csiNode('node-2')];

describe('RULES', () => {
  it('says each rule in words that name what it guards', () => {
    expect(RULES[1]).toMatch(/NodeStageVolume.*VolumeAttachment.*attached/);
    expect(RULES[2]).toMatch(/ControllerUnpublishVolume.*volumesInUse.*force detach/);
    expect(RULES[3]).toMatch(/single-node volume.*two nodes/);
    expect(RULES[4]).toMatch(/VolumeAttachment attached through ControllerPublishVolume.*finalizer/);
    expect(RULES[5]).toMatch(/uncertain mount/);
    expect(RULES[6]).toMatch(/PersistentVolume.*deleted.*VolumeAttachment.*attached/);
  });
});

describe('rule 1 edges', () => {
  it('NodePublishVolume of a driver without stage is held to it too; an attached VolumeAttachment satisfies it', () => {
    expect(rules(trace([...base, va('node-1', { attached: false })], [call('NodePublishVolume', { volume_id: H, target_path: target('u') }, 'p1')]))).toEqual([1]);
    expect(rules(trace([...base, va('node-1')], [call('NodePublishVolume', { volume_id: H, target_path: target('u') }, 'p1')]))).toEqual([]);
  });
  it('only the VolumeAttachment of that node counts', () => {
    expect(rules(trace([...base, pv(['ReadWriteMany']), va('node-2')].slice(1), [call('NodeStageVolume', { volume_id: H, staging_target_path: STAGING }, 's1')]))).toEqual([1]);
  });
  it('a call for a volume no PV names is not judged', () => {
    expect(rules(trace(base, [call('NodeStageVolume', { volume_id: 'other', staging_target_path: STAGING }, 's1')]))).toEqual([]);
  });
});

describe('rule 2 edges', () => {
  const unpublish = (node = 'node-1') => step({ kind: 'rpc', component: 'external-attacher', instance: 'external-attacher', host: 'csi-controller-0', rpc: { method: '/csi.v1.Controller/ControllerUnpublishVolume', from: 'external-attacher', to: 'csi-controller-plugin', requestId: 'u1', request: { volume_id: H, node_id: `id-${node}` } } });
  it('in use on that node: a violation; in use on another node only: none', () => {
    expect(rules(trace([...base, va('node-1')], [unpublish()]))).toEqual([2]);
    expect(rules(trace([...base, va('node-2')], [unpublish('node-2')]))).toEqual([]);
  });
  it('the force detach of that volume on that node excuses it; one of another node does not', () => {
    const forced = (nodeName: string) => step({ component: 'attach-detach-controller', msg: 'attachDetachController.forceDetachStarted', args: { volumeName: UNIQ, node: nodeName } });
    expect(rules(trace([...base, va('node-1')], [forced('node-1'), unpublish()]))).toEqual([]);
    expect(rules(trace([...base, va('node-1')], [forced('node-2'), unpublish()]))).toEqual([2]);
  });
  it('a retry of a detach that began while the volume was not in use is the known race; one that began in use is not', () => {
    const notInUse = [pv(), claim, node('node-1'), node('node-2'), csiNode('node-1'), va('node-1')];
    const began = change(va('node-1'), va('node-1', { deleting: true }));
    const back = change(node('node-1'), node('node-1', [UNIQ]));
    const v = checkInvariants(trace(notInUse, [began, back, unpublish()]));
    expect(v).toMatchObject([{ rule: 2, known: 'kubernetes/kubernetes#88565' }]);
    const inUseAll = checkInvariants(trace([...base, va('node-1')], [change(va('node-1'), va('node-1', { deleting: true })), unpublish()]));
    expect(inUseAll).toMatchObject([{ rule: 2 }]);
    expect(inUseAll[0]!.known).toBeUndefined();
  });
});

describe('rule 3 edges', () => {
  const second = (modes: string[], deleting = false) => trace([pv(modes), claim, node('node-1'), node('node-2'), va('node-1', { deleting })], [change(null, va('node-2'))]);
  it('ReadWriteOncePod is single-node too; ReadWriteMany, or a volume with a multi-node mode besides, is not', () => {
    expect(rules(second(['ReadWriteOncePod']))).toEqual([3]);
    expect(rules(second(['ReadWriteOnce']))).toEqual([3]);
    expect(rules(second(['ReadWriteMany']))).toEqual([]);
    expect(rules(second(['ReadWriteOnce', 'ReadOnlyMany']))).toEqual([]);
  });
  it('the message names both nodes, and the failing detach when there is one (known)', () => {
    expect(checkInvariants(second(['ReadWriteOnce']))[0]).toMatchObject({ message: 'ReadWriteOnce volume pvc-1 attached to node-1 and node-2' });
    expect(checkInvariants(second(['ReadWriteOnce'], true))[0]).toMatchObject({ message: 'ReadWriteOnce volume pvc-1 attached to node-1 and node-2 (its detach from node-1 is failing)', known: 'kubernetes/kubernetes#124334' });
  });
  it('an attachment of another volume, or one not attached, does not count', () => {
    expect(rules(trace([pv(), pv(['ReadWriteOnce'], 'pvc-2', 'vol-2'), node('node-1'), va('node-1')], [change(null, va('node-2', { pv: 'pvc-2' }))]))).toEqual([]);
    expect(rules(trace([pv(), node('node-1'), va('node-1')], [change(null, va('node-2', { attached: false }))]))).toEqual([]);
  });
});

describe('rule 4 edges', () => {
  const publish = step({ kind: 'rpc', component: 'external-attacher', instance: 'external-attacher', host: 'csi-controller-0', rpc: { method: '/csi.v1.Controller/ControllerPublishVolume', from: 'external-attacher', to: 'csi-controller-plugin', requestId: 'p', request: { volume_id: H, node_id: 'id-node-1' } } });
  const nodes = [node('node-1'), csiNode('node-1')];
  it('attached by ControllerPublishVolume: it needs the finalizer; attached by the trivial handler (no publish): it has none', () => {
    expect(rules(trace([pv(), ...nodes], [publish, change(null, va('node-1', { finalizer: false }))]))).toEqual([4]);
    expect(rules(trace([pv(), ...nodes], [change(null, va('node-1', { finalizer: false }))]))).toEqual([]);
    expect(rules(trace([pv(), ...nodes], [publish, change(null, va('node-1'))]))).toEqual([]);
  });
  it('losing the finalizer counts while attached and not being deleted; not after the detach, nor at the end of a deletion', () => {
    const had = va('node-1');
    expect(rules(trace([pv(), ...nodes, had], [change(had, va('node-1', { finalizer: false }))]))).toEqual([4]);
    expect(rules(trace([pv(), ...nodes, had], [change(had, va('node-1', { finalizer: false, attached: false }))]))).toEqual([]);
    expect(rules(trace([pv(), ...nodes, had], [change(had, va('node-1', { finalizer: false, deleting: true }))]))).toEqual([]);
    const other = va('node-1', { finalizer: false });
    other.metadata.finalizers = ['example.com/other'];
    expect(checkInvariants(trace([pv(), ...nodes, had], [change(had, other)]))[0]!.message).toMatch(/VolumeAttachment csi-\w+ is attached without the external-attacher finalizer/);
  });
});

describe('rule 5 edges', () => {
  const uid = 'uid-web';
  const setUp = (podUid = uid) => step({ msg: 'kubelet.setUpSucceeded', args: { volume: PV, podUid } });
  const publish = (id: string, podUid = uid, host = 'node-1') => call('NodePublishVolume', { volume_id: H, target_path: target(podUid), staging_target_path: STAGING }, id, host);
  const running = (p: K8sObject) => change({ ...p, status: { phase: 'Pending' } }, p);
  const attached = [...base, va('node-1'), va('node-2')];

  it('SetUp reported and the pod running after an OK publish: fine; after a late or failed one: violations', () => {
    expect(rules(trace(attached, [publish('p1'), reply('NodePublishVolume', 'p1'), setUp(), running(pod('web', 'node-1', 'Running', uid))]))).toEqual([]);
    expect(rules(trace(attached, [publish('p1'), reply('NodePublishVolume', 'p1', 'OK', true), setUp(), running(pod('web', 'node-1', 'Running', uid))]))).toEqual([5, 5]);
    expect(rules(trace(attached, [publish('p1'), reply('NodePublishVolume', 'p1', 'INTERNAL'), setUp()]))).toEqual([5]);
  });
  it('another pod\'s failed publish of the same volume does not count against this pod', () => {
    const steps = [publish('p1'), reply('NodePublishVolume', 'p1'), publish('p2', 'uid-other'), reply('NodePublishVolume', 'p2', 'INTERNAL'), setUp()];
    expect(rules(trace(attached, steps))).toEqual([]);
  });
  it('the pod runs on its node: a publish on another node, of another volume, or for another pod does not count', () => {
    const p = pod('web', 'node-2', 'Running', uid);
    expect(rules(trace(attached, [publish('p1'), reply('NodePublishVolume', 'p1'), running(p)]))).toEqual([5]);
    const otherVol = call('NodePublishVolume', { volume_id: 'vol-9', target_path: target(uid) }, 'p3', 'node-2');
    expect(rules(trace(attached, [otherVol, reply('NodePublishVolume', 'p3', 'OK', false, 'node-2'), running(p)]))).toEqual([5]);
    expect(rules(trace(attached, [publish('p4', 'uid-other', 'node-2'), reply('NodePublishVolume', 'p4', 'OK', false, 'node-2'), running(p)]))).toEqual([5]);
    expect(rules(trace(attached, [publish('p5', uid, 'node-2'), reply('NodePublishVolume', 'p5', 'OK', false, 'node-2'), running(p)]))).toEqual([]);
  });
  it('a pod that was already running, or with no CSI volume, is not judged when its status changes', () => {
    const p = pod('web', 'node-1', 'Running', uid);
    expect(rules(trace(attached, [change(p, { ...p, metadata: { ...p.metadata, labels: { a: 'b' } } })]))).toEqual([]);
    const plain: K8sObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'plain', namespace: 'default', uid: 'u2' }, spec: { nodeName: 'node-1', volumes: [{ name: 'e', emptyDir: {} }] }, status: { phase: 'Running' } };
    expect(rules(trace(attached, [change({ ...plain, status: { phase: 'Pending' } }, plain)]))).toEqual([]);
  });
  it('after NodeUnstageVolume the staging path is not staged: a publish onto it needs a new stage', () => {
    const stage = (id: string) => call('NodeStageVolume', { volume_id: H, staging_target_path: STAGING }, id);
    const unstage = call('NodeUnstageVolume', { volume_id: H, staging_target_path: STAGING }, 'us');
    expect(rules(trace(attached, [stage('s1'), reply('NodeStageVolume', 's1'), unstage, publish('p1')]))).toEqual([5]);
    expect(rules(trace(attached, [stage('s1'), reply('NodeStageVolume', 's1'), unstage, stage('s2'), reply('NodeStageVolume', 's2'), publish('p1')]))).toEqual([]);
    const mountDevice = step({ msg: 'kubelet.mountDeviceSucceeded', args: { volume: PV, podUid: uid } });
    expect(rules(trace(attached, [stage('s1'), reply('NodeStageVolume', 's1', 'DEADLINE_EXCEEDED'), mountDevice]))).toEqual([5]);
  });
  it('after NodeUnpublishVolume the pod\'s path is not published: running again needs a new publish', () => {
    const p = pod('web', 'node-1', 'Running', uid);
    const unpublish = call('NodeUnpublishVolume', { volume_id: H, target_path: target(uid) }, 'up');
    expect(rules(trace(attached, [publish('p1'), reply('NodePublishVolume', 'p1'), unpublish, running(p)]))).toEqual([5]);
  });
});

describe('rule 6 edges', () => {
  const gone = () => change(pv(), null);
  it('a VolumeAttachment the trivial handler marked attached (no publish, no finalizer) does not block it', () => {
    expect(rules(trace([pv(), va('node-1', { finalizer: false })], [gone()]))).toEqual([]);
  });
  it('only an attached VolumeAttachment of that PV blocks its deletion', () => {
    expect(rules(trace([pv(), va('node-1')], [gone()]))).toEqual([6]);
    expect(rules(trace([pv(), va('node-1', { attached: false })], [gone()]))).toEqual([]);
    expect(rules(trace([pv(), va('node-1', { pv: 'pvc-9' })], [gone()]))).toEqual([]);
    expect(checkInvariants(trace([pv(), va('node-1')], [gone()]))[0]!.message).toBe(`PersistentVolume ${PV} is deleted while VolumeAttachment ${volumeAttachmentName(H, DRV, 'node-1')} of it is attached (to node-1)`);
  });
});

describe('odd traces are judged, not crashed on', () => {
  it('objects without spec or status, in-tree volumes, steps without their details', () => {
    const odd: K8sObject[] = [
      { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'in-tree' }, spec: { accessModes: ['ReadWriteOnce'], hostPath: { path: '/x' } } },
      { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'bare' } },
      { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'va-bare' } },
      { apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: 'n' } },
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } },
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'default' } },
    ];
    const bareVa: K8sObject = { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'va-2', deletionTimestamp: 'x' } };
    const podNoClaim: K8sObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u' }, spec: { nodeName: 'n', volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] }, status: { phase: 'Running' } };
    const steps = [
      change(null, bareVa), change(bareVa, null), change({ ...podNoClaim, status: {} }, podNoClaim),
      change(odd[0]!, null), change(odd[1]!, null),
      step({ kind: 'rpc', rpc: { method: '/csi.v1.Node/NodeStageVolume', from: 'kubelet/n', to: 'x', requestId: '1' } }),
      step({ kind: 'rpc', rpc: { method: '/csi.v1.Controller/ControllerUnpublishVolume', from: 'a', to: 'b', requestId: '2', request: { volume_id: 'nope' } } }),
      step({ kind: 'rpc-reply', rpc: { method: '/csi.v1.Node/NodeStageVolume', from: 'x', to: 'y', requestId: 'unknown', code: 'OK' } }),
      step({ msg: 'kubelet.setUpSucceeded' }), step({ msg: 'kubelet.setUpSucceeded', args: { volume: 'in-tree' } }),
      step({ msg: 'attachDetachController.forceDetachStarted' }),
    ];
    expect(checkInvariants(trace(odd, steps))).toEqual([]);
  });

  it('a trace without initial objects (recorded before they existed) is read from its steps', () => {
    const t = trace([], [change(null, pv(['ReadWriteMany'])), change(null, va('node-1')), change(va('node-1'), va('node-1', { finalizer: false }))]);
    delete (t as Partial<Trace>).initial;
    expect(rules(t)).toEqual([4]);
  });

  it('what is not a trace is refused with a TypeError naming it', () => {
    expect(() => checkInvariants(undefined as unknown as Trace)).toThrow(/checkInvariants needs a trace/);
    expect(() => checkInvariants({} as Trace)).toThrow(/checkInvariants needs a trace/);
    expect(() => checkInvariants({ steps: 'no' } as unknown as Trace)).toThrow(/checkInvariants needs a trace/);
  });
});
