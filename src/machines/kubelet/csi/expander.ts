/**
 * The CSI volume plugin's node expander as the kubelet uses it: NodeExpand asks the node plugin for
 * EXPAND_VOLUME, then calls NodeExpandVolume with the path the file system is mounted at and the PV's
 * new size.
 * upstream: pkg/volume/csi/expander.go (NodeExpand), csi_client.go (NodeSupportsNodeExpand,
 * NodeExpandVolume: volume_id, volume_path, capacity_range.required_bytes, volume_capability,
 * staging_target_path when set, secrets: the nodeExpandSecretRef's keys, 1.25 on). v1.20.4 expander.go:48-136,
 * v1.30.1 expander.go:60-126.
 */
import type { VolumeSpec } from '../kubelet.types.ts';
import { volumeCapability } from './csiAttacher.ts';
import { hasNodeRpcCapability } from '../../shared/csi.ts';

/** NodeGetCapabilities answer: rpc type EXPAND_VOLUME (enum 3 in csi.proto) present? */
export const supportsNodeExpand = (resp: Record<string, unknown> | undefined): boolean => hasNodeRpcCapability(resp, 3, 'EXPAND_VOLUME');

/** NodeExpandVolume: the file system at volumePath grows to newSize bytes (`secrets`: csi.proto's field 6, after the capability). */
export const nodeExpandVolumeRequest = (v: VolumeSpec, volumePath: string, stagingPath: string | undefined, newSize: number, secrets?: Record<string, string>): Record<string, unknown> => ({
  volume_id: v.handle, volume_path: volumePath, capacity_range: { required_bytes: newSize },
  ...(stagingPath ? { staging_target_path: stagingPath } : {}), volume_capability: volumeCapability(v),
  ...(secrets && Object.keys(secrets).length ? { secrets } : {}),
});
