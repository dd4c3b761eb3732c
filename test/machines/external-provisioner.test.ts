import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { ClusterEmitted } from '../../src/machines/shared/contract.ts';
import { externalProvisionerMachine } from '../../src/machines/external-provisioner/index.ts';
import { DRIVER as FIXTURE_DRIVER, logs, pvc, sc, storageCluster } from './pv-controller.fixtures.ts';
import type { K8sObject } from '../../src/machines/shared/k8s.ts';
import { accessibilityRequirements, createVolumeRequest } from '../../src/machines/external-provisioner/requests.ts';
import { DRIVERS } from '../../src/machines/drivers/index.ts';
import { node, pvc as pvcObject, storageClass } from '../../src/machines/scenarios/objects.ts';
import fc from 'fast-check';
import { secretScenario } from '../fixtures/secretScenario.ts';
import { opKeyOf, trackOps } from '../../src/machines/external-provisioner/externalProvisioner.machine.ts';

const DRIVER = { id: 'cbs', name: 'com.tencent.cloud.csi.cbs', vendorVersion: 'v1', controllerCapabilities: [], nodeCapabilities: [], attachRequired: true, topologyKeys: [], latency: {}, defaultFsType: 'ext4', volumeIdStyle: 'cbs-disk' } as const;
const input = { id: 'external-provisioner', host: 'csi-controller', profile: '1.20' as const, driver: { ...DRIVER, controllerCapabilities: [], nodeCapabilities: [], topologyKeys: [] }, provisionerIdentity: '1672314114387-8081-com.tencent.cloud.csi.cbs' };

