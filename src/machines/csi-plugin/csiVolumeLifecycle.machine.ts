/**
 * The CSI volume lifecycle of the spec, one volume as its plugin sees it.
 * upstream: container-storage-interface/spec spec.md v1.9.0 "Volume Lifecycle" (Figures 5 and 6, lines
 * 164-257) and "RPC Interactions and Reference Counting": with STAGE_UNSTAGE_VOLUME, NodeStageVolume
 * must succeed before any NodePublishVolume and every NodeUnpublishVolume before NodeUnstageVolume;
 * ControllerUnpublishVolume comes after both; DeleteVolume only for a volume published nowhere.
 *
 * The plugin machines never run this as an actor: they keep `{value, context}` per volume and ask
 * `snapshot.can(event)` (every allowed event has a target or an action, so `can` sees it) / `transition(machine, snapshot, event)` whether an RPC is allowed. Repeats
 * of an RPC whose effect is already in place are targetless transitions (idempotent OK).
 * Leaves out: ControllerModifyVolume, the pre-provisioned ValidateVolumeCapabilities loop (Figure 7).
 */
import { and, assign, setup } from 'xstate';

export interface CsiVolumeLifecycleContext {
  /** the node plugin advertises STAGE_UNSTAGE_VOLUME (Figure 6) */
  stageUnstage: boolean;
  /** the volume may be published to several nodes (MULTI_NODE_* access modes) */
  multiNode: boolean;
  /** controller view: node ids the volume is published to */
  nodes: string[];
  /** node view: target paths it is published at */
  targets: string[];
}

export type CsiVolumeLifecycleEvent =
  | { type: 'csi.createVolume' }
  | { type: 'csi.deleteVolume' }
  | { type: 'csi.controllerPublishVolume'; nodeId: string }
  | { type: 'csi.controllerUnpublishVolume'; nodeId: string }
  | { type: 'csi.nodeStageVolume' }
  | { type: 'csi.nodeUnstageVolume' }
  | { type: 'csi.nodePublishVolume'; targetPath: string }
  | { type: 'csi.nodeUnpublishVolume'; targetPath: string };

export type CsiVolumeLifecycleState = 'absent' | 'CREATED' | 'NODE_READY' | 'VOL_READY' | 'PUBLISHED' | 'deleted';

export const csiVolumeLifecycleMachine = setup({
  types: {
    context: {} as CsiVolumeLifecycleContext,
    events: {} as CsiVolumeLifecycleEvent,
    input: {} as Partial<CsiVolumeLifecycleContext>,
  },
  guards: {
    isStageUnstageAdvertised: ({ context }) => context.stageUnstage,
    isStageUnstageNotAdvertised: ({ context }) => !context.stageUnstage,
    isPublishedToThisNode: ({ context, event }) => 'nodeId' in event && context.nodes.includes(event.nodeId),
    isMultiNodePublishAllowed: ({ context }) => context.multiNode,
    isLastPublishedNode: ({ context, event }) =>
      'nodeId' in event && context.nodes.length === 1 && context.nodes[0] === event.nodeId,
    isPublishedAtTarget: ({ context, event }) => 'targetPath' in event && context.targets.includes(event.targetPath),
    isLastTarget: ({ context, event }) =>
      'targetPath' in event && context.targets.length === 1 && context.targets[0] === event.targetPath,
  },
  actions: {
    /** a repeat whose effect is already in place: OK without change (spec: "All RPCs MUST be idempotent") */
    confirmIdempotentRepeat: () => {},
    addPublishedNode: assign({ nodes: ({ context, event }) => ('nodeId' in event ? [...context.nodes, event.nodeId] : context.nodes) }),
    removePublishedNode: assign({ nodes: ({ context, event }) => context.nodes.filter((n) => !('nodeId' in event) || n !== event.nodeId) }),
    addTargetPath: assign({ targets: ({ context, event }) => ('targetPath' in event ? [...context.targets, event.targetPath] : context.targets) }),
    removeTargetPath: assign({ targets: ({ context, event }) => context.targets.filter((t) => !('targetPath' in event) || t !== event.targetPath) }),
  },
}).createMachine({
  id: 'csiVolumeLifecycle',
  initial: 'absent',
  context: ({ input }) => ({
    stageUnstage: input.stageUnstage ?? true, multiNode: input.multiNode ?? false,
    nodes: input.nodes ?? [], targets: input.targets ?? [],
  }),
  states: {
    absent: {
      description: 'The volume does not exist in the backend (yet). DeleteVolume of it is OK (spec: not found -> 0 OK).',
      on: { 'csi.createVolume': { target: 'CREATED' }, 'csi.deleteVolume': { actions: 'confirmIdempotentRepeat' } },
    },
    CREATED: {
      description: 'CreateVolume succeeded: the volume exists but is published to no node.',
      on: {
        'csi.createVolume': { actions: 'confirmIdempotentRepeat' },
        'csi.controllerPublishVolume': { target: 'NODE_READY', actions: 'addPublishedNode' },
        'csi.controllerUnpublishVolume': { actions: 'confirmIdempotentRepeat' },
        'csi.deleteVolume': { target: 'deleted' },
      },
    },
    NODE_READY: {
      description: 'ControllerPublishVolume succeeded: the volume is attached to the node and may be staged there.',
      on: {
        'csi.createVolume': { actions: 'confirmIdempotentRepeat' },
        'csi.controllerPublishVolume': [
          { guard: 'isPublishedToThisNode', actions: 'confirmIdempotentRepeat' },
          { guard: 'isMultiNodePublishAllowed', actions: 'addPublishedNode' },
        ],
        'csi.controllerUnpublishVolume': [
          { guard: 'isLastPublishedNode', target: 'CREATED', actions: 'removePublishedNode' },
          { actions: 'removePublishedNode' },
        ],
        'csi.nodeStageVolume': { guard: 'isStageUnstageAdvertised', target: 'VOL_READY' },
        'csi.nodeUnstageVolume': { actions: 'confirmIdempotentRepeat' },
        'csi.nodePublishVolume': { guard: 'isStageUnstageNotAdvertised', target: 'PUBLISHED', actions: 'addTargetPath' },
        'csi.nodeUnpublishVolume': { actions: 'confirmIdempotentRepeat' },
      },
    },
    VOL_READY: {
      description: 'NodeStageVolume succeeded: the device is formatted and mounted at the staging path.',
      on: {
        'csi.nodeStageVolume': { actions: 'confirmIdempotentRepeat' },
        'csi.nodeUnstageVolume': { target: 'NODE_READY' },
        'csi.nodePublishVolume': { target: 'PUBLISHED', actions: 'addTargetPath' },
        'csi.nodeUnpublishVolume': { actions: 'confirmIdempotentRepeat' },
      },
    },
    PUBLISHED: {
      description: 'NodePublishVolume succeeded: the volume is bind-mounted at the pod\'s target path.',
      on: {
        'csi.nodeStageVolume': { actions: 'confirmIdempotentRepeat' },
        'csi.nodePublishVolume': [{ guard: 'isPublishedAtTarget', actions: 'confirmIdempotentRepeat' }, { actions: 'addTargetPath' }],
        'csi.nodeUnpublishVolume': [
          { guard: and(['isLastTarget', 'isStageUnstageAdvertised']), target: 'VOL_READY', actions: 'removeTargetPath' },
          { guard: 'isLastTarget', target: 'NODE_READY', actions: 'removeTargetPath' },
          { actions: 'removeTargetPath' },
        ],
      },
    },
    deleted: {
      description: 'DeleteVolume succeeded: the volume is gone from the backend.',
      type: 'final',
    },
  },
});
