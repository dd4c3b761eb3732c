/**
 * The kubelet's actual state of world: the volumes attached to this node, whether each one's device
 * is globally mounted, and the pods each one is mounted into.
 * upstream: pkg/kubelet/volumemanager/cache/actual_state_of_world.go (v1.20 and v1.30): an attachedVolume
 * carries a deviceMountState, each of its mountedPods a volumeMountState
 * (pkg/volume/util/operationexecutor/operation_executor.go: DeviceGloballyMounted | DeviceMountUncertain
 * | DeviceNotMounted, VolumeMounted | VolumeMountUncertain | VolumeNotMounted).
 *
 * Two lifecycle machines hold those states, one per attached volume and one per mounted pod. The
 * table keeps only their state values (the machines need no context), and every change goes through
 * a mutator named as upstream's, which asks the machine (its transitions read once, shared/transitionTable.ts). A mutator that
 * upstream would refuse (a pod mounted into a volume that is not attached) changes nothing and says so.
 * Left out: MarkRemountRequired, SELinux labels.
 */
import { setup } from 'xstate';
import { transitionTable } from '../../../shared/transitionTable.ts';
import type { AswVolume, DeviceMountState, PodVolume, VolumeMountState, VolumeSpec, Work } from '../../kubelet.types.ts';
import { noteState } from '../../../shared/machineParts.ts';
import { own } from '../../kubelet.work.ts';

const volumeSubject = (volume: string): string => `volume ${volume}`;
const podSubject = (volume: string, p: PodVolume): string => `volume ${volume} pod ${p.namespace}/${p.podName}`;

export type AttachedVolumeEvent =
  | { type: 'MarkDeviceAsMounted' } | { type: 'MarkDeviceAsUncertain' } | { type: 'MarkDeviceAsUnmounted' }
  | { type: 'MarkVolumeAsDetached' };

/** One volume attached to the node, from MarkVolumeAsAttached to MarkVolumeAsDetached. */
export const attachedVolumeMachine = setup({
  types: { events: {} as AttachedVolumeEvent },
}).createMachine({
  id: 'kubeletAttachedVolume',
  initial: 'DeviceNotMounted',
  states: {
    DeviceNotMounted: {
      description: 'MarkVolumeAsAttached: the attach/detach controller attached the volume (VerifyControllerAttachedVolume saw it in node.status.volumesAttached); nothing is mounted yet.',
      on: {
        MarkDeviceAsMounted: 'DeviceGloballyMounted',
        MarkDeviceAsUncertain: 'DeviceMountUncertain',
        MarkVolumeAsDetached: 'Detached',
      },
    },
    DeviceMountUncertain: {
      description: 'MountDevice (NodeStageVolume) returned an error that is not final: the device may be staged, so UnmountDevice must still run.',
      on: {
        MarkDeviceAsMounted: 'DeviceGloballyMounted',
        MarkDeviceAsUncertain: 'DeviceMountUncertain',
        MarkDeviceAsUnmounted: 'DeviceNotMounted',
      },
    },
    DeviceGloballyMounted: {
      description: 'MountDevice succeeded: the volume is staged at its global mount path (or the driver has no STAGE_UNSTAGE_VOLUME).',
      on: {
        MarkDeviceAsMounted: 'DeviceGloballyMounted',
        // 1.30 UnmapDevice marks the device uncertain before TearDownDevice, so that a failure leaves it to be unmapped again
        MarkDeviceAsUncertain: 'DeviceMountUncertain',
        MarkDeviceAsUnmounted: 'DeviceNotMounted',
      },
    },
    Detached: {
      description: 'MarkVolumeAsDetached: the kubelet forgets the volume (the controller detaches it).',
      type: 'final',
    },
  },
});

export type MountedPodEvent = { type: 'MarkVolumeAsMounted' } | { type: 'MarkVolumeMountAsUncertain' } | { type: 'MarkVolumeAsUnmounted' };

/** One pod's mount of an attached volume (its mountedPod entry). */
export const mountedPodMachine = setup({
  types: { events: {} as MountedPodEvent },
}).createMachine({
  id: 'kubeletMountedPod',
  initial: 'VolumeNotMounted',
  states: {
    VolumeNotMounted: {
      description: 'No mountedPod entry: SetUp (NodePublishVolume) has not run for this pod, or its unmount finished.',
      on: { MarkVolumeAsMounted: 'VolumeMounted', MarkVolumeMountAsUncertain: 'VolumeMountUncertain' },
    },
    VolumeMountUncertain: {
      description: 'SetUp returned an error that is not final: the volume may be published, so TearDown must still run.',
      on: { MarkVolumeAsMounted: 'VolumeMounted', MarkVolumeMountAsUncertain: 'VolumeMountUncertain', MarkVolumeAsUnmounted: 'VolumeNotMounted' },
    },
    VolumeMounted: {
      description: 'SetUp succeeded: the volume is published into the pod (for a raw block volume: MapPodDevice and the device links).',
      // UnmapVolume marks the pod's volume uncertain before it removes the links, so that a failure leaves it to be unmapped again
      on: { MarkVolumeAsMounted: 'VolumeMounted', MarkVolumeMountAsUncertain: 'VolumeMountUncertain', MarkVolumeAsUnmounted: 'VolumeNotMounted' },
    },
  },
});

