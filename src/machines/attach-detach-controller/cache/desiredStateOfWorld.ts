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
import { isEmptyTable } from '../../shared/tables.ts';

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
  /**
   * index: for each volume, the nodes whose volumesToAttach has it, each with its place in the walk's
   * order (see getVolumesToAttach); and each node's place among nodesManaged's keys
   */
  nodesOfVolume: Map<string, Map<string, number>>;
  nodeOrder: Map<string, number>;
  /** the next place given out, to a node or to a volume entry */
  nextOrder: number;
}

export const emptyDsw = (): DesiredStateOfWorld => ({ nodesManaged: {}, touched: new Set(), rev: 0, nodesOfVolume: new Map(), nodeOrder: new Map(), nextOrder: 0 });

function indexVolume(dsw: DesiredStateOfWorld, volumeName: string, nodeName: string): void {
  let nodes = dsw.nodesOfVolume.get(volumeName);
  if (!nodes) dsw.nodesOfVolume.set(volumeName, (nodes = new Map()));
  nodes.set(nodeName, dsw.nextOrder++);
}

function unindexVolume(dsw: DesiredStateOfWorld, volumeName: string, nodeName: string): void {
  const nodes = dsw.nodesOfVolume.get(volumeName);
  if (!nodes) return;
  nodes.delete(nodeName);
  if (nodes.size === 0) dsw.nodesOfVolume.delete(volumeName);
}

/** A change to the volume's entries: bump the counter, and let the reconciler's next pass look at it. */
function changed(dsw: DesiredStateOfWorld, volumeName: string): void {
  dsw.rev += 1;
  dsw.touched.add(volumeName);
}

export function addNode(dsw: DesiredStateOfWorld, nodeName: string): DesiredStateOfWorld {
  if (dsw.nodesManaged[nodeName]) return dsw;
  dsw.nodesManaged[nodeName] = { nodeName, volumesToAttach: {} };
  dsw.nodeOrder.set(nodeName, dsw.nextOrder++);
  dsw.rev += 1;
  return dsw;
}

export function deleteNode(dsw: DesiredStateOfWorld, nodeName: string): DesiredStateOfWorld {
  const node = dsw.nodesManaged[nodeName];
  if (!node) return dsw;
  for (const v in node.volumesToAttach) { dsw.touched.add(v); unindexVolume(dsw, v, nodeName); }
  delete dsw.nodesManaged[nodeName];
  dsw.nodeOrder.delete(nodeName);
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
  else {
    node.volumesToAttach[vol.volumeName] = { ...vol, scheduledPods: { [pod.uid]: pod }, multiAttachErrorReported: false };
    indexVolume(dsw, vol.volumeName, nodeName);
  }
  changed(dsw, vol.volumeName);
  return dsw;
}

/** upstream DeletePod: the volume goes when its last pod goes. */
export function deletePod(dsw: DesiredStateOfWorld, podUid: string, volumeName: string, nodeName: string): DesiredStateOfWorld {
  const node = dsw.nodesManaged[nodeName];
  const cur = node?.volumesToAttach[volumeName];
  if (!node || !cur?.scheduledPods[podUid]) return dsw;
  delete cur.scheduledPods[podUid];
  if (isEmptyTable(cur.scheduledPods)) { delete node.volumesToAttach[volumeName]; unindexVolume(dsw, volumeName, nodeName); }
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
  if (only) {
    // those volumes in the walk's order (node by node in nodesManaged's key order, then each node's
    // volumes as they were added), without walking the others; an entry removed meanwhile is skipped
    const pairs: Array<{ node: string; volume: string; at: number }> = [];
    for (const v of only) for (const [node, at] of dsw.nodesOfVolume.get(v) ?? []) if (dsw.nodesManaged[node]?.volumesToAttach[v]) pairs.push({ node, volume: v, at });
    pairs.sort((a, b) => compareNodeKeys(dsw, a.node, b.node) || a.at - b.at);
    for (const { node, volume } of pairs) {
      const entry = dsw.nodesManaged[node]?.volumesToAttach[volume];
      if (entry) yield [node, entry];
    }
    return;
  }
  for (const nodeName of Object.keys(dsw.nodesManaged)) {
    const node = dsw.nodesManaged[nodeName];
    if (!node) continue;
    for (const v of Object.keys(node.volumesToAttach)) {
      const entry = node.volumesToAttach[v];
      if (entry) yield [nodeName, entry];
    }
  }
}

/**
 * Two node names in the order a walk over nodesManaged's keys meets them: a name that is an array
 * index ("0", "12") comes first, in numeric order, as JavaScript orders such keys; the others in the
 * order they were added.
 */
function compareNodeKeys(dsw: DesiredStateOfWorld, a: string, b: string): number {
  if (a === b) return 0;
  const ia = isArrayIndex(a), ib = isArrayIndex(b);
  if (ia || ib) return ia && ib ? Number(a) - Number(b) : ia ? -1 : 1;
  return dsw.nodeOrder.get(a)! - dsw.nodeOrder.get(b)!;
}
const isArrayIndex = (k: string): boolean => {
  const n = Number(k);
  return Number.isInteger(n) && n >= 0 && n < 4294967295 && String(n) === k;
};

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
