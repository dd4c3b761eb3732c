import { describe, expect, it } from 'vitest';
import { runScenario, scenarioFile, scenarioFromManifests, SCENARIOS } from '../../src/machines/index.ts';
import type { Trace } from '../../src/machines/cluster/trace.ts';
import type { K8sObject } from '../../src/machines/shared/k8s.ts';

const KLOG = /^(?:[A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} \S+ \S+\[\d+\]: )?[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{6} {1,7}\d+ [\w.-]+\.go:\d+\] \S/;

const objs = (t: Trace, kind: string): K8sObject[] => t.final.objects.filter((o) => o.kind === kind);
const get = (t: Trace, kind: string, name: string): K8sObject | undefined => objs(t, kind).find((o) => o.metadata.name === name);
const running = (t: Trace, name: string): boolean => get(t, 'Pod', name)?.status?.phase === 'Running';
const attachedVAs = (t: Trace): K8sObject[] => objs(t, 'VolumeAttachment').filter((v) => v.status?.attached);
const logged = (t: Trace, re: RegExp): boolean => t.steps.some((s) => s.log && re.test(s.log));

/** What each scenario must end with, per profile: read from the final objects and the log. */
const outcomes: Record<string, (t: Trace) => void> = {
  provision: (t) => {
    const claim = get(t, 'PersistentVolumeClaim', 'data')!;
    expect(claim.status.phase).toBe('Bound');
    const pv = get(t, 'PersistentVolume', claim.spec.volumeName)!;
    expect(pv.metadata.name).toBe(`pvc-${claim.metadata.uid}`);
    expect(pv.status.phase).toBe('Bound');
    expect(pv.metadata.annotations?.['pv.kubernetes.io/provisioned-by']).toBe('com.tencent.cloud.csi.cbs');
  },
  'provision-retry': (t) => {
    const claim = get(t, 'PersistentVolumeClaim', 'data')!;
    expect(claim.status.phase).toBe('Bound');
    const calls = t.steps.filter((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/CreateVolume');
    expect(calls).toHaveLength(3);
    // every retry asks for the same name, the claim's volume name: CreateVolume is idempotent by name
    expect(new Set(calls.map((s) => (s.rpc?.request as { name?: string } | undefined)?.name))).toEqual(new Set([`pvc-${claim.metadata.uid}`]));
    // cut off at csi-provisioner's --timeout (10s, cmd/csi-provisioner/csi-provisioner.go), kept in progress
    const failed = t.steps.filter((s) => s.log?.includes('CreateVolume failed'));
    expect(failed).toHaveLength(2);
    expect(failed.every((s) => s.log!.includes('state = Background'))).toBe(true);
    expect(failed[0]!.t - calls[0]!.t).toBeGreaterThanOrEqual(10_000);
    expect(failed[0]!.t - calls[0]!.t).toBeLessThan(10_100);
    expect(t.steps.filter((s) => s.kind === 'event' && s.summary.includes('ProvisioningFailed'))).toHaveLength(2);
    expect(logged(t, /error syncing claim "[0-9a-f-]{36}": failed to provision volume with StorageClass "standard": rpc error: code = DeadlineExceeded/)).toBe(true);
    expect(objs(t, 'PersistentVolume')).toHaveLength(1);
  },
  'provision-failed': (t) => {
    expect(get(t, 'PersistentVolumeClaim', 'data')!.status.phase).toBe('Pending');
    expect(objs(t, 'PersistentVolume')).toHaveLength(0);
    const failed = t.steps.filter((s) => s.log?.includes('CreateVolume failed'));
    expect(failed.length).toBeGreaterThanOrEqual(6);
    expect(failed.every((s) => s.log!.includes('state = Finished'))).toBe(true);
    // the sidecar never gives up (FailedProvisionThreshold(0)); its delays double from 1s
    const starts = t.steps.filter((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/CreateVolume').map((s) => s.t);
    const gaps = failed.slice(0, starts.length - 1).map((f, i) => Math.round((starts[i + 1]! - f.t) / 1000));
    expect(gaps.slice(0, 6)).toEqual([1, 2, 4, 8, 16, 32]);
    expect(t.steps.filter((s) => s.kind === 'event' && s.summary.includes('ProvisioningFailed')).length).toBe(failed.length);
  },
  'attach-failure': (t) => {
    expect(running(t, 'web-0')).toBe(true);
    expect(attachedVAs(t)).toHaveLength(1);
    const va = attachedVAs(t)[0]!;
    expect(va.status.attachError ?? null).toBe(null);
    const calls = t.steps.filter((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/ControllerPublishVolume');
    expect(calls).toHaveLength(3);
    // the errors went into status.attachError, in order, and the controller reported what it read there
    const saved = t.steps.filter((s) => s.objects?.some((o) => o.kind === 'VolumeAttachment' && o.after?.status?.attachError));
    expect(saved.length).toBeGreaterThanOrEqual(2);
    const failedAttach = t.steps.filter((s) => s.kind === 'event' && s.summary.includes('FailedAttachVolume')).map((s) => /code = (\w+)/.exec(s.summary)?.[1]);
    expect(failedAttach[0]).toBe('DeadlineExceeded');
    expect(failedAttach).toContain('Internal');
    // external-attacher's --timeout is 15s (cmd/csi-attacher/main.go)
    const firstError = t.steps.find((s) => s.msg === 'externalAttacher.grpcResponseVA')!;
    expect(t.steps.find((s) => s.msg === 'externalAttacher.savingAttachError')!.t).toBeGreaterThanOrEqual(firstError.t);
    expect(firstError.t - calls[0]!.t).toBeGreaterThanOrEqual(15_000);
    expect(firstError.t - calls[0]!.t).toBeLessThan(15_100);
  },
  'no-attach': (t) => {
    // attachRequired: false: nothing is attached, so neither the attach/detach controller nor an
    // external-attacher has anything to do (csi_plugin.go skipAttach), and without STAGE_UNSTAGE_VOLUME
    // the kubelet publishes straight away (csi_attacher.go MountDevice skips NodeStageVolume)
    expect(objs(t, 'VolumeAttachment')).toEqual([]);
    for (const rpc of ['ControllerPublishVolume', 'ControllerUnpublishVolume', 'NodeStageVolume', 'NodeUnstageVolume']) {
      expect(t.steps.some((s) => s.rpc?.method.endsWith(`/${rpc}`)), rpc).toBe(false);
    }
    expect(t.steps.some((s) => s.msg === 'attachDetachController.attachVolumeStarted')).toBe(false);
    // one ReadWriteMany volume, published on both nodes, then unpublished from node-1 only
    const pv = objs(t, 'PersistentVolume');
    expect(pv).toHaveLength(1);
    // csi-driver-nfs: server#share#subdir#uuid#onDelete, and capacity_bytes 0 leaves the PV the claim's size
    expect(pv[0]!.spec.csi.volumeHandle).toBe(`nfs-server.default.svc.cluster.local##${pv[0]!.metadata.name}##`);
    expect(pv[0]!.spec.capacity.storage).toBe('10Gi');
    expect(pv[0]!.spec.csi.fsType).toBeUndefined();
    expect(pv[0]!.spec.mountOptions).toEqual(['nfsvers=4.1']);
    const publishes = t.steps.filter((s) => s.rpc?.method.endsWith('/NodePublishVolume') && s.kind === 'rpc');
    expect(new Set(publishes.map((s) => s.host))).toEqual(new Set(['node-1', 'node-2']));
    const unpublishes = t.steps.filter((s) => s.rpc?.method.endsWith('/NodeUnpublishVolume') && s.kind === 'rpc');
    expect(new Set(unpublishes.map((s) => s.host))).toEqual(new Set(['node-1']));
    // the mount options travel as mount_flags, and the node mounts <server>:<share>/<subdir>
    expect(logged(t, /NodePublishVolume: volumeID\(\S+\) source\(nfs-server\.default\.svc\.cluster\.local:\/pvc-[0-9a-f-]+\) targetPath\(\/var\/lib\/kubelet\/pods\/\S+\/mount\) mountflags\(\[nfsvers=4\.1\]\)/)).toBe(true);
    expect(logged(t, /internally mounting nfs-server\.default\.svc\.cluster\.local:\/ at \/tmp\/pvc-/)).toBe(true);
    expect(get(t, 'Pod', 'writer-a')).toBeUndefined();
    expect(running(t, 'writer-b')).toBe(true);
    expect(get(t, 'PersistentVolumeClaim', 'shared')?.status?.phase).toBe('Bound');
  },
  register: (t) => {
    // pkg/volume/csi/nodeinfomanager: the NodeGetInfo answer ends up on the Node (node ID annotation,
    // topology labels) and in CSINode (nodeID, topologyKeys, allocatable.count from max_volumes_per_node)
    const zones: Record<string, [string, string]> = { 'node-1': ['ins-3kq8d0vz', 'ap-guangzhou-3'], 'node-2': ['ins-7hw2pn4c', 'ap-guangzhou-4'] };
    for (const [node, [id, zone]] of Object.entries(zones)) {
      expect(get(t, 'CSINode', node)?.spec.drivers, node).toEqual([{ name: 'com.tencent.cloud.csi.cbs', nodeID: id, topologyKeys: ['topology.com.tencent.cloud.csi.cbs/zone'], allocatable: { count: 20 } }]);
      const n = get(t, 'Node', node)!;
      expect(n.metadata.labels?.['topology.com.tencent.cloud.csi.cbs/zone'], node).toBe(zone);
      expect(JSON.parse(n.metadata.annotations!['csi.volume.kubernetes.io/nodeid']!), node).toEqual({ 'com.tencent.cloud.csi.cbs': id });
      // in the story, in order: the registrar learns the name, the kubelet validates, registers, asks NodeGetInfo, notifies
      const order = ['/csi.v1.Identity/GetPluginInfo', 'GetInfo', '/csi.v1.Node/NodeGetInfo', 'NotifyRegistrationStatus'];
      const calls = t.steps.filter((s) => s.kind === 'rpc' && s.host === node).map((s) => s.rpc!.method);
      expect(order.map((m) => calls.findIndex((c) => c.endsWith(m)))).toEqual([0, 1, 2, 3]);
    }
    expect(t.steps[0]!.component).toBe('node-driver-registrar');
  },
  'driver-not-registered': (t) => {
    // until the node plugin registers, MountDevice cannot create a CSI client (csi_attacher.go
    // MountDevice, newCsiDriverClient): each attempt fails at once and the next waits twice as long
    // (nestedpendingoperations / exponentialbackoff: 500ms doubling)
    const failures = t.steps.filter((s) => s.log && /durationBeforeRetry (\S+)\). Error: "?MountVolume\.MountDevice failed for volume .*: kubernetes\.io\/csi: attacher\.MountDevice failed to create newCsiDriverClient: driver name nfs\.csi\.k8s\.io not found in the list of registered CSI drivers/.test(s.log));
    expect(failures.map((s) => /durationBeforeRetry (\S+)\)/.exec(s.log!)![1])).toEqual(['500ms', '1s', '2s', '4s', '8s', '16s']);
    expect(t.steps.filter((s) => s.kind === 'event' && /FailedMount/.test(s.summary)).length).toBe(failures.length);
    // then node-driver-registrar registers the driver with the kubelet, which asks NodeGetInfo and writes CSINode
    const registered = t.steps.findIndex((s) => s.kind === 'rpc' && s.rpc?.method.endsWith('/NotifyRegistrationStatus'));
    expect(registered).toBeGreaterThan(t.steps.indexOf(failures.at(-1)!));
    expect(get(t, 'CSINode', 'node-1')?.spec.drivers.map((d: { name: string }) => d.name)).toEqual(['nfs.csi.k8s.io']);
    // and the next retry mounts: no attach (attachRequired: false), no stage (no STAGE_UNSTAGE_VOLUME)
    const publish = t.steps.findIndex((s) => s.kind === 'rpc' && s.rpc?.method.endsWith('/NodePublishVolume'));
    expect(publish).toBeGreaterThan(registered);
    expect(t.steps[publish]!.t - failures.at(-1)!.t).toBeGreaterThanOrEqual(16_000);
    expect(objs(t, 'VolumeAttachment')).toEqual([]);
    expect(running(t, 'web-0')).toBe(true);
  },
  'attacher-missing': (t) => {
    expect(running(t, 'web-0')).toBe(false);
    expect(t.steps.some((s) => s.component === 'external-attacher')).toBe(false);
    const va = objs(t, 'VolumeAttachment');
    expect(va).toHaveLength(1);
    // the API server resets a new VolumeAttachment's status, and attached has no omitempty
    // (pkg/registry/storage/volumeattachment/strategy.go PrepareForCreate): no attacher, no other field
    expect(va[0]!.status).toEqual({ attached: false });
    expect(va[0]!.metadata.finalizers ?? []).toEqual([]);
    const timeouts = t.steps.filter((s) => s.kind === 'event' && s.summary.includes('FailedAttachVolume'));
    expect(timeouts.length).toBeGreaterThanOrEqual(2);
    const started = t.steps.find((s) => s.msg === 'attachDetachController.attachVolumeStarted')!;
    // the controller's CSI attacher waits csiTimeout, 2 minutes (pkg/volume/csi/csi_plugin.go), from
    // the VolumeAttachment's create request, a few µs after the operation started
    expect(timeouts[0]!.t - started.t).toBeGreaterThan(119_900);
    expect(timeouts[0]!.t - started.t).toBeLessThan(121_000);
    const wording = t.k8s === '1.20' ? /attachdetachment timeout for volume disk-r3t8v1n6/ : /timed out waiting for external-attacher of com\.tencent\.cloud\.csi\.cbs CSI driver to attach volume disk-r3t8v1n6/;
    expect(timeouts.every((s) => wording.test(s.summary))).toBe(true);
  },
  attach: (t) => {
    expect(attachedVAs(t)).toHaveLength(1);
    expect(running(t, 'web-0')).toBe(true);
    const n = get(t, 'Node', get(t, 'Pod', 'web-0')!.spec.nodeName)!;
    expect(n.status.volumesAttached).toHaveLength(1);
  },
  mount: (t) => {
    expect(running(t, 'web-0')).toBe(true);
    expect(t.steps.some((s) => s.rpc?.method === '/csi.v1.Node/NodeStageVolume')).toBe(true);
    expect(t.steps.some((s) => s.rpc?.method === '/csi.v1.Node/NodePublishVolume')).toBe(true);
  },
  fsgroup: (t) => {
    expect(running(t, 'web-0')).toBe(true);
    // the pod's fsGroup: after NodePublishVolume the kubelet's own walk (45 s here) holds SetUp back, and warns at 30 s
    const publish = t.steps.find((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Node/NodePublishVolume')!;
    const setUp = t.steps.find((s) => s.msg === 'kubelet.setUpSucceeded')!;
    expect(setUp.t - publish.t).toBeGreaterThan(45_000);
    expect(logged(t, /Setting volume ownership for \S+\/mount and fsGroup set/)).toBe(true);
    // the operation waited in its SetVolumeOwnership state
    expect(t.steps.some((s) => Object.values(s.states ?? {}).includes('setUp.setVolumeOwnership'))).toBe(true);
  },
  'mount-failure': (t) => {
    expect(running(t, 'web-0')).toBe(true);
    const stages = t.steps.filter((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Node/NodeStageVolume');
    expect(stages).toHaveLength(3);
    const failedMounts = t.steps.filter((s) => s.kind === 'event' && s.summary.includes('FailedMount') && s.summary.includes('MountVolume.MountDevice failed'));
    expect(failedMounts.map((s) => /code = (\w+)/.exec(s.summary)?.[1])).toEqual(['Internal', 'DeadlineExceeded']);
    // the hung call ends at the kubelet's 2-minute CSI deadline (pkg/volume/csi/csi_plugin.go csiTimeout)
    expect(failedMounts[1]!.t - stages[1]!.t).toBeGreaterThanOrEqual(120_000);
    expect(failedMounts[1]!.t - stages[1]!.t).toBeLessThan(121_000);
    // the timeout left the device mount uncertain, the final error did not
    const deviceStates = t.steps.flatMap((s) => Object.entries(s.states ?? {}).filter(([k]) => /^kubelet\/node-1 volume \S+$/.test(k)).map(([, v]) => v));
    expect(deviceStates.indexOf('DeviceMountUncertain')).toBeGreaterThan(-1);
    expect(deviceStates.indexOf('DeviceMountUncertain')).toBeLessThan(deviceStates.indexOf('DeviceGloballyMounted'));
    expect(logged(t, /durationBeforeRetry 500ms/)).toBe(true);
    expect(logged(t, /durationBeforeRetry 1s/)).toBe(true);
  },
  teardown: (t) => {
    expect(get(t, 'Pod', 'web-0')).toBeUndefined();
    expect(objs(t, 'VolumeAttachment')).toHaveLength(0);
    expect(objs(t, 'PersistentVolume')).toHaveLength(0);
    const order = ['NodeUnpublishVolume', 'NodeUnstageVolume', 'ControllerUnpublishVolume', 'DeleteVolume']
      .map((rpc) => t.steps.findIndex((s) => s.kind === 'rpc' && s.rpc?.method.endsWith(`/${rpc}`)));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  },
  'pod-migration': (t) => {
    const p = get(t, 'Pod', 'weixin-zixun-l3-vob-rbu-online-6')!;
    expect(p.spec.nodeName).toBe('11.142.60.212');
    expect(p.status.phase).toBe('Running');
    expect(attachedVAs(t).map((v) => v.metadata.name)).toContain('csi-ef62fd617656080205af907030d51be08f25b43341a98b53fd436db24689accd');
    expect(get(t, 'VolumeAttachment', 'csi-3a3640a23315b682265e8a33ea96b28fa5166767781a3c1f181c6df9e93fd7df')).toBeUndefined();
  },
  'multi-attach': (t) => {
    expect(running(t, 'writer-a')).toBe(true);
    expect(running(t, 'writer-b')).toBe(false);
    expect(attachedVAs(t)).toHaveLength(1);
    expect(logged(t, /Multi-Attach error/)).toBe(true);
  },
  'force-detach': (t) => {
    const p = get(t, 'Pod', 'db-0')!;
    expect(p.spec.nodeName).toBe('node-2');
    expect(p.status.phase).toBe('Running');
    const detach = t.steps.find((s) => s.log && /force detaching/.test(s.log))!;
    expect(detach).toBeDefined();
    const deleted = t.steps.find((s) => s.kind === 'user' && s.api?.kind === 'Pod')!;
    expect(detach.t - deleted.t).toBeGreaterThanOrEqual(6 * 60 * 1000 - 1000);
  },
  'node-out-of-service': (t) => {
    const p = get(t, 'Pod', 'db-0')!;
    const tainted = t.steps.find((s) => s.kind === 'user' && /out-of-service/.test(s.summary))!;
    expect(tainted).toBeDefined();
    if (t.k8s === '1.20') {
      // nothing honours the taint: the evicted pod stays Terminating on the dead node, nothing is detached
      expect(p.spec.nodeName).toBe('node-1');
      expect(p.metadata.deletionTimestamp).toBeDefined();
      expect(t.steps.some((s) => s.rpc?.method.endsWith('/ControllerUnpublishVolume'))).toBe(false);
      return;
    }
    expect(p.spec.nodeName).toBe('node-2');
    expect(p.status.phase).toBe('Running');
    // PodGC's force delete, then the detach at once: no 6-minute wait, no safe-to-detach check
    const gc = t.steps.find((s) => s.msg === 'podGcController.forceDeletingPod')!;
    const detach = t.steps.find((s) => s.msg === 'attachDetachController.outOfServiceDetachStarted')!;
    expect(gc.t).toBeGreaterThan(tainted.t);
    expect(gc.t - tainted.t).toBeLessThanOrEqual(20_000 + 1_000); // the next 20 s pass, and the pass's own work
    expect(detach.t).toBeGreaterThan(gc.t);
    expect(detach.t - tainted.t).toBeLessThan(60_000);
    expect(t.steps.some((s) => s.msg === 'attachDetachController.forceDetachStarted')).toBe(false);
    expect(logged(t, /Verified volume is safe to detach/)).toBe(false);
  },
  'snapshot-restore': (t) => {
    const snap = get(t, 'VolumeSnapshot', 'data-snap')!;
    expect(snap.status).toMatchObject({ readyToUse: true, boundVolumeSnapshotContentName: `snapcontent-${snap.metadata.uid}` });
    const content = get(t, 'VolumeSnapshotContent', `snapcontent-${snap.metadata.uid}`)!;
    expect(content.status.readyToUse).toBe(true);
    // CreateSnapshot of data's volume, then CreateVolume with the content's handle as its source
    const data = get(t, 'PersistentVolumeClaim', 'data')!;
    const dataPv = get(t, 'PersistentVolume', data.spec.volumeName)!;
    const cut = t.steps.find((s) => s.kind === 'rpc' && s.rpc?.method.endsWith('/CreateSnapshot'))!;
    expect(cut.rpc!.request).toMatchObject({ source_volume_id: dataPv.spec.csi.volumeHandle, name: `snapshot-${snap.metadata.uid}` });
    const restored = get(t, 'PersistentVolumeClaim', 'restored')!;
    expect(restored.status.phase).toBe('Bound');
    const create = t.steps.filter((s) => s.kind === 'rpc' && s.rpc?.method.endsWith('/CreateVolume')).at(-1)!;
    expect(create.rpc!.request).toMatchObject({ volume_content_source: { Type: { Snapshot: { snapshot_id: content.status.snapshotHandle } } } });
    expect((create.rpc!.request as { name?: string }).name).toBe(restored.spec.volumeName);
    // the snapshot was ready before the claim came, so the provisioner's first try worked (its GETs are not steps)
    expect(t.steps.filter((s) => s.kind === 'rpc' && s.rpc?.method.endsWith('/CreateVolume') && s.rpc.request && (s.rpc.request as { name?: string }).name === restored.spec.volumeName)).toHaveLength(1);
    expect(t.steps.some((s) => s.kind === 'event' && /ProvisioningFailed/.test(s.summary))).toBe(false);
  },
  'ad-detach-backoff': (t) => {
    if (t.k8s === '1.20') {
      // stuck until syncStates finds the VolumeAttachment gone and the controller attaches again
      expect(logged(t, /Volume not attached according to node status/)).toBe(true);
      expect(logged(t, /VerifyVolumesAreAttached determined volume .* is no longer attached to node "node-1"/)).toBe(true);
      expect(running(t, 'web-0')).toBe(true);
    } else {
      expect(running(t, 'web-0')).toBe(true);
    }
  },
  'wffc-provision': (t) => {
    const claim = get(t, 'PersistentVolumeClaim', 'pvc-evs-test')!;
    const p = get(t, 'Pod', 'app-0')!;
    expect(claim.metadata.annotations?.['volume.kubernetes.io/selected-node']).toBe(p.spec.nodeName);
    expect(claim.status.phase).toBe('Bound');
    expect(p.status.phase).toBe('Running');
    const waited = t.steps.findIndex((s) => s.kind === 'event' && /WaitForFirstConsumer/.test(s.summary));
    const created = t.steps.findIndex((s) => s.rpc?.method.endsWith('/CreateVolume'));
    expect(waited).toBeGreaterThanOrEqual(0);
    expect(created).toBeGreaterThan(waited);
    // the volume is created in the selected node's zone, and the PV says so (nodeAffinity from accessible_topology)
    const node = get(t, 'Node', p.spec.nodeName)!;
    const key = 'topology.com.tencent.cloud.csi.cbs/zone';
    const pv = get(t, 'PersistentVolume', claim.spec.volumeName)!;
    expect(pv.spec.nodeAffinity?.required?.nodeSelectorTerms).toEqual([{ matchExpressions: [{ key, operator: 'In', values: [node.metadata.labels?.[key]] }] }]);
  },
  'ceph-rbd-create': (t) => {
    expect(get(t, 'PersistentVolumeClaim', 'cstor-pvc-vdisk')!.status.phase).toBe('Bound');
    expect(logged(t, /set omap keys/)).toBe(true);
    expect(logged(t, /csi-vol-/)).toBe(true);
  },
  'ceph-rbd-clone': (t) => {
    expect(get(t, 'PersistentVolumeClaim', 'cstor-pvc-clone-vdisk')!.status.phase).toBe('Bound');
    expect(logged(t, /-temp/)).toBe(true);
  },
  'ceph-rbd-snapshot': (t) => {
    // CreateSnapshot (Req-ID snapshot-<uid>): journal first, then snap/clone/snap rm/snap of the clone, image id, depth check
    const ids = (re: RegExp): string[] => t.steps.filter((s) => s.component === 'csi-controller-plugin' && s.log && re.test(s.log) && !/GRPC/.test(s.log)).map((s) => s.msg!.replace('csiControllerPlugin.', ''));
    expect(ids(/Req-ID: snapshot-/)).toEqual(['cephGotOmapValues', 'cephOmapNotFound', 'cephSetOmapKeys', 'cephSetOmapKeys', 'cephGeneratedSnapshotId',
      'cephSnapCreate', 'cephClone', 'cephSnapRm', 'cephSnapCreate', 'cephSetOmapKeys', 'cephCloneDepth']);
    expect(t.steps.filter((s) => s.msg === 'csiControllerPlugin.cephCloneDepth' && /Req-ID: snapshot-/.test(s.log!)).map((s) => s.stage)).toEqual(['snapshot']);
    expect(logged(t, /name="csi\.snap\.[0-9a-f-]{36}"\): map\[csi\.imagename:csi-snap-[0-9a-f-]{36} csi\.snapname:snapshot-[0-9a-f-]{36} csi\.source:csi-vol-[0-9a-f-]{36} csi\.volume\.owner:default\]\)/)).toBe(true);
    expect(logged(t, /clone depth is \(1\), configured softlimit \(4\) and hardlimit \(8\) for rbd\/csi-snap-/)).toBe(true);
    // the restore: the snapshot's journal read twice, the source's depth against 3 and 7, one clone of csi-snap-S@csi-snap-S
    expect(ids(/Req-ID: pvc-/).slice(-11)).toEqual(['cephGotOmapValues', 'cephGotOmapValues', 'cephCloneDepth', 'cephSetOmapKeys', 'cephSetOmapKeys', 'cephGeneratedVolumeId',
      'cephGotOmapValues', 'cephClone', 'cephVolumeFromSnapshot', 'cephCreatedVolume', 'cephSetOmapKeys']);
    expect(logged(t, /clone depth is \(0\), configured softlimit \(3\) and hardlimit \(7\) for rbd\/csi-vol-/)).toBe(true);
    expect(logged(t, /rbd: clone rbd\/(csi-snap-[0-9a-f-]{36})@\1 rbd\/csi-vol-/)).toBe(true);
    expect(get(t, 'VolumeSnapshot', 'cstor-snap-vdisk')!.status.readyToUse).toBe(true);
    expect(get(t, 'PersistentVolumeClaim', 'cstor-pvc-restore-vdisk')!.status.phase).toBe('Bound');
  },
  'kubelet-restart': (t) => {
    const restart = t.steps.find((s) => s.kind === 'user')!;
    const after = t.steps.filter((s) => s.t > restart.t);
    const msgs = after.filter((s) => s.component === 'kubelet').map((s) => s.msg);
    // the volume is staged and published again, and the pod never stops running
    const rpcs = after.filter((s) => s.kind === 'rpc' && s.component === 'kubelet').map((s) => s.rpc!.method.split('/').pop());
    expect(rpcs).toEqual(expect.arrayContaining(['NodeStageVolume', 'NodePublishVolume']));
    expect(rpcs).not.toContain('NodeUnpublishVolume');
    expect(get(t, 'Pod', 'web-0')!.status.phase).toBe('Running');
    expect(after.some((s) => s.objects?.some((o) => o.kind === 'Pod' && o.after?.status?.phase && o.after.status.phase !== 'Running'))).toBe(false);
    // the driver registers again; the new process reads CSINode and the Node and finds its entries there:
    // it creates nothing and writes nothing (nodeinfomanager.go:413-431, installDriverToCSINode)
    expect(msgs).toContain('kubelet.registerPlugin');
    expect(after.filter((s) => s.component === 'kubelet' && s.kind === 'api' && (s.api?.kind === 'CSINode' || (s.api?.kind === 'Node' && s.api.verb === 'patch' && /nodeid/.test(s.summary))))).toEqual([]);
    if (t.k8s === '1.30') {
      // reconstruction: uncertain pod mount and device, no VerifyControllerAttachedVolume, a first try before the driver is back
      expect(msgs.slice(0, 4)).toEqual(['kubelet.reconstructedVolumeUncertain', 'kubelet.reconstructedDeviceUncertain', 'kubelet.reconstructionFinished', 'kubelet.reconcilerStarted']);
      expect(msgs).not.toContain('kubelet.verifyControllerAttachedVolumeStarted');
      const failed = after.find((s) => s.msg === 'kubelet.operationFailed')!;
      expect(failed.log).toMatch(/not found in the list of registered CSI drivers/);
      expect(failed.t).toBeLessThan(after.find((s) => s.msg === 'kubelet.registerPlugin')!.t);
      expect(msgs).toContain('kubelet.reconstructedDevicePathsUpdated');
    } else {
      // 1.20 verifies from scratch, and waits until the volume is in volumesInUse again; a MountDevice that comes before
      // the driver has registered again fails for that (as on 1.30) and is retried
      expect(msgs).not.toContain('kubelet.reconstructedVolumeUncertain');
      const failures = after.filter((s) => s.msg === 'kubelet.operationFailed');
      expect(failures.filter((s) => /VolumesInUse/.test(s.log!))).toHaveLength(1);
      const registered = after.find((s) => s.msg === 'kubelet.registerPlugin')!.t;
      expect(failures.filter((s) => !/VolumesInUse/.test(s.log!)).every((s) => /MountVolume\.MountDevice failed .*not found in the list of registered CSI drivers/.test(s.log!) && s.t < registered)).toBe(true);
      expect(msgs.indexOf('kubelet.verifyControllerAttachedVolumeStarted')).toBeLessThan(msgs.indexOf('kubelet.mountVolumeStarted'));
    }
  },
  'ceph-rbd-delete': (t) => {
    expect(objs(t, 'PersistentVolume')).toHaveLength(0);
    expect(logged(t, /trash/)).toBe(true);
    expect(logged(t, /removed omap keys/)).toBe(true);
  },
  'expand-online': (t) => {
    // csi-resizer: ControllerExpandVolume, the PV grows, the claim waits for the node (FileSystemResizePending)
    const claim = get(t, 'PersistentVolumeClaim', 'data')!;
    expect(get(t, 'PersistentVolume', claim.spec.volumeName)!.spec.capacity.storage).toBe('2Gi');
    expect(t.steps.some((s) => s.kind === 'event' && s.summary.includes('FileSystemResizeRequired'))).toBe(true);
    // nothing tells the kubelet: it notices at its next sync of the running pod (wait.Jitter(1m, 0.5) after the pod started)
    const resized = t.steps.find((s) => s.rpc?.method === '/csi.v1.Node/NodeExpandVolume' && s.kind === 'rpc')!;
    const edit = t.steps.find((s) => s.kind === 'user')!;
    expect(resized.t - edit.t).toBeGreaterThan(20_000);
    // the file system grows where the pod has it mounted, the claim takes the new size and loses its conditions
    const request = resized.rpc!.request as { volume_path: string; capacity_range: { required_bytes: number } };
    expect(request.volume_path).toMatch(/\/pods\/[^/]+\/volumes\/kubernetes\.io~csi\/pvc-[^/]+\/mount$/);
    expect(request.capacity_range.required_bytes).toBe(2 * 2 ** 30);
    expect(claim.status.capacity.storage).toBe('2Gi');
    expect(claim.status.conditions ?? []).toEqual([]);
    expect(t.steps.filter((s) => s.kind === 'event' && s.summary.includes('FileSystemResizeSuccessful'))).toHaveLength(2);
    expect(logged(t, /MountVolume\.NodeExpandVolume succeeded for volume \\?"pvc-/)).toBe(true);
    expect(running(t, 'web-0')).toBe(true);
  },
  'block-volume': (t) => {
    // mapped, not mounted: MapVolume's lines and the volumeDevices paths, then unmapped, unstaged and detached
    const msgs = t.steps.map((s) => s.msg);
    for (const m of ['kubelet.mapWaitForAttachSucceeded', 'kubelet.mapPodDeviceSucceeded', 'kubelet.unmapVolumeSucceeded', 'kubelet.unmapDeviceSucceeded']) expect(msgs, m).toContain(m);
    for (const m of ['kubelet.mountDeviceSucceeded', 'kubelet.setUpSucceeded', 'kubelet.tearDownSucceeded', 'kubelet.unmountDeviceSucceeded']) expect(msgs, m).not.toContain(m);
    const paths = t.steps.filter((s) => s.kind === 'rpc' && s.component === 'kubelet').map((s) => {
      const r = s.rpc!.request as Record<string, string>;
      return `${s.rpc!.method.split('/').pop()} ${r.target_path ?? r.staging_target_path ?? ''}`;
    }).filter((x) => !x.startsWith('NodeGetCapabilities'));
    expect(paths.map((p) => p.replace(/pvc-[0-9a-f-]+/, 'PV').replace(/\/[0-9a-f-]{36}$/, '/UID'))).toEqual([
      'NodeStageVolume /var/lib/kubelet/plugins/kubernetes.io/csi/volumeDevices/staging/PV',
      'NodePublishVolume /var/lib/kubelet/plugins/kubernetes.io/csi/volumeDevices/publish/PV/UID',
      'NodeUnpublishVolume /var/lib/kubelet/plugins/kubernetes.io/csi/volumeDevices/publish/PV/UID',
      'NodeUnstageVolume /var/lib/kubelet/plugins/kubernetes.io/csi/volumeDevices/staging/PV',
    ]);
    // two SuccessfulMountVolume Events: the global map path, then the pod's
    const eventObjects = t.steps.filter((s) => s.kind === 'event').map((s) => s.objects?.[0]?.after).filter((e) => e?.reason === 'SuccessfulMountVolume');
    expect(eventObjects.map((e) => (e!.message as string).replace(/pvc-[0-9a-f-]+/g, 'PV').replace(/[0-9a-f-]{36}/, 'UID'))).toEqual([
      'MapVolume.MapPodDevice succeeded for volume "PV" globalMapPath "/var/lib/kubelet/plugins/kubernetes.io/csi/volumeDevices/PV/dev"',
      'MapVolume.MapPodDevice succeeded for volume "PV" volumeMapPath "/var/lib/kubelet/pods/UID/volumeDevices/kubernetes.io~csi"',
    ]);
    // 1.30 marks the pod's volume and then the device uncertain before unmapping them; v1.20.5 does not
    const seen = (re: RegExp): string[] => t.steps.flatMap((s) => Object.entries(s.states ?? {})).filter(([k]) => re.test(k)).map(([, v]) => String(v));
    const podVolume = seen(/^kubelet\/node-1 volume \S+ pod default\/db-0$/);
    const device = seen(/^kubelet\/node-1 volume \S+$/);
    expect(podVolume.at(-1)).toBe('VolumeNotMounted');
    expect(podVolume.includes('VolumeMountUncertain')).toBe(t.k8s === '1.30');
    expect(device.includes('DeviceMountUncertain')).toBe(t.k8s === '1.30');
    expect(objs(t, 'VolumeAttachment')).toEqual([]);
    expect(objs(t, 'PersistentVolume')[0]!.spec.volumeMode).toBe('Block');
    expect(objs(t, 'Pod')).toEqual([]);
  },
  'expand-offline': (t) => {
    const claim = get(t, 'PersistentVolumeClaim', 'data')!;
    expect(claim.status.capacity.storage).toBe('2Gi');
    expect(claim.status.conditions ?? []).toEqual([]);
    expect(running(t, 'web-0')).toBe(true);
    // finished inside MountVolume: 1.20 right after NodeStageVolume on the staging path, 1.30 after NodePublishVolume on the pod's path
    const rpcs = t.steps.filter((s) => s.kind === 'rpc' && s.component === 'kubelet').map((s) => s.rpc!.method.split('/').pop());
    const expand = t.steps.find((s) => s.rpc?.method === '/csi.v1.Node/NodeExpandVolume' && s.kind === 'rpc')!;
    const path = (expand.rpc!.request as { volume_path: string }).volume_path;
    if (t.k8s === '1.20') {
      expect(rpcs.indexOf('NodeExpandVolume')).toBeLessThan(rpcs.indexOf('NodePublishVolume'));
      expect(path).toMatch(/\/globalmount$/);
    } else {
      expect(rpcs.indexOf('NodeExpandVolume')).toBeGreaterThan(rpcs.indexOf('NodePublishVolume'));
      expect(path).toMatch(/\/mount$/);
    }
    // the pod runs only once the claim is marked resized
    const marked = t.steps.find((s) => s.kind === 'api' && s.summary.includes('marks claim default/data resized'))!;
    const podRunning = t.steps.find((s) => s.kind === 'api' && s.summary.includes('is Running'))!;
    expect(marked.t).toBeLessThan(podRunning.t);
  },
  'statefulset-rollout': (t) => {
    const pods = objs(t, 'Pod');
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.spec.nodeName).toMatch(/^b-/);
      expect(p.status.phase).toBe('Running');
    }
  },
};

describe('every scenario', () => {
  it('has an outcome check', () => {
    expect(Object.keys(outcomes).sort()).toEqual(SCENARIOS.map((s) => s.id).sort());
  });

  for (const s of SCENARIOS) {
    for (const k8s of ['1.20', '1.30'] as const) {
      describe(`${s.id} on ${k8s}`, () => {
        const trace = runScenario(s.id, { k8s });
        it('produces ordered steps, each with a summary and at most one well-formed klog line', () => {
          expect(trace.steps.length).toBeGreaterThan(5);
          let last = -1;
          for (const st of trace.steps) {
            expect(st.t).toBeGreaterThanOrEqual(last);
            last = st.t;
            expect(st.summary.length).toBeGreaterThan(5);
            if (st.log) expect(st.log).toMatch(KLOG);
            expect(st.log ?? '').not.toContain('\n');
          }
        });
        it('ends as the real cluster would', () => outcomes[s.id]!(trace));
        it('gives Pods a status.phase in final.objects', () => {
          for (const p of objs(trace, 'Pod')) expect(p.status?.phase).toBeTypeOf('string');
        });
        it('loses no claim: no ClaimLost or ClaimMisbound Event, from the warm-up on (the PV controller syncs once its caches are)', () => {
          const lost = [...trace.initial.objects, ...trace.final.objects].filter((o) => o.kind === 'Event' && /^Claim(Lost|Misbound)$/.test(o.reason));
          expect(lost.map((e) => `${e.reason} ${e.involvedObject.name}`)).toEqual([]);
        });
      });
    }
  }
});

describe('determinism', () => {
  it('gives a byte-identical trace for the same scenario, profile and seed', () => {
    const a = JSON.stringify(runScenario('pod-migration', { k8s: '1.20', seed: 7 }));
    const b = JSON.stringify(runScenario('pod-migration', { k8s: '1.20', seed: 7 }));
    expect(b).toBe(a);
  });
  it('gives a different trace for another seed', () => {
    const a = JSON.stringify(runScenario('attach', { seed: 1 }).steps.map((s) => s.t));
    const b = JSON.stringify(runScenario('attach', { seed: 2 }).steps.map((s) => s.t));
    expect(b).not.toBe(a);
  });
});

describe('log timestamps', () => {
  it('never go back in time within one log stream', () => {
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario('pod-migration', { k8s });
      const last = new Map<string, string>();
      for (const s of t.steps) {
        if (!s.log) continue;
        const m = /[IWEF](\d{4} \d{2}:\d{2}:\d{2}\.\d{6})/.exec(s.log)!;
        const prev = last.get(s.instance);
        if (prev) expect(m[1]! >= prev, `${s.instance}: ${s.log}`).toBe(true);
        last.set(s.instance, m[1]!);
      }
    }
  });
});

describe('captureWorld', () => {
  it('puts the attach/detach controller\'s and the kubelet\'s desired/actual state of world on their steps', () => {
    const t = runScenario('pod-migration', { k8s: '1.20', captureWorld: true });
    const adc = t.steps.filter((s) => s.component === 'attach-detach-controller' && s.world);
    const last = adc.at(-1)!.world as { actual: Array<{ node: string; attachState: string }>; reportedAsAttached: Record<string, string[]> };
    expect(last.actual.some((a) => a.node === '11.142.60.212' && a.attachState === 'Attached')).toBe(true);
    expect(last.reportedAsAttached['11.142.60.212']).toContain('kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-adge0gvc');
    const kubelet = t.steps.filter((s) => s.instance === 'kubelet/11.142.60.212' && s.world).at(-1)!.world as { actual: Array<{ pv: string; pods: Array<{ state: string }> }> };
    expect(kubelet.actual.find((a) => a.pv === 'pvc-4cde4524-6ba4-449c-891b-fe9ce8138e33')?.pods[0]?.state).toBe('VolumeMounted');
    expect(runScenario('pod-migration', { k8s: '1.20' }).steps.some((s) => s.world)).toBe(false);
  });
});

describe("external-provisioner's checkError", () => {
  // pkg/controller/controller.go checkError: ResourceExhausted stayed in the background in v2.1.0 and
  // is final ("out of space") in v5.0.1, unlike the kubelet's and external-attacher's isFinalError
  for (const [k8s, state] of [['1.20', 'Background'], ['1.30', 'Finished']] as const) {
    it(`counts ResourceExhausted as ${state} on ${k8s}`, () => {
      const t = runScenario('provision', { k8s, faults: [{ rpc: 'CreateVolume', code: 'RESOURCE_EXHAUSTED', count: 1 }] });
      const line = t.steps.find((s) => s.log?.includes('CreateVolume failed'))?.log ?? '';
      expect(line).toContain(`may reschedule = false => state = ${state}: rpc error: code = ResourceExhausted`);
      expect(get(t, 'PersistentVolumeClaim', 'data')!.status.phase).toBe('Bound');
    });
  }
});

describe('restoring from a snapshot that is not ready yet (getSnapshotSource)', () => {
  it('fails with ProvisioningFailed, calls no CreateVolume, and retries until the snapshot is ready', () => {
    // the same story with the restore claim created one second after the snapshot, before it is ready
    const file = scenarioFile('snapshot-restore').yaml.replace('{ at: 15s, create: PersistentVolumeClaim/restored', '{ at: 1s, create: PersistentVolumeClaim/restored');
    const t = runScenario(scenarioFromManifests(file), { k8s: '1.30' });
    const failed = t.steps.filter((s) => s.kind === 'event' && /ProvisioningFailed/.test(s.summary));
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed[0]!.summary).toMatch(/failed to provision volume with StorageClass "ceph-rbd": error getting handle for DataSource Type VolumeSnapshot by Name data-snap: snapshot data-snap (not bound|is not Ready)/);
    const creates = t.steps.filter((s) => s.kind === 'rpc' && s.rpc?.method.endsWith('/CreateVolume') && (s.rpc.request as { name?: string }).name?.startsWith('pvc-'));
    const restored = get(t, 'PersistentVolumeClaim', 'restored')!;
    expect(restored.status.phase).toBe('Bound');
    // one CreateVolume for the restore, after the failures, with the snapshot as its source
    const forRestore = creates.filter((s) => (s.rpc!.request as { name: string }).name === restored.spec.volumeName);
    expect(forRestore).toHaveLength(1);
    expect(forRestore[0]!.t).toBeGreaterThan(failed.at(-1)!.t);
  });
});


describe('a pod force-deleted while its kubelet was down: the restarted kubelet finds the volume on disk and unmounts it', () => {
  const forceDelete = { at: 1100, do: 'delete' as const, kind: 'Pod' as const, namespace: 'default', name: 'web-0', gracePeriodSeconds: 0 };
  for (const k8s of ['1.20', '1.30'] as const) {
    it(`${k8s}: ${k8s === '1.20' ? 'syncStates (reconciler.go:385-444) records it as mounted' : 'reconstructVolumes records it as uncertain'}, UnmountVolume and UnmountDevice run once the driver is back, and the controller detaches`, () => {
      const t = runScenario('kubelet-restart', { k8s, actions: [forceDelete], extendBy: 30_000 });
      const kubelet = t.steps.filter((s) => s.component === 'kubelet' && s.host === 'node-1');
      const msgs = kubelet.map((s) => s.msg).filter(Boolean);
      if (k8s === '1.20') {
        // after the first reconciler pass: the start line, then the volume no pod wants, put in the actual state of world as mounted
        const i = msgs.indexOf('kubelet.reconcilerStarted');
        expect(msgs[i + 1]).toBe('kubelet.syncStatesReconstructed');
        const line = kubelet.find((s) => s.msg === 'kubelet.syncStatesReconstructed')!.log!;
        expect(line).toMatch(/reconciler\.go:429\] Reconciler sync states: could not find pod information in desired state, update it in actual state: &\{volumeName:kubernetes\.io\/csi\/com\.tencent\.cloud\.csi\.cbs\^disk-\w+ podName:[0-9a-f-]{36} volumeSpec:0xc[0-9a-f]{9} outerVolumeSpecName:pvc-[0-9a-f-]+ pod:0xc[0-9a-f]{9} volumeGidValue: devicePath: mounter:0xc[0-9a-f]{9} deviceMounter:0xc[0-9a-f]{9} blockVolumeMapper:<nil>\}$/);
        // %+v prints each pointer field as its own object's address
        const pointers = line.match(/0xc[0-9a-f]{9}/g)!;
        expect(new Set(pointers).size).toBe(4);
        // the reconstructed mount is the pod's, named as on disk: its UnmountVolume names the PV and the pod's UID
        const unmount = kubelet.find((s) => s.msg === 'kubelet.unmountVolumeStarted')!.log!;
        const uid = /podName:([0-9a-f-]{36})/.exec(line)![1]!;
        expect(unmount).toContain(`UnmountVolume started for volume "${/outerVolumeSpecName:(\S+)/.exec(line)![1]}"`);
        expect(unmount).toContain(`pod "${uid}" (UID: "${uid}")`);
        expect(msgs).not.toContain('kubelet.reconstructedVolumeUncertain');
      } else {
        expect(msgs).toContain('kubelet.reconstructedVolumeUncertain');
        expect(msgs).not.toContain('kubelet.syncStatesReconstructed');
      }
      // nothing verifies or mounts it again: no pod wants it
      expect(msgs).not.toContain('kubelet.verifyControllerAttachedVolumeStarted');
      expect(msgs).not.toContain('kubelet.mountVolumeStarted');
      const rpcs = kubelet.filter((s) => s.kind === 'rpc').map((s) => s.rpc!.method.split('/').pop());
      expect(rpcs.indexOf('NodeUnpublishVolume')).toBeGreaterThan(-1);
      expect(rpcs.indexOf('NodeUnstageVolume')).toBeGreaterThan(rpcs.indexOf('NodeUnpublishVolume'));
      expect(msgs).toContain('kubelet.volumeDetached');
      // the host's mounts are gone and the controller detached the volume
      expect(t.final.objects.filter((o) => o.kind === 'VolumeAttachment')).toHaveLength(0);
      expect(get(t, 'Node', 'node-1')!.status.volumesAttached ?? []).toEqual([]);
    });
  }
  it('1.20 without the force delete: the wanted volume is not reconstructed (it is mounted again from scratch), but syncStates marks it reported in use at once: one VolumesInUse failure, not a wait for the node status (reconciler.go MarkVolumesReportedInUse)', () => {
    const t = runScenario('kubelet-restart', { k8s: '1.20' });
    expect(t.steps.some((s) => s.msg === 'kubelet.syncStatesReconstructed')).toBe(false);
    const notInUse = t.steps.filter((s) => s.msg === 'kubelet.operationFailed' && /added to the list of VolumesInUse/.test(s.log ?? ''));
    expect(notInUse).toHaveLength(1);
    const attached = t.steps.find((s) => s.msg === 'kubelet.controllerAttachSucceeded' && s.t > notInUse[0]!.t)!;
    // the next check, 500 ms later, passes: the kubelet marks the volume attached within a second of the failure
    expect(attached.t - notInUse[0]!.t).toBeLessThan(1000);
  });
});

describe("csi-provisioner's volume queue: a failed delete is retried with its own lines (processNextVolumeWorkItem)", () => {
  for (const k8s of ['1.20', '1.30'] as const) {
    it(`${k8s}: "Retrying syncing volume" with the failure count, then HandleError's "error syncing volume", until DeleteVolume succeeds`, () => {
      const t = runScenario('teardown', { k8s, faults: ['DeleteVolume=INTERNALx2'], extendBy: 20_000 });
      const lines = t.steps.filter((s) => s.component === 'external-provisioner' && s.kind === 'log').map((s) => s.log!);
      const err = 'rpc error: code = Internal desc = injected INTERNAL fault';
      const retrying = lines.filter((l) => l.includes('Retrying syncing volume'));
      const handled = lines.filter((l) => l.includes('error syncing volume'));
      if (k8s === '1.20') {
        // lib v6.2.0 controller.go:1016 klog.Warningf, :1034 HandleError
        expect(retrying.map((l) => /^W\d{4} .* controller\.go:1016\] Retrying syncing volume "pvc-[0-9a-f-]+", failure (\d)$/.exec(l)?.[1])).toEqual(['0', '1']);
        expect(handled.every((l) => /^E\d{4} .* controller\.go:1034\] error syncing volume "pvc-[0-9a-f-]+": /.test(l) && l.endsWith(err))).toBe(true);
      } else {
        // lib v10 controller.go:1007 logger.Info, :1025 HandleError (plain text in both)
        expect(retrying.map((l) => /^I\d{4} .* controller\.go:1007\] "Retrying syncing volume" key="pvc-[0-9a-f-]+" failures=(\d)$/.exec(l)?.[1])).toEqual(['0', '1']);
        expect(handled.every((l) => /^E\d{4} .* controller\.go:1025\] error syncing volume "pvc-[0-9a-f-]+": /.test(l) && l.endsWith(err))).toBe(true);
      }
      expect(handled).toHaveLength(2);
      expect(t.steps.filter((s) => s.rpc?.method === '/csi.v1.Controller/DeleteVolume' && s.kind === 'rpc')).toHaveLength(3);
      expect(objs(t, 'PersistentVolume')).toHaveLength(0);
    });
  }
});

