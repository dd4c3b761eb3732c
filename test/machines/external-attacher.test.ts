import { describe, it, expect, afterEach } from 'vitest';
import fc from 'fast-check';
import { emptyQueue, queueAdd, queueDone, queueGet, queueLen } from '../../src/machines/external-attacher/helpers.ts';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { externalAttacherMachine, descriptor, messages, volumeAttachmentMachine } from '../../src/machines/external-attacher/index.ts';
import type { ClusterEvent } from '../../src/machines/shared/contract.ts';
import type { K8sObject } from '../../src/machines/shared/k8s.ts';
import { renderMessage, type ProfileId } from '../../src/machines/shared/messages.ts';
import { PROFILES } from '../../src/machines/profiles/index.ts';
import type { DriverProfile } from '../../src/machines/drivers/types.ts';

const DRIVER = 'com.tencent.cloud.csi.cbs';
const FINALIZER = 'external-attacher/com-tencent-cloud-csi-cbs';
const VA_NAME = 'csi-ef62fd617656080205af907030d51be08f25b43341a98b53fd436db24689accd';
const driver: DriverProfile = {
  id: 'cbs', name: DRIVER, vendorVersion: 'v1.2.0', controllerCapabilities: ['CREATE_DELETE_VOLUME', 'PUBLISH_UNPUBLISH_VOLUME'],
  nodeCapabilities: ['STAGE_UNSTAGE_VOLUME'], attachRequired: true, topologyKeys: [], latency: {}, defaultFsType: 'ext4', volumeIdStyle: 'cbs-disk',
};
const pv: K8sObject = {
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pvc-XXX', resourceVersion: '10', finalizers: ['kubernetes.io/pv-protection', FINALIZER] },
  spec: { accessModes: ['ReadWriteOnce'], csi: { driver: DRIVER, volumeHandle: 'disk-adge0gvc', fsType: 'ext4', volumeAttributes: { diskType: 'CLOUD_PREMIUM' } } },
};
const csiNode: K8sObject = { apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: '11.142.60.212', resourceVersion: '11' }, spec: { drivers: [{ name: DRIVER, nodeID: 'ins-hrlnsway' }] } };
const va = (extra: Partial<K8sObject['metadata']> = {}, attacher = DRIVER, status: Record<string, unknown> = { attached: false }): K8sObject => ({
  apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: VA_NAME, resourceVersion: '20', ...extra },
  spec: { attacher, nodeName: '11.142.60.212', source: { persistentVolumeName: 'pvc-XXX' } }, status,
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Emitted = any;
let now = 0;

/** Start the sidecar and answer its start-up calls the way a cbs-like driver does. */
function boot(profile: ProfileId) {
  const actor = createActor(externalAttacherMachine, { input: { id: 'external-attacher', host: 'master', profile, driver, epochUs: 1_673_420_000_000_000 } });
  const emitted: Emitted[] = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  now = 0;
  const send = (e: Omit<ClusterEvent, 'now'>) => { now += 1000; actor.send({ ...e, now } as ClusterEvent); };
  const lastCall = () => emitted.filter((e) => e.type === 'csi.call').at(-1);
  const answer = (response: Record<string, unknown>, code = 'OK', message?: string) => {
    const c = lastCall();
    send({ type: 'csi.result', requestId: c.requestId, rpc: c.rpc, code, response, ...(message ? { message } : {}) } as never);
  };
  const lastApi = () => emitted.filter((e) => e.type === 'api.request').at(-1);
  const ok = (object?: K8sObject, code = 200, okFlag = true, message?: string) => {
    const r = lastApi();
    send({ type: 'api.result', requestId: r.requestId, ok: okFlag, code, ...(object ? { object } : {}), ...(message ? { message } : {}) } as never);
  };
  send({ type: 'component.started' } as never);
  answer({ ready: { value: true } });
  answer({ name: DRIVER, vendor_version: 'v1.2.0' });
  answer({ capabilities: [{ Type: { Service: { type: 1 } } }] });
  answer({ capabilities: [{ Type: { Rpc: { type: 1 } } }, { Type: { Rpc: { type: 2 } } }] });
  if (profile === '1.20') answer({ capabilities: [{ Type: { Rpc: { type: 1 } } }, { Type: { Rpc: { type: 2 } } }] });
  emitted.length = 0;
  return { actor, emitted, send, answer, ok, lastApi, lastCall };
}

const logs = (emitted: Emitted[]) => emitted.filter((e) => e.type === 'log').map((e) => e.msg as string);
const attacherLines = (emitted: Emitted[], profile: ProfileId) => emitted.filter((e) => e.type === 'log').map((e) => {
  const f = (messages as Record<string, { formats: Record<string, { file: string; line: number; v?: number }> }>)[e.msg]!.formats[profile];
  return f && (f.v ?? 0) <= 5 ? `${f.file}:${f.line}] ${renderMessage(f as never, e.args)}` : undefined;
}).filter((l) => l !== undefined && !l.startsWith('connection.go'));

describe('external-attacher', () => {
  afterEach(() => { PROFILES['1.30'].attacherRemovesFinalizerFirst = false; });

  it('starts by probing the driver and asking for its name and capabilities, then uses the real CSI handler', () => {
    const actor = createActor(externalAttacherMachine, { input: { id: 'a', host: 'm', profile: '1.20', driver } });
    const emitted: Emitted[] = [];
    actor.on('*', (e) => emitted.push(e));
    actor.start();
    actor.send({ type: 'component.started', now: 0 });
    const calls = () => emitted.filter((e) => e.type === 'csi.call');
    const reply = (response: Record<string, unknown>) => { const c = calls().at(-1); actor.send({ type: 'csi.result', now: 1, requestId: c.requestId, rpc: c.rpc, code: 'OK', response }); };
    reply({});
    reply({ name: DRIVER });
    reply({ capabilities: [{ Type: { Service: { type: 1 } } }] });
    reply({ capabilities: [{ Type: { Rpc: { type: 2 } } }] });
    reply({ capabilities: [{ Type: { Rpc: { type: 2 } } }] });
    expect(calls().map((c) => c.rpc)).toEqual(['Probe', 'GetPluginInfo', 'GetPluginCapabilities', 'ControllerGetCapabilities', 'ControllerGetCapabilities']);
    expect(calls().every((c) => c.endpoint === 'controller' && c.timeout === 15_000_000)).toBe(true);
    expect(logs(emitted)).toContain('externalAttacher.realHandler');
    expect(actor.getSnapshot().value).toBe('Running');
  });

  it('a failed ControllerGetCapabilities: 1.30 logs main.go:223 "Failed to controller capability check" and stops; 1.20\'s second call only logs main.go:194 and starts', () => {
    const start = (profile: ProfileId, failAt: number) => {
      const actor = createActor(externalAttacherMachine, { input: { id: 'a', host: 'm', profile, driver } });
      const emitted: Emitted[] = [];
      actor.on('*', (e) => emitted.push(e));
      actor.start();
      actor.send({ type: 'component.started', now: 0 });
      const answers = [{}, { name: DRIVER }, { capabilities: [{ Type: { Service: { type: 1 } } }] }, { capabilities: [{ Type: { Rpc: { type: 2 } } }] }, { capabilities: [{ Type: { Rpc: { type: 2 } } }] }];
      for (let i = 0; i < answers.length; i++) {
        const c = emitted.filter((e) => e.type === 'csi.call')[i];
        if (!c) break;
        const fail = i === failAt;
        actor.send({ type: 'csi.result', now: i + 1, requestId: c.requestId, rpc: c.rpc, code: fail ? 'UNAVAILABLE' : 'OK', ...(fail ? { message: 'connection refused' } : { response: answers[i] }) });
      }
      return { state: actor.getSnapshot().value, lines: attacherLines(emitted, profile), exited: emitted.filter((e) => e.type === 'process.exited') };
    };
    const v130 = start('1.30', 3);
    expect(v130.state).toBe('Failed');
    // klog.FlushAndExit(…, 1): the process ends, and the kubelet restarts the container (the cluster's process.exited)
    expect(v130.exited).toEqual([{ type: 'process.exited', code: 1 }]);
    expect(v130.lines).toContain(`main.go:223] "Failed to controller capability check" err="rpc error: code = Unavailable desc = connection refused" driver="${DRIVER}"`);
    const v120first = start('1.20', 3);
    expect(v120first.state).toBe('Failed');
    expect(v120first.lines).toContain('main.go:175] rpc error: code = Unavailable desc = connection refused');
    const v120second = start('1.20', 4);
    expect(v120second.state).toBe('Running');
    expect(v120second.exited).toEqual([]);
    expect(v120second.lines).toContain('main.go:194] Failed to check if driver supports ListVolumesPublishedNodes, assuming it does not: failed to get controller capabilities: rpc error: code = Unavailable desc = connection refused');
  });

  it('attaches a VolumeAttachment with the log lines of seed 000 in their order (1.20)', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: pv } as never);
    t.send({ type: 'watch.added', object: csiNode } as never);
    t.send({ type: 'watch.added', object: va() } as never);
    const patch = t.lastApi();
    expect(patch).toMatchObject({ verb: 'patch', kind: 'VolumeAttachment', name: VA_NAME, patch: { metadata: { finalizers: [FINALIZER], annotations: { 'csi.alpha.kubernetes.io/node-id': 'ins-hrlnsway' } } } });
    t.ok(va({ finalizers: [FINALIZER], annotations: { 'csi.alpha.kubernetes.io/node-id': 'ins-hrlnsway' }, resourceVersion: '21' }));
    const call = t.lastCall();
    expect(call.rpc).toBe('ControllerPublishVolume');
    expect(call.request).toMatchObject({ volume_id: 'disk-adge0gvc', node_id: 'ins-hrlnsway', volume_capability: { AccessType: { Mount: { fs_type: 'ext4' } }, access_mode: { mode: 1 } }, volume_context: { diskType: 'CLOUD_PREMIUM' }, readonly: false });
    t.answer({ publish_context: { devicePath: '/dev/vdb' } });
    expect(t.lastApi()).toMatchObject({ verb: 'patchStatus', patch: { status: { attached: true, attachmentMetadata: { devicePath: '/dev/vdb' }, attachError: null } } });
    t.ok(va({ finalizers: [FINALIZER], resourceVersion: '22' }, DRIVER, { attached: true }));
    const q = `"${VA_NAME}"`;
    expect(attacherLines(t.emitted, '1.20')).toEqual([
      `controller.go:198] Started VA processing ${q}`,
      `csi_handler.go:216] CSIHandler: processing VA ${q}`,
      `csi_handler.go:243] Attaching ${q}`,
      `csi_handler.go:422] Starting attach operation for ${q}`,
      'csi_handler.go:336] PV finalizer is already set on "pvc-XXX"',
      'csi_handler.go:715] Found NodeID ins-hrlnsway in CSINode 11.142.60.212',
      `csi_handler.go:304] VA finalizer added to ${q}`,
      `csi_handler.go:318] NodeID annotation added to ${q}`,
      `csi_handler.go:256] Attached ${q}`,
      `util.go:37] Marking as attached ${q}`,
      `util.go:51] Marked as attached ${q}`,
      `csi_handler.go:262] Fully attached ${q}`,
      `csi_handler.go:232] CSIHandler: finished processing ${q}`,
    ]);
    const grpc = t.emitted.filter((e) => e.type === 'log' && e.msg === 'externalAttacher.grpcRequest')[0];
    expect(grpc.args.request).toBe('{"node_id":"ins-hrlnsway","volume_capability":{"AccessType":{"Mount":{"fs_type":"ext4"}},"access_mode":{"mode":1}},"volume_context":{"diskType":"CLOUD_PREMIUM"},"volume_id":"disk-adge0gvc"}');
  });

  it('prints the contextual structured lines of v4.6.1 for the 1.30 profile', () => {
    const t = boot('1.30');
    t.send({ type: 'watch.added', object: pv } as never);
    t.send({ type: 'watch.added', object: csiNode } as never);
    t.send({ type: 'watch.added', object: va() } as never);
    const lines = attacherLines(t.emitted, '1.30');
    expect(lines[0]).toBe(`controller.go:213] "Started VolumeAttachment processing" driver="${DRIVER}" VolumeAttachment="${VA_NAME}"`);
    const call = t.emitted.find((e) => e.type === 'log' && e.msg === 'externalAttacher.grpcCallVA');
    expect(call).toBeUndefined(); // the gRPC call starts only after the VA patch succeeded
  });

  it('saves the attach error and retries with a delay that doubles: 1s, then 2s', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: pv } as never);
    t.send({ type: 'watch.added', object: csiNode } as never);
    t.send({ type: 'watch.added', object: va({ finalizers: [FINALIZER], annotations: { 'csi.alpha.kubernetes.io/node-id': 'ins-hrlnsway' } }) } as never);
    t.answer({}, 'INTERNAL', 'disk busy');
    expect(t.lastApi()).toMatchObject({ verb: 'patchStatus', patch: { status: { attachError: { message: 'rpc error: code = Internal desc = disk busy' } } } });
    const attachedMeta = { finalizers: [FINALIZER], annotations: { 'csi.alpha.kubernetes.io/node-id': 'ins-hrlnsway' } };
    t.ok(va({ ...attachedMeta, resourceVersion: '23' }));
    const err1 = t.emitted.find((e) => e.msg === 'externalAttacher.errorProcessing');
    expect(err1.args.err).toBe('failed to attach: rpc error: code = Internal desc = disk busy');
    const timer1 = t.emitted.filter((e) => e.type === 'timer.requested').at(-1);
    expect(timer1.at - now).toBe(1_000_000);
    t.send({ type: 'clock.ticked', key: timer1.key } as never);
    expect(t.lastCall().rpc).toBe('ControllerPublishVolume');
    t.answer({}, 'DEADLINE_EXCEEDED', 'context deadline exceeded');
    t.ok(va({ ...attachedMeta, resourceVersion: '24' }));
    const timer2 = t.emitted.filter((e) => e.type === 'timer.requested').at(-1);
    expect(timer2.at - now).toBe(2_000_000);
  });

  it('detaches: ControllerUnpublishVolume, then the status patch, then the finalizer removal (1.20 order)', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: pv } as never);
    t.send({ type: 'watch.added', object: csiNode } as never);
    const deleting = va({ finalizers: [FINALIZER], deletionTimestamp: '2023-01-11T06:58:14Z', annotations: { 'csi.alpha.kubernetes.io/node-id': 'ins-hrlnsway' } }, DRIVER, { attached: true });
    t.send({ type: 'watch.added', object: deleting } as never);
    expect(t.lastCall()).toMatchObject({ rpc: 'ControllerUnpublishVolume', request: { volume_id: 'disk-adge0gvc', node_id: 'ins-hrlnsway' } });
    t.answer({});
    expect(t.lastApi()).toMatchObject({ verb: 'patchStatus', patch: { status: { attached: false, detachError: null } } });
    t.ok({ ...deleting, status: { attached: false } });
    expect(t.lastApi()).toMatchObject({ verb: 'patch', patch: { metadata: { finalizers: null } } });
    t.ok();
    const q = `"${VA_NAME}"`;
    expect(attacherLines(t.emitted, '1.20')).toEqual([
      `controller.go:198] Started VA processing ${q}`,
      `csi_handler.go:216] CSIHandler: processing VA ${q}`,
      `csi_handler.go:267] Starting detach operation for ${q}`,
      `csi_handler.go:274] Detaching ${q}`,
      'csi_handler.go:715] Found NodeID ins-hrlnsway in CSINode 11.142.60.212',
      `csi_handler.go:575] Detached ${q}`,
      `util.go:79] Marking as detached ${q}`,
      `util.go:105] Finalizer removed from ${q}`,
      `csi_handler.go:287] Fully detached ${q}`,
      `csi_handler.go:232] CSIHandler: finished processing ${q}`,
    ]);
  });

  it('removes the finalizer before clearing the status when the profile says the attacher does so (v4.9+)', () => {
    PROFILES['1.30'].attacherRemovesFinalizerFirst = true;
    const t = boot('1.30');
    t.send({ type: 'watch.added', object: pv } as never);
    t.send({ type: 'watch.added', object: csiNode } as never);
    t.send({ type: 'watch.added', object: va({ finalizers: [FINALIZER], deletionTimestamp: '2023-01-11T06:58:14Z' }, DRIVER, { attached: true }) } as never);
    t.answer({});
    expect(t.lastApi()).toMatchObject({ verb: 'patch', patch: { metadata: { finalizers: null } } });
    t.ok();
    expect(t.lastApi()).toMatchObject({ verb: 'patchStatus' });
    t.ok(undefined, 404, false, 'not found');
    expect(logs(t.emitted)).toContain('externalAttacher.fullyDetached');
    expect(logs(t.emitted)).not.toContain('externalAttacher.errorProcessing');
  });

  it('ignores a VolumeAttachment of another driver: no API write and no CSI call', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: pv } as never);
    t.send({ type: 'watch.added', object: va({}, 'rbd.csi.ceph.com') } as never);
    expect(t.emitted.filter((e) => e.type === 'api.request' || e.type === 'csi.call')).toEqual([]);
    expect(logs(t.emitted)).toEqual(['externalAttacher.startedVAProcessing', 'externalAttacher.skippingVA']);
  });

  it('queues VolumeAttachments that arrive before the driver answered and processes them after start-up', () => {
    const actor = createActor(externalAttacherMachine, { input: { id: 'a', host: 'm', profile: '1.30', driver } });
    const emitted: Emitted[] = [];
    actor.on('*', (e) => emitted.push(e));
    actor.start();
    actor.send({ type: 'component.started', now: 0 });
    actor.send({ type: 'watch.added', now: 1, object: va({}, 'other') });
    expect(logs(emitted)).not.toContain('externalAttacher.startedVAProcessing');
    const reply = (response: Record<string, unknown>) => { const c = emitted.filter((e) => e.type === 'csi.call').at(-1); actor.send({ type: 'csi.result', now: 2, requestId: c.requestId, rpc: c.rpc, code: 'OK', response }); };
    reply({}); reply({ name: DRIVER }); reply({ capabilities: [{ Type: { Service: { type: 1 } } }] }); reply({ capabilities: [{ Type: { Rpc: { type: 2 } } }] });
    expect(logs(emitted)).toContain('externalAttacher.startedVAProcessing');
  });

  it('reaches every state of the sidecar and of the VolumeAttachment lifecycle', () => {
    const r = (requestId: string, rpc: string, code = 'OK', response: Record<string, unknown> = {}) => ({ type: 'csi.result', now: 1, requestId, rpc, code, response }) as ClusterEvent;
    const paths = getShortestPaths(externalAttacherMachine.provide({}), {
      input: { id: 'a', host: 'm', profile: '1.30', driver },
      events: [
        { type: 'component.started', now: 0 },
        r('r1', 'Probe'), r('r1', 'Probe', 'INTERNAL'), r('r2', 'GetPluginInfo', 'OK', { name: DRIVER }),
        r('r3', 'GetPluginCapabilities', 'OK', { capabilities: [{ Type: { Service: { type: 1 } } }] }),
        r('r4', 'ControllerGetCapabilities', 'OK', { capabilities: [{ Type: { Rpc: { type: 2 } } }] }),
      ],
      serializeState: (s: { value: unknown; context: { seq: number } }) => JSON.stringify([s.value, s.context.seq]),
    } as never);
    const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    for (const s of ['Stopped', 'Probing', 'Starting', 'Running', 'Failed']) expect(reached).toContain(JSON.stringify(s));
    // every step of syncAttach / syncDetach, with upstream's finalizer order and v4.9's
    const facts = [
      'csiHandler.syncAttach', 'csiHandler.syncDetach', 'trivialHandler.sync', 'pv.finalizerMissing', 'pv.finalizerPresent', 'va.metadataNeeded',
      'va.metadataPresent', 'detach.ready', 'va.alreadyFullyDetached', 'va.finalizerRemovalNeeded', 'va.statusClearNeeded', 'va.fullyDetached',
      'pv.finalizerAdded', 'va.metadataSaved', 'csi.controllerPublishVolume.succeeded', 'va.markedAttached', 'va.errorSaved',
      'csi.controllerUnpublishVolume.succeeded', 'va.markedDetached', 'va.finalizerRemoved',
    ].map((type) => ({ type }));
    const failures = [
      { type: 'attach.failed', err: 'x' }, { type: 'detach.failed', err: 'x' }, { type: 'pv.finalizerAddFailed', message: 'x' },
      { type: 'va.metadataSaveFailed', message: 'x' }, { type: 'csi.controllerPublishVolume.failed', err: 'x' }, { type: 'va.markAttachedFailed', message: 'x' },
      { type: 'va.errorSaveFailed', message: 'x' }, { type: 'csi.controllerUnpublishVolume.failed', err: 'x' },
      { type: 'va.markDetachedFailed', code: 404, message: 'x' }, { type: 'va.finalizerRemoveFailed', message: 'x' },
    ];
    const leafOf = (v: unknown): string => (typeof v === 'string' ? v : Object.entries(v as object).map(([k, x]) => `${k}.${leafOf(x)}`).join());
    const vaReached = new Set<string>();
    for (const finalizerFirst of [false, true]) {
      const vaPaths = getShortestPaths(volumeAttachmentMachine, {
        input: { finalizerFirst }, events: [...facts, ...failures] as never,
        serializeState: (st: { value: unknown }) => JSON.stringify(st.value),
      } as never);
      for (const p of vaPaths) vaReached.add(leafOf(p.state.value));
    }
    const declared: string[] = [];
    for (const [k, v] of Object.entries(volumeAttachmentMachine.config.states!)) {
      const inner = Object.keys((v as { states?: object }).states ?? {});
      if (inner.length) declared.push(...inner.map((i) => `${k}.${i}`)); else declared.push(k);
    }
    expect(vaReached).toEqual(new Set(declared));
    expect(declared).toEqual(expect.arrayContaining(['Attaching.controllerPublishing', 'Detaching.removingFinalizer', 'Detaching.savingDetachError', 'TrivialAttaching', 'Detached']));
  });

  it('describes itself as the csi-attacher component watching VolumeAttachments, PVs and CSINodes', () => {
    expect(descriptor).toMatchObject({ name: 'external-attacher', source: 'csi-attacher', watches: ['VolumeAttachment', 'PersistentVolume', 'CSINode'] });
    for (const [id, def] of Object.entries(messages)) {
      expect(id.startsWith('externalAttacher.')).toBe(true);
      if (def.severity !== 'I') expect(def.cause && def.next).toBeTruthy();
    }
  });
});

