import type { MessageCatalog } from '../../src/machines/shared/messages.ts';
import { describe, it, expect } from 'vitest';
import { createActor, type AnyEventObject } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { cbs, cephRbd } from '../../src/machines/drivers/index.ts';
import {
  cephJournalView, composeCSIID, csiControllerPluginMachine, csiNodePluginMachine, csiVolumeLifecycleMachine, messages,
} from '../../src/machines/csi-plugin/index.ts';
import { renderMessage } from '../../src/machines/shared/messages.ts';
import type { CsiRpc, GrpcCode } from '../../src/machines/shared/csi.ts';

type Out = AnyEventObject & Record<string, unknown>;

function start(machine: typeof csiControllerPluginMachine | typeof csiNodePluginMachine, input: Record<string, unknown>) {
  const actor = createActor(machine as typeof csiControllerPluginMachine, { input: input as never });
  const emitted: Out[] = [];
  actor.on('*', (e) => emitted.push(e as unknown as Out));
  actor.start();
  actor.send({ type: 'component.started', now: 0 });
  let seq = 0;
  const call = (rpc: CsiRpc, request: Record<string, unknown>, now: number, fault?: { code: GrpcCode; message: string }) => {
    const requestId = `r${++seq}`;
    actor.send({ type: 'csi.request', now, requestId, rpc, request, caller: 'test', ...(fault ? { fault } : {}) });
    return requestId;
  };
  /** fire every timer requested so far, in time order */
  const flush = () => {
    for (;;) {
      const timers = emitted.filter((e) => e.type === 'timer.requested' && !e.fired) as Out[];
      if (!timers.length) return;
      timers.sort((a, b) => (a.at as number) - (b.at as number));
      const t = timers[0]!;
      t.fired = true;
      actor.send({ type: 'clock.ticked', now: t.at as number, key: t.key as string });
    }
  };
  const reply = (id: string) => emitted.find((e) => e.type === 'csi.reply' && e.requestId === id) as Out | undefined;
  const logText = (e: Out) => {
    const def = messages[e.msg as keyof typeof messages]!;
    return renderMessage(def.formats['1.20']!, e.args as Record<string, string>);
  };
  const logs = () => emitted.filter((e) => e.type === 'log').map(logText);
  return { actor, emitted, call, flush, reply, logs };
}

const cbsController = (extra: Record<string, unknown> = {}) => start(csiControllerPluginMachine, {
  id: 'csi-controller-plugin', host: 'master', profile: '1.20', driver: cbs, seed: 7, zone: 'ap-guangzhou-3', ...extra,
});
const cbsNode = () => start(csiNodePluginMachine, {
  id: 'csi-node-plugin/11.142.60.212', host: '11.142.60.212', profile: '1.20', driver: cbs, seed: 7,
  nodeName: '11.142.60.212', nodeId: 'ins-hrlnsway', zone: 'ap-guangzhou-3',
});

const publishRequest = {
  node_id: 'ins-hrlnsway', volume_id: 'disk-adge0gvc',
  volume_capability: { AccessType: { Mount: { fs_type: 'ext4' } }, access_mode: { mode: 1 } },
  volume_context: { diskType: 'CLOUD_PREMIUM', 'storage.kubernetes.io/csiProvisionerIdentity': '1672314114387-8081-com.tencent.cloud.csi.cbs' },
};

