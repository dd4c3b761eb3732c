/**
 * The CSI volume plugin's attacher as the kubelet uses it: WaitForAttach reads the VolumeAttachment,
 * MountDevice is NodeStageVolume and UnmountDevice NodeUnstageVolume, each only when the node plugin
 * advertises STAGE_UNSTAGE_VOLUME.
 * upstream: pkg/volume/csi/csi_attacher.go (WaitForAttach, MountDevice, UnmountDevice).
 */
import type { K8sObject } from '../../shared/k8s.ts';
import { volumeAttachmentName } from '../../shared/names.ts';
import { CSI_ACCESS_MODE, hasNodeRpcCapability } from '../../shared/csi.ts';
import type { VolumeSpec, Work } from '../kubelet.types.ts';

/** WaitForAttach: the name of the attached VolumeAttachment (the device path), or the error. */
export function waitForAttach(w: Work, v: VolumeSpec): { devicePath: string } | { error: string } {
  const vaName = volumeAttachmentName(v.handle, v.driver, w.c.input.nodeName);
  // modern csi_attacher.WaitForAttach text (k8s-facts §3.4); the 1.20 watch-based wait is not modelled
  if (!w.c.vas[vaName]?.status?.attached) return { error: `volume ${v.handle} is not attached for volume attachment ${vaName}` };
  return { devicePath: vaName };
}

/** NodeGetCapabilities answer: rpc type SINGLE_NODE_MULTI_WRITER (enum 5 in csi.proto's NodeServiceCapability) present? */
export const supportsSingleNodeMultiWriter = (resp: Record<string, unknown> | undefined): boolean => hasNodeRpcCapability(resp, 5, 'SINGLE_NODE_MULTI_WRITER');

/**
 * getNodeV1AccessModeMapper's mapping of the PV's first access mode (v1.30.1 csi_client.go :501-531): a node plugin with
 * SINGLE_NODE_MULTI_WRITER gets ReadWriteOnce as SINGLE_NODE_MULTI_WRITER and ReadWriteOncePod as
 * SINGLE_NODE_SINGLE_WRITER; one without gets both as SINGLE_NODE_WRITER. The volume's request with that mode.
 */
export function mapAccessMode(v: VolumeSpec, singleNodeMultiWriter: boolean): VolumeSpec {
  const am = v.pvAccessMode ?? 'ReadWriteOnce';
  const mode = am === 'ReadOnlyMany' ? CSI_ACCESS_MODE.MULTI_NODE_READER_ONLY : am === 'ReadWriteMany' ? CSI_ACCESS_MODE.MULTI_NODE_MULTI_WRITER
    : !singleNodeMultiWriter ? CSI_ACCESS_MODE.SINGLE_NODE_WRITER
      : am === 'ReadWriteOncePod' ? CSI_ACCESS_MODE.SINGLE_NODE_SINGLE_WRITER : CSI_ACCESS_MODE.SINGLE_NODE_MULTI_WRITER;
  return mode === v.accessMode ? v : { ...v, accessMode: mode };
}

/** NodeGetCapabilities answer: rpc type STAGE_UNSTAGE_VOLUME (enum 1 in csi.proto) present? */
export const supportsStageUnstage = (resp: Record<string, unknown> | undefined): boolean => hasNodeRpcCapability(resp, 1, 'STAGE_UNSTAGE_VOLUME');

/** csi_client.go NodeStageVolume/NodePublishVolume: a mount volume with its fsType and the PV's mount options as mount_flags. */
export const volumeCapability = (v: VolumeSpec) => ({
  AccessType: { Mount: { ...(v.fsType ? { fs_type: v.fsType } : {}), ...(v.mountOptions ? { mount_flags: v.mountOptions } : {}) } },
  access_mode: { mode: v.accessMode },
});

/**
 * MountDevice: the NodeStageVolume request. `pc`: the publish context the operation read with its GET of the
 * VolumeAttachment (getPublishContext), its status.attachmentMetadata.
 */
export function nodeStageVolumeRequest(w: Work, v: VolumeSpec, stagingPath: string, pc: Record<string, string> | undefined, secrets?: Record<string, string>): Record<string, unknown> {
  return {
    volume_id: v.handle, ...(pc ? { publish_context: pc } : {}), staging_target_path: stagingPath,
    // the node-stage Secret's keys (the node plugin's log prints them stripped)
    volume_capability: volumeCapability(v), ...(secrets ? { secrets } : {}), ...(Object.keys(v.volumeContext).length ? { volume_context: v.volumeContext } : {}),
  };
}

/** UnmountDevice: the NodeUnstageVolume request. */
export const nodeUnstageVolumeRequest = (v: VolumeSpec, stagingPath: string): Record<string, unknown> =>
  ({ volume_id: v.handle, staging_target_path: stagingPath });
