/** legacy.ts in Simplified Chinese: the older sidecars' lines the explainer knows. Same ids, same {placeholders}. */
import type { MessageCatalogZh } from '../shared/messages.ts';

export const legacyMessagesZh: MessageCatalogZh = {
  'externalProvisioner.legacyStartingController': { summary: '制备控制器 {name} 启动它的申领和卷循环。' },
  'externalProvisioner.legacySavingInBackground': { summary: 'csi-provisioner 将通过一个会重试的后台队列保存它创建的 PersistentVolume。' },
  'externalProvisioner.legacyClaimSucceeded': { summary: '申领工作线程处理完申领 {uid}：它不再处于进行中。' },
  'externalProvisioner.legacyRetryingBelowThreshold': {
    summary: '制备申领 {claim} 再次失败；只要失败次数低于阈值，控制器就会重试。',
    cause: 'CreateVolume 或保存 PV 失败；external-provisioner v1.0 在一个申领失败 15 次后放弃它。',
    next: '查看 error syncing claim 这一行和 ProvisioningFailed 事件，驱动的 CreateVolume 错误就在其中。',
  },
  'externalAttacher.legacyStillTrying': { summary: 'sidecar 仍在等待 CSI 驱动的套接字（连接状态 {state}）。' },
  'externalAttacher.legacyReconciling': { summary: 'csi-attacher 把它的 VolumeAttachment 与驱动报告的已发布卷（ListVolumes）进行比对。' },
  'externalAttacher.legacyForcedReprocessing': {
    summary: 'VolumeAttachment {va} 显示 attached 为 {attached}，而驱动报告为 {actual}：csi-attacher 重新处理它。',
    cause: '卷在 Kubernetes 不知情的情况下被解除挂接或挂接（在云控制台手动操作，或驱动在故障后自行处理）。',
    next: '观察该 VolumeAttachment：csi-attacher 会再次调用 ControllerPublishVolume，使两者一致。',
  },
  'nodeDriverRegistrar.legacyDiscoverNodeId': { summary: 'node-driver-registrar v1.0 自己向驱动询问节点 ID（NodeGetInfo）。' },
  'nodeDriverRegistrar.legacyNodeId': { summary: '驱动报告节点 ID {nodeID}。' },
  'nodeDriverRegistrar.legacyNodeAnnotation': { summary: '没有 --kubelet-registration-path 时，node-driver-registrar v1.0 自己在 Node 上写入节点 ID 注解。' },
};
