/**
 * Log lines of the PV controller (kube-controller-manager, -v=2).
 * upstream: pkg/controller/volume/persistentvolume/pv_controller.go
 *   1.20 (printf): updateBindVolumeToClaim `claim %q bound to volume %q`, updateVolumePhase
 *   `volume %q entered phase %q`, bindClaimToVolume `volume %q bound to claim %q`, updateClaimStatus
 *   `claim %q entered phase %q`, syncVolume `volume %q is released and reclaim policy %q will be executed`
 *   (all V2). file:line for 1.20 read at v1.20.5 (a copy of the tag, davidstack/k8s1.20.5modify):
 *   pv_controller.go:915 / 864 / 967 / 808 / 638. (A ~1.21 log quoted in kubernetes/enhancements, the CSI
 *   migration KEP, prints :887 / 990 / 831 for three of them: a later build.)
 *   1.30 (contextual logging, logger "persistentvolume-binder-controller"): "Claim bound to volume",
 *   "Volume entered phase", "Volume bound to claim", "Claim entered phase", "Volume is released…".
 *   Lines read in v1.30.1 source (vendored by openshift/microshift 3f2622d4f1, byte-identical to an
 *   upstream snapshot at the 1.30/1.31 boundary and to kubeedge's v1.30.7 copy); the logger key from
 *   a v1.30.13 kube-controller-manager log (pv_controller_base.go:313 "Starting persistent volume
 *   controller" logger="persistentvolume-binder-controller"). Not yet confirmed by a 1.30 log of these lines.
 */
import { defineMessages, defineSummaries } from '../shared/messages.ts';

const S = 'kube-controller-manager' as const;

export const pvControllerMessages = defineMessages({
  'pvController.claimBoundToVolume': {
    source: S, stage: 'provision', severity: 'I',
    summary: 'The PV controller writes claimRef {claim} into PersistentVolume {volume}.',
    formats: {
      '1.20': { file: 'pv_controller.go', line: 915, text: 'claim {claim:q} bound to volume {volume:q}', v: 2 },
      '1.30': { file: 'pv_controller.go', line: 999, msg: 'Claim bound to volume', kv: 'logger="persistentvolume-binder-controller" PVC={claim:q} volumeName={volume:q}', v: 2 },
    },
  },
  'pvController.volumeEnteredPhase': {
    source: S, stage: 'provision', severity: 'I',
    summary: 'PersistentVolume {volume} enters phase {phase}.',
    formats: {
      '1.20': { file: 'pv_controller.go', line: 864, text: 'volume {volume:q} entered phase {phase:q}', v: 2 },
      '1.30': { file: 'pv_controller.go', line: 916, msg: 'Volume entered phase', kv: 'logger="persistentvolume-binder-controller" volumeName={volume:q} phase={phase:q}', v: 2 },
    },
  },
  'pvController.volumeBoundToClaim': {
    source: S, stage: 'provision', severity: 'I',
    summary: 'The PV controller writes spec.volumeName {volume} and the bind-completed annotation into claim {claim}.',
    formats: {
      '1.20': { file: 'pv_controller.go', line: 967, text: 'volume {volume:q} bound to claim {claim:q}', v: 2 },
      '1.30': { file: 'pv_controller.go', line: 1052, msg: 'Volume bound to claim', kv: 'logger="persistentvolume-binder-controller" PVC={claim:q} volumeName={volume:q}', v: 2 },
    },
  },
  'pvController.claimEnteredPhase': {
    source: S, stage: 'provision', severity: 'I',
    summary: 'PersistentVolumeClaim {claim} enters phase {phase}.',
    formats: {
      '1.20': { file: 'pv_controller.go', line: 808, text: 'claim {claim:q} entered phase {phase:q}', v: 2 },
      '1.30': { file: 'pv_controller.go', line: 857, msg: 'Claim entered phase', kv: 'logger="persistentvolume-binder-controller" PVC={claim:q} phase={phase:q}', v: 2 },
    },
  },
  'pvController.volumeReleased': {
    source: S, stage: 'delete', severity: 'I',
    summary: 'The claim of PersistentVolume {volume} is gone: the volume is Released and its reclaim policy {policy} applies.',
    formats: {
      '1.20': { file: 'pv_controller.go', line: 638, text: 'volume {volume:q} is released and reclaim policy {policy:q} will be executed', v: 2 },
      '1.30': { file: 'pv_controller.go', line: 672, msg: 'Volume is released and reclaim policy will be executed', kv: 'logger="persistentvolume-binder-controller" volumeName={volume:q} reclaimPolicy={policy:q}', v: 2 },
    },
  },
});

/** One-sentence trace summaries of its API writes. */
export const pvControllerSummaries = defineSummaries({
  'pvController.bindVolume': 'The PV controller binds PersistentVolume {volume} to claim {claim} (spec.claimRef).',
  'pvController.bindClaim': 'The PV controller binds claim {claim} to PersistentVolume {volume} (spec.volumeName, bind-completed).',
  'pvController.volumePhase': 'The PV controller sets PersistentVolume {volume} to phase {phase}.',
  'pvController.claimPhase': 'The PV controller sets claim {claim} to phase {phase}.',
  'pvController.externalProvisioning': 'The PV controller hands claim {claim} to the external provisioner {provisioner} (storage-provisioner annotation).',
});
