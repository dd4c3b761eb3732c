/**
 * What each CSI RPC does to the plugin's view of the backend, and which spec error code it returns
 * when it cannot (CSI spec v1.9.0 error tables, k8s-facts §3.1). Pure: the same context, request and
 * time give the same outcome, so the plugin can check a request when it arrives and apply it when its
 * latency has passed.
 */
import { removePrefixedParameters, type CsiRpc, type GrpcCode } from '../shared/csi.ts';
import type { Stage } from '../shared/messages.ts';
import { VOLUME_ID_PREFIX, type DriverProfile } from '../drivers/types.ts';
import { cephCreateSnapshot, cephCreateVolume, cephDeleteVolume, emptyCephState, uuidOf } from './cephJournal.ts';
import type { CsiVolumeLifecycleEvent } from './csiVolumeLifecycle.machine.ts';
import { nfsCreateVolumeLogs, nfsDeleteVolumeLogs, nfsNodePublishLogs, nfsNodeUnpublishLogs, nfsVolumeId } from './nfsServer.ts';
import {
  isCeph, isNfs, newLifecycle, nextRng, stepLifecycle, type Outcome, type PluginContext, type PluginVolume,
} from './pluginState.ts';
import { CONTROLLER_CAPABILITY_TYPE, NODE_CAPABILITY_TYPE, SERVICE_CONTROLLER, SERVICE_VOLUME_ACCESSIBILITY_CONSTRAINTS, req } from './proto.ts';

const GIB = 1024 ** 3;
type R = Record<string, unknown>;
const fail = (code: GrpcCode, message: string): Outcome => ({ ok: false, code, message });
type Logs = Array<{ msg: string; args: Record<string, string | number>; stage?: Stage }>;
const ok = (context: PluginContext, response: R = {}, logs: Logs = []): Outcome => ({ ok: true, context, response, logs });

/** Which capability an RPC needs; calling it without is UNIMPLEMENTED ("MUST NOT retry"). */
function unsupported(d: DriverProfile, rpc: CsiRpc): boolean {
  const c = d.controllerCapabilities, n = d.nodeCapabilities;
  switch (rpc) {
    case 'CreateVolume': case 'DeleteVolume': return !c.includes('CREATE_DELETE_VOLUME');
    case 'ControllerPublishVolume': case 'ControllerUnpublishVolume': return !c.includes('PUBLISH_UNPUBLISH_VOLUME');
    case 'CreateSnapshot': case 'DeleteSnapshot': return !c.includes('CREATE_DELETE_SNAPSHOT');
    case 'ControllerExpandVolume': return !c.includes('EXPAND_VOLUME');
    case 'ListVolumes': return !c.includes('LIST_VOLUMES');
    case 'NodeStageVolume': case 'NodeUnstageVolume': return !n.includes('STAGE_UNSTAGE_VOLUME');
    case 'NodeGetVolumeStats': return !n.includes('GET_VOLUME_STATS');
    case 'NodeExpandVolume': return !n.includes('EXPAND_VOLUME');
    default: return false;
  }
}

/** The spec's code when the lifecycle refuses an RPC, per RPC and current state. */
function lifecycleRefusal(rpc: CsiRpc, v: PluginVolume, nodeId: string): Outcome {
  const s = v.lifecycle.value;
  switch (rpc) {
    case 'DeleteVolume': return fail('FAILED_PRECONDITION', `volume ${v.volumeId} is still published to node(s) ${v.lifecycle.context.nodes.join(',')}`);
    case 'ControllerPublishVolume': return fail('FAILED_PRECONDITION', `volume ${v.volumeId} is already published to node ${v.lifecycle.context.nodes.join(',')}, cannot publish it to node ${nodeId}`);
    case 'NodePublishVolume': return fail('FAILED_PRECONDITION', `volume ${v.volumeId} has not been staged (state ${s}): NodeStageVolume must succeed first`);
    case 'NodeUnstageVolume': return fail('FAILED_PRECONDITION', `volume ${v.volumeId} is still published at ${v.lifecycle.context.targets.join(',')}`);
    default: return fail('FAILED_PRECONDITION', `${rpc} is not allowed for volume ${v.volumeId} in state ${s}`);
  }
}

