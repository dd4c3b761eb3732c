/**
 * The attach/detach controller's operations, one answer at a time through the harness: the
 * VolumeAttachment create and its wait, the detach's Node read, delete and wait, their errors and
 * timeouts on each profile, backoff, node status writes and Multi-Attach reporting.
 * upstream: pkg/volume/util/operationexecutor/operation_generator.go, pkg/volume/csi/csi_attacher.go,
 * pkg/controller/volume/attachdetach/reconciler/reconciler.go.
 */
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import {
  attachDetachControllerDescriptor, createHarness, uniqueVolumeName, volumeAttachmentName, type K8sObject, type MachineHarness,
} from '../../src/machines/index.ts';

const DRV = 'disk.csi.example.com';
const H = 'vol-1';
const UNIQ = uniqueVolumeName(DRV, H);
const VA = (node = 'n1') => volumeAttachmentName(H, DRV, node);
const node = (name: string, attached: string[] = [], inUse: string[] = [], ready = 'True'): K8sObject => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name, annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' } },
  status: { conditions: [{ type: 'Ready', status: ready }], volumesAttached: attached.map((n) => ({ name: n, devicePath: '' })), volumesInUse: inUse },
});
const pv = (modes = ['ReadWriteOnce']): K8sObject => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pvc-1' }, spec: { accessModes: modes, csi: { driver: DRV, volumeHandle: H } } });
const pvc: K8sObject = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec: { volumeName: 'pvc-1' } };
const pod = (name: string, nodeName: string, namespace = 'default'): K8sObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, uid: `uid-${name}` }, spec: { nodeName, volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] },
});
const va = (nodeName: string, status: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): K8sObject => ({
  apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: VA(nodeName), ...extra },
  spec: { attacher: DRV, nodeName, source: { persistentVolumeName: 'pvc-1' } }, status,
});

const adc = (objects: K8sObject[], profile: '1.20' | '1.30' = '1.30') =>
  createHarness(attachDetachControllerDescriptor, {}, { profile, driver: DRV }).start(objects);
const msgs = (h: MachineHarness) => h.logs().map((l) => l.msg);
const failed = (h: MachineHarness) => h.logs().filter((l) => l.msg === 'attachDetachController.operationFailed').map((l) => String(l.args.error));
/** an ADC that has just asked to create the VolumeAttachment of web-0's volume on n1 */
const attaching = (profile: '1.20' | '1.30' = '1.30') => {
  const h = adc([node('n1'), pv(), pvc, pod('web-0', 'n1')], profile);
  h.advance(200);
  return { h, create: h.apiRequests({ verb: 'create', kind: 'VolumeAttachment' })[0]! };
};

