/**
 * kubelet context and input types. The caches mirror the volume manager's
 * desiredStateOfWorld / actualStateOfWorld (pkg/kubelet/volumemanager/cache) and the plugin
 * manager (pkg/kubelet/pluginmanager).
 */
import type { StateValue } from 'xstate';
import type { ClusterEmitted, ComponentInput, HostPodVolume } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import type { PendingOperations, OperationKey } from '../shared/nestedPendingOperations.ts';

export interface KubeletInput extends ComponentInput {
  /** the Node this kubelet runs (the Node object name, e.g. "11.142.60.212" in seed 000) */
  nodeName: string;
  /** the node's IP (--node-ip, or what the kubelet detects): its initialNode's address, the pods' hostIP until its lister holds the Node */
  nodeIP?: string;
  /** --root-dir, e.g. "/var/lib/kubelet" (seed 000: "/data_online/1/kubelet") */
  kubeletRoot: string;
  /** wall-clock epoch (µs) of virtual time 0, as the cluster's options.epochUs: for times the kubelet prints and writes (0 when absent) */
  epochUs?: number;
  /** the process's time zone, for the Go time in nestedpendingoperations lines, e.g. {offsetMin: 480, zone: "CST"} (UTC when absent) */
  tz?: { offsetMin: number; zone: string };
  /** monotonic clock: virtual time (µs) at which the process started, and its uptime (µs) then ("m=+132526.55…") */
  monotonic: { processStartUs: number; uptimeAtStartUs: number };
  /** post the Ready condition every 10s (NODE_STATUS_UPDATE_FREQUENCY); off when absent, though scenarios turn it on unless told `heartbeats: false` */
  heartbeat?: boolean;
  /** offset (µs) of the 10s node status loop from virtual time 0 (the loop's phase); 0 when absent */
  statusUpdateOffset?: number;
  /** CSI driver names this node expects (documentation for the integrator; registration is what counts) */
  drivers?: string[];
}

/** One pod's use of a volume, as the DSW/ASW keep it. */
export interface PodVolume {
  podName: string;
  namespace: string;
  /** pod.spec.volumes[].name (OuterVolumeSpecName) */
  outerName: string;
}

export interface VolumeSpec {
  uniqueName: string;
  /** PV name (the volume spec name printed as `for volume "pvc-…"`) */
  pvName: string;
  driver: string;
  handle: string;
  /** CSIDriver.spec.attachRequired (true when no CSIDriver object exists) */
  attachable: boolean;
  fsType: string;
  /** the CSI access mode of the PV's first access mode, as 1.20's csi_client maps it (asCSIAccessMode) */
  accessMode: number;
  /** the PV's first access mode (ReadWriteOnce when it names none): 1.30 maps it by the node's capabilities (mapAccessMode) */
  pvAccessMode?: string;
  /** the PV's access modes include ReadWriteOnce (hasReadWriteOnce): the default fsGroupPolicy applies an fsGroup only then */
  readWriteOnce?: true;
  readOnly: boolean;
  volumeContext: Record<string, string>;
  /** the PV's spec.mountOptions, sent as the volume capability's mount_flags */
  mountOptions?: string[];
  /** the PV's spec.capacity.storage in bytes (the size the volume has once the controller expanded it) */
  capacityBytes?: number;
  /** the PV's spec.claimRef: the claim a NodeExpandVolume reads and marks resized */
  claimRef?: { namespace: string; name: string };
  /** the PV's spec.volumeMode Block: the volume is mapped as a raw device (MapVolume), not mounted; absent for Filesystem */
  block?: true;
  /** the PV's spec.csi.nodeStageSecretRef: the Secret whose keys go in NodeStageVolume */
  nodeStageSecretRef?: { name: string; namespace: string };
  /** the PV's spec.csi.nodePublishSecretRef: the Secret whose keys go in NodePublishVolume */
  nodePublishSecretRef?: { name: string; namespace: string };
  /** the PV's spec.csi.nodeExpandSecretRef (a field since 1.25): the Secret whose keys go in NodeExpandVolume */
  nodeExpandSecretRef?: { name: string; namespace: string };
}

/**
 * The DSW populator's lookup of one PVC volume of a pod (createVolumeSpec -> getPVCExtractPV -> getPVSpec):
 * `getPVC`/`getPV` wait for the GET, `retry` waits for the next populator loop (claim not bound, PV
 * missing or not CSI), `resolved` holds the volume spec the pod's DSW entry was built from, and
 * `reprocess` asks for the GETs again (ReprocessPod: the pod worker synced the pod).
 */
export interface ClaimLookup {
  claimName: string;
  step: 'getPVC' | 'getPV' | 'retry' | 'resolved' | 'reprocess';
  requestId?: string;
  spec?: VolumeSpec;
  /** the claim's status.capacity.storage in bytes, as the last GET of the claim returned it */
  claimBytes?: number;
}

