/**
 * The CSI volume plugin's block mapper as the kubelet uses it for a raw block volume: SetUpDevice is
 * NodeStageVolume to a staging directory of its own, MapPodDevice NodePublishVolume to a file per
 * pod (no capability check first), UnmapPodDevice NodeUnpublishVolume, TearDownDevice
 * NodeUnstageVolume (after STAGE_UNSTAGE_VOLUME is checked). Both stage and publish send a Block
 * volume capability (fsType "block" in csi_client.go) and no mount flags.
 * upstream: pkg/volume/csi/csi_block.go (v1.30.1: stageVolumeForBlock :145-205,
 * publishVolumeForBlock :208-279, SetUpDevice :281, MapPodDevice :343, TearDownDevice :445).
 */
import { blockPublishPath, blockStagingPath } from '../../shared/names.ts';
import type { VolumeSpec, Work } from '../kubelet.types.ts';
import { getProfile } from '../../profiles/index.ts';
import { podInfoAttributes } from './csiMounter.ts';

const blockCapability = (v: VolumeSpec) => ({ AccessType: { Block: {} }, access_mode: { mode: v.accessMode } });

/** stageVolumeForBlock: the NodeStageVolume request (`pc`: the publish context the operation's GET of the VolumeAttachment read). */
export function nodeStageVolumeForBlockRequest(w: Work, v: VolumeSpec, pc: Record<string, string> | undefined, secrets?: Record<string, string>): Record<string, unknown> {
  return {
    volume_id: v.handle, ...(pc ? { publish_context: pc } : {}), staging_target_path: blockStagingPath(w.c.input.kubeletRoot, v.pvName),
    volume_capability: blockCapability(v), ...(secrets ? { secrets } : {}), ...(Object.keys(v.volumeContext).length ? { volume_context: v.volumeContext } : {}),
  };
}

/** publishVolumeForBlock: the NodePublishVolume request; the staging path is always sent. */
export function nodePublishVolumeForBlockRequest(w: Work, v: VolumeSpec, podUid: string, pc: Record<string, string> | undefined,
  secrets?: Record<string, string>): Record<string, unknown> {
  const root = w.c.input.kubeletRoot;
  const context = { ...v.volumeContext, ...(getProfile(w.c.input.profile).kubeletBlockPodInfo ? podInfoAttributes(w, v, podUid) : {}) };
  return {
    volume_id: v.handle, ...(pc ? { publish_context: pc } : {}), staging_target_path: blockStagingPath(root, v.pvName),
    target_path: blockPublishPath(root, v.pvName, podUid), volume_capability: blockCapability(v),
    // (csi.proto's order: secrets, field 7, before volume_context, 8)
    ...(v.readOnly ? { readonly: true } : {}), ...(secrets && Object.keys(secrets).length ? { secrets } : {}),
    ...(Object.keys(context).length ? { volume_context: context } : {}),
  };
}

/** unpublishVolumeForBlock: the NodeUnpublishVolume request. */
export const nodeUnpublishVolumeForBlockRequest = (w: Work, v: VolumeSpec, podUid: string): Record<string, unknown> =>
  ({ volume_id: v.handle, target_path: blockPublishPath(w.c.input.kubeletRoot, v.pvName, podUid) });

/** unstageVolumeForBlock: the NodeUnstageVolume request. */
export const nodeUnstageVolumeForBlockRequest = (w: Work, v: VolumeSpec): Record<string, unknown> =>
  ({ volume_id: v.handle, staging_target_path: blockStagingPath(w.c.input.kubeletRoot, v.pvName) });
