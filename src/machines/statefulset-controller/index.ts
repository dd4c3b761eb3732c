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
};
