/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';
import { probeForeverMessagesZh } from '../shared/probeForever.messages.ts';

const PROBE_FOREVER = probeForeverMessagesZh('csi-provisioner');

export const messagesZh = defineMessagesZh({
  'externalProvisioner.detectedDriver': {
    summary: 'csi-provisioner 通过 GetPluginInfo 获知驱动名称 {driver}。',
  },
  'externalProvisioner.probeTimedOut': PROBE_FOREVER.probeTimedOut,
  'externalProvisioner.driverNotReady': PROBE_FOREVER.driverNotReady,
  'externalProvisioner.probeFailed': {
    summary: 'Probe 失败（{err}）；csi-provisioner 退出。',
    cause: 'CSI 驱动对 Probe 返回了错误（不是超时）。', next: '修复 CSI 驱动；kubelet 会重启 csi-provisioner 容器，它会再次探测。',
  },
  'externalProvisioner.getDriverNameFailed': {
    summary: 'GetPluginInfo 失败（{err}）；csi-provisioner 退出。',
    cause: 'CSI 驱动对 GetPluginInfo 返回了错误。', next: '查看 CSI 驱动的日志；kubelet 会重启 csi-provisioner 容器。',
  },
  'externalProvisioner.capabilitiesFailed': {
    summary: '读取驱动的能力失败（{err}）；csi-provisioner 退出。',
    cause: 'GetPluginCapabilities 或 ControllerGetCapabilities 返回了错误。', next: '查看 CSI 驱动的日志；kubelet 会重启 csi-provisioner 容器。',
  },
  'externalProvisioner.startedController': {
    summary: '制备器控制器 {component} 开始监视申领。',
  },
  'externalProvisioner.grpcCall': {
    summary: 'csi-provisioner 调用 CSI 控制器插件的 {method}。',
  },
  'externalProvisioner.grpcRequest': {
    summary: '随调用发送的请求：{request}',
  },
  'externalProvisioner.grpcResponse': {
    summary: 'CSI 插件的应答：{response}',
  },
  'externalProvisioner.grpcError': {
    summary: '调用以错误 {err} 结束。',
  },
  'externalProvisioner.provisionStarted': {
    summary: 'csi-provisioner 开始为申领 {claim}（StorageClass {class}）制备卷。',
  },
  'externalProvisioner.createVolumeFailed': {
    summary: 'CreateVolume 失败；制备器判断该卷是否可能仍在创建中（{state}）。',
  },
  'externalProvisioner.createdPV': {
    summary: 'csi-provisioner 基于卷 {handle} 为申领 {claimName} 构建 PersistentVolume {pv}。',
  },
  'externalProvisioner.volumeProvisioned': {
    summary: '申领 {claim} 的卷 {pv} 已存在于存储后端中。',
  },
  'externalProvisioner.savingPV': {
    summary: 'csi-provisioner 创建 PersistentVolume 对象 {pv}。',
  },
  'externalProvisioner.savedPV': {
    summary: 'PersistentVolume 对象 {pv} 已保存到 API 服务器。',
  },
  'externalProvisioner.provisionSucceeded': {
    summary: '申领 {claim} 的 CreateVolume 已完成：csi-provisioner 把 PersistentVolume 交给它的卷存储（volume store），接下来由它保存。',
  },
  'externalProvisioner.finalError': {
    summary: '该错误为最终错误：没有正在为申领（uid {uid}）创建的卷；下一次尝试将从头开始。',
  },
  'externalProvisioner.temporaryError': {
    summary: '该错误不是最终错误：卷可能仍在创建中，因此申领（uid {uid}）保持为“进行中”，并以相同的名称重试。',
  },
  'externalProvisioner.shouldDelete': { summary: 'csi-provisioner 的卷队列检查 PersistentVolume {pv} 是否应当删除。' },
  'externalProvisioner.shouldDeleteFinalizerRemoved': { summary: 'PersistentVolume {pv} 正在删除，且已没有 csi-provisioner 的 finalizer：它的卷已经删过了。' },
  'externalProvisioner.shouldDeleteBeingDeleted': { summary: 'PersistentVolume {pv} 正在删除（没有 csi-provisioner 的 finalizer 时，这里不删除它）。' },
  'externalProvisioner.shouldDeleteNotReleased': { summary: 'PersistentVolume {pv} 不是 Released：没有要删除的。' },
  'externalProvisioner.shouldDeleteNotDeletePolicy': { summary: 'PersistentVolume {pv} 已 Released，但回收策略不是 Delete：它保留。' },
  'externalProvisioner.shouldDeleteTrue': { summary: 'PersistentVolume {pv} 已 Released 且回收策略为 Delete：csi-provisioner 删除它。' },
  'externalProvisioner.syncVolumeDeleting': { summary: 'syncVolume 接着删除 PersistentVolume {pv}。' },
  'externalProvisioner.claimProcessed': {
    summary: '该 claim 的同步已完成（claim uid {uid}）：csi-provisioner 不再把它记为进行中。',
    explain: 'provisionClaimOperation 没有返回错误时，syncClaim 在 -v=5 打印这一行：PV 已保存之后，或者创建失败后 PV 已交给保存队列之后。',
  },
  'externalProvisioner.retryingVolume': {
    summary: '同步卷 {pv} 失败（此前已失败 {failures} 次）；卷工作队列按退避重试（--retry-interval-start 1s，加倍直到 --retry-interval-max 5m）。',
    cause: 'DeleteVolume、PV 的删除或 finalizer 补丁失败；前一行说明是哪一个。',
    next: '查看 VolumeFailedDelete 事件和 CSI controller 插件中该 DeleteVolume 的日志；sidecar 以退避方式一直重试直到成功（--failed-delete-threshold 为 0：从不放弃）。',
  },
  'externalProvisioner.errorSyncingVolume': {
    summary: '卷的 worker 报告 {pv} 同步失败：{err}',
    cause: '删除卷失败；错误与 VolumeFailedDelete 事件中的相同，或来自 API server。',
    next: '“rpc error:” 之后的文字来自驱动：查看 CSI controller 插件中该 DeleteVolume 的日志。',
  },
  'externalProvisioner.deletePVFailed': {
    summary: 'csi-provisioner 已在后端删除了卷，但无法删除 PersistentVolume {pv}：{err}。它会再试。',
  },
  'externalProvisioner.cloneRetryingClaim': {
    summary: '申领 {key} 的克隆保护暂时还不能解除（此前已尝试 {failures} 次）：它的某个克隆仍处于 Pending，或上一次写入失败。之后会带退避重试。',
    cause: '该申领正在被删除，而从它克隆出的申领仍在制备中。',
    next: '等待克隆进入 Bound，或查看它的制备为何失败（它的 ProvisioningFailed 事件）。',
  },
  'externalProvisioner.cloneFinalizerRemoveFailed': {
    summary: 'csi-provisioner 没能摘掉申领 {name} 上的克隆保护 finalizer；它会再试。',
  },
  'externalProvisioner.retryingClaim': {
    summary: '申领 {claim} 的制备失败（此前已失败 {failures} 次）；工作队列将在 {delay} 后重试。',
    cause: 'CreateVolume 或保存 PV 失败；查看 ProvisioningFailed 事件，以及本行之前的 GRPC error 行。',
    next: '检查 CSI 控制器插件日志中的 CreateVolume 错误；边车容器以 1s → 5m 的退避不断重试，直至成功。',
  },
  'externalProvisioner.errorSyncingClaim': {
    summary: '申领工作协程报告 {claim} 同步失败：{err}',
    cause: '这次制备失败了；错误与 ProvisioningFailed 事件所带的相同。',
    next: '“rpc error:” 之后的文字来自驱动：查看 CSI 控制器插件日志中对应的 CreateVolume。',
  },
  'externalProvisioner.saveFailed': {
    summary: '创建 PersistentVolume 对象 {pv} 失败：csi-provisioner 把它留在保存队列里，在后台重新创建。',
    cause: 'API 服务器拒绝了 PV 的创建或没有应答；卷已存在于存储后端。',
    next: 'API 服务器恢复前无需操作：队列存储以退避方式重试，申领不会被再次制备。',
  },
  'externalProvisioner.saveRetryFailed': {
    summary: '一次后台保存 PersistentVolume 再次失败：{err}',
    cause: 'API 服务器仍然拒绝 PV 的创建。',
    next: '保存队列会以加倍的间隔再试。',
  },
  'externalProvisioner.volumeEnqueued': {
    summary: 'PersistentVolume {pv} 回到保存队列。',
  },
  'externalProvisioner.savingPVRetry': {
    summary: '保存队列再次创建 PersistentVolume {pv}。',
  },
  'externalProvisioner.savedPVRetry': {
    summary: '保存队列已把 PersistentVolume {pv} 存入 API 服务器。',
  },
  'externalProvisioner.deleteStarted': {
    summary: 'csi-provisioner 开始删除处于 Released 状态的卷 {pv}。',
  },
  'externalProvisioner.noDeletionSecrets': {
    summary: 'PersistentVolume {pv} 记录着它的 StorageClass 没有指定 provisioner secret：DeleteVolume 不带 secrets。',
  },
  'externalProvisioner.deletionCredentialsFailed': {
    summary: 'csi-provisioner 读不到 {pv} 上记录的 Secret：DeleteVolume 不带 secrets 继续（{err}）。',
    cause: 'PV 的 volume.kubernetes.io/provisioner-deletion-secret-* 注解指定的 provisioner Secret 已不存在或无法读取。',
    next: '需要 secret 才能删除的驱动（如 ceph-csi）随后会让 DeleteVolume 失败：按原名重新创建该 Secret。',
  },
  'externalProvisioner.deletionCredentialsFromClassFailed': {
    summary: 'csi-provisioner 读不到 {pv} 的 StorageClass 指定的 provisioner Secret：DeleteVolume 不带 secrets 继续（{err}）。',
    cause: 'StorageClass 指定的 Secret（csi.storage.k8s.io/provisioner-secret-name 与 -namespace）已不存在或无法读取。',
    next: '需要 secret 才能删除的驱动随后会让 DeleteVolume 失败：按原名重新创建该 Secret。',
  },
  'externalProvisioner.deleteFailed': {
    summary: '{pv} 的 DeleteVolume 失败：{err}',
    cause: '存储后端拒绝删除该卷，或没有完成删除（卷仍处于挂接状态、正忙或无法访问）。',
    next: '查看 VolumeFailedDelete 事件和 CSI 控制器插件日志；边车容器会以退避方式重试。',
  },
  'externalProvisioner.volumeDeleted': {
    summary: '{pv} 的后端卷已删除。',
  },
  'externalProvisioner.pvDeleted': {
    summary: 'csi-provisioner 已删除 PersistentVolume 对象 {pv}（最后一个 finalizer 去掉后它才真正消失）。',
  },
  'externalProvisioner.removeFinalizerFailed': {
    summary: 'csi-provisioner 未能去掉 {pv} 上自己的 finalizer：{err}',
    cause: '卷本身删除之后，对 PV finalizer 的补丁失败了。',
    next: '该 PV 会被再次同步；finalizer 还在时，PV 对象一直停留在 Terminating。',
  },
  'externalProvisioner.deleteSucceeded': {
    summary: '{pv} 的删除已完成。',
  },
});

