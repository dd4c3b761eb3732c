/**
 * syncClaim / syncVolume of the PV controller as pure functions over the informer caches. Each call
 * looks at one object and returns the next single API write it needs (level-triggered, like the
 * upstream controller: the write's watch event brings the object back and the next step follows).
 * upstream: pkg/controller/volume/persistentvolume/pv_controller.go (syncUnboundClaim,
 * syncBoundClaim, syncVolume, bind, provisionClaimOperationExternal, reclaimVolume).
 */
import type { ClusterEmitted, EventRecordedEmitted, LogEmitted, StatesChangedEmitted } from '../shared/contract.ts';
import { type K8sObject, kobj } from '../shared/k8s.ts';
import { summarize } from '../shared/messages.ts';
import {
  ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER, ANN_SELECTED_NODE, ANN_STORAGE_PROVISIONER, ANN_STORAGE_PROVISIONER_BETA,
} from '../shared/names.ts';
import type { Profile } from '../profiles/index.ts';
import { type ClaimPhase, claimPhaseAllows, type VolumePhase, volumePhaseAllows } from './phases.ts';
import { pvControllerSummaries as summaries } from './pvController.messages.ts';
import { stateOf } from '../shared/machineParts.ts';
import { stageOfVolumePhase } from '../shared/stage.ts';

/** An API write waiting for its result, and what to log / record once it succeeds. */
export interface PendingWrite {
  /** cache key of the object written ("pvc/ns/name" or "pv/name") */
  key: string;
  onSuccess: Array<LogEmitted | EventRecordedEmitted | StatesChangedEmitted>;
}

export interface Caches {
  /** PersistentVolumeClaims by "ns/name" */
  claims: Record<string, K8sObject>;
  /** PersistentVolumes by name */
  volumes: Record<string, K8sObject>;
  /** StorageClasses by name */
  classes: Record<string, K8sObject>;
  /** index: claims not yet bound ("ns/name"), so the resync decision does not scan every claim */
  unbound?: Record<string, true>;
  /** index: volume names by the "ns/name" of the claim their claimRef points at */
  volumesByClaim?: Record<string, string[]>;
  /** object keys with a write in flight: not synced until its result arrives */
  inFlight: Record<string, string>;
  pending: Record<string, PendingWrite>;
  nextRequest: number;
}

export interface SyncResult { caches: Caches; out: ClusterEmitted[] }

const clone = <T>(o: T): T => JSON.parse(JSON.stringify(o)) as T;
export const claimPhase = (c: K8sObject): ClaimPhase => (c.status?.phase as ClaimPhase | undefined) ?? 'Pending';
export const volumePhase = (v: K8sObject): VolumePhase => (v.status?.phase as VolumePhase | undefined) ?? 'Pending';
const ann = (o: K8sObject, k: string): string | undefined => o.metadata.annotations?.[k];
export const claimKeyOfVolume = (v: K8sObject): string | undefined =>
  v.spec?.claimRef ? `${v.spec.claimRef.namespace}/${v.spec.claimRef.name}` : undefined;

/** In-tree plugins are named kubernetes.io/…; everything else is provisioned externally (CSI). */
const isExternal = (provisioner: string): boolean => !provisioner.startsWith('kubernetes.io/');

function write(c: Caches, key: string, req: Omit<Extract<ClusterEmitted, { type: 'api.request' }>, 'type' | 'requestId'>, pre: ClusterEmitted[], onSuccess: PendingWrite['onSuccess']): SyncResult {
  const requestId = `pvc-${c.nextRequest}`;
  // the in-flight tables are updated in place, for scale: thousands of writes may be in flight
  // after a cluster starts, and copying them per write would be quadratic
  c.inFlight[key] = requestId;
  c.pending[requestId] = { key, onSuccess };
  return { caches: { ...c, nextRequest: c.nextRequest + 1 }, out: [...pre, { type: 'api.request', requestId, ...req }] };
}

const log = (msg: string, args: LogEmitted['args']): LogEmitted => ({ type: 'log', msg, args });

/**
 * The step that writes a phase shows the object's phase machine moving (phases.ts), once the API
 * server has taken the write. Subjects: "persistentvolume <name>", "persistentvolumeclaim <ns>/<name>".
 */
const phaseMoved = (subject: string, from: string, to: string): StatesChangedEmitted[] =>
  from === to ? [] : [{ type: 'states.changed', states: stateOf(subject, to), moves: [[subject, from], [subject, to]] }];
const event = (o: K8sObject, eventType: 'Normal' | 'Warning', reason: string, message: string): EventRecordedEmitted => ({
  type: 'event.recorded', involved: { kind: o.kind, ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}), name: o.metadata.name }, eventType, reason, message,
});