describe('externalProvisionerMachine', () => {
  it('calls Probe, GetPluginInfo, GetPluginCapabilities and ControllerGetCapabilities before it starts the controller', () => {
    const actor = createActor(externalProvisionerMachine, { input });
    const emitted: ClusterEmitted[] = [];
    actor.on('*', (e) => emitted.push(e as ClusterEmitted));
    actor.start();
    actor.send({ type: 'component.started', now: 0 });
    for (let i = 0; i < 4; i++) {
      const call = emitted.filter((e) => e.type === 'csi.call').at(-1) as Extract<ClusterEmitted, { type: 'csi.call' }>;
      actor.send({ type: 'csi.result', now: i + 1, requestId: call.requestId, rpc: call.rpc, code: 'OK', response: call.rpc === 'GetPluginInfo' ? { name: DRIVER.name } : {} });
    }
    expect(emitted.filter((e) => e.type === 'csi.call').map((e) => (e as { rpc: string }).rpc)).toEqual(['Probe', 'GetPluginInfo', 'GetPluginCapabilities', 'ControllerGetCapabilities']);
    expect(actor.getSnapshot().value).toBe('running');
  });

  it('reaches every state', () => {
    const rpcs = ['Probe', 'GetPluginInfo', 'GetPluginCapabilities', 'ControllerGetCapabilities'];
    const paths = getShortestPaths(externalProvisionerMachine, {
      input,
      events: [{ type: 'component.started', now: 0 }, { type: 'host.shutdown', now: 1 },
        ...rpcs.map((rpc, i) => ({ type: 'csi.result', now: 1, requestId: `ep-${i + 1}`, rpc, code: 'OK' })),
        { type: 'csi.result', now: 1, requestId: 'ep-1', rpc: 'Probe', code: 'INTERNAL' }],
      serializeState: (s: { value: unknown; context: { startup: number } }) => JSON.stringify(s.value) + s.context.startup,
    } as never);
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(['stopped', 'connecting', 'running', 'failed']));
  });

  /** a csi-provisioner whose start-up calls get these answers (rpc -> code, or a Probe response) */
  const startUp = (answers: Array<{ code: string; response?: Record<string, unknown> }>, profile: '1.20' | '1.30' = '1.20') => {
    const actor = createActor(externalProvisionerMachine, { input: { ...input, profile } });
    const emitted: ClusterEmitted[] = [];
    actor.on('*', (e) => emitted.push(e as ClusterEmitted));
    actor.start();
    actor.send({ type: 'component.started', now: 0 });
    let now = 0;
    for (const a of answers) {
      // the next call: now, or after the timer main's probe loop asked for
      const timer = emitted.filter((e) => e.type === 'timer.requested').at(-1) as Extract<ClusterEmitted, { type: 'timer.requested' }> | undefined;
      if (timer && timer.at > now) { now = timer.at; actor.send({ type: 'clock.ticked', now, key: timer.key }); }
      const call = emitted.filter((e) => e.type === 'csi.call').at(-1) as Extract<ClusterEmitted, { type: 'csi.call' }>;
      now += 1000;
      actor.send({ type: 'csi.result', now, requestId: call.requestId, rpc: call.rpc, code: a.code, ...(a.response ? { response: a.response } : {}) } as never);
    }
    const calls = emitted.filter((e) => e.type === 'csi.call').map((e) => (e as { rpc: string }).rpc);
    const lines = emitted.filter((e) => e.type === 'log' && !/grpc/.test((e as { msg: string }).msg)).map((e) => (e as { msg: string }).msg);
    const exited = emitted.filter((e) => e.type === 'process.exited').map((e) => (e as { code: number }).code);
    return { state: actor.getSnapshot().value, calls, lines, exited, emitted, actor };
  };

  it('probes until the driver is ready: a probe that timed out, or ready=false, is tried again a second later (csi-lib-utils ProbeForever)', () => {
    const r = startUp([{ code: 'DEADLINE_EXCEEDED' }, { code: 'OK', response: { ready: { value: false } } }, { code: 'OK', response: { ready: { value: true } } }]);
    expect(r.calls).toEqual(['Probe', 'Probe', 'Probe', 'GetPluginInfo']);
    expect(r.lines).toEqual(['externalProvisioner.probeTimedOut', 'externalProvisioner.driverNotReady']);
    const timers = r.emitted.filter((e) => e.type === 'timer.requested') as Array<{ at: number }>;
    expect(timers.map((t) => t.at)).toEqual([1000 + 1_000_000, 1_001_000 + 1000 + 1_000_000]);
    expect(r.state).toBe('connecting');
  });

  it('exits after any other start-up error, as csi-provisioner.go main does (os.Exit(1) after Probe, klog.Fatalf after the others): the kubelet restarts it', () => {
    const probe = startUp([{ code: 'INTERNAL' }]);
    expect([probe.state, probe.lines, probe.exited, probe.calls]).toEqual(['failed', ['externalProvisioner.probeFailed'], [1], ['Probe']]);
    const name = startUp([{ code: 'OK' }, { code: 'UNAVAILABLE' }]);
    expect([name.state, name.lines, name.exited]).toEqual(['failed', ['externalProvisioner.getDriverNameFailed'], [255]]);
    const caps = startUp([{ code: 'OK' }, { code: 'OK' }, { code: 'OK' }, { code: 'UNIMPLEMENTED' }], '1.30');
    expect([caps.state, caps.lines.filter((l) => l !== 'externalProvisioner.detectedDriver'), caps.exited]).toEqual(['failed', ['externalProvisioner.capabilitiesFailed'], [255]]);
    const errOf = (r: ReturnType<typeof startUp>, msg: string) => (r.emitted.find((e) => e.type === 'log' && (e as { msg: string }).msg === msg) as unknown as { args: { err: string } }).args.err;
    expect(errOf(probe, 'externalProvisioner.probeFailed')).toBe('CSI driver probe failed: rpc error: code = Internal desc = ');
    expect(errOf(name, 'externalProvisioner.getDriverNameFailed')).toBe('rpc error: code = Unavailable desc = ');
    expect(errOf(caps, 'externalProvisioner.capabilitiesFailed')).toBe('rpc error: code = Unimplemented desc = ');
    // only Probe is tried again after its deadline: GetPluginInfo's deadline is fatal
    const late = startUp([{ code: 'OK' }, { code: 'DEADLINE_EXCEEDED' }]);
    expect([late.state, late.lines, late.exited]).toEqual(['failed', ['externalProvisioner.getDriverNameFailed'], [255]]);
  });

  it('ignores an answer to no call of its start-up (a Probe answered again while it waits for GetPluginInfo)', () => {
    const r = startUp([{ code: 'OK' }]);
    const before = r.emitted.length;
    r.actor.send({ type: 'csi.result', now: 5000, requestId: 'ep-1', rpc: 'Probe', code: 'INTERNAL' } as never);
    expect(r.actor.getSnapshot().value).toBe('connecting');
    expect(r.emitted.length).toBe(before);
  });
});

