/**
 * Version profiles: what differs between the Kubernetes releases the site shows. Message wording and
 * file:line pairs live in each component's message catalog, keyed by profile id; this file holds the
 * behaviour switches and component versions.
 */
import type { LogSource, ProfileId } from '../shared/messages.ts';
import { SIDECAR_RETRY_INTERVAL_MAX, SIDECAR_RETRY_INTERVAL_START } from '../shared/timing.ts';

export interface Profile {
  id: ProfileId;
  /** the Kubernetes release the profile stands for */
  kubernetesVersion: string;
  /** sidecar images of that era */
  sidecars: { provisioner: string; attacher: string; registrar: string; resizer: string; snapshotter: string };
  /** klog -v of each program, as commonly deployed (sidecars at -v=5 in the seeds' logs) */
  verbosity: Record<LogSource, number>;
  /** at which -v each program's event broadcaster logs the Events it records (undefined: never) */
  eventLogV: Partial<Record<LogSource, number>>;
  /**
   * A/D controller skips the detach branch while a detach operation is pending or in exponential
   * backoff (kubernetes#104526, first in v1.23, cherry-picked to 1.21/1.22), and puts the volume back
   * in the report list when DetachVolume fails to start. Without it: seed 002's bug.
   */
  adcDetachBackoffFix: boolean;
  /** the attach/detach controller's UpdateNodeStatuses returns "unable to update N nodes" (1.30 node_status_updater.go), not the write's error (1.20) */
  adcUpdateNodeStatusesCountsFailures: boolean;
  /**
   * A/D controller marks a volume Uncertain when its detach fails, so that it is attached again
   * (and only then reported in node.status.volumesAttached); before, it went straight back in the
   * report list. kubernetes#120595 (1.29). upstream: operation_generator.go GenerateDetachVolumeFunc
   */
  adcUncertainOnDetachFailure: boolean;
  /**
   * A/D controller's CSI attacher waits for the VolumeAttachment by polling its lister with backoff
   * (500ms ×1.05, ≤7s) instead of a watch, and says on timeout "timed out waiting for external-attacher
   * of <driver> CSI driver to attach|detach volume <handle>" instead of "attachment|detachment timeout
   * for volume <handle>". upstream: pkg/volume/csi/csi_attacher.go (waitForVolumeAttachmentWithLister)
   */
  adcPollsVolumeAttachment: boolean;
  /** A/D controller force-detaches after 6m only when the node is unhealthy (newer releases) */
  adcForceDetachOnlyIfUnhealthy: boolean;
  /**
   * The snapshot-controller records SnapshotCreated and SnapshotReady on the VolumeSnapshot when it
   * copies a cut and a ready content into it (external-snapshotter v4.2.0 on; v8.0.1
   * pkg/common-controller/snapshot_controller.go:1240 and :1250; v4.0.0 records neither).
   */
  snapshotReadyEvents: boolean;
  /**
   * The snapshot-controller copies the source PV's volumeMode into the content's spec.sourceVolumeMode
   * (--prevent-volume-mode-conversion, on by default: v8.0.1 cmd/snapshot-controller/main.go:74;
   * v4.0.0 has no such field).
   */
  snapshotSourceVolumeMode: boolean;
  /**
   * external-snapshotter writes finalizers, annotations and content statuses with JSON patches
   * (v8.0.1: utils.PatchVolumeSnapshotContent, PatchVolumeSnapshot; a snapshot that has no finalizer yet
   * still gets them by Update); v4.0.0 Updates (UpdateStatus) the copy it holds for each of them.
   */
  snapshotWritesByPatch: boolean;
  /**
   * csi-snapshotter queues a content update only when ShouldEnqueueContentChange says it may need a sync (not its status,
   * finalizers, resourceVersion or its own being-created annotation): v8.0.1 snapshot_controller_base.go :119-125,
   * pkg/utils/util.go :682-715, since v8.0.0, external-snapshotter#1009; v4.0.0 queued every update (:97)
   */
  snapshotterFiltersContentUpdates: boolean;
  /**
   * The snapshot-controller's workqueues after a failed sync (µs): v4.0.0 builds them with client-go's
   * DefaultControllerRateLimiter (5ms doubling to 1000s, pkg/common-controller/snapshot_controller_base.go:93-94);
   * v8.0.1 with --retry-interval-start 1s and --retry-interval-max 5m (cmd/snapshot-controller/main.go:71-72).
   */
  snapshotControllerRetry: { start: number; max: number };
  /**
   * csi-snapshotter's content queue after a failed sync (µs): v4.0.0 builds it with client-go's DefaultControllerRateLimiter
   * (5ms doubling to 1000s, pkg/sidecar-controller/snapshot_controller_base.go NewCSISnapshotSideCarController; the
   * --retry-interval-* flags came in v4.2); v8.0.1 with --retry-interval-start 1s and --retry-interval-max 5m.
   */
  snapshotterRetry: { start: number; max: number };
  /**
   * csi-snapshotter v4.0.0 writes a failed attempt's error status from the copy its sync began with
   * (updateContentErrorStatusWithEvent(content, …), pkg/sidecar-controller/snapshot_controller.go:104, :121, :159): after
   * a lost Update that copy is stale and the write conflicts too; v8.0.1 writes from what the attempt returned (:121).
   */
  snapshotterErrorStatusFromSyncCopy: boolean;
  /**
   * csi-snapshotter's error for a failed CreateSnapshot, before the volume handle: "failed to take snapshot of the
   * volume, %s: %q" in v4.0.0 (pkg/sidecar-controller/snapshot_controller.go:309), without the comma in v8.0.1 (:350).
   */
  snapshotTakeErrorPrefix: string;
  /**
   * After a final CreateSnapshot error, a failed removal of the being-created annotation is wrapped with %q in
   * v4.0.0 (snapshot_controller.go:305) and with %s in v8.0.1 (:346).
   */
  snapshotRemoveAnnotationErrorQuoted: boolean;
  /**
   * csi-snapshotter records the failed attempt's event even when writing the error into the content's status
   * failed (v4.0.0 updateContentErrorStatusWithEvent, snapshot_controller.go:152); v8.0.1 only after the write (:201-204).
   */
  snapshotErrorEventOnFailedWrite: boolean;
  /**
   * The expand controller's ExternalExpanding message for a volume no in-tree plugin expands (pkg/controller/volume/expand
   * expand_controller.go syncHandler): "Ignoring the PVC: …; waiting for an external controller to process this PVC."
   * until kubernetes#115345 (1.27) shortened it to "waiting for an external controller to expand this PVC".
   */
  expandControllerExternalMessage: string;
  /**
   * The kubelet's "unattached volumes=[…]" lists every volume of the pod: getUnattachedVolumes looked the pod's
   * volume names up as unique volume names in the actual state of world, which never matches (kubernetes#82075,
   * fixed in 1.26 by #112719; pkg/kubelet/volumemanager/volume_manager.go, v1.20.5 :410-418).
   */
  kubeletUnattachedListsEveryVolume: boolean;
  /**
   * The kubelet asks the node plugin's capabilities a second time before NodeStageVolume and before
   * NodePublishVolume, for VOLUME_MOUNT_GROUP (NodeSupportsVolumeMountGroup: v1.30.7 csi_attacher.go:392,
   * csi_mounter.go:246; DelegateFSGroupToCSIDriver, alpha in 1.22, GA in 1.26); 1.20 asks once each.
   */
  kubeletChecksVolumeMountGroup: boolean;
  /**
   * A failed directory read names the directory (Go 1.16 on: "readdirent <dir>: input/output error"); the Go 1.15 a
   * v1.20 kubelet is built with says "readdirent: input/output error" (golang/go#38923). SetVolumeOwnership's walk returns it.
   */
  goReaddirErrorNamesPath: boolean;
  /**
   * A missing CSI client (the driver not registered) fails MountDevice and raw block's SetUpDevice and MapPodDevice with a
   * plain error, a finished one, which marks an uncertain device or pod mapping not mounted (v1.20.5 csi_attacher.go:254,
   * csi_block.go:302, :365); 1.30 returns a transient one, which leaves them as they were (v1.30.1 csi_attacher.go:293,
   * csi_block.go:324, :386). SetUp's is transient in both (csi_mounter.go v1.20.5 :114, v1.30.1 :110).
   */
  kubeletDriverClientErrorFinished: boolean;
  /**
   * The kubelet's NodeExpand reads the PV's nodeExpandSecretRef (getCredentialsFromSecret) after the EXPAND_VOLUME check,
   * and NodeExpandVolume carries its keys (the CSINodeExpandSecret gate: alpha 1.25, on by default from 1.27, GA 1.29;
   * v1.30.1 pkg/volume/csi/expander.go :85-101). 1.20's CSIPersistentVolumeSource has no such field.
   */
  kubeletReadsNodeExpandSecret: boolean;
  /**
   * csi_client's NodeStageVolume, NodePublishVolume and NodeExpandVolume first ask NodeGetCapabilities for
   * SINGLE_NODE_MULTI_WRITER and map the PV's access mode by the answer (getNodeV1AccessModeMapper: v1.30.1
   * csi_client.go :237, :305, :408, :489-531; with ReadWriteOncePod, 1.22 on). 1.20's map it without asking.
   */
  kubeletMapsAccessModeByCapability: boolean;
  /**
   * The AnyVolumeDataSource feature gate (beta, on by default, since 1.24; alpha and off in 1.20): the API
   * server copies a new claim's spec.dataSource into spec.dataSourceRef (NormalizeDataSources,
   * pkg/api/persistentvolumeclaim/util.go).
   */
  anyVolumeDataSource: boolean;
  /**
   * The API server knows the ReadWriteOncePod access mode (alpha 1.22, GA 1.29); 1.20's validation refuses a claim or
   * volume that names it: `spec.accessModes: Unsupported value: "ReadWriteOncePod": supported values: "ReadOnlyMany",
   * "ReadWriteMany", "ReadWriteOnce"` (v1.20.5 pkg/apis/core/validation/validation.go :1632, :1657-1658, :1975).
   */
  apiReadWriteOncePod: boolean;
  /**
   * The taint eviction controller's Event reference carries APIVersion "v1" (1.30 taint_eviction.go
   * emitPodDeletionEvent); 1.20's taint_manager.go builds it from Kind, Name and Namespace only.
   */
  taintEvictionRefApiVersion: boolean;
  /** kubelet staging path: .../csi/pv/<pv>/globalmount (≤1.2x) or .../csi/<driver>/<sha256>/globalmount */
  stagingPathStyle: 'pv' | 'driverHash';
  /** external-attacher ≥ v4.9 removes the VA finalizer before clearing status.attached */
  attacherRemovesFinalizerFirst: boolean;
  /** external-attacher v3.1.0 asks ControllerGetCapabilities twice at start-up (supportsControllerPublish, then supportsListVolumesPublishedNodes); v4.x once */
  attacherCapabilityCalls: 1 | 2;
  /** the fsType external-attacher puts in the volume capability when the PV has none: v3.1.0 "ext4", v4.x --default-fstype (empty) */
  attacherDefaultFsType: string;
  /**
   * How csi-attacher turns a PV's access modes into ControllerPublishVolume's: v3.1.0 by its own switch (no
   * ReadWriteOncePod: "unsupported AccessMode combination"), v4.x by csi-lib-utils accessmodes (ReadWriteOncePod ->
   * SINGLE_NODE_WRITER, or SINGLE_NODE_SINGLE_WRITER for a driver with SINGLE_NODE_MULTI_WRITER). See external-attacher/helpers.ts.
   */
  attacherAccessModes: 'v3' | 'csi-lib-utils';
  /** external-attacher v3.1.0 logs "CSINode … does not contain driver" and gives up on the annotation; v4.x goes on to the annotation fallback */
  attacherStopsAtCSINodeWithoutDriver: boolean;
  /**
   * kubelet's reconciler starts VerifyControllerAttachedVolume only for a volume already reported in
   * node.status.volumesInUse (kubernetes#106853, 1.24); before, the operation ran and failed.
   */
  kubeletVerifyWaitsForInUse: boolean;
  /**
   * The same change (kubernetes#106853, 1.24) has GenerateVerifyControllerAttachedVolumeFunc look at the kubelet's cached
   * Node first: an attachable volume not yet in its status.volumesAttached is a MountPreConditionFailedError ("volume … is
   * not yet in node's status"), which the reconciler expects: no operation, no line, no backoff; it tries again at its
   * next pass (v1.30.1 operation_generator.go:1505-1516, reconciler_common.go:308-310). Before, the operation ran and
   * failed "Volume not attached according to node status", backing off.
   */
  kubeletVerifyWaitsForNodeStatus: boolean;
  /**
   * VerifyControllerAttachedVolume first GETs the PV's claim when the actual state of world has no claim size for the
   * volume yet, and records the claim's status.capacity with MarkVolumeAsAttached (InitializeClaimSize; v1.30.1
   * operation_generator.go:1519-1533, :1549, :1582): a failed GET fails the check, "VerifyControllerAttachedVolume fetching
   * pvc failed". v1.20.5's reads no claim there.
   */
  kubeletVerifyReadsClaim: boolean;
  /**
   * When the kubelet deletes a terminated pod whose volumes are gone: 1.20 at the status manager's next
   * syncBatch, a tick every syncPeriod (10s) from its start, because nothing else syncs the pod once the
   * volume manager is done (v1.20.5 pkg/kubelet/status/status_manager.go :117 syncPeriod, :160 the ticker,
   * :598-607 needsUpdate → canBeDeleted); seed 000 shows it (TearDown at 14:58:08.57, the new pod's first line
   * at 14:58:18.88). Later releases' pod worker waits for the unmount itself (SyncTerminatedPod, WaitForUnmount)
   * and then syncs the status: the delete follows at once.
   */
  kubeletDeletesPodAtStatusSync: boolean;
  /** kubelet emits the FailedMount "Unable to attach or mount volumes … timed out" event and E line after 2m3s (up to 1.27: kubernetes#117412 dropped both for a timeout) */
  kubeletFailedMountOnTimeout: boolean;
  /**
   * The kubelet writes the pod's PodReadyToStartContainers condition, its sandbox's (feature gate
   * PodReadyToStartContainersCondition, beta and on since 1.29: v1.30.1 pkg/features/kube_features.go:1162,
   * kubelet_pods.go:1839).
   */
  kubeletPodReadyToStartContainersCondition: boolean;
  /** the kubelet's pod status also lists hostIPs (PodHostIPs, GA and locked on in 1.30: pkg/features/kube_features.go v1.30.1 :1164; the field is 1.28's) */
  kubeletWritesHostIPs: boolean;
  /**
   * Once a deleted pod's containers have stopped, the kubelet writes a terminal phase (Succeeded when every
   * container exited 0), whatever the restart policy (1.27+: SyncTerminatingPod's generateAPIPodStatus(pod, status,
   * true), v1.30.1 kubelet.go:2113; getPhase's podIsTerminal, kubelet_pods.go:1656). 1.20's getPhase keeps a
   * restartPolicy Always pod Running until it is deleted.
   */
  kubeletTerminalPhaseOnTermination: boolean;
  /**
   * Where MountVolume finishes an expansion the controller left to the node (FileSystemResizePending):
   * 'afterMountDevice' (1.20: right after MountDevice, NodeExpandVolume on the staging path; again
   * after SetUp only when that did not finish it) or 'afterSetUp' (1.30: expandVolumeDuringMount, on
   * the pod's publish path). upstream: operation_generator.go GenerateMountVolumeFunc (v1.20.4 :603-614
   * and :680-686; 1.30 expandVolumeDuringMount).
   */
  kubeletMountExpands: 'afterMountDevice' | 'afterSetUp';
  /**
   * A node plugin without the EXPAND_VOLUME node capability: 1.30 counts the expansion as done (a -v=4
   * line, the claim stays FileSystemResizePending); 1.20 fails the operation and retries.
   * upstream: operation_generator.go legacyCallNodeExpandOnPlugin (IsOperationNotSupportedError), v1.20.4 csi/expander.go:82-84.
   */
  kubeletNodeExpandUnsupportedIsDone: boolean;
  /**
   * The kubelet's "MountVolume.NodeExpandVolume succeeded for volume …" line and event end in the
   * node's name (1.30: legacyCallNodeExpandOnPlugin GenerateMsg(…, nodeName)); 1.20's end in a space
   * (v1.20.4 operation_generator.go:1680-1683, GenerateMsg with an empty suffix).
   */
  kubeletExpandMessageNamesNode: boolean;
  /**
   * UnmapVolume marks the pod's volume, UnmapDevice the device, uncertain before it starts, so that a
   * failure halfway leaves them to be unmapped again (operation_generator.go GenerateUnmapVolumeFunc,
   * GenerateUnmapDeviceFunc).
   */
  kubeletBlockUnmapMarksUncertain: boolean;
  /**
   * A raw block volume's NodePublishVolume carries the pod's information too when the CSIDriver asks for it
   * (podInfoOnMount: v1.30.1 csi_block.go publishVolumeForBlock :222-235); v1.20.5's publishVolumeForBlock adds none
   * (:199-262). A file system's SetUp adds it in both (csi_mounter.go v1.20.5 :223-228 podAttributes, v1.30.1 :229-235).
   */
  kubeletBlockPodInfo: boolean;
  /**
   * How csi_mounter.go's TearDownAt says it failed: v1.20.5 "mounter.TearDownAt failed: %v", and "mounter.SetUpAt failed
   * to get CSI client: %v" when the driver is not registered (:403, :396: SetUpAt's words, copied there); v1.30.1
   * "Unmounter.TearDownAt failed: %v" and "Unmounter.TearDownAt failed to get CSI client: %v" (:434, :426).
   */
  kubeletTearDownErrors: { client: string; call: string };
  /**
   * The status message of a call whose server process died while serving it, as the caller's grpc-go
   * prints it: v1.27.1 (vendored by v1.20.5) closes the stream with ErrConnClosing, "transport is
   * closing" (internal/transport/transport.go:748); v1.59.0 (vendored by v1.30.1) with the reader's
   * error, "error reading from server: EOF" (internal/transport/http2_client.go:1612).
   */
  grpcConnectionClosedMessage: string;
  /**
   * At start the kubelet reconstructs its actual state of world from the pod volume directories on
   * disk: every volume it finds is marked uncertain (device and pod mount), mounted again if a pod still
   * wants it, unmounted if not (1.30: NewVolumeManagerReconstruction, GA in 1.30;
   * reconciler/reconstruct.go). 1.20 reconstructs only volumes no pod wants any more, as mounted,
   * once after its first reconciler pass (syncStates): its restarted kubelet verifies and mounts every
   * wanted volume from scratch.
   */
  kubeletReconstructsUncertain: boolean;
  /**
   * csi-provisioner puts external-provisioner.volume.kubernetes.io/finalizer on the PVs of its driver
   * (HonorPVReclaimPolicy: Alpha and off in v2.1.0, Beta and on in v5.0.1 pkg/features/features.go:62;
   * csi-provisioner.go:395-397 then sets controller.AddFinalizer(true)), and takes it off after
   * DeleteVolume and the PV's Delete (lib v10 controller.go:1573-1604).
   */
  provisionerAddsFinalizer: boolean;
  /**
   * csi-provisioner records on every PV it creates which Secret DeleteVolume needs
   * (volume.kubernetes.io/provisioner-deletion-secret-name and -namespace, both "" when the class names none) and
   * reads them when it deletes the volume, before the StorageClass, which may be gone by then: since v3.2.0
   * (v5.0.1 pkg/controller/controller.go :923-931, :1296-1316). v2.1.0 reads the class's parameters only.
   */
  provisionerDeletionSecretAnnotations: boolean;
  /**
   * csi-provisioner knows the class keys csi.storage.k8s.io/node-expand-secret-name and -namespace and puts a
   * nodeExpandSecretRef on the PV: since v3.3.0 (v5.0.1 pkg/controller/controller.go :101-102, :727-738, :1014-1015).
   * v2.1.0 knows no such key: a class that names it fails removePrefixedParameters ("found unknown parameter key").
   */
  provisionerNodeExpandSecret: boolean;
  /**
   * Non-graceful node shutdown (NodeOutOfServiceVolumeDetach: alpha 1.24, GA 1.28): the A/D controller
   * detaches at once, without the safe-to-detach check, from a node with the
   * node.kubernetes.io/out-of-service taint (reconciler.go hasOutOfServiceTaint), and the pod garbage
   * collector force-deletes the terminating pods of such a node when it is not Ready (gc_controller.go
   * gcTerminating). 1.20 has neither.
   */
  adcOutOfServiceTaint: boolean;
  podGcTerminating: boolean;
  /** PodGC marks a pod Failed before its force delete (PodDisruptionConditions / JobPodReplacementPolicy, beta on in 1.30) */
  podGcMarksFailed: boolean;
  /** the StatefulSet controller labels each pod apps.kubernetes.io/pod-index (PodIndexLabel, 1.28+) */
  statefulSetPodIndexLabel: boolean;
  /**
   * a FailedScheduling message ends with the default preemption plugin's diagnosis, "preemption: 0/N
   * nodes are available: …" (defaultpreemption/default_preemption.go PostFilter prefixes
   * "preemption: "); the 1.20 message has no such part
   */
  schedulerPreemptionMessage: boolean;
  /**
   * The scheduler's VolumeRestrictions plugin keeps a pod off every node while another scheduled pod uses one of its
   * ReadWriteOncePod claims ("node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access
   * mode"; Unschedulable, so preemption looks for victims: "No preemption victims found for incoming pod" among pods of
   * the same priority). v1.30.1 plugins/volumerestrictions/volume_restrictions.go :55, :225-239, :279-287;
   * defaultpreemption/default_preemption.go :180. ReadWriteOncePod is alpha in 1.22, GA in 1.29: 1.20 has no such mode.
   */
  schedulerReadWriteOncePod: boolean;
  /** the taint eviction controller adds DisruptionTarget (DeletionByTaintManager) before deleting (PodDisruptionConditions, 1.26+) */
  podDisruptionConditions: boolean;
  /** PVC storage-provisioner annotations written by the PV controller */
  provisionerAnnotations: ('beta' | 'ga')[];
  /**
   * csi-resizer's syncPVC looks for the claim's volume (spec.volumeName, then the PV in its cache) before it asks whether the
   * claim needs resizing (v1.11.1 controller.go:306-333); v1.1.0 asks first (:303-315).
   */
  resizerLooksUpPvFirst: boolean;
  /** csi-resizer queues a claim again when its status capacity grows, "case 3" of updatePVC (v1.11.1 controller.go:224-226; not in v1.1.0) */
  resizerRequeuesOnCapacityGrowth: boolean;
  /**
   * csi-resizer asks ControllerGetCapabilities before each ControllerExpandVolume, for SINGLE_NODE_MULTI_WRITER in the access
   * mode (v1.11.1 csi_resizer.go:176 getVolumeCapabilities → :194 → client.go:141; v1.1.0 does not)
   */
  resizerAsksControllerCapabilities: boolean;
  /**
   * The PV controller's ExternalProvisioning Event message, `{provisioner}` for the class's provisioner:
   * v1.20.5 pv_controller.go:1687 (%q), v1.30.1 :1841-1843 ('%s', and advice on what to check).
   */
  externalProvisioningMessage: string;
  /**
   * external-provisioner's checkError counts ResourceExhausted (without a reschedule) as final,
   * "the CSI driver has run out of space" (v5.0.1); v2.1.0 counted it as in the background.
   * upstream: pkg/controller/controller.go checkError
   */
  provisionerResourceExhaustedFinal: boolean;
  /** the provisioner library logs shouldDelete's verdict at -v=5 for every PV it syncs (lib v10 controller.go:1256-1290; v6.2.0 logs nothing there) */
  provisionerLogsShouldDelete: boolean;
}

