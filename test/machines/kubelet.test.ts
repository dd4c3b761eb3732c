import type { MessageCatalog } from '../../src/machines/shared/messages.ts';
import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { descriptor, kubeletMachine } from '../../src/machines/kubelet/index.ts';
import { uniqueVolumeName, volumeAttachmentName } from '../../src/machines/shared/names.ts';
import { getVolumesInUse } from '../../src/machines/kubelet/volumemanager/volumeManager.ts';
import type { DswVolume, Work } from '../../src/machines/kubelet/kubelet.types.ts';

const NODE = '11.142.60.212';
const DRIVER = 'com.tencent.cloud.csi.cbs';
const HANDLE = 'disk-adge0gvc';
const PV = 'pvc-4cde4524-6ba4-449c-891b-fe9ce8138e33';
const UNIQUE = uniqueVolumeName(DRIVER, HANDLE);
const VA = volumeAttachmentName(HANDLE, DRIVER, NODE);
const UID = 'e0d0fa80-cc4a-4d44-8fae-154aa8142e3a';
const input = {
  id: `kubelet/${NODE}`, host: NODE, profile: '1.20' as const, nodeName: NODE, nodeIP: NODE, kubeletRoot: '/data_online/1/kubelet',
  epochUs: 1_673_420_000_000_000, tz: { offsetMin: 480, zone: 'CST' }, monotonic: { processStartUs: 0, uptimeAtStartUs: 132_000_000_000 },
};
const pvc = { apiVersion: 'v1', kind: 'PersistentVolumeClaim' as const, metadata: { name: 'data-web-0', namespace: 'default' }, spec: { volumeName: PV }, status: { phase: 'Bound' } };
const pv = { apiVersion: 'v1', kind: 'PersistentVolume' as const, metadata: { name: PV }, spec: { accessModes: ['ReadWriteOnce'], claimRef: { namespace: 'default', name: 'data-web-0' }, csi: { driver: DRIVER, volumeHandle: HANDLE, fsType: 'ext4' } } };
const pod = { apiVersion: 'v1', kind: 'Pod' as const, metadata: { name: 'web-0', namespace: 'default', uid: UID }, spec: { nodeName: NODE, volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }] } };
const node = (attached: boolean) => ({ apiVersion: 'v1', kind: 'Node' as const, metadata: { name: NODE }, status: { volumesAttached: attached ? [{ name: UNIQUE, devicePath: '' }] : [] } });
const va = { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment' as const, metadata: { name: VA }, spec: { nodeName: NODE }, status: { attached: true } };

const isClaimGet = (e: any) => e.type === 'api.request' && e.verb === 'get' && (e.kind === 'PersistentVolumeClaim' || e.kind === 'PersistentVolume');

const isVaGet = (e: any): boolean => e.type === 'api.request' && e.verb === 'get' && e.kind === 'VolumeAttachment';

function harness() {
  const actor = createActor(kubeletMachine, { input });
  const emitted: any[] = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  let now = 0;
  const send = (e: any) => actor.send({ now, ...e });
  const timers = new Map<string, number>();
  const pending = () => emitted.filter((e) => (e.type === 'csi.call' || e.type === 'api.request') && !e.done);
  /** advance virtual time, firing requested timers in order */
  const advance = (to: number) => {
    for (;;) {
      for (const e of emitted) if (e.type === 'timer.requested' && !e.seen) { e.seen = true; timers.set(e.key, e.at); }
      const next = [...timers.entries()].filter(([, at]) => at <= to).sort((a, b) => a[1] - b[1])[0];
      if (!next) break;
      timers.delete(next[0]);
      now = Math.max(now, next[1]);
      send({ type: 'clock.ticked', key: next[0] });
    }
    now = to;
  };
  const answer = (pred: (e: any) => boolean, reply: (e: any) => any) => {
    const e = pending().find(pred);
    if (!e) throw new Error('no such pending request');
    e.done = true;
    now += 1000;
    send(reply(e));
    // (the API server answers MountDevice's and SetUp's GET of the VolumeAttachment, getPublishContext, with the test's)
    for (let g = pending().find(isVaGet); g; g = pending().find(isVaGet)) { g.done = true; send({ ...apiOk(g), object: va }); }
    return e;
  };
  /** advance in 100ms steps until a request matching pred is pending */
  const until = (pred: (e: any) => boolean, limit = 200_000_000) => {
    const end = now + limit;
    while (!pending().some(pred)) { if (now >= end) throw new Error('request never came'); advance(now + 100_000); }
  };
  const apiOk = (e: any) => ({ type: 'api.result', requestId: e.requestId, ok: true, code: 200, object: e.object ?? {} });
  const csiOk = (response: any = {}) => (e: any) => ({ type: 'csi.result', requestId: e.requestId, rpc: e.rpc, code: 'OK', response });
  const logs = () => emitted.filter((e) => e.type === 'log').map((e) => e.msg);
  const ackWrites = () => { for (const e of pending()) if (e.type === 'api.request' && e.verb !== 'get') { e.done = true; send(apiOk(e)); } };
  /** the API server answers the populator's pending GETs of PVCs and PVs from these objects (404 when absent), until none is left */
  const serveClaims = (objects: any[]) => {
    for (let e = pending().find(isClaimGet); e; e = pending().find(isClaimGet)) {
      const o = objects.find((x) => x.kind === e.kind && x.metadata.name === e.name && (x.metadata.namespace ?? undefined) === e.namespace);
      e.done = true;
      now += 1000;
      send(o ? { type: 'api.result', requestId: e.requestId, ok: true, code: 200, object: o }
        : { type: 'api.result', requestId: e.requestId, ok: false, code: 404, reason: 'NotFound', message: `${e.kind.toLowerCase()}s "${e.name}" not found` });
    }
  };
  const gets = (kind: string) => emitted.filter((e) => e.type === 'api.request' && e.verb === 'get' && e.kind === kind);
  const timersAsked = (key: string) => emitted.filter((e) => e.type === 'timer.requested' && e.key === key);
  return { actor, emitted, send, advance, until, answer, apiOk, csiOk, logs, pending, ackWrites, serveClaims, gets, timersAsked, get now() { return now; } };
}

/** A started kubelet with the driver registered (stage/unstage capable). */
function registered(existing: any[] = []) {
  const h = harness();
  const csiNodeGet = (e: any) => e.verb === 'get' && e.kind === 'CSINode';
  const notFound = (e: any) => ({ type: 'api.result', requestId: e.requestId, ok: false, code: 404, reason: 'NotFound', message: `csinodes.storage.k8s.io "${e.name}" not found` });
  h.send({ type: 'component.started' });
  // nodeinfomanager: GET CSINode, create it when missing
  h.answer(csiNodeGet, notFound);
  h.ackWrites();
  h.send({ type: 'plugin.socketCreated', path: `/var/lib/kubelet/plugins_registry/${DRIVER}-reg.sock`, owner: 'ndr' });
  h.answer((e) => e.rpc === 'GetInfo', h.csiOk({ type: 'CSIPlugin', name: DRIVER, endpoint: `/var/lib/kubelet/plugins/${DRIVER}/csi.sock`, supported_versions: ['1.0.0'] }));
  h.answer((e) => e.rpc === 'NodeGetInfo', h.csiOk({ node_id: 'ins-hrlnsway' }));
  h.ackWrites();
  // InstallCSIDriver: the Node is written, then CSINode is read and updated
  h.answer(csiNodeGet, (e: any) => ({ ...h.apiOk(e), object: { apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: 'node-1', resourceVersion: '7' }, spec: { drivers: existing } } }));
  h.ackWrites();
  h.answer((e) => e.rpc === 'NotifyRegistrationStatus', h.csiOk());
  return h;
}

