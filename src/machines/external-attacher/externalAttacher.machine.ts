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
 * metrics/http endpoint. After a failed start-up the process exits and the kubelet restarts it (the
 * cluster's process.exited handling).
 */
import { emit, enqueueActions, setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import { emittedWithStates } from '../shared/machineParts.ts';
import type { ClusterEmitted, ClusterEvent } from '../shared/contract.ts';
import { emptyQueue } from './helpers.ts';
import type { ExternalAttacherContext, ExternalAttacherInput } from './externalAttacher.types.ts';
import { onStarted, onStartupResult, probe, startupOutcome, type StartupOutcome } from './startup.ts';
import { beginStep, type Step } from './step.ts';
import { onApiResult, onCsiResult, onTick, onWatch, runWorkers } from './sync.ts';

const initialContext = (input: ExternalAttacherInput, seq = 0): ExternalAttacherContext => ({
  input, driverName: input.driver.name, handler: null, supportsReadOnly: false, seq,
  vas: {}, pvs: {}, csiNodes: {}, vaQueue: emptyQueue(), pvQueue: emptyQueue(), pending: {}, ops: {}, lifecycles: {},
});

/**
 * The reaction that runs one handler on a draft of the context. `running`: the controller runs
 * (CSIAttachController.Run), so free workers then pick up queued keys, and the draft is updated in place (beginStep).
 */
const react = (fn: (s: Step, e: ClusterEvent) => void, running = false) => reaction<ExternalAttacherContext, ClusterEvent, ClusterEmitted>((context, event) => {
  const s = beginStep(context, event.now, running);
  fn(s, event);
  if (running) runWorkers(s);
  return { ctx: s.ctx, out: emittedWithStates(s) };
});

/** The start-up answer's outcome (startup.ts), for the guards. */
const outcomeIs = (outcome: StartupOutcome) => ({ context, event }: { context: ExternalAttacherContext; event: ClusterEvent }) =>
  event.type === 'csi.result' && startupOutcome(context, event) === outcome;

/** A start-up answer (main.go): the pending call it answers is taken out, then handled. */
const startupResult = (s: Step, e: ClusterEvent): void => {
  if (e.type !== 'csi.result') return;
  const p = s.ctx.pending[e.requestId];
  if (!p || p.queue !== 'startup') return;
  delete s.ctx.pending[e.requestId];
  onStartupResult(s, e, p.round ?? 0);
};

export const externalAttacherMachine = setup({
  types: {
    context: {} as ExternalAttacherContext,
    events: {} as ClusterEvent,
    emitted: {} as ClusterEmitted,
    input: {} as ExternalAttacherInput,
  },
  actions: {
    /** main.go: Version, Connecting, ProbeForever */
    startCsiAttacher: react((s) => onStarted(s)),
    /** ProbeForever's next round */
    probeAgain: react((s) => probe(s)),
    /** start-up RPC results (main.go) */
    handleStartupResult: react(startupResult),
    /** the last start-up answer: "Starting" and CSIAttachController.Run; the workers take what the informers queued meanwhile */
    runController: react(startupResult, true),
    /** informer event handlers (vaAdded/vaUpdated/vaDeleted, pvAdded/pvUpdated); before Run they only fill caches and queues */
    updateInformerCache: react((s, e) => { if (e.type.startsWith('watch.')) onWatch(s, e as Parameters<typeof onWatch>[1]); }),
    syncInformerEvent: react((s, e) => { if (e.type.startsWith('watch.')) onWatch(s, e as Parameters<typeof onWatch>[1]); }, true),
    /** workqueue AddAfter fired */
    addRateLimitedKey: react((s, e) => { if (e.type === 'clock.ticked') onTick(s, e.key); }, true),
    handleApiResult: react((s, e) => { if (e.type === 'api.result') onApiResult(s, e); }, true),
    handleCsiResult: react((s, e) => { if (e.type === 'csi.result') onCsiResult(s, e); }, true),
    /** main.go's exit after a failed start-up: the kubelet starts the container again (CrashLoopBackOff) */
    exitProcess: emit(() => ({ type: 'process.exited', code: 1 }) as ClusterEmitted),
    /** the container stops: caches, queues and calls in flight are gone */
    resetProcess: enqueueActions(({ context, enqueue }) => { enqueue.assign(initialContext(context.input, context.seq)); }),
  },
  guards: {
    /** Probe said ready: on to GetPluginInfo */
    isDriverReady: outcomeIs('next'),
    /** a start-up call failed for good: main.go exits */
    isStartupFailed: outcomeIs('failed'),
    /** the handler is chosen: the controller starts */
    isStartupComplete: outcomeIs('running'),
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
      on: {
        'csi.result': [
          { guard: 'isDriverReady', target: 'Starting', actions: 'handleStartupResult' },
          { guard: 'isStartupFailed', target: 'Failed', actions: 'handleStartupResult' },
          { actions: 'handleStartupResult' },
        ],
        'clock.ticked': { guard: 'isProbeTimer', actions: 'probeAgain' },
      },
    },
    Starting: {
      description: 'GetPluginInfo, GetPluginCapabilities, ControllerGetCapabilities: choosing the real or trivial handler (main.go).',
      on: {
        'csi.result': [
          { guard: 'isStartupFailed', target: 'Failed', actions: 'handleStartupResult' },
          { guard: 'isStartupComplete', target: 'Running', actions: 'runController' },
          { actions: 'handleStartupResult' },
        ],
      },
    },
    Running: {
      description: 'CSIAttachController.Run: VA and PV workers process their queues (controller.go).',
      on: {
        'watch.added': { actions: 'syncInformerEvent' },
        'watch.modified': { actions: 'syncInformerEvent' },
        'watch.deleted': { actions: 'syncInformerEvent' },
        'api.result': { actions: 'handleApiResult' },
        'csi.result': { actions: 'handleCsiResult' },
        'clock.ticked': { actions: 'addRateLimitedKey' },
      },
    },
    Failed: {
      description: 'Start-up failed: the process exits (os.Exit(1), klog.FlushAndExit) and the kubelet restarts its container, which starts over.',
      entry: 'exitProcess',
    },
  },
});
