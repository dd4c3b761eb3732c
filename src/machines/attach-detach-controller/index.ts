/** The attach/detach controller (kube-controller-manager). */
import type { ComponentDescriptor } from '../shared/contract.ts';
import { attachDetachControllerMachine } from './attachDetachController.machine.ts';
import { attachDetachControllerMessages, attachDetachControllerSummaries } from './attachDetachController.messages.ts';
import type { AttachDetachControllerInput } from './types.ts';
import { adcWorld } from './world.ts';
import { attachStateMachine } from './cache/actualStateOfWorld.ts';
import { attachVolumeMachine, detachVolumeMachine } from './operationGenerator.ts';

export { attachDetachControllerMachine, attachDetachControllerMessages as messages, attachDetachControllerSummaries as summaries };
export { adcWorld, type AdcWorld } from './world.ts';
/** the lifecycles it drives: each volume's attach state on a node, and each attach or detach operation */
export { attachStateMachine } from './cache/actualStateOfWorld.ts';
export { attachVolumeMachine, detachVolumeMachine } from './operationGenerator.ts';
export type { AttachDetachControllerInput, AdcContext } from './types.ts';

export const descriptor: ComponentDescriptor<AttachDetachControllerInput> = {
  name: 'attach-detach-controller',
  machine: attachDetachControllerMachine,
  source: 'kube-controller-manager',
  // CSIDriver first: its cache is synced before the populator processes pods (WaitForNamedCacheSync, then populateDesiredStateOfWorld)
  watches: ['CSIDriver', 'Pod', 'Node', 'PersistentVolume', 'PersistentVolumeClaim', 'VolumeAttachment'],
  messages: attachDetachControllerMessages,
  // v1.30.1 attach_detach_controller.go:337: its own broadcaster, StartStructuredLogging(3), so its Events are logged only at -v=3 (1.20: the program's, at 0)
  eventLogV: { '1.30': 3 },
  world: adcWorld,
  // the keys operations.ts writes: "volume_attach <volume> node <node>", "volume <volume> node <node>"
  stateSubjects: [
    { match: /^volume_attach /, machine: attachVolumeMachine },
    { match: /^volume_detach /, machine: detachVolumeMachine },
    { match: /^volume \S+ node /, machine: attachStateMachine },
  ],
};
