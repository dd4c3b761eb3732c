/**
 * The chapters at /flows/<id>/, in learning order. This list is the one source for a chapter's
 * title, one-line description and scenarios: the /flows/ index, the previous/next links and the
 * chapter layout all read it. What a chapter teaches ("what you will learn", "what to remember") is
 * in its MDX frontmatter, next to the prose.
 */
import type { ProfileId } from '../../machines/index.ts';
import { SITE_SCENARIOS, type SiteScenario } from '../flows/data.ts';

export interface ChapterInfo {
  /** the URL segment: /flows/<id>/ */
  id: string;
  title: string;
  /** one line, shown under the title and on the index */
  description: string;
  /** the scenarios its player shows; several make one player with a flow switch (ceph-rbd) */
  scenarios: string[];
  /** the version the player opens on and the first full step list shows */
  k8s: ProfileId;
  /** further versions whose full step lists the page prints (the no-JavaScript reading of a comparison) */
  alsoK8s?: ProfileId[];
}

export const CHAPTERS: readonly ChapterInfo[] = [
  {
    id: 'provision', title: 'Provision', k8s: '1.30', scenarios: ['provision'],
    description: 'A claim becomes a volume: the PV controller hands the claim to external-provisioner, which calls CreateVolume and creates the PersistentVolume the controller then binds.',
  },
  {
    id: 'wffc-provision', title: 'WaitForFirstConsumer', k8s: '1.30', scenarios: ['wffc-provision'],
    description: 'With delayed binding the scheduler chooses the node first, writes it into the claim, and the volume is created in that node\'s topology.',
  },
  {
    id: 'attach', title: 'Attach', k8s: '1.30', scenarios: ['attach'],
    description: 'A scheduled pod needs its volume on its node: the attach/detach controller creates a VolumeAttachment and external-attacher turns it into ControllerPublishVolume.',
  },
  {
    id: 'mount', title: 'Mount', k8s: '1.30', scenarios: ['mount', 'block-volume', 'fsgroup'],
    description: 'The kubelet sees the volume attached in its node status, then stages it once per node (NodeStageVolume) and publishes it into the pod (NodePublishVolume).',
  },
  {
    id: 'teardown', title: 'Teardown', k8s: '1.30', scenarios: ['teardown'],
    description: 'The same path backwards: unpublish, unstage, detach through the VolumeAttachment, then the released volume is deleted with DeleteVolume.',
  },
  {
    id: 'register', title: 'Register', k8s: '1.30', alsoK8s: ['1.20'], scenarios: ['register', 'kubelet-restart'],
    description: 'How a CSI driver becomes known to the kubelet on each node: node-driver-registrar, the registration socket, the plugin watcher, NodeGetInfo, and what lands on the Node and in CSINode (node ID, topology, volume limit).',
  },
  {
    id: 'multi-attach', title: 'Multi-Attach', k8s: '1.30', scenarios: ['multi-attach'],
    description: 'A ReadWriteOnce volume wanted on a second node: the attach/detach controller refuses, reports a Multi-Attach error and the new pod waits.',
  },
  {
    id: 'no-attach', title: 'No attach (NFS)', k8s: '1.30', scenarios: ['no-attach'],
    description: 'A ReadWriteMany NFS volume from csi-driver-nfs, mounted by pods on two nodes: attachRequired false and no STAGE_UNSTAGE, so no VolumeAttachment, no ControllerPublishVolume and no NodeStageVolume; just NodePublishVolume on each node.',
  },
  {
    id: 'expand', title: 'Expand', k8s: '1.30', alsoK8s: ['1.20'], scenarios: ['expand-online', 'expand-offline'],
    description: 'A claim asks for more storage: csi-resizer grows the volume (ControllerExpandVolume) and leaves the claim FileSystemResizePending; the kubelet grows the file system with NodeExpandVolume, at its next sync of a running pod, or inside the next mount.',
  },
  {
    id: 'snapshot', title: 'Snapshot and restore', k8s: '1.30', alsoK8s: ['1.20'], scenarios: ['snapshot-restore'],
    description: 'A VolumeSnapshot of a claim: the snapshot-controller creates its VolumeSnapshotContent, csi-snapshotter calls CreateSnapshot and marks it ready; then a claim with the snapshot as its dataSource, which csi-provisioner resolves to the snapshot handle for CreateVolume.',
  },
  {
    id: 'pod-migration', title: 'Pod migration', k8s: '1.20', scenarios: ['pod-migration'],
    description: 'A StatefulSet pod moves to another node: 46 real log lines from a cbs-csi cluster, each next to the simulated step that prints it.',
  },
  {
    id: 'node-failure', title: 'Node failure', k8s: '1.30', scenarios: ['force-detach', 'node-out-of-service'],
    description: 'A node shuts down with a volume attached: the node turns NotReady, the recreated pod gets a Multi-Attach error until the attach/detach controller force-detaches after 6 minutes, then attach and mount on the new node.',
  },
  {
    id: 'ad-detach-backoff', title: 'Detach backoff', k8s: '1.30', alsoK8s: ['1.20'], scenarios: ['ad-detach-backoff'],
    description: 'A detach keeps failing and the pod comes back to the same node: stuck for good on 1.20, attached again on 1.30 once the detach is through (kubernetes#104526, kubernetes#120595). Both runs side by side.',
  },
  {
    id: 'provision-failure', title: 'Provision failure', k8s: '1.30', scenarios: ['provision-retry', 'provision-failed'],
    description: 'CreateVolume times out and is retried until it works, or refuses the request for good: what csi-provisioner keeps "in progress", the ProvisioningFailed events, its backoff, and a claim left Pending.',
  },
  {
    id: 'attach-failure', title: 'Attach failure', k8s: '1.30', scenarios: ['attach-failure', 'attacher-missing'],
    description: 'ControllerPublishVolume fails and the error lands in the VolumeAttachment\'s status.attachError, where the attach/detach controller reads it; and a cluster with no external-attacher at all, where the VolumeAttachment is never answered.',
  },
  {
    id: 'mount-failure', title: 'Mount failure', k8s: '1.30', alsoK8s: ['1.20'], scenarios: ['mount-failure'],
    description: 'NodeStageVolume fails, then hangs until the kubelet\'s 2-minute deadline: FailedMount events, exponential backoff, an Uncertain device mount, and the retry that works.',
  },
  {
    id: 'driver-not-registered', title: 'Driver not registered', k8s: '1.30', alsoK8s: ['1.20'], scenarios: ['driver-not-registered'],
    description: 'A pod lands on a node whose CSI node plugin has not started: "driver name … not found in the list of registered CSI drivers" on every mount, backing off, until node-driver-registrar registers the driver with the kubelet and the next retry mounts.',
  },
  {
    id: 'ceph-rbd', title: 'ceph-csi RBD', k8s: '1.30', scenarios: ['ceph-rbd-create', 'ceph-rbd-clone', 'ceph-rbd-snapshot', 'ceph-rbd-delete'],
    description: 'ceph-csi creates, clones and deletes RBD images through its omap journal, -temp clones and the trash; the journal is shown as it changes.',
  },
];