const SIDECAR_V = 5;

/** -v as commonly deployed, the same in both eras: control plane at 2, sidecars and drivers at 5 */
const VERBOSITY: Profile['verbosity'] = {
  'kube-controller-manager': 2, 'kube-scheduler': 2, kubelet: 2,
  'csi-provisioner': SIDECAR_V, 'csi-attacher': SIDECAR_V, 'csi-resizer': SIDECAR_V, 'csi-snapshotter': SIDECAR_V, 'snapshot-controller': SIDECAR_V,
  'node-driver-registrar': SIDECAR_V, 'csi-driver-controller': SIDECAR_V, 'csi-driver-node': SIDECAR_V,
};

/** at which -v each program's event broadcaster logs its Events (the kubelet's structured sink at V3) */
// (csi-snapshotter: StartLogging(klog.Infof), pkg/sidecar-controller/snapshot_controller_base.go v4.0.0:77, v8.0.1:99)
/** client-go's DefaultControllerRateLimiter, per item: 5ms doubling to 1000s (µs); external-snapshotter v4.0.0's queues. */
const CLIENT_GO_DEFAULT_RETRY = { start: 5_000, max: 1000_000_000 };
/** The kubernetes-csi programs' --retry-interval-start and --retry-interval-max defaults: 1s doubling to 5m (µs). */
const RETRY_INTERVAL_FLAGS = { start: SIDECAR_RETRY_INTERVAL_START, max: SIDECAR_RETRY_INTERVAL_MAX };
const EVENT_LOG_V: Profile['eventLogV'] = { 'kube-controller-manager': 0, 'csi-provisioner': 0, 'csi-resizer': 0, 'csi-snapshotter': 0, 'snapshot-controller': 0, 'kube-scheduler': 0, kubelet: 3 };

