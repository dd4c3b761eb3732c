/**
 * A small in-memory API server: objects with uid, resourceVersion, finalizers and deletionTimestamp;
 * create/update/patch/delete with the semantics the storage controllers rely on; a change feed the
 * cluster turns into watch events. Not a component machine: it is the medium components talk through.
 * upstream semantics: k8s.io/apiserver registry/generic/registry/store.go (graceful deletion,
 * finalizers), JSON merge patch (RFC 7386) with strategic merge's list directives for finalizers.
 */
import type { ApiRequestEmitted } from '../shared/contract.ts';
import { API_VERSION, CLUSTER_SCOPED, type K8sObject, type Kind, RESOURCE, keyOf, objectKey } from '../shared/k8s.ts';
import { rfc3339 } from '../shared/goFormat.ts';
import type { Rng } from '../shared/rng.ts';
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../shared/names.ts';

export interface ApiChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: K8sObject;
  oldObject?: K8sObject;
}

export interface ApiOutcome {
  ok: boolean;
  code: number;
  reason?: string;
  message?: string;
  object?: K8sObject;
  before: K8sObject | null;
  after: K8sObject | null;
  change?: ApiChange;
}

/** Deep-freeze so that no component can change stored state behind the API server's back. */
export function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as Record<string, unknown>)) deepFreeze(v);
  }
  return o;
}

/**
 * A copy of JSON data, as a JSON round trip makes it (undefined members dropped, undefined or a
 * non-finite number in a list become null), without the text in between: the API server copies what
 * each write hands it, thousands of times in a large rollout.
 */
function clone<T>(o: T): T {
  if (o === undefined) return o;
  return copyJson(o) as T;
}
function copyJson(v: unknown): unknown {
  if (v === null) return null;
  switch (typeof v) {
    case 'string': case 'boolean': return v;
    case 'number': return Number.isFinite(v) ? v : null;
    case 'object': break;
    default: return undefined; // a function or a symbol: JSON has no such value
  }
  const toJSON = (v as { toJSON?: () => unknown }).toJSON;
  if (typeof toJSON === 'function') return JSON.parse(JSON.stringify(v));
  if (Array.isArray(v)) {
    const a = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) { const x = copyJson(v[i]); a[i] = x === undefined ? null : x; }
    return a;
  }
  const r: Record<string, unknown> = {};
  for (const k in v as Record<string, unknown>) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    const x = copyJson((v as Record<string, unknown>)[k]);
    if (x !== undefined) r[k] = x;
  }
  return r;
}

/**
 * RFC 7386 JSON merge patch; returns a new value. It also reads the two directives a strategic merge
 * patch uses for a list of strings merged by value, such as metadata.finalizers
 * (apimachinery strategicpatch: `$deleteFromPrimitiveList/<field>` removes those values,
 * `$setElementOrder/<field>` makes `<field>` a union with the stored list, in that order), which a
 * controller sends to add or remove its own finalizer without touching the others'.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return clone(patch);
  const base: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  const p = patch as Record<string, unknown>;
  for (const [k, v] of Object.entries(p)) {
    if (k.startsWith('$')) continue;
    const order = p[`$setElementOrder/${k}`];
    if (Array.isArray(order) && Array.isArray(v)) {
      const union = new Set([...((Array.isArray(base[k]) ? base[k] : []) as unknown[]), ...v]);
      base[k] = [...order.filter((x) => union.has(x)), ...[...union].filter((x) => !order.includes(x))];
    } else if (v === null) delete base[k];
    else base[k] = mergePatch(base[k], v);
  }
  for (const [k, v] of Object.entries(p)) {
    if (!k.startsWith('$deleteFromPrimitiveList/') || !Array.isArray(v)) continue;
    const field = k.slice('$deleteFromPrimitiveList/'.length);
    const kept = ((Array.isArray(base[field]) ? base[field] : []) as unknown[]).filter((x) => !v.includes(x));
    if (kept.length) base[field] = kept; else delete base[field];
  }
  return base;
}

/** The kind's API group ('' for the core group: apiVersion "v1"). */
const apiGroup = (kind: Kind): string => (API_VERSION[kind].includes('/') ? API_VERSION[kind].split('/')[0]! : '');

/** "volumeattachments.storage.k8s.io" as apimachinery prints a group resource. */
export function groupResource(kind: Kind): string {
  const group = apiGroup(kind);
  return group ? `${RESOURCE[kind]}.${group}` : RESOURCE[kind];
}

