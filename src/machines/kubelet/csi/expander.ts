/**
 * The CSI volume plugin's node expander as the kubelet uses it: NodeExpand asks the node plugin for
 * EXPAND_VOLUME, then calls NodeExpandVolume with the path the file system is mounted at and the PV's
 * new size.
 * upstream: pkg/volume/csi/expander.go (NodeExpand), csi_client.go (NodeSupportsNodeExpand,
 * NodeExpandVolume: volume_id, volume_path, capacity_range.required_bytes, volume_capability,
 * staging_target_path when set). v1.20.4 expander.go:48-136; 1.30 adds secrets only for a
 * NodeExpandSecretRef, which these volumes do not have.
 */
import type { VolumeSpec } from '../kubelet.types.ts';
import { volumeCapability } from './csiAttacher.ts';

/** NodeGetCapabilities answer: rpc type EXPAND_VOLUME (enum 3 in csi.proto) present? */
export function supportsNodeExpand(resp: Record<string, unknown> | undefined): boolean {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const caps = (resp?.capabilities ?? []) as Array<Record<string, any>>;
  return caps.some((c) => {
    const t = c?.Type?.Rpc?.type ?? c?.rpc?.type ?? c?.type;
    return t === 3 || t === 'EXPAND_VOLUME';
  });
}

/** NodeExpandVolume: the file system at volumePath grows to newSize bytes. */
export const nodeExpandVolumeRequest = (v: VolumeSpec, volumePath: string, stagingPath: string | undefined, newSize: number): Record<string, unknown> => ({
  volume_id: v.handle, volume_path: volumePath, capacity_range: { required_bytes: newSize },
  ...(stagingPath ? { staging_target_path: stagingPath } : {}), volume_capability: volumeCapability(v),
});
