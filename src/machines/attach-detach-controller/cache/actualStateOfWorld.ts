/**
 * actualStateOfWorld of the attach/detach controller, as immutable data: which volume is attached to
 * which node (and whether the kubelet has it mounted), and what each node's status.volumesAttached
 * should say. upstream: pkg/controller/volume/attachdetach/cache/actual_state_of_world.go
 * (attachedVolumes[volume].nodesAttachedTo[node], nodesToUpdateStatusFor).
 */

export type AttachState = 'Attached' | 'Uncertain' | 'Detached';

export interface NodeAttachedTo {
  nodeName: string;
  /** from node.status.volumesInUse (written by the kubelet) */
  mountedByNode: boolean;
  /** virtual µs of the first reconcile that wanted to detach it; 0 when none */
  detachRequestedTime: number;
  /** attachedConfirmed in upstream: Attached, or Uncertain after a failed attach */
  attachedConfirmed: boolean;
}

export interface AttachedVolume {
  volumeName: string;
  specName: string;
  multiAttachAllowed: boolean;
  nodesAttachedTo: Record<string, NodeAttachedTo>;
}

export interface NodeToUpdateStatusFor {
  statusUpdateNeeded: boolean;
  /** volumeName -> specName: the list the node status updater writes to status.volumesAttached */
  volumesToReportAsAttached: Record<string, true>;
}

export interface ActualStateOfWorld {
  attachedVolumes: Record<string, AttachedVolume>;
  nodesToUpdateStatusFor: Record<string, NodeToUpdateStatusFor>;
}

export const emptyAsw = (): ActualStateOfWorld => ({ attachedVolumes: {}, nodesToUpdateStatusFor: {} });

export interface VolumeSpecInfo { volumeName: string; specName: string; multiAttachAllowed: boolean }

/** upstream AddVolumeNode (MarkVolumeAsAttached / MarkVolumeAsUncertain). */
export function addVolumeNode(asw: ActualStateOfWorld, spec: VolumeSpecInfo, nodeName: string, attached: boolean): ActualStateOfWorld {
  const cur = asw.attachedVolumes[spec.volumeName];
  const prev = cur?.nodesAttachedTo[nodeName];
  const entry: NodeAttachedTo = {
    nodeName, mountedByNode: prev?.mountedByNode ?? true, detachRequestedTime: prev?.detachRequestedTime ?? 0,
    // upstream AddVolumeNode: an existing entry takes the new state ("currentAttachState", isAttached)
    attachedConfirmed: attached,
  };
  const vol: AttachedVolume = {
    volumeName: spec.volumeName, specName: cur?.specName || spec.specName, multiAttachAllowed: spec.multiAttachAllowed,
    nodesAttachedTo: { ...(cur?.nodesAttachedTo ?? {}), [nodeName]: entry },
  };
  let next: ActualStateOfWorld = { ...asw, attachedVolumes: { ...asw.attachedVolumes, [spec.volumeName]: vol } };
  if (attached) next = addVolumeToReportAsAttached(next, spec.volumeName, nodeName);
  return next;
}

/** upstream MarkVolumeAsDetached / DeleteVolumeNode. */
export function deleteVolumeNode(asw: ActualStateOfWorld, volumeName: string, nodeName: string): ActualStateOfWorld {
  const cur = asw.attachedVolumes[volumeName];
  if (!cur?.nodesAttachedTo[nodeName]) return removeVolumeFromReportAsAttached(asw, volumeName, nodeName);
  const nodes = { ...cur.nodesAttachedTo };
  delete nodes[nodeName];
  const vols = { ...asw.attachedVolumes };
  if (Object.keys(nodes).length === 0) delete vols[volumeName];
  else vols[volumeName] = { ...cur, nodesAttachedTo: nodes };
  return removeVolumeFromReportAsAttached({ ...asw, attachedVolumes: vols }, volumeName, nodeName);
}

export function getAttachState(asw: ActualStateOfWorld, volumeName: string, nodeName: string): AttachState {
  const n = asw.attachedVolumes[volumeName]?.nodesAttachedTo[nodeName];
  if (!n) return 'Detached';
  return n.attachedConfirmed ? 'Attached' : 'Uncertain';
}

function updateNode(asw: ActualStateOfWorld, volumeName: string, nodeName: string, f: (n: NodeAttachedTo) => NodeAttachedTo): ActualStateOfWorld {
  const cur = asw.attachedVolumes[volumeName];
  const n = cur?.nodesAttachedTo[nodeName];
  if (!cur || !n) return asw;
  const next = f(n);
  if (next === n) return asw;
  return { ...asw, attachedVolumes: { ...asw.attachedVolumes, [volumeName]: { ...cur, nodesAttachedTo: { ...cur.nodesAttachedTo, [nodeName]: next } } } };
}

