/**
 * A harness that drives one component machine alone, the way the cluster would: feed it informer
 * events and the answers to its API requests and CSI calls, advance its virtual clock (the timers it
 * asked for fire in order), and read what it emitted. For a team's unit tests of one component:
 *
 *   const h = createHarness(kubeletDescriptor, { nodeName: 'node-1', kubeletRoot: '/var/lib/kubelet' });
 *   h.start([pod, node]);
 *   h.serve([pvc, pv]);                       // answer the populator's GETs from these objects
 *   h.advance(100);                           // ms: the reconciler's next pass
 *   expect(h.csiCalls('NodeStageVolume')).toHaveLength(0);
 *
 * Times in the harness API are milliseconds from its start; events carry the machines' microseconds.
 */
import { createActor, type Actor, type AnyStateMachine } from 'xstate';
import type {
  ApiRequestEmitted, ClusterEmitted, ClusterEvent, ComponentDescriptor, ComponentInput, CsiCallEmitted, EventRecordedEmitted, HostCallEmitted, LogEmitted,
} from '../shared/contract.ts';
import type { CsiRpc, GrpcCode } from '../shared/csi.ts';
import type { K8sObject } from '../shared/k8s.ts';
import type { ProfileId } from '../shared/messages.ts';
import type { DriverProfile } from '../drivers/types.ts';
import { DRIVERS } from '../drivers/index.ts';
import { genericDriver } from '../scenarios/spec.ts';
import { buildComponents } from '../scenarios/topology.ts';

/** The node a node-scoped object belongs to (the kubelet's field selectors). */
const nodeOf = (o: K8sObject): string | undefined => {
  switch (o.kind) {
    case 'Pod': return o.spec?.nodeName || undefined;
    case 'Node': case 'CSINode': return o.metadata.name;
    case 'VolumeAttachment': return o.spec?.nodeName;
    default: return undefined;
  }
};

export interface HarnessOptions {
  /** the version profile (default 1.30) */
  profile?: ProfileId;
  /** the instance id (default "<name>/<host>" or the name) */
  id?: string;
  /** the host it runs on (default "node-1" for node components, "master-1" otherwise) */
  host?: string;
  /** the CSI driver the component serves or knows: a profile, a built-in profile id, or a generic driver's name (default "csi.example.com") */
  driver?: DriverProfile | string;
}

/** wall clock of the harness's time 0, as scenarios default it */
const EPOCH_US = Date.parse('2024-05-14T09:30:00Z') * 1000;

/** An inbound event without its time (the harness stamps it). */
export type InboundEvent = ClusterEvent extends infer E ? (E extends { now: number } ? Omit<E, 'now'> & { now?: number } : never) : never;

/** An outbound request and whether it was answered. */
export type Pending = (ApiRequestEmitted | CsiCallEmitted) & { answered: boolean };

export class MachineHarness {
  readonly actor: Actor<AnyStateMachine>;
  /** everything the machine emitted, in order */
  readonly emitted: ClusterEmitted[] = [];
  private nowUs = 0;
  private timers = new Map<string, number>();
  private answered = new WeakSet<object>();

  constructor(readonly descriptor: ComponentDescriptor, readonly input: ComponentInput & Record<string, unknown>) {
    this.actor = createActor(descriptor.machine, { input });
    this.actor.on('*', (e: unknown) => this.collect(e as ClusterEmitted));
    this.actor.start();
  }

  /** virtual milliseconds since the harness started */
  get now(): number { return this.nowUs / 1000; }

  /** the machine's state value */
  get state(): unknown { return this.actor.getSnapshot().value; }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  get context(): any { return (this.actor.getSnapshot() as { context: unknown }).context; }

  private collect(e: ClusterEmitted): void {
    this.emitted.push(e);
    if (e.type === 'timer.requested') this.timers.set(e.key, e.at);
    if (e.type === 'timer.cancelled') this.timers.delete(e.key);
  }

  /** Send one inbound event (its `now` is the harness's clock). */
  send(event: InboundEvent): this {
    this.actor.send({ ...event, now: this.nowUs } as ClusterEvent);
    const snap = this.actor.getSnapshot();
    if (snap.status === 'error') throw new Error(`${this.descriptor.name} failed on ${event.type}: ${String((snap as { error?: unknown }).error)}`);
    return this;
  }

  private sees(o: K8sObject): boolean {
    const d = this.descriptor;
    if (!(d.watches as string[]).includes(o.kind)) return false;
    if (d.nodeScoped?.includes(o.kind) && nodeOf(o) !== this.input.host) return false;
    return !d.watchFilter || d.watchFilter(o, this.input);
  }

  /** The process starts: component.started, then its informers list these objects (those it watches). */
  start(objects: K8sObject[] = []): this {
    this.send({ type: 'component.started' });
    for (const o of objects) if (this.sees(o)) this.send({ type: 'watch.added', object: o });
    return this;
  }

