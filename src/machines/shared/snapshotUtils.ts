import type { K8sObject } from './k8s.ts';
import { CSI_PARAMETER_PREFIX } from './csi.ts';

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
 * The class's snapshotter Secret, which the snapshot-controller records on the content it creates and csi-snapshotter reads
 * for CreateSnapshot and DeleteSnapshot (GetCredentialsFromAnnotation). upstream: pkg/utils/util.go v8.0.1 :59-60, :138-139.
 */
export const ANN_DELETION_SECRET_NAME = 'snapshot.storage.kubernetes.io/deletion-secret-name';
export const ANN_DELETION_SECRET_NAMESPACE = 'snapshot.storage.kubernetes.io/deletion-secret-namespace';

/**
 * GetSecretReference(SnapshotterSecretParams): the class's csi.storage.k8s.io/snapshotter-secret-name and -namespace, their
 * templates filled in (${volumesnapshotcontent.name}, ${volumesnapshot.namespace}, ${volumesnapshot.name}); undefined when
 * the class names none or only one of the two (upstream refuses that; not modelled).
 */
export function snapshotterSecretRef(cls: K8sObject | undefined, contentName: string, snapshot: { name: string; namespace: string }): { name: string; namespace: string } | undefined {
  const p = (cls?.parameters ?? {}) as Record<string, string>;
  const name = p[`${CSI_PARAMETER_PREFIX}snapshotter-secret-name`];
  const namespace = p[`${CSI_PARAMETER_PREFIX}snapshotter-secret-namespace`];
  if (name === undefined || namespace === undefined) return undefined;
  const fill = (t: string) => t.replaceAll('${volumesnapshotcontent.name}', contentName).replaceAll('${volumesnapshot.namespace}', snapshot.namespace).replaceAll('${volumesnapshot.name}', snapshot.name);
  return { name: fill(name), namespace: fill(namespace) };
}


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

/** What a metadata write changes: annotations (null removes one) and the finalizers as they are to be. */
export interface MetadataChange { annotations?: Record<string, string | null>; finalizers?: string[] }

/**
 * The API request that writes `change` into `o`'s metadata, as external-snapshotter's releases do it: v8.0.1 a patch
 * (utils.PatchVolumeSnapshotContent, PatchVolumeSnapshot), v4.0.0 an Update of the copy it holds (`byPatch` false).
 */
export function metadataWrite(o: K8sObject, change: MetadataChange, byPatch: boolean): Record<string, unknown> {
  const target = { kind: o.kind, ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}), name: o.metadata.name };
  if (byPatch) return { type: 'api.request', verb: 'patch', ...target, patch: { metadata: change } };
  const metadata = { ...o.metadata };
  if (change.annotations) {
    const annotations: Record<string, string> = { ...(o.metadata.annotations ?? {}) };
    for (const [k, v] of Object.entries(change.annotations)) { if (v === null) delete annotations[k]; else annotations[k] = v; }
    metadata.annotations = annotations;
  }
  if (change.finalizers) metadata.finalizers = change.finalizers;
  return { type: 'api.request', verb: 'update', ...target, object: { ...o, metadata } };
}