describe('steps[].states follow each VolumeAttachment through its lifecycle', () => {
  it('pod-migration on 1.20: the old VA goes through csiDetach to Detached, the new one through csiAttach to Attached', async () => {
    const { runScenario } = await import('../../src/machines/index.ts');
    const t = runScenario('pod-migration', { k8s: '1.20' });
    const seq = new Map<string, string[]>();
    for (const st of t.steps) {
      for (const [k, v] of Object.entries(st.states)) {
        const m = / volumeattachment (csi-\w+)$/.exec(k);
        if (!m || !k.startsWith('external-attacher')) continue;
        const list = seq.get(m[1]!) ?? [];
        if (list.at(-1) !== v) list.push(String(v));
        seq.set(m[1]!, list);
      }
    }
    const lists = [...seq.values()];
    expect(lists).toContainEqual(['Detaching.controllerUnpublishing', 'Detaching.markingDetached', 'Detaching.removingFinalizer', 'Detached']);
    expect(lists).toContainEqual(['Attaching.savingVAMetadata', 'Attaching.controllerPublishing', 'Attaching.markingAttached', 'Attached']);
  });
});

/**
 * The ways csiAttach and csiDetach fail (external-attacher pkg/controller/csi_handler.go, v3.x/v4.x):
 * each error is saved on the VolumeAttachment (saveAttachError / saveDetachError), then the sync
 * fails and the VA is requeued with backoff.
 */