/** upstream SetVolumeMountedByNode (from node.status.volumesInUse). */
export const setVolumeMountedByNode = (asw: ActualStateOfWorld, volumeName: string, nodeName: string, mounted: boolean): ActualStateOfWorld =>
  updateNode(asw, volumeName, nodeName, (n) => (n.mountedByNode === mounted ? n : { ...n, mountedByNode: mounted }));

/** upstream SetDetachRequestTime: returns the time elapsed since the first request. */
export function setDetachRequestTime(asw: ActualStateOfWorld, volumeName: string, nodeName: string, now: number): { asw: ActualStateOfWorld; elapsed: number; since: number } {
  const n = asw.attachedVolumes[volumeName]?.nodesAttachedTo[nodeName];
  const since = n && n.detachRequestedTime > 0 ? n.detachRequestedTime : now;
  return { asw: updateNode(asw, volumeName, nodeName, (x) => (x.detachRequestedTime === since ? x : { ...x, detachRequestedTime: since })), elapsed: now - since, since };
}

/** upstream ResetDetachRequestTime ("touching"). */
export const resetDetachRequestTime = (asw: ActualStateOfWorld, volumeName: string, nodeName: string): ActualStateOfWorld =>
  updateNode(asw, volumeName, nodeName, (n) => (n.detachRequestedTime === 0 ? n : { ...n, detachRequestedTime: 0 }));

function setReport(asw: ActualStateOfWorld, volumeName: string, nodeName: string, add: boolean): ActualStateOfWorld {
  const cur = asw.nodesToUpdateStatusFor[nodeName] ?? { statusUpdateNeeded: false, volumesToReportAsAttached: {} };
  const vols = { ...cur.volumesToReportAsAttached };
  if (add) vols[volumeName] = true;
  else delete vols[volumeName];
  // upstream sets statusUpdateNeeded on every call, even when the list does not change
  return { ...asw, nodesToUpdateStatusFor: { ...asw.nodesToUpdateStatusFor, [nodeName]: { statusUpdateNeeded: true, volumesToReportAsAttached: vols } } };
}

export const addVolumeToReportAsAttached = (asw: ActualStateOfWorld, volumeName: string, nodeName: string): ActualStateOfWorld =>
  asw.attachedVolumes[volumeName]?.nodesAttachedTo[nodeName]?.attachedConfirmed === false ? asw : setReport(asw, volumeName, nodeName, true);
export const removeVolumeFromReportAsAttached = (asw: ActualStateOfWorld, volumeName: string, nodeName: string): ActualStateOfWorld =>
  setReport(asw, volumeName, nodeName, false);

/** upstream GetAttachedVolumes, in a stable order. */
export function getAttachedVolumes(asw: ActualStateOfWorld): Array<AttachedVolume & { node: NodeAttachedTo }> {
  const out: Array<AttachedVolume & { node: NodeAttachedTo }> = [];
  for (const v of Object.keys(asw.attachedVolumes).sort()) {
    const vol = asw.attachedVolumes[v]!;
    for (const n of Object.keys(vol.nodesAttachedTo).sort()) out.push({ ...vol, node: vol.nodesAttachedTo[n]! });
  }
  return out;
}

/** upstream GetNodesForAttachedVolume: nodes where the attachment is confirmed. */
export const getNodesForAttachedVolume = (asw: ActualStateOfWorld, volumeName: string): string[] =>
  Object.values(asw.attachedVolumes[volumeName]?.nodesAttachedTo ?? {}).filter((n) => n.attachedConfirmed).map((n) => n.nodeName).sort();

/** upstream GetVolumesToReportAttached + clearing statusUpdateNeeded: the nodes whose status to patch. */
export function takeNodesToUpdate(asw: ActualStateOfWorld): { asw: ActualStateOfWorld; updates: Array<{ nodeName: string; volumes: string[] }> } {
  const updates: Array<{ nodeName: string; volumes: string[] }> = [];
  const next: Record<string, NodeToUpdateStatusFor> = {};
  for (const [nodeName, n] of Object.entries(asw.nodesToUpdateStatusFor)) {
    if (n.statusUpdateNeeded) updates.push({ nodeName, volumes: Object.keys(n.volumesToReportAsAttached).sort() });
    next[nodeName] = { ...n, statusUpdateNeeded: false };
  }
  updates.sort((a, b) => (a.nodeName < b.nodeName ? -1 : 1));
  return { asw: { ...asw, nodesToUpdateStatusFor: next }, updates };
}

export const markNodeForUpdate = (asw: ActualStateOfWorld, nodeName: string): ActualStateOfWorld => {
  const cur = asw.nodesToUpdateStatusFor[nodeName];
  return cur ? { ...asw, nodesToUpdateStatusFor: { ...asw.nodesToUpdateStatusFor, [nodeName]: { ...cur, statusUpdateNeeded: true } } } : asw;
};