describe('csi controller plugin (cbs)', () => {
  it('logs ControllerPublishVolume exactly as cbs-csi does in seed 000 and replies after about 11.5 seconds', () => {
    const p = cbsController({ volumes: [{ volumeId: 'disk-adge0gvc', name: 'pvc-4cde4524-6ba4-449c-891b-fe9ce8138e33' }] });
    const id = p.call('ControllerPublishVolume', publishRequest, 1_000_000);
    expect(p.logs().slice(0, 2)).toEqual([
      'GRPC call: /csi.v1.Controller/ControllerPublishVolume',
      'GRPC request: {"node_id":"ins-hrlnsway","volume_capability":{"AccessType":{"Mount":{"fs_type":"ext4"}},"access_mode":{"mode":1}},"volume_context":{"diskType":"CLOUD_PREMIUM","storage.kubernetes.io/csiProvisionerIdentity":"1672314114387-8081-com.tencent.cloud.csi.cbs"},"volume_id":"disk-adge0gvc"}',
    ]);
    const def = (messages as MessageCatalog)['csiControllerPlugin.grpcCall']!;
    expect(`${def.formats['1.20']!.file}:${def.formats['1.20']!.line}`).toBe('utils.go:97');
    expect(p.reply(id)).toBeUndefined();
    const timer = p.emitted.find((e) => e.type === 'timer.requested')!;
    expect(timer.at).toBe(1_000_000 + cbs.latency.ControllerPublishVolume!);
    p.flush();
    expect(p.reply(id)).toMatchObject({ code: 'OK', requestId: id });
    expect(p.logs().at(-1)).toBe('GRPC response: {}');
  });

  it('logs ControllerUnpublishVolume with the two-key request line of seed 000', () => {
    const p = cbsController({ volumes: [{ volumeId: 'disk-adge0gvc', publishedNodeIds: ['ins-ngtfnf7y'] }] });
    const id = p.call('ControllerUnpublishVolume', { node_id: 'ins-ngtfnf7y', volume_id: 'disk-adge0gvc' }, 0);
    p.flush();
    expect(p.logs()[1]).toBe('GRPC request: {"node_id":"ins-ngtfnf7y","volume_id":"disk-adge0gvc"}');
    expect(p.reply(id)?.code).toBe('OK');
  });

  it('answers ABORTED while another operation on the same volume is pending', () => {
    const p = cbsController({ volumes: [{ volumeId: 'disk-adge0gvc' }] });
    const first = p.call('ControllerPublishVolume', publishRequest, 0);
    const second = p.call('ControllerPublishVolume', publishRequest, 5_000_000);
    expect(p.reply(second)).toMatchObject({ code: 'ABORTED', message: 'an operation with the given Volume ID disk-adge0gvc already exists' });
    expect(p.logs()).toContain('GRPC error: rpc error: code = Aborted desc = an operation with the given Volume ID disk-adge0gvc already exists');
    p.flush();
    expect(p.reply(first)?.code).toBe('OK');
  });

  it('refuses to publish a single-node volume to a second node with FAILED_PRECONDITION', () => {
    const p = cbsController({ volumes: [{ volumeId: 'disk-adge0gvc', publishedNodeIds: ['ins-ngtfnf7y'] }] });
    const id = p.call('ControllerPublishVolume', publishRequest, 0);
    expect(p.reply(id)?.code).toBe('FAILED_PRECONDITION');
    expect(String(p.reply(id)?.message)).toContain('ins-ngtfnf7y');
  });

  it('treats a repeated ControllerPublishVolume to the same node as success', () => {
    const p = cbsController({ volumes: [{ volumeId: 'disk-adge0gvc', publishedNodeIds: ['ins-hrlnsway'] }] });
    const id = p.call('ControllerPublishVolume', publishRequest, 0);
    p.flush();
    expect(p.reply(id)?.code).toBe('OK');
  });

  it('answers NOT_FOUND for publishing an unknown volume and OK for deleting one', () => {
    const p = cbsController();
    const a = p.call('ControllerPublishVolume', publishRequest, 0);
    const b = p.call('DeleteVolume', { volume_id: 'disk-nope0000' }, 0);
    p.flush();
    expect(p.reply(a)?.code).toBe('NOT_FOUND');
    expect(p.reply(b)?.code).toBe('OK');
  });

  it('creates a disk-xxxxxxxx volume once per name, rounding to 10 GiB, and returns the same volume on a repeat', () => {
    const p = cbsController();
    const request = { name: 'pvc-4cde4524-6ba4-449c-891b-fe9ce8138e33', capacity_range: { required_bytes: 5 * 1024 ** 3 }, parameters: { diskType: 'CLOUD_PREMIUM' } };
    const a = p.call('CreateVolume', request, 0);
    p.flush();
    const b = p.call('CreateVolume', request, 10_000_000);
    p.flush();
    const va = (p.reply(a)!.response as { volume: { volume_id: string; capacity_bytes: number } }).volume;
    const vb = (p.reply(b)!.response as { volume: { volume_id: string } }).volume;
    expect(va.volume_id).toMatch(/^disk-[a-z0-9]{8}$/);
    expect(va.capacity_bytes).toBe(10 * 1024 ** 3);
    expect(vb.volume_id).toBe(va.volume_id);
  });

  it('refuses to delete a volume still published to a node', () => {
    const p = cbsController({ volumes: [{ volumeId: 'disk-adge0gvc', publishedNodeIds: ['ins-ngtfnf7y'] }] });
    const id = p.call('DeleteVolume', { volume_id: 'disk-adge0gvc' }, 0);
    expect(p.reply(id)?.code).toBe('FAILED_PRECONDITION');
  });

  it('replies with an injected fault code after the normal latency', () => {
    const p = cbsController({ volumes: [{ volumeId: 'disk-adge0gvc' }] });
    const id = p.call('ControllerPublishVolume', publishRequest, 0, { code: 'INTERNAL', message: 'cvm is detaching disk, please retry later' });
    expect(p.reply(id)).toBeUndefined();
    p.flush();
    expect(p.reply(id)).toMatchObject({ code: 'INTERNAL', message: 'cvm is detaching disk, please retry later' });
    // the failed publish changed nothing: publishing to another node is still allowed
    const other = p.call('ControllerPublishVolume', { ...publishRequest, node_id: 'ins-ngtfnf7y' }, 20_000_000);
    p.flush();
    expect(p.reply(other)?.code).toBe('OK');
  });

  it('never replies to a DEADLINE_EXCEEDED fault, but the backend still finishes, so a retry succeeds', () => {
    const p = cbsController({ volumes: [{ volumeId: 'disk-adge0gvc' }] });
    const id = p.call('ControllerPublishVolume', publishRequest, 0, { code: 'DEADLINE_EXCEEDED', message: 'context deadline exceeded' });
    p.flush();
    expect(p.reply(id)).toBeUndefined();
    const retry = p.call('ControllerPublishVolume', publishRequest, 20_000_000);
    p.flush();
    expect(p.reply(retry)?.code).toBe('OK');
  });

  it('answers UNIMPLEMENTED for an RPC whose capability the driver does not advertise', () => {
    const p = cbsController();
    const id = p.call('CreateSnapshot', { name: 's', source_volume_id: 'disk-a' }, 0);
    expect(p.reply(id)?.code).toBe('UNIMPLEMENTED');
  });
});

