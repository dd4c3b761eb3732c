/**
 * ceph-csi's RBD backend as data: the journal in RADOS omap objects, the images, the trash.
 * upstream (ceph/ceph-csi HEAD 52fcb7b0, k8s-facts §7): internal/journal/voljournal.go (csiDirectory
 * `csi.volumes.<instanceID>` {csi.volume.<name>: uuid}; per-volume `csi.volume.<uuid>` {csi.imagename,
 * csi.volname, csi.imageid}); internal/util/volid.go ComposeCSIID; internal/rbd/clone.go (the
 * 7-step -temp clone); rbd_util.go deleteImage (trash, then a ceph-mgr trash-remove task);
 * UndoReservation (per-volume object, then the directory key). Order and wording as in seed 004.
 * Pure functions: each returns the new state and the log lines to print, in order.
 */
import { goMap } from '../shared/goFormat.ts';
import type { LogArgs } from '../shared/messages.ts';
import type { Rng } from '../shared/rng.ts';
import type { CephBackendConfig } from '../drivers/types.ts';

export interface CephImage {
  name: string;
  /** RBD image id (14 hex digits), the `id:` of `rbd info` */
  id: string;
  sizeBytes: number;
  /** "image@snapshot" this image was cloned from */
  parent?: string;
  snapshots: string[];
  features: string[];
}
export interface CephState {
  /** RADOS omap objects in the pool: object name -> key -> value */
  omaps: Record<string, Record<string, string>>;
  images: Record<string, CephImage>;
  /** images moved to the RBD trash, by image id */
  trash: Record<string, { name: string; removeTaskQueued: boolean }>;
}
export interface CephLog { msg: string; args: LogArgs }
export type CephResult =
  | { ok: true; state: CephState; volumeId: string; imageName: string; sizeBytes: number; logs: CephLog[] }
  | { ok: false; code: 'NOT_FOUND' | 'INVALID_ARGUMENT'; message: string; logs: CephLog[] };

const MIB = 1024 * 1024;
const P = 'csiControllerPlugin.';
export const emptyCephState = (): CephState => ({ omaps: {}, images: {}, trash: {} });
export const csiDirectory = (cfg: CephBackendConfig): string => `csi.volumes.${cfg.instanceID}`;

/** util/volid.go ComposeCSIID: 0001-<len(clusterID) as 4 hex>-<clusterID>-<poolID as 16 hex>-<uuid> */
export function composeCSIID(cfg: CephBackendConfig, uuid: string): string {
  return `0001-${cfg.clusterID.length.toString(16).padStart(4, '0')}-${cfg.clusterID}-${cfg.poolId.toString(16).padStart(16, '0')}-${uuid}`;
}
/** the UUID is the last 36 characters of a ceph-csi volume id */
export const uuidOf = (volumeId: string): string => volumeId.slice(-36);

const hexId = (rng: Rng, n: number): string => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join('');

function clone(s: CephState): CephState {
  return {
    omaps: Object.fromEntries(Object.entries(s.omaps).map(([k, v]) => [k, { ...v }])),
    images: Object.fromEntries(Object.entries(s.images).map(([k, v]) => [k, { ...v, snapshots: [...v.snapshots] }])),
    trash: Object.fromEntries(Object.entries(s.trash).map(([k, v]) => [k, { ...v }])),
  };
}

function omapLine(cfg: CephBackendConfig, prefix: string, kind: 'cephGotOmapValues' | 'cephSetOmapKeys', name: string, values: Record<string, string>): CephLog {
  return { msg: P + kind, args: { prefix, pool: cfg.pool, namespace: '', name, values: goMap(values) } };
}

/** Values of one object, or of the asked keys only (GetOMapValues returns the keys that exist). */
function read(s: CephState, name: string, keys?: string[]): Record<string, string> {
  const o = s.omaps[name] ?? {};
  if (!keys) return { ...o };
  return Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]!]));
}