const STAGE_CAPS = { capabilities: [{ Type: { Rpc: { type: 1 } } }] };

/** Runs the mount path to the pod Running; returns the harness. */
function mounted() {
  const h = registered();
  h.send({ type: 'watch.added', object: va });
  h.send({ type: 'watch.added', object: pod });
  h.serveClaims([pvc, pv]);
  h.advance(h.now + 10_000_000); // node status loop writes volumesInUse
  const status = h.pending().find((e) => e.verb === 'patchStatus' && e.kind === 'Node');
  h.answer((e) => e === status, h.apiOk);
  h.until((e) => e.verb === 'get' && e.kind === 'Node');
  h.answer((e) => e.verb === 'get' && e.kind === 'Node', (e) => ({ ...h.apiOk(e), object: node(true) }));
  h.advance(h.now + 200_000);
  h.answer((e) => e.rpc === 'NodeGetCapabilities', h.csiOk(STAGE_CAPS));
  h.answer((e) => e.rpc === 'NodeStageVolume', h.csiOk());
  h.serveClaims([pvc, pv]); // 1.20 reads the claim right after MountDevice: nothing to expand
  h.answer((e) => e.rpc === 'NodeGetCapabilities', h.csiOk(STAGE_CAPS));
  h.answer((e) => e.rpc === 'NodePublishVolume', h.csiOk());
  h.serveClaims([pvc, pv]); // the mount's GET of the claim: nothing to expand
  h.advance(h.now + 2_000_000);
  return h;
}

