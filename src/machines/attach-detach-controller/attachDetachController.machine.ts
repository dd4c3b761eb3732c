/**
 * The attach/detach controller of kube-controller-manager: attaches the volumes of scheduled pods
 * to their nodes (by creating VolumeAttachments for CSI drivers with attachRequired) and detaches
 * them when no pod on that node needs them, keeping node.status.volumesAttached up to date.
 * upstream: pkg/controller/volume/attachdetach (attach_detach_controller.go, cache/, reconciler/,
 * statusupdater/), pkg/volume/util/operationexecutor, pkg/volume/csi/csi_attacher.go; v1.20 and
 * master-era text (see the profiles). Helpers: cache/*.ts, informers.ts, reconciler.ts, operations.ts
 * (deterministic; they update the context's maps in place, for scale).
 * Leaves out: in-tree plugins, inline/migrated volumes, the populator's 3m
 * re-list of pods (informer events drive the DSW; the 1m pass only removes deleted pods), metrics.
 */
import { assign, setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { emptyAsw } from './cache/actualStateOfWorld.ts';
import { emptyDsw } from './cache/desiredStateOfWorld.ts';
import * as dsw from './cache/desiredStateOfWorld.ts';
import * as asw from './cache/actualStateOfWorld.ts';
import { isNodeReady } from '../shared/k8s.ts';
import { taintKeyExists, TAINT_NODE_OUT_OF_SERVICE } from '../shared/taints.ts';
import { ADC_DSW_POPULATOR_LIST_PODS_RETRY, ADC_DSW_POPULATOR_LOOP_PERIOD } from '../shared/timing.ts';
import { processNode, processPod, processPv, processPvc, repopulate } from './informers.ts';
import { checkVa, isWaitingForVolumeAttachment, onApiResult, onTimeout, operationForRequest, operationsForVa, pollOrWatch } from './operations.ts';
import { nodeStatusWritten, updateNodeStatusesError } from './statusupdater/nodeStatusUpdater.ts';
import { detachAfterStatus, firstSync, RECONCILE_TIMER, reconcile, scheduleReconcile, SYNC_TIMER, syncStates } from './reconciler.ts';
import { emptyIndex, emptyReconcilerQueue, type AdcContext, type AttachDetachControllerInput, type Out } from './types.ts';

/**
 * One inbound event applied to the context; returns the next context and what to emit. For scale the
 * large maps (caches, DSW/ASW, operations, indexes) are updated in place: the actor owns its context.
 */
function handle(ctx: AdcContext, e: ClusterEvent): Out {
  switch (e.type) {
    case 'component.started': {
      const started = { ...ctx, startedAt: e.now };
      return { ctx: started, out: ctx.input.disableReconcileSync ? [] : [firstSync(started)] };
    }
    case 'watch.added': case 'watch.modified': case 'watch.deleted':
      return onWatch(ctx, e.object, e.type === 'watch.deleted', e.now);
    case 'clock.ticked': {
      if (e.key === RECONCILE_TIMER) return reconcile(ctx, e.now);
      if (e.key === POPULATOR_TIMER) return findAndRemoveDeletedPods(ctx, e.now);
      if (e.key === SYNC_TIMER) return syncStates(ctx, e.now);
      const [kind, ...rest] = e.key.split(':');
      const op = ctx.running[rest.join(':')];
      if (!op) return { ctx, out: [] };
      if (kind === 'op') return settle(onTimeout(ctx, op, e.now), e.now);
      return settle(checkVa(ctx, op, e.now), e.now);
    }
    case 'api.result': {
      if (ctx.statusWrites[e.requestId]) {
        const w = nodeStatusWritten(ctx, e.requestId, e.ok, e.message);
        if (w.ctx.detachAfterStatus[e.requestId]) {
          const d = detachAfterStatus(w.ctx, e.requestId, w.failed === undefined, w.failed, e.now);
          // (the write before a detach: its failure is the detach's)
          return settle({ ...d, out: [...w.out.map((o) => (o.type === 'log' ? { ...o, stage: 'detach' as const } : o)), ...d.out] }, e.now);
        }
        if (w.failed === undefined) return w;
        // the reconciler's pass that wrote it logs the failure; its next pass writes again
        return settle({ ctx: w.ctx, out: [...w.out, { type: 'log', msg: 'attachDetachController.updateNodeStatusesFailedWith', args: { err: updateNodeStatusesError(w.ctx, w.failed) } }], finished: true }, e.now);
      }
      const op = operationForRequest(ctx, e.requestId);
      if (!op) return { ctx, out: [] };
      return settle(onApiResult(ctx, op, e.ok, e.code, e.object, e.message, e.now), e.now);
    }
    default:
      return { ctx, out: [] };
  }
}

const POPULATOR_TIMER = 'dswPopulator';

function initialContext(input: AttachDetachControllerInput): AdcContext {
  return {
    input: { epochUs: 0, uptimeAtStartUs: 0, ...input, tz: input.tz ?? { offsetMin: 0, zone: 'UTC' } },
    seq: 0, startedAt: 0, populatorAt: 0, populatorNeedsList: false, populatorListedAt: 0, pods: {}, pvcs: {}, pvs: {}, nodes: {}, vas: {},
    attachRequired: Object.fromEntries((input.attachRequiredDrivers ?? []).map((d) => [d, true])),
    dsw: emptyDsw(), asw: emptyAsw(), ops: {}, running: {}, index: emptyIndex(), reported: {}, detachAfterStatus: {}, statusWrites: {}, reconcileAt: 0, reconcilerQueue: emptyReconcilerQueue(),
  };
}

const liveUids = (ctx: AdcContext): Set<string> => new Set(Object.values(ctx.pods).map((p) => p.metadata.uid ?? ''));

/**
 * One pass of the desired-state populator (every ADC_DSW_POPULATOR_LOOP_PERIOD): findAndRemoveDeletedPods,
 * and every ADC_DSW_POPULATOR_LIST_PODS_RETRY findAndAddActivePods. Scheduled only when there is
 * something for it to find (event-driven for scale).
 * upstream: pkg/controller/volume/attachdetach/populator/desired_state_of_world_populator.go
 */
function findAndRemoveDeletedPods(ctx0: AdcContext, now: number): Out {
  let ctx: AdcContext = { ...ctx0, populatorAt: 0 };
  const out: ClusterEmitted[] = [];
  if (ctx.populatorNeedsList) {
    if (now - ctx.populatorListedAt >= ADC_DSW_POPULATOR_LIST_PODS_RETRY) {
      ctx = { ...repopulate(ctx), populatorNeedsList: false, populatorListedAt: now };
      const r = scheduleReconcile(ctx, now);
      ctx = r.ctx;
      out.push(...r.out);
    } else {
      const at = now + ADC_DSW_POPULATOR_LOOP_PERIOD;
      ctx = { ...ctx, populatorAt: at };
      out.push({ type: 'timer.requested', key: POPULATOR_TIMER, at });
    }
  }
  const stale = dsw.podsNotIn(ctx.dsw, liveUids(ctx));
  const logged = new Set<string>();
  for (const s of stale) {
    ctx = { ...ctx, dsw: dsw.deletePod(ctx.dsw, s.pod.uid, s.volumeName, s.nodeName) };
    if (!logged.has(s.pod.uid)) {
      logged.add(s.pod.uid);
      out.push({ type: 'log', msg: 'attachDetachController.removingPodFromDsw', args: { pod: `${s.pod.namespace}/${s.pod.name}`, uid: s.pod.uid } });
    }
  }
  if (stale.length === 0) return { ctx, out };
  const r = scheduleReconcile(ctx, now);
  return { ctx: r.ctx, out: [...out, ...r.out] };
}

/** After an operation step: if one finished, reconcile at the next loop boundary. */
function settle(r: Out, now: number): Out {
  if (!r.finished) return r;
  const s = scheduleReconcile(r.ctx, now);
  return { ctx: s.ctx, out: [...r.out, ...s.out] };
}

function onWatch(ctx0: AdcContext, o: K8sObject, deleted: boolean, now: number): Out {
  let ctx = ctx0;
  // the caches change in place: compare their change counters
  const dswRev = ctx0.dsw.rev;
  const aswRev = ctx0.asw.rev;
  const out: ClusterEmitted[] = [];
  switch (o.kind) {
    case 'Pod': {
      ctx = processPod(ctx, o, deleted);
      // a pod on a node that is not (yet) managed is not added (AddPod fails): the populator's
      // periodic re-list of active pods picks it up later (findAndAddActivePods, every 3m)
      if (!deleted && o.spec?.nodeName && !dsw.nodeExists(ctx.dsw, o.spec.nodeName)) ctx = { ...ctx, populatorNeedsList: true };
      // a deleted pod whose volumes could not be resolved (its PVC is gone) stays in the DSW until the
      // populator's next pass (every ADC_DSW_POPULATOR_LOOP_PERIOD) notices it left the informer
      const stale = deleted && !!o.spec?.nodeName && dsw.nodeHasPod(ctx.dsw, o.spec.nodeName, o.metadata.uid ?? '');
      if ((stale || ctx.populatorNeedsList) && !ctx.populatorAt) {
        const at = ctx.startedAt + (Math.floor((now - ctx.startedAt) / ADC_DSW_POPULATOR_LOOP_PERIOD) + 1) * ADC_DSW_POPULATOR_LOOP_PERIOD;
        ctx = { ...ctx, populatorAt: at };
        out.push({ type: 'timer.requested', key: POPULATOR_TIMER, at });
      }
      break;
    }
    case 'Node': {
      const before = ctx.nodes[o.metadata.name];
      ctx = processNode(ctx, o, deleted);
      // the reconciler reads a node's health and its out-of-service taint when it detaches from it
      // (reconciler.go reconcile: nodeIsHealthy, hasOutOfServiceTaint); upstream's 100ms loop sees a
      // change at its next pass, so a volume whose 6-minute wait already ran out is detached then
      // (only these two of the node's fields decide anything for the volumes attached to it)
      const after = deleted ? undefined : o;
      const onNode = asw.getVolumesAttachedToNode(ctx.asw, o.metadata.name);
      if (onNode.size > 0
        && (isNodeReady(before) !== isNodeReady(after) || taintKeyExists(before, TAINT_NODE_OUT_OF_SERVICE) !== taintKeyExists(after, TAINT_NODE_OUT_OF_SERVICE))) {
        for (const v of onNode) ctx.reconcilerQueue.touched.add(v);
        const r = scheduleReconcile(ctx, now);
        return { ctx: r.ctx, out: [...out, ...r.out] };
      }
      break;
    }
    // only the pods that use the claim, or the claims bound to the PV, can resolve differently
    case 'PersistentVolumeClaim': ctx = processPvc(ctx, o, deleted); break;
    case 'PersistentVolume': ctx = processPv(ctx, o, deleted); break;
    case 'CSIDriver':
    {
      // a deleted CSIDriver leaves its volumes attachable, as no CSIDriver at all does
      const attachRequired = { ...ctx.attachRequired };
      if (deleted) delete attachRequired[o.metadata.name]; else attachRequired[o.metadata.name] = o.spec?.attachRequired !== false;
      ctx = repopulate({ ...ctx, attachRequired });
    }
      break;
    case 'VolumeAttachment': {
      // for scale: the VolumeAttachment cache is updated in place (the actor owns its context)
      if (deleted) delete ctx.vas[o.metadata.name];
      else ctx.vas[o.metadata.name] = o;
      // a VolumeAttachment listed before the first reconciler loop: processVolumeAttachments looks at it there
      if (!ctx.vasProcessed && !deleted && ctx.startedAt !== undefined) {
        const r = scheduleReconcile(ctx, now);
        ctx = r.ctx;
        out.push(...r.out);
      }
      for (const op of operationsForVa(ctx, o.metadata.name)) {
        if (!isWaitingForVolumeAttachment(op)) continue;
        // 1.20 watches the object; 1.30 sees the change at its next lister poll
        const poll = pollOrWatch(ctx, op, now);
        if (poll.length > 0) { out.push(...poll); continue; }
        const r = settle(checkVa(ctx, op, now), now);
        ctx = r.ctx;
        out.push(...r.out);
      }
      return { ctx, out };
    }
    default: return { ctx, out };
  }
  if (ctx.dsw.rev === dswRev && ctx.asw.rev === aswRev) return { ctx, out };
  const s = scheduleReconcile(ctx, now);
  return { ctx: s.ctx, out: [...out, ...s.out] };
}

export const attachDetachControllerMachine = setup({
  types: {
    context: {} as AdcContext,
    events: {} as ClusterEvent,
    emitted: {} as ClusterEmitted,
    input: {} as AttachDetachControllerInput,
  },
  actions: {
    /** the host went down: caches, desired/actual state and running operations are lost (a restart lists everything again) */
    stopController: assign(({ context }) => ({ ...initialContext(context.input), seq: context.seq })),
    /** one informer event, operation step or reconcile pass, through the pure helpers */
    processEvent: reaction<AdcContext, ClusterEvent, ClusterEmitted>((context, event) => handle(context, event)),
  },
}).createMachine({
  id: 'attachDetachController',
  initial: 'NotStarted',
  context: ({ input }) => initialContext(input),
  states: {
    NotStarted: {
      description: 'The kube-controller-manager process has not started the controller yet.',
      on: { 'component.started': { target: 'Running', actions: 'processEvent' } },
    },
    Running: {
      description: 'Informers feed the desired/actual state of world; the reconciler attaches and detaches (reconciler.go).',
      on: {
        'host.shutdown': { target: 'NotStarted', actions: 'stopController' },
        'watch.added': { actions: 'processEvent' },
        'watch.modified': { actions: 'processEvent' },
        'watch.deleted': { actions: 'processEvent' },
        'api.result': { actions: 'processEvent' },
        'clock.ticked': { actions: 'processEvent' },
      },
    },
  },
});
