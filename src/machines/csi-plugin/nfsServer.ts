/**
 * What csi-driver-nfs (v4.13.4) does beyond the generic plugin: its volume ids, and the lines its
 * controller and node servers print around a mount of the NFS export.
 * upstream: kubernetes-csi/csi-driver-nfs pkg/nfs/controllerserver.go (newNFSVolume,
 * getVolumeIDFromNfsVol, internalMount, internalUnmount, CreateVolume, DeleteVolume),
 * pkg/nfs/nodeserver.go (NodePublishVolume, NodeUnpublishVolume).
 */

type Log = { msg: string; args: Record<string, string | number> };
/** --working-mount-dir (cmd/nfsplugin/main.go default) */
const WORKING_MOUNT_DIR = '/tmp';
const trim = (s: string): string => s.replace(/^\/+|\/+$/g, '');

/** newNFSVolume + getVolumeIDFromNfsVol: server#share#subdir#uuid#onDelete, subdir the volume name when the class names none. */
export function nfsVolumeId(params: Record<string, string>, name: string): string {
  return [trim(params.server ?? ''), trim(params.share ?? ''), name, '', ''].join('#');
}

const parse = (volumeId: string) => {
  const [server = '', baseDir = '', subDir = ''] = volumeId.split('#');
  return { server, baseDir, subDir };
};

/** NodePublishVolume's mount source: <server>:<share>[/<subdir>] (nodeserver.go, the subdir appended after trimming a trailing "/"). */
export function nfsSource(ctx: Record<string, string>): string {
  const source = `${ctx.server ?? ''}:${ctx.share ?? ''}`;
  return ctx.subdir ? `${source.replace(/\/+$/, '')}/${ctx.subdir}` : source;
}

/** Go's %v of a []string */
const goStrings = (xs: readonly string[]): string => `[${xs.join(' ')}]`;

/** Where the lines print the mount: a node's target path, or the controller's /tmp/<subdir> (its catalog lines hold the /tmp/). */
type Where = { side: 'csiNodePlugin'; targetPath: string } | { side: 'csiControllerPlugin'; subdir: string };
const at = (w: Where): Record<string, string> => (w.side === 'csiNodePlugin' ? { targetPath: w.targetPath } : { subdir: w.subdir });

function publishLogs(w: Where, volumeId: string, source: string, mountFlags: readonly string[]): Log[] {
  return [
    { msg: `${w.side}.nfsPublishing`, args: { volumeId, source, ...at(w), mountFlags: goStrings(mountFlags) } },
    // --mount-permissions defaults to 0: no chmod
    { msg: `${w.side}.nfsSkipChmod`, args: at(w) },
    { msg: `${w.side}.nfsMounted`, args: { volumeId, source, ...at(w) } },
  ];
}

function unpublishLogs(w: Where, volumeId: string): Log[] {
  return [
    { msg: `${w.side}.nfsUnpublishing`, args: { volumeId, ...at(w) } },
    // mount-utils' Mounter can force an unmount (MounterForceUnmounter): CleanupMountWithForce
    { msg: `${w.side}.nfsForceUnmount`, args: { volumeId, ...at(w) } },
    { msg: `${w.side}.nfsUnpublished`, args: { volumeId, ...at(w) } },
  ];
}

/** internalMount / internalUnmount around the controller's work on the export: the whole export under /tmp/<subdir>. */
function internally(volumeId: string, mountFlags: readonly string[], work: Log[]): Log[] {
  const { server, baseDir, subDir } = parse(volumeId);
  const share = `/${baseDir}`;
  const targetPath = `${WORKING_MOUNT_DIR}/${subDir}`;
  return [
    { msg: 'csiControllerPlugin.nfsInternalMount', args: { server, share, targetPath } },
    ...publishLogs({ side: 'csiControllerPlugin', subdir: subDir }, volumeId, `${server}:${share}`, mountFlags),
    ...work,
    { msg: 'csiControllerPlugin.nfsInternalUnmount', args: { targetPath } },
    ...unpublishLogs({ side: 'csiControllerPlugin', subdir: subDir }, volumeId),
  ];
}

/** CreateVolume: mount the export, make the subdirectory (no line), unmount. */
export const nfsCreateVolumeLogs = (volumeId: string, mountFlags: readonly string[]): Log[] => internally(volumeId, mountFlags, []);

/** DeleteVolume (onDelete "delete", the default): mount the export, remove the subdirectory and the empty ones above it, unmount. */
export function nfsDeleteVolumeLogs(volumeId: string): Log[] {
  const { subDir } = parse(volumeId);
  const mountDir = `${WORKING_MOUNT_DIR}/${subDir}`;
  return internally(volumeId, [], [
    { msg: 'csiControllerPlugin.nfsRemovingSubdirectory', args: { path: `${mountDir}/${subDir}` } },
    { msg: 'csiControllerPlugin.nfsRemovingEmptyDirectories', args: { path: mountDir } },
  ]);
}

/** The node plugin's lines for a pod's mount and unmount. */
export const nfsNodePublishLogs = (volumeId: string, ctx: Record<string, string>, targetPath: string, mountFlags: readonly string[]): Log[] =>
  publishLogs({ side: 'csiNodePlugin', targetPath }, volumeId, nfsSource(ctx), mountFlags);
export const nfsNodeUnpublishLogs = (volumeId: string, targetPath: string): Log[] => unpublishLogs({ side: 'csiNodePlugin', targetPath }, volumeId);
