/** The pod garbage collector (kube-controller-manager), reduced to gcTerminating on out-of-service nodes. */
import type { ComponentDescriptor } from '../shared/contract.ts';
import { podGcControllerMachine, type PodGcControllerInput } from './podGcController.machine.ts';
import { podGcControllerMessages as messages, podGcControllerSummaries as summaries } from './podGcController.messages.ts';

export { podGcControllerMachine, messages, summaries };
export type { PodGcControllerInput, PodGcControllerContext } from './podGcController.machine.ts';

export const descriptor: ComponentDescriptor<PodGcControllerInput> = {
  name: 'pod-gc-controller',
  machine: podGcControllerMachine,
  source: 'kube-controller-manager',
  watches: ['Node', 'Pod'],
  // added after the other controllers: their own watch streams keep everyone else's timing as it was
  ownStream: ['Node', 'Pod'],
  messages,
};