describe('the stage a step shows is the operation its component was doing', () => {
  for (const k8s of ['1.20', '1.30'] as const) {
    it(`${k8s}: csi-attacher's PV queue is part of a delete only for a PV being deleted; "finished processing" closes an attach or a detach; csi-provisioner's start-up is no provisioning`, () => {
      const migration = runScenario('pod-migration', { k8s }).steps;
      const pvLines = migration.filter((s) => s.msg === 'externalAttacher.startedPVProcessing' || s.msg === 'externalAttacher.processingPV' || s.msg === 'externalAttacher.pvNoDeletionTimestamp');
      expect(pvLines.length).toBeGreaterThan(0);
      expect(new Set(pvLines.map((s) => s.stage))).toEqual(new Set(['other']));
      // the VolumeAttachment to the old node is detached, the new one attached; a sync of a VolumeAttachment that
      // says attached already (the update its own "marked as attached" write caused) runs nothing: its lines are `other`
      const finished = migration.filter((s) => s.msg === 'externalAttacher.finishedProcessing');
      expect(new Set(finished.map((s) => s.stage))).toEqual(new Set(['attach', 'detach', 'other']));
      for (const f of finished) {
        const sync = migration.filter((s) => s.component === 'external-attacher' && s.log && s.t <= f.t && s.args?.va === f.args?.va).slice(-4);
        const nothingToDo = sync.some((s) => s.msg === 'externalAttacher.alreadyAttached');
        expect(f.stage === 'other', f.log).toBe(nothingToDo);
        if (nothingToDo) for (const s of sync.filter((x) => x.msg === 'externalAttacher.startedVAProcessing' || x.msg === 'externalAttacher.processingVA').slice(-2)) expect(s.stage).toBe('other');
      }
      const deleted = runScenario('teardown', { k8s }).steps;
      const deleting = deleted.filter((s) => s.msg === 'externalAttacher.startedPVProcessing' && deleted.some((d) => d.msg === 'externalAttacher.pvNoVAFound' && d.t >= s.t && d.t - s.t < 1));
      expect(deleting.map((s) => s.stage)).toContain('delete');
      const startup = migration.filter((s) => s.msg === 'externalProvisioner.startedController' || s.msg === 'externalProvisioner.detectedDriver');
      for (const s of startup) expect(s.stage).toBe('other');
      // the PV controller's "entered phase": Bound is the provisioning's, Released (its claim gone) the reclaim's
      const phases = [...runScenario('provision', { k8s }).steps, ...deleted].filter((s) => s.msg === 'pvController.volumeEnteredPhase');
      expect(phases.map((s) => `${s.args?.phase} ${s.stage}`)).toEqual(expect.arrayContaining(['Bound provision', 'Released delete']));
      for (const s of phases) expect(s.stage, String(s.args?.phase)).toBe(s.args?.phase === 'Released' || s.args?.phase === 'Failed' ? 'delete' : 'provision');
    });
    it(`${k8s}: a CSI call and its answer show the stage of their RPC, or of the work that asks a question with no stage of its own`, () => {
      const rpcSteps = (t: Trace) => t.steps.filter((s) => s.kind === 'rpc' || s.kind === 'rpc-reply');
      const byMethod = (t: Trace) => {
        const m = new Map<string, Set<string | undefined>>();
        for (const s of rpcSteps(t)) {
          const k = `${s.kind} ${s.rpc!.method.slice(s.rpc!.method.lastIndexOf('/') + 1)}`;
          m.set(k, (m.get(k) ?? new Set()).add(s.stage));
        }
        return m;
      };
      const migration = byMethod(runScenario('pod-migration', { k8s }));
      for (const kind of ['rpc', 'rpc-reply']) {
        expect(migration.get(`${kind} ControllerPublishVolume`)).toEqual(new Set(['attach']));
        expect(migration.get(`${kind} ControllerUnpublishVolume`)).toEqual(new Set(['detach']));
        expect(migration.get(`${kind} NodeStageVolume`)).toEqual(new Set(['mount']));
        expect(migration.get(`${kind} NodeUnstageVolume`)).toEqual(new Set(['unmount']));
        // the kubelet asks for the node's capabilities inside a mount (STAGE_UNSTAGE_VOLUME) and inside an unmount
        expect(migration.get(`${kind} NodeGetCapabilities`)).toEqual(new Set(['mount', 'unmount']));
      }
      const register = byMethod(runScenario('register', { k8s }));
      // node-driver-registrar's own GetPluginInfo, and the kubelet's GetInfo and NodeGetInfo, are the registration
      for (const k of ['rpc GetPluginInfo', 'rpc-reply GetPluginInfo', 'rpc GetInfo', 'rpc NodeGetInfo', 'rpc-reply NodeGetInfo']) expect(register.get(k)).toEqual(new Set(['register']));
      // every RPC step of every flow has a stage (the scrubber draws none grey), and so has every Event, printed or not:
      // its reason's (FailedAttachVolume is an attach's)
      for (const sc of ['teardown', 'expand-online', 'snapshot-restore', 'fsgroup', 'attach-failure']) {
        const t = runScenario(sc, { k8s });
        for (const s of rpcSteps(t)) expect(s.stage, `${sc} step ${s.i} ${s.rpc!.method}`).toBeDefined();
        for (const s of t.steps.filter((x) => x.kind === 'event')) expect(s.stage, `${sc} step ${s.i} ${s.summary}`).toBeDefined();
      }
      // an API write shows the stage its machine gives it: the attach/detach controller's VolumeAttachment create and delete,
      // csi-attacher's writes of an attach and of a detach, the provisioner's PV create and delete, the binding, the resize's
      const writes = (sc: string) => runScenario(sc, { k8s }).steps.filter((s) => s.kind === 'api').map((s) => `${s.component} ${s.api!.verb} ${s.api!.kind} ${s.stage ?? '-'}`);
      const migrationWrites = new Set(writes('pod-migration'));
      for (const w of ['attach-detach-controller create VolumeAttachment attach', 'attach-detach-controller delete VolumeAttachment detach',
        'external-attacher patchStatus VolumeAttachment attach', 'external-attacher patchStatus VolumeAttachment detach']) expect(migrationWrites).toContain(w);
      const lifeWrites = new Set([...writes('provision'), ...writes('teardown'), ...writes('expand-online')]);
      for (const w of ['external-provisioner create PersistentVolume provision', 'pv-controller update PersistentVolumeClaim provision',
        'pv-controller updateStatus PersistentVolume provision', 'external-provisioner delete PersistentVolume delete',
        'external-resizer patchStatus PersistentVolumeClaim resize', 'kubelet patchStatus PersistentVolumeClaim resize']) expect(lifeWrites).toContain(w);
      // and none where it does not know one: the binding's VolumeAttachment is never a provisioning's
      for (const w of [...migrationWrites, ...lifeWrites]) expect(w).not.toMatch(/VolumeAttachment (provision|delete|mount|unmount)$/);
      const failedAttach = runScenario('attach-failure', { k8s }).steps.filter((s) => s.kind === 'event' && /FailedAttachVolume/.test(JSON.stringify(s.objects ?? [])));
      expect(failedAttach.length).toBeGreaterThan(0);
      for (const s of failedAttach) expect(s.stage).toBe('attach');
    });
  }
});

