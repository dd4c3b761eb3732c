/**
 * What the rest of the kubelet asks the volume manager: the volumes in use, for node.status.volumesInUse,
 * and the answer once they were reported.
 * upstream: pkg/kubelet/volumemanager/volume_manager.go (GetVolumesInUse, MarkVolumesAsReportedInUse).
 */
import type { Work } from '../kubelet.types.ts';
import { markVolumesAsReportedInUse as markReported } from './cache/desiredStateOfWorld.ts';

/** GetVolumesInUse: attachable volumes in the desired and in the actual state of world, sorted. */
export function getVolumesInUse(w: Work): readonly string[] {
  // asked after every event (the node status schedule); the tables change only when written (own())
  const m = IN_USE.get(w.c.dsw);
  if (m && m.asw === w.c.asw) return m.value;
  const s = new Set<string>();
  for (const v of Object.values(w.c.dsw)) if (v.attachable) s.add(v.uniqueName);
  for (const v of Object.values(w.c.asw)) if (v.attachable) s.add(v.uniqueName);
  const value = [...s].sort();
  IN_USE.set(w.c.dsw, { asw: w.c.asw, value });
  return value;
}
const IN_USE = new WeakMap<object, { asw: object; value: readonly string[] }>();

/** MarkVolumesAsReportedInUse */
export const markVolumesAsReportedInUse = (w: Work, reported: readonly string[]): void => markReported(w, reported);
