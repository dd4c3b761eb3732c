/**
 * zh-CN text of the CSI RPC prose (rpcs.ts): same services and RPCs, same codes in the same order;
 * only the prose is translated. RPC names, gRPC codes and capability names stay in English.
 * test/i18n/componentProse.zh.test.ts checks the shapes.
 */
import type { CsiService } from '../../machines/view/components.ts';
import type { RpcProse } from './rpcs.ts';

export const SERVICE_PROSE_ZH: Record<CsiService, { title: string; summary: string }> = {
  Identity: {
    title: 'Identity 服务',
    summary: '每个插件都提供，控制器插件和节点插件都一样：驱动是谁、能做什么、是否已就绪。边车容器在启动时询问。',
  },
  Controller: {
    title: 'Controller 服务',
    summary: '由控制器插件提供：无需在使用卷的节点上执行的卷操作（创建、删除、挂接到节点、解除挂接、快照、扩容）。控制器 Pod 中的边车容器调用它。',
  },
  Node: {
    title: 'Node 服务',
    summary: '由每个节点上的节点插件提供：必须在使用卷的节点上执行的操作（暂存、发布及其逆操作）。kubelet 调用它。',
  },
  Registration: {
    title: 'kubelet 插件注册',
    summary: '不属于 CSI：这是 kubelet 自己用来发现插件的 API。node-driver-registrar 在 kubelet 的 plugins_registry 目录中的一个套接字上提供它；kubelet 调用它。',
  },
};

const VOLUME_NOT_FOUND = '卷不存在';
const OTHER_OPERATION = '该卷上另有操作正在进行';
const BAD_TOKEN = '起始令牌（starting token）无效';
const SIZE_NOT_SUPPORTED = '不支持所请求的大小';

