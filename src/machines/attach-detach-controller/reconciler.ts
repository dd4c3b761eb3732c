/**
 * The attach/detach controller's reconciler, one pass: detach branch, then attach branch, then the
 * node status update. Event-driven: a pass is scheduled at the next 100ms loop boundary only when
 * something changed or a backoff / the 6-minute unmount wait runs out.
 * upstream: pkg/controller/volume/attachdetach/reconciler/reconciler.go (reconcile,
 * attachDesiredVolumes, reportMultiAttachError), statusupdater/node_status_updater.go.
 * 1.20 (profile.adcDetachBackoffFix false): only IsOperationPending guards the detach branch, so a
 * detach in exponential backoff removes the volume from the report list again on every pass
 * (kubernetes#88565). 1.30: IsOperationSafeToRetry (kubernetes#104526) and force detach only from
 * unhealthy nodes.
 * Beside the pass, every --attach-detach-reconcile-sync-period (1m): syncStates.
 * A node with the node.kubernetes.io/out-of-service taint (1.30) is detached from at once, unsafe.
 * For scale a pass visits only the volumes it could act on differently from its last look
 * (takeTouchedVolumes), in the order of the full walk: the same pass, without walking ten thousand
 * attached volumes that nothing changed.
 * Left out: failed node patches.
 */
import type { ClusterEmitted } from '../shared/contract.ts';
import { complete, isOperationPending, isOperationSafeToRetry, run, findOperation, type OperationKey } from '../shared/nestedPendingOperations.ts';
import { goDuration, goJsonObject } from '../shared/goFormat.ts';
import { summarize } from '../shared/messages.ts';
import { uniqueVolumeName, volumeAttachmentName } from '../shared/names.ts';
import { ADC_MAX_WAIT_FOR_UNMOUNT_DURATION, ADC_RECONCILER_LOOP_PERIOD, ADC_RECONCILER_SYNC_DURATION } from '../shared/timing.ts';
import { getProfile } from '../profiles/index.ts';
import * as asw from './cache/actualStateOfWorld.ts';
import * as dsw from './cache/desiredStateOfWorld.ts';
import { isNodeReady, type K8sObject } from '../shared/k8s.ts';
import { taintKeyExists, TAINT_NODE_OUT_OF_SERVICE } from '../shared/taints.ts';
import { beginOperation, opsFor, setOps } from './operations.ts';
import { updateNodeStatuses } from './statusupdater/nodeStatusUpdater.ts';
import type { AdcContext, Out, RunningOperation } from './types.ts';
import { attachDetachControllerSummaries as summaries } from './attachDetachController.messages.ts';

export const RECONCILE_TIMER = 'reconcile';
export const SYNC_TIMER = 'syncStates';

/** The sync a period after `since` (the start, or the last sync: updateSyncTime), at a loop boundary. */
const syncAfter = (ctx: AdcContext, since: number): ClusterEmitted =>
  ({ type: 'timer.requested', key: SYNC_TIMER, at: nextLoopAt(ctx, since + ADC_RECONCILER_SYNC_DURATION) });

/**
 * The first syncStates: the reconciler's loop syncs once the sync period has passed since the last
 * sync (reconciler.go reconciliationLoopFunc: time.Since(timeOfLastSync) > syncDuration), and
 * timeOfLastSync starts at the reconciler's creation: the first loop boundary after start + 1m.
 */
export const firstSync = (ctx: AdcContext): ClusterEmitted => syncAfter(ctx, ctx.startedAt);

/**
 * reconciler.sync → syncStates → VerifyVolumesAreAttached: every volume the actual state of world
 * holds as attached (GetAttachedVolumesPerNode: confirmed attachments only) is checked with its
 * plugin; for CSI, csi_attacher.go VolumesAreAttached reads the VolumeAttachment (1.30 from the
 * controller's lister first, 1.20 with a GET; here from the controller's cache, a watch behind the
 * API server) and a volume whose VolumeAttachment is gone or not attached is marked detached
 * (operation_generator.go GenerateVolumesAreAttachedFunc). The reconciler then attaches it again if
 * a pod on that node still needs it: how a CSI volume recovers from an actual state of world that
 * says attached when it is not. A driver without attach (skipAttach) counts as attached.
 */
