/**
 * actualStateOfWorld of the attach/detach controller: which volume is attached to which node (and
 * whether the kubelet has it mounted), and what each node's status.volumesAttached should say.
 * upstream: pkg/controller/volume/attachdetach/cache/actual_state_of_world.go
 * (attachedVolumes[volume].nodesAttachedTo[node], nodesToUpdateStatusFor).
 *
 * For scale the functions update the maps in place (the controller's actor owns its context, as the
 * Go cache owns its maps) and return the same object; `rev` counts the changes. Two indexes upstream
 * does not keep: the volumes attached to each node (processVolumesInUse touches only those) and the
 * nodes whose statusUpdateNeeded is set (the status updater visits only those). And `touched`: the
 * volumes changed since the reconciler last looked at them (reconciler.ts visits only those).
 */
import { setup } from 'xstate';
import { transitionTable } from '../../shared/transitionTable.ts';
import { isEmptyTable } from '../../shared/tables.ts';

export type AttachState = 'Attached' | 'Uncertain' | 'Detached';

export type AttachStateEvent = { type: 'MarkVolumeAsAttached' } | { type: 'MarkVolumeAsUncertain' } | { type: 'MarkVolumeAsDetached' };

/**
 * What the actual state of world records about one volume on one node (upstream AttachState). An
 * attach that failed, or (1.29+) a detach that failed, leaves it Uncertain: it is not reported in
 * node.status.volumesAttached and does not count as attached for the Multi-Attach check, but it is
 * still detached when no pod wants it. The mutators below go through it (shared/transitionTable.ts).
 */
export const attachStateMachine = setup({ types: { events: {} as AttachStateEvent } }).createMachine({
  id: 'adcAttachState',
  initial: 'AttachStateDetached',
  states: {
    AttachStateDetached: {
      description: 'Not in the actual state of world: not attached to this node, or detached.',
      on: { MarkVolumeAsAttached: 'AttachStateAttached', MarkVolumeAsUncertain: 'AttachStateUncertain', MarkVolumeAsDetached: 'AttachStateDetached' },
    },
    AttachStateUncertain: {
      description: 'The attach failed or timed out (1.29+: or the detach failed): it may be attached; Attach must succeed before it is reported.',
      on: { MarkVolumeAsAttached: 'AttachStateAttached', MarkVolumeAsUncertain: 'AttachStateUncertain', MarkVolumeAsDetached: 'AttachStateDetached' },
    },
    AttachStateAttached: {
      description: 'The VolumeAttachment said attached: the volume is in node.status.volumesAttached.',
      on: { MarkVolumeAsAttached: 'AttachStateAttached', MarkVolumeAsUncertain: 'AttachStateUncertain', MarkVolumeAsDetached: 'AttachStateDetached' },
    },
  },
});

const STATE_OF: Record<string, AttachState> = { AttachStateAttached: 'Attached', AttachStateUncertain: 'Uncertain', AttachStateDetached: 'Detached' };

const attachTransitions = transitionTable(attachStateMachine);

/** The attach state a mutator leads to, from the machine. */
const nextAttachState = (from: AttachState, type: AttachStateEvent['type']): AttachState =>
  STATE_OF[attachTransitions(`AttachState${from}`, type)!]!;

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
  /** index: node -> the volumes in attachedVolumes with an entry for it */
  volumesAttachedToNode: Record<string, Set<string>>;
  /** index: the nodes of nodesToUpdateStatusFor whose statusUpdateNeeded is true */
  nodesNeedingStatusUpdate: Set<string>;
  /** the volumes changed since the reconciler's last pass took this set (reconciler.ts takeTouchedVolumes) */
  touched: Set<string>;
  /** bumped on every change */
  rev: number;
  /**
   * index: each volume's place in attachedVolumes' insertion order (a volume added again goes last, as
   * its key does), so that a pass over a few volumes takes them in the walk's order without the walk
   */
  order: Map<string, number>;
  /** the next place in that order */
  nextOrder: number;
}

export const emptyAsw = (): ActualStateOfWorld => ({
  attachedVolumes: {}, nodesToUpdateStatusFor: {}, volumesAttachedToNode: {}, nodesNeedingStatusUpdate: new Set(), touched: new Set(), rev: 0,
  order: new Map(), nextOrder: 0,
});

/** A change to the volume's entries: bump the counter, and let the reconciler's next pass look at it. */
function changed(asw: ActualStateOfWorld, volumeName: string): void {
  asw.rev += 1;
  asw.touched.add(volumeName);
}

export interface VolumeSpecInfo { volumeName: string; specName: string; multiAttachAllowed: boolean }

