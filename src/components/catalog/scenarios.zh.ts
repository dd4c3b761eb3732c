/** zh-CN titles of the scenarios (machines/scenarios/index.ts), for the players on /zh/ pages; same ids. */
export const SCENARIO_TITLES_ZH: Readonly<Record<string, string>> = {
  provision: '制备：PVC 变成已绑定的 PersistentVolume',
  attach: '挂接：Pod 的卷被挂接到它所在的节点',
  mount: '挂载：kubelet 暂存并发布卷',
  'mount-failure': '挂载失败：NodeStageVolume 先失败、再超时，然后成功',
  teardown: '拆除：卸载、取消暂存、解除挂接、删除',
  'pod-migration': 'StatefulSet 的 Pod 迁移到另一个节点（种子文档 000，cbs-csi）',
  'multi-attach': 'Multi-Attach：两个节点都需要同一个 ReadWriteOnce 卷',
  'force-detach': '强制解除挂接：节点关机，6 分钟后卷被解除挂接',
  'ad-detach-backoff': '解除挂接失败，Pod 回到同一节点（种子文档 002）',
  'wffc-provision': 'WaitForFirstConsumer：调度器先选节点，再在那里创建卷',
  'ceph-rbd-create': 'ceph-csi RBD：通过 omap 日志（journal）执行 CreateVolume',
  'ceph-rbd-clone': 'ceph-csi RBD：通过 -temp 镜像和快照克隆 PVC',
  'ceph-rbd-delete': 'ceph-csi RBD：通过回收站执行 DeleteVolume',
  'statefulset-rollout': 'StatefulSet 滚动迁移：每个 Pod 都迁移到另一个节点',
};
