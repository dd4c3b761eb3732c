import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { externalResizerMachine } from '../../src/machines/external-resizer/index.ts';
import type { K8sObject } from '../../src/machines/shared/k8s.ts';

const input = { id: 'external-resizer', host: 'ctrl', profile: '1.20' as const, driverName: 'com.tencent.cloud.csi.cbs', epochUs: Date.UTC(2024, 4, 14, 9, 30) * 1000 };
const pv: K8sObject = {
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pvc-1' },
  spec: { capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'], claimRef: { namespace: 'default', name: 'data-web-0', uid: 'c1' }, csi: { driver: 'com.tencent.cloud.csi.cbs', volumeHandle: 'disk-1', fsType: 'ext4' } },
};
const pvc = (size: string): K8sObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data-web-0', namespace: 'default', uid: 'c1', resourceVersion: size },
  spec: { volumeName: 'pvc-1', resources: { requests: { storage: size } } }, status: { phase: 'Bound', capacity: { storage: '10Gi' } },
});

function start() {
  const actor = createActor(externalResizerMachine, { input });
  const emitted: any[] = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  actor.send({ type: 'component.started', now: 0 });
  actor.send({ type: 'watch.added', now: 0, object: pv });
  actor.send({ type: 'watch.added', now: 0, object: pvc('10Gi') });
  return { actor, emitted };
}
const last = (emitted: any[], type: string) => emitted.filter((e) => e.type === type).at(-1);

describe('external-resizer', () => {
  it('expands a grown Bound claim: Resizing, ControllerExpandVolume, PV capacity, FileSystemResizePending', () => {
    const { actor, emitted } = start();
    expect(emitted.filter((e) => e.type === 'api.request')).toHaveLength(0);
    actor.send({ type: 'watch.modified', now: 1, object: pvc('20Gi'), oldObject: pvc('10Gi') });
    const mark = last(emitted, 'api.request');
    // each condition carries the time it was set (metav1.Now() in markPVCResizeInProgress and markPVCAsFSResizeRequired)
    expect(mark).toMatchObject({ verb: 'patchStatus', name: 'data-web-0', patch: { status: { conditions: [{ type: 'Resizing', status: 'True', lastTransitionTime: '2024-05-14T09:30:00Z' }] } } });
    actor.send({ type: 'api.result', now: 2, requestId: mark.requestId, ok: true, code: 200 });
    expect(last(emitted, 'event.recorded')).toMatchObject({ reason: 'Resizing', message: 'External resizer is resizing volume pvc-1' });
    const call = last(emitted, 'csi.call');
    expect(call).toMatchObject({ rpc: 'ControllerExpandVolume', request: { volume_id: 'disk-1', capacity_range: { required_bytes: 20 * 2 ** 30 } } });
    actor.send({ type: 'csi.result', now: 3, requestId: call.requestId, rpc: 'ControllerExpandVolume', code: 'OK', response: { capacity_bytes: 20 * 2 ** 30, node_expansion_required: true } });
    const pvPatch = last(emitted, 'api.request');
    expect(pvPatch).toMatchObject({ verb: 'patch', kind: 'PersistentVolume', name: 'pvc-1', patch: { spec: { capacity: { storage: '20Gi' } } } });
    actor.send({ type: 'api.result', now: 4, requestId: pvPatch.requestId, ok: true, code: 200 });
    const fs = last(emitted, 'api.request');
    expect(fs.patch.status.conditions[0]).toMatchObject({ type: 'FileSystemResizePending', status: 'True', lastTransitionTime: '2024-05-14T09:30:00Z' });
    actor.send({ type: 'api.result', now: 5, requestId: fs.requestId, ok: true, code: 200 });
    expect(last(emitted, 'event.recorded')).toMatchObject({ reason: 'FileSystemResizeRequired', message: 'Require file system resize of volume on node' });
    expect(emitted.filter((e) => e.type === 'log').map((e) => e.msg)).toContain('externalResizer.updateCapacitySucceeded');
  });

  it('finishes without the kubelet when no node expansion is needed', () => {
    const { actor, emitted } = start();
    actor.send({ type: 'watch.modified', now: 1, object: pvc('20Gi'), oldObject: pvc('10Gi') });
    actor.send({ type: 'api.result', now: 2, requestId: last(emitted, 'api.request').requestId, ok: true, code: 200 });
    actor.send({ type: 'csi.result', now: 3, requestId: last(emitted, 'csi.call').requestId, rpc: 'ControllerExpandVolume', code: 'OK', response: { capacity_bytes: 20 * 2 ** 30, node_expansion_required: false } });
    actor.send({ type: 'api.result', now: 4, requestId: last(emitted, 'api.request').requestId, ok: true, code: 200 });
    expect(last(emitted, 'api.request').patch).toEqual({ status: { capacity: { storage: '20Gi' }, conditions: null } });
    actor.send({ type: 'api.result', now: 5, requestId: last(emitted, 'api.request').requestId, ok: true, code: 200 });
    expect(last(emitted, 'event.recorded')).toMatchObject({ reason: 'VolumeResizeSuccessful', message: 'Resize volume succeeded' });
  });

  it('records VolumeResizeFailed and retries after 1s when the driver fails', () => {
    const { actor, emitted } = start();
    actor.send({ type: 'watch.modified', now: 1, object: pvc('20Gi'), oldObject: pvc('10Gi') });
    actor.send({ type: 'api.result', now: 2, requestId: last(emitted, 'api.request').requestId, ok: true, code: 200 });
    actor.send({ type: 'csi.result', now: 3, requestId: last(emitted, 'csi.call').requestId, rpc: 'ControllerExpandVolume', code: 'INTERNAL', message: 'quota exceeded' });
    expect(last(emitted, 'event.recorded')).toMatchObject({ eventType: 'Warning', reason: 'VolumeResizeFailed', message: 'resize volume "pvc-1" by resizer "com.tencent.cloud.csi.cbs" failed: rpc error: code = Internal desc = quota exceeded' });
    expect(last(emitted, 'timer.requested')).toEqual({ type: 'timer.requested', key: 'retry/default/data-web-0', at: 3 + 1_000_000 });
    const before = emitted.filter((e) => e.type === 'api.request').length;
    actor.send({ type: 'clock.ticked', now: 1_000_003, key: 'retry/default/data-web-0' });
    expect(emitted.filter((e) => e.type === 'api.request').length).toBe(before + 1);
  });

  it('reaches every state', () => {
    const paths = getShortestPaths(externalResizerMachine, {
      input, events: [{ type: 'component.started', now: 0 }, { type: 'host.shutdown', now: 1 }],
      serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
    } as any);
    expect(paths.map((p) => JSON.stringify(p.state.value)).sort()).toEqual(['"running"', '"stopped"']);
  });
});

