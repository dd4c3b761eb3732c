/**
 * The CSI RPCs in words: what each asks of the driver, who calls it in a Kubernetes cluster, and the
 * error codes the spec asks for that callers act on. Which components call or serve an RPC in the
 * simulation, and with which reply codes, comes from the traces (rpcSummaries) and is not repeated.
 * upstream: container-storage-interface/spec spec.md (v1.9.0) "Error Scheme" per RPC;
 * k8s.io/kubelet/pkg/apis/pluginregistration/v1/api.proto for the registration API.
 */
import type { GrpcCode } from '../../machines/index.ts';
import { CSI_RPCS, REGISTRATION_RPCS } from '../../machines/shared/csi.ts';
import type { CsiService } from '../../machines/view/components.ts';
import type { Lang } from '../site/i18n.ts';
import { RPC_PROSE_ZH, SERVICE_PROSE_ZH } from './rpcs.zh.ts';

export interface RpcProse {
  /** what the driver is asked to do */
  does: string;
  /** who calls it in Kubernetes, and when */
  caller: string;
  /** codes with a meaning of their own for this RPC */
  codes: Array<{ code: GrpcCode; when: string }>;
}

export const SERVICE_PROSE: Record<CsiService, { title: string; summary: string }> = {
  Identity: {
    title: 'Identity service',
    summary: 'Served by every plugin, controller and node alike: who the driver is, what it can do, and whether it is ready. Sidecars ask at start-up.',
  },
  Controller: {
    title: 'Controller service',
    summary: 'Served by the controller plugin: operations on volumes that do not need to run on the node that uses them (create, delete, attach to a node, detach, snapshot, expand). The sidecars in the controller pod call it.',
  },
  Node: {
    title: 'Node service',
    summary: 'Served by the node plugin on every node: operations that must run on the node using the volume (stage, publish and their reverse). The kubelet calls it.',
  },
  Registration: {
    title: 'Kubelet plugin registration',
    summary: 'Not part of CSI: the kubelet’s own API for discovering plugins. node-driver-registrar serves it on a socket in the kubelet’s plugins_registry directory; the kubelet calls it.',
  },
};

