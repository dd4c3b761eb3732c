/**
 * Informer handlers and the desired-state populator of the attach/detach controller: pods resolved
 * PVC -> PV into the desiredStateOfWorld, nodes' volumesInUse into mountedByNode, and at start the
 * actualStateOfWorld from each node's status.volumesAttached.
 * upstream: pkg/controller/volume/attachdetach/attach_detach_controller.go (podAdd/podUpdate/podDelete,
 * nodeAdd/nodeUpdate, populateActualStateOfWorld), util/util.go (ProcessPodVolumes, CreateVolumeSpec,
 * DetermineVolumeAction), pkg/volume/util IsPodTerminated.
 */
import type { K8sObject } from '../shared/k8s.ts';
import { ANN_CONTROLLER_MANAGED_ATTACH, uniqueVolumeName } from '../shared/names.ts';
import * as asw from './cache/actualStateOfWorld.ts';
import * as dsw from './cache/desiredStateOfWorld.ts';
import type { AdcContext, PvInfo } from './types.ts';

const podKey = (p: K8sObject): string => `${p.metadata.namespace}/${p.metadata.name}`;

export function pvInfo(pv: K8sObject): PvInfo | undefined {
  const csi = pv.spec?.csi;
  if (!csi?.driver || !csi.volumeHandle) return undefined;
  const modes: string[] = pv.spec?.accessModes ?? [];
  // util.IsMultiAttachAllowed: ReadWriteOnce / ReadWriteOncePod volumes may not be multi-attached
  const multi = modes.length > 0 && !modes.includes('ReadWriteOnce') && !modes.includes('ReadWriteOncePod');
  return { name: pv.metadata.name, driver: csi.driver, handle: csi.volumeHandle, multiAttachAllowed: multi };
}

/** util.IsPodTerminated: phase Succeeded/Failed, or being deleted with no container running. */
export function isPodTerminated(p: K8sObject): boolean {
  const phase = p.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return true;
  const cs: Array<{ state?: { running?: unknown } }> | undefined = p.status?.containerStatuses;
  return !!p.metadata.deletionTimestamp && !!cs && cs.every((c) => !c.state?.running);
}

/** The attachable CSI volumes a pod uses: PVC -> bound PV -> CSI source with attachRequired. */
export function podVolumes(ctx: AdcContext, p: K8sObject): Array<{ volumeName: string; specName: string; multiAttachAllowed: boolean }> {
  const out: Array<{ volumeName: string; specName: string; multiAttachAllowed: boolean }> = [];
  for (const v of (p.spec?.volumes ?? []) as Array<{ persistentVolumeClaim?: { claimName: string } }>) {
    const claim = v.persistentVolumeClaim?.claimName;
    if (!claim) continue;
    const pvc = ctx.pvcs[`${p.metadata.namespace}/${claim}`];
    const pvName: string | undefined = pvc?.spec?.volumeName;
    const pv = pvName ? ctx.pvs[pvName] : undefined;
    if (!pv || !ctx.attachRequired[pv.driver]) continue;
    out.push({ volumeName: uniqueVolumeName(pv.driver, pv.handle), specName: pv.name, multiAttachAllowed: pv.multiAttachAllowed });
  }
  return out;
}

/** ProcessPodVolumes: add (or remove) the pod's volumes in the DSW. */
export function processPod(ctx: AdcContext, p: K8sObject, deleted: boolean): AdcContext {
  const old = ctx.pods[podKey(p)];
  const pods = { ...ctx.pods };
  if (deleted) delete pods[podKey(p)];
  else pods[podKey(p)] = p;
  let d = ctx.dsw;
  const uid = p.metadata.uid ?? podKey(p);
  // remove what the previous version of the pod added (node or volumes may have changed)
  for (const prev of [old, p]) {
    const node = prev?.spec?.nodeName;
    if (!prev || !node) continue;
    for (const v of podVolumes(ctx, prev)) d = dsw.deletePod(d, uid, v.volumeName, node);
  }
  const node = p.spec?.nodeName;
  if (!deleted && node && !isPodTerminated(p)) {
    for (const v of podVolumes(ctx, p)) d = dsw.addPod(d, { namespace: p.metadata.namespace ?? 'default', name: p.metadata.name, uid }, v, node);
  }
  return { ...ctx, pods, dsw: d };
}

/** Re-run the populator for every known pod (a PVC got bound, a PV or CSIDriver appeared). */
export function repopulate(ctx: AdcContext): AdcContext {
  let c = ctx;
  for (const p of Object.values(ctx.pods)) c = processPod(c, p, false);
  return c;
}

/** nodeAdd/nodeUpdate: managed-node bookkeeping, volumesInUse -> mountedByNode, and (first sight) ASW from volumesAttached. */
export function processNode(ctx: AdcContext, n: K8sObject, deleted: boolean): AdcContext {
  const name = n.metadata.name;
  const first = !ctx.nodes[name];
  const nodes = { ...ctx.nodes };
  if (deleted) delete nodes[name];
  else nodes[name] = n;
  let d = ctx.dsw;
  let a = ctx.asw;
  const managed = n.metadata.annotations?.[ANN_CONTROLLER_MANAGED_ATTACH] === 'true';
  if (deleted || !managed) d = dsw.deleteNode(d, name);
  else d = dsw.addNode(d, name);
  if (!deleted && first) {
    // populateActualStateOfWorld: volumes the node reports attached are attached
    for (const va of (n.status?.volumesAttached ?? []) as Array<{ name: string }>) {
      const pv = Object.values(ctx.pvs).find((p) => uniqueVolumeName(p.driver, p.handle) === va.name);
      a = asw.addVolumeNode(a, { volumeName: va.name, specName: pv?.name ?? va.name, multiAttachAllowed: pv?.multiAttachAllowed ?? false }, name, true);
    }
  }
  const inUse = new Set<string>(deleted ? [] : (n.status?.volumesInUse ?? []));
  for (const v of Object.values(a.attachedVolumes)) {
    if (v.nodesAttachedTo[name]) a = asw.setVolumeMountedByNode(a, v.volumeName, name, inUse.has(v.volumeName));
  }
  const reported = { ...ctx.reported };
  if (first && !deleted) reported[name] = JSON.stringify(((n.status?.volumesAttached ?? []) as Array<{ name: string }>).map((x) => x.name).sort());
  const next = { ...ctx, nodes, dsw: d, asw: a, reported };
  return first && managed && !deleted ? repopulate(next) : next;
}

/** The Node's Ready condition is True (nodeutil.IsNodeReady). */
export const isNodeReady = (n: K8sObject | undefined): boolean =>
  !!n && ((n.status?.conditions ?? []) as Array<{ type: string; status: string }>).some((c) => c.type === 'Ready' && c.status === 'True');
