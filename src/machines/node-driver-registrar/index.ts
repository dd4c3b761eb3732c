import type { ComponentDescriptor } from '../shared/contract.ts';
import { nodeDriverRegistrarMachine, type NodeDriverRegistrarInput } from './nodeDriverRegistrar.machine.ts';
import { messages } from './nodeDriverRegistrar.messages.ts';

export { nodeDriverRegistrarMachine, messages };
export { hostRegistrationSocket, kubeletRegistrationPath } from './nodeDriverRegistrar.machine.ts';
export type { NodeDriverRegistrarInput, NodeDriverRegistrarContext } from './nodeDriverRegistrar.machine.ts';

/** The integrator sets `serves: {endpoint: 'registrar', node}` on its ComponentSpec. */
export const descriptor: ComponentDescriptor<NodeDriverRegistrarInput> = {
  name: 'node-driver-registrar',
  machine: nodeDriverRegistrarMachine,
  source: 'node-driver-registrar',
  watches: [],
  messages,
};
