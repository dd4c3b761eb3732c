/**
 * The kubelet's node status updates, pod lifecycle and plugin registration, as pure functions on a
 * Work copy.
 * upstream: pkg/kubelet/kubelet_node_status.go (initialNode annotation
 * volumes.kubernetes.io/controller-managed-attach-detach, updateNodeStatus every
 * nodeStatusUpdateFrequency, volumesInUse from the volume manager, then MarkVolumesAsReportedInUse),
 * pkg/kubelet/kubelet.go syncPod (WaitForAttachAndMount, 2m3s), pkg/kubelet/volumemanager/volume_manager.go,
 * pkg/kubelet/pluginmanager (operation_generator.go GenerateRegisterPluginFunc: GetInfo, validate,
 * register, NotifyRegistrationStatus), pkg/volume/csi/csi_plugin.go RegisterPlugin and
 * nodeinfomanager (Node annotation csi.volume.kubernetes.io/nodeid, CSINode spec.drivers).
 * Left out: container runtime detail, probes, node conditions other than Ready, lease renewal.
 */
import { isFinalError, rpcErrorText } from '../shared/csi.ts';
import { goDuration, goTimeJSON, rfc3339, sortedJson, UTC_ZONE } from '../shared/goFormat.ts';
import { extraNanos, processTimeText } from '../shared/nestedPendingOperations.ts';
import { getNodeHostIPs, KUBELET_NODE_CONDITIONS, kobj, type K8sObject } from '../shared/k8s.ts';
import { summarize } from '../shared/messages.ts';
import { ANN_CONTROLLER_MANAGED_ATTACH, ANN_NODE_ID } from '../shared/names.ts';
import { CSI_TIMEOUT, KUBELET_RESYNC_JITTER_FACTOR, KUBELET_SYNC_FREQUENCY, NODE_STATUS_REPORT_FREQUENCY, NODE_STATUS_UPDATE_FREQUENCY, POD_ATTACH_AND_MOUNT_TIMEOUT, REGISTRAR_TIMEOUT, SECOND, STATUS_SYNC_PERIOD, nextDurationBeforeRetry } from '../shared/timing.ts';
import { getProfile } from '../profiles/index.ts';
import { kubeletSummaries as summaries } from './kubelet.messages.ts';
import type { AswVolume, DswVolume, PluginRegistration, PodState, Work } from './kubelet.types.ts';
import { getVolumesInUse, markVolumesAsReportedInUse } from './volumemanager/volumeManager.ts';
import { reprocessPod } from './volumemanager/populator/desiredStateOfWorldPopulator.ts';
import { api, csi, log, own, recordPodEvent, requestReconcile, timer } from './kubelet.work.ts';

/** Simulation choices (no upstream constant): time to start the pod's containers once its volumes are mounted, and to kill them. */
export const CONTAINER_START_DELAY = 1 * SECOND;
export const CONTAINER_KILL_DELAY = 1 * SECOND;

const wall = (w: Work, at = w.now): string => rfc3339((w.c.input.epochUs ?? 0) + at);

// ------------------------------------------------------------------ node status

const sameList = (a: readonly string[], b: readonly string[]): boolean => a === b || (a.length === b.length && a.every((x, i) => x === b[i]));

/** initialNode / setNodeStatus at start: the ADC annotation and the Ready condition. */
export function initializeNode(w: Work): void {
  const n = w.c.input.nodeName;
  api(w, { verb: 'patch', kind: 'Node', name: n, patch: { metadata: { annotations: { [ANN_CONTROLLER_MANAGED_ATTACH]: 'true' } } },
    summary: summarize(summaries, 'kubelet.controllerManagedAttach', { node: n, annotation: ANN_CONTROLLER_MANAGED_ATTACH }) });
  api(w, { verb: 'patchStatus', kind: 'Node', name: n, patch: { status: { conditions: nodeConditions(w) } },
    summary: summarize(summaries, 'kubelet.nodeReady', { node: n }) });
  // nodeinfomanager.InitializeCSINodeWithAnnotation: the CSINode object exists before any driver
  // registers. It is read first and created only when missing, so a restarted kubelet keeps the one it
  // made before (v1.30.1 nodeinfomanager.go:413-431)
  w.c.csiNodeRequest = api(w, { verb: 'get', kind: 'CSINode', name: n });
  if (w.c.input.heartbeat) scheduleNodeStatus(w);
}

/**
 * The CSINode GET of the start came back: create it when it is not there (a registration that came
 * first has created it already: then AlreadyExists, as upstream's two goroutines can meet). Left out:
 * the storage.alpha.kubernetes.io/migrated-plugins annotation it keeps, and the retry of a GET that
 * fails otherwise.
 */
export function csiNodeRead(w: Work, ok: boolean, code: number | undefined): void {
  w.c.csiNodeRequest = undefined;
  if (ok || code !== 404) return;
  const n = w.c.input.nodeName;
  api(w, { verb: 'create', kind: 'CSINode', name: n, object: newCSINode(w, []) });
}

/**
 * The node's conditions as the kubelet posts them (KUBELET_NODE_CONDITIONS): each one's lastTransitionTime moves only when
 * its status changes; each heartbeat renews lastHeartbeatTime (without heartbeats the node lifecycle controller has
 * nothing to time out: no heartbeat time at all).
 */
const nodeConditions = (w: Work) => {
  const before = (w.c.node?.status?.conditions ?? []) as Array<{ type: string; status?: string; lastTransitionTime?: string }>;
  return KUBELET_NODE_CONDITIONS.map((c) => {
    const prev = before.find((x) => x.type === c.type);
    return {
      ...c,
      ...(w.c.input.heartbeat ? { lastHeartbeatTime: wall(w) } : {}),
      lastTransitionTime: prev?.status === c.status && prev.lastTransitionTime ? prev.lastTransitionTime : wall(w),
    };
  });
};

