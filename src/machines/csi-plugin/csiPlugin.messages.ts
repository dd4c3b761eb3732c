/**
 * Log lines of CSI drivers: their gRPC interceptor and, for ceph-csi, the RBD journal and image lines.
 *
 * Drivers do not follow Kubernetes releases, so each line has one format keyed under both profiles.
 * - csi-common style (cbs-csi vendors kubernetes-csi/drivers pkg/csi-common/utils.go logGRPC):
 *   `utils.go:97] GRPC call: %s` (V3), `utils.go:98] GRPC request: %s` (V5, protosanitizer JSON) as in
 *   seed 000; `GRPC error: %v` (Errorf) and `GRPC response: %s` (V5) follow three and five lines
 *   later in that function (utils.go:101/103: inferred from the function's layout, not seen in a log).
 * - ceph-csi v3.12.2, the cephRbd driver's vendorVersion (internal/csi-common/utils.go:240-247 logGRPC, util/log/log.go
 *   prefix `ID: <n> Req-ID: <id> `; every ceph line below was read at that tag, a multi-line call at its first line),
 *   internal/journal/omap.go, internal/rbd/rbd_journal.go, rbd_util.go, controllerserver.go,
 *   nodeserver.go (k8s-facts §7). Wording of the clone and trash lines follows seed 004's real log.
 * - csi-driver-nfs v4.13.4 (pkg/nfs/utils.go:109-121 logGRPC): the same four lines at utils.go:111/112/118
 *   and :116, at -v=2, except for Probe, NodeGetCapabilities and NodeGetVolumeStats (getLogLevel: -v=8);
 *   pkg/nfs/nodeserver.go NodePublishVolume/NodeUnpublishVolume, which the controller also runs for
 *   its own mount of the export (controllerserver.go internalMount/internalUnmount).
 */
import { defineMessages, type LogFormat, type MessageDef, type LogSource } from '../shared/messages.ts';

const both = (f: LogFormat): Partial<Record<'1.20' | '1.30', LogFormat>> => ({ '1.20': f, '1.30': f });

type Side = 'controller' | 'node';
const SOURCE: Record<Side, LogSource> = { controller: 'csi-driver-controller', node: 'csi-driver-node' };

/** The four interceptor lines, for one plugin side, in both styles. */
function grpcLines(side: Side): Record<string, MessageDef> {
  const source = SOURCE[side];
  const p = side === 'controller' ? 'csiControllerPlugin' : 'csiNodePlugin';
  const stage = side === 'controller' ? 'attach' : 'mount';
  const errCause = 'The driver or its storage backend refused or failed the operation; the gRPC code says which (ABORTED: another operation on the volume is running; FAILED_PRECONDITION: called out of lifecycle order; NOT_FOUND: no such volume).';
  const errNext = 'Read the desc text; check the backend (cloud console, ceph status) and whether the caller retries (non-final codes: DEADLINE_EXCEEDED, ABORTED, UNAVAILABLE, RESOURCE_EXHAUSTED, CANCELLED).';
  return {
    [`${p}.grpcCall`]: {
      source, stage, severity: 'I', summary: `The CSI ${side} plugin receives the call {method}.`,
      formats: both({ file: 'utils.go', line: 97, text: 'GRPC call: {method}', v: 3 }),
    },
    [`${p}.grpcRequest`]: {
      source, stage, severity: 'I', summary: 'The driver logs the request with secrets stripped: {request}',
      formats: both({ file: 'utils.go', line: 98, text: 'GRPC request: {request}', v: 5 }),
    },
    [`${p}.grpcResponse`]: {
      source, stage, severity: 'I', summary: 'The driver answers: {response}',
      formats: both({ file: 'utils.go', line: 103, text: 'GRPC response: {response}', v: 5 }),
    },
    [`${p}.grpcError`]: {
      source, stage, severity: 'E', summary: 'The driver fails the call: {error}', cause: errCause, next: errNext,
      formats: both({ file: 'utils.go', line: 101, text: 'GRPC error: {error}' }),
    },
    [`${p}.cephGrpcCall`]: {
      source, stage, severity: 'I', summary: `ceph-csi's ${side} plugin receives the call {method} (request {id}).`,
      formats: both({ file: 'utils.go', line: 240, text: '{prefix}GRPC call: {method}', v: 3 }),
    },
    [`${p}.cephGrpcRequest`]: {
      source, stage, severity: 'I', summary: 'ceph-csi logs the request with secrets stripped: {request}',
      formats: both({ file: 'utils.go', line: 241, text: '{prefix}GRPC request: {request}', v: 5 }),
    },
    [`${p}.cephGrpcResponse`]: {
      source, stage, severity: 'I', summary: 'ceph-csi answers: {response}',
      formats: both({ file: 'utils.go', line: 247, text: '{prefix}GRPC response: {response}', v: 5 }),
    },
    [`${p}.cephGrpcError`]: {
      source, stage, severity: 'E', summary: 'ceph-csi fails the call: {error}', cause: errCause, next: errNext,
      formats: both({ file: 'utils.go', line: 245, text: '{prefix}GRPC error: {error}' }),
    },
    ...nfsGrpcLines(side, source, stage, errCause, errNext),
    ...nfsNodeServerLines(side, source),
  };
}