/** schema.GroupKind.String(): "PersistentVolume", "VolumeAttachment.storage.k8s.io" (as NewInvalid names a kind) */
export function groupKind(kind: Kind): string {
  const group = apiGroup(kind);
  return group ? `${kind}.${group}` : kind;
}

export class ApiServer {
  private objects = new Map<string, K8sObject>();
  /**
   * The same objects by kind, each map in the order of `objects` (a Map keeps a key's place when it is
   * set again): list(kind) is an informer's initial list, asked by every component as it starts, and
   * a large cluster starts a thousand kubelets over a hundred thousand objects.
   */
  private byKind = new Map<Kind, Map<string, K8sObject>>();
  private rv: number;

  constructor(
    private rng: Rng,
    /** wall-clock epoch (µs) of virtual time 0, for creationTimestamp/deletionTimestamp */
    private epochUs: number,
    firstResourceVersion = 1000,
    /** the AnyVolumeDataSource feature gate: a new claim's dataSource is copied into dataSourceRef (Profile.anyVolumeDataSource) */
    private readonly anyVolumeDataSource = false,
    /** the ReadWriteOncePod access mode exists (Profile.apiReadWriteOncePod); without it validation refuses it */
    private readonly readWriteOncePod = true,
  ) {
    this.rv = firstResourceVersion;
  }

  /** ValidatePersistentVolumeClaimSpec / ValidatePersistentVolumeSpec's access modes, where the profile has no ReadWriteOncePod. */
  private unsupportedAccessMode(o: K8sObject): string | undefined {
    if (this.readWriteOncePod || (o.kind !== 'PersistentVolumeClaim' && o.kind !== 'PersistentVolume')) return undefined;
    const mode = ((o.spec?.accessModes ?? []) as string[]).find((m) => m !== 'ReadWriteOnce' && m !== 'ReadOnlyMany' && m !== 'ReadWriteMany');
    return mode === undefined ? undefined
      : `spec.accessModes: Unsupported value: ${JSON.stringify(mode)}: supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"`;
  }

  get(kind: Kind, namespace: string | undefined, name: string): K8sObject | undefined {
    return this.objects.get(objectKey(kind, CLUSTER_SCOPED.has(kind) ? undefined : namespace, name));
  }

  list(kind?: Kind): K8sObject[] {
    return kind ? [...(this.byKind.get(kind)?.values() ?? [])] : [...this.objects.values()];
  }

