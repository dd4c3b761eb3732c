/**
 * What the rest of the kubelet asks the volume manager: the volumes in use, for node.status.volumesInUse,
 * and the answer once they were reported.
 * upstream: pkg/kubelet/volumemanager/volume_manager.go (GetVolumesInUse, MarkVolumesAsReportedInUse).
 */
import type { Work } from '../kubelet.types.ts';
import { markVolumesAsReportedInUse as markReported } from './cache/desiredStateOfWorld.ts';

/** GetVolumesInUse: attachable volumes in the desired and in the actual state of world, sorted. */
export function getVolumesInUse(w: Work): string[] {
  const s = new Set<string>();
  for (const v of Object.values(w.c.dsw)) if (v.attachable) s.add(v.uniqueName);
  for (const v of Object.values(w.c.asw)) if (v.attachable) s.add(v.uniqueName);
  return [...s].sort();
}

/** MarkVolumesAsReportedInUse */
export const markVolumesAsReportedInUse = (w: Work, reported: string[]): void => markReported(w, reported);