export const RPC_PROSE_ZH: Record<string, RpcProse> = {
  GetPluginInfo: {
    does: '返回驱动的名称（例如 rbd.csi.ceph.com）和版本。该名称必须与 CSIDriver 对象、StorageClass 的制备器（provisioner）以及 PersistentVolume 的 spec.csi.driver 一致。',
    caller: '每个边车容器在启动时调用，以得知自己服务的是哪个驱动；node-driver-registrar 在打开注册套接字之前调用。',
    codes: [],
  },
  GetPluginCapabilities: {
    does: '说明插件提供哪些服务（CONTROLLER_SERVICE），以及卷是否有拓扑约束（VOLUME_ACCESSIBILITY_CONSTRAINTS）。',
    caller: 'external-provisioner 和 external-attacher 在启动时调用。',
    codes: [],
  },
  Probe: {
    does: '询问插件是否已准备好提供服务。',
    caller: '边车容器在启动时反复调用，直到驱动回答已就绪（csi-lib-utils 的 ProbeForever）；存活探针（liveness probe）也会调用。',
    codes: [{ code: 'FAILED_PRECONDITION', when: '插件不健康或缺少某个依赖；调用方会再次探测' }],
  },
  CreateVolume: {
    does: '根据名称、容量范围、卷能力（访问模式；文件系统还是块设备）、StorageClass 参数，以及可选的拓扑要求或内容来源（快照，或要克隆的卷）创建一个卷。返回卷 ID，它成为 PV 的 volumeHandle。',
    caller: 'external-provisioner，为交给其驱动的每个申领调用；名称为 pvc-<claim UID>，因此重试请求的是同一个卷。',
    codes: [
      { code: 'ALREADY_EXISTS', when: '同名的卷已存在但与请求不符（相符的卷则返回 OK：该调用是幂等的）' },
      { code: 'RESOURCE_EXHAUSTED', when: '拓扑允许的位置上没有容量；制备器可能会请调度器另选一个节点' },
      { code: 'OUT_OF_RANGE', when: '无法满足容量范围' },
      { code: 'NOT_FOUND', when: '要从中复制的快照或卷不存在' },
      { code: 'ABORTED', when: '针对该卷名的操作已在进行中；稍后重试' },
    ],
  },
  DeleteVolume: {
    does: '按 ID 删除卷。删除一个不存在的卷视为成功。',
    caller: 'external-provisioner，针对它所制备的、reclaimPolicy 为 Delete 且处于 Released 状态的 PersistentVolume 调用。',
    codes: [
      { code: 'FAILED_PRECONDITION', when: '卷仍在某处处于发布（挂接）状态，或有快照阻止删除' },
      { code: 'ABORTED', when: OTHER_OPERATION },
    ],
  },
  ControllerPublishVolume: {
    does: '让卷对某个节点可用，通常是把磁盘挂接到一台机器上。返回一个发布上下文（publish context），之后的节点调用会收到它。',
    caller: 'external-attacher，为其驱动的每个 VolumeAttachment 调用；发布上下文保存在该 VolumeAttachment 的 status.attachmentMetadata 中。',
    codes: [
      { code: 'NOT_FOUND', when: '卷或节点不存在' },
      { code: 'FAILED_PRECONDITION', when: '卷已发布到另一个节点，而其访问模式只允许一个节点（错误消息应写明那个节点）' },
      { code: 'ALREADY_EXISTS', when: '已以不兼容的能力发布到该节点' },
      { code: 'RESOURCE_EXHAUSTED', when: '该节点已达到可挂接卷数的上限' },
      { code: 'ABORTED', when: OTHER_OPERATION },
    ],
  },
  ControllerUnpublishVolume: {
    does: '撤销 ControllerPublishVolume：把卷从节点上解除挂接。必须在该节点上的每个 NodeUnpublishVolume 和 NodeUnstageVolume 都成功之后进行。对未发布的卷取消发布视为成功。',
    caller: 'external-attacher，在 attach/detach 控制器删除 VolumeAttachment 时调用。',
    codes: [
      { code: 'NOT_FOUND', when: '卷或节点不存在，且插件无法将其视为已取消发布' },
      { code: 'ABORTED', when: OTHER_OPERATION },
    ],
  },
  ValidateVolumeCapabilities: {
    does: '检查一个已有的卷是否支持给定的能力。',
    caller: 'Kubernetes 的边车容器很少使用；它是规范中为预先制备的卷准备的部分。',
    codes: [{ code: 'NOT_FOUND', when: VOLUME_NOT_FOUND }],
  },
  ListVolumes: {
    does: '列出卷；插件具有 LIST_VOLUMES_PUBLISHED_NODES 能力时，还列出每个卷发布到的节点。',
    caller: 'external-attacher 可选的协调器（--reconcile-sync），用来找出声称已挂接、而存储一侧并不这么认为的 VolumeAttachment。',
    codes: [{ code: 'ABORTED', when: BAD_TOKEN }],
  },
  GetCapacity: {
    does: '报告可用容量，可按拓扑段和参数分别报告。',
    caller: 'external-provisioner，在启用存储容量跟踪时调用（为调度器生成 CSIStorageCapacity 对象）。',
    codes: [],
  },
  ControllerGetCapabilities: {
    does: '列出 Controller 服务支持的功能：CREATE_DELETE_VOLUME、PUBLISH_UNPUBLISH_VOLUME、CREATE_DELETE_SNAPSHOT、EXPAND_VOLUME、LIST_VOLUMES 等。',
    caller: '边车容器在启动时调用。external-attacher 根据 PUBLISH_UNPUBLISH_VOLUME 选择它的真实处理器还是简易处理器（trivial handler）。',
    codes: [],
  },
  CreateSnapshot: {
    does: '以给定的名称为卷创建快照；返回快照的 ID、大小以及是否已可以使用。',
    caller: 'csi-snapshotter 边车容器，为 snapshot-controller 创建的 VolumeSnapshotContent 调用。',
    codes: [
      { code: 'ALREADY_EXISTS', when: '同名快照已存在，但属于另一个源卷' },
      { code: 'ABORTED', when: '针对该快照的操作已在进行中' },
      { code: 'RESOURCE_EXHAUSTED', when: '没有空间存放该快照' },
    ],
  },
  DeleteSnapshot: {
    does: '按 ID 删除快照。删除不存在的快照视为成功。',
    caller: 'csi-snapshotter 边车容器，在 deletionPolicy 为 Delete 的 VolumeSnapshotContent 被删除时调用。',
    codes: [
      { code: 'FAILED_PRECONDITION', when: '快照正在使用中，例如作为正在创建的卷的来源' },
      { code: 'ABORTED', when: '该快照上有操作正在进行' },
    ],
  },
  ListSnapshots: {
    does: '列出快照，或报告某一个快照的情况。',
    caller: 'csi-snapshotter 边车容器，用来轮询尚未就绪的快照。',
    codes: [{ code: 'ABORTED', when: BAD_TOKEN }],
  },
  ControllerExpandVolume: {
    does: '在存储系统中扩容卷；说明节点是否还须扩展文件系统（node_expansion_required）。',
    caller: 'external-resizer，在已绑定的申领请求更多存储时调用。',
    codes: [
      { code: 'NOT_FOUND', when: VOLUME_NOT_FOUND },
      { code: 'FAILED_PRECONDITION', when: '卷正在使用中，而插件只能离线扩容' },
      { code: 'OUT_OF_RANGE', when: SIZE_NOT_SUPPORTED },
    ],
  },
  ControllerGetVolume: {
    does: '报告单个卷的状态及其发布位置（在支持时还包括卷的健康状况）。',
    caller: 'external-health-monitor 边车容器（在部署了它的地方）。',
    codes: [{ code: 'NOT_FOUND', when: VOLUME_NOT_FOUND }],
  },
  NodeStageVolume: {
    does: '在节点上为已挂接的卷做一次准备，位于所有 Pod 共享的暂存路径：（借助发布上下文）找到设备，必要时格式化，并挂载到 …/globalmount。',
    caller: 'kubelet 的 MountDevice 步骤；当节点插件通告 STAGE_UNSTAGE_VOLUME 时，每个卷在每个节点上调用一次。',
    codes: [
      { code: 'NOT_FOUND', when: '卷不存在（或其设备不在）' },
      { code: 'ALREADY_EXISTS', when: '已以不兼容的能力暂存在该路径' },
      { code: 'FAILED_PRECONDITION', when: '卷能力与该卷不符' },
    ],
  },
  NodeUnstageVolume: {
    does: '撤销 NodeStageVolume：卸载暂存路径。在该节点上该卷的每个 NodeUnpublishVolume 之后进行。',
    caller: 'kubelet 的 UnmountDevice 步骤，在节点上已没有 Pod 使用该卷时调用。',
    codes: [{ code: 'NOT_FOUND', when: VOLUME_NOT_FOUND }],
  },
  NodePublishVolume: {
    does: '让卷可供一个 Pod 使用：把暂存路径绑定挂载（或直接挂载设备）到该 Pod 的目标路径，如有要求则以只读方式挂载。',
    caller: 'kubelet 的 SetUp 步骤，每个使用该卷的 Pod 一次。',
    codes: [
      { code: 'NOT_FOUND', when: VOLUME_NOT_FOUND },
      { code: 'ALREADY_EXISTS', when: '已以不同的能力发布在该目标路径' },
      { code: 'FAILED_PRECONDITION', when: '需要暂存但尚未暂存（没有暂存路径），或者一个单写者（single-writer）卷已发布在别处' },
    ],
  },
  NodeUnpublishVolume: {
    does: '撤销 NodePublishVolume：卸载 Pod 的目标路径。',
    caller: 'kubelet 的 TearDown 步骤，在 Pod 离开时调用。',
    codes: [{ code: 'NOT_FOUND', when: VOLUME_NOT_FOUND }],
  },
  NodeGetVolumeStats: {
    does: '报告已挂载卷已用和可用的字节数与 inode 数（在支持时还包括其健康状况）。',
    caller: 'kubelet 定期调用，用于卷的指标。',
    codes: [{ code: 'NOT_FOUND', when: '在给定路径上找不到该卷' }],
  },
  NodeExpandVolume: {
    does: '在 ControllerExpandVolume 扩容卷之后，在节点上扩展文件系统。',
    caller: 'kubelet，针对标记为 FileSystemResizePending 的申领调用。',
    codes: [
      { code: 'NOT_FOUND', when: VOLUME_NOT_FOUND },
      { code: 'FAILED_PRECONDITION', when: '卷在当前状态下无法扩容' },
      { code: 'OUT_OF_RANGE', when: SIZE_NOT_SUPPORTED },
    ],
  },
  NodeGetCapabilities: {
    does: '列出 Node 服务支持的功能，主要是 STAGE_UNSTAGE_VOLUME、GET_VOLUME_STATS 和 EXPAND_VOLUME。',
    caller: 'kubelet，在决定一次挂载是否需要暂存步骤之前调用（因此它出现在每个 NodeStageVolume 和 NodePublishVolume 之前）。',
    codes: [],
  },
  NodeGetInfo: {
    does: '返回节点在存储系统中的 ID（云主机实例 ID）、它最多能接纳的卷数，以及它的拓扑。',
    caller: 'kubelet 在注册驱动时调用；该 ID 写入 CSINode 对象，external-attacher 从那里读取它，用于 ControllerPublishVolume。',
    codes: [],
  },
  GetInfo: {
    does: '返回插件类型（CSIPlugin）、驱动名称、驱动套接字的端点以及它支持的 CSI 版本。',
    caller: 'kubelet 的插件监视器（plugin watcher），在 plugins_registry 中出现注册套接字时调用。',
    codes: [],
  },
  NotifyRegistrationStatus: {
    does: '告诉 registrar（node-driver-registrar）kubelet 是否已注册该插件，未注册时附上错误。',
    caller: 'kubelet，在尝试注册驱动之后调用。',
    codes: [],
  },
};
