/**
 * The PersistentVolume controller ("persistentvolume-binder" in kube-controller-manager).
 *
 * What it does: binds PersistentVolumeClaims to PersistentVolumes and keeps both phases right. For
 * a claim of a CSI StorageClass it does not provision anything: it writes the storage-provisioner
 * annotation and records ExternalProvisioning, and the external-provisioner creates the volume. With
 * volumeBindingMode WaitForFirstConsumer it waits (event WaitForFirstConsumer) until the scheduler
 * writes volume.kubernetes.io/selected-node. When a bound claim is deleted the volume becomes
 * Released; for reclaimPolicy Delete the external provisioner then deletes it.
 *
 * upstream: pkg/controller/volume/persistentvolume/pv_controller.go and pv_controller_base.go
 * (v1.20 and master-era): syncClaim, syncUnboundClaim, syncBoundClaim, syncVolume, bind,
 * provisionClaimOperationExternal, reclaimVolume; resync every --pvclaimbinder-sync-period (15s).
 *
 * Left out: in-tree provisioning/deletion/recycling, label selectors and capacity matching of
 * static PVs (a pre-bound PV or one whose claimRef names the claim is used), volume modes,
 * ClaimMisbound handling for volumes, migration annotations, metrics.
 *
 * The resync timer runs only while some claim is unbound (event-driven otherwise), so the
 * ExternalProvisioning / WaitForFirstConsumer event counts grow while a claim waits, as they do in
 * real clusters.
 */
