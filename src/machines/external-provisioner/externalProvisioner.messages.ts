/**
 * Log lines of csi-provisioner (the external-provisioner sidecar, -v=5).
 * upstream, profile 1.20 = external-provisioner v2.1.0 (sig-storage-lib-external-provisioner v6.2.0,
 * csi-lib-utils v0.9.0); profile 1.30 = external-provisioner v5.0.1 (lib v10.0.0, csi-lib-utils
 * v0.18.1). file:line read at those tags: lib controller/controller.go and volume_store.go,
 * cmd/csi-provisioner/csi-provisioner.go, pkg/controller/controller.go (still printf in v5.0.1),
 * csi-lib-utils connection/connection.go (1.30 lines from k8s-facts §3.5, for ≥ v0.18).
 */
import { logGrpcFormats } from '../shared/logGrpc.ts';
import { probeForeverMessages } from '../shared/probeForever.messages.ts';
import { defineMessages, defineSummaries } from '../shared/messages.ts';

const S = 'csi-provisioner' as const;
const PROBE_FOREVER = probeForeverMessages(S);

export const externalProvisionerMessages = defineMessages({
  'externalProvisioner.detectedDriver': {
    // (start-up, as the identity handshake is: no claim is being provisioned)
    source: S, stage: 'other', severity: 'I', summary: 'csi-provisioner learns the driver name {driver} from GetPluginInfo.',
    formats: {
      '1.20': { file: 'csi-provisioner.go', line: 202, text: 'Detected CSI driver {driver}', v: 2 },
      '1.30': { file: 'csi-provisioner.go', line: 230, text: 'Detected CSI driver {driver}', v: 2 },
    },
  },
  /**
   * Start-up failures (csi-provisioner.go main; csi-lib-utils' ProbeForever, shared/probeForever.messages.ts). After the probe main logs the error and exits (klog.Error + os.Exit(1): v2.1.0 :193,
   * v5.0.1 :221); after GetPluginInfo and the capability calls, klog.Fatalf (v2.1.0 :200 and :220, v5.0.1 :228 and :278).
   */
  'externalProvisioner.probeTimedOut': { source: S, ...PROBE_FOREVER.probeTimedOut },
  'externalProvisioner.driverNotReady': { source: S, ...PROBE_FOREVER.driverNotReady },
  'externalProvisioner.probeFailed': {
    source: S, stage: 'other', severity: 'E', summary: 'Probe failed ({err}); csi-provisioner exits.',
    cause: 'The CSI driver returned an error to Probe (other than a deadline).', next: 'Fix the CSI driver; the kubelet restarts the csi-provisioner container, which probes again.',
    formats: {
      '1.20': { file: 'csi-provisioner.go', line: 193, text: '{err}' },
      '1.30': { file: 'csi-provisioner.go', line: 221, text: '{err}' },
    },
  },
  'externalProvisioner.getDriverNameFailed': {
    source: S, stage: 'other', severity: 'F', summary: 'GetPluginInfo failed ({err}); csi-provisioner exits.',
    cause: 'The CSI driver returned an error to GetPluginInfo.', next: 'Check the CSI driver log; the kubelet restarts the csi-provisioner container.',
    formats: {
      '1.20': { file: 'csi-provisioner.go', line: 200, text: 'Error getting CSI driver name: {err}' },
      '1.30': { file: 'csi-provisioner.go', line: 228, text: 'Error getting CSI driver name: {err}' },
    },
  },
  'externalProvisioner.capabilitiesFailed': {
    source: S, stage: 'other', severity: 'F', summary: 'Reading the driver\'s capabilities failed ({err}); csi-provisioner exits.',
    cause: 'GetPluginCapabilities or ControllerGetCapabilities returned an error.', next: 'Check the CSI driver log; the kubelet restarts the csi-provisioner container.',
    formats: {
      '1.20': { file: 'csi-provisioner.go', line: 220, text: 'Error getting CSI driver capabilities: {err}' },
      '1.30': { file: 'csi-provisioner.go', line: 278, text: 'Error getting CSI driver capabilities: {err}' },
    },
  },
  'externalProvisioner.startedController': {
    source: S, stage: 'other', severity: 'I', summary: 'The provisioner controller {component} starts watching claims.',
    formats: {
      '1.20': { file: 'controller.go', line: 887, text: 'Started provisioner controller {component}!' },
      '1.30': { file: 'controller.go', line: 873, msg: 'Started provisioner controller', kv: 'component={component:q}' },
    },
  },
  'externalProvisioner.grpcCall': {
    source: S, stage: 'provision', severity: 'I', summary: 'csi-provisioner calls {method} on the CSI controller plugin.',
    formats: logGrpcFormats.call(),
  },
  'externalProvisioner.grpcRequest': {
    source: S, stage: 'provision', severity: 'I', summary: 'The request sent with the call: {request}',
    formats: logGrpcFormats.request(),
  },
  'externalProvisioner.grpcResponse': {
    source: S, stage: 'provision', severity: 'I', summary: 'The CSI plugin answered: {response}',
    formats: logGrpcFormats.response('{err}'),
  },
  'externalProvisioner.grpcError': {
    source: S, stage: 'provision', severity: 'I', summary: 'The call ended with error {err}.',
    formats: logGrpcFormats.error(),
  },
  'externalProvisioner.provisionStarted': {
    source: S, stage: 'provision', severity: 'I', summary: 'csi-provisioner starts provisioning a volume for claim {claim} of class {class}.',
    formats: {
      '1.20': { file: 'controller.go', line: 1335, text: 'provision {claim:q} class {class:q}: started' },
      '1.30': { file: 'controller.go', line: 1402, msg: 'Started', kv: 'PVC={claim:q} StorageClass={class:q}', v: 4 },
    },
  },
  'externalProvisioner.createVolumeFailed': {
    source: S, stage: 'provision', severity: 'I', summary: 'CreateVolume failed; the provisioner decides whether the volume may still be in the making ({state}).',
    formats: {
      '1.20': { file: 'controller.go', line: 752, text: 'CreateVolume failed, supports topology = {topology}, node selected {nodeSelected} => may reschedule = {reschedule} => state = {state}: {err}', v: 5 },
      '1.30': { file: 'controller.go', line: 843, text: 'CreateVolume failed, supports topology = {topology}, node selected {nodeSelected} => may reschedule = {reschedule} => state = {state}: {err}', v: 5 },
    },
  },
  'externalProvisioner.createdPV': {
    source: S, stage: 'provision', severity: 'I', summary: 'csi-provisioner builds PersistentVolume {pv} for claim {claimName} around volume {handle}.',
    formats: {
      '1.20': { file: 'controller.go', line: 838, text: 'successfully created PV {pv} for PVC {claimName} and csi volume name {handle}', v: 2 },
      '1.30': { file: 'controller.go', line: 955, text: 'successfully created PV {pv} for PVC {claimName} and csi volume name {handle}', v: 2 },
    },
  },
  'externalProvisioner.volumeProvisioned': {
    source: S, stage: 'provision', severity: 'I', summary: 'The volume {pv} for claim {claim} exists in the storage backend.',
    formats: {
      '1.20': { file: 'controller.go', line: 1442, text: 'provision {claim:q} class {class:q}: volume {pv:q} provisioned' },
      '1.30': { file: 'controller.go', line: 1487, msg: 'Volume is provisioned', kv: 'PVC={claim:q} StorageClass={class:q} PV={pv:q}', v: 4 },
    },
  },
  'externalProvisioner.savingPV': {
    source: S, stage: 'provision', severity: 'I', summary: 'csi-provisioner creates the PersistentVolume object {pv}.',
    formats: {
      // csi-provisioner v2.1.0 passes CreateProvisionedPVLimiter, so lib v6.2.0 saves through its queue store (volume_store.go:154, -v=5)
      '1.20': { file: 'volume_store.go', line: 154, v: 5, text: 'Saving volume {pv}' },
      '1.30': { file: 'volume_store.go', line: 156, msg: 'Saving volume', kv: 'PVC={claim:q} StorageClass={class:q} volume={pv:q}', v: 5 },
    },
  },
  'externalProvisioner.savedPV': {
    source: S, stage: 'provision', severity: 'I', summary: 'The PersistentVolume object {pv} is stored in the API server.',
    formats: {
      '1.20': { file: 'volume_store.go', line: 157, v: 5, text: 'Volume {pv} saved' },
      '1.30': { file: 'volume_store.go', line: 159, msg: 'Volume saved', kv: 'PVC={claim:q} StorageClass={class:q} volume={pv:q}', v: 5 },
    },
  },
  'externalProvisioner.saveFailed': {
    source: S, stage: 'provision', severity: 'E', summary: 'Creating the PersistentVolume object {pv} failed: csi-provisioner keeps it in its save queue and creates it again in the background.',
    cause: 'The API server refused or did not answer the PV create; the volume exists in the backend.',
    next: 'Nothing to do while the API server recovers: the queue store retries with backoff, and the claim is not provisioned again.',
    // queueStore.StoreVolume (csi-provisioner passes CreateProvisionedPVLimiter); err is "error saving volume <pv>: <API error>"
    formats: {
      '1.20': { file: 'volume_store.go', line: 90, text: 'Failed to save volume {pv}: {err}' },
      '1.30': { file: 'volume_store.go', line: 90, msg: 'Failed to save volume', kv: 'err={err:q} PVC={claim:q} StorageClass={class:q} volume={pv:q}' },
    },
  },
  'externalProvisioner.saveRetryFailed': {
    source: S, stage: 'provision', severity: 'E', summary: 'A background save of a PersistentVolume failed again: {err}',
    cause: 'The API server still refuses the PV create.', next: 'The save queue tries again with a doubled delay.',
    // processNextWorkItem's utilruntime.HandleError(err): klog.ErrorDepth, plain text at the caller's line
    formats: {
      '1.20': { file: 'volume_store.go', line: 144, text: '{err}' },
      '1.30': { file: 'volume_store.go', line: 146, text: '{err}' },
    },
  },
  'externalProvisioner.volumeEnqueued': {
    source: S, stage: 'provision', severity: 'I', summary: 'PersistentVolume {pv} goes back into the save queue.',
    formats: {
      '1.20': { file: 'volume_store.go', line: 145, v: 5, text: 'Volume {pv} enqueued' },
      '1.30': { file: 'volume_store.go', line: 147, msg: 'Volume enqueued', kv: 'volume={pv:q}', v: 5 },
    },
  },
  'externalProvisioner.savingPVRetry': {
    source: S, stage: 'provision', severity: 'I', summary: 'The save queue creates PersistentVolume {pv} again.',
    formats: {
      '1.20': { file: 'volume_store.go', line: 154, v: 5, text: 'Saving volume {pv}' },
      '1.30': { file: 'volume_store.go', line: 156, msg: 'Saving volume', kv: 'volume={pv:q}', v: 5 },
    },
  },
  'externalProvisioner.savedPVRetry': {
    source: S, stage: 'provision', severity: 'I', summary: 'The save queue has stored PersistentVolume {pv} in the API server.',
    formats: {
      '1.20': { file: 'volume_store.go', line: 157, v: 5, text: 'Volume {pv} saved' },
      '1.30': { file: 'volume_store.go', line: 159, msg: 'Volume saved', kv: 'volume={pv:q}', v: 5 },
    },
  },
  'externalProvisioner.provisionSucceeded': {
    source: S, stage: 'provision', severity: 'I', summary: 'CreateVolume for claim {claim} is done: csi-provisioner hands the PersistentVolume to its volume store, which saves it next.',
    formats: {
      '1.20': { file: 'controller.go', line: 1459, text: 'provision {claim:q} class {class:q}: succeeded' },
      '1.30': { file: 'controller.go', line: 1500, msg: 'Succeeded', kv: 'PVC={claim:q} StorageClass={class:q}', v: 4 },
    },
  },
  // ---- syncVolume's shouldDelete at -v=5 (lib v10 controller.go:1256-1290; v6.2.0 logs none of these):
  // every update of one of our PVs comes through the volume queue, so these print for each
  'externalProvisioner.shouldDelete': {
    source: S, stage: 'other', severity: 'I', summary: 'csi-provisioner\'s volume queue checks whether PersistentVolume {pv} is to be deleted.',
    formats: { '1.30': { file: 'controller.go', line: 1258, msg: 'shouldDelete', kv: 'PV={pv:q}', v: 5 } },
  },
  'externalProvisioner.shouldDeleteFinalizerRemoved': {
    source: S, stage: 'delete', severity: 'I', summary: 'PersistentVolume {pv} is being deleted and no longer has csi-provisioner\'s finalizer: its volume was deleted already.',
    formats: { '1.30': { file: 'controller.go', line: 1268, msg: 'shouldDelete is false: finalizer already removed from volume', kv: 'PV={pv:q}', v: 5 } },
  },
  'externalProvisioner.shouldDeleteBeingDeleted': {
    source: S, stage: 'delete', severity: 'I', summary: 'PersistentVolume {pv} is being deleted (without csi-provisioner\'s finalizer it is not deleted here).',
    formats: { '1.30': { file: 'controller.go', line: 1273, msg: 'shouldDelete is false: DeletionTimestamp != nil', kv: 'PV={pv:q}', v: 5 } },
  },
  'externalProvisioner.shouldDeleteNotReleased': {
    source: S, stage: 'other', severity: 'I', summary: 'PersistentVolume {pv} is not Released: nothing to delete.',
    formats: { '1.30': { file: 'controller.go', line: 1279, msg: 'shouldDelete is false: PersistentVolumePhase is not Released', kv: 'PV={pv:q}', v: 5 } },
  },
  'externalProvisioner.shouldDeleteNotDeletePolicy': {
    source: S, stage: 'other', severity: 'I', summary: 'PersistentVolume {pv} is Released but its reclaim policy is not Delete: it stays.',
    formats: { '1.30': { file: 'controller.go', line: 1284, msg: 'shouldDelete is false: volume does not have Delete reclaim policy', kv: 'PV={pv:q}', v: 5 } },
  },
  'externalProvisioner.shouldDeleteTrue': {
    source: S, stage: 'delete', severity: 'I', summary: 'PersistentVolume {pv} is Released with reclaim policy Delete: csi-provisioner deletes it.',
    formats: { '1.30': { file: 'controller.go', line: 1288, msg: 'shouldDelete is true', kv: 'PV={pv:q}', v: 5 } },
  },
  'externalProvisioner.syncVolumeDeleting': {
    source: S, stage: 'delete', severity: 'I', summary: 'syncVolume goes on to delete PersistentVolume {pv}.',
    formats: { '1.30': { file: 'controller.go', line: 1132, msg: 'shouldDelete', kv: 'PV={pv:q}', v: 5 } },
  },
  'externalProvisioner.claimProcessed': {
    source: S, stage: 'provision', severity: 'I', summary: 'The claim\'s sync is done (claim uid {uid}): csi-provisioner stops tracking it as in progress.',
    explain: 'syncClaim logs this at -v=5 once provisionClaimOperation returned no error: after the PV was saved, or handed to the save queue after a failed create.',
    formats: {
      '1.20': { file: 'controller.go', line: 1096, text: 'Claim processing succeeded, removing PVC {uid} from claims in progress', v: 5 },
      '1.30': { file: 'controller.go', line: 1088, msg: 'Claim processing succeeded, removing PVC from claims in progress', kv: 'claimUID={uid:q}', v: 5 },
    },
  },
  'externalProvisioner.finalError': {
    source: S, stage: 'provision', severity: 'I', summary: 'The error is final: no volume is being created for claim uid {uid}; the next try starts over.',
    formats: {
      '1.20': { file: 'controller.go', line: 1102, text: 'Final error received, removing PVC {uid} from claims in progress', v: 2 },
      '1.30': { file: 'controller.go', line: 1094, msg: 'Final error received, removing PVC from claims in progress', kv: 'claimUID={uid:q}', v: 2 },
    },
  },
  'externalProvisioner.temporaryError': {
    source: S, stage: 'provision', severity: 'I', summary: 'The error is not final: the volume may still be in the making, so claim uid {uid} stays in progress and the same name is retried.',
    formats: {
      '1.20': { file: 'controller.go', line: 1109, text: 'Temporary error received, adding PVC {uid} to claims in progress', v: 2 },
      '1.30': { file: 'controller.go', line: 1101, msg: 'Temporary error received, adding PVC to claims in progress', kv: 'claimUID={uid:q}', v: 2 },
    },
  },
  'externalProvisioner.cloneRetryingClaim': {
    source: S, stage: 'provision', severity: 'W', summary: 'The cloning protection of claim {key} cannot be lifted yet ({failures} earlier tries): a clone of it is still Pending, or the last write failed. It is tried again with backoff.',
    cause: 'The claim is being deleted while a claim cloned from it is still being provisioned.',
    next: 'Wait for the clone to be Bound, or look at why its provisioning fails (its ProvisioningFailed events).',
    formats: {
      '1.20': { file: 'clone_controller.go', line: 111, text: 'Retrying syncing claim {key:q} after {failures} failures' },
      '1.30': { file: 'clone_controller.go', line: 109, text: 'Retrying syncing claim {key:q} after {failures} failures' },
    },
  },
  'externalProvisioner.cloneFinalizerRemoveFailed': {
    source: S, stage: 'provision', severity: 'I', summary: 'csi-provisioner could not take the cloning-protection finalizer off claim {name}; it tries again.',
    formats: {
      '1.20': { file: 'clone_controller.go', line: 210, text: 'failed to remove clone finalizer from PVC {name}' },
      '1.30': { file: 'clone_controller.go', line: 209, text: 'failed to remove clone finalizer from PVC {name}' },
    },
  },
  'externalProvisioner.retryingClaim': {
    source: S, stage: 'provision', severity: 'W', summary: 'Provisioning claim {claim} failed ({failures} earlier failures); the work queue retries it after {delay}.',
    cause: 'CreateVolume or saving the PV failed; see the ProvisioningFailed event and the GRPC error line before this one.',
    next: 'Check the CSI controller plugin logs for the CreateVolume error; the sidecar retries with backoff 1s → 5m until it works.',
    formats: {
      '1.20': { file: 'controller.go', line: 961, text: 'Retrying syncing claim {uid:q}, failure {failures}' },
      '1.30': { file: 'controller.go', line: 951, msg: 'Retrying syncing claim', kv: 'key={uid:q} failures={failures}', severity: 'I' },
    },
  },
  'externalProvisioner.errorSyncingClaim': {
    source: S, stage: 'provision', severity: 'E', summary: 'The claim worker reports the failed sync of {claim}: {err}',
    cause: 'The provisioning attempt failed; the error is the one the ProvisioningFailed event carries.',
    next: 'The text after "rpc error:" is the driver\'s: read the CSI controller plugin\'s log for that CreateVolume.',
    // utilruntime.HandleError -> klog.ErrorDepth(2, err): printed as plain text at the caller's line,
    // in both profiles (sig-storage-lib-external-provisioner controller.go processNextClaimWorkItem)
    formats: {
      // the workqueue's key is the claim's UID (enqueueClaim), which both lines print
      '1.20': { file: 'controller.go', line: 984, text: 'error syncing claim {uid:q}: {err}' },
      '1.30': { file: 'controller.go', line: 974, text: 'error syncing claim {uid:q}: {err}' },
    },
  },
  'externalProvisioner.retryingVolume': {
    source: S, stage: 'delete', severity: 'W', summary: 'Syncing volume {pv} failed ({failures} earlier failures); the volume work queue retries it with its backoff (--retry-interval-start 1s, doubling up to --retry-interval-max 5m).',
    cause: 'DeleteVolume, the PV\'s Delete or a finalizer patch failed; the line before this one says which.',
    next: 'Read the VolumeFailedDelete event and the CSI controller plugin\'s log for that DeleteVolume; the sidecar retries with backoff until it works (--failed-delete-threshold 0: never gives up).',
    formats: {
      // processNextVolumeWorkItem with failedDeleteThreshold 0 (csi-provisioner.go sets FailedDeleteThreshold(0)):
      // lib v6.2.0 controller.go:1016 klog.Warningf, lib v10 controller.go:1007 logger.Info
      '1.20': { file: 'controller.go', line: 1016, text: 'Retrying syncing volume {pv:q}, failure {failures}' },
      '1.30': { file: 'controller.go', line: 1007, msg: 'Retrying syncing volume', kv: 'key={pv:q} failures={failures}', severity: 'I' },
    },
  },
  'externalProvisioner.errorSyncingVolume': {
    source: S, stage: 'delete', severity: 'E', summary: 'The volume worker reports the failed sync of {pv}: {err}',
    cause: 'Deleting the volume failed; the error is the one the VolumeFailedDelete event carries, or the API server\'s.',
    next: 'The text after "rpc error:" is the driver\'s: read the CSI controller plugin\'s log for that DeleteVolume.',
    // utilruntime.HandleError -> klog.ErrorDepth: printed as plain text at the caller's line, in both profiles
    formats: {
      '1.20': { file: 'controller.go', line: 1034, text: 'error syncing volume {pv:q}: {err}' },
      '1.30': { file: 'controller.go', line: 1025, text: 'error syncing volume {pv:q}: {err}' },
    },
  },
  'externalProvisioner.deletePVFailed': {
    source: S, stage: 'delete', severity: 'I', summary: 'csi-provisioner deleted the volume in the backend but could not delete PersistentVolume {pv}: {err}. It tries again.',
    formats: {
      '1.20': { file: 'controller.go', line: 1496, text: 'delete {pv:q}: failed to delete persistentvolume: {err}' },
      '1.30': { file: 'controller.go', line: 1569, msg: 'Failed to delete persistentvolume', kv: 'PV={pv:q} err={err:q}' },
    },
  },
  'externalProvisioner.deleteStarted': {
    source: S, stage: 'delete', severity: 'I', summary: 'csi-provisioner starts deleting Released volume {pv}.',
    formats: {
      '1.20': { file: 'controller.go', line: 1475, text: 'delete {pv:q}: started' },
      '1.30': { file: 'controller.go', line: 1548, msg: 'Started', kv: 'PV={pv:q}', v: 4 },
    },
  },
  'externalProvisioner.noDeletionSecrets': {
    source: S, stage: 'delete', severity: 'I', summary: 'PersistentVolume {pv} records that its StorageClass named no provisioner secret: DeleteVolume goes without secrets.',
    // the PV's deletion-secret annotations are both "" (handleSecretsForDeletion; v3.2.0 on, so 1.30 only)
    formats: { '1.30': { file: 'controller.go', line: 1312, text: 'volume {pv} does not need any deletion secrets', v: 2 } },
  },
  'externalProvisioner.deletionCredentialsFailed': {
    source: S, stage: 'delete', severity: 'E', summary: 'csi-provisioner cannot read the Secret recorded on {pv}: DeleteVolume goes on without secrets ({err}).',
    cause: 'The provisioner Secret named in the PV\'s volume.kubernetes.io/provisioner-deletion-secret-* annotations is gone or cannot be read.',
    next: 'A driver that needs the secret to delete (ceph-csi) then fails DeleteVolume: create the Secret again under that name.',
    formats: { '1.30': { file: 'controller.go', line: 1308, text: 'failed to get credentials for volume {pv}: {err}' } },
  },
  'externalProvisioner.deletionCredentialsFromClassFailed': {
    source: S, stage: 'delete', severity: 'E', summary: 'csi-provisioner cannot read the provisioner Secret the StorageClass of {pv} names: DeleteVolume goes on without secrets ({err}).',
    cause: 'The Secret the StorageClass names (csi.storage.k8s.io/provisioner-secret-name and -namespace) is gone or cannot be read.',
    next: 'A driver that needs the secret to delete then fails DeleteVolume: create the Secret again under that name.',
    formats: {
      '1.20': { file: 'controller.go', line: 1158, text: 'Failed to get credentials for volume {pv}: {err}' },
      '1.30': { file: 'controller.go', line: 1354, text: 'Failed to get credentials for volume {pv}: {err}' },
    },
  },
  'externalProvisioner.deleteFailed': {
    source: S, stage: 'delete', severity: 'E', summary: 'DeleteVolume for {pv} failed: {err}',
    cause: 'The storage backend refused or did not finish deleting the volume (still attached, busy, or unreachable).',
    next: 'Look at the VolumeFailedDelete event and the CSI controller plugin log; the sidecar retries with backoff.',
    formats: {
      '1.20': { file: 'controller.go', line: 1485, text: 'delete {pv:q}: volume deletion failed: {err}' },
      '1.30': { file: 'controller.go', line: 1558, msg: 'Volume deletion failed', kv: 'err={err:q} PV={pv:q}' },
    },
  },
  'externalProvisioner.volumeDeleted': {
    source: S, stage: 'delete', severity: 'I', summary: 'The backend volume of {pv} is deleted.',
    formats: {
      '1.20': { file: 'controller.go', line: 1490, text: 'delete {pv:q}: volume deleted' },
      '1.30': { file: 'controller.go', line: 1563, msg: 'Volume deleted', kv: 'PV={pv:q}', v: 4 },
    },
  },
  'externalProvisioner.pvDeleted': {
    source: S, stage: 'delete', severity: 'I', summary: 'csi-provisioner has deleted the PersistentVolume object {pv} (it goes once its last finalizer is off).',
    formats: {
      '1.20': { file: 'controller.go', line: 1540, text: 'delete {pv:q}: persistentvolume deleted' },
      '1.30': { file: 'controller.go', line: 1607, msg: 'PersistentVolume deleted succeeded', kv: 'PV={pv:q}', v: 4 },
    },
  },
  'externalProvisioner.removeFinalizerFailed': {
    source: S, stage: 'delete', severity: 'I', summary: 'csi-provisioner could not take its finalizer off {pv}: {err}',
    cause: 'The patch of the PV\'s finalizers failed after the volume itself was deleted.',
    next: 'The PV is synced again; while the finalizer stays, the PV object stays (Terminating).',
    // HonorPVReclaimPolicy is off in v2.1.0: only 1.30 prints it
    formats: { '1.30': { file: 'controller.go', line: 1599, msg: 'Failed to remove finalizer for persistentvolume', kv: 'PV={pv:q} err={err:q}' } },
  },
  'externalProvisioner.deleteSucceeded': {
    source: S, stage: 'delete', severity: 'I', summary: 'Deleting {pv} is done.',
    formats: { '1.20': { file: 'controller.go', line: 1545, text: 'delete {pv:q}: succeeded' } },
  },
});

