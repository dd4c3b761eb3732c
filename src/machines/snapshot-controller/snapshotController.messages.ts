/**
 * Log lines of the snapshot-controller at any verbosity (klog.Infof in pkg/common-controller/snapshot_controller.go,
 * read at external-snapshotter v4.0.0 for the 1.20 profile and v8.0.1 for 1.30). Its -v=5 details are left out; its
 * Events are printed by StartLogging(klog.Infof) (snapshot_controller_base.go v4.0.0:81, v8.0.1:111), in the printf
 * form of the client-go it vendors (cluster.messages.ts).
 */
import { defineMessages } from '../shared/messages.ts';

const S = 'snapshot-controller' as const;
const both = (l120: number, l130: number, text: string) => ({
  '1.20': { file: 'snapshot_controller.go', line: l120, text },
  '1.30': { file: 'snapshot_controller.go', line: l130, text },
});

export const snapshotControllerMessages = defineMessages({
  'snapshotController.creatingContent': {
    source: S, stage: 'snapshot', severity: 'I',
    summary: 'The snapshot-controller creates the VolumeSnapshotContent for VolumeSnapshot {snapshot}: csi-snapshotter will cut the snapshot.',
    formats: both(633, 644, 'createSnapshotContent: Creating content for snapshot {snapshot} through the plugin ...'),
  },
  'snapshotController.addedPvcFinalizer': {
    source: S, stage: 'snapshot', severity: 'I',
    summary: 'The source claim {pvc} now carries snapshot.storage.kubernetes.io/pvc-as-source-protection: it cannot be deleted while its snapshot is cut.',
    formats: both(881, 925, 'Added protection finalizer to persistent volume claim {pvc}'),
  },
  'snapshotController.pvcFinalizerExists': {
    source: S, stage: 'snapshot', severity: 'I',
    summary: 'The source claim {pvc} already carries the pvc-as-source-protection finalizer.',
    formats: both(865, 909, 'Protection finalizer already exists for persistent volume claim {pvc}'),
  },
  'snapshotController.removePvcFinalizer': {
    source: S, stage: 'snapshot', severity: 'I',
    summary: 'No snapshot of claim {pvc} is being cut any more: the snapshot-controller takes its pvc-as-source-protection finalizer off.',
    formats: both(960, 1004, 'checkandRemovePVCFinalizer[{snapshot}]: Remove Finalizer for PVC {pvc} as it is not used by snapshots in creation'),
  },
});
