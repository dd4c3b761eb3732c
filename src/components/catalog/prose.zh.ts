/**
 * zh-CN text of the component prose (prose.ts): same keys, the same number of paragraphs in purpose
 * and loop, and `notes` = the Chinese of each `upstream[i].note` in order (the repositories and paths
 * stay in prose.ts). Names of objects, fields, flags, functions and files stay as they are, and so do
 * issue references (kubernetes#NNN), which RefText turns into links. test/i18n/componentProse.zh.test.ts
 * checks the shapes.
 */
import type { ComponentGroup } from '../../machines/view/components.ts';

export interface ComponentProseZh {
  tagline: string;
  purpose: string[];
  loop: string[];
  /** the Chinese of each upstream[i].note, in order */
  notes: string[];
}

export const PROSE_ZH: Record<string, ComponentProseZh> = {
  'pv-controller': {
    tagline: '把每个申领绑定到一个卷，并让两者的阶段（phase）保持正确；对于 CSI 申领，它只把工作交给外部制备器（external-provisioner）。',
    purpose: [
      'PersistentVolume 控制器位于 kube-controller-manager 中（它以 persistentvolume-binder 的名字注册）。它负责 PersistentVolumeClaim 与 PersistentVolume 之间的关联：写入 claim.spec.volumeName 和 volume.spec.claimRef，把两者都推进到 Bound 阶段，并在绑定的一方消失时察觉到这一点。',
      '对于 StorageClass 指定了 CSI 驱动的申领，它自己什么也不创建。它把驱动的名字写入申领的注解（volume.beta.kubernetes.io/storage-provisioner，自 1.23 起还有 volume.kubernetes.io/storage-provisioner），让该驱动的 external-provisioner 接手，并记录一个 ExternalProvisioning 事件。当 volumeBindingMode 为 WaitForFirstConsumer 时，它要先等调度器在申领上写入 volume.kubernetes.io/selected-node。',
      '已绑定的申领被删除后，它的卷变为 Released，其余由回收策略决定：Delete 把删除工作留给创建该卷的制备器，Retain 则把卷留给管理员处理。',
    ],
    loop: [
      '申领和卷的 informer 事件把它们放入队列；syncClaim 和 syncVolume 把每个对象与它的另一方相比较，补写缺少的内容。每 15 秒（--pvclaimbinder-sync-period）它会把所有对象再过一遍。正是这种重新同步，使等待卷的申领上 ExternalProvisioning 事件的计数不断增长。',
      'PVC 和 PV 的阶段各自是一个小状态机，见下方的图；控制器只写入这些状态机允许的阶段变更。',
    ],
    notes: [
      'syncClaim, syncUnboundClaim, syncBoundClaim, syncVolume, bind, provisionClaimOperationExternal',
      'informer、工作队列、周期性的重新同步',
    ],
  },
  'attach-detach-controller': {
    tagline: '决定哪个卷挂接到哪个节点；创建和删除 VolumeAttachment，并维护 node.status.volumesAttached。',
    purpose: [
      'kube-controller-manager 中的挂接/解除挂接控制器（attach/detach controller）在整个集群范围内决定哪些卷必须挂接到哪些节点。它维护一份期望状态（desired state of world），根据调度到各节点的 Pod 构建；还维护一份实际状态（actual state of world），即它认为哪个卷挂接在哪里。对于其 CSIDriver 对象声明了 attachRequired 的 CSI 驱动，挂接就是创建一个 VolumeAttachment，并等待 external-attacher 设置它的 status.attached；解除挂接就是删除该 VolumeAttachment，并等待它消失。',
      '它写入 node.status.volumesAttached，即 kubelet 在挂载任何东西之前读取的列表；它读取 node.status.volumesInUse，即 kubelet 写入的列表，以便在解除挂接之前判断卷是否仍处于挂载状态。如果卷在其 Pod 离开 6 分钟（maxWaitForUnmountDuration）后仍在使用中，它照样解除挂接：这就是强制解除挂接。自 kubernetes#110721 起，它只对 Ready 状况不为 True 的节点强制解除挂接（健康节点的 kubelet 会自行卸载）；自 1.30 起，--disable-force-detach-on-timeout 可以完全关闭强制解除挂接。带有 node.kubernetes.io/out-of-service 污点的节点（节点非体面关闭，1.28 GA）上的卷会被立即解除挂接，无需等待 6 分钟。',
    ],
    loop: [
      '协调器每 100 ms 运行一次。先做解除挂接，这样卷才能跟随 Pod 去到另一个节点：对每个已挂接但不再被期望的卷，只要节点仍报告该卷正在使用，它就等待；之后把卷从 volumesAttached 中移除，推送节点状态，再开始解除挂接。自 kubernetes#104526 起，它会跳过解除挂接仍未完成或正处于退避中的卷；没有这项检查时（1.20 版本配置），卷可能从节点状态中消失，而控制器仍认为它已挂接，“退避中的解除挂接”一章（ad-detach-backoff）展示了这种情况。然后是挂接：每个期望挂接但尚未挂接的卷都会发起挂接，除非它是已挂接到另一个节点的 ReadWriteOnce 卷，这时得到的是 Multi-Attach 错误。最后，它推送待处理的节点状态更新。此外，每分钟（--attach-detach-reconcile-sync-period）一次，syncStates 询问卷插件：它认为已挂接的卷是否仍然挂接。对 CSI，它读取这些卷的 VolumeAttachment；对象已消失或未挂接的卷被标记为已解除挂接，如果仍有 Pod 需要它，就会再次挂接。',
      '挂接和解除挂接操作经由 nestedpendingoperations 执行：每个卷同一时间只有一个操作；失败后，下一次尝试之前有指数退避，从 500 ms 起，最长 2m2s。',
    ],
    notes: [
      'informer，DefaultTimerConfig（100 ms 的循环，等待卸载最长 6 分钟）',
      '先解除挂接、后挂接的协调过程，Multi-Attach 的报告',
      '每个节点上已挂接的卷，以及 volumesAttached 背后的待报告列表',
      '对节点状态的 patch',
      'CSI 的 Attach 和 Detach：创建 VolumeAttachment、等待它、删除它',
      '挂接和解除挂接操作及其日志行',
    ],
  },
  'statefulset-controller': {
    tagline: '创建 StatefulSet 的每个 Pod，并在此之前根据 volumeClaimTemplates 创建该 Pod 专属的申领。',
    purpose: [
      '对每个 StatefulSet，该控制器确保 Pod <set>-0 … <set>-(N-1) 存在。创建一个 Pod 之前，它先根据该 StatefulSet 的 volumeClaimTemplates 创建这个 Pod 的申领，名为 <template>-<set>-<ordinal>。这些申领不会随 Pod 一起删除，因此替代的 Pod 会重新得到同一个卷，可能是在另一个节点上：“Pod 迁移”一章（pod-migration）跟随的正是这种迁移。',
    ],
    loop: [
      '它对 StatefulSet 及其 Pod 的变化作出反应。在默认的 OrderedReady 策略下，它一次创建一个缺失的 Pod，只有所有序号更小的 Pod 都处于 Running 且 Ready 状态后才创建下一个；被删除的 Pod 要等 API 服务器真正移除它之后才会重建。在这条路径上，它在 -v=2 下不输出任何日志：过程由它的 SuccessfulCreate 事件讲述。',
    ],
    notes: [
      'updateStatefulSet：按序创建的循环',
      'CreateStatefulPod、createPersistentVolumeClaims、SuccessfulCreate 事件',
    ],
  },
  'node-lifecycle-controller': {
    tagline: '察觉停止上报状态的节点，把它的状况设为 Unknown，并给它加上 unreachable 污点。',
    purpose: [
      '节点生命周期控制器监视 kubelet 在其 Node 状态中发送的心跳。当一个节点沉默的时间超过宽限期（默认 40 s）时，它把该节点的 Ready 状况以及其他状况设为 Unknown，原因为 “Kubelet stopped posting node status”，并添加 node.kubernetes.io/unreachable:NoExecute 污点。',
      '这对存储很重要，原因在于 6 分钟的强制解除挂接：自 kubernetes#110721 起，attach/detach 控制器只会从 Ready 状况不为 True 的节点上强制解除挂接仍在使用的卷，而把该状况设为 Unknown 的正是这个控制器。force-detach 场景就从一个节点关机开始。',
    ],
    loop: [
      '它每 5 s（--node-monitor-period）检查一遍所有节点。模拟只保留了心跳检查和污点；可用区和中断模式（disruption mode）都略去了。驱逐被加污点节点上的 Pod 是污点驱逐控制器的工作（在 1.20 中它运行在本控制器内部）。',
    ],
    notes: [
      'monitorNodeHealth、tryUpdateNodeHealth、添加 NoExecute 污点的那一轮处理',
    ],
  },
  'taint-eviction-controller': {
    tagline: '删除所在节点带有其不容忍的 NoExecute 污点的 Pod：立即删除，或在其容忍期结束时删除。',
    purpose: [
      '节点上的 NoExecute 污点意味着它上面的 Pod 必须离开。对于被加了污点的节点上的每个 Pod，控制器把污点与 Pod 的容忍度逐一匹配。Pod 不容忍的污点会让它立即被删除；Pod 在一段时间内容忍的污点（DefaultTolerationSeconds 准入插件给每个 Pod 加上对 node.kubernetes.io/not-ready 和 node.kubernetes.io/unreachable 的 300 s 容忍度）会把删除安排在最短的容忍期结束时，而污点若在此之前消失，就会取消这次删除。',
      '对存储而言，它在节点非体面关闭中起作用：没有 Pod 容忍 node.kubernetes.io/out-of-service，所以给宕机的节点加上这个污点，会让它上面的 Pod 立即被删除。这次删除是体面删除，所以在 kubelet 已不在的节点上，Pod 只会变为 Terminating；随后由 Pod 垃圾收集器把它移除，连同它对卷的占用。',
    ],
    loop: [
      '它只对节点 NoExecute 污点的变化、以及 Pod 所在节点或容忍度的变化作出反应，不理会心跳和状态。删除之前，它记录一个 TaintManagerEviction 事件（“Marking for deletion Pod …”），并自 1.26 起加上 DisruptionTarget 状况；被取消的计划会得到 “Cancelling deletion of Pod …”。在 1.30 中，它的事件只在 -v=3 时才进入日志。',
    ],
    notes: [
      '1.29+：processPodOnNode、deletePodHandler、TaintManagerEviction 事件',
      '已计划删除的队列',
      'not-ready 和 unreachable 的 300 s 容忍度',
    ],
  },
  'pod-gc-controller': {
    tagline: '强制删除非 Ready、且带有停止服务污点的节点上正在终止的 Pod。',
    purpose: [
      'Pod 垃圾收集器清理没有别人会清理的 Pod：在这里，是非 Ready、且带有 node.kubernetes.io/out-of-service 污点的节点上正在终止的 Pod（节点非体面关闭，1.28 GA）。本该确认容器已停止并删除 Pod 对象的 kubelet 已经不在了。收集器把这样的 Pod 标记为 Failed，并以宽限期 0 删除它。',
      '正是这一步释放了卷：Pod 对象一旦消失（或变为 Failed），attach/detach 控制器就不再需要该卷留在那个节点上，而同一个污点让它可以立即解除挂接。随后 StatefulSet 控制器就能在别处重新创建这个 Pod。',
    ],
    loop: [
      '它从启动起每 20 s（gcCheckPeriod）运行一次，从它的 informer 读取 Pod 和节点。它的其他清理（超过阈值的已终止 Pod、孤儿 Pod、未调度的终止中 Pod）都略去了；1.20 根本没有对终止中 Pod 的清理。',
    ],
    notes: [
      '每 20 s 一轮的 gc、gcTerminating、markFailedAndDeletePodWithCondition',
    ],
  },
  'pvc-protection-controller': {
    tagline: '保留正在被删除的申领，直到不再有运行中的 Pod 使用它。',
    purpose: [
      '申领被创建时，API 服务器的 StorageObjectInUseProtection 准入插件会添加 kubernetes.io/pvc-protection 终结器。之后删除申领只会设置它的 deletionTimestamp。一旦没有尚未终止的 Pod 引用该申领，这个控制器就移除终结器，API 服务器随即真正删除申领。没有它，删除一个正被运行中 Pod 使用的申领，就会把卷从 Pod 底下抽走。',
    ],
    loop: [
      '它对申领被删除和 Pod 的变化作出反应，检查申领是否仍在使用，不再使用时移除终结器。它的日志行级别为 V(4)，在 kube-controller-manager 通常的 -v=2 下不会输出，因此模拟运行记录中只显示它的 API 写入。',
    ],
    notes: [
      'processPVC, isBeingUsed, removeFinalizer',
      '添加终结器的地方',
    ],
  },
  'pv-protection-controller': {
    tagline: '正在被删除的 PersistentVolume 只要仍绑定着申领，就将其保留。',
    purpose: [
      '同一个准入插件会给每个新的 PersistentVolume 添加 kubernetes.io/pv-protection 终结器。对正在被删除的卷，这个控制器在卷不再处于 Bound 状态后移除该终结器，这样卷就不会在仍指向它的申领底下消失。',
    ],
    loop: [
      '它对卷的变化作出反应，当卷正在被删除且未绑定时移除终结器。这次更新若遇到冲突（409），说明它读到的是旧副本；它只需用新副本再试一次。它的日志行级别为 V(4)，在 -v=2 下不会输出。',
    ],
    notes: [
      'processPV, isBeingUsed, removeFinalizer',
    ],
  },
  'expand-controller': {
    tagline: '查看请求超过现有容量的申领，把 CSI 卷交给 csi-resizer。',
    purpose: [
      '已绑定申领的请求增长到超过其容量时，kube-controller-manager 的扩容控制器会寻找能扩容该卷的树内卷插件。CSI 卷在那里没有这样的插件，于是它在申领上记录 ExternalExpanding，别的什么也不做：扩容由驱动旁的 csi-resizer 完成。这就是为什么每次 CSI 卷的扩容都以一个来自 volume_expand 的 ExternalExpanding 事件开始，即使一切顺利。',
    ],
    loop: [
      '它对请求或状态容量增长了的申领作出反应，检查卷确实绑定在该申领上，记录一次事件；它不会重试。到 1.26 为止，消息是“Ignoring the PVC: didn’t find a plugin capable of expanding the volume; waiting for an external controller to process this PVC.”，从 1.27 起是“waiting for an external controller to expand this PVC”。对 CSI 卷，到 1.30 为止它是 Warning（插件查找失败），从 1.31 起是 Normal。',
    ],
    notes: [
      'syncHandler, enqueuePVC',
    ],
  },
  'kube-scheduler': {
    tagline: '把 Pod 放到节点上；对 WaitForFirstConsumer 申领，它先选定节点，再让卷跟随这个节点。',
    purpose: [
      'kube-scheduler 把每个待调度（Pending）的 Pod 绑定到一个节点。存储通过它的 VolumeBinding 插件参与进来。如果 Pod 的申领使用 Immediate 模式的 StorageClass 但尚未绑定，这个 Pod 就无法被放置：它保持 Pending，并带有 FailedScheduling 事件，直到申领完成绑定。WaitForFirstConsumer 的申领则正好相反：调度器选定节点，在申领上写入 volume.kubernetes.io/selected-node，让制备器在 Pod 能访问到的地方创建卷，然后等待申领完成绑定，之后才绑定 Pod。',
      '绑定 Pod 会设置它的 spec.nodeName（通过 Binding 子资源），该节点上的 kubelet 和 attach/detach 控制器正是对此作出反应。',
    ],
    loop: [
      '它从调度队列中一次取出一个 Pod，依次运行调度框架的各个阶段：过滤节点、为节点打分、预留（reserve）、预绑定（pre-bind，卷绑定在这里等待）、绑定（bind）。模拟只保留与卷有关的过滤器，并用确定性的选择代替打分。',
    ],
    notes: [
      'scheduleOne 与绑定周期（bind cycle）',
      'FindPodVolumes, AssumePodVolumes, BindPodVolumes (selected-node)',
    ],
  },
  'external-provisioner': {
    tagline: '把交给其驱动的申领变成 CreateVolume 调用和 PersistentVolume；用 DeleteVolume 删除已释放的卷。',
    purpose: [
      'external-provisioner（即 csi-provisioner 容器）与驱动的控制器插件并列运行。它接手 storage-provisioner 注解指向其驱动的申领（对 WaitForFirstConsumer 还要有 selected-node 注解），并调用 CreateVolume，传入名称 pvc-<claim UID>、请求的容量、作为卷能力的访问模式、StorageClass 的参数，以及（驱动支持拓扑时）卷必须能从哪些节点访问。',
      '根据返回结果，它创建一个 PersistentVolume：其 spec.csi 带有驱动名和卷句柄，其 claimRef 已经指向该申领，以便 PV 控制器把两者绑定。当它制备的卷变为 Released 且回收策略为 Delete 时，它调用 DeleteVolume 并删除该 PersistentVolume。',
    ],
    loop: [
      '它基于 sig-storage-lib-external-provisioner 构建：申领和卷的 informer，以及按条目做指数退避的工作队列（按该边车容器的参数为 1 s 到 5 min），无限重试。每次 CSI 调用都有超时（--timeout，10 s）。超时或 UNAVAILABLE/ABORTED 应答并不是最终结果：申领保持 “in progress”，同一个 CreateVolume 会再次发送；这样做是安全的，因为驱动必须把重复的名称视为同一个卷。',
    ],
    notes: [
      'Provision（CreateVolume 请求，根据应答构建 PV）、Delete',
      'shouldProvision、provisionClaimOperation、deleteVolumeOperation、申领队列',
      '保存 PV（带重试）',
    ],
  },
  'external-attacher': {
    tagline: '把 VolumeAttachment 转换为 ControllerPublishVolume 和 ControllerUnpublishVolume 调用，并在其 status 中报告结果。',
    purpose: [
      'external-attacher（即 csi-attacher 容器）与驱动的控制器插件并列运行，处理 spec.attacher 为其驱动的 VolumeAttachment。挂接时，它把自己的终结器加到 PersistentVolume 和 VolumeAttachment 上，用节点的 CSI 节点 ID（从 CSINode 对象读取）给 VolumeAttachment 加注解，调用 ControllerPublishVolume，然后写入 status.attached=true，并把发布上下文（publish context）写入 status.attachmentMetadata。失败则写入 status.attachError。',
      'attach/detach 控制器删除 VolumeAttachment 后，终结器使该对象保留下来，external-attacher 在此期间调用 ControllerUnpublishVolume、清除 status 并移除终结器；直到这时对象才消失，而 attach/detach 控制器等待的正是这一点。没有 PUBLISH_UNPUBLISH_VOLUME 能力的驱动会得到一个简易处理器（trivial handler），它把挂接标记为已挂接，而不调用驱动。',
    ],
    loop: [
      'VolumeAttachment 和 PersistentVolume 分别经过两个工作队列，每个条目都有自己的指数退避，从 1 s 到 5 min。每次 CSI 调用有 15 s 超时（--timeout）。DEADLINE_EXCEEDED 或 ABORTED 之类的错误并非最终结果：操作可能仍在存储系统中进行，因此 external-attacher 会一直重试同一个调用，而不是认定它已失败。',
      '它所驱动的、每个 VolumeAttachment 一份的生命周期见下图；上游代码没有给这些状态命名，因此状态名取自 external-attacher 自己的日志行（Attaching、Attached、Detaching…）。',
    ],
    notes: [
      'syncAttach、syncDetach、csiAttach、csiDetach，终结器',
      'informer 与两个工作队列',
      'markAsAttached、markAsDetached，终结器名称',
      '启动过程：Probe、能力查询、选择真实处理器或简易处理器',
    ],
  },
  'external-resizer': {
    tagline: '在已绑定的申领请求更多存储时扩容卷（ControllerExpandVolume）。',
    purpose: [
      'external-resizer（即 csi-resizer 容器）监视其驱动的申领。当已绑定的申领请求的存储多于其 status.capacity 所示时，它给申领加上 Resizing 状况，调用 ControllerExpandVolume，并把新容量写入 PersistentVolume。如果驱动表示节点还必须扩展文件系统，申领会得到 FileSystemResizePending，由 kubelet 通过 NodeExpandVolume 完成余下的工作；否则立即更新申领的容量。',
    ],
    loop: [
      '申领经过一个带指数退避（1 s 到 5 min）的工作队列。失败会记录为 VolumeResizeFailed 事件并重试。',
    ],
    notes: [
      'syncPVC, resizePVC, markPVCAsFSResizeRequired',
      'ControllerExpandVolume 调用',
    ],
  },
  'snapshot-controller': {
    tagline: '把 VolumeSnapshot 变成供驱动边车容器处理的 VolumeSnapshotContent，并在内容对象就绪时把快照标记为就绪。',
    purpose: [
      '快照由 kubernetes-csi/external-snapshotter 的两个程序完成。这一个是 snapshot-controller，每个集群在它自己的 Deployment 中运行一个，不与任何驱动通信。对于某个 VolumeSnapshotClass 的每个新 VolumeSnapshot，它创建一个 VolumeSnapshotContent（snapcontent-<快照 UID>），其中写明源卷的句柄、快照类的驱动和 deletionPolicy，以及它所属的快照；它给快照加上自己的 finalizer，并记录 CreatingSnapshot。驱动的 csi-snapshotter 边车容器把内容对象标记为就绪后，它把内容对象的名字、创建时间、大小和 readyToUse 复制到快照的状态中，并记录 SnapshotCreated 和 SnapshotReady。',
      '删除快照则反向进行：deletionPolicy 为 Delete 时，它删除内容对象（随后边车容器调用 DeleteSnapshot），并移除自己的 finalizer。它和 VolumeSnapshot 的 CRD 都不随 Kubernetes 或驱动提供：没有它，VolumeSnapshot 永远不会有状态。',
    ],
    loop: [
      '一个基于带指数退避的工作队列的控制器，监视 VolumeSnapshot、VolumeSnapshotContent，以及被拍快照的申领和卷。它在这条路径上的日志都在 -v=5，这里略去了：步骤就是它的写入和事件。',
    ],
    notes: [
      '创建内容对象的 createSnapshotContent、updateSnapshotStatus，以及 finalizer',
      '这个 Deployment 的程序',
    ],
  },
  'external-snapshotter': {
    tagline: 'csi-snapshotter 边车容器：为其驱动的 VolumeSnapshotContent 调用 CreateSnapshot 和 DeleteSnapshot。',
    purpose: [
      '这个边车容器与驱动的控制器插件并列运行，只监视 VolumeSnapshotContent（及其快照类）。对于属于它的驱动的新内容对象，它以源卷的句柄和名字 snapshot-<快照 UID> 调用 CreateSnapshot（这样重试时请求的是同一个快照），并把应答写入内容对象的状态：snapshotHandle、creationTime、restoreSize、readyToUse。对于 deletionPolicy 为 Delete 的已删除内容对象，它调用 DeleteSnapshot，然后移除内容对象的 finalizer。',
      '另一半工作，即创建内容对象并把它们绑定到 VolumeSnapshot，由 snapshot-controller 负责。',
    ],
    loop: [
      '一个基于带指数退避的工作队列的控制器；它的 CSI 调用默认超时为 1 分钟。',
    ],
    notes: [
      'syncContent、CreateSnapshot、DeleteSnapshot、内容对象的状态',
    ],
  },
  'node-driver-registrar': {
    tagline: '告诉 kubelet 本节点上运行着一个 CSI 驱动，以及它的套接字在哪里。',
    purpose: [
      'node-driver-registrar 运行在每个节点上该驱动的节点 Pod 中。启动时，它向节点插件询问其名称（GetPluginInfo），然后在 kubelet 的 plugins_registry 目录中打开一个注册套接字（<driver>-reg.sock）。kubelet 的插件监视器（plugin watcher）发现该套接字，询问驱动名称和端点（GetInfo），注册该驱动（包括在节点插件上调用 NodeGetInfo、把节点 ID 写入 CSINode 对象），并通过 NotifyRegistrationStatus 回报结果。',
      '在注册完成之前，kubelet 针对该驱动的每个操作都会失败，报错 “driver name … not found in the list of registered CSI drivers”。',
    ],
    loop: [
      '启动之后，它只提供注册 API 并等待。在上游，注册失败会让容器退出，从而被重启；模拟则停在 registrationFailed 状态。',
    ],
    notes: [
      '注册服务器与套接字',
      'GetInfo、NotifyRegistrationStatus，启动过程',
      'kubelet 一侧：插件监视器与注册',
    ],
  },
  'csi-controller-plugin': {
    tagline: '驱动的 Identity 服务和 Controller 服务：在存储系统中创建、删除、挂接和解除挂接卷。',
    purpose: [
      '控制器插件是存储厂商的代码，通常作为 Deployment 或 StatefulSet 中的一个副本，与边车容器一起运行。它通过边车容器共享的 Unix 套接字提供 Identity 服务（GetPluginInfo、GetPluginCapabilities、Probe）和 Controller 服务，并与存储系统自己的 API 通信：在这里，要么是云盘 API（腾讯云 CBS），要么是带有 ceph-csi omap 日志（journal）的 Ceph RBD。它不与 Kubernetes API 通信；在 Kubernetes 对象与 CSI 调用之间进行转换是边车容器的工作。',
      '每个 RPC 都必须是幂等的：对同一件事被请求两次，它给出相同的回答，这使调用方可以在超时后重试。CSI 卷生命周期（见下图）规定了在哪个状态下允许哪个调用；插件按它检查每个调用，不允许时以规范规定的错误码应答。',
    ],
    loop: [
      '调用一到，它就应答。后端工作较慢，表现为调用与应答之间的延迟；注入的故障（命令行中的 --fault）会让选定的调用以选定的 gRPC 错误码失败。',
    ],
    notes: [
      '各个服务、卷生命周期的图、每个 RPC 的错误码',
      'CBS 的 Controller 服务，种子文档中的日志即来自它',
      'CreateVolume、DeleteVolume、克隆；omap 日志（journal）见 rbd_journal.go',
    ],
  },
  'csi-node-plugin': {
    tagline: '每个节点上驱动的 Identity 服务和 Node 服务：为 Pod 暂存（格式化并挂载）和发布（绑定挂载）卷。',
    purpose: [
      '节点插件运行在每个节点上一个 DaemonSet 的 Pod 中，以特权模式运行，并通过挂载传播（mount propagation）与 kubelet 共享目录。注册时，NodeGetInfo 给出节点在存储系统中的 ID（云主机实例 ID）及其拓扑。NodeStageVolume 找到已挂接的设备，若其上没有文件系统就先格式化，然后把它挂载到卷的暂存路径（…/globalmount）；NodePublishVolume 再把它绑定挂载到 Pod 的卷目录中。NodeUnpublishVolume 和 NodeUnstageVolume 分别撤销这两步。',
      '暂存对每个卷在每个节点上只做一次，发布则每个 Pod 一次，因此同一节点上的多个 Pod 可以共享一个已暂存的卷。不通告 STAGE_UNSTAGE_VOLUME 的驱动会跳过暂存，生命周期直接从 NODE_READY 进入 PUBLISHED。',
    ],
    loop: [
      '与控制器插件一样，调用一到它就应答，这里的调用来自 kubelet 和 node-driver-registrar。',
    ],
    notes: [
      'Node 服务，“RPC Interactions and Reference Counting”一节',
      'CBS 的 Node 服务',
      'rbd map、暂存与发布',
    ],
  },
  kubelet: {
    tagline: '为其节点上的 Pod 挂载卷（NodeStageVolume、NodePublishVolume），报告哪些卷正在使用，并注册 CSI 驱动。',
    purpose: [
      'kubelet 的卷管理器（volume manager）让绑定到其节点的 Pod 的卷可供这些 Pod 的容器使用。它的期望状态来自这些 Pod，实际状态来自它已经挂载的内容。在挂载一个可挂接的卷之前，它会确认 attach/detach 控制器已经挂接了该卷：它先在 node.status.volumesInUse 中报告该卷，然后 VerifyControllerAttachedVolume 等待该卷出现在 node.status.volumesAttached 中。',
      '挂载一个 CSI 卷是对节点插件的两次调用：MountDevice 即 NodeStageVolume（每个节点一次），SetUp 即 NodePublishVolume（每个 Pod 一次）。Pod 离开时，TearDown（NodeUnpublishVolume）和 UnmountDevice（NodeUnstageVolume）撤销这两步；把卷从 volumesInUse 中去掉，就是告诉 attach/detach 控制器可以解除挂接了。只有在 Pod 的所有卷都挂载完成后，它的容器才会启动。每次失败的挂载操作都会单独记录一个 FailedMount 事件（“MountVolume.SetUp failed …”）；在 1.27 及之前，kubelet 还会每 2m3s 放弃一次，报告 “Unable to attach or mount volumes … timed out waiting for the condition”（一个 FailedMount 事件和一行 E 级日志），1.28 及之后不再记录这一条（kubernetes#117412）。无论哪种情况，它都会继续尝试。',
      '它的插件管理器（plugin manager）监视 plugins_registry 目录，node-driver-registrar 就在那里通告 CSI 驱动。',
    ],
    loop: [
      '协调器每 100 ms 运行一次：先卸载不再需要的卷，再对需要的卷确认挂接并挂载，最后卸载没有 Pod 使用的设备。操作经由 nestedpendingoperations 执行，每个卷同一时间一个，失败后有从 500 ms 到 2m2s 的指数退避；“No retries permitted until …” 日志行就来自这里。',
    ],
    notes: [
      'WaitForAttachAndMount、Pod 的 2m3s 超时、volumesInUse',
      '卸载、挂载、卸载设备的顺序',
      '从 Pod 得出期望的卷',
      'VerifyControllerAttachedVolume, MountVolume, UnmountVolume, UnmountDevice',
      'WaitForAttach, MountDevice = NodeStageVolume',
      'SetUp = NodePublishVolume, TearDown = NodeUnpublishVolume',
      'CSI 驱动注册',
    ],
  },
};

/** What a component of each group is, for the generic introduction (proseFor). */
const GROUP_WORDS_ZH: Record<ComponentGroup, string> = {
  'control-plane': '一个控制平面组件',
  'csi-sidecar': '一个 CSI 边车容器',
  'csi-plugin': '一个 CSI 驱动插件',
  node: '一个节点组件',
};

/** The generic introduction of a component nobody has written about yet, in Chinese. */
export function genericProseZh(c: { name: string; group: ComponentGroup; source: string }): { tagline: string; purpose: string[] } {
  return {
    tagline: `${c.name} 是本模拟中的${GROUP_WORDS_ZH[c.group]}。`,
    purpose: [`${c.name} 的日志行出现在 ${c.source} 的日志中。目前还没有为它撰写介绍；下面的内容来自它的状态机和各场景的模拟运行记录。`],
  };
}
