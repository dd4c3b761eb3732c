/**
 * The desired and actual state of world the kubelet and the attach/detach controller keep, as the
 * flow player shows them (captureWorld): what each table must say at the moments a reader looks.
 */
import { describe, expect, it } from 'vitest';
import { runScenario, type AdcWorld, type KubeletWorld, type Trace, type TraceStep } from '../../src/machines/index.ts';

const OLD = '11.142.61.164';
const NEW = '11.142.60.212';
const UNIQ = 'kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-adge0gvc';
const PV = 'pvc-4cde4524-6ba4-449c-891b-fe9ce8138e33';
const POD = 'default/weixin-zixun-l3-vob-rbu-online-6';

/** the component's world on the last step it recorded at or before `step` (null: as recording started) */
function worldAt<W>(t: Trace, instance: string, step: TraceStep | null): W {
  let w = t.worldsAtStart?.[instance];
  for (const s of t.steps) {
    if (!step || s.i > step.i) break;
    if (s.instance === instance && s.world !== undefined) w = s.world;
  }
  return w as W;
}

describe('state of world tables', () => {
  const t = runScenario('pod-migration', { k8s: '1.20', captureWorld: true });
  const find = (p: (s: TraceStep) => boolean) => t.steps.find(p)!;

  it('at the start: the old node\'s kubelet has the volume desired, reported in use and mounted for the pod', () => {
    const k = worldAt<KubeletWorld>(t, `kubelet/${OLD}`, null);
    expect(k.desired.find((d) => d.volume === UNIQ)).toEqual({ volume: UNIQ, pv: PV, pods: [POD], reportedInUse: true });
    expect(k.actual.find((a) => a.volume === UNIQ)).toMatchObject({ pv: PV, deviceState: 'DeviceGloballyMounted', pods: [{ pod: POD, state: 'VolumeMounted' }] });
    expect(k.volumesInUse).toContain(UNIQ);
    const adc = worldAt<AdcWorld>(t, 'attach-detach-controller', null);
    expect(adc.desired).toContainEqual({ node: OLD, volume: UNIQ, pods: [POD], multiAttachErrorReported: false });
    expect(adc.actual).toContainEqual({ volume: UNIQ, node: OLD, attachState: 'Attached', mountedByNode: true, detachRequestedTime: 0 });
    expect(adc.reportedAsAttached[OLD]).toContain(UNIQ);
  });

  it('after TearDown and UnmountDevice the old kubelet forgets the volume; the controller starts the detach and stops reporting it', () => {
    const unmounted = find((s) => s.msg === 'kubelet.volumeDetached' && s.host === OLD);
    const k = worldAt<KubeletWorld>(t, `kubelet/${OLD}`, unmounted);
    expect(k.desired.some((d) => d.volume === UNIQ)).toBe(false);
    expect(k.actual.some((a) => a.volume === UNIQ)).toBe(false);
    const detach = find((s) => s.msg === 'attachDetachController.detachVolumeStarted');
    const adc = worldAt<AdcWorld>(t, 'attach-detach-controller', detach);
    expect(adc.desired.some((d) => d.node === OLD && d.volume === UNIQ)).toBe(false);
    expect(adc.reportedAsAttached[OLD] ?? []).not.toContain(UNIQ);
    const a = adc.actual.find((x) => x.node === OLD && x.volume === UNIQ)!;
    expect(a.mountedByNode).toBe(false);
    expect(a.detachRequestedTime).toBeGreaterThan(0);
  });

  it('at the end: the new node has it attached, reported, staged and mounted for the pod, with no timers left', () => {
    const k = worldAt<KubeletWorld>(t, `kubelet/${NEW}`, t.steps.at(-1)!);
    expect(k.desired.find((d) => d.volume === UNIQ)).toEqual({ volume: UNIQ, pv: PV, pods: [POD], reportedInUse: true });
    expect(k.actual.find((a) => a.volume === UNIQ)).toMatchObject({ deviceState: 'DeviceGloballyMounted', pods: [{ pod: POD, state: 'VolumeMounted' }] });
    expect(k.volumesInUse).toContain(UNIQ);
    expect(k.timers.filter((x) => x.subject.includes(UNIQ) || x.subject.includes('weixin'))).toEqual([]);
    const adc = worldAt<AdcWorld>(t, 'attach-detach-controller', t.steps.at(-1)!);
    expect(adc.actual.filter((x) => x.volume === UNIQ)).toEqual([{ volume: UNIQ, node: NEW, attachState: 'Attached', mountedByNode: true, detachRequestedTime: 0 }]);
    expect(adc.reportedAsAttached[NEW]).toContain(UNIQ);
    // the new pod came after the old node's detach had started (1.20: the old pod is deleted at the status manager's
    // next syncBatch, ~10s after its volumes are gone): the pending detach holds the attach back before any Multi-Attach
    // check, and no Multi-Attach error is reported, as in seed 000, which quotes none
    expect(adc.desired).toContainEqual({ node: NEW, volume: UNIQ, pods: [POD], multiAttachErrorReported: false });
  });

  it('timers: the kubelet\'s backoff and the pod\'s 2m3s wait while a mount fails; the controller\'s 6 minutes before a force detach', () => {
    const f = runScenario('mount', { k8s: '1.30', captureWorld: true, faults: ['NodeStageVolume=INTERNALx1'] });
    const failed = f.steps.find((s) => s.msg === 'kubelet.operationFailed')!;
    const k = worldAt<KubeletWorld>(f, 'kubelet/node-1', failed);
    const backoff = k.timers.find((x) => x.name === 'durationBeforeRetry')!;
    expect(backoff.subject).toMatch(/^volume_mount kubernetes\.io\/csi\/com\.tencent\.cloud\.csi\.cbs\^disk-m7x2k9p4/);
    expect(backoff.endsAt - backoff.startedAt).toBe(500_000);
    const wait = k.timers.find((x) => x.name === 'podAttachAndMountTimeout')!;
    expect(wait.subject).toBe('pod default/web-0 waits for its volumes');
    expect(wait.endsAt - wait.startedAt).toBe(123_000_000);
    const ended = worldAt<KubeletWorld>(f, 'kubelet/node-1', f.steps.at(-1)!);
    expect(ended.timers.filter((x) => x.name === 'podAttachAndMountTimeout')).toEqual([]);

    const d = runScenario('force-detach', { k8s: '1.20', captureWorld: true });
    const waiting = d.steps.find((s) => s.instance === 'attach-detach-controller' && (s.world as AdcWorld | undefined)?.timers.some((x) => x.name === 'maxWaitForUnmountDuration'))!;
    const timer = (waiting.world as AdcWorld).timers.find((x) => x.name === 'maxWaitForUnmountDuration')!;
    expect(timer.subject).toBe('detach kubernetes.io/csi/com.tencent.cloud.csi.cbs^disk-p3s7u1x5 from node-1');
    expect(timer.endsAt - timer.startedAt).toBe(360_000_000);
  });
});