describe("csi-provisioner's shouldDelete at -v=5 (lib v10 controller.go:1256-1290; v6.2.0 has no such lines)", () => {
  it('1.30: every sync of a PV says shouldDelete and its verdict; a Released PV with policy Delete goes on to its delete (:1132), once', () => {
    const t = runScenario('teardown', { k8s: '1.30' });
    const p = t.steps.filter((s) => s.component === 'external-provisioner' && s.kind === 'log');
    const verdicts = p.filter((s) => /controller\.go:12(68|73|79|84|88)\]/.test(s.log!)).map((s) => /"(shouldDelete is [^"]+)"/.exec(s.log!)![1]);
    expect(verdicts).toContain('shouldDelete is true');
    expect(verdicts).toContain('shouldDelete is false: finalizer already removed from volume');
    // each verdict follows its "shouldDelete" line (:1258), which takes the verdict's stage
    for (const [i, s] of p.entries()) {
      if (!/controller\.go:12(68|73|79|84|88)\]/.test(s.log!)) continue;
      expect(p[i - 1]!.log).toMatch(/controller\.go:1258\] "shouldDelete" PV="pvc-[0-9a-f-]+"$/);
      expect(p[i - 1]!.stage).toBe(s.stage);
    }
    const go = p.findIndex((s) => /shouldDelete is true/.test(s.log!));
    expect(p[go + 1]!.log).toMatch(/controller\.go:1132\] "shouldDelete" PV=/);
    expect(p[go + 2]!.msg).toBe('externalProvisioner.deleteStarted');
    expect(t.steps.filter((s) => s.kind === 'rpc' && s.rpc?.method.endsWith('/DeleteVolume'))).toHaveLength(1);
    // a PV being provisioned and bound is no delete
    const provision = runScenario('provision', { k8s: '1.30' }).steps.filter((s) => s.msg?.startsWith('externalProvisioner.shouldDelete'));
    expect(provision.length).toBeGreaterThan(0);
    expect(new Set(provision.map((s) => s.stage))).toEqual(new Set(['other']));
  });
  it('1.20: none of them', () => {
    expect(runScenario('teardown', { k8s: '1.20' }).steps.some((s) => /shouldDelete/.test(s.log ?? ''))).toBe(false);
  });
  it("the attacher's finalizer patch computed from a copy older than the provisioner's removal is refused (no finalizer may be added to a PV being deleted) and retried: DeleteVolume is called once", () => {
    // (a seed whose run loses this race; the default one loses the PV protection controller's, below)
    const t = runScenario('teardown', { k8s: '1.30', seed: 2 });
    const refused = t.steps.filter((s) => s.kind === 'api' && s.api?.code === 422);
    expect(refused.length).toBeGreaterThan(0);
    expect(t.steps.filter((s) => s.kind === 'rpc' && s.rpc?.method.endsWith('/DeleteVolume'))).toHaveLength(1);
    for (const s of refused) expect(s.summary).toMatch(/^external-attacher fails to patch PersistentVolume pvc-[0-9a-f-]+: PersistentVolume "pvc-[0-9a-f-]+" is invalid: metadata\.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers \[\]string\{"[^"]+"(, "[^"]+")*\}\.$/);
    expect(t.steps.some((s) => s.msg === 'externalAttacher.pvFinalizerRemoved')).toBe(true);
    expect(t.final.objects.filter((o) => o.kind === 'PersistentVolume')).toHaveLength(0);
  });
  it('the PV protection controller\'s Update of a copy older than another controller\'s write is a 409 Conflict, retried from a newer copy (the chapter\'s run, both profiles)', () => {
    for (const [k8s, conflicts] of [['1.20', 1], ['1.30', 2]] as const) {
      const t = runScenario('teardown', { k8s });
      const refused = t.steps.filter((s) => s.kind === 'api' && s.api?.code === 409);
      expect([k8s, refused.map((s) => s.component)]).toEqual([k8s, Array(conflicts).fill('pv-protection-controller')]);
      for (const s of refused) expect(s.summary).toMatch(/^pv-protection-controller fails to update PersistentVolume pvc-[0-9a-f-]+: Operation cannot be fulfilled on persistentvolumes "pvc-[0-9a-f-]+": the object has been modified; please apply your changes to the latest version and try again\.$/);
      const removed = t.steps.find((s) => s.component === 'pv-protection-controller' && s.api?.code === 200)!;
      expect(removed.i).toBeGreaterThan(refused.at(-1)!.i);
      expect(t.final.objects.filter((o) => o.kind === 'PersistentVolume')).toHaveLength(0);
    }
  });
});

