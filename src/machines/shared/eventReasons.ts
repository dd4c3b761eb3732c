/**
 * Kubernetes Event reasons on the volume path: who records them and which stage of a volume's life
 * they report. The cluster uses it for the stage of "Event occurred" log lines; the log explainer
 * reads `kubectl describe` Events tables with it.
 * upstream: pkg/kubelet/events/event.go, pkg/controller/volume/events/event.go,
 * external-provisioner / sig-storage-lib-external-provisioner controller.go, external-attacher,
 * external-resizer pkg/controller/controller.go, external-snapshotter pkg/common-controller.
 */
import type { Stage } from './messages.ts';

export interface EventReasonInfo {
  component: string;
  stage: Stage;
  type: 'Normal' | 'Warning';
  /** what it means, in one or two sentences */
  explanation: string;
  cause?: string;
  next?: string;
}

export const EVENT_REASONS: Record<string, EventReasonInfo> = {
  ExternalProvisioning: { component: 'pv-controller', stage: 'provision', type: 'Normal', explanation: 'The PV controller waits for an external provisioner (the CSI driver\'s csi-provisioner) to create the volume.', next: 'If it stays, check the csi-provisioner container of the driver\'s controller pod: is it running and is its --provisioner name the StorageClass provisioner?' },
  WaitForFirstConsumer: { component: 'pv-controller', stage: 'provision', type: 'Normal', explanation: 'The StorageClass has volumeBindingMode WaitForFirstConsumer: the claim is provisioned only after a pod using it is scheduled.', next: 'Create (or schedule) the pod; the scheduler then sets the volume.kubernetes.io/selected-node annotation on the claim.' },
  WaitForPodScheduled: { component: 'pv-controller', stage: 'provision', type: 'Normal', explanation: 'The claim waits for its pod to be scheduled before a volume is provisioned.', next: 'Check why the pod is not scheduled: kubectl describe pod, FailedScheduling events.' },
  Provisioning: { component: 'external-provisioner', stage: 'provision', type: 'Normal', explanation: 'csi-provisioner starts CreateVolume for the claim.' },
  ProvisioningSucceeded: { component: 'external-provisioner', stage: 'provision', type: 'Normal', explanation: 'The volume was created and its PersistentVolume saved; the PV controller binds it next.' },
  ProvisioningFailed: { component: 'external-provisioner', stage: 'provision', type: 'Warning', explanation: 'CreateVolume (or saving the PV) failed; csi-provisioner retries with exponential backoff.', cause: 'The driver refused or timed out (DeadlineExceeded: the backend was slow; the call may still complete), bad StorageClass parameters, quota, or topology.', next: 'Read the csi-provisioner log lines around it ("GRPC error") and the driver controller plugin\'s log for CreateVolume.' },
  ProvisioningCleanupFailed: { component: 'external-provisioner', stage: 'provision', type: 'Warning', explanation: 'A volume created for a claim could not be deleted after saving its PV failed.' },
  // the PV controller's binding (v1.20.5 pkg/controller/volume/events/event.go; pv_controller.go:422 VolumeMismatch, :480-528
  // ClaimLost and ClaimMisbound, recorded by reason string; FailedBinding a Normal Event at :362 when nothing matches, a Warning at :451-462 when the volume asked for is taken): the claim's provisioning stage, as its other binding lines
  FailedBinding: { component: 'pv-controller', stage: 'provision', type: 'Normal', explanation: 'The PV controller found no PersistentVolume to bind the claim to, and nothing will provision one: the claim names no StorageClass (and there is no default class), or the volume it asks for is taken.', next: 'Give the claim a StorageClass (or mark one default), or create a PersistentVolume that matches its size, access modes and class.' },
  VolumeMismatch: { component: 'pv-controller', stage: 'provision', type: 'Warning', explanation: 'The claim asks for a particular volume (spec.volumeName) that does not satisfy it: too small, other access modes, class or volume mode.', next: 'Compare the claim with the PersistentVolume it names (kubectl get pv -o yaml).' },
  ClaimLost: { component: 'pv-controller', stage: 'provision', type: 'Warning', explanation: 'A bound claim\'s PersistentVolume is gone, or no longer points back to it: the claim is now Lost, and so is the data on the volume.' },
  ClaimMisbound: { component: 'pv-controller', stage: 'provision', type: 'Warning', explanation: 'Two claims are bound to the same volume; this one is bound incorrectly and marked Lost.' },
  // the Recycle reclaim policy (deprecated): a released volume wiped by a recycler pod and made Available again
  // (pv_controller.go:1201 VolumeRecycled, :1752 RecyclerPod): the end of the volume's use, as a deletion is
  VolumeRecycled: { component: 'pv-controller', stage: 'delete', type: 'Normal', explanation: 'A released volume with the Recycle reclaim policy was wiped (rm -rf by a recycler pod) and is Available again.' },
  VolumeFailedRecycle: { component: 'pv-controller', stage: 'delete', type: 'Warning', explanation: 'Recycling a released volume (the deprecated Recycle reclaim policy) failed.' },
  RecyclerPod: { component: 'pv-controller', stage: 'delete', type: 'Normal', explanation: 'What the recycler pod that wipes a released volume did (Recycle reclaim policy).' },
  VolumeFailedDelete: { component: 'pv-controller', stage: 'delete', type: 'Warning', explanation: 'Deleting the volume behind a released PV failed.', next: 'Check the csi-provisioner log for DeleteVolume and the driver controller plugin.' },
  VolumeDelete: { component: 'pv-controller', stage: 'delete', type: 'Normal', explanation: 'The PV controller deletes the released volume.' },
  SuccessfulAttachVolume: { component: 'attach-detach-controller', stage: 'attach', type: 'Normal', explanation: 'The attach/detach controller saw the VolumeAttachment attached (status.attached=true) and added the volume to the node\'s status.volumesAttached.' },
  FailedAttachVolume: { component: 'attach-detach-controller', stage: 'attach', type: 'Warning', explanation: 'The attach/detach controller could not attach the volume to the pod\'s node.', cause: 'Multi-Attach (a ReadWriteOnce volume still attached to another node), the external-attacher not answering ("timed out waiting for external-attacher"), or ControllerPublishVolume failing in the driver.', next: 'Check the VolumeAttachment (kubectl get volumeattachment, its status.attachError), the csi-attacher container log, and for Multi-Attach which node still has the volume in status.volumesAttached.' },
  FailedDetachVolume: { component: 'attach-detach-controller', stage: 'detach', type: 'Warning', explanation: 'Detaching the volume from a node failed; the controller retries with backoff.', next: 'Check the VolumeAttachment\'s status.detachError and the csi-attacher log (ControllerUnpublishVolume).' },
  SuccessfulDetachVolume: { component: 'attach-detach-controller', stage: 'detach', type: 'Normal', explanation: 'The volume was detached from the node.' },
  FailedMount: { component: 'kubelet', stage: 'mount', type: 'Warning', explanation: 'The kubelet could not mount a volume of the pod: an operation failed ("MountVolume.SetUp failed …", "MountVolume.MountDevice failed …"), or, up to 1.27, the 2m3s wait for the pod\'s volumes ran out ("Unable to attach or mount volumes … timed out waiting for the condition"; 1.28 and later record nothing for the timeout, kubernetes#117412).', cause: 'The volume is not attached yet (see FailedAttachVolume), the CSI driver is not registered on the node, or NodeStageVolume/NodePublishVolume failed.', next: 'Read the kubelet journal on the pod\'s node (journalctl -u kubelet) for MountVolume lines and the CSI node plugin container log.' },
  FailedMapVolume: { component: 'kubelet', stage: 'mount', type: 'Warning', explanation: 'The kubelet could not map a block volume of the pod.' },
  SuccessfulMountVolume: { component: 'kubelet', stage: 'mount', type: 'Normal', explanation: 'The kubelet mounted a volume of the pod.' },
  // the kubelet's mount, two of its rarer Events (v1.20.5 pkg/kubelet/events/event.go; local/local.go:515,
  // operation_generator.go:719 checkForFailedMount)
  AlreadyMountedVolume: { component: 'kubelet', stage: 'mount', type: 'Warning', explanation: 'A local volume already mounted for another pod has another group (GID) than this pod\'s fsGroup: the volume may not be shareable between them.' },
  FailedMountOnFilesystemMismatch: { component: 'kubelet', stage: 'mount', type: 'Warning', explanation: 'The device holds another file system than the volume asks for (its fsType), so the kubelet did not mount it (and did not format it).', next: 'Check the PV\'s fsType against what the device holds (blkid on the node).' },
  FailedUnMount: { component: 'kubelet', stage: 'unmount', type: 'Warning', explanation: 'The kubelet could not unmount a volume.' },
  FailedUnmount: { component: 'kubelet', stage: 'unmount', type: 'Warning', explanation: 'The kubelet could not unmount a volume.' },
  Resizing: { component: 'external-resizer', stage: 'resize', type: 'Normal', explanation: 'csi-resizer calls ControllerExpandVolume for the claim.' },
  // recorded by kube-controller-manager's expand controller (source "volume_expand"): no in-tree plugin expands the
  // volume, so it leaves the claim to an external resizer; a Warning from 1.15 to 1.30 for CSI volumes, Normal before and after
  ExternalExpanding: { component: 'expand-controller', stage: 'resize', type: 'Warning', explanation: 'kube-controller-manager\'s expand controller leaves the expansion to an external resizer (csi-resizer).' },
  VolumeResizeFailed: { component: 'external-resizer', stage: 'resize', type: 'Warning', explanation: 'Expanding the volume failed.', next: 'Check the csi-resizer log and the driver controller plugin.' },
  VolumeResizeSuccessful: { component: 'external-resizer', stage: 'resize', type: 'Normal', explanation: 'The volume was expanded in the backend.' },
  // external-resizer's modify controller (VolumeAttributesClass; v1.11.1 pkg/util/events.go:24-26,
  // pkg/modifycontroller/modify_volume.go:87, :110, :140): the volume's attributes change, no step the stages name (an
  // expansion is a resize; a change of class is not), as ControllerModifyVolume's own lines are read and as the corpus's
  // labellers read these Events (ten of twelve lines)
  VolumeModify: { component: 'external-resizer', stage: 'other', type: 'Normal', explanation: 'csi-resizer calls ControllerModifyVolume: the claim asks for another VolumeAttributesClass (IOPS, throughput, a disk type).' },
  VolumeModifySuccessful: { component: 'external-resizer', stage: 'other', type: 'Normal', explanation: 'The driver changed the volume to the claim\'s VolumeAttributesClass.' },
  VolumeModifyFailed: { component: 'external-resizer', stage: 'other', type: 'Warning', explanation: 'Changing the volume to the claim\'s VolumeAttributesClass failed.', next: 'Check the csi-resizer log and whether the driver supports the class\'s parameters (ControllerModifyVolume).' },
  FileSystemResizeRequired: { component: 'external-resizer', stage: 'resize', type: 'Normal', explanation: 'The file system must still be grown on the node (NodeExpandVolume) when a pod uses the volume.' },
  FileSystemResizeSuccessful: { component: 'kubelet', stage: 'resize', type: 'Normal', explanation: 'The kubelet grew the file system on the node.' },
  FileSystemResizeFailed: { component: 'kubelet', stage: 'resize', type: 'Warning', explanation: 'Growing the file system on the node failed.' },
  CreatingSnapshot: { component: 'snapshot-controller', stage: 'snapshot', type: 'Normal', explanation: 'The snapshot controller asks the driver to create a snapshot.' },
  SnapshotCreated: { component: 'snapshot-controller', stage: 'snapshot', type: 'Normal', explanation: 'The driver created the snapshot.' },
  SnapshotReady: { component: 'snapshot-controller', stage: 'snapshot', type: 'Normal', explanation: 'The snapshot is ready to use.' },
  SnapshotCreationFailed: { component: 'external-snapshotter', stage: 'snapshot', type: 'Warning', explanation: 'Creating the snapshot failed.' },
  Scheduled: { component: 'kube-scheduler', stage: 'other', type: 'Normal', explanation: 'The scheduler bound the pod to a node.' },
  FailedScheduling: { component: 'kube-scheduler', stage: 'other', type: 'Warning', explanation: 'No node fits the pod yet; with volumes this is often an unbound claim or a volume node affinity conflict.', next: 'Read the message: "unbound immediate PersistentVolumeClaims" points at provisioning, "volume node affinity conflict" at the PV\'s nodeAffinity/topology.' },
  SuccessfulCreate: { component: 'statefulset-controller', stage: 'other', type: 'Normal', explanation: 'A controller created a pod (or claim).' },
  TaintManagerEviction: { component: 'taint-eviction-controller', stage: 'other', type: 'Normal', explanation: 'The taint eviction controller marked the pod for deletion (its node has a NoExecute taint the pod does not tolerate), or cancelled a planned deletion (the taint went, or the pod).' },
  NodeNotReady: { component: 'node-lifecycle-controller', stage: 'other', type: 'Normal', explanation: 'The node lifecycle controller marked the node NotReady (its kubelet stopped posting status).' },
};

/** The stage an Event reason reports ('other' when unknown). */
export const stageOfEventReason = (reason: string): Stage => EVENT_REASONS[reason]?.stage ?? 'other';
