/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'attachDetachController.removingPodFromDsw': {
    summary: '期望状态填充器（desired-state populator）将 Pod {pod} 从期望状态（desired state of world）中移除：Pod informer 中已没有这个 Pod。',
    explain: '该 Pod 已被删除，但删除时无法解析出它的卷（其 PVC 已不存在）；周期性运行的填充器会清理这条过期条目，使该卷能够被解除挂接。',
  },
  'attachDetachController.detachVolumeStarted': {
    summary: 'attach/detach 控制器开始将 {specName} 从节点 {node} 解除挂接：该节点上已没有 Pod 需要它，且 kubelet 不再报告它正在使用。',
  },
  'attachDetachController.forceDetachStarted': {
    summary: 'attach/detach 控制器将 {specName} 从节点 {node} 强制解除挂接：kubelet 仍报告该卷正在使用，但 Pod 消失后已过去 {duration}。',
    cause: '节点（或其 kubelet）已停止上报：控制器开始要求解除挂接（Pod 被删除或离开该节点时）6 分钟后，volumesInUse 中仍列有该卷。',
    next: '检查节点是否已宕机；强制解除挂接一个仍处于挂载状态的卷可能会损坏卷上的数据。',
  },
  'attachDetachController.outOfServiceDetachStarted': {
    summary: 'attach/detach 控制器立即将 {specName} 从节点 {node} 解除挂接，不检查它是否已卸载：该节点带有停止服务（out-of-service）污点。',
    explain: '非体面节点关闭（1.28+）：运维人员给节点加上污点 node.kubernetes.io/out-of-service，声明它已关机。控制器不再等待 kubelet 卸载，也不等 6 分钟超时。',
  },
  'attachDetachController.attachVolumeStarted': {
    summary: 'attach/detach 控制器开始将 {specName} 挂接到节点 {node}，使用该卷的 Pod 已被调度到这个节点。',
  },
  'attachDetachController.multiAttachExclusive': {
    summary: 'attach/detach 控制器拒绝将 {specName} 挂接到节点 {node}：这是一个 ReadWriteOnce 卷，仍挂接在 {otherNodes} 上。',
    cause: '该卷仍挂接在另一个节点上：那里已没有 Pod 需要它，但其解除挂接尚未完成（那个节点上的 kubelet 还没有卸载它，或该节点已宕机）。',
    next: '如果另一个节点运行正常，其 kubelet 会卸载该卷，随后完成解除挂接：检查 VolumeAttachment 中是否有 detachError。如果该节点已宕机，其 kubelet 永远不会卸载：控制器只有在 maxWaitForUnmountDuration（6 分钟）之后才会强制解除挂接；若设置了 --disable-force-detach-on-timeout（1.30+），或该节点仍为 Ready（kubernetes#110721；刚宕机的节点默认还会保持 Ready 约 40 秒，直到节点生命周期控制器把它标记为 Unknown），则不会强制解除挂接。恢复该节点；或者在它确实已关机后，为它添加污点 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute（1.28+），控制器便会立即解除挂接。',
  },
  'attachDetachController.multiAttachUsedByPods': {
    summary: 'attach/detach 控制器拒绝将 {specName} 挂接到节点 {node}：{otherNodes} 上的 Pod {pods} 仍在使用这个 ReadWriteOnce 卷。',
    cause: '另一个节点上的另一个 Pod 仍在使用这个 ReadWriteOnce 卷。最常见的情形：单副本 Deployment 使用默认的 RollingUpdate 策略，新 Pod 在旧 Pod 停止之前就已启动；或者旧 Pod 卡在 Terminating，而它所在的节点已宕机；或者多副本 Deployment 共用同一个申领。',
    next: '对于单副本 Deployment，设置 strategy: Recreate（或使用 ReadWriteOncePod 访问模式（1.29+），让新 Pod 改为在调度阶段等待）。对于卡在已宕机节点上、处于 Terminating 的 Pod：恢复该节点；或在它确实已关机后为它添加污点 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute（1.28+：其上的 Pod 会被删除，卷会立即被解除挂接）；或强制删除该 Pod（此后解除挂接仍要为宕机节点等待 6 分钟）。对于多副本：使用每个 Pod 各有一个 PVC 的 StatefulSet，或使用 ReadWriteMany 卷。',
  },
  'attachDetachController.updateNodeStatusesFailed': {
    summary: 'attach/detach 控制器在解除挂接 {specName} 之前未能写入节点 {node} 的状态：它跳过这次解除挂接，稍后再试。',
  },
  'attachDetachController.nodeStatusRemarked': {
    summary: 'attach/detach 控制器未能写入节点 {node} 的 status.volumesAttached；它把该节点标记为需要再次写入。',
    cause: '对该 Node 状态的 PATCH 失败了（API 服务器拒绝了请求或没有应答）。',
    next: '通常是暂时的：reconciler 在下一轮（每 100 毫秒）会再次写入。如果一直失败，请阅读错误：控制器的 RBAC、作用于 nodes/status 的准入 webhook，或 API 服务器本身。',
  },
  'attachDetachController.updateNodeStatusesFailedWith': {
    summary: 'reconciler 写入节点状态失败；它的下一轮会再次写入。',
  },
  'attachDetachController.verifiedSafeToDetach': {
    summary: '控制器读取了 Node {node}：{specName} 不在其 volumesInUse 中，因此可以安全地解除挂接。',
  },
  'attachDetachController.nodeNotFoundSkipVerify': {
    summary: 'Node {node} 已不存在，因此控制器跳过安全解除挂接检查，直接解除挂接 {specName}。',
    cause: '该 Node 对象被删除时，仍有卷挂接在它上面。',
    next: '如果该节点是有意移除的，则无需处理。',
  },
  'attachDetachController.attachSucceeded': {
    summary: '{specName} 的 VolumeAttachment 报告已挂接：该卷已挂接到节点 {node}。',
  },
  'attachDetachController.detachSucceeded': {
    summary: '节点 {node} 上 {specName} 的 VolumeAttachment 已不存在：该卷已解除挂接。',
  },
  'attachDetachController.csiAttachmentBeingDeleted': {
    summary: '挂接不再等待：VolumeAttachment {vaName} 正在被删除。',
    explain: '控制器在等待 external-attacher 挂接该卷，却发现它的 VolumeAttachment 带有删除时间戳：同一卷和节点的解除挂接正在进行，所以这次挂接立即失败，并按退避重试。',
  },
  'attachDetachController.csiAttachmentFailed': {
    summary: '卷 {handle} 的挂接失败：external-attacher 把驱动的错误保存在 VolumeAttachment 中：{err}',
    explain: 'external-attacher 把 ControllerPublishVolume 的错误写入 status.attachError；控制器的等待在那里读到它，挂接失败，并按退避重试。',
  },
  'attachDetachController.csiWaitTimedOut': {
    summary: '等待 external-attacher 在 {timeout} 后放弃：卷 {handle} 的 VolumeAttachment {vaName} 始终没有报告结果。',
    explain: '控制器已创建（或删除）VolumeAttachment，并等待 external-attacher 设置 status.attached（或删除该对象）；在 csiTimeout 内没有任何结果，于是操作失败，并按退避重试。external-attacher 是否在运行？它是否是 leader？',
  },
  'attachDetachController.csiDetachmentFailed': {
    summary: '卷 {handle} 的解除挂接失败：external-attacher 把驱动的错误保存在 VolumeAttachment 中：{err}',
    explain: 'external-attacher 把 ControllerUnpublishVolume 的错误写入 status.detachError；控制器的等待在那里读到它，解除挂接失败，并按退避重试。',
  },
  'attachDetachController.volumesAreAttachedFailed': {
    summary: '周期性检查（syncStates）找不到 VolumeAttachment {vaName}：它所代表的卷已不再挂接到那个节点。',
    explain: 'attach/detach 控制器每分钟检查一次它认为已挂接的每个卷是否仍然挂接；对 CSI 卷来说，就是读取它的 VolumeAttachment。对象不存在时记一条错误，下一行把卷标记为已解除挂接。',
    cause: '控制器仍认为卷已挂接，而 VolumeAttachment 已被删除（解除挂接完成了，或有人删除了它）。',
    next: '通常无需处理：控制器把卷标记为已解除挂接，如果那个节点上的 Pod 仍需要它，会再次挂接。如果反复出现，查一查是谁在删除 VolumeAttachment。',
  },
  'attachDetachController.vaMarkedUncertain': {
    summary: '节点 {node} 上有一个 {specName} 的 VolumeAttachment，而控制器（它重启过）并不认为该卷已挂接：它把这次挂接记为不确定；如果该节点上没有 Pod 需要这个卷，就解除挂接。',
  },
  'attachDetachController.volumeMarkedDetachedBySync': {
    summary: 'syncStates 在实际状态（actual state of world）中把 {specName} 标记为已从节点 {node} 解除挂接：它的 VolumeAttachment 表明它没有挂接。如果那里的 Pod 仍需要它，协调器会再次挂接。',
    explain: 'attach/detach 控制器的周期性检查（每隔 --attach-detach-reconcile-sync-period，默认 1 分钟）会纠正实际状态中“卷已挂接”、而卷其实并未挂接的记录。',
  },
  'attachDetachController.operationFailed': {
    summary: '{operation} 操作失败；在 {durationBeforeRetry} 过去之前，控制器不会重试：{error}',
    cause: '挂接或解除挂接没有完成：external-attacher 在 VolumeAttachment 上报告了错误、操作超时，或 kubelet 仍在使用该卷。',
    next: '查看 VolumeAttachment 的状态（attachError/detachError）和 csi-attacher 日志；重试的退避时间从 500ms 逐步增加到 2m2s。',
  },
});

export const summariesZh = defineSummaries({
  'attachDetachController.createVolumeAttachment': 'attach/detach 控制器创建 VolumeAttachment {vaName}，请求 external-attacher 将 {specName} 挂接到 {node}。',
  'attachDetachController.deleteVolumeAttachment': 'attach/detach 控制器删除 VolumeAttachment {vaName}，请求 external-attacher 将 {specName} 从 {node} 解除挂接。',
  'attachDetachController.updateVolumesAttached': 'attach/detach 控制器写入节点 {nodeName} 的 status.volumesAttached：{volumes}。',
});
