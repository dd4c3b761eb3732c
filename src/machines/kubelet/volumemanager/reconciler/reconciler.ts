/**
 * The volume manager's reconciler: each loop compares the desired with the actual state of world and
 * starts the operations that close the gap, unmounts first: "Unmounts are triggered before mounts so
 * that a volume that was referenced by a pod that was deleted and is now referenced by another pod is
 * unmounted from the first pod before being mounted to the new pod".
 * upstream: pkg/kubelet/volumemanager/reconciler/reconciler.go (1.20), reconciler_common.go (1.30):
 * unmountVolumes -> mountOrAttachVolumes -> unmountDetachDevices. The loop runs every 100ms upstream;
 * here an iteration is scheduled only when something changed or a backoff ends (kubelet.work.ts).
 */
import type { OperationKey } from '../../../shared/nestedPendingOperations.ts';
import { isOperationPending } from '../../../shared/nestedPendingOperations.ts';
import { getProfile } from '../../../profiles/index.ts';
import { isEmptyTable } from '../../../shared/tables.ts';
import type { AswVolume, DswVolume, Work } from '../../kubelet.types.ts';
import type { K8sObject } from '../../../shared/k8s.ts';
import { log, requestReconcile } from '../../kubelet.work.ts';
import { readyToUnmount, updateReconstructedFromNodeStatus } from './reconstruct.ts';
import { markVolumeAsDetached } from '../cache/actualStateOfWorld.ts';
import { startOperation } from '../../operationexecutor/operationExecutor.ts';
import { mountArgs, startGeneratedOperation } from '../../operationexecutor/operationGenerator.ts';
import { fsGroupToApply } from '../../csi/csiMounter.ts';

export function reconcile(w: Work): void {
  // 1.30 (reconcileNew): after a restart, nothing is unmounted before the populator has seen every pod
  // and the reconstructed volumes' device paths are known
  const ready = !getProfile(w.c.input.profile).kubeletReconstructsUncertain || readyToUnmount(w);
  if (ready) unmountVolumes(w);
  mountOrAttachVolumes(w);
  if (ready) unmountDetachDevices(w);
  if (w.c.volumesNeedUpdateFromNodeStatus?.length) {
    updateReconstructedFromNodeStatus(w);
    // unmounting may start now (the reconciler loops every 100 ms)
    requestReconcile(w);
  }
}

/** Pods mounted in the actual state of world that the desired state no longer has: UnmountVolume. */
function unmountVolumes(w: Work): void {
  for (const v of Object.values(w.c.asw)) {
    // (for-in, not Object.entries: a pair per pod per pass; entries and their pods tables are never
    // changed in place, a change replaces them)
    const pods = v.pods;
    for (const uid in pods) {
      const p = pods[uid]!;
      if (w.c.dsw[v.uniqueName]?.pods[uid]) continue;
      const key: OperationKey = { volumeName: v.uniqueName, podName: uid, nodeName: '' };
      // operationExecutor.UnmountVolume generates an unmap for a raw block volume
      const kind = v.block ? 'unmap' : 'unmount';
      if (!startOperation(w, key, kind)) continue;
      log(w, 'kubelet.unmountVolumeStarted', { volume: v.pvName, outerName: p.outerName, uniqueName: v.uniqueName, podUid: uid }, undefined, v.block ? 'block' : undefined);
      startGeneratedOperation(w, { kind, key, uniqueName: v.uniqueName, podUid: uid, pod: p }, v.block ? { marksUncertain: marksUncertain(w) } : {});
    }
  }
}

/**
 * Desired pods whose volume is not attached (VerifyControllerAttachedVolume: the attach/detach
 * controller attaches, the kubelet verifies) or not mounted yet, or mounted uncertainly (MountVolume).
 */
