/** zh-CN titles and one-line summaries of the chapters (chapters.ts), same ids. */
export const CHAPTERS_ZH: Readonly<Record<string, { title: string; summary: string }>> = {
  provision: { title: '制备（Provision）', summary: '创建一个申领。PV 控制器把它交给 external-provisioner，后者调用 CreateVolume 并创建 PersistentVolume；随后 PV 控制器把两者绑定。' },
  attach: { title: '挂接（Attach）', summary: 'Pod 被调度。attach/detach 控制器创建 VolumeAttachment，external-attacher 调用 ControllerPublishVolume，节点状态随后显示卷已挂接。' },
  mount: { title: '挂载（Mount）', summary: 'kubelet 确认卷已挂接，然后在节点插件上调用 NodeStageVolume 和 NodePublishVolume，Pod 随即启动。' },
  teardown: { title: '拆除（Teardown）', summary: 'Pod 删除后：NodeUnpublishVolume、NodeUnstageVolume，然后解除挂接。删除申领会释放卷，DeleteVolume 将其删除。' },
  'pod-migration': { title: 'Pod 迁移', summary: 'StatefulSet 的 Pod 迁移到另一个节点（种子文档 000）：卷先在旧节点上卸载并解除挂接，然后才在新节点上挂接和挂载。' },
  'multi-attach': { title: 'Multi-Attach', summary: 'ReadWriteOnce 卷仍挂接在第一个节点上时，第二个节点也需要它：attach/detach 控制器拒绝挂接，并说明原因。' },
  'no-attach': { title: '无需挂接（NFS）', summary: 'csi-driver-nfs 把申领变成 NFS 导出目录下的一个子目录，两个节点上的 Pod 同时挂载它：没有 VolumeAttachment，没有 ControllerPublishVolume，也没有 NodeStageVolume，每个节点上只有 NodePublishVolume。' },
  'ad-detach-backoff': { title: '退避中的解除挂接', summary: '解除挂接失败，Pod 又回到同一节点（种子文档 002）：在 1.20 上节点状态丢失了这个卷，Pod 一直等到每分钟一次的检查（syncStates）发现 VolumeAttachment 已消失；若是种子文档中的树内插件，则永远等下去。1.30 已修复。' },
  'node-failure': { title: '节点故障', summary: '挂接着卷的节点关机。重建的 Pod 收到 Multi-Attach 错误，直到 6 分钟后 attach/detach 控制器强制解除挂接；给节点加 out-of-service 污点则可以立即释放该卷。' },
  'provision-failure': { title: '制备失败', summary: 'CreateVolume 两次超时后成功；或以 InvalidArgument 拒绝请求，申领一直处于 Pending：ProvisioningFailed 事件、csi-provisioner 的退避，以及它记为“进行中”的申领。' },
  'attach-failure': { title: '挂接失败', summary: 'ControllerPublishVolume 先超时、再失败、最后成功：错误写入 VolumeAttachment 的 status.attachError，FailedAttachVolume 事件的退避越来越长。再看一个没有 external-attacher 的集群：“timed out waiting for external-attacher”，Pod 永远启动不了。' },
  'mount-failure': { title: '挂载失败', summary: 'NodeStageVolume 先以 Internal 失败，随后挂起直到 kubelet 的 2 分钟超时：FailedMount 事件、指数退避重试、设备挂载被标记为 Uncertain，最后重试成功。' },
  'driver-not-registered': { title: '驱动未注册', summary: 'Pod 所在节点上还没有节点插件：每次挂载都立即失败，报“driver name … not found in the list of registered CSI drivers”，并不断退避；直到 node-driver-registrar 向 kubelet 注册了驱动（GetInfo、NodeGetInfo、CSINode），下一次重试才挂载成功。' },
  register: { title: '注册', summary: '驱动的节点 Pod 启动：node-driver-registrar 向驱动询问名称并打开注册套接字，kubelet 的插件监视器发现它，注册驱动并调用 NodeGetInfo；节点 ID、可用区和卷数量上限被写到 Node 和 CSINode 上。' },
  'wffc-provision': { title: 'WaitForFirstConsumer', summary: 'volumeBindingMode 为 WaitForFirstConsumer 时，调度器先选定节点并在申领上写入 selected-node；卷随后在该节点的拓扑中创建（种子文档 003）。' },
  'ceph-rbd': { title: 'Ceph RBD', summary: 'ceph-csi 创建、克隆和删除 RBD 镜像，并展示其 omap 日志（journal）、-temp 克隆镜像和回收站随之发生的变化（种子文档 004）。' },
};