describe('external-attacher failure paths, as csi_handler.go takes them', () => {
  const META = { finalizers: [FINALIZER], annotations: { 'csi.alpha.kubernetes.io/node-id': 'ins-hrlnsway' } };
  const savedError = (t: ReturnType<typeof boot>, field: 'attachError' | 'detachError') =>
    t.emitted.filter((e) => e.type === 'api.request' && e.verb === 'patchStatus' && e.patch.status?.[field]).map((e) => e.patch.status[field].message as string);
  const processingErrors = (t: ReturnType<typeof boot>) => t.emitted.filter((e) => e.msg === 'externalAttacher.errorProcessing').map((e) => e.args.err as string);
  const attach = (t: ReturnType<typeof boot>, object: K8sObject, withNode = true) => {
    if (withNode) t.send({ type: 'watch.added', object: csiNode } as never);
    t.send({ type: 'watch.added', object } as never);
  };

  it('csiAttach: a VolumeAttachment whose PV is not in the informer saves "persistentvolume … not found" and makes no CSI call', () => {
    const t = boot('1.20');
    attach(t, va());
    expect(t.emitted.filter((e) => e.type === 'csi.call')).toEqual([]);
    expect(savedError(t, 'attachError')).toEqual(['persistentvolume "pvc-XXX" not found']);
    t.ok();
    expect(processingErrors(t)).toEqual(['failed to attach: persistentvolume "pvc-XXX" not found']);
  });

  it('csiAttach: a PV marked for deletion is not attached', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: { ...pv, metadata: { ...pv.metadata, deletionTimestamp: '2023-01-11T06:58:14Z' } } } as never);
    attach(t, va());
    expect(t.emitted.filter((e) => e.type === 'csi.call')).toEqual([]);
    expect(savedError(t, 'attachError')).toEqual(['PersistentVolume "pvc-XXX" is marked for deletion']);
  });

  it('csiAttach: a PV without the attacher finalizer gets it first; when that patch fails the error is saved and nothing is published', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: { ...pv, metadata: { ...pv.metadata, finalizers: ['kubernetes.io/pv-protection'] } } } as never);
    attach(t, va());
    expect(t.lastApi()).toMatchObject({ verb: 'patch', kind: 'PersistentVolume', name: 'pvc-XXX', patch: { metadata: { finalizers: ['kubernetes.io/pv-protection', FINALIZER] } } });
    t.ok(undefined, 409, false, 'the object has been modified');
    expect(t.emitted.filter((e) => e.type === 'csi.call')).toEqual([]);
    expect(savedError(t, 'attachError')).toEqual(['could not add PersistentVolume finalizer: the object has been modified']);
  });

  it('csiAttach: when saving the VA finalizer and node ID fails, the error is saved and ControllerPublishVolume is not called', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: pv } as never);
    attach(t, va());
    expect(t.lastApi()).toMatchObject({ verb: 'patch', kind: 'VolumeAttachment' });
    t.ok(undefined, 500, false, 'etcdserver: request timed out');
    expect(t.emitted.filter((e) => e.type === 'csi.call')).toEqual([]);
    expect(savedError(t, 'attachError')).toEqual(['could not save VolumeAttachment: etcdserver: request timed out']);
  });

  it('csiAttach: no CSINode for the node (or no driver in it) is an error, not a call with an empty node ID', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: pv } as never);
    attach(t, va(), false);
    expect(t.emitted.filter((e) => e.type === 'csi.call')).toEqual([]);
    // getNodeID: the CSINode lister's NotFound error (no fallback to the VA annotation when attaching)
    expect(savedError(t, 'attachError')).toEqual(['csinode.storage.k8s.io "11.142.60.212" not found']);
  });

  it('a sync that succeeds forgets the VA in the rate limiter: the next failure waits 1s again, not 2s (workqueue Forget)', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: pv } as never);
    t.send({ type: 'watch.added', object: csiNode } as never);
    t.send({ type: 'watch.added', object: va(META) } as never);
    t.answer({}, 'INTERNAL', 'disk busy');
    t.ok(va({ ...META, resourceVersion: '23' }));
    const retry = t.emitted.filter((e) => e.type === 'timer.requested').at(-1);
    expect(retry.at - now).toBe(1_000_000);
    t.send({ type: 'clock.ticked', key: retry.key } as never);
    t.answer({ publish_context: {} });
    t.ok(va({ ...META, resourceVersion: '24' }, DRIVER, { attached: true }));
    expect(logs(t.emitted)).toContain('externalAttacher.fullyAttached');
    // the VA is detached later and its ControllerUnpublishVolume fails: a fresh backoff
    t.send({ type: 'watch.modified', object: va({ ...META, resourceVersion: '25', deletionTimestamp: '2023-01-11T06:58:14Z' }, DRIVER, { attached: true }), oldObject: va(META) } as never);
    t.answer({}, 'INTERNAL', 'busy');
    t.ok();
    expect(t.emitted.filter((e) => e.type === 'timer.requested').at(-1).at - now).toBe(1_000_000);
  });

  it('markAsAttached failing fails the sync with "failed to mark as attached: …" (the volume is published; the next sync marks it)', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: pv } as never);
    attach(t, va(META));
    t.answer({ publish_context: { devicePath: '/dev/vdb' } });
    expect(t.lastApi()).toMatchObject({ verb: 'patchStatus', patch: { status: { attached: true } } });
    t.ok(undefined, 500, false, 'etcdserver: request timed out');
    expect(processingErrors(t)).toEqual(['failed to mark as attached: etcdserver: request timed out']);
  });

  it('csiAttach: a PV with no CSI source is not attached ("pv spec contained non-csi source that was not migrated")', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: { ...pv, spec: { accessModes: ['ReadWriteOnce'], nfs: { server: 'x', path: '/' } } } } as never);
    attach(t, va(META));
    expect(t.emitted.filter((e) => e.type === 'csi.call')).toEqual([]);
    expect(savedError(t, 'attachError')).toEqual(['pv spec contained non-csi source that was not migrated']);
  });

  it('csiDetach removes only its own finalizer and keeps the others', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: pv } as never);
    const deleting = va({ ...META, finalizers: ['example.com/keep', FINALIZER], deletionTimestamp: '2023-01-11T06:58:14Z' }, DRIVER, { attached: true });
    attach(t, deleting);
    t.answer({});
    t.ok({ ...deleting, status: { attached: false } });
    expect(t.lastApi()).toMatchObject({ verb: 'patch', kind: 'VolumeAttachment', patch: { metadata: { finalizers: ['example.com/keep'] } } });
  });

  it('saveAttachError itself failing is logged and the sync still fails (requeued with backoff)', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: pv } as never);
    attach(t, va(META));
    t.answer({}, 'INTERNAL', 'disk busy');
    t.ok(undefined, 500, false, 'etcdserver: leader changed');
    expect(logs(t.emitted)).toContain('externalAttacher.failedToSaveAttachError');
    expect(processingErrors(t)).toEqual(['failed to attach: rpc error: code = Internal desc = disk busy']);
    expect(t.emitted.filter((e) => e.type === 'timer.requested').at(-1).at - now).toBe(1_000_000);
  });

  it('csiDetach: ControllerUnpublishVolume failing saves detachError, keeps the finalizer and the attached status', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: pv } as never);
    attach(t, va({ ...META, deletionTimestamp: '2023-01-11T06:58:14Z' }, DRIVER, { attached: true }));
    t.answer({}, 'FAILED_PRECONDITION', 'disk is in use');
    expect(savedError(t, 'detachError')).toEqual(['rpc error: code = FailedPrecondition desc = disk is in use']);
    expect(t.emitted.filter((e) => e.type === 'api.request' && (e.patch?.status?.attached === false || e.patch?.metadata?.finalizers === null))).toEqual([]);
    t.ok();
    expect(processingErrors(t)).toEqual(['failed to detach: rpc error: code = FailedPrecondition desc = disk is in use']);
  });

  it('csiDetach: marking the VA detached failing saves "could not mark as detached"', () => {
    const t = boot('1.20');
    t.send({ type: 'watch.added', object: pv } as never);
    attach(t, va({ ...META, deletionTimestamp: '2023-01-11T06:58:14Z' }, DRIVER, { attached: true }));
    t.answer({});
    expect(t.lastApi()).toMatchObject({ verb: 'patchStatus', patch: { status: { attached: false } } });
    t.ok(undefined, 500, false, 'etcdserver: request timed out');
    expect(savedError(t, 'detachError')).toEqual(['could not mark as detached: etcdserver: request timed out']);
  });

  it('csiDetach: a VA whose PV is gone cannot be detached (no node ID or volume handle to unpublish)', () => {
    const t = boot('1.20');
    attach(t, va({ ...META, deletionTimestamp: '2023-01-11T06:58:14Z' }, DRIVER, { attached: true }));
    expect(t.emitted.filter((e) => e.type === 'csi.call')).toEqual([]);
    expect(savedError(t, 'detachError')).toEqual(['persistentvolume "pvc-XXX" not found']);
  });
});