describe('attach', () => {
  it('creates the VolumeAttachment the CSI plugin names, for the node, volume and driver', () => {
    const { create } = attaching();
    expect(create).toMatchObject({ name: VA(), object: { spec: { attacher: DRV, nodeName: 'n1', source: { persistentVolumeName: 'pvc-1' } } } });
  });

  it('a refused create fails the attach with the API error, records FailedAttachVolume and backs off 500ms', () => {
    const { h, create } = attaching();
    h.answer(create, { ok: false, code: 500, message: 'Internal error occurred: boom' });
    expect(failed(h)).toEqual([`AttachVolume.Attach failed for volume "pvc-1" (UniqueName: "${UNIQ}") from node "n1" : attacher.Attach failed: Internal error occurred: boom`]);
    expect(h.events('FailedAttachVolume')).toMatchObject([{ involved: { name: 'web-0' }, message: 'AttachVolume.Attach failed for volume "pvc-1" : attacher.Attach failed: Internal error occurred: boom' }]);
    expect(h.logs().find((l) => l.msg === 'attachDetachController.operationFailed')!.args.durationBeforeRetry).toBe('500ms');
    h.advance(400);
    expect(h.apiRequests({ verb: 'create', kind: 'VolumeAttachment' })).toHaveLength(1);
    h.advance(700);
    expect(h.apiRequests({ verb: 'create', kind: 'VolumeAttachment' })).toHaveLength(2);
  });

  it('an AlreadyExists create is fine: it waits for the existing object', () => {
    const { h, create } = attaching('1.20');
    h.answer(create, { ok: false, code: 409, reason: 'AlreadyExists' });
    expect(failed(h)).toEqual([]);
    h.modified(va('n1', { attached: true }), va('n1'));
    expect(msgs(h)).toContain('attachDetachController.attachSucceeded');
  });

  it('1.20 sees the attach on the watch event; 1.30 at its next lister poll (500ms, then x1.05)', () => {
    const w = attaching('1.20');
    w.h.answer(w.create);
    w.h.modified(va('n1', { attached: true }), va('n1'));
    expect(msgs(w.h)).toContain('attachDetachController.attachSucceeded');
    const p = attaching('1.30');
    p.h.answer(p.create);
    p.h.modified(va('n1', { attached: true }), va('n1'));
    expect(msgs(p.h)).not.toContain('attachDetachController.attachSucceeded');
    const started = p.h.now;
    p.h.advanceUntil((h) => msgs(h).includes('attachDetachController.attachSucceeded'), 5000, 10);
    expect(p.h.now - started).toBeLessThanOrEqual(600);
    expect(p.h.events('SuccessfulAttachVolume')).toMatchObject([{ involved: { name: 'web-0' }, message: 'AttachVolume.Attach succeeded for volume "pvc-1" ' }]);
  });

  it('an existing VolumeAttachment that already says attachError: 1.20 fails at its GET before the watch (waitForVolumeAttachmentInternal); 1.30 only at the backoff\'s first tick, 500ms later (waitForVolumeAttachDetachStatusWithLister)', () => {
    const withError = va('n1', { attached: false, attachError: { message: 'rpc error: code = Internal desc = busy' } });
    for (const [profile, after] of [['1.20', 0], ['1.30', 500]] as const) {
      const h = adc([node('n1'), pv(), pvc, pod('web-0', 'n1'), withError], profile);
      h.advanceUntil((x) => msgs(x).includes('attachDetachController.attachVolumeStarted'), 5000, 1);
      const started = h.now;
      expect(h.apiRequests({ verb: 'create', kind: 'VolumeAttachment' })).toHaveLength(0);
      h.advanceUntil((x) => failed(x).length > 0, 5000, 1);
      expect([profile, h.now - started]).toEqual([profile, after]);
      expect(failed(h)[0]).toMatch(/: rpc error: code = Internal desc = busy$/);
    }
  });

  it('the attacher\'s attachError fails the attach with its message; a VolumeAttachment being deleted fails it at once', () => {
    const a = attaching('1.20');
    a.h.answer(a.create);
    a.h.modified(va('n1', { attached: false, attachError: { message: 'rpc error: code = Internal desc = no quota' } }), va('n1'));
    expect(failed(a.h)[0]).toMatch(/from node "n1" : rpc error: code = Internal desc = no quota$/);
    const d = attaching('1.20');
    d.h.answer(d.create);
    d.h.modified(va('n1', {}, { deletionTimestamp: '2024-05-14T09:30:00Z' }), va('n1'));
    expect(failed(d.h)[0]).toMatch(/: volume attachment is being deleted$/);
  });

  it('times out after 2 minutes with each profile\'s words', () => {
    // v1.20.5 csi_attacher.go:484-485 (one text for both waits), v1.30.1 :529-530
    for (const [profile, words] of [['1.20', `attachdetachment timeout for volume ${H}`], ['1.30', `timed out waiting for external-attacher of ${DRV} CSI driver to attach volume ${H}`]] as const) {
      const { h, create } = attaching(profile);
      h.answer(create);
      h.advance(119_000);
      expect(failed(h)).toEqual([]);
      h.advance(2000);
      expect(failed(h)[0]).toMatch(new RegExp(`: ${words}$`));
      // klog.Error before the wait returns: the line comes before the operation's failure
      const said = h.logs().map((l) => l.msg);
      expect(said.indexOf('attachDetachController.csiWaitTimedOut')).toBeGreaterThanOrEqual(0);
      expect(said.indexOf('attachDetachController.csiWaitTimedOut')).toBeLessThan(said.indexOf('attachDetachController.operationFailed'));
      expect(h.logs().find((l) => l.msg === 'attachDetachController.csiWaitTimedOut')!.args).toMatchObject({ operation: 'Attach', timeout: '2m0s', handle: H });
    }
  });

  it('once attached, the node status lists the volume, and an identical list is not written again', () => {
    const { h, create } = attaching('1.20');
    h.answer(create);
    h.modified(va('n1', { attached: true }), va('n1'));
    h.advance(300);
    const patches = h.apiRequests({ verb: 'patchStatus', kind: 'Node', name: 'n1' });
    expect(patches.at(-1)!.patch).toEqual({ status: { volumesAttached: [{ name: UNIQ, devicePath: '' }] } });
    const n = patches.length;
    h.modified(node('n1', [UNIQ], [UNIQ]), node('n1'));
    h.advance(300);
    expect(h.apiRequests({ verb: 'patchStatus', kind: 'Node', name: 'n1' })).toHaveLength(n);
  });
});

