/**
 * The kubelet volume manager as pure functions on a Work copy: the desired-state-of-world populator,
 * the reconciler (unmountVolumes -> mountOrAttachVolumes -> unmountDetachDevices, the upstream order:
 * "Unmounts are triggered before mounts so that a volume that was referenced by a pod that was
 * deleted and is now referenced by another pod is unmounted from the first pod before being mounted
 * to the new pod") and the operation executor's operations, each split into the steps that wait for
 * an API or CSI answer.
 * upstream (v1.20 / master-era): pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go,
 * pkg/kubelet/volumemanager/reconciler/reconciler.go (reconciler_common.go),
 * pkg/volume/util/operationexecutor/operation_generator.go (GenerateVerifyControllerAttachedVolumeFunc,
 * GenerateMountVolumeFunc, GenerateUnmountVolumeFunc, GenerateUnmountDeviceFunc),
 * pkg/volume/csi/csi_attacher.go (WaitForAttach, MountDevice, UnmountDevice), csi_mounter.go (SetUpAt, TearDownAt),
 * csi_client.go (non-final errors -> uncertain).
 * Left out: block volumes, remount, expansion, SELinux, reconstruction from disk after a restart.
 */
import type { CsiResultEvent } from '../shared/contract.ts';
import { CSI_ACCESS_MODE, isFinalError, rpcErrorText } from '../shared/csi.ts';
import { goDuration } from '../shared/goFormat.ts';
import { kobj, type K8sObject } from '../shared/k8s.ts';
import { deviceMountPath, podVolumePath, uniqueVolumeName, volumeAttachmentName } from '../shared/names.ts';
import {
  complete, isOperationPending, noRetriesUntilText, operationKeyText, run, type OperationKey,
} from '../shared/nestedPendingOperations.ts';
import { CSI_TIMEOUT, KUBELET_DSW_POPULATOR_LOOP_PERIOD } from '../shared/timing.ts';
import { getProfile } from '../profiles/index.ts';
import type { AswVolume, ClaimLookup, DswVolume, InflightOperation, OperationKind, PodVolume, VolumeSpec, Work } from './kubelet.types.ts';
import { api, csi, log, requestReconcile, timer } from './kubelet.work.ts';

/** kubernetes#106853 (1.24+): the reconciler does not start VerifyControllerAttachedVolume before the volume is reported in use. */
const UTC = { offsetMin: 0, zone: 'UTC' };

const VERIFY_WAITS_FOR_IN_USE: Record<string, boolean> = { '1.20': false, '1.30': true };

const ACCESS: Record<string, number> = {
  ReadWriteOnce: CSI_ACCESS_MODE.SINGLE_NODE_WRITER, ReadOnlyMany: CSI_ACCESS_MODE.MULTI_NODE_READER_ONLY,
  ReadWriteMany: CSI_ACCESS_MODE.MULTI_NODE_MULTI_WRITER, ReadWriteOncePod: CSI_ACCESS_MODE.SINGLE_NODE_SINGLE_WRITER,
};

// ------------------------------------------------------------------ desired state of world populator

/**
 * The populator does not watch PVs/PVCs: for each new pod it GETs the claim of every PVC volume, then
 * the bound PV (createVolumeSpec -> getPVCExtractPV -> getPVSpec), adds each resolved volume to the
 * DSW (AddPodToVolume) and marks the pod processed once all are in (processedPods). A claim that is
 * not Bound, or a PV that is missing, is tried again on the next populator loop (100ms); the loop is
 * event-driven: a timer is asked for only while some pod has an unresolved volume.
 * Left out: the "Error processing volume" line (its 1.20/1.30 file:line are not pinned here),
 * AddErrorToPod, the PV claimRef check and the PVC deletion check of getPVCExtractPV.
 */
type PodVolumeSource = { name: string; persistentVolumeClaim?: { claimName: string } };
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
    accessMode: ACCESS[pv.spec.accessModes?.[0] ?? 'ReadWriteOnce'] ?? 1, readOnly: !!src.readOnly,
    volumeContext: { ...(src.volumeAttributes ?? {}) },
  };
}

/** CSIDriver.spec.attachRequired (attachable when no CSIDriver object exists) */
const isAttachable = (w: Work, driver: string): boolean => w.c.csiDrivers[driver]?.spec?.attachRequired !== false;

