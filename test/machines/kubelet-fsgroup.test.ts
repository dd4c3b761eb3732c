/**
 * A pod's fsGroup: after NodePublishVolume the kubelet's CSI mounter gives every file of the volume the pod's group
 * itself (SetVolumeOwnership), when the CSIDriver's fsGroupPolicy lets it (csi_mounter.go supportsFSGroup, getFSGroupPolicy;
 * pkg/volume/volume_linux.go SetVolumeOwnership). The walk is work on the node's file system: a host.call the test finishes.
 */
import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/machines/index.ts';
import { DRIVER, HANDLE, NODE, PV, STAGE_CAPS, answerCaps, kubeletUpTo, pod, pv, pvc } from './kubelet.fixtures.ts';

type H = ReturnType<typeof kubeletUpTo>;
const DIR = `/var/lib/kubelet/pods/uid-web-0/volumes/kubernetes.io~csi/${PV}/mount`;
const withFsGroup = (p: K8sObject, fsGroup = 2000): K8sObject => ({ ...p, spec: { ...p.spec, securityContext: { fsGroup } } });
const csiDriver = (fsGroupPolicy: string): K8sObject => ({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: DRIVER }, spec: { attachRequired: true, fsGroupPolicy } });
const msgs = (h: H): string[] => h.logs().map((l) => l.msg);

/** Up to NodePublishVolume answered OK (MountDevice first). */
function published(o: Parameters<typeof kubeletUpTo>[1] = {}): H {
  const h = kubeletUpTo(true, { podObject: withFsGroup(pod('web-0', NODE)), ...o });
  h.reply(h.csiCalls('NodeStageVolume').at(-1)!, 'OK');
  // (1.20 reads the claim after MountDevice, for an expansion left to finish: none here)
  h.serve([pvc]);
  answerCaps(h, STAGE_CAPS);
  h.reply(h.csiCalls('NodePublishVolume').at(-1)!, 'OK');
  return h;
}

describe('SetUp gives the volume\'s files the pod\'s fsGroup itself (csi_mounter.go SetUpAt :334-347 on 1.30, :269-280 on 1.20)', () => {
  for (const profile of ['1.20', '1.30'] as const) {
    it(`${profile}: SetVolumeOwnership walks the pod's volume directory after NodePublishVolume; SetUp succeeds only when the walk ends`, () => {
      const h = published({ profile });
      expect(h.hostCalls('SetVolumeOwnership').map((c) => c.path)).toEqual([DIR]);
      // skipPermissionChange's -v=4 line (fsGroupChangePolicy Always, the default); no SetUp succeeded yet
      expect(h.logs().find((l) => l.msg === 'kubelet.recursiveOwnershipChange')?.args).toEqual({ dir: DIR });
      expect(msgs(h)).not.toContain('kubelet.setUpSucceeded');
      h.finish(h.hostCalls()[0]!);
      const after = msgs(h);
      expect(after.indexOf('kubelet.fsGroupApplied')).toBeGreaterThan(-1);
      expect(after.indexOf('kubelet.setUpSucceeded')).toBeGreaterThan(after.indexOf('kubelet.fsGroupApplied'));
      expect(h.logs().find((l) => l.msg === 'kubelet.fsGroupApplied')?.args).toEqual({ fsGroup: '2000', handle: HANDLE });
    });
  }

  it('30 s into the walk its timer warns that it is slow (volume_linux.go:49); a walk done sooner stops the timer', () => {
    const slow = published();
    slow.advance(29_900);
    expect(msgs(slow)).not.toContain('kubelet.setVolumeOwnershipSlow');
    slow.advance(200);
    expect(slow.logs().filter((l) => l.msg === 'kubelet.setVolumeOwnershipSlow').map((l) => l.args)).toEqual([{ dir: DIR }]);
    const quick = published();
    quick.advance(5_000);
    quick.finish(quick.hostCalls()[0]!);
    quick.advance(60_000);
    expect(msgs(quick)).not.toContain('kubelet.setVolumeOwnershipSlow');
  });

  it('a failed walk is an uncertain error: FailedMount "applyFSGroup failed for vol …", the pod\'s mount uncertain, NodePublishVolume again after the backoff', () => {
    const h = published();
    h.finish(h.hostCalls()[0]!, `readdirent ${DIR}: input/output error`);
    const err = String(h.logs().filter((l) => l.msg === 'kubelet.operationFailed').at(-1)!.args.err);
    expect(err).toMatch(new RegExp(`^MountVolume\\.SetUp failed for volume "${PV}" .* : applyFSGroup failed for vol ${HANDLE}: readdirent ${DIR.replace(/[.~]/g, '\\$&')}: input/output error$`));
    expect(h.events('FailedMount').map((e) => e.message)).toEqual([`MountVolume.SetUp failed for volume "${PV}" : applyFSGroup failed for vol ${HANDLE}: readdirent ${DIR}: input/output error`]);
    expect(msgs(h)).not.toContain('kubelet.setUpSucceeded');
    // the actual state of world's record of the pod's mount (its lifecycle machine): uncertain, for it is mounted
    const states = h.emitted.filter((e) => e.type === 'states.changed').flatMap((e) => Object.entries((e as { states: Record<string, string> }).states));
    expect(states.at(-1)).toEqual([`volume kubernetes.io/csi/${DRIVER}^${HANDLE} pod default/web-0`, 'VolumeMountUncertain']);
    // the next MountVolume publishes again (the device is mounted: no NodeStageVolume) and walks again
    const publishes = h.csiCalls('NodePublishVolume').length;
    h.advanceUntil(() => h.csiCalls('NodePublishVolume').length > publishes || h.pending().some((p) => p.type === 'csi.call' && p.rpc === 'NodeGetCapabilities'), 10_000);
    answerCaps(h, STAGE_CAPS);
    expect(h.csiCalls('NodeStageVolume')).toHaveLength(1);
    h.reply(h.csiCalls('NodePublishVolume').at(-1)!, 'OK');
    expect(h.hostCalls()).toHaveLength(2);
    h.finish(h.hostCalls()[1]!);
    expect(msgs(h)).toContain('kubelet.setUpSucceeded');
  });
});