describe('external-resizer syncPVC: what it says when it resizes nothing, and v1.11.1\'s capabilities question (controller.go syncPVC, csi_resizer.go Resize)', () => {
  function startOn(profile: '1.20' | '1.30', claim: K8sObject = pvc('10Gi')) {
    const actor = createActor(externalResizerMachine, { input: { ...input, profile } });
    const emitted: any[] = [];
    actor.on('*', (e) => emitted.push(e));
    actor.start();
    actor.send({ type: 'component.started', now: 0 });
    actor.send({ type: 'watch.added', now: 0, object: pv });
    actor.send({ type: 'watch.added', now: 0, object: claim });
    return { actor, emitted };
  }
  const logs = (emitted: any[]) => emitted.filter((e) => e.type === 'log').map((e) => e.msg.replace('externalResizer.', ''));

  it('a claim that asks for no more than it has: "Started PVC processing" (no step of a resize), then "No need to resize PVC", both profiles', () => {
    for (const profile of ['1.20', '1.30'] as const) {
      const { emitted } = startOn(profile);
      expect([profile, logs(emitted)]).toEqual([profile, ['startedPvcProcessing', 'noNeedToResizePvc']]);
      expect(emitted.find((e) => e.msg === 'externalResizer.startedPvcProcessing').stage).toBe('other');
      // (its own random stream: the line moves no other component's timing)
      expect(emitted.find((e) => e.msg === 'externalResizer.noNeedToResizePvc')).toMatchObject({ args: { pvc: 'default/data-web-0' }, ownStream: true });
    }
  });

  it('a new claim with no volume yet: v1.11.1 looks for its PV first ("PV bound to PVC is not created yet"), v1.1.0 asks whether it needs resizing first', () => {
    const fresh: K8sObject = { ...pvc('10Gi'), spec: { resources: { requests: { storage: '10Gi' } } }, status: { phase: 'Pending' } };
    expect(logs(startOn('1.30', fresh).emitted)).toEqual(['startedPvcProcessing', 'pvNotCreatedYet']);
    expect(logs(startOn('1.20', fresh).emitted)).toEqual(['startedPvcProcessing', 'noNeedToResizePvc']);
    // a grown claim whose PV the informer has not seen: the release's "PV bound to PVC not found"
    const actor = createActor(externalResizerMachine, { input: { ...input, profile: '1.30' } });
    const emitted: any[] = [];
    actor.on('*', (e) => emitted.push(e));
    actor.start();
    actor.send({ type: 'component.started', now: 0 });
    actor.send({ type: 'watch.added', now: 0, object: pvc('20Gi') });
    expect(emitted.filter((e) => e.type === 'log').at(-1)).toMatchObject({ msg: 'externalResizer.pvOfPvcNotFound', args: { pv: 'pvc-1', pvc: 'default/data-web-0' } });
  });

  it('a claim gone from the cache when its retry comes: "PVC is deleted or does not exist", nothing else', () => {
    const { actor, emitted } = startOn('1.30');
    actor.send({ type: 'watch.modified', now: 1, object: pvc('20Gi'), oldObject: pvc('10Gi') });
    const mark = last(emitted, 'api.request');
    actor.send({ type: 'api.result', now: 2, requestId: mark.requestId, ok: false, code: 500, message: 'etcd timeout' });
    const retry = last(emitted, 'timer.requested');
    actor.send({ type: 'watch.deleted', now: 3, object: pvc('20Gi') });
    const n = emitted.length;
    actor.send({ type: 'clock.ticked', now: retry.at, key: retry.key });
    expect(emitted.slice(n).map((e) => `${e.type} ${e.msg ?? ''}`)).toEqual(['log externalResizer.startedPvcProcessing', 'log externalResizer.pvcDeleted']);
    expect(emitted.at(-1).args).toEqual({ pvc: 'default/data-web-0' });
  });

  it('a PV of another driver, or bound to another claim: pvNeedResize says why, then "No need to resize PV"', () => {
    const other = { ...pv, spec: { ...pv.spec, csi: { ...pv.spec.csi, driver: 'other.csi.example.com' } } };
    const { actor, emitted } = startOn('1.30');
    actor.send({ type: 'watch.modified', now: 1, object: other, oldObject: pv });
    actor.send({ type: 'watch.modified', now: 2, object: pvc('20Gi'), oldObject: pvc('10Gi') });
    expect(logs(emitted).slice(-3)).toEqual(['startedPvcProcessing', 'resizerDoesNotSupportPv', 'noNeedToResizePv']);
    const stolen = { ...pv, spec: { ...pv.spec, claimRef: { namespace: 'default', name: 'data-web-0', uid: 'someone-else' } } };
    actor.send({ type: 'watch.modified', now: 3, object: stolen, oldObject: other });
    actor.send({ type: 'watch.modified', now: 4, object: pvc('30Gi'), oldObject: pvc('20Gi') });
    expect(logs(emitted).slice(-3)).toEqual(['startedPvcProcessing', 'pvNotBoundToPvc', 'noNeedToResizePv']);
    expect(emitted.filter((e) => e.type === 'api.request')).toHaveLength(0);
  });

  it('v1.11.1 queues a claim again when its status capacity grows (updatePVC "case 3"); v1.1.0 does not', () => {
    // (the request unchanged, the capacity grown: what the kubelet's or the resizer's final status write does)
    const grown = (rv: string): K8sObject => ({ ...pvc('10Gi'), metadata: { ...pvc('10Gi').metadata, resourceVersion: rv }, status: { phase: 'Bound', capacity: { storage: '12Gi' } } });
    const before: K8sObject = { ...pvc('10Gi'), metadata: { ...pvc('10Gi').metadata, resourceVersion: 'a' } };
    for (const [profile, synced] of [['1.30', true], ['1.20', false]] as const) {
      const { actor, emitted } = startOn(profile, before);
      const n = logs(emitted).length;
      actor.send({ type: 'watch.modified', now: 1, object: grown('b'), oldObject: before });
      expect([profile, logs(emitted).slice(n)]).toEqual([profile, synced ? ['startedPvcProcessing', 'noNeedToResizePvc'] : []]);
    }
  });

  it('v1.11.1 asks ControllerGetCapabilities after the Resizing event and before ControllerExpandVolume; SINGLE_NODE_MULTI_WRITER makes ReadWriteOnce mode 7; a failed question fails the resize', () => {
    const { actor, emitted } = startOn('1.30');
    actor.send({ type: 'watch.modified', now: 1, object: pvc('20Gi'), oldObject: pvc('10Gi') });
    actor.send({ type: 'api.result', now: 2, requestId: last(emitted, 'api.request').requestId, ok: true, code: 200 });
    const ask = last(emitted, 'csi.call');
    expect(ask).toMatchObject({ rpc: 'ControllerGetCapabilities', request: {}, endpoint: 'controller' });
    // csi-lib-utils' LogGRPC lines of the question
    expect(emitted.filter((e) => e.type === 'log' && /grpc(Call|Request)/.test(e.msg)).map((e) => e.args)).toEqual([
      { method: '/csi.v1.Controller/ControllerGetCapabilities', request: '{}' }, { request: '{}', method: '/csi.v1.Controller/ControllerGetCapabilities' }]);
    // (an answer to another request, or a second answer, changes nothing)
    const before = emitted.length;
    actor.send({ type: 'csi.result', now: 3, requestId: 'resizer-999', rpc: 'ControllerGetCapabilities', code: 'OK', response: { capabilities: [] } });
    expect(emitted.length).toBe(before);
    expect(emitted.findIndex((e) => e.reason === 'Resizing')).toBeLessThan(emitted.indexOf(ask));
    actor.send({ type: 'csi.result', now: 3, requestId: ask.requestId, rpc: 'ControllerGetCapabilities', code: 'OK', response: { capabilities: [{ Type: { Rpc: { type: 1 } } }, { Type: { Rpc: { type: 13 } } }] } });
    expect(last(emitted, 'csi.call')).toMatchObject({ rpc: 'ControllerExpandVolume', request: { volume_capability: { access_mode: { mode: 7 } } } });

    const second = startOn('1.30');
    second.actor.send({ type: 'watch.modified', now: 1, object: pvc('20Gi'), oldObject: pvc('10Gi') });
    second.actor.send({ type: 'api.result', now: 2, requestId: last(second.emitted, 'api.request').requestId, ok: true, code: 200 });
    second.actor.send({ type: 'csi.result', now: 3, requestId: last(second.emitted, 'csi.call').requestId, rpc: 'ControllerGetCapabilities', code: 'OK', response: { capabilities: [{ Type: { Rpc: { type: 1 } } }] } });
    expect(last(second.emitted, 'csi.call')).toMatchObject({ rpc: 'ControllerExpandVolume', request: { volume_capability: { access_mode: { mode: 1 } } } });

    const third = startOn('1.30');
    third.actor.send({ type: 'watch.modified', now: 1, object: pvc('20Gi'), oldObject: pvc('10Gi') });
    third.actor.send({ type: 'api.result', now: 2, requestId: last(third.emitted, 'api.request').requestId, ok: true, code: 200 });
    third.actor.send({ type: 'csi.result', now: 3, requestId: last(third.emitted, 'csi.call').requestId, rpc: 'ControllerGetCapabilities', code: 'UNAVAILABLE', message: 'connection refused' });
    expect(last(third.emitted, 'event.recorded')).toMatchObject({ reason: 'VolumeResizeFailed' });
    expect(last(third.emitted, 'event.recorded').message).toContain('failed to get capabilities of volume pvc-1 with error getting controller capabilities: rpc error: code = Unavailable desc = connection refused');
    expect(third.emitted.filter((e) => e.type === 'csi.call').map((e) => e.rpc)).toEqual(['ControllerGetCapabilities']);
    // v1.1.0 goes straight to ControllerExpandVolume
    const old = startOn('1.20');
    old.actor.send({ type: 'watch.modified', now: 1, object: pvc('20Gi'), oldObject: pvc('10Gi') });
    old.actor.send({ type: 'api.result', now: 2, requestId: last(old.emitted, 'api.request').requestId, ok: true, code: 200 });
    expect(old.emitted.filter((e) => e.type === 'csi.call').map((e) => e.rpc)).toEqual(['ControllerExpandVolume']);
  });
});