/** csi-driver-nfs's interceptor (pkg/nfs/utils.go logGRPC at v4.13.4): -v=2, or -v=8 for the calls made every few seconds. */
function nfsGrpcLines(side: Side, source: LogSource, stage: MessageDef['stage'], errCause: string, errNext: string): Record<string, MessageDef> {
  const p = side === 'controller' ? 'csiControllerPlugin' : 'csiNodePlugin';
  const lines: Record<string, MessageDef> = {
    [`${p}.nfsGrpcError`]: {
      source, stage, severity: 'E', summary: 'csi-driver-nfs fails the call: {error}', cause: errCause, next: errNext,
      formats: both({ file: 'utils.go', line: 116, text: 'GRPC error: {error}' }),
    },
  };
  for (const [quiet, v] of [['', 2], ['Quiet', 8]] as const) {
    lines[`${p}.nfsGrpcCall${quiet}`] = {
      source, stage, severity: 'I', summary: `csi-driver-nfs's ${side} plugin receives the call {method}.`,
      formats: both({ file: 'utils.go', line: 111, text: 'GRPC call: {method}', v }),
    };
    lines[`${p}.nfsGrpcRequest${quiet}`] = {
      source, stage, severity: 'I', summary: 'csi-driver-nfs logs the request with secrets stripped: {request}',
      formats: both({ file: 'utils.go', line: 112, text: 'GRPC request: {request}', v }),
    };
    lines[`${p}.nfsGrpcResponse${quiet}`] = {
      source, stage, severity: 'I', summary: 'csi-driver-nfs answers: {response}',
      formats: both({ file: 'utils.go', line: 118, text: 'GRPC response: {response}', v }),
    };
  }
  return lines;
}

/**
 * csi-driver-nfs's NodePublishVolume and NodeUnpublishVolume lines (pkg/nfs/nodeserver.go, v4.13.4):
 * the node plugin prints them for a pod's mount, the controller for its own mount of the export
 * while it creates or deletes a volume's subdirectory.
 */
