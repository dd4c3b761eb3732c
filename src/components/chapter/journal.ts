/**
 * The ceph backend track of a flow model (tables.ceph: the RADOS omap journal, the RBD images, the
 * trash) as a sequence of changes, for the ceph-rbd chapter's static journal view. Build time.
 */
import type { FlowModel, FlowStep } from '../../machines/view/flow.ts';

export interface CephImage {
  name: string;
  id: string;
  sizeBytes?: number;
  snapshots?: string[];
  features?: string[];
  parent?: string;
}

export interface CephTrashEntry {
  id: string;
  name: string;
  removeTaskQueued?: boolean;
}

export interface CephTables {
  pool: string;
  omaps: Array<{ object: string; values: Record<string, string> }>;
  images: CephImage[];
  trash: CephTrashEntry[];
}

export type Change = 'added' | 'changed' | 'removed' | 'same';

export interface OmapRow {
  object: string;
  key: string;
  value: string;
  change: Change;
  /** the value before, when changed */
  before?: string;
}

export interface RowOf<T> {
  item: T;
  change: Change;
}

export interface JournalState {
  /** the step whose world version this is (0: as the story starts) */
  step: number;
  tables: CephTables;
  omap: OmapRow[];
  /** omap objects that existed before and are gone now */
  removedObjects: string[];
  images: Array<RowOf<CephImage>>;
  trash: Array<RowOf<CephTrashEntry>>;
  /** the journal and image log lines this change came with */
  logSteps: FlowStep[];
}

const isCeph = (t: Record<string, unknown>): t is { ceph: CephTables } =>
  typeof t.ceph === 'object' && t.ceph !== null && Array.isArray((t.ceph as CephTables).omaps);

/** ceph-csi lines that touch the journal or the images (not the gRPC interceptor's). */
export const isJournalLine = (s: FlowStep): boolean => !!s.msg && /^csi(Controller|Node)Plugin\.ceph/.test(s.msg) && !/Grpc/.test(s.msg);

function diffRows<T>(before: T[], after: T[], key: (x: T) => string): Array<RowOf<T>> {
  const prev = new Map(before.map((x) => [key(x), JSON.stringify(x)]));
  const next = new Set(after.map(key));
  const rows: Array<RowOf<T>> = after.map((item) => {
    const p = prev.get(key(item));
    return { item, change: p === undefined ? 'added' : p === JSON.stringify(item) ? 'same' : 'changed' };
  });
  for (const x of before) if (!next.has(key(x))) rows.push({ item: x, change: 'removed' });
  return rows;
}

/**
 * Every version of the ceph track with what changed against the one before (the first is compared
 * with an empty backend only if the flow starts empty; otherwise it is the starting point, all 'same').
 */
export function journalStates(model: FlowModel): JournalState[] {
  const track = model.worlds.find((w) => w.versions.some((v) => isCeph(v.tables)));
  if (!track) return [];
  const versions = track.versions.filter((v) => isCeph(v.tables));
  const out: JournalState[] = [];
  let prev: CephTables | undefined;
  versions.forEach((v, vi) => {
    const tables = (v.tables as { ceph: CephTables }).ceph;
    const base: CephTables = prev ?? tables;
    const omap: OmapRow[] = [];
    const before = new Map(base.omaps.map((o) => [o.object, o.values]));
    for (const o of tables.omaps) {
      const old = before.get(o.object);
      for (const [key, value] of Object.entries(o.values)) {
        const was = old?.[key];
        omap.push({ object: o.object, key, value, change: was === undefined ? 'added' : was === value ? 'same' : 'changed', ...(was !== undefined && was !== value ? { before: was } : {}) });
      }
      for (const [key, value] of Object.entries(old ?? {})) if (!(key in o.values)) omap.push({ object: o.object, key, value, change: 'removed' });
    }
    const now = new Set(tables.omaps.map((o) => o.object));
    const removedObjects = base.omaps.filter((o) => !now.has(o.object)).map((o) => o.object);
    for (const o of base.omaps) if (!now.has(o.object)) for (const [key, value] of Object.entries(o.values)) omap.push({ object: o.object, key, value, change: 'removed' });
    const nextStep = versions[vi + 1]?.step ?? Number.POSITIVE_INFINITY;
    const logSteps = model.steps.filter((s) => s.i >= v.step && s.i < nextStep && s.instance === track.instance && isJournalLine(s));
    out.push({
      step: v.step, tables, omap, removedObjects,
      images: diffRows(base.images, tables.images, (x) => x.name),
      trash: diffRows(base.trash, tables.trash, (x) => x.id),
      logSteps,
    });
    prev = tables;
  });
  return out;
}