function mountOrAttachVolumes(w: Work): void {
  const profile = getProfile(w.c.input.profile);
  const verifyWaitsForInUse = profile.kubeletVerifyWaitsForInUse;
  // the volumes the cached Node lists as attached (GetAttachedVolumesFromNodeStatus); none known without a Node
  const cachedAttached = profile.kubeletVerifyWaitsForNodeStatus && w.c.node ? attachedInNodeStatus(w.c.node) : undefined;
  for (const v of Object.values(w.c.dsw)) {
    const pods = v.pods;
    for (const uid in pods) {
      const p = pods[uid]!;
      const a = w.c.asw[v.uniqueName];
      const key: OperationKey = { volumeName: v.uniqueName, podName: '', nodeName: '' };
      if (!a) {
        if (verifyWaitsForInUse && v.attachable && !v.reportedInUse) {
          log(w, 'kubelet.verifyControllerAttachedVolumeNotInUse', mountArgs(w, v, uid, p));
          continue;
        }
        // GenerateVerifyControllerAttachedVolumeFunc's precondition: not in the cached node status yet, nothing starts
        if (cachedAttached && v.attachable && !cachedAttached.has(v.uniqueName)) continue;
        if (!startOperation(w, key, 'verify')) continue;
        log(w, 'kubelet.verifyControllerAttachedVolumeStarted', mountArgs(w, v, uid, p));
        // (the actual state of world has no claim size for a volume it does not hold: a PV's claim is read)
        startGeneratedOperation(w, { kind: 'verify', key, uniqueName: v.uniqueName, podUid: uid },
          { volumeName: v.uniqueName, attachable: v.attachable, reportedInUse: v.reportedInUse, readsClaim: profile.kubeletVerifyReadsClaim && !!v.claimRef });
      } else if (!a.pods[uid] || a.pods[uid].state === 'VolumeMountUncertain') {
        // operationExecutor.MountVolume generates a map for a raw block volume (the same "MountVolume started" line)
        if (v.block) {
          if (!startOperation(w, key, 'map')) continue;
          log(w, 'kubelet.mountVolumeStarted', mountArgs(w, v, uid, p), undefined, 'block');
          startGeneratedOperation(w, { kind: 'map', key, uniqueName: v.uniqueName, podUid: uid, pod: p },
            { attachable: v.attachable, deviceGloballyMounted: a.deviceState === 'DeviceGloballyMounted', ...expansion(w, v.desiredSize ?? v.capacityBytes ?? 0, v),
              ...(v.nodeStageSecretRef ? { nodeStageSecret: true } : {}), ...(v.nodePublishSecretRef ? { nodePublishSecret: true } : {}),
              ...(profile.kubeletDriverClientErrorFinished ? { driverClientErrorFinished: true } : {}) });
          continue;
        }
        if (!startOperation(w, key, 'mount')) continue;
        log(w, 'kubelet.mountVolumeStarted', mountArgs(w, v, uid, p));
        startGeneratedOperation(w, { kind: 'mount', key, uniqueName: v.uniqueName, podUid: uid, pod: p },
          { attachable: v.attachable, deviceGloballyMounted: a.deviceState === 'DeviceGloballyMounted', ...expansion(w, v.desiredSize ?? v.capacityBytes ?? 0, v),
            expandsAfterMountDevice: profile.kubeletMountExpands === 'afterMountDevice',
            checksVolumeMountGroup: profile.kubeletChecksVolumeMountGroup, ...(v.nodeStageSecretRef ? { nodeStageSecret: true } : {}),
            ...(v.nodePublishSecretRef ? { nodePublishSecret: true } : {}), ...(profile.kubeletDriverClientErrorFinished ? { driverClientErrorFinished: true } : {}),
            ...fsGroupToApply(w, v, uid) });
      } else if (v.desiredSize !== undefined && a.claimSize !== undefined && v.desiredSize > a.claimSize) {
        // PodExistsInVolume's FsResizeRequiredError: the PV grew past the size the mounted file system has
        // (Starting operationExecutor.ExpandInUseVolume, logged at -v=4)
        if (!startOperation(w, key, 'expand')) continue;
        startGeneratedOperation(w, { kind: 'expand', key, uniqueName: v.uniqueName, podUid: uid, pod: p }, expansion(w, v.desiredSize, v));
      }
    }
  }
}

const marksUncertain = (w: Work): boolean => getProfile(w.c.input.profile).kubeletBlockUnmapMarksUncertain;

/** What the expansion steps of an operation need: the size to reach and the profile's answer to a node without EXPAND_VOLUME. */
function expansion(w: Work, newSize: number, v: DswVolume) {
  const profile = getProfile(w.c.input.profile);
  return {
    newSize, unsupportedIsDone: profile.kubeletNodeExpandUnsupportedIsDone,
    ...(v.nodeExpandSecretRef && profile.kubeletReadsNodeExpandSecret ? { nodeExpandSecret: true } : {}),
    ...(profile.kubeletMapsAccessModeByCapability ? { mapsAccessMode: true } : {}),
  };
}

/** Attached volumes no pod uses any more: UnmountDevice, then (controller-managed attach) forget them. */
function unmountDetachDevices(w: Work): void {
  for (const v of Object.values(w.c.asw) as AswVolume[]) {
    if (!isEmptyTable(v.pods) || w.c.dsw[v.uniqueName]) continue;
    const key: OperationKey = { volumeName: v.uniqueName, podName: '', nodeName: '' };
    if (isOperationPending(w.c.ops, key)) continue;
    if (v.deviceState !== 'DeviceNotMounted') {
      const kind = v.block ? 'unmapDevice' : 'unmountDevice';
      if (!startOperation(w, key, kind)) continue;
      log(w, 'kubelet.unmountDeviceStarted', { volume: v.pvName, uniqueName: v.uniqueName, node: w.c.input.nodeName }, undefined, v.block ? 'block' : undefined);
      startGeneratedOperation(w, { kind, key, uniqueName: v.uniqueName, podUid: '' }, v.block ? { marksUncertain: marksUncertain(w) } : {});
    } else {
      // ADC-managed: the kubelet only forgets the volume (MarkVolumeAsDetached); the controller detaches it
      markVolumeAsDetached(w, v.uniqueName);
      log(w, 'kubelet.volumeDetached', { volume: v.pvName, uniqueName: v.uniqueName, node: w.c.input.nodeName, devicePath: v.devicePath });
    }
  }
}

/** The unique names of the volumes a Node's status.volumesAttached lists (kubeletVolumeHost.GetAttachedVolumesFromNodeStatus). */
export function attachedInNodeStatus(node: K8sObject): Set<string> {
  const hit = ATTACHED.get(node);
  if (hit) return hit;
  const names = new Set(((node.status?.volumesAttached ?? []) as Array<{ name: string }>).map((a) => a.name));
  ATTACHED.set(node, names);
  return names;
}
const ATTACHED = new WeakMap<K8sObject, Set<string>>();
