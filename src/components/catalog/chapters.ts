/**
 * The chapters of the site in learning order, and which scenarios each walks through. Pages use it
 * to lead from the home page into the chapters and to link a component to the chapters where it
 * acts; a scenario no chapter covers is linked to its embed page (/embed/<scenario>/) instead.
 */
import { SCENARIOS } from '../../machines/index.ts';
import { linkIn, type Lang } from '../site/i18n.ts';
import { CHAPTERS_ZH } from './chapters.zh.ts';
import { SCENARIO_TITLES_ZH } from './scenarios.zh.ts';

export interface Chapter {
  id: string;
  title: string;
  /** scenario ids the chapter steps through */
  scenarios: string[];
  /** one or two sentences: what happens in it */
  summary: string;
}

export const CHAPTERS: readonly Chapter[] = [
  {
    id: 'provision',
    title: 'Provision',
    scenarios: ['provision'],
    summary:
      'A claim is created. The PV controller hands it to external-provisioner, which calls CreateVolume and creates a PersistentVolume; the PV controller then binds the two.',
  },
  {
    id: 'wffc-provision',
    title: 'WaitForFirstConsumer',
    scenarios: ['wffc-provision'],
    summary:
      'With volumeBindingMode WaitForFirstConsumer the scheduler picks the node first and writes selected-node on the claim; the volume is then created in that node’s topology (seed 003).',
  },
  {
    id: 'attach',
    title: 'Attach',
    scenarios: ['attach'],
    summary:
      'A pod is scheduled. The attach/detach controller creates a VolumeAttachment, external-attacher calls ControllerPublishVolume, and the node status says the volume is attached.',
  },
  {
    id: 'mount',
    title: 'Mount',
    scenarios: ['mount', 'block-volume'],
    summary:
      'The kubelet confirms the attachment, then calls NodeStageVolume and NodePublishVolume on the node plugin, and the pod starts.',
  },
  {
    id: 'teardown',
    title: 'Teardown',
    scenarios: ['teardown'],
    summary:
      'The pod goes: NodeUnpublishVolume, NodeUnstageVolume, then the detach. Deleting the claim releases the volume and DeleteVolume removes it.',
  },
  {
    id: 'register',
    title: 'Register',
    scenarios: ['register', 'kubelet-restart'],
    summary:
      'The driver’s node pod starts: node-driver-registrar asks the driver its name and opens a registration socket, the kubelet’s plugin watcher finds it, registers the driver and asks NodeGetInfo; node ID, zone and volume limit land on the Node and in CSINode.',
  },
  {
    id: 'multi-attach',
    title: 'Multi-Attach',
    scenarios: ['multi-attach'],
    summary:
      'A ReadWriteOnce volume is wanted on a second node while still attached to the first: the attach/detach controller refuses and says why.',
  },
  {
    id: 'no-attach',
    title: 'No attach (NFS)',
    scenarios: ['no-attach'],
    summary:
      'csi-driver-nfs makes a claim a subdirectory of an NFS export, and pods on two nodes mount it at once: no VolumeAttachment, no ControllerPublishVolume, no NodeStageVolume, just NodePublishVolume on each node.',
  },
  {
    id: 'expand',
    title: 'Expand',
    scenarios: ['expand-online', 'expand-offline'],
    summary:
      'A claim asks for 2Gi: csi-resizer expands the RBD image and marks the claim FileSystemResizePending; the kubelet grows the file system with NodeExpandVolume at its next sync of the running pod (online), or inside the next mount (offline; after NodeStageVolume on 1.20, after NodePublishVolume on 1.30).',
  },
  {
    id: 'snapshot',
    title: 'Snapshot and restore',
    scenarios: ['snapshot-restore'],
    summary:
      'A VolumeSnapshot of claim data: the snapshot-controller creates its VolumeSnapshotContent, csi-snapshotter calls CreateSnapshot and writes the handle, and the snapshot turns readyToUse; a new claim with the snapshot as its dataSource gets a volume that CreateVolume fills from it.',
  },
  {
    id: 'pod-migration',
    title: 'Pod migration',
    scenarios: ['pod-migration'],
    summary:
      'A StatefulSet pod moves to another node (seed 000): the volume is unmounted and detached on the old node before it is attached and mounted on the new one.',
  },
  {
    id: 'node-failure',
    title: 'Node failure',
    scenarios: ['force-detach'],
    summary:
      'A node shuts down with a volume attached. The recreated pod gets a Multi-Attach error until the attach/detach controller force-detaches the volume after 6 minutes; the out-of-service taint would free it at once.',
  },
  {
    id: 'ad-detach-backoff',
    title: 'Detach in backoff',
    scenarios: ['ad-detach-backoff'],
    summary:
      'A detach fails and the pod comes back to the same node (seed 002): on 1.20 the node status loses the volume and the pod waits until the minute check (syncStates) finds the VolumeAttachment gone, or for good with the seed\'s in-tree plugin; fixed on 1.30.',
  },
  {
    id: 'provision-failure',
    title: 'Provision failure',
    scenarios: ['provision-retry', 'provision-failed'],
    summary:
      'CreateVolume times out twice and then works; or it refuses the request with InvalidArgument and the claim stays Pending: ProvisioningFailed events, csi-provisioner’s backoff, and what it keeps “in progress”.',
  },
  {
    id: 'attach-failure',
    title: 'Attach failure',
    scenarios: ['attach-failure', 'attacher-missing'],
    summary:
      'ControllerPublishVolume times out, then fails, then works: the error in the VolumeAttachment’s status.attachError, FailedAttachVolume events with a growing backoff. Then a cluster without external-attacher: “timed out waiting for external-attacher” and a pod that never starts.',
  },
  {
    id: 'mount-failure',
    title: 'Mount failure',
    scenarios: ['mount-failure'],
    summary:
      'NodeStageVolume fails with Internal, then hangs until the kubelet’s 2-minute deadline: FailedMount events, retries with exponential backoff, the device mount left Uncertain, then success.',
  },
  {
    id: 'driver-not-registered',
    title: 'Driver not registered',
    scenarios: ['driver-not-registered'],
    summary:
      'The pod’s node has no node plugin yet: every mount fails at once with “driver name … not found in the list of registered CSI drivers” and backs off, until node-driver-registrar registers the driver with the kubelet (GetInfo, NodeGetInfo, CSINode) and the next retry mounts.',
  },
  {
    id: 'ceph-rbd',
    title: 'Ceph RBD',
    scenarios: ['ceph-rbd-create', 'ceph-rbd-clone', 'ceph-rbd-snapshot', 'ceph-rbd-delete'],
    summary:
      'ceph-csi creates, clones and deletes RBD images, with its omap journal, the -temp clone images and the trash shown as they change (seed 004).',
  },
];

