/**
 * Pure builders for what csi-provisioner sends: the CreateVolume request and the PersistentVolume
 * it saves. upstream: external-provisioner pkg/controller/controller.go (prepareProvision,
 * Provision), sig-storage-lib-external-provisioner controller.go (getProvisionedVolumeNameForClaim).
 */
import { CSI_ACCESS_MODE, CSI_PARAMETER_PREFIX as PREFIX, removePrefixedParameters } from '../shared/csi.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { ANN_PROVISIONED_BY, ANN_SELECTED_NODE, PROVISIONER_PV_FINALIZER } from '../shared/names.ts';
import type { DriverProfile } from '../drivers/types.ts';

/** "pvc-" + claim UID: the volume name is deterministic, so a retry asks for the same volume. */
export const provisionedVolumeName = (claim: K8sObject): string => `pvc-${claim.metadata.uid}`;

const UNITS: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12, '': 1 };

/** resource.Quantity → bytes, for the forms claims use ("10Gi", "500M", "1073741824"). */
export function quantityBytes(q: string): number {
  const m = /^(\d+(?:\.\d+)?)([KMGT]i|[kMGT])?$/.exec(q.trim());
  if (!m) throw new Error(`unsupported quantity ${q}`);
  return Math.round(Number(m[1]) * UNITS[m[2] ?? '']!);
}

/** bytes → the BinarySI text resource.NewQuantity prints ("10Gi"). */
export function bytesQuantity(b: number): string {
  for (const u of ['Ti', 'Gi', 'Mi', 'Ki']) if (b % UNITS[u]! === 0 && b >= UNITS[u]!) return `${b / UNITS[u]!}${u}`;
  return String(b);
}

const ACCESS: Record<string, number> = {
  ReadWriteOnce: CSI_ACCESS_MODE.SINGLE_NODE_WRITER, ReadOnlyMany: CSI_ACCESS_MODE.MULTI_NODE_READER_ONLY,
  ReadWriteMany: CSI_ACCESS_MODE.MULTI_NODE_MULTI_WRITER, ReadWriteOncePod: CSI_ACCESS_MODE.SINGLE_NODE_SINGLE_WRITER,
};

/** The PV annotations that say which Secret DeleteVolume needs (v5.0.1 pkg/controller/controller.go :144-145). */
export const ANN_DELETION_SECRET_NAME = 'volume.kubernetes.io/provisioner-deletion-secret-name';
export const ANN_DELETION_SECRET_NAMESPACE = 'volume.kubernetes.io/provisioner-deletion-secret-namespace';

export function fsTypeOf(cls: K8sObject, driver: DriverProfile): string {
  const p = (cls.parameters ?? {}) as Record<string, string>;
  return p[`${PREFIX}fstype`] ?? p.fsType ?? driver.defaultFsType;
}

type Term = Record<string, string>;
/** topologyTerm.hash: "key#value" pairs, sorted, joined; terms sort by it (topologyTerm.less) */
const termHash = (t: Term): string => Object.entries(t).map(([k, v]) => `${k}#${v}`).sort().join(',');

/** FNV-1, 32 bit (Go's hash/fnv New32) */
function fnv1(s: string): number {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(s)) h = (Math.imul(h, 0x01000193) ^ b) >>> 0;
  return h;
}

/**
 * getPVCNameHashAndIndexOffset: a StatefulSet claim "<claim>-<set>-<n>" hashes only "<set>" and adds n,
 * so the replicas of a StatefulSet spread over the zones in order.
 */
function pvcNameHashAndIndex(name: string): number {
  let hashString = name;
  let index = 0;
  const lastDash = name.lastIndexOf('-');
  if (lastDash !== -1 && /^\d+$/.test(name.slice(lastDash + 1)) && Number(name.slice(lastDash + 1)) <= 0xffffffff) {
    index = Number(name.slice(lastDash + 1));
    hashString = name.slice(0, lastDash);
    const dash = hashString.lastIndexOf('-');
    if (dash !== -1) hashString = hashString.slice(dash + 1);
  }
  return (fnv1(hashString) + index) >>> 0;
}

