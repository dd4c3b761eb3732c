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
import { indexAdd, indexDelete, type AdcContext, type PvInfo } from './types.ts';

const podKey = (p: K8sObject): string => `${p.metadata.namespace}/${p.metadata.name}`;

export function pvInfo(pv: K8sObject): PvInfo | undefined {
  const csi = pv.spec?.csi;
  if (!csi?.driver || !csi.volumeHandle) return undefined;
  const modes: string[] = pv.spec?.accessModes ?? [];
  // util.IsMultiAttachAllowed: ReadWriteOnce / ReadWriteOncePod volumes may not be multi-attached
  const multi = modes.length > 0 && !modes.includes('ReadWriteOnce') && !modes.includes('ReadWriteOncePod');
  return { name: pv.metadata.name, driver: csi.driver, handle: csi.volumeHandle, multiAttachAllowed: multi, object: pv };
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
    // csi_plugin.go skipAttach: only a CSIDriver object with attachRequired false skips attaching;
    // without one the volume is attachable
    if (!pv || ctx.attachRequired[pv.driver] === false) continue;
    out.push({ volumeName: uniqueVolumeName(pv.driver, pv.handle), specName: pv.name, multiAttachAllowed: pv.multiAttachAllowed });
  }
  return out;
}

const claimKeys = (p: K8sObject): string[] =>
  ((p.spec?.volumes ?? []) as Array<{ persistentVolumeClaim?: { claimName: string } }>)
    .flatMap((v) => (v.persistentVolumeClaim?.claimName ? [`${p.metadata.namespace}/${v.persistentVolumeClaim.claimName}`] : []));

/**
 * ProcessPodVolumes: add (or remove) the pod's volumes in the DSW. For scale the pod cache, its
 * indexes and the DSW are updated in place (the actor owns its context).
 */
export function processPod(ctx: AdcContext, p: K8sObject, deleted: boolean): AdcContext {
  const key = podKey(p);
  const old = ctx.pods[key];
  const ix = ctx.index;
  if (old) {
    for (const c of claimKeys(old)) indexDelete(ix.podsByClaim, c, key);
    if (old.spec?.nodeName) indexDelete(ix.podsByNode, old.spec.nodeName, key);
  }
  if (deleted) {
    delete ctx.pods[key];
    ix.podOrder.delete(key);
  } else {
    if (!old) ix.podOrder.set(key, ++ix.podSeq);
    ctx.pods[key] = p;
    for (const c of claimKeys(p)) indexAdd(ix.podsByClaim, c, key);
    if (p.spec?.nodeName) indexAdd(ix.podsByNode, p.spec.nodeName, key);
  }
  let d = ctx.dsw;
  const uid = p.metadata.uid ?? key;
  const node = p.spec?.nodeName;
  const wanted = !deleted && node && !isPodTerminated(p) ? podVolumes(ctx, p) : [];
  const keep = new Set(wanted.map((v) => `${v.volumeName}|${node}`));
  // remove what the previous version of the pod added and this one no longer wants (node or volumes
  // may have changed); entries it still wants stay, with their Multi-Attach-reported flag
  for (const prev of [old, p]) {
    const prevNode = prev?.spec?.nodeName;
    if (!prev || !prevNode) continue;
    for (const v of podVolumes(ctx, prev)) if (!keep.has(`${v.volumeName}|${prevNode}`)) d = dsw.deletePod(d, uid, v.volumeName, prevNode);
  }
  for (const v of wanted) d = dsw.addPod(d, { namespace: p.metadata.namespace ?? 'default', name: p.metadata.name, uid }, v, node!);
  return ctx.dsw === d ? ctx : { ...ctx, dsw: d };
}

/** Re-run the populator for every known pod (a CSIDriver changed, the periodic re-list). */
export function repopulate(ctx: AdcContext): AdcContext {
  let c = ctx;
  for (const p of Object.values(ctx.pods)) c = processPod(c, p, false);
  return c;
}

/** Re-run the populator for some pods, in the order of the pod cache. */
function reprocessPods(ctx: AdcContext, keys: Iterable<string>): AdcContext {
  const order = ctx.index.podOrder;
  const sorted = [...keys].filter((k) => order.has(k)).sort((a, b) => order.get(a)! - order.get(b)!);
  let c = ctx;
  for (const k of sorted) c = processPod(c, ctx.pods[k]!, false);
  return c;
}

