/** The PV protection controller (kube-controller-manager). */
import type { ComponentDescriptor } from '../shared/contract.ts';
import { pvProtectionControllerMachine, type PvProtectionControllerInput } from './pvProtectionController.machine.ts';
import { pvProtectionControllerMessages as messages, pvProtectionControllerSummaries as summaries } from './pvProtectionController.messages.ts';

export { pvProtectionControllerMachine, messages, summaries };
export type { PvProtectionControllerInput, PvProtectionControllerContext } from './pvProtectionController.machine.ts';

export const descriptor: ComponentDescriptor<PvProtectionControllerInput> = {
  name: 'pv-protection-controller',
  machine: pvProtectionControllerMachine,
  source: 'kube-controller-manager',
  watches: ['PersistentVolume'],
  messages,
};
