/**
 * Every scenario, as data. Times are virtual; `WARM_UP` seconds of cluster start-up (sidecars
 * probing the driver, node plugins registering, pods that exist before the story starts getting
 * their volumes) run before recording starts, so each trace begins where its story begins.
 */
import type { DriverProfile } from '../drivers/types.ts';
import { DRIVERS } from '../drivers/index.ts';
import {
  GiB, boundPv, boundPvc, csiDriver, node, pod, pvc, s, secret, statefulSet, storageClass, volumeSnapshot, volumeSnapshotClass,
} from './objects.ts';
import type { NodeSpec, Scenario, ScenarioData } from './types.ts';
import { UTC_ZONE } from '../shared/goFormat.ts';

const WARM_UP = s(30);
const NS = 'default';

const cbs = (): DriverProfile => DRIVERS['cbs']!;
const ceph = (): DriverProfile => DRIVERS['ceph-rbd']!;
const nfs = (): DriverProfile => DRIVERS['nfs']!;

const twoNodes: NodeSpec[] = [
  { name: 'node-1', hostname: 'node-1', nodeId: 'ins-3kq8d0vz', kubeletPid: 1432 },
  { name: 'node-2', hostname: 'node-2', nodeId: 'ins-7hw2pn4c', kubeletPid: 1518 },
];

/** a cluster with the driver installed: StorageClass, CSIDriver, Nodes */
function base(driver: DriverProfile, nodes: NodeSpec[], sc: Parameters<typeof storageClass>[2] = {}, scName = 'standard') {
  return [storageClass(scName, driver, sc), csiDriver(driver), ...nodes.map(node)];
}

/** csi-driver-nfs's example class (deploy/example/storageclass-nfs.yaml): the export, and the NFS version as a mount option */
const nfsBase = () => base(nfs(), twoNodes, { parameters: { server: 'nfs-server.default.svc.cluster.local', share: '/' }, mountOptions: ['nfsvers=4.1'] }, 'nfs-csi');

/** the ceph-rbd cluster of seed 004: pool rbd, layering images, a "ceph-rbd" StorageClass */
/**
 * The class names the Secret ceph-csi needs for each call, as ceph-csi's examples/rbd/storageclass.yaml does (v3.12.2): the
 * provisioner secret (CreateVolume, DeleteVolume), the controller-expand one (csi-resizer's ControllerExpandVolume) and the
 * node-stage one (the kubelet's NodeStageVolume); csi-provisioner reads the first and records the others on the PV. The
 * Secret holds the Ceph user and key (examples/rbd/secret.yaml).
 */
const cephBase = () => [
  ...base(ceph(), twoNodes, {
    parameters: {
      clusterID: '4a9e463a-4853-4237-a5c5-9ae9d25bacda', pool: 'rbd', imageFeatures: 'layering',
      'csi.storage.k8s.io/provisioner-secret-name': 'csi-rbd-secret', 'csi.storage.k8s.io/provisioner-secret-namespace': NS,
      'csi.storage.k8s.io/controller-expand-secret-name': 'csi-rbd-secret', 'csi.storage.k8s.io/controller-expand-secret-namespace': NS,
      'csi.storage.k8s.io/node-stage-secret-name': 'csi-rbd-secret', 'csi.storage.k8s.io/node-stage-secret-namespace': NS,
      'csi.storage.k8s.io/fstype': 'ext4',
    },
  }, 'ceph-rbd'),
  // (its uid given: the cluster's generated uids, and so the claims' and volumes' names, stay as they were)
  secret(NS, 'csi-rbd-secret', { userID: 'kubernetes', userKey: 'AQBr8dRmXxk0JBAAz3kq9yQwM1s0vV5h0r6FkA==' }, '6c1f0a52-3d7e-4b9a-8f21-5e0c9d4a7b13'),
];

/**
 * ceph-csi's deployment runs csi-provisioner and csi-snapshotter with --extra-create-metadata=true (deploy/rbd/kubernetes/
 * csi-rbdplugin-provisioner.yaml v3.12.2 :117, :133): CreateVolume and CreateSnapshot name the claim, the PV, the snapshot
 * and the content, which ceph-csi (--setmetadata=true) stores on the image. Its other flags are left at the simulation's.
 */
const CEPH_SIDECAR_FLAGS = { 'external-provisioner': { extraCreateMetadata: true }, 'external-snapshotter': { extraCreateMetadata: true } };

/** ceph-csi's examples/rbd/snapshotclass.yaml (v3.12.2): the cluster, and the snapshotter Secret csi-snapshotter reads */
const cephSnapshotClass = () => volumeSnapshotClass('ceph-rbd-snap', ceph(), 'Delete', {
  clusterID: '4a9e463a-4853-4237-a5c5-9ae9d25bacda',
  'csi.storage.k8s.io/snapshotter-secret-name': 'csi-rbd-secret', 'csi.storage.k8s.io/snapshotter-secret-namespace': NS,
});

/** a volume provisioned before the story: backend disk, bound PV and PVC */
function existingVolume(driver: DriverProfile, claim: string, uid: string, volumeId: string, sc = 'standard') {
  const pvName = `pvc-${uid}`;
  return {
    pvName,
    objects: [
      boundPvc(NS, claim, uid, pvName, sc, driver),
      boundPv(pvName, driver, { volumeHandle: volumeId, claimNamespace: NS, claimName: claim, claimUid: uid, sc, volumeAttributes: { 'storage.kubernetes.io/csiProvisionerIdentity': `1672314114387-8081-${driver.name}` } }),
    ],
    backend: { volumeId, name: pvName, capacityBytes: 10 * GiB },
  };
}

const common = (d: Partial<ScenarioData> & Pick<ScenarioData, 'objects' | 'actions' | 'nodes'>): ScenarioData => ({
  driver: 'cbs', start: '2024-05-14T09:30:00Z', hostTz: UTC_ZONE, runFor: WARM_UP + s(180), recordFrom: WARM_UP, ...d,
});