/**
 * CreateVolume's accessibility_requirements, as GenerateAccessibilityRequirements builds them.
 * - requisite: the class's allowedTopologies, each term's values distributed (flatten: zone In [a, b] is two
 *   terms), when it has any; else the topology of every node that carries all the driver's topology keys (its Node
 *   labels); deduplicated; --strict-topology: the selected node's alone (which must be within allowedTopologies);
 * - preferred: the same terms sorted, shifted so that the first one within the selected node's topology comes first
 *   (delayed binding; none is an error), or by a hash of the claim's name (immediate binding, spreading a
 *   StatefulSet's claims); --strict-topology: the requisite.
 * The default flags are --strict-topology=false and --immediate-topology=true. Upstream lists the
 * requisite in Go map order (deduplicate); here it is sorted, one of the orders it can take.
 * Its errors fail the provisioning before CreateVolume (prepareProvision: "error generating accessibility
 * requirements: …", ProvisioningNoChange): a selected node whose CSINode entry has no topology keys (the
 * kubelet labels the node with the keys it records there, so here: a node without the driver's labels),
 * or, with immediate binding, no node at all with them ("the driver has not registered on any nodes").
 * v2.1.0 asks only with its Topology feature gate on (off by default until v5.0.0, pkg/features/features.go;
 * Tencent's cbs manifest turns it on, deploy/cbs/kubernetes/csi-controller-new.yaml), v5.0.1 by default:
 * here a driver with topology keys is asked on both profiles.
 * upstream: external-provisioner pkg/controller/topology.go (v5.0.1 GenerateAccessibilityRequirements;
 * v2.1.0 the same), controller.go (v2.1.0 :615-627, v5.0.1 :683-695), cmd/csi-provisioner/csi-provisioner.go
 * (the flags).
 */
export function accessibilityRequirements(driver: DriverProfile, claim: K8sObject, nodes: K8sObject[], strict: boolean, allowedTopologies?: readonly TopologySelectorTerm[]):
  { requirement?: Record<string, unknown>; error?: string } {
  const keys = driver.topologyKeys;
  if (!keys.length) return {};
  const termOf = (n: K8sObject): Term | undefined => (keys.every((k) => n.metadata.labels?.[k] !== undefined)
    ? Object.fromEntries(keys.map((k) => [k, n.metadata.labels![k]!])) : undefined);
  const selectedName = claim.metadata.annotations?.[ANN_SELECTED_NODE];
  const selectedNode = selectedName ? nodes.find((n) => n.metadata.name === selectedName) : undefined;
  const selected = selectedNode ? termOf(selectedNode) : undefined;
  if (selectedNode && !selected) return { error: `no topology key found on CSINode ${selectedNode.metadata.name}` };
  const allowed = allowedTopologies?.length ? flatten(allowedTopologies) : undefined;
  // a term within the selected node's topology (topologyTerm.subset)
  const within = (t: Term): boolean => !!selected && Object.entries(t).every(([k, v]) => selected[k] === v);
  if (strict && selected && allowed && !allowed.some(within)) {
    return { error: `selected node '"${selectedNode!.metadata.name}"' topology '${goTerm(selected)}' is not in allowed topologies: [${allowed.map(goTerm).join(' ')}]` };
  }
  // deduplicated and sorted by topologyTerm.hash
  const terms = strict && selected ? [selected] : allowed ?? nodes.map(termOf).filter((t): t is Term => !!t);
  const byHash = new Map(terms.map((t) => [termHash(t), t]));
  const requisite = [...byHash.keys()].sort().map((h) => byHash.get(h)!);
  if (!requisite.length) return allowed ? {} : { error: 'no available topology found' };
  let preferred: Term[];
  if (selected && strict) preferred = requisite;
  else {
    const at = selected ? requisite.findIndex(within) : pvcNameHashAndIndex(claim.metadata.name) % requisite.length;
    if (at < 0) return { error: `topology ${goTerm(selected!)} from selected node "${selectedNode!.metadata.name}" is not in requisite: [${requisite.map(goTerm).join(' ')}]` };
    preferred = [...requisite.slice(at), ...requisite.slice(0, at)];
  }
  return { requirement: { requisite: requisite.map((segments) => ({ segments })), preferred: preferred.map((segments) => ({ segments })) } };
}

