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
import { and, assign, setup, type AnyMachineSnapshot, type AnyStateMachine, type StateValue } from 'xstate';
import { pureInitialTransition, pureTransition } from '../../shared/pureTransition.ts';
import type { CsiResultEvent, HostResultEvent } from '../../shared/contract.ts';
import { isFinalError, rpcErrorText, type GrpcCode } from '../../shared/csi.ts';
import { secretCredentials, type K8sObject } from '../../shared/k8s.ts';
import { summarize, type Stage } from '../../shared/messages.ts';
import { blockGlobalMapPath, blockPublishPath, deviceMountPath, podVolumeDeviceDir, podVolumePath, volumeAttachmentName } from '../../shared/names.ts';
import { CSI_TIMEOUT, SET_VOLUME_OWNERSHIP_WARNING } from '../../shared/timing.ts';
import { getProfile } from '../../profiles/index.ts';
import type { InflightOperation, OperationKind, PodVolume, VolumeSpec, Work } from '../kubelet.types.ts';
import { kubeletSummaries as summaries } from '../kubelet.messages.ts';
import { namedActions, noteState, stateText } from '../../shared/machineParts.ts';
import { api, csi, log, nextId, own, recordPodEvent, timer } from '../kubelet.work.ts';
import {
  getDeviceMountState, getVolumeMountState, markDeviceAsMounted, markDeviceAsUncertain, markDeviceAsUnmounted,
  initializeClaimSize, markVolumeAsAttached, markVolumeAsMounted, markVolumeAsResized, markVolumeAsUnmounted, markVolumeMountAsUncertain, setDevicePath, isVolumeDeviceReconstructed, isVolumeReconstructed,
} from '../volumemanager/cache/actualStateOfWorld.ts';
import { mapAccessMode, nodeStageVolumeRequest, nodeUnstageVolumeRequest, supportsSingleNodeMultiWriter, supportsStageUnstage, waitForAttach } from '../csi/csiAttacher.ts';
import { nodePublishVolumeRequest, nodeUnpublishVolumeRequest } from '../csi/csiMounter.ts';
import {
  nodePublishVolumeForBlockRequest, nodeStageVolumeForBlockRequest, nodeUnpublishVolumeForBlockRequest, nodeUnstageVolumeForBlockRequest,
} from '../csi/csiBlock.ts';
import { nodeExpandVolumeRequest, supportsNodeExpand } from '../csi/expander.ts';
import { formatBinary, parseQuantity } from '../../shared/quantity.ts';
import { OPERATION_NAMES, operationAbandoned, operationCompleted, operationFailed } from './operationExecutor.ts';

// ------------------------------------------------------------------ the facts the operations take

type NodeRpc = 'nodeGetCapabilities' | 'nodeStageVolume' | 'nodePublishVolume' | 'nodeUnpublishVolume' | 'nodeUnstageVolume' | 'nodeExpandVolume';

/** What the operations learn: the cluster's answers as domain facts, and the answers of the steps that run at once. */
export type OperationEvent =
  | { type: 'csi.driverClient.created' }
  | { type: 'csi.driverClient.failed' }
  /** (the device path it returned is the operation's record: operation.devicePath) */
  | { type: 'csiAttacher.waitForAttach.succeeded' }
  | { type: 'csiAttacher.waitForAttach.failed'; error: string }
  /** the node plugin's capabilities that the operations ask about: STAGE_UNSTAGE_VOLUME, EXPAND_VOLUME, SINGLE_NODE_MULTI_WRITER */
  | { type: 'csi.nodeGetCapabilities.succeeded'; stageUnstage: boolean; nodeExpand: boolean; singleNodeMultiWriter: boolean }
  | { type: `csi.${Exclude<NodeRpc, 'nodeGetCapabilities'>}.succeeded` }
  | { type: `csi.${NodeRpc}.failed`; code: GrpcCode; message: string }
  /** whether the Node's status.volumesAttached lists the volume, and the device path it gives it */
  | { type: 'api.getNode.succeeded'; attached: boolean; devicePath: string }
  | { type: 'api.getNode.failed'; message: string }
  /** the claim's status.capacity, in bytes */
  | { type: 'api.getPVC.succeeded'; capacityBytes: number }
  | { type: 'api.getPVC.failed'; message: string }
  | { type: 'api.patchPVC.succeeded' }
  | { type: 'api.patchPVC.failed'; message: string }
  | { type: 'api.getVolumeAttachment.succeeded' }
  | { type: 'api.getVolumeAttachment.failed'; message: string }
  | { type: 'api.getNodeStageSecret.succeeded' }
  | { type: 'api.getNodeStageSecret.failed'; message: string }
  | { type: 'api.getNodePublishSecret.succeeded' }
  | { type: 'api.getNodePublishSecret.failed'; message: string }
  | { type: 'api.getNodeExpandSecret.succeeded' }
  | { type: 'api.getNodeExpandSecret.failed'; message: string }
  /** SetVolumeOwnership's walk over the volume's files ended (a host.result), with the error Go's os package gave */
  | { type: 'host.setVolumeOwnership.succeeded' }
  | { type: 'host.setVolumeOwnership.failed'; error: string }
  /** requiresPermissionChange's stat of the volume's top directory: its group, and whether its mode has rwx for owner and group and setgid */
  | { type: 'host.statVolumeRoot.succeeded'; rootGid: number; rootModeOk: boolean }
  | { type: 'host.statVolumeRoot.failed'; error: string };

const rpcFact = (rpc: string): NodeRpc => (rpc[0]!.toLowerCase() + rpc.slice(1)) as NodeRpc;

/**
 * The adapter at the edge: a csi.result becomes `csi.<rpc>.succeeded` or `csi.<rpc>.failed` with its gRPC code; a
 * NodeGetCapabilities answer says which of the capabilities the operations ask about the plugin has.
 * (Facts carry strings, numbers and booleans only: the operations' transitions are then looked up, not
 * computed again, for a fact seen before in the same state; shared/pureTransition.ts.)
 */
export function csiFact(e: CsiResultEvent): OperationEvent {
  const rpc = rpcFact(e.rpc);
  if (e.code !== 'OK') return { type: `csi.${rpc}.failed`, code: e.code, message: e.message ?? '' };
  return rpc === 'nodeGetCapabilities'
    ? {
      type: 'csi.nodeGetCapabilities.succeeded', stageUnstage: supportsStageUnstage(e.response), nodeExpand: supportsNodeExpand(e.response),
      singleNodeMultiWriter: supportsSingleNodeMultiWriter(e.response),
    }
    : { type: `csi.${rpc}.succeeded` };
}

/** The key of SetVolumeOwnership's 30-s warning timer, followed by the walk's request id. */
export const OWNERSHIP_TIMER = 'ownership:';

/** The adapter at the edge for the kubelet's own work on the node: SetVolumeOwnership's walk ended, or failed with its error. */
export const hostFact = (e: HostResultEvent): OperationEvent =>
  e.op === 'StatVolumeRoot' ? (e.ok ? { type: 'host.statVolumeRoot.succeeded', rootGid: e.rootGid ?? 0, rootModeOk: e.rootModeOk === true } : { type: 'host.statVolumeRoot.failed', error: e.error ?? '' })
    : e.ok ? { type: 'host.setVolumeOwnership.succeeded' } : { type: 'host.setVolumeOwnership.failed', error: e.error ?? '' };

/** SetVolumeOwnership's timer fired: the walk `requestId` still runs, so it prints its warning (a timer.Stop'ped one does not fire). */
export function ownershipWalkSlow(w: Work, requestId: string): void {
  const op = w.c.inflight[requestId];
  if (op?.awaiting !== 'setVolumeOwnership') return;
  if (!volumeOf(w, op)) return;
  // (the step shows the operation it belongs to, still in its SetVolumeOwnership state)
  noteOperation(w, op);
  log(w, 'kubelet.setVolumeOwnershipSlow', { dir: podVolumeDir(w, op) });
}

/**
 * The adapter at the edge for an operation's API request: the GET Node of VerifyControllerAttachedVolume (is the
 * volume `uniqueName` in its status.volumesAttached?), the claim a NodeExpandVolume reads and marks resized, the
 * VolumeAttachment and Secrets a mount reads (what they hold goes to the operation's record, not into the fact).
 */
export function apiFact(awaiting: InflightOperation['awaiting'], ok: boolean, object: K8sObject | undefined, message: string | undefined, uniqueName: string): OperationEvent {
  if (awaiting === 'getPVC') return ok && object ? { type: 'api.getPVC.succeeded', capacityBytes: parseQuantity(object.status?.capacity?.storage) } : { type: 'api.getPVC.failed', message: message ?? '' };
  if (awaiting === 'patchPVC') return ok ? { type: 'api.patchPVC.succeeded' } : { type: 'api.patchPVC.failed', message: message ?? '' };
  if (awaiting === 'getVolumeAttachment') return ok ? { type: 'api.getVolumeAttachment.succeeded' } : { type: 'api.getVolumeAttachment.failed', message: message ?? '' };
  if (awaiting === 'getNodeStageSecret') return ok && object ? { type: 'api.getNodeStageSecret.succeeded' } : { type: 'api.getNodeStageSecret.failed', message: message ?? '' };
  if (awaiting === 'getNodePublishSecret') return ok && object ? { type: 'api.getNodePublishSecret.succeeded' } : { type: 'api.getNodePublishSecret.failed', message: message ?? '' };
  if (awaiting === 'getNodeExpandSecret') return ok && object ? { type: 'api.getNodeExpandSecret.succeeded' } : { type: 'api.getNodeExpandSecret.failed', message: message ?? '' };
  if (!ok || !object) return { type: 'api.getNode.failed', message: message ?? '' };
  const entry = ((object.status?.volumesAttached ?? []) as Array<{ name: string; devicePath?: string }>).find((x) => x.name === uniqueName);
  return { type: 'api.getNode.succeeded', attached: !!entry, devicePath: entry?.devicePath ?? '' };
}

// ------------------------------------------------------------------ the machines

/** Every action a machine names is performed by `perform` below on the kubelet's Work. */
const named = <K extends string>(...names: K[]): Record<K, () => void> => namedActions(names);

type FailParams = { stage: 'VerifyControllerAttachedVolume' | 'WaitForAttach' | 'MountDevice' | 'SetUp' | 'TearDown' | 'UnmountDevice' | 'NodeExpandVolume'
  | BlockStep; error: FailReason };
/** The steps of the block operations, named as their error prefixes name them ("MapVolume.SetUpDevice failed …"). */
type BlockStep = 'MapVolume.WaitForAttach' | 'MapVolume.SetUpDevice' | 'MapVolume.MapPodDevice' | 'MapVolume.ExpandVolume' | 'UnmapVolume.UnmapPodDevice' | 'UnmapDevice.TearDownDevice';
/** `stageUnstageCheck`, `volumeMountGroupCheck`: the NodeGetCapabilities call of NodeSupportsStageUnstage / NodeSupportsVolumeMountGroup failed (each caller words it its own way). */
type FailReason = 'notReportedInUse' | 'getNodeFailed' | 'notAttachedAccordingToNodeStatus' | 'driverNotFound' | 'rpc' | 'notAttached'
  | 'stageUnstageCheck' | 'volumeMountGroupCheck'
  | 'getPVCFailed' | 'expandNotSupported' | 'expandRpc' | 'patchPVCFailed' | 'getVolumeAttachmentFailed' | 'getNodeStageSecretFailed' | 'getNodePublishSecretFailed'
  | 'getNodeExpandSecretFailed' | 'applyFSGroup';

/**
 * The state every CSI step starts in: the CSI client of a registered driver is created, or the
 * step fails at once ("driver name … not found in the list of registered CSI drivers").
 */
/**
 * newCsiDriverClient of a step: on to `next`, or failed with driverNotFound. With `errorState`, for a step whose missing
 * client the profile makes a finished error (Profile.kubeletDriverClientErrorFinished: 1.20's MountDevice and block
 * steps), the failure goes through that error state first; otherwise the error is transient.
 */
function newCsiDriverClientState<N, E extends ErrorState | undefined = undefined>(description: string, next: N, failed: string, stage: FailParams['stage'], errorState?: E) {
  const transient = { target: failed, actions: failWith(stage, 'driverNotFound') };
  const onFailed = (errorState
    ? [{ guard: 'driverClientErrorFinished' as const, target: failed, actions: failWith(stage, 'driverNotFound', errorState) }, transient]
    : transient) as DriverClientFailed<E>;
  return { description, entry: 'newCsiDriverClient' as const, on: { 'csi.driverClient.created': next, 'csi.driverClient.failed': onFailed } };
}
type DriverClientFailed<E> = [E] extends [ErrorState]
  ? [{ guard: 'driverClientErrorFinished'; target: string; actions: FailActions<E> }, { target: string; actions: OperationFailedAction }]
  : { target: string; actions: OperationFailedAction };