  /** Informer events (objects it does not watch are not delivered, as with a real informer). */
  added(o: K8sObject): this { return this.sees(o) ? this.send({ type: 'watch.added', object: o }) : this; }
  modified(o: K8sObject, old: K8sObject): this { return this.sees(o) || this.sees(old) ? this.send({ type: 'watch.modified', object: o, oldObject: old }) : this; }
  deleted(o: K8sObject): this { return this.sees(o) ? this.send({ type: 'watch.deleted', object: o }) : this; }

  /** Advance the clock by `ms`, firing every timer due on the way, in time order. */
  advance(ms: number): this { return this.advanceTo(this.now + ms); }

  advanceTo(ms: number): this {
    const end = Math.round(ms * 1000);
    for (;;) {
      let next: [string, number] | undefined;
      for (const t of this.timers) if (t[1] <= end && (!next || t[1] < next[1])) next = t;
      if (!next) break;
      this.timers.delete(next[0]);
      this.nowUs = Math.max(this.nowUs, next[1]);
      this.send({ type: 'clock.ticked', key: next[0] });
    }
    this.nowUs = Math.max(this.nowUs, end);
    return this;
  }

  /** Advance in steps of `stepMs` until `predicate` holds (at most `limitMs`); throws if it never does. */
  advanceUntil(predicate: (h: this) => boolean, limitMs = 600_000, stepMs = 100): this {
    const end = this.now + limitMs;
    while (!predicate(this)) {
      if (this.now >= end) throw new Error(`${this.descriptor.name}: the condition did not hold within ${limitMs} ms`);
      this.advance(stepMs);
    }
    return this;
  }

  /** The timers it waits for: key → when (ms). */
  pendingTimers(): Record<string, number> {
    return Object.fromEntries([...this.timers].map(([k, at]) => [k, at / 1000]));
  }

  /** API requests and CSI calls not answered yet. */
  pending(): Pending[] {
    return this.emitted
      .filter((e): e is ApiRequestEmitted | CsiCallEmitted => e.type === 'api.request' || e.type === 'csi.call')
      .map((e) => ({ ...e, answered: this.answered.has(e) }))
      .filter((e) => !e.answered);
  }

  apiRequests(filter: Partial<Pick<ApiRequestEmitted, 'verb' | 'kind' | 'name'>> = {}): ApiRequestEmitted[] {
    return this.emitted.filter((e): e is ApiRequestEmitted => e.type === 'api.request'
      && (!filter.verb || e.verb === filter.verb) && (!filter.kind || e.kind === filter.kind) && (!filter.name || e.name === filter.name));
  }

  /** CSI calls, all or of one RPC (short name, e.g. "NodeStageVolume"). */
  csiCalls(rpc?: CsiRpc): CsiCallEmitted[] {
    return this.emitted.filter((e): e is CsiCallEmitted => e.type === 'csi.call' && (!rpc || e.rpc === rpc));
  }

  /** The component's own work on its node's file system (the kubelet's SetVolumeOwnership), all or of one operation. */
  hostCalls(op?: HostCallEmitted['op']): HostCallEmitted[] {
    return this.emitted.filter((e): e is HostCallEmitted => e.type === 'host.call' && (!op || e.op === op));
  }

  /**
   * Finish a host call: done (default), or failed with `error` as Go's os package words it ("readdirent /x: input/output
   * error"); a StatVolumeRoot with what the top directory has (`rootGid`, default 0; `rootModeOk`, default false).
   */
  finish(call: HostCallEmitted, result: string | { error?: string; rootGid?: number; rootModeOk?: boolean } = {}): this {
    const orig = this.emitted.find((e) => e.type === 'host.call' && e.requestId === call.requestId);
    if (!orig || orig.type !== 'host.call') throw new Error(`no host call ${call.requestId} to finish`);
    if (this.answered.has(orig)) throw new Error(`host call ${call.requestId} was finished already`);
    this.answered.add(orig);
    const r = typeof result === 'string' ? { error: result } : result;
    return this.send({
      type: 'host.result', requestId: orig.requestId, op: orig.op, ok: r.error === undefined, ...(r.error !== undefined ? { error: r.error } : {}),
      ...(orig.op === 'StatVolumeRoot' ? { rootGid: r.rootGid ?? 0, rootModeOk: r.rootModeOk === true } : {}),
    });
  }

  /** Log lines, as catalog message ids with their values. */
  logs(): LogEmitted[] { return this.emitted.filter((e): e is LogEmitted => e.type === 'log'); }
  /** Kubernetes Events it recorded. */
  events(reason?: string): EventRecordedEmitted[] {
    return this.emitted.filter((e): e is EventRecordedEmitted => e.type === 'event.recorded' && (!reason || e.reason === reason));
  }