const deviceTransitions = transitionTable(attachedVolumeMachine);
const podTransitions = transitionTable(mountedPodMachine);

/** The next device state, or undefined when the attachedVolume machine refuses the mutator. */
const nextDeviceState = (from: DeviceMountState, type: AttachedVolumeEvent['type']): DeviceMountState | 'Detached' | undefined =>
  deviceTransitions(from, type) as DeviceMountState | 'Detached' | undefined;

const nextPodState = (from: VolumeMountState | 'VolumeNotMounted', type: MountedPodEvent['type']): VolumeMountState | 'VolumeNotMounted' | undefined =>
  podTransitions(from, type) as VolumeMountState | 'VolumeNotMounted' | undefined;

/** GetDeviceMountState: DeviceNotMounted for a volume that is not in the table. */
export const getDeviceMountState = (w: Work, volume: string): DeviceMountState => w.c.asw[volume]?.deviceState ?? 'DeviceNotMounted';

/** GetVolumeMountState */
export const getVolumeMountState = (w: Work, volume: string, podUid: string): VolumeMountState | 'VolumeNotMounted' =>
  w.c.asw[volume]?.pods[podUid]?.state ?? 'VolumeNotMounted';

/** MarkVolumeAsAttached: the volume enters the table, its device not mounted. */
export function markVolumeAsAttached(w: Work, v: VolumeSpec, devicePath: string, deviceMountPath: string): void {
  const { uniqueName, pvName, driver, handle, attachable, fsType, accessMode, readOnly, volumeContext, capacityBytes, claimRef, block } = v;
  own(w, 'asw')[uniqueName] = {
    uniqueName, pvName, driver, handle, attachable, fsType, accessMode, readOnly, volumeContext, ...(block ? { block } : {}),
    ...(capacityBytes !== undefined ? { capacityBytes } : {}), ...(claimRef ? { claimRef } : {}),
    devicePath, deviceMountPath, deviceState: 'DeviceNotMounted', pods: {},
  };
  noteState(w, volumeSubject(uniqueName), 'DeviceNotMounted');
}

/**
 * InitializeClaimSize: the size the claim's status gives, recorded once for a volume in the table
 * (the populator calls it each time it processes a pod; a size already known stays).
 * upstream (1.30): actual_state_of_world.go InitializeClaimSize. 1.20 marks a per-pod
 * fsResizeRequired flag instead (MarkFSResizeRequired, logged at -v=3); both make the reconciler
 * start ExpandInUseVolume for a mounted volume whose PV grew past its claim's status.
 */
export function initializeClaimSize(w: Work, volume: string, bytes: number): void {
  const a = w.c.asw[volume];
  if (a && a.claimSize === undefined && bytes > 0) own(w, 'asw')[volume] = { ...a, claimSize: bytes };
}

/** MarkVolumeAsResized: the file system now has the new size. */
export function markVolumeAsResized(w: Work, volume: string, bytes: number): void {
  const a = w.c.asw[volume];
  if (a) own(w, 'asw')[volume] = { ...a, claimSize: bytes };
}

/** The device path WaitForAttach returned (upstream passes it on to MarkDeviceAsMounted). */
export function setDevicePath(w: Work, volume: string, devicePath: string): void {
  const a = w.c.asw[volume];
  if (a) own(w, 'asw')[volume] = { ...a, devicePath };
}

function deviceMutator(type: 'MarkDeviceAsMounted' | 'MarkDeviceAsUncertain' | 'MarkDeviceAsUnmounted') {
  return (w: Work, volume: string): boolean => {
    const a = w.c.asw[volume];
    const next = a && nextDeviceState(a.deviceState, type);
    if (!a || !next || next === 'Detached') return false;
    own(w, 'asw')[volume] = { ...a, deviceState: next };
    noteState(w, volumeSubject(volume), next);
    return true;
  };
}

/** MarkDeviceAsMounted */
export const markDeviceAsMounted = deviceMutator('MarkDeviceAsMounted');
/** MarkDeviceAsUncertain */
export const markDeviceAsUncertain = deviceMutator('MarkDeviceAsUncertain');
/** MarkDeviceAsUnmounted */
export const markDeviceAsUnmounted = deviceMutator('MarkDeviceAsUnmounted');