describe('a clone\'s source claim keeps csi-provisioner\'s cloning-protection finalizer (setCloneFinalizer, CloningProtectionController)', () => {
  const FINALIZER = 'provisioner.storage.kubernetes.io/cloning-protection';
  for (const k8s of ['1.20', '1.30'] as const) {
    it(`${k8s}: the source gets it with an Update before the clone's CreateVolume, keeps it while it lives, and loses it once it is deleted with no clone Pending`, () => {
      const t = runScenario('ceph-rbd-clone', { k8s });
      const set = t.steps.findIndex((s) => s.component === 'external-provisioner' && s.api?.verb === 'update' && s.api.kind === 'PersistentVolumeClaim' && s.api.name === 'cstor-pvc-vdisk');
      const create = t.steps.findIndex((s) => s.rpc?.method.endsWith('/CreateVolume'));
      expect(set).toBeGreaterThanOrEqual(0);
      expect(set).toBeLessThan(create);
      expect(get(t, 'PersistentVolumeClaim', 'cstor-pvc-vdisk')!.metadata.finalizers).toContain(FINALIZER);
      // deleted once the clone is Bound: the CloningProtectionController (which takes only claims being deleted) removes it
      const gone = runScenario('ceph-rbd-clone', { k8s, actions: [{ at: 5000, do: 'delete', kind: 'PersistentVolumeClaim', namespace: 'default', name: 'cstor-pvc-vdisk' }], extendBy: 10_000 });
      const removed = gone.steps.find((s) => s.component === 'external-provisioner' && s.api?.verb === 'update' && s.api.name === 'cstor-pvc-vdisk' && !(s.objects?.[0]?.after?.metadata.finalizers ?? []).includes(FINALIZER));
      expect(removed).toBeDefined();
      expect(get(gone, 'PersistentVolumeClaim', 'cstor-pvc-vdisk')?.metadata.finalizers ?? []).not.toContain(FINALIZER);
      // deleted while the clone is still Pending: the sync fails and is retried with backoff until the clone is Bound
      const early = runScenario('ceph-rbd-clone', { k8s, actions: [{ at: 1100, do: 'delete', kind: 'PersistentVolumeClaim', namespace: 'default', name: 'cstor-pvc-vdisk' }], extendBy: 10_000 });
      const retry = early.steps.find((s) => s.msg === 'externalProvisioner.cloneRetryingClaim')!;
      expect(retry.log).toMatch(/clone_controller\.go:1\d\d\] Retrying syncing claim "default\/cstor-pvc-vdisk" after 0 failures$/);
      const bound = early.steps.findIndex((s) => s.component === 'pv-controller' && s.api?.kind === 'PersistentVolumeClaim' && s.api.name === 'cstor-pvc-clone-vdisk'
        && s.objects?.[0]?.after?.status?.phase === 'Bound');
      expect(early.steps.indexOf(retry)).toBeLessThan(bound);
      expect(get(early, 'PersistentVolumeClaim', 'cstor-pvc-vdisk')?.metadata.finalizers ?? []).not.toContain(FINALIZER);
    });
  }
});