/** The next tick of the 10s node status loop, when something has to be written (event-driven for scale). */
export function scheduleNodeStatus(w: Work): void {
  if (w.c.nodeStatusRequest) return;
  const changed = !sameList(getVolumesInUse(w), w.c.volumesInUseWritten);
  const phase = (w.c.input.statusUpdateOffset ?? 0) % NODE_STATUS_UPDATE_FREQUENCY;
  const k = Math.floor((w.now - phase) / NODE_STATUS_UPDATE_FREQUENCY) + 1;
  let at = phase + k * NODE_STATUS_UPDATE_FREQUENCY;
  if (!w.c.input.heartbeat && !changed) {
    // without heartbeats an unchanged status is still reported every nodeStatusReportFrequency (5m)
    at = Math.max(at, (w.c.statusWrittenAt ?? w.c.startedAt) + NODE_STATUS_REPORT_FREQUENCY);
  }
  // a tick already due no later than that one stands
  if (w.c.nodeStatusAt !== undefined && w.c.nodeStatusAt > w.now && w.c.nodeStatusAt <= at) return;
  w.c.nodeStatusAt = at;
  timer(w, 'nodeStatus', w.c.nodeStatusAt);
}

/** tryUpdateNodeStatus: patch status.volumesInUse (and the heartbeat). */
export function updateNodeStatus(w: Work): void {
  w.c.nodeStatusAt = undefined;
  const want = getVolumesInUse(w);
  const changed = !sameList(want, w.c.volumesInUseWritten);
  if (!changed && !w.c.input.heartbeat && w.now < (w.c.statusWrittenAt ?? w.c.startedAt) + NODE_STATUS_REPORT_FREQUENCY) return;
  w.c.statusWrittenAt = w.now;
  const status: Record<string, unknown> = { volumesInUse: want.length ? want : null };
  if (w.c.input.heartbeat) status.conditions = nodeConditions(w);
  w.c.nodeStatusInFlight = want;
  w.c.nodeStatusRequest = api(w, { verb: 'patchStatus', kind: 'Node', name: w.c.input.nodeName, patch: { status }, ...(changed ? {} : { quiet: true }),
    summary: changed ? summarize(summaries, 'kubelet.volumesInUse', { node: w.c.input.nodeName, volumes: want.join(' ') }) : summarize(summaries, 'kubelet.nodeStatusHeartbeat', { node: w.c.input.nodeName }) });
}

export function nodeStatusWritten(w: Work, ok: boolean): void {
  w.c.nodeStatusRequest = undefined;
  if (ok && w.c.nodeStatusInFlight) {
    w.c.volumesInUseWritten = w.c.nodeStatusInFlight;
    markVolumesAsReportedInUse(w, w.c.nodeStatusInFlight);
  }
  w.c.nodeStatusInFlight = undefined;
  scheduleNodeStatus(w);
}

// ------------------------------------------------------------------ pods

export function podAdded(w: Work, pod: K8sObject): void {
  const uid = pod.metadata.uid!;
  if (w.c.podStates[uid]) return;
  if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return;
  // a pod being deleted whose status says none of its containers runs (a kubelet that restarted after killing it) is
  // terminated already: the populator adds none of its volumes (IsPodTerminated, desired_state_of_world_populator.go), and
  // the status manager's first sync of it can delete it
  if (pod.metadata.deletionTimestamp && containersNotRunning(pod)) {
    own(w, 'podStates')[uid] = { stage: 'terminated', waitStartedAt: w.now, statusSyncedAt: w.now };
    return;
  }
  own(w, 'podStates')[uid] = { stage: 'waitingForVolumes', waitStartedAt: w.now };
  timer(w, `podWait:${uid}`, w.now + POD_ATTACH_AND_MOUNT_TIMEOUT);
  // a pod no kubelet has synced yet: its first status goes out before the wait for its volumes
  if (!pod.metadata.deletionTimestamp && !pod.status?.containerStatuses) writePendingStatus(w, uid, pod);
}

/**
 * SyncPod's first status (kubelet.go v1.20.5 :1529-1569, v1.30.1 :1773-1825, before WaitForAttachAndMount at
 * :1682 / :1956): generateAPIPodStatus of a pod with no sandbox and no container yet says Pending, each container
 * waiting as ContainerCreating (convertToAPIContainerStatuses' defaultWaitingState, kubelet_pods.go v1.30.1 :2124),
 * Ready and ContainersReady False with "containers with unready status: [...]" (status/generate.go :99), and on
 * 1.29+ PodReadyToStartContainers False. The status manager writes it from its own goroutine at once (1.20:
 * podStatusChannel -> syncPod, status_manager.go :442, :165-168; 1.30: a signal -> syncBatch(false) -> syncPod, :717,
 * :226-228), each time after a GET of the pod (not modelled): the request goes out on the kubelet's own stream
 * (ApiRequestEmitted.ownStream). A failed write is tried again at the next 10 s syncBatch (1.30 may retry sooner, with
 * any other pod's status change, :815-817). Upstream decides from what the container runtime reports (a restarted
 * kubelet's first sync waits for the PLEG's relist); here a pod that a kubelet already gave containerStatuses is one
 * whose containers run.
 */
function writePendingStatus(w: Work, uid: string, pod: K8sObject): void {
  const t = wall(w, w.now);
  const unready = unreadyCondition(pod);
  const wanted: Record<string, WantedCondition> = {
    PodReadyToStartContainers: { status: 'False' }, Initialized: { status: 'True' }, Ready: unready, ContainersReady: unready, PodScheduled: { status: 'True' },
  };
  writePodStatus(w, uid, pod, { phase: 'Pending', conditions: kubeletConditions(w, pod, (type) => withTransition(pod, type, wanted[type]!, t)), ...hostIPs(w), startTime: t,
    containerStatuses: containerStatuses(pod, { waiting: { reason: 'ContainerCreating' } }, false) }, summarize(summaries, 'kubelet.podPending', { node: w.c.input.nodeName, pod: kobj(pod) }), true);
}

