/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'kubelet.verifyControllerAttachedVolumeStarted': {
    summary: 'kubelet 开始检查 attach/detach 控制器是否已为 Pod {podName} 挂接卷 {volume}。',
  },
  'kubelet.verifyControllerAttachedVolumeNotInUse': {
    summary: 'kubelet 暂不检查卷 {volume}：它尚未在节点状态的 volumesInUse 中报告该卷。',
  },
  'kubelet.operationFailed': {
    summary: 'kubelet 的一个卷操作失败，{duration} 内不会重试：{err}',
    cause: '该操作返回了错误：按节点状态该卷尚未挂接，或卷尚未被报告为使用中（两者都是 1.23 及之前；自 1.24 起 kubelet 不再为此启动操作，而是直接等待，见 kubernetes#106853）；或 CSI 节点插件出错。',
    next: '阅读错误文本。若为 “not attached according to node status”：检查 VolumeAttachment 和 node.status.volumesAttached（attach/detach 控制器）。若为 rpc error：检查本节点上 CSI 节点插件的日志。',
  },
  'kubelet.nodeExpandVolumeSucceeded': {
    summary: 'NodeExpandVolume 成功：Pod {podName} 中卷 {volume} 的文件系统已扩到新容量。',
    explain: '节点插件在节点上扩展了卷的文件系统（resize2fs 或 xfs_growfs）；随后 kubelet 把申领标记为扩容完成（status.capacity 更新，FileSystemResizePending 消失）。',
  },
  'kubelet.nodeExpandVolumeFailed': {
    summary: '扩展已挂载卷的文件系统失败：{err}',
    cause: '节点上的 NodeExpandVolume 失败（文件系统工具出错、设备尚未变大，或节点插件没有 EXPAND_VOLUME 能力），或无法读取申领、无法把申领标记为扩容完成。',
    next: '查看本节点上节点插件日志中的 NodeExpandVolume，以及 Pod 上的 VolumeResizeFailed 事件。kubelet 会按退避重试；成功之前申领一直带着 FileSystemResizePending。',
  },
  'kubelet.mountNodeExpandFailed': {
    summary: '暂存之后立即扩展文件系统失败：{err}',
    cause: '申领是在没有 Pod 使用时扩容的（FileSystemResizePending）；kubelet 在 MountDevice 之后立即完成这一步，而 NodeExpandVolume 失败了。',
    next: '查看节点插件日志中的 NodeExpandVolume。挂载会按退避重试；Pod 停在 ContainerCreating，并带有 FailedMount 事件。',
  },
  'kubelet.setUpNodeExpandFailed': {
    summary: 'NodePublishVolume 之后扩展文件系统失败：{err}',
    cause: '申领是在没有 Pod 使用时扩容的（FileSystemResizePending）；kubelet 在把卷挂进 Pod 时完成这一步，而 NodeExpandVolume 失败了。',
    next: '查看节点插件日志中的 NodeExpandVolume。挂载会按退避重试；Pod 停在 ContainerCreating，并带有 FailedMount 事件。',
  },
  'kubelet.controllerAttachSucceeded': {
    summary: '节点状态显示卷 {volume} 已挂接：kubelet 将其标记为已挂接。',
  },
  'kubelet.mountVolumeStarted': {
    summary: 'kubelet 开始为 Pod {podName} 挂载卷 {volume}。',
    variants: { block: 'kubelet 开始把裸块卷 {volume} 映射（MapVolume）进 Pod {podName}（这一行仍写作 MountVolume）。' },
  },
  'kubelet.waitForAttachEntering': {
    summary: 'kubelet 等待卷 {volume} 的 VolumeAttachment 变为已挂接。',
  },
  'kubelet.waitForAttachSucceeded': {
    summary: 'VolumeAttachment {devicePath} 已挂接：卷 {volume} 可以挂载了。',
  },
  'kubelet.csiMountDeviceSkipped': {
    summary: '节点插件没有 STAGE_UNSTAGE_VOLUME 能力：kubelet 的 CSI attacher 跳过暂存（不调用 NodeStageVolume）。',
    explain: '驱动若没有在 NodeGetCapabilities 中声明 STAGE_UNSTAGE_VOLUME，就永远不会被要求暂存卷：MountDevice 只保存卷的数据文件后返回，全部工作由 NodePublishVolume 完成。',
  },
  'kubelet.csiUnmountDeviceSkipped': {
    summary: '节点插件没有 STAGE_UNSTAGE_VOLUME 能力：kubelet 的 CSI attacher 没有需要取消暂存的内容（不调用 NodeUnstageVolume）。',
    explain: '这个驱动从未暂存过卷，所以 UnmountDevice 只删除卷的全局目录和数据文件。',
  },
  'kubelet.mountDeviceSucceeded': {
    summary: 'MountDevice 成功：卷 {volume} 已由 NodeStageVolume 暂存（stage）到 {deviceMountPath}；若驱动没有 STAGE_UNSTAGE_VOLUME，则无需暂存。',
    variants: {
      staged: 'NodeStageVolume 成功：卷 {volume} 已暂存（stage）到 {deviceMountPath}。',
      notStaged: 'MountDevice 无需暂存：驱动没有 STAGE_UNSTAGE_VOLUME，卷 {volume} 直接进入 NodePublishVolume。',
    },
  },
  'kubelet.setUpSucceeded': {
    summary: 'NodePublishVolume 成功：卷 {volume} 已挂载到 Pod {podName} 中。',
    variants: { fsGroup: 'SetUp 成功：卷 {volume} 已挂载到 Pod {podName} 中，其中的文件已属于 Pod 的 fsGroup。' },
  },
  'kubelet.unmountVolumeStarted': {
    summary: 'Pod {podUid} 不再需要卷 {volume}：kubelet 开始将其从该 Pod 中卸载。',
    variants: { block: 'Pod {podUid} 不再需要裸块卷 {volume}：kubelet 开始取消映射（UnmapVolume；这一行仍写作 UnmountVolume）。' },
  },
  'kubelet.tearDownSucceeded': {
    summary: 'NodeUnpublishVolume 成功：卷 {volume} 已从 Pod {podUid} 中卸载。',
  },
  'kubelet.unmountDeviceStarted': {
    summary: '{node} 上已没有 Pod 使用卷 {volume}：kubelet 开始取消暂存（unstage）该卷。',
    variants: { block: '{node} 上已没有 Pod 使用裸块卷 {volume}：kubelet 开始 UnmapDevice（这一行仍写作 UnmountDevice）。' },
  },
  'kubelet.reconstructedVolumeUncertain': {
    summary: 'kubelet 重启后在磁盘上发现 Pod {podUid} 的卷 {volume} 仍处于挂载状态：它把该 Pod 的挂载记为不确定（uncertain），之后重新挂载或清理。',
    explain: '重启后的 kubelet 什么都不记得：它扫描各 Pod 的卷目录，把找到的每个卷以不确定状态放入实际状态（actual state of world）。此时它构造的 Pod 对象只有 UID，所以打印 pod=""。',
  },
  'kubelet.reconstructedDeviceUncertain': {
    summary: 'kubelet 把卷 {volume} 位于 {deviceMountPath} 的设备记为不确定：使用该卷之前会再次运行 MountDevice（NodeStageVolume）。',
  },
  'kubelet.markDeviceErrorStateLeavingUncertain': {
    summary: '{uniqueName} 的 MountDevice 以最终错误失败，但这个设备是重启后的 kubelet 在磁盘上发现的：它仍记为不确定，若不再有 Pod 需要它，仍会被 unstage。',
    explain: '通常，最终错误会把原本不确定的设备挂载记为未挂载。kubelet 重启后在磁盘上发现的设备可能确实仍处于挂载状态，所以 1.30 让它保持不确定：之后的 MountDevice 会再试，Pod 离开时 UnmountDevice（NodeUnstageVolume）仍会运行。',
  },
  'kubelet.setVolumeOwnershipSlow': {
    summary: 'kubelet 把 Pod 的 fsGroup 赋给 {dir} 中的文件已经 30 秒了，还没有完成：文件很多的卷会让 Pod 一直等待。',
    explain: 'NodePublishVolume 之后，对于设置了 fsGroup 的 Pod，kubelet 会亲自遍历卷中的每个文件，设置其属组和权限（SetVolumeOwnership），除非驱动在挂载时自己应用 fsGroup（VOLUME_MOUNT_GROUP，1.30 上；1.26 起 GA），或者 CSIDriver 的 fsGroupPolicy 规定不做。遍历满 30 秒时，一个定时器打印这条警告；Pod 的容器要等遍历结束才启动。Pod 上的 fsGroupChangePolicy: OnRootMismatch 会在卷的顶层目录已经具有该属组、属主和属组的读写执行权限以及 setgid 位时跳过遍历。',
  },
  'kubelet.recursiveOwnershipChange': {
    summary: 'kubelet 开始把 Pod 的 fsGroup 赋给 {dir} 中的每个文件（它的 fsGroupChangePolicy 是默认的 Always）。',
    explain: 'skipPermissionChange：只有 fsGroupChangePolicy 为 OnRootMismatch 时才可能跳过遍历；默认的 Always 下，每次为 Pod 设置该卷时，卷中的每个文件都会被赋予该属组。',
  },
  'kubelet.skipPermissionChange': {
    summary: '{dir} 的顶层目录已经具有 Pod 的属组和权限（fsGroupChangePolicy: OnRootMismatch）：kubelet 跳过对卷中文件的遍历。',
    explain: '使用 OnRootMismatch 时，kubelet 先查看卷的顶层目录（requiresPermissionChange）。遍历最后才修改这个目录，所以一次完整的遍历会让它带上该属组、属主和属组的读写执行权限以及 setgid 位；之后对 fsGroup 相同的任何 Pod、在任何节点上再次 SetUp 这个卷时，都会跳过遍历。',
  },
  'kubelet.volumeRootGidMismatch': {
    summary: '{dir} 的顶层目录属于组 {gid}，而不是 Pod 的组：kubelet 遍历卷中的文件（fsGroupChangePolicy: OnRootMismatch）。',
  },
  'kubelet.volumeRootModeMismatch': {
    summary: '{dir} 的顶层目录属于 Pod 的组，但没有属主和属组的读写执行权限或 setgid 位：kubelet 遍历卷中的文件（fsGroupChangePolicy: OnRootMismatch）。',
  },
  'kubelet.volumeRootStatFailed': {
    summary: 'kubelet 读取不了 {dir} 的顶层目录（{err}）：它照样遍历卷中的文件（fsGroupChangePolicy: OnRootMismatch）。',
    explain: 'requiresPermissionChange 对顶层目录 stat 失败只记一条日志，并回答需要遍历；随后的遍历会碰到同一个文件系统，遍历失败则 SetUp 失败。',
  },
  'kubelet.fsGroupApplied': {
    summary: '把卷 {handle} 中文件的属组设为 Pod 的组 {fsGroup} 的遍历没有出错地结束了（某个文件的 chown 或 chmod 失败只会被记录）：SetUp 完成。',
  },
  'kubelet.markVolumeErrorStateLeavingUncertain': {
    summary: '{uniqueName} 的 SetUp 以最终错误失败，但这个 Pod 挂载是重启后的 kubelet 在磁盘上发现的：它仍记为不确定，Pod 离开时会被拆除。',
    explain: '通常，最终错误会把原本不确定的 Pod 挂载记为未挂载。kubelet 重启后在磁盘上发现的挂载可能确实存在，所以 1.30 让它保持不确定：SetUp 会再试，Pod 离开时 TearDown（NodeUnpublishVolume）仍会运行。',
  },
  'kubelet.syncStatesReconstructed': {
    summary: 'kubelet 在磁盘上发现 Pod {podUid} 的卷 {volume} 仍处于挂载状态，但已没有 Pod 需要它：它把该卷以已挂载状态放入实际状态，随后卸载。',
    explain: '重新启动的 kubelet 会扫描一次各 Pod 的卷目录（syncStates）。其中没有 Pod 需要的卷（它的 Pod 在 kubelet 未运行时被删除）会根据目录重建，并记为已挂载，于是 reconciler 卸载它，控制器随后可以分离它。此时 kubelet 只知道该 Pod 的 UID。',
  },
  'kubelet.reconstructionFinished': {
    summary: 'kubelet 已把磁盘上的卷读入它的实际状态（共 {count} 个）。',
  },
  'kubelet.reconcilerStarted': {
    summary: '卷管理器的协调器（reconciler）开始把它的状态与节点上的实际情况同步。',
  },
  'kubelet.reconstructedDevicePathsUpdated': {
    summary: 'kubelet 已从 node.status.volumesAttached 读到重建卷的设备路径：现在可以开始卸载了。',
  },
  'kubelet.mapWaitForAttachEntering': {
    summary: 'kubelet 等待裸块卷 {volume} 的 VolumeAttachment 变为已挂接（attached）。',
  },
  'kubelet.mapWaitForAttachSucceeded': {
    summary: 'VolumeAttachment {devicePath} 已挂接：裸块卷 {volume} 可以映射了。',
  },
  'kubelet.mapPodDeviceGlobalSucceeded': {
    summary: '裸块卷 {volume} 已链接到它的全局映射路径 {globalMapPath}。',
  },
  'kubelet.mapPodDeviceSucceeded': {
    summary: 'NodePublishVolume 成功，设备已链接进 Pod {podName}：裸块卷 {volume} 映射完成。',
    explain: 'Pod 拿到的是设备而不是文件系统：kubelet 把节点插件发布出来的设备链接到 Pod 的 volumeDevices 目录，容器运行时再按 volumeDevices 里写的 devicePath 把它交给容器。',
  },
  'kubelet.unmapVolumeSucceeded': {
    summary: 'NodeUnpublishVolume 成功：裸块卷 {volume} 已从 Pod {podUid} 取消映射。',
  },
  'kubelet.unmapDeviceSucceeded': {
    summary: 'UnmapDevice 成功：裸块卷 {volume} 在 {node} 上已取消暂存（NodeUnstageVolume），其全局映射路径已删除。',
  },
  'kubelet.unmountDeviceSucceeded': {
    summary: 'UnmountDevice 成功：卷 {volume} 在 {node} 上已由 NodeUnstageVolume 取消暂存；若驱动没有 STAGE_UNSTAGE_VOLUME，则无需取消暂存。',
    variants: {
      staged: 'NodeUnstageVolume 成功：卷 {volume} 在 {node} 上已不再处于暂存状态。',
      notStaged: 'UnmountDevice 无需取消暂存（驱动没有 STAGE_UNSTAGE_VOLUME）：kubelet 删除 {node} 上该卷的全局目录。',
    },
  },
  'kubelet.volumeDetached': {
    summary: 'kubelet 不再跟踪卷 {volume}：解除挂接是 attach/detach 控制器的工作。',
  },
  'kubelet.addedVolumeToDesiredState': {
    summary: 'Pod {kpod} 需要卷 {outerName}（PersistentVolume {volume}）：已加入期望状态（desired state of world）。',
  },
  'kubelet.podWorkerSyncError': {
    summary: 'Pod worker 放弃对 Pod {kpod} 的本次同步，之后会再次同步：{err}',
    cause: '该 Pod 的同步返回了错误；在等待卷之后，这就是那次等待的超时（它的卷未能在 2m3s 内完成挂接或挂载）。',
    next: '查看错误中列出的卷此前的 “Operation for … failed” 日志行，以及 VolumeAttachment 和 node.status.volumesAttached。',
  },
  'kubelet.unableToAttachOrMount': {
    summary: 'Pod {kpod} 等待其卷 2m3s 后暂时放弃：{err}',
    cause: '该 Pod 的某个卷未能在 2m3s（podAttachAndMountTimeout）内完成挂接或挂载。',
    next: '查看该卷此前的 “Operation for … failed” 日志行，以及 VolumeAttachment 和 node.status.volumesAttached。',
  },
  'kubelet.validatePlugin': {
    summary: 'kubelet 验证经注册套接字通告的 CSI 驱动 {driver}。',
  },
  'kubelet.registerPlugin': {
    summary: 'kubelet 注册位于 {endpoint} 的 CSI 驱动 {driver}。',
  },
  'kubelet.registerPluginStarted': {
    summary: 'kubelet 的插件管理器开始注册套接字为 {path} 的插件。',
  },
  'kubelet.registerPluginFailed': {
    summary: '注册位于 {path} 的插件失败；kubelet 将在 {duration} 后重试：{err}',
    cause: 'node-driver-registrar 没有在注册套接字上响应 GetInfo，或者它声明的插件不被 kubelet 接受。',
    next: '检查本节点上该驱动 DaemonSet 的 node-driver-registrar 容器。kubelet 以加倍的间隔重试（最长 2m2s）。',
  },
});