describe('csi node plugin (cbs)', () => {
  const stage = { volume_id: 'disk-adge0gvc', staging_target_path: '/var/lib/kubelet/plugins/kubernetes.io/csi/pv/pvc-1/globalmount', volume_capability: { AccessType: { Mount: { fs_type: 'ext4' } }, access_mode: { mode: 1 } } };
  const publish = { ...stage, target_path: '/var/lib/kubelet/pods/uid/volumes/kubernetes.io~csi/pvc-1/mount' };

  it('refuses NodePublishVolume before NodeStageVolume with FAILED_PRECONDITION', () => {
    const p = cbsNode();
    const id = p.call('NodePublishVolume', publish, 0);
    expect(p.reply(id)?.code).toBe('FAILED_PRECONDITION');
  });

  it('stages then publishes, and repeats of both are idempotent', () => {
    const p = cbsNode();
    const s1 = p.call('NodeStageVolume', stage, 0); p.flush();
    const p1 = p.call('NodePublishVolume', publish, 1_000_000); p.flush();
    const s2 = p.call('NodeStageVolume', stage, 2_000_000); p.flush();
    const p2 = p.call('NodePublishVolume', publish, 3_000_000); p.flush();
    expect([s1, p1, s2, p2].map((id) => p.reply(id)?.code)).toEqual(['OK', 'OK', 'OK', 'OK']);
  });

  it('refuses NodeUnstageVolume while the volume is still published', () => {
    const p = cbsNode();
    p.call('NodeStageVolume', stage, 0); p.flush();
    p.call('NodePublishVolume', publish, 1_000_000); p.flush();
    const id = p.call('NodeUnstageVolume', stage, 2_000_000);
    expect(p.reply(id)?.code).toBe('FAILED_PRECONDITION');
    const u = p.call('NodeUnpublishVolume', publish, 3_000_000); p.flush();
    const us = p.call('NodeUnstageVolume', stage, 4_000_000); p.flush();
    expect([p.reply(u)?.code, p.reply(us)?.code]).toEqual(['OK', 'OK']);
  });

  it('reports the CVM instance id, its zone and the 20 disks a CVM takes in NodeGetInfo', () => {
    const p = cbsNode();
    const id = p.call('NodeGetInfo', {}, 0); p.flush();
    // driver/cbs/node.go NodeGetInfo: MaxAttachVolumePerNode = 20
    expect(p.reply(id)?.response).toEqual({ node_id: 'ins-hrlnsway', max_volumes_per_node: 20, accessible_topology: { segments: { 'topology.com.tencent.cloud.csi.cbs/zone': 'ap-guangzhou-3' } } });
  });
});

