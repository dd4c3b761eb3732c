/**
 * kubelet log lines (volume manager, operation executor, plugin manager, pod sync).
 * '1.20': printf klog of v1.20; file:line pairs from seed 000 (a real 1.20 kubelet) and
 * k8s-facts §3.10. '1.30': structured klog (InfoS) where upstream uses it; every 1.30 file:line, form
 * and verbosity was read in v1.30.1 source (vendored in openshift/microshift 3f2622d4f1, identical in
 * kubeedge's v1.30.7; audit of 2026-12-03).
 * upstream: pkg/kubelet/volumemanager/reconciler/reconciler.go (1.20) and reconciler_common.go (1.30),
 * pkg/volume/util/operationexecutor/operation_generator.go, operation_executor.go
 * (GenerateMsgDetailed = "%v for volume %q %v %v"), pkg/volume/util/nestedpendingoperations,
 * pkg/volume/csi/csi_plugin.go, pkg/kubelet/kubelet.go.
 */
import { defineMessages, defineSummaries } from '../shared/messages.ts';

// VolumeToMount details: (UniqueName: %q) pod %q (UID: %q)  — the pod is the pod's name.
const MOUNT = '{volume:q} (UniqueName: {uniqueName:q}) pod {podName:q} (UID: {podUid:q})';
// AttachedVolume details: (UniqueName: %q) on node %q
const DEVICE = '{volume:q} (UniqueName: {uniqueName:q}) on node {node:q}';

