/**
 * ReadWriteOncePod (GA 1.29): the scheduler's VolumeRestrictions plugin keeps a second pod of the claim off every node
 * while the first is scheduled (v1.30.1 plugins/volumerestrictions/volume_restrictions.go :55, :225-239, :279-287); the
 * preemption that follows finds no victim among pods of the same priority (defaultpreemption/default_preemption.go :180).
 */
import { describe, expect, it } from 'vitest';
import { runScenario, scenarioFromManifests } from '../../src/machines/index.ts';
import { volumeCapability } from '../../src/machines/external-attacher/helpers.ts';

const file = (mode: string, o: { deleteFirstAt?: string } = {}) => [
  'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: { name: fast }\nprovisioner: disk.csi.example.com',
  `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: { name: data }\nspec: { accessModes: [${mode}], storageClassName: fast, resources: { requests: { storage: 1Gi } } }`,
  ...['app', 'app2'].map((p) => `apiVersion: v1\nkind: Pod\nmetadata: { name: ${p} }\nspec:\n  containers: [{ name: app, image: busybox }]\n  volumes: [{ name: data, persistentVolumeClaim: { claimName: data } }]`),
  `apiVersion: csi-flows/v1\nkind: Scenario\nmetadata: { name: rwop }\nspec:\n  k8s: "1.30"\n  runFor: 60s\n${o.deleteFirstAt ? `  actions:\n    - { at: ${o.deleteFirstAt}, delete: Pod/app }\n` : ''}`,
].join('\n---\n');
type Trace = ReturnType<typeof runScenario>;
const podOf = (t: Trace, name: string) => t.final.objects.find((o) => o.kind === 'Pod' && o.metadata.name === name);
const failures = (t: Trace, pod: string) => t.steps.filter((s) => s.kind === 'event' && /FailedScheduling/.test(s.summary) && s.summary.includes(`Pod default/${pod}:`));

describe('a ReadWriteOncePod claim used by two pods (1.30)', () => {
  it('the second pod stays Pending with the VolumeRestrictions reason on every node, and no victim for preemption', () => {
    const t = runScenario(scenarioFromManifests(file('ReadWriteOncePod')));
    const running = ['app', 'app2'].filter((p) => podOf(t, p)?.status?.phase === 'Running');
    expect(running).toHaveLength(1);
    const waiting = running[0] === 'app' ? 'app2' : 'app';
    expect(podOf(t, waiting)!.spec.nodeName).toBeUndefined();
    // (first it waits, as the other pod does, for the claim to be bound: "pod has unbound immediate PersistentVolumeClaims")
    const failed = failures(t, waiting).find((s) => s.summary.includes('ReadWriteOncePod'));
    expect(failed!.summary).toContain('0/2 nodes are available: 2 node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.');
  });

  it('once the first pod is gone the second is scheduled and runs', () => {
    const t = runScenario(scenarioFromManifests(file('ReadWriteOncePod', { deleteFirstAt: '20s' })));
    expect(podOf(t, 'app')).toBeUndefined();
    expect(podOf(t, 'app2')!.status.phase).toBe('Running');
    expect(failures(t, 'app2').length).toBeGreaterThan(0);
  });

  it('a ReadWriteOnce claim does not stop the second pod: both run (on one node: the volume is attached once)', () => {
    const t = runScenario(scenarioFromManifests(file('ReadWriteOnce')));
    expect(['app', 'app2'].map((p) => failures(t, p).some((s) => s.summary.includes('ReadWriteOncePod')))).toEqual([false, false]);
  });
});

describe('csi-attacher\'s access mode for ControllerPublishVolume (GetVolumeCapabilities)', () => {
  const pv = (accessModes: string[]) => ({ accessModes, csi: { driver: 'd', volumeHandle: 'v', fsType: 'ext4' } });
  const mode = (r: ReturnType<typeof volumeCapability>) => ('cap' in r ? (r.cap.access_mode as { mode: number }).mode : r.error);
  it('v4.x (csi-lib-utils accessmodes): ReadWriteOncePod alone is SINGLE_NODE_WRITER (1), or SINGLE_NODE_SINGLE_WRITER (6) for a SINGLE_NODE_MULTI_WRITER driver, whose ReadWriteOnce is SINGLE_NODE_MULTI_WRITER (7)', () => {
    expect(mode(volumeCapability(pv(['ReadWriteOncePod']), '', 'csi-lib-utils'))).toBe(1);
    expect(mode(volumeCapability(pv(['ReadWriteOncePod']), '', 'csi-lib-utils', true))).toBe(6);
    expect(mode(volumeCapability(pv(['ReadWriteOnce']), '', 'csi-lib-utils', true))).toBe(7);
    expect(mode(volumeCapability(pv(['ReadWriteOnce']), '', 'csi-lib-utils'))).toBe(1);
    expect(mode(volumeCapability(pv(['ReadWriteOncePod', 'ReadWriteOnce']), '', 'csi-lib-utils'))).toBe('Kubernetes does not support use of ReadWriteOncePod with other access modes on the same PersistentVolume');
  });
  it('v3.1.0 knows no ReadWriteOncePod, and maps ReadWriteOnce to SINGLE_NODE_WRITER whatever the driver says', () => {
    expect(mode(volumeCapability(pv(['ReadWriteOncePod']), 'ext4', 'v3'))).toBe('unsupported AccessMode combination: [ReadWriteOncePod]');
    expect(mode(volumeCapability(pv(['ReadWriteOnce']), 'ext4', 'v3', true))).toBe(1);
  });
});

describe('ReadWriteOncePod on 1.20', () => {
  it('the 1.20 API server refuses a claim that names it, as its validation does: the create fails (kubectl apply would say so), the pods find no claim', () => {
    const t = runScenario(scenarioFromManifests(file('ReadWriteOncePod').replace('k8s: "1.30"', 'k8s: "1.20"')));
    const create = t.steps.find((s) => s.api?.verb === 'create' && s.api.kind === 'PersistentVolumeClaim')!;
    expect([create.kind, create.api!.code]).toEqual(['user', 422]);
    expect(create.summary).toContain('PersistentVolumeClaim "data" is invalid: spec.accessModes: Unsupported value: "ReadWriteOncePod": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"');
    expect(t.final.objects.some((o) => o.kind === 'PersistentVolumeClaim')).toBe(false);
    expect(t.steps.some((s) => s.kind === 'event' && s.summary.includes('persistentvolumeclaim "data" not found'))).toBe(true);
    // on 1.30 the same claim is created
    expect(runScenario(scenarioFromManifests(file('ReadWriteOncePod'))).final.objects.some((o) => o.kind === 'PersistentVolumeClaim')).toBe(true);
  });
});
