/** The node lifecycle controller (kube-controller-manager), reduced to heartbeats, the unreachable taint and its pods' Ready condition. */
import type { ComponentDescriptor } from '../shared/contract.ts';
import { nodeLifecycleControllerMachine, type NodeLifecycleControllerInput } from './nodeLifecycleController.machine.ts';
import { nodeLifecycleControllerMessages, nodeLifecycleControllerSummaries } from './nodeLifecycleController.messages.ts';

export { nodeLifecycleControllerMachine, nodeLifecycleControllerMessages as messages, nodeLifecycleControllerSummaries as summaries };
export type { NodeLifecycleControllerInput };

export const descriptor: ComponentDescriptor<NodeLifecycleControllerInput> = {
  name: 'node-lifecycle-controller',
  machine: nodeLifecycleControllerMachine,
  source: 'kube-controller-manager',
  watches: ['Node', 'Pod'],
  // (its pod informer, added for MarkPodsNotReady, draws its delivery jitter from its own stream: the other components'
  // deliveries keep the times they had)
  ownStream: ['Pod'],
  messages: nodeLifecycleControllerMessages,
  // v1.30.1 node_lifecycle_controller.go:457: its own broadcaster, StartStructuredLogging(3), so its Events are logged only at -v=3 (1.20: the program's, at 0)
  eventLogV: { '1.30': 3 },
};