describe('the pod worker logs the sync error when the 2m3s volume wait runs out (pod_workers.go)', () => {
  it('1.20: "Error syncing pod <uid> ("name_ns(uid)"), skipping: …" after kubelet.go\'s own line; 1.30: the structured line alone, with the wait\'s context deadline', () => {
    const t20 = runScenario('multi-attach', { k8s: '1.20' });
    const i = t20.steps.findIndex((s) => s.msg === 'kubelet.unableToAttachOrMount');
    expect(t20.steps[i]!.log).toMatch(/kubelet\.go:1684\] Unable to attach or mount volumes for pod "writer-b_default\([0-9a-f-]{36}\)": /);
    const w20 = t20.steps.find((s, j) => j > i && s.msg === 'kubelet.podWorkerSyncError')!;
    expect(w20.log).toMatch(/^.* E\d{4} [\d:.]+ +\d+ pod_workers\.go:191\] Error syncing pod ([0-9a-f-]{36}) \("writer-b_default\(\1\)"\), skipping: unmounted volumes=\[data\], unattached volumes=\[data\]: timed out waiting for the condition$/);
    const t30 = runScenario('multi-attach', { k8s: '1.30' });
    expect(t30.steps.some((s) => s.msg === 'kubelet.unableToAttachOrMount')).toBe(false);
    const w30 = t30.steps.find((s) => s.msg === 'kubelet.podWorkerSyncError')!;
    expect(w30.log).toMatch(/pod_workers\.go:1298\] "Error syncing pod, skipping" err="unmounted volumes=\[data\], unattached volumes=\[data\], failed to process volumes=\[\]: context deadline exceeded" pod="default\/writer-b" podUID="[0-9a-f-]{36}"$/);
  });
});

