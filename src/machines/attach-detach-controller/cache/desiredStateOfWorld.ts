/**
 * desiredStateOfWorld of the attach/detach controller, as immutable data: the managed nodes, and for
 * each the volumes that should be attached with the pods that need them.
 * upstream: pkg/controller/volume/attachdetach/cache/desired_state_of_world.go (nodesManaged,
 * volumesToAttach, scheduledPods, multiAttachErrorReported).
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

export interface DesiredStateOfWorld { nodesManaged: Record<string, NodeManaged> }

export const emptyDsw = (): DesiredStateOfWorld => ({ nodesManaged: {} });

export function addNode(dsw: DesiredStateOfWorld, nodeName: string): DesiredStateOfWorld {
  if (dsw.nodesManaged[nodeName]) return dsw;
  return { nodesManaged: { ...dsw.nodesManaged, [nodeName]: { nodeName, volumesToAttach: {} } } };
}

export function deleteNode(dsw: DesiredStateOfWorld, nodeName: string): DesiredStateOfWorld {
  if (!dsw.nodesManaged[nodeName]) return dsw;
  const rest = { ...dsw.nodesManaged };
  delete rest[nodeName];
  return { nodesManaged: rest };
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
  const next: VolumeToAttach = cur
    ? { ...cur, scheduledPods: { ...cur.scheduledPods, [pod.uid]: pod } }
    : { ...vol, scheduledPods: { [pod.uid]: pod }, multiAttachErrorReported: false };
  return setVolume(dsw, nodeName, next);
}

/** upstream DeletePod: the volume goes when its last pod goes. */
export function deletePod(dsw: DesiredStateOfWorld, podUid: string, volumeName: string, nodeName: string): DesiredStateOfWorld {
  const node = dsw.nodesManaged[nodeName];
  const cur = node?.volumesToAttach[volumeName];
  if (!node || !cur?.scheduledPods[podUid]) return dsw;
  const pods = { ...cur.scheduledPods };
  delete pods[podUid];
  if (Object.keys(pods).length > 0) return setVolume(dsw, nodeName, { ...cur, scheduledPods: pods });
  const vols = { ...node.volumesToAttach };
  delete vols[volumeName];
  return { nodesManaged: { ...dsw.nodesManaged, [nodeName]: { ...node, volumesToAttach: vols } } };
}

function setVolume(dsw: DesiredStateOfWorld, nodeName: string, v: VolumeToAttach): DesiredStateOfWorld {
  const node = dsw.nodesManaged[nodeName]!;
  return { nodesManaged: { ...dsw.nodesManaged, [nodeName]: { ...node, volumesToAttach: { ...node.volumesToAttach, [v.volumeName]: v } } } };
}

export const volumeExists = (dsw: DesiredStateOfWorld, volumeName: string, nodeName: string): boolean =>
  !!dsw.nodesManaged[nodeName]?.volumesToAttach[volumeName];

/** upstream GetVolumesToAttach, in a stable order (node, volume). */
export function getVolumesToAttach(dsw: DesiredStateOfWorld): Array<VolumeToAttach & { nodeName: string }> {
  const out: Array<VolumeToAttach & { nodeName: string }> = [];
  for (const nodeName of Object.keys(dsw.nodesManaged).sort()) {
    const node = dsw.nodesManaged[nodeName]!;
    for (const v of Object.keys(node.volumesToAttach).sort()) out.push({ ...node.volumesToAttach[v]!, nodeName });
  }
  return out;
}

export function setMultiAttachError(dsw: DesiredStateOfWorld, volumeName: string, nodeName: string): DesiredStateOfWorld {
  const cur = dsw.nodesManaged[nodeName]?.volumesToAttach[volumeName];
  return cur ? setVolume(dsw, nodeName, { ...cur, multiAttachErrorReported: true }) : dsw;
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
