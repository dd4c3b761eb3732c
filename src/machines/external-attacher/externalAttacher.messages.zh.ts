/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';
import { probeForeverMessagesZh } from '../shared/probeForever.messages.ts';

const statusPatchCause = 'VolumeAttachment 的 status 补丁（patch）失败。';
const statusPatchNext = '检查 API server，以及该边车容器对 volumeattachments/status 的 RBAC 权限。';
const grpcCall = { summary: 'csi-attacher 向 CSI 驱动发送 gRPC 调用 {method}。' };
const grpcResponse = { summary: 'CSI 驱动应答 {method}：{response}，错误 {err}。' };
const PROBE_FOREVER = probeForeverMessagesZh('csi-attacher');

export const messagesZh = defineMessagesZh({
  // 启动（main.go、csi-lib-utils）
  'externalAttacher.version': { summary: 'csi-attacher {version} 启动。' },
  'externalAttacher.connecting': { summary: 'csi-attacher 连接 CSI 驱动的套接字 {address}。' },
  'externalAttacher.probing': { summary: 'csi-attacher 通过 Probe 询问 CSI 驱动是否已就绪。' },
  'externalAttacher.probeTimedOut': PROBE_FOREVER.probeTimedOut,
  'externalAttacher.driverNotReady': PROBE_FOREVER.driverNotReady,

  'externalAttacher.probeFailed': {
    summary: 'Probe 失败（{err}）；csi-attacher 退出。',
    cause: 'CSI 驱动对 Probe 返回了错误。',
    next: '修复 CSI 驱动；边车容器会重启并再次探测。',
  },
  'externalAttacher.getDriverNameFailed': {
    summary: 'GetPluginInfo 失败（{err}）；csi-attacher 退出。',
    cause: 'CSI 驱动对 GetPluginInfo 返回了错误。',
    next: '查看 CSI 驱动的日志；边车容器会重启。',
  },
  'externalAttacher.capabilitiesFailed': {
    summary: '读取插件能力失败（{err}）；csi-attacher 退出。',
    cause: 'GetPluginCapabilities 返回了错误。',
    next: '查看 CSI 驱动的日志；边车容器会重启。',
  },
  'externalAttacher.controllerCapabilitiesFailed': {
    summary: 'ControllerGetCapabilities 失败（{err}）；csi-attacher 退出。',
    cause: 'CSI 驱动对 ControllerGetCapabilities 返回了错误。',
    next: '查看 CSI 驱动的日志；边车容器会重启。',
  },
  'externalAttacher.listVolumesPublishedNodesFailed': {
    summary: '第二次 ControllerGetCapabilities 失败（{err}）；csi-attacher 不使用 LIST_VOLUMES_PUBLISHED_NODES，继续启动。',
    cause: 'CSI 驱动对检查 ListVolumes 能力的那次 ControllerGetCapabilities 调用返回了错误。',
    next: '对挂接无害：attacher 只是不再按后端状态核对 VolumeAttachment。',
  },
  'externalAttacher.driverName': { summary: 'CSI 驱动报告的名称为 {driver}。' },
  'externalAttacher.noControllerService': {
    summary: '驱动没有 Controller 服务：csi-attacher 不调用驱动，直接将每个 VolumeAttachment 标记为已挂接。',
  },
  'externalAttacher.realHandler': {
    summary: '驱动支持 ControllerPublishVolume/ControllerUnpublishVolume：csi-attacher 将调用它们。',
  },
  'externalAttacher.trivialHandler': {
    summary: '驱动不会将卷发布到节点：csi-attacher 不调用驱动，直接将每个 VolumeAttachment 标记为已挂接。',
  },
  'externalAttacher.listVolumesPublishedNodes': {
    summary: '驱动能列出卷被发布到了哪些节点，因此 csi-attacher 将据此协调 VolumeAttachment。',
  },
  'externalAttacher.starting': { summary: 'csi-attacher 启动其 VolumeAttachment 和 PersistentVolume 工作协程。' },

  // gRPC 拦截器
  'externalAttacher.grpcCall': grpcCall,
  'externalAttacher.grpcCallDriver': grpcCall,
  'externalAttacher.grpcCallVA': grpcCall,
  'externalAttacher.grpcRequest': { summary: '{method} 的请求：{request}。' },
  'externalAttacher.grpcResponse': grpcResponse,
  'externalAttacher.grpcResponseDriver': grpcResponse,
  'externalAttacher.grpcResponseVA': grpcResponse,
  'externalAttacher.grpcError': { summary: '{method} 的错误：{err}。' },

  // VolumeAttachment 队列（controller.go）
  'externalAttacher.ignoringVAChange': {
    summary: '{va} 只有挂接/解除挂接错误发生了变化；csi-attacher 不会将其重新入队，以保留其退避状态。',
  },
  'externalAttacher.startedVAProcessing': { summary: 'csi-attacher 从其工作队列中取出 VolumeAttachment {va}。' },
  'externalAttacher.vaDeleted': { summary: 'VolumeAttachment {va} 已不在 informer 缓存中；无需处理。' },
  'externalAttacher.skippingVA': {
    summary: 'VolumeAttachment {va} 属于挂接器 {attacher}，而非本驱动；csi-attacher 不予处理。',
  },

  // csi_handler.go 同步
  'externalAttacher.processingVA': { summary: 'CSI 处理器开始同步 VolumeAttachment {va}。' },
  'externalAttacher.errorProcessing': {
    summary: '同步 {va} 失败（{err}）；它以指数退避重新入队。',
    cause: '针对该 VolumeAttachment 的 CSI 调用或 API 写入失败。',
    next: '阅读错误信息：驱动给出的原因位于 "rpc error: code = …" 之后。VolumeAttachment 的 status.attachError/detachError 中也记录了该错误。',
  },
  'externalAttacher.finishedProcessing': { summary: 'CSI 处理器已完成对 {va} 的同步；其退避已重置。' },
  'externalAttacher.alreadyAttached': { summary: '{va} 已显示为已挂接：无需处理。' },
  'externalAttacher.attaching': { summary: 'csi-attacher 开始挂接 {va}。' },
  'externalAttacher.failedToSaveAttachError': {
    summary: 'csi-attacher 无法将挂接错误写入 {va}：{err}。',
    cause: statusPatchCause,
    next: statusPatchNext,
  },
  'externalAttacher.attached': { summary: '{va} 的 ControllerPublishVolume 调用成功。' },
  'externalAttacher.fullyAttached': { summary: '{va} 已挂接，其 status 也已如实反映。' },
  'externalAttacher.startingDetach': { summary: '{va} 正在被删除：csi-attacher 开始解除挂接。' },
  'externalAttacher.alreadyDetached': { summary: '{va} 上没有挂接器的终结器：它已解除挂接。' },
  'externalAttacher.detaching': { summary: 'csi-attacher 为 {va} 调用 ControllerUnpublishVolume。' },
  'externalAttacher.failedToSaveDetachError': {
    summary: 'csi-attacher 无法将解除挂接错误写入 {va}：{err}。',
    cause: statusPatchCause,
    next: statusPatchNext,
  },
  'externalAttacher.fullyDetached': { summary: '{va} 已解除挂接；终结器移除后，API server 会将其删除。' },
  'externalAttacher.vaFinalizerAlreadySet': { summary: '{va} 上已有挂接器的终结器。' },
  'externalAttacher.vaFinalizerAdded': {
    summary: 'csi-attacher 为 {va} 准备好终结器 {finalizer}（与 node-id 注解在同一个补丁中发送）。',
  },
  'externalAttacher.nodeIDAlreadySet': { summary: '{va} 上已有 node-id 注解 {nodeID}。' },
  'externalAttacher.nodeIDAdded': {
    summary: 'csi-attacher 为 {va} 准备好注解 csi.alpha.kubernetes.io/node-id={nodeID}。',
  },
  'externalAttacher.pvFinalizerAlreadySet': { summary: 'PersistentVolume {pv} 上已有挂接器的终结器。' },
  'externalAttacher.addingPVFinalizer': {
    summary: 'csi-attacher 为 PersistentVolume {pv} 添加其终结器，使该 PV 在挂接期间无法被删除。',
  },
  'externalAttacher.pvFinalizerAdded': { summary: 'PersistentVolume {pv} 上现已有挂接器的终结器。' },
  'externalAttacher.startingAttach': { summary: 'csi-attacher 为 {va} 收集 PV、节点 ID 和卷能力。' },
  'externalAttacher.detached': { summary: '{va} 的 ControllerUnpublishVolume 调用成功。' },
  'externalAttacher.savingAttachError': { summary: 'csi-attacher 将挂接错误写入 {va} 的 status.attachError。' },
  'externalAttacher.savedAttachError': { summary: '{va} 的 status.attachError 现已记录该错误。' },
  'externalAttacher.savingDetachError': { summary: 'csi-attacher 将解除挂接错误写入 {va} 的 status.detachError。' },
  'externalAttacher.savedDetachError': { summary: '{va} 的 status.detachError 现已记录该错误。' },
  'externalAttacher.foundNodeID': { summary: 'CSINode {node} 表明驱动将此节点识别为 {nodeID}。' },
  'externalAttacher.csiNodeLacksDriver': {
    summary: 'CSINode {node} 中没有驱动 {driver} 的条目：节点插件尚未在该节点上注册。',
  },
  'externalAttacher.cantGetCSINode': { summary: 'csi-attacher 无法从 CSINode 读取 {node} 的节点 ID：{err}。' },

  // util.go
  'externalAttacher.markingAsAttached': { summary: 'csi-attacher 在 {va} 上设置 status.attached=true。' },
  'externalAttacher.markedAsAttached': {
    summary: '{va} 现已显示 attached=true；attach/detach 控制器将看到这一变化。',
  },
  'externalAttacher.alreadyFullyDetached': { summary: '{va} 既没有终结器，也没有 attached=true：无需更新。' },
  'externalAttacher.markingAsDetached': { summary: 'csi-attacher 在 {va} 上设置 status.attached=false。' },
  'externalAttacher.finalizerRemoved': { summary: 'csi-attacher 已从 {va} 移除其终结器。' },

  // trivial handler
  'externalAttacher.trivialSyncStarted': { summary: 'trivial 处理器同步 {va}。' },
  'externalAttacher.trivialMarkFailed': {
    summary: 'trivial 处理器未能将 {va} 标记为已挂接：{err}。',
    cause: statusPatchCause,
    next: statusPatchNext,
  },
  'externalAttacher.trivialMarked': { summary: 'trivial 处理器未发起任何 CSI 调用，直接将 {va} 标记为已挂接。' },

  // PersistentVolume 队列
  'externalAttacher.startedPVProcessing': { summary: 'csi-attacher 从其 PV 队列中取出 PersistentVolume {pv}。' },
  'externalAttacher.pvDeleted': { summary: 'PersistentVolume {pv} 已不存在；无需处理。' },
  'externalAttacher.processingPV': { summary: 'CSI 处理器检查 PersistentVolume {pv} 是否仍需要挂接器的终结器。' },
  'externalAttacher.pvNoDeletionTimestamp': { summary: 'PersistentVolume {pv} 未在删除中：其终结器保留。' },
  'externalAttacher.pvNoFinalizer': { summary: 'PersistentVolume {pv} 上没有挂接器的终结器：无需移除。' },
  'externalAttacher.pvVAFound': { summary: 'VolumeAttachment {va} 仍在使用 PersistentVolume {pv}：终结器保留。' },
  'externalAttacher.pvNoVAFound': {
    summary: '已没有 VolumeAttachment 使用 PersistentVolume {pv}：csi-attacher 移除其终结器。',
  },
  'externalAttacher.pvFinalizerRemoveFailed': {
    summary: 'csi-attacher 无法从 PersistentVolume {pv} 移除其终结器：{err}。',
    cause: '对该 PV 的补丁（patch）失败。',
    next: '检查 API server；csi-attacher 会以退避方式重试。',
  },
  'externalAttacher.pvFinalizerRemoved': { summary: 'csi-attacher 已从 PersistentVolume {pv} 移除其终结器。' },
});