describe('a moved pod\'s old object (status_manager.go syncBatch; IsPodTerminated)', () => {
  const at = (t: ReturnType<typeof runScenario>, pred: (s: ReturnType<typeof runScenario>['steps'][number]) => boolean): number => t.steps.find(pred)!.t;
  for (const k8s of ['1.20', '1.30'] as const) {
    it(`${k8s}: the kubelet writes the containers' terminated state first; the controller detaches before the pod object is gone on 1.20, and the old pod goes ${k8s === '1.20' ? 'at the status manager\'s next sync, seconds after the unmount' : 'right after the unmount'}`, () => {
      const t = runScenario('pod-migration', { k8s });
      const old = '11.142.61.164';
      const terminated = at(t, (s) => s.component === 'kubelet' && s.host === old && s.api?.verb === 'patchStatus' && s.api.kind === 'Pod');
      const tornDown = at(t, (s) => s.msg === 'kubelet.tearDownSucceeded' && s.host === old);
      const deleted = at(t, (s) => s.component === 'kubelet' && s.host === old && s.api?.verb === 'delete' && s.api.kind === 'Pod');
      const detach = at(t, (s) => s.msg === 'attachDetachController.detachVolumeStarted');
      expect(terminated).toBeLessThan(tornDown);
      if (k8s === '1.20') {
        expect(deleted - tornDown).toBeGreaterThan(5_000);
        expect(deleted - tornDown).toBeLessThanOrEqual(10_000);
        expect(detach).toBeLessThan(deleted);
        expect(t.steps.some((s) => s.msg === 'attachDetachController.multiAttachExclusive')).toBe(false);
      } else {
        expect(deleted - tornDown).toBeLessThan(1_000);
        expect(t.steps.some((s) => s.msg === 'attachDetachController.multiAttachExclusive')).toBe(true);
      }
    });
  }
});

