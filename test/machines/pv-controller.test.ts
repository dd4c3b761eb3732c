import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { ClusterEmitted } from '../../src/machines/shared/contract.ts';
import type { K8sObject } from '../../src/machines/shared/k8s.ts';
import { pvControllerMachine, pvPhaseMachine, pvcPhaseMachine, claimPhaseAllows, volumePhaseAllows } from '../../src/machines/pv-controller/index.ts';

import { DRIVER, pvc, sc, storageCluster, logs } from './pv-controller.fixtures.ts';

describe('PV and PVC phase machines', () => {
  it('allow the phase changes upstream makes and refuse the others', () => {
    expect(volumePhaseAllows('Pending', 'Bound')).toBe(true);
    expect(volumePhaseAllows('Bound', 'Released')).toBe(true);
    expect(volumePhaseAllows('Released', 'Bound')).toBe(false);
    expect(claimPhaseAllows('Pending', 'Bound')).toBe(true);
    expect(claimPhaseAllows('Bound', 'Pending')).toBe(false);
  });
  it('reach every phase from Pending', () => {
    const pv = getShortestPaths(pvPhaseMachine, { events: [{ type: 'volume.available' }, { type: 'volume.bound' }, { type: 'volume.released' }, { type: 'volume.failed' }], serializeState: (s: { value: unknown }) => JSON.stringify(s.value) });
    expect(new Set(pv.map((p) => p.state.value))).toEqual(new Set(['Pending', 'Available', 'Bound', 'Released', 'Failed']));
    const claim = getShortestPaths(pvcPhaseMachine, { events: [{ type: 'claim.bound' }, { type: 'claim.lost' }], serializeState: (s: { value: unknown }) => JSON.stringify(s.value) });
    expect(new Set(claim.map((p) => p.state.value))).toEqual(new Set(['Pending', 'Bound', 'Lost']));
  });
});

/** The machine alone, started (component.started): what it emits is collected. */
function startController(profile: '1.20' | '1.30') {
  const actor = createActor(pvControllerMachine, { input: { id: 'pv-controller', host: 'master', profile } });
  const emitted: ClusterEmitted[] = [];
  actor.on('*', (e) => emitted.push(e as ClusterEmitted));
  actor.start();
  actor.send({ type: 'component.started', now: 0 });
  return { actor, emitted };
}
/** A claim as the API server stores it: with a uid and a resourceVersion. */
const storedClaim = (name: string, uid: string, cls = 'cbs'): K8sObject => ({ ...pvc(name, cls), metadata: { name, namespace: 'default', uid, resourceVersion: '5' } });

