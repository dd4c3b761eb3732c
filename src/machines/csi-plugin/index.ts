/** CSI controller and node plugins, the spec's volume lifecycle, and the ceph journal view. */
import type { ComponentDescriptor } from '../shared/contract.ts';
import { csiControllerPluginMachine, type CsiControllerPluginInput } from './csiControllerPlugin.machine.ts';
import { csiNodePluginMachine, type CsiNodePluginInput } from './csiNodePlugin.machine.ts';
import { csiControllerPluginMessages, csiNodePluginMessages, csiPluginMessages } from './csiPlugin.messages.ts';

export { csiControllerPluginMachine, csiNodePluginMachine };
export { csiVolumeLifecycleMachine } from './csiVolumeLifecycle.machine.ts';
export type { CsiVolumeLifecycleContext, CsiVolumeLifecycleEvent, CsiVolumeLifecycleState } from './csiVolumeLifecycle.machine.ts';
import { cephJournalView } from './cephJournal.ts';
import { csiVolumeLifecycleMachine } from './csiVolumeLifecycle.machine.ts';

/** the key pluginCore.ts completeRequest writes: "volume <volume id>" */
const stateSubjects = [{ match: /^volume /, machine: csiVolumeLifecycleMachine }];
export { cephJournalView, composeCSIID, type CephImage, type CephState } from './cephJournal.ts';
export { CONTROLLER_CAPABILITY_TYPE, NODE_CAPABILITY_TYPE, sanitizedJson } from './proto.ts';
export type { ExistingVolume, PluginContext, PluginVolume } from './pluginCore.ts';
export type { CsiControllerPluginInput, CsiControllerPluginContext } from './csiControllerPlugin.machine.ts';
export type { CsiNodePluginInput, CsiNodePluginContext } from './csiNodePlugin.machine.ts';
export { csiControllerPluginMessages, csiNodePluginMessages };

/** Every message of both plugins (for the merged catalog). */
export const messages = csiPluginMessages;

/** The controller plugin: the cluster routes `endpoint: 'controller'` calls to it (spec.serves set by the integrator). */
export const controllerDescriptor: ComponentDescriptor<CsiControllerPluginInput> = {
  name: 'csi-controller-plugin', machine: csiControllerPluginMachine, source: 'csi-driver-controller', watches: [],
  messages: csiControllerPluginMessages,
  // a ceph-rbd backend's omap journal, images and trash, for views that show it change step by step
  world: (context: Parameters<typeof cephJournalView>[0]) => (context.ceph ? { ceph: cephJournalView(context) } : undefined),
  stateSubjects,
};

/** The node plugin on one node: serves `endpoint: 'node'` calls for its host. */
export const nodeDescriptor: ComponentDescriptor<CsiNodePluginInput> = {
  name: 'csi-node-plugin', machine: csiNodePluginMachine, source: 'csi-driver-node', watches: [],
  messages: csiNodePluginMessages,
  stateSubjects,
};

/** Both descriptors; `descriptor` is the controller's, for folders that export one. */
export const descriptors = { controller: controllerDescriptor, node: nodeDescriptor };
export const descriptor = controllerDescriptor;
