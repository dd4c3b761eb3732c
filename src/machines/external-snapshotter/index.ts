import type { ComponentDescriptor } from '../shared/contract.ts';
import { externalSnapshotterMachine } from './externalSnapshotter.machine.ts';
import { externalSnapshotterMessages } from './externalSnapshotter.messages.ts';

export { externalSnapshotterMachine, externalSnapshotterMessages as messages };
export type { ExternalSnapshotterInput, ExternalSnapshotterContext } from './externalSnapshotter.machine.ts';

/** snapshot-controller + csi-snapshotter as one component, logging as csi-snapshotter. */
export const descriptor: ComponentDescriptor = {
  name: 'external-snapshotter',
  machine: externalSnapshotterMachine,
  source: 'csi-snapshotter',
  watches: ['VolumeSnapshot', 'VolumeSnapshotContent', 'VolumeSnapshotClass', 'PersistentVolumeClaim', 'PersistentVolume'],
  messages: externalSnapshotterMessages,
};
