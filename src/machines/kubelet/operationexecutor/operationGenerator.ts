/**
 * The operations the kubelet's reconciler starts, one state machine each, with their phases as
 * upstream's generated functions run them:
 * - VerifyControllerAttachedVolume: GET the Node, find the volume in status.volumesAttached, MarkVolumeAsAttached;
 * - MountVolume: WaitForAttach, MountDevice (NodeStageVolume, when the device is not globally mounted),
 *   SetUp (NodePublishVolume), MarkVolumeAsMounted;
 * - UnmountVolume: TearDown (NodeUnpublishVolume), MarkVolumeAsUnmounted;
 * - UnmountDevice: NodeUnstageVolume, MarkDeviceAsUnmounted.
 * Upstream's order is kept inside each step: the success line is printed, then the actual state of
 * world is marked (except VerifyControllerAttachedVolume, which marks first).
 * Each call into the CSI plugin first creates its client, which fails when the driver is not
 * registered; MountDevice and SetUp ask the node plugin for STAGE_UNSTAGE_VOLUME first.
 * upstream: pkg/volume/util/operationexecutor/operation_generator.go (GenerateVerifyControllerAttachedVolumeFunc,
 * GenerateMountVolumeFunc with markDeviceErrorState / markVolumeErrorState, GenerateUnmountVolumeFunc,
 * GenerateUnmountDeviceFunc) and pkg/volume/csi/csi_attacher.go, csi_mounter.go, csi_client.go (an error
 * that is not final is an uncertain-progress error).
 *
 * The machines only decide: they name the upstream step to run next as an action, and the executor
 * here performs it on the kubelet's Work. A step that answers at once (creating the CSI client,
 * WaitForAttach on the informer's VolumeAttachment) answers with an event that is fed back. Each
 * operation's snapshot ({value, context}) sits in its InflightOperation; `transition()` advances it.
 * Left out: block volumes, remount, expansion, SELinux, reconstruction from disk after a restart.
 */
import { assign, setup, type AnyMachineSnapshot, type AnyStateMachine, type StateValue } from 'xstate';
import { pureInitialTransition, pureTransition } from '../../shared/pureTransition.ts';
import type { CsiResultEvent } from '../../shared/contract.ts';
import { isFinalError, rpcErrorText, type GrpcCode } from '../../shared/csi.ts';
import type { K8sObject } from '../../shared/k8s.ts';
import { summarize, type Stage } from '../../shared/messages.ts';
import { deviceMountPath } from '../../shared/names.ts';
import { CSI_TIMEOUT } from '../../shared/timing.ts';
import { getProfile } from '../../profiles/index.ts';
import type { InflightOperation, OperationKind, PodVolume, VolumeSpec, Work } from '../kubelet.types.ts';
import { kubeletSummaries as summaries } from '../kubelet.messages.ts';
import { namedActions, noteState, stateText } from '../../shared/machineParts.ts';
import { api, csi, log, own } from '../kubelet.work.ts';
import {
  getDeviceMountState, getVolumeMountState, markDeviceAsMounted, markDeviceAsUncertain, markDeviceAsUnmounted,
  markVolumeAsAttached, markVolumeAsMounted, markVolumeAsUnmounted, markVolumeMountAsUncertain, setDevicePath,
} from '../volumemanager/cache/actualStateOfWorld.ts';
import { nodeStageVolumeRequest, nodeUnstageVolumeRequest, supportsStageUnstage, waitForAttach } from '../csi/csiAttacher.ts';
import { nodePublishVolumeRequest, nodeUnpublishVolumeRequest } from '../csi/csiMounter.ts';
import { OPERATION_NAMES, operationAbandoned, operationCompleted, operationFailed } from './operationExecutor.ts';

// ------------------------------------------------------------------ the facts the operations take

type NodeRpc = 'nodeGetCapabilities' | 'nodeStageVolume' | 'nodePublishVolume' | 'nodeUnpublishVolume' | 'nodeUnstageVolume';

/** What the operations learn: the cluster's answers as domain facts, and the answers of the steps that run at once. */
export type OperationEvent =
  | { type: 'csi.driverClient.created' }
  | { type: 'csi.driverClient.failed' }
  | { type: 'csiAttacher.waitForAttach.succeeded'; devicePath: string }
  | { type: 'csiAttacher.waitForAttach.failed'; error: string }
  | { type: `csi.${NodeRpc}.succeeded`; response?: Record<string, unknown> }
  | { type: `csi.${NodeRpc}.failed`; code: GrpcCode; message: string }
  | { type: 'api.getNode.succeeded'; node: K8sObject }
  | { type: 'api.getNode.failed'; message: string };

