/** The node lifecycle controller (kube-controller-manager), reduced to heartbeats and the unreachable taint. */
import type { ComponentDescriptor } from '../shared/contract.ts';
import { nodeLifecycleControllerMachine, type NodeLifecycleControllerInput } from './nodeLifecycleController.machine.ts';
import { nodeLifecycleControllerMessages, nodeLifecycleControllerSummaries } from './nodeLifecycleController.messages.ts';

export { nodeLifecycleControllerMachine, nodeLifecycleControllerMessages as messages, nodeLifecycleControllerSummaries as summaries };
export type { NodeLifecycleControllerInput };

export const descriptor: ComponentDescriptor<NodeLifecycleControllerInput> = {
  name: 'node-lifecycle-controller',
  machine: nodeLifecycleControllerMachine,
  source: 'kube-controller-manager',
  watches: ['Node'],
  messages: nodeLifecycleControllerMessages,
};