function nfsNodeServerLines(side: Side, source: LogSource): Record<string, MessageDef> {
  const p = side === 'controller' ? 'csiControllerPlugin' : 'csiNodePlugin';
  // the controller mounts the export at --working-mount-dir/<subdir> (default /tmp), a node at the
  // kubelet's target path: the path tells which process printed the line
  const node = side === 'node';
  const target = node ? '{targetPath}' : '/tmp/{subdir}';
  const [mountStage, unmountStage] = node ? (['mount', 'unmount'] as const) : (['provision', 'provision'] as const);
  return {
    [`${p}.nfsPublishing`]: {
      source, stage: mountStage, severity: 'I', summary: `csi-driver-nfs mounts the NFS export {source} at ${target}.`,
      formats: both({ file: 'nodeserver.go', line: 153, text: `NodePublishVolume: volumeID({volumeId}) source({source}) targetPath(${target}) mountflags({mountFlags})`, v: 2 }),
    },
    [`${p}.nfsSkipChmod`]: {
      source, stage: mountStage, severity: 'I', summary: 'No --mount-permissions: the mounted directory keeps the permissions the NFS server gives it.',
      formats: both({ file: 'nodeserver.go', line: 175, text: `skip chmod on targetPath(${target}) since mountPermissions is set as 0`, v: 2 }),
    },
    [`${p}.nfsMounted`]: {
      source, stage: mountStage, severity: 'I', summary: `The NFS export {source} is mounted at ${target}.`,
      formats: both({ file: 'nodeserver.go', line: 177, text: `volume({volumeId}) mount {source} on ${target} succeeded`, v: 2 }),
    },
    [`${p}.nfsUnpublishing`]: {
      source, stage: unmountStage, severity: 'I', summary: `csi-driver-nfs unmounts ${target}.`,
      formats: both({ file: 'nodeserver.go', line: 198, text: `NodeUnpublishVolume: unmounting volume {volumeId} on ${target}`, v: 2 }),
    },
    [`${p}.nfsForceUnmount`]: {
      source, stage: unmountStage, severity: 'I', summary: 'The unmount may be forced (mount-utils CleanupMountWithForce), so that a dead NFS server cannot hang it.',
      formats: both({ file: 'nodeserver.go', line: 203, text: `force unmount {volumeId} on ${target}`, v: 2 }),
    },
    [`${p}.nfsUnpublished`]: {
      source, stage: unmountStage, severity: 'I', summary: `${target} is unmounted.`,
      formats: both({ file: 'nodeserver.go', line: 211, text: `NodeUnpublishVolume: unmount volume {volumeId} on ${target} successfully`, v: 2 }),
    },
  };
}

const C: LogSource = 'csi-driver-controller';
const N: LogSource = 'csi-driver-node';