const rpcFact = (rpc: string): NodeRpc => (rpc[0]!.toLowerCase() + rpc.slice(1)) as NodeRpc;

/** The adapter at the edge: a csi.result becomes `csi.<rpc>.succeeded` or `csi.<rpc>.failed` with its gRPC code. */
export function csiFact(e: CsiResultEvent): OperationEvent {
  const rpc = rpcFact(e.rpc);
  return e.code === 'OK'
    ? { type: `csi.${rpc}.succeeded`, ...(e.response ? { response: e.response } : {}) }
    : { type: `csi.${rpc}.failed`, code: e.code, message: e.message ?? '' };
}

/** The adapter at the edge for the GET Node of VerifyControllerAttachedVolume. */
export const getNodeFact = (ok: boolean, node: K8sObject | undefined, message: string | undefined): OperationEvent =>
  ok && node ? { type: 'api.getNode.succeeded', node } : { type: 'api.getNode.failed', message: message ?? '' };

// ------------------------------------------------------------------ the machines

/** Every action a machine names is performed by `perform` below on the kubelet's Work. */
const named = <K extends string>(...names: K[]): Record<K, () => void> => namedActions(names);

type FailParams = { stage: 'VerifyControllerAttachedVolume' | 'WaitForAttach' | 'MountDevice' | 'SetUp' | 'TearDown' | 'UnmountDevice'; error: FailReason };
type FailReason = 'notReportedInUse' | 'getNodeFailed' | 'notAttachedAccordingToNodeStatus' | 'driverNotFound' | 'rpc' | 'notAttached';

/**
 * The state every CSI step starts in: the CSI client of a registered driver is created, or the
 * step fails at once ("driver name … not found in the list of registered CSI drivers").
 */
const newCsiDriverClientState = (description: string, next: string, failed: string, stage: FailParams['stage']) => ({
  description,
  entry: 'newCsiDriverClient' as const,
  on: {
    'csi.driverClient.created': next,
    'csi.driverClient.failed': { target: failed, actions: { type: 'operationFailed' as const, params: { stage, error: 'driverNotFound' as const } } },
  },
});

/** Every operation's failed end. */
const FAILED = { description: 'The operation returned an error: it backs off before the reconciler may retry.', type: 'final' as const };

export interface VerifyContext { volumeName: string; attachable: boolean; reportedInUse: boolean }

export const verifyControllerAttachedVolumeMachine = setup({
  types: { context: {} as VerifyContext, events: {} as OperationEvent, input: {} as VerifyContext },
  actions: {
    ...named('markVolumeAsAttached', 'logControllerAttachSucceeded', 'getNode', 'operationSucceeded'),
    operationFailed: (_, _params: FailParams) => {},
  },
  guards: {
    isNotAttachable: ({ context }) => !context.attachable,
    isNotReportedInUse: ({ context }) => !context.reportedInUse,
    /** the volume is in node.status.volumesAttached */
    isVolumeAttachedToNode: ({ context, event }) => event.type === 'api.getNode.succeeded'
      && ((event.node.status?.volumesAttached ?? []) as Array<{ name: string }>).some((x) => x.name === context.volumeName),
  },
}).createMachine({
  id: 'verifyControllerAttachedVolume',
  context: ({ input }) => input,
  initial: 'checkingPlugin',
  states: {
    checkingPlugin: {
      description: 'A volume whose plugin is not attachable (CSIDriver attachRequired: false) is attached by definition; one not yet reported in node.status.volumesInUse is not verified.',
      always: [
        { guard: 'isNotAttachable', target: 'succeeded', actions: 'markVolumeAsAttached' },
        { guard: 'isNotReportedInUse', target: 'failed', actions: { type: 'operationFailed', params: { stage: 'VerifyControllerAttachedVolume', error: 'notReportedInUse' } } },
        { target: 'fetchingNode' },
      ],
    },
    fetchingNode: {
      description: 'GET the Node from the API server, to read status.volumesAttached (the attach/detach controller writes it).',
      entry: 'getNode',
      on: {
        'api.getNode.succeeded': [
          { guard: 'isVolumeAttachedToNode', target: 'succeeded', actions: ['markVolumeAsAttached', 'logControllerAttachSucceeded'] },
          { target: 'failed', actions: { type: 'operationFailed', params: { stage: 'VerifyControllerAttachedVolume', error: 'notAttachedAccordingToNodeStatus' } } },
        ],
        'api.getNode.failed': { target: 'failed', actions: { type: 'operationFailed', params: { stage: 'VerifyControllerAttachedVolume', error: 'getNodeFailed' } } },
      },
    },
    succeeded: { description: 'MarkVolumeAsAttached: the volume is in the actual state of world.', type: 'final', entry: 'operationSucceeded' },
    failed: FAILED,
  },
});

