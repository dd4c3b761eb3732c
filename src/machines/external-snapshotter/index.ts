import type { ComponentDescriptor } from '../shared/contract.ts';
import { externalSnapshotterMachine } from './externalSnapshotter.machine.ts';
import { externalSnapshotterMessages } from './externalSnapshotter.messages.ts';

export { externalSnapshotterMachine, externalSnapshotterMessages as messages };
export type { ExternalSnapshotterInput, ExternalSnapshotterContext } from './externalSnapshotter.machine.ts';

/** The csi-snapshotter sidecar (the snapshot-controller is its own component). */
export const descriptor: ComponentDescriptor = {
  name: 'external-snapshotter',
  machine: externalSnapshotterMachine,
  source: 'csi-snapshotter',
  watches: ['VolumeSnapshotContent', 'VolumeSnapshotClass'],
  messages: externalSnapshotterMessages,
};
