/**
 * external-provisioner (csi-provisioner sidecar): creates a volume through CreateVolume for each
 * claim handed to its driver, saves the PersistentVolume, and deletes Released volumes through
 * DeleteVolume.
 *
 * upstream: kubernetes-csi/external-provisioner v2.1.0 / v5.0.1 (cmd/csi-provisioner, pkg/controller)
 * and kubernetes-sigs/sig-storage-lib-external-provisioner v6.2.0 / v10.0.0 (controller/controller.go
 * shouldProvision, provisionClaimOperation, deleteVolumeOperation; volume_store.go).
 * Start-up: Probe, GetPluginInfo, GetPluginCapabilities, ControllerGetCapabilities (--timeout 10s), as
 * csi-provisioner.go's main calls them (v2.1.0 :191-220, v5.0.1 :219-278): Probe is csi-lib-utils' ProbeForever (a
 * driver not ready, or a probe that timed out, is probed again a second later; any other error ends it); a failed
 * start-up ends the process (klog.Error and os.Exit(1) after the probe, klog.Fatalf after the name and capability
 * calls) and the kubelet starts the container again. (Its start-up banner, "Version", "Connecting to", "Probing CSI
 * driver for readiness", is not printed: its start-up happens in the warm-up of every scenario.)
 * Retries: workqueue rate limiter 1s → 5m (--retry-interval-start/max), forever (threshold 0).
 *
 * The PV finalizer external-provisioner.volume.kubernetes.io/finalizer (HonorPVReclaimPolicy: off in
 * v2.1.0, on by default in v5.0.1; the profile's provisionerAddsFinalizer): a provisioned PV is created
 * with it, syncVolume's handleProtectionFinalizer patches it onto a Bound Delete-policy PV of the driver
 * that lacks it (and off one whose policy became Retain or Recycle), and deleteVolumeOperation takes it
 * off after DeleteVolume and the PV's Delete (lib v10 controller.go:1169-1195, :1492-1495, :1573-1604).
 *
 * Left out: leader election, capacity tracking, secrets, rescheduling on WaitForFirstConsumer errors,
 * in-tree migration, and 1.30's -v=4/-v=5 lines of every syncVolume (lib v10 controller.go:1171
 * "handleProtectionFinalizer" with the whole PV's String(), :1258-1288 "shouldDelete" and its reason):
 * real v5 logs at -v=5 have them for each PV event.
 *
 * A PV whose create fails goes to the queue store's "unsavedpvs" queue (csi-provisioner passes
 * CreateProvisionedPVLimiter: lib volume_store.go queueStore, v6.2.0 and v10 alike): StoreVolume logs
 * "Failed to save volume" and returns no error, so the claim is not retried; the store creates the PV
 * again in the background with workqueue.DefaultControllerRateLimiter's per-item backoff (5ms doubling).
 * Here the claim waits for that save (upstream a claim event meanwhile would provision it again).
 */