describe('Multi-Attach', () => {
  it('an exclusive volume attached elsewhere with no pod there: "already exclusively attached", reported once', () => {
    // still mounted on n1 (in use there), so its detach waits and no operation holds the volume
    const h = adc([node('n1', [UNIQ], [UNIQ]), node('n2'), pv(), pvc, pod('b', 'n2')]);
    h.advance(300);
    expect(h.events('FailedAttachVolume').map((e) => e.message)).toEqual(['Multi-Attach error for volume "pvc-1" Volume is already exclusively attached to one node and can\'t be attached to another']);
    h.advance(1000);
    expect(h.events('FailedAttachVolume')).toHaveLength(1);
    expect(msgs(h)).toContain('attachDetachController.multiAttachExclusive');
    expect(h.apiRequests({ verb: 'create', kind: 'VolumeAttachment' })).toEqual([]);
  });

  it('used by pods in the same namespace, and in others (counted, not named)', () => {
    // a claim of another namespace naming the same volume
    const other: K8sObject = { ...pvc, metadata: { name: 'data', namespace: 'other' } };
    const h = adc([node('n1', [UNIQ], [UNIQ]), node('n2'), pv(), pvc, other, pod('a', 'n1'), pod('x', 'n1', 'other'), pod('b', 'n2')]);
    h.advance(300);
    expect(h.events('FailedAttachVolume').map((e) => e.message)).toEqual(['Multi-Attach error for volume "pvc-1" Volume is already used by pod(s) a and 1 pod(s) in different namespaces']);
    const only = adc([node('n1', [UNIQ], [UNIQ]), node('n2'), pv(), pvc, other, pod('x', 'n1', 'other'), pod('b', 'n2')]);
    only.advance(300);
    expect(only.events('FailedAttachVolume').map((e) => e.message)).toEqual(['Multi-Attach error for volume "pvc-1" Volume is already used by 1 pod(s) in different namespaces']);
  });

  it('a ReadWriteMany volume is attached to the second node too', () => {
    const h = adc([node('n1', [UNIQ], [UNIQ]), node('n2'), pv(['ReadWriteMany']), pvc, pod('a', 'n1'), pod('b', 'n2')]);
    h.advance(300);
    expect(h.events('FailedAttachVolume')).toEqual([]);
    expect(h.apiRequests({ verb: 'create', kind: 'VolumeAttachment' }).map((r) => r.name)).toEqual([VA('n2')]);
  });
});