/** The volume this unbound claim should bind to: one whose claimRef points at it (pre-bound or provisioned for it). */
function findVolumeForClaim(c: Caches, claim: K8sObject): K8sObject | undefined {
  if (claim.spec?.volumeName) return c.volumes[claim.spec.volumeName];
  const candidates = c.volumesByClaim ? (c.volumesByClaim[kobj(claim)] ?? []).map((n) => c.volumes[n]!).filter(Boolean) : Object.values(c.volumes);
  return candidates.find((v) => claimKeyOfVolume(v) === kobj(claim)
    && (!v.spec.claimRef.uid || v.spec.claimRef.uid === claim.metadata.uid) && !v.metadata.deletionTimestamp);
}

/**
 * bind(): volume first (claimRef, then phase Bound), then the claim (volumeName + annotations, then
 * phase Bound with capacity and access modes). One write per call.
 */
function bind(c: Caches, volume: K8sObject, claim: K8sObject): SyncResult {
  const claimName = kobj(claim);
  const ref = volume.spec.claimRef;
  if (!ref || ref.uid !== claim.metadata.uid || ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace) {
    const pv = clone(volume);
    pv.spec.claimRef = { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid, apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion };
    pv.metadata.annotations = { ...pv.metadata.annotations, [ANN_BOUND_BY_CONTROLLER]: 'yes' };
    return write(c, `pv/${volume.metadata.name}`, { verb: 'update', kind: 'PersistentVolume', name: volume.metadata.name, object: pv, stage: 'provision', summary: summarize(summaries, 'pvController.bindVolume', { volume: volume.metadata.name, claim: claimName }) },
      [log('pvController.claimBoundToVolume', { claim: claimName, volume: volume.metadata.name })], []);
  }
  if (volumePhase(volume) !== 'Bound') return setVolumePhase(c, volume, 'Bound');
  if (claim.spec.volumeName !== volume.metadata.name || !ann(claim, ANN_BIND_COMPLETED)) {
    const pvc = clone(claim);
    const annotations: Record<string, string> = { ...pvc.metadata.annotations, [ANN_BIND_COMPLETED]: "yes" };
    if (pvc.spec.volumeName !== volume.metadata.name) {
      pvc.spec.volumeName = volume.metadata.name;
      annotations[ANN_BOUND_BY_CONTROLLER] ??= 'yes';
    }
    pvc.metadata.annotations = annotations;
    return write(c, `pvc/${claimName}`, { verb: 'update', kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, object: pvc, stage: 'provision', summary: summarize(summaries, 'pvController.bindClaim', { claim: claimName, volume: volume.metadata.name }) },
      [log('pvController.volumeBoundToClaim', { volume: volume.metadata.name, claim: claimName })], []);
  }
  if (claimPhase(claim) !== 'Bound' || !claim.status?.capacity) return setClaimPhase(c, claim, 'Bound', volume);
  return { caches: c, out: [] };
}

/** A write that binds (a phase Bound) is the provisioning's; another phase (Released, Failed, Lost) has no stage of its own here. */
const bindingStage = (phase: string): { stage?: 'provision' } => (phase === 'Bound' ? { stage: 'provision' } : {});

/** The stage of "volume … entered phase …" where it is not the catalog's (provisioning): the reclaim's (shared/stage.ts). */
const reclaimStage = (phase: string): { stage?: 'delete' } => {
  const stage = stageOfVolumePhase(phase);
  return stage ? { stage } : {};
};

function setVolumePhase(c: Caches, volume: K8sObject, phase: VolumePhase, pre: ClusterEmitted[] = []): SyncResult {
  if (!volumePhaseAllows(volumePhase(volume), phase)) return { caches: c, out: [] };
  const pv = clone(volume);
  pv.status = { ...pv.status, phase };
  return write(c, `pv/${volume.metadata.name}`, { verb: 'updateStatus', kind: 'PersistentVolume', name: volume.metadata.name, object: pv, ...bindingStage(phase), summary: summarize(summaries, 'pvController.volumePhase', { volume: volume.metadata.name, phase }) },
    pre, [{ ...log('pvController.volumeEnteredPhase', { volume: volume.metadata.name, phase }), ...reclaimStage(phase) }, ...phaseMoved(`persistentvolume ${volume.metadata.name}`, volumePhase(volume), phase)]);
}

function setClaimPhase(c: Caches, claim: K8sObject, phase: ClaimPhase, volume: K8sObject | undefined, ev?: EventRecordedEmitted): SyncResult {
  const from = claimPhase(claim);
  if (from !== phase && !claimPhaseAllows(from, phase)) return { caches: c, out: [] };
  const pvc = clone(claim);
  pvc.status = volume
    ? { ...pvc.status, phase, accessModes: volume.spec.accessModes, capacity: volume.spec.capacity }
    : { phase };
  return write(c, `pvc/${kobj(claim)}`, { verb: 'updateStatus', kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, object: pvc, ...bindingStage(phase), summary: summarize(summaries, 'pvController.claimPhase', { claim: kobj(claim), phase }) },
    [], [log('pvController.claimEnteredPhase', { claim: kobj(claim), phase }), ...(ev ? [ev] : []), ...phaseMoved(`persistentvolumeclaim ${kobj(claim)}`, from, phase)]);
}

