/**
 * kubelet: the node agent, as far as storage goes. Its volume manager mounts the volumes of the pods
 * bound to this node (VerifyControllerAttachedVolume -> MountVolume: WaitForAttach, MountDevice =
 * NodeStageVolume, SetUp = NodePublishVolume) and unmounts them when the pods go (UnmountVolume =
 * NodeUnpublishVolume, UnmountDevice = NodeUnstageVolume); it reports node.status.volumesInUse, which
 * both gates its own verification and tells the attach/detach controller when detaching is safe; it
 * registers CSI drivers announced by node-driver-registrar; and it runs pods once their volumes are
 * mounted and deletes them for good once their volumes are unmounted.
 * upstream (v1.20.6 and master-era text): pkg/kubelet/volumemanager/**, pkg/kubelet/pluginmanager/**,
 * pkg/volume/util/operationexecutor/operation_generator.go, pkg/volume/csi/*, pkg/kubelet/kubelet.go,
 * kubelet_node_status.go. The volume manager is laid out as upstream's: volumemanager/cache (desired and
 * actual state of world), volumemanager/populator, volumemanager/reconciler, operationexecutor (one state
 * machine per generated operation) and csi (the CSI plugin's attacher and mounter); kubelet.node.ts holds
 * node status, pods and plugin registration.
 * Left out: kubelet-side attach (controller-managed attach/detach is assumed), the reconstruction of
 * raw block volumes after a restart (a rebooted node has no mounts: nothing to reconstruct), container detail.
 */