export function findChapter(id: string): ChapterInfo | undefined {
  return CHAPTERS.find((c) => c.id === id);
}

/** The chapter, or a build error that names the known ids (a typo in a page fails the build). */
export function getChapter(id: string): ChapterInfo {
  const c = findChapter(id);
  if (!c) throw new Error(`unknown chapter "${id}" (known: ${CHAPTERS.map((x) => x.id).join(', ')})`);
  return c;
}

export const chapterHref = (id: string): string => `/flows/${id}/`;

/** The chapters before and after `id` in learning order. */
export function neighbours(id: string): { prev?: ChapterInfo; next?: ChapterInfo } {
  const i = CHAPTERS.findIndex((c) => c.id === id);
  if (i < 0) throw new Error(`unknown chapter "${id}"`);
  return { prev: CHAPTERS[i - 1], next: CHAPTERS[i + 1] };
}

/** Scenarios the site simulates that no chapter walks through (shown on the index with their embed players). */
export function scenariosWithoutChapter(all: readonly SiteScenario[] = SITE_SCENARIOS): SiteScenario[] {
  const used = new Set(CHAPTERS.flatMap((c) => c.scenarios));
  return all.filter((s) => !used.has(s.id));
}

/**
 * The version a scenario is shown in: its chapter's (pod-migration opens on 1.20, the version that
 * reproduces seed 000), else the site's default. Embeds and the presenter open on it too.
 */
export function versionFor(scenario: string): ProfileId {
  return CHAPTERS.find((c) => c.scenarios.includes(scenario))?.k8s ?? '1.30';
}
