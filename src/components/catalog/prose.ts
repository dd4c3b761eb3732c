/**
 * What each component is for, in words: the part of a component page the traces cannot say. Facts
 * that the traces can say (what it watches, writes, calls, logs) are NOT repeated here; the pages
 * take them from src/machines/view/components.ts. A component without an entry still gets a page,
 * with a short generic introduction (see `proseFor`).
 */
import type { ComponentFacts } from '../../machines/view/components.ts';
import { PROFILE_IDS, PROFILES } from '../../machines/profiles/index.ts';
import type { ProfileId } from '../../machines/shared/messages.ts';
import type { Lang } from '../site/i18n.ts';
import { genericProseZh, PROSE_ZH } from './prose.zh.ts';

export interface UpstreamRef {
  /** GitHub owner/name */
  repo: string;
  /** file or folder in the repository */
  path: string;
  /** what to look for there */
  note: string;
  /** where the same code was at a profile's release, when it has moved since */
  pathAt?: Partial<Record<ProfileId, string>>;
}

export interface ComponentProse {
  /** one sentence, for tables and the page's lead */
  tagline: string;
  /** what it is for: paragraphs */
  purpose: string[];
  /** the loop it runs: paragraphs */
  loop: string[];
  upstream: UpstreamRef[];
}

const K8S = 'kubernetes/kubernetes';

