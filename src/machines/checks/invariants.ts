/**
 * Safety properties every trace must keep, checked step by step against the API objects: from the
 * objects as they stood when recording started (trace.initial), through every step's changes. Other
 * teams run them on their own scenarios.
 *  1. NodeStageVolume / NodePublishVolume only after the VolumeAttachment of that volume and node is
 *     attached, for drivers that need attaching (the CSIDriver's attachRequired as it stood then; no
 *     CSIDriver object means attachRequired).
 *  2. ControllerUnpublishVolume never while the volume is in that node's status.volumesInUse, except
 *     the attach/detach controller's force detach after maxWaitForUnmountDuration or from a node with
 *     the node.kubernetes.io/out-of-service taint.
 *  3. A single-node volume (ReadWriteOnce, ReadWriteOncePod) is never attached to two nodes.
 *  4. A VolumeAttachment the external-attacher's CSI handler attaches (by ControllerPublishVolume,
 *     or one that carried its finalizer) keeps the finalizer while it is attached and not being
 *     deleted, so that the detach cannot be skipped. Drivers without PUBLISH_UNPUBLISH_VOLUME are
 *     marked attached by its trivial handler, which adds no finalizer (trivial_handler.go).
 *  5. An uncertain mount is never taken for a mount: NodePublishVolume only on a staging path whose
 *     NodeStageVolume succeeded, "MountVolume.SetUp succeeded" / "MountDevice succeeded" only after the
 *     node plugin answered OK to that call, and a pod runs only once every CSI volume of it is
 *     published. A call that timed out, or whose answer came after the caller stopped waiting, is
 *     uncertain: it counts as not done.
 *  6. A PersistentVolume is never deleted while a VolumeAttachment of it is attached (really attached,
 *     as rule 4 tells: the external-attacher guards it with a PV finalizer and external-provisioner
 *     refuses DeleteVolume; for a driver without ControllerPublishVolume neither does, nor needs to).
 *
 * A violation that is a documented upstream race, not a simulator bug, is still returned, with
 * `known` naming the upstream issue: rule 2 for a detach retried after the volume came back into use
 * (kubernetes#88565), rule 3 for an attach to a new node while the old attachment's detach keeps
 * failing (kubernetes#124334).
 */
import type { Trace, TraceStep } from '../cluster/trace.ts';
import { objectKey, type K8sObject } from '../shared/k8s.ts';
import { uniqueVolumeName, volumeAttachmentName } from '../shared/names.ts';

export type Rule = 1 | 2 | 3 | 4 | 5 | 6;

export interface Violation {
  step: number;
  t: number;
  rule: Rule;
  message: string;
  /** set when the violation is a documented upstream race: the issue that documents it */
  known?: string;
}

/** Each rule in one line, for reports. */
export const RULES: Record<Rule, string> = {
  1: 'NodeStageVolume / NodePublishVolume only after the VolumeAttachment of that volume and node is attached',
  2: 'ControllerUnpublishVolume never while the node reports the volume in volumesInUse (except a force detach: the 6-minute timeout, or an out-of-service node)',
  3: 'a single-node volume is never attached to two nodes',
  4: 'a VolumeAttachment attached through ControllerPublishVolume keeps the external-attacher finalizer while attached',
  5: 'an uncertain mount is never taken for a mount',
  6: 'a PersistentVolume is never deleted while a VolumeAttachment of it is attached',
};

const SINGLE_NODE = ['ReadWriteOnce', 'ReadWriteOncePod'];
/** kubelet pod volume path: <root>/pods/<uid>/volumes/kubernetes.io~csi/<pv>/mount */
const FS_TARGET = /\/pods\/([^/]+)\/volumes\/kubernetes\.io~csi\/([^/]+)\/mount$/;
/** a raw block volume is published to plugins/kubernetes.io/csi/volumeDevices/publish/<pv>/<pod uid> (csi_block.go getPublishPath) */
const BLOCK_TARGET = /\/volumeDevices\/publish\/[^/]+\/([^/]+)$/;
/** the pod uid a NodePublishVolume target path belongs to */
const targetPod = (path: string): string | undefined => FS_TARGET.exec(path)?.[1] ?? BLOCK_TARGET.exec(path)?.[1];