import { emit, setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import { CSI_PARAMETER_PREFIX, csiMethod, type CsiRpc, GRPC_CODE_GO_NAME, type GrpcCode, rpcErrorText, stripSecrets } from '../shared/csi.ts';
import { sortedJson, goDuration } from '../shared/goFormat.ts';
import { type K8sObject, kobj, secretCredentials } from '../shared/k8s.ts';
import { summarize } from '../shared/messages.ts';
import { ANN_PROVISIONED_BY, ANN_SELECTED_NODE, ANN_STORAGE_PROVISIONER, ANN_STORAGE_PROVISIONER_BETA, PROVISIONER_PV_FINALIZER } from '../shared/names.ts';
import { PROVISIONER_TIMEOUT, SECOND, sidecarRetryDelay } from '../shared/timing.ts';
import type { DriverProfile } from '../drivers/types.ts';
import {
  accessibilityRequirements, ANN_DELETION_SECRET_NAME, ANN_DELETION_SECRET_NAMESPACE, buildPersistentVolume, provisionedVolumeName, pvSecretKinds, secretReference,
  unknownReservedParameter, volumeRequest, type SecretKind, type SecretRef,
} from './requests.ts';
import { externalProvisionerSummaries as summaries } from './externalProvisioner.messages.ts';
import { getProfile } from '../profiles/index.ts';
import type { Stage } from '../shared/messages.ts';

export interface ExternalProvisionerInput extends ComponentInput {
  /** the CSI driver this sidecar serves */
  driver: DriverProfile;
  /** PV volumeAttributes storage.kubernetes.io/csiProvisionerIdentity: "<start ms>-<rand>-<driver>" */
  provisionerIdentity: string;
  /** --strict-topology (default false): CreateVolume asks for the selected node's topology only */
  strictTopology?: boolean;
  /** --extra-create-metadata (default false): CreateVolume's parameters also name the claim and the PV */
  extraCreateMetadata?: boolean;
}

/** One provisioning or deletion in progress, keyed by claim "ns/name" or "pv/<name>". */
interface Operation {
  kind: 'provision' | 'delete';
  step: 'getSnapshot' | 'getSnapshotContent' | 'cloneFinalizer' | 'getSecret' | 'rpc' | 'save' | 'backgroundSave' | 'deletePV' | 'finalizer' | 'removeFinalizer' | 'backoff';
  /** getSecret: what waits for the Secret: the claim CreateVolume goes on with (its data source resolved), or the PV to delete */
  waiting?: K8sObject;
  /** getSecret: the Secret asked for */
  secret?: SecretRef;
  requestId?: string;
  /** restoring from a VolumeSnapshot: the snapshot read by getSnapshotSource */
  snapshot?: K8sObject;
  /** saving: the PV handed to the volume store, and the save queue's NumRequeues once a create failed */
  pv?: K8sObject;
  saveFailures?: number;
}

export interface ExternalProvisionerContext {
  /** keys ("ns/claim", "pv/name") to sync on the next pass: the workqueue */
  dirty: Record<string, true>;
  /** sync every claim and volume on the next pass (after start-up, a class or node change) */
  dirtyAll: boolean;
  /** unbound clone claims ("ns/name") and the source claim each waits for */
  clones: Record<string, string>;
  input: ExternalProvisionerInput;
  claims: Record<string, K8sObject>;
  volumes: Record<string, K8sObject>;
  classes: Record<string, K8sObject>;
  nodes: Record<string, K8sObject>;
  /** VolumeAttachments by name (the VolumeAttachment lister canDeleteVolume reads) */
  attachments: Record<string, K8sObject>;
  ops: Record<string, Operation>;
  /** workqueue NumRequeues per key */
  failures: Record<string, number>;
  startup: number;
  nextRequest: number;
}

const STARTUP: CsiRpc[] = ['Probe', 'GetPluginInfo', 'GetPluginCapabilities', 'ControllerGetCapabilities'];
/** ProbeForever's probeInterval. upstream: csi-lib-utils rpc/common.go */
const PROBE_INTERVAL = 1 * SECOND;

/**
 * What main does with a start-up answer: go on (the next call, or the controller after the last), probe again
 * (ProbeForever: the driver is not ready, or the probe hit its deadline), or end the process.
 */
function startupOutcome(c: ExternalProvisionerContext, e: ClusterEvent): 'next' | 'probeAgain' | 'failed' | undefined {
  if (e.type !== 'csi.result' || e.rpc !== STARTUP[c.startup]) return undefined;
  if (e.rpc === 'Probe') {
    const ready = (e.response?.ready as { value?: boolean } | undefined)?.value ?? true;
    if (e.code === 'OK' && ready) return 'next';
    return e.code === 'OK' || e.code === 'DEADLINE_EXCEEDED' ? 'probeAgain' : 'failed';
  }
  return e.code === 'OK' ? 'next' : 'failed';
}
type Out = ClusterEmitted[];
const log = (msg: string, args: Record<string, string | number | boolean>, stage?: Stage): ClusterEmitted => ({ type: 'log', msg: `externalProvisioner.${msg}`, args, ...(stage ? { stage } : {}) });

function call(c: ExternalProvisionerContext, rpc: CsiRpc, request: Record<string, unknown>, out: Out): string {
  const requestId = `ep-${c.nextRequest++}`;
  const json = sortedJson(stripSecrets(request));
  out.push(log('grpcCall', { method: csiMethod(rpc), request: json }), log('grpcRequest', { request: json, method: csiMethod(rpc) }));
  out.push({ type: 'csi.call', requestId, rpc, request, endpoint: 'controller', timeout: PROVISIONER_TIMEOUT });
  return requestId;
}

/** shouldProvision: an unbound claim handed to our driver (and, for WaitForFirstConsumer, with a selected node). */
function shouldProvision(c: ExternalProvisionerContext, claim: K8sObject): boolean {
  const a = claim.metadata.annotations ?? {};
  if (claim.spec?.volumeName || claim.metadata.deletionTimestamp) return false;
  if ((a[ANN_STORAGE_PROVISIONER] ?? a[ANN_STORAGE_PROVISIONER_BETA]) !== c.input.driver.name) return false;
  const cls = c.classes[claim.spec?.storageClassName ?? ''];
  if (!cls || cls.provisioner !== c.input.driver.name) return false;
  if (cls.volumeBindingMode === 'WaitForFirstConsumer' && !a[ANN_SELECTED_NODE]) return false;
  return !c.volumes[provisionedVolumeName(claim)];
}

const addsFinalizer = (c: ExternalProvisionerContext): boolean => getProfile(c.input.profile).provisionerAddsFinalizer;

/**
 * isProvisionerForVolume (lib v10 controller.go:1140-1167): provisioned by our driver, or a static CSI
 * PV of our driver. Only then does syncVolume look at the PV at all.
 */
function isProvisionerForVolume(c: ExternalProvisionerContext, pv: K8sObject): boolean {
  const by = pv.metadata.annotations?.[ANN_PROVISIONED_BY];
  return by !== undefined ? by === c.input.driver.name : pv.spec?.csi?.driver === c.input.driver.name;
}

/**
 * shouldDelete (lib v10 controller.go:1256-1290): Released with reclaimPolicy Delete; a PV being deleted
 * only while it still has our finalizer (with the finalizer off, deleted ones are left alone). It says
 * why at -v=5 (lib v10 only: the profile's provisionerLogsShouldDelete); syncVolume says "shouldDelete"
 * once more before it deletes (:1132). Its first line belongs where its verdict does: a delete, or no step.
 */
function shouldDelete(c: ExternalProvisionerContext, pv: K8sObject, out: Out): boolean {
  const args = { pv: pv.metadata.name };
  // the verdict's line, and where it belongs: a delete, or nothing to do
  const [verdict, stage] = ((): [string, Stage] => {
    if (addsFinalizer(c)) {
      if (pv.metadata.deletionTimestamp && !pv.metadata.finalizers?.includes(PROVISIONER_PV_FINALIZER)) return ['shouldDeleteFinalizerRemoved', 'delete'];
    } else if (pv.metadata.deletionTimestamp) return ['shouldDeleteBeingDeleted', 'delete'];
    if (pv.status?.phase !== 'Released') return ['shouldDeleteNotReleased', 'other'];
    if (pv.spec?.persistentVolumeReclaimPolicy !== 'Delete') return ['shouldDeleteNotDeletePolicy', 'other'];
    return ['shouldDeleteTrue', 'delete'];
  })();
  const yes = verdict === 'shouldDeleteTrue';
  if (getProfile(c.input.profile).provisionerLogsShouldDelete) {
    out.push(log('shouldDelete', args, stage), log(verdict, args));
    if (yes) out.push(log('syncVolumeDeleting', args));
  }
  return yes;
}

/**
 * handleProtectionFinalizer (lib v10 controller.go:1169-1195): our finalizer goes on a Bound PV with
 * reclaimPolicy Delete that is not being deleted, and off one whose policy is Retain or Recycle. The
 * change is a strategic merge patch of metadata.finalizers, which leaves other finalizers alone.
 * Returns whether a patch was sent (syncVolume goes on with the patched PV when it is back).
 */
function handleProtectionFinalizer(c: ExternalProvisionerContext, pv: K8sObject, out: Out): boolean {
  if (!addsFinalizer(c)) return false;
  const finalizers = pv.metadata.finalizers ?? [];
  const has = finalizers.includes(PROVISIONER_PV_FINALIZER);
  const policy = pv.spec?.persistentVolumeReclaimPolicy;
  const name = pv.metadata.name;
  let patch: Record<string, unknown>, summary: string;
  if (!has && policy === 'Delete' && !pv.metadata.deletionTimestamp && pv.status?.phase === 'Bound') {
    patch = { '$setElementOrder/finalizers': [...finalizers, PROVISIONER_PV_FINALIZER], finalizers: [PROVISIONER_PV_FINALIZER] };
    summary = summarize(summaries, 'externalProvisioner.addFinalizer', { pv: name, finalizer: PROVISIONER_PV_FINALIZER });
  } else if (has && (policy === 'Retain' || policy === 'Recycle')) {
    patch = removeFinalizerPatch(finalizers);
    summary = summarize(summaries, 'externalProvisioner.removePolicyFinalizer', { pv: name, finalizer: PROVISIONER_PV_FINALIZER });
  } else return false;
  const requestId = `ep-${c.nextRequest++}`;
  out.push({ type: 'api.request', requestId, verb: 'patch', kind: 'PersistentVolume', name, patch: { metadata: patch }, summary });
  c.ops[`pv/${name}`] = { kind: 'delete', step: 'finalizer', requestId };
  return true;
}

/** The strategic merge patch that takes our finalizer off (CreateTwoWayMergePatch of the finalizer list without it). */
function removeFinalizerPatch(finalizers: readonly string[]): Record<string, unknown> {
  const rest = finalizers.filter((f) => f !== PROVISIONER_PV_FINALIZER);
  return { '$deleteFromPrimitiveList/finalizers': [PROVISIONER_PV_FINALIZER], ...(rest.length ? { '$setElementOrder/finalizers': rest } : {}) };
}

function startProvision(c: ExternalProvisionerContext, key: string, out: Out, now: number): void {
  const claim = c.claims[key]!;
  const cls = c.classes[claim.spec.storageClassName]!;
  out.push(log('provisionStarted', { claim: key, class: cls.metadata.name }));
  out.push({ type: 'event.recorded', involved: { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name }, eventType: 'Normal', reason: 'Provisioning', message: `External provisioner is provisioning volume for claim "${key}"` });
  const ds = claim.spec?.dataSource;
  if (ds?.kind === 'VolumeSnapshot' && ds.apiGroup === SNAPSHOT_GROUP) {
    // prepareProvision: a restore needs the controller's CREATE_DELETE_SNAPSHOT; then getSnapshotSource
    if (!c.input.driver.controllerCapabilities.includes('CREATE_DELETE_SNAPSHOT')) {
      provisionFailed(c, key, 'CSI driver does not support snapshot restore: controller CREATE_DELETE_SNAPSHOT capability is not reported', 'final', now, out);
      return;
    }
    const requestId = `ep-${c.nextRequest++}`;
    out.push({ type: 'api.request', requestId, verb: 'get', kind: 'VolumeSnapshot', namespace: claim.metadata.namespace, name: ds.name, summary: summarize(summaries, 'externalProvisioner.getSnapshot', { snapshot: `${claim.metadata.namespace}/${ds.name}`, claim: key }) });
    c.ops[key] = { kind: 'provision', step: 'getSnapshot', requestId };
    return;
  }
  if (ds?.kind === 'PersistentVolumeClaim' && setCloneFinalizer(c, key, claim, out)) return;
  createVolume(c, key, claim, out, now);
}

/** The finalizer csi-provisioner puts on a clone's source claim (pkg/controller/controller.go pvcCloneFinalizer, v2.1.0 and v5.0.1). */
export const PVC_CLONE_FINALIZER = 'provisioner.storage.kubernetes.io/cloning-protection';

/**
 * setCloneFinalizer (controller.go, v2.1.0 :858-866, v5.0.1 :975-986, called from prepareProvision before
 * CreateVolume): the clone's source claim gets the cloning-protection finalizer, with an Update of the
 * lister's copy, so that it cannot go while it is being cloned. Returns whether a write was sent (the
 * CreateVolume waits for its answer; a failed write is prepareProvision's error, ProvisioningNoChange).
 */
function setCloneFinalizer(c: ExternalProvisionerContext, key: string, claim: K8sObject, out: Out): boolean {
  const source = c.claims[`${claim.metadata.namespace}/${claim.spec.dataSource.name}`];
  if (!source || (source.metadata.finalizers ?? []).includes(PVC_CLONE_FINALIZER)) return false;
  updateClaimFinalizers(c, source, [...(source.metadata.finalizers ?? []), PVC_CLONE_FINALIZER], key,
    summarize(summaries, 'externalProvisioner.setCloneFinalizer', { source: kobj(source), claim: key, finalizer: PVC_CLONE_FINALIZER }), out);
  return true;
}

/** An Update of the lister's copy of `claim` with these finalizers; the answer goes to the operation `opKey` (step cloneFinalizer). */
function updateClaimFinalizers(c: ExternalProvisionerContext, claim: K8sObject, finalizers: string[], opKey: string, summary: string, out: Out): void {
  const requestId = `ep-${c.nextRequest++}`;
  const object = { ...claim, metadata: { ...claim.metadata, finalizers } };
  out.push({ type: 'api.request', requestId, verb: 'update', kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, object, summary, stage: 'provision' });
  c.ops[opKey] = { kind: 'provision', step: 'cloneFinalizer', requestId };
}

/**
 * The CloningProtectionController (clone_controller.go, v2.1.0 and v5.0.1): it takes only claims being deleted
 * (enqueueClaimUpdate) and, once no claim of the namespace that clones it is Pending, removes the
 * cloning-protection finalizer with an Update (syncClaim). While a clone is Pending its sync fails and the key
 * is retried with the workqueue's backoff (cloneRetry); a change of the claim or of a clone of it syncs it too.
 */
function syncCloneSource(c: ExternalProvisionerContext, key: string, out: Out, now: number): void {
  const claim = c.claims[key];
  if (!claim?.metadata.deletionTimestamp || !(claim.metadata.finalizers ?? []).includes(PVC_CLONE_FINALIZER) || c.ops[`clone/${key}`]) return;
  const pending = Object.values(c.claims).find((o) => o.metadata.namespace === claim.metadata.namespace && o.spec?.dataSource?.kind === 'PersistentVolumeClaim'
    && o.spec.dataSource.name === claim.metadata.name && o.status?.phase === 'Pending');
  // "PVC '<clone>' is in 'Pending' state, cloning in progress": the sync fails and the key is retried
  if (pending) { cloneRetry(c, key, now, out); return; }
  updateClaimFinalizers(c, claim, (claim.metadata.finalizers ?? []).filter((f: string) => f !== PVC_CLONE_FINALIZER), `clone/${key}`,
    summarize(summaries, 'externalProvisioner.removeCloneFinalizer', { source: key, finalizer: PVC_CLONE_FINALIZER }), out);
}

/**
 * The clone queue's failed sync (processNextClaimWorkItem): "Retrying syncing claim <ns/name> after <n> failures"
 * (klog.Warningf, clone_controller.go v2.1.0 :111, v5.0.1 :109), then AddRateLimited: the sidecar's rate limiter,
 * --retry-interval-start 1 s doubling to --retry-interval-max 5 min.
 */
function cloneRetry(c: ExternalProvisionerContext, key: string, now: number, out: Out): void {
  const q = `clone/${key}`;
  const failures = c.failures[q] ?? 0;
  out.push(log('cloneRetryingClaim', { key, failures }));
  c.failures[q] = failures + 1;
  c.ops[q] = { kind: 'provision', step: 'backoff' };
  out.push({ type: 'timer.requested', key: `retry/${q}`, at: now + sidecarRetryDelay(failures) });
}

/**
 * The rest of prepareProvision, then CreateVolume: the accessibility requirements, then the provisioner Secret the class
 * names, read with a GET (getCredentials; its data goes in the request as `secrets`), then the call. `credentials`: the
 * Secret's data, once read. upstream: controller.go prepareProvision (v5.0.1 :683-708, v2.1.0 :615-645), getCredentials.
 */
function createVolume(c: ExternalProvisionerContext, key: string, claim: K8sObject, out: Out, now: number, credentials?: Record<string, string>): void {
  const cls = c.classes[claim.spec.storageClassName]!;
  const topology = accessibilityRequirements(c.input.driver, claim, Object.values(c.nodes), c.input.strictTopology === true, cls.allowedTopologies as Parameters<typeof accessibilityRequirements>[4]);
  if (topology.error) return provisionFailed(c, key, `error generating accessibility requirements: ${topology.error}`, 'noChange', now, out);
  const secret = secretReference(cls, 'provisioner', provisionedVolumeName(claim), claim);
  if (secret.error) return provisionFailed(c, key, secret.error, 'noChange', now, out);
  if (secret.ref && !credentials) {
    const requestId = getSecret(c, secret.ref, summarize(summaries, 'externalProvisioner.getProvisionerSecret', { secret: `${secret.ref.namespace}/${secret.ref.name}`, claim: key }), out);
    c.ops[key] = { kind: 'provision', step: 'getSecret', requestId, waiting: claim, secret: secret.ref };
    return;
  }
  // then the Secrets the PV will name (a template with only one of name and namespace is an error, ProvisioningNoChange),
  // and the parameters the driver gets: a csi.storage.k8s.io/ key the provisioner does not know is a final error
  // (ProvisioningFinished: "Final error received"; v5.0.1 controller.go :711-744, v2.1.0 :647-676)
  const nodeExpand = getProfile(c.input.profile).provisionerNodeExpandSecret;
  for (const kind of pvSecretKinds(nodeExpand)) {
    const r = secretReference(cls, kind, provisionedVolumeName(claim), claim);
    if (r.error) return provisionFailed(c, key, r.error, 'noChange', now, out);
  }
  const unknown = unknownReservedParameter(cls.parameters as Record<string, string> | undefined, nodeExpand);
  if (unknown) return provisionFailed(c, key, `failed to strip CSI Parameters of prefixed keys: found unknown parameter key "${unknown}" with reserved namespace ${CSI_PARAMETER_PREFIX}`, 'final', now, out);
  const requestId = call(c, 'CreateVolume', volumeRequest(withSourceHandle(c, claim), cls, c.input.driver, topology.requirement, credentials, c.input.extraCreateMetadata === true), out);
  c.ops[key] = { kind: 'provision', step: 'rpc', requestId };
}

/** A GET of a Secret (getCredentials: the client's Get, not a lister). */
function getSecret(c: ExternalProvisionerContext, ref: SecretRef, summary: string, out: Out): string {
  const requestId = `ep-${c.nextRequest++}`;
  out.push({ type: 'api.request', requestId, verb: 'get', kind: 'Secret', namespace: ref.namespace, name: ref.name, summary });
  return requestId;
}

/** The class's secret references that go on the PV (csiPVSource), and the one DeleteVolume will need. */
function pvSecrets(c: ExternalProvisionerContext, claim: K8sObject, cls: K8sObject): { refs: Partial<Record<SecretKind, SecretRef>>; deletion?: SecretRef | null } {
  const refs: Partial<Record<SecretKind, SecretRef>> = {};
  for (const kind of pvSecretKinds(getProfile(c.input.profile).provisionerNodeExpandSecret)) {
    const r = secretReference(cls, kind, provisionedVolumeName(claim), claim).ref;
    if (r) refs[kind] = r;
  }
  const deletion = getProfile(c.input.profile).provisionerDeletionSecretAnnotations
    ? secretReference(cls, 'provisioner', provisionedVolumeName(claim), claim).ref ?? null : undefined;
  return { refs, ...(deletion !== undefined ? { deletion } : {}) };
}

const SNAPSHOT_GROUP = 'snapshot.storage.k8s.io';

/**
 * A failed provisioning: the error goes back to the provisioning library, which records
 * ProvisioningFailed (the error provisionClaimOperation returns, which the worker prints too), says
 * whether the claim stays in progress ('final' / 'temporary'; a failure before CreateVolume, in
 * prepareProvision, is 'noChange' and says neither) and requeues the claim with backoff.
 */
function provisionFailed(c: ExternalProvisionerContext, key: string, err: string, state: 'final' | 'temporary' | 'noChange', now: number, out: Out): void {
  const claim = c.claims[key]!;
  const failure = `failed to provision volume with StorageClass "${claim.spec.storageClassName}": ${err}`;
  out.push({ type: 'event.recorded', involved: { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name }, eventType: 'Warning', reason: 'ProvisioningFailed', message: failure });
  if (state !== 'noChange') out.push(log(state === 'final' ? 'finalError' : 'temporaryError', { uid: claim.metadata.uid! }));
  requeue(c, key, now, out, failure);
}

/**
 * getSnapshotSource (external-provisioner pkg/controller/controller.go, v2.1.0 :1021-1092, v5.0.1
 * :1137-1228): GET the VolumeSnapshot, then its bound VolumeSnapshotContent; the content's
 * status.snapshotHandle becomes CreateVolume's volume_content_source. Each failed check is an error
 * prepareProvision wraps as "error getting handle for DataSource Type VolumeSnapshot by Name <n>: …"
 * (ProvisioningNoChange: retried with backoff, CreateVolume not called). Left out: the -v=5 %+v dumps
 * of the snapshot and its content, the restore size check, the volume mode conversion checks.
 */
function onSnapshotRead(c: ExternalProvisionerContext, key: string, e: Extract<ClusterEvent, { type: 'api.result' }>, out: Out): void {
  const op = c.ops[key]!;
  const claim = c.claims[key]!;
  const name = claim.spec.dataSource.name as string;
  const fail = (err: string): void => provisionFailed(c, key, `error getting handle for DataSource Type VolumeSnapshot by Name ${name}: ${err}`, 'noChange', e.now, out);
  if (op.step === 'getSnapshot') {
    if (!e.ok || !e.object) return fail(`error getting snapshot ${name} from api server: ${e.message ?? e.reason ?? ''}`);
    const snap = e.object;
    if (snap.metadata.deletionTimestamp) return fail(`snapshot ${name} is currently being deleted`);
    const contentName = snap.status?.boundVolumeSnapshotContentName;
    if (!contentName) return fail(`snapshot ${name} not bound`);
    const requestId = `ep-${c.nextRequest++}`;
    out.push({ type: 'api.request', requestId, verb: 'get', kind: 'VolumeSnapshotContent', name: contentName, summary: summarize(summaries, 'externalProvisioner.getSnapshotContent', { content: contentName, snapshot: `${claim.metadata.namespace}/${name}` }) });
    c.ops[key] = { kind: 'provision', step: 'getSnapshotContent', requestId, snapshot: snap };
    return;
  }
  const snap = op.snapshot!;
  const content = e.ok ? e.object : undefined;
  const ref = content?.spec?.volumeSnapshotRef;
  // a missing content, one bound to another snapshot, or one of another driver: all "not bound"
  if (!content || ref?.name !== snap.metadata.name || ref?.namespace !== snap.metadata.namespace || ref?.uid !== snap.metadata.uid
    || content.spec?.driver !== c.classes[claim.spec.storageClassName]?.provisioner) return fail(`snapshot ${name} not bound`);
  if (snap.status?.readyToUse !== true) return fail(`snapshot ${name} is not Ready`);
  const handle = content.status?.snapshotHandle;
  if (!handle) return fail(`snapshot handle ${content.metadata.name} is not available`);
  createVolume(c, key, { ...claim, spec: { ...claim.spec, dataSource: { ...claim.spec.dataSource, snapshotHandle: handle } } }, out, e.now);
}

/**
 * A clone's content source is the source claim's volume handle, read through the source PVC's bound
 * PV (upstream: external-provisioner controller.go getPVCSource).
 */
function withSourceHandle(c: ExternalProvisionerContext, claim: K8sObject): K8sObject {
  const ds = claim.spec?.dataSource;
  if (ds?.kind !== 'PersistentVolumeClaim') return claim;
  const source = c.claims[`${claim.metadata.namespace}/${ds.name}`];
  const handle = source?.spec?.volumeName ? c.volumes[source.spec.volumeName]?.spec?.csi?.volumeHandle : undefined;
  return handle ? { ...claim, spec: { ...claim.spec, dataSource: { ...ds, volumeHandle: handle } } } : claim;
}

function startDelete(c: ExternalProvisionerContext, pv: K8sObject, out: Out, now: number): void {
  out.push(log('deleteStarted', { pv: pv.metadata.name }));
  if (deletionSecret(c, pv, out)) return;
  deleteVolume(c, pv, out, now);
}

/** Delete, after its secrets: canDeleteVolume, then DeleteVolume (with the Secret's data when one was read). */
function deleteVolume(c: ExternalProvisionerContext, pv: K8sObject, out: Out, now: number, credentials?: Record<string, string>): void {
  // canDeleteVolume: a volume that a VolumeAttachment still names is not deleted (the VolumeAttachment
  // lister exists only for drivers with PUBLISH_UNPUBLISH_VOLUME). upstream: external-provisioner
  // pkg/controller/controller.go canDeleteVolume, cmd/csi-provisioner/csi-provisioner.go (vaLister)
  if (c.input.driver.controllerCapabilities.includes('PUBLISH_UNPUBLISH_VOLUME')) {
    const va = Object.values(c.attachments).find((v) => v.spec?.source?.persistentVolumeName === pv.metadata.name);
    if (va) {
      const err = `persistentvolume ${pv.metadata.name} is still attached to node ${va.spec.nodeName}`;
      out.push(log('deleteFailed', { pv: pv.metadata.name, err }));
      out.push({ type: 'event.recorded', involved: { kind: 'PersistentVolume', name: pv.metadata.name }, eventType: 'Warning', reason: 'VolumeFailedDelete', message: err });
      requeue(c, `pv/${pv.metadata.name}`, now, out, err);
      return;
    }
  }
  const requestId = call(c, 'DeleteVolume', { volume_id: pv.spec.csi.volumeHandle, ...(credentials ? { secrets: credentials } : {}) }, out);
  c.ops[`pv/${pv.metadata.name}`] = { kind: 'delete', step: 'rpc', requestId };
}

/**
 * handleSecretsForDeletion: the Secret DeleteVolume needs. v3.2.0 on: the PV's deletion-secret annotations when it has
 * both ("" and "": none, said at -v=2), else the StorageClass's provisioner secret (getSecretsFromSC), which v2.1.0
 * always reads. The Secret is read with a GET after the delete started (its answer goes on in onApiResult, step getSecret).
 * Whether one was asked for.
 * upstream: controller.go v5.0.1 :1296-1361, v2.1.0 Delete :1139-1164.
 */
function deletionSecret(c: ExternalProvisionerContext, pv: K8sObject, out: Out): boolean {
  const ann = pv.metadata.annotations ?? {};
  let ref: SecretRef | undefined;
  if (getProfile(c.input.profile).provisionerDeletionSecretAnnotations && ANN_DELETION_SECRET_NAME in ann && ANN_DELETION_SECRET_NAMESPACE in ann) {
    const name = ann[ANN_DELETION_SECRET_NAME]!;
    const namespace = ann[ANN_DELETION_SECRET_NAMESPACE]!;
    if (name === '' && namespace === '') { out.push(log('noDeletionSecrets', { pv: pv.metadata.name })); return false; }
    if (name === '' || namespace === '') return false;
    ref = { name, namespace };
  } else {
    const cls = c.classes[pv.spec?.storageClassName ?? ''];
    const claimRef = pv.spec?.claimRef;
    if (!cls || !claimRef) return false;
    ref = secretReference(cls, 'provisioner', pv.metadata.name, { metadata: { name: claimRef.name, namespace: claimRef.namespace } } as K8sObject).ref;
  }
  if (!ref) return false;
  const requestId = getSecret(c, ref, summarize(summaries, 'externalProvisioner.getDeletionSecret', { secret: `${ref.namespace}/${ref.name}`, pv: pv.metadata.name }), out);
  c.ops[`pv/${pv.metadata.name}`] = { kind: 'delete', step: 'getSecret', requestId, waiting: pv, secret: ref };
  return true;
}

/**
 * Work through the claims and volumes that changed (the workqueue keys), or all of them after
 * start-up or a class/node change, skipping those busy or backing off.
 */
function sync(c: ExternalProvisionerContext, out: Out, now: number): void {
  const claimKeys = c.dirtyAll ? Object.keys(c.claims) : Object.keys(c.dirty).filter((k) => !k.startsWith('pv/'));
  const pvNames = c.dirtyAll ? Object.keys(c.volumes) : Object.keys(c.dirty).filter((k) => k.startsWith('pv/')).map((k) => k.slice(3));
  c.dirty = {};
  c.dirtyAll = false;
  for (const key of claimKeys.sort()) { const cl = c.claims[key]; if (cl && !c.ops[key] && shouldProvision(c, cl)) startProvision(c, key, out, now); }
  for (const key of claimKeys) syncCloneSource(c, key, out, now);
  for (const name of pvNames.sort()) {
    const pv = c.volumes[name];
    if (!pv || c.ops[`pv/${name}`] || !isProvisionerForVolume(c, pv)) continue;
    if (!handleProtectionFinalizer(c, pv, out) && shouldDelete(c, pv, out)) startDelete(c, pv, out, now);
  }
}

/**
 * The provisioning state a CreateVolume error leaves (external-provisioner pkg/controller/controller.go
 * checkError; v2.1.0 and v5.0.1 alike). Not the kubelet's or the attacher's isFinalError:
 * ResourceExhausted is final here in v5 ("out of space"; in the background in v2.1.0: the profile's
 * provisionerResourceExhaustedFinal), or Reschedule when the claim has a selected node
 * and the driver has topology; Canceled, DeadlineExceeded, Unavailable and Aborted may still be in
 * progress; every other code is final.
 * The values are the lib's ProvisioningState strings, which the failure line prints with %v: the constant
 * ProvisioningInBackground is "Background" (sig-storage-lib-external-provisioner controller/volume.go:81, v6 and v10).
 */
export function checkError(code: GrpcCode, mayReschedule: boolean, resourceExhaustedFinal: boolean): 'Background' | 'Finished' | 'Reschedule' {
  if (code === 'RESOURCE_EXHAUSTED') return mayReschedule ? 'Reschedule' : resourceExhaustedFinal ? 'Finished' : 'Background';
  if (code === 'CANCELLED' || code === 'DEADLINE_EXCEEDED' || code === 'UNAVAILABLE' || code === 'ABORTED') return 'Background';
  return 'Finished';
}

/**
 * The workqueue requeues the key with its rate limiter, and its worker logs it: the claim queue's
 * "Retrying syncing claim" or the volume queue's "Retrying syncing volume" (processNextClaimWorkItem,
 * processNextVolumeWorkItem), then utilruntime.HandleError prints the sync's error.
 */
function requeue(c: ExternalProvisionerContext, key: string, now: number, out: Out, err: string): void {
  const failures = c.failures[key] ?? 0;
  const delay = sidecarRetryDelay(failures);
  if (key.startsWith('pv/')) {
    // the volume queue's key is the PV's name
    const pv = key.slice(3);
    out.push(log('retryingVolume', { pv, failures }), log('errorSyncingVolume', { pv, err }));
  } else {
    // the claim workqueue's key is the claim's UID (lib controller.go enqueueClaim): the lines print that
    const uid = c.claims[key]?.metadata.uid ?? key;
    out.push(log('retryingClaim', { claim: key, uid, failures, delay: goDuration(delay * 1000) }), log('errorSyncingClaim', { claim: key, uid, err }));
  }
  c.failures[key] = failures + 1;
  c.ops[key] = { kind: c.ops[key]?.kind ?? 'provision', step: 'backoff' };
  out.push({ type: 'timer.requested', key: `retry/${key}`, at: now + delay });
}

function onCsiResult(c: ExternalProvisionerContext, e: Extract<ClusterEvent, { type: 'csi.result' }>, out: Out): void {
  const ok = e.code === 'OK';
  const err = ok ? '<nil>' : rpcErrorText(e.code, e.message ?? '');
  out.push(log('grpcResponse', { response: sortedJson(e.response ?? {}), err: ok ? 'null' : JSON.stringify(err), method: csiMethod(e.rpc) }), log('grpcError', { err, method: csiMethod(e.rpc) }));
  const key = opKeyOf(c.ops, e.requestId);
  if (!key) return;
  const claim = c.claims[key];
  if (c.ops[key]!.kind === 'provision') {
    if (!claim) { delete c.ops[key]; return; }
    const cls = c.classes[claim.spec.storageClassName]!;
    if (!ok) {
      const topology = c.input.driver.topologyKeys.length > 0;
      const nodeSelected = !!claim.metadata.annotations?.[ANN_SELECTED_NODE];
      const mayReschedule = topology && nodeSelected;
      const state = checkError(e.code, mayReschedule, getProfile(c.input.profile).provisionerResourceExhaustedFinal);
      // Reschedule (removing the selected-node annotation so the scheduler picks again) is left out:
      // the claim is retried as a final error would be
      out.push(log('createVolumeFailed', { topology, nodeSelected, reschedule: mayReschedule, state, err }));
      provisionFailed(c, key, err, state === 'Background' ? 'temporary' : 'final', e.now, out);
      return;
    }
    const volume = (e.response?.volume ?? {}) as Record<string, unknown>;
    const secrets = pvSecrets(c, claim, cls);
    const pv = buildPersistentVolume(claim, cls, c.input.driver, c.input.provisionerIdentity, volume, addsFinalizer(c), secrets.refs, secrets.deletion);
    out.push(log('createdPV', { pv: pv.metadata.name, claimName: claim.metadata.name, handle: pv.spec.csi.volumeHandle }));
    out.push(log('volumeProvisioned', { claim: key, class: cls.metadata.name, pv: pv.metadata.name }));
    // the library logs "Succeeded" and then hands the PV to its volume store (lib v10 controller.go:1500-1502,
    // v6.2.0 :1459): the store saves it, and the ProvisioningSucceeded Event follows the save
    out.push(log('provisionSucceeded', { claim: key, class: cls.metadata.name }));
    out.push(log('savingPV', { claim: key, class: cls.metadata.name, pv: pv.metadata.name }));
    const requestId = `ep-${c.nextRequest++}`;
    out.push({ type: 'api.request', requestId, verb: 'create', kind: 'PersistentVolume', name: pv.metadata.name, object: pv, stage: 'provision', summary: summarize(summaries, 'externalProvisioner.createPV', { pv: pv.metadata.name, claim: key, handle: pv.spec.csi.volumeHandle }) });
    c.ops[key] = { kind: 'provision', step: 'save', requestId, pv };
    return;
  }
  const pvName = key.slice(3);
  const pv = c.volumes[pvName];
  if (!ok) {
    out.push(log('deleteFailed', { pv: pvName, err }));
    if (pv) out.push({ type: 'event.recorded', involved: { kind: 'PersistentVolume', name: pvName }, eventType: 'Warning', reason: 'VolumeFailedDelete', message: err });
    requeue(c, key, e.now, out, err);
    return;
  }
  out.push(log('volumeDeleted', { pv: pvName }));
  const requestId = `ep-${c.nextRequest++}`;
  out.push({ type: 'api.request', requestId, verb: 'delete', kind: 'PersistentVolume', name: pvName, stage: 'delete', summary: summarize(summaries, 'externalProvisioner.deletePV', { pv: pvName }) });
  c.ops[key] = { kind: 'delete', step: 'deletePV', requestId };
}

/**
 * The PV create failed. The first time (StoreVolume, volume_store.go:86-93) it is logged and queued, and
 * the claim's provisioning counts as done; a background save that fails is handed to HandleError and
 * queued again (processNextWorkItem). Either way the next try comes after the save queue's backoff.
 */
function saveFailed(c: ExternalProvisionerContext, key: string, op: Operation, e: Extract<ClusterEvent, { type: 'api.result' }>, out: Out): void {
  const pv = op.pv;
  if (!pv) { delete c.ops[key]; return; }
  const pvName = pv.metadata.name;
  const failures = op.saveFailures ?? 0;
  const err = `error saving volume ${pvName}: ${e.message ?? e.reason ?? ''}`;
  // the queue store's StoreVolume returns no error: the claim's sync ends as a success (syncClaim's -v=5 line)
  if (op.step === 'save') {
    out.push(log('saveFailed', { claim: key, class: String(pv.spec.storageClassName ?? ''), pv: pvName, err }));
    const uid = c.claims[key]?.metadata.uid;
    if (uid) out.push(log('claimProcessed', { uid }));
  }
  else out.push(log('saveRetryFailed', { err }), log('volumeEnqueued', { pv: pvName }));
  c.ops[key] = { kind: 'provision', step: 'backgroundSave', pv, saveFailures: failures + 1 };
  out.push({ type: 'timer.requested', key: `save/${key}`, at: e.now + saveQueueDelay(failures) });
}

/** workqueue.DefaultControllerRateLimiter's per-item part: 5ms doubling to 1000s (client-go workqueue default_rate_limiters.go). */
const saveQueueDelay = (failures: number): number => Math.min(5_000 * 2 ** failures, 1_000_000_000);

/** The save queue's worker: create the unsaved PV again (doSaveVolume). */
function saveInBackground(c: ExternalProvisionerContext, key: string, out: Out): void {
  const op = c.ops[key];
  if (op?.step !== 'backgroundSave' || !op.pv) return;
  const pvName = op.pv.metadata.name;
  out.push(log('savingPVRetry', { pv: pvName }));
  const requestId = `ep-${c.nextRequest++}`;
  out.push({ type: 'api.request', requestId, verb: 'create', kind: 'PersistentVolume', name: pvName, object: op.pv, stage: 'provision', summary: summarize(summaries, 'externalProvisioner.createPVAgain', { pv: pvName }) });
  c.ops[key] = { ...op, requestId };
}

/** A failed API request's error as client-go returns it (the API server's Status message). */
const apiErrText = (e: Extract<ClusterEvent, { type: 'api.result' }>): string => e.message ?? e.reason ?? '';

function onApiResult(c: ExternalProvisionerContext, e: Extract<ClusterEvent, { type: 'api.result' }>, out: Out): void {
  const key = opKeyOf(c.ops, e.requestId);
  if (!key) return;
  const op = c.ops[key]!;
  if (op.step === 'getSnapshot' || op.step === 'getSnapshotContent') {
    if (c.claims[key]) onSnapshotRead(c, key, e, out); else delete c.ops[key];
    return;
  }
  if (op.step === 'getSecret') {
    const target = op.waiting!;
    if (op.kind === 'provision') {
      // getCredentials' error is prepareProvision's (ProvisioningNoChange): requeued with backoff
      if (!c.claims[key]) { delete c.ops[key]; return; }
      if (!e.ok || !e.object) { provisionFailed(c, key, `error getting secret ${op.secret!.name} in namespace ${op.secret!.namespace}: ${apiErrText(e)}`, 'noChange', e.now, out); return; }
      createVolume(c, key, target, out, e.now, secretCredentials(e.object));
      return;
    }
    // DeleteVolume goes on without secrets when the Secret cannot be read ("it may have already been deleted")
    if (!e.ok || !e.object) out.push(log(getProfile(c.input.profile).provisionerDeletionSecretAnnotations && ANN_DELETION_SECRET_NAME in (target.metadata.annotations ?? {}) ? 'deletionCredentialsFailed' : 'deletionCredentialsFromClassFailed',
      { pv: target.metadata.name, err: `error getting secret ${op.secret!.name} in namespace ${op.secret!.namespace}: ${apiErrText(e)}` }));
    deleteVolume(c, target, out, e.now, e.ok && e.object ? secretCredentials(e.object) : undefined);
    return;
  }
  if (op.step === 'cloneFinalizer') {
    delete c.ops[key];
    if (key.startsWith('clone/')) {
      // the CloningProtectionController's Update; a failure other than NotFound is logged and the key retried
      const source = key.slice(6);
      if (e.ok && e.object) { c.claims[kobj(e.object)] = e.object; delete c.failures[key]; }
      else if (e.code !== 404) { out.push(log('cloneFinalizerRemoveFailed', { name: source.split('/')[1]! })); cloneRetry(c, source, e.now, out); }
      return;
    }
    const claim = c.claims[key];
    if (!claim) return;
    if (!e.ok || !e.object) { provisionFailed(c, key, apiErrText(e), 'noChange', e.now, out); return; }
    c.claims[kobj(e.object)] = e.object;
    createVolume(c, key, claim, out, e.now);
    return;
  }
  if (op.step === 'finalizer') {
    // syncVolume goes on with the PV the patch returned (a failed patch is the sync's error: requeued)
    if (!e.ok || !e.object) { requeue(c, key, e.now, out, apiErrText(e)); return; }
    c.volumes[e.object.metadata.name] = e.object;
    delete c.ops[key];
    if (shouldDelete(c, e.object, out)) startDelete(c, e.object, out, e.now);
    return;
  }
  if (op.kind === 'provision') {
    const claim = c.claims[key];
    if (!(e.ok || e.reason === 'AlreadyExists')) { saveFailed(c, key, op, e, out); return; }
    if (!claim) { delete c.ops[key]; return; }
    const cls = claim.spec.storageClassName as string;
    const pvName = provisionedVolumeName(claim);
    if (e.object) c.volumes[pvName] = e.object;
    // the save queue's worker logs with its own logger: no PVC and StorageClass pairs (1.30)
    out.push(op.step === 'backgroundSave' ? log('savedPVRetry', { pv: pvName }) : log('savedPV', { claim: key, class: cls, pv: pvName }));
    out.push({ type: 'event.recorded', involved: { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name }, eventType: 'Normal', reason: 'ProvisioningSucceeded', message: `Successfully provisioned volume ${pvName}` });
    // StoreVolume returned: syncClaim's -v=5 line (lib v10 controller.go:1088, v6.2.0 :1096); a background save is not a claim sync
    if (op.step !== 'backgroundSave') out.push(log('claimProcessed', { uid: claim.metadata.uid! }));
  } else if (op.step === 'deletePV') {
    if (!e.ok && e.code !== 404) {
      out.push(log('deletePVFailed', { pv: key.slice(3), err: apiErrText(e) }));
      requeue(c, key, e.now, out, apiErrText(e));
      return;
    }
    const pvName = key.slice(3);
    // the Delete marked the PV (the protection finalizers hold it): take our finalizer off the informer's
    // copy (lib v10 controller.go:1573-1604: "need to get the pv again"), then it is done
    const cached = c.volumes[pvName];
    if (e.ok && addsFinalizer(c) && cached?.metadata.finalizers?.includes(PROVISIONER_PV_FINALIZER)) {
      const requestId = `ep-${c.nextRequest++}`;
      out.push({ type: 'api.request', requestId, verb: 'patch', kind: 'PersistentVolume', name: pvName, patch: { metadata: removeFinalizerPatch(cached.metadata.finalizers) }, stage: 'delete',
        summary: summarize(summaries, 'externalProvisioner.removeFinalizer', { pv: pvName, finalizer: PROVISIONER_PV_FINALIZER }) });
      c.ops[key] = { kind: 'delete', step: 'removeFinalizer', requestId };
      return;
    }
    out.push(log('pvDeleted', { pv: pvName }), log('deleteSucceeded', { pv: pvName }));
  } else {
    // removeFinalizer: a PV already gone is fine; another error is logged and the volume is synced again
    if (!e.ok && e.code !== 404) {
      out.push(log('removeFinalizerFailed', { pv: key.slice(3), err: apiErrText(e) }));
      requeue(c, key, e.now, out, apiErrText(e));
      return;
    }
    out.push(log('pvDeleted', { pv: key.slice(3) }));
  }
  delete c.ops[key];
  delete c.failures[key];
}

const STORE: Partial<Record<K8sObject['kind'], 'claims' | 'volumes' | 'classes' | 'nodes' | 'attachments'>> = {
  PersistentVolumeClaim: 'claims', PersistentVolume: 'volumes', StorageClass: 'classes', Node: 'nodes', VolumeAttachment: 'attachments',
};

/**
 * The operations table of one reaction, watched: which keys it wrote or deleted, and whether each had
 * an operation before (`initial`), and an index from request id to key, kept up to date by the same
 * writes. A large rollout holds thousands of operations during its warm-up; scanning them all at
 * every event (the ended ones, the one an answer is for) made the warm-up quadratic.
 */
export function trackOps<T extends { requestId?: string }>(ops: Record<string, T>): { proxy: Record<string, T>; finish: (current: Record<string, T>) => { table: Record<string, T>; ended: string[] } } {
  const initial = new Map<string, boolean>();
  const index = requestIndex(ops);
  const touch = (k: string): void => { if (!initial.has(k)) initial.set(k, k in ops); };
  const unindex = (k: string): void => { const r = ops[k]?.requestId; if (r !== undefined && index.get(r) === k) index.delete(r); };
  const proxy = new Proxy(ops, {
    set(target, k, v: T) {
      if (typeof k !== 'string') return Reflect.set(target, k, v);
      touch(k); unindex(k);
      target[k] = v;
      if (v?.requestId !== undefined && !index.has(v.requestId)) index.set(v.requestId, k);
      return true;
    },
    deleteProperty(target, k) {
      if (typeof k !== 'string') return Reflect.deleteProperty(target, k);
      touch(k); unindex(k);
      delete target[k];
      return true;
    },
  });
  // the answer lookups of this reaction read the table through the proxy: the same index serves them
  REQUEST_INDEX.set(proxy, index);
  /**
   * After the reaction, given the table it left (the proxy, or a new table it put in its place: a
   * reset): the table to keep, and the keys whose operation ended (one when the event came, none now;
   * the keys the reaction wrote are the only candidates, unless it replaced the whole table).
   */
  const finish = (current: Record<string, T>): { table: Record<string, T>; ended: string[] } => {
    const replaced = current !== proxy;
    const table = replaced ? current : ops;
    const ended: string[] = [];
    for (const [k, had] of initial) if (had && !(k in table)) ended.push(k);
    if (replaced) for (const k of Object.keys(ops)) if (!initial.has(k) && !(k in table)) ended.push(k);
    return { table, ended };
  };
  return { proxy, finish };
}
/** the index of each table being watched (kept by its proxy's writes), and of its proxy */
const REQUEST_INDEX = new WeakMap<object, Map<string, string>>();
function buildIndex(ops: Record<string, { requestId?: string }>): Map<string, string> {
  const m = new Map<string, string>();
  for (const k in ops) { const r = ops[k]!.requestId; if (r !== undefined && !m.has(r)) m.set(r, k); }
  return m;
}
/** A table's index, kept from then on: only for a table that is written through trackOps' proxy from now on. */
function requestIndex(ops: Record<string, { requestId?: string }>): Map<string, string> {
  let m = REQUEST_INDEX.get(ops);
  if (!m) { m = buildIndex(ops); REQUEST_INDEX.set(ops, m); }
  return m;
}
/** The key whose operation waits for this request's answer (request ids are unique: a scan would find the same). */
export function opKeyOf(ops: Record<string, { requestId?: string }>, requestId: string): string | undefined {
  // a watched table's index is complete (every write goes through trackOps): no entry, no operation
  // waits for it; a table not watched (one a reset just put in place) is read as it is
  const k = (REQUEST_INDEX.get(ops) ?? buildIndex(ops)).get(requestId);
  return k !== undefined && ops[k]?.requestId === requestId ? k : undefined;
}

/** Copy-on-write helper: every action works on a shallow copy and assigns it back. */
function react(fn: (c: ExternalProvisionerContext, e: ClusterEvent, out: Out) => void) {
  return reaction<ExternalProvisionerContext, ClusterEvent, ClusterEmitted>((context, event) => {
    // For scale the caches are updated in place (the actor owns its context): copying every claim
    // and volume on every event would make large rollouts quadratic.
    const c: ExternalProvisionerContext = { ...context };
    const tracked = trackOps(c.ops);
    c.ops = tracked.proxy;
    const out: Out = [];
    fn(c, event, out);
    // a key whose operation ended goes back through the queue
    const { table, ended } = tracked.finish(c.ops);
    c.ops = table;
    for (const k of ended) c.dirty[k] = true;
    return { ctx: c, out };
  });
}

export const externalProvisionerMachine = setup({
  types: { context: {} as ExternalProvisionerContext, events: {} as ClusterEvent, emitted: {} as ClusterEmitted, input: {} as ExternalProvisionerInput },
  actions: {
    callNextStartupRpc: react((c, _e, out) => { call(c, STARTUP[c.startup]!, {}, out); }),
    handleStartupResult: react((c, e, out) => {
      const outcome = startupOutcome(c, e);
      // (an answer to no call of this start-up: a process that has started over asks again)
      if (e.type !== 'csi.result' || outcome === undefined) return;
      const ok = e.code === 'OK';
      out.push(log('grpcResponse', { response: sortedJson(e.response ?? {}), err: ok ? 'null' : JSON.stringify(rpcErrorText(e.code, e.message ?? '')), method: csiMethod(e.rpc) }), log('grpcError', { err: ok ? '<nil>' : rpcErrorText(e.code, e.message ?? ''), method: csiMethod(e.rpc) }));
      if (outcome === 'probeAgain') {
        out.push(log(ok ? 'driverNotReady' : 'probeTimedOut', {}), { type: 'timer.requested', key: 'startup', at: e.now + PROBE_INTERVAL });
        return;
      }
      if (outcome === 'failed') {
        const err = rpcErrorText(e.code, e.message ?? '');
        out.push(e.rpc === 'Probe' ? log('probeFailed', { err: `CSI driver probe failed: ${err}` })
          : e.rpc === 'GetPluginInfo' ? log('getDriverNameFailed', { err }) : log('capabilitiesFailed', { err }));
        return;
      }
      if (e.rpc === 'GetPluginInfo') out.push(log('detectedDriver', { driver: String(e.response?.name ?? c.input.driver.name) }));
      c.startup += 1;
      if (c.startup < STARTUP.length) call(c, STARTUP[c.startup]!, {}, out);
      else {
        c.dirtyAll = true;
        out.push(log('startedController', { component: `${c.input.driver.name}_${c.input.host}_${c.input.provisionerIdentity.split('-')[0]}` }));
      }
    }),
    storeObject: react((c, e) => {
      if (e.type !== 'watch.added' && e.type !== 'watch.modified' && e.type !== 'watch.deleted') return;
      const bag = STORE[e.object.kind];
      if (!bag) return;
      const k = e.object.metadata.namespace ? kobj(e.object) : e.object.metadata.name;
      if (e.type === 'watch.deleted') delete c[bag][k]; else c[bag][k] = e.object;
      if (bag === 'claims') {
        c.dirty[k] = true;
        // clones waiting for their source claim's volume
        const ds = e.object.spec?.dataSource;
        if (e.type !== 'watch.deleted' && ds?.kind === 'PersistentVolumeClaim' && !e.object.spec?.volumeName) c.clones[k] = `${e.object.metadata.namespace}/${ds.name}`;
        else delete c.clones[k];
        // (and a clone's change may free its source's cloning-protection finalizer)
        if (ds?.kind === 'PersistentVolumeClaim') c.dirty[`${e.object.metadata.namespace}/${ds.name}`] = true;
      } else if (bag === 'volumes') {
        c.dirty[`pv/${k}`] = true;
        // the claim it is bound to, and clones waiting for that claim as their source, may now proceed
        const ref = e.object.spec?.claimRef;
        if (ref) {
          const source = `${ref.namespace}/${ref.name}`;
          c.dirty[source] = true;
          for (const [ck, src] of Object.entries(c.clones)) if (src === source) c.dirty[ck] = true;
        }
      } else if (bag === 'classes') c.dirtyAll = true;
      // nodes only feed topology lookups (the node lister), VolumeAttachments canDeleteVolume: they queue nothing
    }),
    syncAll: react((c, e, out) => sync(c, out, e.now)),
    handleCsiResult: react((c, e, out) => { if (e.type === 'csi.result') onCsiResult(c, e, out); }),
    handleApiResult: react((c, e, out) => { if (e.type === 'api.result') onApiResult(c, e, out); }),
    endBackoff: react((c, e, out) => {
      if (e.type === 'clock.ticked' && e.key.startsWith('save/')) { saveInBackground(c, e.key.slice(5), out); return; }
      if (e.type !== 'clock.ticked' || !e.key.startsWith('retry/')) return;
      const key = e.key.slice(6);
      if (c.ops[key]?.step === 'backoff') { delete c.ops[key]; c.dirty[key.startsWith('clone/') ? key.slice(6) : key] = true; }
    }),
    reset: react((c) => { c.ops = {}; c.startup = 0; }),
    /** main's exit after a failed start-up: os.Exit(1) after the probe, klog.Fatalf's 255 after the others; the kubelet starts the container again */
    exitProcess: emit(({ context }) => ({ type: 'process.exited', code: context.startup === 0 ? 1 : 255 }) as ClusterEmitted),
  },
  guards: {
    startupDone: ({ context, event }) => startupOutcome(context, event) === 'next' && context.startup === STARTUP.length - 1,
    startupFailed: ({ context, event }) => startupOutcome(context, event) === 'failed',
    isStartupRetry: ({ event }) => event.type === 'clock.ticked' && event.key === 'startup',
  },
}).createMachine({
  id: 'externalProvisioner',
  initial: 'stopped',
  context: ({ input }) => ({ input, claims: {}, volumes: {}, classes: {}, nodes: {}, attachments: {}, ops: {}, failures: {}, startup: 0, nextRequest: 1, dirty: {}, dirtyAll: true, clones: {} }),
  states: {
    stopped: { description: 'The csi-provisioner container is not running.', on: { 'component.started': { target: 'connecting', actions: 'callNextStartupRpc' } } },
    connecting: {
      description: 'Probe, GetPluginInfo, GetPluginCapabilities, ControllerGetCapabilities on the driver socket (csi-provisioner.go main).',
      on: {
        'csi.result': [
          { guard: 'startupDone', target: 'running', actions: ['handleStartupResult', 'syncAll'] },
          { guard: 'startupFailed', target: 'failed', actions: 'handleStartupResult' },
          { actions: 'handleStartupResult' },
        ],
        'clock.ticked': { guard: 'isStartupRetry', actions: 'callNextStartupRpc' },
        'watch.added': { actions: 'storeObject' }, 'watch.modified': { actions: 'storeObject' }, 'watch.deleted': { actions: 'storeObject' },
        'host.shutdown': { target: 'stopped', actions: 'reset' },
      },
    },
    failed: {
      description: 'A start-up call failed: the process exits (os.Exit(1) after Probe, klog.Fatalf after GetPluginInfo and the capability calls) and the kubelet starts its container again.',
      entry: 'exitProcess',
    },
    running: {
      description: 'The provisioner controller works through claims and volumes (ProvisionController.Run).',
      on: {
        'watch.added': { actions: ['storeObject', 'syncAll'] }, 'watch.modified': { actions: ['storeObject', 'syncAll'] }, 'watch.deleted': { actions: ['storeObject', 'syncAll'] },
        'csi.result': { actions: ['handleCsiResult', 'syncAll'] },
        'api.result': { actions: ['handleApiResult', 'syncAll'] },
        'clock.ticked': { actions: ['endBackoff', 'syncAll'] },
        'host.shutdown': { target: 'stopped', actions: 'reset' },
      },
    },
  },
});

export { GRPC_CODE_GO_NAME };