/**
 * The status manager's write of the pod's status (a patch of pods/<name>/status, the whole condition list: the patch
 * replaces it); its answer comes back to podRequestResult. `ownStream`: sent from the status manager's goroutine.
 */
function writePodStatus(w: Work, uid: string, pod: K8sObject, status: Record<string, unknown>, summary: string, ownStream = false): void {
  const id = api(w, { verb: 'patchStatus', kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, ...(ownStream ? { ownStream: true as const } : {}),
    patch: { status }, summary });
  w.c.podRequests = { ...w.c.podRequests, [id]: { uid, what: 'status' } };
}

type WantedCondition = { status: string; reason?: string; message?: string };

/** Ready's and ContainersReady's while a container is not ready (GenerateContainersReadyCondition, status/generate.go :99) */
const unreadyCondition = (pod: K8sObject): WantedCondition => ({
  status: 'False', reason: 'ContainersNotReady',
  message: `containers with unready status: [${((pod.spec?.containers ?? []) as Array<{ name: string }>).map((c) => c.name).join(' ')}]`,
});

/**
 * A condition as the status manager writes it: its lastTransitionTime moves only when its status changes
 * (updateLastTransitionTime, status_manager.go), so PodScheduled keeps the binding's and Initialized its first.
 */
function withTransition(pod: K8sObject, type: string, want: WantedCondition, t: string): PodCondition {
  const old = ((pod.status?.conditions ?? []) as PodCondition[]).find((c) => c.type === type);
  return { type, status: want.status, lastProbeTime: null, lastTransitionTime: old && old.status === want.status ? old.lastTransitionTime : t,
    ...(want.reason ? { reason: want.reason } : {}), ...(want.message ? { message: want.message } : {}) };
}

/** notRunning (pkg/volume/util/util.go): every container of the pod's status is terminated or waiting, or it lists none. */
function containersNotRunning(pod: K8sObject): boolean {
  const statuses = (pod.status?.containerStatuses ?? []) as Array<{ state?: Record<string, unknown> }>;
  return statuses.every((c) => !!c.state?.terminated || !!c.state?.waiting);
}

/**
 * The desired and actual state of world entries of one of the pod's volumes: the populator's lookup
 * names the DSW entry the pod's volume went into (no scan of the DSW).
 */
function podVolumeEntries(w: Work, uid: string, name: string): { d: DswVolume | undefined; a: AswVolume | undefined } {
  const u = w.c.podVolumes[uid]?.[name]?.spec?.uniqueName;
  const d = u !== undefined && w.c.dsw[u]?.pods[uid]?.outerName === name ? w.c.dsw[u] : undefined;
  return { d, a: d ? w.c.asw[d.uniqueName] : undefined };
}

type PodVolumeSource = { name: string; persistentVolumeClaim?: unknown };

/** Volume names of the pod: [mounted?, attached?] per pod.spec.volumes entry (non-PVC volumes count as ready). */
function podVolumeReadiness(w: Work, uid: string, pod: K8sObject): { unmounted: string[]; unattached: string[] } {
  const unmounted: string[] = [];
  const unattached: string[] = [];
  const everyVolume = getProfile(w.c.input.profile).kubeletUnattachedListsEveryVolume;
  for (const v of (pod.spec?.volumes ?? []) as PodVolumeSource[]) {
    // (before 1.26 every volume of the pod reads as unattached: a name is never a unique volume name)
    if (everyVolume) unattached.push(v.name);
    if (!v.persistentVolumeClaim) continue;
    const { d, a } = podVolumeEntries(w, uid, v.name);
    if (a?.pods[uid]?.state !== 'VolumeMounted') unmounted.push(v.name);
    if (d && !a && !everyVolume) unattached.push(v.name);
  }
  return { unmounted: unmounted.sort(), unattached: unattached.sort() };
}

/** Whether every PVC volume of the pod is mounted (podVolumeReadiness's `unmounted` is empty), without building its lists. */
function allVolumesMounted(w: Work, uid: string, pod: K8sObject): boolean {
  const volumes = (pod.spec?.volumes ?? []) as PodVolumeSource[];
  for (let i = 0; i < volumes.length; i++) {
    const v = volumes[i]!;
    if (v.persistentVolumeClaim && podVolumeEntries(w, uid, v.name).a?.pods[uid]?.state !== 'VolumeMounted') return false;
  }
  return true;
}

/** PodResourcesAreReclaimed's volume part: no volume of the pod is in the actual state of world any more. */
function podVolumesGone(w: Work, uid: string): boolean {
  for (const k in w.c.asw) if (w.c.asw[k]!.pods[uid]) return false;
  return true;
}