/** The last answer the caller received for a path: 'ok', or not done (a call in flight, failed, uncertain, or undone by NodeUnstage/NodeUnpublish). */
type CallState = 'pending' | 'ok' | 'failed' | 'uncertain' | 'unstaged' | 'unpublished';

export function checkInvariants(trace: Trace): Violation[] {
  if (!trace || !Array.isArray(trace.steps)) throw new TypeError('checkInvariants needs a trace (the result of runScenario)');
  if (trace.objectsRecorded === false) throw new TypeError('checkInvariants needs the objects of every step: run the scenario with recordObjects (the default)');
  const objects = new Map<string, K8sObject>();
  for (const o of trace.initial?.objects ?? []) objects.set(objectKey(o.kind, o.metadata.namespace, o.metadata.name), o);
  const out: Violation[] = [];
  /** "<unique>@<node>" force-detached by the attach/detach controller */
  const forced = new Set<string>();
  /** VolumeAttachment name -> whether the node reported the volume in use when its deletion began */
  const deletionBeganInUse = new Map<string, boolean>();
  /** CSI calls in flight, by "<caller>#<requestId>" */
  const calls = new Map<string, { rpc: string; node: string; handle: string; path: string }>();
  /** "<node>|<handle>|<path>" -> state of the latest NodeStageVolume / NodePublishVolume of that path */
  const stage = new Map<string, CallState>();
  const publish = new Map<string, CallState>();

  /** VolumeAttachments that carried the external-attacher finalizer; "<pv>@<node>" that ControllerPublishVolume was called for */
  const hasFinalizer = (va: K8sObject): boolean => (va.metadata.finalizers ?? []).some((f) => f.startsWith('external-attacher/'));
  const hadFinalizer = new Set<string>();
  for (const o of trace.initial?.objects ?? []) if (o.kind === 'VolumeAttachment' && hasFinalizer(o)) hadFinalizer.add(o.metadata.name);
  const published = new Set<string>();
  /** attached by the external-attacher's CSI handler (a real attach), not marked so by its trivial handler */
  const csiAttached = (va: K8sObject): boolean => hadFinalizer.has(va.metadata.name) || published.has(`${va.spec?.source?.persistentVolumeName}@${va.spec?.nodeName}`);
  const byKind = (kind: string): K8sObject[] => [...objects.values()].filter((o) => o.kind === kind);
  const pvByHandle = (h: string) => byKind('PersistentVolume').find((p) => p.spec?.csi?.volumeHandle === h);
  const attachRequired = (driver: string) => byKind('CSIDriver').find((d) => d.metadata.name === driver)?.spec?.attachRequired !== false;
  const nodeOfId = (nodeId: string): K8sObject | undefined => {
    const csiNode = byKind('CSINode').find((c) => (c.spec?.drivers ?? []).some((d: { nodeID: string }) => d.nodeID === nodeId));
    return objects.get(objectKey('Node', undefined, csiNode?.metadata.name ?? nodeId));
  };
  const inUse = (node: K8sObject | undefined, unique: string): boolean => !!node && (node.status?.volumesInUse ?? []).includes(unique);
  const fail = (st: TraceStep, rule: Rule, message: string, known?: string) =>
    out.push({ step: st.i, t: st.t, rule, message, ...(known ? { known } : {}) });
  const pathKey = (node: string, handle: string, path: string) => `${node}|${handle}|${path}`;

  for (const st of trace.steps) {
    const changes = st.objects ?? [];
    // deletions that begin on this step, judged on the objects as they stood before it
    for (const ch of changes) {
      if (ch.kind !== 'VolumeAttachment' || !ch.after?.metadata.deletionTimestamp || ch.before?.metadata.deletionTimestamp) continue;
      const va = ch.after;
      const pv = objects.get(objectKey('PersistentVolume', undefined, va.spec?.source?.persistentVolumeName ?? ''));
      const unique = pv?.spec?.csi ? uniqueVolumeName(pv.spec.csi.driver, pv.spec.csi.volumeHandle) : '';
      deletionBeganInUse.set(va.metadata.name, inUse(objects.get(objectKey('Node', undefined, va.spec?.nodeName ?? '')), unique));
    }
    for (const ch of changes) {
      const k = objectKey(ch.kind, ch.namespace, ch.name);
      if (ch.after) objects.set(k, ch.after); else objects.delete(k);
    }
    // the attach/detach controller says so in structured data: its force-detach message names the volume and node
    // (the 6-minute timeout, or the operator's out-of-service taint on a node that is off: non-graceful node shutdown)
    if ((st.msg === 'attachDetachController.forceDetachStarted' || st.msg === 'attachDetachController.outOfServiceDetachStarted') && st.args) forced.add(`${st.args.volumeName}@${st.args.node}`);

    if (st.kind === 'rpc' && st.rpc) {
      const rpc = st.rpc.method.split('/').pop() ?? '';
      const req = (st.rpc.request ?? {}) as Record<string, unknown>;
      const handle = String(req.volume_id ?? '');
      const pv = pvByHandle(handle);
      if ((rpc === 'NodeStageVolume' || rpc === 'NodePublishVolume') && pv && attachRequired(pv.spec.csi.driver)) {
        const va = objects.get(objectKey('VolumeAttachment', undefined, volumeAttachmentName(handle, pv.spec.csi.driver, st.host)));
        if (!va?.status?.attached) fail(st, 1, `${rpc} of ${handle} on ${st.host} before its VolumeAttachment is attached`);
      }
      if (rpc === 'NodePublishVolume' && typeof req.staging_target_path === 'string') {
        const s = stage.get(pathKey(st.host, handle, req.staging_target_path));
        if (s !== undefined && s !== 'ok') fail(st, 5, `NodePublishVolume of ${handle} on ${st.host} while its NodeStageVolume has not succeeded (${s})`);
      }
      if (rpc === 'ControllerPublishVolume' && pv) {
        const node = nodeOfId(String(req.node_id ?? ''));
        if (node) published.add(`${pv.metadata.name}@${node.metadata.name}`);
      }
      if (rpc === 'ControllerUnpublishVolume' && pv) {
        const node = nodeOfId(String(req.node_id ?? ''));
        const unique = uniqueVolumeName(pv.spec.csi.driver, handle);
        if (node && inUse(node, unique) && !forced.has(`${unique}@${node.metadata.name}`)) {
          const vaName = volumeAttachmentName(handle, pv.spec.csi.driver, node.metadata.name);
          // the detach began while the node did not use the volume; the external-attacher keeps retrying it
          // after a pod on that node asked for the volume again (kubernetes#88565: the StatefulSet re-created
          // while its volume's detach fails)
          const known = deletionBeganInUse.get(vaName) === false ? 'kubernetes/kubernetes#88565' : undefined;
          fail(st, 2, `ControllerUnpublishVolume of ${handle} while node ${node.metadata.name} reports it in volumesInUse${known ? ' (a retry of a detach that began while it was not in use)' : ''}`, known);
        }
      }
      if (rpc === 'NodeStageVolume' || rpc === 'NodePublishVolume') {
        const path = String((rpc === 'NodeStageVolume' ? req.staging_target_path : req.target_path) ?? '');
        calls.set(`${st.rpc.from}#${st.rpc.requestId}`, { rpc, node: st.host, handle, path });
        (rpc === 'NodeStageVolume' ? stage : publish).set(pathKey(st.host, handle, path), 'pending');
      }
      // from the moment it is asked to undo a mount, the path no longer counts as mounted
      if (rpc === 'NodeUnpublishVolume') publish.set(pathKey(st.host, handle, String(req.target_path ?? '')), 'unpublished');
      if (rpc === 'NodeUnstageVolume') stage.set(pathKey(st.host, handle, String(req.staging_target_path ?? '')), 'unstaged');
    }
    if (st.kind === 'rpc-reply' && st.rpc) {
      // the plugin answers the cluster-wide request id "<caller>#<caller's request id>"
      const c = calls.get(st.rpc.requestId);
      if (c) {
        calls.delete(st.rpc.requestId);
        const table = c.rpc === 'NodeStageVolume' ? stage : publish;
        const key = pathKey(c.node, c.handle, c.path);
        // an answer the caller no longer waited for changes nothing for it: its own deadline made the call uncertain
        if (table.get(key) === 'pending') table.set(key, st.rpc.late ? 'uncertain' : st.rpc.code === 'OK' ? 'ok' : 'failed');
      }
    }
    if ((st.msg === 'kubelet.setUpSucceeded' || st.msg === 'kubelet.mountDeviceSucceeded') && st.args) {
      const pvName = String(st.args.volume ?? '');
      const pv = objects.get(objectKey('PersistentVolume', undefined, pvName));
      const handle = pv?.spec?.csi?.volumeHandle;
      if (handle) {
        const table = st.msg === 'kubelet.setUpSucceeded' ? publish : stage;
        const podUid = String(st.args.podUid ?? '');
        for (const [key, state] of table) {
          const [node, h, path] = key.split('|') as [string, string, string];
          if (node !== st.host || h !== handle || state === 'ok') continue;
          if (st.msg === 'kubelet.setUpSucceeded' && !path.includes(`/pods/${podUid}/`)) continue;
          fail(st, 5, `the kubelet reports ${st.msg === 'kubelet.setUpSucceeded' ? 'MountVolume.SetUp' : 'MountVolume.MountDevice'} of ${pvName} succeeded on ${node} while the node plugin has not answered OK (${state})`);
        }
      }
    }
    for (const ch of changes) {
      if (ch.kind === 'Pod' && ch.after?.status?.phase === 'Running' && ch.before?.status?.phase !== 'Running') {
        const pod = ch.after;
        const node = pod.spec?.nodeName as string;
        for (const v of (pod.spec?.volumes ?? []) as Array<{ persistentVolumeClaim?: { claimName: string } }>) {
          const claim = v.persistentVolumeClaim?.claimName;
          if (!claim) continue;
          const pvName = objects.get(objectKey('PersistentVolumeClaim', pod.metadata.namespace, claim))?.spec?.volumeName;
          const pv = pvName ? objects.get(objectKey('PersistentVolume', undefined, pvName)) : undefined;
          if (!pv?.spec?.csi) continue;
          const published = [...publish].some(([key, state]) => {
            const [n, h, path] = key.split('|') as [string, string, string];
            return state === 'ok' && n === node && h === pv.spec.csi.volumeHandle && targetPod(path) === pod.metadata.uid;
          });
          if (!published) fail(st, 5, `pod ${pod.metadata.namespace}/${pod.metadata.name} runs on ${node} before NodePublishVolume of ${pvName} succeeded for it`);
        }
      }
      if (ch.kind === 'PersistentVolume' && ch.before && !ch.after) {
        const attached = byKind('VolumeAttachment').filter((va) => va.status?.attached && va.spec?.source?.persistentVolumeName === ch.name && csiAttached(va));
        if (attached.length) fail(st, 6, `PersistentVolume ${ch.name} is deleted while VolumeAttachment ${attached.map((v) => v.metadata.name).join(', ')} of it is attached (to ${attached.map((v) => v.spec.nodeName).join(', ')})`);
      }
      if (ch.kind !== 'VolumeAttachment' || !ch.after) continue;
      const va = ch.after;
      if (hasFinalizer(va)) hadFinalizer.add(va.metadata.name);
      else if (va.status?.attached && !va.metadata.deletionTimestamp && csiAttached(va)) {
        fail(st, 4, `VolumeAttachment ${va.metadata.name} is attached without the external-attacher finalizer`);
      }
      const pvName = va.spec?.source?.persistentVolumeName;
      const pv = pvName ? objects.get(objectKey('PersistentVolume', undefined, pvName)) : undefined;
      if (pv && (pv.spec?.accessModes ?? []).some((m: string) => SINGLE_NODE.includes(m)) && !(pv.spec?.accessModes ?? []).some((m: string) => !SINGLE_NODE.includes(m))) {
        const attached = byKind('VolumeAttachment').filter((v) => v.status?.attached && v.spec?.source?.persistentVolumeName === pvName);
        const nodes = new Set(attached.map((v) => v.spec.nodeName));
        if (nodes.size > 1) {
          // a detach that failed leaves the old attachment uncertain, and the attach/detach controller's
          // Multi-Attach check counts only confirmed attachments (GetNodesForAttachedVolume): it attaches to
          // the new node while the old VolumeAttachment, being deleted, still says attached
          const detaching = attached.filter((v) => v.metadata.deletionTimestamp).map((v) => v.spec.nodeName);
          fail(st, 3, `${(pv.spec.accessModes as string[]).join(',')} volume ${pvName} attached to ${[...nodes].join(' and ')}${detaching.length ? ` (its detach from ${detaching.join(', ')} is failing)` : ''}`,
            detaching.length ? 'kubernetes/kubernetes#124334' : undefined);
        }
      }
    }
  }
  return out;
}
