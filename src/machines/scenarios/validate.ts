/**
 * Checks on the objects of a team's own scenario: each kind the simulation knows, the fields its
 * machines read, with one ScenarioError naming the object, the field and (for YAML) the line.
 * A check says what is wrong and what is expected, in the words of the Kubernetes API.
 */
import { API_VERSION, CLUSTER_SCOPED, type K8sObject, type Kind } from '../shared/k8s.ts';
import { ScenarioError } from './errors.ts';

export type Path = Array<string | number>;

/** Where an object comes from, for error messages. */
export interface ObjectSource {
  /** "document 3 (Pod default/web-0)" or "objects[2] (Pod default/web-0)" */
  document: string;
  documentIndex?: number;
  /** the YAML line of a field path inside the object (nearest existing parent) */
  line?: (path: Path) => number | undefined;
}

/** The kinds a scenario may hold, in the order a scenario creates them (dependencies first). */
export const SCENARIO_KINDS: readonly Kind[] = [
  'StorageClass', 'VolumeSnapshotClass', 'CSIDriver', 'Secret', 'Node', 'PersistentVolume', 'PersistentVolumeClaim',
  'VolumeSnapshotContent', 'VolumeSnapshot', 'StatefulSet', 'Pod',
];

export const ACCESS_MODES = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'] as const;

