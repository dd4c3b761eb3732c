/** The PVC protection controller (kube-controller-manager). */
import type { ComponentDescriptor } from '../shared/contract.ts';
import { defineMessages } from '../shared/messages.ts';
import { pvcProtectionControllerMachine, type PvcProtectionControllerInput } from './pvcProtectionController.machine.ts';

export { pvcProtectionControllerMachine };
export type { PvcProtectionControllerInput, PvcProtectionControllerContext } from './pvcProtectionController.machine.ts';

/** Its lines are V(4): not printed at kube-controller-manager's usual -v=2; the trace shows its writes. */
export const messages = defineMessages({});

export const descriptor: ComponentDescriptor<PvcProtectionControllerInput> = {
  name: 'pvc-protection-controller',
  machine: pvcProtectionControllerMachine,
  source: 'kube-controller-manager',
  watches: ['PersistentVolumeClaim', 'Pod'],
  messages,
};