export interface MountContext { attachable: boolean; deviceGloballyMounted: boolean; stageUnstage: boolean }

export const mountVolumeMachine = setup({
  types: { context: {} as MountContext, events: {} as OperationEvent, input: {} as Omit<MountContext, 'stageUnstage'> },
  actions: {
    ...named('waitForAttach', 'setDevicePath', 'newCsiDriverClient', 'nodeGetCapabilities', 'nodeStageVolume', 'nodePublishVolume',
      'markDeviceAsMounted', 'logMountDeviceSucceeded', 'markDeviceErrorState', 'markVolumeAsMounted', 'logSetUpSucceeded',
      'markVolumeErrorState', 'operationSucceeded'),
    operationFailed: (_, _params: FailParams) => {},
    recordStageUnstage: assign({ stageUnstage: ({ event }) => 'response' in event && supportsStageUnstage(event.response) }),
  },
  guards: {
    isDeviceGloballyMounted: ({ context }) => context.deviceGloballyMounted,
    isStageUnstageSupported: ({ event }) => 'response' in event && supportsStageUnstage(event.response),
  },
}).createMachine({
  id: 'mountVolume',
  context: ({ input }) => ({ ...input, stageUnstage: false }),
  initial: 'waitForAttach',
  states: {
    waitForAttach: {
      description: 'MountVolume.WaitForAttach: the VolumeAttachment must say attached (skipped for a volume that needs no attach).',
      entry: 'waitForAttach',
      on: {
        'csiAttacher.waitForAttach.succeeded': [
          { guard: 'isDeviceGloballyMounted', target: 'setUp', actions: 'setDevicePath' },
          { target: 'mountDevice', actions: 'setDevicePath' },
        ],
        'csiAttacher.waitForAttach.failed': { target: 'failed', actions: { type: 'operationFailed', params: { stage: 'WaitForAttach', error: 'notAttached' } } },
      },
    },
    mountDevice: {
      description: 'MountVolume.MountDevice: csi_attacher.MountDevice stages the volume at its global mount path.',
      initial: 'newCsiDriverClient',
      states: {
        newCsiDriverClient: newCsiDriverClientState('The CSI client of a registered driver.', 'nodeGetCapabilities', '#mountVolume.failed', 'MountDevice'),
        nodeGetCapabilities: {
          description: 'Does the node plugin advertise STAGE_UNSTAGE_VOLUME?',
          entry: 'nodeGetCapabilities',
          on: {
            'csi.nodeGetCapabilities.succeeded': [
              { guard: 'isStageUnstageSupported', target: 'nodeStageVolume', actions: 'recordStageUnstage' },
              // "STAGE_UNSTAGE_VOLUME capability not set. Skipping MountDevice...": MountDevice still succeeds
              { target: '#mountVolume.setUp', actions: [{ type: 'logMountDeviceSucceeded', params: { skipped: true } }, 'markDeviceAsMounted'] },
            ],
            'csi.nodeGetCapabilities.failed': { target: '#mountVolume.failed', actions: { type: 'operationFailed', params: { stage: 'MountDevice', error: 'rpc' } } },
          },
        },
        nodeStageVolume: {
          description: 'NodeStageVolume: an error that is not final leaves the device uncertain (markDeviceErrorState).',
          entry: 'nodeStageVolume',
          on: {
            'csi.nodeStageVolume.succeeded': { target: '#mountVolume.setUp', actions: ['logMountDeviceSucceeded', 'markDeviceAsMounted'] },
            'csi.nodeStageVolume.failed': { target: '#mountVolume.failed', actions: ['markDeviceErrorState', { type: 'operationFailed', params: { stage: 'MountDevice', error: 'rpc' } }] },
          },
        },
      },
    },
    setUp: {
      description: 'MountVolume.SetUp: csi_mounter.SetUpAt publishes the volume into the pod.',
      initial: 'newCsiDriverClient',
      states: {
        newCsiDriverClient: newCsiDriverClientState('The CSI client of a registered driver.', 'nodeGetCapabilities', '#mountVolume.failed', 'SetUp'),
        nodeGetCapabilities: {
          description: 'With STAGE_UNSTAGE_VOLUME the publish names the staging path.',
          entry: 'nodeGetCapabilities',
          on: {
            'csi.nodeGetCapabilities.succeeded': { target: 'nodePublishVolume', actions: 'recordStageUnstage' },
            'csi.nodeGetCapabilities.failed': { target: '#mountVolume.failed', actions: { type: 'operationFailed', params: { stage: 'SetUp', error: 'rpc' } } },
          },
        },
        nodePublishVolume: {
          description: 'NodePublishVolume: an error that is not final leaves the pod\'s mount uncertain (markVolumeErrorState).',
          entry: 'nodePublishVolume',
          on: {
            'csi.nodePublishVolume.succeeded': { target: '#mountVolume.succeeded', actions: ['logSetUpSucceeded', 'markVolumeAsMounted'] },
            'csi.nodePublishVolume.failed': { target: '#mountVolume.failed', actions: ['markVolumeErrorState', { type: 'operationFailed', params: { stage: 'SetUp', error: 'rpc' } }] },
          },
        },
      },
    },
    succeeded: { description: 'MarkVolumeAsMounted: the pod\'s volume is mounted.', type: 'final', entry: 'operationSucceeded' },
    failed: FAILED,
  },
});