describe('pvControllerMachine', () => {
  it('hands an Immediate CSI claim to the external provisioner and records ExternalProvisioning', () => {
    const { actor, emitted } = startController('1.30');
    actor.send({ type: 'informers.synced', now: 0 });
    actor.send({ type: 'watch.added', now: 1, object: sc('cbs', 'Immediate') });
    actor.send({ type: 'watch.added', now: 2, object: storedClaim('data', 'u1') });
    const write = emitted.find((e) => e.type === 'api.request');
    expect(write).toMatchObject({ verb: 'update', kind: 'PersistentVolumeClaim', name: 'data' });
    expect((write as { object: K8sObject }).object.metadata.annotations).toEqual({
      'volume.beta.kubernetes.io/storage-provisioner': DRIVER.name, 'volume.kubernetes.io/storage-provisioner': DRIVER.name,
    });
    expect(emitted).toContainEqual({ type: 'timer.requested', key: 'pvController.resync', at: 2 + 15_000_000 });
    actor.send({ type: 'api.result', now: 3, requestId: (write as { requestId: string }).requestId, ok: true, code: 200, object: (write as { object: K8sObject }).object });
    expect(emitted.filter((e) => e.type === 'event.recorded').map((e) => (e as { reason: string }).reason)).toContain('ExternalProvisioning');
  });

  it('waits for the first consumer before handing over a WaitForFirstConsumer claim', () => {
    const { actor, emitted } = startController('1.20');
    actor.send({ type: 'informers.synced', now: 0 });
    actor.send({ type: 'watch.added', now: 1, object: sc('cbs-wffc', 'WaitForFirstConsumer') });
    actor.send({ type: 'watch.added', now: 2, object: storedClaim('data', 'u1', 'cbs-wffc') });
    expect(emitted.filter((e) => e.type === 'api.request')).toEqual([]);
    expect(emitted).toContainEqual(expect.objectContaining({ type: 'event.recorded', reason: 'WaitForFirstConsumer', message: 'waiting for first consumer to be created before binding' }));
  });

  it('reaches every state', () => {
    const paths = getShortestPaths(pvControllerMachine, {
      input: { id: 'pv-controller', host: 'master', profile: '1.20' },
      events: [{ type: 'component.started', now: 0 }, { type: 'informers.synced', now: 0 }, { type: 'host.shutdown', now: 1 }],
      serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
    } as Parameters<typeof getShortestPaths<typeof pvControllerMachine>>[1]);
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(['stopped', 'waitingForCacheSync', 'running']));
  });

  it('syncs nothing until its caches are synced: a bound claim listed before its volume is not lost (Run: WaitForNamedCacheSync, initializeCaches)', () => {
    const { actor, emitted } = startController('1.30');
    // the informers' initial lists, claims first: the claim's volume is not in the cache yet
    const listed = storedClaim('data', 'u1');
    const claim = { ...listed, metadata: { ...listed.metadata, annotations: { 'pv.kubernetes.io/bind-completed': 'yes' } }, spec: { ...listed.spec, volumeName: 'pvc-u1' }, status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '10Gi' } } };
    const volume = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pvc-u1', resourceVersion: '4' }, spec: { storageClassName: 'cbs', claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', uid: 'u1' }, csi: { driver: DRIVER.name, volumeHandle: 'disk-1' }, persistentVolumeReclaimPolicy: 'Delete', capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'] }, status: { phase: 'Bound' } };
    actor.send({ type: 'watch.added', now: 0, object: claim as K8sObject });
    actor.send({ type: 'watch.added', now: 0, object: volume as K8sObject });
    actor.send({ type: 'watch.added', now: 0, object: sc('cbs', 'Immediate') });
    expect(actor.getSnapshot().value).toBe('waitingForCacheSync');
    expect(emitted).toEqual([]);
    actor.send({ type: 'informers.synced', now: 0 });
    expect(actor.getSnapshot().value).toBe('running');
    expect(emitted.filter((e) => e.type === 'event.recorded')).toEqual([]);
    expect(emitted.filter((e) => e.type === 'api.request')).toEqual([]);
  });
});