/** After any change: pods whose volumes are all mounted start their containers; terminated pods are deleted for good. */
export function syncPods(w: Work): void {
  // the pods' stages as they stood when the pass began (own() below copies the table; the loop reads the original)
  const states = w.c.podStates;
  for (const uid in states) {
    const st = states[uid]!;
    const pod = w.c.pods[uid];
    if (!pod) continue;
    if (pod.metadata.deletionTimestamp && (st.stage === 'waitingForVolumes' || st.stage === 'containersStarting' || st.stage === 'Running')) {
      own(w, 'podStates')[uid] = { ...st, stage: 'killing' };
      w.out.push({ type: 'timer.cancelled', key: `podWait:${uid}` });
      timer(w, `podKill:${uid}`, w.now + CONTAINER_KILL_DELAY);
      continue;
    }
    if (st.stage === 'waitingForVolumes' && allVolumesMounted(w, uid, pod)) {
      own(w, 'podStates')[uid] = { ...st, stage: 'containersStarting' };
      w.out.push({ type: 'timer.cancelled', key: `podWait:${uid}` });
      timer(w, `podStart:${uid}`, w.now + CONTAINER_START_DELAY);
    }
    if (st.stage === 'terminated' && podVolumesGone(w, uid)) {
      // PodResourcesAreReclaimed: no volume of the pod is mounted any more -> the final delete (1.20: when the
      // status manager's next syncBatch finds it deletable, Profile.kubeletDeletesPodAtStatusSync)
      // (unless the status manager synced the pod itself in this very reaction, its resources already reclaimed: its
      // syncPod deletes it, status_manager.go canBeDeleted)
      if (getProfile(w.c.input.profile).kubeletDeletesPodAtStatusSync && st.statusSyncedAt !== w.now) {
        own(w, 'podStates')[uid] = { ...st, stage: 'awaitingStatusSync' };
        timer(w, `podStatus:${uid}`, nextStatusSync(w));
      } else deletePod(w, uid, st, pod);
    }
  }
}

/**
 * The status manager's next syncBatch: a time.Tick of syncPeriod from its Start, when the kubelet process started
 * (its uptime before the run, the monotonic clock's; or the restart the run shows).
 */
function nextStatusSync(w: Work): number {
  const m = w.c.input.monotonic;
  const base = m && w.c.startedAt <= m.processStartUs ? m.processStartUs - m.uptimeAtStartUs : w.c.startedAt;
  return base + (Math.floor((w.now - base) / STATUS_SYNC_PERIOD) + 1) * STATUS_SYNC_PERIOD;
}

/** canBeDeleted: the final delete of the pod object (grace period 0). */
function deletePod(w: Work, uid: string, st: PodState, pod: K8sObject): void {
  own(w, 'podStates')[uid] = { ...st, stage: 'deleting' };
  const id = api(w, { verb: 'delete', kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, gracePeriodSeconds: 0,
    summary: summarize(summaries, 'kubelet.podDeleted', { node: w.c.input.nodeName, pod: kobj(pod) }) });
  w.c.podRequests = { ...w.c.podRequests, [id]: { uid, what: 'delete' } };
}

export function podTimer(w: Work, key: string): void {
  const [what, uid] = key.split(':') as [string, string];
  const st = w.c.podStates[uid];
  const pod = w.c.pods[uid];
  if (!st || !pod) return;
  if (what === 'podWait' && st.stage === 'waitingForVolumes') {
    const r = podVolumeReadiness(w, uid, pod);
    const podDesc = `${pod.metadata.name}_${pod.metadata.namespace}(${uid})`;
    const lists = `unmounted volumes=[${r.unmounted.join(' ')}], unattached volumes=[${r.unattached.join(' ')}]`;
    // WaitForAttachAndMount's error: 1.28+ also lists the volumes it could not process, and its poll ends on the
    // context's deadline (volume_manager.go); before, on wait's "timed out waiting for the condition"
    const failedMount = getProfile(w.c.input.profile).kubeletFailedMountOnTimeout;
    const err = failedMount ? `${lists}: timed out waiting for the condition` : `${lists}, failed to process volumes=[]: context deadline exceeded`;
    if (failedMount) {
      // (1.28+: the interrupted wait records no event and no line of its own in kubelet.go)
      recordPodEvent(w, pod, 'Warning', 'FailedMount', `Unable to attach or mount volumes: ${err}`);
      log(w, 'kubelet.unableToAttachOrMount', { podDesc, kpod: kobj(pod), err });
    }
    // the sync returns the error and the pod worker logs it (pod_workers.go managePodLoop, podWorkerLoop)
    log(w, 'kubelet.podWorkerSyncError', { podUid: uid, podDesc, kpod: kobj(pod), err });
    // the pod worker syncs the pod again and waits another 2m3s
    own(w, 'podStates')[uid] = { ...st, waitStartedAt: w.now };
    timer(w, `podWait:${uid}`, w.now + POD_ATTACH_AND_MOUNT_TIMEOUT);
  } else if (what === 'podStart' && st.stage === 'containersStarting') {
    own(w, 'podStates')[uid] = { ...st, stage: 'Running', runningAt: w.now, syncs: 0 };
    writeRunningStatus(w, uid, pod, st.waitStartedAt, w.now);
    scheduleResync(w, uid, 0);
  } else if (what === 'podSync' && st.stage === 'Running') {
    // the pod worker's periodic sync: WaitForAttachAndMount -> ReprocessPod
    reprocessPod(w, uid);
    const syncs = (st.syncs ?? 0) + 1;
    own(w, 'podStates')[uid] = { ...st, syncs };
    scheduleResync(w, uid, syncs);
  } else if (what === 'podStatus' && st.stage === 'Running') {
    // the status manager's periodic sync writes a status the API server does not have yet
    writeRunningStatus(w, uid, pod, st.waitStartedAt, st.runningAt ?? w.now);
  } else if (what === 'podStatus' && st.stage === 'waitingForVolumes') {
    // the first status write failed: the status manager's next sync writes it again
    if (!pod.status?.containerStatuses) writePendingStatus(w, uid, pod);
  } else if (what === 'podStatus' && st.stage === 'awaitingStatusSync') {
    deletePod(w, uid, st, pod);
  } else if (what === 'podStatus' && st.stage === 'terminated') {
    syncPods(w);
  } else if (what === 'podKill' && st.stage === 'killing') {
    // containers are gone: the DSW populator drops the pod's volumes, and the pod worker's next sync gives the status
    // manager the containers' terminated state, which it writes at once (syncPod): with deletionTimestamp set and no
    // container running, the attach/detach controller's IsPodTerminated is true from then on, long before the delete
    own(w, 'podStates')[uid] = { ...st, stage: 'terminated', statusSyncedAt: w.now };
    writeTerminatedStatus(w, uid, pod, st.runningAt);
  }
}