export const unmountVolumeMachine = setup({
  types: { events: {} as OperationEvent },
  actions: {
    ...named('newCsiDriverClient', 'nodeUnpublishVolume', 'markVolumeAsUnmounted', 'logTearDownSucceeded', 'operationSucceeded'),
    operationFailed: (_, _params: FailParams) => {},
  },
}).createMachine({
  id: 'unmountVolume',
  initial: 'newCsiDriverClient',
  states: {
    newCsiDriverClient: newCsiDriverClientState('UnmountVolume.TearDown: the CSI client of a registered driver.', 'nodeUnpublishVolume', 'failed', 'TearDown'),
    nodeUnpublishVolume: {
      description: 'NodeUnpublishVolume: csi_mounter.TearDownAt unmounts the pod\'s volume directory.',
      entry: 'nodeUnpublishVolume',
      on: {
        'csi.nodeUnpublishVolume.succeeded': { target: 'succeeded', actions: ['logTearDownSucceeded', 'markVolumeAsUnmounted'] },
        'csi.nodeUnpublishVolume.failed': { target: 'failed', actions: { type: 'operationFailed', params: { stage: 'TearDown', error: 'rpc' } } },
      },
    },
    succeeded: { description: 'MarkVolumeAsUnmounted: the pod\'s mount is gone.', type: 'final', entry: 'operationSucceeded' },
    failed: FAILED,
  },
});