describe('detach', () => {
  /** an ADC whose informer shows the volume attached to n1 and no longer in use there */
  const detaching = (profile: '1.20' | '1.30' = '1.30') => {
    const h = adc([node('n1', [UNIQ], []), pv(), pvc, va('n1', { attached: true })], profile);
    h.advance(200);
    // the detach starts once the node status write before it has returned (UpdateNodeStatuses is synchronous)
    expect(h.apiRequests({ verb: 'get', kind: 'Node' })).toEqual([]);
    h.answer(h.apiRequests({ verb: 'patchStatus', kind: 'Node', name: 'n1' })[0]!);
    return { h, get: h.apiRequests({ verb: 'get', kind: 'Node', name: 'n1' })[0]! };
  };

  it('first takes the volume out of the node status, then reads the Node, then deletes the VolumeAttachment', () => {
    const { h, get } = detaching();
    const order = h.emitted.filter((e) => e.type === 'api.request').map((e) => `${e.verb} ${e.kind}`);
    expect(order).toEqual(['patchStatus Node', 'get Node']);
    expect(h.apiRequests({ verb: 'patchStatus' })[0]!.patch).toEqual({ status: { volumesAttached: null } });
    h.answer(get, { object: node('n1', [], []) });
    expect(msgs(h)).toContain('attachDetachController.verifiedSafeToDetach');
    expect(h.apiRequests({ verb: 'delete', kind: 'VolumeAttachment' }).map((r) => r.name)).toEqual([VA()]);
  });

  it('starts the detach, and logs that it did, only once the node status write before it has returned; a failed write skips it and the next pass writes again (reconciler.go UpdateNodeStatuses)', () => {
    for (const profile of ['1.20', '1.30'] as const) {
      const h = adc([node('n1', [UNIQ], []), pv(), pvc, va('n1', { attached: true })], profile);
      h.advance(200);
      const patch = h.apiRequests({ verb: 'patchStatus', kind: 'Node', name: 'n1' })[0]!;
      expect(msgs(h), profile).not.toContain('attachDetachController.detachVolumeStarted');
      h.answer(patch, { ok: false, code: 500, message: 'etcd down' });
      // PatchNodeStatus wraps the API server's error (1.20 pkg/util/node/node.go, 1.30 component-helpers/node/util/status.go);
      // the status updater marks the node for another write and says so at -v=2 before the reconciler's error
      const err = 'failed to patch status "{\\"status\\":{\\"volumesAttached\\":null}}" for node "n1": etcd down';
      const lines = h.logs().filter((l) => l.msg === 'attachDetachController.nodeStatusRemarked' || l.msg === 'attachDetachController.updateNodeStatusesFailed');
      expect(lines.map((l) => [l.msg, l.args.err]), profile).toEqual([['attachDetachController.nodeStatusRemarked', err], ['attachDetachController.updateNodeStatusesFailed', err]]);
      expect(lines[1]!.args, profile).toMatchObject({ node: 'n1', volumeName: UNIQ });
      expect(h.apiRequests({ verb: 'get', kind: 'Node' }), profile).toEqual([]);
      h.advance(h.now + 200);
      const again = h.apiRequests({ verb: 'patchStatus', kind: 'Node', name: 'n1' });
      expect(again.length, profile).toBe(2);
      h.answer(again[1]!);
      expect(msgs(h), profile).toContain('attachDetachController.detachVolumeStarted');
      expect(h.apiRequests({ verb: 'get', kind: 'Node', name: 'n1' }), profile).toHaveLength(1);
    }
  });

  it('after a failed node status write, 1.30 puts the volume back in the node\'s report (AddVolumeToReportAsAttached, reconciler.go:259); 1.20 leaves it out', () => {
    const reported = (profile: '1.20' | '1.30') => {
      const h = adc([node('n1', [UNIQ], []), pv(), pvc, va('n1', { attached: true })], profile);
      h.advance(200);
      h.answer(h.apiRequests({ verb: 'patchStatus', kind: 'Node', name: 'n1' })[0]!, { ok: false, code: 500, message: 'etcd down' });
      // the kubelet reports the volume in use again before the next pass: no detach, only the status write
      h.modified(node('n1', [UNIQ], [UNIQ]), node('n1', [UNIQ], []));
      h.advance(h.now + 200);
      return h.apiRequests({ verb: 'patchStatus', kind: 'Node', name: 'n1' }).slice(1).map((r) => r.patch);
    };
    expect(reported('1.30')).toEqual([{ status: { volumesAttached: [{ name: UNIQ, devicePath: '' }] } }]);
    // 1.20 writes again the list it failed to write, without the volume (SetNodeStatusUpdateNeeded: the node is re-marked)
    expect(reported('1.20')).toEqual([{ status: { volumesAttached: null } }]);
  });

  it('a failed node status write at the end of a pass re-marks the node: "UpdateNodeStatuses failed" and the next pass writes it again (node_status_updater.go SetNodeStatusUpdateNeeded)', () => {
    for (const [profile, returned] of [['1.20', 'failed to patch status "{\\"status\\":{\\"volumesAttached\\":[{\\"devicePath\\":\\"\\",\\"name\\":\\"' + UNIQ + '\\"}]}}" for node "n1": etcd down'], ['1.30', 'unable to update 1 nodes']] as const) {
      // an attach that succeeded: the pass after it writes the node's list
      const { h, create } = attaching(profile);
      h.answer(create);
      h.modified(va('n1', { attached: true }), va('n1'));
      h.advance(h.now + 2000);
      const writes = () => h.apiRequests({ verb: 'patchStatus', kind: 'Node', name: 'n1' });
      expect(writes().length, profile).toBe(1);
      h.answer(writes()[0]!, { ok: false, code: 500, message: 'etcd down' });
      expect(h.logs().filter((l) => l.msg === 'attachDetachController.updateNodeStatusesFailedWith').map((l) => l.args.err), profile).toEqual([returned]);
      h.advance(h.now + 200);
      expect(writes().map((w) => w.patch), profile).toEqual([writes()[0]!.patch, writes()[0]!.patch]);
      // a write that succeeds is not repeated
      h.answer(writes()[1]!);
      h.advance(h.now + 1000);
      expect(writes().length, profile).toBe(2);
    }
  });

  it('a Node that is gone skips the safety check; a failed read fails the detach', () => {
    const gone = detaching();
    gone.h.answer(gone.get, { ok: false, code: 404 });
    expect(msgs(gone.h)).toContain('attachDetachController.nodeNotFoundSkipVerify');
    expect(gone.h.apiRequests({ verb: 'delete', kind: 'VolumeAttachment' })).toHaveLength(1);
    const err = detaching();
    err.h.answer(err.get, { ok: false, code: 500, message: 'etcd down' });
    // listed from node status with no pod using it, the volume has no spec: messages name it by its unique name
    expect(failed(err.h)).toEqual([`DetachVolume.Detach failed for volume "${UNIQ}" (UniqueName: "${UNIQ}") on node "n1" : DetachVolume failed fetching node from API server for volume "${UNIQ}" (UniqueName: "${UNIQ}") on node "n1" : etcd down`]);
    expect(err.h.apiRequests({ verb: 'delete', kind: 'VolumeAttachment' })).toEqual([]);
  });

  it('the delete: NotFound is a detach done; an error fails it; otherwise it waits until the object is gone or says detachError', () => {
    const nf = detaching();
    nf.h.answer(nf.get, { object: node('n1') });
    nf.h.answer(nf.h.apiRequests({ verb: 'delete' })[0]!, { ok: false, code: 404 });
    expect(msgs(nf.h)).toContain('attachDetachController.detachSucceeded');
    const bad = detaching();
    bad.h.answer(bad.get, { object: node('n1') });
    bad.h.answer(bad.h.apiRequests({ verb: 'delete' })[0]!, { ok: false, code: 500, message: 'no' });
    expect(failed(bad.h)[0]).toMatch(/on node "n1" : no$/);
    const wait = detaching('1.20');
    wait.h.answer(wait.get, { object: node('n1') });
    wait.h.answer(wait.h.apiRequests({ verb: 'delete' })[0]!);
    expect(msgs(wait.h)).not.toContain('attachDetachController.detachSucceeded');
    wait.h.modified(va('n1', { attached: true, detachError: { message: 'rpc error: code = Internal desc = busy' } }, { deletionTimestamp: 'x' }), va('n1', { attached: true }));
    expect(failed(wait.h)[0]).toMatch(/: rpc error: code = Internal desc = busy$/);
    const done = detaching('1.20');
    done.h.answer(done.get, { object: node('n1') });
    done.h.answer(done.h.apiRequests({ verb: 'delete' })[0]!);
    done.h.deleted(va('n1', { attached: false }));
    expect(msgs(done.h)).toContain('attachDetachController.detachSucceeded');
  });

  it('a failed detach leaves the attachment Attached on 1.20 and Uncertain on 1.30 (kubernetes#120595), with backoff', () => {
    for (const [profile, state] of [['1.20', 'Attached'], ['1.30', 'Uncertain']] as const) {
      const { h, get } = detaching(profile);
      h.answer(get, { object: node('n1') });
      h.answer(h.apiRequests({ verb: 'delete' })[0]!, { ok: false, code: 500, message: 'no' });
      expect(h.logs().find((l) => l.msg === 'attachDetachController.operationFailed')!.args.durationBeforeRetry, profile).toBe('500ms');
      const world = attachDetachControllerDescriptor.world!(h.context) as { actual: Array<{ node: string; attachState: string }> };
      expect(world.actual.find((a) => a.node === 'n1')!.attachState, profile).toBe(state);
    }
  });

  it('times out after 2 minutes waiting for the object to go, with each profile\'s words', () => {
    for (const [profile, words] of [['1.20', `attachdetachment timeout for volume ${H}`], ['1.30', `timed out waiting for external-attacher of ${DRV} CSI driver to detach volume ${H}`]] as const) {
      const { h, get } = detaching(profile);
      h.answer(get, { object: node('n1') });
      h.answer(h.apiRequests({ verb: 'delete' })[0]!);
      h.advance(121_000);
      expect(failed(h)[0]).toMatch(new RegExp(`: ${words}$`));
      const line = h.logs().find((l) => l.msg === 'attachDetachController.csiWaitTimedOut')!;
      expect([line.args, line.stage]).toEqual([expect.objectContaining({ operation: 'Detach', timeout: '2m0s', handle: H }), 'detach']);
    }
  });

  it('in use: waits 6 minutes, then force-detaches without the safety read (1.20), or only from a node that is not Ready (1.30)', () => {
    const old = adc([node('n1', [UNIQ], [UNIQ]), pv(), pvc, va('n1', { attached: true })], '1.20');
    old.advance(359_000);
    expect(msgs(old)).not.toContain('attachDetachController.forceDetachStarted');
    old.advance(2000);
    old.answer(old.apiRequests({ verb: 'patchStatus', kind: 'Node', name: 'n1' }).at(-1)!);
    expect(msgs(old)).toContain('attachDetachController.forceDetachStarted');
    expect(old.apiRequests({ verb: 'get', kind: 'Node' })).toEqual([]);
    expect(old.apiRequests({ verb: 'delete', kind: 'VolumeAttachment' })).toHaveLength(1);
    const ready = adc([node('n1', [UNIQ], [UNIQ]), pv(), pvc, va('n1', { attached: true })], '1.30');
    ready.advance(400_000);
    expect(msgs(ready)).not.toContain('attachDetachController.forceDetachStarted');
    const down = adc([node('n1', [UNIQ], [UNIQ], 'Unknown'), pv(), pvc, va('n1', { attached: true })], '1.30');
    down.advance(361_000);
    down.answer(down.apiRequests({ verb: 'patchStatus', kind: 'Node', name: 'n1' }).at(-1)!);
    expect(msgs(down)).toContain('attachDetachController.forceDetachStarted');
  });
});