describe('CreateVolume errors', () => {
  it('treats a final error as final: ProvisioningFailed, "Final error received", retry after 1s then 2s', () => {
    const c = storageCluster('1.20', [sc('cbs', 'Immediate')], [{ at: 1_000_000, do: 'create', object: pvc('data', 'cbs') }], [{ rpc: 'CreateVolume', code: 'INVALID_ARGUMENT', count: 2, message: 'bad disk type' }]);
    c.run(60_000_000);
    const lines = c.steps.filter((s) => s.component === 'external-provisioner' && s.log).map((s) => s.log!.replace(/^.*?\] /, ''));
    expect(lines.filter((l) => l.startsWith('Final error received, removing PVC'))).toHaveLength(2);
    // the workqueue key these lines print is the claim's UID (lib controller.go enqueueClaim), not its name
    const uid = c.api.list('PersistentVolumeClaim').find((x) => x.metadata.name === 'data')!.metadata.uid;
    expect(uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toContain(`Retrying syncing claim "${uid}", failure 0`);
    expect(lines).toContain(`Retrying syncing claim "${uid}", failure 1`);
    expect(lines).toContain('GRPC error: rpc error: code = InvalidArgument desc = bad disk type');
    const failed = c.api.list('Event').find((e) => e.reason === 'ProvisioningFailed')!;
    expect(failed.message).toBe('failed to provision volume with StorageClass "cbs": rpc error: code = InvalidArgument desc = bad disk type');
    expect(failed.count).toBe(2);
    const creates = c.steps.filter((s) => s.rpc?.method === '/csi.v1.Controller/CreateVolume' && s.kind === 'rpc');
    expect(creates.map((s) => Math.round(s.t - creates[0]!.t) >= 0)).toEqual([true, true, true]);
    expect(Math.round((creates[1]!.t - creates[0]!.t) / 1000)).toBe(1);
    expect(Math.round((creates[2]!.t - creates[1]!.t) / 1000)).toBe(2);
    expect(c.api.get('PersistentVolumeClaim', 'default', 'data')!.status.phase).toBe('Bound');
  });

  it('keeps the claim in progress on DEADLINE_EXCEEDED and retries with the same volume name', () => {
    const c = storageCluster('1.20', [sc('cbs', 'Immediate')], [{ at: 1_000_000, do: 'create', object: pvc('data', 'cbs') }], [{ rpc: 'CreateVolume', code: 'DEADLINE_EXCEEDED', count: 1 }]);
    c.run(60_000_000);
    const lines = c.steps.filter((s) => s.component === 'external-provisioner' && s.log).map((s) => s.log!.replace(/^.*?\] /, ''));
    expect(lines.some((l) => l.startsWith('Temporary error received, adding PVC'))).toBe(true);
    const names = c.steps.filter((s) => s.rpc?.method === '/csi.v1.Controller/CreateVolume' && s.kind === 'rpc').map((s) => (s.rpc!.request as { name?: string }).name);
    expect(names).toHaveLength(2);
    expect(names[0]).toBe(names[1]);
  });
});