/**
 * A request is executed twice: tried when it arrives (acceptRequest: only the outcome matters) and
 * applied when the backend's work is done (completeRequest). Trying leaves the backend's tables
 * alone; applying updates them in place, for scale (thousands of volumes; the actor owns them).
 */
let applying = true;

function withVolume(ctx: PluginContext, v: PluginVolume): PluginContext {
  if (applying) ctx.volumes[v.volumeId] = v;
  return { ...ctx };
}

function setTables(ctx: PluginContext, set: Array<[table: 'volumes' | 'names', key: string, value: unknown]>): PluginContext {
  if (applying) {
    for (const [t, k, v] of set) {
      const table = ctx[t] as Record<string, unknown>;
      if (v === undefined) delete table[k]; else table[k] = v;
    }
  }
  return { ...ctx };
}


/** Step the volume's lifecycle; undefined lifecycle means refused. */
function step(ctx: PluginContext, v: PluginVolume, rpc: CsiRpc, ev: CsiVolumeLifecycleEvent, nodeId = ''): Outcome | PluginVolume {
  const next = stepLifecycle(v.lifecycle, ev);
  if (!next) return lifecycleRefusal(rpc, v, nodeId);
  return { ...v, lifecycle: next };
}
const isOutcome = (x: Outcome | PluginVolume): x is Outcome => 'ok' in x;

/** The first preferred (else requisite) topology segment's value for the driver's first key. */
function requestedZone(keys: readonly string[], r: R): string | undefined {
  const acc = r.accessibility_requirements as { preferred?: Array<{ segments?: Record<string, string> }>; requisite?: Array<{ segments?: Record<string, string> }> } | undefined;
  const key = keys[0];
  if (!acc || !key) return undefined;
  return acc.preferred?.[0]?.segments?.[key] ?? acc.requisite?.[0]?.segments?.[key];
}

function topology(ctx: PluginContext): R | undefined {
  if (!ctx.driver.topologyKeys.length || !ctx.zone) return undefined;
  return { segments: Object.fromEntries(ctx.driver.topologyKeys.map((k) => [k, ctx.zone!])) };
}

export function executeRpc(ctx: PluginContext, rpc: CsiRpc, r: R, now: number, prefix: string, apply = true): Outcome {
  applying = apply;
  try {
    return runRpc(ctx, rpc, r, now, prefix);
  } finally {
    applying = true;
  }
}