/** pvcAdd/pvcUpdate/pvcDelete: the claim cache, then the pods that use the claim (syncPVCByKey). */
export function processPvc(ctx: AdcContext, o: K8sObject, deleted: boolean): AdcContext {
  const key = `${o.metadata.namespace}/${o.metadata.name}`;
  const ix = ctx.index;
  const oldVolume: string | undefined = ctx.pvcs[key]?.spec?.volumeName;
  if (oldVolume) indexDelete(ix.claimsByVolume, oldVolume, key);
  // for scale: the claim cache is updated in place (the actor owns its context)
  if (deleted) delete ctx.pvcs[key];
  else {
    ctx.pvcs[key] = o;
    const volume: string | undefined = o.spec?.volumeName;
    if (volume) indexAdd(ix.claimsByVolume, volume, key);
  }
  return reprocessPods(ctx, ix.podsByClaim.get(key) ?? []);
}

/** A PV appeared, changed or went: the pods of the claims bound to it. */
export function processPv(ctx: AdcContext, o: K8sObject, deleted: boolean): AdcContext {
  const name = o.metadata.name;
  const ix = ctx.index;
  const old = ctx.pvs[name];
  const info = deleted ? undefined : pvInfo(o);
  const oldUnique = old && uniqueVolumeName(old.driver, old.handle);
  const newUnique = info && uniqueVolumeName(info.driver, info.handle);
  // the index keeps the PVs of a unique name in the order of the PV cache (a PV keeps its place when updated)
  if (oldUnique !== newUnique) {
    if (oldUnique) indexDelete(ix.pvsByUniqueName, oldUnique, name);
    if (newUnique) indexAdd(ix.pvsByUniqueName, newUnique, name);
  }
  // for scale: the PV cache is updated in place (the actor owns its context)
  if (!info) delete ctx.pvs[name];
  else ctx.pvs[name] = info;
  const pods: string[] = [];
  for (const claim of ix.claimsByVolume.get(name) ?? []) pods.push(...(ix.podsByClaim.get(claim) ?? []));
  return reprocessPods(ctx, new Set(pods));
}

/** nodeAdd/nodeUpdate: managed-node bookkeeping, volumesInUse -> mountedByNode, and (first sight) ASW from volumesAttached. */
export function processNode(ctx: AdcContext, n: K8sObject, deleted: boolean): AdcContext {
  const name = n.metadata.name;
  const first = !ctx.nodes[name];
  // for scale: the node cache, `reported`, the DSW and the ASW are updated in place (the actor owns its context)
  if (deleted) delete ctx.nodes[name];
  else ctx.nodes[name] = n;
  let d = ctx.dsw;
  let a = ctx.asw;
  const managed = n.metadata.annotations?.[ANN_CONTROLLER_MANAGED_ATTACH] === 'true';
  if (deleted || !managed) d = dsw.deleteNode(d, name);
  else d = dsw.addNode(d, name);
  if (!deleted && first) {
    // populateActualStateOfWorld: volumes the node reports attached are attached
    for (const va of (n.status?.volumesAttached ?? []) as Array<{ name: string }>) {
      const pvName = ctx.index.pvsByUniqueName.get(va.name)?.values().next().value;
      const pv = pvName === undefined ? undefined : ctx.pvs[pvName];
      a = asw.markVolumeAsAttached(a, { volumeName: va.name, specName: pv?.name ?? va.name, multiAttachAllowed: pv?.multiAttachAllowed ?? false }, name);
    }
  }
  // processVolumesInUse: every volume attached to the node is mounted iff the node lists it in use
  const inUse = new Set<string>(deleted ? [] : (n.status?.volumesInUse ?? []));
  for (const v of asw.getVolumesAttachedToNode(a, name)) a = asw.setVolumeMountedByNode(a, v, name, inUse.has(v));
  if (first && !deleted) ctx.reported[name] = JSON.stringify(((n.status?.volumesAttached ?? []) as Array<{ name: string }>).map((x) => x.name).sort());
  const next = d === ctx.dsw && a === ctx.asw ? ctx : { ...ctx, dsw: d, asw: a };
  // a newly managed node: its pods can now be added (only they can resolve differently)
  return first && managed && !deleted ? reprocessPods(next, ctx.index.podsByNode.get(name) ?? []) : next;
}