describe('csi controller plugin (ceph-rbd)', () => {
  const ceph = () => start(csiControllerPluginMachine, { id: 'csi-rbdplugin-provisioner', host: 'master', profile: '1.30', driver: cephRbd, seed: 3 });
  const create = (name: string, extra: Record<string, unknown> = {}) => ({ name, capacity_range: { required_bytes: 1024 ** 3 }, parameters: { clusterID: cephRbd.ceph!.clusterID, pool: 'rbd' }, ...extra });

  // the lines are ceph-csi v3.12.2's (internal/rbd/rbd_util.go, controllerserver.go, rbd_journal.go at that tag)
  it('creates a volume in journal order: lookup, reserve directory key, names, rbd create, image id', () => {
    const p = ceph();
    const id = p.call('CreateVolume', create('pvc-accbfd11-8b13-4a8a-96aa-cdd86b699223'), 0); p.flush();
    const vol = (p.reply(id)!.response as { volume: { volume_id: string } }).volume;
    const uuid = vol.volume_id.slice(-36);
    expect(vol.volume_id).toBe(composeCSIID(cephRbd.ceph!, uuid));
    expect(vol.volume_id.startsWith('0001-0024-4a9e463a-4853-4237-a5c5-9ae9d25bacda-0000000000000001-')).toBe(true);
    const lines = p.logs().map((l) => l.replace(/^ID: \d+ Req-ID: \S+ /, ''));
    const img = `csi-vol-${uuid}`;
    expect(lines.slice(2, 9)).toEqual([
      'got omap values: (pool="rbd", namespace="", name="csi.volumes.default"): map[]',
      `set omap keys (pool="rbd", namespace="", name="csi.volumes.default"): map[csi.volume.pvc-accbfd11-8b13-4a8a-96aa-cdd86b699223:${uuid}])`,
      `set omap keys (pool="rbd", namespace="", name="csi.volume.${uuid}"): map[csi.imagename:${img} csi.volname:pvc-accbfd11-8b13-4a8a-96aa-cdd86b699223])`,
      `generated Volume ID (${vol.volume_id}) and image name (${img}) for request name (pvc-accbfd11-8b13-4a8a-96aa-cdd86b699223)`,
      `rbd: create rbd/${img} size 1024M (features: [layering]) using mon 10.20.10.12,10.20.10.13`,
      `created image rbd/${img} backed for request name pvc-accbfd11-8b13-4a8a-96aa-cdd86b699223`,
      expect.stringMatching(new RegExp(`^set omap keys \\(pool="rbd", namespace="", name="csi.volume.${uuid}"\\): map\\[csi.imageid:[0-9a-f]{14}\\]\\)$`)),
    ]);
    expect(p.logs()[0]).toBe('ID: 1 Req-ID: pvc-accbfd11-8b13-4a8a-96aa-cdd86b699223 GRPC call: /csi.v1.Controller/CreateVolume');
    const view = cephJournalView(p.actor.getSnapshot().context);
    expect(view.images.map((i) => i.name)).toEqual([img]);
    expect(view.omaps.map((o) => o.object)).toEqual(['csi.volume.' + uuid, 'csi.volumes.default']);
  });

  it('clones through a -temp image and two short-lived snapshots', () => {
    const p = ceph();
    const a = p.call('CreateVolume', create('pvc-parent'), 0); p.flush();
    const parentId = (p.reply(a)!.response as { volume: { volume_id: string } }).volume.volume_id;
    const before = p.logs().length;
    const b = p.call('CreateVolume', create('pvc-clone', { volume_content_source: { Type: { Volume: { volume_id: parentId } } } }), 1_000_000); p.flush();
    const cloneId = (p.reply(b)!.response as { volume: { volume_id: string } }).volume.volume_id;
    const parent = `csi-vol-${parentId.slice(-36)}`, img = `csi-vol-${cloneId.slice(-36)}`;
    const rbd = p.logs().slice(before).map((l) => l.replace(/^ID: \d+ Req-ID: \S+ /, '')).filter((l) => l.startsWith('rbd:'));
    // doSnapClone's snapshots carry no monitors ("using mon " and nothing); the -temp clone gets deep-flatten too
    expect(rbd).toEqual([
      `rbd: snap create rbd/${parent}@${img}-temp using mon `,
      `rbd: clone rbd/${parent}@${img}-temp rbd/${img}-temp (features: [layering deep-flatten]) using mon 10.20.10.12,10.20.10.13`,
      `rbd: snap rm rbd/${parent}@${img}-temp using mon `,
      `rbd: snap create rbd/${img}-temp@${img} using mon `,
      `rbd: clone rbd/${img}-temp@${img} rbd/${img} (features: [layering]) using mon 10.20.10.12,10.20.10.13`,
      `rbd: snap rm rbd/${img}-temp@${img} using mon `,
    ]);
    const view = cephJournalView(p.actor.getSnapshot().context);
    expect(view.images.map((i) => i.name)).toEqual([parent, img, `${img}-temp`].sort());
    expect(view.images.every((i) => i.snapshots.length === 0)).toBe(true);
  });

  it('deletes through the trash and then removes the journal entries', () => {
    const p = ceph();
    const a = p.call('CreateVolume', create('pvc-accbfd11-8b13-4a8a-96aa-cdd86b699223'), 0); p.flush();
    const id = (p.reply(a)!.response as { volume: { volume_id: string } }).volume.volume_id;
    const uuid = id.slice(-36), img = `csi-vol-${uuid}`;
    const before = p.logs().length;
    const d = p.call('DeleteVolume', { volume_id: id }, 1_000_000); p.flush();
    expect(p.reply(d)?.code).toBe('OK');
    const lines = p.logs().slice(before).map((l) => l.replace(/^ID: \d+ Req-ID: \S+ /, ''));
    expect(lines.slice(2, -1)).toEqual([
      expect.stringMatching(new RegExp(`^got omap values: \\(pool="rbd", namespace="", name="csi.volume.${uuid}"\\): map\\[csi.imageid:[0-9a-f]{14} csi.imagename:${img} csi.volname:pvc-accbfd11-8b13-4a8a-96aa-cdd86b699223\\]$`)),
      // DeleteTempImage: the delete of the "-temp" clone is logged before it finds no such image
      `rbd: delete ${img}-temp using mon 10.20.10.12,10.20.10.13, pool rbd`,
      `deleting image ${img}`,
      `rbd: delete ${img} using mon 10.20.10.12,10.20.10.13, pool rbd`,
      expect.stringMatching(new RegExp(`^rbd: adding task to remove image "rbd/${img}" with id "[0-9a-f]{14}" from trash$`)),
      expect.stringMatching(new RegExp(`^rbd: successfully added task to move image "rbd/${img}" with id "[0-9a-f]{14}" to trash$`)),
      'removed omap keys (pool="rbd", namespace="", name="csi.volumes.default"): [csi.volume.pvc-accbfd11-8b13-4a8a-96aa-cdd86b699223]',
    ]);
    const view = cephJournalView(p.actor.getSnapshot().context);
    expect(view.images).toEqual([]);
    expect(view.trash.map((t) => t.name)).toEqual([img]);
    expect(view.omaps).toEqual([{ object: 'csi.volumes.default', values: {} }]);
    // the trash outlives the next call (each call works on a copy of the backend)
    p.call('CreateVolume', create('pvc-next'), 2_000_000); p.flush();
    expect(cephJournalView(p.actor.getSnapshot().context).trash.map((t) => t.name)).toEqual([img]);
  });

  it('takes a snapshot as a clone with a snapshot of its own: its journal, the RBD steps, and the first directory read that errors', () => {
    const p = ceph();
    const a = p.call('CreateVolume', create('pvc-src'), 0); p.flush();
    const srcId = (p.reply(a)!.response as { volume: { volume_id: string } }).volume.volume_id;
    const src = `csi-vol-${srcId.slice(-36)}`;
    const snapOf = (name: string, at: number) => {
      const before = p.logs().length;
      const r = p.call('CreateSnapshot', { name, source_volume_id: srcId, parameters: { clusterID: cephRbd.ceph!.clusterID } }, at); p.flush();
      const snapshot = (p.reply(r)!.response as { snapshot: { snapshot_id: string; size_bytes: number; ready_to_use: boolean } }).snapshot;
      return { snapshot, lines: p.logs().slice(before).map((l) => l.replace(/^ID: \d+ Req-ID: \S+ /, '')).filter((l) => !l.startsWith('GRPC')) };
    };
    const first = snapOf('snapshot-1', 1_000_000);
    const uuid = first.snapshot.snapshot_id.slice(-36), img = `csi-snap-${uuid}`;
    expect(first.snapshot).toMatchObject({ snapshot_id: composeCSIID(cephRbd.ceph!, uuid), size_bytes: 1024 ** 3, ready_to_use: true });
    expect(first.lines).toEqual([
      expect.stringMatching(new RegExp(`^got omap values: \\(pool="rbd", namespace="", name="csi.volume.${srcId.slice(-36)}"\\): map\\[csi.imageid:[0-9a-f]{14} csi.imagename:${src} csi.volname:pvc-src\\]$`)),
      'omap not found (pool="rbd", namespace="", name="csi.snaps.default"): rados: ret=-2, No such file or directory',
      `set omap keys (pool="rbd", namespace="", name="csi.snaps.default"): map[csi.snap.snapshot-1:${uuid}])`,
      `set omap keys (pool="rbd", namespace="", name="csi.snap.${uuid}"): map[csi.imagename:${img} csi.snapname:snapshot-1 csi.source:${src}])`,
      `generated Volume ID (${first.snapshot.snapshot_id}) and image name (${img}) for request name (snapshot-1)`,
      `rbd: snap create rbd/${src}@${img} using mon 10.20.10.12,10.20.10.13`,
      `rbd: clone rbd/${src}@${img} rbd/${img} (features: [layering deep-flatten]) using mon 10.20.10.12,10.20.10.13`,
      `rbd: snap rm rbd/${src}@${img} using mon 10.20.10.12,10.20.10.13`,
      `rbd: snap create rbd/${img}@${img} using mon 10.20.10.12,10.20.10.13`,
      expect.stringMatching(new RegExp(`^set omap keys \\(pool="rbd", namespace="", name="csi.snap.${uuid}"\\): map\\[csi.imageid:[0-9a-f]{14}\\]\\)$`)),
      `clone depth is (1), configured softlimit (4) and hardlimit (8) for rbd/${img}`,
    ]);
    const view = cephJournalView(p.actor.getSnapshot().context);
    const clone = view.images.find((i) => i.name === img)!;
    expect(clone).toMatchObject({ parent: `${src}@${img}`, snapshots: [img], features: ['layering', 'deep-flatten'] });
    expect(view.images.find((i) => i.name === src)!.snapshots).toEqual([]);
    // a second snapshot finds the directory: no error line, an empty lookup
    expect(snapOf('snapshot-2', 2_000_000).lines[1]).toBe('got omap values: (pool="rbd", namespace="", name="csi.snaps.default"): map[]');
    // the same request again answers with the same snapshot and takes no new one
    const again = snapOf('snapshot-1', 3_000_000);
    expect(again.snapshot.snapshot_id).toBe(first.snapshot.snapshot_id);
    expect(again.lines.some((l) => l.startsWith('rbd:'))).toBe(false);
    // a volume restored from it is one clone of csi-snap-S@csi-snap-S
    const r = p.call('CreateVolume', create('pvc-restored', { volume_content_source: { Type: { Snapshot: { snapshot_id: first.snapshot.snapshot_id } } } }), 4_000_000); p.flush();
    const restored = `csi-vol-${(p.reply(r)!.response as { volume: { volume_id: string } }).volume.volume_id.slice(-36)}`;
    const after = cephJournalView(p.actor.getSnapshot().context);
    expect(after.images.find((i) => i.name === restored)!.parent).toBe(`${img}@${img}`);
    // later calls keep what earlier ones left: the snapshot image still carries its snapshot
    expect(after.images.find((i) => i.name === img)!.snapshots).toEqual([img]);
  });

  it('keeps the claim\'s namespace as csi.volume.owner (GetOwner of csi.storage.k8s.io/pvc/namespace, ReserveName), gives a snapshot its source\'s owner, and a restore logs its new image (controllerserver.go:784, fallen through to)', () => {
    const p = ceph();
    const ns = { 'csi.storage.k8s.io/pvc/namespace': 'team-a' };
    const withNs = (name: string, extra: Record<string, unknown> = {}) => ({ ...create(name, extra), parameters: { ...create(name).parameters, ...ns } });
    const a = p.call('CreateVolume', withNs('pvc-owned'), 0); p.flush();
    const srcId = (p.reply(a)!.response as { volume: { volume_id: string } }).volume.volume_id;
    const lines = () => p.logs().map((l) => l.replace(/^ID: \d+ Req-ID: \S+ /, ''));
    expect(lines()).toContain(`set omap keys (pool="rbd", namespace="", name="csi.volume.${srcId.slice(-36)}"): map[csi.imagename:csi-vol-${srcId.slice(-36)} csi.volname:pvc-owned csi.volume.owner:team-a])`);
    const r = p.call('CreateSnapshot', { name: 'snapshot-o', source_volume_id: srcId, parameters: { clusterID: cephRbd.ceph!.clusterID } }, 1_000_000); p.flush();
    const snapId = (p.reply(r)!.response as { snapshot: { snapshot_id: string } }).snapshot.snapshot_id;
    expect(lines().find((l) => l.startsWith(`set omap keys (pool="rbd", namespace="", name="csi.snap.${snapId.slice(-36)}"): map[csi.imagename`))).toMatch(/ csi\.source:csi-vol-[0-9a-f-]+ csi\.volume\.owner:team-a\]\)$/);
    const before = p.logs().length;
    const b = p.call('CreateVolume', withNs('pvc-restored', { volume_content_source: { Type: { Snapshot: { snapshot_id: snapId } } } }), 2_000_000); p.flush();
    const restored = `csi-vol-${(p.reply(b)!.response as { volume: { volume_id: string } }).volume.volume_id.slice(-36)}`;
    const after = lines().slice(before);
    const fromSnap = after.findIndex((l) => l.startsWith('create volume ') && l.includes('from snapshot'));
    expect(fromSnap).toBeGreaterThan(0);
    expect(after[fromSnap + 1]).toBe(`created image rbd/${restored} backed for request name pvc-restored`);
    // a volume created without the claim's namespace has no owner key
    const c = p.call('CreateVolume', create('pvc-plain'), 3_000_000); p.flush();
    const plainId = (p.reply(c)!.response as { volume: { volume_id: string } }).volume.volume_id;
    expect(lines().find((l) => l.includes(`name="csi.volume.${plainId.slice(-36)}"): map[csi.imagename`))).not.toContain('csi.volume.owner');
  });

  it('returns the journal\'s existing volume when CreateVolume is repeated', () => {
    const p = ceph();
    const a = p.call('CreateVolume', create('pvc-x'), 0); p.flush();
    const b = p.call('CreateVolume', create('pvc-x'), 1_000_000); p.flush();
    const idOf = (r: string) => (p.reply(r)!.response as { volume: { volume_id: string } }).volume.volume_id;
    expect(idOf(b)).toBe(idOf(a));
    expect(p.logs().some((l) => l.includes('found existing volume'))).toBe(true);
  });
});

