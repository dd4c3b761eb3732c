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
import type { LogArgs, Stage } from '../shared/messages.ts';
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
/** A line to print; `stage` where the message's own stage is not this call's (the depth check of a restore) */
export interface CephLog { msg: string; args: LogArgs; stage?: Stage }
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

/**
 * ReserveName (journal/voljournal.go), the same for volumes and snapshots: the UUID's own object, the
 * directory key for the request name, the object's names, then the id composed from the UUID (which
 * rbd_journal.go logs as "generated Volume ID" for both, from reserveVol and from reserveSnap). Writes `s` and `logs`.
 */
function reserveName(
  cfg: CephBackendConfig, s: CephState, logs: CephLog[], prefix: string,
  r: { dir: string; key: string; uuid: string; object: string; imageName: string; requestName: string }, names: Record<string, string>,
): { object: string; id: string } {
  s.omaps[r.object] = {};
  s.omaps[r.dir] = { ...(s.omaps[r.dir] ?? {}), [r.key]: r.uuid };
  logs.push(omapLine(cfg, prefix, 'cephSetOmapKeys', r.dir, { [r.key]: r.uuid }));
  s.omaps[r.object] = { ...names };
  logs.push(omapLine(cfg, prefix, 'cephSetOmapKeys', r.object, names));
  const id = composeCSIID(cfg, r.uuid);
  const msg = r.object.startsWith('csi.snap.') ? 'cephGeneratedSnapshotId' : 'cephGeneratedVolumeId';
  logs.push({ msg: P + msg, args: { prefix, volumeId: id, imageName: r.imageName, requestName: r.requestName } });
  return { object: r.object, id };
}

/** CreateVolume in ceph-csi order: look up the reservation, reserve, create or clone, store the image id. */
export function cephCreateVolume(
  cfg: CephBackendConfig, state: CephState, prefix: string, requestName: string, sizeBytes: number,
  source: { volumeId?: string; snapshotImage?: string } | undefined, rng: Rng, owner?: string,
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
  // a restore reads the snapshot's journal object (genSnapFromSnapID), whose csi.source is the image it was taken of
  const snapObj = source?.snapshotImage ? `csi.snap.${source.snapshotImage.slice(-36)}` : undefined;
  if (snapObj) logs.push(omapLine(cfg, prefix, 'cephGotOmapValues', snapObj, read(s, snapObj)));
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
  // flattenParentImage: the snapshot's source image against the limits less one (7 and 3)
  if (snapObj) {
    const srcImage = s.omaps[snapObj]?.['csi.source'];
    if (srcImage) logs.push({ msg: P + 'cephCloneDepth', args: { prefix, pool: cfg.pool, imageName: srcImage, depth: depthOf(s, srcImage), soft: SOFT_DEPTH - 1, hard: HARD_DEPTH - 1 } });
  }
  const uuid = rng.uuid();
  const imageName = `csi-vol-${uuid}`;
  const { object: volObj, id: volumeId } = reserveName(cfg, s, logs, prefix, { dir, key, uuid, object: `csi.volume.${uuid}`, imageName, requestName },
    // the claim's namespace, when csi-provisioner passes it (--extra-create-metadata): rbdVol.Owner, k8s.GetOwner
    // (controllerserver.go:200), which ReserveName writes as csi.volume.owner (voljournal.go:184, :653-656)
    { 'csi.imagename': imageName, 'csi.volname': requestName, ...(owner ? { 'csi.volume.owner': owner } : {}) });
  const features = `[${cfg.imageFeatures.join(' ')}]`;
  const mk = (name: string, parent?: string): CephImage => ({ name, id: hexId(rng, 14), sizeBytes, snapshots: [], features: [...cfg.imageFeatures], ...(parent ? { parent } : {}) });
  // (a clone's snapshots are built without monitors, clone.go doSnapClone: their lines say "using mon " and nothing)
  const base = { prefix, pool: cfg.pool, monitors: cfg.monitors, snapMonitors: '', features };
  if (source?.snapshotImage && parentImage) {
    // a restore: ceph-csi's CreateSnapshot left the snapshot as its own image csi-snap-<uuid> with a
    // snapshot of the same name, and the new image is cloned from that in one step, not flattened
    // (rbd/controllerserver.go createVolumeFromSnapshot, cloneRbdImageFromSnapshot). Left out: the flatten
    // a deep chain triggers (none below 3 clones), and the node's flatten before mapping on kernels < 5.1.
    // createVolumeFromSnapshot reads the snapshot's journal object again before it clones
    if (snapObj) logs.push(omapLine(cfg, prefix, 'cephGotOmapValues', snapObj, read(s, snapObj)));
    s.images[imageName] = mk(imageName, `${parentImage}@${parentImage}`);
    logs.push({ msg: P + 'cephClone', args: { ...base, parentName: parentImage, snapName: parentImage, cloneName: imageName } });
    logs.push({ msg: P + 'cephVolumeFromSnapshot', args: { prefix, pool: cfg.pool, imageName, snapImage: parentImage } });
    // createBackingImage's snapshot case does not return: it falls through to the line a new image gets
    // (v3.12.2 controllerserver.go:760-784); the clone case returns before it
    logs.push({ msg: P + 'cephCreatedVolume', args: { prefix, pool: cfg.pool, requestName, imageName } });
  } else if (parentImage) {
    // clone.go: snapshot the parent as <new>-temp, clone <new>-temp from it, drop that snapshot;
    // snapshot <new>-temp as <new>, clone the final image from it, drop that snapshot.
    const temp = `${imageName}-temp`;
    s.images[parentImage]!.snapshots.push(temp);
    logs.push({ msg: P + 'cephSnapCreate', args: { ...base, imageName: parentImage, snapName: temp } });
    s.images[temp] = mk(temp, `${parentImage}@${temp}`);
    // the temporary clone gets layering and deep-flatten whatever the class asks for (clone.go generateTempClone)
    logs.push({ msg: P + 'cephClone', args: { ...base, parentName: parentImage, snapName: temp, cloneName: temp, features: '[layering deep-flatten]' } });
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
    logs.push({ msg: P + 'cephCreatedVolume', args: { prefix, pool: cfg.pool, requestName, imageName } });
  }
  s.omaps[volObj] = { ...s.omaps[volObj], 'csi.imageid': s.images[imageName]!.id };
  logs.push(omapLine(cfg, prefix, 'cephSetOmapKeys', volObj, { 'csi.imageid': s.images[imageName]!.id }));
  return { ok: true, state: s, volumeId, imageName, sizeBytes, logs };
}