describe('the sidecars\' Event sources, as their recorders name them', () => {
  it('"external-resizer <driver>", "csi-snapshotter <driver>", and the provisioner library\'s "<driver>_<hostname>_<uuid>", the same UUID for every Event of the process', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const sources = (id: string, faults: string[] = []) => {
      const t = runScenario(id, { k8s: '1.30', faults });
      return new Map(t.final.objects.filter((o) => o.kind === 'Event').map((o) => [o.reason as string, o.source.component as string]));
    };
    const expand = sources('expand-online');
    expect(expand.get('Resizing')).toBe('external-resizer rbd.csi.ceph.com');
    expect(expand.get('Provisioning')).toMatch(/^rbd\.csi\.ceph\.com_csi-controller-0_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(expand.get('ProvisioningSucceeded')).toBe(expand.get('Provisioning'));
    expect(sources('snapshot-restore', ['CreateSnapshot=INTERNALx1']).get('SnapshotCreationFailed')).toBe('csi-snapshotter rbd.csi.ceph.com');
  });
});

describe('the Event log line of each build', () => {
  it('on 1.20 the sidecars print StartLogging\'s line from the client-go v0.20.0 they vendor (event.go:282), kube-controller-manager v1.20.6 its own (event.go:278)', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const t = runScenario('provision', { k8s: '1.20' });
    const eventLines = t.steps.filter((st) => st.kind === 'event' && st.log).map((st) => `${st.component} ${/ (event\.go:\d+)\]/.exec(st.log!)?.[1]}`);
    expect(new Set(eventLines)).toEqual(new Set(['pv-controller event.go:278', 'external-provisioner event.go:282']));
  });
});
