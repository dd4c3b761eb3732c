import type { ComponentDescriptor } from '../shared/contract.ts';
import { statefulSetControllerMachine } from './statefulSetController.machine.ts';
import { statefulSetControllerMessages } from './statefulSetController.messages.ts';

export { statefulSetControllerMachine, statefulSetControllerMessages as messages };
export type { StatefulSetControllerInput, StatefulSetControllerContext } from './statefulSetController.machine.ts';
export { podName, claimName } from './statefulSetController.objects.ts';

/** The StatefulSet controller of kube-controller-manager (one instance on the control-plane host). */
export const descriptor: ComponentDescriptor = {
  name: 'statefulset-controller',
  machine: statefulSetControllerMachine,
  source: 'kube-controller-manager',
  watches: ['StatefulSet', 'Pod', 'PersistentVolumeClaim'],
  messages: statefulSetControllerMessages,
  // v1.30.1 stateful_set.go:154: its own broadcaster, StartStructuredLogging(3), so its Events are logged only at -v=3 (1.20: the program's, at 0)
  eventLogV: { '1.30': 3 },
};