/** Pods whose volumes belong in the DSW: bound here and whose containers may still run. */
const podNeedsVolumes = (w: Work, uid: string): boolean => {
  const st = w.c.podStates[uid];
  return !!st && st.stage !== 'terminated' && st.stage !== 'deleting';
};

/**
 * One populator pass, after every event: drop the volumes of pods that are gone or terminated
 * (findAndRemoveDeletedPods), then process the pods not processed yet (findAndAddNewPods). `loop`: a
 * populator loop iteration, which also retries the volumes that could not be resolved before.
 */
export function populateDesiredState(w: Work, loop = false): void {
  for (const uid of Object.keys(w.c.podVolumes)) if (!podNeedsVolumes(w, uid)) forgetPod(w, uid);
  let unresolved = false;
  for (const uid of Object.keys(w.c.pods)) {
    if (w.c.processedPods[uid] || !podNeedsVolumes(w, uid)) continue;
    if (processPodVolumes(w, uid, loop)) unresolved = true;
  }
  if (unresolved) schedulePopulator(w);
}

/** processPodVolumes: start the lookups the pod still needs. Returns whether a volume waits for the next loop. */
function processPodVolumes(w: Work, uid: string, loop: boolean): boolean {
  const pod = w.c.pods[uid]!;
  const vols = { ...(w.c.podVolumes[uid] ?? {}) };
  let waiting = false;
  let done = true;
  for (const v of claimVolumes(pod)) {
    const e = vols[v.name];
    if (e?.step === 'resolved') continue;
    done = false;
    if (!e || (e.step === 'retry' && loop)) {
      const requestId = api(w, { verb: 'get', kind: 'PersistentVolumeClaim', namespace: pod.metadata.namespace ?? 'default', name: v.persistentVolumeClaim!.claimName });
      w.c.volumeRequests[requestId] = { podUid: uid, outerName: v.name };
      vols[v.name] = { claimName: v.persistentVolumeClaim!.claimName, step: 'getPVC', requestId };
    } else if (e.step === 'retry') waiting = true;
  }
  w.c.podVolumes[uid] = vols;
  if (done) w.c.processedPods[uid] = true;
  return waiting;
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
  delete w.c.volumeRequests[requestId];
  const e = w.c.podVolumes[r.podUid]?.[r.outerName];
  const pod = w.c.pods[r.podUid];
  if (!e || e.requestId !== requestId || !pod) return true; // the pod went or changed meanwhile
  const set = (next: ClaimLookup) => { w.c.podVolumes[r.podUid] = { ...w.c.podVolumes[r.podUid], [r.outerName]: next }; };
  if (e.step === 'getPVC') {
    // getPVCExtractPV: "PVC ... has non-bound phase" / empty volumeName -> retry on the next loop
    if (!ok || !object || object.status?.phase !== 'Bound' || !object.spec?.volumeName) return set({ claimName: e.claimName, step: 'retry' }), true;
    const id = api(w, { verb: 'get', kind: 'PersistentVolume', name: object.spec.volumeName });
    w.c.volumeRequests[id] = r;
    set({ claimName: e.claimName, step: 'getPV', requestId: id });
    return true;
  }
  const spec = ok && object ? volumeSpecFromPV(object) : undefined;
  if (!spec) return set({ claimName: e.claimName, step: 'retry' }), true;
  set({ claimName: e.claimName, step: 'resolved', spec });
  addPodToVolume(w, r.podUid, pod, r.outerName, spec);
  if (claimVolumes(pod).every((v) => w.c.podVolumes[r.podUid]![v.name]?.step === 'resolved')) w.c.processedPods[r.podUid] = true;
  return true;
}

/** desiredStateOfWorld.AddPodToVolume */
function addPodToVolume(w: Work, uid: string, pod: K8sObject, outerName: string, spec: VolumeSpec): void {
  const prev = w.c.dsw[spec.uniqueName];
  const pv: PodVolume = { podName: pod.metadata.name, namespace: pod.metadata.namespace ?? 'default', outerName };
  w.c.dsw[spec.uniqueName] = prev
    ? { ...prev, pods: { ...prev.pods, [uid]: pv } }
    : { ...spec, attachable: isAttachable(w, spec.driver), pods: { [uid]: pv }, reportedInUse: false };
  if (!prev?.pods[uid]) log(w, 'kubelet.addedVolumeToDesiredState', { kpod: kobj(pod), podUid: uid, outerName, volume: spec.pvName });
  requestReconcile(w);
}

