/**
 * Log lines of the attach/detach controller (kube-controller-manager).
 * upstream (1.20 profile, printf klog): pkg/controller/volume/attachdetach/reconciler/reconciler.go,
 * pkg/volume/util/operationexecutor/operation_generator.go and operation_executor.go
 * (generateVolumeMsgDetailed "%v for volume %q %v %v": success lines keep a trailing space),
 * pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go.
 * file:line for 1.20 from seed 000 where it shows the line (reconciler.go:204/282, operation_generator.go:
 * 361/472/1384, nestedpendingoperations.go:301), else read at v1.20.5 (see below). 1.30 profile: contextual logging (logger name
 * "persistentvolume-attach-detach-controller"); lines read in v1.30.1 source (vendored by
 * openshift/microshift 3f2622d4f1, byte-identical to kubeedge's v1.30.7 copy and an upstream snapshot
 * at the 1.30/1.31 boundary); reconciler.go:360 also in a real v1.32 log (the file is unchanged
 * 1.30.1-1.33). A multi-line call is reported at its first line. The Multi-Attach lines print the
 * whole cache.VolumeToAttach as JSON (klog v2.100+ writes a struct value so; a ≈1.27 log, klog v2.90, shows
 * it as %+v with pointers as 0xc… addresses): see reconciler.ts volumeToAttachDump.
 */
import { defineMessages, defineSummaries } from '../shared/messages.ts';

const SRC = 'kube-controller-manager' as const;
const LOGGER = 'logger="persistentvolume-attach-detach-controller"';
const DETAIL_TO = 'for volume {specName:q} (UniqueName: {volumeName:q}) from node {node:q} ';
const DETAIL_ON = 'for volume {specName:q} (UniqueName: {volumeName:q}) on node {node:q} ';

/*
 * 1.20 line numbers: the lines seed 000 shows (reconciler.go:204 and :282, operation_generator.go:361, :472 and :1384)
 * keep its kube-controller-manager's numbers, an older build than v1.20.5 (which has them at :219, :295, :360, :470,
 * :1409); every other 1.20 line is read at v1.20.5 (a copy of the tag, davidstack/k8s1.20.5modify).
 */
