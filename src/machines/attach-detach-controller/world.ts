/**
 * The attach/detach controller's desired and actual state of world as plain tables, for views that
 * show them next to a step (the flow player) and for tests.
 */
import type { AdcContext } from './types.ts';
import { backoffTimers, type WorldTimer } from '../shared/nestedPendingOperations.ts';
import { ADC_MAX_WAIT_FOR_UNMOUNT_DURATION } from '../shared/timing.ts';

export interface AdcWorld {
  desired: Array<{ node: string; volume: string; pods: string[]; multiAttachErrorReported: boolean }>;
  actual: Array<{ volume: string; node: string; attachState: 'Attached' | 'Uncertain'; mountedByNode: boolean; detachRequestedTime: number }>;
  /** what each node's status.volumesAttached should list (volumesToReportAsAttached) */
  reportedAsAttached: Record<string, string[]>;
  /** running countdowns: operation backoff, and the 6-minute wait before a forced detach */
  timers: WorldTimer[];
}

export function adcWorld(ctx: AdcContext): AdcWorld {
  const desired: AdcWorld['desired'] = [];
  for (const [node, n] of Object.entries(ctx.dsw.nodesManaged)) {
    for (const [volume, v] of Object.entries(n.volumesToAttach)) {
      desired.push({ node, volume, pods: Object.values(v.scheduledPods).map((p) => `${p.namespace}/${p.name}`).sort(), multiAttachErrorReported: v.multiAttachErrorReported });
    }
  }
  const actual: AdcWorld['actual'] = [];
  for (const [volume, v] of Object.entries(ctx.asw.attachedVolumes)) {
    for (const [node, a] of Object.entries(v.nodesAttachedTo)) {
      actual.push({ volume, node, attachState: a.attachedConfirmed ? 'Attached' : 'Uncertain', mountedByNode: a.mountedByNode, detachRequestedTime: a.detachRequestedTime });
    }
  }
  const reportedAsAttached: Record<string, string[]> = {};
  for (const [node, n] of Object.entries(ctx.asw.nodesToUpdateStatusFor)) reportedAsAttached[node] = Object.keys(n.volumesToReportAsAttached).sort();
  const byKey = <T extends { volume: string; node: string }>(a: T, b: T): number => (a.node + a.volume < b.node + b.volume ? -1 : 1);
  const timers: WorldTimer[] = Object.values(ctx.ops).flatMap(backoffTimers);
  for (const a of actual) {
    // the reconciler force-detaches a volume the node still reports as mounted once this expires
    // upstream: pkg/controller/volume/attachdetach/reconciler/reconciler.go (maxWaitForUnmountDuration)
    if (a.detachRequestedTime > 0 && a.mountedByNode) {
      timers.push({ name: 'maxWaitForUnmountDuration', subject: `detach ${a.volume} from ${a.node}`, startedAt: a.detachRequestedTime, endsAt: a.detachRequestedTime + ADC_MAX_WAIT_FOR_UNMOUNT_DURATION });
    }
  }
  return { desired: desired.sort(byKey), actual: actual.sort(byKey), reportedAsAttached, timers: timers.sort((a, b) => a.endsAt - b.endsAt) };
}
