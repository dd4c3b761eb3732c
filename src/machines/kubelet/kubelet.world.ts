/**
 * The kubelet volume manager's desired and actual state of world as plain tables, for views that show
 * them next to a step (the flow player) and for tests.
 */
import type { KubeletContext } from './kubelet.types.ts';
import { backoffTimers, type WorldTimer } from '../shared/nestedPendingOperations.ts';
import { POD_ATTACH_AND_MOUNT_TIMEOUT } from '../shared/timing.ts';

export interface KubeletWorld {
  desired: Array<{ volume: string; pv: string; pods: string[]; reportedInUse: boolean }>;
  actual: Array<{ volume: string; pv: string; devicePath: string; deviceState: string; pods: Array<{ pod: string; state: string }> }>;
  /** node.status.volumesInUse as last written */
  volumesInUse: string[];
  /** running countdowns: operation backoff, and each pod's 2m3s wait for its volumes */
  timers: WorldTimer[];
}

export function kubeletWorld(c: KubeletContext): KubeletWorld {
  const desired = Object.values(c.dsw).map((v) => ({
    volume: v.uniqueName, pv: v.pvName, reportedInUse: v.reportedInUse,
    pods: Object.values(v.pods).map((p) => `${p.namespace}/${p.podName}`).sort(),
  }));
  const actual = Object.values(c.asw).map((v) => ({
    volume: v.uniqueName, pv: v.pvName, devicePath: v.devicePath, deviceState: v.deviceState,
    pods: Object.values(v.pods).map((p) => ({ pod: `${p.namespace}/${p.podName}`, state: p.state })).sort((a, b) => (a.pod < b.pod ? -1 : 1)),
  }));
  const byVolume = <T extends { volume: string }>(a: T, b: T): number => (a.volume < b.volume ? -1 : 1);
  const timers = backoffTimers(c.ops);
  for (const [uid, st] of Object.entries(c.podStates)) {
    if (st.stage !== 'waitingForVolumes') continue;
    const pod = c.pods[uid];
    const name = pod ? `${pod.metadata.namespace}/${pod.metadata.name}` : uid;
    // upstream: pkg/kubelet/volumemanager/volume_manager.go WaitForAttachAndMount (podAttachAndMountTimeout)
    timers.push({ name: 'podAttachAndMountTimeout', subject: `pod ${name} waits for its volumes`, startedAt: st.waitStartedAt, endsAt: st.waitStartedAt + POD_ATTACH_AND_MOUNT_TIMEOUT });
  }
  return { desired: desired.sort(byVolume), actual: actual.sort(byVolume), volumesInUse: [...c.volumesInUseWritten], timers: timers.sort((a, b) => a.endsAt - b.endsAt) };
}