/**
 * The next periodic sync of a running pod: wait.Jitter(SyncFrequency, 0.5). The jitter comes from the
 * pod's uid and how often it was synced, so that a run is the same every time (Go draws it from math/rand).
 */
function scheduleResync(w: Work, uid: string, syncs: number): void {
  const jitter = fnv1a(`${uid}/${syncs}`) / 0x1_0000_0000;
  timer(w, `podSync:${uid}`, w.now + Math.round(KUBELET_SYNC_FREQUENCY * (1 + KUBELET_RESYNC_JITTER_FACTOR * jitter)));
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h;
}

/**
 * The pod's containers as the status reports them (containerStatuses), each in `state`; `lastState` is a struct, not a
 * pointer, so it is always there (empty). A container the runtime has not created yet has imageID "" (its default
 * status, kubelet_pods.go v1.30.1 :2124-2136); a running one's image ID is the runtime's, which is not modelled.
 */
const containerStatuses = (pod: K8sObject, state: Record<string, unknown>, ready: boolean) =>
  ((pod.spec?.containers ?? []) as Array<{ name: string; image?: string }>).map((c) => ({
    name: c.name, state, lastState: {}, ready, restartCount: 0, ...(c.image ? { image: c.image } : {}), ...(state.waiting ? { imageID: '' } : {}), started: ready,
  }));

/**
 * status.hostIP, and on 1.28+ hostIPs: getHostIPsAnyWay, the IPs of the node object the kubelet's lister holds
 * (GetNodeHostIPs: its InternalIP first), or of its initialNode (the node IP it was given or detected) before the
 * lister has it. Left out when neither has an IP (upstream logs the failed lookup; not modelled).
 * upstream: kubelet_pods.go generateAPIPodStatus (v1.30.1), kubelet_getters.go :321 getHostIPsAnyWay.
 */
function hostIPs(w: Work): { hostIP?: string; hostIPs?: Array<{ ip: string }> } {
  const listed = getNodeHostIPs(w.c.node);
  const ips = listed.length > 0 ? listed : w.c.input.nodeIP ? [w.c.input.nodeIP] : [];
  if (ips.length === 0) return {};
  return { hostIP: ips[0]!, ...(getProfile(w.c.input.profile).kubeletWritesHostIPs ? { hostIPs: ips.map((ip) => ({ ip })) } : {}) };
}

function writeRunningStatus(w: Work, uid: string, pod: K8sObject, waitStartedAt: number, runningAt: number): void {
  const t = wall(w, runningAt);
  writePodStatus(w, uid, pod, { phase: 'Running', conditions: kubeletConditions(w, pod, (type) => withTransition(pod, type, { status: 'True' }, t)), ...hostIPs(w), startTime: wall(w, waitStartedAt),
    containerStatuses: containerStatuses(pod, { running: { startedAt: t } }, true) }, summarize(summaries, 'kubelet.podRunning', { node: w.c.input.nodeName, pod: kobj(pod) }));
}

type PodCondition = { type: string; status: string; lastProbeTime: null; lastTransitionTime: string; reason?: string; message?: string };

/**
 * The pod's conditions as the status manager writes them: those it does not own (DisruptionTarget, a readiness
 * gate's) as the stored status has them, then its own in generateAPIPodStatus's order: (1.29+:
 * PodReadyToStartContainers, the sandbox's, a beta feature gate on by default) Initialized, Ready, ContainersReady,
 * PodScheduled (mergePodStatus, status_manager.go v1.20.5 :714-729, v1.30.1 :1049-1083; kubelet_pods.go v1.20.5
 * :1510-1517, v1.30.1 :1839-1846). The status patch keeps that order ($setElementOrder).
 */
function kubeletConditions(w: Work, pod: K8sObject, make: (type: string) => PodCondition): PodCondition[] {
  const types = ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];
  if (getProfile(w.c.input.profile).kubeletPodReadyToStartContainersCondition) types.unshift('PodReadyToStartContainers');
  const others = ((pod.status?.conditions ?? []) as PodCondition[]).filter((c) => !types.includes(c.type));
  return [...others, ...types.map(make)];
}

/**
 * The status once every container has stopped (exit 0 after SIGTERM). 1.20's getPhase keeps a restartPolicy Always pod
 * Running, and Ready and ContainersReady turn False with "containers with unready status". 1.30's SyncTerminatingPod
 * writes the terminal phase at once (generateAPIPodStatus(pod, podStatus, true) after killPod, kubelet.go:2113 at
 * v1.30.1): every container succeeded, so Succeeded (getPhase, kubelet_pods.go:1656-1666), and the conditions say
 * PodCompleted (status/generate.go: Initialized stays True, Ready and ContainersReady turn False) while the stopped
 * sandbox turns PodReadyToStartContainers False. A condition whose status did not change keeps its
 * lastTransitionTime (the status manager's updateLastTransitionTime).
 */
