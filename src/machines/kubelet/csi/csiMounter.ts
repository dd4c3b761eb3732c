/**
 * The CSI volume plugin's mounter as the kubelet uses it: SetUp is NodePublishVolume into the pod's
 * volume directory (staged first when the plugin has STAGE_UNSTAGE_VOLUME), TearDown NodeUnpublishVolume.
 * upstream: pkg/volume/csi/csi_mounter.go (SetUpAt, TearDownAt).
 */
import { podVolumePath } from '../../shared/names.ts';
import type { VolumeSpec, Work } from '../kubelet.types.ts';
import { volumeCapability } from './csiAttacher.ts';

/** SetUpAt: the NodePublishVolume request. */
export function nodePublishVolumeRequest(w: Work, v: VolumeSpec, podUid: string, stagingPath: string | undefined, pc: Record<string, string> | undefined, secrets?: Record<string, string>): Record<string, unknown> {
  const context = { ...v.volumeContext, ...podInfoAttributes(w, v, podUid) };
  return {
    volume_id: v.handle, ...(pc ? { publish_context: pc } : {}), ...(stagingPath !== undefined ? { staging_target_path: stagingPath } : {}),
    target_path: podVolumePath(w.c.input.kubeletRoot, podUid, v.pvName), volume_capability: volumeCapability(v),
    // (csi.proto's field order: secrets, 7, before volume_context, 8; the node plugin's log prints them stripped)
    ...(v.readOnly ? { readonly: true } : {}), ...(secrets ? { secrets } : {}), ...(Object.keys(context).length ? { volume_context: context } : {}),
  };
}

/**
 * The pod's information a CSIDriver with podInfoOnMount: true gets in NodePublishVolume's volume_context (merged over
 * the PV's volumeAttributes); none for any other driver, or one without a CSIDriver object. The service account is the
 * pod's, "default" when it names none (the ServiceAccount admission plugin sets it on every pod). The CSI volumes here are
 * persistent, never inline: ephemeral is "false". upstream: csi_util.go getPodInfoAttrs and csi_plugin.go podInfoEnabled
 * (v1.30.1 :207-216, :850-866), csi_mounter.go podAttributes (v1.20.5 :287-320).
 */
export function podInfoAttributes(w: Work, v: VolumeSpec, podUid: string): Record<string, string> {
  if (w.c.csiDrivers[v.driver]?.spec?.podInfoOnMount !== true) return {};
  const pod = w.c.pods[podUid];
  if (!pod) return {};
  return {
    'csi.storage.k8s.io/pod.name': pod.metadata.name, 'csi.storage.k8s.io/pod.namespace': pod.metadata.namespace ?? 'default',
    'csi.storage.k8s.io/pod.uid': podUid, 'csi.storage.k8s.io/serviceAccount.name': pod.spec?.serviceAccountName ?? 'default',
    'csi.storage.k8s.io/ephemeral': 'false',
  };
}

/**
 * The fsGroup SetUpAt gives the volume's files after NodePublishVolume, with the pod's fsGroupChangePolicy OnRootMismatch
 * (the top directory looked at first); nothing when it gives none: supportsFSGroup
 * with the CSIDriver's fsGroupPolicy (getFSGroupPolicy; the API server fills in ReadWriteOnceWithFSType when the CSIDriver
 * names none, and that is the policy without a CSIDriver too). None: never; File: always; ReadWriteOnceWithFSType: only
 * for a volume with an fsType whose PV lists ReadWriteOnce; never for a read-only volume. upstream: csi_mounter.go
 * supportsFSGroup and getFSGroupPolicy (v1.30.1 :455-515; v1.20.5 csi_mounter.go:415-439, and csi_plugin.go:900-938, which
 * NewMounter calls at :406). (1.30 hands the fsGroup to a node plugin
 * with VOLUME_MOUNT_GROUP instead, in NodePublishVolume's volume_mount_group; no driver here has that capability.)
 */
export function fsGroupToApply(w: Work, v: VolumeSpec, podUid: string): { fsGroup?: number; onRootMismatch?: true } {
  const sc = w.c.pods[podUid]?.spec?.securityContext;
  if (sc?.fsGroup === undefined || v.readOnly) return {};
  const policy = w.c.csiDrivers[v.driver]?.spec?.fsGroupPolicy ?? 'ReadWriteOnceWithFSType';
  if (policy === 'None' || (policy !== 'File' && (v.fsType === '' || !v.readWriteOnce))) return {};
  return { fsGroup: sc.fsGroup, ...(sc.fsGroupChangePolicy === 'OnRootMismatch' ? { onRootMismatch: true as const } : {}) };
}

/** TearDownAt: the NodeUnpublishVolume request. */
export const nodeUnpublishVolumeRequest = (w: Work, v: VolumeSpec, podUid: string): Record<string, unknown> =>
  ({ volume_id: v.handle, target_path: podVolumePath(w.c.input.kubeletRoot, podUid, v.pvName) });
