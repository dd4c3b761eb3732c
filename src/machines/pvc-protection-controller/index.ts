/** The PVC protection controller (kube-controller-manager). */
import type { ComponentDescriptor } from '../shared/contract.ts';
import { pvcProtectionControllerMachine, type PvcProtectionControllerInput } from './pvcProtectionController.machine.ts';
import { pvcProtectionControllerMessages as messages, pvcProtectionControllerSummaries as summaries } from './pvcProtectionController.messages.ts';

export { pvcProtectionControllerMachine, messages, summaries };
export type { PvcProtectionControllerInput, PvcProtectionControllerContext } from './pvcProtectionController.machine.ts';

export const descriptor: ComponentDescriptor<PvcProtectionControllerInput> = {
  name: 'pvc-protection-controller',
  machine: pvcProtectionControllerMachine,
  source: 'kube-controller-manager',
  watches: ['PersistentVolumeClaim', 'Pod'],
  messages,
};