/** MarkVolumeAsDetached: only a volume whose device is not mounted leaves the table. */
export function markVolumeAsDetached(w: Work, volume: string): AswVolume | undefined {
  const a = w.c.asw[volume];
  if (!a || nextDeviceState(a.deviceState, 'MarkVolumeAsDetached') !== 'Detached') return undefined;
  delete own(w, 'asw')[volume];
  noteState(w, volumeSubject(volume), 'Detached');
  return a;
}

function podMutator(type: 'MarkVolumeAsMounted' | 'MarkVolumeMountAsUncertain') {
  return (w: Work, volume: string, podUid: string, pod: PodVolume): boolean => {
    const a = w.c.asw[volume];
    if (!a) return false; // upstream: "no volume with the name … exists in the list of attached volumes"
    const next = nextPodState(a.pods[podUid]?.state ?? 'VolumeNotMounted', type);
    if (!next || next === 'VolumeNotMounted') return false;
    own(w, 'asw')[volume] = { ...a, pods: { ...a.pods, [podUid]: { ...pod, state: next } } };
    noteState(w, podSubject(volume, pod), next);
    return true;
  };
}

/** MarkVolumeAsMounted: a pod's mount made for good is no longer one reconstruction found. */
export function markVolumeAsMounted(w: Work, volume: string, podUid: string, pod: PodVolume): boolean {
  if (!podMutator('MarkVolumeAsMounted')(w, volume, podUid, pod)) return false;
  forgetReconstructedPod(w, volume, podUid);
  return true;
}
/** MarkVolumeMountAsUncertain */
export const markVolumeMountAsUncertain = podMutator('MarkVolumeMountAsUncertain');

/**
 * CheckAndMarkVolumeAsUncertainViaReconstruction (1.30): a pod's mount found on disk enters the table as uncertain
 * and is remembered as found during reconstruction (foundDuringReconstruction), unless the pod's mount is known already.
 * upstream: v1.30.1 pkg/kubelet/volumemanager/cache/actual_state_of_world.go:428-483.
 */
export function checkAndMarkVolumeAsUncertainViaReconstruction(w: Work, volume: string, podUid: string, pod: PodVolume): boolean {
  // a pod mount the table knows already, mounted or uncertain, is left as it is (:438-446)
  if (getVolumeMountState(w, volume, podUid) !== 'VolumeNotMounted') return false;
  if (!markVolumeMountAsUncertain(w, volume, podUid, pod)) return false;
  const a = w.c.asw[volume]!;
  own(w, 'asw')[volume] = { ...a, foundDuringReconstruction: { ...a.foundDuringReconstruction, [podUid]: true } };
  return true;
}

/** IsVolumeReconstructed: the pod's mount is uncertain and was found during reconstruction (:403-419). */
export const isVolumeReconstructed = (w: Work, volume: string, podUid: string): boolean =>
  getVolumeMountState(w, volume, podUid) === 'VolumeMountUncertain' && !!w.c.asw[volume]?.foundDuringReconstruction?.[podUid];

/** IsVolumeDeviceReconstructed: reconstruction found the volume (:421-426; its pods may all be gone from the list since). */
export const isVolumeDeviceReconstructed = (w: Work, volume: string): boolean => !!w.c.asw[volume]?.foundDuringReconstruction;

/** The pod leaves the volume's foundDuringReconstruction list, the volume stays in the map (MarkVolumeAsMounted :741-744, MarkVolumeAsUnmounted :866-870). */
function forgetReconstructedPod(w: Work, volume: string, podUid: string): void {
  const a = w.c.asw[volume];
  if (!a?.foundDuringReconstruction?.[podUid]) return;
  const found = { ...a.foundDuringReconstruction };
  delete found[podUid];
  own(w, 'asw')[volume] = { ...a, foundDuringReconstruction: found };
}

/** MarkVolumeAsUnmounted: the pod's mountedPod entry goes; returns it. */
export function markVolumeAsUnmounted(w: Work, volume: string, podUid: string): (PodVolume & { state: VolumeMountState }) | undefined {
  const a = w.c.asw[volume];
  const p = a?.pods[podUid];
  if (!a || !p || nextPodState(p.state, 'MarkVolumeAsUnmounted') !== 'VolumeNotMounted') return undefined;
  const pods = { ...a.pods };
  delete pods[podUid];
  own(w, 'asw')[volume] = { ...a, pods };
  forgetReconstructedPod(w, volume, podUid);
  noteState(w, podSubject(volume, p), 'VolumeNotMounted');
  return p;
}