describe('CreateVolume accessibility_requirements (external-provisioner pkg/controller/topology.go GenerateAccessibilityRequirements)', () => {
  const KEY = 'topology.com.tencent.cloud.csi.cbs/zone';
  const zoned = (name: string, zone?: string) => node({ name, ...(zone ? { labels: { [KEY]: zone } } : {}) });
  const nodes = [zoned('n1', 'zone-c'), zoned('n2', 'zone-a'), zoned('n3', 'zone-b'), zoned('n4', 'zone-a'), zoned('n5')];
  const cls = storageClass('standard', DRIVERS.cbs!);
  const claim = (name: string, selected?: string) => {
    const c = pvcObject('default', name, 'standard');
    if (selected) c.metadata.annotations = { 'volume.kubernetes.io/selected-node': selected };
    return c;
  };
  const zones = (terms: unknown) => (terms as Array<{ segments: Record<string, string> }>).map((t) => t.segments[KEY]);
  const req = (c: ReturnType<typeof claim>, strict = false) => createVolumeRequest(c, cls, DRIVERS.cbs!, nodes, strict).accessibility_requirements as { requisite: unknown; preferred: unknown };

  it('delayed binding, default flags: requisite is every zone a node of the driver is in, preferred the same with the selected node\'s first', () => {
    const r = req(claim('data', 'n3'));
    expect(zones(r.requisite)).toEqual(['zone-a', 'zone-b', 'zone-c']);
    expect(zones(r.preferred)).toEqual(['zone-b', 'zone-c', 'zone-a']);
  });

  it('--strict-topology: the selected node\'s zone alone, in both', () => {
    const r = req(claim('data', 'n1'), true);
    expect([zones(r.requisite), zones(r.preferred)]).toEqual([['zone-c'], ['zone-c']]);
  });

  it('immediate binding: every zone, preferred shifted by the FNV-1 hash of the StatefulSet\'s name plus the replica index, so replicas spread in order', () => {
    // getPVCNameHashAndIndexOffset("data-web-<n>") hashes "web": FNV-1 32 ("web") = 0x46661985 = 1181096325,
    // computed apart from this code (a few lines of Python, checked on the FNV-1 vector "a" -> 0x050c5d7e);
    // 1181096325 % 3 = 0, so replica 0 prefers the first zone in sorted order, replica 1 the second
    const first = zones(req(claim('data-web-0')).preferred);
    expect(first).toEqual(['zone-a', 'zone-b', 'zone-c']);
    expect(zones(req(claim('data-web-1')).preferred)).toEqual(['zone-b', 'zone-c', 'zone-a']);
    expect(zones(req(claim('logs-web-0')).preferred)).toEqual(first);
  });

  it('fails as upstream does where it finds no topology: a selected node without the keys, or no node with them', () => {
    expect(accessibilityRequirements(DRIVERS.cbs!, claim('data', 'n5'), nodes, false)).toEqual({ error: 'no topology key found on CSINode n5' });
    expect(accessibilityRequirements(DRIVERS.cbs!, claim('data'), [zoned('n5'), zoned('n6')], false)).toEqual({ error: 'no available topology found' });
    // a driver without topology is asked nothing
    expect(accessibilityRequirements(DRIVERS['ceph-rbd']!, claim('data'), [zoned('n5')], false)).toEqual({});
  });

  it('a driver with topology on nodes that reported none: ProvisioningFailed before CreateVolume, retried with backoff (prepareProvision, ProvisioningNoChange)', () => {
    const c = storageCluster('1.30', [sc('cbs', 'Immediate')], [{ at: 1_000_000, do: 'create', object: pvc('data', 'cbs') }], [], [],
      { ...FIXTURE_DRIVER, topologyKeys: [KEY] });
    c.run(10_000_000);
    expect(c.steps.filter((s) => s.rpc?.method === '/csi.v1.Controller/CreateVolume')).toEqual([]);
    const failed = c.api.list('Event').find((e) => e.reason === 'ProvisioningFailed')!;
    expect(failed.message).toBe('failed to provision volume with StorageClass "cbs": error generating accessibility requirements: no available topology found');
    expect(failed.count).toBeGreaterThanOrEqual(3);
    // ProvisioningNoChange says neither "Final error received" nor "Temporary error received"
    expect(c.steps.some((s) => /error received, /.test(s.log ?? ''))).toBe(false);
  });
});