/** desiredStateOfWorld: volumesToMount[uniqueName].podsToMount[podUid] */
export interface DswVolume extends VolumeSpec {
  pods: Record<string, PodVolume>;
  /** the volume was in node.status.volumesInUse as last written (MarkVolumesAsReportedInUse) */
  reportedInUse: boolean;
  /** the PV's capacity as the populator last read it (UpdatePersistentVolumeSize): the size the file system should have */
  desiredSize?: number;
}

export type DeviceMountState = 'DeviceNotMounted' | 'DeviceMountUncertain' | 'DeviceGloballyMounted';
export type VolumeMountState = 'VolumeMountUncertain' | 'VolumeMounted';

/** actualStateOfWorld: attachedVolumes[uniqueName] with mountedPods */
export interface AswVolume extends VolumeSpec {
  devicePath: string;
  deviceMountPath: string;
  deviceState: DeviceMountState;
  pods: Record<string, PodVolume & { state: VolumeMountState }>;
  /** the size the file system has, as the claim's status.capacity last said (InitializeClaimSize, MarkVolumeAsResized); unknown until the populator read the claim with the volume mounted */
  claimSize?: number;
  /**
   * 1.30's foundDuringReconstruction: the pods whose mount of this volume a restarted kubelet found on disk and has not
   * mounted or unmounted since. The volume stays listed (the field stays) until it leaves the table, even with no pod left:
   * IsVolumeDeviceReconstructed asks only that.
   */
  foundDuringReconstruction?: Readonly<Record<string, true>>;
}

/**
 * The generated operations: for a raw block volume the executor's MountVolume, UnmountVolume and
 * UnmountDevice generate map, unmap and unmapDevice instead (operation_executor.go: fsVolume or not).
 */
export type OperationKind = 'verify' | 'mount' | 'unmount' | 'unmountDevice' | 'expand' | 'map' | 'unmap' | 'unmapDevice';

/**
 * A generated operation the executor runs (operationexecutor/operationGenerator.ts): which one, on what,
 * and its machine's snapshot. Kept per request it waits for (inflight).
 */
export interface InflightOperation {
  kind: OperationKind;
  key: OperationKey;
  uniqueName: string;
  podUid: string;
  /** the operation machine's state value and context */
  machine: { value: StateValue; context: Record<string, unknown> };
  /** the pod's volume as the operation started: an uncertain mount outlives the pod's DSW entry */
  pod?: PodVolume;
  /** the request the operation waits for, when it is an API request (its answer's fact is `api.<awaiting>.succeeded|failed`) */
  awaiting?: 'getNode' | 'getPVC' | 'patchPVC' | 'getVolumeAttachment' | 'getNodeStageSecret' | 'getNodePublishSecret' | 'getNodeExpandSecret' | 'setVolumeOwnership' | 'statVolumeRoot';
  /** the claim a NodeExpandVolume read (its conditions are what MarkFSResizeFinished keeps) */
  claim?: K8sObject;
  /** the node-stage Secret's data, once read (getCredentialsFromSecret): NodeStageVolume's secrets */
  secrets?: Record<string, string>;
  /** the node-publish Secret's data, once read: NodePublishVolume's secrets */
  publishSecrets?: Record<string, string>;
  /** the node-expand Secret's data, once read: NodeExpandVolume's secrets */
  expandSecrets?: Record<string, string>;
  /** the publish context its GET of the VolumeAttachment read (getPublishContext): NodeStageVolume's and NodePublishVolume's */
  publishContext?: Record<string, string>;
  /** the device path WaitForAttach returned (GenerateMountVolumeFunc's devicePath), which setDevicePath records */
  devicePath?: string;
}

/** kubelet pod lifecycle, as far as the storage flows see it */
export type PodStage = 'waitingForVolumes' | 'containersStarting' | 'Running' | 'killing' | 'terminated' | 'awaitingStatusSync' | 'deleting';
export interface PodState {
  stage: PodStage; waitStartedAt: number;
  /** when its containers started */
  runningAt?: number;
  /** how many times the pod worker has resynced the running pod (for the jitter of the next resync) */
  syncs?: number;
  /**
   * when the status manager last synced the pod itself (syncPod, after a status it was given): a pod whose resources
   * are reclaimed by then is deleted at once (canBeDeleted), not at the next periodic syncBatch
   */
  statusSyncedAt?: number;
}

