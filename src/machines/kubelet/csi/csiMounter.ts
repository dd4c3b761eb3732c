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
  return {
    volume_id: v.handle, ...(pc ? { publish_context: pc } : {}), ...(stagingPath !== undefined ? { staging_target_path: stagingPath } : {}),
    target_path: podVolumePath(w.c.input.kubeletRoot, podUid, v.pvName), volume_capability: volumeCapability(v),
    // (csi.proto's field order: secrets, 7, before volume_context, 8; the node plugin's log prints them stripped)
    ...(v.readOnly ? { readonly: true } : {}), ...(secrets ? { secrets } : {}), ...(Object.keys(v.volumeContext).length ? { volume_context: v.volumeContext } : {}),
  };
}

/** TearDownAt: the NodeUnpublishVolume request. */
export const nodeUnpublishVolumeRequest = (w: Work, v: VolumeSpec, podUid: string): Record<string, unknown> =>
  ({ volume_id: v.handle, target_path: podVolumePath(w.c.input.kubeletRoot, podUid, v.pvName) });
