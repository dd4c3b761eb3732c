import type { K8sObject } from './k8s.ts';

/**
 * Names external-snapshotter's controller and sidecar share. upstream: kubernetes-csi/external-snapshotter
 * pkg/utils/util.go (finalizers v4.0.0 :69-75, v8.0.1 :77-85; annotations v4.0.0 :85, :98, v8.0.1 :100, :113).
 */
export const CONTENT_FINALIZER = 'snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection';
export const SNAPSHOT_BOUND_FINALIZER = 'snapshot.storage.kubernetes.io/volumesnapshot-bound-protection';
export const SNAPSHOT_AS_SOURCE_FINALIZER = 'snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection';
export const PVC_FINALIZER = 'snapshot.storage.kubernetes.io/pvc-as-source-protection';
/** set by csi-snapshotter while a CreateSnapshot has not answered with success or a final error */
export const ANN_BEING_CREATED = 'snapshot.storage.kubernetes.io/volumesnapshot-being-created';
/** set by the snapshot-controller on the content of a deleted snapshot: csi-snapshotter may delete it */
export const ANN_BEING_DELETED = 'snapshot.storage.kubernetes.io/volumesnapshot-being-deleted';

/**
 * utils.StoreObjectUpdate (pkg/utils/util.go), which both keep their caches with: `o` replaces the copy held
 * unless that copy is newer (a larger resourceVersion); whether it did.
 */
export function storeObjectUpdate(m: Record<string, K8sObject>, k: string, o: K8sObject): boolean {
  const held = m[k];
  if (held && Number(held.metadata.resourceVersion) > Number(o.metadata.resourceVersion)) return false;
  m[k] = o;
  return true;
}