describe('the attach/detach operation machines (operation_generator.go)', () => {
  const leafStates = (m: { config: { states?: Record<string, unknown> } }) => Object.keys(m.config.states ?? {});

  it('GenerateAttachVolumeFunc and GenerateDetachVolumeFunc: every state is reached, with and without verifySafeToDetach', async () => {
    const { getShortestPaths } = await import('xstate/graph');
    const { attachVolumeMachine, detachVolumeMachine } = await import('../../src/machines/attach-detach-controller/operationGenerator.ts');
    const events = [
      { type: 'volumeAttachment.found' }, { type: 'volumeAttachment.notFound' }, { type: 'volumeAttachment.attached' },
      { type: 'volumeAttachment.attachError', message: 'x' }, { type: 'volumeAttachment.beingDeleted' }, { type: 'volumeAttachment.deleted' },
      { type: 'volumeAttachment.detachError', message: 'x' }, { type: 'api.createVolumeAttachment.succeeded' },
      { type: 'api.createVolumeAttachment.failed', code: 409 }, { type: 'api.createVolumeAttachment.failed', code: 500 },
      { type: 'api.getNode.succeeded', inUse: true }, { type: 'api.getNode.succeeded', inUse: false },
      { type: 'api.getNode.failed', code: 404 }, { type: 'api.getNode.failed', code: 500 },
      { type: 'api.deleteVolumeAttachment.succeeded' }, { type: 'api.deleteVolumeAttachment.failed', code: 404 },
      { type: 'api.deleteVolumeAttachment.failed', code: 500 }, { type: 'operation.timedOut' },
    ];
    const reached = (m: AnyStateMachine, inputs: object[]) => new Set(inputs.flatMap((input) =>
      getShortestPaths(m, { input, events, serializeState: (st: { value: unknown; context: unknown }) => JSON.stringify([st.value, st.context]) } as never).map((p) => String(p.state.value))));
    // checkingSafeToDetach is left by eventless transitions only: a decision, not a state to rest in
    const transient = new Set(['checkingSafeToDetach']);
    expect(reached(attachVolumeMachine, [{ volumeName: 'v' }])).toEqual(new Set(leafStates(attachVolumeMachine).filter((s) => !transient.has(s))));
    expect(reached(detachVolumeMachine, [{ volumeName: 'v', verifySafeToDetach: true }, { volumeName: 'v', verifySafeToDetach: false }]))
      .toEqual(new Set(leafStates(detachVolumeMachine).filter((s) => !transient.has(s))));
  });

  it('verifyVolumeIsSafeToDetach: a volume in the fresh Node\'s volumesInUse fails the detach; a missing Node skips the check', async () => {
    const { initialTransition, transition } = await import('xstate');
    const { detachVolumeMachine } = await import('../../src/machines/attach-detach-controller/operationGenerator.ts');
    const [start] = initialTransition(detachVolumeMachine, { volumeName: 'v', verifySafeToDetach: true });
    expect(start.value).toBe('fetchingNode');
    const [inUse, a1] = transition(detachVolumeMachine, start, { type: 'api.getNode.succeeded', inUse: true });
    expect(inUse.value).toBe('failed');
    expect(a1.map((a) => a.type)).toEqual(['operationFailed']);
    const [gone, a2] = transition(detachVolumeMachine, start, { type: 'api.getNode.failed', code: 404 });
    expect(gone.value).toBe('deletingVolumeAttachment');
    expect(a2.map((a) => a.type)).toEqual(['logNodeNotFound', 'deleteVolumeAttachment']);
    const [forced] = initialTransition(detachVolumeMachine, { volumeName: 'v', verifySafeToDetach: false });
    expect(forced.value).toBe('deletingVolumeAttachment');
  });

  it('pod-migration on 1.20: steps[].states show the detach from the old node and the attach to the new one', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const t = runScenario('pod-migration', { k8s: '1.20' });
    const seen = (part: string): string[] => {
      const out: string[] = [];
      for (const s of t.steps) for (const [k, v] of Object.entries(s.states)) if (k.startsWith('attach-detach-controller') && k.includes(part) && out.at(-1) !== v) out.push(String(v));
      return out;
    };
    expect(seen('volume_detach kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-adge0gvc node 11.142.61.164')).toEqual(
      // the delete's answer moves it to waitingForDetach in a reaction that records no step
      expect.arrayContaining(['fetchingNode', 'deletingVolumeAttachment', 'succeeded']),
    );
    // the create's answer (waitingForAttach) records no step; the attach's end does
    expect(seen('volume_attach kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-adge0gvc node 11.142.60.212').slice(-2)).toEqual(['creatingVolumeAttachment', 'succeeded']);
    expect(seen('volume kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-adge0gvc node 11.142.60.212').at(-1)).toBe('AttachStateAttached');
    expect(seen('volume kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-adge0gvc node 11.142.61.164').at(-1)).toBe('AttachStateDetached');
  });
});

