/**
 * Annotations for the 46 lines quoted from seed 000 (src/data/seeds/seed-000.log), one per line in
 * the file's order, grouped as the article groups them (old node, controller, attacher, driver; then
 * the same for the new node). Written for this site; the article's own remarks are not reused.
 */
import type { NoteGroup } from '../seeds.ts';

export const SEED_000_NOTES: NoteGroup[] = [
  {
    title: 'Old node 11.142.61.164: the kubelet takes the volume down',
    intro: 'The pod was deleted. The kubelet on its node undoes the two mounts in reverse order: first the pod\'s bind mount, then the node-wide staging mount. It does not wait for the disk to be detached; that is not its job.',
    notes: [
      'NodeUnpublishVolume returned OK: the volume is no longer mounted into the pod\'s directory. InnerVolumeSpecName is the PV name, OuterVolumeSpecName the name the pod spec used.',
      'No other pod on this node uses the volume, so the kubelet starts unstaging it: NodeUnstageVolume on the global mount point.',
      'Unstaging succeeded. The "%!(EXTRA string=…)" tail is Go\'s fmt package complaining about an argument the format string had no verb for: a cosmetic bug in the 1.20 log call, reproduced as printed. The line also shows the redaction was partial (disk-adge0gvc survives here).',
      '"Volume detached" is the kubelet\'s word for dropping the volume from its actual state of world. Nothing was detached from the VM yet. DevicePath is the VolumeAttachment name, which the CSI plugin uses as its device path.',
    ],
  },
  {
    title: 'kube-controller-manager: the attach/detach controller detaches',
    intro: 'The controller\'s desired state no longer wants the volume on the old node, and the kubelet has dropped it from volumesInUse. Timestamps here are UTC+8, like the kubelet\'s; the sidecars below log in UTC (06:58 is the same minute).',
    notes: [
      'The reconciler starts the detach. Just before this it removed the volume from the node\'s status.volumesAttached, so no kubelet will start mounting it again.',
      'The safety check: the operation read the Node object and the volume is not in its status.volumesInUse. Had it been, the detach would fail and retry.',
      'Six and a half seconds later the detach is done: for CSI that means the VolumeAttachment the controller deleted is gone, which happens only after external-attacher removed its finalizer.',
    ],
  },
  {
    title: 'csi-attacher: the old node\'s VolumeAttachment',
    notes: [
      'The VolumeAttachment csi-3a36… got a deletionTimestamp; the update lands in external-attacher\'s work queue.',
      'The CSI handler picks it up (csi_handler.go syncVA).',
      'deletionTimestamp is set, so this is a detach.',
      'About to call ControllerUnpublishVolume for this attachment.',
      'The driver answered OK, six seconds later.',
      'external-attacher writes status.attached=false.',
      'client-go\'s client-side rate limiter held the PATCH back for about 200 ms. Harmless, but a sign the sidecar is making many API calls.',
      'Its finalizer is removed; with no finalizer left, the API server deletes the object, and the controller\'s wait ends.',
      'The detach is complete from the attacher\'s side.',
    ],
  },
  {
    title: 'cbs-csi controller plugin: the detach call',
    notes: [
      'The gRPC interceptor logs every call it serves: ControllerUnpublishVolume.',
      'node_id is the CVM instance ID from the CSINode object, volume_id the cloud disk: "take this disk off that VM".',
    ],
  },
  {
    title: 'kube-controller-manager: attach to the new node',
    intro: 'The volume is ReadWriteOnce: the controller would not attach it to 11.142.60.212 while it was still attached to the old node (the player shows the Multi-Attach refusal). The attach starts in the same second the detach finished.',
    notes: [
      'The attach operation starts. The 1.20 wording says "from node" even for an attach; 1.30 prints the same event as structured key/value pairs (volumeName=…, nodeName=…).',
      'Twelve seconds later the new VolumeAttachment reports status.attached=true.',
      'The Normal event SuccessfulAttachVolume, recorded on the new pod: what kubectl describe pod shows.',
    ],
  },
  {
    title: 'csi-attacher: the new VolumeAttachment',
    notes: [
      'A new VolumeAttachment, csi-ef62…: the name hashes volume handle, driver and node, so another node means another object.',
      'The handler picks it up.',
      'No deletionTimestamp: this is an attach.',
      'It gathers what ControllerPublishVolume needs: the PV, the node ID from CSINode, the access mode.',
      'Its finalizer goes on the VolumeAttachment before the driver is called, so the object cannot vanish mid-attach.',
      'The node ID goes into the annotation csi.alpha.kubernetes.io/node-id, in the same patch.',
      'The rate limiter again, this time half a second on the PATCH.',
      'ControllerPublishVolume returned OK after about eleven seconds: the cloud attached the disk.',
      'It writes status.attached=true (and the publish context as attachmentMetadata, empty for cbs).',
      'The status write is stored.',
      'Done: the attachment is in place and recorded.',
      'The work item is finished and its retry backoff reset.',
    ],
  },
  {
    title: 'cbs-csi controller plugin: the attach call',
    notes: [
      'ControllerPublishVolume arrives at the driver.',
      'The new node\'s instance ID, the capability (filesystem ext4, access mode 1 = SINGLE_NODE_WRITER) and the volume context the provisioner stored in the PV. Unredacted here: the disk is disk-adge0gvc.',
    ],
  },
  {
    title: 'New node 11.142.60.212: the kubelet waits, then mounts',
    intro: 'These kubelet lines start before the detach on the old node finished: the new pod was scheduled at once, and its kubelet polls with exponential backoff until the volume shows up in its node status.',
    notes: [
      'VerifyControllerAttachedVolume: is the volume in this node\'s status.volumesAttached?',
      'Not even checked yet: the kubelet first has to report the volume in status.volumesInUse (so the controller will never detach it under a running pod). Retry in 500 ms.',
      'The next attempt.',
      'volumesInUse is reported now, but the volume is not attached yet: the failure every healthy attach produces while ControllerPublishVolume runs. Retry in 4 s.',
      'Another attempt after the backoff.',
      'The controller has written the volume into status.volumesAttached: the kubelet marks it attached. device path is empty, as for any CSI volume.',
      'The mount operation starts.',
      'WaitForAttach for CSI checks the VolumeAttachment itself.',
      'It is attached; the returned DevicePath is the VolumeAttachment name.',
      'NodeStageVolume succeeded: the disk is formatted if needed and mounted at the PV\'s globalmount directory under this kubelet\'s root (/data_online/1/kubelet on these nodes).',
      'NodePublishVolume succeeded: bind-mounted into the pod. The containers can start.',
    ],
  },
];
