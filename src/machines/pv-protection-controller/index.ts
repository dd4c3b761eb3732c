/** The PV protection controller (kube-controller-manager). */
import type { ComponentDescriptor } from '../shared/contract.ts';
import { defineMessages } from '../shared/messages.ts';
import { pvProtectionControllerMachine, type PvProtectionControllerInput } from './pvProtectionController.machine.ts';

export { pvProtectionControllerMachine };
export type { PvProtectionControllerInput, PvProtectionControllerContext } from './pvProtectionController.machine.ts';

/** Its lines are V(4): not printed at kube-controller-manager's usual -v=2; the trace shows its writes. */
export const messages = defineMessages({});

export const descriptor: ComponentDescriptor<PvProtectionControllerInput> = {
  name: 'pv-protection-controller',
  machine: pvProtectionControllerMachine,
  source: 'kube-controller-manager',
  watches: ['PersistentVolume'],
  messages,
};
