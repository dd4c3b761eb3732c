/**
 * Node taints as `kubectl taint` writes them and the controllers read them.
 * upstream: staging/src/k8s.io/kubectl/pkg/cmd/taint (the key[=value]:effect syntax),
 * pkg/util/taints/taints.go (TaintKeyExists), staging/src/k8s.io/api/core/v1/well_known_taints.go.
 */
import type { K8sObject } from './k8s.ts';

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
export interface Taint { key: string; value?: string; effect: TaintEffect; timeAdded?: string }
export interface Toleration { key?: string; operator?: 'Exists' | 'Equal'; value?: string; effect?: string; tolerationSeconds?: number }

export const TAINT_EFFECTS: readonly TaintEffect[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** v1.TaintNodeOutOfService: an operator's statement that the node is shut down for good (non-graceful node shutdown). */
export const TAINT_NODE_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';
export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';

/**
 * `key[=value]:effect`, as on kubectl taint's command line; a message saying what is wrong, or the taint.
 * Keys are checked loosely (a qualified name: letters, digits, '-', '_', '.', one optional prefix '/').
 */
export function parseTaint(spec: string): Taint | string {
  const colon = spec.lastIndexOf(':');
  if (colon < 0) return `"${spec}" has no effect: write key[=value]:effect, e.g. node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`;
  const effect = spec.slice(colon + 1);
  if (!(TAINT_EFFECTS as readonly string[]).includes(effect)) return `unknown taint effect "${effect}" (known: ${TAINT_EFFECTS.join(', ')})`;
  const kv = spec.slice(0, colon);
  const eq = kv.indexOf('=');
  const key = eq < 0 ? kv : kv.slice(0, eq);
  const value = eq < 0 ? undefined : kv.slice(eq + 1);
  if (!/^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(key)) return `invalid taint key "${key}"`;
  if (value !== undefined && value !== '' && !/^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(value)) return `invalid taint value "${value}"`;
  return { key, ...(value ? { value } : {}), effect: effect as TaintEffect };
}

/** kubectl's own way of printing a taint: key=value:effect, or key:effect without a value. */
export const taintString = (t: Taint): string => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;

export const nodeTaints = (node: K8sObject | undefined): Taint[] => ((node?.spec?.taints ?? []) as Taint[]);

/** taints.TaintKeyExists */
export const taintKeyExists = (node: K8sObject | undefined, key: string): boolean => nodeTaints(node).some((t) => t.key === key);

/** v1 Toleration.ToleratesTaint: the key matches (or is empty with Exists), the effect matches (or is empty), the value under Equal. */
export function toleratesTaint(tol: Toleration, t: Taint): boolean {
  if (tol.effect && tol.effect !== t.effect) return false;
  if (tol.key && tol.key !== t.key) return false;
  if (!tol.key && tol.operator !== 'Exists') return false;
  if ((tol.operator ?? 'Equal') === 'Exists') return true;
  return (tol.value ?? '') === (t.value ?? '');
}