/**
 * Which of markDeviceErrorState / markVolumeErrorState a step's failure goes through, and with what kind of error.
 * upstream's errors are of three kinds (pkg/volume/util/types/types.go IsOperationFinishedError): an uncertain-progress
 * error (csi_client's NodeStageVolume / NodePublishVolume after an error that is not final) may leave the mount
 * uncertain; a transient one (no CSI client, most failed reads in csi_attacher / csi_mounter) changes nothing; any other
 * error, such as a failed capability call, which pkg/volume/csi returns as a plain error, is finished: an uncertain mount
 * becomes not mounted (v1.30.1 operation_generator.go:780-834, v1.20.5 :723-770).
 */
type ErrorState = 'markDeviceErrorState' | 'markVolumeErrorState';
type OperationFailedAction = { type: 'operationFailed'; params: FailParams };
type FailActions<E> = [E] extends [ErrorState] ? [{ type: E; params: { finished: true } }, OperationFailedAction] : OperationFailedAction;
/**
 * The kind of a failed step's error, as the error states read it: `finished` for a plain error (the action's
 * `params.finished`) or an RPC's final code, `uncertain` for an RPC's code that is not final
 * (IsOperationFinishedError, IsUncertainProgressError), undefined for anything else (transient: nothing changes).
 */
function errorKind(event: OperationEvent | undefined, params: unknown): 'finished' | 'uncertain' | undefined {
  if ((params as { finished?: boolean } | undefined)?.finished === true) return 'finished';
  // an error the step returns as uncertain progress whatever it says (applyFSGroup: NewUncertainProgressError)
  if ((params as { uncertain?: boolean } | undefined)?.uncertain === true) return 'uncertain';
  if (!event || !('code' in event)) return undefined;
  return isFinalError(event.code) ? 'finished' : 'uncertain';
}
/** The actions of a step's failure: the error state for a plain (finished) error when `errorState` is given, then operationFailed. */
function failWith<E extends ErrorState | undefined = undefined>(stage: FailParams['stage'], error: FailReason, errorState?: E): FailActions<E> {
  const failed: OperationFailedAction = { type: 'operationFailed', params: { stage, error } };
  return (errorState ? [{ type: errorState, params: { finished: true } }, failed] : failed) as FailActions<E>;
}

/**
 * A NodeGetCapabilities call of a step: `succeeded`, the transition(s) its answer takes; its failure (the RPC's error)
 * fails the step. `errorState`: the step's error state (the capability calls' errors are plain, so finished).
 */
const nodeGetCapabilitiesState = <N, E extends ErrorState | undefined = undefined>(description: string, succeeded: N, failed: string, stage: FailParams['stage'], error: FailReason = 'rpc', errorState?: E) => ({
  description,
  entry: 'nodeGetCapabilities' as const,
  on: {
    'csi.nodeGetCapabilities.succeeded': succeeded,
    'csi.nodeGetCapabilities.failed': { target: failed, actions: failWith(stage, error, errorState) },
  },
});

/**
 * 1.30's second capability call before NodeStageVolume and NodePublishVolume (NodeSupportsVolumeMountGroup):
 * its answer only moves the operation on, its failure fails the step.
 */
const nodeSupportsVolumeMountGroupState = (description: string, next: string, stage: FailParams['stage']) =>
  nodeGetCapabilitiesState(description, toNodeCall(next), '#mountVolume.failed', stage, 'volumeMountGroupCheck');

/**
 * 1.30: csi_client's NodeStageVolume and NodePublishVolume ask NodeGetCapabilities once more before the call, for
 * SINGLE_NODE_MULTI_WRITER, to map the PV's access mode (getNodeV1AccessModeMapper, v1.30.1 csi_client.go :489-499,
 * :237, :408; ReadWriteOncePod, 1.22 on); 1.20 does not. Its answer is recorded for the request; its failure is the
 * call's error, as it is.
 */
const nodeSupportsSingleNodeMultiWriterState = <E extends ErrorState>(description: string, next: string, failed: string, stage: FailParams['stage'], errorState: E) =>
  nodeGetCapabilitiesState(description, { target: next, actions: 'recordSingleNodeMultiWriter' as const }, failed, stage, 'rpc', errorState);
/** The next step is NodeStageVolume or NodePublishVolume (`target`): through the access mode's capability call first where the profile has it. */
const toNodeCall = (target: string) => [{ guard: 'mapsAccessMode', target: `${target}AccessMode` }, { target }] as const;

/**
 * getCredentialsFromSecret of the PV's nodeStageSecretRef, after the STAGE_UNSTAGE_VOLUME check and before NodeStageVolume
 * (csi_attacher.go MountDevice v1.30.1 :314-324, v1.20.5 :278-285; csi_block.go stageVolumeForBlock v1.30.1 :171-176): a GET;
 * a failure fails the step (a transient error in MountDevice: the device stays as it was; stageVolumeForBlock's is plain,
 * a finished one: `errorState`).
 */
const getNodeStageSecretState = <N, E extends ErrorState | undefined = undefined>(description: string, next: N, failed: string, stage: FailParams['stage'], errorState?: E) => ({
  description,
  entry: 'getNodeStageSecret' as const,
  on: {
    'api.getNodeStageSecret.succeeded': next,
    'api.getNodeStageSecret.failed': { target: failed, actions: failWith(stage, 'getNodeStageSecretFailed', errorState) },
  },
});

/**
 * getPublishContext (csi_plugin.go): the VolumeAttachment read from the API server for its publish context, by
 * csi_attacher.MountDevice and csi_mounter.SetUpAt (v1.30.1 csi_attacher.go:306-312, csi_mounter.go:197-205; v1.20.5
 * :268-275, :193-201) and by csi_block.go's SetUpDevice and MapPodDevice; none when the CSIDriver says attachRequired: false.
 * A failure is transient in MountDevice and SetUp: the device's and the pod's mount state stay as they were; csi_block returns it
 * as a plain error, a finished one (`errorState`). `next`: the transition(s) on success.
 */
const getVolumeAttachmentState = <N, E extends ErrorState | undefined = undefined>(description: string, next: N, failed: string, stage: FailParams['stage'], errorState?: E) => ({
  description,
  // a volume that needs no attach answers at once (skipAttach)
  entry: 'getVolumeAttachment' as const,
  on: {
    'api.getVolumeAttachment.succeeded': next,
    'api.getVolumeAttachment.failed': { target: failed, actions: failWith(stage, 'getVolumeAttachmentFailed', errorState) },
  },
});

/**
 * NodeSupportsStageUnstage, first in MountDevice and in SetUp: its answer is recorded (stageUnstage), then the publish context is read.
 */
const nodeSupportsStageUnstageState = (description: string, stage: 'MountDevice' | 'SetUp') =>
  nodeGetCapabilitiesState(description, { target: 'getVolumeAttachment', actions: 'recordStageUnstage' as const }, '#mountVolume.failed', stage, 'stageUnstageCheck',
    stage === 'MountDevice' ? 'markDeviceErrorState' as const : 'markVolumeErrorState' as const);

/** Every operation's failed end. */
const FAILED = { description: 'The operation returned an error: it backs off before the reconciler may retry.', type: 'final' as const };

/** What the expansion steps of an operation know: the size the file system should reach, and what the profile does when the node cannot expand. */
/**
 * `nodeExpandSecret`: the PV names a nodeExpandSecretRef and the profile's kubelet reads it (Profile.kubeletReadsNodeExpandSecret);
 * `mapsAccessMode`: the profile's csi_client maps the access mode by the node's SINGLE_NODE_MULTI_WRITER answer
 * (Profile.kubeletMapsAccessModeByCapability), recorded as `singleNodeMultiWriter`
 */
export interface ExpansionContext {
  newSize: number; unsupportedIsDone: boolean; resizeDone: boolean; nodeExpandSecret?: boolean; mapsAccessMode?: boolean; singleNodeMultiWriter?: boolean;
}

/**
 * The node expansion steps (nodeExpandVolume in 1.20, expandVolumeDuringMount and
 * legacyCallNodeExpandOnPlugin in 1.30): GET the claim; when its status is smaller than the PV, ask
 * the node plugin for EXPAND_VOLUME, ask NodeGetCapabilities once more (1.20: STAGE_UNSTAGE_VOLUME,
 * 1.30: SINGLE_NODE_MULTI_WRITER, for the access mode), call NodeExpandVolume, record
 * FileSystemResizeSuccessful on the pod and the claim, print the line, and patch the claim's status
 * (MarkFSResizeFinished). `phase`: 'staged' is 1.20's try right after MountDevice, which a driver
 * without STAGE_UNSTAGE_VOLUME leaves to the try after SetUp.
 */
/**
 * SetUp is done (after NodePublishVolume, or after the fsGroup of the pod's files): the operation has succeeded, or
 * expands the file system on the pod's publish path first (expandAfterSetUp); `actions` run before "SetUp succeeded".
 * (statVolumeRoot's pair, under its own guard, is written out: XState types a guard combined by and() only in place)
 */
const setUpDone = <A extends 'logFSGroupApplied'>(...actions: A[]) => [
  { guard: 'isResizeDone', target: '#mountVolume.succeeded', actions: [...actions, 'logSetUpSucceeded'] },
  { target: '#mountVolume.expandAfterSetUp', actions: [...actions, 'logSetUpSucceeded'] },
] as const;

const nodeExpansionStates = (done: string, failed: string, stage: FailParams['stage'], phase: 'staged' | 'published') => {
  const fail = (error: FailReason) => ({ target: failed, actions: { type: 'operationFailed', params: { stage, error } } }) as const;
  return {
    initial: 'getPVC',
    states: {
      getPVC: {
        description: 'GET the claim: is its status.capacity smaller than the PV? If not, there is nothing to expand.',
        entry: 'getPVC',
        on: {
          'api.getPVC.succeeded': [{ guard: 'isClaimSmallerThanVolume', target: 'newCsiDriverClient' }, { target: done, actions: 'markResizeDone' }],
          'api.getPVC.failed': fail('getPVCFailed'),
        },
      },
      newCsiDriverClient: newCsiDriverClientState('Expander.NodeExpand: the CSI client of a registered driver.', 'nodeGetCapabilities', failed, stage),
      nodeGetCapabilities: nodeGetCapabilitiesState('NodeSupportsNodeExpand: does the node plugin advertise EXPAND_VOLUME?', [
        { guard: and(['isNodeExpandSupported', 'hasNodeExpandSecret']), target: 'getNodeExpandSecret' },
        { guard: 'isNodeExpandSupported', target: 'nodeGetCapabilitiesAgain' },
        // 1.30: an OperationNotSupported error counts as done (the claim stays FileSystemResizePending)
        { guard: 'isUnsupportedDone', target: done, actions: 'markResizeDone' },
        fail('expandNotSupported'),
      ] as const, failed, stage, 'expandRpc'),
      getNodeExpandSecret: {
        description: 'getCredentialsFromSecret of the PV\'s nodeExpandSecretRef (on by default from 1.27): its keys go in NodeExpandVolume; a failure fails the expansion.',
        entry: 'getNodeExpandSecret',
        on: {
          'api.getNodeExpandSecret.succeeded': 'nodeGetCapabilitiesAgain',
          'api.getNodeExpandSecret.failed': fail('getNodeExpandSecretFailed'),
        },
      },
      nodeGetCapabilitiesAgain: nodeGetCapabilitiesState(phase === 'staged'
        ? 'NodeSupportsStageUnstage: a driver that does not stage has nothing staged to expand; the try after SetUp does it.'
        : 'The second NodeGetCapabilities of a NodeExpand (1.20: STAGE_UNSTAGE_VOLUME; 1.30: SINGLE_NODE_MULTI_WRITER, for the access mode).',
      phase === 'staged'
        ? [{ guard: 'isStageUnstageSupported', target: 'nodeExpandVolume' } as const, { target: done } as const]
        : { target: 'nodeExpandVolume', actions: 'recordSingleNodeMultiWriter' } as const, failed, stage, 'expandRpc'),
      nodeExpandVolume: {
        description: 'NodeExpandVolume: the node plugin grows the file system to the PV\'s size.',
        // the path of the file system: 'staged' is the staging path (1.20's try after MountDevice), else the pod's
        entry: { type: 'nodeExpandVolume', params: { phase } },
        on: {
          'csi.nodeExpandVolume.succeeded': { target: 'markFSResizeFinished', actions: ['recordFileSystemResizeSuccessful', 'logNodeExpandVolumeSucceeded'] },
          'csi.nodeExpandVolume.failed': fail('expandRpc'),
        },
      },
      markFSResizeFinished: {
        description: 'MarkFSResizeFinished: patch the claim\'s status: capacity the new size, the Resizing and FileSystemResizePending conditions gone.',
        entry: 'markFSResizeFinished',
        on: {
          'api.patchPVC.succeeded': { target: done, actions: 'markResizeDone' },
          'api.patchPVC.failed': fail('patchPVCFailed'),
        },
      },
    },
  } as const;
};

