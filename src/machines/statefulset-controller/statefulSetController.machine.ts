/**
 * StatefulSet controller (kube-controller-manager).
 *
 * What the real component does: for every StatefulSet it keeps pods `<set>-0 … <set>-(N-1)` in
 * existence, each with its own PersistentVolumeClaims `<template>-<set>-<ordinal>` created from
 * volumeClaimTemplates before the pod (the claims outlive the pods, so a recreated pod gets its old
 * volume back). OrderedReady (the default) creates one pod at a time, the next only when all lower
 * ordinals are Running and Ready; Parallel creates them all at once. A deleted pod is recreated once
 * it is really gone from the API. Every create is told through an Event on the StatefulSet
 * (SuccessfulCreate "create Claim … success" / "create Pod … successful").
 *
 * Models: kubernetes/kubernetes pkg/controller/statefulset/stateful_set_control.go
 * (updateStatefulSet / the monotonic loop), stateful_pod_control.go (CreateStatefulPod,
 * createPersistentVolumeClaims, recordPodEvent, recordClaimEvent), stateful_set_utils.go.
 *
 * Left out: rolling updates and ControllerRevisions (the revision hash is computed, never rolled),
 * scale-down deletes, deleting Failed pods, PVC retention policy, status updates on the StatefulSet,
 * minReadySeconds. Upstream logs nothing at -v=2 on this path: the Events carry the story.
 *
 * Scale: the per-set index lives in context and is updated in place (copying it per event would be
 * O(n) per event, O(n²) for a 10 000-replica set); each event touches only the ordinals it concerns.
 */