export const csiControllerPluginMessages = defineMessages({
  ...grpcLines('controller'),
  /** upstream: csi-driver-nfs pkg/nfs/controllerserver.go:514 internalMount (v4.13.4) */
  'csiControllerPlugin.nfsInternalMount': {
    source: C, stage: 'provision', severity: 'I',
    summary: 'To make or remove the volume\'s subdirectory, csi-driver-nfs mounts the whole export {server}:{share} under its working directory.',
    formats: both({ file: 'controllerserver.go', line: 514, text: 'internally mounting {server}:{share} at {targetPath}', v: 2 }),
  },
  /** upstream: controllerserver.go:529 internalUnmount */
  'csiControllerPlugin.nfsInternalUnmount': {
    source: C, stage: 'provision', severity: 'I',
    summary: 'Done with the export: csi-driver-nfs unmounts it from {targetPath}.',
    formats: both({ file: 'controllerserver.go', line: 529, text: 'internally unmounting {targetPath}', v: 4 }),
  },
  /** upstream: controllerserver.go:291 DeleteVolume */
  'csiControllerPlugin.nfsRemovingEmptyDirectories': {
    source: C, stage: 'delete', severity: 'I',
    summary: 'csi-driver-nfs removes the directories left empty above the subdirectory, up to {path}.',
    formats: both({ file: 'controllerserver.go', line: 291, text: 'DeleteVolume: removing empty directories in {path}', v: 2 }),
  },
  /** upstream: controllerserver.go:285 DeleteVolume (onDelete: delete, the default) */
  'csiControllerPlugin.nfsRemovingSubdirectory': {
    source: C, stage: 'delete', severity: 'I',
    summary: 'csi-driver-nfs deletes the volume\'s subdirectory {path} and everything in it.',
    formats: both({ file: 'controllerserver.go', line: 285, text: 'removing subdirectory at {path}', v: 2 }),
  },
  /** upstream: internal/journal/omap.go:89 getOMapValues */
  'csiControllerPlugin.cephGotOmapValues': {
    source: C, stage: 'provision', severity: 'I',
    summary: 'ceph-csi reads omap object {name} in pool {pool}: {values}',
    formats: both({ file: 'omap.go', line: 89, text: '{prefix}got omap values: (pool={pool:q}, namespace={namespace:q}, name={name:q}): {values}', v: 4 }),
  },
  /** upstream: omap.go:159 setOMapKeys (the stray ")" at the end is in the source and in seed 004) */
  'csiControllerPlugin.cephSetOmapKeys': {
    source: C, stage: 'provision', severity: 'I',
    summary: 'ceph-csi writes keys into omap object {name}: {values}',
    formats: both({ file: 'omap.go', line: 159, text: '{prefix}set omap keys (pool={pool:q}, namespace={namespace:q}, name={name:q}): {values})', v: 4 }),
  },
  /** upstream: omap.go:126 removeMapKeys */
  'csiControllerPlugin.cephRemovedOmapKeys': {
    source: C, stage: 'delete', severity: 'I',
    summary: 'ceph-csi removes keys {keys} from omap object {name}.',
    formats: both({ file: 'omap.go', line: 126, text: '{prefix}removed omap keys (pool={pool:q}, namespace={namespace:q}, name={name:q}): {keys}', v: 4 }),
  },
  /** upstream: internal/rbd/rbd_journal.go:349 (reservation found: the request is a retry) */
  'csiControllerPlugin.cephFoundExistingVolume': {
    source: C, stage: 'provision', severity: 'I',
    summary: 'The journal already holds volume {volumeId} for request {requestName}: CreateVolume is a repeat and answers with it.',
    formats: both({ file: 'rbd_journal.go', line: 349, text: '{prefix}found existing volume ({volumeId}) with image name ({imageName}) for request ({requestName})', v: 4 }),
  },
  /** upstream: rbd_journal.go:491 reserveVol */
  'csiControllerPlugin.cephGeneratedVolumeId': {
    source: C, stage: 'provision', severity: 'I',
    summary: 'ceph-csi reserves volume id {volumeId} and image name {imageName} for {requestName}.',
    formats: both({ file: 'rbd_journal.go', line: 491, text: '{prefix}generated Volume ID ({volumeId}) and image name ({imageName}) for request name ({requestName})', v: 4 }),
  },
  /** upstream: rbd_journal.go:417 reserveSnap (the same words as reserveVol's, for a snapshot's reservation) */
  'csiControllerPlugin.cephGeneratedSnapshotId': {
    source: C, stage: 'snapshot', severity: 'I',
    summary: 'ceph-csi reserves snapshot id {volumeId} and image name {imageName} for {requestName}.',
    formats: both({ file: 'rbd_journal.go', line: 417, text: '{prefix}generated Volume ID ({volumeId}) and image name ({imageName}) for request name ({requestName})', v: 4 }),
  },
  /** upstream: rbd_util.go:431 createImage */
  'csiControllerPlugin.cephRbdCreate': {
    source: C, stage: 'provision', severity: 'I',
    summary: 'ceph-csi creates RBD image {pool}/{imageName} of {size}.',
    formats: both({ file: 'rbd_util.go', line: 431, text: '{prefix}rbd: create {pool}/{imageName} size {size} (features: {features}) using mon {monitors}', v: 4 }),
  },
  /**
   * upstream: controllerserver.go:784 createBackingImage, the image printed as pool/name (rbdImage.String). (Seed 004's
   * older ceph-csi printed "created volume <request> backed by image <image>": v3.4.0 and before.)
   */
  'csiControllerPlugin.cephCreatedVolume': {
    source: C, stage: 'provision', severity: 'I',
    summary: 'Volume {requestName} now exists, backed by RBD image {imageName}.',
    formats: both({ file: 'controllerserver.go', line: 784, text: '{prefix}created image {pool}/{imageName} backed for request name {requestName}', v: 4 }),
  },
  /**
   * Clone steps: rbd_util.go createSnapshot (:1447), cloneRbdImageFromSnapshot (:1485), deleteSnapshot (:1460). The
   * snapshot prints as pool/image@snap (createSnapshot names the image first) with its own monitors, which the clone
   * of a volume leaves empty (clone.go doSnapClone builds tempSnap and cloneSnap without them): "using mon " and nothing.
   * The features are go-ceph's FeatureSet.Names(), in Go's map order (either order is what a cluster prints).
   * (Seed 004's older ceph-csi printed "snap create rbd/@<snap>" and the clone without its pool.)
   */
  'csiControllerPlugin.cephSnapCreate': {
    source: C, stage: 'provision', severity: 'I',
    summary: 'ceph-csi takes snapshot {snapName} of image {imageName}.',
    formats: both({ file: 'rbd_util.go', line: 1447, text: '{prefix}rbd: snap create {pool}/{imageName}@{snapName} using mon {snapMonitors}', v: 4 }),
  },
  'csiControllerPlugin.cephClone': {
    source: C, stage: 'provision', severity: 'I',
    summary: 'ceph-csi clones image {cloneName} from snapshot {parentName}@{snapName}.',
    formats: both({ file: 'rbd_util.go', line: 1485, text: '{prefix}rbd: clone {pool}/{parentName}@{snapName} {pool}/{cloneName} (features: {features}) using mon {monitors}', v: 4 }),
  },
  'csiControllerPlugin.cephSnapRm': {
    source: C, stage: 'provision', severity: 'I',
    summary: 'ceph-csi deletes snapshot {imageName}@{snapName}.',
    formats: both({ file: 'rbd_util.go', line: 1460, text: '{prefix}rbd: snap rm {pool}/{imageName}@{snapName} using mon {snapMonitors}', v: 4 }),
  },
  /**
   * CreateSnapshot and the restore from it (ceph/ceph-csi 52fcb7b0, /work notes ceph-snapshot-facts): the
   * first read of a snapshot directory that does not exist yet is logged as an error and taken as "no
   * reservation"; the flatten check after a clone; the restore's clone line.
   */
  'csiControllerPlugin.cephOmapNotFound': {
    source: C, stage: 'snapshot', severity: 'E',
    summary: 'ceph-csi finds no omap object {name} yet (the first snapshot in the pool): it reads as "nothing reserved", not as a failure.',
    explain: 'GetOmapValues on an object that does not exist returns rados ENOENT; the journal logs it at error level and its callers treat it as an empty reservation. The next line reserves the name and creates the object.',
    formats: both({ file: 'omap.go', line: 80, text: '{prefix}omap not found (pool={pool:q}, namespace={namespace:q}, name={name:q}): rados: ret=-2, No such file or directory' }),
  },
  'csiControllerPlugin.cephCloneDepth': {
    source: C, stage: 'provision', severity: 'I',
    summary: 'Image {pool}/{imageName} is {depth} clone(s) deep: below the soft limit {soft}, so no flatten.',
    explain: 'ceph-csi flattens an image in the background (a ceph manager task) once its clone chain reaches --rbdsoftmaxclonedepth (4), and fails the call with "flatten in progress" at --rbdhardmaxclonedepth (8) until the task has finished; the restore checks the snapshot\'s source against 3 and 7.',
    formats: both({ file: 'rbd_util.go', line: 838, text: '{prefix}clone depth is ({depth}), configured softlimit ({soft}) and hardlimit ({hard}) for {pool}/{imageName}', v: 3 }),
  },
  'csiControllerPlugin.cephVolumeFromSnapshot': {
    source: C, stage: 'provision', severity: 'I',
    summary: 'The new image {pool}/{imageName} is a clone of the snapshot\'s own image {pool}/{snapImage}@{snapImage}.',
    formats: both({ file: 'controllerserver.go', line: 719, text: '{prefix}create volume {pool}/{imageName} from snapshot {pool}/{snapImage}@{snapImage}', v: 4 }),
  },
  /**
   * Delete: controllerserver.go DeleteVolume (:1059) and rbd_util.go Delete (:640), trashRemoveImage (:682, :706).
   * DeleteTempImage first runs Delete on the volume's "-temp" clone: it logs the delete and, finding no such image
   * (getImageID), checks the trash without a word (ensureImageCleanup). The trash lines print the image as %q of
   * pool/name. (Seed 004's older ceph-csi said "Can not find rbd image: …-temp, but maybe no error" instead.)
   */
  'csiControllerPlugin.cephDeletingImage': {
    source: C, stage: 'delete', severity: 'I',
    summary: 'ceph-csi deletes RBD image {imageName}.',
    formats: both({ file: 'controllerserver.go', line: 1059, text: '{prefix}deleting image {imageName}', v: 4 }),
  },
  'csiControllerPlugin.cephRbdDelete': {
    source: C, stage: 'delete', severity: 'I',
    summary: 'ceph-csi deletes image {imageName}: it moves it to the RBD trash (or finds no such image, for a "-temp" clone that was never made).',
    formats: both({ file: 'rbd_util.go', line: 640, text: '{prefix}rbd: delete {imageName} using mon {monitors}, pool {pool}', v: 4 }),
  },
  'csiControllerPlugin.cephTrashRemoveTask': {
    source: C, stage: 'delete', severity: 'I',
    summary: 'ceph-csi asks the ceph manager to purge image {imageName} (id {imageId}) from the trash.',
    formats: both({ file: 'rbd_util.go', line: 682, text: '{prefix}rbd: adding task to remove image "{pool}/{imageName}" with id {imageId:q} from trash', v: 4 }),
  },
  'csiControllerPlugin.cephTrashRemoveTaskAdded': {
    source: C, stage: 'delete', severity: 'I',
    summary: 'The ceph manager took the task: it purges image {imageName} from the trash in the background.',
    formats: both({ file: 'rbd_util.go', line: 706, text: '{prefix}rbd: successfully added task to move image "{pool}/{imageName}" with id {imageId:q} to trash', v: 4 }),
  },
});