export const summariesZh = defineSummaries({
  'externalAttacher.addPVFinalizer': 'csi-attacher 为 PersistentVolume {pv} 添加终结器 {finalizer}。',
  'externalAttacher.saveVAMetadata': 'csi-attacher 为 VolumeAttachment {va} 添加其终结器和 node-id 注解（{nodeID}）。',
  'externalAttacher.controllerPublishVolume': 'csi-attacher 调用 ControllerPublishVolume，将 {volumeHandle} 挂接到节点 {nodeID}。',
  'externalAttacher.markAttached': 'csi-attacher 将 VolumeAttachment {va} 标记为已挂接（status.attached=true）。',
  'externalAttacher.controllerUnpublishVolume': 'csi-attacher 调用 ControllerUnpublishVolume，将 {volumeHandle} 从节点 {nodeID} 解除挂接。',
  'externalAttacher.markDetached': 'csi-attacher 将 VolumeAttachment {va} 标记为已解除挂接（status.attached=false）。',
  'externalAttacher.removeVAFinalizer': 'csi-attacher 从 VolumeAttachment {va} 移除其终结器。',
  /** what: "attach" 或 "detach"（运行时填入英文原词） */
  'externalAttacher.saveError': 'csi-attacher 将 {what} 错误保存到 VolumeAttachment {va}：{err}',
  'externalAttacher.removePVFinalizer': 'csi-attacher 从 PersistentVolume {pv} 移除其终结器：已没有 VolumeAttachment 使用它。',
});