describe('a kubelet that restarts after it killed a deleted pod (IsPodTerminated; status_manager.go syncPod canBeDeleted)', () => {
  it('1.20: a pod without volumes is deleted right after its containers\' terminated status is written (nothing to reclaim: its syncPod deletes it)', () => {
    const yaml = `apiVersion: v1
kind: Pod
metadata: { name: plain }
spec: { nodeName: node-1, containers: [{ name: app, image: busybox }] }
---
apiVersion: csi-flows/v1
kind: Scenario
metadata: { name: plain }
spec:
  k8s: "1.20"
  actions: [{ at: 20s, delete: Pod/plain }]
  runFor: 1m
`;
    const t = runScenario(scenarioFromManifests(yaml), { recordObjects: false });
    const terminated = t.steps.find((s) => s.component === 'kubelet' && s.api?.verb === 'patchStatus' && s.api.kind === 'Pod' && /terminated/.test(s.summary))!;
    const deleted = t.steps.find((s) => s.component === 'kubelet' && s.api?.verb === 'delete' && s.api.kind === 'Pod')!;
    expect(deleted.t - terminated.t).toBeGreaterThanOrEqual(0);
    expect(deleted.t - terminated.t).toBeLessThan(100);
  });

  // (1.20 only: 1.30 deletes the pod as soon as its volumes are unmounted, before this restart)
  for (const k8s of ['1.20'] as const) {
    it(`${k8s}: finds the pod terminated, adds none of its volumes and deletes it at its first status sync, not at the old process's schedule`, () => {
      // teardown: the pod is deleted at 1s, unmounted by 2.2s; on 1.20 it then waits for the status manager's next syncBatch
      const t = runScenario('teardown', { k8s, actions: [{ at: '3s', do: 'restart', component: 'kubelet/node-1' }] });
      const started = t.steps.filter((s) => s.component === 'kubelet' && s.host === 'node-1' && s.kind === 'state' && /to "running"/.test(s.summary)).at(-1)!.t;
      expect(started).toBeGreaterThan(3000);
      const deletes = t.steps.filter((s) => s.component === 'kubelet' && s.api?.verb === 'delete' && s.api.kind === 'Pod');
      expect(deletes).toHaveLength(1);
      expect(deletes[0]!.t - started).toBeGreaterThanOrEqual(0);
      expect(deletes[0]!.t - started).toBeLessThan(100);
      expect(t.steps.some((s) => s.t > 3000 && s.msg === 'kubelet.verifyControllerAttachedVolumeStarted')).toBe(false);
    });
  }
});

