/**
 * API objects as the simulated API server stores them: the shape `kubectl get -o json` shows, with
 * only the fields the storage flows read or write. Objects handed out by the API server are frozen;
 * a component changes one by sending a write.
 */
export type Kind =
  | 'Pod' | 'PersistentVolumeClaim' | 'PersistentVolume' | 'StorageClass' | 'VolumeAttachment'
  | 'Node' | 'CSINode' | 'CSIDriver' | 'Event' | 'StatefulSet'
  | 'VolumeSnapshot' | 'VolumeSnapshotContent' | 'VolumeSnapshotClass' | 'Secret';

export const CLUSTER_SCOPED: ReadonlySet<Kind> = new Set<Kind>([
  'PersistentVolume', 'StorageClass', 'VolumeAttachment', 'Node', 'CSINode', 'CSIDriver',
  'VolumeSnapshotContent', 'VolumeSnapshotClass',
]);

export const API_VERSION: Record<Kind, string> = {
  Pod: 'v1', PersistentVolumeClaim: 'v1', PersistentVolume: 'v1', Node: 'v1', Event: 'v1',
  StorageClass: 'storage.k8s.io/v1', VolumeAttachment: 'storage.k8s.io/v1', CSINode: 'storage.k8s.io/v1',
  CSIDriver: 'storage.k8s.io/v1', StatefulSet: 'apps/v1',
  VolumeSnapshot: 'snapshot.storage.k8s.io/v1', VolumeSnapshotContent: 'snapshot.storage.k8s.io/v1',
  VolumeSnapshotClass: 'snapshot.storage.k8s.io/v1', Secret: 'v1',
};

/** REST resource names, for URLs printed by client-go (e.g. the "Throttling request took" line). */
export const RESOURCE: Record<Kind, string> = {
  Pod: 'pods', PersistentVolumeClaim: 'persistentvolumeclaims', PersistentVolume: 'persistentvolumes',
  Node: 'nodes', Event: 'events', StorageClass: 'storageclasses', VolumeAttachment: 'volumeattachments',
  CSINode: 'csinodes', CSIDriver: 'csidrivers', StatefulSet: 'statefulsets',
  VolumeSnapshot: 'volumesnapshots', VolumeSnapshotContent: 'volumesnapshotcontents',
  VolumeSnapshotClass: 'volumesnapshotclasses', Secret: 'secrets',
};

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  finalizers?: string[];
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  ownerReferences?: Array<{ apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }>;
}

/**
 * An API object. `K8sObject<'Pod'>` (and every kind the simulation knows) has its `spec`, `status`
 * and top-level fields typed as the simulation writes them; plain `K8sObject`, any kind, keeps them
 * open, as the machines handle every kind through one informer path.
 */
export type K8sObject<K extends Kind = Kind> = [Kind] extends [K] ? AnyObject : TypedObject<K>;

/** An object of any kind: spec and status as the kind has them. */
export interface AnyObject {
  apiVersion: string;
  kind: Kind;
  metadata: ObjectMeta;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  status?: any;
  // Kind-specific top-level fields (StorageClass.provisioner, Event.reason, CSIDriver has spec only…)
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any;
}

export type TypedObject<K extends Kind> = {
  apiVersion: string;
  kind: K;
  metadata: ObjectMeta;
} & KindShapes[K];

