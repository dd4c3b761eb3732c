/**
 * The playground's examples (src/components/playground/examples/*.yaml): each is a valid scenario
 * that shows what its menu entry promises, and the command line runs it to the same trace
 * (`csi-flows trace --file <example>`, same default seed). Also: the ?s= link encoding round-trips,
 * and a link that cannot be read says why.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkInvariants, eventsOf, firstStep, objectAt, phaseAt, rpcCalls, runScenario, scenarioFromManifests, ScenarioError, type Trace,
} from '../../src/machines/index.ts';
import { EXAMPLES, exampleNote, STARTING_EXAMPLE } from '../../src/components/playground/examples.ts';
import { decodeScenario, encodeScenario, ShareError } from '../../src/components/playground/share.ts';

const dir = resolve(import.meta.dirname, '../../src/components/playground/examples');
const bin = resolve(import.meta.dirname, '../../bin/csi-flows.mjs');
const cliBuilt = existsSync(resolve(import.meta.dirname, '../../dist/lib/cli/main.js'));

const traces = new Map<string, Trace>();
const trace = (id: string): Trace => traces.get(id)!;
const yamlOf = (id: string): string => EXAMPLES.find((e) => e.id === id)!.yaml;

beforeAll(() => {
  for (const e of EXAMPLES) traces.set(e.id, runScenario(scenarioFromManifests(e.yaml)));
});

const pods = (t: Trace) => t.final.objects.filter((o) => o.kind === 'Pod').map((o) => ({ name: o.metadata.name, node: o.spec?.nodeName, phase: o.status?.phase }));
const attachments = (t: Trace) => t.final.objects.filter((o) => o.kind === 'VolumeAttachment').map((o) => ({ node: o.spec?.nodeName, attached: o.status?.attached }));

describe('the playground examples', () => {
  it('are the files of the examples folder, each with a comment saying what it shows, the starting one first', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
    expect(EXAMPLES.map((e) => `${e.id}.yaml`).sort()).toEqual(files);
    for (const e of EXAMPLES) {
      expect(e.yaml).toBe(readFileSync(resolve(dir, `${e.id}.yaml`), 'utf8'));
      expect(exampleNote(e.yaml).length, e.id).toBeGreaterThan(40);
      // short enough to read in the editor without scrolling much
      expect(e.yaml.split('\n').length, e.id).toBeLessThanOrEqual(60);
    }
    expect(STARTING_EXAMPLE.id).toBe('pod-with-claim');
  });

  it('each runs without a safety violation, to a flow long enough to step through', () => {
    for (const e of EXAMPLES) {
      const t = trace(e.id);
      expect(t.steps.length, e.id).toBeGreaterThan(50);
      expect(checkInvariants(t), e.id).toEqual([]);
      expect(t.title.length, e.id).toBeGreaterThan(10);
    }
  });

  it('pod-with-claim: the claim is provisioned and bound, attached (VolumeAttachment, ControllerPublishVolume) and mounted; the pod runs', () => {
    const t = trace('pod-with-claim');
    expect(t.k8s).toBe('1.30');
    expect(phaseAt(t, 'PersistentVolumeClaim', 'data')).toBe('Bound');
    expect(rpcCalls(t, 'CreateVolume').map((c) => c.code)).toEqual(['OK']);
    expect(rpcCalls(t, 'ControllerPublishVolume').map((c) => c.code)).toEqual(['OK']);
    expect(rpcCalls(t, 'NodeStageVolume').map((c) => c.code)).toEqual(['OK']);
    expect(rpcCalls(t, 'NodePublishVolume').map((c) => c.code)).toEqual(['OK']);
    expect(attachments(t)).toEqual([{ node: 'node-1', attached: true }]);
    expect(phaseAt(t, 'Pod', 'app')).toBe('Running');
  });

  it('no-attach: the CSIDriver says attachRequired: false, so no VolumeAttachment and no ControllerPublishVolume, and the pod still runs', () => {
    const t = trace('no-attach');
    expect(t.final.objects.find((o) => o.kind === 'CSIDriver')!.spec.attachRequired).toBe(false);
    expect(t.steps.some((s) => s.api?.kind === 'VolumeAttachment')).toBe(false);
    expect(attachments(t)).toEqual([]);
    expect(rpcCalls(t, 'ControllerPublishVolume')).toEqual([]);
    expect(rpcCalls(t, 'NodePublishVolume').map((c) => c.code)).toEqual(['OK']);
    expect(phaseAt(t, 'Pod', 'app')).toBe('Running');
  });

  it('rwx-two-nodes: one ReadWriteMany volume, attached to both nodes, both pods Running, no Multi-Attach error', () => {
    const t = trace('rwx-two-nodes');
    expect(t.final.objects.filter((o) => o.kind === 'PersistentVolume')).toHaveLength(1);
    expect(pods(t).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'writer-a', node: 'node-1', phase: 'Running' },
      { name: 'writer-b', node: 'node-2', phase: 'Running' },
    ]);
    expect(attachments(t).map((a) => a.node).sort()).toEqual(['node-1', 'node-2']);
    expect(attachments(t).every((a) => a.attached)).toBe(true);
    expect(eventsOf(t, 'FailedAttachVolume').filter((e) => /Multi-Attach/.test(e.message))).toEqual([]);
    expect(rpcCalls(t, 'NodePublishVolume').filter((c) => c.code === 'OK')).toHaveLength(2);
  });

  it('statefulset-move: the 3 pods run on node-1 at the start; after the cordon and the deletes each volume is unmounted, detached, attached to node-2 and mounted there', () => {
    const t = trace('statefulset-move');
    for (const n of ['web-0', 'web-1', 'web-2']) {
      expect(objectAt(t, 'Pod', n, 0)?.spec?.nodeName, n).toBe('node-1');
      expect(phaseAt(t, 'Pod', n, 0), n).toBe('Running');
    }
    // the cordon, then the deletes, are the reader's actions at their story time
    expect(objectAt(t, 'Node', 'node-1')!.spec?.unschedulable).toBe(true);
    expect(firstStep(t, { summary: /You delete Pod default\/web-0/ })!.t).toBe(10_000);
    expect(rpcCalls(t, 'NodeUnpublishVolume').map((c) => c.code)).toEqual(['OK', 'OK', 'OK']);
    expect(rpcCalls(t, 'ControllerUnpublishVolume').map((c) => c.code)).toEqual(['OK', 'OK', 'OK']);
    // detached from one node (node-1's instance), attached to one other
    const from = new Set(rpcCalls(t, 'ControllerUnpublishVolume').map((c) => c.request.node_id));
    const to = new Set(rpcCalls(t, 'ControllerPublishVolume').map((c) => c.request.node_id));
    expect([from.size, to.size]).toEqual([1, 1]);
    expect([...to][0]).not.toBe([...from][0]);
    expect(pods(t).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      ['web-0', 'web-1', 'web-2'].map((name) => ({ name, node: 'node-2', phase: 'Running' })),
    );
    expect(attachments(t)).toEqual([1, 2, 3].map(() => ({ node: 'node-2', attached: true })));
  });

  it('late-node-plugin: until node-1\'s node plugin registers at 20 s, each mount fails with the driver not registered and backs off; then the pod runs', () => {
    const t = trace('late-node-plugin');
    const failed = t.steps.filter((s) => s.log?.includes('driver name nfs.csi.example.com not found in the list of registered CSI drivers') && /durationBeforeRetry/.test(s.log));
    expect(failed.map((s) => /durationBeforeRetry (\S+)\)/.exec(s.log!)![1])).toEqual(['500ms', '1s', '2s', '4s', '8s', '16s']);
    expect(failed.every((s) => s.t < 20_000)).toBe(true);
    expect(firstStep(t, { msg: 'kubelet.registerPlugin' })!.t).toBeGreaterThanOrEqual(20_000);
    expect(rpcCalls(t, 'NodePublishVolume').map((c) => c.code)).toEqual(['OK']);
    expect(phaseAt(t, 'Pod', 'app')).toBe('Running');
  });

  it('node-shutdown: node-1 goes NotReady; the replacement pod meets a Multi-Attach error until the 6-minute force detach, then runs on node-2', () => {
    const t = trace('node-shutdown');
    expect(objectAt(t, 'Pod', 'db-0', 0)?.spec?.nodeName).toBe('node-1');
    expect(firstStep(t, { component: 'node-lifecycle-controller', summary: /Ready condition Unknown/ })!.t).toBeGreaterThan(10_000);
    const multi = eventsOf(t, 'FailedAttachVolume').filter((e) => /Multi-Attach/.test(e.message));
    expect(multi.length).toBeGreaterThan(0);
    const detach = rpcCalls(t, 'ControllerUnpublishVolume');
    expect(detach.map((c) => c.code)).toEqual(['OK']);
    // maxWaitForUnmountDuration: 6 minutes after the pod was deleted (at 1m)
    expect(detach[0]!.t).toBeGreaterThan(60_000 + 6 * 60_000);
    expect(pods(t)).toEqual([{ name: 'db-0', node: 'node-2', phase: 'Running' }]);
    expect(attachments(t)).toEqual([{ node: 'node-2', attached: true }]);
  });

  it('stage-fault: the first NodeStageVolume fails with INTERNAL (FailedMount), the retry succeeds, the pod runs', () => {
    const t = trace('stage-fault');
    expect(t.faults).toHaveLength(1);
    expect(t.faults[0]!.fault).toBe('NodeStageVolume=INTERNALx1');
    expect(t.faults[0]!.fired).toHaveLength(1);
    expect(rpcCalls(t, 'NodeStageVolume').map((c) => c.code)).toEqual(['INTERNAL', 'OK']);
    expect(eventsOf(t, 'FailedMount').length).toBeGreaterThan(0);
    expect(phaseAt(t, 'Pod', 'app')).toBe('Running');
  });

  it('csi-flows trace --file <example> --format json: the same steps as runScenario with the same (default) seed', () => {
    if (!cliBuilt) expect.fail('dist/lib/cli/main.js is missing: run npm run build:lib (npm test does), then this test again');
    for (const e of EXAMPLES) {
      const r = spawnSync(process.execPath, [bin, 'trace', '--file', resolve(dir, `${e.id}.yaml`), '--format', 'json'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      expect(r.status, `${e.id}: ${r.stderr}`).toBe(0);
      const cli = JSON.parse(r.stdout) as { seed: number; steps: Array<{ summary: string; t: number }> };
      const t = runScenario(scenarioFromManifests(e.yaml), { seed: cli.seed });
      expect(cli.seed, e.id).toBe(1);
      expect(cli.steps.length, e.id).toBe(t.steps.length);
      expect(cli.steps.length, e.id).toBe(trace(e.id).steps.length);
      expect(cli.steps.map((s) => s.summary), e.id).toEqual(t.steps.map((s) => s.summary));
    }
  });
});

describe('the playground, mistakes', () => {
  it('a claimName that does not exist: a ScenarioError at its line, naming the document and the field', () => {
    const text = yamlOf('pod-with-claim').replace('claimName: data', 'claimName: dta');
    const line = text.split('\n').findIndex((l) => l.includes('claimName: dta')) + 1;
    try {
      scenarioFromManifests(text);
      expect.fail('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioError);
      expect((e as ScenarioError).line).toBe(line);
      expect((e as Error).message).toMatch(new RegExp(`^line ${line}, document 3 \\(Pod app\\), spec\\.volumes\\[0\\]\\.persistentVolumeClaim\\.claimName: no PersistentVolumeClaim "dta"`));
    }
  });

  it('a YAML syntax error: a ScenarioError with a line', () => {
    const text = yamlOf('pod-with-claim').replace('  name: app\n', '  name: app\n  bad: [\n');
    try {
      scenarioFromManifests(text);
      expect.fail('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioError);
      expect((e as ScenarioError).line).toBeGreaterThan(0);
      expect((e as Error).message).toMatch(/not valid YAML/);
    }
  });
});

describe('the playground link (?s=)', () => {
  it('round-trips every example, in base64url (no +, / or =)', async () => {
    for (const e of EXAMPLES) {
      const s = await encodeScenario(e.yaml);
      expect(s).toMatch(/^[A-Za-z0-9_-]+$/);
      // deflated: a link much shorter than the text
      expect(s.length, e.id).toBeLessThan(e.yaml.length);
      expect(await decodeScenario(s)).toBe(e.yaml);
    }
    const text = 'metadata: { name: 数据 }\n# émoji 🚀\n';
    expect(await decodeScenario(await encodeScenario(text))).toBe(text);
  });

  it('a link that cannot be read says why (a ShareError), never a TypeError', async () => {
    const s = await encodeScenario(STARTING_EXAMPLE.yaml);
    for (const bad of ['', 'not base64!', s.slice(0, s.length / 2), 'AAAA']) {
      await expect(decodeScenario(bad), JSON.stringify(bad)).rejects.toBeInstanceOf(ShareError);
    }
  });

  it('a link that unpacks to more than 1 MiB is refused', async () => {
    const s = await encodeScenario('#'.repeat(2 * 1024 * 1024));
    expect(s.length).toBeLessThan(10_000);
    await expect(decodeScenario(s)).rejects.toThrow(/more than 1024 KiB/);
  });
});
