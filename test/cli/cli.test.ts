/**
 * The CLI as users run it: the compiled bin (npm test builds dist/lib first), in a child process.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const bin = resolve(import.meta.dirname, '../../bin/csi-flows.mjs');
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const runWith = (input: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const dir = mkdtempSync(join(tmpdir(), 'csi-flows-cli-'));
const file = (name: string, text: string): string => { const p = join(dir, name); writeFileSync(p, text); return p; };

/** a StorageClass, a claim, a pod, and a Scenario document with one fault */
const SCENARIO = readFileSync(resolve(import.meta.dirname, '../fixtures/app-with-fault.yaml'), 'utf8');

describe('csi-flows scenarios', () => {
  it('lists every scenario the issue names, as JSON objects with id and title', () => {
    const r = run('scenarios', '--json');
    expect(r.code).toBe(0);
    const list = JSON.parse(r.out) as Array<{ id: string; title: string }>;
    expect(list.map((s) => s.id)).toEqual(expect.arrayContaining([
      'provision', 'attach', 'mount', 'teardown', 'pod-migration', 'multi-attach', 'force-detach', 'ad-detach-backoff',
      'wffc-provision', 'ceph-rbd-create', 'ceph-rbd-clone', 'ceph-rbd-delete', 'statefulset-rollout',
    ]));
    for (const s of list) expect(s.title.length).toBeGreaterThan(10);
  });

  it('prints a readable table without --json', () => {
    const r = run('scenarios');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^pod-migration\s+A StatefulSet pod moves/m);
  });
});

describe('csi-flows trace', () => {
  it('prints the merged klog with [component/host] tags, including seed 000\'s quirk on 1.20', () => {
    const r = run('trace', 'pod-migration', '--k8s', '1.20');
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    for (const l of lines) expect(l).toMatch(/^\[[\w-]+\/[\w.-]+\] /);
    expect(r.out).toMatch(/\[kubelet\/11\.142\.61\.164\] Jan 11 14:58:\d\d VM-61-164-centos kubelet\[21944\]: I0111 [\d:.]+ +21944 operation_generator\.go:869\] UnmountDevice succeeded for volume "pvc-4cde4524-6ba4-449c-891b-fe9ce8138e33" %!\(EXTRA string=/);
  });

  it('omits the tags with --no-tags', () => {
    const r = run('trace', 'provision', '--no-tags');
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toMatch(/^[IWE]\d{4} /);
  });

  it('gives the trace as JSON with steps[].summary, steps[].log and final.objects', () => {
    const r = run('trace', 'teardown', '--format', 'json');
    expect(r.code).toBe(0);
    const t = JSON.parse(r.out);
    expect(t.steps.every((s: { summary: string }) => typeof s.summary === 'string')).toBe(true);
    expect(t.steps.some((s: { log?: string }) => typeof s.log === 'string')).toBe(true);
    expect(Array.isArray(t.final.objects)).toBe(true);
  });

  it('writes --format json as it runs, byte for byte what JSON.stringify(trace, null, 2) gives (steps, faults, objects)', async () => {
    const { runScenario } = await import('../../dist/lib/machines/index.js');
    const cases: Array<[string[], Parameters<typeof runScenario>[1]]> = [
      [['statefulset-rollout', '--replicas', '3', '--k8s', '1.20'], { replicas: 3, k8s: '1.20' }],
      [['attach', '--fault', 'ControllerPublishVolume=DEADLINE_EXCEEDEDx2'], { faults: ['ControllerPublishVolume=DEADLINE_EXCEEDEDx2'] }],
    ];
    for (const [args, opts] of cases) {
      const r = run('trace', ...args, '--format', 'json');
      expect(r.code).toBe(0);
      expect(r.out).toBe(JSON.stringify(runScenario(args[0]!, opts), null, 2) + '\n');
    }
  });

  it('gives the sequence diagram as Mermaid', () => {
    const r = run('trace', 'attach', '--format', 'mermaid');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^sequenceDiagram\n/);
    expect(r.out).toMatch(/ControllerPublishVolume/);
  });

  it('injects faults: the first two ControllerPublishVolume calls time out and the attacher retries', () => {
    const r = run('trace', 'attach', '--format', 'json', '--fault', 'ControllerPublishVolume=DEADLINE_EXCEEDEDx2');
    expect(r.code).toBe(0);
    const t = JSON.parse(r.out);
    const results = t.steps.filter((s: { rpc?: { method: string; code?: string } }) => s.rpc?.method.endsWith('/ControllerPublishVolume') && s.rpc.code)
      .map((s: { rpc: { code: string } }) => s.rpc.code);
    expect(results.at(-1)).toBe('OK');
    const timeouts = t.steps.filter((s: { component: string; log?: string }) => s.component === 'external-attacher' && s.log && /Error processing|failed to attach/.test(s.log) && /code = DeadlineExceeded/.test(s.log));
    expect(timeouts).toHaveLength(2);
    expect(t.final.objects.find((o: { kind: string }) => o.kind === 'Pod').status.phase).toBe('Running');
  });

  it('gives byte-identical output for the same seed and another for another seed', () => {
    const a = run('trace', 'attach', '--seed', '9').out;
    expect(run('trace', 'attach', '--seed', '9').out).toBe(a);
    expect(run('trace', 'attach', '--seed', '10').out).not.toBe(a);
  });

  it('rolls out a StatefulSet of --replicas N', () => {
    const t = JSON.parse(run('trace', 'statefulset-rollout', '--replicas', '5', '--format', 'json').out);
    const pods = t.final.objects.filter((o: { kind: string }) => o.kind === 'Pod');
    expect(pods).toHaveLength(5);
    for (const p of pods) expect(p.spec.nodeName).toMatch(/^b-/);
  });

  it('--driver changes the driver: no ControllerPublishVolume without attach, no NodeStageVolume without STAGE_UNSTAGE', () => {
    const plain = run('trace', 'attach', '--no-tags').out;
    expect(plain).toContain('ControllerPublishVolume');
    expect(plain).toContain('NodeStageVolume');
    const r = run('trace', 'attach', '--no-tags', '--driver', 'attachRequired=false', '--driver', 'stageUnstage=false');
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('ControllerPublishVolume');
    expect(r.out).not.toContain('NodeStageVolume');
    expect(r.out).toContain('NodePublishVolume');
    expect(run('trace', 'attach', '--no-tags', '--driver', 'attachRequired=false,stageUnstage=false').out).toBe(r.out);
    expect(JSON.parse(run('trace', 'attach', '--driver', 'stageUnstage=false', '--format', 'json').out).options.driver).toEqual({ stageUnstage: false });
  });
});