const at = (sec: number): number => WARM_UP + s(sec);

/**
 * A node dies under a StatefulSet pod: db-0 of the one-replica set db runs on node-1 with its volume
 * attached and mounted, and node-1 shuts down at 1 s; `then` is what is done about it.
 */
function nodeShutsDown(then: ScenarioData['actions'], runFor: number): ScenarioData {
  const v = existingVolume(cbs(), 'data-db-0', '7e2a9c4b-6d1f-4b8e-a3c5-9f0d2e4b6a81', 'disk-p3s7u1x5');
  const sts = statefulSet(NS, 'db', { replicas: 1, sc: 'standard' });
  return common({
    nodes: twoNodes, heartbeats: true,
    objects: [...base(cbs(), twoNodes), ...v.objects, sts,
      pod(NS, 'db-0', [{ volume: 'data', claim: 'data-db-0' }], { nodeName: 'node-1', ownerSet: sts })],
    backend: [v.backend],
    actions: [{ at: at(1), do: 'shutdownNode', node: 'node-1' }, ...then],
    runFor,
  });
}

export const SCENARIOS: Scenario[] = [
  {
    id: 'provision',
    title: 'Provision: a PVC becomes a bound PersistentVolume',
    summary: 'A PVC of an Immediate StorageClass: the PV controller hands it to the external-provisioner, which calls CreateVolume and creates the PV; the PV controller binds the two.',
    build: () => common({
      nodes: twoNodes, objects: base(cbs(), twoNodes, { parameters: { diskType: 'CLOUD_PREMIUM' } }),
      actions: [{ at: at(1), do: 'create', object: pvc(NS, 'data', 'standard') }],
      runFor: at(60),
    }),
  },
  {
    id: 'provision-retry',
    title: 'Provision retry: CreateVolume times out, then succeeds',
    summary: 'CreateVolume hangs past csi-provisioner\'s 10-second timeout twice: DeadlineExceeded is not final, so the claim stays "in progress" (the backend may still be creating the disk), ProvisioningFailed events, retries 1 s then 2 s later with the same volume name, and the third call creates the volume; the PV is bound.',
    build: () => common({
      nodes: twoNodes, objects: base(cbs(), twoNodes, { parameters: { diskType: 'CLOUD_PREMIUM' } }),
      // the backend is slow, not broken: a call that outlives the sidecar's --timeout (10s) is cut
      // off with DeadlineExceeded (external-provisioner cmd/csi-provisioner/csi-provisioner.go)
      csiFaults: [{ rpc: 'CreateVolume', code: 'DEADLINE_EXCEEDED', count: 2 }],
      actions: [{ at: at(1), do: 'create', object: pvc(NS, 'data', 'standard') }],
      runFor: at(60),
    }),
  },
  {
    id: 'provision-failed',
    title: 'Provision failed: CreateVolume refuses the request',
    summary: 'The StorageClass asks for a disk type the backend does not offer: CreateVolume answers InvalidArgument, a final error, so csi-provisioner forgets the attempt, records ProvisioningFailed and retries with a growing delay; every retry fails the same way and the claim stays Pending.',
    build: () => common({
      nodes: twoNodes, objects: base(cbs(), twoNodes, { parameters: { diskType: 'CLOUD_ULTRA' } }),
      csiFaults: [{ rpc: 'CreateVolume', code: 'INVALID_ARGUMENT', message: 'diskType CLOUD_ULTRA is not offered in this zone: valid types are CLOUD_PREMIUM, CLOUD_SSD, CLOUD_HSSD' }],
      actions: [{ at: at(1), do: 'create', object: pvc(NS, 'data', 'standard') }],
      runFor: at(90),
    }),
  },
  {
    id: 'attach',
    title: 'Attach: a pod gets its volume attached to its node',
    summary: 'A pod using a bound PVC is scheduled; the attach/detach controller creates a VolumeAttachment, the external-attacher calls ControllerPublishVolume and marks it attached, and the node status lists the volume.',
    build: () => {
      const v = existingVolume(cbs(), 'data', '6f1c1b8e-2f43-4c1e-9d0a-5b7e8c3a91f2', 'disk-q4r8t2mz');
      return common({
        nodes: twoNodes, objects: [...base(cbs(), twoNodes), ...v.objects], backend: [v.backend],
        actions: [{ at: at(1), do: 'create', object: pod(NS, 'web-0', [{ volume: 'data', claim: 'data' }]) }],
        runFor: at(90),
      });
    },
  },
  {
    id: 'attach-failure',
    title: 'Attach failure: ControllerPublishVolume fails, then succeeds',
    summary: 'ControllerPublishVolume outlives csi-attacher\'s 15-second timeout, then fails with Internal: each error is saved in the VolumeAttachment\'s status.attachError, where the attach/detach controller reads it and records FailedAttachVolume with a growing backoff; csi-attacher retries on its own, the third call attaches, and the kubelet goes on to mount.',
    build: () => {
      const v = existingVolume(cbs(), 'data', '2b9e4d71-8c3a-4f5e-b6d2-7a1c0e9f3b58', 'disk-h6p2w9k4');
      return common({
        nodes: twoNodes, objects: [...base(cbs(), twoNodes), ...v.objects], backend: [v.backend],
        // a slow cloud API first (cut off by the sidecar's --timeout, 15s: external-attacher
        // cmd/csi-attacher/main.go), then an error the driver reports
        csiFaults: [
          { rpc: 'ControllerPublishVolume', code: 'DEADLINE_EXCEEDED', count: 1 },
          { rpc: 'ControllerPublishVolume', code: 'INTERNAL', count: 1, message: 'AttachDisk disk-h6p2w9k4 to instance ins-3kq8d0vz: the instance is busy with another disk operation' },
        ],
        actions: [{ at: at(1), do: 'create', object: pod(NS, 'web-0', [{ volume: 'data', claim: 'data' }]) }],
        runFor: at(120),
      });
    },
  },
  {
    id: 'attacher-missing',
    title: 'No external-attacher: the VolumeAttachment is never answered',
    summary: 'The driver needs attaching (its CSIDriver says attachRequired: true) but its controller Deployment runs no csi-attacher: the attach/detach controller creates the VolumeAttachment, waits 2 minutes and reports "timed out waiting for external-attacher", retries with a growing backoff, and the pod never starts.',
    build: () => {
      const v = existingVolume(cbs(), 'data', '7d3f1a96-0e4b-4c28-9b57-e2a8c6d1f403', 'disk-r3t8v1n6');
      return common({
        nodes: twoNodes, objects: [...base(cbs(), twoNodes), ...v.objects], backend: [v.backend],
        without: ['external-attacher'],
        actions: [{ at: at(1), do: 'create', object: pod(NS, 'web-0', [{ volume: 'data', claim: 'data' }]) }],
        runFor: at(420),
      });
    },
  },
  {
    id: 'mount',
    title: 'Mount: the kubelet stages and publishes the volume',
    summary: 'With the volume attached, the kubelet verifies the attachment in the node status, waits for the VolumeAttachment, calls NodeStageVolume (MountDevice) and NodePublishVolume (SetUp), and the pod starts.',
    build: () => {
      const v = existingVolume(cbs(), 'data', '0d2e7a54-93b1-4f6e-a8c2-1e5f9b7d3c40', 'disk-m7x2k9p4');
      return common({
        nodes: twoNodes, objects: [...base(cbs(), twoNodes), ...v.objects], backend: [v.backend],
        actions: [{ at: at(1), do: 'create', object: pod(NS, 'web-0', [{ volume: 'data', claim: 'data' }]) }],
        runFor: at(90),
        // the story starts where attach ends: the kubelet finds the volume in the node's status
        recordFromMessage: { msg: 'kubelet.controllerAttachSucceeded', leadUs: s(0.05) },
      });
    },
  },
  {
    id: 'mount-failure',
    title: 'Mount failure: NodeStageVolume fails, times out, then succeeds',
    summary: 'The kubelet\'s NodeStageVolume fails at once (Internal: the disk\'s device has not shown up on the node yet), then hangs until the kubelet\'s 2-minute deadline: FailedMount events, exponential backoff, the device mount left Uncertain so that the next try stages it again; the third try succeeds and the pod runs.',
    build: () => {
      const v = existingVolume(cbs(), 'data', '5c1e8a3f-7b2d-4f90-9e6a-3d8b1c4f2a07', 'disk-c8n3f6r1');
      return common({
        nodes: twoNodes, objects: [...base(cbs(), twoNodes), ...v.objects], backend: [v.backend],
        // a final error first (the operation fails, nothing is mounted), then a call the node plugin
        // never answers: DeadlineExceeded is not final, so the kubelet records the device mount as
        // uncertain (pkg/volume/csi/csi_attacher.go MountDevice, csi_client.go isFinalError)
        csiFaults: [
          { rpc: 'NodeStageVolume', code: 'INTERNAL', count: 1, message: 'disk disk-c8n3f6r1 attached, but its device has not appeared on the node: timed out waiting for /dev/disk/by-id/virtio-disk-c8n3f6r1' },
          { rpc: 'NodeStageVolume', code: 'DEADLINE_EXCEEDED', count: 1 },
        ],
        actions: [{ at: at(1), do: 'create', object: pod(NS, 'web-0', [{ volume: 'data', claim: 'data' }]) }],
        runFor: at(240),
        recordFromMessage: { msg: 'kubelet.controllerAttachSucceeded', leadUs: s(0.05) },
      });
    },
  },
  {
    id: 'fsgroup',
    title: 'fsGroup: the kubelet gives every file of the volume the pod\'s group',
    summary: 'A pod with securityContext.fsGroup: after NodePublishVolume the kubelet itself walks the volume and gives every file the pod\'s group (SetVolumeOwnership). This volume holds many files: the walk takes 45 s, the kubelet warns after 30 s, and the pod starts only when it ends.',
    build: () => {
      const v = existingVolume(cbs(), 'data', '7f3c9a12-4e6b-4d8a-9c1e-5b2d8f6a0e34', 'disk-f5g2r8w1');
      return common({
        nodes: twoNodes, objects: [...base(cbs(), twoNodes), ...v.objects], backend: [v.backend],
        actions: [{ at: at(1), do: 'create', object: pod(NS, 'web-0', [{ volume: 'data', claim: 'data' }], { fsGroup: 2000 }) }],
        // a volume of millions of small files: the walk over them, not a CSI call, is what the pod waits for
        hostFaults: [{ op: 'SetVolumeOwnership', delayMs: 45_000 }],
        runFor: at(120),
        recordFromMessage: { msg: 'kubelet.controllerAttachSucceeded', leadUs: s(0.05) },
      });
    },
  },
  {
    id: 'teardown',
    title: 'Teardown: unmount, unstage, detach, delete',
    summary: 'The pod is deleted: the kubelet unpublishes and unstages, reports the volume no longer in use, the attach/detach controller detaches it through the VolumeAttachment; then the PVC is deleted and the PV and disk go away.',
    build: () => {
      const v = existingVolume(cbs(), 'data', '9a7b3c1d-5e2f-4a6b-8c9d-0e1f2a3b4c5d', 'disk-t5v1w8y3');
      return common({
        nodes: twoNodes, objects: [...base(cbs(), twoNodes), ...v.objects,
          pod(NS, 'web-0', [{ volume: 'data', claim: 'data' }], { nodeName: 'node-1' })],
        backend: [v.backend],
        actions: [
          { at: at(1), do: 'delete', kind: 'Pod', namespace: NS, name: 'web-0' },
          { at: at(60), do: 'delete', kind: 'PersistentVolumeClaim', namespace: NS, name: 'data' },
        ],
        runFor: at(150),
      });
    },
  },
  {
    id: 'pod-migration',
    seed: '000',
    title: 'A StatefulSet pod moves to another node (seed 000, cbs-csi)',
    summary: 'Pod weixin-zixun-l3-vob-rbu-online-6 is deleted on 11.142.61.164 and recreated on 11.142.60.212: unmount and unstage on the old node, detach through the external-attacher, attach to the new node, then verify, stage and publish there.',
    build: () => {
      const driver = cbs();
      const pvName = 'pvc-4cde4524-6ba4-449c-891b-fe9ce8138e33';
      const claim = 'data-weixin-zixun-l3-vob-rbu-online-6';
      const set = 'weixin-zixun-l3-vob-rbu-online';
      const nodes: NodeSpec[] = [
        // The old node's kubelet, placed in time as the seed shows it: its node status update drops the volume from
        // volumesInUse at about 14:58:14.2 (the controller's DetachVolume at 14:58:14.245), and its status manager's
        // syncBatch deletes the pod at about 14:58:18.7 (the new pod's first line at 14:58:18.88). Virtual time 0 is
        // 14:57:38.2 (the story starts at 14:58:07.6, 29.4s in): the update runs 6.0s into each 10s, and an uptime of
        // …9.5s puts the ticks at 0.5s into each 10s of virtual time.
        { name: '11.142.61.164', hostname: 'VM-61-164-centos', nodeId: 'ins-ngtfnf7y', kubeletPid: 21944, kubeletRoot: '/data_online/1/kubelet', kubeletUptimeUs: 132_409_500_000, nodeStatusOffsetUs: 6_000_000 },
        { name: '11.142.60.212', hostname: 'VM-60-212-centos', nodeId: 'ins-hrlnsway', kubeletPid: 20721, kubeletRoot: '/data_online/1/kubelet', kubeletUptimeUs: 132_490_000_000 },
      ];
      const sts = statefulSet(NS, set, { replicas: 7, sc: 'cbs', policy: 'Parallel' });
      return {
        driver: 'cbs', nodes,
        // the seed's hosts and kube-controller-manager print China Standard Time; containers print UTC
        start: '2023-01-11T14:58:07.600+08:00', hostTz: { offsetMin: 480, zone: 'CST' },
        apiServerUrl: 'https://9.165.248.1:443',
        provisionerIdentity: '1672314114387-8081-com.tencent.cloud.csi.cbs',
        objects: [
          storageClass('cbs', driver, { parameters: { diskType: 'CLOUD_PREMIUM' } }), csiDriver(driver), ...nodes.map(node), sts,
          boundPvc(NS, claim, '4cde4524-6ba4-449c-891b-fe9ce8138e33', pvName, 'cbs', driver),
          boundPv(pvName, driver, {
            volumeHandle: 'disk-adge0gvc', claimNamespace: NS, claimName: claim, claimUid: '4cde4524-6ba4-449c-891b-fe9ce8138e33', sc: 'cbs', fsType: 'ext4',
            volumeAttributes: { diskType: 'CLOUD_PREMIUM', 'storage.kubernetes.io/csiProvisionerIdentity': '1672314114387-8081-com.tencent.cloud.csi.cbs' },
          }),
          pod(NS, `${set}-6`, [{ volume: 'data', claim }], { nodeName: '11.142.61.164', uid: '5ca209fd-23d0-4f60-a56b-96a4f9f47c1e', ownerSet: sts }),
        ],
        backend: [{ volumeId: 'disk-adge0gvc', name: pvName, capacityBytes: 10 * GiB }],
        // The seed's csi-attacher waits on its client-side rate limiter (two "Throttling request took"
        // lines): the rest of the cluster's volumes keep its budget spent. Modelled as a burst of 1.
        apiClients: { 'external-attacher': { qps: 5, burst: 1 } },
        actions: [
          { at: WARM_UP - s(0.5), do: 'patch', kind: 'Node', name: '11.142.61.164', patch: { spec: { unschedulable: true } }, summary: 'You cordon node 11.142.61.164, so that the recreated pod lands on another node.' },
          { at: WARM_UP, do: 'delete', kind: 'Pod', namespace: NS, name: `${set}-6`, summary: `You delete pod ${set}-6 (a StatefulSet update would do the same); the StatefulSet controller will recreate it.` },
        ],
        runFor: WARM_UP + s(120), recordFrom: WARM_UP - s(0.6),
      };
    },
  },
  {
    id: 'multi-attach',
    title: 'Multi-Attach: a ReadWriteOnce volume wanted on two nodes',
    summary: 'A second pod on another node uses the same ReadWriteOnce PVC: the attach/detach controller refuses to attach it there and reports a Multi-Attach error; the pod waits in ContainerCreating.',
    build: () => {
      const v = existingVolume(cbs(), 'shared', '3b8d6f2a-1c4e-4e7a-9b5d-2f6a8c0e4d17', 'disk-h2j6k8n1');
      return common({
        nodes: twoNodes, objects: [...base(cbs(), twoNodes), ...v.objects,
          pod(NS, 'writer-a', [{ volume: 'data', claim: 'shared' }], { nodeName: 'node-1' })],
        backend: [v.backend],
        actions: [{ at: at(1), do: 'create', object: pod(NS, 'writer-b', [{ volume: 'data', claim: 'shared' }], { nodeName: 'node-2' }) }],
        runFor: at(200),
      });
    },
  },
  {
    id: 'no-attach',
    title: 'No attach: an NFS volume shared by pods on two nodes',
    summary: 'csi-driver-nfs\'s CSIDriver says attachRequired: false and its node plugin has no STAGE_UNSTAGE_VOLUME: a ReadWriteMany claim is provisioned as a subdirectory of an NFS export, and two pods on two nodes mount it at once. No VolumeAttachment, no ControllerPublishVolume, no NodeStageVolume: the kubelet marks the volume attached itself and goes straight to NodePublishVolume. Deleting one pod unmounts it from that node only.',
    build: () => common({
      // deploy/v4.13.4/csi-nfs-controller.yaml runs csi-provisioner, csi-resizer and csi-snapshotter: no csi-attacher
      driver: 'nfs', nodes: twoNodes, without: ['external-attacher'],
      objects: nfsBase(),
      actions: [
        { at: at(1), do: 'create', object: pvc(NS, 'shared', 'nfs-csi', { accessModes: ['ReadWriteMany'] }) },
        { at: at(2), do: 'create', object: pod(NS, 'writer-a', [{ volume: 'data', claim: 'shared' }], { nodeName: 'node-1' }) },
        { at: at(2), do: 'create', object: pod(NS, 'writer-b', [{ volume: 'data', claim: 'shared' }], { nodeName: 'node-2' }) },
        { at: at(40), do: 'delete', kind: 'Pod', namespace: NS, name: 'writer-a' },
      ],
      runFor: at(90),
    }),
  },
  {
    id: 'register',
    title: 'Register: the node plugin announces the driver to the kubelet',
    summary: 'The driver\'s node DaemonSet starts on two nodes in two zones. On each, node-driver-registrar asks the driver its name (GetPluginInfo) and opens its registration socket in the kubelet\'s plugins_registry; the kubelet\'s plugin watcher finds it, asks what it is (GetInfo), registers the driver, and asks the driver about the node (NodeGetInfo: its ID, its zone, how many volumes it can take). It writes the node ID annotation and the zone label on the Node and the driver into CSINode (topologyKeys, allocatable count), then tells the registrar it worked.',
    build: () => {
      // cbs reports the CVM's zone from the instance metadata: here the node's zone label
      const zoned: NodeSpec[] = twoNodes.map((n, i) => ({ ...n, labels: { 'topology.kubernetes.io/zone': i === 0 ? 'ap-guangzhou-3' : 'ap-guangzhou-4' } }));
      return common({
        nodes: zoned, objects: base(cbs(), zoned),
        // the csi-cbs-node DaemonSet's pods (node-driver-registrar and the cbs plugin) start on node-1, then on node-2
        startAt: {
          'csi-node-plugin/node-1': at(1), 'node-driver-registrar/node-1': at(1),
          'csi-node-plugin/node-2': at(4), 'node-driver-registrar/node-2': at(4),
        },
        actions: [],
        runFor: at(20),
      });
    },
  },
  {
    id: 'driver-not-registered',
    title: 'Driver not registered: the pod waits for the node plugin',
    summary: 'A pod with an NFS claim lands on node-1 while csi-driver-nfs\'s node pod there is still pulling its images. The kubelet cannot create a CSI client for a driver that has not registered: every MountDevice fails at once with "driver name nfs.csi.k8s.io not found in the list of registered CSI drivers", FailedMount events, and the retries back off (0.5 s, 1 s, 2 s, … doubling). When the node plugin starts, node-driver-registrar hands its socket to the kubelet\'s plugin watcher, the kubelet registers the driver (NodeGetInfo, CSINode), and the next retry mounts.',
    build: () => common({
      // deploy/v4.13.4: no csi-attacher; the csi-nfs-node DaemonSet pod on node-1 (node-driver-registrar
      // and the nfs container) starts 25 s into the story
      driver: 'nfs', nodes: twoNodes, without: ['external-attacher'],
      startAt: { 'csi-node-plugin/node-1': at(25), 'node-driver-registrar/node-1': at(25) },
      objects: nfsBase(),
      actions: [
        { at: at(1), do: 'create', object: pvc(NS, 'shared', 'nfs-csi', { accessModes: ['ReadWriteMany'] }) },
        { at: at(2), do: 'create', object: pod(NS, 'web-0', [{ volume: 'data', claim: 'shared' }], { nodeName: 'node-1' }) },
      ],
      runFor: at(75),
    }),
  },
  {
    id: 'force-detach',
    title: 'Force detach: a node shuts down, the volume is detached after 6 minutes',
    summary: 'The node running the pod shuts down. The pod is force-deleted and recreated elsewhere; the volume stays attached (and "in use" in the dead node\'s status) until maxWaitForUnmountDuration, 6 minutes, expires and the attach/detach controller detaches it anyway.',
    build: () => nodeShutsDown([
      { at: at(70), do: 'delete', kind: 'Pod', namespace: NS, name: 'db-0', gracePeriodSeconds: 0, summary: 'You force-delete pod db-0 (kubectl delete pod --force --grace-period=0): its node is gone and will never confirm.' },
    ], at(720)),
  },
  {
    id: 'node-out-of-service',
    title: 'Non-graceful node shutdown: the out-of-service taint frees the volume at once',
    summary: 'The node running the pod shuts down. Once it is NotReady you taint it node.kubernetes.io/out-of-service=nodeshutdown:NoExecute. On 1.30 the taint eviction controller deletes the pod, the pod garbage collector force-deletes it (its kubelet never will), and the attach/detach controller detaches the volume without the 6-minute wait; the StatefulSet\'s new pod starts on the other node. On 1.20 nothing honours the taint: the evicted pod stays Terminating and no new pod is made.',
    build: () => nodeShutsDown([
      { at: at(70), do: 'taint', node: 'node-1', taint: 'node.kubernetes.io/out-of-service=nodeshutdown:NoExecute', summary: 'You make sure node-1 is really off, then taint it out of service (kubectl taint nodes node-1 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute).' },
    ], at(240)),
  },
  {
    id: 'ad-detach-backoff',
    seed: '002',
    title: 'Detach fails, the pod comes back to the same node (seed 002)',
    summary: 'A StatefulSet pod is deleted and ControllerUnpublishVolume fails; while the attach/detach controller backs off, the pod is recreated on the same node. On 1.20 the controller has dropped the volume from node.status.volumesAttached while still holding it attached: the pod stays ContainerCreating until the failing detach has finally gone through and the controller\'s once-a-minute syncStates finds the VolumeAttachment gone, marks the volume detached and attaches it again (with the seed\'s in-tree plugin the disk stayed attached and the pod waited for good). On 1.30 it runs: the failed detach left the attachment Uncertain (kubernetes#120595, 1.29), so once the old VolumeAttachment is gone the controller attaches the volume again and reports it.',
    build: () => {
      const v = existingVolume(cbs(), 'data-web-0', '2c4e6a8b-0d1f-4e3a-b5c7-d9e1f3a5b7c9', 'disk-7bfqsft5');
      const one: NodeSpec[] = [{ name: 'node-1', hostname: 'node-1', nodeId: 'ins-3kq8d0vz', kubeletPid: 1432 }];
      const sts = statefulSet(NS, 'web', { replicas: 1, sc: 'standard' });
      return common({
        nodes: one,
        objects: [...base(cbs(), one), ...v.objects, sts,
          pod(NS, 'web-0', [{ volume: 'data', claim: 'data-web-0' }], { nodeName: 'node-1', ownerSet: sts })],
        backend: [v.backend],
        // the cloud API keeps refusing the detach for a while (kubernetes#72181: "is detaching disk, please retry later")
        csiFaults: [{ rpc: 'ControllerUnpublishVolume', code: 'INTERNAL', count: 6, message: 'cvm(ins-3kq8d0vz) is detaching disk, please retry later' }],
        actions: [
          { at: at(1), do: 'delete', kind: 'StatefulSet', namespace: NS, name: 'web', summary: 'You delete StatefulSet web (kubernetes#88565: delete the StatefulSet, then re-create it).' },
          { at: at(1.2), do: 'delete', kind: 'Pod', namespace: NS, name: 'web-0', summary: 'You delete its pod web-0 too.' },
          { at: at(45), do: 'create', object: sts, summary: 'You re-create StatefulSet web while the detach of its volume is still failing; its pod goes back to node-1, the only node.' },
        ],
        runFor: at(480),
      });
    },
  },
  {
    id: 'wffc-provision',
    seed: '003',
    title: 'WaitForFirstConsumer: the scheduler picks the node, then the volume is created there',
    summary: 'A PVC of a WaitForFirstConsumer class stays Pending until a pod uses it; the scheduler picks a node and writes volume.kubernetes.io/selected-node; the provisioner creates the volume in that node\'s zone; binding, attach and mount follow.',
    build: () => {
      const nodes: NodeSpec[] = twoNodes.map((n, i) => ({ ...n, labels: { 'topology.kubernetes.io/zone': i === 0 ? 'zone-a' : 'zone-b' } }));
      return common({
        nodes, objects: base(cbs(), nodes, { bindingMode: 'WaitForFirstConsumer' }, 'csi-disk'),
        actions: [
          { at: at(1), do: 'create', object: pvc(NS, 'pvc-evs-test', 'csi-disk') },
          { at: at(10), do: 'create', object: pod(NS, 'app-0', [{ volume: 'data', claim: 'pvc-evs-test' }]) },
        ],
        runFor: at(120),
      });
    },
  },
  {
    id: 'ceph-rbd-create',
    seed: '004',
    title: 'ceph-csi RBD: CreateVolume through the omap journal',
    summary: 'ceph-csi reserves the volume in the RADOS omap journal (csi.volumes.default, then csi.volume.<uuid>), creates the RBD image csi-vol-<uuid>, and stores its image id.',
    build: () => common({
      driver: 'ceph-rbd', nodes: twoNodes, componentInputs: CEPH_SIDECAR_FLAGS,
      objects: cephBase(),
      actions: [{ at: at(1), do: 'create', object: pvc(NS, 'cstor-pvc-vdisk', 'ceph-rbd', { size: '1Gi' }) }],
      runFor: at(60),
    }),
  },
  {
    id: 'ceph-rbd-clone',
    seed: '004',
    title: 'ceph-csi RBD: cloning a PVC through -temp images and snapshots',
    summary: 'A PVC whose dataSource is another PVC: ceph-csi snapshots the parent, clones a -temp image, snapshots that and clones the final image, removing each intermediate snapshot.',
    build: () => common({
      driver: 'ceph-rbd', nodes: twoNodes, componentInputs: CEPH_SIDECAR_FLAGS,
      objects: cephBase(),
      actions: [
        // the parent volume is created during warm-up
        { at: s(5), do: 'create', object: pvc(NS, 'cstor-pvc-vdisk', 'ceph-rbd', { size: '1Gi' }) },
        { at: at(1), do: 'create', object: pvc(NS, 'cstor-pvc-clone-vdisk', 'ceph-rbd', { size: '1Gi', dataSource: { kind: 'PersistentVolumeClaim', name: 'cstor-pvc-vdisk' } }) },
      ],
      runFor: at(60),
    }),
  },
  {
    id: 'ceph-rbd-snapshot',
    seed: '004',
    title: 'ceph-csi RBD: a snapshot is a clone, and a volume restored from it',
    summary: 'Seed 004\'s third way to create a volume. A VolumeSnapshot of claim cstor-pvc-vdisk: ceph-csi reserves the snapshot in its own journal (csi.snaps.default, then csi.snap.<uuid> with the source image), snapshots the volume\'s image, clones that snapshot into an image csi-snap-<uuid>, drops the source\'s snapshot and snapshots the clone under the same name, then checks the clone depth against the flatten limits. A claim restored from the VolumeSnapshot is one clone of that snapshot.',
    build: () => common({
      driver: 'ceph-rbd', nodes: twoNodes, componentInputs: CEPH_SIDECAR_FLAGS,
      objects: [...cephBase(), cephSnapshotClass()],
      actions: [
        // the source volume is created during warm-up
        { at: s(5), do: 'create', object: pvc(NS, 'cstor-pvc-vdisk', 'ceph-rbd', { size: '1Gi' }) },
        { at: at(1), do: 'create', object: volumeSnapshot(NS, 'cstor-snap-vdisk', 'ceph-rbd-snap', 'cstor-pvc-vdisk'), summary: 'You create VolumeSnapshot default/cstor-snap-vdisk of claim cstor-pvc-vdisk.' },
        { at: at(15), do: 'create', object: pvc(NS, 'cstor-pvc-restore-vdisk', 'ceph-rbd', { size: '1Gi', dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'cstor-snap-vdisk' } }), summary: 'You create claim default/cstor-pvc-restore-vdisk from VolumeSnapshot cstor-snap-vdisk.' },
      ],
      runFor: at(40),
    }),
  },
  {
    id: 'ceph-rbd-delete',
    seed: '004',
    title: 'ceph-csi RBD: DeleteVolume through the trash',
    summary: 'The PVC is deleted; the PV is Released and the external-provisioner calls DeleteVolume: ceph-csi checks the image is unused, moves it to the trash, schedules its removal and removes the journal entries.',
    build: () => common({
      driver: 'ceph-rbd', nodes: twoNodes, componentInputs: CEPH_SIDECAR_FLAGS,
      objects: cephBase(),
      actions: [
        { at: s(5), do: 'create', object: pvc(NS, 'cstor-pvc-vdisk', 'ceph-rbd', { size: '1Gi' }) },
        { at: at(1), do: 'delete', kind: 'PersistentVolumeClaim', namespace: NS, name: 'cstor-pvc-vdisk' },
      ],
      runFor: at(60),
    }),
  },
  {
    id: 'expand-online',
    title: 'Expand online: a mounted volume grows while its pod runs',
    summary: 'A running pod\'s claim asks for 2Gi instead of 1Gi. csi-resizer marks it Resizing and calls ControllerExpandVolume; ceph-csi grows the RBD image and says the node must grow the file system, so the claim turns FileSystemResizePending. Nothing tells the kubelet: at its next periodic sync of the pod (every 60 to 90 s) it reads the claim and the PV again, sees the PV larger, and runs ExpandInUseVolume: NodeExpandVolume on the pod\'s mount, the FileSystemResizeSuccessful events, and the claim\'s status.capacity set to 2Gi.',
    build: () => common({
      driver: 'ceph-rbd', nodes: twoNodes, componentInputs: CEPH_SIDECAR_FLAGS,
      objects: cephBase(),
      actions: [
        // provisioned, attached and mounted during the warm-up
        { at: s(2), do: 'create', object: pvc(NS, 'data', 'ceph-rbd', { size: '1Gi' }) },
        { at: s(3), do: 'create', object: pod(NS, 'web-0', [{ volume: 'data', claim: 'data' }], { nodeName: 'node-1' }) },
        { at: at(1), do: 'patch', kind: 'PersistentVolumeClaim', namespace: NS, name: 'data', patch: { spec: { resources: { requests: { storage: '2Gi' } } } }, summary: 'You edit claim default/data to ask for 2Gi (it has 1Gi).' },
      ],
      runFor: at(120),
    }),
  },
  {
    id: 'snapshot-restore',
    title: 'Snapshot and restore: a VolumeSnapshot, then a claim made from it',
    summary: 'You snapshot claim data: the snapshot-controller creates a VolumeSnapshotContent, csi-snapshotter calls CreateSnapshot and marks the content ready, and the snapshot-controller marks the VolumeSnapshot readyToUse. Then a new claim names the snapshot as its dataSource: csi-provisioner reads the snapshot and its content, calls CreateVolume with the snapshot as the volume content source, and the claim is bound to a volume that starts as a copy of data.',
    build: () => common({
      driver: 'ceph-rbd', nodes: twoNodes, componentInputs: CEPH_SIDECAR_FLAGS,
      objects: [...cephBase(), cephSnapshotClass()],
      actions: [
        // provisioned during the warm-up
        { at: s(2), do: 'create', object: pvc(NS, 'data', 'ceph-rbd', { size: '1Gi' }) },
        { at: at(1), do: 'create', object: volumeSnapshot(NS, 'data-snap', 'ceph-rbd-snap', 'data'), summary: 'You create VolumeSnapshot default/data-snap of claim data.' },
        { at: at(15), do: 'create', object: pvc(NS, 'restored', 'ceph-rbd', { size: '1Gi', dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'data-snap' } }), summary: 'You create claim default/restored with dataSource VolumeSnapshot data-snap.' },
      ],
      runFor: at(40),
    }),
  },
  {
    id: 'expand-offline',
    title: 'Expand offline: the claim grows while no pod uses it, the kubelet finishes at the next mount',
    summary: 'A claim that no pod uses asks for 2Gi instead of 1Gi. csi-resizer expands the RBD image (ControllerExpandVolume) and leaves the claim FileSystemResizePending: the file system can only grow on a node. When a pod using the claim starts, the kubelet finishes it inside MountVolume: on 1.20 right after NodeStageVolume, on the staging path; on 1.30 after NodePublishVolume, on the pod\'s path. Then FileSystemResizeSuccessful and the claim\'s status.capacity 2Gi.',
    build: () => common({
      driver: 'ceph-rbd', nodes: twoNodes, componentInputs: CEPH_SIDECAR_FLAGS,
      objects: cephBase(),
      actions: [
        { at: s(2), do: 'create', object: pvc(NS, 'data', 'ceph-rbd', { size: '1Gi' }) },
        { at: at(1), do: 'patch', kind: 'PersistentVolumeClaim', namespace: NS, name: 'data', patch: { spec: { resources: { requests: { storage: '2Gi' } } } }, summary: 'You edit claim default/data to ask for 2Gi (it has 1Gi); no pod uses it.' },
        { at: at(20), do: 'create', object: pod(NS, 'web-0', [{ volume: 'data', claim: 'data' }], { nodeName: 'node-1' }) },
      ],
      runFor: at(60),
    }),
  },
  {
    id: 'block-volume',
    title: 'Raw block volume: mapped into the pod, not mounted',
    summary: 'A claim with volumeMode: Block gets an RBD image with no file system, and a pod uses it through volumeDevices. csi-provisioner asks CreateVolume for a Block capability; the attach is the same as for any volume. The kubelet runs MapVolume instead of MountVolume: NodeStageVolume maps the image on the node (no mkfs), NodePublishVolume publishes the device to a file for the pod, and the kubelet links it into the pod\'s volumeDevices directory: "MapVolume.MapPodDevice succeeded". When the pod goes, UnmapVolume (NodeUnpublishVolume) and UnmapDevice (NodeUnstageVolume) undo it, and the volume is detached.',
    build: () => common({
      driver: 'ceph-rbd', nodes: twoNodes, componentInputs: CEPH_SIDECAR_FLAGS,
      objects: cephBase(),
      actions: [
        { at: at(1), do: 'create', object: pvc(NS, 'raw', 'ceph-rbd', { size: '1Gi', volumeMode: 'Block' }), summary: 'You create claim default/raw with volumeMode: Block.' },
        { at: at(2), do: 'create', object: pod(NS, 'db-0', [{ volume: 'raw', claim: 'raw' }], { devices: true }), summary: 'You create pod default/db-0, which uses the claim as the device /dev/xvda (volumeDevices).' },
        { at: at(45), do: 'delete', kind: 'Pod', namespace: NS, name: 'db-0', summary: 'You delete pod db-0.' },
      ],
      runFor: at(100),
    }),
  },
  {
    id: 'kubelet-restart',
    title: 'Kubelet restart: the volumes it finds on disk',
    summary: 'The kubelet on node-1 restarts while pod web-0 runs there with its volume staged and mounted. The new process remembers nothing. On 1.30 it reads the pod volume directories on disk and marks each volume, device and pod mount, as uncertain (reconstruction), so MountVolume runs again: NodeStageVolume and NodePublishVolume, both idempotent. The first try can come before the driver has registered again ("not found in the list of registered CSI drivers") and is retried once the registrar\'s socket is found. On 1.20 the new kubelet verifies and mounts the wanted volume from scratch. The pod keeps running throughout.',
    build: () => {
      const v = existingVolume(cbs(), 'data', '5d0c2a8e-9b41-4f6a-8e37-1c2b3d4e5f60', 'disk-k7r2m9q4');
      return common({
        nodes: twoNodes,
        objects: [...base(cbs(), twoNodes), ...v.objects, pod(NS, 'web-0', [{ volume: 'data', claim: 'data' }], { nodeName: 'node-1' })],
        backend: [v.backend],
        actions: [{ at: at(1), do: 'restart', component: 'kubelet/node-1', summary: 'The kubelet on node-1 restarts (systemctl restart kubelet); pod web-0 keeps running.' }],
        runFor: at(30),
      });
    },
  },
  {
    id: 'statefulset-rollout',
    title: 'StatefulSet rollout: every pod moves to another node',
    summary: 'An N-replica StatefulSet runs on one pool of nodes; the pool is drained (cordoned, pods deleted) and every pod is recreated on the other pool: N detaches, N attaches, N mounts.',
    takesReplicas: true,
    defaultReplicas: 3,
    build: ({ replicas }) => {
      const perPool = Math.max(1, Math.ceil(replicas / 25));
      const mk = (pool: string, i: number): NodeSpec => ({ name: `${pool}-${i}`, hostname: `${pool}-${i}`, nodeId: `ins-${pool}${String(i).padStart(5, '0')}`, kubeletPid: 1200 + i });
      const poolA = Array.from({ length: perPool }, (_, i) => mk('a', i));
      const poolB = Array.from({ length: perPool }, (_, i) => mk('b', i));
      const nodes = [...poolA, ...poolB];
      const driver = cbs();
      const sts = statefulSet(NS, 'web', { replicas, sc: 'standard', policy: 'Parallel' });
      const objects = [...base(driver, nodes), sts];
      const backend = [];
      for (let i = 0; i < replicas; i++) {
        const uid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
        const v = existingVolume(driver, `data-web-${i}`, uid, `disk-${String(i).padStart(8, '0')}`);
        objects.push(...v.objects, pod(NS, `web-${i}`, [{ volume: 'data', claim: `data-web-${i}` }], { nodeName: poolA[i % perPool]!.name, ownerSet: sts }));
        backend.push(v.backend);
      }
      // cbs takes ~11.5s per ControllerPublish and ~6.4s per ControllerUnpublish, and csi-attacher
      // works on --worker-threads VolumeAttachments at a time (default 10): a large rollout is only as
      // fast as that. Operators of large clusters raise the flag; so does this scenario, keeping about
      // ten VolumeAttachments per worker, so the rollout finishes in a few virtual minutes at any size.
      const workerThreads = Math.max(10, Math.ceil(replicas / 10));
      // The pool runs the set before the drain: every volume attached and mounted there. With more VolumeAttachments
      // than workers the first attaches take rounds of ~11.5 s (up to ten), and a kubelet that found its volume not
      // attached yet looks again after a doubling backoff (0.5 s ... 2m2s): the warm-up waits for that, or the drain
      // would start while the old pods' volumes are still being attached.
      const warmUp = Math.ceil(replicas / workerThreads) <= 1 ? WARM_UP : s(300);
      const actions: ScenarioData['actions'] = [];
      for (const n of poolA) actions.push({ at: warmUp - s(1), do: 'patch', kind: 'Node', name: n.name, patch: { spec: { unschedulable: true } }, summary: `You cordon ${n.name}.` });
      for (let i = 0; i < replicas; i++) actions.push({ at: warmUp + i * 1000, do: 'delete', kind: 'Pod', namespace: NS, name: `web-${i}`, summary: `The drain evicts web-${i}.` });
      return common({
        nodes, objects, backend, actions, runFor: warmUp + s(420), recordFrom: warmUp,
        componentInputs: { 'external-attacher': { workerThreads } },
      });
    },
  },
];