function writeTerminatedStatus(w: Work, uid: string, pod: K8sObject, runningAt: number | undefined): void {
  const t = wall(w, w.now);
  const terminal = getProfile(w.c.input.profile).kubeletTerminalPhaseOnTermination;
  const unready = unreadyCondition(pod);
  const wanted: Record<string, WantedCondition> = terminal
    ? { PodReadyToStartContainers: { status: 'False' }, Initialized: { status: 'True', reason: 'PodCompleted' }, Ready: { status: 'False', reason: 'PodCompleted' },
      ContainersReady: { status: 'False', reason: 'PodCompleted' }, PodScheduled: { status: 'True' } }
    : { Initialized: { status: 'True' }, Ready: unready, ContainersReady: unready, PodScheduled: { status: 'True' } };
  const conditions = kubeletConditions(w, pod, (type) => withTransition(pod, type, wanted[type]!, t));
  writePodStatus(w, uid, pod, { ...(terminal ? { phase: 'Succeeded' } : {}), conditions,
    containerStatuses: containerStatuses(pod, { terminated: { exitCode: 0, reason: 'Completed', ...(runningAt !== undefined ? { startedAt: wall(w, runningAt) } : {}), finishedAt: t } }, false) },
    summarize(summaries, 'kubelet.podContainersTerminated', { node: w.c.input.nodeName, pod: kobj(pod) }));
}

/**
 * The answer to a pod status write or final delete. A failed one is tried again at the status
 * manager's next sync (syncPeriod 10s, pkg/kubelet/status/status_manager.go). Returns false when the
 * request is not one of these.
 */
export function podRequestResult(w: Work, requestId: string, ok: boolean, code: number): boolean {
  const r = w.c.podRequests?.[requestId];
  if (!r) return false;
  const rest = { ...w.c.podRequests };
  delete rest[requestId];
  w.c.podRequests = rest;
  if (ok || code === 404) return true;
  const st = w.c.podStates[r.uid];
  if (r.what === 'delete' && st?.stage === 'deleting') own(w, 'podStates')[r.uid] = { ...st, stage: 'terminated' };
  timer(w, `podStatus:${r.uid}`, w.now + STATUS_SYNC_PERIOD);
  return true;
}

// ------------------------------------------------------------------ plugin registration

export function pluginSocketCreated(w: Work, path: string): void {
  // a socket created again (a restarted registrar) is a new registration; the goroutinemap keeps the
  // operation's backoff until one succeeds, so a failure after it waits twice as long. (The backoff
  // never holds back such a registration: the container's restart waits longer, 10s doubling.)
  const before = w.c.plugins[path]?.durationBeforeRetry;
  own(w, 'plugins')[path] = { path, step: 'getInfo', seenAt: w.now, ...(before !== undefined ? { durationBeforeRetry: before } : {}) };
  getPluginInfo(w, path);
}

/**
 * The plugin manager's reconciler starts RegisterPlugin for the socket (v1.30.1 reconciler.go:161
 * klog.V(1).InfoS with the desired state's PluginInfo, which klog prints as JSON; v1.20.5 :156 with
 * GenerateMsgDetailed's "%v" of the *PluginInfo), whose first call is GetInfo on the registration
 * socket (dialled with a 1s timeout).
 */
function getPluginInfo(w: Work, path: string, again = false): void {
  const i = w.c.input;
  const seenAt = w.c.plugins[path]?.seenAt ?? w.now;
  const tz = i.tz ?? UTC_ZONE;
  const timestamp = processTimeText(i.epochUs ?? 0, seenAt, tz, i.monotonic);
  const plugin = `{"SocketPath":${JSON.stringify(path)},"Timestamp":"${goTimeJSON((i.epochUs ?? 0) + seenAt, tz.offsetMin, extraNanos(seenAt))}","Handler":null,"Name":""}`;
  log(w, 'kubelet.registerPluginStarted', { path, timestamp, plugin });
  const summary = again ? summarize(summaries, 'kubelet.pluginGetInfoAgain', { path }) : summarize(summaries, 'kubelet.pluginGetInfo', { path });
  own(w, 'pluginRequests')[csi(w, 'GetInfo', {}, 'registrar', REGISTRAR_TIMEOUT, summary)] = path;
}

/**
 * How a registration ends when it fails, as the plugin manager's operation generator has it (v1.30.1
 * and v1.20.5 pluginmanager/operationexecutor/operation_generator.go GenerateRegisterPluginFunc and
 * notifyPlugin):
 * - GetInfo itself failed (:91-93): nothing is sent to the plugin; the operation returns its error.
 * - Validation failed (:105-110) or the CSI handler's RegisterPlugin failed (NodeGetInfo, the Node and
 *   CSINode writes; :123-125): the kubelet sends NotifyRegistrationStatus(false, text) first, and the
 *   operation's error depends on that call (notifyFailed below). node-driver-registrar exits on it
 *   without answering, so that call fails too.
 * Either way the goroutinemap logs the error with its backoff (goroutinemap.go:150, 500ms doubling to
 * 2m2s; exponential_backoff.go:73). The reconciler's next 1s pass after the backoff runs RegisterPlugin
 * again only for a plugin not in its actual state of world: a handler failure comes after AddPlugin
 * (:115), so that plugin is not registered again until its socket is re-created, which the
 * restarted registrar does (kubernetes#133725). The CSI handler forgets the driver (unregisterDriver;
 * its CSINode and Node clean-up writes are left out).
 */
function registrationFailed(w: Work, path: string, how: { notify: string; inActualState: boolean; returnedIfNotified: string } | { returned: string }): void {
  const reg = w.c.plugins[path]!;
  if ('notify' in how) {
    if (reg.driver && w.c.registered[reg.driver] && how.inActualState) delete own(w, 'registered')[reg.driver];
    own(w, 'pluginRequests')[csi(w, 'NotifyRegistrationStatus', { plugin_registered: false, error: how.notify }, 'registrar', REGISTRAR_TIMEOUT)] = path;
    own(w, 'plugins')[path] = { ...reg, step: 'notifyFailure', failure: { notify: how.notify, inActualState: how.inActualState, returnedIfNotified: how.returnedIfNotified } };
    return;
  }
  registerPluginFailed(w, path, reg, how.returned, true);
}