export const summariesZh = defineSummaries({
  'externalProvisioner.createPV': 'csi-provisioner 为申领 {claim} 创建 PersistentVolume {pv}（volumeHandle {handle}）。',
  'externalProvisioner.getSnapshot': 'csi-provisioner 读取申领 {claim} 的数据源 VolumeSnapshot {snapshot}。',
  'externalProvisioner.setCloneFinalizer': '在请求克隆之前，csi-provisioner 给克隆 {claim} 的源申领 {source} 加上 finalizer {finalizer}：源申领在被克隆期间不能被删除。',
  'externalProvisioner.removeCloneFinalizer': '申领 {source} 正在被删除，且没有处于 Pending 的克隆：csi-provisioner 摘掉它的 finalizer {finalizer}。',
  'externalProvisioner.getSnapshotContent': 'csi-provisioner 读取绑定到 {snapshot} 的 VolumeSnapshotContent {content}，以取得其快照句柄。',
  'externalProvisioner.getProvisionerSecret': 'csi-provisioner 读取 StorageClass 指定的 provisioner secret {secret}：其中的键放进为声明 {claim} 发出的 CreateVolume（日志里显示为 ***stripped***）。',
  'externalProvisioner.getDeletionSecret': 'csi-provisioner 读取 DeleteVolume 删除 {pv} 所需的 Secret {secret}。',
  'externalProvisioner.deletePV': 'csi-provisioner 删除 PersistentVolume {pv}。',
  'externalProvisioner.createPVAgain': 'csi-provisioner 的保存队列再次创建 PersistentVolume {pv}（第一次创建失败）。',
  'externalProvisioner.addFinalizer': 'csi-provisioner 给 PersistentVolume {pv} 加上自己的 finalizer {finalizer}（HonorPVReclaimPolicy）。',
  'externalProvisioner.removeFinalizer': 'csi-provisioner 去掉 PersistentVolume {pv} 上自己的 finalizer {finalizer}：后端卷已删除。',
  'externalProvisioner.removePolicyFinalizer': 'csi-provisioner 去掉 PersistentVolume {pv} 上自己的 finalizer {finalizer}：它的回收策略已不是 Delete。',
});