export const snapDirectory = (cfg: CephBackendConfig): string => `csi.snaps.${cfg.instanceID}`;
/** rbd_util.go flatten limits, the flags' defaults: --rbdhardmaxclonedepth 8, --rbdsoftmaxclonedepth 4 */
const HARD_DEPTH = 8, SOFT_DEPTH = 4;

/** How many clones deep an image is (getCloneDepth): 0 for an image with no parent. */
function depthOf(s: CephState, name: string): number {
  let d = 0;
  for (let p = s.images[name]?.parent; p; p = s.images[p.split('@')[0]!]?.parent) d++;
  return d;
}

export type CephSnapshotResult =
  | { ok: true; state: CephState; snapshotId: string; imageName: string; sizeBytes: number; logs: CephLog[] }
  | { ok: false; code: 'NOT_FOUND' | 'INVALID_ARGUMENT'; message: string; logs: CephLog[] };

/**
 * CreateSnapshot in ceph-csi order (controllerserver.go CreateSnapshot, doSnapshotClone; snapshot.go
 * createRBDClone): read the source volume's journal, look the request up in the snapshot directory
 * (whose first read errors when no snapshot was ever taken), reserve csi.snap.<uuid>, then snapshot the
 * source, clone the snapshot into its own image csi-snap-<uuid>, drop the source's snapshot, snapshot
 * the clone under the same name, store the clone's image id and check its clone depth. The snapshot is
 * that clone: it no longer depends on the source volume's later writes or on its deletion.
 * The lines are ceph-csi v3.12.2's (the driver's vendorVersion); the reservation's omap keys and the
 * depth check were read at 52fcb7b0 and are the same at that tag.
 */
