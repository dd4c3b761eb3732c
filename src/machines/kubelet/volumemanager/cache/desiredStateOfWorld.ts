/**
 * The kubelet's desired state of world: the volumes the pods bound to this node need, and which pods
 * need each one. Only the populator writes it; the reconciler reads it.
 * upstream: pkg/kubelet/volumemanager/cache/desired_state_of_world.go (AddPodToVolume,
 * DeletePodFromVolume, MarkVolumesAsReportedInUse, GetVolumesToMount).
 */
import { kobj, type K8sObject } from '../../../shared/k8s.ts';
import type { PodVolume, VolumeSpec, Work } from '../../kubelet.types.ts';
import { log, own, requestReconcile } from '../../kubelet.work.ts';

/** CSIDriver.spec.attachRequired (attachable when no CSIDriver object exists: csi_plugin.go skipAttach) */
export const isAttachable = (w: Work, driver: string): boolean => w.c.csiDrivers[driver]?.spec?.attachRequired !== false;

/** AddPodToVolume */
export function addPodToVolume(w: Work, uid: string, pod: K8sObject, outerName: string, spec: VolumeSpec): void {
  const prev = w.c.dsw[spec.uniqueName];
  const pv: PodVolume = { podName: pod.metadata.name, namespace: pod.metadata.namespace ?? 'default', outerName };
  own(w, 'dsw')[spec.uniqueName] = prev
    ? { ...prev, pods: { ...prev.pods, [uid]: pv } }
    : { ...spec, attachable: isAttachable(w, spec.driver), pods: { [uid]: pv }, reportedInUse: false, ...(spec.capacityBytes !== undefined ? { desiredSize: spec.capacityBytes } : {}) };
  if (!prev?.pods[uid]) log(w, 'kubelet.addedVolumeToDesiredState', { kpod: kobj(pod), podUid: uid, outerName, volume: spec.pvName });
  requestReconcile(w);
}

/** UpdatePersistentVolumeSize: the PV's capacity as the populator read it again (checkVolumeFSResize). */
export function updatePersistentVolumeSize(w: Work, volume: string, bytes: number): void {
  const d = w.c.dsw[volume];
  if (d && bytes > 0 && d.desiredSize !== bytes) { own(w, 'dsw')[volume] = { ...d, desiredSize: bytes }; requestReconcile(w); }
}

/** DeletePodFromVolume: the volume leaves with its last pod. */
export function deletePodFromVolume(w: Work, uid: string, volume: string): void {
  const d = w.c.dsw[volume];
  if (!d?.pods[uid]) return;
  const pods = { ...d.pods };
  delete pods[uid];
  if (Object.keys(pods).length) own(w, 'dsw')[volume] = { ...d, pods };
  else delete own(w, 'dsw')[volume];
  requestReconcile(w);
}

/**
 * A CSIDriver appeared, changed or went: the entries of its volumes follow its attachRequired. Not
 * upstream, which computes pluginIsAttachable once, in AddPodToVolume: here CSIDrivers can arrive after
 * the pods (a scenario's creation order), and the entries follow them so that such a scenario still mounts.
 */
export function updatePluginIsAttachable(w: Work, driver: string): void {
  const attachable = isAttachable(w, driver);
  for (const [k, v] of Object.entries(w.c.dsw)) {
    if (v.driver === driver && v.attachable !== attachable) { own(w, 'dsw')[k] = { ...v, attachable }; requestReconcile(w); }
  }
}

/** MarkVolumesAsReportedInUse: after node.status.volumesInUse was written. */
export function markVolumesAsReportedInUse(w: Work, reported: readonly string[]): void {
  const set = new Set(reported);
  for (const [k, v] of Object.entries(w.c.dsw)) {
    if (v.reportedInUse !== set.has(k)) own(w, 'dsw')[k] = { ...v, reportedInUse: set.has(k) };
  }
  requestReconcile(w);
}