export const RPC_PROSE: Record<string, RpcProse> = {
  GetPluginInfo: {
    does: 'Returns the driver’s name (e.g. rbd.csi.ceph.com) and version. The name must match CSIDriver objects, StorageClass provisioners and PersistentVolume spec.csi.driver.',
    caller: 'Every sidecar at start-up, to learn which driver it serves; node-driver-registrar before it opens the registration socket.',
    codes: [],
  },
  GetPluginCapabilities: {
    does: 'Says which services the plugin offers (CONTROLLER_SERVICE) and whether volumes have topology constraints (VOLUME_ACCESSIBILITY_CONSTRAINTS).',
    caller: 'external-provisioner and external-attacher at start-up.',
    codes: [],
  },
  Probe: {
    does: 'Asks whether the plugin is ready to serve.',
    caller: 'Sidecars at start-up, repeatedly, until the driver answers ready (csi-lib-utils ProbeForever); liveness probes.',
    codes: [{ code: 'FAILED_PRECONDITION', when: 'the plugin is not healthy or a dependency is missing; the caller probes again' }],
  },
  CreateVolume: {
    does: 'Creates a volume from a name, a capacity range, the volume capabilities (access mode, filesystem or block), the StorageClass parameters and optional topology requirements or a content source (snapshot or volume to clone). Returns the volume ID that becomes the PV’s volumeHandle.',
    caller: 'external-provisioner, for each claim handed to its driver; the name is pvc-<claim UID>, so a retry asks for the same volume.',
    codes: [
      { code: 'ALREADY_EXISTS', when: 'a volume with this name exists but does not match the request (a matching one is OK: the call is idempotent)' },
      { code: 'RESOURCE_EXHAUSTED', when: 'no capacity where the topology allows; the provisioner may ask the scheduler to pick another node' },
      { code: 'OUT_OF_RANGE', when: 'the capacity range cannot be met' },
      { code: 'NOT_FOUND', when: 'the snapshot or volume to copy from does not exist' },
      { code: 'ABORTED', when: 'an operation on this volume name is already running; retry later' },
    ],
  },
  DeleteVolume: {
    does: 'Deletes a volume by ID. Deleting a volume that does not exist is success.',
    caller: 'external-provisioner, for a Released PersistentVolume with reclaimPolicy Delete that it provisioned.',
    codes: [
      { code: 'FAILED_PRECONDITION', when: 'the volume is still published (attached) somewhere or has snapshots that prevent deletion' },
      { code: 'ABORTED', when: 'another operation on the volume is running' },
    ],
  },
  ControllerPublishVolume: {
    does: 'Makes a volume available to a node, typically by attaching a disk to a machine. Returns a publish context that the node calls receive later.',
    caller: 'external-attacher, for each VolumeAttachment of its driver; the publish context is stored in the VolumeAttachment’s status.attachmentMetadata.',
    codes: [
      { code: 'NOT_FOUND', when: 'the volume or the node does not exist' },
      { code: 'FAILED_PRECONDITION', when: 'the volume is published to another node and its access mode allows only one (the message should name that node)' },
      { code: 'ALREADY_EXISTS', when: 'already published to this node with incompatible capabilities' },
      { code: 'RESOURCE_EXHAUSTED', when: 'the node has reached its limit of attached volumes' },
      { code: 'ABORTED', when: 'another operation on the volume is running' },
    ],
  },
  ControllerUnpublishVolume: {
    does: 'Undoes ControllerPublishVolume: detaches the volume from the node. Must come after every NodeUnpublishVolume and NodeUnstageVolume for that node succeeded. Unpublishing a volume that is not published is success.',
    caller: 'external-attacher, when the attach/detach controller deletes a VolumeAttachment.',
    codes: [
      { code: 'NOT_FOUND', when: 'the volume or node does not exist and the plugin cannot treat it as already unpublished' },
      { code: 'ABORTED', when: 'another operation on the volume is running' },
    ],
  },
  ValidateVolumeCapabilities: {
    does: 'Checks that an existing volume supports the given capabilities.',
    caller: 'Rarely used by Kubernetes sidecars; part of the spec for pre-provisioned volumes.',
    codes: [{ code: 'NOT_FOUND', when: 'the volume does not exist' }],
  },
  ListVolumes: {
    does: 'Lists volumes, with the nodes each is published to when the plugin has LIST_VOLUMES_PUBLISHED_NODES.',
    caller: 'external-attacher’s optional reconciler (--reconcile-sync), to find VolumeAttachments that say attached when the storage says otherwise.',
    codes: [{ code: 'ABORTED', when: 'the starting token is not valid' }],
  },
  GetCapacity: {
    does: 'Reports free capacity, optionally per topology segment and parameters.',
    caller: 'external-provisioner when storage capacity tracking is enabled (CSIStorageCapacity objects for the scheduler).',
    codes: [],
  },
  ControllerGetCapabilities: {
    does: 'Lists what the Controller service supports: CREATE_DELETE_VOLUME, PUBLISH_UNPUBLISH_VOLUME, CREATE_DELETE_SNAPSHOT, EXPAND_VOLUME, LIST_VOLUMES and more.',
    caller: 'Sidecars at start-up. external-attacher uses PUBLISH_UNPUBLISH_VOLUME to choose its real or its trivial handler.',
    codes: [],
  },
  CreateSnapshot: {
    does: 'Takes a snapshot of a volume under a given name; returns its ID, size and whether it is ready to use.',
    caller: 'The csi-snapshotter sidecar, for a VolumeSnapshotContent created by the snapshot-controller.',
    codes: [
      { code: 'ALREADY_EXISTS', when: 'a snapshot with this name exists for another source volume' },
      { code: 'ABORTED', when: 'an operation for this snapshot is already running' },
      { code: 'RESOURCE_EXHAUSTED', when: 'no space for the snapshot' },
    ],
  },
  DeleteSnapshot: {
    does: 'Deletes a snapshot by ID. Deleting one that does not exist is success.',
    caller: 'The csi-snapshotter sidecar, when a VolumeSnapshotContent with deletionPolicy Delete goes.',
    codes: [
      { code: 'FAILED_PRECONDITION', when: 'the snapshot is in use, e.g. as the source of a volume being created' },
      { code: 'ABORTED', when: 'an operation on the snapshot is running' },
    ],
  },
  ListSnapshots: {
    does: 'Lists snapshots, or reports on one.',
    caller: 'The csi-snapshotter sidecar, to poll a snapshot that is not ready yet.',
    codes: [{ code: 'ABORTED', when: 'the starting token is not valid' }],
  },
  ControllerExpandVolume: {
    does: 'Grows a volume in the storage system; says whether the node must also grow the filesystem (node_expansion_required).',
    caller: 'external-resizer, when a bound claim asks for more storage.',
    codes: [
      { code: 'NOT_FOUND', when: 'the volume does not exist' },
      { code: 'FAILED_PRECONDITION', when: 'the volume is in use and the plugin can only expand offline' },
      { code: 'OUT_OF_RANGE', when: 'the requested size is not supported' },
    ],
  },
  ControllerGetVolume: {
    does: 'Reports one volume’s state and where it is published (volume health, when supported).',
    caller: 'The external-health-monitor sidecar, where deployed.',
    codes: [{ code: 'NOT_FOUND', when: 'the volume does not exist' }],
  },
  NodeStageVolume: {
    does: 'Prepares an attached volume on the node once, at a staging path shared by all pods: finds the device (using the publish context), formats it if needed and mounts it at …/globalmount.',
    caller: 'The kubelet’s MountDevice step, once per volume and node, when the node plugin advertises STAGE_UNSTAGE_VOLUME.',
    codes: [
      { code: 'NOT_FOUND', when: 'the volume does not exist (or its device is not there)' },
      { code: 'ALREADY_EXISTS', when: 'already staged at this path with incompatible capabilities' },
      { code: 'FAILED_PRECONDITION', when: 'the volume capability does not fit the volume' },
    ],
  },
  NodeUnstageVolume: {
    does: 'Undoes NodeStageVolume: unmounts the staging path. Comes after every NodeUnpublishVolume of the volume on that node.',
    caller: 'The kubelet’s UnmountDevice step, once no pod on the node uses the volume.',
    codes: [{ code: 'NOT_FOUND', when: 'the volume does not exist' }],
  },
  NodePublishVolume: {
    does: 'Makes the volume available to one pod: bind-mounts the staging path (or mounts the device) at the pod’s target path, read-only if asked.',
    caller: 'The kubelet’s SetUp step, once per pod that uses the volume.',
    codes: [
      { code: 'NOT_FOUND', when: 'the volume does not exist' },
      { code: 'ALREADY_EXISTS', when: 'already published at this target path with different capabilities' },
      { code: 'FAILED_PRECONDITION', when: 'staging is required but was not done (no staging path), or a single-writer volume is already published elsewhere' },
    ],
  },
  NodeUnpublishVolume: {
    does: 'Undoes NodePublishVolume: unmounts the pod’s target path.',
    caller: 'The kubelet’s TearDown step, when the pod goes.',
    codes: [{ code: 'NOT_FOUND', when: 'the volume does not exist' }],
  },
  NodeGetVolumeStats: {
    does: 'Reports used and available bytes and inodes of a mounted volume (and its health, when supported).',
    caller: 'The kubelet, periodically, for volume metrics.',
    codes: [{ code: 'NOT_FOUND', when: 'the volume is not found at the given path' }],
  },
  NodeExpandVolume: {
    does: 'Grows the filesystem on the node after ControllerExpandVolume grew the volume.',
    caller: 'The kubelet, for a claim marked FileSystemResizePending.',
    codes: [
      { code: 'NOT_FOUND', when: 'the volume does not exist' },
      { code: 'FAILED_PRECONDITION', when: 'the volume cannot be expanded in its current state' },
      { code: 'OUT_OF_RANGE', when: 'the requested size is not supported' },
    ],
  },
  NodeGetCapabilities: {
    does: 'Lists what the Node service supports, chiefly STAGE_UNSTAGE_VOLUME, GET_VOLUME_STATS and EXPAND_VOLUME.',
    caller: 'The kubelet, before it decides whether a mount needs a staging step (so it shows up before every NodeStageVolume and NodePublishVolume).',
    codes: [],
  },
  NodeGetInfo: {
    does: 'Returns the node’s ID in the storage system (a cloud instance ID), the maximum number of volumes it can take, and its topology.',
    caller: 'The kubelet when it registers the driver; the ID goes into the CSINode object, where external-attacher reads it for ControllerPublishVolume.',
    codes: [],
  },
  GetInfo: {
    does: 'Returns the plugin type (CSIPlugin), the driver name, the endpoint of the driver’s socket and the CSI versions it speaks.',
    caller: 'The kubelet’s plugin watcher, when a registration socket appears in plugins_registry.',
    codes: [],
  },
  NotifyRegistrationStatus: {
    does: 'Tells the registrar whether the kubelet registered the plugin, with the error if not.',
    caller: 'The kubelet, after trying to register the driver.',
    codes: [],
  },
};