function runRpc(ctx: PluginContext, rpc: CsiRpc, r: R, now: number, prefix: string): Outcome {
  const d = ctx.driver;
  if (unsupported(d, rpc)) return fail('UNIMPLEMENTED', `${rpc} is not supported by ${d.name}`);
  switch (rpc) {
    // ---------------------------------------------------------------- identity
    case 'GetPluginInfo': return ok(ctx, { name: d.name, vendor_version: d.vendorVersion });
    case 'GetPluginCapabilities': {
      const caps: R[] = [];
      if (d.controllerCapabilities.length) caps.push({ Type: { Service: { type: SERVICE_CONTROLLER } } });
      if (d.topologyKeys.length) caps.push({ Type: { Service: { type: SERVICE_VOLUME_ACCESSIBILITY_CONSTRAINTS } } });
      return ok(ctx, { capabilities: caps });
    }
    case 'Probe': return ok(ctx, { ready: { value: true } });
    case 'ControllerGetCapabilities':
      return ok(ctx, { capabilities: d.controllerCapabilities.map((c) => ({ Type: { Rpc: { type: CONTROLLER_CAPABILITY_TYPE[c] } } })) });
    case 'NodeGetCapabilities':
      return ok(ctx, { capabilities: d.nodeCapabilities.map((c) => ({ Type: { Rpc: { type: NODE_CAPABILITY_TYPE[c] } } })) });
    case 'NodeGetInfo': {
      const t = topology(ctx);
      const max = d.maxVolumesPerNode ?? 0;
      return ok(ctx, { node_id: ctx.nodeId ?? ctx.nodeName ?? '', ...(max > 0 ? { max_volumes_per_node: max } : {}), ...(t ? { accessible_topology: t } : {}) });
    }
    // ---------------------------------------------------------------- controller
    case 'CreateVolume': return createVolume(ctx, r, prefix);
    case 'DeleteVolume': {
      const id = req.volumeId(r);
      if (!id) return fail('INVALID_ARGUMENT', 'Volume ID missing in request');
      const v = ctx.volumes[id];
      if (!v) return ok(ctx); // spec: volume not found -> 0 OK
      const s = step(ctx, v, rpc, { type: 'csi.deleteVolume' });
      if (isOutcome(s)) return s;
      let next: PluginContext = setTables(ctx, [['volumes', id, undefined], ['names', v.name, undefined]]);
      let logs: Logs = [];
      if (isCeph(d) && d.ceph && ctx.ceph) {
        const del = cephDeleteVolume(d.ceph, ctx.ceph, prefix, id);
        next = { ...next, ceph: del.state };
        // (the lines ceph-csi shares with CreateVolume, the omap reads, serve this DeleteVolume here)
        logs = (del.logs as typeof logs).map((l) => ({ ...l, stage: 'delete' as const }));
      }
      if (isNfs(d)) logs = nfsDeleteVolumeLogs(id).map((l) => ({ ...l, stage: 'delete' as const }));
      return ok(next, {}, logs);
    }
    case 'ControllerPublishVolume': case 'ControllerUnpublishVolume': {
      const id = req.volumeId(r), nodeId = req.nodeId(r);
      if (!id) return fail('INVALID_ARGUMENT', 'Volume ID missing in request');
      if (!nodeId && rpc === 'ControllerPublishVolume') return fail('INVALID_ARGUMENT', 'Node ID missing in request');
      const v = ctx.volumes[id];
      // spec: a volume that is gone can be regarded as unpublished -> SHOULD return 0 OK, so that a
      // VolumeAttachment of a deleted volume can still be detached
      if (!v && rpc === 'ControllerUnpublishVolume') return ok(ctx, {});
      if (!v) return fail('NOT_FOUND', `volume ${id} not found`);
      const s = step(ctx, v, rpc, { type: rpc === 'ControllerPublishVolume' ? 'csi.controllerPublishVolume' : 'csi.controllerUnpublishVolume', nodeId }, nodeId);
      if (isOutcome(s)) return s;
      return ok(withVolume(ctx, s), {});
    }
    case 'ControllerExpandVolume': case 'NodeExpandVolume': {
      const id = req.volumeId(r);
      const v = ctx.volumes[id];
      if (!v) return fail('NOT_FOUND', `volume ${id} not found`);
      const want = req.requiredBytes(r) ?? v.capacityBytes;
      const cap = Math.max(v.capacityBytes, d.volumeIdStyle === 'cbs-disk' ? Math.ceil(want / (10 * GIB)) * 10 * GIB : want);
      // a node plugin knows the size it was asked to grow the file system to, not the backend's rounding
      return ok(withVolume(ctx, { ...v, capacityBytes: cap }), rpc === 'ControllerExpandVolume' ? { capacity_bytes: cap, node_expansion_required: true } : { capacity_bytes: want });
    }
    case 'ValidateVolumeCapabilities': {
      const v = ctx.volumes[req.volumeId(r)];
      if (!v) return fail('NOT_FOUND', `volume ${req.volumeId(r)} not found`);
      return ok(ctx, { confirmed: { volume_capabilities: r.volume_capabilities } });
    }
    case 'ListVolumes':
      return ok(ctx, { entries: Object.values(ctx.volumes).map((v) => ({ volume: { capacity_bytes: v.capacityBytes, volume_id: v.volumeId } })) });
    case 'CreateSnapshot': {
      const name = req.name(r), src = req.sourceVolumeId(r);
      if (!name) return fail('INVALID_ARGUMENT', 'snapshot name is empty');
      const existing = Object.values(ctx.snapshots).find((s) => s.name === name);
      if (existing && existing.sourceVolumeId !== src) return fail('ALREADY_EXISTS', `snapshot with the same name ${name} but with different source volume id already exists`);
      const v = ctx.volumes[src];
      if (!v) return fail('NOT_FOUND', `source volume ${src} not found`);
      let snap = existing;
      let next = ctx;
      let logs: Logs = [];
      if (isCeph(d) && d.ceph) {
        // ceph-csi: the snapshot journal and a clone of the volume as the snapshot's own image (cephJournal.ts);
        // a repeat of the request finds its reservation and answers with the same snapshot
        const [rng, c2] = nextRng(ctx);
        const res = cephCreateSnapshot(d.ceph, c2.ceph ?? emptyCephState(), prefix, name, src, rng);
        if (!res.ok) return fail(res.code, res.message);
        logs = res.logs.map((l) => ({ ...l, stage: 'snapshot' as const })) as Logs;
        snap ??= { snapshotId: res.snapshotId, name, sourceVolumeId: src, sizeBytes: res.sizeBytes, createdAtUs: now, imageName: res.imageName };
        next = { ...c2, ceph: res.state, snapshots: { ...c2.snapshots, [snap.snapshotId]: snap } };
      } else if (!snap) {
        const [rng, c2] = nextRng(ctx);
        const snapshotId = `snap-${rng.alnum(8)}`;
        snap = { snapshotId, name, sourceVolumeId: src, sizeBytes: v.capacityBytes, createdAtUs: now };
        next = { ...c2, snapshots: { ...c2.snapshots, [snapshotId]: snap } };
      }
      const wallUs = (ctx.epochUs ?? 0) + snap.createdAtUs;
      return ok(next, { snapshot: { creation_time: { seconds: Math.floor(wallUs / 1e6), nanos: (wallUs % 1e6) * 1000 }, ready_to_use: true, size_bytes: snap.sizeBytes, snapshot_id: snap.snapshotId, source_volume_id: snap.sourceVolumeId } }, logs);
    }
    case 'DeleteSnapshot': {
      const id = req.snapshotId(r);
      const snapshots = { ...ctx.snapshots };
      delete snapshots[id];
      return ok({ ...ctx, snapshots });
    }
    // ---------------------------------------------------------------- node
    case 'NodeStageVolume': case 'NodeUnstageVolume': case 'NodePublishVolume': case 'NodeUnpublishVolume':
      return nodeRpc(ctx, rpc, r, prefix);
    case 'NodeGetVolumeStats': {
      const v = ctx.volumes[req.volumeId(r)];
      if (!v) return fail('NOT_FOUND', `volume ${req.volumeId(r)} not found`);
      return ok(ctx, { usage: [{ available: Math.floor(v.capacityBytes * 0.9), total: v.capacityBytes, unit: 1, used: Math.ceil(v.capacityBytes * 0.1) }] });
    }
    default:
      return fail('UNIMPLEMENTED', `${rpc} is not implemented by ${d.name}`);
  }
}