import { setup } from 'xstate';
import { inPlaceReaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import { SIDECAR_RETRY_INTERVAL_START, sidecarRetryDelay } from '../shared/timing.ts';
import {
  type SetIndex, advancePrefix, claimName, indexSet, newClaim, newPod, ordinalOf, ordinalsToCreate,
  ownerSetName, podName, setKey, slotOf,
} from './statefulSetController.objects.ts';

/** Input of the StatefulSet controller: only the common component fields. */
export interface StatefulSetControllerInput extends ComponentInput {}

interface Op { set: string; ordinal: number; what: 'claim' | 'pod'; name: string }

export interface StatefulSetControllerContext {
  input: StatefulSetControllerInput;
  /** "ns/name" -> the set's index (pods by ordinal, creates in flight, healthy prefix) */
  sets: Record<string, SetIndex>;
  /** "ns/name" of every PersistentVolumeClaim in the informer cache */
  claims: Record<string, true>;
  /** api requests in flight */
  ops: Record<string, Op>;
  /** "set#ordinal" -> claims still being created before the pod can be */
  claimsLeft: Record<string, number>;
  /** "set#ordinal" -> failed creates so far (workqueue rate limiter) */
  failures: Record<string, number>;
  seq: number;
}

type Ctx = StatefulSetControllerContext;
type Emit = (e: ClusterEmitted) => void;
/** The controller's handlers update its caches in place and emit as they go (shared/reaction.ts). */
const inPlace = (fn: (ctx: Ctx, event: ClusterEvent, emit: Emit) => void) => inPlaceReaction<Ctx, ClusterEvent, ClusterEmitted>(fn);

const slotKey = (set: string, ordinal: number): string => `${set}#${ordinal}`;

/** Start creating ordinal `i`: its missing claims first, then (when none is missing) the pod. */
function createStatefulPod(ctx: Ctx, s: SetIndex, i: number, emit: Emit): void {
  const key = setKey(s.namespace, s.name);
  s.creating[i] = true;
  let left = 0;
  for (const t of (s.object.spec?.volumeClaimTemplates ?? []) as K8sObject[]) {
    const name = claimName(t.metadata.name, s.name, i);
    if (ctx.claims[`${s.namespace}/${name}`]) continue;
    const requestId = `sts-${++ctx.seq}`;
    ctx.ops[requestId] = { set: key, ordinal: i, what: 'claim', name };
    emit({ type: 'api.request', requestId, verb: 'create', kind: 'PersistentVolumeClaim', namespace: s.namespace, name, object: newClaim(s, t, i) });
    left++;
  }
  ctx.claimsLeft[slotKey(key, i)] = left;
  if (left === 0) createPod(ctx, s, i, emit);
}

function createPod(ctx: Ctx, s: SetIndex, i: number, emit: Emit): void {
  const requestId = `sts-${++ctx.seq}`;
  const name = podName(s.name, i);
  ctx.ops[requestId] = { set: setKey(s.namespace, s.name), ordinal: i, what: 'pod', name };
  emit({ type: 'api.request', requestId, verb: 'create', kind: 'Pod', namespace: s.namespace, name, object: newPod(s, i, ctx.input.profile) });
}

function sync(ctx: Ctx, s: SetIndex, candidates: Iterable<number>, emit: Emit): void {
  for (const i of ordinalsToCreate(s, candidates)) createStatefulPod(ctx, s, i, emit);
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

export const statefulSetControllerMachine = setup({
  types: {
    context: {} as StatefulSetControllerContext,
    events: {} as ClusterEvent,
    emitted: {} as ClusterEmitted,
    input: {} as StatefulSetControllerInput,
  },
  actions: {
    /** informer handlers: addStatefulset/updateStatefulset/deleteStatefulset, addPod/updatePod/deletePod, claim cache */
    handleWatchEvent: inPlace((ctx, event, emitOut) => {
      if (event.type !== 'watch.added' && event.type !== 'watch.modified' && event.type !== 'watch.deleted') return;
      const o = event.object;
      const emit: Emit = emitOut;
      const ns = o.metadata.namespace ?? 'default';
      if (o.kind === 'PersistentVolumeClaim') {
        if (event.type === 'watch.deleted') delete ctx.claims[`${ns}/${o.metadata.name}`];
        else ctx.claims[`${ns}/${o.metadata.name}`] = true;
        return;
      }
      if (o.kind === 'StatefulSet') {
        const key = setKey(ns, o.metadata.name);
        if (event.type === 'watch.deleted') { delete ctx.sets[key]; return; }
        const prev = ctx.sets[key];
        const s = indexSet(o, prev);
        ctx.sets[key] = s;
        if (prev && prev.replicas > s.replicas) s.healthyPrefix = Math.min(s.healthyPrefix, s.replicas);
        sync(ctx, s, prev ? range(s.replicas).filter((i) => i >= prev.replicas || !s.pods[i]) : range(s.replicas), emit);
        return;
      }
      if (o.kind !== 'Pod') return;
      const setName = ownerSetName(o);
      const s = setName ? ctx.sets[setKey(ns, setName)] : undefined;
      if (!s) return;
      const i = ordinalOf(o, s.name);
      if (i < 0) return;
      if (event.type === 'watch.deleted') {
        delete s.pods[i];
        if (i < s.healthyPrefix) s.healthyPrefix = i;
      } else {
        const slot = slotOf(o);
        s.pods[i] = slot;
        if (!slot.healthy && i < s.healthyPrefix) s.healthyPrefix = i;
        if (slot.healthy) advancePrefix(s);
      }
      sync(ctx, s, [i], emit);
    }),
    /** result of a claim or pod create: record the event, go on to the pod, or retry later */
    handleApiResult: inPlace((ctx, event, emitOut) => {
      if (event.type !== 'api.result') return;
      const op = ctx.ops[event.requestId];
      if (!op) return;
      delete ctx.ops[event.requestId];
      const s = ctx.sets[op.set];
      if (!s) return;
      const emit: Emit = emitOut;
      const pod = podName(s.name, op.ordinal);
      const involved = { kind: 'StatefulSet' as const, namespace: s.namespace, name: s.name };
      const k = slotKey(op.set, op.ordinal);
      const ok = event.ok || event.code === 409;
      if (op.what === 'claim') {
        if (event.ok) {
          ctx.claims[`${s.namespace}/${op.name}`] = true;
          emit({ type: 'event.recorded', involved, eventType: 'Normal', reason: 'SuccessfulCreate', message: `create Claim ${op.name} Pod ${pod} in StatefulSet ${s.name} success` });
        } else if (!ok) {
          emit({ type: 'event.recorded', involved, eventType: 'Warning', reason: 'FailedCreate', message: `create Claim ${op.name} for Pod ${pod} in StatefulSet ${s.name} failed error: ${event.message ?? ''}` });
        }
        if (!ok) ctx.claimsLeft[k] = -1; // the pod is not created; the sync is retried
        else if (ctx.claimsLeft[k] !== undefined && ctx.claimsLeft[k]! > 0) {
          ctx.claimsLeft[k] = ctx.claimsLeft[k]! - 1;
          if (ctx.claimsLeft[k] === 0) { delete ctx.claimsLeft[k]; createPod(ctx, s, op.ordinal, emit); return; }
        }
        if (ctx.claimsLeft[k] === -1 && !Object.values(ctx.ops).some((o) => o.set === op.set && o.ordinal === op.ordinal)) {
          delete ctx.claimsLeft[k];
          delete s.creating[op.ordinal];
          const n = ctx.failures[k] ?? 0;
          ctx.failures[k] = n + 1;
          emit({ type: 'timer.requested', key: `retry/${k}`, at: event.now + sidecarRetryDelay(n, SIDECAR_RETRY_INTERVAL_START / 200, 1000 * SIDECAR_RETRY_INTERVAL_START) });
        }
        return;
      }
      delete s.creating[op.ordinal];
      if (event.ok) {
        delete ctx.failures[k];
        // the informer will confirm; mark the slot now so the next sync does not create it twice
        if (!s.pods[op.ordinal]) s.pods[op.ordinal] = { healthy: false, terminating: false };
        emit({ type: 'event.recorded', involved, eventType: 'Normal', reason: 'SuccessfulCreate', message: `create Pod ${pod} in StatefulSet ${s.name} successful` });
        sync(ctx, s, [], emit);
      } else if (event.code !== 409) {
        emit({ type: 'event.recorded', involved, eventType: 'Warning', reason: 'FailedCreate', message: `create Pod ${pod} in StatefulSet ${s.name} failed error: ${event.message ?? ''}` });
        const n = ctx.failures[k] ?? 0;
        ctx.failures[k] = n + 1;
        emit({ type: 'timer.requested', key: `retry/${k}`, at: event.now + sidecarRetryDelay(n, SIDECAR_RETRY_INTERVAL_START / 200, 1000 * SIDECAR_RETRY_INTERVAL_START) });
      }
    }),
    /** the workqueue hands a failed set back after its rate-limiter delay (5ms doubling, as the KCM default controller rate limiter) */
    retrySync: inPlace((ctx, event, emitOut) => {
      if (event.type !== 'clock.ticked' || !event.key.startsWith('retry/')) return;
      const [set, ord] = event.key.slice('retry/'.length).split('#');
      const s = ctx.sets[set!];
      if (s) sync(ctx, s, [Number(ord)], emitOut);
    }),
    forgetInFlight: ({ context: ctx }) => {
      // a restarted controller rebuilds its caches from the informers' initial list
      ctx.ops = {}; ctx.claimsLeft = {}; ctx.sets = {}; ctx.claims = {};
    },
  },
}).createMachine({
  id: 'statefulset-controller',
  initial: 'stopped',
  context: ({ input }) => ({ input, sets: {}, claims: {}, ops: {}, claimsLeft: {}, failures: {}, seq: 0 }),
  states: {
    stopped: {
      description: 'The kube-controller-manager process is not running.',
      on: { 'component.started': { target: 'running', actions: 'forgetInFlight' } },
    },
    running: {
      description: 'Informers are synced; the workers run syncStatefulSet for every set that changed (stateful_set.go).',
      on: {
        'watch.added': { actions: 'handleWatchEvent' },
        'watch.modified': { actions: 'handleWatchEvent' },
        'watch.deleted': { actions: 'handleWatchEvent' },
        'api.result': { actions: 'handleApiResult' },
        'clock.ticked': { actions: 'retrySync' },
        'host.shutdown': { target: 'stopped' },
      },
    },
  },
});
