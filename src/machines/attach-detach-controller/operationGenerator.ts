/**
 * The attach and detach operations of the attach/detach controller, one state machine each, with the
 * steps upstream's generated functions and the CSI attacher take:
 * - AttachVolume: the VolumeAttachment is created unless it exists, then the wait for status.attached
 *   (or attachError) within csiTimeout;
 * - DetachVolume: verifyVolumeIsSafeToDetach (a fresh GET of the Node: not in status.volumesInUse),
 *   then the VolumeAttachment is deleted and the wait for it to go (or for detachError).
 * upstream: pkg/volume/util/operationexecutor/operation_generator.go (GenerateAttachVolumeFunc,
 * GenerateDetachVolumeFunc, verifyVolumeIsSafeToDetach), pkg/volume/csi/csi_attacher.go (Attach,
 * waitForVolumeAttachmentInternal, Detach, waitForVolumeDetachmentInternal), v1.20 and v1.30.
 *
 * The machines only decide; operations.ts performs the steps they name on the controller's context
 * and answers the looks at the informer's VolumeAttachment with facts at once.
 */
import { setup } from 'xstate';
import { namedActions } from '../shared/machineParts.ts';

export interface AttachDetachOperationContext {
  /** the unique volume name (kubernetes.io/csi/<driver>^<handle>) */
  volumeName: string;
  /** DetachVolume: verifySafeToDetach (false for a forced detach after maxWaitForUnmountDuration) */
  verifySafeToDetach: boolean;
}

export type AttachDetachOperationEvent =
  // the looks at the VolumeAttachment in the informer's cache
  | { type: 'volumeAttachment.found' } | { type: 'volumeAttachment.notFound' }
  | { type: 'volumeAttachment.attached' } | { type: 'volumeAttachment.attachError'; message: string }
  | { type: 'volumeAttachment.beingDeleted' } | { type: 'volumeAttachment.deleted' } | { type: 'volumeAttachment.detachError'; message: string }
  // answers of the API server
  | { type: 'api.createVolumeAttachment.succeeded' } | { type: 'api.createVolumeAttachment.failed'; code: number; message?: string }
  /** whether the fresh Node's status.volumesInUse lists the volume */
  | { type: 'api.getNode.succeeded'; inUse: boolean } | { type: 'api.getNode.failed'; code: number; message?: string }
  | { type: 'api.deleteVolumeAttachment.succeeded' } | { type: 'api.deleteVolumeAttachment.failed'; code: number; message?: string }
  // csiTimeout passed
  | { type: 'operation.timedOut' };

/** The actions the machines name; operations.ts performs them. */
export const OPERATION_ACTIONS = [
  'lookUpVolumeAttachment', 'createVolumeAttachment', 'waitForVolumeAttachment', 'getNode', 'logVerifiedSafeToDetach',
  'logNodeNotFound', 'deleteVolumeAttachment', 'waitForVolumeAttachmentDeletion', 'operationSucceeded', 'operationFailed',
] as const;
export type OperationAction = (typeof OPERATION_ACTIONS)[number];

const named = namedActions(OPERATION_ACTIONS);

export const attachVolumeMachine = setup({
  types: { context: {} as AttachDetachOperationContext, events: {} as AttachDetachOperationEvent, input: {} as Partial<AttachDetachOperationContext> },
  actions: named,
  guards: {
    /** "already exists (will not be recreated)": an AlreadyExists answer is fine */
    isAlreadyExists: ({ event }) => event.type === 'api.createVolumeAttachment.failed' && event.code === 409,
  },
}).createMachine({
  id: 'attachVolume',
  context: ({ input }) => ({ volumeName: input?.volumeName ?? '', verifySafeToDetach: false }),
  initial: 'lookingUpVolumeAttachment',
  states: {
    lookingUpVolumeAttachment: {
      description: 'csi_attacher.Attach: a VolumeAttachment of that name (a restarted controller, an earlier attempt) is not created again.',
      entry: 'lookUpVolumeAttachment',
      on: { 'volumeAttachment.found': 'waitingForAttach', 'volumeAttachment.notFound': 'creatingVolumeAttachment' },
    },
    creatingVolumeAttachment: {
      description: 'Create the VolumeAttachment: the external-attacher of the driver acts on it.',
      entry: 'createVolumeAttachment',
      on: {
        'api.createVolumeAttachment.succeeded': 'waitingForAttach',
        'api.createVolumeAttachment.failed': [
          { guard: 'isAlreadyExists', target: 'waitingForAttach' },
          { target: 'failed', actions: 'operationFailed' },
        ],
        // the operation's csiTimeout also runs while its request is slow
        'operation.timedOut': { target: 'failed', actions: 'operationFailed' },
      },
    },
    waitingForAttach: {
      description: 'waitForVolumeAttachment: status.attached, or status.attachError, within csiTimeout (2m). 1.20 watches the object; 1.30 polls the lister with backoff.',
      entry: 'waitForVolumeAttachment',
      on: {
        'volumeAttachment.attached': { target: 'succeeded', actions: 'operationSucceeded' },
        'volumeAttachment.attachError': { target: 'failed', actions: 'operationFailed' },
        'volumeAttachment.beingDeleted': { target: 'failed', actions: 'operationFailed' },
        'operation.timedOut': { target: 'failed', actions: 'operationFailed' },
      },
    },
    succeeded: { description: 'MarkVolumeAsAttached; SuccessfulAttachVolume on each pod.', type: 'final' },
    failed: { description: 'MarkVolumeAsUncertain; FailedAttachVolume on each pod; exponential backoff.', type: 'final' },
  },
});