export const unmountDeviceMachine = setup({
  types: { events: {} as OperationEvent },
  actions: {
    ...named('newCsiDriverClient', 'nodeGetCapabilities', 'nodeUnstageVolume', 'markDeviceAsUnmounted', 'logUnmountDeviceSucceeded', 'operationSucceeded'),
    operationFailed: (_, _params: FailParams) => {},
  },
  guards: {
    isStageUnstageSupported: ({ event }) => 'response' in event && supportsStageUnstage(event.response),
  },
}).createMachine({
  id: 'unmountDevice',
  initial: 'newCsiDriverClient',
  states: {
    newCsiDriverClient: newCsiDriverClientState('csi_attacher.UnmountDevice: the CSI client of a registered driver.', 'nodeGetCapabilities', 'failed', 'UnmountDevice'),
    nodeGetCapabilities: {
      description: 'Without STAGE_UNSTAGE_VOLUME there is nothing to unstage.',
      entry: 'nodeGetCapabilities',
      on: {
        'csi.nodeGetCapabilities.succeeded': [
          { guard: 'isStageUnstageSupported', target: 'nodeUnstageVolume' },
          // "STAGE_UNSTAGE_VOLUME capability not set. Skipping UnmountDevice...": the global directory goes, nothing to unstage
          { target: 'succeeded', actions: [{ type: 'logUnmountDeviceSucceeded', params: { skipped: true } }, 'markDeviceAsUnmounted'] },
        ],
        'csi.nodeGetCapabilities.failed': { target: 'failed', actions: { type: 'operationFailed', params: { stage: 'UnmountDevice', error: 'rpc' } } },
      },
    },
    nodeUnstageVolume: {
      description: 'NodeUnstageVolume: the global mount goes.',
      entry: 'nodeUnstageVolume',
      on: {
        'csi.nodeUnstageVolume.succeeded': { target: 'succeeded', actions: ['logUnmountDeviceSucceeded', 'markDeviceAsUnmounted'] },
        'csi.nodeUnstageVolume.failed': { target: 'failed', actions: { type: 'operationFailed', params: { stage: 'UnmountDevice', error: 'rpc' } } },
      },
    },
    succeeded: { description: 'MarkDeviceAsUnmounted: the device is no longer globally mounted.', type: 'final', entry: 'operationSucceeded' },
    failed: FAILED,
  },
});

export const OPERATION_MACHINES: Record<OperationKind, AnyStateMachine> = {
  verify: verifyControllerAttachedVolumeMachine, mount: mountVolumeMachine, unmount: unmountVolumeMachine, unmountDevice: unmountDeviceMachine,
};

// ------------------------------------------------------------------ message arguments

/** The arguments of the kubelet's per-pod volume lines (VolumeToMount.GenerateMsgDetailed). */
export const mountArgs = (w: Work, v: VolumeSpec, uid: string, p: PodVolume) => ({
  volume: v.pvName, uniqueName: v.uniqueName, podName: p.podName, podUid: uid, kpod: `${p.namespace}/${p.podName}`, node: w.c.input.nodeName,
});
const detailMount = (v: VolumeSpec, uid: string, p: PodVolume): string =>
  `for volume "${v.pvName}" (UniqueName: "${v.uniqueName}") pod "${p.podName}" (UID: "${uid}")`;
const detailDevice = (w: Work, v: VolumeSpec): string =>
  `for volume "${v.pvName}" (UniqueName: "${v.uniqueName}") on node "${w.c.input.nodeName}"`;
const detailUnmount = (v: VolumeSpec, uid: string): string =>
  `for volume "${v.pvName}" (UniqueName: "${v.uniqueName}") pod "${uid}" (UID: "${uid}")`;

/** The volume an operation acts on: as desired, or as attached once the desired state let go of it. */
const volumeOf = (w: Work, op: InflightOperation): VolumeSpec | undefined => w.c.dsw[op.uniqueName] ?? w.c.asw[op.uniqueName];
/** The pod's use of the volume: as desired, as mounted, or as the operation started (an uncertain mount outlives the pod's DSW entry). */
const podOf = (w: Work, op: InflightOperation): PodVolume | undefined =>
  w.c.dsw[op.uniqueName]?.pods[op.podUid] ?? w.c.asw[op.uniqueName]?.pods[op.podUid] ?? op.pod;
const stagingPathOf = (w: Work, op: InflightOperation): string => w.c.asw[op.uniqueName]!.deviceMountPath;

const skipped = (params: unknown): boolean => (params as { skipped?: boolean } | undefined)?.skipped === true;

const notRegistered = (driver: string): string => `driver name ${driver} not found in the list of registered CSI drivers`;