export function cephCreateSnapshot(cfg: CephBackendConfig, state: CephState, prefix: string, requestName: string, sourceVolumeId: string, rng: Rng): CephSnapshotResult {
  const s = clone(state);
  const logs: CephLog[] = [];
  const srcObj = `csi.volume.${uuidOf(sourceVolumeId)}`;
  const src = read(s, srcObj);
  logs.push(omapLine(cfg, prefix, 'cephGotOmapValues', srcObj, src));
  const parent = src['csi.imagename'];
  if (!parent || !s.images[parent]) return { ok: false, code: 'NOT_FOUND', message: `source Volume ID ${sourceVolumeId} not found`, logs };
  if (!s.images[parent]!.features.includes('layering')) return { ok: false, code: 'INVALID_ARGUMENT', message: `volume(${sourceVolumeId}) has not snapshot feature(layering)`, logs };
  const dir = snapDirectory(cfg);
  const key = `csi.snap.${requestName}`;
  if (!s.omaps[dir]) logs.push({ msg: P + 'cephOmapNotFound', args: { prefix, pool: cfg.pool, namespace: '', name: dir } });
  else {
    const found = read(s, dir, [key]);
    logs.push(omapLine(cfg, prefix, 'cephGotOmapValues', dir, found));
    const existing = found[key];
    if (existing && s.omaps[`csi.snap.${existing}`]?.['csi.imageid']) {
      // a repeat of a finished request (checkSnapCloneExists): the same snapshot again
      const imageName = s.omaps[`csi.snap.${existing}`]!['csi.imagename']!;
      return { ok: true, state: s, snapshotId: composeCSIID(cfg, existing), imageName, sizeBytes: s.images[imageName]?.sizeBytes ?? s.images[parent]!.sizeBytes, logs };
    }
  }
  const uuid = rng.uuid();
  const imageName = `csi-snap-${uuid}`;
  const { object: snapObj, id: snapshotId } = reserveName(cfg, s, logs, prefix, { dir, key, uuid, object: `csi.snap.${uuid}`, imageName, requestName },
    // (the snapshot's reservation carries its source volume's owner, read back from that volume's journal: reserveSnap,
    // rbd_journal.go:403-405)
    { 'csi.imagename': imageName, 'csi.snapname': requestName, 'csi.source': parent, ...(src['csi.volume.owner'] ? { 'csi.volume.owner': src['csi.volume.owner'] } : {}) });
  // (CreateSnapshot's snapshot carries the cluster's monitors, genSnapFromOptions)
  const base = { prefix, pool: cfg.pool, monitors: cfg.monitors, snapMonitors: cfg.monitors };
  const img = s.images[parent]!;
  s.images[parent]!.snapshots.push(imageName);
  logs.push({ msg: P + 'cephSnapCreate', args: { ...base, imageName: parent, snapName: imageName } });
  // doSnapshotClone: the clone gets layering and deep-flatten
  s.images[imageName] = { name: imageName, id: hexId(rng, 14), sizeBytes: img.sizeBytes, parent: `${parent}@${imageName}`, snapshots: [], features: ['layering', 'deep-flatten'] };
  logs.push({ msg: P + 'cephClone', args: { ...base, parentName: parent, snapName: imageName, cloneName: imageName, features: '[layering deep-flatten]' } });
  // with a v2 clone depending on it, Ceph keeps the removed snapshot in the parent's trash namespace
  s.images[parent]!.snapshots = s.images[parent]!.snapshots.filter((x) => x !== imageName);
  logs.push({ msg: P + 'cephSnapRm', args: { ...base, imageName: parent, snapName: imageName } });
  s.images[imageName]!.snapshots.push(imageName);
  logs.push({ msg: P + 'cephSnapCreate', args: { ...base, imageName, snapName: imageName } });
  s.omaps[snapObj] = { ...s.omaps[snapObj], 'csi.imageid': s.images[imageName]!.id };
  logs.push(omapLine(cfg, prefix, 'cephSetOmapKeys', snapObj, { 'csi.imageid': s.images[imageName]!.id }));
  logs.push({ msg: P + 'cephCloneDepth', args: { prefix, pool: cfg.pool, imageName, depth: depthOf(s, imageName), soft: SOFT_DEPTH, hard: HARD_DEPTH } });
  return { ok: true, state: s, snapshotId, imageName, sizeBytes: img.sizeBytes, logs };
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
  // rbdImage.Delete: the line first, then the image to the trash and a purge task for the ceph manager
  // (trashRemoveImage); an image that does not exist stops it at getImageID, and DeleteTempImage's
  // ensureImageCleanup then finds no such image in the trash either, silently
  const deleteImage = (name: string): void => {
    logs.push({ msg: P + 'cephRbdDelete', args: { prefix, imageName: name, monitors: cfg.monitors, pool: cfg.pool } });
    const img = s.images[name];
    if (!img) return;
    delete s.images[name];
    s.trash[img.id] = { name, removeTaskQueued: true };
    logs.push({ msg: P + 'cephTrashRemoveTask', args: { prefix, pool: cfg.pool, imageName: name, imageId: img.id } });
    logs.push({ msg: P + 'cephTrashRemoveTaskAdded', args: { prefix, pool: cfg.pool, imageName: name, imageId: img.id } });
  };
  // DeleteTempImage: the "-temp" clone a clone of a volume made, if it is still there
  deleteImage(`${imageName}-temp`);
  logs.push({ msg: P + 'cephDeletingImage', args: { prefix, imageName } });
  if (s.images[imageName]) deleteImage(imageName);
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
