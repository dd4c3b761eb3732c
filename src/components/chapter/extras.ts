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
      { q: 'A pod is ContainerCreating on a 1.30 cluster and you see no “Unable to attach or mount volumes” event. Is nothing failing?', a: 'Not necessarily: since 1.28 the kubelet records nothing when its 2m3s wait runs out. Look for the per-operation FailedMount events (“MountVolume.SetUp failed …”) and the kubelet journal.' },
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
};
