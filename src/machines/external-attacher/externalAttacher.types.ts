/**
 * Input and context of the external-attacher machine.
 */
import type { ComponentInput } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import type { DriverProfile } from '../drivers/types.ts';
import type { WorkQueue } from './helpers.ts';
import type { StateValue } from 'xstate';

export interface ExternalAttacherInput extends ComponentInput {
  /** the CSI driver this sidecar serves; only VolumeAttachments with spec.attacher === its name are processed */
  driver: DriverProfile;
  /** wall-clock epoch (µs) of virtual time 0: for status.attachError.time / detachError.time (default 0) */
  epochUs?: number;
  /** --csi-address, printed by the "Connecting to" line (default "/csi/csi.sock") */
  csiAddress?: string;
  /** --worker-threads (default 10): VolumeAttachments processed at the same time */
  workerThreads?: number;
}

/** One VolumeAttachment sync in progress (csi_handler.go syncAttach / syncDetach). */
export interface VaOperation {
  name: string;
  mode: 'attach' | 'detach' | 'trivial';
  /** the VA as the operation last saw it (updated by its own writes) */
  va: K8sObject;
  pvName?: string;
  volumeHandle?: string;
  nodeID?: string;
  /** the PV as the operation last saw it (after its finalizer patch) */
  pv?: K8sObject;
  /** the ControllerPublishVolume request, built before the VA patch */
  request?: Record<string, unknown>;
  /** what the VA patch adds: the finalizer and/or the node-id annotation */
  patch?: { finalizers?: string[]; annotations?: Record<string, string> };
  /** the error being saved into status.attachError / detachError */
  err?: string;
}

export type PendingStep =
  | { queue: 'startup'; rpc: string; round?: number }
  /** a write or call of a VA's sync: which one it is, so that its answer becomes the right fact for the VA's lifecycle */
  | { queue: 'va'; name: string; request: 'pvFinalizer' | 'vaMetadata' | 'publish' | 'markAttached' | 'saveError' | 'unpublish' | 'markDetached' | 'removeFinalizer' }
  | { queue: 'pv'; name: string; step: 'pvRemoveFinalizer' };

export interface ExternalAttacherContext {
  input: ExternalAttacherInput;
  /** csiAttacher: the driver name from GetPluginInfo */
  driverName: string;
  /** 'csi' = real CSI handler (ControllerPublish/Unpublish); 'trivial' = mark attached without gRPC */
  handler: 'csi' | 'trivial' | null;
  /** PUBLISH_READONLY: readonly is passed through only then */
  supportsReadOnly: boolean;
  /** the driver's SINGLE_NODE_MULTI_WRITER controller capability: the access mode mapping csi-lib-utils uses (v4.x) */
  supportsSingleNodeMultiWriter?: boolean;
  /** request id counter */
  seq: number;
  /** informer caches */
  vas: Record<string, K8sObject>;
  pvs: Record<string, K8sObject>;
  csiNodes: Record<string, K8sObject>;
  vaQueue: WorkQueue;
  pvQueue: WorkQueue;
  /** outstanding API writes and CSI calls by request id */
  pending: Record<string, PendingStep>;
  /** VA syncs in progress */
  ops: Record<string, VaOperation>;
  /** per-VA lifecycle (volumeAttachment.machine.ts): its state value; what the attacher does next follows from it */
  lifecycles: Record<string, StateValue>;
}