/** CreateVolume in ceph-csi order: look up the reservation, reserve, create or clone, store the image id. */
export function cephCreateVolume(
  cfg: CephBackendConfig, state: CephState, prefix: string, requestName: string, sizeBytes: number,
  source: { volumeId?: string; snapshotImage?: string } | undefined, rng: Rng,
): CephResult {
  const s = clone(state);
  const logs: CephLog[] = [];
  const dir = csiDirectory(cfg);
  let parentImage: string | undefined;
  if (source?.volumeId) {
    // the parent's journal entry, to find its image (seed 004: first line of the clone)
    const parentObj = `csi.volume.${uuidOf(source.volumeId)}`;
    const pv = read(s, parentObj);
    logs.push(omapLine(cfg, prefix, 'cephGotOmapValues', parentObj, pv));
    parentImage = pv['csi.imagename'];
    if (!parentImage || !s.images[parentImage]) return { ok: false, code: 'NOT_FOUND', message: `volume ${source.volumeId} not found`, logs };
  } else if (source?.snapshotImage) {
    parentImage = source.snapshotImage;
    if (!s.images[parentImage]) return { ok: false, code: 'NOT_FOUND', message: `snapshot image ${parentImage} not found`, logs };
  }
  const key = `csi.volume.${requestName}`;
  const found = read(s, dir, [key]);
  logs.push(omapLine(cfg, prefix, 'cephGotOmapValues', dir, found));
  const existing = found[key];
  if (existing) {
    const volObj = `csi.volume.${existing}`;
    const v = read(s, volObj);
    logs.push(omapLine(cfg, prefix, 'cephGotOmapValues', volObj, v));
    const imageName = v['csi.imagename'] ?? `csi-vol-${existing}`;
    const volumeId = composeCSIID(cfg, existing);
    logs.push({ msg: P + 'cephFoundExistingVolume', args: { prefix, volumeId, imageName, requestName } });
    return { ok: true, state: s, volumeId, imageName, sizeBytes: s.images[imageName]?.sizeBytes ?? sizeBytes, logs };
  }
  // reserve: the UUID directory object first, then the csiDirectory key, then its names
  const uuid = rng.uuid();
  const volObj = `csi.volume.${uuid}`;
  const imageName = `csi-vol-${uuid}`;
  s.omaps[volObj] = {};
  s.omaps[dir] = { ...(s.omaps[dir] ?? {}), [key]: uuid };
  logs.push(omapLine(cfg, prefix, 'cephSetOmapKeys', dir, { [key]: uuid }));
  s.omaps[volObj] = { 'csi.imagename': imageName, 'csi.volname': requestName };
  logs.push(omapLine(cfg, prefix, 'cephSetOmapKeys', volObj, { 'csi.imagename': imageName, 'csi.volname': requestName }));
  const volumeId = composeCSIID(cfg, uuid);
  logs.push({ msg: P + 'cephGeneratedVolumeId', args: { prefix, volumeId, imageName, requestName } });
  const features = `[${cfg.imageFeatures.join(' ')}]`;
  const mk = (name: string, parent?: string): CephImage => ({ name, id: hexId(rng, 14), sizeBytes, snapshots: [], features: [...cfg.imageFeatures], ...(parent ? { parent } : {}) });
  const base = { prefix, pool: cfg.pool, monitors: cfg.monitors, features };
  if (source?.snapshotImage && parentImage) {
    // a restore: ceph-csi's CreateSnapshot left the snapshot as its own image csi-snap-<uuid> with a
    // snapshot of the same name, and the new image is cloned from that in one step
    // (rbd/controllerserver.go createVolumeFromSnapshot, cloneRbdImageFromSnapshot). Left out: the
    // snapshot's journal reads and the flatten that deep clone chains trigger (ceph-rbd-snapshot, seed 004).
    s.images[imageName] = mk(imageName, `${parentImage}@${parentImage}`);
    logs.push({ msg: P + 'cephClone', args: { ...base, parentName: parentImage, snapName: parentImage, cloneName: imageName } });
  } else if (parentImage) {
    // clone.go: snapshot the parent as <new>-temp, clone <new>-temp from it, drop that snapshot;
    // snapshot <new>-temp as <new>, clone the final image from it, drop that snapshot.
    const temp = `${imageName}-temp`;
    s.images[parentImage]!.snapshots.push(temp);
    logs.push({ msg: P + 'cephSnapCreate', args: { ...base, imageName: parentImage, snapName: temp } });
    s.images[temp] = mk(temp, `${parentImage}@${temp}`);
    logs.push({ msg: P + 'cephClone', args: { ...base, parentName: parentImage, snapName: temp, cloneName: temp } });
    s.images[parentImage]!.snapshots = s.images[parentImage]!.snapshots.filter((x) => x !== temp);
    logs.push({ msg: P + 'cephSnapRm', args: { ...base, imageName: parentImage, snapName: temp } });
    s.images[temp]!.snapshots.push(imageName);
    logs.push({ msg: P + 'cephSnapCreate', args: { ...base, imageName: temp, snapName: imageName } });
    s.images[imageName] = mk(imageName, `${temp}@${imageName}`);
    logs.push({ msg: P + 'cephClone', args: { ...base, parentName: temp, snapName: imageName, cloneName: imageName } });
    s.images[temp]!.snapshots = s.images[temp]!.snapshots.filter((x) => x !== imageName);
    logs.push({ msg: P + 'cephSnapRm', args: { ...base, imageName: temp, snapName: imageName } });
  } else {
    s.images[imageName] = mk(imageName);
    logs.push({ msg: P + 'cephRbdCreate', args: { ...base, imageName, size: `${Math.ceil(sizeBytes / MIB)}M` } });
    logs.push({ msg: P + 'cephCreatedVolume', args: { prefix, requestName, imageName } });
  }
  s.omaps[volObj] = { ...s.omaps[volObj], 'csi.imageid': s.images[imageName]!.id };
  logs.push(omapLine(cfg, prefix, 'cephSetOmapKeys', volObj, { 'csi.imageid': s.images[imageName]!.id }));
  return { ok: true, state: s, volumeId, imageName, sizeBytes, logs };
}