describe('the external-attacher\'s work queue', () => {
  // client-go's workqueue: Add puts a key at the back once; a key being processed is marked dirty and
  // comes back after Done; Get takes the front. The queue takes from the front by moving an index and
  // drops the taken part now and then: it must behave as a plain array queue, over long runs too.
  it('behaves as a FIFO of distinct keys with processing and dirty keys, after any adds, gets and dones', () => {
    const op = fc.oneof(
      fc.record({ t: fc.constant('add' as const), k: fc.integer({ min: 0, max: 150 }) }),
      fc.record({ t: fc.constant('get' as const), k: fc.constant(0) }),
      // done: one of the keys being processed (the k-th), so that keys keep coming back
      fc.record({ t: fc.constant('done' as const), k: fc.nat() }),
    );
    fc.assert(fc.property(fc.array(op, { minLength: 200, maxLength: 800 }), (ops) => {
      const q = emptyQueue();
      const model = { queue: [] as string[], processing: [] as string[], dirty: [] as string[] };
      const add = (k: string): void => {
        if (model.processing.includes(k)) { if (!model.dirty.includes(k)) model.dirty.push(k); return; }
        if (!model.queue.includes(k)) model.queue.push(k);
      };
      for (const o of ops) {
        const k = o.t === 'done' ? model.processing[o.k % Math.max(1, model.processing.length)] ?? 'none' : `va-${o.k}`;
        if (o.t === 'add') { queueAdd(q, k); add(k); }
        else if (o.t === 'get') {
          const want = model.queue.shift();
          if (want !== undefined) model.processing.push(want);
          expect(queueGet(q)).toBe(want);
        } else if (model.processing.includes(k)) {
          queueDone(q, k);
          model.processing = model.processing.filter((x) => x !== k);
          if (model.dirty.includes(k)) { model.dirty = model.dirty.filter((x) => x !== k); add(k); }
        }
        expect(queueLen(q)).toBe(model.queue.length);
      }
    }), { seed: 11, numRuns: 150 });
  });
});
