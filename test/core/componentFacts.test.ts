import { describe, expect, it } from 'vitest';
import { catalog, runScenario, SCENARIOS, PROFILES, type ProfileId } from '../../src/machines/index.ts';
import {
  COMPONENT_GROUPS, componentByName, componentFacts, kindFacts, parseMethod, rpcSummaries,
} from '../../src/machines/view/components.ts';
import { descriptor as attacherDescriptor, volumeAttachmentMachine } from '../../src/machines/external-attacher/index.ts';
import { descriptor as kubeletDescriptor } from '../../src/machines/kubelet/index.ts';
import { pvcPhaseMachine, pvPhaseMachine } from '../../src/machines/pv-controller/index.ts';
import { csiVolumeLifecycleMachine } from '../../src/machines/csi-plugin/index.ts';
import { isTranslated } from '../../src/components/site/i18n.ts';

const facts = componentFacts();
const get = (name: string) => {
  const c = componentByName(name);
  if (!c) throw new Error(`no component ${name}`);
  return c;
};

describe('componentFacts: who the components are', () => {
  it('lists every component of the standard topology once, grouped in reading order', () => {
    const names = facts.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining([
      'pv-controller', 'external-provisioner', 'attach-detach-controller', 'external-attacher', 'kubelet',
      'csi-controller-plugin', 'csi-node-plugin', 'node-driver-registrar', 'external-resizer', 'external-snapshotter',
      'kube-scheduler', 'statefulset-controller', 'node-lifecycle-controller', 'pvc-protection-controller', 'pv-protection-controller',
    ]));
    const groupIndex = facts.map((c) => COMPONENT_GROUPS.findIndex((g) => g.id === c.group));
    expect(groupIndex).toEqual([...groupIndex].sort((a, b) => a - b));
    expect(get('pv-controller').group).toBe('control-plane');
    expect(get('kube-scheduler').group).toBe('control-plane');
    expect(get('external-attacher').group).toBe('csi-sidecar');
    expect(get('node-driver-registrar').group).toBe('csi-sidecar');
    expect(get('csi-node-plugin').group).toBe('csi-plugin');
    expect(get('kubelet').group).toBe('node');
  });

  it('gives each component a page in both languages: the language switch of /components/<name>/ counts it as translated', () => {
    for (const c of facts) expect(isTranslated(`/components/${c.name}/`), c.name).toBe(true);
  });

  it('knows where each runs and how it logs', () => {
    expect(get('kubelet')).toMatchObject({ source: 'kubelet', logKind: 'daemon', placement: 'every-node' });
    expect(get('attach-detach-controller')).toMatchObject({ source: 'kube-controller-manager', logKind: 'container', placement: 'control-plane', hosts: ['master-1'] });
    expect(get('external-attacher')).toMatchObject({ source: 'csi-attacher', logKind: 'container', placement: 'csi-controller-pod' });
    expect(get('csi-node-plugin')).toMatchObject({ source: 'csi-driver-node', placement: 'every-node' });
  });

  it('watches what the descriptors say', () => {
    expect([...get('external-attacher').watches].sort()).toEqual([...attacherDescriptor.watches].sort());
    expect([...get('kubelet').watches].sort()).toEqual([...kubeletDescriptor.watches].sort());
    expect(get('kubelet').nodeScoped.sort()).toEqual(['Node', 'Pod', 'VolumeAttachment']);
    expect(get('kubelet').watchesPluginSockets).toBe(true);
    expect(get('csi-controller-plugin').watches).toEqual([]);
  });

  it('hands over the component machine and the lifecycles it drives', () => {
    const roles = (name: string) => get(name).machines.map((m) => [m.role, m.machine] as const);
    expect(roles('external-attacher')).toContainEqual(['lifecycle', volumeAttachmentMachine]);
    expect(roles('pv-controller')).toEqual(expect.arrayContaining([['lifecycle', pvcPhaseMachine], ['lifecycle', pvPhaseMachine]]));
    expect(roles('csi-node-plugin')).toContainEqual(['lifecycle', csiVolumeLifecycleMachine]);
    expect(roles('csi-controller-plugin')).toContainEqual(['lifecycle', csiVolumeLifecycleMachine]);
    // the other plugin's machine is a component of its own, not a lifecycle of this one
    expect(get('csi-controller-plugin').machines.filter((m) => m.role === 'lifecycle')).toHaveLength(1);
    expect(get('kubelet').machines.map((m) => m.machine.id)).toEqual([
      'kubelet', 'kubeletAttachedVolume', 'kubeletMountedPod', 'verifyControllerAttachedVolume', 'mountVolume', 'unmountVolume', 'unmountDevice', 'expandInUseVolume', 'mapVolume', 'unmapVolume', 'unmapDevice',
    ]);
    expect(get('attach-detach-controller').machines.map((m) => m.machine.id)).toEqual(['attachDetachController', 'adcAttachState', 'attachVolume', 'detachVolume']);
    for (const c of facts) expect(c.machines[0]?.role, c.name).toBe('component');
  });
});