/** The services' titles and summaries in `lang` (rpcs.zh.ts for Chinese). */
export function serviceProse(lang: Lang = 'en'): Record<CsiService, { title: string; summary: string }> {
  return lang === 'zh' ? SERVICE_PROSE_ZH : SERVICE_PROSE;
}

/** The RPCs' prose in `lang` (rpcs.zh.ts for Chinese), by RPC name. */
export function rpcProse(lang: Lang = 'en'): Record<string, RpcProse> {
  return lang === 'zh' ? RPC_PROSE_ZH : RPC_PROSE;
}

/** Every RPC the simulation knows, by service, in the spec's order. */
export const RPCS_BY_SERVICE: Record<CsiService, string[]> = {
  Identity: Object.keys(CSI_RPCS).filter((r) => CSI_RPCS[r as keyof typeof CSI_RPCS] === 'Identity'),
  Controller: Object.keys(CSI_RPCS).filter((r) => CSI_RPCS[r as keyof typeof CSI_RPCS] === 'Controller'),
  Node: Object.keys(CSI_RPCS).filter((r) => CSI_RPCS[r as keyof typeof CSI_RPCS] === 'Node'),
  Registration: Object.keys(REGISTRATION_RPCS),
};

/** Anchor id of an RPC on the RPC page. */
export const rpcAnchor = (rpc: string): string => `rpc-${rpc}`;
export const RPC_PAGE = '/components/csi-rpcs/';
export const rpcHref = (rpc: string): string => `${RPC_PAGE}#${rpcAnchor(rpc)}`;
