/** The taint eviction controller (kube-controller-manager; in 1.20 the node lifecycle controller's NoExecuteTaintManager). */
import type { ComponentDescriptor } from '../shared/contract.ts';
import { taintEvictionControllerMachine, minTolerationTime, tolerationsOf, type TaintEvictionControllerInput } from './taintEvictionController.machine.ts';
import { taintEvictionControllerMessages as messages, taintEvictionControllerSummaries as summaries } from './taintEvictionController.messages.ts';

export { taintEvictionControllerMachine, minTolerationTime, tolerationsOf, messages, summaries };
export type { TaintEvictionControllerInput, TaintEvictionControllerContext } from './taintEvictionController.machine.ts';

export const descriptor: ComponentDescriptor<TaintEvictionControllerInput> = {
  name: 'taint-eviction-controller',
  machine: taintEvictionControllerMachine,
  source: 'kube-controller-manager',
  watches: ['Node', 'Pod'],
  // added after the other controllers: their own watch streams keep everyone else's timing as it was
  ownStream: ['Node', 'Pod'],
  messages,
  // taint_eviction.go Run: tc.broadcaster.StartStructuredLogging(3) (1.30); 1.20's taint manager StartLogging(klog.Infof)
  eventLogV: { '1.30': 3 },
};
