import type { ComponentDescriptor } from '../shared/contract.ts';
import { externalResizerMachine } from './externalResizer.machine.ts';
import { externalResizerMessages } from './externalResizer.messages.ts';

export { externalResizerMachine, externalResizerMessages as messages };
export type { ExternalResizerInput, ExternalResizerContext } from './externalResizer.machine.ts';
export { parseQuantity, formatBinary } from '../shared/quantity.ts';

/** csi-resizer, running in the CSI controller plugin's pod. */
export const descriptor: ComponentDescriptor = {
  name: 'external-resizer',
  machine: externalResizerMachine,
  source: 'csi-resizer',
  watches: ['PersistentVolumeClaim', 'PersistentVolume'],
  messages: externalResizerMessages,
};