describe('csi-flows with your own scenario file', () => {
  it('trace --file runs it, with the fault it declares hitting the story', () => {
    const r = run('trace', '--file', file('ok.yaml', SCENARIO), '--format', 'json');
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const t = JSON.parse(r.out);
    expect(t.scenario).toBe('my-app');
    expect(t.faults).toEqual([{ fault: 'NodeStageVolume=DEADLINE_EXCEEDEDx1', type: 'csi', fired: [expect.objectContaining({ step: expect.any(Number) })] }]);
    expect(t.final.objects.find((o: { kind: string }) => o.kind === 'Pod').status.phase).toBe('Running');
  });

  it('export prints a built-in scenario as a file that trace --file runs to the same trace, with a fault on top', () => {
    const exported = run('export', 'pod-migration', '--k8s', '1.20');
    expect(exported.code).toBe(0);
    expect(exported.out).toMatch(/^# A StatefulSet pod moves to another node/);
    const path = file('pod-migration.yaml', exported.out);
    expect(run('trace', '--file', path).out).toBe(run('trace', 'pod-migration', '--k8s', '1.20').out);
    expect(run('trace', '--file', path, '--fault', 'NodeStageVolume=INTERNALx1').out).toBe(run('trace', 'pod-migration', '--k8s', '1.20', '--fault', 'NodeStageVolume=INTERNALx1').out);
  });

  it('export refuses an unknown scenario, a bad version, replicas for a scenario without them and a missing id, exit 2', () => {
    expect(run('export', 'atach')).toMatchObject({ code: 2, out: '', err: expect.stringMatching(/^csi-flows: unknown scenario "atach" \(known: provision, /) });
    expect(run('export', 'attach', '--k8s', '1.25')).toMatchObject({ code: 2, err: 'csi-flows: unknown --k8s "1.25" (known: 1.20, 1.30)\n' });
    expect(run('export', 'attach', '--replicas', '3')).toMatchObject({ code: 2, err: 'csi-flows: scenario "attach" does not take replicas\n' });
    expect(run('export')).toMatchObject({ code: 2, err: 'csi-flows: export needs a scenario id (csi-flows scenarios lists them)\n' });
    expect(run('export', '--help')).toMatchObject({ code: 0, out: expect.stringContaining('usage: csi-flows export <scenario>') });
  });

  it('trace --file - reads standard input, and gives the same trace as the file', () => {
    const a = run('trace', '--file', file('same.yaml', SCENARIO));
    const b = runWith(SCENARIO, 'trace', '--file', '-');
    expect(b.code).toBe(0);
    expect(b.out).toBe(a.out);
    expect(a.out).toMatch(/NodeStageVolume/);
  });

  it('validate says what the file holds', () => {
    const r = run('validate', file('v.yaml', SCENARIO));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/OK, scenario "my-app" on Kubernetes 1\.30/);
    expect(r.out).toMatch(/at the start: StorageClass fast, PersistentVolumeClaim data, Pod app/);
    expect(r.out).toMatch(/driver: disk\.csi\.example\.com \(attach, stage\/unstage\)/);
  });

  it('a mistake is one line naming the file, the line, the document and the field, exit 2', () => {
    const bad = SCENARIO.replace('claimName: data', 'claimName: dta');
    for (const args of [['validate', file('bad.yaml', bad)], ['trace', '--file', file('bad.yaml', bad)]]) {
      const r = run(...args);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.trimEnd().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(/^csi-flows: .*bad\.yaml:29: document 3 \(Pod app\), spec\.volumes\[0\]\.persistentVolumeClaim\.claimName: no PersistentVolumeClaim "dta" in namespace default/);
    }
  });

  it('warns on stderr about a fault that never hit, and still prints the trace', () => {
    const r = run('trace', 'attach', '--fault', 'NodeExpandVolume=INTERNAL');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/ControllerPublishVolume/);
    expect(r.err).toMatch(/^csi-flows: warning: fault NodeExpandVolume=INTERNAL never hit.*\(check the RPC, node or time window\)/);
    // a host fault's hint says what makes the kubelet do that work at all
    const host = run('trace', 'fsgroup', '--fault', 'host:StatVolumeRoot=ESTALEx1');
    expect(host.code).toBe(0);
    expect(host.err).toMatch(/fault host:StatVolumeRoot=ESTALEx1 never hit: .*fsGroupChangePolicy: OnRootMismatch/);
  });
});