describe('the ADC actual state of world attach state (actual_state_of_world.go AttachState)', () => {
  it('MarkVolumeAsAttached / MarkVolumeAsUncertain / MarkVolumeAsDetached move a volume on a node between the three states', async () => {
    const a = await import('../../src/machines/attach-detach-controller/cache/actualStateOfWorld.ts');
    const spec = { volumeName: 'v', specName: 'pv', multiAttachAllowed: false };
    let w = a.emptyAsw();
    expect(a.getAttachState(w, 'v', 'n1')).toBe('Detached');
    w = a.markVolumeAsUncertain(w, spec, 'n1');
    expect(a.getAttachState(w, 'v', 'n1')).toBe('Uncertain');
    // an uncertain attachment is neither reported nor counted for the Multi-Attach check
    expect(a.getNodesForAttachedVolume(w, 'v')).toEqual([]);
    expect(a.takeNodesToUpdate(w).updates).toEqual([]);
    w = a.markVolumeAsAttached(w, spec, 'n1');
    expect(a.getAttachState(w, 'v', 'n1')).toBe('Attached');
    expect(a.getNodesForAttachedVolume(w, 'v')).toEqual(['n1']);
    expect(a.takeNodesToUpdate(w).updates).toEqual([{ nodeName: 'n1', volumes: ['v'] }]);
    w = a.markVolumeAsDetached(w, 'v', 'n1');
    expect(a.getAttachState(w, 'v', 'n1')).toBe('Detached');
    expect(a.takeNodesToUpdate(w).updates).toEqual([{ nodeName: 'n1', volumes: [] }]);
  });
});