/** The error an operation returns, as nestedpendingoperations prints it, and the pod event's message (mount errors only). */
function operationError(w: Work, op: InflightOperation, params: FailParams, event: OperationEvent | undefined): { err: string; eventMessage?: string } {
  const v = volumeOf(w, op)!;
  const p = podOf(w, op);
  const rpcErr = event && 'code' in event ? rpcErrorText(event.code, event.message) : '';
  switch (params.stage) {
    case 'VerifyControllerAttachedVolume': {
      const d = detailMount(v, op.podUid, p!);
      if (params.error === 'notReportedInUse') return { err: `Volume has not been added to the list of VolumesInUse in the node's volume status ${d} ` };
      if (params.error === 'notAttachedAccordingToNodeStatus') return { err: `Volume not attached according to node status ${d} ` };
      return { err: `VerifyControllerAttachedVolume failed fetching node from API server ${d} : ${event && 'message' in event ? event.message : ''}` };
    }
    case 'WaitForAttach':
    case 'MountDevice':
    case 'SetUp': {
      let tail = rpcErr;
      if (params.error === 'notAttached') tail = event && 'error' in event ? event.error : '';
      else if (params.error === 'driverNotFound') {
        const what = params.stage === 'SetUp' ? 'mounter.SetUpAt failed to get CSI client' : 'attacher.MountDevice failed to create newCsiDriverClient';
        tail = `kubernetes.io/csi: ${what}: ${notRegistered(v.driver)}`;
      }
      return { err: `MountVolume.${params.stage} failed ${p ? detailMount(v, op.podUid, p) : ''} : ${tail}`, eventMessage: `MountVolume.${params.stage} failed for volume "${v.pvName}" : ${tail}` };
    }
    case 'TearDown':
      return params.error === 'driverNotFound'
        ? { err: `UnmountVolume.TearDown failed ${detailUnmount(v, op.podUid)} : kubernetes.io/csi: mounter.TearDownAt failed to get CSI client: ${notRegistered(v.driver)}` }
        : { err: `UnmountVolume.TearDown failed ${detailUnmount(v, op.podUid)} : kubernetes.io/csi: mounter.TearDownAt failed: ${rpcErr}` };
    case 'UnmountDevice':
      return params.error === 'driverNotFound'
        ? { err: `UnmountDevice failed ${detailDevice(w, v)} : kubernetes.io/csi: attacher.UnmountDevice failed to create newCsiDriverClient: ${notRegistered(v.driver)}` }
        : { err: `UnmountDevice failed ${detailDevice(w, v)} : ${rpcErr}` };
  }
}

// ------------------------------------------------------------------ performing the named steps

type Perform = (w: Work, op: InflightOperation, event: OperationEvent | undefined, params: unknown) => OperationEvent | void;

/** The stage of the volume's life a failed step belongs to: verifying and waiting for the attachment is attach work. */
const STAGE_OF_STEP: Record<FailParams['stage'], Stage> = {
  VerifyControllerAttachedVolume: 'attach', WaitForAttach: 'attach', MountDevice: 'mount', SetUp: 'mount', TearDown: 'unmount', UnmountDevice: 'unmount',
};

const track = (w: Work, requestId: string, op: InflightOperation): void => { own(w, 'inflight')[requestId] = op; };
const nodeCall = (w: Work, op: InflightOperation, rpc: Parameters<typeof csi>[1], request: Record<string, unknown>, summary?: string): void =>
  track(w, csi(w, rpc, request, 'node', CSI_TIMEOUT, summary), op);

/** The attached volume the kubelet's actual state of world records, as the CSI attacher's mount path names it. */
export function deviceMountPathOf(w: Work, v: VolumeSpec): string {
  return deviceMountPath(w.c.input.kubeletRoot, getProfile(w.c.input.profile).stagingPathStyle, v.pvName, v.driver, v.handle);
}