/** Each kind's fields, as far as the storage flows read and write them. */
export interface KindShapes {
  Pod: { spec?: PodSpec; status?: PodStatus };
  PersistentVolumeClaim: { spec?: PersistentVolumeClaimSpec; status?: { phase?: 'Pending' | 'Bound' | 'Lost'; accessModes?: AccessMode[]; capacity?: { storage: string }; conditions?: Condition[] } };
  PersistentVolume: { spec?: PersistentVolumeSpec; status?: { phase?: 'Pending' | 'Available' | 'Bound' | 'Released' | 'Failed'; message?: string; reason?: string } };
  StorageClass: {
    provisioner: string; parameters?: Record<string, string>; reclaimPolicy?: 'Delete' | 'Retain';
    volumeBindingMode?: 'Immediate' | 'WaitForFirstConsumer'; allowVolumeExpansion?: boolean; allowedTopologies?: unknown[];
  };
  VolumeAttachment: {
    spec?: { attacher: string; nodeName: string; source: { persistentVolumeName?: string } };
    status?: { attached: boolean; attachmentMetadata?: Record<string, string>; attachError?: VolumeError; detachError?: VolumeError };
  };
  Node: {
    spec?: { unschedulable?: boolean; taints?: Array<{ key: string; value?: string; effect: string; timeAdded?: string }> };
    status?: {
      conditions?: Condition[]; addresses?: Array<{ type: string; address: string }>;
      volumesInUse?: string[]; volumesAttached?: Array<{ name: string; devicePath: string }>;
    };
  };
  CSINode: { spec?: { drivers: Array<{ name: string; nodeID: string; topologyKeys: string[] | null; allocatable?: { count?: number } }> } };
  CSIDriver: { spec?: { attachRequired?: boolean; podInfoOnMount?: boolean; volumeLifecycleModes?: Array<'Persistent' | 'Ephemeral'>; fsGroupPolicy?: string } };
  Event: {
    involvedObject: { kind: string; namespace?: string; name: string; uid?: string; apiVersion?: string; resourceVersion?: string };
    reason: string; message: string; type: 'Normal' | 'Warning'; count?: number;
    source?: { component: string; host?: string }; firstTimestamp?: string; lastTimestamp?: string;
  };
  StatefulSet: {
    spec?: {
      replicas?: number; serviceName?: string; podManagementPolicy?: 'OrderedReady' | 'Parallel';
      selector: { matchLabels: Record<string, string> };
      template: { metadata?: { labels?: Record<string, string> }; spec: PodSpec };
      volumeClaimTemplates?: Array<{ metadata: { name: string }; spec: PersistentVolumeClaimSpec }>;
    };
    status?: { replicas?: number; readyReplicas?: number; currentReplicas?: number };
  };
  VolumeSnapshot: {
    spec?: { source: { persistentVolumeClaimName?: string; volumeSnapshotContentName?: string }; volumeSnapshotClassName?: string };
    status?: { boundVolumeSnapshotContentName?: string; readyToUse?: boolean; restoreSize?: string; creationTime?: string; error?: VolumeError };
  };
  VolumeSnapshotContent: {
    spec?: { driver: string; deletionPolicy: 'Delete' | 'Retain'; source: { volumeHandle?: string; snapshotHandle?: string }; volumeSnapshotRef: { name: string; namespace: string; uid?: string }; volumeSnapshotClassName?: string };
    status?: { snapshotHandle?: string; readyToUse?: boolean; restoreSize?: number; creationTime?: number; error?: VolumeError };
  };
  VolumeSnapshotClass: { driver: string; deletionPolicy: 'Delete' | 'Retain'; parameters?: Record<string, string> };
  /** a Secret's data: each value base64, as the API returns it */
  Secret: { type?: string; data?: Record<string, string> };
}

export interface Condition { type: string; status: 'True' | 'False' | 'Unknown'; reason?: string; message?: string; lastHeartbeatTime?: string; lastTransitionTime?: string }
export interface VolumeError { time?: string; message: string }

export interface PodSpec {
  nodeName?: string;
  containers: Array<{ name: string; image: string; volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }> }>;
  volumes?: Array<{ name: string; persistentVolumeClaim?: { claimName: string; readOnly?: boolean }; [source: string]: unknown }>;
  terminationGracePeriodSeconds?: number;
  schedulerName?: string;
  nodeSelector?: Record<string, string>;
  /** the pod's fsGroup: the kubelet gives a volume's files this group after mounting it (SetVolumeOwnership) */
  securityContext?: { fsGroup?: number; fsGroupChangePolicy?: 'Always' | 'OnRootMismatch' };
}

export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
  conditions?: Condition[];
  containerStatuses?: Array<{ name: string; ready: boolean; state?: { running?: { startedAt?: string }; waiting?: { reason: string; message?: string }; terminated?: { reason?: string; exitCode: number } } }>;
  reason?: string;
  message?: string;
}

