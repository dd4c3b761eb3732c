/** The snapshot-controller of kubernetes-csi/external-snapshotter (its own Deployment, one per cluster). */
import type { ComponentDescriptor } from '../shared/contract.ts';
import { snapshotControllerMachine } from './snapshotController.machine.ts';
import { snapshotControllerMessages as messages } from './snapshotController.messages.ts';

export { snapshotControllerMachine, messages };
export type { SnapshotControllerInput, SnapshotControllerContext } from './snapshotController.machine.ts';

export const descriptor: ComponentDescriptor = {
  name: 'snapshot-controller',
  machine: snapshotControllerMachine,
  source: 'snapshot-controller',
  watches: ['VolumeSnapshot', 'VolumeSnapshotContent', 'VolumeSnapshotClass', 'PersistentVolumeClaim', 'PersistentVolume'],
  messages,
};