type TopologySelectorTerm = { matchLabelExpressions?: Array<{ key: string; values?: string[] }> };

/** flatten: each term's expressions ANDed, each expression's values ORed, distributed into single-valued terms (topology.go). */
function flatten(allowed: readonly TopologySelectorTerm[]): Term[] {
  const out: Term[] = [];
  for (const selector of allowed) {
    let old: Term[] = [];
    for (const e of selector.matchLabelExpressions ?? []) {
      const next: Term[] = [];
      for (const v of e.values ?? []) {
        if (old.length === 0) next.push({ [e.key]: v });
        else for (const t of old) next.push({ ...t, [e.key]: v });
      }
      old = next;
    }
    out.push(...old);
  }
  return out;
}

/** A topologyTerm as Go's %v prints a map[string]string: map[k1:v1 k2:v2], keys sorted. */
const goTerm = (t: Term): string => `map[${Object.keys(t).sort().map((k) => `${k}:${t[k]}`).join(' ')}]`;

/** The Secret kinds a StorageClass can name (csi.storage.k8s.io/<kind>-secret-name and -namespace). */
export type SecretKind = 'provisioner' | 'controller-publish' | 'node-stage' | 'node-publish' | 'controller-expand' | 'node-expand';
export interface SecretRef { name: string; namespace: string }

/** The Secrets a provisioned PV names (csiPVSource), in its field order: node-expand since v3.3.0 (Profile.provisionerNodeExpandSecret). */
export const pvSecretKinds = (nodeExpand: boolean): SecretKind[] =>
  ['controller-publish', 'node-stage', 'node-publish', 'controller-expand', ...(nodeExpand ? ['node-expand' as const] : [])];

/**
 * removePrefixedParameters' check: the first class parameter under csi.storage.k8s.io/ that the provisioner does not
 * know (the fstype, the Secret names and namespaces of the kinds it knows, the default secret-name and
 * -namespace), or undefined. Upstream ranges over a Go map, so which of several unknown keys it names is chance; here
 * the first in the class's order. upstream: controller.go removePrefixedParameters (v5.0.1 :995-1026, v2.1.0 :877-905).
 */
export function unknownReservedParameter(params: Readonly<Record<string, string>> | undefined, nodeExpand: boolean): string | undefined {
  const known = new Set([`${PREFIX}fstype`, `${PREFIX}secret-name`, `${PREFIX}secret-namespace`,
    ...(['provisioner', ...pvSecretKinds(nodeExpand)] as SecretKind[]).flatMap((k) => [`${PREFIX}${k}-secret-name`, `${PREFIX}${k}-secret-namespace`])]);
  return Object.keys(params ?? {}).find((k) => k.startsWith(PREFIX) && !known.has(k));
}

/**
 * getSecretReference: the Secret of `kind` the class names, its templates filled in (${pv.name}, ${pvc.name},
 * ${pvc.namespace}); undefined when it names none; an error when it gives only one of name and namespace. Left out:
 * the deprecated csi<Kind>SecretName keys, the csi.storage.k8s.io/secret-name default and the pvc.annotations
 * templates. upstream: external-provisioner pkg/controller/controller.go getSecretReference,
 * verifyAndGetSecretNameAndNamespaceTemplate (v2.1.0 and v5.0.1).
 */
