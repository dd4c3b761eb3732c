/**
 * What the rest of the kubelet asks the volume manager: the volumes in use, for node.status.volumesInUse,
 * and the answer once they were reported.
 * upstream: pkg/kubelet/volumemanager/volume_manager.go (GetVolumesInUse, MarkVolumesAsReportedInUse).
 */
import type { Work } from '../kubelet.types.ts';
import { markVolumesAsReportedInUse as markReported } from './cache/desiredStateOfWorld.ts';

/** GetVolumesInUse: attachable volumes in the desired and in the actual state of world, sorted. */
export function getVolumesInUse(w: Work): readonly string[] {
  // asked after every event (the node status schedule); the tables change only when written (own() counts it)
  const ver = w.c.versions;
  const m = IN_USE.get(ver);
  if (m && m.dsw === ver.dsw && m.asw === ver.asw) return m.value;
  // most writes change a volume's entry, not which volumes there are (a mount's state, a pod added): when the attachable
  // names are the ones of this kubelet's last answer, that sorted answer stands (the tables are keyed by unique name)
  const last = LAST_IN_USE.get(w.c.input);
  let value: readonly string[] | undefined;
  if (last) {
    let n = 0;
    let same = true;
    for (const k in w.c.dsw) if (w.c.dsw[k]!.attachable) { n++; if (!last.names.has(k)) { same = false; break; } }
    if (same) for (const k in w.c.asw) if (w.c.asw[k]!.attachable && !w.c.dsw[k]?.attachable) { n++; if (!last.names.has(k)) { same = false; break; } }
    if (same && n === last.value.length) value = last.value;
  }
  if (!value) {
    const s = new Set<string>();
    for (const k in w.c.dsw) if (w.c.dsw[k]!.attachable) s.add(k);
    for (const k in w.c.asw) if (w.c.asw[k]!.attachable) s.add(k);
    value = [...s].sort();
    LAST_IN_USE.set(w.c.input, { names: s, value });
  }
  IN_USE.set(ver, { dsw: ver.dsw, asw: ver.asw, value });
  return value;
}
/** The last answer and the versions of the tables it was read from, by the kubelet process's versions object. */
const IN_USE = new WeakMap<object, { dsw: number; asw: number; value: readonly string[] }>();
/** Each kubelet's last computed answer, by its input (one per kubelet process and its restarts: the names decide, not the process). */
const LAST_IN_USE = new WeakMap<object, { names: ReadonlySet<string>; value: readonly string[] }>();

/** MarkVolumesAsReportedInUse */
export const markVolumesAsReportedInUse = (w: Work, reported: readonly string[]): void => markReported(w, reported);