describe('componentFacts: what the traces show', () => {
  it('API writes match an independent scan of the attach scenario', () => {
    for (const k8s of ['1.20', '1.30'] as const) {
      const trace = runScenario('attach', { k8s });
      const seen = new Set(trace.steps.filter((s) => s.kind === 'api' && s.api && s.component === 'external-attacher').map((s) => `${s.api!.verb} ${s.api!.kind}`));
      expect(seen.size).toBeGreaterThan(0);
      for (const w of seen) {
        const fact = get('external-attacher').writes.find((x) => `${x.verb} ${x.kind}` === w);
        expect(fact, w).toBeDefined();
        expect(fact!.scenarios).toContain('attach');
        expect(fact!.profiles).toContain(k8s);
      }
    }
    const adc = get('attach-detach-controller').writes.map((w) => `${w.verb} ${w.kind}`);
    expect(adc).toEqual(expect.arrayContaining(['create VolumeAttachment', 'delete VolumeAttachment', 'patchStatus Node']));
    expect(get('external-provisioner').writes.map((w) => `${w.verb} ${w.kind}`)).toContain('create PersistentVolume');
  });

  it('marks writes made only while the cluster starts (the kubelet creating its CSINode; a restarted kubelet finds it and creates none)', () => {
    const csiNode = get('kubelet').writes.find((w) => w.verb === 'create' && w.kind === 'CSINode');
    expect(csiNode).toMatchObject({ startupOnly: true });
    // the driver's entry: written in the stories where a node plugin registers
    expect(get('kubelet').writes.find((w) => w.verb === 'update' && w.kind === 'CSINode')).toMatchObject({ startupOnly: false, scenarios: ['register', 'driver-not-registered'] });
    expect(get('external-provisioner').writes.find((w) => w.verb === 'create' && w.kind === 'PersistentVolume')?.startupOnly).toBe(false);
    expect(get('kubelet').writes.find((w) => w.verb === 'patchStatus' && w.kind === 'Pod')?.startupOnly).toBe(false);
  });

  it('CSI RPCs: who calls, who serves, with the reply codes', () => {
    const publish = get('external-attacher').calls.find((r) => r.rpc === 'ControllerPublishVolume');
    expect(publish).toMatchObject({ service: 'Controller', method: '/csi.v1.Controller/ControllerPublishVolume', peers: ['csi-controller-plugin'] });
    expect(publish!.codes).toContain('OK');
    const served = get('csi-controller-plugin').serves.find((r) => r.rpc === 'ControllerPublishVolume');
    expect(served?.peers).toEqual(['external-attacher']);
    expect(get('kubelet').calls.map((r) => r.rpc)).toEqual(expect.arrayContaining(['NodeStageVolume', 'NodePublishVolume', 'NodeUnpublishVolume', 'NodeUnstageVolume']));
    // the registration happens in the warm-up of every scenario but register and driver-not-registered, whose node plugins start in the
    // story, and kubelet-restart, whose restarted kubelet finds the registration socket again
    expect(get('node-driver-registrar').serves.find((r) => r.rpc === 'GetInfo')).toMatchObject({ service: 'Registration', peers: ['kubelet'], startupOnly: false, scenarios: ['register', 'driver-not-registered', 'kubelet-restart'] });
    // seed 002: the driver fails the detach (see the ad-detach-backoff scenario)
    const trace = runScenario('ad-detach-backoff', { k8s: '1.30' });
    const failed = trace.steps.some((s) => s.kind === 'rpc-reply' && s.rpc?.method.endsWith('/ControllerUnpublishVolume') && s.rpc.code !== 'OK');
    expect(failed).toBe(true);
    const unpublish = get('external-attacher').calls.find((r) => r.rpc === 'ControllerUnpublishVolume');
    expect(unpublish!.codes.filter((c) => c !== 'OK').length).toBeGreaterThan(0);
    expect(unpublish!.scenarios).toContain('ad-detach-backoff');
  });

  it('Events recorded, with the kind they are about', () => {
    expect(get('external-provisioner').events).toEqual(expect.arrayContaining([
      expect.objectContaining({ reason: 'ProvisioningSucceeded', type: 'Normal', involvedKind: 'PersistentVolumeClaim' }),
    ]));
    expect(get('attach-detach-controller').events.map((e) => e.reason)).toContain('SuccessfulAttachVolume');
  });

  it('step counts per scenario equal a direct count', () => {
    const trace = runScenario('provision', { k8s: '1.20' });
    const n = trace.steps.filter((s) => s.component === 'external-provisioner').length;
    expect(n).toBeGreaterThan(0);
    expect(get('external-provisioner').scenarios.find((s) => s.id === 'provision')?.steps['1.20']).toBe(n);
    // external-snapshotter acts in one flow only
    const snap = (id: string): number => runScenario(id, { k8s: '1.30' }).steps.filter((s) => s.component === 'external-snapshotter').length;
    expect(get('external-snapshotter').scenarios.map((s) => [s.id, s.steps['1.30']])).toEqual([['ceph-rbd-snapshot', snap('ceph-rbd-snapshot')], ['snapshot-restore', snap('snapshot-restore')]]);
  });
});

