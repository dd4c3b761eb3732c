/**
 * Small helpers shared by the kubelet's pure functions: request ids, log/API/CSI/timer outputs and the
 * event-driven reconciler schedule (the reconciler loop runs every 100ms upstream; here a loop
 * iteration is only scheduled when something changed or a backoff expires, on the same 100ms grid).
 */
import type { ApiRequestEmitted, CsiCallEmitted } from '../shared/contract.ts';
import type { CsiRpc } from '../shared/csi.ts';
import type { K8sObject } from '../shared/k8s.ts';
import type { LogArgs, Stage } from '../shared/messages.ts';
import { KUBELET_RECONCILER_LOOP_PERIOD } from '../shared/timing.ts';
import type { KubeletContext, TableName, Work } from './kubelet.types.ts';
import type { messages } from './kubelet.messages.ts';

export type KubeletMessageId = keyof typeof messages;

export function begin(ctx: KubeletContext, now: number): Work {
  return { now, out: [], c: { ...ctx }, owned: {} };
}

/** The table `name`, writable in place; the event's first write to it is counted in `versions`. */
export function own<K extends TableName>(w: Work, name: K): Record<string, KubeletContext[K][string]> {
  if (!w.owned[name]) {
    w.c.versions[name]++;
    w.owned[name] = true;
  }
  return w.c[name] as Record<string, KubeletContext[K][string]>;
}

export const nextId = (w: Work): string => `r${++w.c.seq}`;

/** The kubelet's event recorder: an Event on a pod (the broadcaster logs and writes it). */
export function recordPodEvent(w: Work, pod: K8sObject, eventType: 'Normal' | 'Warning', reason: string, message: string): void {
  w.out.push({ type: 'event.recorded', involved: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name }, eventType, reason, message });
}

export function log(w: Work, msg: KubeletMessageId, args: LogArgs, stage?: Stage, variant?: string): void {
  w.out.push({ type: 'log', msg, args, ...(stage ? { stage } : {}), ...(variant ? { variant } : {}) });
}

export function api(w: Work, req: Omit<ApiRequestEmitted, 'type' | 'requestId'>): string {
  const requestId = nextId(w);
  w.out.push({ type: 'api.request', requestId, ...req });
  return requestId;
}

export function csi(w: Work, rpc: CsiRpc, request: Record<string, unknown>, endpoint: CsiCallEmitted['endpoint'], timeout: number, summary?: string, stage?: Stage): string {
  const requestId = nextId(w);
  w.out.push({ type: 'csi.call', requestId, rpc, request, endpoint, node: w.c.input.host, timeout, ...(summary ? { summary } : {}), ...(stage ? { stage } : {}) });
  return requestId;
}

export function timer(w: Work, key: string, at: number): void {
  w.out.push({ type: 'timer.requested', key, at });
}

/** Ask for a reconciler loop iteration at the first 100ms boundary at or after `at` (and after now). */
export function requestReconcile(w: Work, at = w.now): void {
  const p = KUBELET_RECONCILER_LOOP_PERIOD;
  const base = w.c.startedAt;
  const t = Math.max(at, w.now + 1);
  const boundary = base + Math.ceil((t - base) / p) * p;
  if (w.c.reconcileAt !== undefined && w.c.reconcileAt >= w.now && w.c.reconcileAt <= boundary) return;
  w.c.reconcileAt = boundary;
  timer(w, 'reconcile', boundary);
}