/** upstream AddVolumeNode (MarkVolumeAsAttached / MarkVolumeAsUncertain). */
export function addVolumeNode(asw: ActualStateOfWorld, spec: VolumeSpecInfo, nodeName: string, attached: boolean): ActualStateOfWorld {
  let vol = asw.attachedVolumes[spec.volumeName];
  if (!vol) {
    vol = { volumeName: spec.volumeName, specName: spec.specName, multiAttachAllowed: spec.multiAttachAllowed, nodesAttachedTo: {} };
    asw.attachedVolumes[spec.volumeName] = vol;
    asw.order.set(spec.volumeName, asw.nextOrder++);
  } else {
    vol.specName = vol.specName || spec.specName;
    vol.multiAttachAllowed = spec.multiAttachAllowed;
  }
  const prev = vol.nodesAttachedTo[nodeName];
  vol.nodesAttachedTo[nodeName] = {
    nodeName, mountedByNode: prev?.mountedByNode ?? true, detachRequestedTime: prev?.detachRequestedTime ?? 0,
    // upstream AddVolumeNode: an existing entry takes the new state ("currentAttachState", isAttached)
    attachedConfirmed: attached,
  };
  (asw.volumesAttachedToNode[nodeName] ??= new Set()).add(spec.volumeName);
  changed(asw, spec.volumeName);
  if (attached) addVolumeToReportAsAttached(asw, spec.volumeName, nodeName);
  return asw;
}

/** upstream MarkVolumeAsDetached / DeleteVolumeNode. */
export function deleteVolumeNode(asw: ActualStateOfWorld, volumeName: string, nodeName: string): ActualStateOfWorld {
  const cur = asw.attachedVolumes[volumeName];
  if (!cur?.nodesAttachedTo[nodeName]) return removeVolumeFromReportAsAttached(asw, volumeName, nodeName);
  delete cur.nodesAttachedTo[nodeName];
  if (isEmptyTable(cur.nodesAttachedTo)) { delete asw.attachedVolumes[volumeName]; asw.order.delete(volumeName); }
  const onNode = asw.volumesAttachedToNode[nodeName];
  onNode?.delete(volumeName);
  if (onNode?.size === 0) delete asw.volumesAttachedToNode[nodeName];
  changed(asw, volumeName);
  return removeVolumeFromReportAsAttached(asw, volumeName, nodeName);
}

/** MarkVolumeAsAttached */
export const markVolumeAsAttached = (asw: ActualStateOfWorld, spec: VolumeSpecInfo, nodeName: string): ActualStateOfWorld =>
  setAttachState(asw, spec, nodeName, 'MarkVolumeAsAttached');
/** MarkVolumeAsUncertain */
export const markVolumeAsUncertain = (asw: ActualStateOfWorld, spec: VolumeSpecInfo, nodeName: string): ActualStateOfWorld =>
  setAttachState(asw, spec, nodeName, 'MarkVolumeAsUncertain');
/** MarkVolumeAsDetached */
export const markVolumeAsDetached = (asw: ActualStateOfWorld, volumeName: string, nodeName: string): ActualStateOfWorld =>
  setAttachState(asw, { volumeName, specName: '', multiAttachAllowed: false }, nodeName, 'MarkVolumeAsDetached');

function setAttachState(asw: ActualStateOfWorld, spec: VolumeSpecInfo, nodeName: string, type: AttachStateEvent['type']): ActualStateOfWorld {
  const next = nextAttachState(getAttachState(asw, spec.volumeName, nodeName), type);
  return next === 'Detached' ? deleteVolumeNode(asw, spec.volumeName, nodeName) : addVolumeNode(asw, spec, nodeName, next === 'Attached');
}

export function getAttachState(asw: ActualStateOfWorld, volumeName: string, nodeName: string): AttachState {
  const n = asw.attachedVolumes[volumeName]?.nodesAttachedTo[nodeName];
  if (!n) return 'Detached';
  return n.attachedConfirmed ? 'Attached' : 'Uncertain';
}

/** upstream SetVolumeMountedByNode (from node.status.volumesInUse). */
export function setVolumeMountedByNode(asw: ActualStateOfWorld, volumeName: string, nodeName: string, mounted: boolean): ActualStateOfWorld {
  const n = asw.attachedVolumes[volumeName]?.nodesAttachedTo[nodeName];
  if (!n || n.mountedByNode === mounted) return asw;
  n.mountedByNode = mounted;
  changed(asw, volumeName);
  return asw;
}

/** The volumes attached (or uncertain) to a node, from the index: processVolumesInUse visits these. */
export const getVolumesAttachedToNode = (asw: ActualStateOfWorld, nodeName: string): ReadonlySet<string> =>
  asw.volumesAttachedToNode[nodeName] ?? new Set();

/** upstream SetDetachRequestTime: returns the time elapsed since the first request. */
export function setDetachRequestTime(asw: ActualStateOfWorld, volumeName: string, nodeName: string, now: number): { asw: ActualStateOfWorld; elapsed: number; since: number } {
  const n = asw.attachedVolumes[volumeName]?.nodesAttachedTo[nodeName];
  const since = n && n.detachRequestedTime > 0 ? n.detachRequestedTime : now;
  if (n && n.detachRequestedTime !== since) {
    n.detachRequestedTime = since;
    changed(asw, volumeName);
  }
  return { asw, elapsed: now - since, since };
}