describe('1.30\'s Multi-Attach line (klog v2.120.1 formats a struct value as JSON: internal/serialize/keyvalues.go formatAny)', () => {
  it('prints the whole VolumeToAttach as JSON: the volume spec with its PersistentVolume, and the scheduled pods, without kind or apiVersion', () => {
    const step = runScenario('multi-attach', { k8s: '1.30' }).steps.find((s) => s.msg?.startsWith('attachDetachController.multiAttach'))!;
    const json = JSON.parse(/ volume=(\{.*\})$/.exec(step.log!)![1]!);
    expect(Object.keys(json)).toEqual(['MultiAttachErrorReported', 'VolumeName', 'VolumeSpec', 'NodeName', 'ScheduledPods']);
    expect(json.MultiAttachErrorReported).toBe(false);
    expect(json.VolumeName).toMatch(/^kubernetes\.io\/csi\/com\.tencent\.cloud\.csi\.cbs\^disk-/);
    expect(json.VolumeSpec.Volume).toBeNull();
    expect(json.VolumeSpec.PersistentVolume.spec.csi.volumeHandle).toBe(json.VolumeName.split('^')[1]);
    expect(json.VolumeSpec.PersistentVolume.kind).toBeUndefined();
    expect(Object.keys(json.VolumeSpec.PersistentVolume.metadata).slice(0, 2)).toEqual(['name', 'uid']);
    expect(json.ScheduledPods.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(['writer-b']);
    expect(json.NodeName).toBe('node-2');
  });
});

describe('csi-snapshotter logs its Events (StartLogging(klog.Infof): snapshot_controller_base.go v4.0.0:77, v8.0.1:99)', () => {
  for (const [k8s, line] of [['1.20', 282], ['1.30', 377]] as const) {
    it(`${k8s}: a failed CreateSnapshot's SnapshotCreationFailed Event is printed in the printf form, at event.go:${line}`, () => {
      const t = runScenario('snapshot-restore', { k8s, faults: ['CreateSnapshot=INTERNALx1'] });
      const ev = t.steps.find((s) => s.component === 'external-snapshotter' && s.kind === 'event' && s.summary.includes('SnapshotCreationFailed'))!;
      expect(ev.log).toMatch(new RegExp(`^I\\d{4} [\\d:.]+ +1 event\\.go:${line}\\] Event\\(v1\\.ObjectReference\\{Kind:"VolumeSnapshotContent", Namespace:"", Name:"snapcontent-[0-9a-f-]+", .*\\): type: 'Warning' reason: 'SnapshotCreationFailed' Failed to create snapshot: `));
    });
  }
});

describe('statefulset-rollout at scale', () => {
  it('100 replicas: the pool runs the set before the drain (every volume attached and mounted there), then each pod moves: 100 unmounts, detaches, attaches and mounts, and no volume is attached to the drained pool during the story', () => {
    const t = runScenario('statefulset-rollout', { replicas: 100, k8s: '1.30', recordObjects: false });
    const count = (msg: string) => t.steps.filter((st) => st.msg === msg).length;
    expect([count('kubelet.tearDownSucceeded'), count('attachDetachController.detachSucceeded'), count('attachDetachController.attachSucceeded'), count('kubelet.setUpSucceeded')])
      .toEqual([100, 100, 100, 100]);
    // every attach of the story is to the pool the pods move to
    const publishedTo = t.steps.filter((st) => st.kind === 'rpc' && st.rpc?.method === '/csi.v1.Controller/ControllerPublishVolume').map((st) => String((st.rpc!.request as Record<string, unknown>).node_id));
    expect(publishedTo.length).toBe(100);
    expect(publishedTo.every((n) => n.startsWith('ins-b'))).toBe(true);
  });
});
