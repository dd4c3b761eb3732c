/**
 * A team's own scenarios: ScenarioSpec objects and YAML manifests, run through runScenario, with
 * sensible defaults, story-time actions and faults, and one clear ScenarioError per mistake.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkInvariants, eventsOf, firstStep, genericDriver, node, objectAt, phaseAt, pod, pvc, rpcCalls, runScenario, scenarioFromManifests,
  ScenarioError, storageClass, parseFaultText, faultToText, hostErrorText, SCENARIOS, Cluster, buildComponents, catalog, DRIVERS, type HostFault, type K8sObject, type ScenarioSpec,
} from '../../src/machines/index.ts';

const sc = (provisioner = 'disk.csi.example.com', extra: Record<string, unknown> = {}): K8sObject => ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner, ...extra });
const claim = (name = 'data', accessModes = ['ReadWriteOnce']): K8sObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes, resources: { requests: { storage: '5Gi' } } },
});
const app = (name = 'app', claimName = 'data', nodeName?: string): K8sObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: {
    ...(nodeName ? { nodeName } : {}),
    containers: [{ name: 'app', image: 'busybox', volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
    volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
  },
});
const basic = (more: Partial<ScenarioSpec> = {}): ScenarioSpec => ({ objects: [sc(), claim(), app()], ...more });

const blockClaim = (): K8sObject => ({ ...claim(), spec: { ...claim().spec, volumeMode: 'Block' } });
const blockApp = (devicePath = '/dev/xvda'): K8sObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'app' },
  spec: { containers: [{ name: 'app', image: 'busybox', volumeDevices: [{ name: 'data', devicePath }] }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
});

describe('runScenario with a ScenarioSpec', () => {
  it('an attach in flight when the attach/detach controller restarts is found again (processVolumeAttachments) and detached once no pod needs it', () => {
    const yamlText = readFileSync(new URL('../fixtures/adc-restart-mid-attach.yaml', import.meta.url), 'utf8');
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario(scenarioFromManifests(yamlText), { k8s, seed: 0 });
      const kinds = (kind: string) => t.final.objects.filter((o) => o.kind === kind);
      // the VolumeAttachment the old process created is detached, and the released volume deleted
      expect(kinds('VolumeAttachment'), k8s).toEqual([]);
      expect(kinds('PersistentVolume'), k8s).toEqual([]);
      // v1.20.5 attach_detach_controller.go:741 (printf), v1.30.1 :764 (structured), both at -v=1
      const marked = t.steps.find((s) => s.msg === 'attachDetachController.vaMarkedUncertain');
      expect(marked?.log, k8s).toMatch(k8s === '1.20'
        ? /attach_detach_controller\.go:741\] Marking volume attachment as uncertain as volume:"kubernetes\.io\/csi\/[^"]+" \("node-1"\) is not attached \(Detached\)$/
        : /attach_detach_controller\.go:764\] "Marking volume attachment as uncertain as volume is not attached" /);
    }
  });

  it('a raw block claim: a Block capability, no fsType on the PV, MapVolume on the node (volumeDevices paths), then Running', () => {
    for (const k8s of ['1.20', '1.30'] as const) {
      const t = runScenario(basic({ objects: [sc(), blockClaim(), blockApp()] }), { k8s });
      const create = rpcCalls(t, 'CreateVolume')[0]!;
      expect((create.request as { volume_capabilities: unknown[] }).volume_capabilities).toEqual([{ AccessType: { Block: {} }, access_mode: { mode: 1 } }]);
      const pv = t.final.objects.find((o) => o.kind === 'PersistentVolume')!;
      expect(pv.spec.volumeMode).toBe('Block');
      expect(pv.spec.csi.fsType).toBeUndefined();
      const stage = rpcCalls(t, 'NodeStageVolume')[0]!.request as Record<string, any>;
      expect(stage.staging_target_path).toBe(`/var/lib/kubelet/plugins/kubernetes.io/csi/volumeDevices/staging/${pv.metadata.name}`);
      expect(stage.volume_capability.AccessType).toEqual({ Block: {} });
      const uid = t.final.objects.find((o) => o.kind === 'Pod')!.metadata.uid;
      const publish = rpcCalls(t, 'NodePublishVolume')[0]!.request as Record<string, any>;
      expect(publish.target_path).toBe(`/var/lib/kubelet/plugins/kubernetes.io/csi/volumeDevices/publish/${pv.metadata.name}/${uid}`);
      expect(publish.staging_target_path).toBe(stage.staging_target_path);
      expect(t.steps.some((x) => x.msg === 'kubelet.mapPodDeviceSucceeded')).toBe(true);
      expect(t.steps.some((x) => x.msg === 'kubelet.setUpSucceeded')).toBe(false);
      expect(phaseAt(t, 'Pod', 'app')).toBe('Running');
      expect(checkInvariants(t)).toEqual([]);
    }
  });

  it('a driver without raw block support refuses the Block claim: InvalidArgument, ProvisioningFailed, the claim stays Pending', () => {
    const t = runScenario(basic({ objects: [sc(), blockClaim(), blockApp()], driver: { block: false } }));
    expect(rpcCalls(t, 'CreateVolume')[0]!.code).toBe('INVALID_ARGUMENT');
    expect(eventsOf(t, 'ProvisioningFailed').length).toBeGreaterThan(0);
    expect(phaseAt(t, 'PersistentVolumeClaim', 'data')).toBe('Pending');
  });

  it('runs the story from its start with defaults: two nodes, a generic driver named after the provisioner, its CSIDriver', () => {
    const t = runScenario(basic(), { k8s: '1.30' });
    expect(t.scenario).toBe('custom');
    expect(t.initial.objects.filter((o) => o.kind === 'Node').map((o) => o.metadata.name)).toEqual(['node-1', 'node-2']);
    expect(t.initial.objects.find((o) => o.kind === 'CSIDriver')).toMatchObject({ metadata: { name: 'disk.csi.example.com' }, spec: { attachRequired: true } });
    // everything is created at t = 0, dependencies first
    const creates = t.steps.filter((s) => s.kind === 'user').slice(0, 3);
    expect(creates.map((s) => [s.t, s.api?.kind])).toEqual([[0, 'StorageClass'], [0, 'PersistentVolumeClaim'], [0, 'Pod']]);
    expect(phaseAt(t, 'Pod', 'app')).toBe('Running');
    expect(phaseAt(t, 'PersistentVolumeClaim', 'data')).toBe('Bound');
    expect(rpcCalls(t, 'ControllerPublishVolume').map((c) => c.code)).toEqual(['OK']);
    expect(checkInvariants(t)).toEqual([]);
  });

  it('a driver without attach: the CSIDriver says so, no VolumeAttachment, no ControllerPublishVolume', () => {
    const t = runScenario(basic({ driver: { attachRequired: false } }));
    expect(t.initial.objects.find((o) => o.kind === 'CSIDriver')!.spec.attachRequired).toBe(false);
    expect(t.final.objects.some((o) => o.kind === 'VolumeAttachment')).toBe(false);
    expect(rpcCalls(t, 'ControllerPublishVolume')).toEqual([]);
    expect(rpcCalls(t, 'NodePublishVolume').at(-1)?.code).toBe('OK');
    expect(phaseAt(t, 'Pod', 'app')).toBe('Running');
    expect(checkInvariants(t)).toEqual([]);
  });

  it('startLate: a node plugin that starts 20 s into the story; until it registers, the pod\'s mount fails with the driver not registered', () => {
    const late = { 'csi-node-plugin/node-1': '20s', 'node-driver-registrar/node-1': 20_000 };
    const t = runScenario(basic({ objects: [sc(), claim(), app('app', 'data', 'node-1')], driver: { attachRequired: false }, startLate: late }), { k8s: '1.30' });
    const notRegistered = t.steps.filter((s) => s.log?.includes('driver name disk.csi.example.com not found in the list of registered CSI drivers'));
    expect(notRegistered.length).toBeGreaterThan(2);
    expect(notRegistered.every((s) => s.t < 20_000)).toBe(true);
    const registered = firstStep(t, (s) => s.msg === 'kubelet.registerPlugin' && s.host === 'node-1')!;
    expect(registered.t).toBeGreaterThanOrEqual(20_000);
    expect(phaseAt(t, 'Pod', 'app')).toBe('Running');
    // node-2's node plugin was there from the start: it registered in the warm-up
    expect(t.steps.some((s) => s.msg === 'kubelet.registerPlugin' && s.host === 'node-2')).toBe(false);
  });

  it('startLate refuses unknown components and nodes, bad times, and times after the story', () => {
    const err = (startLate: Record<string, unknown>) => { try { runScenario(basic({ startLate: startLate as never })); return ''; } catch (e) { return e instanceof ScenarioError ? e.message : `not a ScenarioError: ${e}`; } };
    expect(err({ 'csi-node-pluginn/node-1': '5s' })).toMatch(/startLate\.csi-node-pluginn\/node-1: unknown component "csi-node-pluginn\/node-1" \(known: .*kubelet.*, each optionally followed by \/<node>\)/);
    expect(err({ 'csi-node-plugin/node-9': '5s' })).toMatch(/no node "node-9" in the scenario \(nodes: node-1, node-2\)/);
    expect(err({ kubelet: 'soon' })).toMatch(/startLate\.kubelet: must be story milliseconds or a duration \(e\.g\. 25s\), not "soon"/);
    expect(err({ kubelet: '10m' })).toMatch(/starts after the story ends/);
  });

  it('a CSIDriver document decides attachRequired; the driver follows it', () => {
    const csiDriver: K8sObject = { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'disk.csi.example.com' }, spec: { attachRequired: false } };
    const t = runScenario({ existing: [csiDriver], objects: [sc(), claim(), app()] });
    expect(rpcCalls(t, 'ControllerPublishVolume')).toEqual([]);
    expect(phaseAt(t, 'Pod', 'app')).toBe('Running');
  });

  it('a driver without PUBLISH_UNPUBLISH_VOLUME and no CSIDriver object: Kubernetes still attaches (no CSIDriver means attachRequired), and the external-attacher marks it attached without a call', () => {
    // a Scenario with build(), as the built-in ones are written: no CSIDriver object in the cluster at all
    const driver = genericDriver('noattach.csi.example.com', { attachRequired: false });
    const t = runScenario({
      id: 'no-csidriver', title: 'no CSIDriver object', summary: '',
      build: () => ({
        driver, nodes: [{ name: 'node-1' }], start: '2024-05-14T09:30:00Z', hostTz: { offsetMin: 0, zone: 'UTC' },
        objects: [node('node-1'), storageClass('fast', driver)],
        actions: [{ at: 30_000_000, do: 'create', object: pvc('default', 'data', 'fast') }, { at: 30_000_000, do: 'create', object: pod('default', 'app', [{ volume: 'data', claim: 'data' }]) }],
        recordFrom: 30_000_000, runFor: 150_000_000,
      }),
    });
    expect(t.initial.objects.some((o) => o.kind === 'CSIDriver')).toBe(false);
    expect(t.final.objects.find((o) => o.kind === 'VolumeAttachment')?.status?.attached).toBe(true);
    expect(rpcCalls(t, 'ControllerPublishVolume')).toEqual([]);
    expect(phaseAt(t, 'Pod', 'app')).toBe('Running');
    expect(checkInvariants(t)).toEqual([]);
  });

  it('stageUnstage: false skips NodeStageVolume', () => {
    const t = runScenario(basic({ driver: { stageUnstage: false } }));
    expect(rpcCalls(t, 'NodeStageVolume')).toEqual([]);
    expect(rpcCalls(t, 'NodePublishVolume').at(-1)?.request.staging_target_path).toBeUndefined();
    expect(phaseAt(t, 'Pod', 'app')).toBe('Running');
  });

  it('a ReadWriteMany volume serves pods on two nodes at once', () => {
    const t = runScenario({
      driver: { accessModes: ['ReadWriteMany'] },
      objects: [sc(), claim('shared', ['ReadWriteMany']), app('a', 'shared', 'node-1'), app('b', 'shared', 'node-2')],
    });
    expect(phaseAt(t, 'Pod', 'a')).toBe('Running');
    expect(phaseAt(t, 'Pod', 'b')).toBe('Running');
    // no Multi-Attach refusal; the driver may still answer one of two concurrent publishes with
    // ABORTED (an operation on that volume is in progress), which the external-attacher retries
    expect(eventsOf(t, 'FailedAttachVolume').filter((e) => /Multi-Attach/.test(e.message))).toEqual([]);
    expect(rpcCalls(t, 'ControllerPublishVolume').filter((c) => c.code === 'OK').map((c) => c.request.node_id).sort()).toEqual(['ins-3kq8d0vz', 'ins-7hw2pn4c']);
    expect(checkInvariants(t)).toEqual([]);
  });

  it('existing objects are there, settled, when the story starts; actions happen at their story time', () => {
    const t = runScenario({ existing: [sc(), claim(), app()], actions: [{ at: '20s', do: 'delete', kind: 'Pod', name: 'app' }], runFor: '1m' });
    expect(phaseAt(t, 'Pod', 'app', 0)).toBe('Running');
    const del = firstStep(t, { kind: 'user' })!;
    expect(del.t).toBe(20_000);
    expect(del.summary).toMatch(/You delete Pod default\/app/);
    expect(objectAt(t, 'Pod', 'app')).toBeUndefined();
    expect(firstStep(t, { rpc: 'NodeUnpublishVolume' })!.t).toBeGreaterThan(20_000);
  });

  it('a node shutdown, a restart and a patch on the timeline', () => {
    const t = runScenario({
      existing: [sc(), claim(), app('app', 'data', 'node-1')],
      actions: [
        { at: 1000, do: 'patch', kind: 'Node', name: 'node-2', patch: { spec: { unschedulable: true } } },
        { at: 2000, do: 'restart', component: 'external-attacher' },
        { at: 5000, do: 'shutdownNode', node: 'node-1' },
      ],
      runFor: '1m',
    });
    expect(objectAt(t, 'Node', 'node-2')!.spec?.unschedulable).toBe(true);
    expect(firstStep(t, { summary: /external-attacher process restarts/ })!.t).toBe(2000);
    // the restarted attacher probes its driver again
    expect(firstStep(t, { component: 'external-attacher', after: 2000, rpc: 'Probe' })).toBeDefined();
    // its state moves are recorded again, from the first state of a fresh process up to Running
    const moves = t.steps.filter((s) => s.component === 'external-attacher' && s.kind === 'state').map((s) => s.states[s.instance]);
    expect(moves).toEqual(['Stopped', 'Probing', 'Starting', 'Running']);
    // a machine that comes back to the very state it had before (the controller: NotStarted, then Running again)
    const adc = runScenario({ existing: [sc()], actions: [{ at: 2000, do: 'restart', component: 'attach-detach-controller' }], runFor: '10s' });
    expect(adc.steps.filter((s) => s.kind === 'state').map((s) => s.states[s.instance])).toEqual(['NotStarted', 'Running']);
    expect(firstStep(t, { component: 'node-lifecycle-controller', summary: /Ready condition Unknown/ })!.t).toBeGreaterThan(40_000);
  });

  it('faults hit the story from its start, never the warm-up, and the trace says where they hit', () => {
    // the pod's volume is mounted during the warm-up; the fault waits for the story's first NodeStageVolume
    const t = runScenario({
      existing: [sc(), claim(), app()],
      objects: [claim('more'), app('second', 'more')],
      faults: ['NodeStageVolume=INTERNALx2'],
    });
    const stages = rpcCalls(t, 'NodeStageVolume');
    expect(stages.map((c) => c.code)).toEqual(['INTERNAL', 'INTERNAL', 'OK']);
    expect(t.faults).toEqual([{ fault: 'NodeStageVolume=INTERNALx2', type: 'csi', fired: [{ step: stages[0]!.step, t: stages[0]!.t }, { step: stages[1]!.step, t: stages[1]!.t }] }]);
    expect(t.steps.find((s) => s.i === stages[0]!.step)!.fault).toBe('NodeStageVolume=INTERNALx2');
    expect(eventsOf(t, 'FailedMount').length).toBeGreaterThan(0);
  });

  it('a fault window in story milliseconds: from and until', () => {
    const t = runScenario(basic(), { faults: [{ rpc: 'NodePublishVolume', code: 'ABORTED', from: 0, until: 1 }] });
    expect(t.faults[0]!.fired).toEqual([]);
    expect(t.faults[0]!.fault).toBe('NodePublishVolume=ABORTED (from 0s until 1ms)');
    const late = runScenario(basic(), { faults: [{ rpc: 'NodePublishVolume', code: 'ABORTED', count: 1, from: 5000 }] });
    expect(late.faults[0]!.fired).toHaveLength(1);
    expect(late.faults[0]!.fired[0]!.t).toBeGreaterThanOrEqual(5000);
  });

  it('API faults: a failed write and a lagging status update', () => {
    const t = runScenario(basic(), { apiFaults: [{ verb: 'create', kind: 'VolumeAttachment', code: 500, count: 1 }], faults: ['api:patchStatus:Node@kubelet=+5s'] });
    const failed = t.steps.find((s) => s.fault === 'api:create:VolumeAttachment=500x1')!;
    expect(failed.api).toMatchObject({ verb: 'create', kind: 'VolumeAttachment', code: 500 });
    expect(failed.summary).toMatch(/fails to create VolumeAttachment/);
    expect(t.faults.map((f) => [f.fault, f.fired.length > 0])).toEqual([['api:patchStatus:Node@kubelet=+5s', true], ['api:create:VolumeAttachment=500x1', true]]);
    expect(phaseAt(t, 'Pod', 'app')).toBe('Running');
    expect(checkInvariants(t)).toEqual([]);
  });

  it('an informer delay: the attach/detach controller sees pods late, so the attach starts late', () => {
    const base = runScenario(basic());
    const slow = runScenario(basic(), { faults: ['informer:attach-detach-controller:Pod=+20s'] });
    const started = (t: typeof base) => firstStep(t, { msg: 'attachDetachController.attachVolumeStarted' })!.t;
    expect(started(slow) - started(base)).toBeGreaterThan(19_000);
    expect(phaseAt(slow, 'Pod', 'app')).toBe('Running');
  });

  it('the same inputs give the same trace; the spec is plain data (JSON round trip)', () => {
    const spec = basic({ faults: ['ControllerPublishVolume=DEADLINE_EXCEEDEDx1'] });
    const a = JSON.stringify(runScenario(spec, { seed: 4 }));
    expect(JSON.stringify(runScenario(JSON.parse(JSON.stringify(spec)), { seed: 4 }))).toBe(a);
  });
});

describe('host faults: the kubelet\'s own work on a volume\'s files (SetVolumeOwnership, for a pod with an fsGroup)', () => {
  it('parse and print: a slow walk, a failing one, counted; a wrong operation or error named in the message', () => {
    expect(parseFaultText('host:SetVolumeOwnership=+45s')).toEqual({ type: 'host', op: 'SetVolumeOwnership', delayMs: 45_000 });
    expect(parseFaultText('host:SetVolumeOwnership=EIOx1')).toEqual({ type: 'host', op: 'SetVolumeOwnership', errno: 'EIO', count: 1 });
    expect(faultToText(parseFaultText('host:SetVolumeOwnership=EACCESx2'))).toBe('host:SetVolumeOwnership=EACCESx2');
    expect(parseFaultText('host:StatVolumeRoot=ESTALE')).toEqual({ type: 'host', op: 'StatVolumeRoot', errno: 'ESTALE' });
    expect(() => parseFaultText('host:Chown=EIO')).toThrow(/unknown host operation "Chown" \(known: SetVolumeOwnership, StatVolumeRoot\)/);
    expect(() => parseFaultText('host:SetVolumeOwnership=ENOSPC')).toThrow(/unknown error "ENOSPC" \(known: EIO, EACCES, ESTALE\)/);
    // the errors as Go's os package words them: a directory that cannot be read (with its path from Go 1.16), one that cannot be opened
    expect(hostErrorText('EIO', '/v/mount')).toBe('readdirent /v/mount: input/output error');
    expect(hostErrorText('EIO', '/v/mount', false)).toBe('readdirent: input/output error');
    expect(hostErrorText('EACCES', '/v/mount')).toBe('open /v/mount: permission denied');
    expect(hostErrorText('EACCES', '/v/mount', false)).toBe('open /v/mount: permission denied');
    expect(hostErrorText('ESTALE', '/v/mount')).toBe('readdirent /v/mount: stale NFS file handle');
    // os.Stat's error names the path on every Go release
    expect(hostErrorText('ESTALE', '/v/mount', false, 'StatVolumeRoot')).toBe('stat /v/mount: stale NFS file handle');
    expect(hostErrorText('EIO', '/v/mount', true, 'StatVolumeRoot')).toBe('stat /v/mount: input/output error');
    expect(() => runScenario('fsgroup', { faults: [{ type: 'host', op: 'SetVolumeOwnership' }] })).toThrow(/a host fault needs an errno .* or a delayMs/);
  });

  for (const k8s of ['1.20', '1.30'] as const) {
    it(`${k8s}: fsgroup: the 45-s walk warns at 30 s and holds SetUp back; EIOx1 on top fails the first walk (FailedMount, applyFSGroup), the retry publishes and walks again`, () => {
      const t = runScenario('fsgroup', { k8s });
      const publish = rpcCalls(t, 'NodePublishVolume')[0]!;
      const warned = firstStep(t, { msg: 'kubelet.setVolumeOwnershipSlow' })!;
      const setUp = firstStep(t, { msg: 'kubelet.setUpSucceeded' })!;
      expect(warned.log).toMatch(/ W\d{4} .* volume_linux\.go:\d+\] Setting volume ownership for \/var\/lib\/kubelet\/pods\/[\w-]+\/volumes\/kubernetes\.io~csi\/pvc-[\w-]+\/mount and fsGroup set\. If the volume has a lot of files then setting volume ownership could be slow, see https:\/\/github\.com\/kubernetes\/kubernetes\/issues\/69699$/);
      expect(Math.round((warned.t - publish.t) / 1000)).toBe(30);
      expect(Math.round((setUp.t - publish.t) / 1000)).toBe(45);
      expect(phaseAt(t, 'Pod', 'web-0')).toBe('Running');
      expect(t.faults).toEqual([{ fault: 'host:SetVolumeOwnership=+45s', type: 'host', fired: [expect.objectContaining({ step: expect.any(Number) })] }]);
      // the walk is a step of its own (no log line shows it at -v=2): right after NodePublishVolume's answer, the mount's,
      // with the operation's state, and it is the step the slow-walk fault hit; the host result that ends it points back at it
      const walk = t.steps.find((s) => s.kind === 'host')!;
      expect(walk).toMatchObject({ component: 'kubelet', stage: 'mount', hostCall: { op: 'SetVolumeOwnership', fsGroup: 2000 }, fault: 'host:SetVolumeOwnership=+45s' });
      expect(walk.hostCall!.path).toMatch(/^\/var\/lib\/kubelet\/pods\/[\w-]+\/volumes\/kubernetes\.io~csi\/pvc-[\w-]+\/mount$/);
      expect(walk.t).toBeGreaterThan(publish.t);
      expect(walk.t).toBeLessThan(warned.t);
      expect(Object.values(walk.states)).toContain('setUp.setVolumeOwnership');
      expect(t.faults[0]!.fired[0]!.step).toBe(walk.i);
      expect(setUp.cause).toMatchObject({ kind: 'host', op: 'SetVolumeOwnership', step: walk.i });
      expect(setUp.summary).toMatch(/^SetUp succeeded: .* its files have the pod's fsGroup\.$/);

      const failed = runScenario('fsgroup', { k8s, faults: ['host:SetVolumeOwnership=EIOx1'] });
      const event = failed.steps.find((s) => s.kind === 'event' && /FailedMount/.test(s.summary))!;
      // (Go 1.15, v1.20's, names no directory in a failed directory read; Go 1.16 on do)
      expect(event.summary).toMatch(k8s === '1.20'
        ? /MountVolume\.SetUp failed for volume "pvc-[\w-]+" : applyFSGroup failed for vol disk-f5g2r8w1: readdirent: input\/output error$/
        : /MountVolume\.SetUp failed for volume "pvc-[\w-]+" : applyFSGroup failed for vol disk-f5g2r8w1: readdirent \/var\/lib\/kubelet\/pods\/.*\/mount: input\/output error$/);
      expect(rpcCalls(failed, 'NodePublishVolume').map((c) => c.code)).toEqual(['OK', 'OK']);
      expect(rpcCalls(failed, 'NodeStageVolume')).toHaveLength(1);
      expect(failed.faults.map((f) => [f.fault, f.fired.length])).toEqual([['host:SetVolumeOwnership=EIOx1', 1], ['host:SetVolumeOwnership=+45s', 1]]);
      expect(phaseAt(failed, 'Pod', 'web-0')).toBe('Running');
      expect(checkInvariants(failed)).toEqual([]);
    });
  }
});

describe('a volume\'s top directory keeps its group from one pod to the next (the cluster\'s file systems)', () => {
  // fsgroup's story, then its pod deleted and another created with fsGroupChangePolicy OnRootMismatch
  function twoPods(k8s: '1.20' | '1.30', fsGroup: number, faults: string[] = []) {
    const spec = SCENARIOS.find((x) => x.id === 'fsgroup')!;
    const data = spec.build({ k8s, seed: 1, replicas: 1 });
    const second = pod('default', 'web-1', [{ volume: 'data', claim: 'data' }], { fsGroup });
    second.spec.securityContext.fsGroupChangePolicy = 'OnRootMismatch';
    const c = new Cluster({
      profile: k8s, seed: 1, epochUs: Date.parse(data.start) * 1000, apiServerUrl: 'https://10.0.0.1:443', catalog, objects: data.objects,
      components: buildComponents(data, DRIVERS.cbs!, k8s, 1, 0), recordObjects: false, hostFaults: [...faults.map((f) => { const { type: _t, ...h } = parseFaultText(f) as { type?: string } & HostFault; return h; }), ...(data.hostFaults ?? [])],
      actions: [...data.actions!, { at: 100_000_000, do: 'delete', kind: 'Pod', namespace: 'default', name: 'web-0', gracePeriodSeconds: 0 }, { at: 140_000_000, do: 'create', object: second }],
    });
    c.run(260_000_000);
    return c.toTrace({ scenario: 'fsgroup', title: 'two pods', options: {} });
  }
  const setUpWait = (t: ReturnType<typeof twoPods>, podName: string): number => {
    // (1.20 prints it with printf, pod "web-0"; 1.30 structured, its quotes escaped)
    const setUp = t.steps.find((s) => s.msg === 'kubelet.setUpSucceeded' && [`pod "${podName}"`, `pod \\"${podName}\\"`].some((x) => (s.log ?? '').includes(x)))!;
    const publish = [...t.steps].filter((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Node/NodePublishVolume' && s.t < setUp.t).at(-1)!;
    return setUp.t - publish.t;
  };
  for (const k8s of ['1.20', '1.30'] as const) {
    it(`${k8s}: the first pod's walk (45 s) gave the top directory the group, so the second pod (OnRootMismatch, same fsGroup) skips it; another fsGroup walks again`, () => {
      const same = twoPods(k8s, 2000);
      expect(setUpWait(same, 'web-0')).toBeGreaterThan(45_000);
      expect(setUpWait(same, 'web-1')).toBeLessThan(2_000);
      expect(same.steps.filter((s) => s.msg === 'kubelet.setVolumeOwnershipSlow')).toHaveLength(1);
      const other = twoPods(k8s, 3000);
      expect(setUpWait(other, 'web-1')).toBeGreaterThan(45_000);
      expect(other.steps.filter((s) => s.msg === 'kubelet.setVolumeOwnershipSlow')).toHaveLength(2);
    });
  }

  it('a walk that failed leaves the top directory as it was (walkDeep changes it last): the next pod with OnRootMismatch walks', () => {
    const t = twoPods('1.30', 2000, ['host:SetVolumeOwnership=EIO']);
    // every walk fails: web-0 never runs, and web-1 looks at the top directory, finds it root's, and walks (and fails) too
    expect(t.steps.filter((s) => s.kind === 'event' && /applyFSGroup failed/.test(s.summary) && /web-1/.test(s.summary)).length).toBeGreaterThan(0);
  });
  it('host:StatVolumeRoot=ESTALEx1: the second pod\'s stat of the top directory fails; it is logged as an error and the kubelet walks anyway, and the pod runs', () => {
    const t = twoPods('1.30', 2000, ['host:StatVolumeRoot=ESTALEx1']);
    const failed = t.steps.filter((s) => s.msg === 'kubelet.volumeRootStatFailed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.log).toMatch(/ E\d{4} .* volume_linux\.go:118\] "Performing recursive ownership change on rootDir because reading permissions of root volume failed" err="stat \/var\/lib\/kubelet\/pods\/[^ ]+\/mount: stale NFS file handle" path="\/var\/lib\/kubelet\/pods\/[^ ]+\/mount"$/);
    expect(t.faults.map((f) => [f.fault, f.fired.length])).toContainEqual(['host:StatVolumeRoot=ESTALEx1', 1]);
    // so web-1 waits for a whole walk (45 s) where it would have skipped it
    expect(setUpWait(t, 'web-1')).toBeGreaterThan(45_000);
  });
});

describe('faults hit the story of built-in scenarios too', () => {
  it('pod-migration --fault NodeStageVolume=INTERNALx2: both failures show in the story', () => {
    const t = runScenario('pod-migration', { k8s: '1.20', faults: ['NodeStageVolume=INTERNALx2'] });
    expect(t.options.faults).toEqual(['NodeStageVolume=INTERNALx2']);
    expect(t.faults[0]!.fired).toHaveLength(2);
    expect(rpcCalls(t, 'NodeStageVolume').map((c) => c.code)).toEqual(['INTERNAL', 'INTERNAL', 'OK']);
    expect(phaseAt(t, 'Pod', 'weixin-zixun-l3-vob-rbu-online-6')).toBe('Running');
  });

  it('mount (whose story starts mid-flow): the fault waits for the story', () => {
    const t = runScenario('mount', { faults: ['NodeStageVolume=ABORTEDx1'] });
    expect(rpcCalls(t, 'NodeStageVolume').map((c) => c.code)).toEqual(['ABORTED', 'OK']);
    expect(t.steps[0]!.msg).toBe('kubelet.verifyControllerAttachedVolumeStarted');
  });
});

describe('mistakes are one ScenarioError naming what is wrong and where, never a TypeError', () => {
  const err = (f: () => unknown): ScenarioError => {
    try { f(); } catch (e) { expect(e).toBeInstanceOf(ScenarioError); return e as ScenarioError; }
    throw new Error('no error');
  };
  it.each([
    ['an object that is not an object', { objects: [42] }, /objects\[0\].*must be a Kubernetes object/],
    ['a malformed claim', { objects: [sc(), { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'd' }, spec: { accessModes: 'ReadWriteOnce' } }] }, /objects\[1\] \(PersistentVolumeClaim d\), spec\.accessModes: must be a list/],
    ['a ConfigMap', { objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }] }, /kind ConfigMap is not part of the simulation/],
    ['a fault with an unknown RPC', { faults: [{ rpc: 'Nope', code: 'INTERNAL' }] }, /faults\[0\]\.rpc: unknown CSI RPC "Nope"/],
    ['a fault on an unknown node', { faults: [{ rpc: 'NodeStageVolume', code: 'INTERNAL', node: 'node-9' }] }, /no node "node-9"/],
    ['a pod on an unknown node', { objects: [sc(), claim(), app('a', 'data', 'node-7')] }, /spec\.nodeName: no node "node-7"/],
    ['a pod whose claim does not exist', { objects: [sc(), app()] }, /no PersistentVolumeClaim "data"/],
    ['an action after the story ends', { runFor: '10s', actions: [{ at: '1m', do: 'shutdownNode', node: 'node-1' }] }, /actions\[0\]\.at: comes after the story ends/],
    ['an unknown action', { actions: [{ at: 0, do: 'explode' }] }, /unknown action "explode"/],
    ['a claim restored from a snapshot that is not in the scenario', { driver: { snapshots: true }, objects: [sc(), { ...claim('r'), spec: { ...claim('r').spec, dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'nope' } } }] }, /spec\.dataSource\.name: no VolumeSnapshot "nope" in namespace default/],
    ['a taint without an effect', { actions: [{ at: 0, do: 'taint', node: 'node-1', taint: 'node.kubernetes.io/out-of-service=nodeshutdown' }] }, /actions\[0\]\.taint: .*has no effect: write key\[=value\]:effect/],
    ['a taint with an unknown effect', { actions: [{ at: 0, do: 'taint', node: 'node-1', taint: 'a=b:NoRun' }] }, /actions\[0\]\.taint: unknown taint effect "NoRun"/],
    ['a taint on an unknown node', { actions: [{ at: 0, do: 'taint', node: 'node-9', taint: 'a=b:NoSchedule' }] }, /actions\[0\]\.node: no node "node-9"/],
    ['a device path that is not absolute', { objects: [sc(), blockClaim(), blockApp('dev/xvda')] }, /containers\[0\]\.volumeDevices\[0\]\.devicePath: must be an absolute path, got "dev\/xvda"/],
    ['a volume both mounted and a device', { objects: [sc(), blockClaim(), { ...blockApp(), spec: { ...blockApp().spec, containers: [{ name: 'app', image: 'busybox', volumeMounts: [{ name: 'data', mountPath: '/data' }], volumeDevices: [{ name: 'data', devicePath: '/dev/xvda' }] }] } }] }, /volumeDevices\[0\]\.name: volume "data" is already in volumeMounts/],
    ['restarting the CSI node plugin', { actions: [{ at: 0, do: 'restart', component: 'csi-node-plugin' }] }, /restarting the CSI node plugin is not modelled/],
    ['two drivers', { objects: [sc('a.csi'), { ...sc('b.csi'), metadata: { name: 'other' } }] }, /one CSI driver per scenario/],
    ['a misspelt field', { objets: [] }, /objets: unknown field/],
    ['a bad duration', { runFor: 'forever' }, /runFor: must be milliseconds or a duration/],
    ['an unknown version', { k8s: '1.99' }, /unknown Kubernetes version "1\.99"/],
  ])('%s', (_name, spec, message) => {
    expect(err(() => runScenario(spec as ScenarioSpec)).message).toMatch(message as RegExp);
  });

  it('bad options too', () => {
    expect(err(() => runScenario(basic(), { faults: ['Nope=INTERNAL'] })).message).toMatch(/unknown CSI RPC "Nope"/);
    expect(err(() => runScenario(basic(), { faults: [{ rpc: 'NodeStageVolume', code: 'INTERNAL', count: 0 }] })).message).toMatch(/count: must be an integer of at least 1/);
    expect(err(() => runScenario(basic(), { extendBy: -1 })).message).toMatch(/extendBy/);
    expect(err(() => runScenario('nope')).message).toMatch(/unknown scenario "nope"/);
  });
});

describe('scenarioFromManifests', () => {
  const YAML = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
provisioner: disk.csi.example.com
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 5Gi
---
apiVersion: v1
kind: Pod
metadata:
  name: app
spec:
  containers:
    - name: app
      image: busybox
      volumeMounts: [{ name: data, mountPath: /data }]
  volumes:
    - name: data
      persistentVolumeClaim: { claimName: data }
---
apiVersion: v1
kind: Pod
metadata:
  name: later
spec:
  containers: [{ name: app, image: busybox }]
---
apiVersion: csi-flows/v1
kind: Scenario
metadata:
  name: yaml-story
spec:
  k8s: "1.20"
  existing: [StorageClass/fast, PersistentVolumeClaim/data, Pod/app]
  actions:
    - { at: 10s, delete: Pod/app }
    - { at: 20s, create: Pod/later }
    - { at: 30s, patch: Node/node-2, with: { spec: { unschedulable: true } } }
  faults:
    - { rpc: NodeUnpublishVolume, code: INTERNAL, count: 1 }
  runFor: 2m
`;

  it('reads manifests and a Scenario document into a spec runScenario runs', () => {
    const spec = scenarioFromManifests(YAML);
    expect(spec.id).toBe('yaml-story');
    expect(spec.k8s).toBe('1.20');
    expect(spec.existing!.map((o) => o.kind)).toEqual(['StorageClass', 'PersistentVolumeClaim', 'Pod']);
    const t = runScenario(spec);
    expect(t.k8s).toBe('1.20');
    expect(phaseAt(t, 'Pod', 'app', 0)).toBe('Running');
    expect(rpcCalls(t, 'NodeUnpublishVolume').map((c) => c.code)).toEqual(['INTERNAL', 'OK']);
    expect(firstStep(t, { summary: 'You create Pod default/later' })!.t).toBe(20_000);
    expect(phaseAt(t, 'Pod', 'later')).toBe('Running');
    expect(objectAt(t, 'Node', 'node-2', 29_999)!.spec?.unschedulable).toBeUndefined();
    expect(objectAt(t, 'Node', 'node-2')!.spec?.unschedulable).toBe(true);
    expect(checkInvariants(t)).toEqual([]);
  });

  it.each([
    ['a ConfigMap', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n', 2, /document 1 \(ConfigMap x\), kind: kind ConfigMap is not part of the simulation/],
    ['broken YAML', 'apiVersion: v1\nkind: Pod\nmetadata: {name: x\n', 3, /not valid YAML/],
    ['a bad claim reference', YAML.replace('persistentVolumeClaim: { claimName: data }', 'persistentVolumeClaim: { claimName: dat }'), 28, /document 3 \(Pod app\), spec\.volumes\[0\]\.persistentVolumeClaim\.claimName: no PersistentVolumeClaim "dat"/],
    ['a misspelt access mode', YAML.replace('[ReadWriteOnce]', '[ReadWriteOnly]'), 12, /spec\.accessModes\[0\]: must be one of ReadWriteOnce/],
    ['an unknown RPC in a fault', YAML.replace('rpc: NodeUnpublishVolume', 'rpc: NodeUnpublish'), 49, /document 5 \(Scenario yaml-story\), faults\[0\]\.rpc: unknown CSI RPC "NodeUnpublish"/],
    ['an action on a node that does not exist', YAML.replace('patch: Node/node-2', 'patch: Node/node-9'), 47, /actions\[2\]\.name: no Node "node-9"/],
    ['existing naming a missing document', YAML.replace('Pod/app]', 'Pod/ap]'), 43, /spec\.existing\[2\]: no document Pod ap/],
    ['an unknown Scenario field', YAML.replace('  runFor: 2m', '  runfor: 2m'), 50, /spec\.runfor: unknown field/],
  ])('%s: the line and the field', (_name, text, line, message) => {
    try {
      scenarioFromManifests(text as string);
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioError);
      expect((e as ScenarioError).line).toBe(line);
      expect((e as Error).message).toMatch(message as RegExp);
    }
  });

  it('an empty text or a text that is not YAML text is a ScenarioError too', () => {
    expect(() => scenarioFromManifests('')).toThrow(ScenarioError);
    expect(() => scenarioFromManifests('---\n---\n')).toThrow(/no documents/);
    expect(() => scenarioFromManifests(42 as unknown as string)).toThrow(ScenarioError);
    expect(() => scenarioFromManifests('x'.repeat(2 * 1024 * 1024))).toThrow(/at most 1024 KiB/);
  });
});

describe('without: components not deployed', () => {
  it('runs the cluster without them, and the others meet the gap (no csi-attacher: the 2-minute timeout)', () => {
    const t = runScenario({ objects: [sc(), claim(), app()], runFor: '3m', without: ['external-attacher'] });
    expect(t.steps.some((s) => s.component === 'external-attacher')).toBe(false);
    expect(eventsOf(t, 'FailedAttachVolume').some((e) => e.message.includes('timed out waiting for external-attacher of disk.csi.example.com CSI driver'))).toBe(true);
    expect(phaseAt(t, 'Pod', 'app')).not.toBe('Running');
  });
  it('names an unknown component and lists the known ones, from YAML at its line', () => {
    const text = `${['apiVersion: v1', 'kind: PersistentVolumeClaim', 'metadata: { name: data }', 'spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }'].join('\n')}\n---\napiVersion: csi-flows/v1\nkind: Scenario\nmetadata: { name: x }\nspec:\n  without: [csi-attacher]\n`;
    let err: unknown;
    try { runScenario(scenarioFromManifests(text)); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ScenarioError);
    expect(String((err as Error).message)).toMatch(/without\[0\]: unknown component "csi-attacher" \(known: .*external-attacher/);
    expect((err as ScenarioError & { line?: number }).line ?? (err as { where?: { line?: number } }).where?.line).toBe(10);
  });
});
