/**
 * The PVC protection controller of kube-controller-manager: a claim being deleted keeps its
 * `kubernetes.io/pvc-protection` finalizer (added at creation by the StorageObjectInUseProtection
 * admission plugin) while a pod that is not terminated still uses it; then the finalizer goes and
 * the API server deletes the claim.
 * upstream: pkg/controller/volume/pvcprotection/pvc_protection_controller.go (processPVC,
 * isBeingUsed, removeFinalizer), plugin/pkg/admission/storage/storageobjectinuseprotection.
 * Leaves out: the live pod list it falls back to when the informer says "not used" (no stale caches
 * here), and its V(4) log lines (not printed at kube-controller-manager's -v=2).
 */
import { enqueueActions, setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import { type K8sObject, kobj } from '../shared/k8s.ts';
import { summarize } from '../shared/messages.ts';
import { PVC_PROTECTION_FINALIZER } from '../shared/names.ts';
import { pvcProtectionControllerSummaries as summaries } from './pvcProtectionController.messages.ts';

export type PvcProtectionControllerInput = ComponentInput;

export interface PvcProtectionControllerContext {
  /** claims by "ns/name" */
  claims: Record<string, K8sObject>;
  /** "ns/claim" -> uids of the pods that use it and are not terminated */
  users: Record<string, Record<string, true>>;
  /** claims with a finalizer removal in flight */
  inFlight: Record<string, string>;
  seq: number;
}

const claimsOf = (pod: K8sObject): string[] =>
  ((pod.spec?.volumes ?? []) as Array<{ persistentVolumeClaim?: { claimName: string } }>)
    .filter((v) => v.persistentVolumeClaim).map((v) => `${pod.metadata.namespace}/${v.persistentVolumeClaim!.claimName}`);

/** podIsShutDown / isPodTerminated: a pod that has finished no longer holds its claims. */
const terminated = (pod: K8sObject): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** processPVC: a claim being deleted, with our finalizer, that no pod uses, loses the finalizer. */
function processPVC(c: PvcProtectionControllerContext, key: string, out: ClusterEmitted[]): void {
  const claim = c.claims[key];
  if (!claim?.metadata.deletionTimestamp || !claim.metadata.finalizers?.includes(PVC_PROTECTION_FINALIZER) || c.inFlight[key]) return;
  if (Object.keys(c.users[key] ?? {}).length > 0) return; // isBeingUsed
  const requestId = `pvcp-${++c.seq}`;
  c.inFlight[key] = requestId;
  out.push({
    type: 'api.request', requestId, verb: 'update', kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name,
    object: { ...claim, metadata: { ...claim.metadata, finalizers: claim.metadata.finalizers.filter((f) => f !== PVC_PROTECTION_FINALIZER) } },
    summary: summarize(summaries, 'pvcProtectionController.removeFinalizer', { finalizer: PVC_PROTECTION_FINALIZER, claim: key }),
  });
}

export const pvcProtectionControllerMachine = setup({
  types: {
    context: {} as PvcProtectionControllerContext,
    events: {} as ClusterEvent,
    emitted: {} as ClusterEmitted,
    input: {} as PvcProtectionControllerInput,
  },
  actions: {
    /** pvcAddedUpdated / podAddedDeletedUpdated: keep the caches, then process the claims concerned */
    processChange: reaction<PvcProtectionControllerContext, ClusterEvent, ClusterEmitted>((context, event) => {
      // the caches are updated in place, for scale (the actor owns its context)
      const c: PvcProtectionControllerContext = { ...context };
      const out: ClusterEmitted[] = [];
      if (event.type === 'watch.added' || event.type === 'watch.modified' || event.type === 'watch.deleted') {
        const o = event.object;
        const gone = event.type === 'watch.deleted';
        if (o.kind === 'PersistentVolumeClaim') {
          if (gone) delete c.claims[kobj(o)]; else c.claims[kobj(o)] = o;
          if (!gone) processPVC(c, kobj(o), out);
        } else if (o.kind === 'Pod') {
          const uid = o.metadata.uid ?? kobj(o);
          for (const key of claimsOf(o)) {
            const users = (c.users[key] ??= {});
            if (gone || terminated(o)) delete users[uid]; else users[uid] = true;
            processPVC(c, key, out);
          }
        }
      } else if (event.type === 'api.result') {
        const key = Object.keys(c.inFlight).find((k) => c.inFlight[k] === event.requestId);
        if (key) {
          delete c.inFlight[key];
          if (event.ok && event.object) c.claims[key] = event.object;
          // on a conflict, try again with the newest claim the informer has (the workqueue requeue)
          else if (event.code === 409) processPVC(c, key, out);
        }
      }
      return { ctx: c, out };
    }),
    forget: enqueueActions(({ enqueue }) => { enqueue.assign({ inFlight: {} }); }),
  },
}).createMachine({
  id: 'pvcProtectionController',
  initial: 'stopped',
  context: () => ({ claims: {}, users: {}, inFlight: {}, seq: 0 }),
  states: {
    stopped: { description: 'kube-controller-manager is not running.', on: { 'component.started': 'running' } },
    running: {
      description: 'Watches claims and pods; removes the pvc-protection finalizer of deleted claims no pod uses.',
      on: {
        'watch.added': { actions: 'processChange' },
        'watch.modified': { actions: 'processChange' },
        'watch.deleted': { actions: 'processChange' },
        'api.result': { actions: 'processChange' },
        'host.shutdown': { target: 'stopped', actions: 'forget' },
      },
    },
  },
});
