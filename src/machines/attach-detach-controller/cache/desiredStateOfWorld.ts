/**
 * desiredStateOfWorld of the attach/detach controller: the managed nodes, and for each the volumes
 * that should be attached with the pods that need them.
 * upstream: pkg/controller/volume/attachdetach/cache/desired_state_of_world.go (nodesManaged,
 * volumesToAttach, scheduledPods, multiAttachErrorReported).
 *
 * For scale the functions update the maps in place (the controller's actor owns its context, as the
 * Go cache owns its maps) and return the same object; `rev` counts the changes, so that callers can
 * tell whether an informer event changed anything, and `touched` names the volumes changed since the
 * reconciler last looked at them (reconciler.ts visits only those). Iteration follows insertion order.
 */

export interface PodRef { namespace: string; name: string; uid: string }

export interface VolumeToAttach {
  /** kubernetes.io/csi/<driver>^<handle> */
  volumeName: string;
  /** the PV name (volumeSpec.Name()) */
  specName: string;
  /** false for ReadWriteOnce / ReadWriteOncePod volumes (util.IsMultiAttachAllowed) */
  multiAttachAllowed: boolean;
  /** pod uid -> pod */
  scheduledPods: Record<string, PodRef>;
  multiAttachErrorReported: boolean;
}

export interface NodeManaged {
  nodeName: string;
  volumesToAttach: Record<string, VolumeToAttach>;
}

export interface DesiredStateOfWorld {
  nodesManaged: Record<string, NodeManaged>;
  /** the volumes changed since the reconciler's last pass took this set (reconciler.ts takeTouchedVolumes) */
  touched: Set<string>;
  /** bumped on every change */
  rev: number;
}

export const emptyDsw = (): DesiredStateOfWorld => ({ nodesManaged: {}, touched: new Set(), rev: 0 });

/** A change to the volume's entries: bump the counter, and let the reconciler's next pass look at it. */
function changed(dsw: DesiredStateOfWorld, volumeName: string): void {
  dsw.rev += 1;
  dsw.touched.add(volumeName);
}

const isEmpty = (o: object): boolean => {
  for (const _ in o) return false;
  return true;
};

export function addNode(dsw: DesiredStateOfWorld, nodeName: string): DesiredStateOfWorld {
  if (dsw.nodesManaged[nodeName]) return dsw;
  dsw.nodesManaged[nodeName] = { nodeName, volumesToAttach: {} };
  dsw.rev += 1;
  return dsw;
}

export function deleteNode(dsw: DesiredStateOfWorld, nodeName: string): DesiredStateOfWorld {
  const node = dsw.nodesManaged[nodeName];
  if (!node) return dsw;
  for (const v in node.volumesToAttach) dsw.touched.add(v);
  delete dsw.nodesManaged[nodeName];
  dsw.rev += 1;
  return dsw;
}

export const nodeExists = (dsw: DesiredStateOfWorld, nodeName: string): boolean => !!dsw.nodesManaged[nodeName];

/** upstream AddPod: only for managed nodes. */
export function addPod(
  dsw: DesiredStateOfWorld, pod: PodRef, vol: { volumeName: string; specName: string; multiAttachAllowed: boolean }, nodeName: string,
): DesiredStateOfWorld {
  const node = dsw.nodesManaged[nodeName];
  if (!node) return dsw;
  const cur = node.volumesToAttach[vol.volumeName];
  if (cur?.scheduledPods[pod.uid]) return dsw;
  if (cur) cur.scheduledPods[pod.uid] = pod;
  else node.volumesToAttach[vol.volumeName] = { ...vol, scheduledPods: { [pod.uid]: pod }, multiAttachErrorReported: false };
  changed(dsw, vol.volumeName);
  return dsw;
}

/** upstream DeletePod: the volume goes when its last pod goes. */
export function deletePod(dsw: DesiredStateOfWorld, podUid: string, volumeName: string, nodeName: string): DesiredStateOfWorld {
  const node = dsw.nodesManaged[nodeName];
  const cur = node?.volumesToAttach[volumeName];
  if (!node || !cur?.scheduledPods[podUid]) return dsw;
  delete cur.scheduledPods[podUid];
  if (isEmpty(cur.scheduledPods)) delete node.volumesToAttach[volumeName];
  changed(dsw, volumeName);
  return dsw;
}

export const volumeExists = (dsw: DesiredStateOfWorld, volumeName: string, nodeName: string): boolean =>
  !!dsw.nodesManaged[nodeName]?.volumesToAttach[volumeName];

/**
 * upstream GetVolumesToAttach: every (node, volume to attach), in insertion order, without copying;
 * with `only`, those of these volumes. Entries may be changed (not added or removed) while iterating.
 */
export function* getVolumesToAttach(dsw: DesiredStateOfWorld, only?: ReadonlySet<string>): Generator<[nodeName: string, volume: VolumeToAttach]> {
  for (const nodeName in dsw.nodesManaged) {
    const node = dsw.nodesManaged[nodeName]!;
    for (const v in node.volumesToAttach) if (!only || only.has(v)) yield [nodeName, node.volumesToAttach[v]!];
  }
}

export function setMultiAttachError(dsw: DesiredStateOfWorld, volumeName: string, nodeName: string): DesiredStateOfWorld {
  const cur = dsw.nodesManaged[nodeName]?.volumesToAttach[volumeName];
  if (!cur) return dsw;
  cur.multiAttachErrorReported = true;
  changed(dsw, volumeName);
  return dsw;
}

/** upstream GetVolumePodsOnNodes: pods on these nodes that use the volume. */
export function getVolumePodsOnNodes(dsw: DesiredStateOfWorld, nodes: string[], volumeName: string): PodRef[] {
  const out: PodRef[] = [];
  for (const n of nodes) {
    const v = dsw.nodesManaged[n]?.volumesToAttach[volumeName];
    if (v) out.push(...Object.values(v.scheduledPods));
  }
  return out;
}

/** Every (pod uid, volume, node) the DSW holds for pods that are not in `liveUids`. */
export function podsNotIn(dsw: DesiredStateOfWorld, liveUids: ReadonlySet<string>): Array<{ pod: PodRef; volumeName: string; nodeName: string }> {
  const out: Array<{ pod: PodRef; volumeName: string; nodeName: string }> = [];
  for (const [nodeName, n] of Object.entries(dsw.nodesManaged)) {
    for (const [volumeName, v] of Object.entries(n.volumesToAttach)) {
      for (const pod of Object.values(v.scheduledPods)) if (!liveUids.has(pod.uid)) out.push({ pod, volumeName, nodeName });
    }
  }
  return out;
}

/** Whether any volume to attach on the node is still wanted by the pod. */
export function nodeHasPod(dsw: DesiredStateOfWorld, nodeName: string, podUid: string): boolean {
  const n = dsw.nodesManaged[nodeName];
  return !!n && Object.values(n.volumesToAttach).some((v) => !!v.scheduledPods[podUid]);
}
