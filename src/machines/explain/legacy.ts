/**
 * Lines of older sidecars that users still paste, which no version profile prints, and a few lines of
 * current components that no flow here prints: the log explainer knows them, the cluster never
 * renders them. Only lines whose text differs from what the profiles'
 * releases print are here; the others (provision "ns/claim" class "sc": started, Attaching "csi-…",
 * GRPC call: …) are already known by their text, whatever file:line an older release gives them.
 * Read at the tags named per entry (external-provisioner v1.0.1 to v1.6.0, external-attacher v1.0.0 to
 * v2.2.x, node-driver-registrar v1.0.1 to v2.0.1, csi-lib-utils v0.3.0 to v0.9.1; audit of 2026-12-03).
 * Each format is keyed '1.20', the profile of the printf era they belong to.
 */
import { defineMessages } from '../shared/messages.ts';

export const legacyMessages = defineMessages({

  // ---- lines of current components that no flow here prints

  'pvController.deleteOperationFailed': {
    source: 'kube-controller-manager', stage: 'delete', severity: 'E',
    summary: 'The PV controller\'s deletion of volume {pv} failed; it tries again in {duration}: {err}',
    cause: 'An in-tree or migrated volume whose deleter failed, or a PV whose plugin the controller does not know (a CSI PV is deleted by its external-provisioner, not here).',
    next: 'Read the error. "no deletable volume plugin matched": the PV\'s driver has no provisioner that deletes it; delete the disk and the PV by hand.',
    // the PV controller runs deleteVolumeOperation on a goroutinemap named "delete-<pv>[<uid>]"
    // (pv_controller.go:1182 in v1.30.1); goroutinemap.go:150 logs the failure with its backoff
    // (exponential_backoff.go:73: the error %q-quoted in v1.20.5, %v in v1.30.1)
    formats: {
      '1.20': { file: 'goroutinemap.go', line: 150, text: 'Operation for "delete-{pv}[{uid}]" failed. No retries permitted until {until} (durationBeforeRetry {duration}). Error: {err:q}' },
      '1.30': { file: 'goroutinemap.go', line: 150, text: 'Operation for "delete-{pv}[{uid}]" failed. No retries permitted until {until} (durationBeforeRetry {duration}). Error: {err}' },
    },
  },
  'pvController.provisionOperationFailed': {
    source: 'kube-controller-manager', stage: 'provision', severity: 'E',
    summary: 'The PV controller\'s provisioning for claim {claim} failed; it tries again in {duration}: {err}',
    cause: 'An in-tree provisioner failed; for a CSI class the claim is external-provisioner\'s, and this line does not come.',
    next: 'Read the error and the claim\'s ProvisioningFailed event.',
    // "provision-<ns>/<claim>[<uid>]" (pv_controller.go:1563 in v1.30.1), logged by goroutinemap.go:150
    formats: {
      '1.20': { file: 'goroutinemap.go', line: 150, text: 'Operation for "provision-{claim}[{uid}]" failed. No retries permitted until {until} (durationBeforeRetry {duration}). Error: {err:q}' },
      '1.30': { file: 'goroutinemap.go', line: 150, text: 'Operation for "provision-{claim}[{uid}]" failed. No retries permitted until {until} (durationBeforeRetry {duration}). Error: {err}' },
    },
  },

  // the kubelet's CSI client at -v=4 (no profile here logs the kubelet that verbosely)
  'kubelet.nodeSupportsStageUnstage': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'The kubelet asks the node plugin (NodeGetCapabilities) whether it stages volumes (STAGE_UNSTAGE_VOLUME), as MountDevice and SetUp do before their call (UnmountDevice too).',
    // csiDriverClient.NodeSupportsStageUnstage: v1.20.5 csi_client.go:467; v1.30.1 nodeSupportsCapability csi_client.go:675
    // with the capability's name; SINGLE_NODE_MULTI_WRITER and VOLUME_MOUNT_GROUP are asked inside the publish too
    formats: {
      '1.20': { file: 'csi_client.go', line: 467, v: 4, text: 'kubernetes.io/csi: calling NodeGetCapabilities rpc to determine if NodeSupportsStageUnstage' },
      '1.30': { file: 'csi_client.go', line: 675, v: 4, text: 'kubernetes.io/csi: calling NodeGetCapabilities rpc to determine if the node service has {capability} capability' },
    },
  },
  'kubelet.nodeSupportsNodeExpand': {
    source: 'kubelet', stage: 'resize', severity: 'I',
    summary: 'The kubelet asks the node plugin (NodeGetCapabilities) whether it expands file systems (EXPAND_VOLUME), before NodeExpandVolume.',
    // v1.20.5 csi_client.go:436; v1.30.1 :675 with EXPAND_VOLUME
    formats: {
      '1.20': { file: 'csi_client.go', line: 436, v: 4, text: 'kubernetes.io/csi: calling NodeGetCapabilities rpc to determine if Node has EXPAND_VOLUME capability' },
      '1.30': { file: 'csi_client.go', line: 675, v: 4, text: 'kubernetes.io/csi: calling NodeGetCapabilities rpc to determine if the node service has EXPAND_VOLUME capability' },
    },
  },
  'kubelet.nodeSupportsVolumeStats': {
    source: 'kubelet', stage: 'other', severity: 'I',
    summary: 'The kubelet asks the node plugin (NodeGetCapabilities) whether it reports volume usage (GET_VOLUME_STATS), for its metrics: no step of a volume\'s life.',
    // v1.20.5 csi_client.go:558 (V(5)); v1.30.1 :675 with GET_VOLUME_STATS (VOLUME_CONDITION alike)
    formats: {
      '1.20': { file: 'csi_client.go', line: 558, v: 5, text: 'kubernetes.io/csi: calling NodeGetCapabilities rpc to determine if NodeSupportsVolumeStats' },
      '1.30': { file: 'csi_client.go', line: 675, v: 4, text: 'kubernetes.io/csi: calling NodeGetCapabilities rpc to determine if the node service has GET_VOLUME_STATS capability' },
    },
  },
  'kubelet.volumeDataSaved': {
    source: 'kubelet', stage: 'mount', severity: 'I',
    summary: 'The kubelet saves the volume\'s data file (vol_data.json: driver, volume handle, PV) beside the mount, so that it can unmount it after a restart.',
    // saveVolumeData, v1.20.5 and v1.30.1 csi_util.go:70; called by MountDevice (csi_attacher.go), SetUpAt or NewMounter
    // (csi_mounter.go / csi_plugin.go) and the block mapper: the mount side only
    formats: {
      '1.20': { file: 'csi_util.go', line: 70, v: 4, text: 'kubernetes.io/csi: volume data file saved successfully [{path}]' },
      '1.30': { file: 'csi_util.go', line: 70, v: 4, text: 'kubernetes.io/csi: volume data file saved successfully [{path}]' },
    },
  },

  'externalProvisioner.legacyStartingController': {
    source: 'csi-provisioner', stage: 'other', severity: 'I',
    summary: 'The provisioning controller {name} starts its claim and volume loops.',
    // lib v5.0.0 controller.go:799 "Starting provisioner controller %s!" (:848 "Started …"), external-provisioner v1.6.0
    formats: { '1.20': { file: 'controller.go', line: 799, text: 'Starting provisioner controller {name}!' } },
  },
  'externalProvisioner.legacySavingInBackground': {
    source: 'csi-provisioner', stage: 'other', severity: 'I',
    summary: 'csi-provisioner will save the PersistentVolumes it creates through a background queue that retries.',
    // lib v5.0.0 controller.go:709 klog.V(2).Infof
    formats: { '1.20': { file: 'controller.go', line: 709, v: 2, text: 'Using saving PVs to API server in background' } },
  },
  'externalProvisioner.legacyClaimSucceeded': {
    source: 'csi-provisioner', stage: 'provision', severity: 'I',
    summary: 'The claim worker is done with claim {uid}: it is no longer in progress.',
    // lib v4.0.1+ controller.go:1014 (v1.4/v1.5), :1045 (v1.6.0) klog.V(5).Infof; %s is the claim's UID
    formats: { '1.20': { file: 'controller.go', line: 1045, v: 5, text: 'Claim processing succeeded, removing PVC {uid} from claims in progress' } },
  },
  'externalProvisioner.legacyRetryingBelowThreshold': {
    source: 'csi-provisioner', stage: 'provision', severity: 'W',
    summary: 'Provisioning claim {claim} failed again; the controller retries while the failures stay below its threshold.',
    cause: 'CreateVolume or saving the PV failed; external-provisioner v1.0 gives a claim up after 15 failures.',
    next: 'Read the error syncing claim line and the ProvisioningFailed event; the driver\'s CreateVolume error is in them.',
    // lib v2.0.0-alpha controller.go:685 glog.Warningf, external-provisioner v1.0.1 (key "ns/name")
    formats: { '1.20': { file: 'controller.go', line: 685, text: 'Retrying syncing claim {claim:q} because failures {failures} < threshold {threshold}' } },
  },

  'externalProvisioner.parameterDeprecated': {
    source: 'csi-provisioner', stage: 'provision', severity: 'W',
    summary: 'The StorageClass still uses the parameter {param}; csi-provisioner reads it while it prepares CreateVolume, but asks for {newParam} instead.',
    next: 'Harmless for now: rename the StorageClass parameter (StorageClass parameters cannot be edited: create a new class).',
    // external-provisioner v3.6.0 pkg/controller/controller.go:620 klog.Warningf(deprecationWarning("fstype", prefixedFsTypeKey, ""))
    // in ProvisionExt; the text from deprecationWarning (controller.go:1830)
    formats: { '1.20': { file: 'controller.go', line: 620, text: '{param:q} is deprecated and will be removed in a future release, please use {newParam:q} instead' } },
  },

  'externalAttacher.legacyStillTrying': {
    source: 'csi-attacher', stage: 'other', severity: 'I',
    summary: 'The sidecar is still waiting for the CSI driver\'s socket (connection state {state}).',
    // external-attacher v1.0.x pkg/connection/connection.go:115 and node-driver-registrar v1.0.x :96, glog.V(4)
    formats: { '1.20': { file: 'connection.go', line: 115, v: 4, text: 'Still trying, connection is {state}' } },
  },
  'externalAttacher.legacyReconciling': {
    source: 'csi-attacher', stage: 'other', severity: 'I',
    summary: 'csi-attacher compares its VolumeAttachments with what the driver says is published (ListVolumes).',
    // v2.1.x csi_handler.go:119 klog.V(4).Info
    formats: { '1.20': { file: 'csi_handler.go', line: 119, v: 4, text: 'Reconciling VolumeAttachments with driver backend state' } },
  },
  'externalAttacher.legacyForcedReprocessing': {
    source: 'csi-attacher', stage: 'attach', severity: 'W',
    summary: 'VolumeAttachment {va} says attached {attached} but the driver says {actual}: csi-attacher processes it again.',
    cause: 'The volume was detached or attached behind Kubernetes\' back (by hand in the cloud console, or by the driver after a failure).',
    next: 'Watch the VolumeAttachment: csi-attacher calls ControllerPublishVolume again to make the two agree.',
    // v2.1.x csi_handler.go:177 klog.Warningf
    formats: { '1.20': { file: 'csi_handler.go', line: 177, text: 'VA {va} for volume {volume} has attached status {attached} but actual state {actual}. Adding back to VA queue for forced reprocessing' } },
  },
  'nodeDriverRegistrar.legacyDiscoverNodeId': {
    source: 'node-driver-registrar', stage: 'register', severity: 'I',
    summary: 'node-driver-registrar v1.0 asks the driver for its node ID itself (NodeGetInfo).',
    // v1.0.1 pkg/.../node_register.go:55 glog.V(1)
    formats: { '1.20': { file: 'node_register.go', line: 55, v: 1, text: 'Calling CSI driver to discover node ID.' } },
  },
  'nodeDriverRegistrar.legacyNodeId': {
    source: 'node-driver-registrar', stage: 'register', severity: 'I',
    summary: 'The driver reports node ID {nodeID}.',
    // v1.0.1 node_register.go:63 glog.V(2)
    formats: { '1.20': { file: 'node_register.go', line: 63, v: 2, text: 'CSI driver node ID: {nodeID:q}' } },
  },
  'nodeDriverRegistrar.legacyNodeAnnotation': {
    source: 'node-driver-registrar', stage: 'register', severity: 'I',
    summary: 'Without --kubelet-registration-path, node-driver-registrar v1.0 writes the node ID annotation on the Node itself.',
    // v1.0.1 node_register.go:112 glog.V(1)
    formats: { '1.20': { file: 'node_register.go', line: 112, v: 1, text: 'Attempt to update node annotation if needed' } },
  },


  // ---- older ceph-csi (seed 004's cluster): the RBD lines whose words changed since; the profiles print v3.12.2's.
  // Each names the current message it is an older wording of (sameAs): seed 004's quoted lines pair with those steps.
  // {prefix} is ceph-csi's "ID: <n> Req-ID: <id> " (or nothing, as the seed quotes them).

  'csiControllerPlugin.legacyCephCreatedVolume': {
    source: 'csi-driver-controller', stage: 'provision', severity: 'I', sameAs: 'csiControllerPlugin.cephCreatedVolume',
    summary: 'Volume {requestName} now exists, backed by RBD image {imageName}.',
    // ceph-csi v3.4.0 internal/rbd/controllerserver.go:662 util.DebugLog (v3.5.0 on: "created image %s backed for request name %s")
    formats: { '1.20': { file: 'controllerserver.go', line: 662, v: 4, text: '{prefix}created volume {requestName} backed by image {imageName}' } },
  },
  'csiControllerPlugin.legacyCephSnapCreate': {
    source: 'csi-driver-controller', stage: 'provision', severity: 'I', sameAs: 'csiControllerPlugin.cephSnapCreate',
    summary: 'ceph-csi takes snapshot {snapName} (the older line leaves out the image it is taken of).',
    // v3.4.0 rbd_util.go:1184 prints the snapshot before createSnapshot named its image: "rbd/@<snap>"
    formats: { '1.20': { file: 'rbd_util.go', line: 1184, v: 4, text: '{prefix}rbd: snap create {pool}/@{snapName} using mon {monitors}' } },
  },
  'csiControllerPlugin.legacyCephClone': {
    source: 'csi-driver-controller', stage: 'provision', severity: 'I', sameAs: 'csiControllerPlugin.cephClone',
    summary: 'ceph-csi clones image {cloneName} from snapshot {parentName}@{snapName}.',
    // v3.4.0 rbd_util.go:1221: the new image by name, without its pool
    formats: { '1.20': { file: 'rbd_util.go', line: 1221, v: 4, text: '{prefix}rbd: clone {pool}/{parentName}@{snapName} {cloneName} (features: {features}) using mon {monitors}' } },
  },
  'csiControllerPlugin.legacyCephTempImageNotFound': {
    source: 'csi-driver-controller', stage: 'delete', severity: 'I', sameAs: 'csiControllerPlugin.cephRbdDelete',
    summary: 'No {imageName} temporary clone exists; nothing to remove there.',
    // seed 004's ceph-csi build, DeleteVolume's look for the "-temp" clone (upstream v3.4.0 and on try to delete it
    // and log "rbd: delete <image>-temp …" instead)
    formats: { '1.20': { file: 'rbd_util.go', line: 646, v: 4, text: '{prefix}Can not find rbd image: {imageName}, but maybe no error' } },
  },
});