/** deleteProcessedPod + DeletePodFromVolume for each of its volumes; the lookups are forgotten too. */
function forgetPod(w: Work, uid: string): void {
  for (const e of Object.values(w.c.podVolumes[uid] ?? {})) {
    const d = e.spec && w.c.dsw[e.spec.uniqueName];
    if (!d?.pods[uid]) continue;
    const pods = { ...d.pods };
    delete pods[uid];
    if (Object.keys(pods).length) w.c.dsw[d.uniqueName] = { ...d, pods };
    else delete w.c.dsw[d.uniqueName];
    requestReconcile(w);
  }
  delete w.c.podVolumes[uid];
  delete w.c.processedPods[uid];
}

/** A pod update: when its PVC volumes changed the pod is processed again (its old volumes leave the DSW first). */
export function podUpdated(w: Work, pod: K8sObject, old: K8sObject | undefined): void {
  const uid = pod.metadata.uid!;
  if (old && w.c.podVolumes[uid] && claimsKey(old) !== claimsKey(pod)) forgetPod(w, uid);
}

/** A CSIDriver appeared, changed or went: the DSW entries of its volumes follow its attachRequired. */
export function csiDriverChanged(w: Work, driver: string): void {
  const attachable = isAttachable(w, driver);
  for (const [k, v] of Object.entries(w.c.dsw)) {
    if (v.driver === driver && v.attachable !== attachable) { w.c.dsw[k] = { ...v, attachable }; requestReconcile(w); }
  }
}

/** upstream GetVolumesInUse: attachable volumes in the DSW and in the ASW, sorted. */
export function volumesInUse(w: Work): string[] {
  const s = new Set<string>();
  for (const v of Object.values(w.c.dsw)) if (v.attachable) s.add(v.uniqueName);
  for (const v of Object.values(w.c.asw)) if (v.attachable) s.add(v.uniqueName);
  return [...s].sort();
}

/** upstream MarkVolumesAsReportedInUse */
export function markVolumesAsReportedInUse(w: Work, reported: string[]): void {
  const set = new Set(reported);
  for (const [k, v] of Object.entries(w.c.dsw)) {
    if (v.reportedInUse !== set.has(k)) w.c.dsw[k] = { ...v, reportedInUse: set.has(k) };
  }
  requestReconcile(w);
}

// ------------------------------------------------------------------ message arguments

const mountArgs = (w: Work, v: VolumeSpec, uid: string, p: PodVolume) => ({
  volume: v.pvName, uniqueName: v.uniqueName, podName: p.podName, podUid: uid, kpod: `${p.namespace}/${p.podName}`, node: w.c.input.nodeName,
});
const detailMount = (v: VolumeSpec, uid: string, p: PodVolume): string =>
  `for volume "${v.pvName}" (UniqueName: "${v.uniqueName}") pod "${p.podName}" (UID: "${uid}")`;
const detailDevice = (w: Work, v: VolumeSpec): string =>
  `for volume "${v.pvName}" (UniqueName: "${v.uniqueName}") on node "${w.c.input.nodeName}"`;
const detailUnmount = (v: VolumeSpec, uid: string): string =>
  `for volume "${v.pvName}" (UniqueName: "${v.uniqueName}") pod "${uid}" (UID: "${uid}")`;

// ------------------------------------------------------------------ operation executor

const OP_NAMES: Record<OperationKind, string> = {
  verify: 'verify_controller_attached_volume', mount: 'volume_mount', unmount: 'volume_unmount', unmountDevice: 'unmount_device',
};

function startOperation(w: Work, key: OperationKey, kind: OperationKind): boolean {
  const r = run(w.c.ops, key, OP_NAMES[kind], w.now);
  if (!r.started) {
    if (r.reason === 'ExponentialBackoff' && r.retryAt !== undefined) requestReconcile(w, r.retryAt);
    return false;
  }
  w.c.ops = r.ops;
  return true;
}

function succeed(w: Work, op: InflightOperation): void {
  w.c.ops = complete(w.c.ops, op.key, false, w.now).ops;
  requestReconcile(w);
}