describe('fsGroupChangePolicy OnRootMismatch: the top directory first (skipPermissionChange, requiresPermissionChange: v1.30.1 volume_linux.go:107-156)', () => {
  const onRootMismatch = (p: K8sObject): K8sObject => ({ ...p, spec: { ...p.spec, securityContext: { fsGroup: 2000, fsGroupChangePolicy: 'OnRootMismatch' } } });
  for (const profile of ['1.20', '1.30'] as const) {
    it(`${profile}: a top directory of another group: "expected group ownership … did not match", then the walk (no "perform recursive" line)`, () => {
      const h = published({ profile, podObject: onRootMismatch(pod('web-0', NODE)) });
      const stat = h.hostCalls('StatVolumeRoot');
      expect(stat.map((c) => [c.path, c.fsGroup])).toEqual([[DIR, 2000]]);
      expect(h.hostCalls('SetVolumeOwnership')).toEqual([]);
      h.finish(stat[0]!, { rootGid: 0 });
      expect(h.logs().filter((l) => l.msg === 'kubelet.volumeRootGidMismatch').map((l) => l.args)).toEqual([{ dir: DIR, gid: '0' }]);
      expect(msgs(h)).not.toContain('kubelet.recursiveOwnershipChange');
      h.finish(h.hostCalls('SetVolumeOwnership')[0]!);
      expect(msgs(h)).toContain('kubelet.setUpSucceeded');
    });
  }
  it('a top directory with the group and mode: "Skipping permission and ownership change", no walk, SetUp done at once', () => {
    const h = published({ podObject: onRootMismatch(pod('web-0', NODE)) });
    h.finish(h.hostCalls('StatVolumeRoot')[0]!, { rootGid: 2000, rootModeOk: true });
    expect(h.hostCalls('SetVolumeOwnership')).toEqual([]);
    const after = msgs(h);
    expect(after.filter((m) => ['kubelet.skipPermissionChange', 'kubelet.fsGroupApplied', 'kubelet.setUpSucceeded'].includes(m))).toEqual(['kubelet.skipPermissionChange', 'kubelet.fsGroupApplied', 'kubelet.setUpSucceeded']);
  });
  for (const profile of ['1.20', '1.30'] as const) {
    it(`${profile}: a stat of the top directory that fails is only logged (E, with its error): requiresPermissionChange answers true and the kubelet walks anyway (volume_linux.go:116-120)`, () => {
      const h = published({ profile, podObject: onRootMismatch(pod('web-0', NODE)) });
      const before = msgs(h).length;
      h.finish(h.hostCalls('StatVolumeRoot')[0]!, `stat ${DIR}: stale NFS file handle`);
      expect(h.logs().filter((l) => l.msg === 'kubelet.volumeRootStatFailed').map((l) => l.args)).toEqual([{ dir: DIR, err: `stat ${DIR}: stale NFS file handle` }]);
      // not an error of the operation: nothing fails, no mismatch line
      expect(msgs(h).slice(before)).toEqual(['kubelet.volumeRootStatFailed']);
      expect(h.hostCalls('SetVolumeOwnership').map((c) => c.path)).toEqual([DIR]);
      h.finish(h.hostCalls('SetVolumeOwnership')[0]!);
      expect(msgs(h)).toContain('kubelet.setUpSucceeded');
    });
  }
  it('the group but not the mode: "mismatching mode", then the walk', () => {
    const h = published({ podObject: onRootMismatch(pod('web-0', NODE)) });
    h.finish(h.hostCalls('StatVolumeRoot')[0]!, { rootGid: 2000, rootModeOk: false });
    expect(msgs(h)).toContain('kubelet.volumeRootModeMismatch');
    expect(h.hostCalls('SetVolumeOwnership')).toHaveLength(1);
  });
});

