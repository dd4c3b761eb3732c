/**
 * Names, paths and keys exactly as upstream computes them (see ../shared/reference/k8s-facts.md §2).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export const sha256Hex = (s: string): string => bytesToHex(sha256(utf8ToBytes(s)));

/**
 * VolumeAttachment name: "csi-" + sha256(volumeHandle + driverName + nodeName), no separator.
 * upstream: pkg/volume/csi/csi_attacher.go getAttachmentName.
 */
export const volumeAttachmentName = (volumeHandle: string, driver: string, nodeName: string): string =>
  'csi-' + sha256Hex(volumeHandle + driver + nodeName);

/** Unique volume name used by the kubelet and the A/D controller. upstream: pkg/volume/csi/csi_plugin.go (volNameSep "^"). */
export const uniqueVolumeName = (driver: string, volumeHandle: string): string =>
  `kubernetes.io/csi/${driver}^${volumeHandle}`;

/**
 * external-attacher finalizer: every character outside [a-zA-Z0-9-] becomes "-", and "X" is appended
 * when the result ends with "-". upstream: external-attacher pkg/controller/util.go GetFinalizerName.
 */
export function sanitizeDriverName(driver: string): string {
  let s = driver.replace(/[^a-zA-Z0-9-]/g, '-');
  if (s.endsWith('-')) s += 'X';
  return s;
}
export const attacherFinalizer = (driver: string): string => `external-attacher/${sanitizeDriverName(driver)}`;

export const VA_NODE_ID_ANNOTATION = 'csi.alpha.kubernetes.io/node-id';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';
/** csi-provisioner's PV finalizer (sig-storage-lib-external-provisioner v10 controller.go:86 finalizerPV) */
export const PROVISIONER_PV_FINALIZER = 'external-provisioner.volume.kubernetes.io/finalizer';
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';
export const ANN_STORAGE_PROVISIONER_BETA = 'volume.beta.kubernetes.io/storage-provisioner';
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
export const ANN_CONTROLLER_MANAGED_ATTACH = 'volumes.kubernetes.io/controller-managed-attach-detach';
export const ANN_NODE_ID = 'csi.volume.kubernetes.io/nodeid';

/**
 * NodeStage staging_target_path. Kubernetes ≤1.2x used .../csi/pv/<pvName>/globalmount; newer
 * releases use .../csi/<driver>/<sha256(volumeHandle)>/globalmount.
 * upstream: pkg/volume/csi/csi_attacher.go makeDeviceMountPath.
 */
export function deviceMountPath(kubeletRoot: string, style: 'pv' | 'driverHash', pvName: string, driver: string, volumeHandle: string): string {
  return style === 'pv'
    ? `${kubeletRoot}/plugins/kubernetes.io/csi/pv/${pvName}/globalmount`
    : `${kubeletRoot}/plugins/kubernetes.io/csi/${driver}/${sha256Hex(volumeHandle)}/globalmount`;
}

/** NodePublish target_path. upstream: pkg/volume/csi/csi_mounter.go GetPath. */
export const podVolumePath = (kubeletRoot: string, podUid: string, pvName: string): string =>
  `${kubeletRoot}/pods/${podUid}/volumes/kubernetes.io~csi/${pvName}/mount`;

/**
 * Raw block volumes (pkg/volume/csi/csi_block.go): the global map path the device is linked at
 * (GetGlobalMapPath: plugins/kubernetes.io/csi/volumeDevices/{specName}/dev), the NodeStage
 * staging path (GetStagingPath), the NodePublish target, a file per pod (getPublishPath), and the
 * pod's volumeDevices directory the kubelet links the device into (GetPodDeviceMapPath).
 */
export const blockGlobalMapPath = (kubeletRoot: string, pvName: string): string =>
  `${kubeletRoot}/plugins/kubernetes.io/csi/volumeDevices/${pvName}/dev`;
export const blockStagingPath = (kubeletRoot: string, pvName: string): string =>
  `${kubeletRoot}/plugins/kubernetes.io/csi/volumeDevices/staging/${pvName}`;
export const blockPublishPath = (kubeletRoot: string, pvName: string, podUid: string): string =>
  `${kubeletRoot}/plugins/kubernetes.io/csi/volumeDevices/publish/${pvName}/${podUid}`;
export const podVolumeDeviceDir = (kubeletRoot: string, podUid: string): string =>
  `${kubeletRoot}/pods/${podUid}/volumeDevices/kubernetes.io~csi`;
