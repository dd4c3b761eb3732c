/**
 * Events as client-go's event recorder writes them: one Event object per involved object, reason and
 * message, created on first sight and counted up (count, lastTimestamp) when it repeats; its source
 * names the component the way each real recorder does.
 * upstream: client-go tools/record/events_cache.go (EventAggregator / eventLogger), event.go.
 */
import type { EventRecordedEmitted } from '../shared/contract.ts';
import { rfc3339 } from '../shared/goFormat.ts';
import { API_VERSION, type K8sObject } from '../shared/k8s.ts';
import type { LogArgs } from '../shared/messages.ts';
import { createRng, type Rng } from '../shared/rng.ts';
import type { ApiServer } from './apiServer.ts';
import type { ObjectChange } from './trace.ts';

/** Event.source.component as each real component's recorder sets it. */
const EVENT_SOURCE: Record<string, string> = {
  'attach-detach-controller': 'attachdetach-controller', 'pv-controller': 'persistentvolume-controller',
  'statefulset-controller': 'statefulset-controller', 'node-lifecycle-controller': 'node-controller',
  kubelet: 'kubelet', 'kube-scheduler': 'default-scheduler', 'pvc-protection-controller': 'pvc-protection-controller',
  'pv-protection-controller': 'pv-protection-controller',
  // pkg/controller/volume/expand/expand_controller.go NewExpandController: v1.EventSource{Component: "volume_expand"}
  'expand-controller': 'volume_expand',
};

/** Who records an Event: the component, its host (a pod's hostname), and for the sidecars their driver. */
export interface EventWho { name: string; host: string; isKubelet: boolean; driverName?: string; seed?: number }

/**
 * Event.source.component of the sidecars, whose recorders name their driver: csi-resizer "external-resizer
 * <driver>" (controller.go:88 at v1.1.0, :92 at v1.11.1), csi-snapshotter "csi-snapshotter <driver>"
 * (pkg/sidecar-controller/snapshot_controller_base.go:80 at v4.0.0, :102 at v8.0.1), and csi-provisioner's
 * provisioner library "<driver>_<hostname>_<uuid>", a new UUID per process (controller.go:639 of lib v6,
 * :630 of lib v10).
 */
function sidecarSource(who: EventWho): string | undefined {
  if (!who.driverName) return undefined;
  if (who.name === 'external-resizer') return `external-resizer ${who.driverName}`;
  if (who.name === 'external-snapshotter') return `csi-snapshotter ${who.driverName}`;
  // (the UUID from the component's own seed: the same run, the same name, and no draw from the cluster's stream)
  if (who.name === 'external-provisioner') return `${who.driverName}_${who.host}_${createRng(((who.seed ?? 0) ^ 0x5eed) >>> 0).uuid()}`;
  return undefined;
}

export class EventRecorder {
  /** aggregation key -> the Event's name */
  private names = new Map<string, string>();

  constructor(private readonly api: ApiServer, private readonly rng: Rng, private readonly epochUs: number) {}

  /**
   * Write the Event for `e` at `atUs`; the change to show on the step, and the arguments of the
   * recorder's log line ("Event occurred").
   */
  write(who: EventWho, e: EventRecordedEmitted, atUs: number): { change: ObjectChange; args: LogArgs } {
    const involved: K8sObject | undefined = this.api.get(e.involved.kind, e.involved.namespace, e.involved.name);
    // the reference's own fields, as the recorder's caller filled them (ref.GetReference: all of them)
    const has = (f: 'apiVersion' | 'uid' | 'resourceVersion'): boolean => !e.ref || e.ref.includes(f);
    const refFields = {
      ...(involved && has('uid') ? { uid: involved.metadata.uid } : {}),
      ...(involved && has('apiVersion') ? { apiVersion: involved.apiVersion } : !involved && e.ref?.includes('apiVersion') ? { apiVersion: API_VERSION[e.involved.kind] } : {}),
      ...(involved && has('resourceVersion') ? { resourceVersion: involved.metadata.resourceVersion } : {}),
    };
    const ns = e.involved.namespace ?? 'default';
    // (joined strings here and in the name: flat, not a tree of pieces kept for the whole run)
    // the correlator's key (client-go tools/record/events_cache.go getEventKey): the source (each process has its own
    // correlator), the involved object with its UID and apiVersion, the type, reason and message. A pod recreated under
    // the same name is another object: its Events start again at count 1
    const source = { component: EVENT_SOURCE[who.name] ?? sidecarSource(who) ?? who.name, ...(who.isKubelet ? { host: who.host } : {}) };
    const aggKey = [source.component, source.host ?? '', e.involved.kind, ns, e.involved.name, refFields.uid ?? '', refFields.apiVersion ?? '', e.eventType, e.reason, e.message].join('/');
    let name = this.names.get(aggKey);
    const ts = rfc3339(this.epochUs + atUs);
    let change: ObjectChange;
    const existing = name ? this.api.get('Event', ns, name) : undefined;
    if (existing) {
      const out = this.api.apply({ type: 'api.request', requestId: 'event', verb: 'patch', kind: 'Event', namespace: ns, name: name!, patch: { count: (existing.count ?? 1) + 1, lastTimestamp: ts } }, atUs);
      change = { kind: 'Event', namespace: ns, name: name!, before: out.before, after: out.after };
    } else {
      name = [e.involved.name, (BigInt(this.epochUs + atUs) * 1000n + BigInt(this.rng.int(0, 999))).toString(16)].join('.');
      this.names.set(aggKey, name);
      const out = this.api.apply({
        type: 'api.request', requestId: 'event', verb: 'create', kind: 'Event', namespace: ns, name,
        object: {
          apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: ns },
          involvedObject: {
            kind: e.involved.kind, ...(e.involved.namespace ? { namespace: e.involved.namespace } : {}), name: e.involved.name, ...refFields,
          },
          reason: e.reason, message: e.message, type: e.eventType, count: 1,
          source,
          firstTimestamp: ts, lastTimestamp: ts,
        },
      }, atUs);
      change = { kind: 'Event', namespace: ns, name, before: null, after: out.after };
    }
    const args: LogArgs = {
      kind: e.involved.kind, namespace: e.involved.namespace ?? '', name: e.involved.name,
      uid: refFields.uid ?? '', apiVersion: e.ref && !e.ref.includes('apiVersion') ? '' : refFields.apiVersion ?? API_VERSION[e.involved.kind],
      resourceVersion: refFields.resourceVersion ?? '', object: e.involved.namespace ? `${e.involved.namespace}/${e.involved.name}` : e.involved.name,
      type: e.eventType, reason: e.reason, message: e.message,
    };
    return { change, args };
  }
}
