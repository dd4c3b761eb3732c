/**
 * Every built-in scenario written as a scenario file (scenarioFile) runs, through the same path as a
 * team's own file (scenarioFromManifests + runScenario), to the built-in scenario's trace: the same
 * steps, the same log lines, byte for byte, in both profiles. The file format can say what the
 * chapters do; where it cannot (a chapter whose trace starts mid-story), the file says so.
 */
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { compileScenario, runScenario, scenarioFile, scenarioFromManifests, SCENARIOS, ScenarioError, type ProfileId } from '../../src/machines/index.ts';

const PROFILES: ProfileId[] = ['1.20', '1.30'];
const cases = SCENARIOS.flatMap((s) => PROFILES.filter((k) => !s.profiles || s.profiles.includes(k)).map((k8s) => [s.id, k8s] as const));

/** what a step shows a reader, without the scenario's id */
const shown = (steps: ReturnType<typeof runScenario>['steps']) => steps.map((s) => JSON.stringify(s));

describe('scenarioFile: a built-in scenario as a scenario file', () => {
  it.each(cases)('%s (%s) runs from its file to the same trace', (id, k8s) => {
    const file = scenarioFile(id, { k8s });
    const builtIn = runScenario(id, { k8s, recordObjects: false });
    const fromFile = runScenario(scenarioFromManifests(file.yaml), { k8s, recordObjects: false });
    expect(fromFile.scenario).toBe(id);
    if (file.differences.length === 0) {
      expect(shown(fromFile.steps)).toEqual(shown(builtIn.steps));
      expect(fromFile.durationMs).toBe(builtIn.durationMs);
    } else {
      // the chapter starts its trace in the middle of the story: the file shows the whole story,
      // and from the chapter's first line on, the same lines
      expect(file.differences.join(' ')).toMatch(/starts in the middle of the story, at the first "Controller attach succeeded for volume" line of kubelet/);
      // the chapter's clock starts at its first line: compare what the steps say, not their times
      const lines = (t: typeof builtIn) => t.steps.map((s) => `${s.component} ${s.kind} ${s.summary}`);
      const whole = lines(fromFile);
      const chapter = JSON.stringify(lines(builtIn));
      const from = whole.findIndex((_, i) => JSON.stringify(whole.slice(i, i + builtIn.steps.length)) === chapter);
      expect(from, 'the chapter\'s steps, in order, inside the whole story').toBeGreaterThan(0);
    }
  });

  it('the mount chapters are the only ones a file cannot carry whole, and their files say why in a comment', () => {
    const partial = SCENARIOS.filter((s) => scenarioFile(s.id).differences.length > 0).map((s) => s.id);
    expect(partial).toEqual(['mount', 'mount-failure', 'fsgroup']);
    const { yaml } = scenarioFile('mount');
    expect(yaml.split('\n').filter((l) => l.startsWith('#')).map((l) => l.slice(2)).join(' ')).toMatch(/the trace starts at the story's start/);
  });

  it('reads as a person would write it: a comment, the manifests, one Scenario document with story times and the sidecar flags', () => {
    const { yaml } = scenarioFile('pod-migration', { k8s: '1.20' });
    expect(yaml.startsWith('# A StatefulSet pod moves to another node (seed 000, cbs-csi).\n')).toBe(true);
    expect(yaml.split('\n').filter((l) => l.startsWith('#')).map((l) => l.slice(2)).join(' ')).toContain('npx csi-flows trace --file pod-migration.yaml');
    const docs = parseAllDocuments(yaml).map((d) => d.toJS() as { kind: string; spec?: Record<string, unknown> });
    expect(docs.map((d) => d.kind)).toEqual(['StorageClass', 'CSIDriver', 'StatefulSet', 'PersistentVolumeClaim', 'PersistentVolume', 'Pod', 'Scenario']);
    const spec = docs.at(-1)!.spec!;
    expect(spec).toMatchObject({
      k8s: '1.20', driver: 'cbs', existing: 'all', warmUp: '29.4s', runFor: '120.6s', start: '2023-01-11T14:58:07.600+08:00',
      timeZone: { offsetMin: 480, zone: 'CST' }, apiServerUrl: 'https://9.165.248.1:443',
      // the seed's throttled csi-attacher: its client-go limiter as the sidecar's flags
      flags: { 'external-attacher': { 'kube-api-qps': 5, 'kube-api-burst': 1 } },
    });
    expect((spec.actions as Array<Record<string, unknown>>)[0]).toMatchObject({ at: '100ms', patch: 'Node/11.142.61.164', with: { spec: { unschedulable: true } } });
    expect((spec.nodes as Array<Record<string, unknown>>)[0]).toMatchObject({ name: '11.142.61.164', hostname: 'VM-61-164-centos', kubeletUptime: '36h46m49.5s', nodeStatusOffset: '6s' });
  });

  it('faults in the CLI\'s text form when it says everything, as objects when they carry a message', () => {
    const doc = (id: string) => (parseAllDocuments(scenarioFile(id).yaml).at(-1)!.toJS() as { spec: { faults: unknown[] } }).spec.faults;
    expect(doc('provision-retry')).toEqual(['CreateVolume=DEADLINE_EXCEEDEDx2']);
    expect(doc('attach-failure')[1]).toMatchObject({ rpc: 'ControllerPublishVolume', code: 'INTERNAL', count: 1, message: expect.stringContaining('busy') });
  });

  it('an object deleted and created again in the story (ad-detach-backoff re-creates its StatefulSet) is written inline in its create action', () => {
    const spec = (parseAllDocuments(scenarioFile('ad-detach-backoff').yaml).at(-1)!.toJS() as { spec: { actions: Array<Record<string, unknown>> } }).spec;
    expect(spec.actions[2]).toMatchObject({ at: '45s', create: { kind: 'StatefulSet', metadata: { name: 'web' } } });
  });

  it('an unknown scenario and replicas for one that takes none are ScenarioErrors', () => {
    expect(() => scenarioFile('atach')).toThrow(ScenarioError);
    expect(() => scenarioFile('atach')).toThrow(/unknown scenario "atach" \(known: provision, /);
    expect(() => scenarioFile('attach', { replicas: 3 })).toThrow(/does not take replicas/);
    expect(scenarioFile('statefulset-rollout', { replicas: 4 }).yaml).toContain('replicas: 4');
  });
});

describe('the scenario file fields chapters need', () => {
  const base = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: { name: fast }
provisioner: disk.csi.example.com
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: data }
spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
---
apiVersion: v1
kind: Pod
metadata: { name: app }
spec:
  containers: [{ name: app, image: busybox }]
  volumes: [{ name: data, persistentVolumeClaim: { claimName: data } }]
---
apiVersion: csi-flows/v1
kind: Scenario
metadata: { name: flags }
spec:
`;
  const run = (extra: string) => runScenario(scenarioFromManifests(base + extra), { recordObjects: false });

  it('flags: --worker-threads and the client-go limiter reach the external-attacher', () => {
    // a burst of 1 at 1 request per second: the attacher's writes wait on its limiter, and client-go
    // says so (at V0 in 1.20's client-go; 1.30's prints it at V3)
    const throttled = run('  k8s: "1.20"\n  flags: { external-attacher: { kube-api-qps: 1, kube-api-burst: 1, worker-threads: 2 } }\n  runFor: 1m\n');
    const free = run('  k8s: "1.20"\n  runFor: 1m\n');
    const attached = (t: typeof free) => t.steps.findIndex((s) => s.component === 'external-attacher' && /attached/i.test(s.summary) && s.kind === 'api');
    expect(throttled.steps.some((s) => /Throttling request took/.test(s.log ?? ''))).toBe(true);
    expect(free.steps.some((s) => /Throttling request took/.test(s.log ?? ''))).toBe(false);
    expect(attached(free)).toBeGreaterThan(0);
    const data = compileScenario(scenarioFromManifests(base + '  flags: { external-attacher: { worker-threads: 2, kube-api-burst: 3 } }\n')).build({ k8s: '1.30', seed: 1, replicas: 1 });
    expect(data.componentInputs).toEqual({ 'external-attacher': { workerThreads: 2 } });
    // the flag not given keeps upstream's default
    expect(data.apiClients).toEqual({ 'external-attacher': { qps: 5, burst: 3 } });
  });

  it('flags: --extra-create-metadata names the claim and the PV in CreateVolume\'s parameters (off by default, as upstream)', () => {
    const params = (extra: string) => {
      const t = run(`  k8s: "1.30"\n${extra}  runFor: 30s\n`);
      return t.steps.find((s) => s.kind === 'rpc' && s.rpc?.method === '/csi.v1.Controller/CreateVolume')!.rpc!.request as { parameters?: Record<string, string> };
    };
    expect(params('').parameters?.['csi.storage.k8s.io/pvc/name']).toBeUndefined();
    const on = params('  flags: { external-provisioner: { extra-create-metadata: true } }\n').parameters!;
    expect(on['csi.storage.k8s.io/pvc/name']).toBe('data');
    expect(on['csi.storage.k8s.io/pvc/namespace']).toBe('default');
    expect(on['csi.storage.k8s.io/pv/name']).toMatch(/^pvc-[0-9a-f-]{36}$/);
  });

  it('flags: v is the process\'s klog -v: a line needing more is not printed, its Events still are; unset, the profile\'s level (sidecars 5, kubelet 2)', () => {
    const t5 = run('  k8s: "1.30"\n  runFor: 1m\n');
    const t1 = run('  k8s: "1.30"\n  flags: { external-provisioner: { v: 1 }, external-attacher: { v: 2 }, kubelet: { v: 0 } }\n  runFor: 1m\n');
    const lines = (t: typeof t5, c: string) => t.steps.filter((s) => s.log && s.component === c);
    // the klog header does not say the level: compare with the run at the profile's levels, which prints every line of t1 and more
    for (const c of ['external-provisioner', 'external-attacher', 'kubelet']) {
      expect(lines(t1, c).length, c).toBeLessThan(lines(t5, c).length);
      expect(lines(t1, c).length, c).toBeGreaterThan(0);
    }
    // at -v=1 csi-provisioner prints its Events (its broadcaster logs them at V0) and none of its V2+ lines, such as "Started"
    expect(lines(t1, 'external-provisioner').filter((s) => s.kind !== 'event' && s.severity === 'I').map((s) => s.log)).toEqual([]);
    expect(lines(t1, 'external-provisioner').filter((s) => s.kind === 'event')).toHaveLength(lines(t5, 'external-provisioner').filter((s) => s.kind === 'event').length);
    expect(lines(t5, 'external-provisioner').some((s) => s.msg === 'externalProvisioner.provisionStarted')).toBe(true);
    // the kubelet at 0: no "operationExecutor.MountVolume started" (klog.V(1) in 1.30, reconciler_common.go:220)
    expect(lines(t5, 'kubelet').some((s) => s.msg === 'kubelet.mountVolumeStarted')).toBe(true);
    expect(lines(t1, 'kubelet').some((s) => s.msg === 'kubelet.mountVolumeStarted')).toBe(false);
    // the kubelet's event broadcaster logs at V3: its Events show in its log from -v=3 on, not at the profile's 2
    // (a failed NodeStageVolume: the kubelet records FailedMount)
    const failing = (flags: string) => run(`  k8s: "1.30"\n${flags}  faults: [NodeStageVolume=INTERNALx1]\n  runFor: 1m\n`);
    const events = (t: typeof t5) => t.steps.filter((s) => s.kind === 'event' && s.component === 'kubelet');
    const at2 = failing(''), at3 = failing('  flags: { kubelet: { v: 3 } }\n');
    expect(events(at2).length).toBeGreaterThan(0);
    expect(events(at2).filter((s) => s.log)).toHaveLength(0);
    expect(events(at3).filter((s) => s.log)).toHaveLength(events(at3).length);
    // the same flow: only what is printed changed
    expect(t1.steps.filter((s) => s.kind === 'rpc').map((s) => s.rpc!.method)).toEqual(t5.steps.filter((s) => s.kind === 'rpc').map((s) => s.rpc!.method));
    // the flag goes round a scenario file
    expect(compileScenario(scenarioFromManifests(base + '  flags: { kubelet: { v: 4 } }\n')).build({ k8s: '1.30', seed: 1, replicas: 1 }).componentInputs).toEqual({ kubelet: { verbosity: 4 } });
  });

  it('flags and apiServerUrl refuse what is not simulated or not valid, naming the line', () => {
    const err = (extra: string) => { try { run(extra); } catch (e) { return String((e as Error).message); } return 'no error'; };
    expect(err('  flags: { external-attacher: { workers: 3 } }\n')).toMatch(/^line 22, .*flags\.external-attacher\.workers: external-attacher has no simulated flag --workers \(simulated: --worker-threads, --kube-api-qps, --kube-api-burst, --v\)/);
    expect(err('  flags: { external-attacher: { worker-threads: 0 } }\n')).toMatch(/must be a whole number of at least 1 \(upstream's default: 10\), not 0/);
    expect(err('  flags: { kubelet: { max-pods: 3 } }\n')).toMatch(/flags\.kubelet\.max-pods: kubelet has no simulated flag --max-pods \(simulated: --v\)/);
    expect(err('  flags: { kube-scheduler: { v: 3 } }\n')).toMatch(/no flags of "kube-scheduler" are simulated \(components with flags: attach-detach-controller, external-attacher, external-provisioner/);
    expect(err('  flags: { kubelet: { v: 11 } }\n')).toMatch(/flags\.kubelet\.v: must be a whole number from 0 to 10 \(upstream's default: 0; the simulation runs it at 2 unless a scenario sets it\), not 11/);
    // (10 is the highest level it takes; the client-go limiter's qps is a rate above 0, a fraction too)
    expect(err('  flags: { kubelet: { v: 10 }, node-driver-registrar: { v: 0 }, external-resizer: { v: 3 } }\n')).toBe('no error');
    expect(compileScenario(scenarioFromManifests(base + '  flags: { node-driver-registrar: { v: 0 }, external-resizer: { v: 3 } }\n')).build({ k8s: '1.30', seed: 1, replicas: 1 }).componentInputs)
      .toEqual({ 'node-driver-registrar': { verbosity: 0 }, 'external-resizer': { verbosity: 3 } });
    expect(err('  flags: { external-attacher: { kube-api-qps: 0.5 } }\n')).toBe('no error');
    for (const bad of ['0', '-1', '.inf', 'fast']) expect(err(`  flags: { external-attacher: { kube-api-qps: ${bad} } }\n`)).toMatch(/flags\.external-attacher\.kube-api-qps: must be a number above 0 \(upstream's default: 5\), not /);
    expect(err('  flags: { external-snapshotter: { extra-create-metadata: 3 } }\n')).toMatch(/must be true or false \(upstream's default: false\), not 3/);
    expect(err('  flags: { external-provisioner: { v: 2.5 } }\n')).toMatch(/flags\.external-provisioner\.v: must be a whole number from 0 to 10 \(upstream's default: 0; the simulation runs it at 5 unless a scenario sets it\), not 2\.5/);
    expect(err('  flags: { external-provisioner: { strict-topology: yes } }\n')).toMatch(/must be true or false/);
    expect(err('  apiServerUrl: 10.0.0.1\n')).toMatch(/apiServerUrl: must be the API server's URL/);
    expect(err('  nodes: [{ name: node-1, nodeStatusOffset: 12s }]\n')).toMatch(/nodes\[0\]\.nodeStatusOffset: must be at least 0 and under 10s/);
    expect(err('  nodes: [{ name: node-1, nodeStatusOffset: soon }]\n')).toMatch(/nodes\[0\]\.nodeStatusOffset: must be milliseconds or a duration \(e\.g\. 6s\), not "soon"/);
    expect(err('  nodes: [node-1, { name: node-2, internalIP: node-2.local }]\n')).toMatch(/nodes\[1\]\.internalIP: must be an IPv4 address \(e\.g\. 10\.0\.1\.11\), not "node-2\.local"/);
  });

  it('internalIP is the Node\'s InternalIP and its pods\' hostIP; by default 10.0.1.11, 10.0.1.12, … in the list\'s order, or the name when it is an IP', () => {
    const ips = (nodes: string) => {
      const t = runScenario(scenarioFromManifests(base + `  k8s: "1.30"\n  nodes: ${nodes}\n  runFor: 1m\n`));
      const objects = t.final.objects;
      const nodeIPs = objects.filter((o) => o.kind === 'Node').map((o) => `${o.metadata.name}=${o.status.addresses.find((a: { type: string }) => a.type === 'InternalIP').address}`);
      const app = objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'app')!;
      return { nodeIPs, pod: `${app.spec.nodeName} ${app.status.hostIP} ${JSON.stringify(app.status.hostIPs)}` };
    };
    expect(ips('[node-1, node-2]').nodeIPs).toEqual(['node-1=10.0.1.11', 'node-2=10.0.1.12']);
    const given = ips('[{ name: node-1, internalIP: 192.168.7.21 }, 172.16.0.4]');
    expect(given.nodeIPs.sort()).toEqual(['172.16.0.4=172.16.0.4', 'node-1=192.168.7.21']);
    expect(['node-1 192.168.7.21 [{"ip":"192.168.7.21"}]', '172.16.0.4 172.16.0.4 [{"ip":"172.16.0.4"}]']).toContain(given.pod);
    // a Node manifest's own InternalIP is kept
    const t = runScenario(scenarioFromManifests(base.replace('apiVersion: csi-flows/v1', 'apiVersion: v1\nkind: Node\nmetadata: { name: worker-a }\nstatus: { addresses: [{ type: InternalIP, address: 10.20.30.40 }] }\n---\napiVersion: csi-flows/v1') + '  k8s: "1.30"\n  runFor: 1m\n'));
    expect(t.final.objects.find((o) => o.kind === 'Pod')!.status.hostIP).toBe('10.20.30.40');
  });

  it('nodeStatusOffset places the kubelet\'s node status updates within each 10s', () => {
    const updates = (offset: string) => runScenario(scenarioFromManifests(base + `  nodes: [{ name: node-1, nodeStatusOffset: ${offset} }, node-2]\n  runFor: 30s\n`), { recordObjects: false, warmUp: true })
      .steps.filter((s) => s.component === 'kubelet' && s.host === 'node-1' && s.api?.verb === 'patchStatus' && s.api.kind === 'Node' && s.t > 1000)
      .map((s) => Math.round(s.t) % 10_000);
    // with warmUp the times count from the cluster's start, where the 10s periods begin (the status the kubelet
    // writes as it starts, before its first period, aside)
    expect(new Set(updates('2s').map((t) => Math.floor(t / 1000)))).toEqual(new Set([2]));
    expect(new Set(updates('7500ms').map((t) => Math.floor(t / 500)))).toEqual(new Set([15]));
  });

  it('apiServerUrl shows in the URLs client-go prints; kubeletUptime in the kubelet\'s m=+ reading', () => {
    const t = runScenario(scenarioFromManifests(base + '  apiServerUrl: https://192.168.0.10:6443\n  flags: { external-attacher: { kube-api-qps: 1, kube-api-burst: 1 } }\n  runFor: 1m\n'), { recordObjects: false });
    expect(t.steps.some((s) => (s.log ?? '').includes('https://192.168.0.10:6443/apis/storage.k8s.io/v1/volumeattachments/'))).toBe(true);
    const uptime = (up: string) => {
      const tr = runScenario(scenarioFromManifests(base + `  nodes: [{ name: node-1, kubeletUptime: ${up} }, node-2]\n  faults: [NodeStageVolume=INTERNALx1]\n  runFor: 1m\n`), { recordObjects: false });
      const line = tr.steps.find((s) => s.component === 'kubelet' && / m=\+/.test(s.log ?? ''))?.log ?? '';
      return Number(/ m=\+(\d+)/.exec(line)?.[1]);
    };
    // the monotonic reading the kubelet prints in a backoff's "No retries permitted until …" grows by the uptime given
    expect(uptime('10h') - uptime('1h')).toBe(9 * 3600);
  });
});