/** The operation failed: backoff, the nestedpendingoperations error line, and a FailedMount event for mount errors. */
function fail(w: Work, op: InflightOperation, err: string, eventMessage?: string): void {
  const res = complete(w.c.ops, op.key, true, w.now);
  w.c.ops = res.ops;
  const i = w.c.input;
  log(w, 'kubelet.operationFailed', {
    key: operationKeyText(op.key), until: noRetriesUntilText(i.epochUs ?? 0, res.retryAt!, i.tz ?? UTC, i.monotonic),
    duration: goDuration(res.durationBeforeRetry! * 1000), err,
  });
  if (eventMessage) {
    const p = w.c.pods[op.podUid];
    if (p) w.out.push({ type: 'event.recorded', involved: { kind: 'Pod', namespace: p.metadata.namespace, name: p.metadata.name }, eventType: 'Warning', reason: 'FailedMount', message: eventMessage });
  }
  requestReconcile(w, res.retryAt!);
}

const track = (w: Work, requestId: string, op: InflightOperation): void => { w.c.inflight[requestId] = op; };

// ------------------------------------------------------------------ reconciler

export function reconcile(w: Work): void {
  unmountVolumes(w);
  mountOrAttachVolumes(w);
  unmountDetachDevices(w);
}

function unmountVolumes(w: Work): void {
  for (const v of Object.values(w.c.asw)) {
    for (const [uid, p] of Object.entries(v.pods)) {
      if (w.c.dsw[v.uniqueName]?.pods[uid]) continue;
      const key = { volumeName: v.uniqueName, podName: uid, nodeName: '' };
      if (!startOperation(w, key, 'unmount')) continue;
      log(w, 'kubelet.unmountVolumeStarted', { volume: v.pvName, uniqueName: v.uniqueName, podUid: uid });
      const op: InflightOperation = { kind: 'unmount', key, operationName: OP_NAMES.unmount, uniqueName: v.uniqueName, podUid: uid, step: 'unpublish' };
      if (!w.c.registered[v.driver]) {
        fail(w, op, `UnmountVolume.TearDown failed ${detailUnmount(v, uid)} : kubernetes.io/csi: mounter.TearDownAt failed to get CSI client: driver name ${v.driver} not found in the list of registered CSI drivers`);
        continue;
      }
      track(w, csi(w, 'NodeUnpublishVolume', { volume_id: v.handle, target_path: podVolumePath(w.c.input.kubeletRoot, uid, v.pvName) }, 'node', CSI_TIMEOUT,
        `The kubelet asks the CSI node plugin to unmount volume ${v.pvName} from pod ${p.podName}.`), op);
    }
  }
}

function mountOrAttachVolumes(w: Work): void {
  const profile = w.c.input.profile;
  for (const v of Object.values(w.c.dsw)) {
    for (const [uid, p] of Object.entries(v.pods)) {
      const a = w.c.asw[v.uniqueName];
      const key = { volumeName: v.uniqueName, podName: '', nodeName: '' };
      if (!a) {
        // waitForVolumeAttach: the attach/detach controller attaches; the kubelet verifies
        if (VERIFY_WAITS_FOR_IN_USE[profile] && v.attachable && !v.reportedInUse) {
          log(w, 'kubelet.verifyControllerAttachedVolumeNotInUse', mountArgs(w, v, uid, p));
          continue;
        }
        if (!startOperation(w, key, 'verify')) continue;
        log(w, 'kubelet.verifyControllerAttachedVolumeStarted', mountArgs(w, v, uid, p));
        const op: InflightOperation = { kind: 'verify', key, operationName: OP_NAMES.verify, uniqueName: v.uniqueName, podUid: uid, step: 'getNode' };
        if (!v.attachable) {
          w.c.asw[v.uniqueName] = newAttached(w, v, '');
          succeed(w, op);
        } else if (!v.reportedInUse) {
          fail(w, op, `Volume has not been added to the list of VolumesInUse in the node's volume status ${detailMount(v, uid, p)} `);
        } else {
          track(w, api(w, { verb: 'get', kind: 'Node', name: w.c.input.nodeName }), op);
        }
      } else if (!a.pods[uid] || a.pods[uid].state === 'VolumeMountUncertain') {
        if (!startOperation(w, key, 'mount')) continue;
        log(w, 'kubelet.mountVolumeStarted', mountArgs(w, v, uid, p));
        mountVolume(w, { kind: 'mount', key, operationName: OP_NAMES.mount, uniqueName: v.uniqueName, podUid: uid, step: 'mountDeviceCaps', pod: p });
      }
    }
  }
}

