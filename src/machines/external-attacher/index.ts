/**
 * external-attacher: the csi-attacher sidecar. Public API of this folder.
 */
import type { ComponentDescriptor } from '../shared/contract.ts';
import { externalAttacherMachine } from './externalAttacher.machine.ts';
import { externalAttacherMessages } from './externalAttacher.messages.ts';
import type { ExternalAttacherInput } from './externalAttacher.types.ts';
import { volumeAttachmentMachine } from './volumeAttachment.machine.ts';

export { externalAttacherMachine } from './externalAttacher.machine.ts';
export { externalAttacherMessages as messages, externalAttacherSummaries as summaries } from './externalAttacher.messages.ts';
export { volumeAttachmentMachine, type VaLifecycleState, type VaLifecycleEvent } from './volumeAttachment.machine.ts';
export type { ExternalAttacherInput as Input, ExternalAttacherInput, ExternalAttacherContext } from './externalAttacher.types.ts';

export const descriptor: ComponentDescriptor<ExternalAttacherInput> = {
  name: 'external-attacher',
  machine: externalAttacherMachine,
  source: 'csi-attacher',
  watches: ['VolumeAttachment', 'PersistentVolume', 'CSINode'],
  messages: externalAttacherMessages,
  // the key sync.ts writes: "volumeattachment <name>"
  stateSubjects: [{ match: /^volumeattachment /, machine: volumeAttachmentMachine }],
};
