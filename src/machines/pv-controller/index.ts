import type { ComponentDescriptor } from '../shared/contract.ts';
import { pvControllerMachine, type PvControllerInput } from './pvController.machine.ts';
import { pvControllerMessages, pvControllerSummaries } from './pvController.messages.ts';
import { pvcPhaseMachine, pvPhaseMachine } from './phases.ts';

export { pvControllerMachine, pvControllerMessages as messages, pvControllerSummaries as summaries };
export type { PvControllerInput, PvControllerContext } from './pvController.machine.ts';
export { pvcPhaseMachine, pvPhaseMachine, claimPhaseAllows, volumePhaseAllows } from './phases.ts';
export type { ClaimPhase, VolumePhase } from './phases.ts';

/** The PV controller runs inside kube-controller-manager on the control plane. */
export const descriptor: ComponentDescriptor<PvControllerInput> = {
  name: 'pv-controller',
  machine: pvControllerMachine,
  source: 'kube-controller-manager',
  watches: ['PersistentVolumeClaim', 'PersistentVolume', 'StorageClass'],
  // Run waits for the volume, claim and class informers to sync, and fills its caches
  // (initializeCaches), before its workers sync anything: a bound claim listed before its volume is not lost
  waitsForCacheSync: true,
  messages: pvControllerMessages,
  // v1.30.1 pv_controller_base.go:308: its own broadcaster, StartStructuredLogging(3), so its Events are logged only at -v=3 (1.20: the program's, at 0)
  eventLogV: { '1.30': 3 },
  // the keys sync.ts's phaseMoved writes when a phase write succeeds
  stateSubjects: [
    { match: /^persistentvolumeclaim /, machine: pvcPhaseMachine },
    { match: /^persistentvolume /, machine: pvPhaseMachine },
  ],
};
