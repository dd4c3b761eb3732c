/**
 * The lifecycle of one VolumeAttachment as csi-attacher drives it, derived from
 * kubernetes-csi/external-attacher pkg/controller/csi_handler.go (syncAttach/syncDetach, v3.1.0 and
 * v4.6.1). Upstream has no named states for it; these names follow its log lines. The external-attacher
 * machine keeps one of these per VA and advances it with XState's pure `transition()`.
 */
import { setup, transition, type SnapshotFrom } from 'xstate';

export type VaLifecycleEvent =
  | { type: 'va.attachStarted' } | { type: 'va.attached' } | { type: 'va.attachFailed' }
  | { type: 'va.detachStarted' } | { type: 'va.detached' } | { type: 'va.detachFailed' };

export const volumeAttachmentMachine = setup({
  types: { events: {} as VaLifecycleEvent },
}).createMachine({
  id: 'volumeAttachment',
  initial: 'New',
  states: {
    New: {
      description: 'Created by the attach/detach controller; csi-attacher has not acted on it yet.',
      on: { 'va.attachStarted': 'Attaching', 'va.detachStarted': 'Detaching' },
    },
    Attaching: {
      description: '"Attaching": PV finalizer, VA finalizer + node-id annotation, ControllerPublishVolume, status.attached=true.',
      on: { 'va.attached': 'Attached', 'va.attachFailed': 'AttachFailed' },
    },
    Attached: {
      description: '"Fully attached": status.attached is true.',
      on: { 'va.attachStarted': 'Attaching', 'va.detachStarted': 'Detaching' },
    },
    AttachFailed: {
      description: 'status.attachError is set; the VA waits in the work queue with exponential backoff (1s → 5m).',
      on: { 'va.attachStarted': 'Attaching', 'va.detachStarted': 'Detaching' },
    },
    Detaching: {
      description: '"Detaching": ControllerUnpublishVolume, status.attached=false, finalizer removed.',
      on: { 'va.detached': 'Detached', 'va.detachFailed': 'DetachFailed' },
    },
    DetachFailed: {
      description: 'status.detachError is set; the VA waits in the work queue with exponential backoff.',
      on: { 'va.detachStarted': 'Detaching' },
    },
    Detached: {
      description: '"Fully detached": the finalizer is gone, so the API server deletes the VA.',
      type: 'final',
    },
  },
});

export type VaLifecycleState = 'New' | 'Attaching' | 'Attached' | 'AttachFailed' | 'Detaching' | 'DetachFailed' | 'Detached';

/** Advance a VA lifecycle state by one event (unchanged when the event does not apply). */
export function advanceVa(state: VaLifecycleState | undefined, event: VaLifecycleEvent['type']): VaLifecycleState {
  const snap = volumeAttachmentMachine.resolveState({ value: state ?? 'New', context: undefined as never }) as SnapshotFrom<typeof volumeAttachmentMachine>;
  const [next] = transition(volumeAttachmentMachine, snap, { type: event } as VaLifecycleEvent);
  return next.value as VaLifecycleState;
}
