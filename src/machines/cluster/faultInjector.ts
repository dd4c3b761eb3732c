/**
 * The faults of a run while the cluster runs: which one hits an API request, a CSI call or an
 * informer now, how many hits each has left, and the report of every hit (trace.faults). Windows are
 * on the cluster clock; the faults' own `from`/`until` are story milliseconds (storyStartUs is their
 * origin).
 */
import type { ApiRequestEmitted } from '../shared/contract.ts';
import type { GrpcCode } from '../shared/csi.ts';
import { RESOURCE, type Kind } from '../shared/k8s.ts';
import { faultToText, type ApiFault, type CsiFault, type FaultReport, type HostFault, type HostOp, type InformerDelay } from './faults.ts';

/** A fault while the cluster runs: how many hits are left, its window on the cluster clock, its report. */
export interface ActiveFault<F> { f: F; left: number; fromUs: number; untilUs: number; report: FaultReport }

/** Who a request or a watch delivery belongs to: the component's name, instance id and host (none for the user). */
export interface Who { name: string; id?: string; host?: string }

export class FaultInjector {
  readonly csi: Array<ActiveFault<CsiFault>>;
  readonly api: Array<ActiveFault<ApiFault>>;
  readonly informers: Array<ActiveFault<InformerDelay>>;
  readonly host: Array<ActiveFault<HostFault>>;

  constructor(storyStartUs: number, faults: { csi?: CsiFault[]; api?: ApiFault[]; informers?: InformerDelay[]; host?: HostFault[] }) {
    const active = <F extends { from?: number; until?: number; count?: number }>(f: F, type: FaultReport['type']): ActiveFault<F> => ({
      f, left: f.count ?? Infinity,
      fromUs: storyStartUs + Math.round((f.from ?? 0) * 1000),
      untilUs: f.until === undefined ? Infinity : storyStartUs + Math.round(f.until * 1000),
      report: { fault: faultToText(type === 'csi' ? f as never : { ...f, type } as never), type, fired: [] },
    });
    this.csi = (faults.csi ?? []).map((f) => active(f, 'csi'));
    this.api = (faults.api ?? []).map((f) => active(f, 'api'));
    this.informers = (faults.informers ?? []).map((f) => active({ ...f, count: undefined }, 'informer'));
    this.host = (faults.host ?? []).map((f) => active(f, 'host'));
  }

  /** The host fault that hits the kubelet's `op` on `node` now, if any (counted). */
  matchHost(op: HostOp, node: string, atUs: number): ActiveFault<HostFault> | undefined {
    const fault = this.host.find((a) => a.left > 0 && a.f.op === op && a.fromUs <= atUs && atUs < a.untilUs && (!a.f.node || node === a.f.node));
    if (fault) fault.left--;
    return fault;
  }

  /** The API fault that hits this request now, if any (counted once, when the request is sent). */
  matchApi(who: Who, req: ApiRequestEmitted, nowUs: number): ActiveFault<ApiFault> | null {
    if (this.api.length === 0) return null;
    const a = this.api.find(({ f, left, fromUs, untilUs }) => left > 0 && f.verb === req.verb && f.kind === req.kind
      && (!f.name || f.name === req.name) && (!f.component || f.component === who.name || f.component === who.id)
      && (!f.node || f.node === who.host) && fromUs <= nowUs && nowUs < untilUs);
    if (!a) return null;
    a.left--;
    return a;
  }

  /** The CSI fault that hits a call of `rpc` to a node (or the controller) at `atUs`, if any (counted). */
  matchCsi(rpc: string, node: string | undefined, atUs: number): ActiveFault<CsiFault> | undefined {
    const fault = this.csi.find((a) => a.left > 0 && a.f.rpc === rpc && a.fromUs <= atUs && atUs < a.untilUs && (!a.f.node || node === a.f.node));
    if (fault) fault.left--;
    return fault;
  }

  /** The informer delay on this component's watch events of `kind` now, if any. */
  matchInformer(who: Who, kind: Kind, nowUs: number): ActiveFault<InformerDelay> | undefined {
    if (this.informers.length === 0) return undefined;
    return this.informers.find((x) => (x.f.component === who.name || x.f.component === who.id) && (!x.f.kind || x.f.kind === kind)
      && x.fromUs <= nowUs && nowUs < x.untilUs);
  }

  /** Note a hit on the step that shows it (step null: it hit outside the recording, at story time tMs). */
  static fired(a: ActiveFault<unknown>, step: number | null, tMs: number): void {
    a.report.fired.push({ step, t: tMs });
  }

  reports(): FaultReport[] {
    return [...this.csi, ...this.api, ...this.informers, ...this.host].map((a) => a.report);
  }
}

/** metav1.StatusReason of the HTTP codes an API fault can answer with (k8s.io/apimachinery pkg/api/errors). */
export const API_REASON: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 409: 'Conflict', 410: 'Expired',
  422: 'Invalid', 429: 'TooManyRequests', 500: 'InternalError', 503: 'ServiceUnavailable', 504: 'Timeout',
};

/** The message the API server gives with an injected error code, as a real one words it. */
export function defaultApiFaultMessage(code: number, req: ApiRequestEmitted): string {
  const what = `${RESOURCE[req.kind]} "${req.name}"`;
  switch (code) {
    case 409: return `Operation cannot be fulfilled on ${what}: the object has been modified; please apply your changes to the latest version and try again`;
    case 404: return `${what} not found`;
    case 403: return `${what} is forbidden: injected fault`;
    case 429: return 'Too many requests, please try again later.';
    case 503: case 504: return 'the server is currently unable to handle the request';
    default: return 'Internal error occurred: injected fault';
  }
}

export function defaultFaultMessage(code: GrpcCode): string {
  return code === 'DEADLINE_EXCEEDED' ? 'context deadline exceeded' : `injected ${code} fault`;
}