  private original(req: { requestId: string; type: string }): ClusterEmitted | undefined {
    return this.emitted.find((e) => (e.type === 'api.request' || e.type === 'csi.call') && e.requestId === req.requestId && e.type === req.type);
  }

  /** Answer an API request: ok with the object (default: the request's own object), or an HTTP error. */
  answer(req: ApiRequestEmitted | Pending, result: { ok?: boolean; code?: number; object?: K8sObject; reason?: string; message?: string } = {}): this {
    const orig = this.original(req);
    if (!orig || orig.type !== 'api.request') throw new Error(`no API request ${req.requestId} to answer`);
    if (this.answered.has(orig)) throw new Error(`API request ${req.requestId} was answered already`);
    this.answered.add(orig);
    const ok = result.ok ?? (result.code === undefined || result.code < 400);
    const object = result.object ?? orig.object;
    return this.send({
      type: 'api.result', requestId: orig.requestId, ok, code: result.code ?? (ok ? (orig.verb === 'create' ? 201 : 200) : 500),
      ...(object && ok ? { object } : {}), ...(result.reason ? { reason: result.reason } : {}), ...(result.message ? { message: result.message } : {}),
    });
  }

  /** Answer a CSI call (default OK with an empty response). */
  reply(call: CsiCallEmitted | Pending, code: GrpcCode = 'OK', response: Record<string, unknown> = {}, message?: string): this {
    const orig = this.original(call);
    if (!orig || orig.type !== 'csi.call') throw new Error(`no CSI call ${call.requestId} to answer`);
    if (this.answered.has(orig)) throw new Error(`CSI call ${call.requestId} was answered already`);
    this.answered.add(orig);
    return this.send({ type: 'csi.result', requestId: orig.requestId, rpc: orig.rpc, code, ...(code === 'OK' ? { response } : {}), ...(message ? { message } : {}) });
  }

  /**
   * Play the API server for what is pending: GETs answered from `objects` (404 when absent), writes
   * accepted (the written object back). Repeats until nothing API-side is pending; returns how many it answered.
   */
  serve(objects: K8sObject[] = []): number {
    let n = 0;
    for (let p = this.pending().find((x) => x.type === 'api.request'); p; p = this.pending().find((x) => x.type === 'api.request')) {
      const req = p as ApiRequestEmitted & { answered: boolean };
      if (req.verb === 'get') {
        const o = objects.find((x) => x.kind === req.kind && x.metadata.name === req.name && (x.metadata.namespace ?? undefined) === (req.namespace ?? undefined));
        this.answer(req, o ? { ok: true, code: 200, object: o } : { ok: false, code: 404, reason: 'NotFound', message: `${req.kind.toLowerCase()}s "${req.name}" not found` });
      } else {
        this.answer(req);
      }
      if (++n > 10_000) throw new Error(`${this.descriptor.name} keeps sending API requests`);
    }
    return n;
  }
}

/**
 * A harness for one component: its descriptor and input. The input starts from what the standard
 * cluster gives that component (ids, host, profile, clocks, the driver), then yours on top.
 */
export function createHarness<I extends ComponentInput>(
  descriptor: ComponentDescriptor<I>, input: Omit<Partial<I>, 'id' | 'host' | 'profile'> & Record<string, unknown> = {} as Omit<Partial<I>, 'id' | 'host' | 'profile'> & Record<string, unknown>, options: HarnessOptions = {},
): MachineHarness {
  const nodeLocal = !!descriptor.nodeScoped?.length || descriptor.name === 'csi-node-plugin' || descriptor.name === 'node-driver-registrar';
  const profile = options.profile ?? '1.30';
  const d = options.driver;
  const driver: DriverProfile = typeof d === 'object' ? d : DRIVERS[d ?? ''] ?? genericDriver(d ?? 'csi.example.com');
  const nodeName = (input.nodeName as string | undefined) ?? (nodeLocal ? options.host : undefined) ?? 'node-1';
  const specs = buildComponents({
    driver, nodes: [{ name: nodeName }], objects: [], actions: [], start: '2024-05-14T09:30:00Z', hostTz: { offsetMin: 0, zone: 'UTC' }, runFor: 0,
  }, driver, profile, 1, EPOCH_US);
  const standard = specs.find((x) => x.descriptor.name === descriptor.name)?.input ?? {};
  const host = options.host ?? (nodeLocal ? nodeName : (standard as { host?: string }).host ?? 'master-1');
  const full = {
    ...standard, id: options.id ?? (nodeLocal ? `${descriptor.name}/${host}` : descriptor.name), host, profile,
    ...(nodeLocal ? { nodeName: host } : {}), ...input,
  } as unknown as ComponentInput & Record<string, unknown>;
  return new MachineHarness(descriptor as ComponentDescriptor, full);
}