import { assign, setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import { emittedWithStates } from '../shared/machineParts.ts';
import type { ClusterEmitted, ClusterEvent } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import type { KubeletContext, KubeletInput, TableName, Work } from './kubelet.types.ts';
import { begin, log, own, requestReconcile } from './kubelet.work.ts';
import { handleVolumeGet, podUpdated, populatorLoop as populateDesiredState } from './volumemanager/populator/desiredStateOfWorldPopulator.ts';
import { updatePluginIsAttachable } from './volumemanager/cache/desiredStateOfWorld.ts';
import { attachedInNodeStatus, reconcile } from './volumemanager/reconciler/reconciler.ts';
import { reconstructVolumes, syncStates } from './volumemanager/reconciler/reconstruct.ts';
import { getProfile } from '../profiles/index.ts';
import { OWNERSHIP_TIMER, csiFact, deliver, deliverApiResult, hostFact, ownershipWalkSlow } from './operationexecutor/operationGenerator.ts';
import {
  initializeNode, nodeStatusWritten, podAdded, podRequestResult, podTimer, pluginSocketCreated, pluginSocketRemoved, registrationResult,
  scheduleNodeStatus, syncPods, updateNodeStatus, csiErrText, pluginRetry, csiNodeRead,
} from './kubelet.node.ts';

function initialContext(input: KubeletInput): KubeletContext {
  // (tables whose keys come and go, in dictionary mode from the start: shared/tables.ts)
  const t = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;
  const versions: Record<TableName, number> = {
    pods: 0, vas: 0, csiDrivers: 0, plugins: 0, pluginRequests: 0, registered: 0, podVolumes: 0, processedPods: 0, volumeRequests: 0,
    dsw: 0, asw: 0, inflight: 0, podStates: 0,
  };
  return {
    input, seq: 0, startedAt: 0, versions, pods: t(), vas: t(), csiDrivers: t(),
    plugins: t(), pluginRequests: t(), registered: t(),
    podVolumes: t(), processedPods: t(), volumeRequests: t(), dsw: t(), asw: t(), ops: {}, inflight: t(), volumesInUseWritten: [], podStates: t(),
  };
}

/** What follows every event: DSW populator, pod sync, node status schedule. */
function settle(w: Work): void {
  populateDesiredState(w);
  // syncPods reads only these tables, and running it again on what it left changes nothing (each of
  // its steps moves the pod to a stage that step does not start from): when no table was written since
  // the last settle (own() counts each event's writes to a table in `versions`), skip the scan.
  // Nothing may write these tables after settle() within a reaction.
  const v = w.c.versions;
  const seen = SYNCED.get(v);
  if (!seen || seen.pods !== v.pods || seen.podVolumes !== v.podVolumes || seen.dsw !== v.dsw || seen.asw !== v.asw || seen.podStates !== v.podStates) {
    syncPods(w);
    SYNCED.set(v, { pods: v.pods, podVolumes: v.podVolumes, dsw: v.dsw, asw: v.asw, podStates: v.podStates });
  }
  scheduleNodeStatus(w);
}
/** The table versions syncPods last ran on, by the kubelet process's versions object. */
const SYNCED = new WeakMap<object, { pods: number; podVolumes: number; dsw: number; asw: number; podStates: number }>();

type Handler = (w: Work, e: ClusterEvent) => void;

/** Whether a Node update changed the volumes its status.volumesAttached lists (no Node before: none). */
function attachedChanged(before: K8sObject | undefined, after: K8sObject): boolean {
  const was = before ? attachedInNodeStatus(before) : new Set<string>();
  const now = attachedInNodeStatus(after);
  return was.size !== now.size || [...now].some((name) => !was.has(name));
}

/** The reaction that runs a pure handler on a private copy of the context: the context it leaves and its outputs. */
const runStep = (handler: Handler) => reaction<KubeletContext, ClusterEvent, ClusterEmitted>((context, event) => {
  const w = begin(context, event.now);
  handler(w, event);
  return { ctx: w.c, out: emittedWithStates(w) };
});

function informerUpdate(w: Work, e: ClusterEvent): void {
  if (e.type !== 'watch.added' && e.type !== 'watch.modified' && e.type !== 'watch.deleted') return;
  const o: K8sObject = e.object;
  const gone = e.type === 'watch.deleted';
  const put = (table: 'pods' | 'vas' | 'csiDrivers', k: string): void => {
    if (gone) delete own(w, table)[k]; else own(w, table)[k] = o;
  };
  switch (o.kind) {
    case 'Pod': {
      const uid = o.metadata.uid!;
      put('pods', uid);
      if (gone) delete own(w, 'podStates')[uid];
      else { podUpdated(w, o, e.type === 'watch.modified' ? e.oldObject : undefined); podAdded(w, o); }
      break;
    }
    case 'Node': {
      if (o.metadata.name !== w.c.input.nodeName) break;
      const before = w.c.node;
      w.c.node = gone ? undefined : o;
      // 1.30: a verify that waits for the cached node status may start now (the reconciler loops every 100ms)
      if (getProfile(w.c.input.profile).kubeletVerifyWaitsForNodeStatus && !gone && attachedChanged(before, o)) requestReconcile(w);
      break;
    }
    case 'VolumeAttachment': put('vas', o.metadata.name); break;
    case 'CSIDriver': put('csiDrivers', o.metadata.name); updatePluginIsAttachable(w, o.metadata.name); break;
    default: break;
  }
  settle(w);
}

export const kubeletMachine = setup({
  types: {
    context: {} as KubeletContext,
    events: {} as ClusterEvent,
    emitted: {} as ClusterEmitted,
    input: {} as KubeletInput,
  },
  actions: {
    /** kubelet start: initialNode + CSINode, the volume manager's loops */
    initializeNode: runStep((w, e) => {
      w.c = { ...initialContext(w.c.input), seq: w.c.seq, startedAt: w.now };
      initializeNode(w);
      // the volume manager starts: 1.30 reconstructs what is mounted on disk before its reconciler loops
      if (getProfile(w.c.input.profile).kubeletReconstructsUncertain) {
        if (e.type === 'component.started') reconstructVolumes(w, e.podVolumes ?? []);
      } else {
        // 1.20's reconciler loop runs from the start (every 100ms); its first pass once the populator has
        // added the pods logs "Reconciler: start to sync state" and syncs with the disk (v1.20.5
        // reconciler.go:155-158, syncStates)
        if (e.type === 'component.started' && e.podVolumes?.length) w.c.volumesOnDisk = e.podVolumes;
        requestReconcile(w);
      }
    }),
    /** informer event handlers (pod config, node/VA/CSIDriver listers; PVs and PVCs are read with GETs) */
    updateInformerCache: runStep(informerUpdate),
    /** api.result: the populator's GET PVC/PV, GET Node of VerifyControllerAttachedVolume, node status, registration writes, final pod delete */
    handleApiResult: runStep((w, e) => {
      if (e.type !== 'api.result') return;
      if (e.requestId === w.c.nodeStatusRequest) nodeStatusWritten(w, e.ok);
      else if (e.requestId === w.c.csiNodeRequest) csiNodeRead(w, e.ok, e.code);
      else if (podRequestResult(w, e.requestId, e.ok, e.code)) { /* pod status manager */ }
      else if (handleVolumeGet(w, e.requestId, e.ok, e.object)) { /* populator lookup */ }
      else if (!deliverApiResult(w, e.requestId, e.ok, e.object, e.message)) registrationResult(w, e.requestId, e.ok, e.object as Record<string, unknown> | undefined, e.message ?? '', e.code);
      settle(w);
    }),
    /** csi.result: a step of a volume operation or of a plugin registration */
    handleCsiResult: runStep((w, e) => {
      if (e.type !== 'csi.result') return;
      if (!deliver(w, e.requestId, csiFact(e))) registrationResult(w, e.requestId, e.code === 'OK', e.response, csiErrText(e.code, e.message));
      settle(w);
    }),
    /** host.result: SetVolumeOwnership's walk over a volume's files ended (its warning timer is stopped) */
    handleHostResult: runStep((w, e) => {
      if (e.type !== 'host.result') return;
      w.out.push({ type: 'timer.cancelled', key: `${OWNERSHIP_TIMER}${e.requestId}` });
      deliver(w, e.requestId, hostFact(e));
      settle(w);
    }),
    /** timers: reconciler loop, DSW populator loop (only while a claim is unresolved), node status loop, pod wait/start/kill */
    handleTick: runStep((w, e) => {
      if (e.type !== 'clock.ticked') return;
      if (e.key === 'reconcile') {
        w.c.reconcileAt = undefined; populateDesiredState(w); reconcile(w);
        // 1.20: the sync with the disk after all pods were added (rc.sync(): syncStates)
        if (!w.c.statesSynced && !getProfile(w.c.input.profile).kubeletReconstructsUncertain) { w.c.statesSynced = true; log(w, 'kubelet.reconcilerStarted', {}); syncStates(w); }
      }
      else if (e.key === 'populator') { w.c.populatorAt = undefined; populateDesiredState(w, true); }
      else if (e.key === 'nodeStatus') updateNodeStatus(w);
      else if (e.key.startsWith('pluginRetry:')) pluginRetry(w, e.key.slice('pluginRetry:'.length));
      else if (e.key.startsWith(OWNERSHIP_TIMER)) ownershipWalkSlow(w, e.key.slice(OWNERSHIP_TIMER.length));
      else podTimer(w, e.key);
      settle(w);
    }),
    /** pluginwatcher: a registration socket appeared / went */
    registerPlugin: runStep((w, e) => { if (e.type === 'plugin.socketCreated') pluginSocketCreated(w, e.path); }),
    unregisterPlugin: runStep((w, e) => { if (e.type === 'plugin.socketRemoved') { pluginSocketRemoved(w, e.path); settle(w); } }),
    /** the host went down: mounts, pending operations and registrations are lost */
    stopKubelet: assign(({ context }) => ({ ...initialContext(context.input), seq: context.seq })),
  },
}).createMachine({
  id: 'kubelet',
  initial: 'stopped',
  context: ({ input }) => initialContext(input),
  states: {
    stopped: {
      description: 'The kubelet process is not running.',
      on: { 'component.started': { target: 'running', actions: 'initializeNode' } },
    },
    running: {
      description: 'The kubelet syncs pods, runs the volume manager and the plugin manager (pkg/kubelet/kubelet.go Run).',
      on: {
        'watch.added': { actions: 'updateInformerCache' },
        'watch.modified': { actions: 'updateInformerCache' },
        'watch.deleted': { actions: 'updateInformerCache' },
        'api.result': { actions: 'handleApiResult' },
        'csi.result': { actions: 'handleCsiResult' },
        'host.result': { actions: 'handleHostResult' },
        'clock.ticked': { actions: 'handleTick' },
        'plugin.socketCreated': { actions: 'registerPlugin' },
        'plugin.socketRemoved': { actions: 'unregisterPlugin' },
        'host.shutdown': { target: 'stopped', actions: 'stopKubelet' },
      },
    },
  },
});