export const attachDetachControllerMessages = defineMessages({
  /**
   * upstream: pkg/controller/volume/attachdetach/populator/desired_state_of_world_populator.go
   * findAndRemoveDeletedPods (V1; 1.20 printf, newer releases structured). Line numbers inferred.
   */
  'attachDetachController.removingPodFromDsw': {
    source: SRC, stage: 'detach', severity: 'I',
    summary: 'The desired-state populator drops pod {pod} from the desired state of world: the pod informer no longer has it.',
    explain: 'The pod was deleted but its volumes could not be resolved at deletion time (its PVC was already gone); the periodic populator cleans the stale entry so that the volume can be detached.',
    formats: {
      '1.20': { file: 'desired_state_of_world_populator.go', line: 109, text: 'Removing pod {pod:q} (UID {uid:q}) from dsw because it does not exist in pod informer.', v: 1 },
      '1.30': { file: 'desired_state_of_world_populator.go', line: 158, msg: 'Removing pod from dsw because it does not exist in pod informer', kv: `${LOGGER} podName={pod:q} podUID={uid:q}`, v: 1 },
    },
  },
  'attachDetachController.detachVolumeStarted': {
    source: SRC, stage: 'detach', severity: 'I',
    summary: 'The attach/detach controller starts detaching {specName} from node {node}: no pod there needs it and the kubelet no longer reports it in use.',
    formats: {
      // seed 000's build prints it at :204; v1.20.5 has it at :219
      '1.20': { file: 'reconciler.go', line: 204, text: `attacherDetacher.DetachVolume started ${DETAIL_ON}` },
      '1.30': { file: 'reconciler.go', line: 275, msg: 'attacherDetacher.DetachVolume started', kv: `${LOGGER} node={node:q} volumeName={volumeName:q}` },
    },
  },
  'attachDetachController.forceDetachStarted': {
    source: SRC, stage: 'detach', severity: 'W',
    summary: 'The attach/detach controller force-detaches {specName} from node {node}: the kubelet still reports it in use, but {duration} have passed since the pod went away.',
    cause: 'The node (or its kubelet) stopped reporting: volumesInUse still lists the volume 6 minutes after the controller first wanted it detached (when its pod was deleted, or left the node).',
    next: 'Check whether the node is down; a force detach of a volume that is still mounted can corrupt data on it.',
    formats: {
      '1.20': { file: 'reconciler.go', line: 222, text: `attacherDetacher.DetachVolume started ${DETAIL_ON}This volume is not safe to detach, but maxWaitForUnmountDuration {duration} expired, force detaching` },
      '1.30': { file: 'reconciler.go', line: 279, severity: 'I', msg: 'attacherDetacher.DetachVolume started: this volume is not safe to detach, but maxWaitForUnmountDuration expired, force detaching', kv: `${LOGGER} duration={duration:q} node={node:q} volumeName={volumeName:q}` },
    },
  },
  'attachDetachController.outOfServiceDetachStarted': {
    source: SRC, stage: 'detach', severity: 'I',
    summary: 'The attach/detach controller detaches {specName} from node {node} at once, without checking that it is unmounted: the node has the out-of-service taint.',
    explain: 'Non-graceful node shutdown (1.28+): the operator tainted the node node.kubernetes.io/out-of-service, stating that it is off. The controller skips the wait for the kubelet to unmount and the 6-minute timeout.',
    formats: {
      // ≈v1.30 reconciler.go:285 (a snapshot at the 1.30/1.31 boundary); 1.20 has no such path
      '1.30': { file: 'reconciler.go', line: 285, msg: 'attacherDetacher.DetachVolume started: node has out-of-service taint, force detaching', kv: `${LOGGER} node={node:q} volumeName={volumeName:q}` },
    },
  },
  'attachDetachController.attachVolumeStarted': {
    source: SRC, stage: 'attach', severity: 'I',
    summary: 'The attach/detach controller starts attaching {specName} to node {node}, where a pod that uses it is scheduled.',
    formats: {
      '1.20': { file: 'reconciler.go', line: 282, text: `attacherDetacher.AttachVolume started ${DETAIL_TO}` },
      '1.30': { file: 'reconciler.go', line: 360, msg: 'attacherDetacher.AttachVolume started', kv: `${LOGGER} volumeName={volumeName:q} nodeName={node:q} scheduledPods={scheduledPods}` },
    },
  },
  'attachDetachController.multiAttachExclusive': {
    source: SRC, stage: 'attach', severity: 'W',
    summary: 'The attach/detach controller refuses to attach {specName} to node {node}: it is a ReadWriteOnce volume still attached to {otherNodes}.',
    cause: 'The volume is still attached to another node: no pod there wants it any more, but its detach has not finished (the kubelet there has not unmounted it yet, or the node is down).',
    next: 'If the other node is healthy, its kubelet unmounts and the detach follows: check the VolumeAttachment for a detachError. If that node is down, its kubelet never unmounts: the controller force-detaches only after maxWaitForUnmountDuration (6 minutes), and never with --disable-force-detach-on-timeout (1.30+) or while the node is still Ready (kubernetes#110721; a node that just died stays Ready for about 40 s, until the node lifecycle controller marks it Unknown). Bring the node back, or taint it node.kubernetes.io/out-of-service=nodeshutdown:NoExecute once it is really off (1.28+), and the controller detaches at once.',
    formats: {
      '1.20': { file: 'reconciler.go', line: 335, text: `Multi-Attach error ${DETAIL_TO}Volume is already exclusively attached to node {otherNodes} and can't be attached to another` },
      // reportMultiAttachError logs with logger.Info in 1.30 (klog.Warningf in 1.20)
      '1.30': { file: 'reconciler.go', line: 397, severity: 'I', msg: "Multi-Attach error: volume is already exclusively attached and can't be attached to another node", kv: `${LOGGER} attachedTo={attachedTo} volume={volumeDump}` },
    },
  },
  'attachDetachController.multiAttachUsedByPods': {
    source: SRC, stage: 'attach', severity: 'W',
    summary: 'The attach/detach controller refuses to attach {specName} to node {node}: pods {pods} on {otherNodes} still use this ReadWriteOnce volume.',
    cause: 'Another pod on another node still uses this ReadWriteOnce volume. Most often: a one-replica Deployment with the default RollingUpdate strategy, whose new pod starts before the old one stops; or the old pod stuck Terminating on a node that is down; or a Deployment with several replicas sharing one claim.',
    next: 'For a one-replica Deployment, set strategy: Recreate (or use the ReadWriteOncePod access mode, 1.29+, so the new pod waits to be scheduled instead). For a pod stuck Terminating on a dead node: bring the node back, taint it node.kubernetes.io/out-of-service=nodeshutdown:NoExecute once it is really off (1.28+: its pods are deleted and the volume detached at once), or force-delete the pod (the detach then still waits 6 minutes for the dead node). For several replicas: a StatefulSet with one PVC per pod, or a ReadWriteMany volume.',
    formats: {
      '1.20': { file: 'reconciler.go', line: 376, text: `Multi-Attach error ${DETAIL_TO}Volume is already used by pods {pods} on node {otherNodes}` },
      '1.30': { file: 'reconciler.go', line: 433, severity: 'I', msg: 'Multi-Attach error: volume is already used by pods', kv: `${LOGGER} pods={podsList} attachedTo={attachedTo} volume={volumeDump}` },
    },
  },
  /**
   * The node status write before a detach failed: the detach is skipped this pass (1.20 reconciler.go:208 klog.Errorf of
   * GenerateErrorDetailed; 1.30 :257 logger.Error, which also puts the volume back in the node's report). Read at v1.20.5
   * and v1.30.1.
   */
  'attachDetachController.updateNodeStatusesFailed': {
    source: SRC, stage: 'detach', severity: 'E',
    summary: 'The attach/detach controller could not write node {node}\'s status before detaching {specName}: it skips the detach and tries again.',
    formats: {
      '1.20': { file: 'reconciler.go', line: 208, text: `UpdateNodeStatuses failed while attempting to report volume as attached ${DETAIL_ON}: {err}` },
      '1.30': { file: 'reconciler.go', line: 257, msg: 'UpdateNodeStatusForNode failed while attempting to report volume as attached', kv: `err={err:q} ${LOGGER} node={node:q} volumeName={volumeName:q}` },
    },
  },
  /**
   * A node status write failed: the status updater marks the node for another write (SetNodeStatusUpdateNeeded). Its err
   * is PatchNodeStatus's. upstream: statusupdater/node_status_updater.go, 1.20 :86 klog.V(2).Infof, 1.30 :114
   * logger.V(2).Info. Read at v1.20.5 and v1.30.1.
   */
  'attachDetachController.nodeStatusRemarked': {
    source: SRC, stage: 'attach', severity: 'I',
    summary: "The attach/detach controller could not write node {node}'s status.volumesAttached; it marks the node to write it again.",
    cause: 'The PATCH of the Node\'s status failed (the API server refused or did not answer).',
    next: 'Usually transient: the reconciler writes it again on its next pass (every 100 ms). If it keeps failing, read the error: RBAC of the controller, an admission webhook on nodes/status, or the API server.',
    formats: {
      '1.20': { file: 'node_status_updater.go', line: 86, v: 2, text: 'Could not update node status for {node:q}; re-marking for update. {err}' },
      '1.30': { file: 'node_status_updater.go', line: 114, v: 2, msg: 'Could not update node status; re-marking for update', kv: `${LOGGER} node={node:q} err={err:q}` },
    },
  },
  /**
   * The reconciler's pass ended with a failed node status write (its UpdateNodeStatuses after the attaches).
   * upstream: reconciler/reconciler.go, 1.20 :238 klog.Warningf, 1.30 :311 logger.Info. Read at v1.20.5 and v1.30.1.
   */
  'attachDetachController.updateNodeStatusesFailedWith': {
    source: SRC, stage: 'attach', severity: 'W',
    summary: 'The reconciler\'s node status write failed; its next pass writes again.',
    formats: {
      '1.20': { file: 'reconciler.go', line: 238, text: 'UpdateNodeStatuses failed with: {err}' },
      '1.30': { file: 'reconciler.go', line: 311, severity: 'I', msg: 'UpdateNodeStatuses failed', kv: `${LOGGER} err={err:q}` },
    },
  },
  'attachDetachController.verifiedSafeToDetach': {
    source: SRC, stage: 'detach', severity: 'I',
    summary: "The controller read Node {node}: {specName} is not in its volumesInUse, so it is safe to detach.",
    formats: {
      // seed 000's build prints it at :1384; v1.20.5 has it at :1409
      '1.20': { file: 'operation_generator.go', line: 1384, text: `Verified volume is safe to detach ${DETAIL_ON}` },
      // klog.Infof in 1.30 too (verifyVolumeIsSafeToDetach): plain text, no logger key
      '1.30': { file: 'operation_generator.go', line: 1624, text: `Verified volume is safe to detach ${DETAIL_ON}` },
    },
  },
  'attachDetachController.nodeNotFoundSkipVerify': {
    source: SRC, stage: 'detach', severity: 'W',
    summary: 'Node {node} no longer exists, so the controller detaches {specName} without the safe-to-detach check.',
    cause: 'The Node object was deleted while a volume was still attached to it.',
    next: 'Nothing to do if the node was removed on purpose.',
    formats: {
      '1.20': { file: 'operation_generator.go', line: 1385, text: `Node not found on API server. DetachVolume will skip safe to detach check ${DETAIL_ON}` },
      // klog.Warningf in 1.30 too: plain text
      '1.30': { file: 'operation_generator.go', line: 1607, text: `Node not found on API server. DetachVolume will skip safe to detach check ${DETAIL_ON}` },
    },
  },
  'attachDetachController.attachSucceeded': {
    source: SRC, stage: 'attach', severity: 'I',
    summary: 'The VolumeAttachment for {specName} reports attached: the volume is attached to node {node}.',
    formats: {
      '1.20': { file: 'operation_generator.go', line: 361, text: `AttachVolume.Attach succeeded ${DETAIL_TO}` },
      // klog.Infof(volumeToAttach.GenerateMsgDetailed(...)) in 1.30 too: plain text, no logger key
      '1.30': { file: 'operation_generator.go', line: 400, text: `AttachVolume.Attach succeeded ${DETAIL_TO}` },
    },
  },
  'attachDetachController.detachSucceeded': {
    source: SRC, stage: 'detach', severity: 'I',
    summary: 'The VolumeAttachment for {specName} on node {node} is gone: the volume is detached.',
    formats: {
      '1.20': { file: 'operation_generator.go', line: 472, text: `DetachVolume.Detach succeeded ${DETAIL_ON}` },
      // klog.Infof(volumeToDetach.GenerateMsgDetailed(...)) in 1.30 too: plain text, no logger key
      '1.30': { file: 'operation_generator.go', line: 520, text: `DetachVolume.Detach succeeded ${DETAIL_ON}` },
    },
  },
  /**
   * upstream: pkg/volume/csi/csi_attacher.go VolumesAreAttached, klog.Error(log(...)) (plain text in
   * both profiles, "kubernetes.io/csi: " prefix). It asks the controller's lister first and GETs on a miss
   * (v1.20.5 has that path too), which logs this on NotFound. Lines read at the tags: v1.20.5 :215,
   * v1.30.7 :251.
   */
  /**
   * The CSI attacher's verifyAttachmentStatus and verifyDetachmentStatus, each time the wait looks at the
   * VolumeAttachment (1.20: the GET, then every watch event; 1.30: every poll of the lister) and finds it failed:
   * klog.Error(log(...)), plain text in both profiles. upstream: pkg/volume/csi/csi_attacher.go, read at the
   * tags: v1.20.5 :621 / :631 / :646, v1.30.7 :698 / :708 / :723.
   */
  'attachDetachController.csiAttachmentBeingDeleted': {
    source: SRC, stage: 'attach', severity: 'E',
    summary: 'The attach waits no more: VolumeAttachment {vaName} is being deleted.',
    explain: 'The controller was waiting for external-attacher to attach the volume, and found its VolumeAttachment with a deletion timestamp: a detach of the same volume and node is under way, so this attach fails at once and is retried with backoff.',
    formats: {
      '1.20': { file: 'csi_attacher.go', line: 621, text: 'kubernetes.io/csi: VolumeAttachment [{vaName}] has deletion timestamp, will not continue to wait for attachment' },
      '1.30': { file: 'csi_attacher.go', line: 698, text: 'kubernetes.io/csi: VolumeAttachment [{vaName}] has deletion timestamp, will not continue to wait for attachment' },
    },
  },
  'attachDetachController.csiAttachmentFailed': {
    source: SRC, stage: 'attach', severity: 'E',
    summary: 'The attach of volume {handle} failed: external-attacher saved the driver\'s error in the VolumeAttachment: {err}',
    explain: 'external-attacher writes ControllerPublishVolume\'s error into status.attachError; the controller\'s wait reads it there and fails the attach, which it retries with backoff.',
    formats: {
      '1.20': { file: 'csi_attacher.go', line: 631, text: 'kubernetes.io/csi: attachment for {handle} failed: {err}' },
      '1.30': { file: 'csi_attacher.go', line: 708, text: 'kubernetes.io/csi: attachment for {handle} failed: {err}' },
    },
  },
  'attachDetachController.csiDetachmentFailed': {
    source: SRC, stage: 'detach', severity: 'E',
    summary: 'The detach of volume {handle} failed: external-attacher saved the driver\'s error in the VolumeAttachment: {err}',
    explain: 'external-attacher writes ControllerUnpublishVolume\'s error into status.detachError; the controller\'s wait reads it there and fails the detach, which it retries with backoff.',
    formats: {
      '1.20': { file: 'csi_attacher.go', line: 646, text: 'kubernetes.io/csi: detachment for VolumeAttachment for volume [{handle}] failed: {err}' },
      '1.30': { file: 'csi_attacher.go', line: 723, text: 'kubernetes.io/csi: detachment for VolumeAttachment for volume [{handle}] failed: {err}' },
    },
  },
  /**
   * The CSI attacher's wait for the VolumeAttachment runs out of csiTimeout (2m): klog.Error(log(...)) before the wait returns
   * its error. 1.20's watch says "attachdetacher.WaitForDetach" for an attach too (v1.20.5 csi_attacher.go:484, in
   * waitForVolumeAttachDetachStatus, which both waits share); 1.30 names the operation, "Attach" or "Detach"
   * (v1.30.1 csi_attacher.go:529, waitForVolumeAttachDetachStatusWithLister).
   */
  'attachDetachController.csiWaitTimedOut': {
    source: SRC, stage: 'attach', severity: 'E',
    summary: 'The wait for external-attacher gave up after {timeout}: VolumeAttachment {vaName} of volume {handle} never reported the result.',
    explain: 'The controller created (or deleted) the VolumeAttachment and waited for external-attacher to set status.attached (or to remove the object); nothing came within csiTimeout, so the operation fails and is retried with backoff. Is external-attacher running, and is it the leader?',
    formats: {
      '1.20': { file: 'csi_attacher.go', line: 484, text: 'kubernetes.io/csi: attachdetacher.WaitForDetach timeout after {timeout} [volume={handle}; attachment.ID={vaName}]' },
      '1.30': { file: 'csi_attacher.go', line: 529, text: 'kubernetes.io/csi: {operation} timeout after {timeout} [volume={handle}; attachment.ID={vaName}]' },
    },
  },
  'attachDetachController.volumesAreAttachedFailed': {
    source: SRC, stage: 'attach', severity: 'E',
    summary: 'The periodic check (syncStates) finds no VolumeAttachment {vaName}: the volume it stands for is not attached to that node any more.',
    explain: 'Every minute the attach/detach controller checks that each volume it holds as attached still is; for a CSI volume that means reading its VolumeAttachment. A missing object is logged as an error, and the next line marks the volume detached.',
    cause: 'The VolumeAttachment was deleted (a detach finished, or someone deleted it) while the controller still held the volume as attached.',
    next: 'Usually nothing: the controller marks the volume detached and, if a pod on that node still needs it, attaches it again. If it recurs, look for who deletes VolumeAttachments.',
    formats: {
      '1.20': { file: 'csi_attacher.go', line: 215, text: 'kubernetes.io/csi: attacher.VolumesAreAttached failed for attach.ID={vaName}: {err}' },
      '1.30': { file: 'csi_attacher.go', line: 251, text: 'kubernetes.io/csi: attacher.VolumesAreAttached failed for attach.ID={vaName}: {err}' },
    },
  },
  /**
   * upstream: pkg/volume/util/operationexecutor/operation_generator.go GenerateVolumesAreAttachedFunc,
   * klog.V(1).Infof in both profiles. Line numbers inferred: 146 lines before "AttachVolume.Attach
   * succeeded" in a master-era file (144 in 1.20, whose functions between take no logger), counted
   * back from that message's lines.
   */
  'attachDetachController.vaMarkedUncertain': {
    source: SRC, stage: 'attach', severity: 'I',
    summary: 'A VolumeAttachment exists for {specName} on node {node} that the controller does not hold as attached (it restarted): it records the attachment as uncertain, and detaches the volume if no pod there needs it.',
    formats: {
      // v1.30.1 attach_detach_controller.go:764 logger.V(1).Info(…, "node", klog.KRef, "volumeName", …, "attachState", …), in processVolumeAttachments
      // v1.20.5 attach_detach_controller.go:741 klog.V(1).Infof(…%q (%q) … (%v)…, volumeName, nodeName, attachState), AttachState's String() "Detached"
      '1.20': { file: 'attach_detach_controller.go', line: 741, v: 1, text: 'Marking volume attachment as uncertain as volume:{volumeName:q} ({node:q}) is not attached (Detached)' },
      '1.30': { file: 'attach_detach_controller.go', line: 764, v: 1, msg: 'Marking volume attachment as uncertain as volume is not attached', kv: `${LOGGER} node={node:q} volumeName={volumeName:q} attachState="Detached"` },
    },
  },
  'attachDetachController.volumeMarkedDetachedBySync': {
    source: SRC, stage: 'attach', severity: 'I',
    summary: 'syncStates marks {specName} detached from node {node} in the actual state of world: its VolumeAttachment says it is not attached. If a pod there still needs it, the reconciler attaches it again.',
    explain: 'The attach/detach controller\'s periodic check (every --attach-detach-reconcile-sync-period, 1 minute by default) corrects an actual state of world that says attached when the volume is not.',
    formats: {
      '1.20': { file: 'operation_generator.go', line: 224, text: 'VerifyVolumesAreAttached determined volume {volumeName:q} (spec.Name: {specName:q}) is no longer attached to node {node:q}, therefore it was marked as detached.', v: 1 },
      '1.30': { file: 'operation_generator.go', line: 254, text: 'VerifyVolumesAreAttached determined volume {volumeName:q} (spec.Name: {specName:q}) is no longer attached to node {node:q}, therefore it was marked as detached.', v: 1 },
    },
  },
  'attachDetachController.operationFailed': {
    source: SRC, stage: 'other', severity: 'E',
    summary: 'The {operation} operation failed; the controller will not retry it before {durationBeforeRetry} have passed: {error}',
    cause: 'The attach or detach did not complete: the external-attacher reported an error on the VolumeAttachment, it timed out, or the kubelet still uses the volume.',
    next: 'Read the VolumeAttachment status (attachError/detachError) and the csi-attacher log; retries back off from 500ms up to 2m2s.',
    formats: {
      '1.20': { file: 'nestedpendingoperations.go', line: 301, text: 'Operation for {key:q} failed. No retries permitted until {until} (durationBeforeRetry {durationBeforeRetry}). Error: {error:q}' },
      '1.30': { file: 'nestedpendingoperations.go', line: 348, text: 'Operation for {key:q} failed. No retries permitted until {until} (durationBeforeRetry {durationBeforeRetry}). Error: {error}' },
    },
  },
});

/** One-sentence trace summaries of its API writes. */
export const attachDetachControllerSummaries = defineSummaries({
  'attachDetachController.createVolumeAttachment': 'The attach/detach controller creates VolumeAttachment {vaName} asking the external-attacher to attach {specName} to {node}.',
  'attachDetachController.deleteVolumeAttachment': 'The attach/detach controller deletes VolumeAttachment {vaName}, asking the external-attacher to detach {specName} from {node}.',
  /** volumes: the attached volume names joined with ", ", or "none" */
  'attachDetachController.updateVolumesAttached': "The attach/detach controller writes node {nodeName}'s status.volumesAttached: {volumes}.",
});