export const detachVolumeMachine = setup({
  types: { context: {} as AttachDetachOperationContext, events: {} as AttachDetachOperationEvent, input: {} as Partial<AttachDetachOperationContext> },
  actions: named,
  guards: {
    isVerifySafeToDetach: ({ context }) => context.verifySafeToDetach,
    /** "volume is still in use by node, according to Node status" */
    isVolumeInUse: ({ event }) => event.type === 'api.getNode.succeeded' && event.inUse,
    isNodeNotFound: ({ event }) => event.type === 'api.getNode.failed' && event.code === 404,
    /** volumeattachment already gone: NotFound on delete is success */
    isVolumeAttachmentNotFound: ({ event }) => event.type === 'api.deleteVolumeAttachment.failed' && event.code === 404,
  },
}).createMachine({
  id: 'detachVolume',
  context: ({ input }) => ({ volumeName: input?.volumeName ?? '', verifySafeToDetach: input?.verifySafeToDetach ?? true }),
  initial: 'checkingSafeToDetach',
  states: {
    checkingSafeToDetach: {
      description: 'A forced detach (maxWaitForUnmountDuration passed) skips verifyVolumeIsSafeToDetach.',
      always: [{ guard: 'isVerifySafeToDetach', target: 'fetchingNode' }, { target: 'deletingVolumeAttachment' }],
    },
    fetchingNode: {
      description: 'verifyVolumeIsSafeToDetach: GET the Node; the volume must not be in status.volumesInUse.',
      entry: 'getNode',
      on: {
        'api.getNode.succeeded': [
          { guard: 'isVolumeInUse', target: 'failed', actions: 'operationFailed' },
          { target: 'deletingVolumeAttachment', actions: 'logVerifiedSafeToDetach' },
        ],
        'api.getNode.failed': [
          // "Node not found on API server. DetachVolume will skip safe to detach check"
          { guard: 'isNodeNotFound', target: 'deletingVolumeAttachment', actions: 'logNodeNotFound' },
          { target: 'failed', actions: 'operationFailed' },
        ],
        'operation.timedOut': { target: 'failed', actions: 'operationFailed' },
      },
    },
    deletingVolumeAttachment: {
      description: 'Delete the VolumeAttachment: the external-attacher detaches, then removes its finalizer.',
      entry: 'deleteVolumeAttachment',
      on: {
        'api.deleteVolumeAttachment.succeeded': 'waitingForDetach',
        'api.deleteVolumeAttachment.failed': [
          { guard: 'isVolumeAttachmentNotFound', target: 'succeeded', actions: 'operationSucceeded' },
          { target: 'failed', actions: 'operationFailed' },
        ],
        'operation.timedOut': { target: 'failed', actions: 'operationFailed' },
      },
    },
    waitingForDetach: {
      description: 'waitForVolumeDetachment: the VolumeAttachment goes, or status.detachError, within csiTimeout (2m).',
      entry: 'waitForVolumeAttachmentDeletion',
      on: {
        'volumeAttachment.deleted': { target: 'succeeded', actions: 'operationSucceeded' },
        'volumeAttachment.detachError': { target: 'failed', actions: 'operationFailed' },
        'operation.timedOut': { target: 'failed', actions: 'operationFailed' },
      },
    },
    succeeded: { description: 'MarkVolumeAsDetached.', type: 'final' },
    failed: { description: '1.20: the volume goes back in the list to report as attached; 1.29+: MarkVolumeAsUncertain (kubernetes#120595); exponential backoff.', type: 'final' },
  },
});
