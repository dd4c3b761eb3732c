/**
 * Build-time lookups a chapter uses to point at steps of a flow model: find a step by what it does
 * (its log message id, kind, RPC, API call, summary) instead of by number, so a chapter keeps pointing
 * at the right step when a machine gains or loses a step. A query that matches nothing fails the build
 * with a message that says which chapter query broke.
 */
import type { FlowModel, FlowStep } from '../../machines/view/flow.ts';
import type { ProfileId } from '../../machines/shared/messages.ts';

export interface StepQuery {
  /** catalog message id, e.g. "externalAttacher.attached" */
  msg?: string;
  kind?: FlowStep['kind'];
  /** the CSI method's last segment ("ControllerPublishVolume") or the full "/csi.v1.Controller/…" */
  rpc?: string;
  /** the RPC's gRPC code on a reply ("OK", "INTERNAL") */
  code?: string;
  /** API call: verb and/or kind, and the HTTP code */
  verb?: string;
  apiKind?: string;
  apiCode?: number;
  /** component name ("kubelet") or instance ("kubelet/node-1") */
  component?: string;
  host?: string;
  /** text the summary or the log line contains, or a pattern either matches */
  text?: string | RegExp;
  /** only steps after this step number */
  after?: number;
  /** the n-th match (1-based; default 1); negative counts from the end (-1: the last) */
  nth?: number;
}

function matches(s: FlowStep, q: StepQuery): boolean {
  if (q.msg !== undefined && s.msg !== q.msg) return false;
  if (q.kind !== undefined && s.kind !== q.kind) return false;
  if (q.rpc !== undefined && !(s.rpc && (s.rpc.method === q.rpc || s.rpc.method.endsWith(`/${q.rpc}`)))) return false;
  if (q.code !== undefined && s.rpc?.code !== q.code) return false;
  if (q.verb !== undefined && s.api?.verb !== q.verb) return false;
  if (q.apiKind !== undefined && s.api?.kind !== q.apiKind) return false;
  if (q.apiCode !== undefined && s.api?.code !== q.apiCode) return false;
  if (q.component !== undefined && s.component !== q.component && s.instance !== q.component) return false;
  if (q.host !== undefined && s.host !== q.host) return false;
  if (q.after !== undefined && s.i <= q.after) return false;
  if (q.text !== undefined) {
    const hay = [s.summary, s.log ?? ''];
    const t = q.text;
    if (!hay.some((h) => (typeof t === 'string' ? h.includes(t) : t.test(h)))) return false;
  }
  return true;
}

/** Every step the query matches, in order (nth is ignored). */
export function findSteps(model: FlowModel, q: StepQuery): FlowStep[] {
  return model.steps.filter((s) => matches(s, q));
}

export function describeQuery(q: StepQuery): string {
  return JSON.stringify(q, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v));
}

/** The step the query picks, or undefined. */
export function tryFindStep(model: FlowModel, q: StepQuery): FlowStep | undefined {
  const all = findSteps(model, q);
  const nth = q.nth ?? 1;
  if (nth === 0) return undefined;
  return nth > 0 ? all[nth - 1] : all[all.length + nth];
}

/** The step the query picks; throws (failing the build) when there is none. */
export function findStep(model: FlowModel, q: StepQuery): FlowStep {
  const s = tryFindStep(model, q);
  if (!s) {
    const count = findSteps(model, q).length;
    throw new Error(`no step of ${model.scenario} ${model.k8s} matches ${describeQuery(q)} (${count} candidate(s))`);
  }
  return s;
}

/**
 * Where a step link goes: the chapter's player, opened on that step. `flow` is set for chapters whose
 * player carries several scenarios; `k8s` when the link wants a version other than the player's default.
 * Parameter order as in the site's documented links (/flows/pod-migration/?k8s=1.20&step=57#player).
 */
export function playerHref(step: number, opts: { flow?: string; k8s?: ProfileId } = {}): string {
  const p = new URLSearchParams();
  if (opts.flow) p.set('flow', opts.flow);
  if (opts.k8s) p.set('k8s', opts.k8s);
  p.set('step', String(step));
  return `?${p.toString()}#player`;
}

/**
 * The id of a step in a chapter's full step list. The chapter's main list (the player's first flow
 * and version) uses plain `step-N`; other lists on the same page carry their scenario and version.
 */
export function stepAnchor(step: number, list?: { scenario: string; k8s: ProfileId }): string {
  return list ? `${list.scenario}-${list.k8s.replace('.', '')}-step-${step}` : `step-${step}`;
}

/** The components that act in the models, in order of first appearance, without the user. */
export function componentsOf(models: readonly FlowModel[]): string[] {
  const seen = new Set<string>();
  for (const m of models) for (const s of m.steps) if (s.component !== 'user') seen.add(s.component);
  return [...seen];
}

/** "kubelet@node-1", "external-attacher", "you" for user actions. */
export function actorLabel(s: Pick<FlowStep, 'component' | 'host' | 'instance'>): string {
  if (s.component === 'user') return 'you';
  return s.instance.includes('/') ? `${s.component}@${s.host}` : s.component;
}

const SEVERITY_WORD: Record<string, string> = { W: 'Warning', E: 'Error', F: 'Fatal' };

/** A word for a non-Info severity (shown as text, so severity never rests on colour alone). */
export function severityWord(sev: FlowStep['severity'] | undefined): string | undefined {
  return sev ? SEVERITY_WORD[sev] : undefined;
}

/**
 * A failed API call or RPC reply is an error too, even without a log line: the step list marks it
 * like an E line.
 */
export function stepSeverity(s: FlowStep): 'W' | 'E' | undefined {
  if (s.severity === 'E' || s.severity === 'F') return 'E';
  if (s.severity === 'W') return 'W';
  if (s.kind === 'rpc-reply' && s.rpc?.code && s.rpc.code !== 'OK') return 'E';
  if (s.api && s.api.code >= 400) return 'W';
  return undefined;
}
