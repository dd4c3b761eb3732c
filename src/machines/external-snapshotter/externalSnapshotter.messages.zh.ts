/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'externalSnapshotter.enqueued': {
    summary: 'csi-snapshotter 把 VolumeSnapshotContent {content} 放入队列，等待同步。',
  },
  'externalSnapshotter.syncContentByKey': {
    summary: 'csi-snapshotter 的一个工作协程从队列中取出 {content}。',
  },
  'externalSnapshotter.storeAdding': {
    summary: 'csi-snapshotter 把 {content}（resourceVersion {version}）加入它的缓存。',
  },
  'externalSnapshotter.storeUpdating': {
    summary: 'csi-snapshotter 在缓存中把 {content} 更新到 resourceVersion {version}。',
  },
  'externalSnapshotter.storeIgnoring': {
    summary: 'csi-snapshotter 的缓存中已有比 resourceVersion {version} 更新的 {content}：无需同步。',
  },
  'externalSnapshotter.contentDeleted': {
    summary: 'VolumeSnapshotContent {content} 已不存在：csi-snapshotter 把它从缓存中移除。',
  },
  'externalSnapshotter.synchronizingContent': {
    summary: 'csi-snapshotter 检查 VolumeSnapshotContent {content}。',
  },
  'externalSnapshotter.checkShouldDelete': {
    summary: 'csi-snapshotter 检查 {content} 是否应被删除。',
  },
  'externalSnapshotter.deletionPolicy': {
    summary: '{content} 正在被删除，其 deletionPolicy 为 {policy}。',
  },
  'externalSnapshotter.setBeingCreated': {
    summary: 'csi-snapshotter 在调用 CreateSnapshot 之前给 {content} 加上 volumesnapshot-being-created 注解：在驱动给出最终答复之前，该 content 不会被删除。',
  },
  'externalSnapshotter.removedBeingCreated': {
    summary: '驱动已给出最终答复：{content} 上的 volumesnapshot-being-created 注解被移除。',
  },
  'externalSnapshotter.clearContentStatus': {
    summary: '快照已删除：csi-snapshotter 清除 {content} 状态中的快照句柄。',
  },
  'externalSnapshotter.callCreateSnapshot': {
    summary: '{content} 还没有状态：csi-snapshotter 为它创建快照。',
  },
  'externalSnapshotter.checkandUpdateStarted': {
    summary: '{content} 的上一次尝试失败了（其状态中记有错误）：csi-snapshotter 检查并更新它，再次制作快照。',
  },
  'externalSnapshotter.checkandUpdateError': {
    summary: '{content} 的重试也失败了；它将以退避方式再次尝试。',
    cause: 'CSI 插件再次拒绝了 CreateSnapshot 或超时，或者边车容器的某次写入失败。', next: '查看内容对象上的 SnapshotContentCheckandUpdateFailed 事件和 CSI 控制器插件的日志。',
  },
  'externalSnapshotter.updateContentErrorStatus': {
    summary: 'csi-snapshotter 把错误写入 {content} 的状态，除非它已经在那里。',
  },
  'externalSnapshotter.createSnapshotStarted': {
    summary: 'csi-snapshotter 开始为 {content} 创建快照。',
  },
  'externalSnapshotter.createSnapshotWrapper': {
    summary: 'csi-snapshotter 请求 CSI 插件为 {content} 创建快照。',
  },
  'externalSnapshotter.getCSISnapshotInput': {
    summary: 'csi-snapshotter 读取 {content} 的类以及它的注解所指定的 Secret（CreateSnapshot 的输入）。',
  },
  'externalSnapshotter.credentialsFailed': {
    summary: 'csi-snapshotter 读不到 {content} 的注解所指定的 Secret：{err}',
    cause: 'VolumeSnapshotClass 的快照 Secret（csi.storage.k8s.io/snapshotter-secret-name 与 -namespace）记在内容对象上，即 snapshot.storage.kubernetes.io/deletion-secret-name 与 -namespace；该 Secret 已不存在或无法读取。',
    next: '按原名创建该 Secret：边车容器会以退避方式重试。',
  },
  'externalSnapshotter.createSnapshotReturnedError': {
    summary: '{content} 的 CreateSnapshot 失败：{err}。',
  },
  'externalSnapshotter.createSnapshotError': {
    summary: '为 {content} 创建快照失败；将以退避方式重试。',
    cause: 'CSI 插件拒绝了 CreateSnapshot，或调用超时。',
    next: '查看该 VolumeSnapshotContent 上的 SnapshotCreationFailed 事件和 CSI 控制器插件的日志。',
  },
  'externalSnapshotter.createdSnapshot': {
    summary: '驱动已创建快照 {snapshotId}（{size} 字节，readyToUse {readyToUse}）。',
  },
  'externalSnapshotter.updateSnapshotContentStatus': {
    summary: 'csi-snapshotter 将快照句柄（snapshot handle）写入 {content} 的 status。',
  },
  'externalSnapshotter.deleteSnapshotStarted': {
    summary: 'csi-snapshotter 删除 {content} 所对应的快照。',
  },
  'externalSnapshotter.csiCreateSnapshot': {
    summary: 'csi-snapshotter 开始 CSI CreateSnapshot {name}。',
  },
  'externalSnapshotter.grpcCall': {
    summary: 'csi-snapshotter 调用 CSI 控制器插件的 {method}。',
  },
  'externalSnapshotter.grpcRequest': {
    summary: '发送的请求为 {request}。',
  },
  'externalSnapshotter.grpcResponse': {
    summary: 'CSI 插件的应答为 {response}。',
  },
  'externalSnapshotter.grpcError': {
    summary: '调用以错误 {err} 结束。',
  },
  'externalSnapshotter.removedContentFinalizer': {
    summary: '{content} 的终结器已移除：API 服务器随即删除它。',
  },
});

export const summariesZh = defineSummaries({});