export const PROSE: Record<string, ComponentProse> = {
  'pv-controller': {
    tagline: 'Binds each claim to a volume and keeps both phases right; for a CSI claim it only hands the work to the external provisioner.',
    purpose: [
      'The PersistentVolume controller lives in kube-controller-manager (it registers as persistentvolume-binder). It owns the link between a PersistentVolumeClaim and a PersistentVolume: it writes claim.spec.volumeName and volume.spec.claimRef, moves both to the Bound phase, and notices when one side of a binding disappears.',
      'For a claim whose StorageClass names a CSI driver it creates nothing itself. It annotates the claim with the driver’s name (volume.beta.kubernetes.io/storage-provisioner, and since 1.23 also volume.kubernetes.io/storage-provisioner) so that the driver’s external-provisioner takes it, and records an ExternalProvisioning event. With volumeBindingMode WaitForFirstConsumer it first waits until the scheduler has written volume.kubernetes.io/selected-node on the claim.',
      'When a bound claim is deleted its volume becomes Released and the reclaim policy decides the rest: Delete leaves the deletion to the provisioner that made the volume, Retain leaves the volume for an administrator.',
    ],
    loop: [
      'Informer events on claims and volumes queue them; syncClaim and syncVolume compare each object with its partner and write whatever is missing. Every 15 seconds (--pvclaimbinder-sync-period) it goes through everything again. That resync is why a claim that waits for its volume collects a growing count of ExternalProvisioning events.',
      'The PVC and PV phases are small state machines of their own, charted below; the controller only writes a phase change those machines allow.',
    ],
    upstream: [
      { repo: K8S, path: 'pkg/controller/volume/persistentvolume/pv_controller.go', note: 'syncClaim, syncUnboundClaim, syncBoundClaim, syncVolume, bind, provisionClaimOperationExternal' },
      { repo: K8S, path: 'pkg/controller/volume/persistentvolume/pv_controller_base.go', note: 'informers, work queues, the periodic resync' },
    ],
  },
  'attach-detach-controller': {
    tagline: 'Decides which volume is attached to which node; creates and deletes VolumeAttachments and keeps node.status.volumesAttached.',
    purpose: [
      'The attach/detach controller in kube-controller-manager decides, for the whole cluster, which volumes must be attached to which nodes. It keeps a desired state of world, built from the pods scheduled to each node, and an actual state of world, what it believes is attached where. For a CSI driver whose CSIDriver object says attachRequired, attaching means creating a VolumeAttachment and waiting until external-attacher sets its status.attached; detaching means deleting the VolumeAttachment and waiting until it is gone.',
      'It writes node.status.volumesAttached, the list the kubelet reads before it mounts anything, and it reads node.status.volumesInUse, the list the kubelet writes, to tell whether a volume is still mounted before detaching it. If a volume stays in use for 6 minutes after its pod left (maxWaitForUnmountDuration), it detaches anyway: a forced detach. Since kubernetes#110721 it forces a detach only from a node whose Ready condition is not True (a healthy node’s kubelet will unmount); since 1.30 --disable-force-detach-on-timeout turns forced detaches off altogether. A node tainted node.kubernetes.io/out-of-service (non-graceful node shutdown, GA in 1.28) has its volumes detached at once, without the 6-minute wait.',
    ],
    loop: [
      'A reconciler runs every 100 ms. Detaches come first, so that a volume can follow a pod to another node: for every volume attached but no longer desired, it waits while the node still reports the volume in use, then removes it from volumesAttached, pushes the node status and starts the detach. Since kubernetes#104526 it skips a volume whose detach is still pending or backing off; without that check (the 1.20 profile) the volume can vanish from the node status while the controller still holds it attached, which the ad-detach-backoff chapter shows. Then attaches: every desired volume not yet attached gets an attach, unless a ReadWriteOnce volume is attached to another node, which gives a Multi-Attach error instead. Last, it pushes pending node status updates. Besides, once a minute (--attach-detach-reconcile-sync-period) syncStates asks the volume plugins whether the volumes it holds as attached still are: for CSI it reads their VolumeAttachments, and a volume whose object is gone or not attached is marked detached, to be attached again if a pod still needs it.',
      'Attach and detach operations run through nestedpendingoperations: one operation per volume at a time, and after a failure an exponential backoff from 500 ms up to 2m2s before the next try.',
    ],
    upstream: [
      { repo: K8S, path: 'pkg/controller/volume/attachdetach/attach_detach_controller.go', note: 'informers, DefaultTimerConfig (100 ms loop, 6 min max wait for unmount)' },
      { repo: K8S, path: 'pkg/controller/volume/attachdetach/reconciler/reconciler.go', note: 'the detach-then-attach reconcile, Multi-Attach reporting' },
      { repo: K8S, path: 'pkg/controller/volume/attachdetach/cache/actual_state_of_world.go', note: 'attached volumes per node, the report list behind volumesAttached' },
      { repo: K8S, path: 'pkg/controller/volume/attachdetach/statusupdater/node_status_updater.go', note: 'the node status patch' },
      { repo: K8S, path: 'pkg/volume/csi/csi_attacher.go', note: 'Attach and Detach for CSI: create, wait for and delete the VolumeAttachment' },
      { repo: K8S, path: 'pkg/volume/util/operationexecutor/operation_generator.go', note: 'the attach and detach operations and their log lines' },
    ],
  },
  'statefulset-controller': {
    tagline: 'Creates each StatefulSet pod, and before it the pod’s own claims from volumeClaimTemplates.',
    purpose: [
      'For every StatefulSet the controller keeps the pods <set>-0 … <set>-(N-1) in existence. Before it creates a pod it creates the pod’s claims from the set’s volumeClaimTemplates, named <template>-<set>-<ordinal>. The claims are not deleted with the pod, so a replacement pod gets the same volume back, possibly on another node: that is the move the pod-migration chapter follows.',
    ],
    loop: [
      'It reacts to changes of a set and of its pods. With the default OrderedReady policy it creates one missing pod at a time, the next only once all lower ordinals are Running and Ready; a deleted pod is recreated once the API server has really removed it. On this path it logs nothing at -v=2: its SuccessfulCreate Events carry the story.',
    ],
    upstream: [
      { repo: K8S, path: 'pkg/controller/statefulset/stateful_set_control.go', note: 'updateStatefulSet: the ordered create loop' },
      { repo: K8S, path: 'pkg/controller/statefulset/stateful_pod_control.go', note: 'CreateStatefulPod, createPersistentVolumeClaims, the SuccessfulCreate events' },
    ],
  },
  'node-lifecycle-controller': {
    tagline: 'Notices a node that stopped reporting, sets its conditions to Unknown and taints it unreachable.',
    purpose: [
      'The node lifecycle controller watches the heartbeats kubelets post in their Node status. When a node has been silent for longer than the grace period (40 s by default) it sets the node’s Ready condition, and the others, to Unknown with the reason "Kubelet stopped posting node status", and adds the node.kubernetes.io/unreachable:NoExecute taint.',
      'For storage this matters because of the 6-minute forced detach: since kubernetes#110721 the attach/detach controller force-detaches a volume that is still in use only from a node whose Ready condition is not True, and this controller is what sets it to Unknown. The force-detach scenario starts with a node shutting down.',
    ],
    loop: [
      'It checks all nodes every 5 s (--node-monitor-period). The simulation keeps only the heartbeat check and the taint; zones and disruption modes are left out. Evicting the pods of a tainted node is the taint eviction controller’s job (in 1.20 it ran inside this controller).',
    ],
    upstream: [
      { repo: K8S, path: 'pkg/controller/nodelifecycle/node_lifecycle_controller.go', note: 'monitorNodeHealth, tryUpdateNodeHealth, the NoExecute taint pass' },
    ],
  },
  'taint-eviction-controller': {
    tagline: 'Deletes the pods of a node with a NoExecute taint they do not tolerate: at once, or when their toleration runs out.',
    purpose: [
      'A NoExecute taint on a node means its pods must go. For each pod on a tainted node the controller matches the taints against the pod’s tolerations. A taint the pod does not tolerate gets it deleted at once; a taint it tolerates for a while (every pod gets 300 s tolerations of node.kubernetes.io/not-ready and node.kubernetes.io/unreachable from the DefaultTolerationSeconds admission plugin) plans the deletion for when the shortest toleration runs out, and a taint that goes before then cancels it.',
      'For storage it matters in non-graceful node shutdown: no pod tolerates node.kubernetes.io/out-of-service, so tainting a dead node deletes its pods at once. The delete is graceful, so on a node whose kubelet is gone the pod only becomes Terminating; the pod garbage collector then removes it, and with it the claim on the volume.',
    ],
    loop: [
      'It reacts only to a change of a node’s NoExecute taints and of a pod’s node or tolerations, not to heartbeats or status. Before deleting it records a TaintManagerEviction Event ("Marking for deletion Pod …") and, since 1.26, adds the DisruptionTarget condition; a cancelled plan gets "Cancelling deletion of Pod …". Its Events reach the log only at -v=3 in 1.30.',
    ],
    upstream: [
      { repo: K8S, path: 'pkg/controller/tainteviction/taint_eviction.go', note: '1.29+: processPodOnNode, deletePodHandler, the TaintManagerEviction events' },
      { repo: K8S, path: 'pkg/controller/tainteviction/timed_workers.go', note: 'the queue of planned deletions' },
      { repo: K8S, path: 'plugin/pkg/admission/defaulttolerationseconds/admission.go', note: 'the 300 s not-ready and unreachable tolerations' },
    ],
  },
  'pod-gc-controller': {
    tagline: 'Force-deletes the terminating pods of a node that is not Ready and tainted out of service.',
    purpose: [
      'The pod garbage collector cleans up pods nobody else will: here, the terminating pods of a node that is not Ready and carries the node.kubernetes.io/out-of-service taint (non-graceful node shutdown, GA in 1.28). Their kubelet, which would confirm that the containers stopped and delete the pod object, is gone. The collector marks such a pod Failed and deletes it with grace period 0.',
      'That is what frees the volume: once the pod object is gone (or Failed) the attach/detach controller no longer wants the volume on that node, and the same taint lets it detach at once. The StatefulSet controller can then create the pod again elsewhere.',
    ],
    loop: [
      'It runs every 20 s (gcCheckPeriod) from its start and reads pods and nodes from its informers. Its other collections (terminated pods over the threshold, orphaned and unscheduled terminating pods) are left out; 1.20 has no collection of terminating pods at all.',
    ],
    upstream: [
      { repo: K8S, path: 'pkg/controller/podgc/gc_controller.go', note: 'gc, gcTerminating, markFailedAndDeletePodWithCondition' },
    ],
  },
  'pvc-protection-controller': {
    tagline: 'Keeps a claim that is being deleted until no running pod uses it.',
    purpose: [
      'When a claim is created, the API server’s StorageObjectInUseProtection admission plugin adds the kubernetes.io/pvc-protection finalizer. Deleting the claim then only sets its deletionTimestamp. This controller removes the finalizer once no pod that has not terminated refers to the claim, and the API server deletes the claim for real. Without it, deleting a claim under a running pod would pull the volume away from the pod.',
    ],
    loop: [
      'It reacts to claims being deleted and to pods changing, checks whether the claim is still in use, and removes the finalizer when it is not. Its log lines are at V(4), not printed at kube-controller-manager’s usual -v=2, so only its API writes show in the traces.',
    ],
    upstream: [
      { repo: K8S, path: 'pkg/controller/volume/pvcprotection/pvc_protection_controller.go', note: 'processPVC, isBeingUsed, removeFinalizer' },
      { repo: K8S, path: 'plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go', note: 'where the finalizers are added' },
    ],
  },
  'pv-protection-controller': {
    tagline: 'Keeps a PersistentVolume that is being deleted while it is still bound to a claim.',
    purpose: [
      'The same admission plugin adds the kubernetes.io/pv-protection finalizer to every new PersistentVolume. This controller removes it from a volume being deleted once the volume is no longer Bound, so that a volume cannot disappear under a claim that still points to it.',
    ],
    loop: [
      'It reacts to volume changes and removes the finalizer when the volume is being deleted and not bound. A conflict (409) on that update means it read an old copy; it simply tries again with the new one. Its log lines are V(4) and not printed at -v=2.',
    ],
    upstream: [
      { repo: K8S, path: 'pkg/controller/volume/pvprotection/pv_protection_controller.go', note: 'processPV, isBeingUsed, removeFinalizer' },
    ],
  },
  'expand-controller': {
    tagline: 'Looks at a claim that asks for more than it has, and leaves a CSI volume to csi-resizer.',
    purpose: [
      'When a bound claim’s request grows past its capacity, kube-controller-manager’s expand controller looks for an in-tree volume plugin that can expand the volume. A CSI volume has none there, so it records ExternalExpanding on the claim and does nothing more: csi-resizer next to the driver does the expansion. This is why every expansion of a CSI volume starts with an ExternalExpanding event from volume_expand, even when all goes well.',
    ],
    loop: [
      'It reacts to claims whose request or status capacity grew, checks that the volume is bound to that claim, and records the event once; it does not retry. Up to 1.26 the message is “Ignoring the PVC: didn’t find a plugin capable of expanding the volume; waiting for an external controller to process this PVC.”, from 1.27 “waiting for an external controller to expand this PVC”. For CSI volumes it is a Warning until 1.30 (the plugin lookup fails), Normal from 1.31.',
    ],
    upstream: [
      { repo: K8S, path: 'pkg/controller/volume/expand/expand_controller.go', note: 'syncHandler, enqueuePVC' },
    ],
  },
  'kube-scheduler': {
    tagline: 'Puts pods on nodes; for WaitForFirstConsumer claims it picks the node first and lets the volume follow.',
    purpose: [
      'kube-scheduler binds each pending pod to a node. Storage enters through its VolumeBinding plugin. A pod whose claim uses an Immediate StorageClass but is not bound yet cannot be placed: it stays Pending with a FailedScheduling event until the claim is bound. A claim with WaitForFirstConsumer works the other way round: the scheduler chooses the node, writes volume.kubernetes.io/selected-node on the claim so the provisioner creates the volume where the pod can reach it, waits until the claim is bound, and only then binds the pod.',
      'Binding the pod sets its spec.nodeName (through the Binding subresource), which is what the kubelet on that node and the attach/detach controller react to.',
    ],
    loop: [
      'It takes pods from its scheduling queue one at a time and runs the framework’s phases: filter the nodes, score them, reserve, pre-bind (where volume binding waits), bind. The simulation keeps the filters that concern volumes and replaces scoring with a deterministic choice.',
    ],
    upstream: [
      { repo: K8S, path: 'pkg/scheduler/schedule_one.go', pathAt: { '1.20': 'pkg/scheduler/scheduler.go' }, note: 'scheduleOne and the bind cycle' },
      { repo: K8S, path: 'pkg/scheduler/framework/plugins/volumebinding/binder.go', pathAt: { '1.20': 'pkg/controller/volume/scheduling/scheduler_binder.go' }, note: 'FindPodVolumes, AssumePodVolumes, BindPodVolumes (selected-node)' },
    ],
  },
  'external-provisioner': {
    tagline: 'Turns claims for its driver into CreateVolume calls and PersistentVolumes; deletes released volumes with DeleteVolume.',
    purpose: [
      'external-provisioner (the csi-provisioner container) runs next to the driver’s controller plugin. It takes the claims whose storage-provisioner annotation names its driver (for WaitForFirstConsumer also the selected-node annotation), and calls CreateVolume with the name pvc-<claim UID>, the requested size, the access modes as volume capabilities, the StorageClass parameters and, where the driver supports topology, the nodes the volume must be reachable from.',
      'With the answer it creates a PersistentVolume whose spec.csi carries the driver name and the volume handle, and whose claimRef already names the claim, so that the PV controller binds the two. When a volume it provisioned is Released and its reclaim policy is Delete, it calls DeleteVolume and deletes the PersistentVolume.',
    ],
    loop: [
      'It is built on sig-storage-lib-external-provisioner: informers on claims and volumes, work queues with a per-item exponential backoff (1 s to 5 min with the sidecar’s flags), retried for ever. Each CSI call has a timeout (--timeout, 10 s). A timeout or UNAVAILABLE/ABORTED answer is not final: the claim stays "in progress" and the same CreateVolume is sent again, which is safe because the driver must treat a repeated name as the same volume.',
    ],
    upstream: [
      { repo: 'kubernetes-csi/external-provisioner', path: 'pkg/controller/controller.go', note: 'Provision (CreateVolume request, PV built from the answer), Delete' },
      { repo: 'kubernetes-sigs/sig-storage-lib-external-provisioner', path: 'controller/controller.go', note: 'shouldProvision, provisionClaimOperation, deleteVolumeOperation, the claim queue' },
      { repo: 'kubernetes-sigs/sig-storage-lib-external-provisioner', path: 'controller/volume_store.go', note: 'saving the PV, with retries' },
    ],
  },
  'external-attacher': {
    tagline: 'Turns VolumeAttachments into ControllerPublishVolume and ControllerUnpublishVolume calls, and reports the result in their status.',
    purpose: [
      'external-attacher (the csi-attacher container) runs next to the driver’s controller plugin and handles the VolumeAttachments whose spec.attacher names its driver. To attach, it adds its finalizer to the PersistentVolume and to the VolumeAttachment, annotates the VolumeAttachment with the node’s CSI node ID (read from the CSINode object), calls ControllerPublishVolume, and writes status.attached=true with the publish context in status.attachmentMetadata. A failure goes into status.attachError.',
      'When the attach/detach controller deletes the VolumeAttachment, the finalizer keeps the object while the attacher calls ControllerUnpublishVolume, clears the status and removes the finalizer; only then does the object disappear, which is what the attach/detach controller waits for. A driver without the PUBLISH_UNPUBLISH_VOLUME capability gets a trivial handler that marks attachments attached without calling it.',
    ],
    loop: [
      'VolumeAttachments and PersistentVolumes go through two work queues, each item with its own exponential backoff from 1 s to 5 min. Each CSI call has a 15 s timeout (--timeout). Errors such as DEADLINE_EXCEEDED or ABORTED are not final: the operation may still be running in the storage system, so the attacher keeps retrying the same call rather than assuming it failed.',
      'The per-VolumeAttachment lifecycle it drives is charted below; upstream gives it no names, so the states follow the attacher’s own log lines (Attaching, Attached, Detaching…).',
    ],
    upstream: [
      { repo: 'kubernetes-csi/external-attacher', path: 'pkg/controller/csi_handler.go', note: 'syncAttach, syncDetach, csiAttach, csiDetach, the finalizers' },
      { repo: 'kubernetes-csi/external-attacher', path: 'pkg/controller/controller.go', note: 'informers and the two work queues' },
      { repo: 'kubernetes-csi/external-attacher', path: 'pkg/controller/util.go', note: 'markAsAttached, markAsDetached, finalizer names' },
      { repo: 'kubernetes-csi/external-attacher', path: 'cmd/csi-attacher/main.go', note: 'start-up: Probe, capabilities, real or trivial handler' },
    ],
  },
  'external-resizer': {
    tagline: 'Expands a volume when its bound claim asks for more storage (ControllerExpandVolume).',
    purpose: [
      'external-resizer (the csi-resizer container) watches claims of its driver. When a bound claim asks for more storage than its status.capacity shows, it marks the claim with the Resizing condition, calls ControllerExpandVolume, and writes the new size into the PersistentVolume. If the driver says the node must grow the filesystem too, the claim gets FileSystemResizePending and the kubelet finishes the job with NodeExpandVolume; otherwise the claim’s capacity is updated right away.',
    ],
    loop: [
      'Claims go through a work queue with exponential backoff (1 s to 5 min). Failures are recorded as VolumeResizeFailed events and retried.',
    ],
    upstream: [
      { repo: 'kubernetes-csi/external-resizer', path: 'pkg/controller/controller.go', note: 'syncPVC, resizePVC, markPVCAsFSResizeRequired' },
      { repo: 'kubernetes-csi/external-resizer', path: 'pkg/resizer/csi_resizer.go', note: 'the ControllerExpandVolume call' },
    ],
  },
  'snapshot-controller': {
    tagline: 'Turns a VolumeSnapshot into a VolumeSnapshotContent for the driver’s sidecar, and marks the snapshot ready when the content is.',
    purpose: [
      'Snapshots take two programs of kubernetes-csi/external-snapshotter. This one, the snapshot-controller, runs once per cluster in a Deployment of its own and talks to no driver. For each new VolumeSnapshot of a VolumeSnapshotClass it creates a VolumeSnapshotContent, snapcontent-<snapshot UID>, naming the source volume’s handle, the class’s driver and deletionPolicy and the snapshot it belongs to; it puts its finalizers on the snapshot and records CreatingSnapshot. When the driver’s csi-snapshotter sidecar has marked the content ready, it copies the content name, creation time, size and readyToUse into the snapshot’s status and records SnapshotCreated and SnapshotReady.',
      'Deleting a snapshot works backwards: with deletionPolicy Delete it deletes the content (the sidecar then calls DeleteSnapshot), and it removes its finalizers. Neither it nor the VolumeSnapshot CRDs come with Kubernetes or with a driver: without it a VolumeSnapshot never gets a status.',
    ],
    loop: [
      'A controller over work queues with exponential backoff, watching VolumeSnapshots, VolumeSnapshotContents and the claims and volumes they are taken of. Its own log lines on this path are at -v=5 and are left out: the steps are its writes and Events.',
    ],
    upstream: [
      { repo: 'kubernetes-csi/external-snapshotter', path: 'pkg/common-controller/snapshot_controller.go', note: 'createSnapshotContent, updateSnapshotStatus, the finalizers' },
      { repo: 'kubernetes-csi/external-snapshotter', path: 'cmd/snapshot-controller/main.go', note: 'the Deployment’s program' },
    ],
  },
  'external-snapshotter': {
    tagline: 'The csi-snapshotter sidecar: calls CreateSnapshot and DeleteSnapshot for the VolumeSnapshotContents of its driver.',
    purpose: [
      'The sidecar runs next to the driver’s controller plugin and watches only VolumeSnapshotContents (and their classes). For a new content of its driver it calls CreateSnapshot with the source volume’s handle and the name snapshot-<snapshot UID>, so that a retry asks for the same snapshot, and writes the answer into the content’s status: snapshotHandle, creationTime, restoreSize, readyToUse. For a deleted content with deletionPolicy Delete it calls DeleteSnapshot, then removes the content’s finalizer.',
      'The other half, creating the contents and binding them to VolumeSnapshots, is the snapshot-controller’s.',
    ],
    loop: [
      'A controller over a work queue with exponential backoff; its CSI calls have a 1 minute timeout by default.',
    ],
    upstream: [
      { repo: 'kubernetes-csi/external-snapshotter', path: 'pkg/sidecar-controller/snapshot_controller.go', note: 'syncContent, CreateSnapshot, DeleteSnapshot, content status' },
    ],
  },
  'node-driver-registrar': {
    tagline: 'Tells the kubelet that a CSI driver runs on this node, and where its socket is.',
    purpose: [
      'node-driver-registrar runs in the driver’s node pod on every node. At start it asks the node plugin for its name (GetPluginInfo), then opens a registration socket in the kubelet’s plugins_registry directory (<driver>-reg.sock). The kubelet’s plugin watcher finds the socket, asks for the driver name and endpoint (GetInfo), registers the driver, which includes calling NodeGetInfo on the node plugin and writing the node ID into the CSINode object, and reports back with NotifyRegistrationStatus.',
      'Until that registration has happened, every kubelet operation for the driver fails with "driver name … not found in the list of registered CSI drivers".',
    ],
    loop: [
      'After start-up it only serves the registration API and waits. Upstream, a failed registration makes the container exit so that it is restarted; the simulation stops in registrationFailed instead.',
    ],
    upstream: [
      { repo: 'kubernetes-csi/node-driver-registrar', path: 'cmd/csi-node-driver-registrar/node_register.go', note: 'the registration server and socket' },
      { repo: 'kubernetes-csi/node-driver-registrar', path: 'cmd/csi-node-driver-registrar/main.go', note: 'GetInfo, NotifyRegistrationStatus, start-up' },
      { repo: K8S, path: 'pkg/kubelet/pluginmanager', note: 'the kubelet side: plugin watcher and registration' },
    ],
  },
  'csi-controller-plugin': {
    tagline: 'The driver’s Identity and Controller services: creates, deletes, attaches and detaches volumes in the storage system.',
    purpose: [
      'The controller plugin is the storage vendor’s code, usually one replica in a Deployment or StatefulSet together with the sidecars. It serves the Identity service (GetPluginInfo, GetPluginCapabilities, Probe) and the Controller service over a Unix socket that the sidecars share, and talks to the storage system’s own API: here either a cloud disk API (Tencent Cloud CBS) or Ceph RBD with ceph-csi’s omap journal. It does not talk to the Kubernetes API; translating between Kubernetes objects and CSI calls is the sidecars’ job.',
      'Every RPC must be idempotent: asked twice for the same thing it answers the same way, which lets callers retry after a timeout. The CSI volume lifecycle, charted below, says which call is allowed in which state; the plugin checks each call against it and answers with the spec’s error code when it is not.',
    ],
    loop: [
      'It answers calls as they come. Slow backend work shows as latency between a call and its reply; injected faults (--fault on the command line) make chosen calls fail with a chosen gRPC code.',
    ],
    upstream: [
      { repo: 'container-storage-interface/spec', path: 'spec.md', note: 'the services, the volume lifecycle figures, error codes per RPC' },
      { repo: 'TencentCloud/kubernetes-csi-tencentcloud', path: 'driver/cbs/controller.go', note: 'the CBS controller service the seeds’ logs come from' },
      { repo: 'ceph/ceph-csi', path: 'internal/rbd/controllerserver.go', note: 'CreateVolume, DeleteVolume, clones; rbd_journal.go for the omap journal' },
    ],
  },
  'csi-node-plugin': {
    tagline: 'The driver’s Identity and Node services on every node: stages (formats and mounts) and publishes (bind-mounts) volumes for pods.',
    purpose: [
      'The node plugin runs in a DaemonSet pod on every node, privileged and sharing the kubelet’s directory with mount propagation. At registration NodeGetInfo gives the node’s ID in the storage system (a cloud instance ID) and its topology. NodeStageVolume finds the attached device, formats it if it has no filesystem, and mounts it at the volume’s staging path (…/globalmount); NodePublishVolume bind-mounts that into the pod’s volume directory. NodeUnpublishVolume and NodeUnstageVolume undo the two.',
      'Staging happens once per volume and node, publishing once per pod, so several pods on one node can share a staged volume. A driver that does not advertise STAGE_UNSTAGE_VOLUME skips staging, and the lifecycle goes straight from NODE_READY to PUBLISHED.',
    ],
    loop: [
      'Like the controller plugin it answers calls as they come, here from the kubelet and from node-driver-registrar.',
    ],
    upstream: [
      { repo: 'container-storage-interface/spec', path: 'spec.md', note: 'Node service, "RPC Interactions and Reference Counting"' },
      { repo: 'TencentCloud/kubernetes-csi-tencentcloud', path: 'driver/cbs/node.go', note: 'the CBS node service' },
      { repo: 'ceph/ceph-csi', path: 'internal/rbd/nodeserver.go', note: 'rbd map, staging and publishing' },
    ],
  },
  kubelet: {
    tagline: 'Mounts the volumes of the pods on its node (NodeStageVolume, NodePublishVolume), reports which are in use, and registers CSI drivers.',
    purpose: [
      'The kubelet’s volume manager makes the volumes of the pods bound to its node available to their containers. Its desired state comes from those pods, its actual state from what it has mounted. Before it mounts an attachable volume it checks that the attach/detach controller attached it: it first reports the volume in node.status.volumesInUse, then VerifyControllerAttachedVolume waits until the volume appears in node.status.volumesAttached.',
      'Mounting a CSI volume is two calls to the node plugin: MountDevice is NodeStageVolume (once per node), SetUp is NodePublishVolume (once per pod). When the pod goes, TearDown (NodeUnpublishVolume) and UnmountDevice (NodeUnstageVolume) undo them, and dropping the volume from volumesInUse tells the attach/detach controller it may detach. A pod’s containers start only when all its volumes are mounted. Each failed mount operation records a FailedMount event of its own ("MountVolume.SetUp failed …"); up to 1.27 the kubelet also gave up every 2m3s with "Unable to attach or mount volumes … timed out waiting for the condition" (a FailedMount event and an E line), which 1.28 and later no longer record (kubernetes#117412). Either way it keeps trying.',
      'Its plugin manager watches the plugins_registry directory, where node-driver-registrar announces CSI drivers.',
    ],
    loop: [
      'A reconciler runs every 100 ms: first unmount what is no longer wanted, then attach-verify and mount what is, then unmount devices no pod uses. Operations go through nestedpendingoperations, one per volume at a time, with an exponential backoff from 500 ms to 2m2s after a failure; the "No retries permitted until …" lines come from there.',
    ],
    upstream: [
      { repo: K8S, path: 'pkg/kubelet/volumemanager/volume_manager.go', note: 'WaitForAttachAndMount, the 2m3s pod timeout, volumesInUse' },
      { repo: K8S, path: 'pkg/kubelet/volumemanager/reconciler/reconciler_common.go', pathAt: { '1.20': 'pkg/kubelet/volumemanager/reconciler/reconciler.go' }, note: 'the unmount, mount, unmount-device order' },
      { repo: K8S, path: 'pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go', note: 'pods to desired volumes' },
      { repo: K8S, path: 'pkg/volume/util/operationexecutor/operation_generator.go', note: 'VerifyControllerAttachedVolume, MountVolume, UnmountVolume, UnmountDevice' },
      { repo: K8S, path: 'pkg/volume/csi/csi_attacher.go', note: 'WaitForAttach, MountDevice = NodeStageVolume' },
      { repo: K8S, path: 'pkg/volume/csi/csi_mounter.go', note: 'SetUp = NodePublishVolume, TearDown = NodeUnpublishVolume' },
      { repo: K8S, path: 'pkg/kubelet/pluginmanager', note: 'CSI driver registration' },
    ],
  },
};