describe('the PV finalizer external-provisioner.volume.kubernetes.io/finalizer (HonorPVReclaimPolicy, lib v10 controller.go)', () => {
  const F = 'external-provisioner.volume.kubernetes.io/finalizer';
  const life = (profile: '1.20' | '1.30', reclaim = 'Delete') => {
    const c = storageCluster(profile, [sc('cbs', 'Immediate', reclaim)], [
      { at: 1_000_000, do: 'create', object: pvc('data', 'cbs') },
      { at: 20_000_000, do: 'delete', kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data' },
    ]);
    let bound: string[] | undefined;
    c.run(10_000_000);
    const pv = c.api.list('PersistentVolume')[0]!;
    bound = pv.metadata.finalizers;
    c.run(60_000_000);
    return { c, bound, pvName: pv.metadata.name };
  };

  it('1.30 (v5.0.1, AddFinalizer): a provisioned PV carries the finalizer before the protection one; after DeleteVolume and the Delete, a strategic merge patch takes off only it', () => {
    const { c, bound, pvName } = life('1.30');
    expect(bound).toEqual([F, 'kubernetes.io/pv-protection']);
    const steps = c.steps.filter((s) => s.component === 'external-provisioner' && s.kind === 'api');
    const del = steps.findIndex((s) => s.api?.verb === 'delete');
    const patch = steps.findIndex((s) => s.api?.verb === 'patch');
    expect(del).toBeGreaterThanOrEqual(0);
    expect(patch).toBeGreaterThan(del);
    expect(steps[patch]!.summary).toContain('takes its finalizer external-provisioner.volume.kubernetes.io/finalizer off');
    // "PersistentVolume deleted succeeded" comes after the patch (controller.go:1573-1607)
    const done = c.steps.findIndex((s) => s.log?.includes('"PersistentVolume deleted succeeded"'));
    expect(done).toBeGreaterThan(c.steps.indexOf(steps[patch]!));
    expect(c.api.get('PersistentVolume', undefined, pvName)).toBeUndefined();
  });

  it('1.20 (v2.1.0, HonorPVReclaimPolicy off): no finalizer of its own and no patch', () => {
    const { c, bound, pvName } = life('1.20');
    expect(bound).toEqual(['kubernetes.io/pv-protection']);
    expect(c.steps.filter((s) => s.component === 'external-provisioner' && s.api?.verb === 'patch')).toEqual([]);
    expect(c.api.get('PersistentVolume', undefined, pvName)).toBeUndefined();
  });

  it('handleProtectionFinalizer: a Bound Delete-policy PV of the driver without it gets it; a Retain PV loses it; another driver\'s PV is left alone', () => {
    const pv = (name: string, reclaim: string, finalizers: string[], driver = FIXTURE_DRIVER.name): K8sObject => ({
      apiVersion: 'v1', kind: 'PersistentVolume',
      metadata: { name, annotations: { 'pv.kubernetes.io/provisioned-by': driver }, finalizers },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: reclaim, csi: { driver, volumeHandle: name } },
      status: { phase: 'Bound' },
    });
    const c = storageCluster('1.30', [pv('pv-old', 'Delete', ['kubernetes.io/pv-protection']), pv('pv-kept', 'Retain', ['kubernetes.io/pv-protection', F]),
      pv('pv-other', 'Delete', ['kubernetes.io/pv-protection'], 'other.csi.example.com')]);
    c.run(10_000_000);
    expect(c.api.get('PersistentVolume', undefined, 'pv-old')!.metadata.finalizers).toEqual(['kubernetes.io/pv-protection', F]);
    expect(c.api.get('PersistentVolume', undefined, 'pv-kept')!.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    expect(c.api.get('PersistentVolume', undefined, 'pv-other')!.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
  });
});

describe('a PV create that fails: the queue store saves it in the background (lib volume_store.go queueStore)', () => {
  for (const profile of ['1.20', '1.30'] as const) {
    it(`${profile}: "Failed to save volume", no claim retry and no second CreateVolume, background creates with the save queue's backoff until one succeeds, then Bound`, () => {
      const c = storageCluster(profile, [sc('cbs', 'Immediate')], [{ at: 1_000_000, do: 'create', object: pvc('data', 'cbs') }], [],
        [{ verb: 'create', kind: 'PersistentVolume', code: 500, count: 3, message: 'etcdserver: request timed out' }]);
      c.run(60_000_000);
      const lines = logs(c, 'external-provisioner');
      const failed = lines.filter((l) => l.includes('Failed to save volume'));
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatch(profile === '1.20'
        ? /^Failed to save volume pvc-[0-9a-f-]+: error saving volume pvc-[0-9a-f-]+: etcdserver: request timed out$/
        : /^"Failed to save volume" err="error saving volume pvc-[0-9a-f-]+: etcdserver: request timed out" PVC="default\/data" StorageClass="cbs" volume="pvc-[0-9a-f-]+"$/);
      // StoreVolume returned no error: the claim's sync ends as a success right after (syncClaim's -v=5 line), once
      const processed = lines.filter((l) => l.includes('Claim processing succeeded'));
      expect(processed).toHaveLength(1);
      expect(lines.indexOf(processed[0]!)).toBe(lines.indexOf(failed[0]!) + 1);
      // two background failures go through HandleError, the third background create succeeds
      expect(lines.filter((l) => /^error saving volume pvc-/.test(l))).toHaveLength(2);
      expect(lines.some((l) => l.includes('Retrying syncing claim'))).toBe(false);
      const creates = c.steps.filter((s) => s.component === 'external-provisioner' && s.kind === 'api' && s.api?.verb === 'create');
      expect(creates).toHaveLength(4);
      // the save queue's per-item backoff: 5ms, 10ms, 20ms after each failure (plus the API's latency)
      const gaps = creates.slice(1).map((s, i) => s.t - creates[i]!.t);
      expect(gaps[1]! - gaps[0]!).toBeGreaterThan(0);
      expect(gaps.every((g) => g < 60)).toBe(true);
      expect(c.steps.filter((s) => s.rpc?.method === '/csi.v1.Controller/CreateVolume' && s.kind === 'rpc')).toHaveLength(1);
      expect(c.api.get('PersistentVolumeClaim', 'default', 'data')!.status.phase).toBe('Bound');
      expect(c.api.list('Event').filter((e) => e.reason === 'ProvisioningSucceeded')).toHaveLength(1);
    });
  }
});

/**
 * csi-provisioner's watched operations table (trackOps, opKeyOf): what a reaction did to the table,
 * found from its writes, must be what a scan of the table before and after would find. Random
 * reactions (operations added, replaced, ended, re-added, the table reset) against that scan.
 */
describe('the watched operations table agrees with scanning it', () => {
  type Op = { requestId?: string; n: number };
  const KEYS = ['ns/a', 'ns/b', 'ns/c', 'pv/d', 'pv/e'];
  const key = fc.constantFrom(...KEYS);
  const req = fc.option(fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5', 'r6'), { nil: undefined });
  const table = fc.dictionary(key, req.map((requestId) => (requestId === undefined ? { n: 0 } : { requestId, n: 0 })));
  const write = fc.oneof(
    fc.record({ do: fc.constant('set' as const), key, requestId: req }),
    fc.record({ do: fc.constant('delete' as const), key }),
    fc.record({ do: fc.constant('lookup' as const), requestId: fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7') }),
    fc.record({ do: fc.constant('reset' as const) }),
  );
  // request ids are unique among live operations (a new call gets a new id): keep the generated tables so
  const unique = (t: Record<string, Op>): Record<string, Op> => {
    const seen = new Set<string>();
    return Object.fromEntries(Object.entries(t).map(([k, v]) => {
      if (v.requestId === undefined || !seen.has(v.requestId)) { if (v.requestId) seen.add(v.requestId); return [k, v]; }
      return [k, { n: v.n }];
    }));
  };
  const scanKeyOf = (t: Record<string, Op>, r: string): string | undefined => Object.keys(t).find((k) => t[k]!.requestId === r);

  it('the keys whose operation ended, and the key an answer is for, are those a scan finds', () => {
    fc.assert(fc.property(table, fc.array(write, { maxLength: 12 }), (start0, writes) => {
      const start = unique(start0);
      const before = { ...start };
      const tracked = trackOps<Op>(start);
      let current: Record<string, Op> = tracked.proxy;
      let n = 1;
      for (const w of writes) {
        if (w.do === 'set') {
          // a request id already live elsewhere is not reused
          const taken = w.requestId !== undefined && Object.entries(current).some(([k, v]) => k !== w.key && v.requestId === w.requestId);
          current[w.key] = taken || w.requestId === undefined ? { n: n++ } : { requestId: w.requestId, n: n++ };
        } else if (w.do === 'delete') delete current[w.key];
        else if (w.do === 'reset') current = {};
        else expect(opKeyOf(current, w.requestId)).toBe(scanKeyOf(current, w.requestId));
      }
      const { table: after, ended } = tracked.finish(current);
      expect(after).toBe(current === tracked.proxy ? start : current);
      expect([...ended].sort()).toEqual(Object.keys(before).filter((k) => !(k in after)).sort());
      // and the table kept answers lookups as a scan of it does (the next reaction starts from it)
      for (const r of ['r1', 'r2', 'r3', 'r4', 'r5', 'r6']) expect(opKeyOf(trackOps<Op>(after).proxy, r)).toBe(scanKeyOf(after, r));
    }), { numRuns: 3000 });
  });
});

describe('csi-provisioner and the Secrets a StorageClass names (getCredentials, handleSecretsForDeletion)', () => {
  // runScenario / scenarioFromManifests through the library's index, as teams call them
  const lib = () => import('../../src/machines/index.ts');
  const klogOf = (t: { steps: Array<{ component: string; log?: string }> }, component: string) => t.steps.filter((s) => s.component === component && s.log).map((s) => s.log!);

  it('ceph-rbd: CreateVolume and DeleteVolume carry the provisioner Secret\'s keys, which every log line prints as ***stripped***', async () => {
    const { runScenario } = await lib();
    for (const k8s of ['1.20', '1.30'] as const) {
      const create = runScenario('ceph-rbd-create', { k8s });
      const call = create.steps.find((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/CreateVolume');
      // the driver gets the Secret's data, decoded (secret.Data's bytes as strings)
      expect([k8s, (call!.rpc!.request as { secrets?: unknown }).secrets]).toEqual([k8s, { userID: 'kubernetes', userKey: 'AQBr8dRmXxk0JBAAz3kq9yQwM1s0vV5h0r6FkA==' }]);
      const lines = [...klogOf(create, 'external-provisioner'), ...klogOf(create, 'csi-controller-plugin')].filter((l) => l.includes('CreateVolume') || l.includes('"name":"pvc-'));
      expect(lines.some((l) => l.includes('secrets') && (l.includes('"secrets":"***stripped***"') || l.includes('\\"secrets\\":\\"***stripped***\\"')))).toBe(true);
      expect(create.steps.some((s) => (s.log ?? '').includes('AQBr8dRm'))).toBe(false);
      const pv = create.final.objects.find((o) => o.kind === 'PersistentVolume')!;
      // v3.2.0 on (1.30) records the Secret for DeleteVolume on the PV; v2.1.0 (1.20) reads the class again
      expect([k8s, pv.metadata.annotations?.['volume.kubernetes.io/provisioner-deletion-secret-name'], pv.metadata.annotations?.['volume.kubernetes.io/provisioner-deletion-secret-namespace']])
        .toEqual(k8s === '1.30' ? [k8s, 'csi-rbd-secret', 'default'] : [k8s, undefined, undefined]);
      const del = runScenario('ceph-rbd-delete', { k8s });
      const deleteCall = del.steps.find((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/DeleteVolume');
      expect([k8s, (deleteCall!.rpc!.request as { secrets?: unknown }).secrets]).toEqual([k8s, { userID: 'kubernetes', userKey: 'AQBr8dRmXxk0JBAAz3kq9yQwM1s0vV5h0r6FkA==' }]);
    }
  });

  const PROVISIONER_SECRET = ['parameters:', '  csi.storage.k8s.io/provisioner-secret-name: creds', '  csi.storage.k8s.io/provisioner-secret-namespace: default'];
  const manifests = (extra: string, withSecret: boolean, classLines = PROVISIONER_SECRET) => secretScenario({ classLines, withSecret, spec: `  k8s: "1.30"\n${extra}` });

  it('a Secret that is not there fails the provisioning before CreateVolume (ProvisioningFailed, retried), as prepareProvision does', async () => {
    const { runScenario, scenarioFromManifests } = await lib();
    const t = runScenario(scenarioFromManifests(manifests('  runFor: 20s\n', false)));
    expect(t.steps.some((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/CreateVolume')).toBe(false);
    const failed = t.steps.filter((s) => s.kind === 'event' && /ProvisioningFailed/.test(s.summary));
    expect(failed.length).toBeGreaterThan(1);
    expect(failed[0]!.summary).toContain('failed to provision volume with StorageClass "fast": error getting secret creds in namespace default: secrets "creds" not found');
    // with the Secret there, CreateVolume goes out with its key
    const ok = runScenario(scenarioFromManifests(manifests('  runFor: 20s\n', true)));
    const call = ok.steps.find((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/CreateVolume');
    expect((call!.rpc!.request as { secrets?: unknown }).secrets).toEqual({ token: 'secret' });
  });

  it('a class that names only one of the Secret\'s name and namespace fails the provisioning before any read (getSecretReference)', async () => {
    const { runScenario, scenarioFromManifests } = await lib();
    const half = manifests('  runFor: 20s\n', true, PROVISIONER_SECRET.slice(0, 2));
    const t = runScenario(scenarioFromManifests(half));
    expect(t.steps.some((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/CreateVolume')).toBe(false);
    const failed = t.steps.find((s) => s.kind === 'event' && /ProvisioningFailed/.test(s.summary))!;
    expect(failed.summary).toContain('failed to provision volume with StorageClass "fast": either name and namespace for Provisioner secrets specified, Both must be specified');
  });

  it('a csi.storage.k8s.io/ key the provisioner does not know is a final error before CreateVolume (removePrefixedParameters): ProvisioningFailed, "Final error received", the claim Pending', async () => {
    const { runScenario, scenarioFromManifests } = await lib();
    for (const k8s of ['1.20', '1.30'] as const) {
      // a misspelt key (secret-nam), after the provisioner Secret was read (getCredentials comes first)
      const typo = secretScenario({ classLines: [...PROVISIONER_SECRET, '  csi.storage.k8s.io/node-stage-secret-nam: creds'], withSecret: true, spec: `  k8s: "${k8s}"\n  runFor: 20s\n` });
      const t = runScenario(scenarioFromManifests(typo));
      expect([k8s, t.steps.some((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/CreateVolume')]).toEqual([k8s, false]);
      const failed = t.steps.findIndex((s) => s.kind === 'event' && /ProvisioningFailed/.test(s.summary));
      expect(t.steps[failed]!.summary).toContain('failed to provision volume with StorageClass "fast": failed to strip CSI Parameters of prefixed keys: found unknown parameter key "csi.storage.k8s.io/node-stage-secret-nam" with reserved namespace csi.storage.k8s.io/');
      expect(klogOf(t, 'external-provisioner').some((l) => l.includes('Final error received, removing PVC'))).toBe(true);
      expect(t.final.objects.find((o) => o.kind === 'PersistentVolumeClaim')!.status?.phase).toBe('Pending');
      // the Secret is read first: without it, that is the error (and not a final one)
      const unread = runScenario(scenarioFromManifests(typo.replace(/\n---\napiVersion: v1\nkind: Secret\n[^]*?(?=\n---)/, '')));
      expect(unread.steps.find((s) => s.kind === 'event' && /ProvisioningFailed/.test(s.summary))!.summary).toContain('error getting secret creds in namespace default');
    }
  });

  it('a node-expand Secret: the PV names it from v3.3.0 (1.30); v2.1.0 (1.20) does not know the key and fails the provisioning', async () => {
    const { runScenario, scenarioFromManifests } = await lib();
    const NODE_EXPAND = ['parameters:', '  csi.storage.k8s.io/node-expand-secret-name: creds', '  csi.storage.k8s.io/node-expand-secret-namespace: default'];
    const run = (k8s: '1.20' | '1.30', classLines = NODE_EXPAND) => runScenario(scenarioFromManifests(secretScenario({ classLines, withSecret: true, spec: `  k8s: "${k8s}"\n  runFor: 20s\n` })));
    const modern = run('1.30');
    expect(modern.final.objects.find((o) => o.kind === 'PersistentVolume')!.spec.csi.nodeExpandSecretRef).toEqual({ name: 'creds', namespace: 'default' });
    const old = run('1.20');
    expect(old.final.objects.some((o) => o.kind === 'PersistentVolume')).toBe(false);
    expect(old.steps.find((s) => s.kind === 'event' && /ProvisioningFailed/.test(s.summary))!.summary)
      .toContain('found unknown parameter key "csi.storage.k8s.io/node-expand-secret-name" with reserved namespace csi.storage.k8s.io/');
    // a template with only its name is getSecretReference's error (ProvisioningNoChange: no "Final error received")
    const half = run('1.30', NODE_EXPAND.slice(0, 2));
    expect(half.steps.find((s) => s.kind === 'event' && /ProvisioningFailed/.test(s.summary))!.summary)
      .toContain('failed to provision volume with StorageClass "fast": either name and namespace for NodeExpand secrets specified, Both must be specified');
    expect(klogOf(half, 'external-provisioner').some((l) => l.includes('Final error received'))).toBe(false);
  });

  it('1.30: a PV whose class names no Secret records "" and "", and its deletion says it needs none (controller.go:1312)', async () => {
    const { runScenario, scenarioFromManifests } = await lib();
    const plain = manifests('  runFor: 40s\n  actions:\n    - { at: 20s, delete: PersistentVolumeClaim/data }\n', false, []);
    const t = runScenario(scenarioFromManifests(plain), { recordObjects: true });
    const created = t.steps.find((s) => s.kind === 'api' && s.api?.verb === 'create' && s.api.kind === 'PersistentVolume');
    expect(created!.objects![0]!.after!.metadata.annotations).toMatchObject({ 'volume.kubernetes.io/provisioner-deletion-secret-name': '', 'volume.kubernetes.io/provisioner-deletion-secret-namespace': '' });
    const lines = klogOf(t, 'external-provisioner');
    const started = lines.findIndex((l) => l.includes('"Started" PV='));
    const none = lines.findIndex((l) => / controller\.go:1312\] volume pvc-[0-9a-f-]+ does not need any deletion secrets$/.test(l));
    const call = lines.findIndex((l) => l.includes('/csi.v1.Controller/DeleteVolume'));
    expect(started).toBeGreaterThan(-1);
    expect([started < none, none < call]).toEqual([true, true]);
  });
});