describe('csi volume lifecycle', () => {
  it('reaches every state of the spec lifecycle', () => {
    const events = [
      { type: 'csi.createVolume' }, { type: 'csi.controllerPublishVolume', nodeId: 'n1' }, { type: 'csi.nodeStageVolume' },
      { type: 'csi.nodePublishVolume', targetPath: '/t' }, { type: 'csi.nodeUnpublishVolume', targetPath: '/t' },
      { type: 'csi.nodeUnstageVolume' }, { type: 'csi.controllerUnpublishVolume', nodeId: 'n1' }, { type: 'csi.deleteVolume' },
    ] as const;
    const paths = getShortestPaths(csiVolumeLifecycleMachine, {
      events: [...events], serializeState: (s: { value: unknown }) => JSON.stringify(s.value), input: { stageUnstage: true },
    } as never);
    const reached = new Set(paths.map((p) => p.state.value as string));
    expect([...reached].sort()).toEqual(['CREATED', 'NODE_READY', 'PUBLISHED', 'VOL_READY', 'absent', 'deleted']);
  });

  it('reaches every plugin machine state', () => {
    for (const m of [csiControllerPluginMachine, csiNodePluginMachine]) {
      const paths = getShortestPaths(m as typeof csiControllerPluginMachine, {
        events: [{ type: 'component.started', now: 0 }, { type: 'host.shutdown', now: 1 }],
        serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
        input: { id: 'x', host: 'h', profile: '1.20', driver: cbs, seed: 1, nodeName: 'h', nodeId: 'ins-x' },
      } as never);
      expect(paths.map((p) => p.state.value).sort()).toEqual(['serving', 'stopped']);
    }
  });
});

describe('the stage of a ceph plugin line is the call it serves', () => {
  it('the lines DeleteVolume shares with CreateVolume (the omap reads) are the delete stage in ceph-rbd-delete', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario('ceph-rbd-delete', { k8s });
      const lines = t.steps.filter((st) => st.component === 'csi-controller-plugin' && st.log && /Req-ID: 0001-/.test(st.log) && !/GRPC (call|request|response)/.test(st.log));
      expect(lines.length).toBeGreaterThan(3);
      expect([k8s, [...new Set(lines.map((st) => st.stage))]]).toEqual([k8s, ['delete']]);
    }
  });
});