/** The guards of every machine with the node expansion steps (MountVolume, MapVolume, ExpandInUseVolume). */
const expansionGuards = {
  /** the claim's status.capacity is smaller than the size the PV says */
  isClaimSmallerThanVolume: ({ context, event }: { context: ExpansionContext; event: OperationEvent }) =>
    event.type === 'api.getPVC.succeeded' && event.capacityBytes < context.newSize,
  isNodeExpandSupported: ({ event }: { event: OperationEvent }) => event.type === 'csi.nodeGetCapabilities.succeeded' && event.nodeExpand,
  isUnsupportedDone: ({ context }: { context: ExpansionContext }) => context.unsupportedIsDone,
  hasNodeExpandSecret: ({ context }: { context: ExpansionContext }) => context.nodeExpandSecret === true,
  /** the profile maps the access mode by the node's SINGLE_NODE_MULTI_WRITER answer (the capability call before a node call) */
  mapsAccessMode: ({ context }: { context: ExpansionContext }) => context.mapsAccessMode === true,
  isStageUnstageSupported: ({ event }: { event: OperationEvent }) => event.type === 'csi.nodeGetCapabilities.succeeded' && event.stageUnstage,
};

/**
 * `readsClaim`: the profile's check GETs the PV's claim first (Profile.kubeletVerifyReadsClaim; a PersistentVolume's
 * volume with no claim size in the actual state of world yet); `claimSize`: its status.capacity, in bytes, once read
 */
export interface VerifyContext { volumeName: string; attachable: boolean; reportedInUse: boolean; readsClaim?: boolean; claimSize?: number }

export const verifyControllerAttachedVolumeMachine = setup({
  types: { context: {} as VerifyContext, events: {} as OperationEvent, input: {} as VerifyContext },
  actions: {
    ...named('markVolumeAsAttached', 'logControllerAttachSucceeded', 'getNode', 'getPVC', 'operationSucceeded'),
    operationFailed: (_, _params: FailParams) => {},
    recordClaimSize: assign({ claimSize: ({ event }) => (event.type === 'api.getPVC.succeeded' ? event.capacityBytes : undefined) }),
  },
  guards: {
    readsClaim: ({ context }) => !!context.readsClaim,
    isNotAttachable: ({ context }) => !context.attachable,
    isNotReportedInUse: ({ context }) => !context.reportedInUse,
    /** the volume is in node.status.volumesAttached */
    isVolumeAttachedToNode: ({ event }) => event.type === 'api.getNode.succeeded' && event.attached,
  },
}).createMachine({
  id: 'verifyControllerAttachedVolume',
  context: ({ input }) => input,
  initial: 'checkingClaimSize',
  states: {
    checkingClaimSize: {
      description: '1.30: without a claim size in the actual state of world, the claim is read first (its status.capacity); 1.20 reads none.',
      always: [{ guard: 'readsClaim', target: 'fetchingClaim' }, { target: 'checkingPlugin' }],
    },
    fetchingClaim: {
      description: 'GET the PV\'s claim for its status.capacity, which MarkVolumeAsAttached records (InitializeClaimSize); a failure fails the check.',
      entry: 'getPVC',
      on: {
        'api.getPVC.succeeded': { target: 'checkingPlugin', actions: 'recordClaimSize' },
        'api.getPVC.failed': { target: 'failed', actions: { type: 'operationFailed', params: { stage: 'VerifyControllerAttachedVolume', error: 'getPVCFailed' } } },
      },
    },
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

export interface MountContext extends ExpansionContext {
  attachable: boolean; deviceGloballyMounted: boolean; stageUnstage: boolean;
  /** the PV names a nodeStageSecretRef: MountDevice reads it before NodeStageVolume */
  nodeStageSecret?: boolean;
  /** the PV names a nodePublishSecretRef: SetUp reads it before NodePublishVolume */
  nodePublishSecret?: boolean;
  /** 1.20 finishes a pending expansion right after MountDevice (profile kubeletMountExpands) */
  expandsAfterMountDevice: boolean;
  /** 1.30 asks the node plugin for VOLUME_MOUNT_GROUP before NodeStageVolume and NodePublishVolume too (profile kubeletChecksVolumeMountGroup) */
  checksVolumeMountGroup: boolean;
  /** 1.20: MountDevice's missing CSI client is a finished error (profile kubeletDriverClientErrorFinished) */
  driverClientErrorFinished?: boolean;
  /** the pod's fsGroup, which SetUp gives the volume's files after NodePublishVolume (csiMounter.fsGroupToApply); absent: no walk */
  fsGroup?: number;
  /** the pod's fsGroupChangePolicy is OnRootMismatch: the volume's top directory is looked at before the walk (skipPermissionChange) */
  onRootMismatch?: boolean;
}

/** The named steps of the node expansion states, performed by PERFORM below. */
const EXPANSION_ACTIONS = ['getPVC', 'getNodeExpandSecret', 'nodeExpandVolume', 'recordFileSystemResizeSuccessful', 'logNodeExpandVolumeSucceeded', 'markFSResizeFinished'] as const;

export const mountVolumeMachine = setup({
  types: { context: {} as MountContext, events: {} as OperationEvent, input: {} as Omit<MountContext, 'stageUnstage' | 'resizeDone'> },
  actions: {
    ...named('waitForAttach', 'setDevicePath', 'newCsiDriverClient', 'nodeGetCapabilities', 'getVolumeAttachment', 'getNodeStageSecret', 'getNodePublishSecret', 'nodeStageVolume', 'nodePublishVolume',
      'markDeviceAsMounted', 'logMountDeviceSucceeded', 'markDeviceErrorState', 'markVolumeAsMounted', 'logSetUpSucceeded',
      'markVolumeErrorState', 'operationSucceeded', 'setVolumeOwnership', 'logFSGroupApplied', 'statVolumeRoot', 'logSkipPermissionChange',
      'logVolumeRootMismatch', 'logVolumeRootStatFailed', ...EXPANSION_ACTIONS),
    operationFailed: (_, _params: FailParams) => {},
    recordStageUnstage: assign({ stageUnstage: ({ event }) => event.type === 'csi.nodeGetCapabilities.succeeded' && event.stageUnstage }),
    recordSingleNodeMultiWriter: assign({ singleNodeMultiWriter: ({ event }) => event.type === 'csi.nodeGetCapabilities.succeeded' && event.singleNodeMultiWriter }),
    markResizeDone: assign({ resizeDone: true }),
  },
  guards: {
    ...expansionGuards,
    isDeviceGloballyMounted: ({ context }) => context.deviceGloballyMounted,
    expandsAfterMountDevice: ({ context }) => context.expandsAfterMountDevice,
    checksVolumeMountGroup: ({ context }) => context.checksVolumeMountGroup,
    driverClientErrorFinished: ({ context }) => context.driverClientErrorFinished === true,
    /** supportsFSGroup (csi_mounter.go): the pod has an fsGroup that the CSIDriver's fsGroupPolicy lets the kubelet apply */
    appliesFSGroup: ({ context }) => context.fsGroup !== undefined,
    checksVolumeRoot: ({ context }) => context.fsGroup !== undefined && context.onRootMismatch === true,
    /** requiresPermissionChange is false: the top directory has the pod's group, rwx for owner and group, and setgid */
    volumeRootMatches: ({ context, event }) => event.type === 'host.statVolumeRoot.succeeded' && event.rootGid === context.fsGroup && event.rootModeOk,
    hasNodeStageSecret: ({ context }) => context.nodeStageSecret === true,
    hasNodePublishSecret: ({ context }) => context.nodePublishSecret === true,
    isResizeDone: ({ context }) => context.resizeDone,
    /** the node plugin's capabilities, asked before the publish context was read, had STAGE_UNSTAGE_VOLUME */
    stagesVolume: ({ context }) => context.stageUnstage,
  },
}).createMachine({
  id: 'mountVolume',
  context: ({ input }) => ({ ...input, stageUnstage: false, resizeDone: false }),
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
        newCsiDriverClient: newCsiDriverClientState('The CSI client of a registered driver.', 'nodeGetCapabilities', '#mountVolume.failed', 'MountDevice', 'markDeviceErrorState'),
        nodeGetCapabilities: nodeSupportsStageUnstageState('Does the node plugin advertise STAGE_UNSTAGE_VOLUME?', 'MountDevice'),
        // csi_attacher.MountDevice reads the publish context whether or not it will stage
        getVolumeAttachment: getVolumeAttachmentState(
          'getPublishContext: GET the VolumeAttachment, whose attachmentMetadata is the publish context (none for a driver that needs no attach).',
          [
            { guard: and(['stagesVolume', 'hasNodeStageSecret']), target: 'getNodeStageSecret' },
            { guard: and(['stagesVolume', 'checksVolumeMountGroup']), target: 'nodeSupportsVolumeMountGroup' },
            { guard: and(['stagesVolume', 'mapsAccessMode']), target: 'nodeStageVolumeAccessMode' },
            { guard: 'stagesVolume', target: 'nodeStageVolume' },
            // "STAGE_UNSTAGE_VOLUME capability not set. Skipping MountDevice...": MountDevice still succeeds
            { guard: 'expandsAfterMountDevice', target: '#mountVolume.expandAfterMountDevice', actions: [{ type: 'logMountDeviceSucceeded', params: { skipped: true } }, 'markDeviceAsMounted'] },
            { target: '#mountVolume.setUp', actions: [{ type: 'logMountDeviceSucceeded', params: { skipped: true } }, 'markDeviceAsMounted'] },
          ] as const,
          '#mountVolume.failed', 'MountDevice'),
        // (on to 1.30's VOLUME_MOUNT_GROUP check first when the profile asks it)
        getNodeStageSecret: getNodeStageSecretState('The Secret the PV names for NodeStageVolume (nodeStageSecretRef), read with a GET.',
          [{ guard: 'checksVolumeMountGroup', target: 'nodeSupportsVolumeMountGroup' }, ...toNodeCall('nodeStageVolume')] as const, '#mountVolume.failed', 'MountDevice'),
        nodeSupportsVolumeMountGroup: nodeSupportsVolumeMountGroupState(
          '1.30: csi_attacher.MountDevice asks NodeGetCapabilities again, for VOLUME_MOUNT_GROUP (DelegateFSGroupToCSIDriver, GA in 1.26; v1.30.7 csi_attacher.go:392); 1.20 does not.',
          'nodeStageVolume', 'MountDevice'),
        nodeStageVolumeAccessMode: nodeSupportsSingleNodeMultiWriterState(
          '1.30: csi_client.NodeStageVolume asks NodeGetCapabilities once more, for SINGLE_NODE_MULTI_WRITER, to map the access mode (csi_client.go:408); 1.20 does not.',
          'nodeStageVolume', '#mountVolume.failed', 'MountDevice', 'markDeviceErrorState'),
        nodeStageVolume: {
          description: 'NodeStageVolume: an error that is not final leaves the device uncertain (markDeviceErrorState).',
          entry: 'nodeStageVolume',
          on: {
            'csi.nodeStageVolume.succeeded': [
              { guard: 'expandsAfterMountDevice', target: '#mountVolume.expandAfterMountDevice', actions: ['logMountDeviceSucceeded', 'markDeviceAsMounted'] },
              { target: '#mountVolume.setUp', actions: ['logMountDeviceSucceeded', 'markDeviceAsMounted'] },
            ],
            'csi.nodeStageVolume.failed': { target: '#mountVolume.failed', actions: ['markDeviceErrorState', { type: 'operationFailed', params: { stage: 'MountDevice', error: 'rpc' } }] },
          },
        },
      },
    },
    expandAfterMountDevice: {
      description: '1.20: nodeExpandVolume right after MountDevice, on the staging path, for a claim the controller expanded while no pod used it (FileSystemResizePending).',
      ...nodeExpansionStates('#mountVolume.setUp', '#mountVolume.failed', 'MountDevice', 'staged'),
    },
    setUp: {
      description: 'MountVolume.SetUp: csi_mounter.SetUpAt publishes the volume into the pod.',
      initial: 'newCsiDriverClient',
      states: {
        newCsiDriverClient: newCsiDriverClientState('The CSI client of a registered driver.', 'nodeGetCapabilities', '#mountVolume.failed', 'SetUp'),
        nodeGetCapabilities: nodeSupportsStageUnstageState('With STAGE_UNSTAGE_VOLUME the publish names the staging path.', 'SetUp'),
        // csi_mounter.SetUpAt reads it again: its mounter has no publish context of its own
        getVolumeAttachment: getVolumeAttachmentState(
          'getPublishContext again, for NodePublishVolume: GET the VolumeAttachment (none for a driver that needs no attach).',
          [
            { guard: 'hasNodePublishSecret', target: 'getNodePublishSecret' },
            { guard: 'checksVolumeMountGroup', target: 'nodeSupportsVolumeMountGroup' },
            ...toNodeCall('nodePublishVolume'),
          ] as const,
          '#mountVolume.failed', 'SetUp'),
        getNodePublishSecret: {
          // csi_mounter.SetUpAt: getCredentialsFromSecret of the PV's nodePublishSecretRef, after the publish context
          // (v1.30.1 csi_mounter.go:218-225, v1.20.5 :214-221); a failure is transient, the pod's mount stays as it was
          description: 'The Secret the PV names for NodePublishVolume (nodePublishSecretRef), read with a GET.',
          entry: 'getNodePublishSecret',
          on: {
            'api.getNodePublishSecret.succeeded': [{ guard: 'checksVolumeMountGroup', target: 'nodeSupportsVolumeMountGroup' }, ...toNodeCall('nodePublishVolume')],
            'api.getNodePublishSecret.failed': { target: '#mountVolume.failed', actions: { type: 'operationFailed', params: { stage: 'SetUp', error: 'getNodePublishSecretFailed' } } },
          },
        },
        nodeSupportsVolumeMountGroup: nodeSupportsVolumeMountGroupState(
          '1.30: csi_mounter.SetUpAt asks NodeGetCapabilities again, for VOLUME_MOUNT_GROUP (v1.30.7 csi_mounter.go:246); 1.20 does not.',
          'nodePublishVolume', 'SetUp'),
        nodePublishVolumeAccessMode: nodeSupportsSingleNodeMultiWriterState(
          '1.30: csi_client.NodePublishVolume asks NodeGetCapabilities once more, for SINGLE_NODE_MULTI_WRITER, to map the access mode (csi_client.go:237); 1.20 does not.',
          'nodePublishVolume', '#mountVolume.failed', 'SetUp', 'markVolumeErrorState'),
        nodePublishVolume: {
          description: 'NodePublishVolume: an error that is not final leaves the pod\'s mount uncertain (markVolumeErrorState).',
          entry: 'nodePublishVolume',
          on: {
            'csi.nodePublishVolume.succeeded': [
              { guard: 'checksVolumeRoot', target: 'statVolumeRoot' },
              { guard: 'appliesFSGroup', target: 'setVolumeOwnership' },
              ...setUpDone(),
            ],
            'csi.nodePublishVolume.failed': { target: '#mountVolume.failed', actions: ['markVolumeErrorState', { type: 'operationFailed', params: { stage: 'SetUp', error: 'rpc' } }] },
          },
        },
        // fsGroupChangePolicy OnRootMismatch: skipPermissionChange -> requiresPermissionChange stats the top directory first
        // (v1.30.1 volume_linux.go:107-156, v1.20.5 :134-187); a match skips the walk, SetUp is done
        statVolumeRoot: {
          description: 'requiresPermissionChange (fsGroupChangePolicy OnRootMismatch): the volume\'s top directory already has the pod\'s group and mode, or the kubelet walks the files.',
          entry: 'statVolumeRoot',
          on: {
            'host.statVolumeRoot.succeeded': [
              { guard: and(['volumeRootMatches', 'isResizeDone']), target: '#mountVolume.succeeded', actions: ['logSkipPermissionChange', 'logFSGroupApplied', 'logSetUpSucceeded'] },
              { guard: 'volumeRootMatches', target: '#mountVolume.expandAfterSetUp', actions: ['logSkipPermissionChange', 'logFSGroupApplied', 'logSetUpSucceeded'] },
              { target: 'setVolumeOwnership', actions: 'logVolumeRootMismatch' },
            ],
            // a stat that fails is only logged: the kubelet walks the files anyway (v1.30.1 volume_linux.go:116-120, v1.20.5 :147-151)
            'host.statVolumeRoot.failed': { target: 'setVolumeOwnership', actions: 'logVolumeRootStatFailed' },
          },
        },
        // csi_mounter.SetUpAt after NodePublishVolume (v1.30.1 csi_mounter.go:334-347, v1.20.5 :269-280): the kubelet gives every
        // file the pod's fsGroup itself; its error is an uncertain one, since the volume is mounted (markVolumeErrorState)
        setVolumeOwnership: {
          description: 'SetVolumeOwnership: the kubelet walks the published volume and gives every file the pod\'s fsGroup; a failure leaves the pod\'s mount uncertain (it is mounted).',
          entry: 'setVolumeOwnership',
          on: {
            'host.setVolumeOwnership.succeeded': [...setUpDone('logFSGroupApplied')],
            'host.setVolumeOwnership.failed': {
              target: '#mountVolume.failed',
              actions: [{ type: 'markVolumeErrorState', params: { uncertain: true } }, { type: 'operationFailed', params: { stage: 'SetUp', error: 'applyFSGroup' } }],
            },
          },
        },
      },
    },
    expandAfterSetUp: {
      description: 'The expansion after SetUp, on the pod\'s publish path: always in 1.30 (expandVolumeDuringMount), in 1.20 only when the try after MountDevice did not finish it.',
      ...nodeExpansionStates('#mountVolume.succeeded', '#mountVolume.failed', 'SetUp', 'published'),
    },
    succeeded: { description: 'MarkVolumeAsMounted: the pod\'s volume is mounted.', type: 'final', entry: ['markVolumeAsMounted', 'operationSucceeded'] },
    failed: FAILED,
  },
});

