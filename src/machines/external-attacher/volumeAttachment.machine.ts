/**
 * The lifecycle of one VolumeAttachment as csi-attacher drives it: what the attacher does next is
 * the state of its VolumeAttachment. Attaching and Detaching hold the steps of csiHandler.syncAttach /
 * syncDetach in upstream's order, each waiting for the write or the CSI call it started.
 * upstream: kubernetes-csi/external-attacher pkg/controller/csi_handler.go (syncAttach -> csiAttach:
 * addPVFinalizer, VA finalizer + node-id annotation in one patch, ControllerPublishVolume,
 * markAsAttached, saveAttachError; syncDetach -> csiDetach: ControllerUnpublishVolume, markAsDetached
 * and the finalizer, saveDetachError) and trivial_handler.go, at v3.1.0 and v4.6.1; v4.9+ removes the
 * VA finalizer before clearing the status (the profile's attacherRemovesFinalizerFirst).
 * Upstream has no state enum for it: the names follow its log lines and functions.
 *
 * The machine only decides. The attacher (sync.ts) performs the actions it names and answers the
 * checks that need its caches (PV, CSINode, the VA's finalizers) with an event at once. The attacher
 * keeps one snapshot per VolumeAttachment and advances it with the pure `transition()`.
 */
import { setup } from 'xstate';
import { namedActions } from '../shared/machineParts.ts';

export interface VaLifecycleContext {
  /** v4.9+: the VA finalizer is removed before status.attached is cleared */
  finalizerFirst: boolean;
}

/** What the attacher learns: its sync starting, its checks' answers, its writes' and calls' results. */
export type VaLifecycleEvent =
  | { type: 'csiHandler.syncAttach' } | { type: 'csiHandler.syncDetach' } | { type: 'trivialHandler.sync' }
  // answers of the checks on the informers' caches
  | { type: 'attach.failed'; err: string } | { type: 'pv.finalizerMissing' } | { type: 'pv.finalizerPresent' }
  | { type: 'va.metadataNeeded' } | { type: 'va.metadataPresent' }
  | { type: 'detach.failed'; err: string } | { type: 'detach.ready' }
  | { type: 'va.alreadyFullyDetached' } | { type: 'va.finalizerRemovalNeeded' } | { type: 'va.statusClearNeeded' } | { type: 'va.fullyDetached' }
  // results of its API writes and CSI calls
  | { type: 'pv.finalizerAdded' } | { type: 'pv.finalizerAddFailed'; message: string }
  | { type: 'va.metadataSaved' } | { type: 'va.metadataSaveFailed'; message: string }
  | { type: 'csi.controllerPublishVolume.succeeded'; response?: Record<string, unknown> } | { type: 'csi.controllerPublishVolume.failed'; err: string }
  | { type: 'va.markedAttached' } | { type: 'va.markAttachedFailed'; message: string }
  | { type: 'va.errorSaved' } | { type: 'va.errorSaveFailed'; message: string }
  | { type: 'csi.controllerUnpublishVolume.succeeded' } | { type: 'csi.controllerUnpublishVolume.failed'; err: string }
  | { type: 'va.markedDetached' } | { type: 'va.markDetachedFailed'; code: number; message: string }
  | { type: 'va.finalizerRemoved' } | { type: 'va.finalizerRemoveFailed'; message: string };

/** The actions the machine names; sync.ts performs them. */
export const VA_ACTIONS = [
  'checkPV', 'addPVFinalizer', 'logPVFinalizerAdded', 'prepareVA', 'saveVAMetadata', 'controllerPublishVolume', 'logAttached',
  'markAsAttached', 'logMarkedAsAttached', 'logFullyAttached', 'logTrivialMarked', 'finishedProcessing', 'forget', 'requeueRateLimited',
  'logTrivialMarkFailed', 'saveAttachError', 'logSavedError', 'logFailedToSaveError', 'failedToAttach', 'failedToMarkAttached',
  'checkDetach', 'controllerUnpublishVolume', 'logDetached', 'checkAfterUnpublish', 'logAlreadyFullyDetached', 'markAsDetached',
  'checkAfterMarkedDetached', 'removeVAFinalizer', 'logFinalizerRemoved', 'logFullyDetached', 'saveDetachError', 'failedToDetach',
] as const;
export type VaAction = (typeof VA_ACTIONS)[number];

