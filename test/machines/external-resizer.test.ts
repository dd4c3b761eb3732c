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