function unmountDetachDevices(w: Work): void {
  for (const v of Object.values(w.c.asw)) {
    if (Object.keys(v.pods).length > 0 || w.c.dsw[v.uniqueName]) continue;
    const key = { volumeName: v.uniqueName, podName: '', nodeName: '' };
    if (isOperationPending(w.c.ops, key)) continue;
    if (v.deviceState !== 'DeviceNotMounted') {
      if (!startOperation(w, key, 'unmountDevice')) continue;
      log(w, 'kubelet.unmountDeviceStarted', { volume: v.pvName, uniqueName: v.uniqueName, node: w.c.input.nodeName });
      const op: InflightOperation = { kind: 'unmountDevice', key, operationName: OP_NAMES.unmountDevice, uniqueName: v.uniqueName, podUid: '', step: 'unmountDeviceCaps' };
      if (!w.c.registered[v.driver]) {
        fail(w, op, `UnmountDevice failed ${detailDevice(w, v)} : kubernetes.io/csi: attacher.UnmountDevice failed to create newCsiDriverClient: driver name ${v.driver} not found in the list of registered CSI drivers`);
        continue;
      }
      track(w, csi(w, 'NodeGetCapabilities', {}, 'node', CSI_TIMEOUT), op);
    } else {
      // ADC-managed: the kubelet only forgets the volume; the controller detaches it
      const rest = { ...w.c.asw };
      delete rest[v.uniqueName];
      w.c.asw = rest;
      log(w, 'kubelet.volumeDetached', { volume: v.pvName, uniqueName: v.uniqueName, node: w.c.input.nodeName, devicePath: v.devicePath });
    }
  }
}

function newAttached(w: Work, v: VolumeSpec, devicePath: string): AswVolume {
  const { pods: _p, reportedInUse: _r, ...spec } = v as DswVolume;
  return {
    ...spec, devicePath, deviceState: 'DeviceNotMounted', pods: {},
    deviceMountPath: deviceMountPath(w.c.input.kubeletRoot, getProfile(w.c.input.profile).stagingPathStyle, v.pvName, v.driver, v.handle),
  };
}

// ------------------------------------------------------------------ MountVolume (GenerateMountVolumeFunc)

function mountVolume(w: Work, op: InflightOperation): void {
  const v = w.c.dsw[op.uniqueName]!;
  const p = v.pods[op.podUid]!;
  const a = w.c.asw[op.uniqueName]!;
  const args = mountArgs(w, v, op.podUid, p);
  let devicePath = a.devicePath;
  if (v.attachable) {
    log(w, 'kubelet.waitForAttachEntering', { ...args, devicePath });
    const vaName = volumeAttachmentName(v.handle, v.driver, w.c.input.nodeName);
    const va = w.c.vas[vaName];
    if (!va?.status?.attached) {
      // modern csi_attacher.WaitForAttach text (k8s-facts §3.4); the 1.20 watch-based wait is not modelled
      const tail = `volume ${v.handle} is not attached for volume attachment ${vaName}`;
      fail(w, op, `MountVolume.WaitForAttach failed ${detailMount(v, op.podUid, p)} : ${tail}`, `MountVolume.WaitForAttach failed for volume "${v.pvName}" : ${tail}`);
      return;
    }
    devicePath = vaName;
    log(w, 'kubelet.waitForAttachSucceeded', { ...args, devicePath });
  }
  w.c.asw[op.uniqueName] = { ...a, devicePath };
  op.devicePath = devicePath;
  if (!w.c.registered[v.driver]) {
    const stage = a.deviceState === 'DeviceGloballyMounted' ? 'SetUp' : 'MountDevice';
    const what = stage === 'SetUp' ? 'mounter.SetUpAt failed to get CSI client' : 'attacher.MountDevice failed to create newCsiDriverClient';
    const tail = `kubernetes.io/csi: ${what}: driver name ${v.driver} not found in the list of registered CSI drivers`;
    fail(w, op, `MountVolume.${stage} failed ${detailMount(v, op.podUid, p)} : ${tail}`, `MountVolume.${stage} failed for volume "${v.pvName}" : ${tail}`);
    return;
  }
  // csi_attacher.MountDevice / csi_mounter.SetUpAt ask the node plugin for STAGE_UNSTAGE_VOLUME first
  op.step = a.deviceState === 'DeviceGloballyMounted' ? 'setUpCaps' : 'mountDeviceCaps';
  track(w, csi(w, 'NodeGetCapabilities', {}, 'node', CSI_TIMEOUT), op);
}