function createVolume(ctx: PluginContext, r: R, prefix: string): Outcome {
  const d = ctx.driver;
  const name = req.name(r);
  if (!name) return fail('INVALID_ARGUMENT', 'volume name is empty');
  let size = req.requiredBytes(r) ?? GIB;
  // cbs-csi controller.go: disks come in 10 GiB steps
  if (d.volumeIdStyle === 'cbs-disk') size = Math.max(10, Math.ceil(size / GIB / 10) * 10) * GIB;
  const source = req.contentSource(r);
  const caps = (r.volume_capabilities ?? []) as Array<{ AccessType?: Record<string, unknown> }>;
  if (d.noRawBlock && caps.some((c) => c.AccessType && 'Block' in c.AccessType)) return fail('INVALID_ARGUMENT', 'block volume capability is not supported');
  if (source?.volumeId && !d.controllerCapabilities.includes('CLONE_VOLUME')) return fail('INVALID_ARGUMENT', 'cloning volumes is not supported');
  if (source?.volumeId && !ctx.volumes[source.volumeId]) return fail('NOT_FOUND', `source volume ${source.volumeId} not found`);
  if (source?.snapshotId && !ctx.snapshots[source.snapshotId]) return fail('NOT_FOUND', 'Volume Snapshot not found');
  const existingId = ctx.names[name];
  const existing = existingId ? ctx.volumes[existingId] : undefined;
  if (existing && existing.capacityBytes < size) return fail('ALREADY_EXISTS', `volume ${name} already exists with a smaller size ${existing.capacityBytes}`);
  const params = req.parameters(r);
  let next = ctx;
  let volumeId: string, imageName: string | undefined;
  let logs: Logs = [];
  let volumeContext: Record<string, string> = { ...params };
  if (isCeph(d) && d.ceph) {
    const [rng, c2] = nextRng(ctx);
    const snapImage = source?.snapshotId ? ctx.snapshots[source.snapshotId]!.imageName : undefined;
    const res = cephCreateVolume(d.ceph, ctx.ceph ?? { omaps: {}, images: {}, trash: {} }, prefix, name, existing?.capacityBytes ?? size,
      source?.volumeId ? { volumeId: source.volumeId } : snapImage ? { snapshotImage: snapImage } : undefined, rng, params['csi.storage.k8s.io/pvc/namespace']);
    if (!res.ok) return fail(res.code, res.message);
    volumeId = res.volumeId; imageName = res.imageName; logs = res.logs as typeof logs;
    next = { ...c2, ceph: res.state };
    // util.GetVolumeContext drops the csi.storage.k8s.io/ keys (--extra-create-metadata's; ceph-csi v3.12.2 internal/util/util.go :381-398)
    volumeContext = { ...removePrefixedParameters(params), clusterID: d.ceph.clusterID, imageName, journalPool: d.ceph.pool, pool: d.ceph.pool };
    size = res.sizeBytes;
  } else if (existing) {
    volumeId = existing.volumeId;
    size = existing.capacityBytes;
  } else if (isNfs(d)) {
    // a subdirectory of the export named after the volume; the class's parameters plus subdir are its context
    volumeId = nfsVolumeId(params, name);
    volumeContext = { ...params, subdir: name };
    logs = nfsCreateVolumeLogs(volumeId, req.mountFlags(r)).map((l) => ({ ...l, stage: 'provision' as const }));
  } else {
    const [rng, c2] = nextRng(ctx);
    volumeId = `${VOLUME_ID_PREFIX[d.volumeIdStyle]}${rng.alnum(8)}`;
    next = c2;
  }
  if (existing) volumeContext = existing.volumeContext;
  const contentSource = source?.volumeId ? { Type: { Volume: { volume_id: source.volumeId } } } : source?.snapshotId ? { Type: { Snapshot: { snapshot_id: source.snapshotId } } } : undefined;
  const vol: PluginVolume = existing ?? {
    volumeId, name, capacityBytes: size, volumeContext, ...(source ? { contentSource: source } : {}), ...(imageName ? { imageName } : {}),
    lifecycle: stepLifecycle(newLifecycle(d, 'absent'), { type: 'csi.createVolume' })!,
  };
  next = setTables(next, [['volumes', volumeId, vol], ['names', name, volumeId]]);
  // CSI spec (CreateVolume): with accessibility_requirements the volume MUST be accessible from one of the
  // requisite topologies and SHOULD follow the preferred order; the zone the driver is told wins over its own.
  // The external-provisioner fills them from the selected node (WaitForFirstConsumer) or from every node.
  const t = topology({ ...ctx, zone: requestedZone(d.topologyKeys, r) ?? params.diskZone ?? params.zone ?? ctx.zone });
  return ok(next, {
    volume: {
      // csi-driver-nfs answers capacity_bytes 0 (proto3 JSON leaves it out): the PV takes the claim's size
      ...(isNfs(d) ? {} : { capacity_bytes: vol.capacityBytes }), volume_id: vol.volumeId, volume_context: vol.volumeContext,
      ...(contentSource ? { content_source: contentSource } : {}), ...(t ? { accessible_topology: [t] } : {}),
    },
  }, logs);
}

