/**
 * RunOptions.driver: the what-if panel's "what if our driver needs no attach / does not stage?" on a
 * built-in scenario. The CSIDriver object and the node plugin's capabilities change; the machines
 * decide the rest (pkg/volume/csi csi_plugin.go skipAttach, csi_attacher.go MountDevice).
 */
import { describe, expect, it } from 'vitest';
import { runScenario, ScenarioError, type Trace } from '../../src/machines/index.ts';

const rpcsOf = (t: Trace): string[] => t.steps.flatMap((s) => (s.kind === 'rpc' && s.rpc ? [s.rpc.method.split('/').pop()!] : []));
const podRunning = (t: Trace): boolean => t.final.objects.some((o) => o.kind === 'Pod' && (o.status as { phase?: string } | undefined)?.phase === 'Running');
const kinds = (t: Trace): Set<string> => new Set(t.final.objects.map((o) => o.kind));

describe('RunOptions.driver', () => {
  it('attachRequired: false — no VolumeAttachment, no ControllerPublishVolume, and the pod still runs (skipAttach)', () => {
    const base = runScenario('attach', { k8s: '1.30' });
    expect(kinds(base).has('VolumeAttachment')).toBe(true);
    expect(rpcsOf(base)).toContain('ControllerPublishVolume');

    const t = runScenario('attach', { k8s: '1.30', driver: { attachRequired: false } });
    expect(kinds(t).has('VolumeAttachment')).toBe(false);
    expect(rpcsOf(t)).not.toContain('ControllerPublishVolume');
    expect(rpcsOf(t)).toEqual(expect.arrayContaining(['NodeStageVolume', 'NodePublishVolume']));
    expect(t.final.objects.find((o) => o.kind === 'CSIDriver')!.spec.attachRequired).toBe(false);
    expect(podRunning(t)).toBe(true);
    expect(t.options.driver).toEqual({ attachRequired: false });
  });

  it('stageUnstage: false — NodePublishVolume without NodeStageVolume; the attach is unchanged', () => {
    const t = runScenario('attach', { k8s: '1.30', driver: { stageUnstage: false } });
    const rpcs = rpcsOf(t);
    expect(rpcs).not.toContain('NodeStageVolume');
    expect(rpcs).toEqual(expect.arrayContaining(['ControllerPublishVolume', 'NodeGetCapabilities', 'NodePublishVolume']));
    expect(podRunning(t)).toBe(true);
  });

  it('stageUnstage: false — the kubelet\'s CSI attacher says it skips MountDevice, right before "MountDevice succeeded" (csi_attacher.go :320 / :380), and UnmountDevice (:527 / :630)', () => {
    for (const k8s of ['1.20', '1.30'] as const) {
      const logs = runScenario('no-attach', { k8s }).steps.filter((s) => s.component === 'kubelet' && s.log).map((s) => s.log!);
      const skip = logs.findIndex((l) => l.includes('kubernetes.io/csi: attacher.MountDevice STAGE_UNSTAGE_VOLUME capability not set. Skipping MountDevice...'));
      expect(skip, k8s).toBeGreaterThan(-1);
      expect(logs[skip]).toMatch(k8s === '1.20' ? /csi_attacher\.go:320\]/ : /csi_attacher\.go:380\]/);
      expect(logs[skip + 1]).toMatch(/MountVolume\.MountDevice succeeded/);
      const unskip = logs.findIndex((l) => l.includes('kubernetes.io/csi: attacher.UnmountDevice STAGE_UNSTAGE_VOLUME capability not set. Skipping UnmountDevice...'));
      expect(logs[unskip + 1], k8s).toMatch(/UnmountDevice succeeded/);
    }
  });

  it('a moved pod (1.20) with a driver that needs no attach: no detach, no attach, no unstage', () => {
    const t = runScenario('pod-migration', { k8s: '1.20', driver: { attachRequired: false, stageUnstage: false } });
    const rpcs = rpcsOf(t);
    for (const r of ['ControllerPublishVolume', 'ControllerUnpublishVolume', 'NodeStageVolume', 'NodeUnstageVolume']) expect(rpcs, r).not.toContain(r);
    expect(rpcs).toEqual(expect.arrayContaining(['NodeUnpublishVolume', 'NodePublishVolume']));
    // the warm-up, which attached the volume to the first node, makes no attachment either
    const base = runScenario('pod-migration', { k8s: '1.20' });
    expect(base.initial.objects.some((o) => o.kind === 'VolumeAttachment')).toBe(true);
    expect(t.initial.objects.some((o) => o.kind === 'VolumeAttachment')).toBe(false);
    expect(t.steps.some((s) => (s.objects ?? []).some((c) => c.kind === 'VolumeAttachment'))).toBe(false);
    expect(podRunning(t)).toBe(true);
  });

  it('changes nothing when told what the driver already does', () => {
    const plain = runScenario('attach', { k8s: '1.30' });
    const same = runScenario('attach', { k8s: '1.30', driver: { attachRequired: true, stageUnstage: true } });
    expect(same.steps.map((s) => s.log ?? s.summary)).toEqual(plain.steps.map((s) => s.log ?? s.summary));
  });

  it('a bad capability is a ScenarioError naming it', () => {
    expect(() => runScenario('attach', { driver: { attach: false } as never })).toThrow(new ScenarioError('options.driver.attach: unknown capability (known: attachRequired, stageUnstage)'));
    expect(() => runScenario('attach', { driver: { stageUnstage: 'no' } as never })).toThrow(new ScenarioError('options.driver.stageUnstage: must be true or false, not "no"'));
    expect(() => runScenario('attach', { driver: [] as never })).toThrow(ScenarioError);
  });
});
