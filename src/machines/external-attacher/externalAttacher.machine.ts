/**
 * external-attacher (the csi-attacher sidecar next to a CSI controller plugin).
 *
 * What it does: watches VolumeAttachments (created by the attach/detach controller), PersistentVolumes
 * and CSINodes. For a VA of its driver it adds the PV finalizer, the VA finalizer and the node-id
 * annotation, calls ControllerPublishVolume and sets status.attached; for a deleted VA it calls
 * ControllerUnpublishVolume, clears the status and removes the finalizer. Errors go to
 * status.attachError/detachError and the VA is retried with per-item exponential backoff (1s → 5m).
 *
 * Models: kubernetes-csi/external-attacher v3.1.0 (profile '1.20', the seeds' sidecar) and v4.6.1
 * (profile '1.30'): cmd/csi-attacher/main.go, pkg/controller/{controller,csi_handler,util,
 * trivial_handler}.go, with csi-lib-utils v0.9.0 / v0.18.1 (LogGRPC, ProbeForever).
 *
 * Leaves out: leader election, the 10-minute informer resync, the ListVolumes reconciler
 * (--reconcile-sync), CSI migration (in-tree PVs), inline volumes, ControllerPublish secrets,
 * metrics/http endpoint, and the exit-and-restart of the container after a failed start-up.
 */
import { enqueueActions, setup } from 'xstate';
import type { ClusterEmitted, ClusterEvent } from '../shared/contract.ts';
import { emptyQueue } from './helpers.ts';
import type { ExternalAttacherContext, ExternalAttacherInput } from './externalAttacher.types.ts';
import { onStarted, onStartupResult, probe } from './startup.ts';
import { beginStep, type Step } from './step.ts';
import { onApiResult, onCsiResult, onTick, onWatch, runWorkers } from './sync.ts';

const initialContext = (input: ExternalAttacherInput, seq = 0): ExternalAttacherContext => ({
  input, phase: 'Stopped', driverName: input.driver.name, handler: null, supportsReadOnly: false, seq,
  vas: {}, pvs: {}, csiNodes: {}, vaQueue: emptyQueue(), pvQueue: emptyQueue(), pending: {}, ops: {}, lifecycles: {},
});

interface Enqueue { assign: (c: ExternalAttacherContext) => void; emit: (e: ClusterEmitted) => void }
/** Run one handler on a draft of the context, then let free workers pick up queued keys. */
function react(context: ExternalAttacherContext, event: ClusterEvent, enqueue: Enqueue, fn: (s: Step, e: ClusterEvent) => void): void {
  const s = beginStep(context, event.now);
  fn(s, event);
  runWorkers(s);
  enqueue.assign(s.ctx);
  if (s.states) enqueue.emit({ type: 'states.changed', states: s.states });
  for (const e of s.out) enqueue.emit(e);
}

const phaseIs = (phase: ExternalAttacherContext['phase']) => ({ context }: { context: ExternalAttacherContext }) => context.phase === phase;

export const externalAttacherMachine = setup({
  types: {
    context: {} as ExternalAttacherContext,
    events: {} as ClusterEvent,
    emitted: {} as ClusterEmitted,
    input: {} as ExternalAttacherInput,
  },
  actions: {
    /** main.go: Version, Connecting, ProbeForever */
    startCsiAttacher: enqueueActions(({ context, event, enqueue }) => react(context, event, enqueue, (s) => onStarted(s))),
    /** ProbeForever's next round */
    probeAgain: enqueueActions(({ context, event, enqueue }) => react(context, event, enqueue, (s) => probe(s))),
    /** start-up RPC results (main.go) */
    handleStartupResult: enqueueActions(({ context, event, enqueue }) => react(context, event, enqueue, (s, e) => {
      if (e.type !== 'csi.result') return;
      const p = s.ctx.pending[e.requestId];
      if (!p || p.queue !== 'startup') return;
      delete s.ctx.pending[e.requestId];
      onStartupResult(s, e, p.round ?? 0);
    })),
    /** informer event handlers (vaAdded/vaUpdated/vaDeleted, pvAdded/pvUpdated) */
    updateInformerCache: enqueueActions(({ context, event, enqueue }) => react(context, event, enqueue, (s, e) => { if (e.type.startsWith('watch.')) onWatch(s, e as Parameters<typeof onWatch>[1]); })),
    /** workqueue AddAfter fired */
    addRateLimitedKey: enqueueActions(({ context, event, enqueue }) => react(context, event, enqueue, (s, e) => { if (e.type === 'clock.ticked') onTick(s, e.key); })),
    handleApiResult: enqueueActions(({ context, event, enqueue }) => react(context, event, enqueue, (s, e) => { if (e.type === 'api.result') onApiResult(s, e); })),
    handleCsiResult: enqueueActions(({ context, event, enqueue }) => react(context, event, enqueue, (s, e) => { if (e.type === 'csi.result') onCsiResult(s, e); })),
    /** the container stops: caches, queues and calls in flight are gone */
    resetProcess: enqueueActions(({ context, enqueue }) => { enqueue.assign(initialContext(context.input, context.seq)); }),
  },
  guards: {
    isStarting: phaseIs('Starting'),
    isRunning: phaseIs('Running'),
    isFailed: phaseIs('Failed'),
    isProbeTimer: ({ event }) => event.type === 'clock.ticked' && event.key === 'probe',
  },
}).createMachine({
  id: 'externalAttacher',
  initial: 'Stopped',
  context: ({ input }) => initialContext(input),
  on: {
    'host.shutdown': { target: '.Stopped', actions: 'resetProcess' },
    'watch.added': { actions: 'updateInformerCache' },
    'watch.modified': { actions: 'updateInformerCache' },
    'watch.deleted': { actions: 'updateInformerCache' },
  },
  states: {
    Stopped: {
      description: 'The csi-attacher container is not running.',
      on: { 'component.started': { target: 'Probing', actions: 'startCsiAttacher' } },
    },
    Probing: {
      description: 'rpc.ProbeForever: Probe every second until the driver is ready (csi-lib-utils rpc/common.go).',
      always: [{ guard: 'isStarting', target: 'Starting' }, { guard: 'isFailed', target: 'Failed' }],
      on: {
        'csi.result': { actions: 'handleStartupResult' },
        'clock.ticked': { guard: 'isProbeTimer', actions: 'probeAgain' },
      },
    },
    Starting: {
      description: 'GetPluginInfo, GetPluginCapabilities, ControllerGetCapabilities: choosing the real or trivial handler (main.go).',
      always: [{ guard: 'isRunning', target: 'Running' }, { guard: 'isFailed', target: 'Failed' }],
      on: { 'csi.result': { actions: 'handleStartupResult' } },
    },
    Running: {
      description: 'CSIAttachController.Run: VA and PV workers process their queues (controller.go).',
      on: {
        'api.result': { actions: 'handleApiResult' },
        'csi.result': { actions: 'handleCsiResult' },
        'clock.ticked': { actions: 'addRateLimitedKey' },
      },
    },
    Failed: {
      description: 'Start-up failed: the real process exits (os.Exit(1)) and waits for its container to restart.',
    },
  },
});