describe('componentFacts: log messages', () => {
  it('carries every message of a component catalog with both profiles\' templates', () => {
    const attacher = get('external-attacher');
    for (const id of Object.keys(attacherDescriptor.messages)) expect(attacher.messages.map((m) => m.id)).toContain(id);
    const attaching = attacher.messages.find((m) => m.id === 'externalAttacher.attaching')!;
    const def = catalog['externalAttacher.attaching']!;
    const f120 = attaching.formats.find((f) => f.profile === '1.20')!;
    const f130 = attaching.formats.find((f) => f.profile === '1.30')!;
    expect(f120).toMatchObject({ file: def.formats['1.20']!.file, line: def.formats['1.20']!.line, style: 'printf', template: def.formats['1.20']!.text });
    expect(f130.style).toBe('structured');
    expect(f130.template.startsWith(`"${def.formats['1.30']!.msg}"`)).toBe(true);
    expect(f130.defaultV).toBe(PROFILES['1.30'].verbosity['csi-attacher']);
  });

  it('records which stories print a line, matching a scan of the traces', () => {
    const mount = runScenario('mount', { k8s: '1.30' });
    const printed = new Set(mount.steps.filter((s) => s.component === 'kubelet' && s.msg).map((s) => s.msg!));
    expect(printed.size).toBeGreaterThan(0);
    for (const id of printed) expect(get('kubelet').messages.find((m) => m.id === id)?.seen['1.30'], id).toContain('mount');
    const notPrinted = get('kubelet').messages.filter((m) => !printed.has(m.id));
    for (const m of notPrinted) expect(m.seen['1.30']).not.toContain('mount');
  });

  it('a line above the program\'s default -v is never seen', () => {
    let checked = 0;
    for (const c of facts) {
      for (const m of c.messages) {
        for (const f of m.formats) {
          if (f.v > f.defaultV) {
            checked++;
            expect(m.seen[f.profile], `${m.id} ${f.profile}`).toEqual([]);
            expect(m.atStartup, `${m.id} ${f.profile}`).not.toContain(f.profile);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('tells lines printed only while the cluster starts from lines no run prints', () => {
    const full = runScenario('attach', { k8s: '1.20', warmUp: true });
    const story = runScenario('attach', { k8s: '1.20' });
    const startupOnly = [...new Set(full.steps.filter((s) => s.component === 'external-attacher' && s.msg).map((s) => s.msg!))]
      .filter((id) => !story.steps.some((s) => s.msg === id));
    expect(startupOnly).toContain('externalAttacher.version');
    const version = get('external-attacher').messages.find((m) => m.id === 'externalAttacher.version')!;
    expect(version.atStartup).toContain('1.20');
    expect(version.seen['1.20']).toEqual([]);
    const everPrinted = new Set(SCENARIOS.flatMap((s) => runScenario(s.id, { k8s: '1.30', warmUp: true }).steps.map((st) => st.msg)));
    for (const m of get('external-attacher').messages) {
      if (!everPrinted.has(m.id)) expect(m.atStartup.includes('1.30') || m.seen['1.30'].length > 0, m.id).toBe(false);
    }
  });

  it('adds library lines a component prints (client-go Events) as shared', () => {
    const ev = get('attach-detach-controller').messages.find((m) => m.id === 'event.recorded');
    expect(ev?.shared).toBe(true);
    expect(get('attach-detach-controller').messages.filter((m) => !m.shared).every((m) => m.id.startsWith('attachDetachController.'))).toBe(true);
  });
});

describe('maps derived from the facts', () => {
  it('kindFacts: VolumeAttachment is created and deleted by the A/D controller, patched by external-attacher, watched by the kubelet', () => {
    const va = kindFacts().find((k) => k.kind === 'VolumeAttachment')!;
    expect(va.writtenBy).toEqual(expect.arrayContaining([
      { component: 'attach-detach-controller', verbs: expect.arrayContaining(['create', 'delete']) },
      { component: 'external-attacher', verbs: expect.arrayContaining(['patch', 'patchStatus']) },
    ]));
    expect(va.watchedBy).toEqual(expect.arrayContaining(['attach-detach-controller', 'external-attacher', 'kubelet']));
    expect(kindFacts()[0]?.kind).toBe('PersistentVolumeClaim');
  });

  it('rpcSummaries: one row per RPC with callers and servers', () => {
    const rows = rpcSummaries();
    const methods = rows.map((r) => r.method);
    expect(new Set(methods).size).toBe(methods.length);
    expect(rows.find((r) => r.rpc === 'NodeStageVolume')).toMatchObject({ service: 'Node', callers: ['kubelet'], servers: ['csi-node-plugin'] });
    expect(rows.find((r) => r.rpc === 'CreateVolume')).toMatchObject({ service: 'Controller', callers: ['external-provisioner'] });
    expect(rows.find((r) => r.rpc === 'Probe')?.startupOnly).toBe(true);
  });

  it('parseMethod reads CSI and registration methods and rejects others', () => {
    expect(parseMethod('/csi.v1.Node/NodeStageVolume')).toEqual({ service: 'Node', rpc: 'NodeStageVolume' });
    expect(parseMethod('/pluginregistration.Registration/GetInfo')).toEqual({ service: 'Registration', rpc: 'GetInfo' });
    expect(parseMethod('/grpc.health.v1.Health/Check')).toBeUndefined();
  });

  it('is JSON-safe apart from the machines, and covers every scenario', () => {
    const plain = facts.map(({ machines, ...rest }) => ({ ...rest, machines: machines.map((m) => m.id) }));
    expect(JSON.parse(JSON.stringify(plain))).toEqual(plain);
    const acted = new Set(facts.flatMap((c) => c.scenarios.map((s) => s.id)));
    for (const s of SCENARIOS) expect(acted.has(s.id), s.id).toBe(true);
    const profiles: ProfileId[] = ['1.20', '1.30'];
    expect(facts.some((c) => c.scenarios.some((s) => profiles.every((p) => s.steps[p] !== undefined)))).toBe(true);
  });
});
