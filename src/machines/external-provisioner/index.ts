import type { ComponentDescriptor } from '../shared/contract.ts';
import { externalProvisionerMachine, type ExternalProvisionerInput } from './externalProvisioner.machine.ts';
import { externalProvisionerMessages, externalProvisionerSummaries } from './externalProvisioner.messages.ts';

export { externalProvisionerMachine, externalProvisionerMessages as messages, externalProvisionerSummaries as summaries };
export type { ExternalProvisionerInput, ExternalProvisionerContext } from './externalProvisioner.machine.ts';
export { createVolumeRequest, buildPersistentVolume, provisionedVolumeName } from './requests.ts';

/** csi-provisioner, a container of the CSI controller pod. */
export const descriptor: ComponentDescriptor<ExternalProvisionerInput> = {
  name: 'external-provisioner',
  machine: externalProvisionerMachine,
  source: 'csi-provisioner',
  watches: ['PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'CSINode', 'Node', 'VolumeAttachment'],
  // the VolumeAttachment lister csi-provisioner.go starts for drivers with PUBLISH_UNPUBLISH_VOLUME
  ownStream: ['VolumeAttachment'],
  messages: externalProvisionerMessages,
};