/** plugin manager: one registration socket */
export interface PluginRegistration {
  path: string;
  step: 'getInfo' | 'nodeGetInfo' | 'updateNode' | 'getCSINode' | 'updateCSINode' | 'notify' | 'notifyFailure' | 'registered' | 'failed' | 'backoff';
  driver?: string;
  endpoint?: string;
  nodeID?: string;
  topologyKeys?: string[];
  topology?: Record<string, string>;
  /** this driver's CSINode entry, from NodeGetInfo (installDriverToCSINode) */
  entry?: { name: string; nodeID: string; topologyKeys: string[] | null; allocatable?: { count: number } };
  /** when the plugin watcher found the socket (the desired state of world's PluginInfo.Timestamp) */
  seenAt?: number;
  /** the goroutinemap's exponential backoff of this socket's RegisterPlugin operation (last durationBeforeRetry, µs) */
  durationBeforeRetry?: number;
  /** a failure being reported to the plugin (step notifyFailure): the text sent, whether the plugin is already in the actual state of world, the error when the plugin takes the text */
  failure?: { notify: string; inActualState: boolean; returnedIfNotified: string };
}

/**
 * A table of the context: read-only where it is read; a handler that writes one asks for it with
 * own(w, name) (kubelet.work.ts), which counts the write in `versions`. Tables are updated in place
 * (their entries are replaced, never changed), as upstream's caches are: a copy per event was the
 * largest garbage of a large run. A snapshot's tables are therefore those of the kubelet's latest
 * reaction; views read them as a step is recorded (kubeletWorld).
 */
export type Table<T> = Readonly<Record<string, T>>;
/** The tables own() hands out for writing. */
export type TableName = 'pods' | 'vas' | 'csiDrivers' | 'plugins' | 'pluginRequests' | 'registered' | 'podVolumes' | 'processedPods' | 'volumeRequests' | 'dsw' | 'asw' | 'inflight' | 'podStates';

export interface KubeletContext {
  input: KubeletInput;
  seq: number;
  startedAt: number;
  /**
   * How many events have written each table (own()): the passes that run after every event (populator,
   * syncPods, GetVolumesInUse) skip their work while the tables they read have the counts their last
   * pass saw. One object per kubelet process, updated in place.
   */
  versions: Record<TableName, number>;
  // informer caches
  pods: Table<K8sObject>;
  node?: K8sObject;
  vas: Table<K8sObject>;
  csiDrivers: Table<K8sObject>;
  // plugin manager
  plugins: Table<PluginRegistration>;
  /** requestId -> socket path of the registration it belongs to */
  pluginRequests: Table<string>;
  /** csiDrivers store of the CSI volume plugin: registered driver -> endpoint */
  registered: Table<{ endpoint: string; nodeID?: string }>;
  /** the GET of this node's CSINode at start (nodeinfomanager tryInitializeCSINodeWithAnnotation), while in flight */
  csiNodeRequest?: string;
  // volume manager
  /** DSW populator: per pod, per pod.spec.volumes[].name, what the GETs of its claim and PV returned */
  podVolumes: Table<Record<string, ClaimLookup>>;
  /** DSW populator: pods whose volumes are all in the DSW (upstream processedPods) */
  processedPods: Table<true>;
  /** requestId of a populator GET -> the pod volume it resolves */
  volumeRequests: Table<{ podUid: string; outerName: string }>;
  /** next populator loop iteration, scheduled only while some pod has an unresolved volume */
  populatorAt?: number;
  dsw: Table<DswVolume>;
  asw: Table<AswVolume>;
  ops: PendingOperations;
  inflight: Table<InflightOperation>;
  // node status
  /** volumesInUse as last written successfully */
  volumesInUseWritten: readonly string[];
  nodeStatusRequest?: string;
  /** when the node status was last written (the 5m report without heartbeats) */
  statusWrittenAt?: number;
  nodeStatusAt?: number;
  nodeStatusInFlight?: readonly string[];
  // pods
  podStates: Table<PodState>;
  /** the status manager's writes in flight: requestId -> the pod and what was written (a status, or the final delete) */
  podRequests?: Record<string, { uid: string; what: 'status' | 'delete' }>;
  /** the next reconciler loop iteration asked for (kubelet.work.ts requestReconcile) */
  reconcileAt?: number;
  /** 1.20: the reconciler has logged "Reconciler: start to sync state" and run its one sync (reconciler.go:156-158) */
  statesSynced?: boolean;
  /** reconstructed volumes whose devicePath and attachability still come from node.status.volumesAttached (1.30) */
  volumesNeedUpdateFromNodeStatus?: readonly string[];
  /** the populator has been through every pod the informer listed (populatorHasAddedPods): unmounting may start (1.30) */
  hasAddedPods?: boolean;
  /** 1.20: the pod volume directories found at start, which syncStates reads once (reconciler.go getVolumesFromPodDir) */
  volumesOnDisk?: readonly HostPodVolume[];
}

/** Work in progress while one event is handled: a private copy of the context and the outputs. */
export interface Work {
  c: KubeletContext; out: ClusterEmitted[]; now: number;
  /** the tables this event has copied already (own) */
  owned: Partial<Record<TableName, true>>;
  /** states of the volumes and operations this event changed (emitted as states.changed) */
  states?: Record<string, string>;
  /** each of those changes in order */
  moves?: Array<[string, string]>;
}
