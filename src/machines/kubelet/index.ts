import type { ComponentDescriptor } from '../shared/contract.ts';
import { kubeletMachine } from './kubelet.machine.ts';
import { kubeletSummaries as summaries, messages } from './kubelet.messages.ts';
import type { KubeletInput } from './kubelet.types.ts';
import { kubeletWorld } from './kubelet.world.ts';
import { attachedVolumeMachine, mountedPodMachine } from './volumemanager/cache/actualStateOfWorld.ts';
import {
  verifyControllerAttachedVolumeMachine, mountVolumeMachine, unmountVolumeMachine, unmountDeviceMachine, expandInUseVolumeMachine,
  mapVolumeMachine, unmapVolumeMachine, unmapDeviceMachine,
} from './operationexecutor/operationGenerator.ts';

export { kubeletMachine, messages, summaries };
export { kubeletWorld, type KubeletWorld } from './kubelet.world.ts';
/** the lifecycles its volume manager drives: each attached volume and pod mount, and each operation */
export { attachedVolumeMachine, mountedPodMachine } from './volumemanager/cache/actualStateOfWorld.ts';
export {
  verifyControllerAttachedVolumeMachine, mountVolumeMachine, unmountVolumeMachine, unmountDeviceMachine, expandInUseVolumeMachine,
  mapVolumeMachine, unmapVolumeMachine, unmapDeviceMachine,
} from './operationexecutor/operationGenerator.ts';
export type { KubeletInput, KubeletContext, DswVolume, AswVolume, PodState, PluginRegistration } from './kubelet.types.ts';

export const descriptor: ComponentDescriptor<KubeletInput> = {
  name: 'kubelet',
  machine: kubeletMachine,
  source: 'kubelet',
  // no PV/PVC informers: the DSW populator GETs a pod's claims and PVs (desired_state_of_world_populator.go createVolumeSpec)
  watches: ['Pod', 'Node', 'VolumeAttachment', 'CSIDriver'],
  nodeScoped: ['Pod', 'Node', 'VolumeAttachment'],
  watchesPluginSockets: true,
  // a restarted kubelet finds the pod volume directories earlier kubelets left (reconstruction, 1.30)
  readsHostMounts: true,
  messages,
  world: kubeletWorld,
  // the keys noteState writes: actualStateOfWorld.ts (volume, volume … pod …) and operationGenerator.ts (OPERATION_NAMES)
  stateSubjects: [
    { match: /^volume \S+ pod /, machine: mountedPodMachine },
    { match: /^volume /, machine: attachedVolumeMachine },
    { match: /^verify_controller_attached_volume /, machine: verifyControllerAttachedVolumeMachine },
    { match: /^volume_mount /, machine: mountVolumeMachine },
    { match: /^volume_unmount /, machine: unmountVolumeMachine },
    { match: /^unmount_device /, machine: unmountDeviceMachine },
    { match: /^volume_fs_resize /, machine: expandInUseVolumeMachine },
    { match: /^map_volume /, machine: mapVolumeMachine },
    { match: /^unmap_volume /, machine: unmapVolumeMachine },
    { match: /^unmap_device /, machine: unmapDeviceMachine },
  ],
};