/**
 * ExpandInUseVolume (OperationName volume_fs_resize): the populator found a mounted volume whose PV
 * is larger than its claim's status; the node plugin grows the file system in place, then the claim
 * is marked resized and the actual state of world takes the new size (MarkVolumeAsResized).
 * upstream: operation_generator.go GenerateExpandInUseVolumeFunc, doOnlineExpansion.
 */
export const expandInUseVolumeMachine = setup({
  types: { context: {} as ExpansionContext, events: {} as OperationEvent, input: {} as Omit<ExpansionContext, 'resizeDone'> },
  actions: {
    ...named('newCsiDriverClient', 'nodeGetCapabilities', 'markVolumeAsResized', 'operationSucceeded', ...EXPANSION_ACTIONS),
    operationFailed: (_, _params: FailParams) => {},
    markResizeDone: assign({ resizeDone: true }),
    recordSingleNodeMultiWriter: assign({ singleNodeMultiWriter: ({ event }) => event.type === 'csi.nodeGetCapabilities.succeeded' && event.singleNodeMultiWriter }),
  },
  guards: {
    ...expansionGuards,
  },
}).createMachine({
  id: 'expandInUseVolume',
  context: ({ input }) => ({ ...input, resizeDone: false }),
  initial: 'nodeExpandVolume',
  states: {
    nodeExpandVolume: {
      description: 'doOnlineExpansion -> nodeExpandVolume: the volume stays mounted in the pod while its file system grows.',
      ...nodeExpansionStates('#expandInUseVolume.succeeded', '#expandInUseVolume.failed', 'NodeExpandVolume', 'published'),
    },
    succeeded: { description: 'MarkVolumeAsResized: the actual state of world records the new size.', type: 'final', entry: ['markVolumeAsResized', 'operationSucceeded'] },
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
    isStageUnstageSupported: ({ event }) => event.type === 'csi.nodeGetCapabilities.succeeded' && event.stageUnstage,
  },
}).createMachine({
  id: 'unmountDevice',
  initial: 'newCsiDriverClient',
  states: {
    newCsiDriverClient: newCsiDriverClientState('csi_attacher.UnmountDevice: the CSI client of a registered driver.', 'nodeGetCapabilities', 'failed', 'UnmountDevice'),
    nodeGetCapabilities: nodeGetCapabilitiesState('Without STAGE_UNSTAGE_VOLUME there is nothing to unstage.', [
      { guard: 'isStageUnstageSupported', target: 'nodeUnstageVolume' },
      // "STAGE_UNSTAGE_VOLUME capability not set. Skipping UnmountDevice...": the global directory goes, nothing to unstage
      { target: 'succeeded', actions: [{ type: 'logUnmountDeviceSucceeded', params: { skipped: true } }, 'markDeviceAsUnmounted'] },
    ] as const, 'failed', 'UnmountDevice', 'stageUnstageCheck'),
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

// ------------------------------------------------------------------ raw block volumes

/** What a MapVolume knows when it starts. */
export interface MapContext extends ExpansionContext {
  attachable: boolean; deviceGloballyMounted: boolean; nodeStageSecret?: boolean; nodePublishSecret?: boolean;
  /** 1.20: SetUpDevice's and MapPodDevice's missing CSI client is a finished error (profile kubeletDriverClientErrorFinished) */
  driverClientErrorFinished?: boolean;
}

/**
 * MapVolume (OperationName map_volume): a raw block volume is not mounted but mapped.
 * WaitForAttach; SetUpDevice (NodeStageVolume to the block staging directory) unless the device is
 * globally mapped already; MarkDeviceAsMounted at the global map path; MapPodDevice
 * (NodePublishVolume to a file per pod, whose path becomes the device path, marked again); the
 * kubelet links the device into the pod's volumeDevices directory (MapBlockVolume, util.go: a bind mount at
 * the global map path's <pod UID> entry, a symlink in the pod's directory, and a loop device on the bind-mounted
 * file that holds it open), logs and records "MapVolume.MapPodDevice succeeded" twice (global
 * map path at -v=4, the pod's path at -v=1), and finally expandVolumeDuringMount as for a mount.
 * upstream: v1.30.1 operation_generator.go GenerateMapVolumeFunc :1032-1268.
 */
export const mapVolumeMachine = setup({
  types: { context: {} as MapContext, events: {} as OperationEvent, input: {} as Omit<MapContext, 'resizeDone'> },
  actions: {
    ...named('waitForAttach', 'setDevicePath', 'getVolumeAttachment', 'newCsiDriverClient', 'nodeGetCapabilities', 'getNodeStageSecret', 'getNodePublishSecret', 'nodeStageVolumeForBlock',
      'nodePublishVolumeForBlock', 'markDeviceAsMounted', 'markDeviceErrorState', 'markVolumeErrorState', 'mapBlockVolume',
      'markVolumeAsMounted', 'operationSucceeded', ...EXPANSION_ACTIONS),
    operationFailed: (_, _params: FailParams) => {},
    markResizeDone: assign({ resizeDone: true }),
    recordSingleNodeMultiWriter: assign({ singleNodeMultiWriter: ({ event }) => event.type === 'csi.nodeGetCapabilities.succeeded' && event.singleNodeMultiWriter }),
  },
  guards: {
    ...expansionGuards,
    isDeviceGloballyMounted: ({ context }) => context.deviceGloballyMounted,
    driverClientErrorFinished: ({ context }) => context.driverClientErrorFinished === true,
    hasNodeStageSecret: ({ context }) => context.nodeStageSecret === true,
    hasNodePublishSecret: ({ context }) => context.nodePublishSecret === true,
  },
}).createMachine({
  id: 'mapVolume',
  context: ({ input }) => ({ ...input, resizeDone: false }),
  initial: 'waitForAttach',
  states: {
    waitForAttach: {
      description: 'MapVolume.WaitForAttach: the VolumeAttachment must say attached (skipped for a volume that needs no attach).',
      entry: { type: 'waitForAttach', params: { block: true } },
      on: {
        'csiAttacher.waitForAttach.succeeded': [
          { guard: 'isDeviceGloballyMounted', target: 'mapPodDevice', actions: ['setDevicePath', 'markDeviceAsMounted'] },
          { target: 'setUpDevice', actions: 'setDevicePath' },
        ],
        'csiAttacher.waitForAttach.failed': { target: 'failed', actions: { type: 'operationFailed', params: { stage: 'MapVolume.WaitForAttach', error: 'notAttached' } } },
      },
    },
    setUpDevice: {
      description: 'MapVolume.SetUpDevice: csi_block.SetUpDevice stages the volume for block access (NodeStageVolume with a Block capability).',
      initial: 'getVolumeAttachment',
      states: {
        // csi_block.SetUpDevice returns a failed GET as a plain error (v1.30.1 csi_block.go:307), not a transient one as MountDevice does
        getVolumeAttachment: getVolumeAttachmentState('GET the VolumeAttachment: its attachmentMetadata is the publish context.', 'newCsiDriverClient', '#mapVolume.failed', 'MapVolume.SetUpDevice',
          'markDeviceErrorState'),
        newCsiDriverClient: newCsiDriverClientState('The CSI client of a registered driver.', 'nodeGetCapabilities', '#mapVolume.failed', 'MapVolume.SetUpDevice', 'markDeviceErrorState'),
        nodeGetCapabilities: nodeGetCapabilitiesState('stageVolumeForBlock: does the node plugin advertise STAGE_UNSTAGE_VOLUME? Without it there is nothing to stage.', [
          { guard: and(['isStageUnstageSupported', 'hasNodeStageSecret']), target: 'getNodeStageSecret' },
          { guard: and(['isStageUnstageSupported', 'mapsAccessMode']), target: 'nodeStageVolumeAccessMode' },
          { guard: 'isStageUnstageSupported', target: 'nodeStageVolume' },
          { target: '#mapVolume.mapPodDevice', actions: 'markDeviceAsMounted' },
        ] as const, '#mapVolume.failed', 'MapVolume.SetUpDevice', 'stageUnstageCheck', 'markDeviceErrorState'),
        // stageVolumeForBlock: a plain error too (csi_block.go:172-176)
        getNodeStageSecret: getNodeStageSecretState('The Secret the PV names for NodeStageVolume (nodeStageSecretRef), read with a GET.', toNodeCall('nodeStageVolume'), '#mapVolume.failed', 'MapVolume.SetUpDevice',
          'markDeviceErrorState'),
        nodeStageVolumeAccessMode: nodeSupportsSingleNodeMultiWriterState(
          '1.30: csi_client.NodeStageVolume asks NodeGetCapabilities once more, for SINGLE_NODE_MULTI_WRITER, to map the access mode; 1.20 does not.',
          'nodeStageVolume', '#mapVolume.failed', 'MapVolume.SetUpDevice', 'markDeviceErrorState'),
        nodeStageVolume: {
          description: 'NodeStageVolume to plugins/kubernetes.io/csi/volumeDevices/staging/<pv>: an error that is not final leaves the device uncertain (markDeviceErrorState).',
          entry: 'nodeStageVolumeForBlock',
          on: {
            'csi.nodeStageVolume.succeeded': { target: '#mapVolume.mapPodDevice', actions: 'markDeviceAsMounted' },
            'csi.nodeStageVolume.failed': { target: '#mapVolume.failed', actions: ['markDeviceErrorState', { type: 'operationFailed', params: { stage: 'MapVolume.SetUpDevice', error: 'rpc' } }] },
          },
        },
      },
    },
    mapPodDevice: {
      description: 'MapVolume.MapPodDevice: csi_block.MapPodDevice publishes the volume to a file for this pod; then the kubelet links it into the pod.',
      initial: 'getVolumeAttachment',
      states: {
        // (csi_block.MapPodDevice: a plain error, csi_block.go:369)
        getVolumeAttachment: getVolumeAttachmentState('GET the VolumeAttachment again, for the publish context.', 'newCsiDriverClient', '#mapVolume.failed', 'MapVolume.MapPodDevice',
          'markVolumeErrorState'),
        newCsiDriverClient: newCsiDriverClientState('The CSI client of a registered driver.',
          [{ guard: 'hasNodePublishSecret', target: 'getNodePublishSecret' }, ...toNodeCall('nodePublishVolume')] as const, '#mapVolume.failed', 'MapVolume.MapPodDevice', 'markVolumeErrorState'),
        getNodePublishSecret: {
          // publishVolumeForBlock (v1.30.1 csi_block.go:237-242, v1.20.5 :215-220): a plain error, as the VolumeAttachment GET's
          description: 'publishVolumeForBlock: the Secret the PV names for NodePublishVolume (nodePublishSecretRef), read with a GET.',
          entry: 'getNodePublishSecret',
          on: {
            'api.getNodePublishSecret.succeeded': toNodeCall('nodePublishVolume'),
            'api.getNodePublishSecret.failed': { target: '#mapVolume.failed', actions: failWith('MapVolume.MapPodDevice', 'getNodePublishSecretFailed', 'markVolumeErrorState') },
          },
        },
        nodePublishVolumeAccessMode: nodeSupportsSingleNodeMultiWriterState(
          '1.30: csi_client.NodePublishVolume asks NodeGetCapabilities once more, for SINGLE_NODE_MULTI_WRITER, to map the access mode; 1.20 does not.',
          'nodePublishVolume', '#mapVolume.failed', 'MapVolume.MapPodDevice', 'markVolumeErrorState'),
        nodePublishVolume: {
          description: 'NodePublishVolume to plugins/kubernetes.io/csi/volumeDevices/publish/<pv>/<pod uid>: an error that is not final leaves the pod\'s volume uncertain (markVolumeErrorState).',
          entry: 'nodePublishVolumeForBlock',
          on: {
            // the published file is the device path now: MarkDeviceAsMounted again with it, then MapBlockVolume
            'csi.nodePublishVolume.succeeded': { target: '#mapVolume.expandVolume', actions: ['setDevicePath', 'markDeviceAsMounted', 'mapBlockVolume'] },
            'csi.nodePublishVolume.failed': { target: '#mapVolume.failed', actions: ['markVolumeErrorState', { type: 'operationFailed', params: { stage: 'MapVolume.MapPodDevice', error: 'rpc' } }] },
          },
        },
      },
    },
    expandVolume: {
      description: 'expandVolumeDuringMount, as after a mount: GET the claim; a claim smaller than the PV is expanded on the node first.',
      ...nodeExpansionStates('#mapVolume.succeeded', '#mapVolume.failed', 'MapVolume.ExpandVolume', 'published'),
    },
    succeeded: { description: 'MarkVolumeAsMounted: the raw device is mapped into the pod.', type: 'final', entry: ['markVolumeAsMounted', 'operationSucceeded'] },
    failed: FAILED,
  },
});

/** What an unmap knows: whether the profile marks the volume (or device) uncertain before it starts. */
export interface UnmapContext { marksUncertain: boolean }

/**
 * UnmapVolume (OperationName unmap_volume): mark the pod's volume uncertain, remove the device links
 * from the pod and the global map path (UnmapBlockVolume), then UnmapPodDevice (NodeUnpublishVolume),
 * log, MarkVolumeAsUnmounted. No Event on failure.
 * upstream: v1.30.1 operation_generator.go GenerateUnmapVolumeFunc :1272-1370.
 */
export const unmapVolumeMachine = setup({
  types: { context: {} as UnmapContext, events: {} as OperationEvent, input: {} as UnmapContext },
  actions: {
    ...named('markVolumeMountAsUncertain', 'unmapBlockVolume', 'newCsiDriverClient', 'nodeUnpublishVolumeForBlock', 'logUnmapVolumeSucceeded', 'markVolumeAsUnmounted', 'operationSucceeded'),
    operationFailed: (_, _params: FailParams) => {},
  },
}).createMachine({
  id: 'unmapVolume',
  context: ({ input }) => input,
  initial: 'unmapBlockVolume',
  states: {
    unmapBlockVolume: {
      description: 'The pod\'s volume is marked uncertain (so that a failure below leaves it to be unmapped again), and the device links go.',
      entry: ['markVolumeMountAsUncertain', 'unmapBlockVolume'],
      always: 'unmapPodDevice',
    },
    unmapPodDevice: {
      description: 'UnmapVolume.UnmapPodDevice: csi_block.UnmapPodDevice unpublishes the pod\'s file.',
      initial: 'newCsiDriverClient',
      states: {
        newCsiDriverClient: newCsiDriverClientState('The CSI client of a registered driver.', 'nodeUnpublishVolume', '#unmapVolume.failed', 'UnmapVolume.UnmapPodDevice'),
        nodeUnpublishVolume: {
          description: 'NodeUnpublishVolume of plugins/kubernetes.io/csi/volumeDevices/publish/<pv>/<pod uid>.',
          entry: 'nodeUnpublishVolumeForBlock',
          on: {
            'csi.nodeUnpublishVolume.succeeded': { target: '#unmapVolume.succeeded', actions: ['logUnmapVolumeSucceeded', 'markVolumeAsUnmounted'] },
            'csi.nodeUnpublishVolume.failed': { target: '#unmapVolume.failed', actions: { type: 'operationFailed', params: { stage: 'UnmapVolume.UnmapPodDevice', error: 'rpc' } } },
          },
        },
      },
    },
    succeeded: { description: 'MarkVolumeAsUnmounted: the pod\'s volume is gone.', type: 'final', entry: 'operationSucceeded' },
    failed: FAILED,
  },
});

/**
 * UnmapDevice (OperationName unmap_device): no pod links the device any more; mark it uncertain,
 * TearDownDevice (NodeUnstageVolume when the plugin stages), remove the global map path, log,
 * MarkDeviceAsUnmounted. No Event on failure.
 * upstream: v1.30.1 operation_generator.go GenerateUnmapDeviceFunc :1382-1490, csi_block.go TearDownDevice.
 */
export const unmapDeviceMachine = setup({
  types: { context: {} as UnmapContext, events: {} as OperationEvent, input: {} as UnmapContext },
  actions: {
    ...named('markDeviceAsUncertain', 'newCsiDriverClient', 'nodeGetCapabilities', 'nodeUnstageVolumeForBlock', 'logUnmapDeviceSucceeded', 'markDeviceAsUnmounted', 'operationSucceeded'),
    operationFailed: (_, _params: FailParams) => {},
  },
  guards: {
    isStageUnstageSupported: ({ event }) => event.type === 'csi.nodeGetCapabilities.succeeded' && event.stageUnstage,
  },
}).createMachine({
  id: 'unmapDevice',
  context: ({ input }) => input,
  initial: 'tearDownDevice',
  states: {
    tearDownDevice: {
      description: 'UnmapDevice.TearDownDevice: csi_block.TearDownDevice unstages the volume.',
      entry: 'markDeviceAsUncertain',
      initial: 'newCsiDriverClient',
      states: {
        newCsiDriverClient: newCsiDriverClientState('The CSI client of a registered driver.', 'nodeGetCapabilities', '#unmapDevice.failed', 'UnmapDevice.TearDownDevice'),
        nodeGetCapabilities: nodeGetCapabilitiesState('unstageVolumeForBlock: without STAGE_UNSTAGE_VOLUME there is nothing to unstage.', [
          { guard: 'isStageUnstageSupported', target: 'nodeUnstageVolume' },
          { target: '#unmapDevice.succeeded', actions: ['logUnmapDeviceSucceeded', 'markDeviceAsUnmounted'] },
        ] as const, '#unmapDevice.failed', 'UnmapDevice.TearDownDevice', 'stageUnstageCheck'),
        nodeUnstageVolume: {
          description: 'NodeUnstageVolume of plugins/kubernetes.io/csi/volumeDevices/staging/<pv>.',
          entry: 'nodeUnstageVolumeForBlock',
          on: {
            'csi.nodeUnstageVolume.succeeded': { target: '#unmapDevice.succeeded', actions: ['logUnmapDeviceSucceeded', 'markDeviceAsUnmounted'] },
            'csi.nodeUnstageVolume.failed': { target: '#unmapDevice.failed', actions: { type: 'operationFailed', params: { stage: 'UnmapDevice.TearDownDevice', error: 'rpc' } } },
          },
        },
      },
    },
    succeeded: { description: 'MarkDeviceAsUnmounted: the device is no longer mapped on the node.', type: 'final', entry: 'operationSucceeded' },
    failed: FAILED,
  },
});

export const OPERATION_MACHINES: Record<OperationKind, AnyStateMachine> = {
  verify: verifyControllerAttachedVolumeMachine, mount: mountVolumeMachine, unmount: unmountVolumeMachine, unmountDevice: unmountDeviceMachine,
  expand: expandInUseVolumeMachine, map: mapVolumeMachine, unmap: unmapVolumeMachine, unmapDevice: unmapDeviceMachine,
};

// ------------------------------------------------------------------ message arguments

/** "<ns>/<name> failed: <getCredentialsFromSecret's error>" (csi_util.go getCredentialsFromSecret, both releases). */
const secretFailure = (v: VolumeSpec, event: OperationEvent | undefined, secretRef = v.nodeStageSecretRef): string => {
  const ref = secretRef ?? { name: '', namespace: '' };
  return `${ref.namespace}/${ref.name} failed: kubernetes.io/csi: failed to find the secret ${ref.name} in the namespace ${ref.namespace} with error: ${event && 'message' in event ? event.message : ''}`;
};

/** The arguments of the kubelet's per-pod volume lines (VolumeToMount.GenerateMsgDetailed). */
export const mountArgs = (w: Work, v: VolumeSpec, uid: string, p: PodVolume) => ({
  volume: v.pvName, uniqueName: v.uniqueName, podName: p.podName, podUid: uid, kpod: `${p.namespace}/${p.podName}`, node: w.c.input.nodeName,
});
const detailMount = (v: VolumeSpec, uid: string, p: PodVolume): string =>
  `for volume "${v.pvName}" (UniqueName: "${v.uniqueName}") pod "${p.podName}" (UID: "${uid}")`;
const detailDevice = (w: Work, v: VolumeSpec): string =>
  `for volume "${v.pvName}" (UniqueName: "${v.uniqueName}") on node "${w.c.input.nodeName}"`;
/** MountedVolume.GenerateMsgDetailed: the pod's volume name (OuterVolumeSpecName), not the PV's (operation_executor.go) */
const detailUnmount = (w: Work, op: InflightOperation, v: VolumeSpec): string =>
  `for volume "${podOf(w, op)?.outerName ?? v.pvName}" (UniqueName: "${v.uniqueName}") pod "${op.podUid}" (UID: "${op.podUid}")`;
/** The arguments of the lines that end a pod's unmount or unmap (TearDown / UnmapVolume succeeded: MountedVolume's fields). */
const unmountedArgs = (w: Work, op: InflightOperation) => {
  const v = volumeOf(w, op)!;
  return { volume: v.pvName, uniqueName: v.uniqueName, podUid: op.podUid, outerName: w.c.asw[op.uniqueName]?.pods[op.podUid]?.outerName ?? '' };
};
/** The arguments of the lines that end an UnmountDevice or UnmapDevice (AttachedVolume's fields). */
const detachedDeviceArgs = (w: Work, op: InflightOperation) => {
  const a = w.c.asw[op.uniqueName]!;
  return { volume: a.pvName, uniqueName: a.uniqueName, node: w.c.input.nodeName };
};

/** The volume an operation acts on: as desired, or as attached once the desired state let go of it. */
const volumeOf = (w: Work, op: InflightOperation): VolumeSpec | undefined => w.c.dsw[op.uniqueName] ?? w.c.asw[op.uniqueName];
/** The pod's use of the volume: as desired, as mounted, or as the operation started (an uncertain mount outlives the pod's DSW entry). */
const podOf = (w: Work, op: InflightOperation): PodVolume | undefined =>
  w.c.dsw[op.uniqueName]?.pods[op.podUid] ?? w.c.asw[op.uniqueName]?.pods[op.podUid] ?? op.pod;
const stagingPathOf = (w: Work, op: InflightOperation): string => w.c.asw[op.uniqueName]!.deviceMountPath;

const skipped = (params: unknown): boolean => (params as { skipped?: boolean } | undefined)?.skipped === true;

const notRegistered = (driver: string): string => `driver name ${driver} not found in the list of registered CSI drivers`;

/**
 * Why a node expansion failed, as the CSI expander and operation_generator word it (v1.20.4
 * csi/expander.go:82-84, :133; operation_generator.go nodeExpandVolume). The text for a driver that is
 * not registered is inferred from the other CSI steps' (not read).
 */
function expansionErrorText(v: VolumeSpec, error: FailReason, event: OperationEvent | undefined, rpcErr: string): string {
  const message = event && 'message' in event ? event.message : '';
  switch (error) {
    case 'getPVCFailed': return `mountVolume.NodeExpandVolume get PVC failed : ${message}`;
    case 'patchPVCFailed': return `mountVolume.NodeExpandVolume update PVC status failed : ${message}`;
    case 'expandNotSupported': return `Expander.NodeExpand found CSI plugin kubernetes.io/csi/${v.driver} to not support node expansion`;
    case 'driverNotFound': return `Expander.NodeExpand failed to get CSI client: ${notRegistered(v.driver)}`;
    // expander.go nodeExpandWithClient (v1.30.1 :85-91), around getCredentialsFromSecret's error (csi_util.go)
    case 'getNodeExpandSecretFailed': {
      const ref = v.nodeExpandSecretRef!;
      return `expander.NodeExpand failed to get NodeExpandSecretRef ${ref.namespace}/${ref.name}: kubernetes.io/csi: failed to find the secret ${ref.name} in the namespace ${ref.namespace} with error: ${message}`;
    }
    default: return `Expander.NodeExpand failed to expand the volume : ${rpcErr}`;
  }
}
const EXPANSION_ERRORS: ReadonlySet<FailReason> = new Set(['getPVCFailed', 'expandNotSupported', 'expandRpc', 'patchPVCFailed', 'getNodeExpandSecretFailed']);

/** The error an operation returns, as nestedpendingoperations prints it, and the pod event's message (mount and expansion errors only). */
function operationError(w: Work, op: InflightOperation, params: FailParams, event: OperationEvent | undefined): { err: string; eventMessage?: string; eventReason?: string } {
  const v = volumeOf(w, op)!;
  const p = podOf(w, op);
  const rpcErr = event && 'code' in event ? rpcErrorText(event.code, event.message) : '';
  // a MountVolume whose expansion step failed (GenerateMountVolumeFunc :629 / :684; 1.30 expandVolumeDuringMount)
  if ((params.stage === 'MountDevice' || params.stage === 'SetUp') && EXPANSION_ERRORS.has(params.error)) {
    const what = params.stage === 'MountDevice' ? 'MountVolume.MountDevice failed while expanding volume' : 'MountVolume.Setup failed while expanding volume';
    const tail = expansionErrorText(v, params.error, event, rpcErr);
    return { err: `${what} ${p ? detailMount(v, op.podUid, p) : ''} : ${tail}`, eventMessage: `${what} for volume "${v.pvName}" : ${tail}` };
  }
  switch (params.stage) {
    case 'NodeExpandVolume': {
      const tail = expansionErrorText(v, params.error, event, rpcErr);
      return { err: `NodeExpandVolume.NodeExpandVolume failed ${p ? detailMount(v, op.podUid, p) : ''} : ${tail}`, eventMessage: `NodeExpandVolume.NodeExpandVolume failed for volume "${v.pvName}" : ${tail}`, eventReason: 'VolumeResizeFailed' };
    }
    case 'VerifyControllerAttachedVolume': {
      const d = detailMount(v, op.podUid, p!);
      if (params.error === 'notReportedInUse') return { err: `Volume has not been added to the list of VolumesInUse in the node's volume status ${d} ` };
      if (params.error === 'notAttachedAccordingToNodeStatus') return { err: `Volume not attached according to node status ${d} ` };
      // v1.30.1 operation_generator.go:1528
      if (params.error === 'getPVCFailed') return { err: `VerifyControllerAttachedVolume fetching pvc failed ${d} : ${event && 'message' in event ? event.message : ''}` };
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
      } else if (params.error === 'stageUnstageCheck') {
        // MountDevice returns NodeSupportsStageUnstage's error as it is; SetUpAt wraps it (v1.30.1 csi_attacher.go:301-304,
        // csi_mounter.go:184-187; v1.20.5 :263-266, :180-183)
        tail = params.stage === 'SetUp' ? `kubernetes.io/csi: mounter.SetUpAt failed to check for STAGE_UNSTAGE_VOLUME capability: ${rpcErr}` : rpcErr;
      } else if (params.error === 'volumeMountGroupCheck') {
        // 1.30 NodeSupportsVolumeMountGroup (v1.30.1 csi_attacher.go:392-395, csi_mounter.go:246-249)
        tail = `kubernetes.io/csi: ${params.stage === 'SetUp' ? 'mounter.SetUpAt' : 'attacher.MountDevice'} failed to determine if the node service has VOLUME_MOUNT_GROUP capability: ${rpcErr}`;
      } else if (params.error === 'applyFSGroup') {
        // NewUncertainProgressError(fmt.Sprintf("applyFSGroup failed for vol %s: %v", c.volumeID, err)) (v1.30.1 csi_mounter.go:344, v1.20.5 :277)
        tail = `applyFSGroup failed for vol ${v.handle}: ${event && 'error' in event ? event.error : ''}`;
      } else if (params.error === 'getNodeStageSecretFailed') tail = `fetching NodeStageSecretRef ${secretFailure(v, event)}`;
      else if (params.error === 'getNodePublishSecretFailed') tail = `fetching NodePublishSecretRef ${secretFailure(v, event, v.nodePublishSecretRef)}`;
      else if (params.error === 'getVolumeAttachmentFailed') {
        // MountDevice returns the GET's error as it is; SetUpAt says what it was doing (csi_mounter.go:202)
        const message = event && 'message' in event ? event.message : '';
        tail = params.stage === 'SetUp' ? `kubernetes.io/csi: mounter.SetUpAt failed to fetch publishContext: ${message}` : message;
      }
      return { err: `MountVolume.${params.stage} failed ${p ? detailMount(v, op.podUid, p) : ''} : ${tail}`, eventMessage: `MountVolume.${params.stage} failed for volume "${v.pvName}" : ${tail}` };
    }
    case 'TearDown': {
      const said = getProfile(w.c.input.profile).kubeletTearDownErrors;
      return params.error === 'driverNotFound'
        ? { err: `UnmountVolume.TearDown failed ${detailUnmount(w, op, v)} : kubernetes.io/csi: ${said.client}: ${notRegistered(v.driver)}` }
        : { err: `UnmountVolume.TearDown failed ${detailUnmount(w, op, v)} : kubernetes.io/csi: ${said.call}: ${rpcErr}` };
    }
    case 'MapVolume.WaitForAttach':
    case 'MapVolume.SetUpDevice':
    case 'MapVolume.MapPodDevice':
    case 'MapVolume.ExpandVolume': {
      // GenerateError: the detailed text for the executor's line, the simple one for the FailedMapVolume Event
      const what = params.stage === 'MapVolume.ExpandVolume' ? 'MapVolume.MarkVolumeAsMounted failed while expanding volume' : `${params.stage} failed`;
      const fn = params.stage === 'MapVolume.MapPodDevice' ? 'MapPodDevice' : 'SetUpDevice';
      let tail = rpcErr;
      if (params.error === 'notAttached') tail = event && 'error' in event ? event.error : '';
      else if (params.error === 'driverNotFound') tail = `kubernetes.io/csi: blockMapper.${fn} failed to get CSI client: ${notRegistered(v.driver)}`;
      else if (params.error === 'stageUnstageCheck') tail = `kubernetes.io/csi: blockMapper.stageVolumeForBlock failed to check STAGE_UNSTAGE_VOLUME capability: ${rpcErr}`;
      else if (params.error === 'getNodeStageSecretFailed') tail = `failed to get NodeStageSecretRef ${secretFailure(v, event).replace(' failed: ', ': ')}`;
      else if (params.error === 'getNodePublishSecretFailed') tail = `kubernetes.io/csi: blockMapper.publishVolumeForBlock failed to get NodePublishSecretRef ${secretFailure(v, event, v.nodePublishSecretRef).replace(' failed: ', ': ')}`;
      else if (params.error === 'getVolumeAttachmentFailed') {
        // csi_block.go spells SetupDevice here with a small u
        tail = `kubernetes.io/csi: blockMapper.${fn === 'SetUpDevice' ? 'SetupDevice' : fn} failed to get volume attachment [id=${volumeAttachmentName(v.handle, v.driver, w.c.input.nodeName)}]: ${event && 'message' in event ? event.message : ''}`;
      } else if (EXPANSION_ERRORS.has(params.error)) tail = expansionErrorText(v, params.error, event, rpcErr);
      return { err: `${what} ${p ? detailMount(v, op.podUid, p) : ''} : ${tail}`, eventMessage: `${what} for volume "${v.pvName}" : ${tail}`, eventReason: 'FailedMapVolume' };
    }
    case 'UnmapVolume.UnmapPodDevice':
      return params.error === 'driverNotFound'
        ? { err: `UnmapVolume.UnmapPodDevice failed ${detailUnmount(w, op, v)} : kubernetes.io/csi: blockMapper.UnmapPodDevice failed to get CSI client: ${notRegistered(v.driver)}` }
        : { err: `UnmapVolume.UnmapPodDevice failed ${detailUnmount(w, op, v)} : kubernetes.io/csi: blockMapper.unpublishVolumeForBlock failed: ${rpcErr}` };
    case 'UnmapDevice.TearDownDevice':
      if (params.error === 'driverNotFound') return { err: `UnmapDevice.TearDownDevice failed ${detailDevice(w, v)} : kubernetes.io/csi: blockMapper.TearDownDevice failed to get CSI client: ${notRegistered(v.driver)}` };
      return params.error === 'stageUnstageCheck'
        ? { err: `UnmapDevice.TearDownDevice failed ${detailDevice(w, v)} : kubernetes.io/csi: blockMapper.unstageVolumeForBlock failed to check STAGE_UNSTAGE_VOLUME capability: ${rpcErr}` }
        : { err: `UnmapDevice.TearDownDevice failed ${detailDevice(w, v)} : kubernetes.io/csi: blockMapper.unstageVolumeForBlock failed: ${rpcErr}` };
    case 'UnmountDevice':
      // csi_attacher.go UnmountDevice (v1.30.1 :616, :627, :645; v1.20.5 :514, :524, :542)
      if (params.error === 'driverNotFound') return { err: `UnmountDevice failed ${detailDevice(w, v)} : kubernetes.io/csi: attacher.UnmountDevice failed to create newCsiDriverClient: ${notRegistered(v.driver)}` };
      return params.error === 'stageUnstageCheck'
        ? { err: `UnmountDevice failed ${detailDevice(w, v)} : kubernetes.io/csi: attacher.UnmountDevice failed to check whether STAGE_UNSTAGE_VOLUME set: ${rpcErr}` }
        : { err: `UnmountDevice failed ${detailDevice(w, v)} : kubernetes.io/csi: attacher.UnmountDevice failed: ${rpcErr}` };
  }
}

// ------------------------------------------------------------------ performing the named steps

type Perform = (w: Work, op: InflightOperation, event: OperationEvent | undefined, params: unknown) => OperationEvent | void;

/** The stage of the volume's life a failed step belongs to: verifying and waiting for the attachment is attach work. */
const STAGE_OF_STEP: Record<FailParams['stage'], Stage> = {
  VerifyControllerAttachedVolume: 'attach', WaitForAttach: 'attach', MountDevice: 'mount', SetUp: 'mount', TearDown: 'unmount', UnmountDevice: 'unmount',
  NodeExpandVolume: 'resize', 'MapVolume.WaitForAttach': 'attach', 'MapVolume.SetUpDevice': 'mount', 'MapVolume.MapPodDevice': 'mount',
  'MapVolume.ExpandVolume': 'mount', 'UnmapVolume.UnmapPodDevice': 'unmount', 'UnmapDevice.TearDownDevice': 'unmount',
};

const track = (w: Work, requestId: string, op: InflightOperation, awaiting?: InflightOperation['awaiting']): void => {
  own(w, 'inflight')[requestId] = awaiting ? { ...op, awaiting } : op;
};
/**
 * The stage of the volume's life an operation's work is: the kubelet's verification that the controller attached the
 * volume is attach work (as its lines are), a mount's or a map's is the mount's, an unmount's the unmount's.
 */
const STAGE_OF_OPERATION: Record<OperationKind, Stage> = {
  verify: 'attach', mount: 'mount', map: 'mount', unmount: 'unmount', unmountDevice: 'unmount', unmap: 'unmount', unmapDevice: 'unmount', expand: 'resize',
};
/** A CSI call of an operation: its step shows the operation's stage where the RPC has none of its own (NodeGetCapabilities). */
const nodeCall = (w: Work, op: InflightOperation, rpc: Parameters<typeof csi>[1], request: Record<string, unknown>, summary?: string): void =>
  track(w, csi(w, rpc, request, 'node', CSI_TIMEOUT, summary, STAGE_OF_OPERATION[op.kind]), op);

/** A mount operation's own record: the pod's fsGroup and its change policy among it. */
const mountContext = (op: InflightOperation): MountContext => op.machine.context as unknown as MountContext;
/** The pod's directory of the operation's volume (csi_mounter.go GetPath): NodePublishVolume's target and SetVolumeOwnership's walk. */
const podVolumeDir = (w: Work, op: InflightOperation): string => podVolumePath(w.c.input.kubeletRoot, op.podUid, volumeOf(w, op)!.pvName);
/** The kubelet's own work on the pod's volume directory (a host.call), awaited by the operation. */
function hostCall(w: Work, op: InflightOperation, what: 'SetVolumeOwnership' | 'StatVolumeRoot', requestId = nextId(w)): void {
  const path = podVolumeDir(w, op);
  const fsGroup = mountContext(op).fsGroup!;
  const node = w.c.input.nodeName;
  const group = String(fsGroup);
  const summary = what === 'SetVolumeOwnership' ? summarize(summaries, 'kubelet.setVolumeOwnership', { node, dir: path, fsGroup: group })
    : summarize(summaries, 'kubelet.statVolumeRoot', { node, dir: path, fsGroup: group });
  w.out.push({ type: 'host.call', requestId, op: what, path, volume: op.uniqueName, fsGroup, summary, stage: STAGE_OF_OPERATION[op.kind] });
  track(w, requestId, op, what === 'SetVolumeOwnership' ? 'setVolumeOwnership' : 'statVolumeRoot');
}

/** The attached volume the kubelet's actual state of world records, as the CSI attacher's mount path names it. */
export function deviceMountPathOf(w: Work, v: VolumeSpec): string {
  // a raw block volume is "globally mounted" at its global map path (MarkDeviceAsMounted(…, globalMapPath))
  if (v.block) return blockGlobalMapPath(w.c.input.kubeletRoot, v.pvName);
  return deviceMountPath(w.c.input.kubeletRoot, getProfile(w.c.input.profile).stagingPathStyle, v.pvName, v.driver, v.handle);
}

/** The volume path of a NodeExpandVolume: the staging path right after MountDevice (1.20), else the pod's publish path. */
const expandPaths = (w: Work, op: InflightOperation, params: unknown): { volumePath: string; stagingPath: string | undefined } => {
  const v = volumeOf(w, op)!;
  const staging = w.c.asw[op.uniqueName]?.deviceMountPath || undefined;
  const staged = (params as { phase?: string } | undefined)?.phase === 'staged';
  return { volumePath: staged ? staging ?? '' : podVolumePath(w.c.input.kubeletRoot, op.podUid, v.pvName), stagingPath: staging };
};
/** The volume as a node call's request names it: 1.30 maps its access mode by the capability answer the operation recorded. */
function requestVolume(w: Work, op: InflightOperation): VolumeSpec {
  const v = volumeOf(w, op)!;
  const c = op.machine.context as unknown as ExpansionContext;
  return c.mapsAccessMode ? mapAccessMode(v, c.singleNodeMultiWriter === true) : v;
}
const expansionSize = (op: InflightOperation): number => (op.machine.context as unknown as ExpansionContext).newSize;
/** GenerateMsg's suffix for "MountVolume.NodeExpandVolume succeeded": nothing in 1.20, the node's name in 1.30. */
const expandSuffix = (w: Work): string => (getProfile(w.c.input.profile).kubeletExpandMessageNamesNode ? w.c.input.nodeName : '');

const PERFORM: Record<string, Perform> = {
  getNode: (w, op) => track(w, api(w, { verb: 'get', kind: 'Node', name: w.c.input.nodeName }), op, 'getNode'),
  /** nodeExpandVolume / expandVolumeDuringMount: GET the claim named by the PV's claimRef */
  getPVC: (w, op) => {
    const ref = volumeOf(w, op)!.claimRef;
    if (!ref) return { type: 'api.getPVC.failed', message: 'the PersistentVolume has no claimRef' };
    track(w, api(w, { verb: 'get', kind: 'PersistentVolumeClaim', namespace: ref.namespace, name: ref.name }), op, 'getPVC');
  },
  nodeExpandVolume: (w, op, _event, params) => {
    const { volumePath, stagingPath } = expandPaths(w, op, params);
    nodeCall(w, op, 'NodeExpandVolume', nodeExpandVolumeRequest(requestVolume(w, op), volumePath, stagingPath, expansionSize(op), op.expandSecrets));
  },
  getNodeExpandSecret: (w, op) => {
    const ref = volumeOf(w, op)!.nodeExpandSecretRef!;
    track(w, api(w, { verb: 'get', kind: 'Secret', namespace: ref.namespace, name: ref.name }), op, 'getNodeExpandSecret');
  },
  /** the Normal FileSystemResizeSuccessful event, on the pod and on the claim, with the simple message */
  recordFileSystemResizeSuccessful: (w, op) => {
    const v = volumeOf(w, op)!;
    const message = `MountVolume.NodeExpandVolume succeeded for volume "${v.pvName}" ${expandSuffix(w)}`;
    const pod = w.c.pods[op.podUid];
    if (pod) recordPodEvent(w, pod, 'Normal', 'FileSystemResizeSuccessful', message);
    if (v.claimRef) w.out.push({ type: 'event.recorded', involved: { kind: 'PersistentVolumeClaim', namespace: v.claimRef.namespace, name: v.claimRef.name }, eventType: 'Normal', reason: 'FileSystemResizeSuccessful', message });
  },
  logNodeExpandVolumeSucceeded: (w, op) => {
    const p = podOf(w, op);
    if (p) log(w, 'kubelet.nodeExpandVolumeSucceeded', { ...mountArgs(w, volumeOf(w, op)!, op.podUid, p), suffix: expandSuffix(w) });
  },
  /** util.MarkFSResizeFinished: the claim's status gets the new capacity and loses its Resizing and FileSystemResizePending conditions */
  markFSResizeFinished: (w, op) => {
    const ref = volumeOf(w, op)!.claimRef!;
    const conditions = ((op.claim?.status?.conditions ?? []) as Array<{ type: string }>).filter((c) => c.type !== 'Resizing' && c.type !== 'FileSystemResizePending');
    track(w, api(w, {
      verb: 'patchStatus', kind: 'PersistentVolumeClaim', namespace: ref.namespace, name: ref.name, stage: 'resize',
      patch: { status: { capacity: { storage: formatBinary(expansionSize(op)) }, conditions: conditions.length ? conditions : null } },
      summary: summarize(summaries, 'kubelet.markFSResizeFinished', { node: w.c.input.nodeName, claim: `${ref.namespace}/${ref.name}`, size: formatBinary(expansionSize(op)) }),
    }), op, 'patchPVC');
  },
  markVolumeAsResized: (w, op) => { markVolumeAsResized(w, op.uniqueName, expansionSize(op)); },
  markVolumeAsAttached: (w, op, event) => {
    const v = w.c.dsw[op.uniqueName]!;
    markVolumeAsAttached(w, v, event?.type === 'api.getNode.succeeded' ? event.devicePath : '', deviceMountPathOf(w, v));
    // 1.30: the claim size the check read goes with it (InitializeClaimSize)
    const claimSize = (op.machine.context as unknown as VerifyContext).claimSize;
    if (op.kind === 'verify' && claimSize !== undefined) initializeClaimSize(w, op.uniqueName, claimSize);
  },
  logControllerAttachSucceeded: (w, op) => {
    const v = w.c.asw[op.uniqueName]!;
    log(w, 'kubelet.controllerAttachSucceeded', { ...mountArgs(w, v, op.podUid, podOf(w, op)!), devicePath: v.devicePath });
  },
  /** params.block: MapVolume's WaitForAttach, with its own lines */
  waitForAttach: (w, op, _event, params) => {
    const v = w.c.dsw[op.uniqueName]!;
    const a = w.c.asw[op.uniqueName]!;
    if (!v.attachable) { op.devicePath = a.devicePath; return { type: 'csiAttacher.waitForAttach.succeeded' }; }
    const block = (params as { block?: boolean } | undefined)?.block === true;
    const args = mountArgs(w, v, op.podUid, podOf(w, op)!);
    log(w, block ? 'kubelet.mapWaitForAttachEntering' : 'kubelet.waitForAttachEntering', { ...args, devicePath: a.devicePath });
    const r = waitForAttach(w, v);
    if ('error' in r) return { type: 'csiAttacher.waitForAttach.failed', error: r.error };
    log(w, block ? 'kubelet.mapWaitForAttachSucceeded' : 'kubelet.waitForAttachSucceeded', { ...args, devicePath: r.devicePath });
    op.devicePath = r.devicePath;
    return { type: 'csiAttacher.waitForAttach.succeeded' };
  },
  setDevicePath: (w, op, event) => {
    if (event?.type === 'csiAttacher.waitForAttach.succeeded') setDevicePath(w, op.uniqueName, op.devicePath ?? '');
    // a raw block volume: MapPodDevice's publish path is the device path from now on
    else if (event?.type === 'csi.nodePublishVolume.succeeded') setDevicePath(w, op.uniqueName, blockPublishPath(w.c.input.kubeletRoot, volumeOf(w, op)!.pvName, op.podUid));
  },
  newCsiDriverClient: (w, op) => (w.c.registered[volumeOf(w, op)!.driver] ? { type: 'csi.driverClient.created' } : { type: 'csi.driverClient.failed' }),
  nodeGetCapabilities: (w, op) => nodeCall(w, op, 'NodeGetCapabilities', {}),
  getNodeStageSecret: (w, op) => {
    const ref = volumeOf(w, op)!.nodeStageSecretRef!;
    track(w, api(w, { verb: 'get', kind: 'Secret', namespace: ref.namespace, name: ref.name }), op, 'getNodeStageSecret');
  },
  getNodePublishSecret: (w, op) => {
    const ref = volumeOf(w, op)!.nodePublishSecretRef!;
    track(w, api(w, { verb: 'get', kind: 'Secret', namespace: ref.namespace, name: ref.name }), op, 'getNodePublishSecret');
  },
  nodeStageVolume: (w, op) => nodeCall(w, op, 'NodeStageVolume', nodeStageVolumeRequest(w, requestVolume(w, op), stagingPathOf(w, op), op.publishContext, op.secrets)),
  nodePublishVolume: (w, op) => {
    const stage = (op.machine.context as unknown as MountContext).stageUnstage;
    nodeCall(w, op, 'NodePublishVolume', nodePublishVolumeRequest(w, requestVolume(w, op), op.podUid, stage ? stagingPathOf(w, op) : undefined, op.publishContext, op.publishSecrets));
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
    // (csi_attacher.MountDevice says why it staged nothing, before the operation's line)
    if (skipped(params)) log(w, 'kubelet.csiMountDeviceSkipped', {});
    if (p) log(w, 'kubelet.mountDeviceSucceeded', { ...mountArgs(w, volumeOf(w, op)!, op.podUid, p), deviceMountPath: stagingPathOf(w, op) }, undefined, skipped(params) ? 'notStaged' : 'staged');
  },
  /** markDeviceErrorState: only a device not mounted turns uncertain; an uncertain one whose MountDevice failed for good is unmounted. */
  markDeviceErrorState: (w, op, event, params) => {
    const kind = errorKind(event, params);
    if (!kind) return;
    const state = getDeviceMountState(w, op.uniqueName);
    if (kind === 'finished') {
      if (state !== 'DeviceMountUncertain') return;
      // 1.30: a device a restarted kubelet found may still be mounted: it stays uncertain, so that UnmountDevice cleans
      // it up if no pod wants it (v1.30.1 operation_generator.go:784-787)
      if (isVolumeDeviceReconstructed(w, op.uniqueName)) log(w, 'kubelet.markDeviceErrorStateLeavingUncertain', { uniqueName: op.uniqueName });
      else markDeviceAsUnmounted(w, op.uniqueName);
    } else if (state === 'DeviceNotMounted') markDeviceAsUncertain(w, op.uniqueName);
  },
  markVolumeAsMounted: (w, op) => { const p = podOf(w, op); if (p) markVolumeAsMounted(w, op.uniqueName, op.podUid, p); },
  /**
   * SetVolumeOwnership (pkg/volume/volume_linux.go): a timer for its 30-s warning, skipPermissionChange's line (the pod's
   * fsGroupChangePolicy is Always, the default), then the walk over the pod's volume directory, on the node.
   */
  setVolumeOwnership: (w, op) => {
    const requestId = nextId(w);
    timer(w, `${OWNERSHIP_TIMER}${requestId}`, w.now + SET_VOLUME_OWNERSHIP_WARNING);
    // (with OnRootMismatch the top directory's line was printed instead: logVolumeRootMismatch)
    if (!mountContext(op).onRootMismatch) log(w, 'kubelet.recursiveOwnershipChange', { dir: podVolumeDir(w, op) });
    hostCall(w, op, 'SetVolumeOwnership', requestId);
  },
  statVolumeRoot: (w, op) => { hostCall(w, op, 'StatVolumeRoot'); },
  logSkipPermissionChange: (w, op) => log(w, 'kubelet.skipPermissionChange', { dir: podVolumeDir(w, op) }),
  logVolumeRootMismatch: (w, op, event) => {
    if (event?.type !== 'host.statVolumeRoot.succeeded') return;
    const dir = podVolumeDir(w, op);
    if (event.rootGid !== mountContext(op).fsGroup) log(w, 'kubelet.volumeRootGidMismatch', { dir, gid: String(event.rootGid) });
    else log(w, 'kubelet.volumeRootModeMismatch', { dir });
  },
  logVolumeRootStatFailed: (w, op, event) => {
    if (event?.type === 'host.statVolumeRoot.failed') log(w, 'kubelet.volumeRootStatFailed', { dir: podVolumeDir(w, op), err: event.error });
  },
  logFSGroupApplied: (w, op) => log(w, 'kubelet.fsGroupApplied', { fsGroup: String(mountContext(op).fsGroup), handle: volumeOf(w, op)!.handle }),
  logSetUpSucceeded: (w, op) => {
    const p = podOf(w, op);
    if (p) log(w, 'kubelet.setUpSucceeded', mountArgs(w, volumeOf(w, op)!, op.podUid, p), undefined, mountContext(op).fsGroup !== undefined ? 'fsGroup' : undefined);
  },
  /** markVolumeErrorState: only a pod mount not made turns uncertain; an uncertain one whose SetUp failed for good is unmounted. */
  markVolumeErrorState: (w, op, event, params) => {
    const kind = errorKind(event, params);
    if (!kind) return;
    const p = podOf(w, op);
    const state = getVolumeMountState(w, op.uniqueName, op.podUid);
    if (kind === 'finished') {
      if (state !== 'VolumeMountUncertain') return;
      // 1.30: a pod's mount a restarted kubelet found stays uncertain, to be torn down if the pod goes (:814-817)
      if (isVolumeReconstructed(w, op.uniqueName, op.podUid)) log(w, 'kubelet.markVolumeErrorStateLeavingUncertain', { uniqueName: op.uniqueName });
      else markVolumeAsUnmounted(w, op.uniqueName, op.podUid);
    } else if (state === 'VolumeNotMounted' && p) markVolumeMountAsUncertain(w, op.uniqueName, op.podUid, p);
  },
  logTearDownSucceeded: (w, op) => log(w, 'kubelet.tearDownSucceeded', unmountedArgs(w, op)),
  markVolumeAsUnmounted: (w, op) => { markVolumeAsUnmounted(w, op.uniqueName, op.podUid); },
  markDeviceAsUnmounted: (w, op) => { markDeviceAsUnmounted(w, op.uniqueName); },
  logUnmountDeviceSucceeded: (w, op, _event, params) => {
    if (skipped(params)) log(w, 'kubelet.csiUnmountDeviceSkipped', {});
    log(w, 'kubelet.unmountDeviceSucceeded', detachedDeviceArgs(w, op), undefined, skipped(params) ? 'notStaged' : 'staged');
  },
  // ---- raw block volumes (csi_block.go)
  getVolumeAttachment: (w, op) => {
    const v = volumeOf(w, op)!;
    if (!v.attachable) return { type: 'api.getVolumeAttachment.succeeded' };
    track(w, api(w, { verb: 'get', kind: 'VolumeAttachment', name: volumeAttachmentName(v.handle, v.driver, w.c.input.nodeName) }), op, 'getVolumeAttachment');
  },
  nodeStageVolumeForBlock: (w, op) => nodeCall(w, op, 'NodeStageVolume', nodeStageVolumeForBlockRequest(w, requestVolume(w, op), op.publishContext, op.secrets)),
  nodePublishVolumeForBlock: (w, op) => nodeCall(w, op, 'NodePublishVolume', nodePublishVolumeForBlockRequest(w, requestVolume(w, op), op.podUid, op.publishContext, op.publishSecrets)),
  nodeUnpublishVolumeForBlock: (w, op) => {
    const v = volumeOf(w, op)!;
    nodeCall(w, op, 'NodeUnpublishVolume', nodeUnpublishVolumeForBlockRequest(w, v, op.podUid),
      summarize(summaries, 'kubelet.nodeUnpublishVolumeForBlock', { pvName: v.pvName, pod: podOf(w, op)?.podName ?? op.podUid }));
  },
  nodeUnstageVolumeForBlock: (w, op) => nodeCall(w, op, 'NodeUnstageVolume', nodeUnstageVolumeForBlockRequest(w, volumeOf(w, op)!)),
  /** MapBlockVolume: the device linked at the global map path and into the pod; the two "MapPodDevice succeeded" lines and Events */
  mapBlockVolume: (w, op) => {
    const v = volumeOf(w, op)!;
    const p = podOf(w, op);
    if (!p) return;
    const root = w.c.input.kubeletRoot;
    const globalMapPath = blockGlobalMapPath(root, v.pvName), volumeMapPath = podVolumeDeviceDir(root, op.podUid);
    const args = mountArgs(w, v, op.podUid, p);
    const pod = w.c.pods[op.podUid];
    const event = (message: string): void => { if (pod) recordPodEvent(w, pod, 'Normal', 'SuccessfulMountVolume', message); };
    event(`MapVolume.MapPodDevice succeeded for volume "${v.pvName}" globalMapPath "${globalMapPath}"`);
    log(w, 'kubelet.mapPodDeviceGlobalSucceeded', { ...args, globalMapPath });
    event(`MapVolume.MapPodDevice succeeded for volume "${v.pvName}" volumeMapPath "${volumeMapPath}"`);
    log(w, 'kubelet.mapPodDeviceSucceeded', { ...args, volumeMapPath });
  },
  unmapBlockVolume: () => {},
  markDeviceAsUncertain: (w, op) => { if ((op.machine.context as unknown as UnmapContext).marksUncertain) markDeviceAsUncertain(w, op.uniqueName); },
  markVolumeMountAsUncertain: (w, op) => {
    const p = podOf(w, op);
    if (p && (op.machine.context as unknown as UnmapContext).marksUncertain) markVolumeMountAsUncertain(w, op.uniqueName, op.podUid, p);
  },
  logUnmapVolumeSucceeded: (w, op) => log(w, 'kubelet.unmapVolumeSucceeded', unmountedArgs(w, op)),
  logUnmapDeviceSucceeded: (w, op) => log(w, 'kubelet.unmapDeviceSucceeded', detachedDeviceArgs(w, op)),
  operationSucceeded: (w, op) => operationCompleted(w, op.key),
  operationFailed: (w, op, event, params) => {
    const p = params as FailParams;
    const { err, eventMessage, eventReason } = operationError(w, op, p, event);
    const tail = (): string => expansionErrorText(volumeOf(w, op)!, p.error, event, event && 'code' in event ? rpcErrorText(event.code, event.message) : '');
    const pv = podOf(w, op);
    // doOnlineExpansion's klog.Errorf, before the executor's line
    if (p.stage === 'NodeExpandVolume' && pv) log(w, 'kubelet.nodeExpandVolumeFailed', { ...mountArgs(w, volumeOf(w, op)!, op.podUid, pv), err: tail() });
    else if ((p.stage === 'MountDevice' || p.stage === 'SetUp') && EXPANSION_ERRORS.has(p.error)) {
      log(w, p.stage === 'MountDevice' ? 'kubelet.mountNodeExpandFailed' : 'kubelet.setUpNodeExpandFailed', { err: tail() });
      // 1.30: the pod's volume is published but not grown: mark its mount uncertain, so that it is
      // unmounted if the pod goes, or mounted again (GenerateMountVolumeFunc after expandVolumeDuringMount).
      // 1.20 marks nothing after SetUp, and after MountDevice the device uncertain, which this actual
      // state of world does not allow for a mounted device: left out.
      if (p.stage === 'SetUp' && pv && getProfile(w.c.input.profile).kubeletMountExpands === 'afterSetUp' && getVolumeMountState(w, op.uniqueName, op.podUid) === 'VolumeNotMounted') {
        markVolumeMountAsUncertain(w, op.uniqueName, op.podUid, pv);
      }
    }
    operationFailed(w, op, err, STAGE_OF_STEP[p.stage], eventMessage, eventReason);
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

/**
 * An answer for a running operation arrived: the operation, a fresh copy for this context, takes it as a fact. What an
 * object read holds for the steps after it (`object`: the claim, a Secret's keys, the VolumeAttachment's publish context)
 * goes to the operation's record.
 */
export function deliver(w: Work, requestId: string, fact: OperationEvent, object?: K8sObject): boolean {
  const op = w.c.inflight[requestId];
  if (!op) return false;
  delete own(w, 'inflight')[requestId];
  const gone = op.kind === 'verify' ? !w.c.dsw[op.uniqueName]?.pods[op.podUid] : !w.c.asw[op.uniqueName] || !volumeOf(w, op);
  if (gone) { operationAbandoned(w, op.key); return true; }
  // advance replaces op.machine, never changes it; the claim a NodeExpandVolume read is kept for MarkFSResizeFinished
  const { awaiting: _answered, ...rest } = op;
  advance(w, fact.type === 'api.getPVC.succeeded' && object ? { ...rest, claim: object }
    : fact.type === 'api.getNodeStageSecret.succeeded' && object ? { ...rest, secrets: secretCredentials(object) }
      : fact.type === 'api.getNodePublishSecret.succeeded' && object ? { ...rest, publishSecrets: secretCredentials(object) }
      : fact.type === 'api.getNodeExpandSecret.succeeded' && object ? { ...rest, expandSecrets: secretCredentials(object) }
      : fact.type === 'api.getVolumeAttachment.succeeded' ? withPublishContext(rest, object) : rest, fact);
  return true;
}

/** getPublishContext's answer: the VolumeAttachment's status.attachmentMetadata, which NodeStageVolume and NodePublishVolume send. */
function withPublishContext(op: InflightOperation, va: K8sObject | undefined): InflightOperation {
  const m = va?.status?.attachmentMetadata as Record<string, string> | undefined;
  const { publishContext: _old, ...rest } = op;
  return m && Object.keys(m).length ? { ...rest, publishContext: m } : rest;
}

/** An API answer: the operation that waits for it takes it as the fact its request stands for. */
export function deliverApiResult(w: Work, requestId: string, ok: boolean, object: K8sObject | undefined, message: string | undefined): boolean {
  const op = w.c.inflight[requestId];
  return !!op && deliver(w, requestId, apiFact(op.awaiting, ok, object, message, op.uniqueName), ok ? object : undefined);
}
