/**
 * The desired state of world populator. It does not watch PVs or PVCs: for each new pod it GETs the
 * claim of every PVC volume, then the bound PV (createVolumeSpec -> getPVCExtractPV -> getPVSpec),
 * adds each resolved volume to the DSW (AddPodToVolume) and marks the pod processed once all are in
 * (processedPods). A claim that is not Bound, or a PV that is missing, is tried again on the next
 * populator loop (100ms); the loop is event-driven: a timer is asked for only while some pod has an
 * unresolved volume.
 * upstream: pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go (findAndAddNewPods,
 * findAndRemoveDeletedPods, processPodVolumes, createVolumeSpec).
 * Left out: the "Error processing volume" line (its 1.20/1.30 file:line are not pinned here),
 * AddErrorToPod, the PV claimRef check and the PVC deletion check of getPVCExtractPV.
 */
import { CSI_ACCESS_MODE } from '../../../shared/csi.ts';
import type { K8sObject } from '../../../shared/k8s.ts';
import { uniqueVolumeName } from '../../../shared/names.ts';
import { KUBELET_DSW_POPULATOR_LOOP_PERIOD } from '../../../shared/timing.ts';
import type { ClaimLookup, VolumeSpec, Work } from '../../kubelet.types.ts';
import { api, own, timer } from '../../kubelet.work.ts';
import { addPodToVolume, deletePodFromVolume, updatePersistentVolumeSize } from '../cache/desiredStateOfWorld.ts';
import { initializeClaimSize } from '../cache/actualStateOfWorld.ts';
import { parseQuantity } from '../../../shared/quantity.ts';

const ACCESS: Record<string, number> = {
  ReadWriteOnce: CSI_ACCESS_MODE.SINGLE_NODE_WRITER, ReadOnlyMany: CSI_ACCESS_MODE.MULTI_NODE_READER_ONLY,
  ReadWriteMany: CSI_ACCESS_MODE.MULTI_NODE_MULTI_WRITER, ReadWriteOncePod: CSI_ACCESS_MODE.SINGLE_NODE_SINGLE_WRITER,
};

type PodVolumeSource = { name: string; persistentVolumeClaim?: { claimName: string; readOnly?: boolean } };
const claimVolumes = (pod: K8sObject): PodVolumeSource[] =>
  ((pod.spec?.volumes ?? []) as PodVolumeSource[]).filter((v) => !!v.persistentVolumeClaim);
const claimsKey = (pod: K8sObject): string => claimVolumes(pod).map((v) => `${v.name}=${v.persistentVolumeClaim!.claimName}`).join(',');

/** getPVSpec + the CSI plugin's spec: the volume a PV describes, or undefined when it is not a CSI PV. */
export function volumeSpecFromPV(pv: K8sObject): VolumeSpec | undefined {
  const src = pv.spec?.csi;
  if (!src) return undefined;
  return {
    uniqueName: uniqueVolumeName(src.driver, src.volumeHandle), pvName: pv.metadata.name, driver: src.driver, handle: src.volumeHandle,
    attachable: true, fsType: src.fsType ?? '',
    accessMode: ACCESS[pv.spec.accessModes?.[0] ?? 'ReadWriteOnce'] ?? 1, pvAccessMode: pv.spec.accessModes?.[0] ?? 'ReadWriteOnce',
    // (the pod's claim says whether it is read-only: handleVolumeGet; the kubelet never reads the PV's csi.readOnly)
    readOnly: false,
    ...(pv.spec.accessModes?.includes('ReadWriteOnce') ? { readWriteOnce: true as const } : {}),
    volumeContext: { ...(src.volumeAttributes ?? {}) },
    // util.MountOptionFromSpec: the PV's mountOptions (a StorageClass's, copied by the provisioner)
    ...(pv.spec.mountOptions?.length ? { mountOptions: [...pv.spec.mountOptions] } : {}),
    ...(pv.spec.capacity?.storage !== undefined ? { capacityBytes: parseQuantity(pv.spec.capacity.storage) } : {}),
    ...(pv.spec.claimRef?.name ? { claimRef: { namespace: pv.spec.claimRef.namespace ?? 'default', name: pv.spec.claimRef.name } } : {}),
    ...(pv.spec.volumeMode === 'Block' ? { block: true as const } : {}),
    ...(src.nodeStageSecretRef?.name ? { nodeStageSecretRef: { name: src.nodeStageSecretRef.name, namespace: src.nodeStageSecretRef.namespace ?? '' } } : {}),
    ...(src.nodePublishSecretRef?.name ? { nodePublishSecretRef: { name: src.nodePublishSecretRef.name, namespace: src.nodePublishSecretRef.namespace ?? '' } } : {}),
    ...(src.nodeExpandSecretRef?.name ? { nodeExpandSecretRef: { name: src.nodeExpandSecretRef.name, namespace: src.nodeExpandSecretRef.namespace ?? '' } } : {}),
  };
}