  /** every stored object, in a stable order (kind, namespace, name) */
  snapshot(): K8sObject[] {
    // (each object's key made once, not at every comparison: a large cluster holds a hundred thousand objects)
    return [...this.objects].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, o]) => o);
  }

  private nextRv(): string {
    this.rv += 1;
    return String(this.rv);
  }

  private store(o: K8sObject): K8sObject {
    const f = deepFreeze(o);
    const key = keyOf(f);
    this.objects.set(key, f);
    let kind = this.byKind.get(f.kind);
    if (!kind) this.byKind.set(f.kind, (kind = new Map()));
    kind.set(key, f);
    return f;
  }

  private remove(key: string, kind: Kind): void {
    this.objects.delete(key);
    this.byKind.get(kind)?.delete(key);
  }

  private notFound(kind: Kind, name: string): ApiOutcome {
    return { ok: false, code: 404, reason: 'NotFound', message: `${groupResource(kind)} "${name}" not found`, before: null, after: null };
  }

  /** Apply one request at virtual time `now` (µs). */
  /**
   * POST pods/<name>/binding (pkg/registry/core/pod/storage BindingREST): the pod gets the Binding's node as
   * spec.nodeName, a modification its watchers see; a pod that has a node already is refused (a Conflict).
   * In the same write the registry sets the PodScheduled condition True, stamped now when it is new
   * (storage.go setPodHostAndAnnotations -> pkg/api/pod/util.go UpdatePodCondition, v1.30.1 :244-247 / :274-298;
   * v1.20.5 alike): the kubelet's status writes keep its lastTransitionTime.
   */
  private bind(req: ApiRequestEmitted, now: number): ApiOutcome {
    const cur = this.get('Pod', req.namespace, req.name);
    if (!cur) return this.notFound('Pod', req.name);
    const node = (req.object as { target?: { name?: string } } | undefined)?.target?.name ?? '';
    if (cur.spec?.nodeName) {
      return { ok: false, code: 409, reason: 'Conflict', message: `Operation cannot be fulfilled on pods/binding "${req.name}": pod ${req.name} is already assigned to node "${cur.spec.nodeName}"`, before: cur, after: cur };
    }
    type Condition = { type: string; status: string; lastTransitionTime?: string };
    const conditions = (cur.status?.conditions ?? []) as Condition[];
    const at = conditions.findIndex((c) => c.type === 'PodScheduled');
    const old = conditions[at];
    const scheduled = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: old?.status === 'True' ? old.lastTransitionTime : rfc3339(this.epochUs + now) };
    // (a merge patch replaces the list: the whole of it, the condition where UpdatePodCondition puts it)
    const list = at < 0 ? [...conditions, scheduled] : conditions.map((c, i) => (i === at ? scheduled : c));
    const out = this.apply({ ...req, subresource: undefined, verb: 'patch', object: undefined, patch: { spec: { nodeName: node }, status: { conditions: list } } }, now);
    return out.ok ? { ...out, code: 201 } : out;
  }

  apply(req: ApiRequestEmitted, now: number): ApiOutcome {
    if (req.subresource === 'binding') return this.bind(req, now);
    const ns = CLUSTER_SCOPED.has(req.kind) ? undefined : req.namespace;
    const key = objectKey(req.kind, ns, req.name);
    const cur = this.objects.get(key) ?? null;
    // a GET needs no timestamp: formatted only for the writes that stamp one
    let stamp: string | undefined;
    const ts = (): string => (stamp ??= rfc3339(this.epochUs + now));
    switch (req.verb) {
      case 'get':
        return cur ? { ok: true, code: 200, object: cur, before: cur, after: cur } : this.notFound(req.kind, req.name);
      case 'create': {
        if (cur) {
          return {
            ok: false, code: 409, reason: 'AlreadyExists',
            message: `${groupResource(req.kind)} "${req.name}" already exists`, before: cur, after: cur,
          };
        }
        const o = clone(req.object!);
        o.apiVersion = API_VERSION[req.kind];
        o.kind = req.kind;
        const unsupported = this.unsupportedAccessMode(o);
        if (unsupported) return { ok: false, code: 422, reason: 'Invalid', message: `${groupKind(req.kind)} "${req.name}" is invalid: ${unsupported}`, before: null, after: null };
        // admission: StorageObjectInUseProtection puts the protection finalizer on every new claim and
        // volume. upstream: plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go
        const protection = req.kind === 'PersistentVolumeClaim' ? PVC_PROTECTION_FINALIZER : req.kind === 'PersistentVolume' ? PV_PROTECTION_FINALIZER : undefined;
        if (protection && !o.metadata.finalizers?.includes(protection)) o.metadata.finalizers = [...(o.metadata.finalizers ?? []), protection];
        // NormalizeDataSources on create (pkg/api/persistentvolumeclaim/util.go): with AnyVolumeDataSource on,
        // a claim that names only a dataSource gets the same reference as dataSourceRef
        if (req.kind === 'PersistentVolumeClaim' && this.anyVolumeDataSource && o.spec?.dataSource && !o.spec.dataSourceRef) {
          const d = o.spec.dataSource as { apiGroup?: string; kind: string; name: string };
          o.spec = { ...o.spec, dataSourceRef: { ...(d.apiGroup !== undefined ? { apiGroup: d.apiGroup } : {}), kind: d.kind, name: d.name } };
        }
        // a VolumeAttachment's status is the attacher's to write: storage/v1 resets it on create
        // (pkg/registry/storage/volumeattachment/strategy.go PrepareForCreate), and `attached` has no
        // omitempty (k8s.io/api/storage/v1 types.go), so a new one reads status: {attached: false}.
        // A scenario's own objects (requestId 'init') are already there and keep theirs.
        if (req.kind === 'VolumeAttachment') o.status = req.requestId === 'init' ? { attached: false, ...o.status } : { attached: false };
        o.metadata = {
          ...o.metadata, name: req.name, ...(ns ? { namespace: ns } : {}),
          uid: o.metadata.uid ?? this.rng.uuid(), resourceVersion: this.nextRv(),
          creationTimestamp: o.metadata.creationTimestamp ?? ts(),
        };
        const stored = this.store(o);
        return { ok: true, code: 201, object: stored, before: null, after: stored, change: { type: 'ADDED', object: stored } };
      }
      case 'update':
      case 'updateStatus':
      case 'patch':
      case 'patchStatus': {
        if (!cur) return this.notFound(req.kind, req.name);
        let next: K8sObject;
        if (req.verb === 'update' || req.verb === 'updateStatus') {
          const given = req.object!;
          if (given.metadata.resourceVersion && given.metadata.resourceVersion !== cur.metadata.resourceVersion) {
            return {
              ok: false, code: 409, reason: 'Conflict',
              message: `Operation cannot be fulfilled on ${groupResource(req.kind)} "${req.name}": the object has been modified; please apply your changes to the latest version and try again`,
              before: cur, after: cur,
            };
          }
          next = req.verb === 'update'
            ? { ...clone(given), status: clone(cur.status), metadata: { ...clone(given.metadata) } }
            : { ...clone(cur), status: clone(given.status) };
        } else {
          const p = req.verb === 'patchStatus' ? { status: req.patch?.status ?? req.patch } : (req.patch ?? {});
          next = mergePatch(cur, p) as K8sObject;
        }
        // identity fields are the server's
        next.apiVersion = cur.apiVersion;
        next.kind = cur.kind;
        next.metadata = {
          ...next.metadata, name: cur.metadata.name, ...(cur.metadata.namespace ? { namespace: cur.metadata.namespace } : {}),
          uid: cur.metadata.uid!, creationTimestamp: cur.metadata.creationTimestamp!,
          ...(cur.metadata.deletionTimestamp ? { deletionTimestamp: cur.metadata.deletionTimestamp } : {}),
        };
        if (next.metadata.finalizers && next.metadata.finalizers.length === 0) delete next.metadata.finalizers;
        // no finalizer may be added to an object being deleted (apimachinery validation/objectmeta.go
        // ValidateObjectMetaAccessorUpdate, ValidateNoNewFinalizers; v1.20.5 and v1.30.1 alike): a write
        // computed from an older copy that still had a finalizer someone removed since is refused
        if (cur.metadata.deletionTimestamp) {
          const had = new Set(cur.metadata.finalizers ?? []);
          const added = [...new Set(next.metadata.finalizers ?? [])].filter((f) => !had.has(f)).sort();
          if (added.length) {
            return {
              ok: false, code: 422, reason: 'Invalid',
              message: `${groupKind(req.kind)} "${req.name}" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
              before: cur, after: cur,
            };
          }
        }
        if (next.metadata.annotations && Object.keys(next.metadata.annotations).length === 0) delete next.metadata.annotations;
        // A write that removes the last finalizer of an object being deleted completes the deletion.
        if (cur.metadata.deletionTimestamp && !next.metadata.finalizers?.length && !this.waitsForGrace(next)) {
          this.remove(key, cur.kind);
          const gone = deepFreeze({ ...next, metadata: { ...next.metadata, resourceVersion: this.nextRv() } });
          return { ok: true, code: 200, object: gone, before: cur, after: null, change: { type: 'DELETED', object: gone, oldObject: cur } };
        }
        next.metadata.resourceVersion = this.nextRv();
        const stored = this.store(next);
        return { ok: true, code: 200, object: stored, before: cur, after: stored, change: { type: 'MODIFIED', object: stored, oldObject: cur } };
      }
      case 'delete': {
        if (!cur) return this.notFound(req.kind, req.name);
        // A bound Pod is deleted gracefully: marked now, removed by the kubelet's final delete (grace 0).
        const graceful = req.kind === 'Pod' && !!cur.spec?.nodeName && req.gracePeriodSeconds !== 0;
        if (graceful || cur.metadata.finalizers?.length) {
          if (cur.metadata.deletionTimestamp) return { ok: true, code: 200, object: cur, before: cur, after: cur };
          const grace = graceful ? (req.gracePeriodSeconds ?? cur.spec?.terminationGracePeriodSeconds ?? 30) : 0;
          const marked = clone(cur);
          marked.metadata.deletionTimestamp = rfc3339(this.epochUs + now + grace * 1_000_000);
          marked.metadata.deletionGracePeriodSeconds = grace;
          marked.metadata.resourceVersion = this.nextRv();
          const stored = this.store(marked);
          return { ok: true, code: 200, object: stored, before: cur, after: stored, change: { type: 'MODIFIED', object: stored, oldObject: cur } };
        }
        this.remove(key, cur.kind);
        const gone = deepFreeze({ ...clone(cur), metadata: { ...clone(cur.metadata), resourceVersion: this.nextRv() } });
        return { ok: true, code: 200, object: gone, before: cur, after: null, change: { type: 'DELETED', object: gone, oldObject: cur } };
      }
    }
  }

  /** Pods marked for deletion stay until the kubelet's final delete (grace period 0). */
  private waitsForGrace(o: K8sObject): boolean {
    return o.kind === 'Pod' && !!o.spec?.nodeName;
  }
}
