/**
 * The PV protection controller of kube-controller-manager: a PersistentVolume being deleted keeps its
 * `kubernetes.io/pv-protection` finalizer (added at creation by the StorageObjectInUseProtection
 * admission plugin) while it is still Bound to a claim; then the finalizer goes.
 * upstream: pkg/controller/volume/pvprotection/pv_protection_controller.go (processPV, isBeingUsed:
 * phase Bound, removeFinalizer). Its log lines are V(4): not printed at -v=2.
 */
import { enqueueActions, setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { summarize } from '../shared/messages.ts';
import { PV_PROTECTION_FINALIZER } from '../shared/names.ts';
import { pvProtectionControllerSummaries as summaries } from './pvProtectionController.messages.ts';

export type PvProtectionControllerInput = ComponentInput;

export interface PvProtectionControllerContext {
  /** volumes by name */
  volumes: Record<string, K8sObject>;
  /** names of volumes with a finalizer removal in flight */
  inFlight: Record<string, string>;
  seq: number;
}

/** processPV: a deleted volume that is no longer Bound loses the finalizer. */
function processPV(c: PvProtectionControllerContext, name: string, out: ClusterEmitted[]): void {
  const pv = c.volumes[name];
  if (!pv?.metadata.deletionTimestamp || !pv.metadata.finalizers?.includes(PV_PROTECTION_FINALIZER) || c.inFlight[name]) return;
  if (pv.status?.phase === 'Bound') return; // isBeingUsed
  const requestId = `pvp-${++c.seq}`;
  c.inFlight[name] = requestId;
  out.push({
    type: 'api.request', requestId, verb: 'update', kind: 'PersistentVolume', name,
    object: { ...pv, metadata: { ...pv.metadata, finalizers: pv.metadata.finalizers.filter((f) => f !== PV_PROTECTION_FINALIZER) } },
    summary: summarize(summaries, 'pvProtectionController.removeFinalizer', { finalizer: PV_PROTECTION_FINALIZER, pv: name }),
  });
}

export const pvProtectionControllerMachine = setup({
  types: {
    context: {} as PvProtectionControllerContext,
    events: {} as ClusterEvent,
    emitted: {} as ClusterEmitted,
    input: {} as PvProtectionControllerInput,
  },
  actions: {
    processChange: reaction<PvProtectionControllerContext, ClusterEvent, ClusterEmitted>((context, event) => {
      // the caches are updated in place, for scale (the actor owns its context)
      const c: PvProtectionControllerContext = { ...context };
      const out: ClusterEmitted[] = [];
      if (event.type === 'watch.added' || event.type === 'watch.modified') {
        c.volumes[event.object.metadata.name] = event.object;
        processPV(c, event.object.metadata.name, out);
      } else if (event.type === 'watch.deleted') {
        delete c.volumes[event.object.metadata.name];
      } else if (event.type === 'api.result') {
        const name = Object.keys(c.inFlight).find((k) => c.inFlight[k] === event.requestId);
        if (name) {
          delete c.inFlight[name];
          // on a conflict, try again with the newest volume the informer has (the workqueue requeue)
          if (!event.ok && event.code === 409) processPV(c, name, out);
        }
      }
      return { ctx: c, out };
    }),
    forget: enqueueActions(({ enqueue }) => { enqueue.assign({ inFlight: {} }); }),
  },
}).createMachine({
  id: 'pvProtectionController',
  initial: 'stopped',
  context: () => ({ volumes: {}, inFlight: {}, seq: 0 }),
  states: {
    stopped: { description: 'kube-controller-manager is not running.', on: { 'component.started': 'running' } },
    running: {
      description: 'Watches volumes; removes the pv-protection finalizer of deleted volumes that are no longer bound.',
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