const PERFORM: Record<string, Perform> = {
  getNode: (w, op) => track(w, api(w, { verb: 'get', kind: 'Node', name: w.c.input.nodeName }), op),
  markVolumeAsAttached: (w, op, event) => {
    const v = w.c.dsw[op.uniqueName]!;
    const entry = event?.type === 'api.getNode.succeeded'
      ? ((event.node.status?.volumesAttached ?? []) as Array<{ name: string; devicePath?: string }>).find((x) => x.name === v.uniqueName)
      : undefined;
    markVolumeAsAttached(w, v, entry?.devicePath ?? '', deviceMountPathOf(w, v));
  },
  logControllerAttachSucceeded: (w, op) => {
    const v = w.c.asw[op.uniqueName]!;
    log(w, 'kubelet.controllerAttachSucceeded', { ...mountArgs(w, v, op.podUid, podOf(w, op)!), devicePath: v.devicePath });
  },
  waitForAttach: (w, op) => {
    const v = w.c.dsw[op.uniqueName]!;
    const a = w.c.asw[op.uniqueName]!;
    if (!v.attachable) return { type: 'csiAttacher.waitForAttach.succeeded', devicePath: a.devicePath };
    const args = mountArgs(w, v, op.podUid, podOf(w, op)!);
    log(w, 'kubelet.waitForAttachEntering', { ...args, devicePath: a.devicePath });
    const r = waitForAttach(w, v);
    if ('error' in r) return { type: 'csiAttacher.waitForAttach.failed', error: r.error };
    log(w, 'kubelet.waitForAttachSucceeded', { ...args, devicePath: r.devicePath });
    return { type: 'csiAttacher.waitForAttach.succeeded', devicePath: r.devicePath };
  },
  setDevicePath: (w, op, event) => { if (event?.type === 'csiAttacher.waitForAttach.succeeded') setDevicePath(w, op.uniqueName, event.devicePath); },
  newCsiDriverClient: (w, op) => (w.c.registered[volumeOf(w, op)!.driver] ? { type: 'csi.driverClient.created' } : { type: 'csi.driverClient.failed' }),
  nodeGetCapabilities: (w, op) => nodeCall(w, op, 'NodeGetCapabilities', {}),
  nodeStageVolume: (w, op) => nodeCall(w, op, 'NodeStageVolume', nodeStageVolumeRequest(w, volumeOf(w, op)!, stagingPathOf(w, op))),
  nodePublishVolume: (w, op) => {
    const stage = (op.machine.context as unknown as MountContext).stageUnstage;
    nodeCall(w, op, 'NodePublishVolume', nodePublishVolumeRequest(w, volumeOf(w, op)!, op.podUid, stage ? stagingPathOf(w, op) : undefined));
  },
  nodeUnpublishVolume: (w, op) => {
    const v = volumeOf(w, op)!;
    nodeCall(w, op, 'NodeUnpublishVolume', nodeUnpublishVolumeRequest(w, v, op.podUid),
      summarize(summaries, 'kubelet.nodeUnpublishVolume', { pvName: v.pvName, pod: podOf(w, op)?.podName ?? op.podUid }));
  },
  nodeUnstageVolume: (w, op) => nodeCall(w, op, 'NodeUnstageVolume', nodeUnstageVolumeRequest(volumeOf(w, op)!, stagingPathOf(w, op))),
  markDeviceAsMounted: (w, op) => { markDeviceAsMounted(w, op.uniqueName); },
  /** params.skipped: the driver has no STAGE_UNSTAGE_VOLUME, MountDevice had nothing to stage (the same line, another summary) */
  logMountDeviceSucceeded: (w, op, _event, params) => {
    const p = podOf(w, op);
    if (p) log(w, 'kubelet.mountDeviceSucceeded', { ...mountArgs(w, volumeOf(w, op)!, op.podUid, p), deviceMountPath: stagingPathOf(w, op) }, undefined, skipped(params) ? 'notStaged' : 'staged');
  },
  /** markDeviceErrorState: only a device not mounted turns uncertain; an uncertain one whose MountDevice failed for good is unmounted. */
  markDeviceErrorState: (w, op, event) => {
    if (!event || !('code' in event)) return;
    const state = getDeviceMountState(w, op.uniqueName);
    if (isFinalError(event.code)) { if (state === 'DeviceMountUncertain') markDeviceAsUnmounted(w, op.uniqueName); }
    else if (state === 'DeviceNotMounted') markDeviceAsUncertain(w, op.uniqueName);
  },
  markVolumeAsMounted: (w, op) => { const p = podOf(w, op); if (p) markVolumeAsMounted(w, op.uniqueName, op.podUid, p); },
  logSetUpSucceeded: (w, op) => { const p = podOf(w, op); if (p) log(w, 'kubelet.setUpSucceeded', mountArgs(w, volumeOf(w, op)!, op.podUid, p)); },
  /** markVolumeErrorState: only a pod mount not made turns uncertain; an uncertain one whose SetUp failed for good is unmounted. */
  markVolumeErrorState: (w, op, event) => {
    if (!event || !('code' in event)) return;
    const p = podOf(w, op);
    const state = getVolumeMountState(w, op.uniqueName, op.podUid);
    if (isFinalError(event.code)) { if (state === 'VolumeMountUncertain') markVolumeAsUnmounted(w, op.uniqueName, op.podUid); }
    else if (state === 'VolumeNotMounted' && p) markVolumeMountAsUncertain(w, op.uniqueName, op.podUid, p);
  },
  logTearDownSucceeded: (w, op) => {
    const v = volumeOf(w, op)!;
    const outerName = w.c.asw[op.uniqueName]?.pods[op.podUid]?.outerName ?? '';
    log(w, 'kubelet.tearDownSucceeded', { volume: v.pvName, uniqueName: v.uniqueName, podUid: op.podUid, outerName });
  },
  markVolumeAsUnmounted: (w, op) => { markVolumeAsUnmounted(w, op.uniqueName, op.podUid); },
  markDeviceAsUnmounted: (w, op) => { markDeviceAsUnmounted(w, op.uniqueName); },
  logUnmountDeviceSucceeded: (w, op, _event, params) => {
    const a = w.c.asw[op.uniqueName]!;
    log(w, 'kubelet.unmountDeviceSucceeded', { volume: a.pvName, uniqueName: a.uniqueName, node: w.c.input.nodeName }, undefined, skipped(params) ? 'notStaged' : 'staged');
  },
  operationSucceeded: (w, op) => operationCompleted(w, op.key),
  operationFailed: (w, op, event, params) => {
    const p = params as FailParams;
    const { err, eventMessage } = operationError(w, op, p, event);
    operationFailed(w, op, err, STAGE_OF_STEP[p.stage], eventMessage);
  },
};

