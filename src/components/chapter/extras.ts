/**
 * What a chapter ends with besides its "remember" list: a few checks (a question, and its answer
 * behind a disclosure), how to see the same flow on a real cluster (kind with csi-driver-host-path:
 * the commands and what to look for in their output), and the upstream documentation on its topic.
 */
export interface ChapterExtras {
  checks: Array<{ q: string; a: string }>;
  /** commands to run on a kind cluster with csi-driver-host-path deployed, and what each shows */
  tryIt: Array<{ say: string; cmd: string }>;
  docs: Array<{ title: string; href: string }>;
}

const K8S_DOCS = 'https://kubernetes.io/docs/concepts/storage';
const CSI_DOCS = 'https://kubernetes-csi.github.io/docs';

/** The set-up every "try it" starts from. */
export const TRY_IT_SETUP =
  'A one-node kind cluster (kind create cluster) with the CSI hostpath driver deployed from its repository ' +
  '(kubernetes-csi/csi-driver-host-path: deploy/kubernetes-latest/deploy.sh, then kubectl apply -f ' +
  'examples/csi-storageclass.yaml for the StorageClass csi-hostpath-sc). The driver and all its sidecars run in ' +
  'one pod, csi-hostpathplugin-0 in the default namespace. The node of a kind cluster is a container: its ' +
  'kubelet journal is read with docker exec.';

/**
 * The chapters' StatefulSet web, whose pod web-0 gets the claim data-web-0. busybox's sleep runs as PID 1
 * and ignores SIGTERM: without the short grace period every pod deletion would wait 30 s.
 */
const WEB_STATEFULSET =
  'kubectl apply -f - <<EOF\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: { name: web }\nspec:\n  serviceName: web\n  replicas: 1\n' +
  '  selector: { matchLabels: { app: web } }\n  template:\n    metadata: { labels: { app: web } }\n    spec:\n' +
  '      terminationGracePeriodSeconds: 1\n      containers:\n      - name: web\n        image: busybox\n        command: [sleep, "3600"]\n' +
  '        volumeMounts: [{ name: data, mountPath: /data }]\n  volumeClaimTemplates:\n  - metadata: { name: data }\n    spec:\n' +
  '      accessModes: [ReadWriteOnce]\n      storageClassName: csi-hostpath-sc\n      resources: { requests: { storage: 1Gi } }\nEOF';

/** The VolumeAttachment of web-0's volume, found by its PV (other try-its may have left VolumeAttachments). */
const FIND_WEB_VA =
  'PV=$(kubectl get pvc data-web-0 -o jsonpath=\'{.spec.volumeName}\')\n' +
  'VA=$(kubectl get volumeattachment -o custom-columns=NAME:.metadata.name,PV:.spec.source.persistentVolumeName --no-headers | awk -v pv="$PV" \'$2 == pv { print $1 }\')\n' +
  'echo "$VA"';

