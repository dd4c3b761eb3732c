/**
 * Seed 002 (ad-detach-backoff) under each of the attach/detach controller's two changes alone, so
 * that each is pinned by a trace: the guard of kubernetes#104526 (1.23: no detach branch while a detach
 * is pending or backing off) and the Uncertain state after a failed detach of kubernetes#120595 (1.29).
 * The 1.30 profile has both; 1.20 neither, and there the controller's syncStates (every minute) is
 * what brings the volume back once its VolumeAttachment is gone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { firstStep, phaseAt, PROFILES, rpcCalls, runScenario, scenarioFile, scenarioFromManifests, type ScenarioSpec } from '../../src/machines/index.ts';

const p = PROFILES['1.30'];
const saved = { fix: p.adcDetachBackoffFix, uncertain: p.adcUncertainOnDetachFailure };
afterEach(() => { p.adcDetachBackoffFix = saved.fix; p.adcUncertainOnDetachFailure = saved.uncertain; });

const run = (fix: boolean, uncertain: boolean) => {
  p.adcDetachBackoffFix = fix;
  p.adcUncertainOnDetachFailure = uncertain;
  const t = runScenario('ad-detach-backoff', { k8s: '1.30' });
  const running = firstStep(t, { kind: 'api', summary: 'Running and Ready' });
  return { t, runningAt: running?.t, attaches: rpcCalls(t, 'ControllerPublishVolume').length };
};

describe('the attach/detach controller after a failed detach, one change at a time', () => {
  it('neither (1.20 behaviour): the volume is not reported until syncStates finds its VolumeAttachment gone (the detach finally succeeded), marks it detached and the controller attaches it again', () => {
    const r = run(false, false);
    const gone = firstStep(r.t, { msg: 'attachDetachController.volumesAreAttachedFailed' });
    const marked = firstStep(r.t, { msg: 'attachDetachController.volumeMarkedDetachedBySync' });
    const detached = rpcCalls(r.t, 'ControllerUnpublishVolume').filter((c) => c.code === 'OK')[0];
    expect(detached).toBeDefined();
    expect(gone!.t).toBeGreaterThan(detached!.t);
    // the sync runs on the minute (30 s warm-up: 90 s, 150 s of cluster time)
    expect(gone!.t - detached!.t).toBeLessThanOrEqual(60_000 + 100);
    expect(marked!.i).toBeGreaterThan(gone!.i);
    expect(r.attaches).toBe(1);
    expect(r.runningAt).toBeGreaterThan(marked!.t);
  });

  it('neither, with --disable-attach-detach-reconcile-sync (or an in-tree plugin whose cloud still reports the disk attached): the pod waits for good', () => {
    const file = scenarioFile('ad-detach-backoff', { k8s: '1.30' }).yaml.replace('  runFor:', '  flags: { attach-detach-controller: { disable-attach-detach-reconcile-sync: true } }\n  runFor:');
    p.adcDetachBackoffFix = false;
    p.adcUncertainOnDetachFailure = false;
    const t = runScenario(scenarioFromManifests(file), { k8s: '1.30' });
    expect(phaseAt(t, 'Pod', 'web-0')).toBe('Pending');
    expect(firstStep(t, { kind: 'api', summary: 'Running and Ready' })).toBeUndefined();
    expect(firstStep(t, { msg: 'attachDetachController.volumeMarkedDetachedBySync' })).toBeUndefined();
  });

  it('the kubernetes#104526 guard alone (1.23-1.28): the volume stays reported and the returning pod runs within seconds; then the external-attacher\'s retried detach takes the disk away under it, and only syncStates notices and attaches it again (the problem kubernetes#120595 fixed)', () => {
    const r = run(true, false);
    expect(r.runningAt).toBeLessThan(60_000);
    const detached = rpcCalls(r.t, 'ControllerUnpublishVolume').filter((c) => c.code === 'OK')[0]!;
    expect(detached.t).toBeGreaterThan(r.runningAt!);
    const marked = firstStep(r.t, { msg: 'attachDetachController.volumeMarkedDetachedBySync' })!;
    expect(marked.t).toBeGreaterThan(detached.t);
    expect(r.attaches).toBe(1);
  });

  it('the Uncertain state (kubernetes#120595, 1.29): the pod runs only after the failing detach ends and a new attach succeeds, with or without the guard', () => {
    for (const fix of [true, false]) {
      const r = run(fix, true);
      expect(r.runningAt).toBeGreaterThan(120_000);
      expect(r.attaches).toBe(1);
    }
  });
});

describe('force detach after maxWaitForUnmountDuration (6m)', () => {
  // a pod force-deleted on a healthy node whose volume cannot be unmounted: the kubelet keeps it in volumesInUse
  const spec: ScenarioSpec = {
    id: 'stuck-unmount',
    existing: [
      { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'disk.csi.example.com' },
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
      {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: 'app' },
        spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'busybox' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] },
      },
    ],
    actions: [{ at: '1s', do: 'delete', kind: 'Pod', name: 'app', gracePeriodSeconds: 0 }],
    faults: ['NodeUnpublishVolume=INTERNAL'],
    runFor: '8m',
  };
  const forced = (k8s: '1.20' | '1.30') => firstStep(runScenario(spec, { k8s }), { msg: 'attachDetachController.forceDetachStarted' });

  it('1.20 force-detaches from a healthy node whose kubelet still reports the volume in use', () => {
    const step = forced('1.20');
    expect(step).toBeDefined();
    expect(step!.t).toBeGreaterThan(6 * 60_000);
    expect(step!.args).toMatchObject({ node: 'node-1' });
  });

  it('1.30 never force-detaches from a healthy node (kubernetes#110721)', () => {
    expect(forced('1.30')).toBeUndefined();
  });
});

describe('1.20: a retried detach fails at once on the VolumeAttachment\'s stale detachError (waitForVolumeDetachmentInternal GETs it and verifies it before it watches)', () => {
  it('every retry after the first fails within milliseconds of its DELETE, on the controller\'s own backoff, not at the attacher\'s next error', () => {
    const t = runScenario('ad-detach-backoff', { k8s: '1.20' });
    const adc = t.steps.filter((s) => s.component === 'attach-detach-controller');
    const deletes = adc.filter((s) => s.api?.verb === 'delete' && s.api.kind === 'VolumeAttachment');
    const failures = adc.filter((s) => s.msg === 'attachDetachController.operationFailed' && /DetachVolume/.test(s.log ?? ''));
    expect(failures.length).toBeGreaterThanOrEqual(4);
    // the first waits for csi-attacher's first ControllerUnpublishVolume error (seconds); the later ones do not wait
    expect(failures[0]!.t - deletes[0]!.t).toBeGreaterThan(1000);
    for (const f of failures.slice(1)) {
      const d = deletes.filter((x) => x.i < f.i).at(-1)!;
      expect(f.t - d.t).toBeLessThan(50);
    }
    // and they follow the 500ms-doubling backoff: each attempt starts the doubled delay after the last failure
    const starts = adc.filter((s) => s.msg === 'attachDetachController.detachVolumeStarted');
    for (let i = 1; i < Math.min(starts.length, failures.length); i++) {
      const gap = starts[i]!.t - failures[i - 1]!.t;
      expect(gap).toBeGreaterThanOrEqual(500 * 2 ** (i - 1));
      expect(gap).toBeLessThan(500 * 2 ** (i - 1) + 150);
    }
  });
});

describe('the CSI attacher\'s lines when the VolumeAttachment it waits on has failed (csi_attacher.go verifyAttachmentStatus, verifyDetachmentStatus)', () => {
  const ops = (k8s: '1.20' | '1.30', id: string) => runScenario(id, { k8s }).steps.filter((s) => s.component === 'attach-detach-controller' && s.log);
  for (const k8s of ['1.20', '1.30'] as const) {
    it(`${k8s}: each failed detach logs the VolumeAttachment's detachError right before the operation's failure, each failed attach its attachError`, () => {
      const detach = ops(k8s, 'ad-detach-backoff');
      const failed = detach.map((s, i) => [s, i] as const).filter(([s]) => /nestedpendingoperations\.go:\d+\].*DetachVolume\.Detach failed/.test(s.log!));
      expect(failed.length).toBeGreaterThan(0);
      for (const [, i] of failed) expect(detach[i - 1]!.log).toMatch(/csi_attacher\.go:(646|723)\] kubernetes\.io\/csi: detachment for VolumeAttachment for volume \[disk-7bfqsft5\] failed: rpc error: code = Internal/);
      const attach = ops(k8s, 'attach-failure');
      const attachFailed = attach.map((s, i) => [s, i] as const).filter(([s]) => /nestedpendingoperations\.go:\d+\].*AttachVolume\.Attach failed/.test(s.log!));
      expect(attachFailed.length).toBeGreaterThan(0);
      for (const [, i] of attachFailed) expect(attach[i - 1]!.log).toMatch(/^E\d{4} .* csi_attacher\.go:(631|708)\] kubernetes\.io\/csi: attachment for \S+ failed: /);
    });
  }
  it('1.30: an attach that finds its VolumeAttachment being deleted says so before it fails ("volume attachment is being deleted")', () => {
    const steps = ops('1.30', 'ad-detach-backoff');
    const deleting = steps.map((s, i) => [s, i] as const).filter(([s]) => /volume attachment is being deleted/.test(s.log!) && /nestedpendingoperations/.test(s.log!));
    expect(deleting.length).toBeGreaterThan(0);
    for (const [, i] of deleting) expect(steps[i - 1]!.log).toMatch(/csi_attacher\.go:698\] kubernetes\.io\/csi: VolumeAttachment \[csi-[0-9a-f]{64}\] has deletion timestamp, will not continue to wait for attachment$/);
  });
});