/** NodeGetCapabilities answer: rpc type STAGE_UNSTAGE_VOLUME (enum 1 in csi.proto) present? */
function supportsStageUnstage(resp: Record<string, unknown> | undefined): boolean {
  const caps = (resp?.capabilities ?? []) as Array<Record<string, any>>;
  return caps.some((c) => {
    const t = c?.Type?.Rpc?.type ?? c?.rpc?.type ?? c?.type;
    return t === 1 || t === 'STAGE_UNSTAGE_VOLUME';
  });
}

const volumeCapability = (v: VolumeSpec) => ({ AccessType: { Mount: v.fsType ? { fs_type: v.fsType } : {} }, access_mode: { mode: v.accessMode } });

function publishContext(w: Work, v: VolumeSpec): Record<string, string> | undefined {
  const va = w.c.vas[volumeAttachmentName(v.handle, v.driver, w.c.input.nodeName)];
  const m = va?.status?.attachmentMetadata as Record<string, string> | undefined;
  return m && Object.keys(m).length ? m : undefined;
}

// ------------------------------------------------------------------ results

/** A csi.result for a volume operation step. Returns false when the request is not one of ours. */
export function handleOperationResult(w: Work, e: CsiResultEvent): boolean {
  const op = w.c.inflight[e.requestId];
  if (!op) return false;
  delete w.c.inflight[e.requestId];
  const a = w.c.asw[op.uniqueName];
  const v = w.c.dsw[op.uniqueName] ?? a;
  if (!a || !v) { w.c.ops = complete(w.c.ops, op.key, false, w.now).ops; return true; }
  const ok = e.code === 'OK';
  const rpcErr = ok ? '' : rpcErrorText(e.code, e.message ?? '');
  const p = (w.c.dsw[op.uniqueName]?.pods[op.podUid] ?? a.pods[op.podUid] ?? op.pod) as PodVolume | undefined;
  const args = p ? mountArgs(w, v, op.podUid, p) : undefined;
  const mountFail = (stage: 'MountDevice' | 'SetUp') =>
    fail(w, op, `MountVolume.${stage} failed ${p ? detailMount(v, op.podUid, p) : ''} : ${rpcErr}`, `MountVolume.${stage} failed for volume "${v.pvName}" : ${rpcErr}`);
  const stagingPath = a.deviceMountPath;
  switch (op.step) {
    case 'mountDeviceCaps':
    case 'setUpCaps': {
      if (!ok) return mountFail(op.step === 'setUpCaps' ? 'SetUp' : 'MountDevice'), true;
      op.stageUnstage = supportsStageUnstage(e.response);
      if (op.step === 'mountDeviceCaps') {
        if (op.stageUnstage) {
          op.step = 'stage';
          const pc = publishContext(w, v);
          track(w, csi(w, 'NodeStageVolume', {
            volume_id: v.handle, ...(pc ? { publish_context: pc } : {}), staging_target_path: stagingPath,
            volume_capability: volumeCapability(v), ...(Object.keys(v.volumeContext).length ? { volume_context: v.volumeContext } : {}),
          }, 'node', CSI_TIMEOUT), op);
          return true;
        }
        // STAGE_UNSTAGE_VOLUME not set: MountDevice is skipped but still succeeds
        w.c.asw[op.uniqueName] = { ...a, deviceState: 'DeviceGloballyMounted' };
        if (args) log(w, 'kubelet.mountDeviceSucceeded', { ...args, deviceMountPath: stagingPath });
        op.step = 'setUpCaps';
        track(w, csi(w, 'NodeGetCapabilities', {}, 'node', CSI_TIMEOUT), op);
        return true;
      }
      op.step = 'publish';
      const pc = publishContext(w, v);
      track(w, csi(w, 'NodePublishVolume', {
        volume_id: v.handle, ...(pc ? { publish_context: pc } : {}), ...(op.stageUnstage ? { staging_target_path: stagingPath } : {}),
        target_path: podVolumePath(w.c.input.kubeletRoot, op.podUid, v.pvName), volume_capability: volumeCapability(v),
        ...(v.readOnly ? { readonly: true } : {}), ...(Object.keys(v.volumeContext).length ? { volume_context: v.volumeContext } : {}),
      }, 'node', CSI_TIMEOUT), op);
      return true;
    }
    case 'stage':
      if (!ok) {
        if (!isFinalError(e.code)) w.c.asw[op.uniqueName] = { ...a, deviceState: 'DeviceMountUncertain' };
        return mountFail('MountDevice'), true;
      }
      w.c.asw[op.uniqueName] = { ...a, deviceState: 'DeviceGloballyMounted' };
      if (args) log(w, 'kubelet.mountDeviceSucceeded', { ...args, deviceMountPath: stagingPath });
      op.step = 'setUpCaps';
      track(w, csi(w, 'NodeGetCapabilities', {}, 'node', CSI_TIMEOUT), op);
      return true;
    case 'publish':
      if (!ok) {
        if (!isFinalError(e.code) && p) w.c.asw[op.uniqueName] = { ...a, pods: { ...a.pods, [op.podUid]: { ...p, state: 'VolumeMountUncertain' } } };
        return mountFail('SetUp'), true;
      }
      if (p) w.c.asw[op.uniqueName] = { ...a, pods: { ...a.pods, [op.podUid]: { ...p, state: 'VolumeMounted' } } };
      if (args) log(w, 'kubelet.setUpSucceeded', args);
      succeed(w, op);
      return true;
    case 'unpublish': {
      if (!ok) {
        fail(w, op, `UnmountVolume.TearDown failed ${detailUnmount(v, op.podUid)} : kubernetes.io/csi: mounter.TearDownAt failed: ${rpcErr}`);
        return true;
      }
      const pods = { ...a.pods };
      const gone = pods[op.podUid];
      delete pods[op.podUid];
      w.c.asw[op.uniqueName] = { ...a, pods };
      log(w, 'kubelet.tearDownSucceeded', { volume: v.pvName, uniqueName: v.uniqueName, podUid: op.podUid, outerName: gone?.outerName ?? '' });
      succeed(w, op);
      return true;
    }
    case 'unmountDeviceCaps':
      if (!ok) return fail(w, op, `UnmountDevice failed ${detailDevice(w, v)} : ${rpcErr}`), true;
      if (supportsStageUnstage(e.response)) {
        op.step = 'unstage';
        track(w, csi(w, 'NodeUnstageVolume', { volume_id: v.handle, staging_target_path: stagingPath }, 'node', CSI_TIMEOUT), op);
        return true;
      }
      return unmountDeviceSucceeded(w, op, a), true;
    case 'unstage':
      if (!ok) return fail(w, op, `UnmountDevice failed ${detailDevice(w, v)} : ${rpcErr}`), true;
      return unmountDeviceSucceeded(w, op, a), true;
    default:
      return false;
  }
}

