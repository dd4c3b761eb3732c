/**
 * Reconstruction (1.30, NewVolumeManagerReconstruction): a kubelet that starts again finds the volumes
 * an earlier kubelet mounted in the pods' volume directories, and puts each into its actual state of
 * world as uncertain, the pod's mount and the device alike, so that MountVolume runs again for a pod
 * that still wants it (NodeStageVolume, NodePublishVolume: both idempotent) and the unmount path
 * cleans up after a pod that is gone. Unmounting waits until the populator has seen every pod and the
 * device paths were read from node.status.volumesAttached (readyToUnmount).
 * upstream: v1.30.1 pkg/kubelet/volumemanager/reconciler/reconstruct.go (reconstructVolumes :52,
 * updateStatesNew :105, updateReconstructedFromNodeStatus :179), reconciler.go Run :24-26.
 * Left out: the node status is read from the informer instead of a GET; raw block volumes; volumes that
 * fail reconstruction ("Could not construct volume information") and their orphan cleanup.
 *
 * 1.20 (syncStates below) reconstructs only what no pod wants any more, once, after its first reconciler
 * pass: a volume a pod still wants is verified and mounted again from scratch by the usual operations.
 */
import type { HostPodVolume } from '../../../shared/contract.ts';
import { uniqueVolumeName } from '../../../shared/names.ts';
import type { VolumeSpec, Work } from '../../kubelet.types.ts';
import { log, own, requestReconcile } from '../../kubelet.work.ts';
import { markVolumesAsReportedInUse } from '../cache/desiredStateOfWorld.ts';
import { checkAndMarkVolumeAsUncertainViaReconstruction, markDeviceAsMounted, markDeviceAsUncertain, markVolumeAsAttached, markVolumeAsMounted, setDevicePath } from '../cache/actualStateOfWorld.ts';
import { goPointer } from '../../../shared/goFormat.ts';
import { deviceMountPathOf } from '../../operationexecutor/operationGenerator.ts';
import { podNeedsVolumes } from '../populator/desiredStateOfWorldPopulator.ts';

/** What the CSI plugin's ConstructVolumeSpec reads back from vol_data.json: the PV, driver and handle. */
const specOnDisk = (v: HostPodVolume, uniqueName: string): VolumeSpec =>
  ({ uniqueName, pvName: v.pvName, driver: v.driver, handle: v.handle, attachable: true, fsType: '', accessMode: 1, readOnly: false, volumeContext: {} });

/** reconstructVolumes, then the reconciler's loop starts (reconciler.go Run). */
export function reconstructVolumes(w: Work, found: readonly HostPodVolume[]): void {
  const names: string[] = [];
  for (const v of found) {
    const uniqueName = uniqueVolumeName(v.driver, v.handle);
    const spec = specOnDisk(v, uniqueName);
    if (!w.c.asw[uniqueName]) {
      // AddAttachUncertainReconstructedVolume: attached, device path unknown until node status is read
      markVolumeAsAttached(w, spec, '', deviceMountPathOf(w, spec));
      names.push(uniqueName);
    }
    // the reconstructed pod knows its UID only
    if (checkAndMarkVolumeAsUncertainViaReconstruction(w, uniqueName, v.podUid, { podName: v.podUid, namespace: '', outerName: v.pvName })) {
      log(w, 'kubelet.reconstructedVolumeUncertain', { volume: v.pvName, podUid: v.podUid, uniqueName });
    }
  }
  // then each volume's device (updateStatesNew: after its pods)
  for (const uniqueName of names) {
    const a = w.c.asw[uniqueName]!;
    if (markDeviceAsUncertain(w, uniqueName)) log(w, 'kubelet.reconstructedDeviceUncertain', { volume: a.pvName, uniqueName, deviceMountPath: a.deviceMountPath });
  }
  log(w, 'kubelet.reconstructionFinished', { count: found.length });
  if (names.length) w.c.volumesNeedUpdateFromNodeStatus = names;
  log(w, 'kubelet.reconcilerStarted', {});
  requestReconcile(w);
}

/** readyToUnmount: the populator has seen every listed pod, and the reconstructed device paths are known. */
export function readyToUnmount(w: Work): boolean {
  if (!w.c.hasAddedPods) {
    // populatorHasAddedPods: every pod needing volumes has had its claims looked up (none still waits for a GET)
    const pending = Object.keys(w.c.pods).some((uid) => {
      if (!podNeedsVolumes(w, uid)) return false;
      const vols = w.c.podVolumes[uid];
      return !vols || Object.values(vols).some((l) => l.step === 'getPVC' || l.step === 'getPV');
    });
    if (pending) return false;
    w.c.hasAddedPods = true;
  }
  return !w.c.volumesNeedUpdateFromNodeStatus?.length;
}

