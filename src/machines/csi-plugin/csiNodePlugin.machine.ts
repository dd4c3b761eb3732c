/**
 * The CSI node plugin: the driver's Node and Identity services in the DaemonSet pod on every node. The
 * kubelet calls NodeGetInfo at registration, NodeStageVolume (MountDevice) and NodePublishVolume
 * (SetUp), then NodeUnpublishVolume and NodeUnstageVolume on teardown.
 *
 * upstream: container-storage-interface/spec spec.md v1.9.0 (Figures 5/6, "RPC Interactions and
 * Reference Counting"); TencentCloud/kubernetes-csi-tencentcloud driver/cbs/node.go; ceph/ceph-csi
 * internal/rbd/nodeserver.go; kubernetes-csi/drivers pkg/csi-common/utils.go logGRPC.
 * Leaves out: real device discovery (a volume the plugin has not seen is taken as ControllerPublished
 * to this node), filesystem formatting details, block volumes, volume health.
 */
import { enqueueActions, setup } from 'xstate';
import { reaction } from '../shared/reaction.ts';
import type { ClusterEmitted, ClusterEvent, ComponentInput } from '../shared/contract.ts';
import type { DriverProfile } from '../drivers/types.ts';
import { acceptRequest, completeRequest, dropInFlight, initialVolumes, type ExistingVolume, type PluginContext, reacted } from './pluginCore.ts';

export interface CsiNodePluginInput extends ComponentInput {
  /** the driver this plugin is */
  driver: DriverProfile;
  /** the Kubernetes node it runs on (also `host`) */
  nodeName: string;
  /** the CSI node id NodeGetInfo reports: cbs uses the CVM instance id, e.g. "ins-hrlnsway" */
  nodeId: string;
  /** zone for NodeGetInfo accessible_topology when the driver has topology keys */
  zone?: string;
  /** seed for generated values */
  seed: number | string;
  /** volumes already staged/published on this node when the scenario starts */
  volumes?: ExistingVolume[];
}

export type CsiNodePluginContext = PluginContext;

export const csiNodePluginMachine = setup({
  types: {
    context: {} as PluginContext,
    events: {} as ClusterEvent,
    emitted: {} as ClusterEmitted,
    input: {} as CsiNodePluginInput,
  },
  actions: {
    /** the driver's gRPC handler: interceptor logs, lock, lifecycle check, node work started */
    handleGrpcRequest: reaction<PluginContext, ClusterEvent, ClusterEmitted>((context, event) =>
      (event.type === 'csi.request' ? reacted(acceptRequest(context, event)) : { ctx: context, out: [] })),
    /** mount/unmount finished: apply it, log the response, reply */
    finishNodeOperation: reaction<PluginContext, ClusterEvent, ClusterEmitted>((context, event) =>
      (event.type === 'clock.ticked' ? reacted(completeRequest(context, event.key, event.now)) : { ctx: context, out: [] })),
    dropInFlightRequests: enqueueActions(({ context, enqueue }) => {
      enqueue.assign(() => dropInFlight(context));
    }),
  },
}).createMachine({
  id: 'csiNodePlugin',
  initial: 'stopped',
  context: ({ input }) => ({
    side: 'node', driver: input.driver, nodeName: input.nodeName, nodeId: input.nodeId, seed: input.seed, draws: 0,
    ...(input.zone ? { zone: input.zone } : {}),
    volumes: initialVolumes(input.driver, 'node', input.volumes ?? []),
    names: {}, snapshots: {}, pending: {}, locks: {}, grpcSeq: 0,
  }),
  states: {
    stopped: {
      description: 'The node plugin container is not running; the kubelet\'s calls hang until their deadline.',
      on: { 'component.started': { target: 'serving' } },
    },
    serving: {
      description: 'The gRPC server listens on the node socket (/var/lib/kubelet/plugins/<driver>/csi.sock).',
      on: {
        'csi.request': { actions: 'handleGrpcRequest' },
        'clock.ticked': { actions: 'finishNodeOperation' },
        'host.shutdown': { target: 'stopped', actions: 'dropInFlightRequests' },
      },
    },
  },
});