describe('csi-flows conventions', () => {
  it('--version prints the package version', () => {
    const r = run('--version');
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(`csi-flows ${JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')).version}`);
  });

  it.each([
    ['trace', ['--file', '--k8s', '--format', '--seed', '--replicas', '--fault', '--no-tags', 'DEADLINE_EXCEEDED', 'ControllerPublishVolume', 'api:', 'informer:', 'host:SetVolumeOwnership', 'example']],
    ['validate', ['example', '<file>:<line>']],
    ['explain', ['--json', '--base-url', 'example']],
    ['scenarios', ['--json', 'example']],
  ])('%s --help lists its flags with an example and the fault codes, exit 0', (command, words) => {
    const r = run(command as string, '--help');
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    for (const w of words as string[]) expect(r.out).toContain(w);
  });

  it('without a command: the usage on stderr, exit 2', () => {
    const r = run();
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/usage:/);
  });

  it('a failed write (a full disk) exits non-zero', () => {
    for (const args of [['scenarios'], ['trace', 'attach']]) {
      const r = spawnSync('sh', ['-c', `"${process.execPath}" "${bin}" ${args.join(' ')} > /dev/full`], { encoding: 'utf8' });
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(r.stderr).toMatch(/cannot write the output/);
    }
  });

  it('a large trace piped to another program is written as it is made, not held in memory (90 MB of JSON under a 64 MB heap)', () => {
    // process.stdout queued what the pipe could not take yet: the whole trace ended in the heap
    const r = spawnSync('sh', ['-c', `{ "${process.execPath}" --max-old-space-size=64 "${bin}" trace statefulset-rollout --replicas 300 --format json; echo "exit=$?" >&2; } | wc -c`], { encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr).toMatch(/exit=0/);
    expect(Number(r.stdout.trim())).toBeGreaterThan(64 * 1024 * 1024);
  }, 120_000);

  it('explain --base-url prints full step links', () => {
    const r = runWith(readFileSync(resolve(import.meta.dirname, '../corpus/15-kcm-multi-attach-linstor.log'), 'utf8'), 'explain', '-', '--json', '--base-url', 'https://csi-flows.example.org/docs');
    expect(r.code).toBe(0);
    const urls = (JSON.parse(r.out) as Array<{ step?: { url: string } }>).flatMap((l) => (l.step ? [l.step.url] : []));
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect(u).toMatch(/^https:\/\/csi-flows\.example\.org\/docs\/(flows|embed)\//);
  });
});

describe('csi-flows with bad input', () => {
  it.each([
    [['trace', 'nope'], /unknown scenario "nope"/],
    [['trace', 'attach', '--k8s', '1.99'], /unknown Kubernetes version "1\.99"/],
    [['trace', 'attach', '--format', 'xml'], /--format must be klog, json or mermaid/],
    [['trace', 'attach', '--bogus'], /Unknown option '--bogus'/],
    [['trace', 'attach', '--fault', 'ControllerPublishVolume'], /bad --fault/],
    [['trace', 'attach', '--fault', 'Frobnicate=ABORTED'], /unknown CSI RPC "Frobnicate"/],
    [['trace', 'attach', '--fault', 'NodeStageVolume=OOPS'], /unknown gRPC error code "OOPS"/],
    [['trace', 'attach', '--replicas', '3'], /does not take --replicas/],
    [['trace', 'attach', '--driver', 'attach=false'], /bad --driver "attach": unknown capability \(known: attachRequired, stageUnstage\)/],
    [['trace', 'attach', '--driver', 'stageUnstage=maybe'], /bad --driver "stageUnstage=maybe": expected <capability>=true\|false/],
    [['trace', 'statefulset-rollout', '--replicas', 'many'], /--replicas expects a non-negative integer/],
    [['trace'], /trace needs a scenario id/],
    [['trace', 'attach', '--file', 'x.yaml'], /not both/],
    [['trace', '--file', '/no/such.yaml'], /cannot read \/no\/such\.yaml: no such file/],
    [['validate'], /validate needs a scenario file/],
    [['validate', '/tmp'], /is a directory/],
    [['explain', 'x', '--base-url', 'nope'], /--base-url must be a full URL/],
    [['help', 'frob'], /no help for "frob"/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ])('%j exits 2 with one line on stderr', (args, message) => {
    const r = run(...(args as string[]));
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(message as RegExp);
  });
});

describe('csi-flows explain', () => {
  const runIn = (input: string | Buffer, ...args: string[]) => {
    const r = spawnSync(process.execPath, [bin, 'explain', ...args], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const seed = readFileSync(resolve(import.meta.dirname, '../../src/data/seeds/seed-000.log'), 'utf8')
    .split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t')[1]!);

  it('--json: one object per input line with line, component, stage, step, severity, explanation', () => {
    const input = [...seed.slice(0, 5), '', 'not a log line'].join('\n') + '\n';
    const r = runIn(input, '-', '--json');
    expect(r.code).toBe(0);
    const lines = JSON.parse(r.out) as Array<Record<string, unknown>>;
    expect(lines.length).toBe(7);
    lines.forEach((l, i) => {
      expect(l.line).toBe(i + 1);
      for (const k of ['component', 'stage', 'step', 'severity', 'explanation']) expect(l).toHaveProperty(k);
    });
    expect(lines[0]).toMatchObject({ component: 'kubelet', stage: 'unmount', severity: 'I' });
    expect(String((lines[0]!.step as { url: string }).url)).toMatch(/^\/flows\/teardown\/\?k8s=1\.20&step=\d+#player$/);
  });

  it('default output: an annotated listing and the summary', () => {
    const r = runIn(seed.join('\n'));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ 1  I unmount +kubelet/m);
    expect(r.out).toMatch(/^Summary$/m);
    expect(r.out).toMatch(/Stages seen: .*attach/);
  });

  it('unusable input exits 2 with one clear line and no stack trace', () => {
    for (const [input, args, msg] of [
      ['', ['-'], /empty/], [Buffer.from([0x1f, 0x8b, 0, 0, 0]), ['-'], /binary/], [Buffer.from([0x41, 0xff, 0x0a]), ['-'], /UTF-8/],
      ['x', ['/no/such/file.log'], /no such file/], ['x', ['a', 'b'], /one file/],
    ] as Array<[string | Buffer, string[], RegExp]>) {
      const r = runIn(input, ...args);
      // the message names the cause when it is not the expected one (stderr is one line either way)
      expect(r.code, `${String(args)}: ${r.err}`).toBe(2);
      expect(r.err).toMatch(msg);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).not.toMatch(/at .*\.js:\d+/);
    }
  });
});
