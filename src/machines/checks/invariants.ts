/**
 * Safety properties every trace must keep, checked step by step against the API objects as the steps
 * changed them. Other teams can run them on their own scenarios.
 *  1. NodeStageVolume / NodePublishVolume only after the VolumeAttachment of that volume and node is
 *     attached (for drivers that need attaching).
 *  2. ControllerUnpublishVolume never while the volume is in that node's status.volumesInUse, except
 *     the attach/detach controller's force detach after maxWaitForUnmountDuration.
 *  3. A ReadWriteOnce volume is never attached to two nodes.
 *  4. An attached VolumeAttachment carries the external-attacher finalizer.
 */
import type { Trace, TraceStep } from '../cluster/trace.ts';
import { objectKey, type K8sObject } from '../shared/k8s.ts';
import { uniqueVolumeName, volumeAttachmentName } from '../shared/names.ts';

export interface Violation { step: number; t: number; rule: 1 | 2 | 3 | 4; message: string }

export function checkInvariants(trace: Trace): Violation[] {
  const objects = new Map<string, K8sObject>();
  const out: Violation[] = [];
  const forced = new Set<string>(); // "<unique>@<node>" force-detached
  const byKind = (kind: string): K8sObject[] => [...objects.values()].filter((o) => o.kind === kind);
  const pvByHandle = (h: string) => byKind('PersistentVolume').find((p) => p.spec?.csi?.volumeHandle === h);
  const attachRequired = (driver: string) => byKind('CSIDriver').find((d) => d.metadata.name === driver)?.spec?.attachRequired !== false;
  const fail = (st: TraceStep, rule: Violation['rule'], message: string) => out.push({ step: st.i, t: st.t, rule, message });

  for (const st of trace.steps) {
    for (const ch of st.objects ?? []) {
      const k = objectKey(ch.kind, ch.namespace, ch.name);
      if (ch.after) objects.set(k, ch.after); else objects.delete(k);
    }
    if (st.log && /force detach/i.test(st.log)) {
      for (const o of byKind('PersistentVolume')) {
        const u = o.spec?.csi ? uniqueVolumeName(o.spec.csi.driver, o.spec.csi.volumeHandle) : '';
        if (u && st.log.includes(o.metadata.name)) for (const n of byKind('Node')) if (st.log.includes(n.metadata.name)) forced.add(`${u}@${n.metadata.name}`);
      }
    }
    if (st.kind === 'rpc' && st.rpc) {
      const rpc = st.rpc.method.split('/').pop();
      const req = (st.rpc.request ?? {}) as Record<string, unknown>;
      const handle = String(req.volume_id ?? '');
      const pv = pvByHandle(handle);
      if ((rpc === 'NodeStageVolume' || rpc === 'NodePublishVolume') && pv && attachRequired(pv.spec.csi.driver)) {
        const va = objects.get(objectKey('VolumeAttachment', undefined, volumeAttachmentName(handle, pv.spec.csi.driver, st.host)));
        if (!va?.status?.attached) fail(st, 1, `${rpc} of ${handle} on ${st.host} before its VolumeAttachment is attached`);
      }
      if (rpc === 'ControllerUnpublishVolume' && pv) {
        const nodeId = String(req.node_id ?? '');
        const csiNode = byKind('CSINode').find((c) => (c.spec?.drivers ?? []).some((d: { nodeID: string }) => d.nodeID === nodeId));
        const node = csiNode ? objects.get(objectKey('Node', undefined, csiNode.metadata.name)) : undefined;
        const unique = uniqueVolumeName(pv.spec.csi.driver, handle);
        if (node && (node.status?.volumesInUse ?? []).includes(unique) && !forced.has(`${unique}@${node.metadata.name}`)) {
          fail(st, 2, `ControllerUnpublishVolume of ${handle} while node ${node.metadata.name} reports it in volumesInUse`);
        }
      }
    }
    for (const ch of st.objects ?? []) {
      if (ch.kind !== 'VolumeAttachment' || !ch.after) continue;
      const va = ch.after;
      if (va.status?.attached && !(va.metadata.finalizers ?? []).some((f) => f.startsWith('external-attacher/'))) {
        fail(st, 4, `VolumeAttachment ${va.metadata.name} is attached without the external-attacher finalizer`);
      }
      const pvName = va.spec?.source?.persistentVolumeName;
      const pv = pvName ? objects.get(objectKey('PersistentVolume', undefined, pvName)) : undefined;
      if (pv && (pv.spec?.accessModes ?? []).includes('ReadWriteOnce')) {
        const nodes = byKind('VolumeAttachment').filter((v) => v.status?.attached && v.spec?.source?.persistentVolumeName === pvName).map((v) => v.spec.nodeName);
        if (new Set(nodes).size > 1) fail(st, 3, `ReadWriteOnce volume ${pvName} attached to ${[...new Set(nodes)].join(' and ')}`);
      }
    }
  }
  return out;
}