function unmountDeviceSucceeded(w: Work, op: InflightOperation, a: AswVolume): void {
  w.c.asw[op.uniqueName] = { ...a, deviceState: 'DeviceNotMounted' };
  log(w, 'kubelet.unmountDeviceSucceeded', { volume: a.pvName, uniqueName: a.uniqueName, node: w.c.input.nodeName });
  succeed(w, op);
}

/** The GET Node of VerifyControllerAttachedVolume came back. */
export function handleVerifyNode(w: Work, requestId: string, ok: boolean, node: K8sObject | undefined, message?: string): boolean {
  const op = w.c.inflight[requestId];
  if (!op || op.kind !== 'verify') return false;
  delete w.c.inflight[requestId];
  const v = w.c.dsw[op.uniqueName];
  const p = v?.pods[op.podUid];
  if (!v || !p) { w.c.ops = complete(w.c.ops, op.key, false, w.now).ops; return true; }
  if (!ok || !node) {
    fail(w, op, `VerifyControllerAttachedVolume failed fetching node from API server ${detailMount(v, op.podUid, p)} : ${message ?? ''}`);
    return true;
  }
  const entry = ((node.status?.volumesAttached ?? []) as Array<{ name: string; devicePath: string }>).find((x) => x.name === v.uniqueName);
  if (!entry) {
    fail(w, op, `Volume not attached according to node status ${detailMount(v, op.podUid, p)} `);
    return true;
  }
  w.c.asw[v.uniqueName] = newAttached(w, v, entry.devicePath ?? '');
  log(w, 'kubelet.controllerAttachSucceeded', { ...mountArgs(w, v, op.podUid, p), devicePath: entry.devicePath ?? '' });
  succeed(w, op);
  return true;
}