/** upstream ResetDetachRequestTime ("touching"). */
export function resetDetachRequestTime(asw: ActualStateOfWorld, volumeName: string, nodeName: string): ActualStateOfWorld {
  const n = asw.attachedVolumes[volumeName]?.nodesAttachedTo[nodeName];
  if (!n || n.detachRequestedTime === 0) return asw;
  n.detachRequestedTime = 0;
  changed(asw, volumeName);
  return asw;
}

function setReport(asw: ActualStateOfWorld, volumeName: string, nodeName: string, add: boolean): ActualStateOfWorld {
  let cur = asw.nodesToUpdateStatusFor[nodeName];
  if (!cur) {
    cur = { statusUpdateNeeded: false, volumesToReportAsAttached: {} };
    asw.nodesToUpdateStatusFor[nodeName] = cur;
  }
  if (add) cur.volumesToReportAsAttached[volumeName] = true;
  else delete cur.volumesToReportAsAttached[volumeName];
  // upstream sets statusUpdateNeeded on every call, even when the list does not change
  cur.statusUpdateNeeded = true;
  asw.nodesNeedingStatusUpdate.add(nodeName);
  // (the report list decides nothing in the reconciler, but a volume whose pass changed it is looked at
  // again: 1.20's detach in backoff takes it out of the list at every pass, kubernetes#88565)
  changed(asw, volumeName);
  return asw;
}

export const addVolumeToReportAsAttached = (asw: ActualStateOfWorld, volumeName: string, nodeName: string): ActualStateOfWorld =>
  asw.attachedVolumes[volumeName]?.nodesAttachedTo[nodeName]?.attachedConfirmed === false ? asw : setReport(asw, volumeName, nodeName, true);
export const removeVolumeFromReportAsAttached = (asw: ActualStateOfWorld, volumeName: string, nodeName: string): ActualStateOfWorld =>
  setReport(asw, volumeName, nodeName, false);

/**
 * upstream GetAttachedVolumes: every (volume, node it is attached to), in insertion order, without
 * copying; with `only`, those of these volumes. Entries may be changed (not added or removed) while iterating.
 */
export function* getAttachedVolumes(asw: ActualStateOfWorld, only?: ReadonlySet<string>): Generator<[volume: AttachedVolume, node: NodeAttachedTo]> {
  // with `only`, those volumes in the walk's order, without walking the others (a large rollout has
  // ten thousand attached volumes and a pass looks at a few); a volume removed meanwhile is skipped, as for-in skips it
  const names = only ? [...only].filter((v) => asw.order.has(v)).sort((a, b) => asw.order.get(a)! - asw.order.get(b)!) : Object.keys(asw.attachedVolumes);
  for (const v of names) {
    const vol = asw.attachedVolumes[v];
    if (!vol) continue;
    for (const n in vol.nodesAttachedTo) yield [vol, vol.nodesAttachedTo[n]!];
  }
}

/** upstream GetNodesForAttachedVolume: nodes where the attachment is confirmed. */
export const getNodesForAttachedVolume = (asw: ActualStateOfWorld, volumeName: string): string[] =>
  Object.values(asw.attachedVolumes[volumeName]?.nodesAttachedTo ?? {}).filter((n) => n.attachedConfirmed).map((n) => n.nodeName).sort();

/**
 * upstream GetVolumesToReportAttached + clearing statusUpdateNeeded: the nodes whose status to patch
 * (by node name), each with its sorted list. `only`: UpdateNodeStatusForNode, that node alone.
 */
export function takeNodesToUpdate(asw: ActualStateOfWorld, only?: string): { asw: ActualStateOfWorld; updates: Array<{ nodeName: string; volumes: string[] }> } {
  const names = only === undefined ? [...asw.nodesNeedingStatusUpdate].sort() : asw.nodesNeedingStatusUpdate.has(only) ? [only] : [];
  const updates: Array<{ nodeName: string; volumes: string[] }> = [];
  for (const nodeName of names) {
    const n = asw.nodesToUpdateStatusFor[nodeName]!;
    updates.push({ nodeName, volumes: Object.keys(n.volumesToReportAsAttached).sort() });
    n.statusUpdateNeeded = false;
    asw.nodesNeedingStatusUpdate.delete(nodeName);
  }
  asw.rev += 1;
  return { asw, updates };
}

export function markNodeForUpdate(asw: ActualStateOfWorld, nodeName: string): ActualStateOfWorld {
  const cur = asw.nodesToUpdateStatusFor[nodeName];
  if (!cur) return asw;
  cur.statusUpdateNeeded = true;
  asw.nodesNeedingStatusUpdate.add(nodeName);
  asw.rev += 1;
  return asw;
}