/**
 * notifyPlugin's answer (v1.30.1 :153-170, v1.20.5 :156-174) ends the operation: the text it sent when
 * the plugin took it; when the call failed, that text with the call's error after it (fmt.Errorf
 * "%s: %w" on 1.30, errors.Wrap on 1.20: the same words), which validation wraps once more in
 * "failed to send error at socket".
 */
function notifyFailed(w: Work, path: string, reg: PluginRegistration, ok: boolean, errText: string): void {
  const f = reg.failure!;
  const sent = ok ? undefined : `${f.notify}: ${errText}`;
  const returned = f.inActualState ? (sent ?? f.notify)
    : sent !== undefined ? `RegisterPlugin error -- failed to send error at socket ${path}, err: ${sent}` : f.returnedIfNotified;
  registerPluginFailed(w, path, reg, returned, !f.inActualState);
}

/** The goroutinemap's failure line and backoff; `retry`: the plugin manager starts RegisterPlugin again after it. */
function registerPluginFailed(w: Work, path: string, reg: PluginRegistration, returned: string, retry: boolean): void {
  const duration = nextDurationBeforeRetry(reg.durationBeforeRetry ?? 0);
  const retryAt = w.now + duration;
  const i = w.c.input;
  log(w, 'kubelet.registerPluginFailed', {
    path, until: processTimeText(i.epochUs ?? 0, retryAt, i.tz ?? UTC_ZONE, i.monotonic), duration: goDuration(duration * 1000), err: returned,
  });
  const kept = { durationBeforeRetry: duration, ...(reg.seenAt !== undefined ? { seenAt: reg.seenAt } : {}) };
  if (!retry) {
    own(w, 'plugins')[path] = { path, step: 'failed', ...kept };
    return;
  }
  own(w, 'plugins')[path] = { path, step: 'backoff', ...kept };
  // the plugin manager's reconciler loops every second (plugin_manager.go:49 loopSleepDuration) and
  // starts the operation again at its first pass after the backoff
  timer(w, `pluginRetry:${path}`, w.c.startedAt + Math.ceil((retryAt - w.c.startedAt) / PLUGIN_MANAGER_LOOP) * PLUGIN_MANAGER_LOOP);
}

/** plugin_manager.go:49 loopSleepDuration */
const PLUGIN_MANAGER_LOOP = 1 * SECOND;

/** The plugin manager's reconciler pass after a registration's backoff: RegisterPlugin again, if the socket is still there. */
export function pluginRetry(w: Work, path: string): void {
  const reg = w.c.plugins[path];
  if (reg?.step !== 'backoff') return;
  own(w, 'plugins')[path] = { ...reg, step: 'getInfo' };
  getPluginInfo(w, path, true);
}

/** A csi.result or api.result belonging to a registration. Returns false when it is not one. */
export function registrationResult(w: Work, requestId: string, ok: boolean, response: Record<string, unknown> | undefined, errText: string, code?: number): boolean {
  const path = w.c.pluginRequests[requestId];
  if (!path) return false;
  delete own(w, 'pluginRequests')[requestId];
  const reg = w.c.plugins[path];
  if (!reg) return true;
  switch (reg.step) {
    case 'getInfo': {
      if (!ok) return registrationFailed(w, path, { returned: `RegisterPlugin error -- failed to get plugin info using RPC GetInfo at socket ${path}, err: ${errText}` }), true;
      const driver = String(response?.name ?? '');
      const endpoint = String(response?.endpoint ?? '');
      const versions = (response?.supported_versions as string[] | undefined) ?? [];
      log(w, 'kubelet.validatePlugin', { driver, endpoint, versions: versions.join(',') });
      if (response?.type !== 'CSIPlugin' || !versions.some((x) => x.startsWith('1.'))) {
        return registrationFailed(w, path, {
          notify: `RegisterPlugin error -- plugin validation failed with err: kubernetes.io/csi: unsupported plugin ${driver}`,
          inActualState: false, returnedIfNotified: 'RegisterPlugin error -- pluginHandler.ValidatePluginFunc failed',
        }), true;
      }
      log(w, 'kubelet.registerPlugin', { driver, endpoint });
      own(w, 'registered')[driver] = { endpoint };
      own(w, 'plugins')[path] = { ...reg, step: 'nodeGetInfo', driver, endpoint };
      own(w, 'pluginRequests')[csi(w, 'NodeGetInfo', {}, 'node', CSI_TIMEOUT)] = path;
      return true;
    }
    case 'nodeGetInfo': {
      if (!ok) return handlerFailed(w, path, errText), true;
      const nodeID = String(response?.node_id ?? '');
      const segments = ((response?.accessible_topology as { segments?: Record<string, string> } | undefined)?.segments) ?? {};
      const driver = reg.driver!;
      own(w, 'registered')[driver] = { endpoint: reg.endpoint!, nodeID };
      // nodeinfomanager installDriverToCSINode: a positive max_volumes_per_node becomes allocatable.count
      const max = Number(response?.max_volumes_per_node ?? 0);
      const entry: CsiNodeDriver = { name: driver, nodeID, topologyKeys: Object.keys(segments).length ? Object.keys(segments).sort() : null, ...(max > 0 ? { allocatable: { count: max } } : {}) };
      requestReconcile(w);
      // InstallCSIDriver (v1.30.1 nodeinfomanager.go:104-129): the Node first (the node ID annotation and
      // the topology labels, written only when they change), then CSINode
      const n = w.c.node;
      const ids: Record<string, string> = { ...safeJson(n?.metadata.annotations?.[ANN_NODE_ID]), [driver]: nodeID };
      const nodeModified = n?.metadata.annotations?.[ANN_NODE_ID] !== sortedJson(ids) || Object.entries(segments).some(([k, v]) => n?.metadata.labels?.[k] !== v);
      if (!nodeModified) { getCSINode(w, path, { ...reg, nodeID, entry }); return true; }
      const labels = Object.keys(segments).length ? { labels: segments } : {};
      const id1 = api(w, { verb: 'patch', kind: 'Node', name: w.c.input.nodeName, patch: { metadata: { annotations: { [ANN_NODE_ID]: sortedJson(ids) }, ...labels } },
        summary: summarize(summaries, 'kubelet.nodeIDAnnotation', { nodeID, driver, annotation: ANN_NODE_ID, node: w.c.input.nodeName }) });
      own(w, 'pluginRequests')[id1] = path;
      own(w, 'plugins')[path] = { ...reg, step: 'updateNode', nodeID, entry };
      return true;
    }
    case 'updateNode':
      if (!ok) return handlerFailed(w, path, `error updating Node object with CSI driver node info: ${errText}`), true;
      getCSINode(w, path, reg);
      return true;
    case 'getCSINode': {
      // tryUpdateCSINode (nodeinfomanager.go:374-390): read CSINode, create it when it is missing
      const entry = reg.entry!;
      if (!ok && code !== 404) return csiNodeWriteFailed(w, path, errText), true;
      if (!ok || !response) {
        writeCSINode(w, path, reg, 'create', newCSINode(w, [entry]));
        return true;
      }
      // installDriverToCSINode (:517-576): the other drivers' entries stay; nothing is written when this
      // driver's entry is already the same (a restarted kubelet, the same node ID)
      const current = response as unknown as K8sObject;
      const drivers = (current.spec?.drivers ?? []) as CsiNodeDriver[];
      const mine = drivers.find((d) => d.name === entry.name);
      const same = mine && mine.nodeID === entry.nodeID && sortedJson(mine.topologyKeys ?? []) === sortedJson(entry.topologyKeys ?? [])
        && (entry.allocatable ? mine.allocatable?.count === entry.allocatable.count : !mine.allocatable);
      if (same) { notifyRegistered(w, path, reg); return true; }
      writeCSINode(w, path, reg, 'update', { ...current, spec: { ...current.spec, drivers: [...drivers.filter((d) => d.name !== entry.name), entry] } });
      return true;
    }
    case 'updateCSINode':
      if (!ok) return csiNodeWriteFailed(w, path, errText), true;
      notifyRegistered(w, path, reg);
      return true;
    case 'notify': {
      // a success ends the goroutinemap's backoff of the operation (goroutinemap.go operationComplete)
      const { durationBeforeRetry: _ended, ...rest } = reg;
      own(w, 'plugins')[path] = { ...rest, step: 'registered' };
      return true;
    }
    case 'notifyFailure':
      notifyFailed(w, path, reg, ok, errText);
      return true;
    default:
      return true;
  }
}