describe('pvControllerMachine while its caches sync (pv_controller_base.go Run)', () => {
  it('syncs a claim listed unbound once the caches are synced, with no other event (initializeCaches, then the claim worker), and asks for the resync timer', () => {
    const { actor, emitted } = startController('1.30');
    actor.send({ type: 'watch.added', now: 0, object: sc('cbs', 'Immediate') });
    actor.send({ type: 'watch.added', now: 0, object: storedClaim('data', 'u1') });
    expect(emitted).toEqual([]);
    actor.send({ type: 'informers.synced', now: 7 });
    expect(emitted.find((e) => e.type === 'api.request')).toMatchObject({ verb: 'update', kind: 'PersistentVolumeClaim', name: 'data' });
    expect(emitted).toContainEqual({ type: 'timer.requested', key: 'pvController.resync', at: 7 + 15_000_000 });
  });

  it('keeps what the informers say while it waits: a claim listed, then changed, then deleted before the sync is not synced', () => {
    const { actor, emitted } = startController('1.30');
    actor.send({ type: 'watch.added', now: 0, object: sc('cbs', 'Immediate') });
    actor.send({ type: 'watch.added', now: 0, object: storedClaim('gone', 'u2') });
    actor.send({ type: 'watch.modified', now: 0, oldObject: storedClaim('gone', 'u2'), object: { ...storedClaim('gone', 'u2'), metadata: { ...storedClaim('gone', 'u2').metadata, resourceVersion: '6' } } });
    actor.send({ type: 'watch.added', now: 0, object: storedClaim('kept', 'u3') });
    actor.send({ type: 'watch.deleted', now: 0, object: storedClaim('gone', 'u2') });
    actor.send({ type: 'informers.synced', now: 1 });
    expect(emitted.filter((e) => e.type === 'api.request').map((e) => (e as { name: string }).name)).toEqual(['kept']);
  });

  it('syncs a claim as its last update before the sync says: listed with a class it does not know, changed to one it does', () => {
    const { actor, emitted } = startController('1.30');
    actor.send({ type: 'watch.added', now: 0, object: sc('cbs', 'Immediate') });
    const other = storedClaim('data', 'u1', 'unknown');
    actor.send({ type: 'watch.added', now: 0, object: other });
    actor.send({ type: 'watch.modified', now: 0, oldObject: other, object: { ...storedClaim('data', 'u1'), metadata: { ...storedClaim('data', 'u1').metadata, resourceVersion: '6' } } });
    actor.send({ type: 'informers.synced', now: 1 });
    expect(emitted.filter((e) => e.type === 'api.request').map((e) => (e as { name: string }).name)).toEqual(['data']);
  });

  it('forgets the writes it had in flight when its process stops: after a restart the claim is synced again', () => {
    const { actor, emitted } = startController('1.30');
    actor.send({ type: 'watch.added', now: 0, object: sc('cbs', 'Immediate') });
    actor.send({ type: 'watch.added', now: 0, object: storedClaim('data', 'u1') });
    actor.send({ type: 'informers.synced', now: 0 });
    expect(emitted.filter((e) => e.type === 'api.request')).toHaveLength(1);
    actor.send({ type: 'host.shutdown', now: 1 });
    actor.send({ type: 'component.started', now: 2 });
    actor.send({ type: 'watch.added', now: 2, object: sc('cbs', 'Immediate') });
    actor.send({ type: 'watch.added', now: 2, object: storedClaim('data', 'u1') });
    actor.send({ type: 'informers.synced', now: 2 });
    expect(emitted.filter((e) => e.type === 'api.request')).toHaveLength(2);
    // (and the new process asks for its own resync timer: the old one's went with it)
    expect(emitted).toContainEqual({ type: 'timer.requested', key: 'pvController.resync', at: 2 + 15_000_000 });
  });

  it('goes back to stopped when its host shuts down while it waits, and starts again as a new process: empty caches, filled by the lists', () => {
    const { actor, emitted } = startController('1.30');
    actor.send({ type: 'watch.added', now: 0, object: sc('cbs', 'Immediate') });
    actor.send({ type: 'host.shutdown', now: 1 });
    expect(actor.getSnapshot().value).toBe('stopped');
    actor.send({ type: 'component.started', now: 2 });
    expect(actor.getSnapshot().value).toBe('waitingForCacheSync');
    // the class is not listed again: the new process does not know it, and leaves the claim alone
    actor.send({ type: 'watch.added', now: 2, object: storedClaim('data', 'u1') });
    actor.send({ type: 'informers.synced', now: 2 });
    expect(actor.getSnapshot().value).toBe('running');
    expect(emitted.filter((e) => e.type === 'api.request')).toEqual([]);
    actor.send({ type: 'watch.added', now: 3, object: sc('cbs', 'Immediate') });
    expect(emitted.filter((e) => e.type === 'api.request')).toHaveLength(1);
  });
});