/**
 * The release a profile names for a repository: Kubernetes and the sidecars from the profile; the
 * provisioner library and the CSI spec as that era's external-provisioner pins them (its go.mod:
 * sig-storage-lib-external-provisioner v6.2.0 in v2.1.0, v10.0.0 in v5.0.1; container-storage-interface
 * v1.3.0 and v1.9.0). Repositories no profile names (the drivers' own) have no tag here.
 */
function tagFor(repo: string, profile: ProfileId): string | undefined {
  const p = PROFILES[profile];
  const sidecar: Record<string, keyof typeof p.sidecars> = {
    'kubernetes-csi/external-provisioner': 'provisioner', 'kubernetes-csi/external-attacher': 'attacher',
    'kubernetes-csi/node-driver-registrar': 'registrar', 'kubernetes-csi/external-resizer': 'resizer',
    'kubernetes-csi/external-snapshotter': 'snapshotter',
  };
  if (repo === K8S) return p.kubernetesVersion;
  if (sidecar[repo]) return p.sidecars[sidecar[repo]!];
  if (repo === 'kubernetes-sigs/sig-storage-lib-external-provisioner') return profile === '1.20' ? 'v6.2.0' : 'v10.0.0';
  if (repo === 'container-storage-interface/spec') return profile === '1.20' ? 'v1.3.0' : 'v1.9.0';
  return undefined;
}