type CsiNodeDriver = NonNullable<PluginRegistration['entry']>;

function getCSINode(w: Work, path: string, reg: PluginRegistration): void {
  const id = api(w, { verb: 'get', kind: 'CSINode', name: w.c.input.nodeName });
  own(w, 'pluginRequests')[id] = path;
  own(w, 'plugins')[path] = { ...reg, step: 'getCSINode' };
}

function writeCSINode(w: Work, path: string, reg: PluginRegistration, verb: 'create' | 'update', object: K8sObject): void {
  const id = api(w, { verb, kind: 'CSINode', name: w.c.input.nodeName, object,
    summary: summarize(summaries, 'kubelet.csiNodeDriver', { driver: reg.entry!.name, nodeID: reg.entry!.nodeID, node: w.c.input.nodeName }) });
  own(w, 'pluginRequests')[id] = path;
  own(w, 'plugins')[path] = { ...reg, step: 'updateCSINode' };
}

function notifyRegistered(w: Work, path: string, reg: PluginRegistration): void {
  own(w, 'plugins')[path] = { ...reg, step: 'notify' };
  own(w, 'pluginRequests')[csi(w, 'NotifyRegistrationStatus', { plugin_registered: true }, 'registrar', REGISTRAR_TIMEOUT,
    summarize(summaries, 'kubelet.notifyRegistered', { driver: reg.driver! }))] = path;
}

/** This node's CSINode with these drivers, owned by its Node (nodeinfomanager CreateCSINode) */
function newCSINode(w: Work, drivers: CsiNodeDriver[]): K8sObject {
  const n = w.c.input.nodeName;
  const uid = w.c.node?.metadata.uid;
  return { apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: n, ...(uid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: n, uid }] } : {}) }, spec: { drivers } };
}

/** nodeinfomanager's error for a failed CSINode read or write (tryUpdateCSINode, installDriverToCSINode) */
const csiNodeWriteFailed = (w: Work, path: string, errText: string): void =>
  handlerFailed(w, path, `error updating CSINode object with CSI driver node info: ${errText}`);

/** The CSI handler's RegisterPlugin failed (NodeGetInfo, or InstallCSIDriver's writes): the registrar is told. */
const handlerFailed = (w: Work, path: string, err: string): void => {
  const notify = `RegisterPlugin error -- plugin registration failed with err: ${err}`;
  registrationFailed(w, path, { notify, inActualState: true, returnedIfNotified: notify });
};

export function pluginSocketRemoved(w: Work, path: string): void {
  const reg = w.c.plugins[path];
  if (!reg) return;
  delete own(w, 'plugins')[path];
  if (reg.driver) delete own(w, 'registered')[reg.driver];
}

function safeJson(s: string | undefined): Record<string, string> {
  if (!s) return {};
  try { return JSON.parse(s) as Record<string, string>; } catch { return {}; }
}

export const csiErrText = (code: Parameters<typeof isFinalError>[0], message?: string): string => rpcErrorText(code, message ?? '');