describe('dynamic provisioning in a cluster', () => {
  it('provisions and binds an Immediate claim end to end, with the 1.20 log lines in upstream order', () => {
    const c = storageCluster('1.20', [sc('cbs', 'Immediate')], [{ at: 1_000_000, do: 'create', object: pvc('data', 'cbs') }]);
    c.run(60_000_000);
    const claim = c.api.get('PersistentVolumeClaim', 'default', 'data')!;
    const pv = c.api.get('PersistentVolume', undefined, claim.spec.volumeName)!;
    expect(claim.status).toMatchObject({ phase: 'Bound', capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'] });
    expect(claim.metadata.annotations).toMatchObject({ 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect(pv.metadata.name).toBe(`pvc-${claim.metadata.uid}`);
    expect(pv.status.phase).toBe('Bound');
    expect(pv.spec.csi).toEqual({ driver: DRIVER.name, volumeHandle: 'disk-1', fsType: 'ext4', volumeAttributes: { 'storage.kubernetes.io/csiProvisionerIdentity': `1672314114387-8081-${DRIVER.name}` } });
    expect(logs(c, 'pv-controller').filter((l) => !l.startsWith('Event('))).toEqual([
      `volume "${pv.metadata.name}" entered phase "Bound"`,
      `volume "${pv.metadata.name}" bound to claim "default/data"`,
      'claim "default/data" entered phase "Bound"',
    ]);
    const ep = logs(c, 'external-provisioner');
    const i = (s: string): number => ep.findIndex((l) => l.startsWith(s));
    expect(i('provision "default/data" class "cbs": started')).toBeGreaterThan(i('Started provisioner controller'));
    expect(ep).toContain('GRPC call: /csi.v1.Controller/CreateVolume');
    expect(ep).toContain(`GRPC request: {"capacity_range":{"required_bytes":10737418240},"name":"${pv.metadata.name}","parameters":{"diskType":"CLOUD_PREMIUM"},"volume_capabilities":[{"AccessType":{"Mount":{"fs_type":"ext4"}},"access_mode":{"mode":1}}]}`);
    // lib v6.2.0: "provisioned", then "succeeded", then the queue store saves the PV (volume_store.go:154/157, -v=5)
    expect(i(`provision "default/data" class "cbs": volume "${pv.metadata.name}" provisioned`)).toBeLessThan(i('provision "default/data" class "cbs": succeeded'));
    expect(i('provision "default/data" class "cbs": succeeded')).toBeLessThan(i(`Saving volume ${pv.metadata.name}`));
    expect(i(`Saving volume ${pv.metadata.name}`)).toBeLessThan(i(`Volume ${pv.metadata.name} saved`));
    // the event broadcaster logs asynchronously, so event lines may follow; the provisioner's own last lines are
    // the save's, then syncClaim's -v=5 line once StoreVolume returned (lib v6.2.0 controller.go:1096)
    expect(ep.filter((l) => !l.startsWith('Event(')).slice(-2)).toEqual([`Volume ${pv.metadata.name} saved`, `Claim processing succeeded, removing PVC ${claim.metadata.uid} from claims in progress`]);
    const events = c.api.list('Event').map((e) => e.reason);
    expect(events).toEqual(expect.arrayContaining(['ExternalProvisioning', 'Provisioning', 'ProvisioningSucceeded']));
  });

  it('releases the volume when its claim is deleted, and the provisioner deletes it (reclaimPolicy Delete)', () => {
    const c = storageCluster('1.30', [sc('cbs', 'Immediate')], [
      { at: 1_000_000, do: 'create', object: pvc('data', 'cbs') },
      { at: 20_000_000, do: 'delete', kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data' },
    ]);
    c.run(60_000_000);
    expect(c.api.list('PersistentVolume')).toEqual([]);
    expect(c.steps.some((s) => s.rpc?.method === '/csi.v1.Controller/DeleteVolume')).toBe(true);
    expect(logs(c, 'pv-controller')).toContainEqual(expect.stringMatching(/^"Volume is released and reclaim policy will be executed" logger="persistentvolume-binder-controller" volumeName="pvc-.*" reclaimPolicy="Delete"$/));
  });

  it('keeps a Released volume with reclaimPolicy Retain', () => {
    const c = storageCluster('1.20', [sc('cbs', 'Immediate', 'Retain')], [
      { at: 1_000_000, do: 'create', object: pvc('data', 'cbs') },
      { at: 20_000_000, do: 'delete', kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data' },
    ]);
    c.run(60_000_000);
    const [pv] = c.api.list('PersistentVolume');
    expect(pv?.status.phase).toBe('Released');
    expect(c.steps.some((s) => s.rpc?.method === '/csi.v1.Controller/DeleteVolume')).toBe(false);
  });

  it('repeats ExternalProvisioning every 15s while the claim waits, and stops once it is bound', () => {
    const c = storageCluster('1.20', [sc('cbs', 'Immediate')], [{ at: 1_000_000, do: 'create', object: pvc('data', 'cbs') }], [{ rpc: 'CreateVolume', code: 'INTERNAL', count: 5 }]);
    c.run(120_000_000);
    const ev = c.api.list('Event').find((e) => e.reason === 'ExternalProvisioning')!;
    expect(ev.count).toBeGreaterThan(2);
    const before = ev.count;
    c.run(300_000_000);
    expect(c.api.list('Event').find((e) => e.reason === 'ExternalProvisioning')!.count).toBe(before);
    expect(c.api.get('PersistentVolumeClaim', 'default', 'data')!.status.phase).toBe('Bound');
  });
});