/** updateReconstructedFromNodeStatus: the device path (and attachability) of each reconstructed volume from node.status. */
export function updateReconstructedFromNodeStatus(w: Work): void {
  const names = w.c.volumesNeedUpdateFromNodeStatus;
  const node = w.c.node;
  if (!names?.length || !node) return;
  const attached = (node.status?.volumesAttached ?? []) as Array<{ name: string; devicePath?: string }>;
  for (const name of names) {
    const a = attached.find((x) => x.name === name);
    if (a) setDevicePath(w, name, a.devicePath ?? '');
    // UpdateReconstructedVolumeAttachability: a volume the controller did not attach needs no attach
    else if (w.c.asw[name]) own(w, 'asw')[name] = { ...w.c.asw[name]!, attachable: false };
  }
  log(w, 'kubelet.reconstructedDevicePathsUpdated', {});
  w.c.volumesNeedUpdateFromNodeStatus = [];
}

/**
 * 1.20 syncStates (v1.20.5 reconciler.go:385-444), run once after the reconciler's first pass once the
 * populator has added the pods (:155-158): each volume found in a pod's volume directory that is in
 * neither state of world (the pod went while no kubelet ran, e.g. force-deleted) is reconstructed and
 * put into the actual state of world as mounted, its device too (updateStates :630-673, the device
 * path read from node.status.volumesAttached); the reconciler's next passes then unmount it
 * (UnmountVolume, UnmountDevice) and let the controller detach it. A volume a pod still wants is left
 * to the usual operations, which mount it again (NodeStageVolume and NodePublishVolume are idempotent), and
 * marked reported in use at once (MarkVolumesReportedInUse, :441-443): VerifyControllerAttachedVolume does not
 * wait for the node status to list it again.
 * Left out: volumes whose reconstruction fails and cleanupMounts.
 */
export function syncStates(w: Work): void {
  const found = w.c.volumesOnDisk ?? [];
  w.c.volumesOnDisk = undefined;
  const attached = (w.c.node?.status?.volumesAttached ?? []) as Array<{ name: string; devicePath?: string }>;
  let updated = false;
  // the volumes a pod still wants: marked reported in use at once, "so reconcile() calls SetUp and re-mounts"
  // without waiting for the node status (v1.20.5 reconciler.go:414-423, :441-443)
  const volumeNeedReport: string[] = [];
  for (const v of found) {
    const uniqueName = uniqueVolumeName(v.driver, v.handle);
    // VolumeExistsWithSpecName in the actual, then in the desired state of world
    if (w.c.asw[uniqueName]?.pods[v.podUid]) continue;
    if (w.c.dsw[uniqueName]?.pods[v.podUid]) { if (!volumeNeedReport.includes(uniqueName)) volumeNeedReport.push(uniqueName); continue; }
    const spec = specOnDisk(v, uniqueName);
    // %+v of the *reconstructedVolume: its pointer fields print as addresses; devicePath is read after
    const detail = `&{volumeName:${uniqueName} podName:${v.podUid} volumeSpec:${goPointer(`spec/${uniqueName}`)} outerVolumeSpecName:${v.pvName} pod:${goPointer(`pod/${v.podUid}`)} volumeGidValue: devicePath: mounter:${goPointer(`mounter/${v.podUid}/${uniqueName}`)} deviceMounter:${goPointer(`deviceMounter/${uniqueName}`)} blockVolumeMapper:<nil>}`;
    log(w, 'kubelet.syncStatesReconstructed', { detail, volume: v.pvName, podUid: v.podUid, uniqueName });
    // updateStates: MarkVolumeAsAttached, MarkVolumeAsMounted, MarkDeviceAsMounted
    if (!w.c.asw[uniqueName]) markVolumeAsAttached(w, spec, attached.find((x) => x.name === uniqueName)?.devicePath ?? '', deviceMountPathOf(w, spec));
    markVolumeAsMounted(w, uniqueName, v.podUid, { podName: v.podUid, namespace: '', outerName: v.pvName });
    markDeviceAsMounted(w, uniqueName);
    updated = true;
  }
  // MarkVolumesReportedInUse (it marks these, and no other, reported)
  if (volumeNeedReport.length) markVolumesAsReportedInUse(w, volumeNeedReport);
  if (updated) requestReconcile(w);
}
