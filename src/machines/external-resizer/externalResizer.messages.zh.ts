/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'externalResizer.startedPvcProcessing': {
    summary: 'csi-resizer 开始处理申领 {key}。',
  },
  'externalResizer.pvcDeleted': {
    summary: 'csi-resizer 在缓存中找不到申领 {pvc}：无事可做。',
  },
  'externalResizer.pvNotCreatedYet': {
    summary: '申领 {pvc} 还没有卷（spec.volumeName 为空）：csi-resizer 无可扩容。',
  },
  'externalResizer.pvOfPvcNotFound': {
    summary: 'csi-resizer 查看了申领 {pvc}：它所绑定的卷（{pv}）（尚）不存在，无需扩容。',
  },
  'externalResizer.noNeedToResizePvc': {
    summary: 'csi-resizer 查看了申领 {pvc}：它要求的容量不超过已有的，无需扩容。',
  },
  'externalResizer.resizerDoesNotSupportPv': {
    summary: '卷 {pv} 不是 {driver} 的 CSI 卷：这个 csi-resizer 不管它。',
  },
  'externalResizer.pvNotBoundToPvc': {
    summary: '申领 {pvc} 的卷并未绑定到它（其 claimRef 指向另一个申领）：无需扩容。',
  },
  'externalResizer.noNeedToResizePv': {
    summary: '卷 {pv} 已是申领 {pvc} 要求的大小，文件系统由 kubelet 扩展：csi-resizer 无事可做。',
  },
  'externalResizer.grpcCall': {
    summary: 'csi-resizer 调用 CSI 控制器插件的 {method}。',
  },
  'externalResizer.grpcRequest': {
    summary: '发送的请求为 {request}。',
  },
  'externalResizer.grpcResponse': {
    summary: 'CSI 插件的应答为 {response}。',
  },
  'externalResizer.grpcError': {
    summary: '调用以错误 {err} 结束。',
  },
  'externalResizer.resizeVolumeSucceeded': {
    summary: '驱动已扩容卷 {pv}；csi-resizer 接下来更新 PV 的容量。',
  },
  'externalResizer.updatePvCapacity': {
    summary: 'csi-resizer 修补（patch）PV {pv}，写入新容量。',
  },
  'externalResizer.updateCapacitySucceeded': {
    summary: 'PV {pv} 的容量现为 {capacity}。',
  },
  'externalResizer.markFsResizeRequired': {
    summary: '申领 {pvc} 被标记为 FileSystemResizePending：需要由 kubelet 扩容文件系统。',
  },
  'externalResizer.resizeFinished': {
    summary: '申领 {pvc} 已完成扩容：其 status 中的容量现已等于请求的大小。',
  },
  'externalResizer.errorSyncingPvc': {
    summary: '申领扩容失败（{err}）；csi-resizer 以指数退避重试。',
    cause: 'ControllerExpandVolume 或某次 API 写入失败：后端拒绝或超时，或者申领在此期间发生了变化。',
    next: '查看申领上的 VolumeResizeFailed 事件和 CSI 控制器插件的日志；检查后端配额，以及驱动是否支持在线扩容。',
  },
});

export const summariesZh = defineSummaries({});
