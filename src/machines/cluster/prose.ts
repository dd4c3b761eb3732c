/**
 * The sentences the cluster writes itself: a step's summary when the machine gave none (an API
 * write, a CSI call or answer, an Event, a state move, a user action), and the wording helpers they
 * share. Kept apart from the cluster's routing so that the words can be read (and one day translated)
 * in one place.
 */
import type { ApiRequestEmitted, CsiCallEmitted, HostCallEmitted } from '../shared/contract.ts';
import { kobj, type K8sObject, type Kind } from '../shared/k8s.ts';
import type { ApiOutcome } from './apiServer.ts';

const ENDPOINT_WORDS: Record<CsiCallEmitted['endpoint'], string> = {
  controller: 'the CSI controller plugin', node: 'the CSI node plugin', registrar: "node-driver-registrar's registration socket",
};

const VERB_WORD: Record<ApiRequestEmitted['verb'], string> = {
  create: 'creates', update: 'updates', updateStatus: 'updates the status of', patch: 'patches', patchStatus: 'patches the status of', delete: 'deletes', get: 'reads',
};

/** the same verbs after "fails to" */
const VERB_INFINITIVE: Record<ApiRequestEmitted['verb'], string> = {
  create: 'create', update: 'update', updateStatus: 'update the status of', patch: 'patch', patchStatus: 'patch the status of', delete: 'delete', get: 'read',
};

/** "pv-controller updates PersistentVolumeClaim default/data (spec.volumeName)." or "… fails to update …: <message>." */
export function apiStepSummary(componentName: string, req: ApiRequestEmitted, out: ApiOutcome): string {
  const object = `${req.kind} ${req.namespace ? req.namespace + '/' : ''}${req.name}`;
  return out.ok
    ? (req.summary ?? `${componentName} ${VERB_WORD[req.verb]} ${object}${changedFields(out)}.`)
    : `${componentName} fails to ${VERB_INFINITIVE[req.verb]} ${object}: ${out.message}.`;
}

export const csiCallSummary = (componentName: string, call: CsiCallEmitted): string =>
  call.summary ?? `${componentName} calls ${call.rpc} on ${ENDPOINT_WORDS[call.endpoint]}.`;

export const hostCallSummary = (componentName: string, call: HostCallEmitted): string =>
  call.summary ?? `${componentName} runs ${call.op} on ${call.path}.`;

export function csiReplySummary(rpc: string | undefined, code: string, message: string | undefined, callerWaits: boolean): string {
  return `The CSI plugin answers ${rpc ?? 'a call'}: ${code === 'OK' ? 'OK' : `${code} (${message ?? ''})`}${callerWaits ? '' : ', but the caller has already given up waiting'}.`;
}

export const eventSummary = (componentName: string, e: { eventType: string; reason: string; message: string; involved: { kind: string } }, object: string): string =>
  `${componentName} records a ${e.eventType} event ${e.reason} on ${e.involved.kind} ${object}: ${e.message}`;

export const stateMoveSummary = (name: string, host: string, from: string, to: string): string => `${name} on ${host} moves from state ${from} to ${to}.`;
export const processExitSummary = (name: string, host: string, code: number, backoffUs: number): string =>
  `${name} on ${host} exits with status ${code}; the kubelet starts its container again ${backoffUs === 0 ? 'at once (its first restart)' : `once the CrashLoopBackOff of ${backoffUs / 1_000_000}s has passed`}.`;
export const restartStateSummary = (name: string, host: string, from: string, to: string): string =>
  `${name} on ${host} restarts: its machine is back in state ${to} (was ${from}).`;

export const createSummary = (o: K8sObject): string => `You create ${o.kind} ${kobj(o)}.`;
export const deleteSummary = (kind: Kind, namespace: string | undefined, name: string): string => `You delete ${kind} ${namespace ? namespace + '/' : ''}${name}.`;
export const patchSummary = (kind: Kind, namespace: string | undefined, name: string): string => `You patch ${kind} ${namespace ? namespace + '/' : ''}${name}.`;
export const nodePowerSummary = (node: string, down: boolean): string => (down ? `Node ${node} shuts down: every process on it stops.` : `Node ${node} boots.`);
export const taintSummary = (node: string, taint: string): string => `You taint node ${node} ${taint} (kubectl taint nodes ${node} ${taint}).`;
export const restartSummary = (component: string): string => `The ${component} process restarts: it forgets what it held in memory and lists everything again.`;

/** ": metadata.finalizers, status.attached" — the top-level fields a write changed, for summaries. */
export function changedFields(out: ApiOutcome): string {
  if (!out.before || !out.after) return '';
  const fields: string[] = [];
  const walk = (a: unknown, b: unknown, path: string, depth: number): void => {
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    if (depth >= 2 || !a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b)) {
      fields.push(path);
      return;
    }
    const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
    for (const k of [...keys].sort()) {
      if (path === '' && k === 'metadata') {
        const am = (a as K8sObject).metadata, bm = (b as K8sObject).metadata;
        for (const mk of new Set([...Object.keys(am), ...Object.keys(bm)])) {
          if (mk === 'resourceVersion' || mk === 'generation') continue;
          if (JSON.stringify((am as unknown as Record<string, unknown>)[mk]) !== JSON.stringify((bm as unknown as Record<string, unknown>)[mk])) fields.push(`metadata.${mk}`);
        }
        continue;
      }
      walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k, depth + 1);
    }
  };
  walk(out.before, out.after, '', 0);
  return fields.length ? ` (${fields.join(', ')})` : '';
}