export const PROFILES: Record<ProfileId, Profile> = {
  '1.20': {
    id: '1.20',
    kubernetesVersion: 'v1.20.6',
    // The seeds' sidecar lines (controller.go:198, csi_handler.go:216 …) match this era's attacher.
    sidecars: { provisioner: 'v2.1.0', attacher: 'v3.1.0', registrar: 'v2.1.0', resizer: 'v1.1.0', snapshotter: 'v4.0.0' },
    verbosity: VERBOSITY,
    eventLogV: EVENT_LOG_V,
    adcDetachBackoffFix: false,
    adcUpdateNodeStatusesCountsFailures: false,
    adcUncertainOnDetachFailure: false,
    adcPollsVolumeAttachment: false,
    snapshotReadyEvents: false,
    snapshotSourceVolumeMode: false,
    snapshotWritesByPatch: false,
    snapshotterFiltersContentUpdates: false,
    snapshotControllerRetry: CLIENT_GO_DEFAULT_RETRY,
    snapshotterRetry: CLIENT_GO_DEFAULT_RETRY,
    snapshotterErrorStatusFromSyncCopy: true,
    snapshotTakeErrorPrefix: 'failed to take snapshot of the volume, ',
    snapshotRemoveAnnotationErrorQuoted: true,
    snapshotErrorEventOnFailedWrite: true,
    expandControllerExternalMessage: "Ignoring the PVC: didn't find a plugin capable of expanding the volume; waiting for an external controller to process this PVC.",
    kubeletUnattachedListsEveryVolume: true,
    kubeletChecksVolumeMountGroup: false,
    goReaddirErrorNamesPath: false,
    kubeletDriverClientErrorFinished: true,
    kubeletReadsNodeExpandSecret: false,
    kubeletMapsAccessModeByCapability: false,
    anyVolumeDataSource: false,
    apiReadWriteOncePod: false,
    taintEvictionRefApiVersion: false,
    adcForceDetachOnlyIfUnhealthy: false,
    stagingPathStyle: 'pv',
    attacherRemovesFinalizerFirst: false,
    attacherCapabilityCalls: 2,
    attacherDefaultFsType: 'ext4',
    attacherAccessModes: 'v3',
    attacherStopsAtCSINodeWithoutDriver: true,
    kubeletVerifyWaitsForInUse: false,
    kubeletVerifyWaitsForNodeStatus: false,
    kubeletVerifyReadsClaim: false,
    kubeletDeletesPodAtStatusSync: true,
    kubeletFailedMountOnTimeout: true,
    kubeletPodReadyToStartContainersCondition: false,
    kubeletWritesHostIPs: false,
    kubeletTerminalPhaseOnTermination: false,
    kubeletMountExpands: 'afterMountDevice',
    kubeletNodeExpandUnsupportedIsDone: false,
    kubeletExpandMessageNamesNode: false,
    // v1.20.5 GenerateUnmapVolumeFunc / GenerateUnmapDeviceFunc mark nothing uncertain (the fix came later, not backported)
    kubeletBlockUnmapMarksUncertain: false,
    kubeletBlockPodInfo: false,
    kubeletTearDownErrors: { client: 'mounter.SetUpAt failed to get CSI client', call: 'mounter.TearDownAt failed' },
    kubeletReconstructsUncertain: false,
    grpcConnectionClosedMessage: 'transport is closing',
    provisionerAddsFinalizer: false,
    provisionerDeletionSecretAnnotations: false,
    provisionerNodeExpandSecret: false,
    adcOutOfServiceTaint: false,
    podGcTerminating: false,
    podGcMarksFailed: false,
    statefulSetPodIndexLabel: false,
    schedulerPreemptionMessage: false,
    schedulerReadWriteOncePod: false,
    podDisruptionConditions: false,
    provisionerAnnotations: ['beta'],
    resizerLooksUpPvFirst: false,
    resizerRequeuesOnCapacityGrowth: false,
    resizerAsksControllerCapabilities: false,
    externalProvisioningMessage: 'waiting for a volume to be created, either by external provisioner "{provisioner}" or manually created by system administrator',
    provisionerResourceExhaustedFinal: false,
    provisionerLogsShouldDelete: false,
  },
  '1.30': {
    id: '1.30',
    kubernetesVersion: 'v1.30.4',
    sidecars: { provisioner: 'v5.0.1', attacher: 'v4.6.1', registrar: 'v2.11.1', resizer: 'v1.11.1', snapshotter: 'v8.0.1' },
    verbosity: VERBOSITY,
    eventLogV: EVENT_LOG_V,
    adcDetachBackoffFix: true,
    adcUpdateNodeStatusesCountsFailures: true,
    adcUncertainOnDetachFailure: true,
    adcPollsVolumeAttachment: true,
    snapshotReadyEvents: true,
    snapshotSourceVolumeMode: true,
    snapshotWritesByPatch: true,
    snapshotterFiltersContentUpdates: true,
    snapshotControllerRetry: RETRY_INTERVAL_FLAGS,
    snapshotterRetry: RETRY_INTERVAL_FLAGS,
    snapshotterErrorStatusFromSyncCopy: false,
    snapshotTakeErrorPrefix: 'failed to take snapshot of the volume ',
    snapshotRemoveAnnotationErrorQuoted: false,
    snapshotErrorEventOnFailedWrite: false,
    expandControllerExternalMessage: 'waiting for an external controller to expand this PVC',
    kubeletUnattachedListsEveryVolume: false,
    kubeletChecksVolumeMountGroup: true,
    goReaddirErrorNamesPath: true,
    kubeletDriverClientErrorFinished: false,
    kubeletReadsNodeExpandSecret: true,
    kubeletMapsAccessModeByCapability: true,
    anyVolumeDataSource: true,
    apiReadWriteOncePod: true,
    taintEvictionRefApiVersion: true,
    adcForceDetachOnlyIfUnhealthy: true,
    stagingPathStyle: 'driverHash',
    attacherRemovesFinalizerFirst: false,
    attacherCapabilityCalls: 1,
    attacherDefaultFsType: '',
    attacherAccessModes: 'csi-lib-utils',
    attacherStopsAtCSINodeWithoutDriver: false,
    kubeletVerifyWaitsForInUse: true,
    kubeletVerifyWaitsForNodeStatus: true,
    kubeletVerifyReadsClaim: true,
    kubeletDeletesPodAtStatusSync: false,
    kubeletFailedMountOnTimeout: false,
    kubeletPodReadyToStartContainersCondition: true,
    kubeletWritesHostIPs: true,
    kubeletTerminalPhaseOnTermination: true,
    kubeletMountExpands: 'afterSetUp',
    kubeletNodeExpandUnsupportedIsDone: true,
    kubeletExpandMessageNamesNode: true,
    kubeletBlockUnmapMarksUncertain: true,
    kubeletBlockPodInfo: true,
    kubeletTearDownErrors: { client: 'Unmounter.TearDownAt failed to get CSI client', call: 'Unmounter.TearDownAt failed' },
    kubeletReconstructsUncertain: true,
    grpcConnectionClosedMessage: 'error reading from server: EOF',
    provisionerAddsFinalizer: true,
    provisionerDeletionSecretAnnotations: true,
    provisionerNodeExpandSecret: true,
    adcOutOfServiceTaint: true,
    podGcTerminating: true,
    podGcMarksFailed: true,
    statefulSetPodIndexLabel: true,
    schedulerPreemptionMessage: true,
    schedulerReadWriteOncePod: true,
    podDisruptionConditions: true,
    provisionerAnnotations: ['beta', 'ga'],
    resizerLooksUpPvFirst: true,
    resizerRequeuesOnCapacityGrowth: true,
    resizerAsksControllerCapabilities: true,
    externalProvisioningMessage: "Waiting for a volume to be created either by the external provisioner '{provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
    provisionerResourceExhaustedFinal: true,
    provisionerLogsShouldDelete: true,
  },
};

export const PROFILE_IDS = Object.keys(PROFILES) as ProfileId[];
export const isProfileId = (s: string): s is ProfileId => s in PROFILES;
export const getProfile = (id: ProfileId): Profile => PROFILES[id];
