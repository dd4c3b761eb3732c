/** The expand controller (kube-controller-manager, events from "volume_expand"). */
import type { ComponentDescriptor } from '../shared/contract.ts';
import { expandControllerMachine, type ExpandControllerInput } from './expandController.machine.ts';
import { expandControllerMessages as messages } from './expandController.messages.ts';

export { expandControllerMachine, messages };
export type { ExpandControllerInput, ExpandControllerContext } from './expandController.machine.ts';

export const descriptor: ComponentDescriptor<ExpandControllerInput> = {
  name: 'expand-controller',
  machine: expandControllerMachine,
  source: 'kube-controller-manager',
  watches: ['PersistentVolumeClaim', 'PersistentVolume'],
  // its watch events come from a stream of its own: the other components' timings do not move with it
  ownStream: ['PersistentVolumeClaim', 'PersistentVolume'],
  messages,
  // v1.30.1 expand_controller.go:126: its own broadcaster, StartStructuredLogging(3), so its Events are logged only at -v=3 (1.20: the program's, at 0)
  eventLogV: { '1.30': 3 },
};