/** Pods whose volumes belong in the DSW: bound here and whose containers may still run. */
export const podNeedsVolumes = (w: Work, uid: string): boolean => {
  const st = w.c.podStates[uid];
  return !!st && st.stage !== 'terminated' && st.stage !== 'awaitingStatusSync' && st.stage !== 'deleting';
};

/**
 * One populator pass, after every event: drop the volumes of pods that are gone or terminated
 * (findAndRemoveDeletedPods), then process the pods not processed yet (findAndAddNewPods). `loop`: a
 * populator loop iteration, which also retries the volumes that could not be resolved before.
 */
export function populatorLoop(w: Work, loop = false): void {
  // A pass between loops (loop false) over the tables the last pass left writes nothing: each of its
  // steps moves a pod or a lookup out of the condition that starts it. Only its schedule is left to
  // do again. The populator runs after every event, so this skips most passes of a large node.
  const v = w.c.versions;
  const last = PASSED.get(v);
  if (!loop && last && last.pods === v.pods && last.podVolumes === v.podVolumes && last.processedPods === v.processedPods && last.podStates === v.podStates) {
    if (last.unresolved) schedulePopulator(w);
    return;
  }
  for (const uid in w.c.podVolumes) if (!podNeedsVolumes(w, uid)) deleteProcessedPod(w, uid);
  let unresolved = false;
  for (const uid in w.c.pods) {
    if (w.c.processedPods[uid] || !podNeedsVolumes(w, uid)) continue;
    if (processPodVolumes(w, uid, loop)) unresolved = true;
  }
  if (unresolved) schedulePopulator(w);
  PASSED.set(v, { pods: v.pods, podVolumes: v.podVolumes, processedPods: v.processedPods, podStates: v.podStates, unresolved });
}
/** The versions of the tables each pass left (kubelet.types.ts versions), by the kubelet process's versions object. */
const PASSED = new WeakMap<object, { pods: number; podVolumes: number; processedPods: number; podStates: number; unresolved: boolean }>();

/** processPodVolumes: start the lookups the pod still needs. Returns whether a volume waits for the next loop. */
function processPodVolumes(w: Work, uid: string, loop: boolean): boolean {
  const pod = w.c.pods[uid]!;
  const known = w.c.podVolumes[uid];
  // copied on the first lookup started: a pass that starts none leaves the table as it was (the
  // populator runs after every event, and settle() skips syncPods while the tables are unchanged)
  let vols: typeof known | undefined;
  let waiting = false;
  let done = true;
  for (const v of claimVolumes(pod)) {
    const e = (vols ?? known)?.[v.name];
    if (e?.step === 'resolved') continue;
    done = false;
    if (!e || e.step === 'reprocess' || (e.step === 'retry' && loop)) {
      const requestId = api(w, { verb: 'get', kind: 'PersistentVolumeClaim', namespace: pod.metadata.namespace ?? 'default', name: v.persistentVolumeClaim!.claimName });
      own(w, 'volumeRequests')[requestId] = { podUid: uid, outerName: v.name };
      vols ??= { ...(known ?? {}) };
      // a volume looked up again keeps the spec it resolved to, which names its DSW entry meanwhile
      vols[v.name] = { claimName: v.persistentVolumeClaim!.claimName, step: 'getPVC', requestId, ...(e?.spec ? { spec: e.spec } : {}) };
    } else if (e.step === 'retry') waiting = true;
  }
  if (vols || !known) own(w, 'podVolumes')[uid] = vols ?? {};
  if (done) own(w, 'processedPods')[uid] = true;
  return waiting;
}

/**
 * checkVolumeFSResize: the PV's capacity is the size the file system should have
 * (UpdatePersistentVolumeSize), the claim's status the size it has (InitializeClaimSize, for a volume
 * that is mounted). The reconciler compares the two. Read-only volumes are not resized.
 * upstream: desired_state_of_world_populator.go checkVolumeFSResize (1.30; 1.20 compares the same two
 * sizes in volumeRequiresFSResize and marks the pod's volume fsResizeRequired).
 */
function checkVolumeFSResize(w: Work, spec: VolumeSpec, claimBytes: number): void {
  if (spec.readOnly || spec.capacityBytes === undefined) return;
  updatePersistentVolumeSize(w, spec.uniqueName, spec.capacityBytes);
  initializeClaimSize(w, spec.uniqueName, claimBytes);
}