export function syncStates(ctx0: AdcContext, now: number): Out {
  let ctx = ctx0;
  const out: ClusterEmitted[] = [];
  const checks: Array<{ volumeName: string; specName: string; node: string }> = [];
  for (const [av, n] of asw.getAttachedVolumes(ctx.asw)) {
    if (n.attachedConfirmed) checks.push({ volumeName: av.volumeName, specName: av.specName, node: n.nodeName });
  }
  let marked = false;
  for (const c of checks) {
    const { driver, handle } = splitName(c.volumeName);
    if (ctx.attachRequired[driver] === false) continue;
    const vaName = volumeAttachmentName(handle, driver, c.node);
    const va = ctx.vas[vaName];
    if (va?.status?.attached === true) continue;
    if (!va) out.push({ type: 'log', msg: 'attachDetachController.volumesAreAttachedFailed', args: { vaName, err: `volumeattachments.storage.k8s.io ${JSON.stringify(vaName)} not found` } });
    ctx = { ...ctx, asw: asw.markVolumeAsDetached(ctx.asw, c.volumeName, c.node) };
    out.push({ type: 'log', msg: 'attachDetachController.volumeMarkedDetachedBySync', args: { volumeName: c.volumeName, specName: c.specName, node: c.node } });
    marked = true;
  }
  out.push(syncAfter(ctx, now));
  if (!marked) return { ctx, out };
  const r = scheduleReconcile(ctx, now);
  return { ctx: r.ctx, out: [...out, ...r.out] };
}

/** The next loop boundary (process start + k x 100ms) strictly after `now`. */
export const nextLoopAt = (ctx: AdcContext, now: number): number =>
  ctx.startedAt + (Math.floor((now - ctx.startedAt) / ADC_RECONCILER_LOOP_PERIOD) + 1) * ADC_RECONCILER_LOOP_PERIOD;

/** Ask for a reconcile pass at `at` (default: the next loop boundary) unless one comes sooner. */
export function scheduleReconcile(ctx: AdcContext, now: number, at?: number): Out {
  const when = at === undefined ? nextLoopAt(ctx, now) : Math.max(nextLoopAt(ctx, at - 1), nextLoopAt(ctx, now));
  if (ctx.reconcileAt !== 0 && ctx.reconcileAt <= when && ctx.reconcileAt > now) return { ctx, out: [] };
  return { ctx: { ...ctx, reconcileAt: when }, out: [{ type: 'timer.requested', key: RECONCILE_TIMER, at: when }] };
}

