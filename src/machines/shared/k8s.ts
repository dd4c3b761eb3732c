/**
 * API objects as the simulated API server stores them: the shape `kubectl get -o json` shows, with
 * only the fields the storage flows read or write. Objects handed out by the API server are frozen;
 * a component changes one by sending a write.
 */
export type Kind =
  | 'Pod' | 'PersistentVolumeClaim' | 'PersistentVolume' | 'StorageClass' | 'VolumeAttachment'
  | 'Node' | 'CSINode' | 'CSIDriver' | 'Event' | 'StatefulSet'
  | 'VolumeSnapshot' | 'VolumeSnapshotContent' | 'VolumeSnapshotClass';

export const CLUSTER_SCOPED: ReadonlySet<Kind> = new Set<Kind>([
  'PersistentVolume', 'StorageClass', 'VolumeAttachment', 'Node', 'CSINode', 'CSIDriver',
  'VolumeSnapshotContent', 'VolumeSnapshotClass',
]);

export const API_VERSION: Record<Kind, string> = {
  Pod: 'v1', PersistentVolumeClaim: 'v1', PersistentVolume: 'v1', Node: 'v1', Event: 'v1',
  StorageClass: 'storage.k8s.io/v1', VolumeAttachment: 'storage.k8s.io/v1', CSINode: 'storage.k8s.io/v1',
  CSIDriver: 'storage.k8s.io/v1', StatefulSet: 'apps/v1',
  VolumeSnapshot: 'snapshot.storage.k8s.io/v1', VolumeSnapshotContent: 'snapshot.storage.k8s.io/v1',
  VolumeSnapshotClass: 'snapshot.storage.k8s.io/v1',
};

/** REST resource names, for URLs printed by client-go (e.g. the "Throttling request took" line). */
export const RESOURCE: Record<Kind, string> = {
  Pod: 'pods', PersistentVolumeClaim: 'persistentvolumeclaims', PersistentVolume: 'persistentvolumes',
  Node: 'nodes', Event: 'events', StorageClass: 'storageclasses', VolumeAttachment: 'volumeattachments',
  CSINode: 'csinodes', CSIDriver: 'csidrivers', StatefulSet: 'statefulsets',
  VolumeSnapshot: 'volumesnapshots', VolumeSnapshotContent: 'volumesnapshotcontents',
  VolumeSnapshotClass: 'volumesnapshotclasses',
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

/** Any API object. `spec` and `status` are typed loosely on purpose: each kind's helpers narrow them. */
export interface K8sObject {
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

export function objectKey(kind: Kind, namespace: string | undefined, name: string): string {
  return namespace ? `${kind}/${namespace}/${name}` : `${kind}/${name}`;
}

export const keyOf = (o: K8sObject): string => objectKey(o.kind, o.metadata.namespace, o.metadata.name);

/** "ns/name" as klog.KObj prints it, or "name" for cluster-scoped objects. */
export const kobj = (o: { metadata: ObjectMeta }): string =>
  o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name;

// Access modes and their CSI counterparts (csi.proto VolumeCapability.AccessMode.Mode).
export type AccessMode = 'ReadWriteOnce' | 'ReadOnlyMany' | 'ReadWriteMany' | 'ReadWriteOncePod';