export interface PersistentVolumeClaimSpec {
  accessModes: AccessMode[];
  resources: { requests: { storage: string } };
  storageClassName?: string;
  volumeMode?: 'Filesystem' | 'Block';
  volumeName?: string;
  dataSource?: { kind: 'PersistentVolumeClaim' | 'VolumeSnapshot'; name: string; apiGroup?: string };
}

export interface PersistentVolumeSpec {
  accessModes: AccessMode[];
  capacity: { storage: string };
  csi?: { driver: string; volumeHandle: string; fsType?: string; readOnly?: boolean; volumeAttributes?: Record<string, string> };
  claimRef?: { apiVersion?: string; kind?: string; namespace: string; name: string; uid?: string; resourceVersion?: string };
  persistentVolumeReclaimPolicy?: 'Delete' | 'Retain';
  storageClassName?: string;
  volumeMode?: 'Filesystem' | 'Block';
  nodeAffinity?: unknown;
}

export function objectKey(kind: Kind, namespace: string | undefined, name: string): string {
  return namespace ? `${kind}/${namespace}/${name}` : `${kind}/${name}`;
}

export const keyOf = (o: K8sObject): string => objectKey(o.kind, o.metadata.namespace, o.metadata.name);

/** "ns/name" as klog.KObj prints it, or "name" for cluster-scoped objects. */
export const kobj = (o: { metadata: ObjectMeta }): string =>
  o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name;

// Access modes and their CSI counterparts (csi.proto VolumeCapability.AccessMode.Mode).
export type AccessMode = 'ReadWriteOnce' | 'ReadOnlyMany' | 'ReadWriteMany' | 'ReadWriteOncePod';

/**
 * getCredentials (csi-provisioner, csi-resizer, csi-snapshotter, the kubelet's CSI plugin): a Secret's data, each value as
 * the string its bytes make (secret.Data is base64 in the object).
 */
export function secretCredentials(secret: K8sObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((secret.data ?? {}) as Record<string, string>)) {
    out[k] = new TextDecoder().decode(Uint8Array.from(atob(v), (ch) => ch.charCodeAt(0)));
  }
  return out;
}

/** The Node's Ready condition is True (nodeutil.IsNodeReady): False, Unknown or no condition is not ready. */
export const isNodeReady = (n: K8sObject | undefined): boolean =>
  !!n && ((n.status?.conditions ?? []) as Array<{ type: string; status: string }>).some((c) => c.type === 'Ready' && c.status === 'True');

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const isIPv6 = (a: string): boolean => a.includes(':') && /^[0-9a-fA-F:.]+$/.test(a);
/** Whether a string is an IPv4 address (dotted quad). */
export const isIPv4 = (a: string): boolean => IPV4.test(a);

/**
 * GetNodeHostIPs: the node's InternalIP addresses, then its ExternalIP ones, each that is an IP; the first, and the
 * first of the other family when there is one (dual stack). Empty when none is an IP (upstream: "host IP unknown").
 * upstream: pkg/util/node/node.go GetNodeHostIPs (v1.30.1 :72-102; v1.20.5 :101-133).
 */
export function getNodeHostIPs(n: K8sObject | undefined): string[] {
  const addresses = (n?.status?.addresses ?? []) as Array<{ type: string; address: string }>;
  const all = [...addresses.filter((a) => a.type === 'InternalIP'), ...addresses.filter((a) => a.type === 'ExternalIP')]
    .map((a) => a.address).filter((a) => isIPv4(a) || isIPv6(a));
  if (all.length === 0) return [];
  const other = all.find((a) => isIPv6(a) !== isIPv6(all[0]!));
  return other ? [all[0]!, other] : [all[0]!];
}

/**
 * The conditions a healthy node's kubelet sets, in its setters' order: MemoryPressure, DiskPressure and PIDPressure
 * (False: the simulated node has room) and Ready (v1.30.1 pkg/kubelet/nodestatus/setters.go :523 ReadyCondition, :635
 * memory, :696 PID, :757 disk; kubelet_node_status.go defaultNodeStatusFuncs), without their times.
 */
export const KUBELET_NODE_CONDITIONS: ReadonlyArray<Readonly<{ type: string; status: string; reason: string; message: string }>> = [
  { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
  { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
  { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
  { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
];