function nodeRpc(ctx: PluginContext, rpc: CsiRpc, r: R, prefix: string): Outcome {
  const d = ctx.driver;
  const id = req.volumeId(r);
  if (!id) return fail('INVALID_ARGUMENT', 'Volume ID missing in request');
  const stagingPath = req.stagingPath(r), targetPath = req.targetPath(r);
  const stageUnstage = d.nodeCapabilities.includes('STAGE_UNSTAGE_VOLUME');
  if (rpc === 'NodeStageVolume' && !stagingPath) return fail('INVALID_ARGUMENT', 'Staging target path not provided');
  if ((rpc === 'NodePublishVolume' || rpc === 'NodeUnpublishVolume') && !targetPath) return fail('INVALID_ARGUMENT', 'Target path not provided');
  // spec: STAGE_UNSTAGE advertised but staging_target_path not set -> FAILED_PRECONDITION
  if (rpc === 'NodePublishVolume' && stageUnstage && !stagingPath) return fail('FAILED_PRECONDITION', 'staging_target_path is required when STAGE_UNSTAGE_VOLUME is advertised');
  // a volume the node plugin has not seen yet: the CO has published it to this node (NODE_READY)
  const v: PluginVolume = ctx.volumes[id] ?? {
    volumeId: id, name: id, capacityBytes: 10 * GIB, volumeContext: (r.volume_context as Record<string, string>) ?? {},
    ...(isCeph(d) ? { imageName: (r.volume_context as Record<string, string> | undefined)?.imageName ?? `csi-vol-${uuidOf(id)}` } : {}),
    lifecycle: newLifecycle(d, 'NODE_READY'),
  };
  const ev: CsiVolumeLifecycleEvent = rpc === 'NodeStageVolume' ? { type: 'csi.nodeStageVolume' }
    : rpc === 'NodeUnstageVolume' ? { type: 'csi.nodeUnstageVolume' }
      : rpc === 'NodePublishVolume' ? { type: 'csi.nodePublishVolume', targetPath } : { type: 'csi.nodeUnpublishVolume', targetPath };
  const before = v.lifecycle.value;
  const s = step(ctx, v, rpc, ev);
  if (isOutcome(s)) return s;
  const changed = s.lifecycle.value !== before || s.lifecycle.context.targets.length !== v.lifecycle.context.targets.length;
  const logs: Array<{ msg: string; args: Record<string, string | number> }> = [];
  if (isNfs(d) && changed && (rpc === 'NodePublishVolume' || rpc === 'NodeUnpublishVolume')) {
    logs.push(...(rpc === 'NodePublishVolume'
      ? nfsNodePublishLogs(id, (r.volume_context as Record<string, string> | undefined) ?? v.volumeContext, targetPath, req.mountFlags(r))
      : nfsNodeUnpublishLogs(id, targetPath)));
  }
  if (isCeph(d) && changed) {
    const P = 'csiNodePlugin.';
    if (rpc === 'NodeStageVolume') logs.push({ msg: P + 'cephMapped', args: { prefix, imageName: `${d.ceph?.pool ?? 'rbd'}/${v.imageName}`, devicePath: '/dev/rbd0' } });
    if (rpc === 'NodePublishVolume') logs.push({ msg: P + 'cephMounted', args: { prefix, stagingPath: `${stagingPath}/${id}`, targetPath } });
    if (rpc === 'NodeUnpublishVolume') logs.push({ msg: P + 'cephUnbound', args: { prefix, volumeId: id, targetPath } });
    if (rpc === 'NodeUnstageVolume') {
      logs.push({ msg: P + 'cephUnmountedStaging', args: { prefix, volumeId: id, stagingPath: v.stagingPath ?? stagingPath } });
      logs.push({ msg: P + 'cephUnmapped', args: { prefix, volumeId: id } });
    }
  }
  // back to NODE_READY: the node plugin keeps nothing of the volume
  const next = setTables(ctx, [['volumes', id, s.lifecycle.value === 'NODE_READY' ? undefined : { ...s, ...(rpc === 'NodeStageVolume' ? { stagingPath } : {}) }]]);
  return ok(next, {}, logs);
}
