/** Context, input and helpers shared by the attach/detach controller's modules. */
import type { ClusterEmitted, ComponentInput } from '../shared/contract.ts';
import type { K8sObject } from '../shared/k8s.ts';
import type { PendingOperations, OperationKey } from '../shared/nestedPendingOperations.ts';
import type { ActualStateOfWorld } from './cache/actualStateOfWorld.ts';
import type { DesiredStateOfWorld } from './cache/desiredStateOfWorld.ts';

export interface AttachDetachControllerInput extends ComponentInput {
  /** CSI drivers that need attach (CSIDriver.spec.attachRequired true); CSIDriver objects seen on the watch override this */
  attachRequiredDrivers?: string[];
  /** wall-clock epoch (µs) of virtual time 0: for the "No retries permitted until" time */
  epochUs?: number;
  /** the kube-controller-manager host's time zone (KCM logs in local time), default UTC */
  timezone?: { offsetMin: number; zone: string };
  /** the process's monotonic uptime (µs) when it starts, printed as m=+… */
  uptimeAtStartUs?: number;
}

export type Phase = 'createVolumeAttachment' | 'waitForAttach' | 'getNode' | 'deleteVolumeAttachment' | 'waitForDetach';

/** One attach or detach operation in flight (the goroutine nestedpendingoperations runs). */
export interface RunningOperation {
  key: OperationKey;
  kind: 'volume_attach' | 'volume_detach';
  volumeName: string;
  specName: string;
  node: string;
  driver: string;
  handle: string;
  pvName: string;
  vaName: string;
  phase: Phase;
  startedAt: number;
  verifySafeToDetach: boolean;
  /** pods to record events on (attach) */
  pods: Array<{ namespace: string; name: string }>;
  requestId?: string;
}

export interface PvInfo { name: string; driver: string; handle: string; multiAttachAllowed: boolean }

export interface AdcContext {
  input: Required<Pick<AttachDetachControllerInput, 'epochUs' | 'uptimeAtStartUs'>> & AttachDetachControllerInput & { timezone: { offsetMin: number; zone: string } };
  seq: number;
  startedAt: number;
  pods: Record<string, K8sObject>;
  pvcs: Record<string, K8sObject>;
  pvs: Record<string, PvInfo>;
  nodes: Record<string, K8sObject>;
  vas: Record<string, K8sObject>;
  attachRequired: Record<string, boolean>;
  dsw: DesiredStateOfWorld;
  asw: ActualStateOfWorld;
  ops: PendingOperations;
  running: Record<string, RunningOperation>;
  /** last status.volumesAttached written per node (to skip identical patches) */
  reported: Record<string, string>;
  /** time of the scheduled reconcile tick, or 0 */
  reconcileAt: number;
  /** time of the scheduled desired-state populator pass, or 0 */
  populatorAt: number;
  /** some pod could not be added (its node was not managed yet): the next re-list must find it */
  populatorNeedsList: boolean;
  /** when the populator last listed every pod (findAndAddActivePods) */
  populatorListedAt: number;
}

export interface Out { ctx: AdcContext; out: ClusterEmitted[] }