// ------------------------------------------------------------------ running the machines

/** Perform the actions of one transition in order; the answers of steps that run at once are fed back afterwards. */
function perform(w: Work, op: InflightOperation, actions: Array<{ type: string; params?: unknown }>, event: OperationEvent | undefined): void {
  const answers: OperationEvent[] = [];
  for (const a of actions) {
    const answer = PERFORM[a.type]?.(w, op, event, a.params);
    if (answer) answers.push(answer);
  }
  for (const answer of answers) advance(w, op, answer);
}

/** "volume_mount kubernetes.io/csi/…^vol-1 pod default/web-0": the operation, for the step's states. */
function noteOperation(w: Work, op: InflightOperation): void {
  const p = op.podUid ? podOf(w, op) : undefined;
  noteState(w, `${OPERATION_NAMES[op.kind]} ${op.uniqueName}${p ? ` pod ${p.namespace}/${p.podName}` : ''}`, stateText(op.machine.value));
}

function advance(w: Work, op: InflightOperation, event: OperationEvent): void {
  const machine = OPERATION_MACHINES[op.kind];
  const [next, actions] = pureTransition(machine, resolved(machine, op.machine), event);
  op.machine = held(next);
  noteOperation(w, op);
  perform(w, op, actions, event);
}

/**
 * The context holds an operation's state as plain data (value and context, what a world view or a
 * test reads); the snapshot it came from is kept beside it, so that the next step need not resolve
 * the state again (resolveState walks the machine's state nodes: a few % of a large rollout).
 */
const SNAPSHOTS = new WeakMap<InflightOperation['machine'], AnyMachineSnapshot>();
function held(snap: AnyMachineSnapshot): InflightOperation['machine'] {
  const m = { value: snap.value as StateValue, context: snap.context as Record<string, unknown> };
  SNAPSHOTS.set(m, snap);
  return m;
}
const resolved = (machine: AnyStateMachine, m: InflightOperation['machine']): AnyMachineSnapshot =>
  SNAPSHOTS.get(m) ?? machine.resolveState(m);

/** Start a generated operation: its machine's initial transition, performed. */
export function startGeneratedOperation(w: Work, op: Omit<InflightOperation, 'machine'>, input: object): void {
  const machine = OPERATION_MACHINES[op.kind];
  const [snap, actions] = pureInitialTransition(machine, input);
  const running: InflightOperation = { ...op, machine: held(snap) };
  noteOperation(w, running);
  perform(w, running, actions, undefined);
}

/** An answer for a running operation arrived: the operation, a fresh copy for this context, takes it as a fact. */
export function deliver(w: Work, requestId: string, fact: OperationEvent): boolean {
  const op = w.c.inflight[requestId];
  if (!op) return false;
  delete own(w, 'inflight')[requestId];
  const gone = op.kind === 'verify' ? !w.c.dsw[op.uniqueName]?.pods[op.podUid] : !w.c.asw[op.uniqueName] || !volumeOf(w, op);
  if (gone) { operationAbandoned(w, op.key); return true; }
  advance(w, { ...op }, fact); // advance replaces op.machine, never changes it
  return true;
}
