/**
 * CSI protobuf details the plugins need: enum numbers (protosanitizer prints enums as numbers) and the
 * request-JSON helpers. upstream: container-storage-interface/spec csi.proto v1.9.0;
 * kubernetes-csi/csi-lib-utils protosanitizer (JSON of the message, keys sorted, secrets replaced).
 */
import { sortedJson } from '../shared/goFormat.ts';
import { isSecretField, STRIPPED_SECRET } from '../shared/csi.ts';
import type { ControllerCapability, NodeCapability } from '../drivers/types.ts';

export const CONTROLLER_CAPABILITY_TYPE: Record<ControllerCapability, number> = {
  CREATE_DELETE_VOLUME: 1, PUBLISH_UNPUBLISH_VOLUME: 2, LIST_VOLUMES: 3, GET_CAPACITY: 4,
  CREATE_DELETE_SNAPSHOT: 5, LIST_SNAPSHOTS: 6, CLONE_VOLUME: 7, PUBLISH_READONLY: 8, EXPAND_VOLUME: 9,
  LIST_VOLUMES_PUBLISHED_NODES: 10, SINGLE_NODE_MULTI_WRITER: 13,
};
export const NODE_CAPABILITY_TYPE: Record<NodeCapability, number> = {
  STAGE_UNSTAGE_VOLUME: 1, GET_VOLUME_STATS: 2, EXPAND_VOLUME: 3, SINGLE_NODE_MULTI_WRITER: 5,
};
/** PluginCapability.Service.Type */
export const SERVICE_CONTROLLER = 1;
export const SERVICE_VOLUME_ACCESSIBILITY_CONSTRAINTS = 2;


function strip(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(strip);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    // omitempty: zero scalars and empty maps/lists vanish; a set (non-nil) message prints even when empty
    // ("Mount":{}), which callers express as an empty object, so objects stay.
    if (x === undefined || x === null || x === '' || x === false || x === 0 || (Array.isArray(x) && x.length === 0)) continue;
    out[k] = isSecretField(k) ? STRIPPED_SECRET : strip(x);
  }
  return out;
}

/**
 * protosanitizer.StripSecrets(msg).String(): the message as JSON with proto field names, zero values
 * omitted (omitempty), secrets replaced, map and object keys sorted (Go re-marshals a generic map).
 */
export function sanitizedJson(msg: Record<string, unknown> | undefined): string {
  return sortedJson(strip(msg ?? {}));
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Typed reads of the request fields the plugins use (proto JSON names, snake_case). */
export const req = {
  name: (r: Record<string, unknown>) => str(r.name),
  volumeId: (r: Record<string, unknown>) => str(r.volume_id),
  nodeId: (r: Record<string, unknown>) => str(r.node_id),
  snapshotId: (r: Record<string, unknown>) => str(r.snapshot_id),
  sourceVolumeId: (r: Record<string, unknown>) => str(r.source_volume_id),
  stagingPath: (r: Record<string, unknown>) => str(r.staging_target_path),
  targetPath: (r: Record<string, unknown>) => str(r.target_path),
  requiredBytes: (r: Record<string, unknown>): number | undefined => {
    const c = r.capacity_range as { required_bytes?: number } | undefined;
    return typeof c?.required_bytes === 'number' ? c.required_bytes : undefined;
  },
  parameters: (r: Record<string, unknown>) => (r.parameters as Record<string, string> | undefined) ?? {},
  /** the mount flags of a node call's volume_capability, or of CreateVolume's first volume_capabilities entry */
  mountFlags: (r: Record<string, unknown>): string[] => {
    type Cap = { AccessType?: { Mount?: { mount_flags?: string[] } } };
    const cap = (r.volume_capability as Cap | undefined) ?? (r.volume_capabilities as Cap[] | undefined)?.[0];
    return cap?.AccessType?.Mount?.mount_flags ?? [];
  },
  /** content source: accepts the protosanitizer shape {Type:{Snapshot:{snapshot_id}}} and the plain {snapshot:{snapshot_id}} */
  contentSource: (r: Record<string, unknown>): { snapshotId?: string; volumeId?: string } | undefined => {
    const s = r.volume_content_source as Record<string, Record<string, Record<string, string>>> | undefined;
    if (!s) return undefined;
    const t = (s.Type ?? s) as Record<string, Record<string, string>>;
    const snap = t.Snapshot ?? t.snapshot;
    const vol = t.Volume ?? t.volume;
    if (snap?.snapshot_id) return { snapshotId: snap.snapshot_id };
    if (vol?.volume_id) return { volumeId: vol.volume_id };
    return undefined;
  },
};

/** The ceph-csi request id of a call (internal/csi-common/utils.go getReqID). */
export function cephReqId(rpc: string, r: Record<string, unknown>): string {
  switch (rpc) {
    case 'CreateVolume': case 'CreateSnapshot': return req.name(r);
    case 'DeleteSnapshot': return req.snapshotId(r);
    case 'DeleteVolume': case 'ControllerExpandVolume': case 'ControllerPublishVolume': case 'ControllerUnpublishVolume':
    case 'NodeStageVolume': case 'NodeUnstageVolume': case 'NodePublishVolume': case 'NodeUnpublishVolume': case 'NodeExpandVolume':
      return req.volumeId(r);
    default: return '';
  }
}
