/**
 * external-attacher (csi-attacher sidecar) log lines.
 * '1.20': external-attacher v3.1.0 (printf klog; file:line at that tag, matching seed 000) with
 *         csi-lib-utils v0.9.0 (connection.go, rpc/common.go).
 * '1.30': external-attacher v4.6.1 (contextual logging: every line carries driver=… and, inside a
 *         VolumeAttachment sync, VolumeAttachment=…) with csi-lib-utils v0.18.1. The driver= key is
 *         the form of a csi-attacher run without --leader-election, as this machine runs: main.go:168
 *         puts driver on the logger, and only run(klog.NewContext(…)) (main.go:278) hands it on. With
 *         leader election (upstream's deploy/kubernetes/deployment.yaml, most charts) csi-lib-utils'
 *         leader_election.go calls run with a bare context, so "Starting CSI attacher" carries no key
 *         and the sync lines start at VolumeAttachment= / PersistentVolume=. The explainer reads both.
 * upstream: kubernetes-csi/external-attacher cmd/csi-attacher/main.go, pkg/controller/{controller,
 * csi_handler,util,trivial_handler}.go; kubernetes-csi/csi-lib-utils connection/connection.go, rpc/common.go.
 */
import { logGrpcFormats } from '../shared/logGrpc.ts';
import { probeForeverMessages } from '../shared/probeForever.messages.ts';
import { defineMessages, defineSummaries, type MessageDef } from '../shared/messages.ts';

const D = 'driver={driver:q}';
const VA = 'driver={driver:q} VolumeAttachment={va:q}';
const PV = 'driver={driver:q} PersistentVolume={pv:q}';

type Def = Omit<MessageDef, 'source'>;
const m = (d: Def): MessageDef => ({ source: 'csi-attacher', ...d });
const PROBE_FOREVER = probeForeverMessages('csi-attacher');

/** csi-lib-utils LogGRPC: the same printf lines in 1.20; in 1.30 the logger values of the caller's context come first. */
const grpcCall = (kv: string): MessageDef => m({
  stage: 'attach', severity: 'I', summary: 'csi-attacher sends the gRPC call {method} to the CSI driver.',
  formats: logGrpcFormats.call(kv),
});
const grpcResponse = (kv: string): MessageDef => m({
  stage: 'attach', severity: 'I', summary: 'The CSI driver answers {method}: {response}, error {err}.',
  formats: logGrpcFormats.response('{errValue}', kv),
});