export const messages = defineMessages({
  'kubelet.verifyControllerAttachedVolumeStarted': {
    source: 'kubelet', stage: 'attach', severity: 'I',
    summary: 'The kubelet starts checking whether the attach/detach controller has attached volume {volume} for pod {podName}.',
    formats: {
      '1.20': { file: 'reconciler.go', line: 224, text: `operationExecutor.VerifyControllerAttachedVolume started for volume ${MOUNT} ` },
      // line read in v1.30.1 source
      '1.30': { file: 'reconciler_common.go', line: 247, msg: `operationExecutor.VerifyControllerAttachedVolume started for volume ${MOUNT} `, kv: 'pod={kpod:q}' },
    },
  },
  'kubelet.verifyControllerAttachedVolumeNotInUse': {
    source: 'kubelet', stage: 'attach', severity: 'I',
    summary: 'The kubelet does not check volume {volume} yet: it has not reported the volume in the node status volumesInUse.',
    formats: {
      // kubernetes#106853 (1.24+): no operation, no backoff until the volume is reported in use; line read in v1.30.1 source
      '1.30': { file: 'reconciler_common.go', line: 232, v: 5, msg: `operationExecutor.VerifyControllerAttachedVolume failed for volume ${MOUNT}  volume not marked in-use`, kv: 'pod={kpod:q}' },
    },
  },
  'kubelet.operationFailed': {
    source: 'kubelet', stage: 'mount', severity: 'E',
    summary: 'A volume operation of the kubelet fails; it will not be retried for {duration}: {err}',
    cause: 'The operation returned an error: the volume is not attached according to the node status or not reported in use yet (both up to 1.23; since 1.24 the kubelet waits for them without an operation, kubernetes#106853), or the CSI node plugin failed.',
    next: 'Read the error text. "not attached according to node status": check the VolumeAttachment and node.status.volumesAttached (attach/detach controller). An rpc error: check the CSI node plugin logs on this node.',
    formats: {
      '1.20': { file: 'nestedpendingoperations.go', line: 301, text: 'Operation for {key:q} failed. No retries permitted until {until} (durationBeforeRetry {duration}). Error: {err:q}' },
      '1.30': { file: 'nestedpendingoperations.go', line: 348, text: 'Operation for {key:q} failed. No retries permitted until {until} (durationBeforeRetry {duration}). Error: {err}' },
    },
  },
  'kubelet.controllerAttachSucceeded': {
    source: 'kubelet', stage: 'attach', severity: 'I',
    summary: 'The node status lists volume {volume} as attached: the kubelet marks it attached.',
    formats: {
      '1.20': { file: 'operation_generator.go', line: 1332, text: `Controller attach succeeded for volume ${MOUNT} device path: {devicePath:q}` },
      '1.30': { file: 'operation_generator.go', line: 1576, msg: `Controller attach succeeded for volume ${MOUNT} device path: {devicePath:q}`, kv: 'pod={kpod:q}' },
    },
  },
  'kubelet.mountVolumeStarted': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'The kubelet starts mounting volume {volume} for pod {podName}.',
    variants: { block: 'The kubelet starts mapping raw block volume {volume} into pod {podName} (MapVolume; the line still says MountVolume).' },
    formats: {
      '1.20': { file: 'reconciler.go', line: 269, text: `operationExecutor.MountVolume started for volume ${MOUNT} ` },
      // observed reconciler_common.go:220 on ≈1.27; read at v1.30.7 (:220, V(1))
      '1.30': { file: 'reconciler_common.go', line: 220, v: 1, msg: `operationExecutor.MountVolume started for volume ${MOUNT} `, kv: 'pod={kpod:q}' },
    },
  },
  'kubelet.waitForAttachEntering': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'The kubelet waits for the VolumeAttachment of volume {volume} to be attached.',
    formats: {
      '1.20': { file: 'operation_generator.go', line: 558, text: `MountVolume.WaitForAttach entering for volume ${MOUNT} DevicePath {devicePath:q}` },
      '1.30': { file: 'operation_generator.go', line: 622, msg: `MountVolume.WaitForAttach entering for volume ${MOUNT} DevicePath {devicePath:q}`, kv: 'pod={kpod:q}' },
    },
  },
  'kubelet.waitForAttachSucceeded': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'VolumeAttachment {devicePath} is attached: volume {volume} can be mounted.',
    formats: {
      '1.20': { file: 'operation_generator.go', line: 567, text: `MountVolume.WaitForAttach succeeded for volume ${MOUNT} DevicePath {devicePath:q}` },
      '1.30': { file: 'operation_generator.go', line: 632, msg: `MountVolume.WaitForAttach succeeded for volume ${MOUNT} DevicePath {devicePath:q}`, kv: 'pod={kpod:q}' },
    },
  },
  /**
   * csi_attacher.MountDevice / UnmountDevice for a driver without STAGE_UNSTAGE_VOLUME: klog.Infof(log(...)), plain
   * text at any verbosity in both profiles, just before the operation's "succeeded" line. upstream:
   * pkg/volume/csi/csi_attacher.go, read at the tags: v1.20.5 :320 / :527, v1.30.7 :380 / :630.
   */
  'kubelet.csiMountDeviceSkipped': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'The node plugin has no STAGE_UNSTAGE_VOLUME: the kubelet\'s CSI attacher skips staging (no NodeStageVolume).',
    explain: 'A driver that does not advertise STAGE_UNSTAGE_VOLUME in NodeGetCapabilities is never asked to stage a volume: MountDevice only saves the volume\'s data file and returns, and NodePublishVolume does all the work.',
    formats: {
      '1.20': { file: 'csi_attacher.go', line: 320, text: 'kubernetes.io/csi: attacher.MountDevice STAGE_UNSTAGE_VOLUME capability not set. Skipping MountDevice...' },
      '1.30': { file: 'csi_attacher.go', line: 380, text: 'kubernetes.io/csi: attacher.MountDevice STAGE_UNSTAGE_VOLUME capability not set. Skipping MountDevice...' },
    },
  },
  'kubelet.csiUnmountDeviceSkipped': {
    source: 'kubelet', stage: 'unmount', severity: 'I',
    summary: 'The node plugin has no STAGE_UNSTAGE_VOLUME: the kubelet\'s CSI attacher has nothing to unstage (no NodeUnstageVolume).',
    explain: 'There was no staging for this driver, so UnmountDevice only removes the volume\'s global directory and its data file.',
    formats: {
      '1.20': { file: 'csi_attacher.go', line: 527, text: 'kubernetes.io/csi: attacher.UnmountDevice STAGE_UNSTAGE_VOLUME capability not set. Skipping UnmountDevice...' },
      '1.30': { file: 'csi_attacher.go', line: 630, text: 'kubernetes.io/csi: attacher.UnmountDevice STAGE_UNSTAGE_VOLUME capability not set. Skipping UnmountDevice...' },
    },
  },
  'kubelet.mountDeviceSucceeded': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    // the line is the same when the driver has no STAGE_UNSTAGE_VOLUME: MountDevice saved the volume's data file and skipped staging
    summary: 'MountDevice succeeded for volume {volume}: staged at {deviceMountPath} (NodeStageVolume), or nothing to stage when the driver has no STAGE_UNSTAGE_VOLUME.',
    variants: {
      staged: 'NodeStageVolume succeeded: volume {volume} is staged at {deviceMountPath}.',
      notStaged: 'MountDevice had nothing to stage: the driver has no STAGE_UNSTAGE_VOLUME, so volume {volume} goes straight to NodePublishVolume.',
    },
    formats: {
      '1.20': { file: 'operation_generator.go', line: 596, text: `MountVolume.MountDevice succeeded for volume ${MOUNT} device mount path {deviceMountPath:q}` },
      // line read in v1.30.1 source
      '1.30': { file: 'operation_generator.go', line: 664, msg: `MountVolume.MountDevice succeeded for volume ${MOUNT} device mount path {deviceMountPath:q}`, kv: 'pod={kpod:q}' },
    },
  },
  'kubelet.setUpSucceeded': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'NodePublishVolume succeeded: volume {volume} is mounted into pod {podName}.',
    // after the kubelet's own walk (SetVolumeOwnership), which ends SetUp, not NodePublishVolume
    variants: { fsGroup: 'SetUp succeeded: volume {volume} is mounted into pod {podName}, and its files have the pod\'s fsGroup.' },
    formats: {
      // klog.V(1) as in v1.20.5 operation_generator.go:668-672 (V(4) on a remount)
      '1.20': { file: 'operation_generator.go', line: 657, v: 1, text: `MountVolume.SetUp succeeded for volume ${MOUNT} ` },
      // line read in v1.30.1 source
      '1.30': { file: 'operation_generator.go', line: 721, v: 1, msg: `MountVolume.SetUp succeeded for volume ${MOUNT} `, kv: 'pod={kpod:q}' },
    },
  },
  // Raw block volumes (volumeMode: Block): GenerateMapVolumeFunc, GenerateUnmapVolumeFunc, GenerateUnmapDeviceFunc.
  // '1.20' lines are upstream v1.20.5's (read in a v1.20.5 tree, /work/notes/block-120-lines.md), not seed
  // 000's build: seed 000 shows no block line, and its other operation_generator.go lines differ from v1.20.5's.
  'kubelet.mapWaitForAttachEntering': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'The kubelet waits for the VolumeAttachment of raw block volume {volume} to be attached.',
    formats: {
      '1.20': { file: 'operation_generator.go', line: 973, text: `MapVolume.WaitForAttach entering for volume ${MOUNT} DevicePath {devicePath:q}` },
      // v1.30.1 operation_generator.go:1099 klog.InfoS(GenerateMsgDetailed(…), "pod", klog.KObj(pod))
      '1.30': { file: 'operation_generator.go', line: 1099, msg: `MapVolume.WaitForAttach entering for volume ${MOUNT} DevicePath {devicePath:q}`, kv: 'pod={kpod:q}' },
    },
  },
  'kubelet.mapWaitForAttachSucceeded': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'VolumeAttachment {devicePath} is attached: raw block volume {volume} can be mapped.',
    formats: {
      '1.20': { file: 'operation_generator.go', line: 982, text: `MapVolume.WaitForAttach succeeded for volume ${MOUNT} DevicePath {devicePath:q}` },
      // v1.30.1 operation_generator.go:1109
      '1.30': { file: 'operation_generator.go', line: 1109, msg: `MapVolume.WaitForAttach succeeded for volume ${MOUNT} DevicePath {devicePath:q}`, kv: 'pod={kpod:q}' },
    },
  },
  'kubelet.mapPodDeviceGlobalSucceeded': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'Raw block volume {volume} is linked at its global map path {globalMapPath}.',
    formats: {
      '1.20': { file: 'operation_generator.go', line: 1082, v: 4, text: `MapVolume.MapPodDevice succeeded for volume ${MOUNT} globalMapPath {globalMapPath:q}` },
      // v1.30.1 operation_generator.go:1214-1217, klog.V(4)
      '1.30': { file: 'operation_generator.go', line: 1217, v: 4, msg: `MapVolume.MapPodDevice succeeded for volume ${MOUNT} globalMapPath {globalMapPath:q}`, kv: 'pod={kpod:q}' },
    },
  },
  'kubelet.mapPodDeviceSucceeded': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'NodePublishVolume succeeded and the device is linked into pod {podName}: raw block volume {volume} is mapped.',
    explain: 'The pod gets the device, not a file system: the kubelet links the device the node plugin published into the pod\'s volumeDevices directory, and the container runtime hands it to the container at the devicePath its volumeDevices names.',
    formats: {
      // klog.V(1): v1.20.5 operation_generator.go:1086-1088
      '1.20': { file: 'operation_generator.go', line: 1088, v: 1, text: `MapVolume.MapPodDevice succeeded for volume ${MOUNT} volumeMapPath {volumeMapPath:q}` },
      // v1.30.1 operation_generator.go:1220-1223, klog.V(1)
      '1.30': { file: 'operation_generator.go', line: 1223, v: 1, msg: `MapVolume.MapPodDevice succeeded for volume ${MOUNT} volumeMapPath {volumeMapPath:q}`, kv: 'pod={kpod:q}' },
    },
  },
  'kubelet.unmapVolumeSucceeded': {
    source: 'kubelet', stage: 'unmount', severity: 'I',
    summary: 'NodeUnpublishVolume succeeded: raw block volume {volume} is unmapped from pod {podUid}.',
    formats: {
      '1.20': { file: 'operation_generator.go', line: 1170, text: 'UnmapVolume succeeded for volume {uniqueName:q} (OuterVolumeSpecName: {outerName:q}) pod {podUid:q} (UID: {podUid:q}). InnerVolumeSpecName {volume:q}. PluginName "kubernetes.io/csi", VolumeGidValue ""' },
      // v1.30.1 operation_generator.go:1343 klog.Infof, plain text
      '1.30': { file: 'operation_generator.go', line: 1343, text: 'UnmapVolume succeeded for volume {uniqueName:q} (OuterVolumeSpecName: {outerName:q}) pod {podUid:q} (UID: {podUid:q}). InnerVolumeSpecName {volume:q}. PluginName "kubernetes.io/csi", VolumeGidValue ""' },
    },
  },
  'kubelet.unmapDeviceSucceeded': {
    source: 'kubelet', stage: 'unmount', severity: 'I',
    summary: 'UnmapDevice succeeded for raw block volume {volume} on {node}: unstaged (NodeUnstageVolume) and its global map path removed.',
    formats: {
      '1.20': { file: 'operation_generator.go', line: 1282, text: `UnmapDevice succeeded for volume ${DEVICE} ` },
      // v1.30.1 operation_generator.go:1472 klog.Infof(GenerateMsgDetailed("UnmapDevice succeeded", "")), plain text
      '1.30': { file: 'operation_generator.go', line: 1472, text: `UnmapDevice succeeded for volume ${DEVICE} ` },
    },
  },
  // Reconstruction at start (1.30): v1.30.1 pkg/kubelet/volumemanager/reconciler/reconstruct.go, reconciler.go
  'kubelet.reconstructedVolumeUncertain': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'The kubelet found volume {volume} of pod {podUid} mounted on disk after its restart: it records the pod\'s mount as uncertain, to be mounted again or cleaned up.',
    explain: 'A restarted kubelet remembers nothing: it scans the pods\' volume directories and puts every volume it finds into its actual state of world as uncertain. The pod object it has then knows only its UID, hence pod="".',
    formats: {
      // reconstruct.go:135 klog.V(2).InfoS(…, "pod", klog.KObj(volume.pod) /* only a UID: "" */, "podName", …, "volumeName", …, "seLinuxMountContext", …)
      '1.30': { file: 'reconstruct.go', line: 135, v: 2, msg: 'Volume is marked as uncertain and added into the actual state', kv: 'pod="" podName={podUid:q} volumeName={uniqueName:q} seLinuxMountContext=""' },
    },
  },
  'kubelet.reconstructedDeviceUncertain': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'The kubelet records the device of volume {volume} at {deviceMountPath} as uncertain: MountDevice (NodeStageVolume) runs again before the volume is used.',
    formats: {
      '1.30': { file: 'reconstruct.go', line: 149, v: 2, msg: 'Volume is marked device as uncertain and added into the actual state', kv: 'volumeName={uniqueName:q} deviceMountPath={deviceMountPath:q}' },
    },
  },
  'kubelet.markDeviceErrorStateLeavingUncertain': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'MountDevice of {uniqueName} failed for good, but a restarted kubelet found this device: it stays uncertain, so that it is unstaged if no pod wants it any more.',
    explain: 'After a final error a device mount that was uncertain is normally recorded as not mounted. A device found on disk after a kubelet restart may really be mounted, so 1.30 keeps it uncertain: a later MountDevice tries again, and UnmountDevice (NodeUnstageVolume) still runs if the pod goes.',
    formats: {
      // v1.30.1 operation_generator.go:785 klog.V(2).InfoS (markDeviceErrorState, IsVolumeDeviceReconstructed)
      '1.30': { file: 'operation_generator.go', line: 785, v: 2, msg: 'MountVolume.markDeviceErrorState leaving volume uncertain', kv: 'volumeName={uniqueName:q}' },
    },
  },
  'kubelet.setVolumeOwnershipSlow': {
    source: 'kubelet', stage: 'mount', severity: 'W',
    summary: 'The kubelet has been giving the files of {dir} the pod\'s fsGroup for 30 s and is not done: a volume with many files makes the pod wait.',
    explain: 'After NodePublishVolume, for a pod with an fsGroup, the kubelet itself walks every file of the volume to set its group and permissions (SetVolumeOwnership), unless the driver applies the fsGroup at mount (VOLUME_MOUNT_GROUP, on 1.30; GA in 1.26) or the CSIDriver\'s fsGroupPolicy says not to. A timer prints this warning once the walk has taken 30 s; the pod\'s containers wait until it ends. fsGroupChangePolicy: OnRootMismatch on the pod skips the walk when the volume\'s top directory already has the group, read, write and execute permission for its owner and group, and the setgid bit.',
    formats: {
      // time.AfterFunc(30*time.Second, …) in SetVolumeOwnership: v1.20.5 pkg/volume/volume_linux.go:51 (mounter.GetPath()), v1.30.1 :49 (dir)
      '1.20': { file: 'volume_linux.go', line: 51, text: 'Setting volume ownership for {dir} and fsGroup set. If the volume has a lot of files then setting volume ownership could be slow, see https://github.com/kubernetes/kubernetes/issues/69699' },
      '1.30': { file: 'volume_linux.go', line: 49, text: 'Setting volume ownership for {dir} and fsGroup set. If the volume has a lot of files then setting volume ownership could be slow, see https://github.com/kubernetes/kubernetes/issues/69699' },
    },
  },
  'kubelet.recursiveOwnershipChange': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'The kubelet starts giving every file of {dir} the pod\'s fsGroup (its fsGroupChangePolicy is Always, the default).',
    explain: 'skipPermissionChange: only fsGroupChangePolicy OnRootMismatch can skip the walk; with the default, Always, every file of the volume is given the group, each time the volume is set up for a pod.',
    formats: {
      // skipPermissionChange: v1.20.5 volume_linux.go:140 klog.V(4).Infof, v1.30.1 :109 klog.V(4).InfoS
      '1.20': { file: 'volume_linux.go', line: 140, v: 4, text: 'perform recursive ownership change for {dir}' },
      '1.30': { file: 'volume_linux.go', line: 109, v: 4, msg: 'Perform recursive ownership change for directory', kv: 'path={dir:q}' },
    },
  },
  'kubelet.skipPermissionChange': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'The top directory of {dir} already has the pod\'s group and mode (fsGroupChangePolicy: OnRootMismatch): the kubelet skips the walk over the volume\'s files.',
    explain: 'With OnRootMismatch the kubelet looks at the volume\'s top directory first (requiresPermissionChange). The walk changes that directory last, so a walk that got through leaves it with the group, rwx for owner and group and the setgid bit, and the next SetUp of the volume, for any pod with the same fsGroup, on any node, skips the walk.',
    formats: {
      // SetVolumeOwnership after skipPermissionChange: v1.20.5 volume_linux.go:66 klog.V(3).Infof, v1.30.1 :54 klog.V(3).InfoS
      '1.20': { file: 'volume_linux.go', line: 66, v: 3, text: 'skipping permission and ownership change for volume {dir}' },
      '1.30': { file: 'volume_linux.go', line: 54, v: 3, msg: 'Skipping permission and ownership change for volume', kv: 'path={dir:q}' },
    },
  },
  'kubelet.volumeRootGidMismatch': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'The top directory of {dir} belongs to group {gid}, not the pod\'s: the kubelet walks the volume\'s files (fsGroupChangePolicy: OnRootMismatch).',
    formats: {
      // requiresPermissionChange: v1.20.5 volume_linux.go:159 klog.V(4).Infof, v1.30.1 :128 klog.V(4).InfoS
      '1.20': { file: 'volume_linux.go', line: 159, v: 4, text: 'expected group ownership of volume {dir} did not match with: {gid}' },
      '1.30': { file: 'volume_linux.go', line: 128, v: 4, msg: 'Expected group ownership of volume did not match with Gid', kv: 'path={dir:q} GID={gid}' },
    },
  },
  'kubelet.volumeRootModeMismatch': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'The top directory of {dir} has the pod\'s group but not rwx for owner and group and the setgid bit: the kubelet walks the volume\'s files (fsGroupChangePolicy: OnRootMismatch).',
    formats: {
      // requiresPermissionChange: v1.20.5 volume_linux.go:183 klog.V(4).Infof, v1.30.1 :152 klog.V(4).InfoS
      '1.20': { file: 'volume_linux.go', line: 183, v: 4, text: 'performing recursive ownership change on {dir} because of mismatching mode' },
      '1.30': { file: 'volume_linux.go', line: 152, v: 4, msg: 'Performing recursive ownership change on rootDir because of mismatching mode', kv: 'path={dir:q}' },
    },
  },
  'kubelet.volumeRootStatFailed': {
    source: 'kubelet', stage: 'mount', severity: 'E',
    summary: 'The kubelet could not read the top directory of {dir} ({err}): it walks the volume\'s files anyway (fsGroupChangePolicy: OnRootMismatch).',
    explain: 'requiresPermissionChange only logs a failed stat of the volume\'s top directory and answers that the walk is needed; the walk then meets the same file system, and a failed walk fails SetUp.',
    formats: {
      // requiresPermissionChange: v1.20.5 volume_linux.go:149 klog.Errorf, v1.30.1 :118 klog.ErrorS(err, …)
      '1.20': { file: 'volume_linux.go', line: 149, text: 'performing recursive ownership change on {dir} because reading permissions of root volume failed: {err}' },
      '1.30': { file: 'volume_linux.go', line: 118, msg: 'Performing recursive ownership change on rootDir because reading permissions of root volume failed', kv: 'err={err:q} path={dir:q}' },
    },
  },
  'kubelet.fsGroupApplied': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'The walk giving the files of volume {handle} the pod\'s group {fsGroup} ended without an error (a file whose chown or chmod failed is only logged): SetUp is done.',
    formats: {
      // csi_mounter.go SetUpAt: v1.20.5 :279, v1.30.1 :346, klog.V(4).Info(log(…))
      '1.20': { file: 'csi_mounter.go', line: 279, v: 4, text: 'kubernetes.io/csi: mounter.SetupAt fsGroup [{fsGroup}] applied successfully to {handle}' },
      '1.30': { file: 'csi_mounter.go', line: 346, v: 4, text: 'kubernetes.io/csi: mounter.SetupAt fsGroup [{fsGroup}] applied successfully to {handle}' },
    },
  },
  'kubelet.markVolumeErrorStateLeavingUncertain': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'SetUp of {uniqueName} failed for good, but a restarted kubelet found this pod\'s mount: it stays uncertain, so that it is torn down if the pod goes.',
    explain: 'After a final error a pod\'s mount that was uncertain is normally recorded as not mounted. One found on disk after a kubelet restart may really be mounted, so 1.30 keeps it uncertain: SetUp is tried again, and TearDown (NodeUnpublishVolume) still runs if the pod goes.',
    formats: {
      // v1.30.1 operation_generator.go:815 klog.V(3).InfoS (markVolumeErrorState, IsVolumeReconstructed)
      '1.30': { file: 'operation_generator.go', line: 815, v: 3, msg: 'MountVolume.markVolumeErrorState leaving volume uncertain', kv: 'volumeName={uniqueName:q}' },
    },
  },
  'kubelet.syncStatesReconstructed': {
    source: 'kubelet', stage: 'unmount', severity: 'I',
    summary: 'The kubelet found volume {volume} of pod {podUid} mounted on disk, but no pod wants it any more: it puts it into its actual state of world as mounted, to be unmounted.',
    explain: 'A kubelet that starts again scans the pods\' volume directories once (syncStates). A volume there that no pod wants (its pod was deleted while no kubelet ran) is reconstructed from the directory and recorded as mounted, so that the reconciler unmounts it and the controller can detach it. The pod it knows has only its UID.',
    formats: {
      // v1.20.5 reconciler.go:429 klog.V(2).Infof(…%+v, reconstructedVolume): the struct's pointers print as addresses
      '1.20': { file: 'reconciler.go', line: 429, v: 2, text: 'Reconciler sync states: could not find pod information in desired state, update it in actual state: {detail}' },
    },
  },
  'kubelet.reconstructionFinished': {
    source: 'kubelet', stage: 'other', severity: 'I',
    summary: 'The kubelet has read the volumes on disk into its actual state of world ({count} found).',
    formats: { '1.30': { file: 'reconstruct.go', line: 102, v: 2, msg: 'Volume reconstruction finished' } },
  },
  'kubelet.reconcilerStarted': {
    source: 'kubelet', stage: 'other', severity: 'I',
    summary: 'The volume manager\'s reconciler starts syncing its state with what is on the node.',
    formats: {
      // v1.20.5 reconciler.go:157 klog.Infof, at the first loop after the populator has added the pods (then rc.sync())
      '1.20': { file: 'reconciler.go', line: 157, text: 'Reconciler: start to sync state' },
      // v1.30.1 reconciler.go:26 klog.InfoS, after reconstructVolumes and before the loop
      '1.30': { file: 'reconciler.go', line: 26, msg: 'Reconciler: start to sync state' },
    },
  },
  'kubelet.reconstructedDevicePathsUpdated': {
    source: 'kubelet', stage: 'other', severity: 'I',
    summary: 'The kubelet read node.status.volumesAttached for the reconstructed volumes\' device paths: unmounting may start now.',
    formats: { '1.30': { file: 'reconstruct.go', line: 210, v: 2, msg: 'DevicePaths of reconstructed volumes updated' } },
  },
  'kubelet.nodeExpandVolumeSucceeded': {
    source: 'kubelet', stage: 'resize', severity: 'I',
    summary: 'NodeExpandVolume succeeded: the file system of volume {volume} in pod {podName} has its new size.',
    explain: 'The node plugin grew the file system of the volume (resize2fs or xfs_growfs on the node); the kubelet then marks the claim resized (status.capacity, FileSystemResizePending gone).',
    formats: {
      // v1.20.4 operation_generator.go:1683 klog.Infof(detailedMsg): GenerateMsg with an empty suffix, hence the trailing space
      '1.20': { file: 'operation_generator.go', line: 1683, text: `MountVolume.NodeExpandVolume succeeded for volume ${MOUNT} {suffix}` },
      // legacyCallNodeExpandOnPlugin :2227-2230, GenerateMsg(…, nodeName), read in a 1.28-1.30 copy (its SetUp line is :721 too)
      '1.30': { file: 'operation_generator.go', line: 2235, msg: `MountVolume.NodeExpandVolume succeeded for volume ${MOUNT} {suffix}`, kv: 'pod={kpod:q}' },
    },
  },
  'kubelet.nodeExpandVolumeFailed': {
    source: 'kubelet', stage: 'resize', severity: 'E',
    summary: 'Growing the file system of a mounted volume failed: {err}',
    cause: 'NodeExpandVolume failed on the node (the file system tool failed, the device has not grown yet, or the node plugin has no EXPAND_VOLUME), or the claim could not be read or marked resized.',
    next: 'Read the node plugin\'s log on this node for NodeExpandVolume, and the VolumeResizeFailed event on the pod. The kubelet retries with backoff; the claim keeps FileSystemResizePending until it works.',
    formats: {
      // doOnlineExpansion: klog.Errorf(e2.Error()), v1.20.4 operation_generator.go:1601-1602
      '1.20': { file: 'operation_generator.go', line: 1602, text: `NodeExpandVolume.NodeExpandVolume failed for volume ${MOUNT} : {err}` },
      '1.30': { file: 'operation_generator.go', line: 2048, text: `NodeExpandVolume.NodeExpandVolume failed for volume ${MOUNT} : {err}` },
    },
  },
  'kubelet.mountNodeExpandFailed': {
    source: 'kubelet', stage: 'resize', severity: 'E',
    summary: 'Growing the file system right after staging failed: {err}',
    cause: 'The claim was expanded while no pod used it (FileSystemResizePending); the kubelet finishes that right after MountDevice, and NodeExpandVolume failed.',
    next: 'Read the node plugin\'s log for NodeExpandVolume. The mount is retried with backoff; the pod waits in ContainerCreating with a FailedMount event.',
    formats: {
      // v1.20.4 operation_generator.go:617 (the try after MountDevice); 1.30 has no such try
      '1.20': { file: 'operation_generator.go', line: 617, text: 'MountVolume.NodeExpandVolume failed with {err}' },
    },
  },
  'kubelet.setUpNodeExpandFailed': {
    source: 'kubelet', stage: 'resize', severity: 'E',
    summary: 'Growing the file system after NodePublishVolume failed: {err}',
    cause: 'The claim was expanded while no pod used it (FileSystemResizePending); the kubelet finishes that when it mounts the volume into the pod, and NodeExpandVolume failed.',
    next: 'Read the node plugin\'s log for NodeExpandVolume. The mount is retried with backoff; the pod waits in ContainerCreating with a FailedMount event.',
    formats: {
      '1.20': { file: 'operation_generator.go', line: 683, text: 'MountVolume.NodeExpandVolume failed with {err}' },
      // GenerateMountVolumeFunc :726, after expandVolumeDuringMount (1.28-1.30 copy)
      '1.30': { file: 'operation_generator.go', line: 726, text: 'MountVolume.NodeExpandVolume failed with {err}' },
    },
  },
  'kubelet.unmountVolumeStarted': {
    source: 'kubelet', stage: 'unmount', severity: 'I',
    summary: 'Pod {podUid} no longer needs volume {volume}: the kubelet starts unmounting it from the pod.',
    variants: { block: 'Pod {podUid} no longer needs raw block volume {volume}: the kubelet starts unmapping it (UnmapVolume; the line still says UnmountVolume).' },
    formats: {
      // MountedVolume.GenerateMsgDetailed names the pod's volume (OuterVolumeSpecName), not the PV (operation_executor.go, v1.19 to v1.30)
      '1.20': { file: 'reconciler.go', line: 196, text: 'operationExecutor.UnmountVolume started for volume {outerName:q} (UniqueName: {uniqueName:q}) pod {podUid:q} (UID: {podUid:q}) ' },
      '1.30': { file: 'reconciler_common.go', line: 161, msg: 'operationExecutor.UnmountVolume started for volume {outerName:q} (UniqueName: {uniqueName:q}) pod {podUid:q} (UID: {podUid:q}) ' },
    },
  },
  'kubelet.tearDownSucceeded': {
    source: 'kubelet', stage: 'unmount', severity: 'I',
    summary: 'NodeUnpublishVolume succeeded: volume {volume} is unmounted from pod {podUid}.',
    formats: {
      // seed 000's build prints it at :782; v1.20.5 has it at :797
      '1.20': { file: 'operation_generator.go', line: 782, text: 'UnmountVolume.TearDown succeeded for volume {uniqueName:q} (OuterVolumeSpecName: {outerName:q}) pod {podUid:q} (UID: {podUid:q}). InnerVolumeSpecName {volume:q}. PluginName "kubernetes.io/csi", VolumeGidValue ""' },
      // still klog.Infof in 1.2x (observed operation_generator.go:803); read at v1.30.7 (:887, the call's first line)
      '1.30': { file: 'operation_generator.go', line: 887, text: 'UnmountVolume.TearDown succeeded for volume {uniqueName:q} (OuterVolumeSpecName: {outerName:q}) pod {podUid:q} (UID: {podUid:q}). InnerVolumeSpecName {volume:q}. PluginName "kubernetes.io/csi", VolumeGidValue ""' },
    },
  },
  'kubelet.unmountDeviceStarted': {
    source: 'kubelet', stage: 'unmount', severity: 'I',
    summary: 'No pod on {node} uses volume {volume} any more: the kubelet starts unstaging it.',
    variants: { block: 'No pod on {node} uses raw block volume {volume} any more: the kubelet starts UnmapDevice (the line still says UnmountDevice).' },
    formats: {
      '1.20': { file: 'reconciler.go', line: 312, text: `operationExecutor.UnmountDevice started for volume ${DEVICE} ` },
      // line read in v1.30.1 source
      '1.30': { file: 'reconciler_common.go', line: 282, msg: `operationExecutor.UnmountDevice started for volume ${DEVICE} ` },
    },
  },
  'kubelet.unmountDeviceSucceeded': {
    source: 'kubelet', stage: 'unmount', severity: 'I',
    summary: 'UnmountDevice succeeded for volume {volume} on {node}: unstaged (NodeUnstageVolume), or nothing to unstage when the driver has no STAGE_UNSTAGE_VOLUME.',
    variants: {
      staged: 'NodeUnstageVolume succeeded: volume {volume} is no longer staged on {node}.',
      notStaged: 'UnmountDevice had nothing to unstage (the driver has no STAGE_UNSTAGE_VOLUME): the kubelet removes the volume\'s global directory on {node}.',
    },
    formats: {
      // The real 1.20 quirk: klog.Infof(msg, "") with a message that has no verb left, hence %!(EXTRA …).
      '1.20': { file: 'operation_generator.go', line: 869, text: `UnmountDevice succeeded for volume {volume:q} %!(EXTRA string=UnmountDevice succeeded for volume ${DEVICE} )` },
      // fixed later: klog.Info(deviceToDetach.GenerateMsgDetailed(...)), plain text (master-era
      // operation_generator.go); line read in v1.30.1 source
      '1.30': { file: 'operation_generator.go', line: 1001, text: `UnmountDevice succeeded for volume ${DEVICE} ` },
    },
  },
  'kubelet.volumeDetached': {
    // the last step of the kubelet's teardown (reconciler_common.go unmountDetachDevices: MarkVolumeAsDetached in its
    // own actual state of world once the device is unmounted): nothing is detached here, the controller detaches later
    source: 'kubelet', stage: 'unmount', severity: 'I',
    summary: 'The kubelet forgets volume {volume}: detaching it is the attach/detach controller\'s job.',
    formats: {
      '1.20': { file: 'reconciler.go', line: 319, text: `Volume detached for volume ${DEVICE} DevicePath {devicePath:q}` },
      // observed reconciler.go:319 structured on 1.21/1.22; read at v1.30.7 (reconciler_common.go:289)
      '1.30': { file: 'reconciler_common.go', line: 289, msg: `Volume detached for volume ${DEVICE} DevicePath {devicePath:q}` },
    },
  },
  'kubelet.addedVolumeToDesiredState': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'Pod {kpod} needs volume {outerName} (PersistentVolume {volume}): added to the desired state of world.',
    formats: {
      '1.20': { file: 'desired_state_of_world_populator.go', line: 346, v: 4, text: 'Added volume {outerName:q} (volSpec={volume:q}) for pod {podUid:q} to desired state.' },
      '1.30': { file: 'desired_state_of_world_populator.go', line: 332, v: 4, msg: 'Added volume to desired state', kv: 'pod={kpod:q} volumeName={outerName:q} volumeSpecName={volume:q}' },
    },
  },
  'kubelet.unableToAttachOrMount': {
    source: 'kubelet', stage: 'mount', severity: 'E',
    summary: 'Pod {kpod} waited 2m3s for its volumes and gives up for now: {err}',
    cause: 'A volume of the pod was not attached or not mounted within 2m3s (podAttachAndMountTimeout).',
    next: 'Look at the earlier "Operation for … failed" lines of this volume, at the VolumeAttachment and at node.status.volumesAttached.',
    formats: {
      // v1.20.5 kubelet.go:1684 (klog.Errorf); 1701 is a later release's structured line
      '1.20': { file: 'kubelet.go', line: 1684, text: 'Unable to attach or mount volumes for pod {podDesc:q}: {err}; skipping pod' },
    },
  },
  'kubelet.podWorkerSyncError': {
    source: 'kubelet', stage: 'mount', severity: 'E',
    summary: 'The pod worker gives up this sync of pod {kpod} and will sync it again: {err}',
    cause: 'The pod\'s sync returned an error; after a volume wait it is that wait\'s timeout (its volumes were not attached or mounted in 2m3s).',
    next: 'Look at the earlier "Operation for … failed" lines of the volumes it names, at the VolumeAttachment and at node.status.volumesAttached.',
    formats: {
      // v1.20.5 pod_workers.go:191 managePodLoop; v1.30.7 pod_workers.go:1298 podWorkerLoop (klog.ErrorS, still printed
      // when 1.28+ kubelet.go keeps the timeout's event and its own line quiet, kubernetes#117412)
      '1.20': { file: 'pod_workers.go', line: 191, text: 'Error syncing pod {podUid} ({podDesc:q}), skipping: {err}' },
      '1.30': { file: 'pod_workers.go', line: 1298, msg: 'Error syncing pod, skipping', kv: 'err={err:q} pod={kpod:q} podUID={podUid:q}' },
    },
  },
  'kubelet.validatePlugin': {
    source: 'kubelet', stage: 'register', severity: 'I',
    summary: 'The kubelet validates the CSI driver {driver} announced on its registration socket.',
    formats: {
      // lines read at the tags: v1.20.5 :101, v1.30.7 :100
      '1.20': { file: 'csi_plugin.go', line: 101, text: 'kubernetes.io/csi: Trying to validate a new CSI Driver with name: {driver} endpoint: {endpoint} versions: {versions}' },
      '1.30': { file: 'csi_plugin.go', line: 100, text: 'kubernetes.io/csi: Trying to validate a new CSI Driver with name: {driver} endpoint: {endpoint} versions: {versions}' },
    },
  },
  'kubelet.registerPlugin': {
    source: 'kubelet', stage: 'register', severity: 'I',
    summary: 'The kubelet registers CSI driver {driver} at {endpoint}.',
    formats: {
      // lines read at the tags: v1.20.5 :114, v1.30.7 :113
      '1.20': { file: 'csi_plugin.go', line: 114, text: 'kubernetes.io/csi: Register new plugin with name: {driver} at endpoint: {endpoint}' },
      '1.30': { file: 'csi_plugin.go', line: 113, text: 'kubernetes.io/csi: Register new plugin with name: {driver} at endpoint: {endpoint}' },
    },
  },
  'kubelet.registerPluginStarted': {
    source: 'kubelet', stage: 'register', severity: 'I',
    summary: 'The kubelet\'s plugin manager starts registering the plugin whose socket is {path}.',
    formats: {
      // v1.20.5 reconciler.go:156 klog.V(1).Infof(GenerateMsgDetailed(…)): "%v for plugin at %q %v %v" with
      // "(plugin details: %v)" of the *PluginInfo {SocketPath Timestamp Handler Name} and an empty suffix
      '1.20': { file: 'reconciler.go', line: 156, v: 1, text: 'operationExecutor.RegisterPlugin started for plugin at {path:q} (plugin details: &{{path} {timestamp} <nil> }) ' },
      // v1.30.1 reconciler.go:161 klog.V(1).InfoS(…, "plugin", pluginToRegister): klog v2.120.1 prints a struct as JSON
      '1.30': { file: 'reconciler.go', line: 161, v: 1, msg: 'OperationExecutor.RegisterPlugin started', kv: 'plugin={plugin}' },
    },
  },
  'kubelet.registerPluginFailed': {
    source: 'kubelet', stage: 'register', severity: 'E',
    summary: 'Registering the plugin at {path} failed; the kubelet tries again in {duration}: {err}',
    cause: 'node-driver-registrar did not answer GetInfo on its registration socket, or announced a plugin the kubelet does not accept.',
    next: 'Check the node-driver-registrar container of the driver DaemonSet on this node. The kubelet retries with a doubling delay (up to 2m2s).',
    // the plugin manager's RegisterPlugin runs on a goroutinemap with exponential backoff, which logs the
    // operation's error (pkg/util/goroutinemap/goroutinemap.go:150, exponential_backoff.go:73; the
    // error %q-quoted in v1.20.5, %v in v1.30.1); the operation name is the socket path, which {path:p}
    // asks of a line, for the PV controller prints "Operation for \"delete-<pv>[<uid>]\"" at the same line
    formats: {
      '1.20': { file: 'goroutinemap.go', line: 150, text: 'Operation for "{path:p}" failed. No retries permitted until {until} (durationBeforeRetry {duration}). Error: {err:q}' },
      '1.30': { file: 'goroutinemap.go', line: 150, text: 'Operation for "{path:p}" failed. No retries permitted until {until} (durationBeforeRetry {duration}). Error: {err}' },
    },
  },
});