export function secretReference(cls: K8sObject, kind: SecretKind, pvName: string, claim: K8sObject): { ref?: SecretRef; error?: string } {
  const p = (cls.parameters ?? {}) as Record<string, string>;
  const nameKey = `${PREFIX}${kind}-secret-name`;
  const namespaceKey = `${PREFIX}${kind}-secret-namespace`;
  const name = p[nameKey];
  const namespace = p[namespaceKey];
  if (name === undefined && namespace === undefined) return {};
  // (secretParamsMap.name: Provisioner, ControllerPublish, NodeStage, NodePublish, ControllerExpand, NodeExpand)
  const label = kind.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  if (name === undefined || namespace === undefined) return { error: `either name and namespace for ${label} secrets specified, Both must be specified` };
  const fill = (t: string) => t.replaceAll('${pv.name}', pvName).replaceAll('${pvc.namespace}', claim.metadata.namespace ?? '').replaceAll('${pvc.name}', claim.metadata.name);
  return { ref: { name: fill(name), namespace: fill(namespace) } };
}


/** util.CheckPersistentVolumeClaimModeBlock */
const isBlockClaim = (claim: K8sObject): boolean => claim.spec?.volumeMode === 'Block';

export function createVolumeRequest(claim: K8sObject, cls: K8sObject, driver: DriverProfile, nodes: K8sObject[], strictTopology = false): Record<string, unknown> {
  return volumeRequest(claim, cls, driver, accessibilityRequirements(driver, claim, nodes, strictTopology, cls.allowedTopologies as TopologySelectorTerm[] | undefined).requirement);
}

/** The CreateVolume request around accessibility requirements already generated (`acc`, none when undefined). */
/**
 * `extraCreateMetadata` (--extra-create-metadata): the parameters also carry the claim's name and namespace and the PV's
 * name (prepareProvision v5.0.1 :745-750, v2.1.0 :677-682; keys :119-121 / :112-114).
 */
export function volumeRequest(claim: K8sObject, cls: K8sObject, driver: DriverProfile, acc: Record<string, unknown> | undefined, secrets?: Record<string, string>, extraCreateMetadata = false): Record<string, unknown> {
  // (and the deprecated fsType key, which is the fstype too)
  const params = removePrefixedParameters(cls.parameters as Record<string, string> | undefined);
  delete params.fsType;
  if (extraCreateMetadata) {
    params[`${PREFIX}pvc/name`] = claim.metadata.name;
    params[`${PREFIX}pvc/namespace`] = claim.metadata.namespace ?? '';
    params[`${PREFIX}pv/name`] = provisionedVolumeName(claim);
  }
  const modes: string[] = claim.spec?.accessModes ?? ['ReadWriteOnce'];
  const src = claim.spec?.dataSource;
  return {
    name: provisionedVolumeName(claim),
    capacity_range: { required_bytes: quantityBytes(claim.spec?.resources?.requests?.storage ?? '1Gi') },
    // controller.go getVolumeCapability: a Block claim asks for a Block capability (v5.0.1 :499), else a
    // Mount one whose mount_flags are the StorageClass's mountOptions
    volume_capabilities: modes.map((m) => ({
      AccessType: isBlockClaim(claim) ? { Block: {} } : { Mount: { fs_type: fsTypeOf(cls, driver), ...(cls.mountOptions?.length ? { mount_flags: cls.mountOptions } : {}) } },
      access_mode: { mode: ACCESS[m] ?? 1 },
    })),
    ...(Object.keys(params).length ? { parameters: params } : {}),
    ...(acc ? { accessibility_requirements: acc } : {}),
    // req.Secrets: the provisioner Secret's data (the log prints it stripped)
    ...(secrets ? { secrets } : {}),
    ...(src?.kind === 'PersistentVolumeClaim' ? { volume_content_source: { Type: { Volume: { volume_id: src.volumeHandle ?? src.name } } } } : {}),
    ...(src?.kind === 'VolumeSnapshot' ? { volume_content_source: { Type: { Snapshot: { snapshot_id: src.snapshotHandle ?? src.name } } } } : {}),
  };
}