/** syncClaim for one claim. `profile` decides which storage-provisioner annotations are written. */
export function syncClaim(c: Caches, key: string, profile: Profile): SyncResult {
  const claim = c.claims[key];
  if (!claim || c.inFlight[`pvc/${key}`] || claim.metadata.deletionTimestamp) return { caches: c, out: [] };
  if (!ann(claim, ANN_BIND_COMPLETED)) {
    // syncUnboundClaim
    const volume = findVolumeForClaim(c, claim);
    if (volume) return c.inFlight[`pv/${volume.metadata.name}`] ? { caches: c, out: [] } : bind(c, volume, claim);
    if (claim.spec?.volumeName) return { caches: c, out: [] }; // pre-bound to a volume that does not exist yet
    const className: string | undefined = claim.spec?.storageClassName;
    const cls = className ? c.classes[className] : undefined;
    if (!className) {
      return { caches: c, out: [event(claim, 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set')] };
    }
    if (!cls || !isExternal(cls.provisioner)) return { caches: c, out: [] };
    if (cls.volumeBindingMode === 'WaitForFirstConsumer' && !ann(claim, ANN_SELECTED_NODE)) {
      return { caches: c, out: [event(claim, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding')] };
    }
    // provisionClaimOperationExternal: set the storage-provisioner annotation(s), then tell the user who is expected to act.
    const waiting = event(claim, 'Normal', 'ExternalProvisioning', profile.externalProvisioningMessage.replace('{provisioner}', cls.provisioner));
    const wanted: Record<string, string> = {};
    for (const a of profile.provisionerAnnotations) wanted[a === 'beta' ? ANN_STORAGE_PROVISIONER_BETA : ANN_STORAGE_PROVISIONER] = cls.provisioner;
    if (Object.entries(wanted).some(([k, v]) => ann(claim, k) !== v)) {
      const pvc = clone(claim);
      pvc.metadata.annotations = { ...pvc.metadata.annotations, ...wanted };
      return write(c, `pvc/${key}`, { verb: 'update', kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, object: pvc, stage: 'provision', summary: summarize(summaries, 'pvController.externalProvisioning', { claim: key, provisioner: cls.provisioner }) }, [], [waiting]);
    }
    return { caches: c, out: [waiting] };
  }
  // syncBoundClaim
  if (!claim.spec?.volumeName) {
    return claimPhase(claim) === 'Lost' ? { caches: c, out: [] }
      : setClaimPhase(c, claim, 'Lost', undefined, event(claim, 'Warning', 'ClaimLost', 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!'));
  }
  const volume = c.volumes[claim.spec.volumeName];
  if (!volume) {
    return claimPhase(claim) === 'Lost' ? { caches: c, out: [] }
      : setClaimPhase(c, claim, 'Lost', undefined, event(claim, 'Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!'));
  }
  if (c.inFlight[`pv/${volume.metadata.name}`]) return { caches: c, out: [] };
  if (!volume.spec.claimRef || volume.spec.claimRef.uid === claim.metadata.uid) return bind(c, volume, claim);
  return claimPhase(claim) === 'Lost' ? { caches: c, out: [] }
    : setClaimPhase(c, claim, 'Lost', undefined, event(claim, 'Warning', 'ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly'));
}

/** syncVolume for one volume. */
export function syncVolume(c: Caches, name: string): SyncResult {
  const volume = c.volumes[name];
  if (!volume || c.inFlight[`pv/${name}`]) return { caches: c, out: [] };
  const ref = volume.spec?.claimRef;
  if (!ref || !ref.uid) return setVolumePhase(c, volume, 'Available');
  const claim = c.claims[`${ref.namespace}/${ref.name}`];
  if (!claim || claim.metadata.uid !== ref.uid) {
    // The claim is gone: Released, once; then reclaimVolume. Delete of an externally provisioned
    // volume is the external provisioner's job; Retain keeps the volume Released.
    const phase = volumePhase(volume);
    if (phase === 'Released' || phase === 'Failed') return { caches: c, out: [] };
    return setVolumePhase(c, volume, 'Released', [log('pvController.volumeReleased', { volume: name, policy: volume.spec.persistentVolumeReclaimPolicy ?? 'Delete' })]);
  }
  if (claim.spec?.volumeName === name && volumePhase(volume) !== 'Bound') return setVolumePhase(c, volume, 'Bound');
  // claim.spec.volumeName == "": the claim sync finishes the binding (the caller syncs the claim next)
  return { caches: c, out: [] };
}