const named = namedActions(VA_ACTIONS);

export const volumeAttachmentMachine = setup({
  types: { context: {} as VaLifecycleContext, events: {} as VaLifecycleEvent, input: {} as Partial<VaLifecycleContext> },
  actions: named,
  guards: {
    isFinalizerRemovedFirst: ({ context }) => context.finalizerFirst,
    /** v4.9+: the finalizer is gone, so the API server may have deleted the VA: NotFound is success */
    isGoneAfterFinalizerRemoval: ({ context, event }) => context.finalizerFirst && event.type === 'va.markDetachedFailed' && event.code === 404,
  },
}).createMachine({
  id: 'volumeAttachment',
  initial: 'New',
  context: ({ input }) => ({ finalizerFirst: input?.finalizerFirst ?? false }),
  states: {
    New: {
      description: 'Created by the attach/detach controller; csi-attacher has not acted on it yet.',
      on: {
        'csiHandler.syncAttach': 'Attaching',
        'csiHandler.syncDetach': 'Detaching',
        'trivialHandler.sync': 'TrivialAttaching',
      },
    },
    Attaching: {
      description: '"Attaching": PV finalizer, VA finalizer + node-id annotation, ControllerPublishVolume, status.attached=true.',
      initial: 'checkingPV',
      states: {
        checkingPV: {
          description: 'The VA names a PV that exists and is not being deleted; does it carry the attacher finalizer?',
          entry: 'checkPV',
          on: { 'pv.finalizerMissing': 'addingPVFinalizer', 'pv.finalizerPresent': 'preparingVA', 'attach.failed': 'savingAttachError' },
        },
        addingPVFinalizer: {
          description: 'addPVFinalizer: the PV cannot go while a VolumeAttachment may attach it.',
          entry: 'addPVFinalizer',
          on: {
            'pv.finalizerAdded': { target: 'preparingVA', actions: 'logPVFinalizerAdded' },
            'pv.finalizerAddFailed': 'savingAttachError',
          },
        },
        preparingVA: {
          description: 'Volume capability and the node ID from CSINode; which of the VA finalizer and node-id annotation are missing?',
          entry: 'prepareVA',
          on: { 'va.metadataNeeded': 'savingVAMetadata', 'va.metadataPresent': 'controllerPublishing', 'attach.failed': 'savingAttachError' },
        },
        savingVAMetadata: {
          description: 'One patch adds the VA finalizer and the csi.alpha.kubernetes.io/node-id annotation.',
          entry: 'saveVAMetadata',
          on: { 'va.metadataSaved': 'controllerPublishing', 'va.metadataSaveFailed': 'savingAttachError' },
        },
        controllerPublishing: {
          description: 'ControllerPublishVolume: the storage backend attaches the volume to the node.',
          entry: 'controllerPublishVolume',
          on: {
            'csi.controllerPublishVolume.succeeded': { target: 'markingAttached', actions: 'logAttached' },
            'csi.controllerPublishVolume.failed': 'savingAttachError',
          },
        },
        markingAttached: {
          description: 'markAsAttached: status.attached=true with the publish context as attachmentMetadata.',
          entry: 'markAsAttached',
          on: {
            'va.markedAttached': { target: '#volumeAttachment.Attached', actions: ['logMarkedAsAttached', 'logFullyAttached', 'finishedProcessing'] },
            'va.markAttachedFailed': { target: '#volumeAttachment.AttachFailed', actions: 'failedToMarkAttached' },
          },
        },
        savingAttachError: {
          description: 'saveAttachError: status.attachError = {message, time}.',
          entry: 'saveAttachError',
          on: {
            'va.errorSaved': { target: '#volumeAttachment.AttachFailed', actions: ['logSavedError', 'failedToAttach'] },
            'va.errorSaveFailed': { target: '#volumeAttachment.AttachFailed', actions: ['logFailedToSaveError', 'failedToAttach'] },
          },
        },
      },
    },
    TrivialAttaching: {
      description: 'trivial_handler.go (no PUBLISH_UNPUBLISH_VOLUME): status.attached=true without any CSI call or finalizer.',
      entry: 'markAsAttached',
      on: {
        'va.markedAttached': { target: 'Attached', actions: ['logMarkedAsAttached', 'logTrivialMarked', 'forget'] },
        'va.markAttachedFailed': { target: 'AttachFailed', actions: ['logTrivialMarkFailed', 'requeueRateLimited'] },
      },
    },
    Attached: {
      description: '"Fully attached": status.attached is true.',
      on: { 'csiHandler.syncAttach': 'Attaching', 'csiHandler.syncDetach': 'Detaching', 'trivialHandler.sync': 'TrivialAttaching' },
    },
    AttachFailed: {
      description: 'status.attachError is set; the VA waits in the work queue with exponential backoff (1s → 5m).',
      on: { 'csiHandler.syncAttach': 'Attaching', 'csiHandler.syncDetach': 'Detaching', 'trivialHandler.sync': 'TrivialAttaching' },
    },
    Detaching: {
      description: '"Detaching": ControllerUnpublishVolume, status.attached=false, finalizer removed.',
      initial: 'checkingDetach',
      states: {
        checkingDetach: {
          description: 'The PV (a CSI one) and the node ID, from CSINode or, as a last resort, the VA\'s node-id annotation.',
          entry: 'checkDetach',
          on: { 'detach.ready': 'controllerUnpublishing', 'detach.failed': 'savingDetachError' },
        },
        controllerUnpublishing: {
          description: 'ControllerUnpublishVolume: the storage backend detaches the volume from the node.',
          entry: 'controllerUnpublishVolume',
          on: {
            'csi.controllerUnpublishVolume.succeeded': { target: 'detachedFromNode', actions: 'logDetached' },
            'csi.controllerUnpublishVolume.failed': 'savingDetachError',
          },
        },
        detachedFromNode: {
          description: 'Detached in the backend: what is left to undo on the VA, its status or its finalizer?',
          entry: 'checkAfterUnpublish',
          on: {
            'va.alreadyFullyDetached': { target: '#volumeAttachment.Detached', actions: ['logAlreadyFullyDetached', 'logFullyDetached', 'finishedProcessing'] },
            'va.finalizerRemovalNeeded': 'removingFinalizer',
            'va.statusClearNeeded': 'markingDetached',
          },
        },
        markingDetached: {
          description: 'markAsDetached: status.attached=false, attachmentMetadata and detachError cleared.',
          entry: 'markAsDetached',
          on: {
            'va.markedDetached': 'statusCleared',
            'va.markDetachedFailed': [
              { guard: 'isGoneAfterFinalizerRemoval', target: 'statusCleared' },
              { target: 'savingDetachError' },
            ],
          },
        },
        statusCleared: {
          description: 'The status says detached: the finalizer goes next, unless it went first.',
          entry: 'checkAfterMarkedDetached',
          on: {
            'va.finalizerRemovalNeeded': 'removingFinalizer',
            'va.fullyDetached': { target: '#volumeAttachment.Detached', actions: ['logFullyDetached', 'finishedProcessing'] },
          },
        },
        removingFinalizer: {
          description: 'The attacher\'s finalizer leaves the VA, so the API server can delete it.',
          entry: 'removeVAFinalizer',
          on: {
            'va.finalizerRemoved': [
              { guard: 'isFinalizerRemovedFirst', target: 'markingDetached', actions: 'logFinalizerRemoved' },
              { target: '#volumeAttachment.Detached', actions: ['logFinalizerRemoved', 'logFullyDetached', 'finishedProcessing'] },
            ],
            'va.finalizerRemoveFailed': 'savingDetachError',
          },
        },
        savingDetachError: {
          description: 'saveDetachError: status.detachError = {message, time}.',
          entry: 'saveDetachError',
          on: {
            'va.errorSaved': { target: '#volumeAttachment.DetachFailed', actions: ['logSavedError', 'failedToDetach'] },
            'va.errorSaveFailed': { target: '#volumeAttachment.DetachFailed', actions: ['logFailedToSaveError', 'failedToDetach'] },
          },
        },
      },
    },
    DetachFailed: {
      description: 'status.detachError is set; the VA waits in the work queue with exponential backoff.',
      on: { 'csiHandler.syncDetach': 'Detaching' },
    },
    Detached: {
      description: '"Fully detached": the finalizer is gone, so the API server deletes the VA.',
      type: 'final',
    },
  },
});

/** The state a VA lifecycle rests in, as one string ("Attaching.controllerPublishing"). */
export type VaLifecycleState = string;