/** DeleteVolume: journal lookup, the -temp image, the image to the trash with a removal task, UndoReservation. */
export function cephDeleteVolume(cfg: CephBackendConfig, state: CephState, prefix: string, volumeId: string): { state: CephState; logs: CephLog[] } {
  const s = clone(state);
  const logs: CephLog[] = [];
  const volObj = `csi.volume.${uuidOf(volumeId)}`;
  const v = read(s, volObj);
  logs.push(omapLine(cfg, prefix, 'cephGotOmapValues', volObj, v));
  const imageName = v['csi.imagename'];
  const requestName = v['csi.volname'];
  if (!imageName) return { state: s, logs }; // no reservation: already deleted, DeleteVolume is OK
  const toTrash = (name: string): void => {
    const img = s.images[name]!;
    delete s.images[name];
    logs.push({ msg: P + 'cephRbdDelete', args: { prefix, imageName: name, monitors: cfg.monitors, pool: cfg.pool } });
    s.trash[img.id] = { name, removeTaskQueued: true };
    logs.push({ msg: P + 'cephTrashRemoveTask', args: { prefix, imageName: name, imageId: img.id } });
  };
  const temp = `${imageName}-temp`;
  if (s.images[temp]) toTrash(temp);
  else logs.push({ msg: P + 'cephTempImageNotFound', args: { prefix, pool: cfg.pool, imageName: temp } });
  logs.push({ msg: P + 'cephDeletingImage', args: { prefix, imageName } });
  if (s.images[imageName]) toTrash(imageName);
  // UndoReservation: the per-volume object, then the csiDirectory key
  delete s.omaps[volObj];
  const dir = csiDirectory(cfg);
  if (requestName) {
    const d = { ...(s.omaps[dir] ?? {}) };
    delete d[`csi.volume.${requestName}`];
    s.omaps[dir] = d;
    logs.push({ msg: P + 'cephRemovedOmapKeys', args: { prefix, pool: cfg.pool, namespace: '', name: dir, keys: `[csi.volume.${requestName}]` } });
  }
  return { state: s, logs };
}

/** A volume that exists before the scenario starts: journal entries and an image. */
export function cephSeedVolume(cfg: CephBackendConfig, state: CephState, requestName: string, uuid: string, sizeBytes: number, imageId: string): CephState {
  const s = clone(state);
  const imageName = `csi-vol-${uuid}`;
  s.omaps[csiDirectory(cfg)] = { ...(s.omaps[csiDirectory(cfg)] ?? {}), [`csi.volume.${requestName}`]: uuid };
  s.omaps[`csi.volume.${uuid}`] = { 'csi.imageid': imageId, 'csi.imagename': imageName, 'csi.volname': requestName };
  s.images[imageName] = { name: imageName, id: imageId, sizeBytes, snapshots: [], features: [...cfg.imageFeatures] };
  return s;
}

/** What the site shows of the backend: the pool's omap objects, images and trash, sorted. */
export function cephJournalView(context: { ceph?: CephState; driver: { ceph?: CephBackendConfig } }): {
  pool: string; omaps: Array<{ object: string; values: Record<string, string> }>; images: CephImage[];
  trash: Array<{ id: string; name: string; removeTaskQueued: boolean }>;
} {
  const s = context.ceph ?? emptyCephState();
  return {
    pool: context.driver.ceph?.pool ?? 'rbd',
    omaps: Object.keys(s.omaps).sort().map((object) => ({ object, values: { ...s.omaps[object] } })),
    images: Object.keys(s.images).sort().map((k) => ({ ...s.images[k]!, snapshots: [...s.images[k]!.snapshots] })),
    trash: Object.keys(s.trash).sort().map((id) => ({ id, ...s.trash[id]! })),
  };
}