/** ReprocessPod: the pod worker synced the pod; the populator looks its volumes up again on its next pass. */
export function reprocessPod(w: Work, uid: string): void {
  const vols = w.c.podVolumes[uid];
  if (!vols || !w.c.processedPods[uid]) return;
  delete own(w, 'processedPods')[uid];
  const next: Record<string, ClaimLookup> = {};
  for (const [name, e] of Object.entries(vols)) next[name] = e.step === 'resolved' ? { claimName: e.claimName, step: 'reprocess', ...(e.spec ? { spec: e.spec } : {}) } : e;
  own(w, 'podVolumes')[uid] = next;
}

/** The next populator loop boundary (KUBELET_DSW_POPULATOR_LOOP_PERIOD from the kubelet's start), unless one is already due. */
function schedulePopulator(w: Work): void {
  if (w.c.populatorAt !== undefined && w.c.populatorAt >= w.now) return; // due now or later and not fired yet
  const p = KUBELET_DSW_POPULATOR_LOOP_PERIOD;
  const base = w.c.startedAt;
  w.c.populatorAt = base + Math.ceil((w.now + 1 - base) / p) * p;
  timer(w, 'populator', w.c.populatorAt);
}

/** A GET of the populator came back (PVC, then its bound PV). Returns false when the request is not one of ours. */
export function handleVolumeGet(w: Work, requestId: string, ok: boolean, object: K8sObject | undefined): boolean {
  const r = w.c.volumeRequests[requestId];
  if (!r) return false;
  delete own(w, 'volumeRequests')[requestId];
  const e = w.c.podVolumes[r.podUid]?.[r.outerName];
  const pod = w.c.pods[r.podUid];
  if (!e || e.requestId !== requestId || !pod) return true; // the pod went or changed meanwhile
  const set = (next: ClaimLookup) => { own(w, 'podVolumes')[r.podUid] = { ...w.c.podVolumes[r.podUid], [r.outerName]: next }; };
  const kept = e.spec ? { spec: e.spec } : {};
  if (e.step === 'getPVC') {
    // getPVCExtractPV: "PVC ... has non-bound phase" / empty volumeName -> retry on the next loop
    if (!ok || !object || object.status?.phase !== 'Bound' || !object.spec?.volumeName) return set({ claimName: e.claimName, step: 'retry', ...kept }), true;
    const id = api(w, { verb: 'get', kind: 'PersistentVolume', name: object.spec.volumeName });
    own(w, 'volumeRequests')[id] = r;
    set({ claimName: e.claimName, step: 'getPV', requestId: id, claimBytes: parseQuantity(object.status?.capacity?.storage), ...kept });
    return true;
  }
  const fromPV = ok && object ? volumeSpecFromPV(object) : undefined;
  if (!fromPV) return set({ claimName: e.claimName, step: 'retry', ...kept }), true;
  // the volume spec's ReadOnly is the pod's persistentVolumeClaim.readOnly (getPVSpec(pvName, pvcSource.ReadOnly, …) ->
  // NewSpecFromPersistentVolume: v1.30.1 desired_state_of_world_populator.go:497, :617); NodePublishVolume's readonly and
  // supportsFSGroup read it
  const claimReadOnly = claimVolumes(pod).find((v) => v.name === r.outerName)?.persistentVolumeClaim?.readOnly === true;
  const spec = claimReadOnly ? { ...fromPV, readOnly: true } : fromPV;
  set({ claimName: e.claimName, step: 'resolved', spec });
  addPodToVolume(w, r.podUid, pod, r.outerName, spec);
  checkVolumeFSResize(w, spec, e.claimBytes ?? 0);
  if (claimVolumes(pod).every((v) => w.c.podVolumes[r.podUid]![v.name]?.step === 'resolved')) own(w, 'processedPods')[r.podUid] = true;
  return true;
}

/** deleteProcessedPod + DeletePodFromVolume for each of its volumes; the lookups are forgotten too. */
function deleteProcessedPod(w: Work, uid: string): void {
  for (const e of Object.values(w.c.podVolumes[uid] ?? {})) if (e.spec) deletePodFromVolume(w, uid, e.spec.uniqueName);
  delete own(w, 'podVolumes')[uid];
  delete own(w, 'processedPods')[uid];
}

/** A pod update: when its PVC volumes changed the pod is processed again (its old volumes leave the DSW first). */
export function podUpdated(w: Work, pod: K8sObject, old: K8sObject | undefined): void {
  const uid = pod.metadata.uid!;
  if (old && w.c.podVolumes[uid] && claimsKey(old) !== claimsKey(pod)) deleteProcessedPod(w, uid);
}
