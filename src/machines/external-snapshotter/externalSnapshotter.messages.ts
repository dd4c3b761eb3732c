/**
 * csi-snapshotter (sidecar) log lines. upstream: kubernetes-csi/external-snapshotter
 * pkg/sidecar-controller/snapshot_controller.go at v4.0.0 (profile 1.20) and v8.0.1 (profile 1.30);
 * both releases still log printf-style here (the snapshot-controller's lines are its own binary's: snapshot-controller/).
 */
import { logGrpcFormats } from '../shared/logGrpc.ts';
import { defineMessages } from '../shared/messages.ts';

const S = 'csi-snapshotter' as const;
const both = (l120: number, l130: number, text: string, v?: number, text130?: string) => ({
  '1.20': { file: 'snapshot_controller.go', line: l120, text, ...(v ? { v } : {}) },
  '1.30': { file: 'snapshot_controller.go', line: l130, text: text130 ?? text, ...(v ? { v } : {}) },
});

/** a line of the sidecar's work queue and cache (snapshot_controller_base.go, pkg/utils/util.go StoreObjectUpdate) */
const at = (file: string, l120: number, l130: number, text: string, v: number) => ({
  '1.20': { file, line: l120, text, v }, '1.30': { file, line: l130, text, v },
});

export const externalSnapshotterMessages = defineMessages({
  // The work queue: every content event is queued (v4.0.0 every update; v8.0.1 only one that ShouldEnqueueContentChange
  // lets through), and a worker takes the key: enqueueContentWork (v4.0.0 :143, v8.0.1 :206), syncContentByKey (:177,
  // :247), the controller's own cache (StoreObjectUpdate, util.go v4.0.0 :269/:293/:297, v8.0.1 :236/:260/:264) and a
  // deleted content dropped from it (deleteContentInCacheStore, :274, :367). A sync that does nothing prints them too.
  'externalSnapshotter.enqueued': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter queues VolumeSnapshotContent {content} for a sync.',
    formats: at('snapshot_controller_base.go', 143, 206, 'enqueued {content:q} for sync', 5),
  },
  'externalSnapshotter.syncContentByKey': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'A worker of csi-snapshotter takes {content} from its queue.',
    formats: at('snapshot_controller_base.go', 177, 247, 'syncContentByKey[{content}]', 5),
  },
  'externalSnapshotter.storeAdding': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter adds {content} (resourceVersion {version}) to its cache.',
    formats: at('util.go', 269, 236, 'storeObjectUpdate: adding content {content:q}, version {version}', 4),
  },
  'externalSnapshotter.storeUpdating': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter keeps {content} at resourceVersion {version} in its cache.',
    formats: at('util.go', 297, 264, 'storeObjectUpdate updating content {content:q} with version {version}', 4),
  },
  'externalSnapshotter.storeIgnoring': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter\'s cache holds a newer {content} than resourceVersion {version}: nothing to sync.',
    formats: at('util.go', 293, 260, 'storeObjectUpdate: ignoring content {content:q} version {version}', 4),
  },
  'externalSnapshotter.contentDeleted': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'VolumeSnapshotContent {content} is gone: csi-snapshotter drops it from its cache.',
    formats: at('snapshot_controller_base.go', 274, 367, 'content {content:q} deleted', 4),
  },
  'externalSnapshotter.synchronizingContent': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter looks at VolumeSnapshotContent {content}.',
    formats: both(56, 59, 'synchronizing VolumeSnapshotContent[{content}]', 5),
  },
  /** shouldDelete, asked first on every sync */
  'externalSnapshotter.checkShouldDelete': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter checks whether {content} is to be deleted.',
    formats: both(540, 606, 'Check if VolumeSnapshotContent[{content}] should be deleted.', 5),
  },
  'externalSnapshotter.deletionPolicy': {
    source: S, stage: 'snapshot', severity: 'I', summary: '{content} is being deleted; its deletionPolicy is {policy}.',
    formats: both(59, 62, 'VolumeSnapshotContent[{content}]: the policy is {policy}', 4),
  },
  'externalSnapshotter.setBeingCreated': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter marks {content} volumesnapshot-being-created before it calls CreateSnapshot: until the driver answers for good, the content is not deleted.',
    formats: both(577, 645, 'setAnnVolumeSnapshotBeingCreated: set annotation [snapshot.storage.kubernetes.io/volumesnapshot-being-created:yes] on content [{content}].', 5),
  },
  'externalSnapshotter.removedBeingCreated': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'The driver has answered for good: the volumesnapshot-being-created annotation is off {content}.',
    formats: both(614, 696, 'Removed VolumeSnapshotBeingCreated annotation from volume snapshot content {content}', 5),
  },
  'externalSnapshotter.clearContentStatus': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'The snapshot is deleted: csi-snapshotter clears the snapshot handle from {content}\'s status.',
    formats: both(368, 410, 'cleanVolumeSnapshotStatus content [{content}]', 5),
  },
  'externalSnapshotter.callCreateSnapshot': {
    source: S, stage: 'snapshot', severity: 'I', summary: '{content} has no status yet: csi-snapshotter creates its snapshot.',
    formats: both(75, 87, 'syncContent: Call CreateSnapshot for content {content}', 5),
  },
  'externalSnapshotter.checkandUpdateStarted': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'The last attempt for {content} failed (its status holds the error): csi-snapshotter checks and updates it, cutting the snapshot again.',
    formats: both(118, 138, 'checkandUpdateContentStatus[{content}] started', 5),
  },
  'externalSnapshotter.checkandUpdateError': {
    source: S, stage: 'snapshot', severity: 'E', summary: 'The retry for {content} failed too; it is tried again with backoff.',
    cause: 'The CSI plugin refused or timed out on CreateSnapshot again, or a write of the sidecar failed.', next: 'Read the SnapshotContentCheckandUpdateFailed event on the content and the CSI controller plugin\'s log.',
    formats: both(122, 142, 'checkandUpdateContentStatus [{content}]: error occurred {err}'),
  },
  'externalSnapshotter.updateContentErrorStatus': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter writes the error into {content}\'s status, unless it is there already.',
    formats: both(141, 161, 'updateContentStatusWithEvent[{content}]', 5),
  },
  'externalSnapshotter.createSnapshotStarted': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter starts cutting the snapshot for {content}.',
    formats: both(101, 118, 'createSnapshot for content [{content}]: started', 5),
  },
  'externalSnapshotter.createSnapshotWrapper': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter asks the CSI plugin to create the snapshot of {content}.',
    formats: both(267, 308, 'createSnapshotWrapper: Creating snapshot for content {content} through the plugin ...'),
  },
  'externalSnapshotter.getCSISnapshotInput': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter reads the class of {content} and the Secret its annotations name (the input of CreateSnapshot).',
    formats: both(180, 222, 'getCSISnapshotInput for content [{content}]', 5),
  },
  'externalSnapshotter.credentialsFailed': {
    source: S, stage: 'snapshot', severity: 'E', summary: 'csi-snapshotter cannot read the Secret the annotations of {content} name: {err}',
    cause: 'The snapshotter Secret of the VolumeSnapshotClass (csi.storage.k8s.io/snapshotter-secret-name and -namespace), recorded on the content as snapshot.storage.kubernetes.io/deletion-secret-name and -namespace, is gone or cannot be read.',
    next: 'Create the Secret under that name: the sidecar retries with backoff.',
    formats: both(506, 566, 'Failed to get credentials for snapshot {content}: {err}'),
  },
  'externalSnapshotter.createSnapshotReturnedError': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'CreateSnapshot for {content} failed: {err}.',
    formats: both(301, 342, 'createSnapshotWrapper: CreateSnapshot for content {content} returned error: {err}'),
  },
  'externalSnapshotter.createSnapshotError': {
    source: S, stage: 'snapshot', severity: 'E', summary: 'Creating the snapshot for {content} failed; it is retried with backoff.',
    cause: 'The CSI plugin refused or timed out on CreateSnapshot.', next: 'Read the SnapshotCreationFailed event on the content and the CSI controller plugin\'s log.',
    formats: both(105, 122, 'createSnapshot for content [{content}]: error occurred in createSnapshotWrapper: {err}'),
  },
  'externalSnapshotter.createdSnapshot': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'The driver created snapshot {snapshotId} ({size} bytes, readyToUse {readyToUse}).',
    formats: both(312, 353, 'Created snapshot: driver {driver}, snapshotId {snapshotId}, creationTime {creationTime}, size {size}, readyToUse {readyToUse}', 5),
  },
  'externalSnapshotter.updateSnapshotContentStatus': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter writes the snapshot handle into {content}\'s status.',
    formats: both(393, 436,
      'updateSnapshotContentStatus: updating VolumeSnapshotContent [{content}], snapshotHandle {snapshotId}, readyToUse {readyToUse}, createdAt {createdAt}, size {size}', 5,
      'updateSnapshotContentStatus: updating VolumeSnapshotContent [{content}], snapshotHandle {snapshotId}, readyToUse {readyToUse}, createdAt {createdAt}, size {size}, groupSnapshotID '),
  },
  'externalSnapshotter.deleteSnapshotStarted': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter deletes the snapshot behind {content}.',
    formats: both(338, 379, 'deleteCSISnapshotOperation [{content}] started', 5),
  },
  /** pkg/snapshotter/snapshotter.go CreateSnapshot (v4.0.0 :56, v8.0.1 :55), before it asks the driver's name */
  'externalSnapshotter.csiCreateSnapshot': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter starts the CSI CreateSnapshot {name}.',
    formats: {
      '1.20': { file: 'snapshotter.go', line: 56, text: 'CSI CreateSnapshot: {name}', v: 5 },
      '1.30': { file: 'snapshotter.go', line: 55, text: 'CSI CreateSnapshot: {name}', v: 5 },
    },
  },
  // csi-lib-utils LogGRPC (shared/logGrpc.ts); the snapshotter calls with a background context, so no logger keys lead
  'externalSnapshotter.grpcCall': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'csi-snapshotter calls {method} on the CSI controller plugin.',
    formats: logGrpcFormats.call(),
  },
  'externalSnapshotter.grpcRequest': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'The request sent is {request}.',
    formats: logGrpcFormats.request(),
  },
  'externalSnapshotter.grpcResponse': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'The CSI plugin answered {response}.',
    formats: logGrpcFormats.response('{errStructured}'),
  },
  'externalSnapshotter.grpcError': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'The call ended with error {err}.',
    formats: logGrpcFormats.error(),
  },
  'externalSnapshotter.removedContentFinalizer': {
    source: S, stage: 'snapshot', severity: 'I', summary: 'The finalizer of {content} is removed: the API server deletes it.',
    formats: both(529, 595, 'Removed protection finalizer from volume snapshot content {content}', 5),
  },
});