export const summariesZh = defineSummaries({
  'kubelet.controllerManagedAttach': '{node} 上的 kubelet 将其 Node 标记为由 attach/detach 控制器管理（{annotation}=true）。',
  'kubelet.nodeReady': '{node} 上的 kubelet 报告其 Node 为 Ready。',
  'kubelet.volumesInUse': '{node} 上的 kubelet 在节点状态中报告 volumesInUse [{volumes}]。',
  'kubelet.nodeStatusHeartbeat': '{node} 上的 kubelet 发送节点状态心跳。',
  'kubelet.podDeleted': '{node} 上的 kubelet 已卸载 Pod {pod} 的所有卷，并将其彻底删除（宽限期为 0）。',
  'kubelet.podPending': '{node} 上的 kubelet 第一次同步 Pod {pod}，在等待卷之前先写入它的状态：Pending，容器处于 ContainerCreating 等待状态（卷未挂载时 kubectl get pod 显示的就是它）。',
  'kubelet.setVolumeOwnership': '{node} 上的 kubelet 把 {dir} 下的每个文件和目录交给 Pod 的 fsGroup {fsGroup}：设为该属组、给该组读写权限、目录加上 setgid 位（SetVolumeOwnership）。文件多的卷要花些时间；它做完 SetUp 才算完成。',
  'kubelet.statVolumeRoot': '{node} 上的 kubelet 先查看 {dir} 的顶层目录（fsGroupChangePolicy: OnRootMismatch）：如果它已经是属组 {fsGroup} 并且权限也对，就跳过对文件的遍历。',
  'kubelet.podRunning': '{node} 上的 kubelet 已启动 Pod {pod} 的容器：该 Pod 处于 Running 且 Ready 状态。',
  'kubelet.podContainersTerminated': '{node} 上的 kubelet 已停止 Pod {pod} 的容器，并写入它们的已终止状态：attach/detach 控制器从此把该 Pod 视为已终止，不论其卷如何。',
  'kubelet.pluginGetInfo': 'kubelet 的插件监视器（plugin watcher）发现了 {path}，并询问这是什么插件。',
  'kubelet.pluginGetInfoAgain': 'kubelet 的插件管理器在退避结束后再次注册 {path}：询问插件是什么（GetInfo）。',
  'kubelet.nodeIDAnnotation': 'kubelet 将驱动 {driver} 的 CSI 节点 ID {nodeID} 记录到 Node {node} 的 {annotation} 注解中。',
  'kubelet.csiNodeDriver': 'kubelet 将驱动 {driver}（节点 ID {nodeID}）添加到 CSINode {node}。',
  'kubelet.notifyRegistered': 'kubelet 告知 node-driver-registrar：驱动 {driver} 已注册。',
  'kubelet.nodeUnpublishVolume': 'kubelet 请求 CSI 节点插件将卷 {pvName} 从 Pod {pod} 中卸载。',
  'kubelet.nodeUnpublishVolumeForBlock': 'kubelet 已删除裸块卷 {pvName} 在 Pod {pod} 中的设备链接，并请求 CSI 节点插件取消发布（unpublish）它。',
  'kubelet.markFSResizeFinished': '{node} 上的 kubelet 把申领 {claim} 标记为扩容完成：status.capacity 为 {size}，FileSystemResizePending 条件消失。',
});