const splitName = (volumeName: string): { driver: string; handle: string } => {
  const rest = volumeName.replace(/^kubernetes\.io\/csi\//, '');
  const i = rest.indexOf('^');
  return { driver: rest.slice(0, i), handle: rest.slice(i + 1) };
};

function newOp(kind: RunningOperation['kind'], key: OperationKey, v: { volumeName: string; specName: string }, node: string, now: number, extra: Partial<RunningOperation>): RunningOperation {
  const { driver, handle } = splitName(v.volumeName);
  return {
    key, kind, volumeName: v.volumeName, specName: v.specName, node, driver, handle, pvName: v.specName,
    vaName: volumeAttachmentName(handle, driver, node), state: '', startedAt: now, verifySafeToDetach: true, pods: [], ...extra,
  };
}

/**
 * processVolumeAttachments (attach_detach_controller.go:709, run once before the reconciler starts): a
 * VolumeAttachment whose volume the actual state of world does not hold on its node is an uncertain
 * attachment (MarkVolumeAsUncertain), so that the reconciler detaches it if no pod wants it, or attaches
 * it again. Without it, an attach in flight when the controller restarted would stay attached for ever.
 */
function processVolumeAttachments(ctx: AdcContext, out: ClusterEmitted[]): AdcContext {
  let a = ctx.asw;
  for (const va of Object.values(ctx.vas)) {
    const pvName = va.spec?.source?.persistentVolumeName as string | undefined;
    const node = va.spec?.nodeName as string | undefined;
    const pv = pvName ? ctx.pvs[pvName] : undefined;
    if (!pv || !node) continue;
    const volumeName = uniqueVolumeName(pv.driver, pv.handle);
    if (asw.getAttachState(a, volumeName, node) !== 'Detached') continue;
    a = asw.addVolumeNode(a, { volumeName, specName: pv.name, multiAttachAllowed: pv.multiAttachAllowed }, node, false);
    out.push({ type: 'log', msg: 'attachDetachController.vaMarkedUncertain', args: { node, volumeName, specName: pv.name } });
  }
  return { ...ctx, asw: a, vasProcessed: true };
}

/**
 * Whether a pass visits only the volumes it could act on differently (takeTouchedVolumes). Always on;
 * tests switch it off to check that every trace is the same as a pass over every volume.
 */
export const reconcilerOptions = { onlyTouchedVolumes: true };

/**
 * The volumes this pass must look at: those the caches, the operation tables or a node's object
 * changed since the last pass, and those whose backoff or unmount wait has run out. A volume that
 * is not among them would do exactly what it did at its last look, which changed nothing (had it
 * changed anything, it would have touched itself) and asked for the same wake-up, still kept in
 * `wakes`. So visiting only these, in the order of the full walk, gives the same pass. The sets
 * are emptied here; what this pass changes is looked at again by the next one.
 */
export function takeTouchedVolumes(ctx: AdcContext, now: number): Set<string> {
  const q = ctx.reconcilerQueue;
  const only = new Set<string>(q.touched);
  for (const v of ctx.asw.touched) only.add(v);
  for (const v of ctx.dsw.touched) only.add(v);
  for (const [v, at] of q.wakes) if (at <= now) only.add(v);
  q.touched.clear();
  ctx.asw.touched.clear();
  ctx.dsw.touched.clear();
  return only;
}

export function reconcile(ctx0: AdcContext, now: number): Out {
  const profile = getProfile(ctx0.input.profile);
  let ctx: AdcContext = { ...ctx0, reconcileAt: 0 };
  const out: ClusterEmitted[] = [];
  // (the first pass, after processVolumeAttachments, looks at every volume)
  const only = ctx.vasProcessed && reconcilerOptions.onlyTouchedVolumes ? takeTouchedVolumes(ctx, now) : undefined;
  if (!ctx.vasProcessed) ctx = processVolumeAttachments(ctx, out);
  if (!only) takeTouchedVolumes(ctx, now);
  // the soonest wake-up each visited volume asks for (only times still ahead count)
  const wakes = new Map<string, number>();
  const wake = (volumeName: string, at: number): void => {
    if (at <= now) return;
    const cur = wakes.get(volumeName);
    if (cur === undefined || at < cur) wakes.set(volumeName, at);
  };
  const start = (op: RunningOperation): void => {
    const r = beginOperation(ctx, op);
    ctx = r.ctx;
    out.push(...r.out);
    // an operation that ended at once (an existing VolumeAttachment checked before waiting) is looked at
    // again on the next loop, as the 100ms reconciler loop would
    if (r.finished) wake(op.volumeName, now + 1);
  };

  // Detaches are triggered before attaches so that volumes referenced by pods that are rescheduled
  // to a different node are detached first.
  // both branches walk the live caches (no copy, insertion order); the loops change entries, never add or remove them
  for (const [av, attachedTo] of asw.getAttachedVolumes(ctx.asw, only)) {
    const node = attachedTo.nodeName;
    if (dsw.volumeExists(ctx.dsw, av.volumeName, node)) continue;
    const key: OperationKey = { volumeName: av.volumeName, podName: '', nodeName: av.multiAttachAllowed ? node : '' };
    if (profile.adcDetachBackoffFix) {
      if (!isOperationSafeToRetry(opsFor(ctx, key.volumeName), key, 'volume_detach', now)) {
        const op = findOperation(opsFor(ctx, key.volumeName), key);
        if (op && !op.pending) wake(av.volumeName, op.lastErrorTime + op.durationBeforeRetry);
        continue;
      }
    } else if (isOperationPending(opsFor(ctx, key.volumeName), key)) continue;
    if (asw.getAttachState(ctx.asw, av.volumeName, node) === 'Detached') continue;
    const d = asw.setDetachRequestTime(ctx.asw, av.volumeName, node, now);
    // (the cache changes in place: no new context for every volume that waits for its unmount, at every pass)
    if (d.asw !== ctx.asw) ctx = { ...ctx, asw: d.asw };
    const timeout = d.elapsed > ADC_MAX_WAIT_FOR_UNMOUNT_DURATION;
    // (the node's health only matters once the wait is over: most volumes here are still inside it)
    const forceDetach = timeout && !(profile.adcForceDetachOnlyIfUnhealthy && isNodeReady(ctx.nodes[node]));
    // non-graceful node shutdown: the operator's taint says the node is off for good (the key only, any effect)
    const outOfService = profile.adcOutOfServiceTaint && taintKeyExists(ctx.nodes[node], TAINT_NODE_OUT_OF_SERVICE);
    const mounted = attachedTo.mountedByNode;
    if (mounted && !forceDetach && !outOfService) {
      if (!timeout) wake(av.volumeName, d.since + ADC_MAX_WAIT_FOR_UNMOUNT_DURATION + 1);
      continue;
    }
    // Before detaching, take the volume out of node.status.volumesAttached so kubelets stop mounting it.
    ctx = { ...ctx, asw: asw.removeVolumeFromReportAsAttached(ctx.asw, av.volumeName, node) };
    const patches = updateNodeStatuses(ctx, profile.adcDetachBackoffFix ? node : undefined, (c) => { ctx = c; });
    out.push(...patches);
    const r = run(opsFor(ctx, key.volumeName), key, 'volume_detach', now);
    if (!r.started) {
      // 1.30: AddVolumeToReportAsAttached when DetachVolume fails to start. 1.20: nobody adds it back.
      if (profile.adcDetachBackoffFix) ctx = { ...ctx, asw: asw.addVolumeToReportAsAttached(ctx.asw, av.volumeName, node) };
      if (r.retryAt) wake(av.volumeName, r.retryAt);
      continue;
    }
    ctx = setOps(ctx, key.volumeName, r.ops);
    const args = { specName: av.specName, volumeName: av.volumeName, node, duration: goDuration(ADC_MAX_WAIT_FOR_UNMOUNT_DURATION * 1000) };
    // reconciler.go: the timeout's message wins when both hold
    const msg = timeout ? 'attachDetachController.forceDetachStarted' : outOfService ? 'attachDetachController.outOfServiceDetachStarted' : 'attachDetachController.detachVolumeStarted';
    const op = newOp('volume_detach', key, av, node, now, { verifySafeToDetach: !(timeout || outOfService) });
    // UpdateNodeStatuses / UpdateNodeStatusForNode is a synchronous PATCH: DetachVolume, and the line that says it
    // started, come once it has returned (1.20 reconciler.go:203-219, 1.30 :254-275). The operation is pending
    // already, so nothing else starts on the volume meanwhile.
    const patch = patches.find((p): p is Extract<ClusterEmitted, { type: 'api.request' }> => p.type === 'api.request' && p.name === node);
    if (patch) {
      // (in place, as `reported`: the actor owns its context, and a large rollout's detaches wait here by the hundred
      // behind the client's rate limiter, which a copy per entry would make quadratic)
      ctx.detachAfterStatus[patch.requestId] = { op, msg, args };
      continue;
    }
    out.push({ type: 'log', msg, args });
    start(op);
  }

  // Ensure volumes that should be attached are attached.
  for (const [node, v] of dsw.getVolumesToAttach(ctx.dsw, only)) {
    const key: OperationKey = { volumeName: v.volumeName, podName: '', nodeName: v.multiAttachAllowed ? node : '' };
    if (isOperationPending(opsFor(ctx, key.volumeName), key)) continue;
    if (asw.getAttachState(ctx.asw, v.volumeName, node) === 'Attached') {
      // (the caches change in place and return the same table: no new context for every attached volume)
      asw.resetDetachRequestTime(ctx.asw, v.volumeName, node);
      continue;
    }
    if (!v.multiAttachAllowed) {
      const others = asw.getNodesForAttachedVolume(ctx.asw, v.volumeName).filter((n) => n !== node);
      if (others.length > 0) {
        if (!v.multiAttachErrorReported) {
          out.push(...reportMultiAttachError(ctx, v, node, others));
          ctx = { ...ctx, dsw: dsw.setMultiAttachError(ctx.dsw, v.volumeName, node) };
        }
        continue;
      }
    }
    const r = run(opsFor(ctx, key.volumeName), key, 'volume_attach', now);
    if (!r.started) {
      if (r.retryAt) wake(v.volumeName, r.retryAt);
      continue;
    }
    ctx = setOps(ctx, key.volumeName, r.ops);
    const pods = Object.values(v.scheduledPods);
    out.push({ type: 'log', msg: 'attachDetachController.attachVolumeStarted', args: { specName: v.specName, volumeName: v.volumeName, node, scheduledPods: '[' + pods.map((p) => `"${p.namespace}/${p.name}"`).join(',') + ']' } });
    start(newOp('volume_attach', key, v, node, now, { pods: pods.map((p) => ({ namespace: p.namespace, name: p.name })) }));
  }

  out.push(...updateNodeStatuses(ctx, undefined, (c) => { ctx = c; }));
  // the visited volumes' wake-ups replace theirs; the others keep theirs, all still ahead (takeTouchedVolumes)
  const kept = ctx.reconcilerQueue.wakes;
  if (only) for (const v of only) kept.delete(v);
  else kept.clear();
  for (const [v, at] of wakes) kept.set(v, at);
  // the soonest (a loop, not Math.min(...): ten thousand waiting volumes are as many entries)
  let soonest = Infinity;
  for (const t of kept.values()) if (t < soonest) soonest = t;
  if (soonest !== Infinity) {
    const r = scheduleReconcile(ctx, now, soonest);
    ctx = r.ctx;
    out.push(...r.out);
  }
  return { ctx, out };
}

/**
 * The node status write before a detach has returned: the detach starts, with its line (DetachVolume). A failed
 * write skips it ("UpdateNodeStatuses failed while attempting to report volume as attached", the pass goes on):
 * the pending operation is dropped without backoff and the next pass tries again, the PATCH with it (the status
 * updater marked the node for another write: statusupdater/nodeStatusUpdater.ts). `finished` asks the caller for
 * that next pass (as for an operation that ended).
 */
export function detachAfterStatus(ctx0: AdcContext, requestId: string, ok: boolean, message: string | undefined, now: number): Out {
  const deferred = ctx0.detachAfterStatus[requestId]!;
  delete ctx0.detachAfterStatus[requestId];
  let ctx: AdcContext = ctx0;
  const { op, msg, args } = deferred;
  if (!ok) {
    ctx = setOps(ctx, op.key.volumeName, complete(opsFor(ctx, op.key.volumeName), op.key, false, now).ops);
    // 1.30 puts the volume back in the node's report, so the status updater writes it again
    if (getProfile(ctx.input.profile).adcDetachBackoffFix) ctx = { ...ctx, asw: asw.addVolumeToReportAsAttached(ctx.asw, op.volumeName, op.node) };
    return { ctx, out: [{ type: 'log', msg: 'attachDetachController.updateNodeStatusesFailed', args: { ...args, err: message ?? '' } }], finished: true };
  }
  const r = beginOperation(ctx, { ...op, startedAt: now });
  return { ...r, out: [{ type: 'log', msg, args }, ...r.out] };
}



/**
 * 1.30's Multi-Attach lines log the whole cache.VolumeToAttach ("volume", volumeToAttach: reconciler.go
 * reportMultiAttachError). klog's text format writes a struct value as JSON (klog v2.120.1, vendored by 1.30:
 * internal/serialize/keyvalues.go formatAny → formatAsJSON; v2.90 and before wrote %+v, pointers as addresses): the
 * embedded operationexecutor.VolumeToAttach's fields, its volume.Spec with the whole PersistentVolume, and the
 * scheduled pods, whole, as the informers hold them.
 */
function volumeToAttachDump(ctx: AdcContext, v: dsw.VolumeToAttach, nodeName: string): string {
  const pv = ctx.pvs[v.specName]?.object;
  const pods = Object.values(v.scheduledPods).map((p) => ctx.pods[`${p.namespace}/${p.name}`]).filter((p): p is K8sObject => !!p);
  const spec = `{"Volume":null,"PersistentVolume":${pv ? goJsonObject(pv) : 'null'},"ReadOnly":false,"InlineVolumeSpecForCSIMigration":false,"Migrated":false}`;
  return `{"MultiAttachErrorReported":${v.multiAttachErrorReported ? 'true' : 'false'},"VolumeName":${JSON.stringify(v.volumeName)},"VolumeSpec":${spec},"NodeName":${JSON.stringify(nodeName)},"ScheduledPods":[${pods.map((p) => goJsonObject(p)).join(',')}]}`;
}

function reportMultiAttachError(ctx: AdcContext, v: dsw.VolumeToAttach, nodeName: string, others: string[]): ClusterEmitted[] {
  const out: ClusterEmitted[] = [];
  const pods = dsw.getVolumePodsOnNodes(ctx.dsw, others, v.volumeName);
  const base = {
    specName: v.specName, volumeName: v.volumeName, node: nodeName, otherNodes: others.join(', '), attachedTo: '[' + others.map((n) => `"${n}"`).join(',') + ']',
    volumeDump: volumeToAttachDump(ctx, v, nodeName),
  };
  for (const sp of Object.values(v.scheduledPods)) {
    let msg: string;
    if (pods.length === 0) msg = "Volume is already exclusively attached to one node and can't be attached to another";
    else {
      const local = pods.filter((p) => p.namespace === sp.namespace).map((p) => p.name);
      const other = pods.length - local.length;
      msg = local.length > 0
        ? `Volume is already used by pod(s) ${local.join(', ')}${other > 0 ? ` and ${other} pod(s) in different namespaces` : ''}`
        : `Volume is already used by ${other} pod(s) in different namespaces`;
    }
    out.push({ type: 'event.recorded', involved: { kind: 'Pod', namespace: sp.namespace, name: sp.name }, eventType: 'Warning', reason: 'FailedAttachVolume', message: `Multi-Attach error for volume "${v.specName}" ${msg}` });
  }
  if (pods.length === 0) out.push({ type: 'log', msg: 'attachDetachController.multiAttachExclusive', args: base });
  else {
    const names = pods.map((p) => `${p.namespace}/${p.name}`);
    out.push({ type: 'log', msg: 'attachDetachController.multiAttachUsedByPods', args: { ...base, pods: names.join(', '), podsList: '[' + names.map((n) => `"${n}"`).join(',') + ']' } });
  }
  return out;
}
