/**
 * Two runs of one scenario side by side (the ad-detach-backoff chapter: 1.20 against 1.30): the key
 * steps of each, aligned on the trace clock, so a row shows what each version did in the same second.
 * Build time; pure functions over flow models.
 */
import type { FlowModel, FlowStep } from '../../machines/view/flow.ts';
import { actorLabel, stepSeverity } from './steps.ts';

/** Which steps count as key steps: log messages, API writes, RPC replies, and your own actions. */
export interface KeySpec {
  msgs: readonly string[];
  /** [verb, kind] of API calls */
  apis: ReadonlyArray<readonly [string, string]>;
  /** RPC methods (last segment) whose replies count */
  replies: readonly string[];
  /** include the steps you (the scenario's user) take */
  user: boolean;
}

/** The steps that tell an attach/detach story: detach attempts and their backoff, attach, the kubelet's waits, syncStates' corrections. */
export const ATTACH_DETACH_KEYS: KeySpec = {
  msgs: [
    'attachDetachController.detachVolumeStarted', 'attachDetachController.operationFailed',
    'attachDetachController.detachSucceeded', 'attachDetachController.attachVolumeStarted',
    'attachDetachController.attachSucceeded', 'kubelet.operationFailed', 'kubelet.controllerAttachSucceeded',
    'kubelet.unableToAttachOrMount', 'kubelet.setUpSucceeded', 'attachDetachController.volumeMarkedDetachedBySync',
  ],
  apis: [['patchStatus', 'Node'], ['create', 'VolumeAttachment'], ['delete', 'VolumeAttachment'], ['patchStatus', 'Pod']],
  replies: ['ControllerPublishVolume', 'ControllerUnpublishVolume'],
  user: true,
};

export function isKeyStep(s: FlowStep, spec: KeySpec): boolean {
  if (s.kind === 'user') return spec.user;
  if (s.msg && spec.msgs.includes(s.msg)) return true;
  if (s.kind === 'api' && s.api && spec.apis.some(([verb, kind]) => s.api!.verb === verb && s.api!.kind === kind)) return true;
  if (s.kind === 'rpc-reply' && s.rpc && spec.replies.includes(s.rpc.method.split('/').pop() ?? '')) return true;
  return false;
}

export interface CompareEntry {
  step: number;
  t: number;
  actor: string;
  summary: string;
  severity?: 'W' | 'E';
}

export interface CompareRow {
  /** start of the row's time bucket, ms on the trace clock */
  t: number;
  a: CompareEntry[];
  b: CompareEntry[];
}

const entry = (s: FlowStep): CompareEntry => {
  const sev = stepSeverity(s);
  return { step: s.i, t: s.t, actor: actorLabel(s), summary: s.summary, ...(sev ? { severity: sev } : {}) };
};

/**
 * The key steps of both runs in rows of `bucketMs` of trace time; a row exists only where at least one
 * run has a key step. Both scenarios start their story at the same t, and their scripted actions happen
 * at the same times, so equal buckets line the two versions up.
 */
export function alignRuns(a: FlowModel, b: FlowModel, spec: KeySpec = ATTACH_DETACH_KEYS, bucketMs = 1000): CompareRow[] {
  const rows = new Map<number, CompareRow>();
  const add = (s: FlowStep, side: 'a' | 'b'): void => {
    const key = Math.floor(s.t / bucketMs) * bucketMs;
    let row = rows.get(key);
    if (!row) { row = { t: key, a: [], b: [] }; rows.set(key, row); }
    row[side].push(entry(s));
  };
  for (const s of a.steps) if (isKeyStep(s, spec)) add(s, 'a');
  for (const s of b.steps) if (isKeyStep(s, spec)) add(s, 'b');
  return [...rows.values()].sort((x, y) => x.t - y.t);
}

/** The last key step of a run, by message id: where each version ends up. */
export function lastOf(model: FlowModel, msg: string): FlowStep | undefined {
  for (let i = model.steps.length - 1; i >= 0; i--) if (model.steps[i]!.msg === msg) return model.steps[i];
  return undefined;
}
