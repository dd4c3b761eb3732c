/**
 * A kubelet driven alone through the harness up to its first MountDevice: the driver registered, one
 * pod's volume reported in use and verified attached. Shared by the harness's own tests and the
 * kubelet operation tests.
 */
import { createHarness, kubeletDescriptor, uniqueVolumeName, volumeAttachmentName, type K8sObject } from '../../src/machines/index.ts';

export const NODE = 'node-1';
export const DRIVER = 'disk.csi.example.com';
export const HANDLE = 'vol-1';
export const PV = 'pvc-1';
export const UNIQUE = uniqueVolumeName(DRIVER, HANDLE);
export const VA = volumeAttachmentName(HANDLE, DRIVER, NODE);
export const STAGE_CAPS = { capabilities: [{ Type: { Rpc: { type: 1 } } }] };

export const pv: K8sObject = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: PV }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, claimRef: { namespace: 'default', name: 'data' }, csi: { driver: DRIVER, volumeHandle: HANDLE, fsType: 'ext4' } }, status: { phase: 'Bound' } };
export const pvc: K8sObject = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec: { volumeName: PV, accessModes: ['ReadWriteOnce'] }, status: { phase: 'Bound', capacity: { storage: '1Gi' } } };
export const pod = (name: string, nodeName: string, uid = `uid-${name}`): K8sObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid },
  spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] },
});
export const node = (name: string, attached: string[] = [], inUse: string[] = []): K8sObject => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name, annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' } },
  status: { conditions: [{ type: 'Ready', status: 'True' }], volumesAttached: attached.map((n) => ({ name: n, devicePath: '' })), volumesInUse: inUse },
});
export const va = (attached: boolean): K8sObject => ({
  apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: VA },
  spec: { attacher: DRIVER, nodeName: NODE, source: { persistentVolumeName: PV } }, status: { attached },
});

/** A kubelet with the driver registered, its pod's volume reported in use, verifying against a node that says attached. */
export function kubeletUpTo(vaAttached: boolean, o: { register?: boolean; vaObject?: K8sObject; pvObject?: K8sObject; podObject?: K8sObject; csiDriver?: K8sObject; caps?: Record<string, unknown> | null; profile?: '1.20' | '1.30' } = {}) {
  const h = createHarness(kubeletDescriptor, { nodeName: NODE, kubeletRoot: '/var/lib/kubelet' }, { driver: DRIVER, ...(o.profile ? { profile: o.profile } : {}) });
  h.start([node(NODE)]);
  h.serve();
  if (o.register !== false) {
    h.send({ type: 'plugin.socketCreated', path: `/var/lib/kubelet/plugins_registry/${DRIVER}-reg.sock`, owner: 'registrar' });
    h.reply(h.csiCalls('GetInfo')[0]!, 'OK', { type: 'CSIPlugin', name: DRIVER, endpoint: `/var/lib/kubelet/plugins/${DRIVER}/csi.sock`, supported_versions: ['1.0.0'] });
    h.reply(h.csiCalls('NodeGetInfo')[0]!, 'OK', { node_id: 'i-1' });
    h.serve();
    h.reply(h.csiCalls('NotifyRegistrationStatus')[0]!);
  }
  const vaObject = o.vaObject ?? va(vaAttached);
  VA_OF.set(h, vaObject);
  h.added(vaObject);
  if (o.csiDriver) h.added(o.csiDriver);
  h.added(o.podObject ?? pod('web-0', NODE));
  h.serve([pvc, o.pvObject ?? pv]);
  // the node status loop reports the volume in use; then the reconciler verifies it is attached
  h.advanceUntil(() => h.apiRequests({ verb: 'patchStatus', kind: 'Node' }).some((r) => JSON.stringify(r.patch).includes(UNIQUE)), 20_000);
  h.serve();
  // the attach/detach controller lists the volume in the node's status.volumesAttached: the kubelet's Node informer sees it
  // (1.30 starts VerifyControllerAttachedVolume only then, from that cached copy; 1.20 does not look)
  h.modified(node(NODE, [UNIQUE], [UNIQUE]), node(NODE));
  // (1.30's check reads the PV's claim first: InitializeClaimSize)
  h.advanceUntil(() => h.pending().some((p) => !p.answered && p.type === 'api.request' && p.verb === 'get' && (p.kind === 'Node' || p.kind === 'PersistentVolumeClaim')), 20_000);
  const claimGet = h.pending().find((p) => !p.answered && p.type === 'api.request' && p.verb === 'get' && p.kind === 'PersistentVolumeClaim');
  if (claimGet && claimGet.type === 'api.request') h.answer(claimGet, { ok: true, code: 200, object: pvc });
  h.advanceUntil(() => h.pending().some((p) => p.type === 'api.request' && p.verb === 'get' && p.kind === 'Node'), 20_000);
  h.serve([node(NODE, [UNIQUE], [UNIQUE])]);
  h.advance(500);
  // (caps: null leaves MountDevice's first capability call unanswered)
  if (o.caps !== null) answerCaps(h, o.caps ?? STAGE_CAPS);
  return h;
}

/** The VolumeAttachment a harness's kubelet was given (kubeletUpTo): what its GETs of it are answered with. */
const VA_OF = new WeakMap<object, K8sObject>();

/**
 * Answers the NodeGetCapabilities calls the kubelet makes one after the other: once before NodeStageVolume and
 * NodePublishVolume on 1.20, twice on 1.30 (the second for VOLUME_MOUNT_GROUP, NodeSupportsVolumeMountGroup), and
 * the GET of the VolumeAttachment between them (getPublishContext), with the VolumeAttachment the kubelet was given.
 * Returns how many capability calls it answered.
 */
export function answerCaps(h: ReturnType<typeof createHarness>, caps: Record<string, unknown>): number {
  let n = 0;
  for (let i = 0; i < 8; i++) {
    const c = unansweredCaps(h)[0];
    if (c) { h.reply(c, 'OK', caps); n++; continue; }
    const get = h.pending().find((p) => !p.answered && p.type === 'api.request' && p.verb === 'get' && p.kind === 'VolumeAttachment');
    if (!get || get.type !== 'api.request') break;
    const o = VA_OF.get(h) ?? va(true);
    h.answer(get, o.metadata.name === get.name ? { ok: true, code: 200, object: o } : { ok: false, code: 404, reason: 'NotFound', message: `volumeattachments.storage.k8s.io "${get.name}" not found` });
  }
  return n;
}

/** The kubelet's NodeGetCapabilities calls that have no answer yet. */
export const unansweredCaps = (h: ReturnType<typeof createHarness>) => h.pending().filter((p) => !p.answered && p.type === 'csi.call' && p.rpc === 'NodeGetCapabilities');