/** The PersistentVolume csi-provisioner saves after CreateVolume succeeded. */
/** `finalizer`: csi-provisioner's own PV finalizer goes on (AddFinalizer, lib v10 controller.go:1492-1495) */
/**
 * `secrets`: the class's secret references (csiPVSource's ControllerPublishSecretRef … NodeExpandSecretRef); `deletionSecret`:
 * the provisioner Secret recorded for DeleteVolume in the deletion-secret annotations (null: "" and ""; undefined: none,
 * as before v3.2.0)
 */
export function buildPersistentVolume(claim: K8sObject, cls: K8sObject, driver: DriverProfile, identity: string, volume: Record<string, unknown>, finalizer = false,
  secrets: Partial<Record<SecretKind, SecretRef>> = {}, deletionSecret?: SecretRef | null): K8sObject {
  const ctx = (volume.volume_context ?? {}) as Record<string, string>;
  const cap = typeof volume.capacity_bytes === 'number' && volume.capacity_bytes > 0
    ? bytesQuantity(volume.capacity_bytes) : (claim.spec?.resources?.requests?.storage ?? '1Gi');
  const topo = (volume.accessible_topology ?? []) as Array<{ segments: Record<string, string> }>;
  return {
    apiVersion: 'v1', kind: 'PersistentVolume',
    metadata: {
      name: provisionedVolumeName(claim),
      annotations: {
        [ANN_PROVISIONED_BY]: driver.name,
        ...(deletionSecret !== undefined ? { [ANN_DELETION_SECRET_NAME]: deletionSecret?.name ?? '', [ANN_DELETION_SECRET_NAMESPACE]: deletionSecret?.namespace ?? '' } : {}),
      },
      ...(finalizer ? { finalizers: [PROVISIONER_PV_FINALIZER] } : {}),
    },
    spec: {
      accessModes: claim.spec?.accessModes ?? ['ReadWriteOnce'],
      capacity: { storage: cap },
      claimRef: { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid, apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion },
      csi: {
        // fsType has omitempty: a driver without one (NFS) leaves it out
        // "Set FSType if PV is not Block Volume" (v5.0.1 controller.go:945)
        driver: driver.name, volumeHandle: String(volume.volume_id), ...(fsTypeOf(cls, driver) && !isBlockClaim(claim) ? { fsType: fsTypeOf(cls, driver) } : {}),
        volumeAttributes: { ...ctx, 'storage.kubernetes.io/csiProvisionerIdentity': identity },
        // (CSIPersistentVolumeSource's field order)
        ...(secrets['controller-publish'] ? { controllerPublishSecretRef: secrets['controller-publish'] } : {}),
        ...(secrets['node-stage'] ? { nodeStageSecretRef: secrets['node-stage'] } : {}),
        ...(secrets['node-publish'] ? { nodePublishSecretRef: secrets['node-publish'] } : {}),
        ...(secrets['controller-expand'] ? { controllerExpandSecretRef: secrets['controller-expand'] } : {}),
        ...(secrets['node-expand'] ? { nodeExpandSecretRef: secrets['node-expand'] } : {}),
      },
      persistentVolumeReclaimPolicy: cls.reclaimPolicy ?? 'Delete',
      storageClassName: cls.metadata.name,
      volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
      ...(cls.mountOptions ? { mountOptions: cls.mountOptions } : {}),
      ...(topo.length ? {
        nodeAffinity: { required: { nodeSelectorTerms: topo.map((t) => ({ matchExpressions: Object.entries(t.segments).map(([key, v]) => ({ key, operator: 'In', values: [v] })) })) } },
      } : {}),
    },
    status: { phase: 'Pending' },
  };
}