/** One-sentence trace summaries of its API writes and CSI calls. */
export const kubeletSummaries = defineSummaries({
  'kubelet.controllerManagedAttach': 'The kubelet on {node} marks its Node as managed by the attach/detach controller ({annotation}=true).',
  'kubelet.nodeReady': 'The kubelet on {node} reports its Node Ready.',
  /** volumes: the volumesInUse names joined with " " */
  'kubelet.volumesInUse': 'The kubelet on {node} reports volumesInUse [{volumes}] in its node status.',
  'kubelet.nodeStatusHeartbeat': 'The kubelet on {node} posts its node status heartbeat.',
  'kubelet.podDeleted': 'The kubelet on {node} has unmounted every volume of pod {pod} and deletes it for good (grace period 0).',
  'kubelet.podPending': 'The kubelet on {node} syncs pod {pod} for the first time and writes its status before it waits for the volumes: Pending, its containers waiting as ContainerCreating (what kubectl get pod shows while a volume is not mounted).',
  /** SetVolumeOwnership (pkg/volume/volume_linux.go): the kubelet's own walk, after NodePublishVolume */
  'kubelet.setVolumeOwnership': 'The kubelet on {node} gives every file and directory under {dir} the pod\'s fsGroup {fsGroup}: the group, read and write for it, the setgid bit on directories (SetVolumeOwnership). A volume of many files takes a while; SetUp is done only after it.',
  /** skipPermissionChange -> requiresPermissionChange (fsGroupChangePolicy OnRootMismatch) */
  'kubelet.statVolumeRoot': 'The kubelet on {node} looks at the top directory of {dir} first (fsGroupChangePolicy: OnRootMismatch): with group {fsGroup} and its mode already there, it skips the walk over the files.',
  'kubelet.podRunning': 'The kubelet on {node} has started the containers of pod {pod}: it is Running and Ready.',
  'kubelet.podContainersTerminated': 'The kubelet on {node} has stopped the containers of pod {pod} and writes their terminated state: the attach/detach controller now counts the pod as terminated, whatever its volumes.',
  'kubelet.pluginGetInfo': "The kubelet's plugin watcher found {path} and asks the plugin what it is.",
  'kubelet.pluginGetInfoAgain': 'The kubelet\'s plugin manager registers {path} again, its backoff over: it asks the plugin what it is (GetInfo).',
  'kubelet.nodeIDAnnotation': 'The kubelet records CSI node ID {nodeID} of driver {driver} in the {annotation} annotation of Node {node}.',
  'kubelet.csiNodeDriver': 'The kubelet adds driver {driver} (node ID {nodeID}) to CSINode {node}.',
  'kubelet.notifyRegistered': 'The kubelet tells node-driver-registrar that driver {driver} is registered.',
  'kubelet.nodeUnpublishVolume': 'The kubelet asks the CSI node plugin to unmount volume {pvName} from pod {pod}.',
  'kubelet.nodeUnpublishVolumeForBlock': 'The kubelet has removed the device links of raw block volume {pvName} from pod {pod} and asks the CSI node plugin to unpublish it.',
  'kubelet.markFSResizeFinished': 'The kubelet on {node} marks claim {claim} resized: status.capacity {size}, the FileSystemResizePending condition gone.',
});