export const chapterUrl = (id: string): string => `/flows/${id}/`;
export const embedUrl = (scenario: string): string => `/embed/${scenario}/`;

/** The chapter that walks through a scenario, if any. */
export function chapterOfScenario(scenario: string): Chapter | undefined {
  return CHAPTERS.find((c) => c.scenarios.includes(scenario));
}

export interface ScenarioLink {
  /** chapter id, or the scenario id when no chapter covers it */
  id: string;
  title: string;
  href: string;
  /** "en" when the link leads from a Chinese page to a page that exists only in English (linkIn) */
  hreflang?: string;
  kind: 'chapter' | 'embed';
}

/**
 * Where to read about a list of scenarios: their chapters in learning order (each once), then the
 * scenarios no chapter covers, as embed pages. In `lang` (titles and addresses: /zh/flows/<id>/ from
 * a Chinese page), falling back to the English title and page where there is no translation.
 */
export function linksForScenarios(scenarios: Iterable<string>, lang: Lang = 'en'): ScenarioLink[] {
  const ids = new Set(scenarios);
  const zh = lang === 'zh';
  const chapters = CHAPTERS.filter((c) => c.scenarios.some((s) => ids.has(s)))
    .map((c): ScenarioLink => ({
      id: c.id, title: (zh ? CHAPTERS_ZH[c.id]?.title : undefined) ?? c.title, ...linkIn(lang, chapterUrl(c.id)), kind: 'chapter',
    }));
  const loose = SCENARIOS.filter((s) => ids.has(s.id) && !chapterOfScenario(s.id))
    // scenario titles read "Force detach: a node shuts down, …" (in Chinese "强制解除挂接：…"); the part before the colon names it
    .map((s): ScenarioLink => ({
      id: s.id, title: ((zh ? SCENARIO_TITLES_ZH[s.id] : undefined) ?? s.title).split(/[:：]/)[0]!.trim(), ...linkIn(lang, embedUrl(s.id)), kind: 'embed',
    }));
  return [...chapters, ...loose];
}

/** Title of a scenario, for lists ("seen in …"). */
export function scenarioTitle(id: string): string {
  return SCENARIOS.find((s) => s.id === id)?.title ?? id;
}