/** The GitHub address of an upstream reference at the release `profile` names (default 1.30), or the default branch. */
export function upstreamUrl(ref: UpstreamRef, profile: ProfileId = '1.30'): string {
  const path = ref.pathAt?.[profile] ?? ref.path;
  const isFile = /\.[a-z0-9]+$/i.test(path);
  return `https://github.com/${ref.repo}/${isFile ? 'blob' : 'tree'}/${tagFor(ref.repo, profile) ?? 'HEAD'}/${path}`;
}

/** The reference at each profile's release, newest first ([] when no profile names one for its repository). */
export function upstreamTags(ref: UpstreamRef): Array<{ tag: string; href: string }> {
  return [...PROFILE_IDS].reverse().flatMap((p) => {
    const tag = tagFor(ref.repo, p);
    return tag ? [{ tag, href: upstreamUrl(ref, p) }] : [];
  });
}

const GROUP_WORDS: Record<ComponentFacts['group'], string> = {
  'control-plane': 'a control plane component',
  'csi-sidecar': 'a CSI sidecar',
  'csi-plugin': 'a CSI driver plugin',
  node: 'a node component',
};

/**
 * The prose of a component in `lang`; a component nobody has written about yet gets a plain
 * introduction. In Chinese (prose.zh.ts) the upstream references keep their repository and paths and
 * get the Chinese of their notes; a component whose Chinese is missing keeps its English.
 */
export function proseFor(c: ComponentFacts, lang: Lang = 'en'): ComponentProse & { generic: boolean } {
  const written = PROSE[c.name];
  if (written) {
    const zh = lang === 'zh' ? PROSE_ZH[c.name] : undefined;
    if (!zh) return { ...written, generic: false };
    return {
      tagline: zh.tagline,
      purpose: zh.purpose,
      loop: zh.loop,
      upstream: written.upstream.map((u, i) => ({ ...u, note: zh.notes[i] ?? u.note })),
      generic: false,
    };
  }
  if (lang === 'zh') return { generic: true, ...genericProseZh(c), loop: [], upstream: [] };
  return {
    generic: true,
    tagline: `${c.name} is ${GROUP_WORDS[c.group]} of the simulation.`,
    purpose: [`${c.name} logs as ${c.source}. No description has been written for it yet; the facts below come from its machine and the scenarios’ traces.`],
    loop: [],
    upstream: [],
  };
}