import { enqueueActions, setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import { type K8sObject, kobj } from '../shared/k8s.ts';
import { PV_CONTROLLER_SYNC_PERIOD } from '../shared/timing.ts';
import { ANN_BIND_COMPLETED } from '../shared/names.ts';
import { getProfile } from '../profiles/index.ts';
import { type Caches, claimKeyOfVolume, type SyncResult, syncClaim, syncVolume } from './sync.ts';

export interface PvControllerInput extends ComponentInput {
  /** resync period (µs); default --pvclaimbinder-sync-period 15s */
  syncPeriod?: number;
}

export interface PvControllerContext extends Caches {
  input: PvControllerInput;
  /** a resync tick is scheduled */
  resyncScheduled: boolean;
}

const RESYNC = 'pvController.resync';

const rv = (o: K8sObject): number => Number(o.metadata.resourceVersion ?? 0);

/** storeObjectUpdate: keep the newer of the cached and the given object. */
/**
 * The informer caches. For scale they are updated in place (the actor owns its context; copying
 * 10 000 claims on every event would make large rollouts quadratic). A stale event (older
 * resourceVersion than the cached object) is ignored.
 */
function store(c: Caches, o: K8sObject, deleted = false): Caches {
  const bag = o.kind === 'PersistentVolumeClaim' ? c.claims : o.kind === 'PersistentVolume' ? c.volumes : o.kind === 'StorageClass' ? c.classes : undefined;
  if (!bag) return c;
  const k = o.kind === 'PersistentVolumeClaim' ? kobj(o) : o.metadata.name;
  const cur = bag[k];
  if (!deleted && o.kind !== 'StorageClass' && cur && rv(cur) > rv(o)) return c;
  if (deleted) delete bag[k]; else bag[k] = o;
  c.unbound ??= {};
  c.volumesByClaim ??= {};
  if (o.kind === 'PersistentVolumeClaim') {
    if (!deleted && isUnbound(o)) c.unbound[k] = true; else delete c.unbound[k];
  } else if (o.kind === 'PersistentVolume') {
    const before = cur ? claimKeyOfVolume(cur) : undefined;
    const after = deleted ? undefined : claimKeyOfVolume(o);
    if (before && before !== after) c.volumesByClaim[before] = (c.volumesByClaim[before] ?? []).filter((n) => n !== k);
    if (after && !(c.volumesByClaim[after] ?? []).includes(k)) c.volumesByClaim[after] = [...(c.volumesByClaim[after] ?? []), k];
  }
  return c;
}

const isUnbound = (cl: K8sObject): boolean => !cl.metadata.annotations?.[ANN_BIND_COMPLETED] && !cl.metadata.deletionTimestamp;

/** Run syncs in order, threading the caches through. */
function chain(c: Caches, steps: Array<(c: Caches) => SyncResult>): SyncResult {
  let caches = c;
  const out: ClusterEmitted[] = [];
  for (const s of steps) { const r = s(caches); caches = r.caches; out.push(...r.out); }
  return { caches, out };
}

/** What an informer event makes the controller sync: the object itself, plus the claim a volume points to. */
function syncFor(c: PvControllerContext, o: K8sObject, deleted: boolean): SyncResult {
  const profile = getProfile(c.input.profile);
  if (o.kind === 'PersistentVolumeClaim') {
    if (deleted) {
      // deleteClaim: the volume it was bound to is synced at once
      const v = o.spec?.volumeName as string | undefined;
      return v ? syncVolume(c, v) : { caches: c, out: [] };
    }
    return syncClaim(c, kobj(o), profile);
  }
  if (o.kind === 'PersistentVolume') {
    const claimKey = claimKeyOfVolume(o);
    return chain(c, [(x) => syncVolume(x, o.metadata.name), ...(claimKey ? [(x: Caches) => syncClaim(x, claimKey, profile)] : [])]);
  }
  if (o.kind === 'StorageClass') return resyncAll(c);
  return { caches: c, out: [] };
}

function resyncAll(c: PvControllerContext): SyncResult {
  const profile = getProfile(c.input.profile);
  return chain(c, [
    ...Object.keys(c.volumes).sort().map((n) => (x: Caches) => syncVolume(x, n)),
    ...Object.keys(c.claims).sort().map((k) => (x: Caches) => syncClaim(x, k, profile)),
  ]);
}

const hasUnboundClaims = (c: Caches): boolean => Object.keys(c.unbound ?? {}).length > 0;

/** The informers' caches of a process that has just started: empty until their lists come. */
const emptyCaches = () => ({ claims: {}, volumes: {}, classes: {}, unbound: {}, volumesByClaim: {} });

/** Sync every volume, then every claim (resyncAll): the caches it leaves, with `also`, and what it emits. */
function syncAll(context: PvControllerContext, enqueue: { assign(c: Partial<PvControllerContext>): void; emit(e: ClusterEmitted): void }, also: Partial<PvControllerContext>): void {
  const r = resyncAll(context);
  enqueue.assign({ ...r.caches, ...also });
  for (const e of r.out) enqueue.emit(e);
}

export const pvControllerMachine = setup({
  types: {
    context: {} as PvControllerContext,
    events: {} as ClusterEvent,
    emitted: {} as ClusterEmitted,
    input: {} as PvControllerInput,
  },
  actions: {
    /** informer handlers (addClaim/updateClaim/deleteClaim, addVolume/…): store, then sync */
    handleInformerEvent: reaction<PvControllerContext, ClusterEvent, ClusterEmitted>((context, event) => {
      if (event.type !== 'watch.added' && event.type !== 'watch.modified' && event.type !== 'watch.deleted') return { ctx: context, out: [] };
      const deleted = event.type === 'watch.deleted';
      const caches = store(context, event.object, deleted);
      const r = syncFor({ ...context, ...caches }, event.object, deleted);
      return { ctx: { ...context, ...r.caches }, out: r.out };
    }),
    /** the result of a write: update the cache (storeClaimUpdate/storeVolumeUpdate), log, then sync the object again */
    handleWriteResult: reaction<PvControllerContext, ClusterEvent, ClusterEmitted>((context, event) => {
      if (event.type !== 'api.result') return { ctx: context, out: [] };
      const p = context.pending[event.requestId];
      if (!p) return { ctx: context, out: [] };
      // in place, for scale (see write() in sync.ts)
      delete context.pending[event.requestId];
      delete context.inFlight[p.key];
      let caches: Caches = { ...context };
      if (event.ok && event.object) caches = store(caches, event.object);
      const out: ClusterEmitted[] = event.ok ? [...p.onSuccess] : [];
      if (event.ok && event.object) {
        const r = syncFor({ ...context, ...caches }, event.object, false);
        caches = r.caches;
        out.push(...r.out);
      }
      return { ctx: { ...context, ...caches }, out };
    }),
    resync: enqueueActions(({ context, enqueue }) => syncAll(context, enqueue, { resyncScheduled: false })),
    scheduleResync: reaction<PvControllerContext, ClusterEvent, ClusterEmitted>((context, event) => {
      if (context.resyncScheduled || !hasUnboundClaims(context)) return { ctx: context, out: [] };
      return { ctx: { ...context, resyncScheduled: true }, out: [{ type: 'timer.requested', key: RESYNC, at: event.now + (context.input.syncPeriod ?? PV_CONTROLLER_SYNC_PERIOD) }] };
    }),
    /** the informers' handlers while the caches sync: the object is stored, its key waits for the workers */
    storeObject: reaction<PvControllerContext, ClusterEvent, ClusterEmitted>((context, event) => {
      if (event.type !== 'watch.added' && event.type !== 'watch.modified' && event.type !== 'watch.deleted') return { ctx: context, out: [] };
      return { ctx: { ...context, ...store(context, event.object, event.type === 'watch.deleted') }, out: [] };
    }),
    /**
     * The caches are synced: initializeCaches, then the volume and claim workers sync every key the
     * informers queued (pv_controller_base.go Run), here volumes then claims as resyncAll does
     */
    initializeCaches: enqueueActions(({ context, enqueue }) => syncAll(context, enqueue, {})),
    forgetTimers: enqueueActions(({ enqueue }) => { enqueue.assign({ resyncScheduled: false, inFlight: {}, pending: {} }); }),
    /** a new process: its informers' caches start empty, and fill from their lists */
    resetCaches: enqueueActions(({ enqueue }) => { enqueue.assign(emptyCaches()); }),
  },
  guards: {
    isResyncTick: ({ event }) => event.type === 'clock.ticked' && event.key === RESYNC,
  },
}).createMachine({
  id: 'pvController',
  initial: 'stopped',
  context: ({ input }) => ({ input, ...emptyCaches(), inFlight: {}, pending: {}, nextRequest: 1, resyncScheduled: false }),
  states: {
    stopped: {
      description: 'kube-controller-manager is not running.',
      on: { 'component.started': { target: 'waitingForCacheSync', actions: 'resetCaches' } },
    },
    waitingForCacheSync: {
      description: 'Started: the informers list claims, volumes and classes into the caches; nothing is synced until all are in (cache.WaitForNamedCacheSync).',
      on: {
        'watch.added': { actions: 'storeObject' },
        'watch.modified': { actions: 'storeObject' },
        'watch.deleted': { actions: 'storeObject' },
        'informers.synced': { target: 'running', actions: ['initializeCaches', 'scheduleResync'] },
        'host.shutdown': { target: 'stopped', actions: 'forgetTimers' },
      },
    },
    running: {
      description: 'Informers deliver claims, volumes and classes; each change is synced at once, and every 15s while a claim is unbound.',
      on: {
        'watch.added': { actions: ['handleInformerEvent', 'scheduleResync'] },
        'watch.modified': { actions: ['handleInformerEvent', 'scheduleResync'] },
        'watch.deleted': { actions: ['handleInformerEvent', 'scheduleResync'] },
        'api.result': { actions: ['handleWriteResult', 'scheduleResync'] },
        'clock.ticked': { guard: 'isResyncTick', actions: ['resync', 'scheduleResync'] },
        'host.shutdown': { target: 'stopped', actions: 'forgetTimers' },
      },
    },
  },
});
