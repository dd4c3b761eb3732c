/**
 * The CSI controller plugin: the driver's Controller and Identity services, run next to the
 * external-provisioner, -attacher, -resizer and -snapshotter sidecars, which call it over its socket.
 * It serves CreateVolume/DeleteVolume, ControllerPublish/Unpublish, snapshots and expansion against a
 * simulated storage backend (a cloud disk API, or ceph RBD with its omap journal).
 *
 * upstream: container-storage-interface/spec spec.md v1.9.0 (lifecycle, error codes, idempotency);
 * TencentCloud/kubernetes-csi-tencentcloud driver/cbs/controller.go; ceph/ceph-csi internal/rbd
 * controllerserver.go, rbd_journal.go, clone.go, rbd_util.go; kubernetes-csi/drivers
 * pkg/csi-common/utils.go logGRPC.
 * Leaves out: ListSnapshots, GetCapacity, ControllerGetVolume, ControllerModifyVolume, topology-aware
 * placement, cloud API errors other than injected faults.
 */
import { enqueueActions, setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import type { DriverProfile } from '../drivers/types.ts';
import { cephSeedVolume, emptyCephState, uuidOf } from './cephJournal.ts';
import { acceptRequest, completeRequest, dropInFlight, initialVolumes, isCeph, type ExistingVolume, type PluginContext, reacted } from './pluginCore.ts';

export interface CsiControllerPluginInput extends ComponentInput {
  /** the driver this plugin is (com.tencent.cloud.csi.cbs, rbd.csi.ceph.com) */
  driver: DriverProfile;
  /** seed for generated ids (disk ids, ceph UUIDs); the same seed gives the same ids */
  seed: number | string;
  /** zone reported in CreateVolume's accessible_topology when the driver has topology keys (cbs: "ap-guangzhou-3") */
  zone?: string;
  /**
   * volumes that exist in the backend before the scenario starts, e.g. cbs
   * `{ volumeId: 'disk-adge0gvc', name: 'pvc-…', publishedNodeIds: ['ins-ngtfnf7y'] }`; for ceph-csi the
   * volume id must be a ComposeCSIID id and its journal entries and image are created too
   */
  volumes?: ExistingVolume[];
}

export type CsiControllerPluginContext = PluginContext;

function initialContext(input: CsiControllerPluginInput): PluginContext {
  const existing = input.volumes ?? [];
  let ceph = isCeph(input.driver) ? emptyCephState() : undefined;
  if (ceph && input.driver.ceph) {
    existing.forEach((v, i) => {
      ceph = cephSeedVolume(input.driver.ceph!, ceph!, v.name ?? v.volumeId, uuidOf(v.volumeId), v.capacityBytes ?? 1024 ** 3, (0x2aa2c1b62ed876 + i).toString(16));
    });
  }
  return {
    side: 'controller', driver: input.driver, seed: input.seed, draws: 0,
    ...(typeof (input as { epochUs?: unknown }).epochUs === 'number' ? { epochUs: (input as { epochUs?: number }).epochUs } : {}),
    ...(input.zone ? { zone: input.zone } : {}),
    volumes: initialVolumes(input.driver, 'controller', existing),
    names: Object.fromEntries(existing.map((v) => [v.name ?? v.volumeId, v.volumeId])),
    snapshots: {}, ...(ceph ? { ceph } : {}), pending: {}, locks: {}, grpcSeq: 0,
  };
}

export const csiControllerPluginMachine = setup({
  types: {
    context: {} as PluginContext,
    events: {} as ClusterEvent,
    emitted: {} as ClusterEmitted,
    input: {} as CsiControllerPluginInput,
  },
  actions: {
    /** the driver's gRPC handler: interceptor logs, lock, lifecycle check, backend work started */
    handleGrpcRequest: reaction<PluginContext, ClusterEvent, ClusterEmitted>((context, event) =>
      (event.type === 'csi.request' ? reacted(acceptRequest(context, event)) : { ctx: context, out: [] })),
    /** the backend finished an operation: apply it, log the response, reply */
    finishBackendOperation: reaction<PluginContext, ClusterEvent, ClusterEmitted>((context, event) =>
      (event.type === 'clock.ticked' ? reacted(completeRequest(context, event.key, event.now)) : { ctx: context, out: [] })),
    dropInFlightRequests: enqueueActions(({ context, enqueue }) => {
      enqueue.assign(() => dropInFlight(context));
    }),
  },
}).createMachine({
  id: 'csiControllerPlugin',
  initial: 'stopped',
  context: ({ input }) => initialContext(input),
  states: {
    stopped: {
      description: 'The plugin process is not running; calls to its socket hang until the caller\'s deadline.',
      on: { 'component.started': { target: 'serving' } },
    },
    serving: {
      description: 'The gRPC server listens on the controller socket (csi.sock).',
      on: {
        'csi.request': { actions: 'handleGrpcRequest' },
        'clock.ticked': { actions: 'finishBackendOperation' },
        'host.shutdown': { target: 'stopped', actions: 'dropInFlightRequests' },
      },
    },
  },
});