describe('syncStates (every --attach-detach-reconcile-sync-period, 1m)', () => {
  /** an ADC that has attached web-0's volume to n1 (VolumeAttachment created and reported attached) */
  const attached = () => {
    const { h, create } = attaching();
    h.answer(create, { object: va('n1') });
    h.modified(va('n1', { attached: true }), va('n1'));
    h.advance(1000);
    expect(msgs(h)).toContain('attachDetachController.attachSucceeded');
    return h;
  };
  const syncLines = (h: MachineHarness) => msgs(h).filter((m) => m === 'attachDetachController.volumesAreAttachedFailed' || m === 'attachDetachController.volumeMarkedDetachedBySync');

  it('leaves an attachment whose VolumeAttachment says attached alone', () => {
    const h = attached();
    h.advance(3 * 60_000);
    expect(syncLines(h)).toEqual([]);
    expect(h.apiRequests({ verb: 'create', kind: 'VolumeAttachment' })).toHaveLength(1);
  });

  it('a VolumeAttachment gone: the error line, marked detached, attached again (a new create)', () => {
    const h = attached();
    h.deleted(va('n1', { attached: true }));
    h.advance(61_000);
    expect(syncLines(h)).toEqual(['attachDetachController.volumesAreAttachedFailed', 'attachDetachController.volumeMarkedDetachedBySync']);
    expect(h.logs().find((l) => l.msg === 'attachDetachController.volumesAreAttachedFailed')!.args.err).toBe(`volumeattachments.storage.k8s.io "${VA()}" not found`);
    expect(h.apiRequests({ verb: 'create', kind: 'VolumeAttachment' })).toHaveLength(2);
  });

  it('a VolumeAttachment there but not attached (or with no status yet): marked detached, without the not-found error', () => {
    for (const status of [{ attached: false }, undefined]) {
      const h = attached();
      const stale = va('n1', status ?? {});
      if (!status) delete (stale as { status?: unknown }).status;
      h.modified(stale, va('n1', { attached: true }));
      h.advance(61_000);
      expect(syncLines(h)).toEqual(['attachDetachController.volumeMarkedDetachedBySync']);
    }
  });
});
