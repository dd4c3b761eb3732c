/**
 * The phases of a PersistentVolumeClaim and a PersistentVolume as small machines of their own (no
 * context, no guards: read once per state and event through shared/transitionTable.ts). The PV
 * controller asks them whether a phase change it is about to write is one upstream makes.
 * upstream: k8s.io/api/core/v1 types.go (PersistentVolumeClaimPhase, PersistentVolumePhase) and
 * pkg/controller/volume/persistentvolume/pv_controller.go (syncClaim / syncVolume).
 */
import { createMachine } from 'xstate';
import { transitionTable } from '../shared/transitionTable.ts';

export type ClaimPhase = 'Pending' | 'Bound' | 'Lost';
export type VolumePhase = 'Pending' | 'Available' | 'Bound' | 'Released' | 'Failed';

export type ClaimPhaseEvent = { type: 'claim.bound' } | { type: 'claim.lost' } | { type: 'claim.pending' };
export type VolumePhaseEvent =
  | { type: 'volume.available' } | { type: 'volume.bound' } | { type: 'volume.released' } | { type: 'volume.failed' };

export const pvcPhaseMachine = createMachine({
  types: {} as { events: ClaimPhaseEvent },
  id: 'pvcPhase',
  initial: 'Pending',
  states: {
    Pending: { description: 'Not bound to a volume yet (syncUnboundClaim).', on: { 'claim.bound': 'Bound' } },
    Bound: {
      description: 'Bound to the volume in spec.volumeName (syncBoundClaim).',
      on: { 'claim.lost': 'Lost' },
    },
    Lost: { description: 'The bound volume is gone or bound elsewhere (ClaimLost / ClaimMisbound); terminal.', on: { 'claim.bound': 'Bound' } },
  },
});

export const pvPhaseMachine = createMachine({
  types: {} as { events: VolumePhaseEvent },
  id: 'pvPhase',
  initial: 'Pending',
  states: {
    Pending: {
      description: 'Just created; the API server defaults status.phase to Pending.',
      on: { 'volume.available': 'Available', 'volume.bound': 'Bound', 'volume.released': 'Released', 'volume.failed': 'Failed' },
    },
    Available: { description: 'Not bound to a claim (syncVolume: volume is unused).', on: { 'volume.bound': 'Bound', 'volume.released': 'Released', 'volume.failed': 'Failed' } },
    Bound: { description: 'Bound to a claim that points back to it.', on: { 'volume.released': 'Released', 'volume.failed': 'Failed' } },
    Released: { description: 'Its claim was deleted; the reclaim policy runs (Delete: the external provisioner deletes it).', on: { 'volume.failed': 'Failed', 'volume.available': 'Available' } },
    Failed: { description: 'Reclaiming failed (VolumeFailedDelete / VolumeFailedRecycle).', on: { 'volume.released': 'Released' } },
  },
});

const CLAIM_EVENT: Record<ClaimPhase, ClaimPhaseEvent['type']> = { Pending: 'claim.pending', Bound: 'claim.bound', Lost: 'claim.lost' };
const VOLUME_EVENT: Record<VolumePhase, VolumePhaseEvent['type'] | undefined> = {
  Pending: undefined, Available: 'volume.available', Bound: 'volume.bound', Released: 'volume.released', Failed: 'volume.failed',
};

const claimNext = transitionTable(pvcPhaseMachine);
const volumeNext = transitionTable(pvPhaseMachine);

/** Whether the claim phase machine allows `from` → `to`. */
export function claimPhaseAllows(from: ClaimPhase, to: ClaimPhase): boolean {
  return from !== to && claimNext(from, CLAIM_EVENT[to]) === to;
}

/** Whether the volume phase machine allows `from` → `to`. */
export function volumePhaseAllows(from: VolumePhase, to: VolumePhase): boolean {
  const type = VOLUME_EVENT[to];
  return !!type && from !== to && volumeNext(from, type) === to;
}