export const csiNodePluginMessages = defineMessages({
  ...grpcLines('node'),
  /** upstream: internal/rbd/nodeserver.go (k8s-facts §7) */
  'csiNodePlugin.cephMapped': {
    source: N, stage: 'mount', severity: 'I', summary: 'RBD image {imageName} is mapped at {devicePath}.',
    formats: both({ file: 'nodeserver.go', line: 422, text: '{prefix}rbd image: {imageName} was successfully mapped at {devicePath}', v: 4 }),
  },
  'csiNodePlugin.cephMounted': {
    source: N, stage: 'mount', severity: 'I', summary: 'The staged volume is bind-mounted at the pod\'s target path {targetPath}.',
    formats: both({ file: 'nodeserver.go', line: 742, text: '{prefix}rbd: successfully mounted stagingPath {stagingPath} to targetPath {targetPath}', v: 4 }),
  },
  'csiNodePlugin.cephUnbound': {
    source: N, stage: 'unmount', severity: 'I', summary: 'The volume is unmounted from the pod\'s target path {targetPath}.',
    formats: both({ file: 'nodeserver.go', line: 946, text: '{prefix}rbd: successfully unbound volume {volumeId} from {targetPath}', v: 4 }),
  },
  'csiNodePlugin.cephUnmountedStaging': {
    source: N, stage: 'unmount', severity: 'I', summary: 'The volume is unmounted from its staging path {stagingPath}.',
    formats: both({ file: 'nodeserver.go', line: 1002, text: '{prefix}successfully unmounted volume ({volumeId}) from staging path ({stagingPath})', v: 4 }),
  },
  'csiNodePlugin.cephUnmapped': {
    source: N, stage: 'unmount', severity: 'I', summary: 'The RBD device of volume {volumeId} is unmapped from the node.',
    formats: both({ file: 'nodeserver.go', line: 1060, text: '{prefix}successfully unmapped volume ({volumeId})', v: 4 }),
  },
});

export const csiPluginMessages = { ...csiControllerPluginMessages, ...csiNodePluginMessages };