/** One-sentence trace summaries of its API writes. */
export const externalProvisionerSummaries = defineSummaries({
  'externalProvisioner.createPV': 'csi-provisioner creates PersistentVolume {pv} for claim {claim} (volumeHandle {handle}).',
  'externalProvisioner.getSnapshot': 'csi-provisioner reads VolumeSnapshot {snapshot}, the data source of claim {claim}.',
  'externalProvisioner.setCloneFinalizer': 'csi-provisioner puts the finalizer {finalizer} on claim {source}, the source of clone {claim}, before it asks for the clone: the source cannot go while it is being cloned.',
  'externalProvisioner.removeCloneFinalizer': 'Claim {source} is being deleted and no clone of it is Pending: csi-provisioner takes its finalizer {finalizer} off.',
  'externalProvisioner.getSnapshotContent': 'csi-provisioner reads VolumeSnapshotContent {content}, bound to {snapshot}, for its snapshot handle.',
  'externalProvisioner.getProvisionerSecret': 'csi-provisioner reads Secret {secret}, the provisioner secret the StorageClass names: its keys go in CreateVolume for claim {claim} (the log prints them as ***stripped***).',
  'externalProvisioner.getDeletionSecret': 'csi-provisioner reads Secret {secret}, the one DeleteVolume needs for {pv}.',
  'externalProvisioner.deletePV': 'csi-provisioner deletes PersistentVolume {pv}.',
  'externalProvisioner.createPVAgain': 'csi-provisioner\'s save queue creates PersistentVolume {pv} again (the first create failed).',
  'externalProvisioner.addFinalizer': 'csi-provisioner puts its finalizer {finalizer} on PersistentVolume {pv} (HonorPVReclaimPolicy).',
  'externalProvisioner.removeFinalizer': 'csi-provisioner takes its finalizer {finalizer} off PersistentVolume {pv}: the backend volume is gone.',
  'externalProvisioner.removePolicyFinalizer': 'csi-provisioner takes its finalizer {finalizer} off PersistentVolume {pv}: its reclaim policy is no longer Delete.',
});
