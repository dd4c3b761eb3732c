/**
 * Annotations for what seeds 002 and 003 quote as text: a node's volume status (002) and object
 * fields (003). One note per quoted line, in the files' order. Written for this site.
 */
import type { NoteGroup } from '../seeds.ts';

export const SEED_002_NOTES: NoteGroup[] = [
  {
    title: 'The stuck node\'s status, as the article shows it',
    notes: [
      'Written by the attach/detach controller\'s node status updater: the volumes it reports as attached to this node.',
      'An in-tree volume reports a device path here; a CSI volume reports an empty one.',
      'One disk only: disk-6w87j3wv.',
      'Written by the kubelet: the volumes its pods need.',
      'In use and attached: consistent.',
      'In use but missing from volumesAttached: the signature of the bug. The kubelet waits for this disk to appear there; the controller believes it is attached and, with this in-tree plugin whose disk stays attached, never writes it back.',
    ],
  },
];

export const SEED_003_NOTES: NoteGroup[] = [
  {
    title: 'The article\'s objects',
    notes: [
      'Claims of this class are provisioned by that driver\'s external-provisioner.',
      'The sample class binds immediately. With Immediate, the volume is created as soon as the claim exists, before any pod is scheduled.',
      'Yet the sample claim carries selected-node. The scheduler writes that annotation only for claims whose class delays binding, so this claim did not come from the Immediate class shown (or the annotation was set by hand).',
      'Written by the PV controller: it hands the claim to the external provisioner of that name.',
      'Written by the PV controller when it binds the claim to the PV.',
      'Zone and region labels in the older failure-domain.beta.kubernetes.io form.',
      'external-provisioner marks the PVs it created.',
      'The PV may only be used on nodes in zone cn-north-4a. external-provisioner writes this from the topology CreateVolume returned; the scheduler enforces it for every later pod.',
      'CSINode: the driver\'s node ID for this node and its topology keys, registered by the kubelet from NodeGetInfo. external-provisioner reads the keys to turn the selected node into accessibility requirements.',
    ],
  },
];