export const pathText = (path: Path): string =>
  path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${p}` : p), '');

export class Checker {
  constructor(readonly src: ObjectSource) {}

  fail(path: Path, message: string): never {
    const line = this.src.line?.(path);
    throw new ScenarioError(message, {
      document: this.src.document, ...(this.src.documentIndex !== undefined ? { documentIndex: this.src.documentIndex } : {}),
      ...(path.length ? { field: pathText(path) } : {}), ...(line !== undefined ? { line } : {}),
    });
  }

  get(o: unknown, path: Path): unknown {
    let cur = o;
    for (const p of path) {
      if (cur === null || typeof cur !== 'object') return undefined;
      cur = (cur as Record<string | number, unknown>)[p];
    }
    return cur;
  }

  object(o: unknown, path: Path, required = false): Record<string, unknown> | undefined {
    const v = this.get(o, path);
    if (v === undefined || v === null) {
      if (required) this.fail(path, 'is required (a mapping)');
      return undefined;
    }
    if (typeof v !== 'object' || Array.isArray(v)) this.fail(path, `must be a mapping, not ${describe(v)}`);
    return v as Record<string, unknown>;
  }

  array(o: unknown, path: Path, required = false): unknown[] | undefined {
    const v = this.get(o, path);
    if (v === undefined || v === null) {
      if (required) this.fail(path, 'is required (a list)');
      return undefined;
    }
    if (!Array.isArray(v)) this.fail(path, `must be a list, not ${describe(v)}`);
    return v;
  }

  string(o: unknown, path: Path, required = false): string | undefined {
    const v = this.get(o, path);
    if (v === undefined || v === null) {
      if (required) this.fail(path, 'is required');
      return undefined;
    }
    if (typeof v !== 'string') this.fail(path, `must be a string, not ${describe(v)}`);
    return v;
  }

  boolean(o: unknown, path: Path): boolean | undefined {
    const v = this.get(o, path);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') this.fail(path, `must be true or false, not ${describe(v)}`);
    return v;
  }

  integer(o: unknown, path: Path, min = 0, required = false): number | undefined {
    const v = this.get(o, path);
    if (v === undefined || v === null) {
      if (required) this.fail(path, 'is required (an integer)');
      return undefined;
    }
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) this.fail(path, `must be an integer of at least ${min}, not ${describe(v)}`);
    return v;
  }

  oneOf<T extends string>(o: unknown, path: Path, allowed: readonly T[], required = false): T | undefined {
    const v = this.string(o, path, required);
    if (v !== undefined && !allowed.includes(v as T)) this.fail(path, `must be one of ${allowed.join(', ')}, not "${v}"`);
    return v as T | undefined;
  }

  stringMap(o: unknown, path: Path): Record<string, string> | undefined {
    const m = this.object(o, path);
    if (!m) return undefined;
    for (const [k, v] of Object.entries(m)) {
      if (typeof v !== 'string') this.fail([...path, k], `must be a string (quote numbers and booleans: "${String(v)}"), not ${describe(v)}`);
    }
    return m as Record<string, string>;
  }

  quantity(o: unknown, path: Path, required = false): string | undefined {
    const v = this.get(o, path);
    if (v === undefined || v === null) {
      if (required) this.fail(path, 'is required (a quantity such as 10Gi)');
      return undefined;
    }
    const s = typeof v === 'number' ? String(v) : v;
    if (typeof s !== 'string' || !QUANTITY.test(s)) this.fail(path, `must be a quantity such as 10Gi or 500Mi, not ${describe(v)}`);
    return s;
  }

  name(o: unknown, path: Path, what = 'name'): string {
    const v = this.string(o, path, true)!;
    if (!DNS_SUBDOMAIN.test(v) || v.length > 253) this.fail(path, `"${v}" is not a valid ${what}: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit`);
    return v;
  }
}

const QUANTITY = /^\d+(\.\d+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E|m)?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  return `${typeof v} ${String(v)}`;
}

/** Bytes of a quantity ("10Gi" → 10737418240). */
export function quantityBytes(q: string): number {
  const m = QUANTITY.exec(q);
  if (!m) return NaN;
  const n = Number(q.replace(/[A-Za-z]+$/, ''));
  const unit = m[2] ?? '';
  const pow: Record<string, number> = {
    '': 1, m: 0.001, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
    Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
  };
  return Math.round(n * pow[unit]!);
}

const KIND_HINT: Record<string, string> = {
  Deployment: 'use a StatefulSet or Pods: the simulation has no Deployment or ReplicaSet controller',
  ReplicaSet: 'use a StatefulSet or Pods: the simulation has no ReplicaSet controller',
  Namespace: 'namespaces need no object here: any namespace a document names exists',
  Service: 'a Service does not change the storage path; leave it out (a StatefulSet\'s serviceName needs none here)',
  ConfigMap: 'a ConfigMap does not change the storage path; leave it out',
  Secret: 'a Secret does not change the storage path; leave it out (CSI secrets are not simulated)',
  VolumeAttachment: 'VolumeAttachments are created by the attach/detach controller; describe the Pod that needs the volume instead',
  CSINode: 'CSINode objects are written by each kubelet when the driver registers',
  Event: 'Events are recorded by the components as the story runs',
};

/**
 * Check one object of the scenario and give back a normalised copy (namespace "default" for
 * namespaced kinds, empty status where the API server would start one).
 */
export function checkObject(raw: unknown, src: ObjectSource): K8sObject {
  const c = new Checker(src);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) c.fail([], `must be a Kubernetes object (a mapping with apiVersion, kind and metadata), not ${describe(raw)}`);
  const o = raw as Record<string, unknown>;
  const kind = c.string(o, ['kind'], true)!;
  if (!(SCENARIO_KINDS as readonly string[]).includes(kind)) {
    c.fail(['kind'], `kind ${kind} is not part of the simulation${KIND_HINT[kind] ? `: ${KIND_HINT[kind]}` : ''} (a scenario holds ${SCENARIO_KINDS.filter((x) => x !== 'VolumeSnapshotContent').join(', ')} and one csi-flows/v1 Scenario)`);
  }
  const k = kind as Kind;
  const apiVersion = c.string(o, ['apiVersion'], true)!;
  if (apiVersion !== API_VERSION[k]) c.fail(['apiVersion'], `${k} is served as apiVersion ${API_VERSION[k]}, not "${apiVersion}"`);
  c.object(o, ['metadata'], true);
  const name = k === 'Node' ? c.string(o, ['metadata', 'name'], true)! : c.name(o, ['metadata', 'name']);
  if (k === 'Node' && !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name)) c.fail(['metadata', 'name'], `"${name}" is not a valid node name`);
  const ns = c.string(o, ['metadata', 'namespace']);
  if (ns !== undefined && CLUSTER_SCOPED.has(k)) c.fail(['metadata', 'namespace'], `${k} is cluster-scoped: it has no namespace`);
  if (ns !== undefined) c.name(o, ['metadata', 'namespace'], 'namespace');
  c.stringMap(o, ['metadata', 'labels']);
  c.stringMap(o, ['metadata', 'annotations']);
  const copy = JSON.parse(JSON.stringify(o)) as K8sObject;
  if (!CLUSTER_SCOPED.has(k)) copy.metadata.namespace = ns ?? 'default';
  CHECKS[k]?.(c, copy);
  return copy;
}

type Check = (c: Checker, o: K8sObject) => void;

const checkClaimSpec = (c: Checker, o: unknown, at: Path): void => {
  c.object(o, at, true);
  const modes = c.array(o, [...at, 'accessModes'], true)!;
  if (modes.length === 0) c.fail([...at, 'accessModes'], 'needs at least one access mode (e.g. ReadWriteOnce)');
  modes.forEach((_, i) => c.oneOf(o, [...at, 'accessModes', i], ACCESS_MODES, true));
  c.quantity(o, [...at, 'resources', 'requests', 'storage'], true);
  c.string(o, [...at, 'storageClassName']);
  c.oneOf(o, [...at, 'volumeMode'], ['Filesystem', 'Block']);
  c.string(o, [...at, 'volumeName']);
  const ds = c.object(o, [...at, 'dataSource']);
  if (ds) {
    c.oneOf(o, [...at, 'dataSource', 'kind'], ['PersistentVolumeClaim', 'VolumeSnapshot'], true);
    c.name(o, [...at, 'dataSource', 'name']);
  }
};

const checkPodSpec = (c: Checker, o: unknown, at: Path): void => {
  c.object(o, at, true);
  const containers = c.array(o, [...at, 'containers'], true)!;
  if (containers.length === 0) c.fail([...at, 'containers'], 'needs at least one container');
  containers.forEach((_, i) => {
    c.object(o, [...at, 'containers', i], true);
    c.string(o, [...at, 'containers', i, 'name'], true);
    c.string(o, [...at, 'containers', i, 'image'], true);
    const mounted = new Set<unknown>();
    (c.array(o, [...at, 'containers', i, 'volumeMounts']) ?? []).forEach((_m, j) => {
      mounted.add(c.string(o, [...at, 'containers', i, 'volumeMounts', j, 'name'], true));
      c.string(o, [...at, 'containers', i, 'volumeMounts', j, 'mountPath'], true);
    });
    // a raw block volume is used through volumeDevices (the API server's validation: a name in one list only, an absolute devicePath)
    (c.array(o, [...at, 'containers', i, 'volumeDevices']) ?? []).forEach((_m, j) => {
      const name = c.string(o, [...at, 'containers', i, 'volumeDevices', j, 'name'], true);
      const path = c.string(o, [...at, 'containers', i, 'volumeDevices', j, 'devicePath'], true);
      if (name !== undefined && mounted.has(name)) c.fail([...at, 'containers', i, 'volumeDevices', j, 'name'], `volume "${String(name)}" is already in volumeMounts: a container uses a volume as a file system or as a device, not both`);
      if (typeof path === 'string' && !path.startsWith('/')) c.fail([...at, 'containers', i, 'volumeDevices', j, 'devicePath'], `must be an absolute path, got "${path}"`);
    });
  });
  (c.array(o, [...at, 'volumes']) ?? []).forEach((_, i) => {
    c.object(o, [...at, 'volumes', i], true);
    c.string(o, [...at, 'volumes', i, 'name'], true);
    if (c.get(o, [...at, 'volumes', i, 'ephemeral']) !== undefined) c.fail([...at, 'volumes', i, 'ephemeral'], 'generic ephemeral volumes are not simulated yet; use a PersistentVolumeClaim');
    if (c.get(o, [...at, 'volumes', i, 'csi']) !== undefined) c.fail([...at, 'volumes', i, 'csi'], 'CSI inline (ephemeral) volumes are not simulated; use a PersistentVolumeClaim');
    if (c.object(o, [...at, 'volumes', i, 'persistentVolumeClaim'])) c.name(o, [...at, 'volumes', i, 'persistentVolumeClaim', 'claimName'], 'claim name');
  });
  c.string(o, [...at, 'nodeName']);
  c.integer(o, [...at, 'terminationGracePeriodSeconds']);
};

const CHECKS: Partial<Record<Kind, Check>> = {
  StorageClass: (c, o) => {
    c.string(o, ['provisioner'], true);
    c.stringMap(o, ['parameters']);
    c.oneOf(o, ['reclaimPolicy'], ['Delete', 'Retain']);
    c.oneOf(o, ['volumeBindingMode'], ['Immediate', 'WaitForFirstConsumer']);
    c.boolean(o, ['allowVolumeExpansion']);
    // TopologySelectorTerms: the scheduler places the claim's pod, and csi-provisioner asks for a topology, within them
    (c.array(o, ['allowedTopologies']) ?? []).forEach((_, i) => {
      (c.array(o, ['allowedTopologies', i, 'matchLabelExpressions'], true) ?? []).forEach((__, j) => {
        c.string(o, ['allowedTopologies', i, 'matchLabelExpressions', j, 'key'], true);
        (c.array(o, ['allowedTopologies', i, 'matchLabelExpressions', j, 'values'], true) ?? []).forEach((___, k) => c.string(o, ['allowedTopologies', i, 'matchLabelExpressions', j, 'values', k], true));
      });
    });
    o.parameters ??= {};
    o.reclaimPolicy ??= 'Delete';
    o.volumeBindingMode ??= 'Immediate';
  },
  CSIDriver: (c, o) => {
    c.object(o, ['spec']);
    c.boolean(o, ['spec', 'attachRequired']);
    c.boolean(o, ['spec', 'podInfoOnMount']);
    (c.array(o, ['spec', 'volumeLifecycleModes']) ?? []).forEach((_, i) => c.oneOf(o, ['spec', 'volumeLifecycleModes', i], ['Persistent', 'Ephemeral'], true));
    // the API server defaults attachRequired to true (storage/v1 CSIDriverSpec)
    o.spec = { attachRequired: true, podInfoOnMount: false, volumeLifecycleModes: ['Persistent'], ...(o.spec ?? {}) };
  },
  Node: (c, o) => {
    c.object(o, ['spec']);
    c.boolean(o, ['spec', 'unschedulable']);
  },
  PersistentVolume: (c, o) => {
    c.object(o, ['spec'], true);
    if (!c.object(o, ['spec', 'csi'])) c.fail(['spec', 'csi'], 'is required: only CSI volumes are simulated (in-tree, local and hostPath volumes are not)');
    c.string(o, ['spec', 'csi', 'driver'], true);
    c.string(o, ['spec', 'csi', 'volumeHandle'], true);
    c.string(o, ['spec', 'csi', 'fsType']);
    c.stringMap(o, ['spec', 'csi', 'volumeAttributes']);
    c.quantity(o, ['spec', 'capacity', 'storage'], true);
    const modes = c.array(o, ['spec', 'accessModes'], true)!;
    if (modes.length === 0) c.fail(['spec', 'accessModes'], 'needs at least one access mode (e.g. ReadWriteOnce)');
    modes.forEach((_, i) => c.oneOf(o, ['spec', 'accessModes', i], ACCESS_MODES, true));
    c.oneOf(o, ['spec', 'persistentVolumeReclaimPolicy'], ['Delete', 'Retain']);
    c.oneOf(o, ['spec', 'volumeMode'], ['Filesystem', 'Block']);
    if (c.object(o, ['spec', 'claimRef'])) {
      c.name(o, ['spec', 'claimRef', 'name'], 'claim name');
      c.string(o, ['spec', 'claimRef', 'namespace']);
    }
    o.spec.persistentVolumeReclaimPolicy ??= 'Retain';
    o.spec.volumeMode ??= 'Filesystem';
    o.spec.storageClassName ??= '';
    if (o.spec.claimRef) o.spec.claimRef = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: 'default', ...o.spec.claimRef };
    o.status = { phase: 'Pending', ...(o.status ?? {}) };
  },
  PersistentVolumeClaim: (c, o) => {
    checkClaimSpec(c, o, ['spec']);
    o.spec.volumeMode ??= 'Filesystem';
    o.status = { phase: 'Pending', ...(o.status ?? {}) };
  },
  Pod: (c, o) => {
    checkPodSpec(c, o, ['spec']);
    o.spec.terminationGracePeriodSeconds ??= 30;
    o.status = { phase: 'Pending', ...(o.status ?? {}) };
  },
  StatefulSet: (c, o) => {
    c.object(o, ['spec'], true);
    c.integer(o, ['spec', 'replicas']);
    c.oneOf(o, ['spec', 'podManagementPolicy'], ['OrderedReady', 'Parallel']);
    const sel = c.stringMap(o, ['spec', 'selector', 'matchLabels']);
    if (!sel || Object.keys(sel).length === 0) c.fail(['spec', 'selector', 'matchLabels'], 'is required: the labels that pick the set\'s pods');
    const labels = c.stringMap(o, ['spec', 'template', 'metadata', 'labels']) ?? {};
    for (const [k, v] of Object.entries(sel!)) {
      if (labels[k] !== v) c.fail(['spec', 'template', 'metadata', 'labels'], `must include the selector's ${k}: ${v} ("selector does not match template labels")`);
    }
    checkPodSpec(c, o, ['spec', 'template', 'spec']);
    (c.array(o, ['spec', 'volumeClaimTemplates']) ?? []).forEach((_, i) => {
      c.name(o, ['spec', 'volumeClaimTemplates', i, 'metadata', 'name'], 'claim template name');
      checkClaimSpec(c, o, ['spec', 'volumeClaimTemplates', i, 'spec']);
    });
    o.spec.replicas ??= 1;
    o.spec.podManagementPolicy ??= 'OrderedReady';
    o.spec.serviceName ??= o.metadata.name;
    o.spec.template.spec.terminationGracePeriodSeconds ??= 30;
    o.status = { replicas: 0, ...(o.status ?? {}) };
  },
  VolumeSnapshotClass: (c, o) => {
    c.string(o, ['driver'], true);
    c.oneOf(o, ['deletionPolicy'], ['Delete', 'Retain'], true);
  },
  VolumeSnapshot: (c, o) => {
    c.object(o, ['spec'], true);
    c.object(o, ['spec', 'source'], true);
    const pvc = c.string(o, ['spec', 'source', 'persistentVolumeClaimName']);
    const content = c.string(o, ['spec', 'source', 'volumeSnapshotContentName']);
    if (!pvc && !content) c.fail(['spec', 'source'], 'needs persistentVolumeClaimName (or volumeSnapshotContentName for a pre-provisioned snapshot)');
    c.string(o, ['spec', 'volumeSnapshotClassName']);
  },
  VolumeSnapshotContent: (c, o) => {
    c.object(o, ['spec'], true);
    c.string(o, ['spec', 'driver'], true);
    c.oneOf(o, ['spec', 'deletionPolicy'], ['Delete', 'Retain'], true);
    c.object(o, ['spec', 'source'], true);
    c.object(o, ['spec', 'volumeSnapshotRef'], true);
  },
};