describe('kubelet', () => {
  it('registers a driver: GetInfo, NodeGetInfo, Node annotation and CSINode, then NotifyRegistrationStatus', () => {
    const h = registered();
    const calls = h.emitted.filter((e) => e.type === 'csi.call').map((e) => `${e.endpoint}:${e.rpc}`);
    expect(calls).toEqual(['registrar:GetInfo', 'node:NodeGetInfo', 'registrar:NotifyRegistrationStatus']);
    const nodePatch = h.emitted.find((e) => e.type === 'api.request' && e.kind === 'Node' && e.patch?.metadata?.annotations?.['csi.volume.kubernetes.io/nodeid']);
    expect(nodePatch.patch.metadata.annotations['csi.volume.kubernetes.io/nodeid']).toBe(`{"${DRIVER}":"ins-hrlnsway"}`);
    const csiNode = h.emitted.find((e) => e.type === 'api.request' && e.kind === 'CSINode' && e.verb === 'update');
    expect(csiNode.object.spec.drivers).toEqual([{ name: DRIVER, nodeID: 'ins-hrlnsway', topologyKeys: null }]);
    // the Node first, then CSINode (nodeinfomanager InstallCSIDriver)
    expect(h.emitted.indexOf(nodePatch)).toBeLessThan(h.emitted.indexOf(csiNode));
    expect(h.logs()).toEqual(expect.arrayContaining(['kubelet.validatePlugin', 'kubelet.registerPlugin']));
  });

  it('keeps the other drivers\' entries of a CSINode it finds, and writes nothing when its own entry is already there (installDriverToCSINode)', () => {
    const other = { name: 'other.csi.example.com', nodeID: 'other-1', topologyKeys: null };
    const h = registered([other]);
    const update = h.emitted.find((e) => e.type === 'api.request' && e.kind === 'CSINode' && e.verb === 'update');
    expect(update.object.spec.drivers.map((d: { name: string }) => d.name)).toEqual(['other.csi.example.com', DRIVER]);
    expect(update.object.metadata.resourceVersion).toBe('7');
    const again = registered([other, { name: DRIVER, nodeID: 'ins-hrlnsway', topologyKeys: null }]);
    expect(again.emitted.filter((e) => e.type === 'api.request' && e.kind === 'CSINode' && e.verb !== 'get')).toEqual([
      expect.objectContaining({ verb: 'create' }), // the start's, after its GET found none
    ]);
    expect(again.emitted.some((e) => e.type === 'csi.call' && e.rpc === 'NotifyRegistrationStatus')).toBe(true);
  });

  it('creates its CSINode at start only when the GET finds none', () => {
    const h = harness();
    h.send({ type: 'component.started' });
    h.answer((e) => e.verb === 'get' && e.kind === 'CSINode', (e: any) => ({ ...h.apiOk(e), object: { kind: 'CSINode', metadata: { name: 'node-1' }, spec: { drivers: [] } } }));
    expect(h.emitted.filter((e) => e.type === 'api.request' && e.kind === 'CSINode' && e.verb !== 'get')).toEqual([]);
  });

  it('marks its Node as controller-managed for attach/detach when it starts', () => {
    const h = harness();
    h.send({ type: 'component.started' });
    expect(h.emitted.find((e) => e.type === 'api.request' && e.verb === 'patch')).toMatchObject({ kind: 'Node', patch: { metadata: { annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' } } } });
  });

  it('fails VerifyControllerAttachedVolume until the volume is reported in use and attached, then mounts and runs the pod', () => {
    const h = registered();
    h.send({ type: 'watch.added', object: va });
    h.send({ type: 'watch.added', object: pod });
    h.serveClaims([pvc, pv]);
    h.advance(h.now + 150_000);
    const first = h.emitted.filter((e) => e.msg === 'kubelet.operationFailed')[0];
    expect(first.args.err).toBe(`Volume has not been added to the list of VolumesInUse in the node's volume status for volume "${PV}" (UniqueName: "${UNIQUE}") pod "web-0" (UID: "${UID}") `);
    expect(first.args.key).toBe(`{volumeName:${UNIQUE} podName: nodeName:}`);
    expect(first.args.duration).toBe('500ms');
    // node status loop reports volumesInUse
    h.advance(10_000_000);
    const status = h.pending().find((e) => e.verb === 'patchStatus' && e.kind === 'Node');
    expect(status.patch.status.volumesInUse).toEqual([UNIQUE]);
    h.answer((e) => e === status, h.apiOk);
    h.until((e) => e.verb === 'get' && e.kind === 'Node');
    h.answer((e) => e.verb === 'get' && e.kind === 'Node', (e) => ({ ...h.apiOk(e), object: node(false) }));
    const notAttached = h.emitted.filter((e) => e.msg === 'kubelet.operationFailed').at(-1);
    expect(notAttached.args.err).toMatch(/^Volume not attached according to node status for volume /);
    h.until((e) => e.verb === 'get' && e.kind === 'Node');
    h.answer((e) => e.verb === 'get' && e.kind === 'Node', (e) => ({ ...h.apiOk(e), object: node(true) }));
    h.advance(h.now + 200_000);
    h.answer((e) => e.rpc === 'NodeGetCapabilities', h.csiOk(STAGE_CAPS));
    const stage = h.answer((e) => e.rpc === 'NodeStageVolume', h.csiOk());
    expect(stage.request.staging_target_path).toBe(`/data_online/1/kubelet/plugins/kubernetes.io/csi/pv/${PV}/globalmount`);
    h.serveClaims([pvc, pv]);
    h.answer((e) => e.rpc === 'NodeGetCapabilities', h.csiOk(STAGE_CAPS));
    const publish = h.answer((e) => e.rpc === 'NodePublishVolume', h.csiOk());
    expect(publish.request.target_path).toBe(`/data_online/1/kubelet/pods/${UID}/volumes/kubernetes.io~csi/${PV}/mount`);
    h.serveClaims([pvc, pv]);
    h.advance(h.now + 2_000_000);
    // the first sync's status (Pending) went out before any volume was looked at; Running once the volume is mounted
    const podWrites = h.emitted.filter((e) => e.type === 'api.request' && e.kind === 'Pod' && e.verb === 'patchStatus');
    expect(podWrites.map((e) => e.patch.status.phase)).toEqual(['Pending', 'Running']);
    const seq = h.logs().filter((m) => ['kubelet.controllerAttachSucceeded', 'kubelet.mountVolumeStarted', 'kubelet.waitForAttachEntering', 'kubelet.waitForAttachSucceeded', 'kubelet.mountDeviceSucceeded', 'kubelet.setUpSucceeded'].includes(m));
    expect(seq).toEqual(['kubelet.controllerAttachSucceeded', 'kubelet.mountVolumeStarted', 'kubelet.waitForAttachEntering', 'kubelet.waitForAttachSucceeded', 'kubelet.mountDeviceSucceeded', 'kubelet.setUpSucceeded']);
  });

  describe('SyncPod\'s first status, before WaitForAttachAndMount (kubelet.go syncPod -> statusManager.SetPodStatus)', () => {
    const podWith = (extra: any) => ({ ...pod, spec: { ...pod.spec, containers: [{ name: 'web', image: 'nginx:1.25' }] }, ...extra });
    const podStatusWrites = (h: ReturnType<typeof harness>) => h.emitted.filter((e) => e.type === 'api.request' && e.kind === 'Pod' && e.verb === 'patchStatus');

    it('writes Pending with its containers waiting as ContainerCreating, from the status manager\'s own goroutine, before the populator\'s first GET', () => {
      const h = registered();
      const bound = podWith({ status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2023-01-11T06:50:00Z' }] } });
      h.send({ type: 'watch.added', object: bound });
      const requests = h.emitted.filter((e) => e.type === 'api.request');
      const write = podStatusWrites(h)[0];
      expect(requests.indexOf(write)).toBeLessThan(requests.findIndex(isClaimGet));
      expect(write.ownStream).toBe(true);
      const st = write.patch.status;
      expect(st.phase).toBe('Pending');
      expect(st.containerStatuses).toEqual([{ name: 'web', image: 'nginx:1.25', imageID: '', lastState: {}, ready: false, restartCount: 0, started: false, state: { waiting: { reason: 'ContainerCreating' } } }]);
      // (1.20 has no hostIPs: the field is 1.28's)
      expect(st.hostIP).toBe(NODE);
      expect(st.hostIPs).toBeUndefined();
      // 1.20: no PodReadyToStartContainers; Ready and ContainersReady False with generate.go's message; the binding's
      // PodScheduled keeps its lastTransitionTime (updateLastTransitionTime)
      expect(st.conditions.map((c: any) => `${c.type}=${c.status}`)).toEqual(['Initialized=True', 'Ready=False', 'ContainersReady=False', 'PodScheduled=True']);
      expect(st.conditions[1]).toMatchObject({ reason: 'ContainersNotReady', message: 'containers with unready status: [web]' });
      expect(st.conditions[3].lastTransitionTime).toBe('2023-01-11T06:50:00Z');
      expect(st.conditions[0].lastTransitionTime).toBe('2023-01-11T06:53:20Z');
      expect(st.startTime).toBe(st.conditions[0].lastTransitionTime);
    });

    it('1.30 adds PodReadyToStartContainers False first (a beta gate on by default since 1.29), and hostIPs (PodHostIPs, GA)', () => {
      const actor = createActor(kubeletMachine, { input: { ...input, profile: '1.30' as const } });
      const out: any[] = [];
      actor.on('*', (e) => out.push(e));
      actor.start();
      actor.send({ type: 'component.started', now: 0 } as any);
      actor.send({ type: 'watch.added', now: 1000, object: podWith({ status: { phase: 'Pending' } }) } as any);
      const write = out.find((e) => e.type === 'api.request' && e.kind === 'Pod' && e.verb === 'patchStatus');
      expect(write.patch.status.conditions.map((c: any) => `${c.type}=${c.status}`)).toEqual(['PodReadyToStartContainers=False', 'Initialized=True', 'Ready=False', 'ContainersReady=False', 'PodScheduled=True']);
      expect(write.patch.status.hostIPs).toEqual([{ ip: NODE }]);
    });

    it('takes hostIP from the Node its lister holds (GetNodeHostIPs: the first InternalIP before any ExternalIP), else from its initialNode\'s IP', () => {
      const actor = createActor(kubeletMachine, { input: { ...input, profile: '1.30' as const, nodeName: 'node-1', nodeIP: '10.0.9.9' } });
      const out: any[] = [];
      actor.on('*', (e) => out.push(e));
      actor.start();
      actor.send({ type: 'component.started', now: 0 } as any);
      const onNode1 = (name: string, uid: string) => podWith({ metadata: { ...pod.metadata, name, uid }, spec: { ...pod.spec, nodeName: 'node-1', containers: [{ name: 'web' }] }, status: { phase: 'Pending' } });
      const statusOf = (name: string) => out.find((e) => e.type === 'api.request' && e.kind === 'Pod' && e.verb === 'patchStatus' && e.name === name)?.patch.status;
      // no Node in the lister yet: the kubelet's own node IP
      actor.send({ type: 'watch.added', now: 1000, object: onNode1('web-0', 'u-0') } as any);
      expect(statusOf('web-0')).toMatchObject({ hostIP: '10.0.9.9', hostIPs: [{ ip: '10.0.9.9' }] });
      // the Node's addresses: ExternalIP listed first, a Hostname, then the InternalIP, which wins
      const addresses = [{ type: 'ExternalIP', address: '203.0.113.7' }, { type: 'Hostname', address: 'node-1' }, { type: 'InternalIP', address: '10.0.1.11' }];
      actor.send({ type: 'watch.added', now: 2000, object: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, status: { addresses } } } as any);
      actor.send({ type: 'watch.added', now: 3000, object: onNode1('web-1', 'u-1') } as any);
      expect(statusOf('web-1')).toMatchObject({ hostIP: '10.0.1.11', hostIPs: [{ ip: '10.0.1.11' }] });
      // neither the Node nor the kubelet knows an IP: no hostIP at all (never the node's name)
      const bare = createActor(kubeletMachine, { input: { ...input, profile: '1.30' as const, nodeName: 'node-1', nodeIP: undefined } });
      const bareOut: any[] = [];
      bare.on('*', (e) => bareOut.push(e));
      bare.start();
      bare.send({ type: 'component.started', now: 0 } as any);
      bare.send({ type: 'watch.added', now: 1000, object: onNode1('web-2', 'u-2') } as any);
      const st = bareOut.find((e) => e.type === 'api.request' && e.kind === 'Pod' && e.verb === 'patchStatus').patch.status;
      expect(['hostIP' in st, 'hostIPs' in st]).toEqual([false, false]);
    });

    it('writes none for a pod another kubelet process already synced (containerStatuses), nor for a pod being deleted', () => {
      const h = registered();
      h.send({ type: 'watch.added', object: podWith({ status: { phase: 'Running', containerStatuses: [{ name: 'web', state: { running: {} } }] } }) });
      h.send({ type: 'watch.added', object: podWith({ metadata: { ...pod.metadata, name: 'web-1', uid: 'u-2', deletionTimestamp: '2023-01-11T06:53:20Z' }, status: { phase: 'Running', containerStatuses: [{ name: 'web', state: { running: {} } }] } }) });
      expect(podStatusWrites(h)).toEqual([]);
    });

    it('writes it again at the status manager\'s next sync when the write failed', () => {
      const h = registered();
      h.send({ type: 'watch.added', object: podWith({ status: { phase: 'Pending' } }) });
      const first = podStatusWrites(h)[0];
      h.answer((e) => e === first, (e) => ({ type: 'api.result', requestId: e.requestId, ok: false, code: 500, reason: 'InternalError', message: 'etcdserver: request timed out' }));
      expect(podStatusWrites(h)).toHaveLength(1);
      h.advance(h.now + 10_000_000);
      expect(podStatusWrites(h)).toHaveLength(2);
      expect(podStatusWrites(h)[1].patch.status.phase).toBe('Pending');
    });
  });

  it('a pod being deleted that a starting kubelet finds with no running container is terminated: none of its volumes added, deleted at once (IsPodTerminated, notRunning)', () => {
    const deleted = { ...pod, metadata: { ...pod.metadata, deletionTimestamp: '2023-01-11T06:58:08Z' } };
    const run = (containerStatuses: unknown[] | undefined) => {
      const h = registered();
      h.send({ type: 'watch.added', object: { ...deleted, status: { phase: 'Running', ...(containerStatuses ? { containerStatuses } : {}) } } });
      h.serveClaims([pvc, pv]);
      h.advance(h.now + 100_000);
      const deletes = h.emitted.filter((e) => e.type === 'api.request' && e.verb === 'delete' && e.kind === 'Pod').length;
      return { deletes, claimGets: h.gets('PersistentVolumeClaim').length };
    };
    const c = (state: Record<string, unknown>) => ({ name: 'app', state });
    // every container terminated or waiting, or none listed: terminated
    for (const statuses of [[c({ terminated: { exitCode: 0 } })], [c({ waiting: { reason: 'ContainerCreating' } })], [c({ terminated: {} }), c({ waiting: {} })], undefined]) {
      expect(run(statuses), JSON.stringify(statuses)).toEqual({ deletes: 1, claimGets: 0 });
    }
    // a container still running: the kubelet kills it first, and looks the volumes up meanwhile
    for (const statuses of [[c({ running: { startedAt: 'x' } })], [c({ terminated: {} }), c({ running: {} })]]) {
      expect(run(statuses).deletes, JSON.stringify(statuses)).toBe(0);
    }
  });

  it('tears down in order on pod deletion: the containers\' terminated status, unpublish, unstage, forget the volume, then (1.20) the final delete at the status manager\'s next syncBatch', () => {
    const h = mounted();
    h.send({ type: 'watch.modified', object: { ...pod, metadata: { ...pod.metadata, deletionTimestamp: '2023-01-11T06:58:08Z' } }, oldObject: pod });
    h.advance(h.now + 1_200_000);
    h.answer((e) => e.rpc === 'NodeUnpublishVolume', h.csiOk());
    h.advance(h.now + 200_000);
    h.answer((e) => e.rpc === 'NodeGetCapabilities', h.csiOk(STAGE_CAPS));
    h.answer((e) => e.rpc === 'NodeUnstageVolume', h.csiOk());
    h.advance(h.now + 200_000);
    const order = () => h.emitted.filter((e) => (e.type === 'log' && ['kubelet.tearDownSucceeded', 'kubelet.unmountDeviceStarted', 'kubelet.unmountDeviceSucceeded', 'kubelet.volumeDetached'].includes(e.msg))
      || (e.type === 'api.request' && (e.verb === 'delete' || (e.verb === 'patchStatus' && e.kind === 'Pod'))))
      .map((e) => e.msg ?? (e.verb === 'delete' ? `delete ${e.kind} grace ${e.gracePeriodSeconds}` : `status Ready=${e.patch.status.conditions?.find((c: any) => c.type === 'Ready')?.status}`));
    const torn = ['status Ready=False', 'kubelet.tearDownSucceeded', 'kubelet.unmountDeviceStarted', 'kubelet.unmountDeviceSucceeded', 'kubelet.volumeDetached'];
    // the pod's volumes are gone, but nothing syncs its status until the next tick (every 10s from the process
    // start: an uptime of 132000s puts the ticks on whole tens of seconds of virtual time)
    expect(order().slice(-5)).toEqual(torn);
    const tick = Math.ceil((h.now + 1) / 10_000_000) * 10_000_000;
    h.advance(tick - 1);
    expect(order().slice(-5)).toEqual(torn);
    h.advance(tick);
    expect(order().slice(-6)).toEqual([...torn, 'delete Pod grace 0']);
    expect(h.emitted.find((e) => e.msg === 'kubelet.volumeDetached').args.devicePath).toBe(VA);
  });

  it('writes the stopped containers\' status as each release does: 1.20 keeps a restartPolicy Always pod Running (getPhase, ContainersNotReady); 1.30 the terminal phase Succeeded with PodCompleted conditions (SyncTerminatingPod, generateAPIPodStatus(…, true)), in generateAPIPodStatus\'s order', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const written = (k8s: '1.20' | '1.30') => {
      const st = runScenario('teardown', { k8s }).steps.find((s) => s.instance === 'kubelet/node-1' && s.api?.verb === 'patchStatus' && s.api.kind === 'Pod')!;
      const after = st.objects![0]!.after!;
      return { phase: after.status.phase, at: st.t, conditions: (after.status.conditions as Array<Record<string, string>>).map((c) => `${c.type}=${c.status}${c.reason ? '/' + c.reason : ''}`), times: Object.fromEntries((after.status.conditions as Array<Record<string, string>>).map((c) => [c.type, c.lastTransitionTime])), containers: after.status.containerStatuses };
    };
    const old = written('1.20');
    expect(old.phase).toBe('Running');
    expect(old.conditions).toEqual(['Initialized=True', 'Ready=False/ContainersNotReady', 'ContainersReady=False/ContainersNotReady', 'PodScheduled=True']);
    const now = written('1.30');
    expect(now.phase).toBe('Succeeded');
    expect(now.conditions).toEqual(['PodReadyToStartContainers=False', 'Initialized=True/PodCompleted', 'Ready=False/PodCompleted', 'ContainersReady=False/PodCompleted', 'PodScheduled=True']);
    expect(now.containers.map((c: any) => [c.state.terminated?.exitCode, c.state.terminated?.reason, c.ready, c.started])).toEqual([[0, 'Completed', false, false]]);
    // a condition whose status did not change keeps the time it last changed (updateLastTransitionTime)
    expect(now.times.Initialized).toBe(now.times.PodScheduled);
    expect(now.times.Ready).not.toBe(now.times.Initialized);
    expect(now.times.Ready).toBe(now.times.PodReadyToStartContainers);
  });

  it('writes a running pod\'s conditions in generateAPIPodStatus\'s order, 1.30 with the sandbox\'s PodReadyToStartContainers first, after any condition it does not own (mergePodStatus)', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const running = (k8s: '1.20' | '1.30') => runScenario('attach', { k8s }).steps.map((s) => s.api?.verb === 'patchStatus' && s.api.kind === 'Pod' && s.objects?.[0]?.after?.status?.phase === 'Running' ? s.objects[0].after : undefined).find(Boolean)!;
    expect(running('1.20').status.conditions.map((c: any) => c.type)).toEqual(['Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);
    expect(running('1.30').status.conditions.map((c: any) => `${c.type}=${c.status}`)).toEqual(['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True']);
    // a condition another component owns stays, ahead of the kubelet's; each of the kubelet's keeps the time it last
    // changed unless its status changes now
    const h = mounted();
    const conditions = [{ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager' }, { type: 'Initialized', status: 'True', lastTransitionTime: '2023-01-11T06:00:01Z' },
      { type: 'Ready', status: 'True', lastTransitionTime: '2023-01-11T06:00:02Z' }, { type: 'ContainersReady', status: 'True', lastTransitionTime: '2023-01-11T06:00:03Z' }, { type: 'PodScheduled', status: 'True', lastTransitionTime: '2023-01-11T06:00:04Z' }];
    h.send({ type: 'watch.modified', object: { ...pod, status: { conditions }, metadata: { ...pod.metadata, deletionTimestamp: '2023-01-11T06:58:08Z' } }, oldObject: pod });
    h.advance(h.now + 1_200_000);
    const patch = h.emitted.filter((e) => e.type === 'api.request' && e.verb === 'patchStatus' && e.kind === 'Pod').at(-1);
    expect(patch.patch.status.conditions.map((c: any) => c.type)).toEqual(['DisruptionTarget', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);
    const at = Object.fromEntries(patch.patch.status.conditions.map((c: any) => [c.type, c.lastTransitionTime]));
    expect([at.Initialized, at.PodScheduled]).toEqual(['2023-01-11T06:00:01Z', '2023-01-11T06:00:04Z']);
    expect(at.Ready).not.toBe('2023-01-11T06:00:02Z');
    expect(at.Ready).toBe(at.ContainersReady);
  });

  it('posts the node\'s conditions as its setters do, MemoryPressure, DiskPressure, PIDPressure then Ready (nodestatus/setters.go)', () => {
    const h = registered();
    const nodeWrites = () => h.emitted.filter((e) => e.type === 'api.request' && e.verb === 'patchStatus' && e.kind === 'Node' && e.patch.status.conditions);
    const first = nodeWrites()[0].patch.status.conditions;
    expect(first.map((c: any) => `${c.type}=${c.status}/${c.reason}`)).toEqual(['MemoryPressure=False/KubeletHasSufficientMemory', 'DiskPressure=False/KubeletHasNoDiskPressure', 'PIDPressure=False/KubeletHasSufficientPID', 'Ready=True/KubeletReady']);
  });

  it('keeps the device uncertain after NodeStageVolume times out and retries it with backoff', () => {
    const h = registered();
    h.send({ type: 'watch.added', object: va });
    h.send({ type: 'watch.added', object: pod });
    h.serveClaims([pvc, pv]);
    h.advance(10_000_000);
    h.answer((e) => e.verb === 'patchStatus' && e.kind === 'Node', h.apiOk);
    h.until((e) => e.verb === 'get' && e.kind === 'Node');
    h.answer((e) => e.verb === 'get' && e.kind === 'Node', (e) => ({ ...h.apiOk(e), object: node(true) }));
    h.advance(h.now + 200_000);
    h.answer((e) => e.rpc === 'NodeGetCapabilities', h.csiOk(STAGE_CAPS));
    h.answer((e) => e.rpc === 'NodeStageVolume', (e) => ({ type: 'csi.result', requestId: e.requestId, rpc: e.rpc, code: 'DEADLINE_EXCEEDED', message: 'context deadline exceeded' }));
    expect(h.actor.getSnapshot().context.asw[UNIQUE]!.deviceState).toBe('DeviceMountUncertain');
    const failed = h.emitted.filter((e) => e.msg === 'kubelet.operationFailed').at(-1);
    expect(failed.args.err).toContain('MountVolume.MountDevice failed for volume');
    expect(failed.args.err).toContain('rpc error: code = DeadlineExceeded desc = context deadline exceeded');
    expect(h.emitted.find((e) => e.type === 'event.recorded')).toMatchObject({ reason: 'FailedMount', eventType: 'Warning' });
    const stagesBefore = h.emitted.filter((e) => e.rpc === 'NodeStageVolume').length;
    h.until((e) => e.rpc === 'NodeGetCapabilities');
    h.answer((e) => e.rpc === 'NodeGetCapabilities', h.csiOk(STAGE_CAPS));
    expect(h.emitted.filter((e) => e.rpc === 'NodeStageVolume').length).toBe(stagesBefore + 1);
  });

  it('records FailedMount after 2m3s on 1.20 when the volume never gets attached', () => {
    const h = registered();
    h.send({ type: 'watch.added', object: pod });
    h.serveClaims([pvc, pv]);
    h.advance(123_100_000);
    const ev = h.emitted.find((e) => e.type === 'event.recorded' && e.message.startsWith('Unable to attach'));
    expect(ev.message).toBe('Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data]: timed out waiting for the condition');
  });

  it('on 1.20 "unattached volumes" lists every volume of the pod, attached or not (getUnattachedVolumes, kubernetes#82075, fixed in 1.26)', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const texts = (k8s: '1.20') => runScenario('mount-failure', { k8s }).steps.filter((st) => st.kind === 'event' && /Unable to attach or mount/.test(st.summary)).map((st) => st.summary.replace(/.*: Unable/, 'Unable'));
    // the volume is attached and its MountDevice is what hangs: the list still names it
    expect(texts('1.20')[0]).toBe('Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data]: timed out waiting for the condition');
  });

  it('watches no PersistentVolumes or PersistentVolumeClaims: only its own Pods, Node and VolumeAttachments, and CSIDrivers', () => {
    expect(descriptor.watches).toEqual(['Pod', 'Node', 'VolumeAttachment', 'CSIDriver']);
    expect(descriptor.nodeScoped).toEqual(['Pod', 'Node', 'VolumeAttachment']);
  });

  it('GETs the claim of a new pod, then the PV the claim is bound to, and adds the volume to the desired state', () => {
    const h = registered();
    h.send({ type: 'watch.added', object: pod });
    expect(h.gets('PersistentVolumeClaim').map((e) => `${e.namespace}/${e.name}`)).toEqual(['default/data-web-0']);
    expect(h.gets('PersistentVolume')).toEqual([]);
    expect(h.actor.getSnapshot().context.dsw).toEqual({});
    h.serveClaims([pvc, pv]);
    expect(h.gets('PersistentVolume').map((e) => e.name)).toEqual([PV]);
    const d = h.actor.getSnapshot().context.dsw[UNIQUE]!;
    expect(d).toMatchObject({ pvName: PV, driver: DRIVER, handle: HANDLE, fsType: 'ext4', attachable: true, reportedInUse: false });
    expect(d.pods).toEqual({ [UID]: { podName: 'web-0', namespace: 'default', outerName: 'data' } });
    expect(h.emitted.filter((e) => e.msg === 'kubelet.addedVolumeToDesiredState').map((e) => e.args)).toEqual([{ kpod: 'default/web-0', podUid: UID, outerName: 'data', volume: PV }]);
    expect(h.actor.getSnapshot().context.processedPods).toEqual({ [UID]: true });
  });

  it('retries a claim that is not bound yet at the next 100ms populator loop, and stops the loop once it is resolved', () => {
    const h = registered();
    h.send({ type: 'watch.added', object: pod });
    const pending = { ...pvc, spec: {}, status: { phase: 'Pending' } };
    h.serveClaims([pending, pv]);
    expect(h.gets('PersistentVolume')).toEqual([]);
    expect(h.actor.getSnapshot().context.dsw).toEqual({});
    const loop = h.timersAsked('populator');
    expect(loop).toHaveLength(1);
    expect(loop[0].at % 100_000).toBe(0);
    expect(loop[0].at).toBeGreaterThan(h.now);
    h.advance(loop[0].at);
    expect(h.gets('PersistentVolumeClaim')).toHaveLength(2);
    h.serveClaims([pending, pv]); // still Pending: one more loop
    h.advance(h.now + 100_000);
    expect(h.gets('PersistentVolumeClaim')).toHaveLength(3);
    h.serveClaims([pvc, pv]); // bound now
    expect(h.actor.getSnapshot().context.dsw[UNIQUE]?.pods[UID]).toBeDefined();
    const asked = h.timersAsked('populator').length;
    h.advance(h.now + 5_000_000);
    expect(h.timersAsked('populator')).toHaveLength(asked);
    expect(h.gets('PersistentVolumeClaim')).toHaveLength(3);
  });

  it('retries when the bound PV is not found, without reading a resolved pod again', () => {
    const h = registered();
    h.send({ type: 'watch.added', object: pod });
    h.serveClaims([pvc]); // the PV GET answers 404
    expect(h.gets('PersistentVolume')).toHaveLength(1);
    expect(h.actor.getSnapshot().context.dsw).toEqual({});
    h.advance(h.now + 100_000);
    h.serveClaims([pvc, pv]);
    expect(h.gets('PersistentVolume')).toHaveLength(2);
    expect(h.actor.getSnapshot().context.dsw[UNIQUE]).toBeDefined();
    // an update that keeps the pod's claims does not make the populator read them again (processedPods)
    h.send({ type: 'watch.modified', object: { ...pod, status: { phase: 'Running' } }, oldObject: pod });
    h.advance(h.now + 1_000_000);
    expect(h.gets('PersistentVolumeClaim')).toHaveLength(2);
  });

  it('processes a pod again when its claims change, and takes a deleted pod out of the desired state', () => {
    const h = registered();
    h.send({ type: 'watch.added', object: pod });
    h.serveClaims([pvc, pv]);
    const other = { ...pvc, metadata: { ...pvc.metadata, name: 'other' } };
    const changed = { ...pod, spec: { ...pod.spec, volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'other' } }] } };
    h.send({ type: 'watch.modified', object: changed, oldObject: pod });
    expect(h.gets('PersistentVolumeClaim').map((e) => e.name)).toEqual(['data-web-0', 'other']);
    h.serveClaims([other, pv]);
    expect(h.actor.getSnapshot().context.dsw[UNIQUE]?.pods[UID]).toBeDefined();
    h.send({ type: 'watch.deleted', object: changed });
    expect(h.actor.getSnapshot().context.dsw).toEqual({});
    expect(h.actor.getSnapshot().context.processedPods).toEqual({});
    expect(h.gets('PersistentVolumeClaim')).toHaveLength(2);
  });

  it('reaches every state', () => {
    const paths = getShortestPaths(kubeletMachine, {
      input,
      events: [{ type: 'component.started', now: 0 }, { type: 'host.shutdown', now: 1 }] as any,
      serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
    } as any);
    const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    expect(reached).toEqual(new Set([JSON.stringify('stopped'), JSON.stringify('running')]));
  });
});

describe('kubelet log catalog', () => {
  it('renders the 1.20 lines of seed 000 word for word', async () => {
    const { messages } = await import('../../src/machines/kubelet/index.ts');
    const { renderMessage } = await import('../../src/machines/shared/messages.ts');
    const u = 'kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-adge0gvc';
    const r = (id: keyof typeof messages, args: any) => renderMessage((messages as MessageCatalog)[id]!.formats['1.20']!, args);
    expect(r('kubelet.unmountDeviceSucceeded', { volume: 'pvc-XXX', uniqueName: u, node: '11.142.61.164' }))
      .toBe(`UnmountDevice succeeded for volume "pvc-XXX" %!(EXTRA string=UnmountDevice succeeded for volume "pvc-XXX" (UniqueName: "${u}") on node "11.142.61.164" )`);
    expect(r('kubelet.operationFailed', { key: `{volumeName:${u} podName: nodeName:}`, until: '2023-01-11 14:58:26.403619698 +0800 CST m=+132533.580022731', duration: '4s', err: `Volume not attached according to node status for volume "pvc-4" (UniqueName: "${u}") pod "p" (UID: "e0") ` }))
      .toBe(`Operation for "{volumeName:${u} podName: nodeName:}" failed. No retries permitted until 2023-01-11 14:58:26.403619698 +0800 CST m=+132533.580022731 (durationBeforeRetry 4s). Error: "Volume not attached according to node status for volume \\"pvc-4\\" (UniqueName: \\"${u}\\") pod \\"p\\" (UID: \\"e0\\") "`);
  });
});

describe('GetVolumesInUse (volume_manager.go): the attachable volumes of the desired and actual state of world, sorted', () => {
  // (it keeps its last answer while the names are the same ones: the memo must never hide a change of names)
  const vol = (name: string, attachable = true) => ({ uniqueName: name, attachable }) as unknown as DswVolume;
  // (each call a new write of both tables, as own() counts it)
  const versions = { dsw: 0, asw: 0 };
  const work = (input: object, dsw: Record<string, DswVolume>, asw: Record<string, DswVolume>) => {
    versions.dsw++; versions.asw++;
    return { c: { input, dsw, asw, versions } } as unknown as Work;
  };

  it('lists each attachable volume once, sorted, and follows a volume replaced by another of the same count', () => {
    const input = {};
    expect(getVolumesInUse(work(input, { b: vol('b'), a: vol('a'), n: vol('n', false) }, { a: vol('a'), c: vol('c') }))).toEqual(['a', 'b', 'c']);
    // a mount's state changed (new tables, the same names): the same list
    expect(getVolumesInUse(work(input, { b: vol('b'), a: vol('a') }, { a: vol('a'), c: vol('c') }))).toEqual(['a', 'b', 'c']);
    // one desired volume replaced by another, the count unchanged
    expect(getVolumesInUse(work(input, { d: vol('d'), a: vol('a') }, { a: vol('a'), c: vol('c') }))).toEqual(['a', 'c', 'd']);
    // one actual volume replaced by another
    expect(getVolumesInUse(work(input, { d: vol('d'), a: vol('a') }, { a: vol('a'), e: vol('e') }))).toEqual(['a', 'd', 'e']);
    // one gone
    expect(getVolumesInUse(work(input, { d: vol('d') }, { a: vol('a') }))).toEqual(['a', 'd']);
    // a volume no longer attachable
    expect(getVolumesInUse(work(input, { d: vol('d', false) }, { a: vol('a') }))).toEqual(['a']);
  });
});