export const EXTRAS: Readonly<Record<string, ChapterExtras>> = {
  provision: {
    checks: [
      { q: 'Which component calls CreateVolume: the PV controller or external-provisioner?', a: 'external-provisioner. For a CSI StorageClass the PV controller only annotates the claim (volume.kubernetes.io/storage-provisioner) and waits; the sidecar calls the driver and creates the PV.' },
      { q: 'What is the name of the PV, and why does it matter?', a: 'pvc-<the claim’s UID>. It is also the name passed to CreateVolume, which makes the call idempotent: a retry after a timeout asks for the same volume again instead of creating a second one.' },
      { q: 'A claim stays Pending and its only events are ExternalProvisioning. What does that tell you?', a: 'That no provisioner took it: external-provisioner for that driver is not running, or it does not handle this StorageClass’s provisioner name. A failed CreateVolume would show ProvisioningFailed with the driver’s error.' },
    ],
    tryIt: [
      { say: 'Create a claim in the example class and watch it bind.', cmd: 'kubectl apply -f - <<EOF\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: { name: data }\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: csi-hostpath-sc\n  resources: { requests: { storage: 1Gi } }\nEOF\nkubectl get pvc data -w' },
      { say: 'The claim’s events: Provisioning and ProvisioningSucceeded from the external provisioner.', cmd: 'kubectl describe pvc data' },
      { say: 'The PV it created: named pvc-<claim UID>, with spec.claimRef pointing back at the claim.', cmd: 'kubectl get pv -o yaml' },
      { say: 'The sidecar’s own lines (“Started provisioning”, “successfully created PV”).', cmd: 'kubectl logs csi-hostpathplugin-0 -c csi-provisioner' },
    ],
    docs: [
      { title: 'Persistent Volumes (kubernetes.io)', href: `${K8S_DOCS}/persistent-volumes/` },
      { title: 'Dynamic Volume Provisioning (kubernetes.io)', href: `${K8S_DOCS}/dynamic-provisioning/` },
      { title: 'external-provisioner (Kubernetes CSI docs)', href: `${CSI_DOCS}/external-provisioner.html` },
    ],
  },
  attach: {
    checks: [
      { q: 'Who creates the VolumeAttachment, and who sets status.attached?', a: 'The attach/detach controller in kube-controller-manager creates it; external-attacher calls ControllerPublishVolume and then sets status.attached: true.' },
      { q: 'How does the kubelet learn that the volume is attached?', a: 'From its own Node object: the attach/detach controller lists the volume in node.status.volumesAttached, and the kubelet’s VerifyControllerAttachedVolume waits for it there.' },
      { q: 'Why is the attach done by a controller and not by the kubelet?', a: 'Attaching is a call to the storage backend that needs its credentials and a view of the whole cluster (one node at a time for ReadWriteOnce, detaching from a dead node); keeping it in the control plane means the node needs neither.' },
    ],
    tryIt: [
      { say: 'Start a pod that uses the claim, then look at the attachment: ATTACHED true once external-attacher is done.', cmd: 'kubectl run web --image=busybox --overrides=\'{"spec":{"containers":[{"name":"web","image":"busybox","command":["sleep","3600"],"volumeMounts":[{"name":"d","mountPath":"/data"}]}],"volumes":[{"name":"d","persistentVolumeClaim":{"claimName":"data"}}]}}\'\nkubectl get volumeattachment' },
      { say: 'The node status: the volume in status.volumesAttached (written by the controller) and status.volumesInUse (by the kubelet).', cmd: 'kubectl get node kind-control-plane -o jsonpath=\'{.status.volumesAttached}{"\\n"}{.status.volumesInUse}{"\\n"}\'' },
      { say: 'The controller’s side: “AttachVolume.Attach succeeded” in kube-controller-manager.', cmd: 'kubectl logs -n kube-system kube-controller-manager-kind-control-plane | grep -i attach' },
      { say: 'The sidecar’s side. A driver that does not advertise PUBLISH_UNPUBLISH_VOLUME (the hostpath driver, unless started to) gets no ControllerPublishVolume call: external-attacher marks its VolumeAttachments attached at once.', cmd: 'kubectl logs csi-hostpathplugin-0 -c csi-attacher' },
    ],
    docs: [
      { title: 'CSI volumes (kubernetes.io)', href: 'https://kubernetes.io/docs/concepts/storage/volumes/#csi' },
      { title: 'external-attacher (Kubernetes CSI docs)', href: `${CSI_DOCS}/external-attacher.html` },
      { title: 'VolumeAttachment API reference (kubernetes.io)', href: 'https://kubernetes.io/docs/reference/kubernetes-api/config-and-storage-resources/volume-attachment-v1/' },
    ],
  },
  mount: {
    checks: [
      { q: 'Which RPC runs once per node, and which once per pod?', a: 'NodeStageVolume (the kubelet’s MountDevice) once per volume and node, at the global staging path; NodePublishVolume (SetUp) once per pod, into the pod’s own directory.' },
      { q: 'Why does the kubelet call NodeGetCapabilities first?', a: 'To learn whether the driver has STAGE_UNSTAGE_VOLUME. Without it the kubelet skips NodeStageVolume and calls NodePublishVolume alone.' },
      { q: 'A pod is ContainerCreating on a 1.30 cluster and you see no “Unable to attach or mount volumes” event. Is nothing failing?', a: 'Not necessarily: since 1.28 the kubelet records no event when its 2m3s wait runs out (its journal only has "Error syncing pod, skipping … context deadline exceeded"). Look for the per-operation FailedMount events (“MountVolume.SetUp failed …”) and the kubelet journal.' },
      { q: 'A pod with an fsGroup starts minutes after NodePublishVolume succeeded, and the kubelet logged “Setting volume ownership … could be slow”. What is it doing, and how do you shorten it?', a: 'It walks every file of the volume to give it the pod’s fsGroup (SetVolumeOwnership); the more files, the longer, and again every time the volume is set up for a pod. fsGroupChangePolicy: OnRootMismatch on the pod skips the walk when the volume’s top directory already has the group, read, write and execute permission for its owner and group, and the setgid bit; on 1.26 and later a driver with VOLUME_MOUNT_GROUP applies the group at mount instead; fsGroupPolicy: None on the CSIDriver turns it off.' },
    ],
    tryIt: [
      { say: 'The kubelet’s mount lines for the pod’s volume: MountDevice (with the staging path; only for a driver with STAGE_UNSTAGE_VOLUME) and SetUp.', cmd: 'docker exec kind-control-plane journalctl -u kubelet | grep -E "MountVolume.(MountDevice|SetUp) succeeded"' },
      { say: 'The mounts themselves on the node: the global mount under plugins/kubernetes.io/csi and the pod’s under pods/<uid>/volumes.', cmd: 'docker exec kind-control-plane sh -c "mount | grep kubernetes.io/csi"' },
      { say: 'The node plugin’s calls, in the hostpath driver’s own container.', cmd: 'kubectl logs csi-hostpathplugin-0 -c hostpath | grep -E "NodeStageVolume|NodePublishVolume"' },
    ],
    docs: [
      { title: 'CSI volumes (kubernetes.io)', href: 'https://kubernetes.io/docs/concepts/storage/volumes/#csi' },
      { title: 'Developing a CSI driver: the node service (Kubernetes CSI docs)', href: `${CSI_DOCS}/developing.html` },
    ],
  },
  'node-failure': {
    checks: [
      { q: 'You force-delete the pod of a dead node. Is its volume free now?', a: 'No. Deleting the object detaches nothing: the volume stays attached to the dead node, and the node’s last status still says it is in use. The new pod gets a Multi-Attach error until the attach/detach controller detaches it.' },
      { q: 'When does the attach/detach controller detach a volume that the node still reports in use?', a: 'After maxWaitForUnmountDuration, 6 minutes from when the detach was first wanted, and only if the node is not Ready (kubernetes#110721). With --disable-force-detach-on-timeout (1.30) never: then the node must come back, or be tainted out of service.' },
      { q: 'The new pod’s volume is attached, but the pod is still ContainerCreating for another two minutes. Why?', a: 'On a kubelet before 1.24: its check that the volume is attached failed many times while it waited, so that operation is in exponential backoff, up to 2m2s, and the pod starts at the first retry after the attach. From 1.24 the kubelet starts no check until its node status lists the volume, so there is no such wait.' },
    ],
    // a kind cluster's node is the control plane too: stopping it stops the API server with it
    tryIt: [],
    docs: [
      { title: 'Non-graceful node shutdown (kubernetes.io)', href: 'https://kubernetes.io/docs/concepts/cluster-administration/node-shutdown/#non-graceful-node-shutdown' },
      { title: 'Taint based evictions (kubernetes.io)', href: 'https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions' },
    ],
  },
  'provision-failure': {
    checks: [
      { q: 'csi-provisioner logs “state = Background” after a CreateVolume error. What does it do differently from “state = Finished”?', a: 'It keeps the claim in its list of claims in progress: the disk may still be being created, so it goes on provisioning that claim, with the same volume name, even if the claim is deleted meanwhile. After Finished it drops the claim from that list; it still retries while the claim exists.' },
      { q: 'Why does retrying a timed-out CreateVolume not create a second disk?', a: 'The retry passes the same name, pvc-<claim UID>, and the CSI spec asks CreateVolume to be idempotent by name: a driver that already has that volume returns it.' },
      { q: 'A claim has had ProvisioningFailed events with “InvalidArgument” for an hour. Will it bind on its own?', a: 'Not unless something changes: csi-provisioner retries for ever, up to 5 minutes apart, and the driver will refuse the same request again. Fix the StorageClass parameters or the claim.' },
    ],
    tryIt: [
      { say: 'A claim in a class whose parameters the driver refuses (here a hostpath class asking for an impossible size).', cmd: 'kubectl apply -f - <<EOF\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: { name: too-big }\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: csi-hostpath-sc\n  resources: { requests: { storage: 100Ti } }\nEOF\nkubectl describe pvc too-big' },
      { say: 'The sidecar’s view: the state line, the retries and their growing delay.', cmd: 'kubectl logs csi-hostpathplugin-0 -c csi-provisioner | grep -E "CreateVolume failed|Retrying syncing claim|error syncing claim"' },
      { say: 'The driver’s side of each call: the request, then the error.', cmd: 'kubectl logs csi-hostpathplugin-0 -c hostpath | grep -A3 CreateVolume' },
    ],
    docs: [
      { title: 'external-provisioner (Kubernetes CSI docs)', href: `${CSI_DOCS}/external-provisioner.html` },
      { title: 'CSI spec: CreateVolume errors (container-storage-interface/spec)', href: 'https://github.com/container-storage-interface/spec/blob/master/spec.md#createvolume-errors' },
      { title: 'Troubleshooting CSI drivers (Kubernetes CSI docs)', href: `${CSI_DOCS}/troubleshooting.html` },
    ],
  },
  'attach-failure': {
    checks: [
      { q: 'ControllerPublishVolume failed. Where can you read the error without any log?', a: 'In the VolumeAttachment: external-attacher saves it as status.attachError (message and time), and kubectl describe volumeattachment shows it. The attach/detach controller copies it into the FailedAttachVolume event on the pod.' },
      { q: 'The driver attached the disk at 10:00:00, yet the pod started at 10:00:40. Where did the 40 seconds go?', a: 'In backoffs: the attach/detach controller noticed only at its next retry, its delay doubling on each failure up to about 2 minutes. A kubelet before 1.24 adds a backoff of its own, at its next VerifyControllerAttachedVolume; from 1.24 it follows the node status within a moment.' },
      { q: 'FailedAttachVolume says “timed out waiting for external-attacher of … CSI driver”. Is the driver failing?', a: 'Nobody answered the VolumeAttachment for 2 minutes. If the driver had refused, its error would be in status.attachError. Check that a csi-attacher for that driver runs and can reach the API server, and look for its finalizer on the VolumeAttachment.' },
    ],
    tryIt: [
      { say: 'The attachment and its state: ATTACHED false and an attach error mean the driver refused.', cmd: 'kubectl get volumeattachment\nkubectl describe volumeattachment $(kubectl get volumeattachment -o name | head -1)' },
      { say: 'The pod’s side: FailedAttachVolume events, with the driver’s error or the timeout.', cmd: 'kubectl get events --field-selector reason=FailedAttachVolume' },
      { say: 'csi-attacher’s side: the call, “Saving attach error” and the retries.', cmd: 'kubectl logs csi-hostpathplugin-0 -c csi-attacher | grep -E "ControllerPublishVolume|attach error|Error processing"' },
    ],
    docs: [
      { title: 'external-attacher (Kubernetes CSI docs)', href: `${CSI_DOCS}/external-attacher.html` },
      { title: 'CSI spec: ControllerPublishVolume errors (container-storage-interface/spec)', href: 'https://github.com/container-storage-interface/spec/blob/master/spec.md#controllerpublishvolume-errors' },
      { title: 'CSIDriver object: attachRequired (Kubernetes CSI docs)', href: `${CSI_DOCS}/csi-driver-object.html` },
    ],
  },
  'mount-failure': {
    checks: [
      { q: 'A FailedMount event says “MountVolume.MountDevice failed … rpc error: code = Internal desc = …”. Whose message is the part after desc?', a: 'The CSI driver’s: the node plugin returned it from NodeStageVolume. The same text is in the node plugin’s log for that call; the kubelet only adds the operation name and the volume.' },
      { q: 'Why does the kubelet treat a device as possibly mounted after DeadlineExceeded, but not after Internal?', a: 'Internal is a final error: the driver says it is done and nothing was mounted. DeadlineExceeded only says the kubelet stopped waiting; the driver may have mounted the device, or may still be mounting it. The kubelet marks the device mount Uncertain, stages it again on the next try and unstages it if the pod goes away.' },
      { q: 'The kubelet logs “durationBeforeRetry 32s” for a volume. How many times has that operation failed in a row?', a: 'Seven: the backoff starts at 500 ms and doubles on each failure (500 ms, 1 s, 2 s, 4 s, 8 s, 16 s, 32 s), up to 2m2s.' },
    ],
    tryIt: [
      { say: 'The events of a pod stuck in ContainerCreating: each failed mount operation has a FailedMount event with the driver’s error (on a healthy cluster this lists nothing).', cmd: 'kubectl get events --field-selector reason=FailedMount' },
      { say: 'The kubelet’s failed volume operations and their backoff on the node.', cmd: 'docker exec kind-control-plane journalctl -u kubelet | grep "No retries permitted until"' },
      { say: 'The node plugin’s side of each call: the request, then the response or the error; a hung call shows the request and nothing after it.', cmd: 'kubectl logs csi-hostpathplugin-0 -c hostpath | grep -E "NodeStageVolume|NodePublishVolume|GRPC error"' },
    ],
    docs: [
      { title: 'Troubleshooting CSI drivers (Kubernetes CSI docs)', href: `${CSI_DOCS}/troubleshooting.html` },
      { title: 'CSI spec: NodeStageVolume errors (container-storage-interface/spec)', href: 'https://github.com/container-storage-interface/spec/blob/master/spec.md#nodestagevolume-errors' },
    ],
  },
  register: {
    checks: [
      { q: 'A PersistentVolume names only the driver, not a socket. How does the kubelet know where to send NodeStageVolume?', a: 'From registration: node-driver-registrar’s answer to GetInfo gave the kubelet the path of the driver’s socket on the node, and the kubelet keeps driver name and path in its list of registered drivers.' },
      { q: 'Which component uses CSINode’s allocatable.count, and what for?', a: 'kube-scheduler (its volume limits check): it counts the driver’s volumes of the pods on a node against that number and does not place a pod that would go over it.' },
      { q: 'You deleted the driver’s node pod on a node by mistake, and its replacement is running. Does anything need to be re-registered by hand?', a: 'No. The new pod’s node-driver-registrar opens the registration socket again, the kubelet’s plugin watcher sees it and registers the driver again, with a fresh NodeGetInfo.' },
    ],
    tryIt: [
      { say: 'The node plugin pod’s two containers: node-driver-registrar and the hostpath plugin share the socket directory.', cmd: 'kubectl get pod csi-hostpathplugin-0 -o jsonpath="{.spec.containers[*].name}"' },
      { say: 'node-driver-registrar’s side: the driver’s name, the registration socket, the kubelet’s GetInfo and NotifyRegistrationStatus calls.', cmd: 'kubectl logs csi-hostpathplugin-0 -c node-driver-registrar' },
      { say: 'The registration socket in the kubelet’s watched directory, and the driver’s own socket.', cmd: 'docker exec kind-control-plane ls /var/lib/kubelet/plugins_registry /var/lib/kubelet/plugins/csi-hostpath' },
      { say: 'What NodeGetInfo answered, as the kubelet wrote it: the node ID, topology keys and (if the driver gives one) the volume limit.', cmd: 'kubectl get csinode kind-control-plane -o yaml\nkubectl get node kind-control-plane -o jsonpath="{.metadata.annotations.csi\\.volume\\.kubernetes\\.io/nodeid}"' },
    ],
    docs: [
      { title: 'node-driver-registrar (Kubernetes CSI docs)', href: `${CSI_DOCS}/node-driver-registrar.html` },
      { title: 'CSINode object (Kubernetes CSI docs)', href: `${CSI_DOCS}/csi-node-object.html` },
      { title: 'Node-specific volume limits (kubernetes.io)', href: `${K8S_DOCS}/storage-limits/` },
    ],
  },
  'driver-not-registered': {
    checks: [
      { q: 'A pod’s FailedMount event says “driver name ebs.csi.aws.com not found in the list of registered CSI drivers”. Which list, and on which machine?', a: 'The kubelet’s, on the pod’s node: the drivers whose node plugins have registered with that kubelet through node-driver-registrar. It is in the kubelet’s memory; kubectl get csinode <node> -o yaml shows the same drivers from outside.' },
      { q: 'The driver’s node pod on that node became Ready a minute ago, but the pod still has no volume. Is something broken?', a: 'Probably not: the mount waits out its backoff (500 ms doubling, up to 2m2s) before it tries again. Check that the kubelet registered the driver (CSINode lists it); the next retry will mount.' },
      { q: 'Does the attach/detach controller need the driver to be registered on the node?', a: 'Not itself, but for a driver that needs attaching, external-attacher needs the driver’s ID for the node, which the kubelet writes into CSINode (and a node annotation) only when it registers the driver. So the attach waits for the registration too.' },
    ],
    tryIt: [
      { say: 'Which drivers the node’s kubelet has registered: hostpath.csi.k8s.io, with its node ID.', cmd: 'kubectl get csinode kind-control-plane -o yaml' },
      { say: 'node-driver-registrar’s side of the handshake: the driver’s name, the registration socket, then the kubelet’s GetInfo and NotifyRegistrationStatus calls.', cmd: 'kubectl logs csi-hostpathplugin-0 -c node-driver-registrar' },
      { say: 'The kubelet’s side: it validates and registers the driver; and any mount that came before the registration (on a healthy cluster usually nothing, or lines from the node’s start).', cmd: 'docker exec kind-control-plane journalctl -u kubelet | grep -E "Trying to validate a new CSI Driver|Register new plugin|not found in the list of registered CSI drivers"' },
    ],
    docs: [
      { title: 'node-driver-registrar (Kubernetes CSI docs)', href: `${CSI_DOCS}/node-driver-registrar.html` },
      { title: 'CSINode object (Kubernetes CSI docs)', href: `${CSI_DOCS}/csi-node-object.html` },
      { title: 'Troubleshooting CSI drivers (Kubernetes CSI docs)', href: `${CSI_DOCS}/troubleshooting.html` },
    ],
  },
  'multi-attach': {
    checks: [
      { q: 'Is a VolumeAttachment created for the refused node?', a: 'No. The refusal happens in the attach/detach controller’s reconciler before any attach starts, so external-attacher and the driver never hear of it.' },
      { q: '“already used by pod(s)” or “already exclusively attached”: which one means “wait”?', a: '“Already exclusively attached” means no pod there wants it any more: from a healthy node, the detach follows the unmount. From a dead node it comes only after the 6-minute forced detach (or at once with the out-of-service taint).' },
      { q: 'A one-replica Deployment hits this at every rollout. What fixes it?', a: 'strategy: Recreate (the old pod stops before the new one starts), or the ReadWriteOncePod access mode, with which the scheduler keeps the new pod Pending instead.' },
    ],
    // the hostpath driver keeps every volume on one node, so it cannot show a second node: none here
    tryIt: [],
    docs: [
      { title: 'Access modes (kubernetes.io)', href: `${K8S_DOCS}/persistent-volumes/#access-modes` },
      { title: 'Non-graceful node shutdown (kubernetes.io)', href: 'https://kubernetes.io/docs/concepts/cluster-administration/node-shutdown/#non-graceful-node-shutdown' },
    ],
  },
  expand: {
    checks: [
      { q: 'You raised a claim from 10Gi to 20Gi. kubectl get pv shows 20Gi, kubectl get pvc still 10Gi. Did the expansion fail?', a: 'Not necessarily. The PV has the new size once ControllerExpandVolume succeeded; the claim’s status.capacity changes only when a kubelet has grown the file system. Look at the claim’s conditions: FileSystemResizePending means the node half is still to come.' },
      { q: 'The claim has been FileSystemResizePending for ten minutes and its pod is Running. What is the kubelet waiting for?', a: 'For nothing it can see: it learns of the new size at its next sync of the pod, every 60 to 90 s. If ten minutes passed, look for a VolumeResizeFailed event on the pod and NodeExpandVolume errors in the node plugin’s log; and check that the node plugin advertises EXPAND_VOLUME (1.30 silently skips the step when it does not).' },
      { q: 'A claim was expanded while no pod used it. When does its file system grow?', a: 'The next time a pod mounts it: MountVolume reads the claim, finds its status smaller than the PV, and calls NodeExpandVolume before the pod starts. On 1.20 right after NodeStageVolume, on 1.30 after NodePublishVolume.' },
    ],
    // the claim "data" and the pod "web" are those of Provision's and Attach's try-its
    tryIt: [
      { say: 'Only a class with allowVolumeExpansion lets a claim grow; the field is one of the few a StorageClass lets you change.', cmd: 'kubectl get sc csi-hostpath-sc -o jsonpath=\'{.allowVolumeExpansion}{"\\n"}\'\nkubectl patch sc csi-hostpath-sc -p \'{"allowVolumeExpansion":true}\'' },
      { say: 'Ask for more while the pod web uses the claim, and watch the PV, then the claim, take the new size.', cmd: 'kubectl patch pvc data -p \'{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}\'\nkubectl get pv,pvc -w' },
      { say: 'The claim’s conditions while the node half is pending, and its events (Resizing, FileSystemResizeRequired, FileSystemResizeSuccessful).', cmd: 'kubectl get pvc data -o jsonpath=\'{.status.conditions}{"\\n"}\'\nkubectl describe pvc data' },
      { say: 'Both halves in their own logs: ControllerExpandVolume in external-resizer, NodeExpandVolume in the kubelet (up to a minute and a half later: it waits for its next sync of the pod).', cmd: 'kubectl logs csi-hostpathplugin-0 -c csi-resizer\ndocker exec kind-control-plane journalctl -u kubelet | grep -i expand' },
    ],
    docs: [
      { title: 'Expanding persistent volumes claims (kubernetes.io)', href: `${K8S_DOCS}/persistent-volumes/#expanding-persistent-volumes-claims` },
      { title: 'Volume expansion (Kubernetes CSI docs)', href: `${CSI_DOCS}/volume-expansion.html` },
    ],
  },
  snapshot: {
    checks: [
      { q: 'You deleted the VolumeSnapshot. Is the snapshot in the backend gone?', a: 'With the class’s deletionPolicy Delete, yes: the snapshot-controller deletes the VolumeSnapshotContent and csi-snapshotter calls DeleteSnapshot. With Retain the content and the backend’s snapshot stay, as a Retain PV does.' },
      { q: 'A restored claim has been Pending for a minute with ProvisioningFailed "snapshot … is not Ready". Do you need to recreate it?', a: 'No. csi-provisioner checks the snapshot before CreateVolume and retries with backoff (1 s, doubling, up to 5 minutes). Once the VolumeSnapshot is readyToUse the next try calls CreateVolume and the claim binds.' },
      { q: 'Where is the backend’s id of the snapshot, the one CreateVolume gets?', a: 'In the VolumeSnapshotContent’s status.snapshotHandle, written by csi-snapshotter from CreateSnapshot’s answer. The VolumeSnapshot only names its content (status.boundVolumeSnapshotContentName).' },
    ],
    // the claim "data" is that of Provision's try-it; the VolumeSnapshot CRDs and the snapshot-controller come from kubernetes-csi/external-snapshotter
    tryIt: [
      { say: 'The VolumeSnapshot CRDs and the snapshot-controller, from the external-snapshotter repository (check first whether your cluster has them already).', cmd: 'kubectl get crd volumesnapshots.snapshot.storage.k8s.io\ngit clone --depth 1 https://github.com/kubernetes-csi/external-snapshotter && cd external-snapshotter\nkubectl kustomize client/config/crd | kubectl create -f -\nkubectl -n kube-system kustomize deploy/kubernetes/snapshot-controller | kubectl create -f -' },
      { say: 'A VolumeSnapshotClass for the hostpath driver, and a snapshot of the claim data.', cmd: 'kubectl apply -f - <<EOF\napiVersion: snapshot.storage.k8s.io/v1\nkind: VolumeSnapshotClass\nmetadata: { name: hostpath-snap }\ndriver: hostpath.csi.k8s.io\ndeletionPolicy: Delete\n---\napiVersion: snapshot.storage.k8s.io/v1\nkind: VolumeSnapshot\nmetadata: { name: data-snap }\nspec:\n  volumeSnapshotClassName: hostpath-snap\n  source: { persistentVolumeClaimName: data }\nEOF\nkubectl get volumesnapshot,volumesnapshotcontent' },
      { say: 'A claim made from the snapshot; it binds once the snapshot is ready.', cmd: 'kubectl apply -f - <<EOF\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: { name: restored }\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: csi-hostpath-sc\n  dataSource: { apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: data-snap }\n  resources: { requests: { storage: 1Gi } }\nEOF\nkubectl describe pvc restored' },
      { say: 'Both sidecars’ side: CreateSnapshot in csi-snapshotter, CreateVolume with the snapshot as its content source in csi-provisioner.', cmd: 'kubectl logs csi-hostpathplugin-0 -c csi-snapshotter\nkubectl logs csi-hostpathplugin-0 -c csi-provisioner | grep -i snapshot' },
    ],
    docs: [
      { title: 'Volume Snapshots (kubernetes.io)', href: 'https://kubernetes.io/docs/concepts/storage/volume-snapshots/' },
      { title: 'Snapshot & Restore Feature (Kubernetes CSI docs)', href: `${CSI_DOCS}/snapshot-restore-feature.html` },
    ],
  },
  'no-attach': {
    checks: [
      { q: 'A pod with an NFS volume from csi-driver-nfs is stuck in ContainerCreating. Is it worth looking at VolumeAttachments or csi-attacher?', a: 'No. Its CSIDriver says attachRequired: false, so there is no VolumeAttachment and nothing is attached. Look at the pod’s FailedMount events and the node plugin’s NodePublishVolume lines on that node: the mount of the export failed or hangs.' },
      { q: 'The kubelet logs “MountVolume.MountDevice succeeded” for an NFS volume. What was mounted at that global mount path?', a: 'Nothing. The node plugin has no STAGE_UNSTAGE_VOLUME, so the kubelet skips NodeStageVolume and only records the device as mounted in its actual state of world. The export is mounted on the pod’s own target path by NodePublishVolume.' },
      { q: 'Where does nfsvers=4.1 from the StorageClass reach the NFS mount?', a: 'csi-provisioner copies the StorageClass’s mountOptions into the PV’s spec.mountOptions (and sends them as mount_flags in CreateVolume); the kubelet sends the PV’s mountOptions as mount_flags in every NodePublishVolume, and the node plugin passes them to mount.' },
    ],
    tryIt: [
      { say: 'Install csi-driver-nfs v4.13.4 and an NFS server in the cluster (both from the driver’s repository).', cmd: 'curl -skSL https://raw.githubusercontent.com/kubernetes-csi/csi-driver-nfs/v4.13.4/deploy/install-driver.sh | bash -s v4.13.4 --\nkubectl apply -f https://raw.githubusercontent.com/kubernetes-csi/csi-driver-nfs/v4.13.4/deploy/example/nfs-provisioner/nfs-server.yaml\nkubectl apply -f https://raw.githubusercontent.com/kubernetes-csi/csi-driver-nfs/v4.13.4/deploy/example/storageclass-nfs.yaml' },
      { say: 'The CSIDriver that takes attaching out of the flow.', cmd: 'kubectl get csidriver nfs.csi.k8s.io -o yaml | grep attachRequired' },
      { say: 'A ReadWriteMany claim and a pod that uses it: it runs, and no VolumeAttachment appears.', cmd: 'kubectl apply -f - <<EOF\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: { name: shared }\nspec:\n  accessModes: [ReadWriteMany]\n  storageClassName: nfs-csi\n  resources: { requests: { storage: 10Gi } }\n---\napiVersion: v1\nkind: Pod\nmetadata: { name: writer-a }\nspec:\n  terminationGracePeriodSeconds: 1\n  containers: [{ name: app, image: busybox, command: [sleep, "3600"], volumeMounts: [{ name: data, mountPath: /data }] }]\n  volumes: [{ name: data, persistentVolumeClaim: { claimName: shared } }]\nEOF\nkubectl wait --for=condition=Ready pod/writer-a\nkubectl get volumeattachment' },
      { say: 'The node plugin’s side: the NFS mount of the pod’s target path, with its mount flags.', cmd: 'kubectl -n kube-system logs -l app=csi-nfs-node -c nfs | grep -E "NodePublishVolume|mount .* succeeded"' },
    ],
    docs: [
      { title: 'csi-driver-nfs (kubernetes-csi)', href: 'https://github.com/kubernetes-csi/csi-driver-nfs' },
      { title: 'CSIDriver object: attachRequired (Kubernetes CSI docs)', href: `${CSI_DOCS}/csi-driver-object.html` },
      { title: 'Access modes (kubernetes.io)', href: `${K8S_DOCS}/persistent-volumes/#access-modes` },
    ],
  },
  teardown: {
    checks: [
      { q: 'A kubelet logs “Volume detached for volume …”. Has the disk left the node?', a: 'No. The kubelet never detaches: that line only means it dropped the volume from its own actual state of world after unstaging it. The attach/detach controller detaches, once the node’s status.volumesInUse no longer lists the volume, and for CSI the detach is over only when the VolumeAttachment is gone (“DetachVolume.Detach succeeded” in kube-controller-manager).' },
      { q: 'The controller has deleted a VolumeAttachment, but the object is still there with a deletionTimestamp. What is it waiting for?', a: 'For external-attacher. Its finalizer (external-attacher/<driver name>) keeps the object until ControllerUnpublishVolume has succeeded; then the attacher removes the finalizer and the API server deletes the object. If the call fails, status.detachError says why, and the attacher retries.' },
      { q: 'You delete a claim whose PV has reclaimPolicy Delete. Who deletes the disk, and what holds the PV until the end?', a: 'The PV controller only marks the PV Released; for a CSI volume external-provisioner calls DeleteVolume and then deletes the PV object. The object goes once its finalizers are removed: kubernetes.io/pv-protection, external-attacher’s if it attached the volume through ControllerPublishVolume, and (csi-provisioner v5 and later) external-provisioner.volume.kubernetes.io/finalizer.' },
    ],
    tryIt: [
      { say: 'Delete the pod from Attach’s try-it. The command returns once the kubelet has unmounted the pod’s volumes and deleted the pod object (about 30 s here: busybox’s sleep ignores SIGTERM, so the grace period runs out first).', cmd: 'kubectl delete pod web' },
      { say: 'The kubelet’s side, in order: UnmountVolume (NodeUnpublishVolume), UnmountDevice (NodeUnstageVolume, at the staging path), then “Volume detached”, which only means the kubelet forgot the volume.', cmd: 'docker exec kind-control-plane journalctl -u kubelet | grep -E "UnmountVolume|UnmountDevice|Volume detached"' },
      { say: 'The node status once it is over: the volume has left status.volumesInUse (the kubelet’s list) and status.volumesAttached (the controller’s), and its VolumeAttachment is gone.', cmd: 'kubectl get node kind-control-plane -o jsonpath=\'{.status.volumesInUse}{"\\n"}{.status.volumesAttached}{"\\n"}\'\nkubectl get volumeattachment' },
      // the hostpath driver has no ControllerUnpublishVolume: say what this cluster cannot show
      { say: 'The controller’s side: “attacherDetacher.DetachVolume started”, “Verified volume is safe to detach”, “DetachVolume.Detach succeeded”. Here the detach is instant: the hostpath driver does not advertise PUBLISH_UNPUBLISH_VOLUME, so external-attacher puts no finalizer on its VolumeAttachments and never calls ControllerUnpublishVolume. The deletionTimestamp and finalizer step of this chapter does not show on this cluster.', cmd: 'kubectl logs -n kube-system kube-controller-manager-kind-control-plane | grep -E "DetachVolume|safe to detach"' },
      { say: 'Before you delete the claim, the PV’s reclaim policy and finalizers: kubernetes.io/pv-protection and, with csi-provisioner v5 or later, external-provisioner.volume.kubernetes.io/finalizer; no external-attacher one, for the same reason.', cmd: 'kubectl get pv -o custom-columns=NAME:.metadata.name,RECLAIM:.spec.persistentVolumeReclaimPolicy,FINALIZERS:.metadata.finalizers' },
      { say: 'Watch the PVs in a second terminal, delete the claim, and the PV goes Released, then disappears. The sidecar logs “Volume deleted” and “PersistentVolume deleted succeeded”, the driver its DeleteVolume call.', cmd: 'kubectl get pv -w    # in a second terminal\nkubectl delete pvc data\nkubectl logs csi-hostpathplugin-0 -c csi-provisioner | grep -iE "volume deleted|deleted succeeded"\nkubectl logs csi-hostpathplugin-0 -c hostpath | grep -E "DeleteVolume|successfully deleted"' },
    ],
    docs: [
      { title: 'Reclaiming (kubernetes.io)', href: `${K8S_DOCS}/persistent-volumes/#reclaiming` },
      { title: 'Storage Object in Use Protection (kubernetes.io)', href: `${K8S_DOCS}/persistent-volumes/#storage-object-in-use-protection` },
      { title: 'Finalizers (kubernetes.io)', href: 'https://kubernetes.io/docs/concepts/overview/working-with-objects/finalizers/' },
      { title: 'external-attacher (Kubernetes CSI docs)', href: `${CSI_DOCS}/external-attacher.html` },
    ],
  },
  'pod-migration': {
    checks: [
      { q: 'The new pod’s kubelet logs errors about the volume seconds after the pod lands. Has the move failed?', a: 'No. A kubelet before 1.24 starts checking at once and retries with backoff: first the volume is not yet in its node’s status.volumesInUse, then it is not attached according to node status (from 1.24 it waits for both silently). A ReadWriteOnce volume must first be detached from the old node; the errors stop when the attach/detach controller has attached it to the new node and listed it in that node’s status.volumesAttached.' },
      { q: 'What has to happen before the controller may detach the volume from the old node?', a: 'The old node’s kubelet must unmount it (NodeUnpublishVolume, then NodeUnstageVolume) and drop it from status.volumesInUse at its next node status update. Until the detach the volume is still attached to the old node, and the controller refuses the new one: for a StatefulSet pod, whose old object is already gone, with the “already exclusively attached” form of the Multi-Attach error.' },
      { q: 'The sidecars’ lines say 06:58, the kubelets’ 14:58. How do you put the five streams in order?', a: 'By names, not clocks: the PV name, the UniqueName (kubernetes.io/csi/<driver>^<volume handle>), the VolumeAttachment name and the node appear in several streams. The sidecars log UTC and the hosts China Standard Time (UTC+8). The two VolumeAttachment names differ because the name is csi- plus a SHA-256 of volume handle, driver and node.' },
    ],
    // two nodes are needed, and even then the hostpath driver cannot move a volume: say so first
    tryIt: [
      { say: 'Unlike the set-up above, this needs two nodes: a kind cluster with one control-plane and one worker, then the driver and class deployed as above. Even so, a hostpath volume cannot move. The driver runs as one pod, on kind-worker (once a kind cluster has workers, ordinary pods stay off the control-plane), and every volume is a directory on that node, pinned there by the PV’s nodeAffinity. There is no real attach either: external-attacher marks the VolumeAttachment attached without calling the driver. What you can see is this chapter’s chain on one node (teardown, detach, attach, mount) in the same log streams, and the names that tie them together.', cmd: 'cat > two-nodes.yaml <<EOF\nkind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n- role: worker\nEOF\nkind create cluster --config two-nodes.yaml' },
      { say: 'Start the StatefulSet. Its PV’s nodeAffinity names kind-worker (key topology.hostpath.csi/node).', cmd: `${WEB_STATEFULSET}\nkubectl get pv -o jsonpath='{.items[*].spec.nodeAffinity}{"\\n"}'` },
      { say: 'Do what the article’s engineer did: cordon the node, then delete the pod. The StatefulSet recreates web-0, which stays Pending (its only possible node is cordoned). Meanwhile kind-worker’s kubelet unmounts the volume and drops it from volumesInUse at its next status update, and the controller detaches: the VolumeAttachment disappears.', cmd: 'kubectl cordon kind-worker\nkubectl delete pod web-0\nkubectl get volumeattachment -w' },
      { say: 'Uncordon. web-0 is scheduled to kind-worker again and a new VolumeAttachment is created, with the same name as the old one: the name hashes volume handle, driver and node, and only a move to another node changes it (the article’s two names). Compute it and compare.', cmd: 'kubectl uncordon kind-worker\nPV=$(kubectl get pvc data-web-0 -o jsonpath=\'{.spec.volumeName}\')\nh=$(kubectl get pv "$PV" -o jsonpath=\'{.spec.csi.volumeHandle}\')\nVA=csi-$(printf %s "$h" hostpath.csi.k8s.io kind-worker | sha256sum | cut -d" " -f1)\necho "$VA"\nkubectl get volumeattachment' },
      { say: 'Read the streams as the chapter does, tied together by the PV and VolumeAttachment names: the worker’s kubelet, kube-controller-manager, csi-attacher and the driver.', cmd: 'docker exec kind-worker journalctl -u kubelet --since "15 min ago" | grep "$PV" | grep -E "UnmountVolume|UnmountDevice|Volume detached|VerifyControllerAttachedVolume|MountVolume"\nkubectl logs -n kube-system kube-controller-manager-kind-control-plane | grep "$PV"\nkubectl logs csi-hostpathplugin-0 -c csi-attacher | grep "$VA"\nkubectl logs csi-hostpathplugin-0 -c hostpath | grep -E "Node(Un)?(Stage|Publish)Volume"' },
    ],
    docs: [
      { title: 'StatefulSets (kubernetes.io)', href: 'https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/' },
      { title: 'Safely Drain a Node (kubernetes.io)', href: 'https://kubernetes.io/docs/tasks/administer-cluster/safely-drain-node/' },
      { title: 'VolumeAttachment API reference (kubernetes.io)', href: 'https://kubernetes.io/docs/reference/kubernetes-api/config-and-storage-resources/volume-attachment-v1/' },
      { title: 'external-attacher (Kubernetes CSI docs)', href: `${CSI_DOCS}/external-attacher.html` },
    ],
  },
  'ad-detach-backoff': {
    checks: [
      { q: 'Which two node status fields show the stuck state, and who writes each?', a: 'status.volumesInUse, written by the kubelet, lists the volume: the pod wants it. status.volumesAttached, written by the attach/detach controller, does not. The kubelet mounts only what volumesAttached lists, so it logs “Volume not attached according to node status” and keeps waiting.' },
      { q: 'When the pod came back, why did the 1.20 controller not attach the volume again?', a: 'Its actual state of world still said the volume was attached to that node, so the attach branch only reset the detach request time. The report list behind volumesAttached had been emptied by a reconcile pass during the detach’s backoff (the guard checked only for a running operation, not one in backoff), and nothing put the volume back.' },
      { q: 'On 1.30 the returning pod gets FailedAttachVolume “volume attachment is being deleted”. Is this the same bug?', a: 'No. The failed detach left the attachment Uncertain, so the controller does a real attach. It fails, with backoff, while the old VolumeAttachment waits for its detach; once that object is gone the next attempt creates a new one, the controller writes volumesAttached, and the pod starts. It waits, but it recovers.' },
    ],
    // one node is what the scenario needs; the failing detach has to be staged by hand
    tryIt: [
      { say: 'This runs on the one-node cluster above, as in the chapter (the pod comes back to the same node). Any node image from 1.29 on behaves like the 1.30 run; the 1.20 bug was fixed in 1.23 (and in later 1.21 and 1.22 patch releases) and cannot be shown this way. Start the StatefulSet.', cmd: `${WEB_STATEFULSET}\nkubectl get pod web-0 -w` },
      { say: 'The hostpath driver cannot fail a detach: it has no ControllerPublishVolume, so external-attacher marks its VolumeAttachments attached at once, puts no finalizer on them, and a deleted one vanishes at once. To stand in for the cloud that refuses, hold the VolumeAttachment with a finalizer of your own before you delete anything.', cmd: `${FIND_WEB_VA}\nkubectl patch volumeattachment "$VA" --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}'` },
      { say: 'Delete the StatefulSet (its claim stays). volumesInUse empties at the kubelet’s next status update; then the controller takes the volume out of volumesAttached and deletes the VolumeAttachment, which now only gets a deletionTimestamp.', cmd: 'kubectl delete statefulset web\nsleep 20\nkubectl get volumeattachment "$VA" -o jsonpath=\'{.metadata.deletionTimestamp}{"\\n"}\'\nkubectl get node kind-control-plane -o jsonpath=\'{.status.volumesInUse}{"\\n"}{.status.volumesAttached}{"\\n"}\'' },
      { say: 'The controller’s detach waits for the object to disappear. After 2 minutes it fails (“timed out waiting for external-attacher of hostpath.csi.k8s.io CSI driver to detach volume …”), and the operation backs off (“No retries permitted until …”), longer after each failure, up to 2m2s.', cmd: 'kubectl logs -n kube-system kube-controller-manager-kind-control-plane | grep -E "DetachVolume|No retries permitted"' },
      { say: 'Once the first detach has failed, create the StatefulSet again. The attachment is now Uncertain, so the controller tries a real attach, which fails (“volume attachment is being deleted”). The pod waits in ContainerCreating with its volume in volumesInUse but not in volumesAttached: the signature of the 1.20 bug, except that this time it ends.', cmd: `${WEB_STATEFULSET}\nkubectl get events --field-selector involvedObject.name=web-0\ndocker exec kind-control-plane journalctl -u kubelet | grep "not attached according to node status"` },
      { say: 'Remove your finalizer, as when the cloud finally lets go. The old VolumeAttachment disappears, the controller’s next attempt creates a new one (with the same name: same volume, driver and node) and writes volumesAttached, and the kubelet mounts the volume. The pod runs once the backoffs run out.', cmd: 'kubectl patch volumeattachment "$VA" --type=json -p \'[{"op":"remove","path":"/metadata/finalizers"}]\'\nkubectl get pod web-0 -w' },
    ],
    docs: [
      { title: 'external-attacher (Kubernetes CSI docs)', href: `${CSI_DOCS}/external-attacher.html` },
      { title: 'VolumeAttachment API reference (kubernetes.io)', href: 'https://kubernetes.io/docs/reference/kubernetes-api/config-and-storage-resources/volume-attachment-v1/' },
      { title: 'Node API reference: volumesAttached, volumesInUse (kubernetes.io)', href: 'https://kubernetes.io/docs/reference/kubernetes-api/cluster-resources/node-v1/' },
      { title: 'Finalizers (kubernetes.io)', href: 'https://kubernetes.io/docs/concepts/overview/working-with-objects/finalizers/' },
    ],
  },
  'wffc-provision': {
    checks: [
      { q: 'A claim in a WaitForFirstConsumer class has been Pending for a day, with only WaitForFirstConsumer events. Is something broken?', a: 'Not if no pod uses it: with this binding mode no volume is created until the scheduler places a pod that uses the claim. Start such a pod and the claim is provisioned and bound.' },
      { q: 'Who writes volume.kubernetes.io/selected-node on the claim, and what happens next?', a: 'The scheduler’s VolumeBinding plugin, with the node it chose, before it binds the pod. The PV controller then hands the claim to the provisioner (the storage-provisioner annotations), and external-provisioner reads the selected node to build the topology for CreateVolume.' },
      { q: 'How does the disk end up in the selected node’s zone, and later pods with it?', a: 'external-provisioner takes the driver’s topology keys from the selected node’s CSINode entry and their values from the Node’s labels, and puts that segment first in CreateVolume’s accessibility_requirements (preferred), when its Topology feature gate is on (by default in v5.0.1, the 1.30 profile’s; v2.1.0 needs --feature-gates=Topology=true). With default flags otherwise, requisite lists the segments of every node that has the driver; --strict-topology narrows it to the selected node. The driver returns the volume’s accessible_topology, which becomes the PV’s spec.nodeAffinity, so every pod using the PV is scheduled where the disk can be reached.' },
    ],
    tryIt: [
      { say: 'A class like csi-hostpath-sc but with WaitForFirstConsumer, and a claim in it. The claim stays Pending with a WaitForFirstConsumer event, and no PV exists.', cmd: 'kubectl apply -f - <<EOF\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: { name: csi-hostpath-wffc }\nprovisioner: hostpath.csi.k8s.io\nvolumeBindingMode: WaitForFirstConsumer\n---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: { name: late }\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: csi-hostpath-wffc\n  resources: { requests: { storage: 1Gi } }\nEOF\nkubectl describe pvc late' },
      { say: 'What external-provisioner will read: the driver’s topology key in the node’s CSINode entry (topology.hostpath.csi/node, reported by the driver’s NodeGetInfo) and the node label that carries its value.', cmd: 'kubectl get csinode kind-control-plane -o jsonpath=\'{.spec.drivers[?(@.name=="hostpath.csi.k8s.io")].topologyKeys}{"\\n"}\'\nkubectl get nodes -L topology.hostpath.csi/node' },
      { say: 'Start a pod that uses the claim. The scheduler writes volume.kubernetes.io/selected-node on the claim, and then the PV controller adds the storage-provisioner annotations.', cmd: 'kubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata: { name: late-user }\nspec:\n  containers:\n  - name: c\n    image: busybox\n    command: [sleep, "3600"]\n    volumeMounts: [{ name: d, mountPath: /data }]\n  volumes: [{ name: d, persistentVolumeClaim: { claimName: late } }]\nEOF\nkubectl get pvc late -o jsonpath=\'{.metadata.annotations}{"\\n"}\'' },
      { say: 'The CreateVolume request in the sidecar’s log (it runs at -v=5), with accessibility_requirements. On one node, requisite and preferred both hold that node’s segment. With several nodes, requisite lists every node’s segment and preferred puts the selected node’s first, unless csi-provisioner runs with --strict-topology.', cmd: 'kubectl logs csi-hostpathplugin-0 -c csi-provisioner | grep accessibility_requirements' },
      { say: 'The PV: spec.nodeAffinity, built from the accessible_topology the driver returned, requires topology.hostpath.csi/node=kind-control-plane.', cmd: 'kubectl get pv "$(kubectl get pvc late -o jsonpath=\'{.spec.volumeName}\')" -o jsonpath=\'{.spec.nodeAffinity}{"\\n"}\'' },
    ],
    docs: [
      { title: 'Volume binding mode (kubernetes.io)', href: `${K8S_DOCS}/storage-classes/#volume-binding-mode` },
      { title: 'PersistentVolume node affinity (kubernetes.io)', href: `${K8S_DOCS}/persistent-volumes/#node-affinity` },
      { title: 'CSI Topology Feature (Kubernetes CSI docs)', href: `${CSI_DOCS}/topology.html` },
      { title: 'external-provisioner (Kubernetes CSI docs)', href: `${CSI_DOCS}/external-provisioner.html` },
    ],
  },
  'ceph-rbd': {
    checks: [
      { q: 'external-provisioner times out and calls CreateVolume again with the same name. Why does ceph-csi not create a second image?', a: 'Because it reserves before it creates. The request name (pvc-<claim UID>) is a key in the directory omap csi.volumes.default, pointing at a UUID whose own omap csi.volume.<UUID> names the image. The retry finds the reservation: it reuses the image (“found existing volume”) or, if the image was never created, cleans up the stale entries and reserves again. A second call while the first still runs gets ABORTED.' },
      { q: 'DeleteVolume carries only the volume ID. How does ceph-csi find the image?', a: 'The volume ID (the PV’s volumeHandle) encodes the cluster ID, the pool ID and the UUID. ceph-csi decodes them and reads csi.imagename from the omap csi.volume.<UUID> in that pool.' },
      { q: 'After a PVC clone, rbd ls shows two new images. Is one of them a leak?', a: 'No. <new>-temp is the intermediate clone and stays as the final image’s parent; both snapshots taken during the clone are already removed (the first stays in the source image’s trash namespace, rbd snap ls --all, while the -temp image depends on it). When the clone is deleted, DeleteVolume removes its -temp image too, before moving the image itself to the trash.' },
    ],
    // not reproducible on kind + hostpath: the commands need a Ceph cluster with ceph-csi
    tryIt: [
      { say: 'This one needs a Ceph cluster with ceph-csi’s RBD driver, not the kind + hostpath set-up above: kubectl access, and a shell with the rbd, rados and ceph tools and a Ceph key (with Rook, its toolbox pod). First find the class’s pool and cluster ID. Below the pool is rbd, as in the chapter: use yours.', cmd: 'kubectl get storageclass -o custom-columns=NAME:.metadata.name,PROVISIONER:.provisioner,POOL:.parameters.pool,CLUSTER:.parameters.clusterID' },
      { say: 'The journal’s directory: one key csi.volume.pvc-<claim UID> per volume, whose value is that volume’s UUID. If the class sets radosNamespace, add --namespace=<it> to every rados command.', cmd: 'rados -p rbd listomapvals csi.volumes.default' },
      { say: 'One volume’s own omap: csi.volname (the request name), csi.imagename (csi-vol-<UUID>), csi.volume.owner (the claim’s namespace) and csi.imageid.', cmd: 'rados -p rbd listomapvals csi.volume.<UUID>' },
      { say: 'The images and the volume IDs. rbd ls shows csi-vol-<UUID> (after a clone, its -temp image as well; rbd info on the clone names that -temp image as its parent). Each PV’s volumeHandle ends with the same UUID, after the pool’s ID in 16 hex digits (compare ceph osd lspools).', cmd: 'rbd ls -p rbd\nrbd info rbd/csi-vol-<UUID>\nkubectl get pv -o custom-columns=PV:.metadata.name,HANDLE:.spec.csi.volumeHandle\nceph osd lspools' },
      { say: 'Right after deleting a claim: the image is in the RBD trash until the ceph manager’s task purges it (it may already be gone), and the journal no longer has its key.', cmd: 'rbd trash ls -p rbd\nceph rbd task list\nrados -p rbd listomapkeys csi.volumes.default' },
      { say: 'The plugin’s own account, which needs --v=4 or more (ceph-csi’s manifests set --v=5). The provisioner Deployment has several replicas and only the leader’s sidecars call their plugin, so read every pod; --tail=-1 because with a label selector kubectl shows only 10 lines per pod. Names as in ceph-csi’s deploy/rbd/kubernetes manifests; an operator such as Rook may use another namespace or names.', cmd: 'kubectl logs -n <namespace> -l app=csi-rbdplugin-provisioner -c csi-rbdplugin --prefix --tail=-1 | grep -E "omap|Volume ID|rbd: create|trash"' },
    ],
    docs: [
      { title: 'Block Devices and Kubernetes (docs.ceph.com)', href: 'https://docs.ceph.com/en/latest/rbd/rbd-kubernetes/' },
      { title: 'Basic Block Device Commands (docs.ceph.com)', href: 'https://docs.ceph.com/en/latest/rbd/rados-rbd-cmds/' },
      { title: 'CSI Volume Cloning (kubernetes.io)', href: `${K8S_DOCS}/volume-pvc-datasource/` },
      { title: 'Kubernetes PVC DataSource (Kubernetes CSI docs)', href: `${CSI_DOCS}/volume-datasources.html` },
    ],
  },
};
