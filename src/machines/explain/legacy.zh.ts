/** legacy.ts in Simplified Chinese: the older sidecars' lines the explainer knows. Same ids, same {placeholders}. */
import type { MessageCatalogZh } from '../shared/messages.ts';

export const legacyMessagesZh: MessageCatalogZh = {
  'pvController.deleteOperationFailed': {
    summary: 'PV 控制器删除卷 {pv} 失败；它将在 {duration} 后重试：{err}',
    cause: '树内（in-tree）或已迁移的卷的删除器失败，或者控制器不认识该 PV 的插件（CSI PV 由它的 external-provisioner 删除，不在这里）。',
    next: '阅读错误。“no deletable volume plugin matched”：该 PV 的驱动没有能删除它的制备器；请手动删除磁盘和 PV。',
  },
  'pvController.provisionOperationFailed': {
    summary: 'PV 控制器为申领 {claim} 的制备失败；它将在 {duration} 后重试：{err}',
    cause: '树内制备器失败；对 CSI 存储类，申领由 external-provisioner 负责，不会出现这一行。',
    next: '阅读错误以及该申领的 ProvisioningFailed 事件。',
  },
  'kubelet.nodeSupportsStageUnstage': { summary: 'kubelet 询问节点插件（NodeGetCapabilities）是否暂存卷（STAGE_UNSTAGE_VOLUME），MountDevice 和 SetUp 在各自的调用之前都会这样做（UnmountDevice 也是）。' },
  'kubelet.nodeSupportsNodeExpand': { summary: 'kubelet 在 NodeExpandVolume 之前询问节点插件（NodeGetCapabilities）是否扩展文件系统（EXPAND_VOLUME）。' },
  'kubelet.nodeSupportsVolumeStats': { summary: 'kubelet 为它的指标询问节点插件（NodeGetCapabilities）是否报告卷用量（GET_VOLUME_STATS）：不属于卷生命周期的任何一步。' },
  'kubelet.volumeDataSaved': { summary: 'kubelet 在挂载点旁保存卷的数据文件（vol_data.json：驱动、卷句柄、PV），以便重启后仍能卸载它。' },
  'externalProvisioner.legacyStartingController': { summary: '制备控制器 {name} 启动它的申领和卷循环。' },
  'externalProvisioner.legacySavingInBackground': { summary: 'csi-provisioner 将通过一个会重试的后台队列保存它创建的 PersistentVolume。' },
  'externalProvisioner.legacyClaimSucceeded': { summary: '申领工作线程处理完申领 {uid}：它不再处于进行中。' },
  'externalProvisioner.parameterDeprecated': {
    summary: 'StorageClass 仍在使用参数 {param}；csi-provisioner 在准备 CreateVolume 时读取它，但要求改用 {newParam}。',
    next: '暂时无害：改用新的 StorageClass 参数名（StorageClass 的参数不能修改，需要新建一个类）。',
  },
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
  'csiControllerPlugin.legacyCephCreatedVolume': { summary: '卷 {requestName} 已存在，由 RBD 镜像 {imageName} 提供存储。' },
  'csiControllerPlugin.legacyCephSnapCreate': { summary: 'ceph-csi 创建快照 {snapName}（这行旧日志没有写出快照所属的镜像）。' },
  'csiControllerPlugin.legacyCephClone': { summary: 'ceph-csi 从快照 {parentName}@{snapName} 克隆出镜像 {cloneName}。' },
  'csiControllerPlugin.legacyCephTempImageNotFound': { summary: '临时克隆镜像 {imageName} 不存在，此处无需删除。' },
};