export const externalAttacherMessages = defineMessages({
  // ------------------------------------------------------------ start-up (main.go, csi-lib-utils)
  'externalAttacher.version': m({
    stage: 'other', severity: 'I', summary: 'csi-attacher {version} starts.',
    formats: {
      '1.20': { file: 'main.go', line: 93, text: 'Version: {version}' },
      '1.30': { file: 'main.go', line: 109, msg: 'Version', kv: 'version={version:q}' },
    },
  }),
  'externalAttacher.connecting': m({
    stage: 'other', severity: 'I', summary: 'csi-attacher connects to the CSI driver socket {address}.',
    formats: {
      '1.20': { file: 'connection.go', line: 153, text: 'Connecting to {address}' },
      '1.30': { file: 'connection.go', line: 234, msg: 'Connecting', kv: 'address={address:q}', v: 5 },
    },
  }),
  'externalAttacher.probing': m({
    stage: 'other', severity: 'I', summary: 'csi-attacher asks the CSI driver (Probe) whether it is ready.',
    formats: {
      '1.20': { file: 'common.go', line: 111, text: 'Probing CSI driver for readiness' },
      '1.30': { file: 'common.go', line: 143, msg: 'Probing CSI driver for readiness' },
    },
  }),
  'externalAttacher.probeTimedOut': m(PROBE_FOREVER.probeTimedOut),
  'externalAttacher.driverNotReady': m(PROBE_FOREVER.driverNotReady),
  'externalAttacher.probeFailed': m({
    stage: 'other', severity: 'E', summary: 'Probe failed ({err}); csi-attacher exits.',
    cause: 'The CSI driver returned an error to Probe.', next: 'Fix the CSI driver; the sidecar container restarts and probes again.',
    formats: {
      '1.20': { file: 'main.go', line: 135, text: '{err}' },
      '1.30': { file: 'main.go', line: 155, msg: 'Failed to probe the CSI driver', kv: 'err={err:q}' },
    },
  }),
  'externalAttacher.getDriverNameFailed': m({
    stage: 'other', severity: 'E', summary: 'GetPluginInfo failed ({err}); csi-attacher exits.',
    cause: 'The CSI driver returned an error to GetPluginInfo.', next: 'Check the CSI driver log; the sidecar restarts.',
    formats: {
      '1.20': { file: 'main.go', line: 144, text: '{err}' },
      '1.30': { file: 'main.go', line: 165, msg: 'Failed to get the CSI driver name', kv: 'err={err:q}' },
    },
  }),
  'externalAttacher.capabilitiesFailed': m({
    stage: 'other', severity: 'E', summary: 'Reading the plugin capabilities failed ({err}); csi-attacher exits.',
    cause: 'GetPluginCapabilities returned an error.', next: 'Check the CSI driver log; the sidecar restarts.',
    formats: {
      '1.20': { file: 'main.go', line: 165, text: '{err}' },
      '1.30': { file: 'main.go', line: 207, msg: 'Failed to check if the CSI Driver supports the CONTROLLER_SERVICE', kv: `err={err:q} ${D}` },
    },
  }),
  'externalAttacher.controllerCapabilitiesFailed': m({
    stage: 'other', severity: 'E', summary: 'ControllerGetCapabilities failed ({err}); csi-attacher exits.',
    cause: 'The CSI driver returned an error to ControllerGetCapabilities.', next: 'Check the CSI driver log; the sidecar restarts.',
    formats: {
      // v3.1.0 supportsControllerPublish's error, printed bare; v4.6.1 supportsControllerCapabilities'
      '1.20': { file: 'main.go', line: 175, text: '{err}' },
      '1.30': { file: 'main.go', line: 223, msg: 'Failed to controller capability check', kv: `err={err:q} ${D}` },
    },
  }),
  'externalAttacher.listVolumesPublishedNodesFailed': m({
    stage: 'other', severity: 'E', summary: 'The second ControllerGetCapabilities failed ({err}); csi-attacher goes on without LIST_VOLUMES_PUBLISHED_NODES.',
    cause: 'The CSI driver returned an error to the ControllerGetCapabilities call that checks for ListVolumes.',
    next: 'Harmless for attaching: the attacher only does not reconcile VolumeAttachments against the backend.',
    // v4.6.1 asks once and fails on any error (controllerCapabilitiesFailed)
    formats: { '1.20': { file: 'main.go', line: 194, text: 'Failed to check if driver supports ListVolumesPublishedNodes, assuming it does not: {err}' } },
  }),
  'externalAttacher.driverName': m({
    stage: 'other', severity: 'I', summary: 'The CSI driver calls itself {driver}.',
    formats: {
      '1.20': { file: 'main.go', line: 147, text: 'CSI driver name: {driver:q}', v: 2 },
      '1.30': { file: 'main.go', line: 169, msg: 'CSI driver name', kv: D, v: 2 },
    },
  }),
  'externalAttacher.noControllerService': m({
    stage: 'other', severity: 'I', summary: 'The driver has no Controller service: csi-attacher marks every VolumeAttachment attached without calling it.',
    formats: {
      '1.20': { file: 'main.go', line: 170, text: 'CSI driver does not support Plugin Controller Service, using trivial handler', v: 2 },
      '1.30': { file: 'main.go', line: 219, msg: 'CSI driver does not support Plugin Controller Service, using trivial handler', kv: D, v: 2 },
    },
  }),
  'externalAttacher.realHandler': m({
    stage: 'other', severity: 'I', summary: 'The driver supports ControllerPublishVolume/ControllerUnpublishVolume: csi-attacher will call them.',
    formats: {
      '1.20': { file: 'main.go', line: 185, text: 'CSI driver supports ControllerPublishUnpublish, using real CSI handler', v: 2 },
      '1.30': { file: 'main.go', line: 247, msg: 'CSI driver supports ControllerPublishUnpublish, using real CSI handler', kv: D, v: 2 },
    },
  }),
  'externalAttacher.trivialHandler': m({
    stage: 'other', severity: 'I', summary: 'The driver does not publish volumes to nodes: csi-attacher marks every VolumeAttachment attached without calling it.',
    formats: {
      '1.20': { file: 'main.go', line: 188, text: 'CSI driver does not support ControllerPublishUnpublish, using trivial handler', v: 2 },
      '1.30': { file: 'main.go', line: 250, msg: 'CSI driver does not support ControllerPublishUnpublish, using trivial handler', kv: D, v: 2 },
    },
  }),
  'externalAttacher.listVolumesPublishedNodes': m({
    stage: 'other', severity: 'I', summary: 'The driver can list where volumes are published, so csi-attacher will reconcile VolumeAttachments with it.',
    formats: {
      '1.20': { file: 'main.go', line: 198, text: 'CSI driver supports list volumes published nodes. Using capability to reconcile volume attachment objects with actual backend state', v: 2 },
      '1.30': { file: 'main.go', line: 255, msg: 'CSI driver supports list volumes published nodes. Using capability to reconcile volume attachment objects with actual backend state', kv: D, v: 2 },
    },
  }),
  'externalAttacher.starting': m({
    stage: 'other', severity: 'I', summary: 'csi-attacher starts its VolumeAttachment and PersistentVolume workers.',
    formats: {
      '1.20': { file: 'controller.go', line: 121, text: 'Starting CSI attacher' },
      '1.30': { file: 'controller.go', line: 129, msg: 'Starting CSI attacher', kv: D },
    },
  }),

  // ------------------------------------------------------------ gRPC interceptor
  'externalAttacher.grpcCall': grpcCall(''),
  'externalAttacher.grpcCallDriver': grpcCall(`${D} `),
  'externalAttacher.grpcCallVA': grpcCall(`${VA} `),
  'externalAttacher.grpcRequest': m({
    stage: 'attach', severity: 'I', summary: 'The request of {method}: {request}.',
    formats: logGrpcFormats.request(),
  }),
  'externalAttacher.grpcResponse': grpcResponse(''),
  'externalAttacher.grpcResponseDriver': grpcResponse(`${D} `),
  'externalAttacher.grpcResponseVA': grpcResponse(`${VA} `),
  'externalAttacher.grpcError': m({
    stage: 'attach', severity: 'I', summary: 'The error of {method}: {err}.',
    formats: logGrpcFormats.error(),
  }),

  // ------------------------------------------------------------ VolumeAttachment queue (controller.go)
  'externalAttacher.ignoringVAChange': m({
    stage: 'other', severity: 'I', summary: 'Only the attach/detach error of {va} changed; csi-attacher does not queue it again, to keep its backoff.',
    formats: {
      '1.20': { file: 'controller.go', line: 158, text: 'Ignoring VolumeAttachment {va:q} change', v: 3 },
      '1.30': { file: 'controller.go', line: 167, msg: 'Ignoring VolumeAttachment change', kv: VA, v: 3 },
    },
  }),
  'externalAttacher.startedVAProcessing': m({
    stage: 'attach', severity: 'I', summary: 'csi-attacher takes VolumeAttachment {va} from its work queue.',
    formats: {
      '1.20': { file: 'controller.go', line: 198, text: 'Started VA processing {va:q}', v: 4 },
      '1.30': { file: 'controller.go', line: 213, msg: 'Started VolumeAttachment processing', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.vaDeleted': m({
    stage: 'detach', severity: 'I', summary: 'VolumeAttachment {va} is gone from the informer cache; nothing to do.',
    formats: {
      '1.20': { file: 'controller.go', line: 205, text: 'VA {va:q} deleted, ignoring', v: 3 },
      '1.30': { file: 'controller.go', line: 220, msg: 'VolumeAttachment was deleted, ignoring', kv: VA, v: 3 },
    },
  }),
  'externalAttacher.skippingVA': m({
    stage: 'attach', severity: 'I', summary: 'VolumeAttachment {va} belongs to attacher {attacher}, not to this driver; csi-attacher leaves it alone.',
    formats: {
      '1.20': { file: 'controller.go', line: 213, text: 'Skipping VolumeAttachment {va} for attacher {attacher}', v: 4 },
      '1.30': { file: 'controller.go', line: 228, msg: 'Skipping VolumeAttachment for attacher', kv: `${VA} attacher={attacher:q}`, v: 4 },
    },
  }),

  // ------------------------------------------------------------ csi_handler.go sync
  'externalAttacher.processingVA': m({
    stage: 'attach', severity: 'I', summary: 'The CSI handler starts syncing VolumeAttachment {va}.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 216, text: 'CSIHandler: processing VA {va:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 233, msg: 'CSIHandler: processing VolumeAttachment', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.errorProcessing': m({
    stage: 'attach', severity: 'I', summary: 'Syncing {va} failed ({err}); it goes back to the queue with exponential backoff.',
    cause: 'The CSI call or an API write for this VolumeAttachment failed.', next: 'Read the error: the driver\'s reason is after "rpc error: code = …". status.attachError/detachError on the VolumeAttachment holds it too.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 226, text: 'Error processing {va:q}: {err}', v: 2 },
      '1.30': { file: 'csi_handler.go', line: 243, msg: 'Error processing', kv: `${VA} err={err:q}`, v: 2 },
    },
  }),
  'externalAttacher.finishedProcessing': m({
    stage: 'attach', severity: 'I', summary: 'The CSI handler finished syncing {va}; its backoff is reset.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 232, text: 'CSIHandler: finished processing {va:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 249, msg: 'CSIHandler: finished processing', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.alreadyAttached': m({
    // (nothing is attached: the sync only finds the VolumeAttachment attached already)
    stage: 'other', severity: 'I', summary: '{va} already says attached: nothing to do.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 238, text: '{va:q} is already attached', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 256, msg: 'VolumeAttachment is already attached', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.attaching': m({
    stage: 'attach', severity: 'I', summary: 'csi-attacher starts attaching {va}.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 243, text: 'Attaching {va:q}', v: 2 },
      '1.30': { file: 'csi_handler.go', line: 261, msg: 'Attaching', kv: VA, v: 2 },
    },
  }),
  'externalAttacher.failedToSaveAttachError': m({
    stage: 'attach', severity: 'I', summary: 'csi-attacher could not write the attach error into {va}: {err}.',
    cause: 'The status patch of the VolumeAttachment failed.', next: 'Check the API server and the sidecar\'s RBAC for volumeattachments/status.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 250, text: 'Failed to save attach error to {va:q}: {err}', v: 2 },
      '1.30': { file: 'csi_handler.go', line: 267, msg: 'Failed to save attach error to VolumeAttachment', kv: `${VA} err={err:q}`, v: 2 },
    },
  }),
  'externalAttacher.attached': m({
    stage: 'attach', severity: 'I', summary: 'ControllerPublishVolume succeeded for {va}.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 256, text: 'Attached {va:q}', v: 2 },
      '1.30': { file: 'csi_handler.go', line: 273, msg: 'Attached', kv: VA, v: 2 },
    },
  }),
  'externalAttacher.fullyAttached': m({
    stage: 'attach', severity: 'I', summary: '{va} is attached and its status says so.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 262, text: 'Fully attached {va:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 279, msg: 'Fully attached', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.startingDetach': m({
    stage: 'detach', severity: 'I', summary: '{va} is being deleted: csi-attacher starts the detach.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 267, text: 'Starting detach operation for {va:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 285, msg: 'Starting detach operation', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.alreadyDetached': m({
    stage: 'detach', severity: 'I', summary: '{va} has no attacher finalizer: it is already detached.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 269, text: '{va:q} is already detached', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 287, msg: 'VolumeAttachment is already detached', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.detaching': m({
    stage: 'detach', severity: 'I', summary: 'csi-attacher calls ControllerUnpublishVolume for {va}.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 274, text: 'Detaching {va:q}', v: 2 },
      '1.30': { file: 'csi_handler.go', line: 292, msg: 'Detaching', kv: VA, v: 2 },
    },
  }),
  'externalAttacher.failedToSaveDetachError': m({
    stage: 'detach', severity: 'I', summary: 'csi-attacher could not write the detach error into {va}: {err}.',
    cause: 'The status patch of the VolumeAttachment failed.', next: 'Check the API server and the sidecar\'s RBAC for volumeattachments/status.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 281, text: 'Failed to save detach error to {va:q}: {err}', v: 2 },
      '1.30': { file: 'csi_handler.go', line: 299, msg: 'Failed to save detach error to VolumeAttachment', kv: `${VA} err={err:q}`, v: 2 },
    },
  }),
  'externalAttacher.fullyDetached': m({
    stage: 'detach', severity: 'I', summary: '{va} is detached; without its finalizer the API server deletes it.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 287, text: 'Fully detached {va:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 305, msg: 'Fully detached', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.vaFinalizerAlreadySet': m({
    stage: 'attach', severity: 'I', summary: '{va} already carries the attacher finalizer.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 296, text: 'VA finalizer is already set on {va:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 314, msg: 'VolumeAttachment finalizer is already set', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.vaFinalizerAdded': m({
    stage: 'attach', severity: 'I', summary: 'csi-attacher prepares the finalizer {finalizer} for {va} (sent with the node-id annotation in one patch).',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 304, text: 'VA finalizer added to {va:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 322, msg: 'VolumeAttachment finalizer added', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.nodeIDAlreadySet': m({
    stage: 'attach', severity: 'I', summary: '{va} already carries the node-id annotation {nodeID}.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 310, text: 'NodeID annotation is already set on {va:q}', v: 4 },
      // csi_handler.go:327 adds nodeID to the logger
      '1.30': { file: 'csi_handler.go', line: 329, msg: 'NodeID annotation is already set', kv: `${VA} nodeID={nodeID:q}`, v: 4 },
    },
  }),
  'externalAttacher.nodeIDAdded': m({
    stage: 'attach', severity: 'I', summary: 'csi-attacher prepares the annotation csi.alpha.kubernetes.io/node-id={nodeID} for {va}.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 318, text: 'NodeID annotation added to {va:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 337, msg: 'NodeID annotation added', kv: `${VA} nodeID={nodeID:q}`, v: 4 },
    },
  }),
  'externalAttacher.pvFinalizerAlreadySet': m({
    stage: 'attach', severity: 'I', summary: 'PersistentVolume {pv} already carries the attacher finalizer.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 336, text: 'PV finalizer is already set on {pv:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 347, msg: 'PersistentVolume finalizer is already set', kv: `${VA} PersistentVolume={pv:q}`, v: 4 },
    },
  }),
  'externalAttacher.addingPVFinalizer': m({
    stage: 'attach', severity: 'I', summary: 'csi-attacher adds its finalizer to PersistentVolume {pv}, so the PV cannot go while attached.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 342, text: 'Adding finalizer to PV {pv:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 353, msg: 'Adding finalizer to PersistentVolume', kv: `${VA} PersistentVolume={pv:q}`, v: 4 },
    },
  }),
  'externalAttacher.pvFinalizerAdded': m({
    stage: 'attach', severity: 'I', summary: 'PersistentVolume {pv} now carries the attacher finalizer.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 351, text: 'PV finalizer added to {pv:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 362, msg: 'PersistentVolume finalizer added', kv: `${VA} PersistentVolume={pv:q}`, v: 4 },
    },
  }),
  'externalAttacher.startingAttach': m({
    stage: 'attach', severity: 'I', summary: 'csi-attacher gathers the PV, node ID and capabilities for {va}.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 422, text: 'Starting attach operation for {va:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 434, msg: 'Starting attach operation', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.detached': m({
    stage: 'detach', severity: 'I', summary: 'ControllerUnpublishVolume succeeded for {va}.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 575, text: 'Detached {va:q}', v: 2 },
      '1.30': { file: 'csi_handler.go', line: 595, msg: 'Detached', kv: VA, v: 2 },
    },
  }),
  'externalAttacher.savingAttachError': m({
    stage: 'attach', severity: 'I', summary: 'csi-attacher writes the attach error into status.attachError of {va}.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 585, text: 'Saving attach error to {va:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 606, msg: 'Saving attach error', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.savedAttachError': m({
    stage: 'attach', severity: 'I', summary: 'status.attachError of {va} holds the error now.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 596, text: 'Saved attach error to {va:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 617, msg: 'Saved attach error', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.savingDetachError': m({
    stage: 'detach', severity: 'I', summary: 'csi-attacher writes the detach error into status.detachError of {va}.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 601, text: 'Saving detach error to {va:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 623, msg: 'Saving detach error', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.savedDetachError': m({
    stage: 'detach', severity: 'I', summary: 'status.detachError of {va} holds the error now.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 612, text: 'Saved detach error to {va:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 634, msg: 'Saved detach error', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.foundNodeID': m({
    stage: 'attach', severity: 'I', summary: 'CSINode {node} says the driver knows this node as {nodeID}.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 715, text: 'Found NodeID {nodeID} in CSINode {node}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 757, msg: 'Found nodeID in CSINode', kv: `${VA} nodeID={nodeID:q} CSINode={node:q}`, v: 4 },
    },
  }),
  'externalAttacher.csiNodeLacksDriver': m({
    stage: 'attach', severity: 'I', summary: 'CSINode {node} has no entry for driver {driver}: the node plugin has not registered there.',
    formats: { '1.20': { file: 'csi_handler.go', line: 720, text: 'CSINode {node} does not contain driver {driver}', v: 4 } },
  }),
  'externalAttacher.cantGetCSINode': m({
    stage: 'attach', severity: 'I', summary: 'csi-attacher cannot read the node ID of {node} from CSINode: {err}.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 725, text: "Can't get CSINode {node}: {err}", v: 4 },
      '1.30': { file: 'csi_handler.go', line: 768, msg: 'Failed to get nodeID from CSINode', kv: `${VA} nodeName={node:q} err={err:q}`, v: 4 },
    },
  }),

  // ------------------------------------------------------------ util.go
  'externalAttacher.markingAsAttached': m({
    stage: 'attach', severity: 'I', summary: 'csi-attacher sets status.attached=true on {va}.',
    formats: {
      '1.20': { file: 'util.go', line: 37, text: 'Marking as attached {va:q}', v: 4 },
      '1.30': { file: 'util.go', line: 39, msg: 'Marking as attached', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.markedAsAttached': m({
    stage: 'attach', severity: 'I', summary: '{va} says attached=true now; the attach/detach controller will see it.',
    formats: {
      '1.20': { file: 'util.go', line: 51, text: 'Marked as attached {va:q}', v: 4 },
      '1.30': { file: 'util.go', line: 53, msg: 'Marked as attached', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.alreadyFullyDetached': m({
    stage: 'detach', severity: 'I', summary: '{va} has neither the finalizer nor attached=true: nothing to update.',
    formats: {
      '1.20': { file: 'util.go', line: 75, text: 'Already fully detached {va:q}', v: 4 },
      '1.30': { file: 'util.go', line: 78, msg: 'Already fully detached', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.markingAsDetached': m({
    stage: 'detach', severity: 'I', summary: 'csi-attacher sets status.attached=false on {va}.',
    formats: {
      '1.20': { file: 'util.go', line: 79, text: 'Marking as detached {va:q}', v: 4 },
      '1.30': { file: 'util.go', line: 82, msg: 'Marking as detached', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.finalizerRemoved': m({
    stage: 'detach', severity: 'I', summary: 'csi-attacher removed its finalizer from {va}.',
    formats: {
      '1.20': { file: 'util.go', line: 105, text: 'Finalizer removed from {va:q}', v: 4 },
      '1.30': { file: 'util.go', line: 107, msg: 'Finalizer removed', kv: VA, v: 4 },
    },
  }),

  // ------------------------------------------------------------ trivial handler
  'externalAttacher.trivialSyncStarted': m({
    stage: 'attach', severity: 'I', summary: 'The trivial handler syncs {va}.',
    formats: {
      '1.20': { file: 'trivial_handler.go', line: 53, text: 'Trivial sync[{va}] started', v: 4 },
      '1.30': { file: 'trivial_handler.go', line: 57, msg: 'Trivial sync started', kv: VA, v: 4 },
    },
  }),
  'externalAttacher.trivialMarkFailed': m({
    stage: 'attach', severity: 'W', summary: 'The trivial handler could not mark {va} attached: {err}.',
    cause: 'The status patch of the VolumeAttachment failed.', next: 'Check the API server and the sidecar\'s RBAC for volumeattachments/status.',
    formats: {
      '1.20': { file: 'trivial_handler.go', line: 57, text: 'Error saving VolumeAttachment {va} as attached: {err}' },
      '1.30': { file: 'trivial_handler.go', line: 61, msg: 'Error saving VolumeAttachment as attached', kv: `err={err:q} ${VA}`, severity: 'E' },
    },
  }),
  'externalAttacher.trivialMarked': m({
    stage: 'attach', severity: 'I', summary: 'The trivial handler marked {va} attached without any CSI call.',
    formats: {
      '1.20': { file: 'trivial_handler.go', line: 61, text: 'Marked VolumeAttachment {va} as attached', v: 2 },
      '1.30': { file: 'trivial_handler.go', line: 65, msg: 'Marked VolumeAttachment as attached', kv: VA, v: 2 },
    },
  }),

  // ------------------------------------------------------------ PersistentVolume queue
  'externalAttacher.startedPVProcessing': m({
    stage: 'other', severity: 'I', summary: 'csi-attacher takes PersistentVolume {pv} from its PV queue.',
    formats: {
      '1.20': { file: 'controller.go', line: 232, text: 'Started PV processing {pv:q}', v: 4 },
      '1.30': { file: 'controller.go', line: 266, msg: 'Started PersistentVolume processing', kv: PV, v: 4 },
    },
  }),
  'externalAttacher.pvDeleted': m({
    stage: 'delete', severity: 'I', summary: 'PersistentVolume {pv} is gone; nothing to do.',
    formats: {
      '1.20': { file: 'controller.go', line: 239, text: 'PV {pv:q} deleted, ignoring', v: 3 },
      '1.30': { file: 'controller.go', line: 273, msg: 'PersistentVolume was deleted, ignoring', kv: PV, v: 3 },
    },
  }),
  'externalAttacher.processingPV': m({
    stage: 'other', severity: 'I', summary: 'The CSI handler checks whether PersistentVolume {pv} still needs the attacher finalizer.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 617, text: 'CSIHandler: processing PV {pv:q}', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 640, msg: 'CSIHandler: processing PersistentVolume', kv: PV, v: 4 },
    },
  }),
  'externalAttacher.pvNoDeletionTimestamp': m({
    stage: 'other', severity: 'I', summary: 'PersistentVolume {pv} is not being deleted: its finalizer stays.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 621, text: 'CSIHandler: processing PV {pv:q}: no deletion timestamp, ignoring', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 664, msg: 'CSIHandler: processing PersistentVolume: no deletion timestamp, ignoring', kv: PV, v: 4 },
    },
  }),
  'externalAttacher.pvNoFinalizer': m({
    stage: 'delete', severity: 'I', summary: 'PersistentVolume {pv} does not carry the attacher finalizer: nothing to remove.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 637, text: 'CSIHandler: processing PV {pv:q}: no finalizer, ignoring', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 681, msg: 'CSIHandler: processing PersistentVolume: no finalizer, ignoring', kv: PV, v: 4 },
    },
  }),
  'externalAttacher.pvVAFound': m({
    stage: 'delete', severity: 'I', summary: 'VolumeAttachment {va} still uses PersistentVolume {pv}: the finalizer stays.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 653, text: 'CSIHandler: processing PV {pv:q}: VA {va:q} found', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 697, msg: 'CSIHandler: processing PersistentVolume: VolumeAttachment was found', kv: `${PV} VolumeAttachment={va:q}`, v: 4 },
    },
  }),
  'externalAttacher.pvNoVAFound': m({
    stage: 'delete', severity: 'I', summary: 'No VolumeAttachment uses PersistentVolume {pv} any more: csi-attacher removes its finalizer.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 659, text: 'CSIHandler: processing PV {pv:q}: no VA found, removing finalizer', v: 4 },
      '1.30': { file: 'csi_handler.go', line: 703, msg: 'CSIHandler: processing PersistentVolume: no VolumeAttachment found, removing finalizer', kv: PV, v: 4 },
    },
  }),
  'externalAttacher.pvFinalizerRemoveFailed': m({
    stage: 'delete', severity: 'E', summary: 'csi-attacher could not remove its finalizer from PersistentVolume {pv}: {err}.',
    cause: 'The PV patch failed.', next: 'Check the API server; csi-attacher retries with backoff.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 676, text: 'Failed to remove finalizer from PV {pv:q}: {err}' },
      '1.30': { file: 'csi_handler.go', line: 720, msg: 'Failed to remove finalizer from PersistentVolume', kv: `err={err:q} ${PV}` },
    },
  }),
  'externalAttacher.pvFinalizerRemoved': m({
    stage: 'delete', severity: 'I', summary: 'csi-attacher removed its finalizer from PersistentVolume {pv}.',
    formats: {
      '1.20': { file: 'csi_handler.go', line: 681, text: 'Removed finalizer from PV {pv:q}', v: 2 },
      '1.30': { file: 'csi_handler.go', line: 725, msg: 'Removed finalizer from PersistentVolume', kv: PV, v: 2 },
    },
  }),
});

export type ExternalAttacherMessageId = keyof typeof externalAttacherMessages;

/** One-sentence trace summaries of its API writes and CSI calls. */
export const externalAttacherSummaries = defineSummaries({
  'externalAttacher.addPVFinalizer': 'csi-attacher adds the finalizer {finalizer} to PersistentVolume {pv}.',
  'externalAttacher.saveVAMetadata': 'csi-attacher adds its finalizer and the node-id annotation ({nodeID}) to VolumeAttachment {va}.',
  'externalAttacher.controllerPublishVolume': 'csi-attacher calls ControllerPublishVolume to attach {volumeHandle} to node {nodeID}.',
  'externalAttacher.markAttached': 'csi-attacher marks VolumeAttachment {va} attached (status.attached=true).',
  'externalAttacher.controllerUnpublishVolume': 'csi-attacher calls ControllerUnpublishVolume to detach {volumeHandle} from node {nodeID}.',
  'externalAttacher.markDetached': 'csi-attacher marks VolumeAttachment {va} detached (status.attached=false).',
  'externalAttacher.removeVAFinalizer': 'csi-attacher removes its finalizer from VolumeAttachment {va}.',
  /** what: "attach" or "detach" */
  'externalAttacher.saveError': 'csi-attacher saves the {what} error in VolumeAttachment {va}: {err}',
  'externalAttacher.removePVFinalizer': 'csi-attacher removes its finalizer from PersistentVolume {pv}: no VolumeAttachment uses it any more.',
});