describe('whether the kubelet applies the fsGroup: supportsFSGroup with the CSIDriver\'s fsGroupPolicy (csi_mounter.go :455-486 on 1.30)', () => {
  const rwx: K8sObject = { ...pv, spec: { ...pv.spec, accessModes: ['ReadWriteMany'] } };
  const noFsType: K8sObject = { ...pv, spec: { ...pv.spec, csi: { driver: DRIVER, volumeHandle: HANDLE } } };
  const walks = (o: Parameters<typeof kubeletUpTo>[1]): boolean => published(o).hostCalls().length > 0;
  it('ReadWriteOnceWithFSType (the default, and a CSIDriver without the field): only a ReadWriteOnce PV with an fsType', () => {
    expect(walks({})).toBe(true);
    expect(walks({ csiDriver: csiDriver('ReadWriteOnceWithFSType') })).toBe(true);
    expect(walks({ pvObject: rwx })).toBe(false);
    expect(walks({ pvObject: noFsType })).toBe(false);
  });
  it('File: every volume, ReadWriteMany and no fsType too; None: never', () => {
    expect(walks({ csiDriver: csiDriver('File'), pvObject: rwx })).toBe(true);
    expect(walks({ csiDriver: csiDriver('File'), pvObject: noFsType })).toBe(true);
    expect(walks({ csiDriver: csiDriver('None') })).toBe(false);
  });
  it('read-only is the pod\'s claim\'s readOnly (getPVSpec(…, pvcSource.ReadOnly)): no walk, and NodePublishVolume readonly; the PV\'s csi.readOnly is not the kubelet\'s', () => {
    const p = withFsGroup(pod('web-0', NODE));
    const readOnlyClaim: K8sObject = { ...p, spec: { ...p.spec, volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data', readOnly: true } }] } };
    const ro = published({ podObject: readOnlyClaim });
    expect(ro.hostCalls()).toEqual([]);
    expect(ro.csiCalls('NodePublishVolume').at(-1)!.request.readonly).toBe(true);
    const roPV = published({ pvObject: { ...pv, spec: { ...pv.spec, csi: { ...pv.spec.csi, readOnly: true } } } });
    expect(roPV.hostCalls()).toHaveLength(1);
    expect(roPV.csiCalls('NodePublishVolume').at(-1)!.request.readonly).toBeUndefined();
  });
  it('a pod without an fsGroup: no walk, SetUp succeeds right after NodePublishVolume', () => {
    const h = published({ podObject: pod('web-0', NODE) });
    expect(h.hostCalls()).toEqual([]);
    expect(msgs(h)).toContain('kubelet.setUpSucceeded');
  });
});
