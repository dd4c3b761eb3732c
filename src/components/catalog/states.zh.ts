/**
 * zh-CN text of the state descriptions the component pages show (describeStates on the machines of
 * componentFacts(): the components' own machines and the lifecycles they drive, the PVC/PV phase
 * machines included). Keyed by the exact English `description` of the state in src/machines, so the
 * machines stay in English and one table serves every machine that shares a text. Names of
 * functions, files, fields, RPCs and capabilities stay as they are, and so do issue references
 * (kubernetes#NNN), which RefText turns into links. test/i18n/componentProse.zh.test.ts checks that
 * every description on a component page has its Chinese here.
 */
import type { Lang } from '../site/i18n.ts';

export const STATE_DESCRIPTIONS_ZH: Readonly<Record<string, string>> = {
  // pvControllerMachine
  'kube-controller-manager is not running.':
    'kube-controller-manager 没有在运行。',
  'Started: the informers list claims, volumes and classes into the caches; nothing is synced until all are in (cache.WaitForNamedCacheSync).':
    '已启动：informer 把申领、卷和存储类列入缓存；全部列完之前什么也不同步（cache.WaitForNamedCacheSync）。',
  'Informers deliver claims, volumes and classes; each change is synced at once, and every 15s while a claim is unbound.':
    'informer 送来申领、卷和存储类；每次变化都会立即同步，申领未绑定期间还会每 15s 同步一次。',
  // pvcPhaseMachine
  'Not bound to a volume yet (syncUnboundClaim).':
    '尚未绑定到卷（syncUnboundClaim）。',
  'Bound to the volume in spec.volumeName (syncBoundClaim).':
    '已绑定到 spec.volumeName 中的卷（syncBoundClaim）。',
  'The bound volume is gone or bound elsewhere (ClaimLost / ClaimMisbound); terminal.':
    '所绑定的卷已消失或已绑定到别处（ClaimLost / ClaimMisbound）；终态。',
  // pvPhaseMachine
  'Just created; the API server defaults status.phase to Pending.':
    '刚创建；API 服务器把 status.phase 默认设为 Pending。',
  'Not bound to a claim (syncVolume: volume is unused).':
    '未绑定到申领（syncVolume 中的 “volume is unused”）。',
  'Bound to a claim that points back to it.':
    '已绑定到一个同样指向它的申领。',
  'Its claim was deleted; the reclaim policy runs (Delete: the external provisioner deletes it).':
    '它的申领已被删除；回收策略开始执行（Delete：由外部制备器 external-provisioner 删除它）。',
  'Reclaiming failed (VolumeFailedDelete / VolumeFailedRecycle).':
    '回收失败（VolumeFailedDelete / VolumeFailedRecycle）。',
  // attachDetachControllerMachine
  'The kube-controller-manager process has not started the controller yet.':
    'kube-controller-manager 进程尚未启动该控制器。',
  'Informers feed the desired/actual state of world; the reconciler attaches and detaches (reconciler.go).':
    'informer 为期望状态和实际状态（desired/actual state of world）提供数据；协调器负责挂接和解除挂接（reconciler.go）。',
  // attachStateMachine
  'Not in the actual state of world: not attached to this node, or detached.':
    '不在实际状态中：未挂接到该节点，或已解除挂接。',
  'The attach failed or timed out (1.29+: or the detach failed): it may be attached; Attach must succeed before it is reported.':
    '挂接失败或超时（1.29+：或解除挂接失败）：卷可能已挂接；必须等 Attach 成功后才会报告它。',
  'The VolumeAttachment said attached: the volume is in node.status.volumesAttached.':
    'VolumeAttachment 显示已挂接：该卷在 node.status.volumesAttached 中。',
  // attachVolumeMachine
  'csi_attacher.Attach: a VolumeAttachment of that name (a restarted controller, an earlier attempt) is not created again.':
    'csi_attacher.Attach：已存在同名的 VolumeAttachment 时（控制器重启过，或之前已尝试过）不会再次创建。',
  'Create the VolumeAttachment: the external-attacher of the driver acts on it.':
    '创建 VolumeAttachment：由该驱动的 external-attacher 处理它。',
  'waitForVolumeAttachment: status.attached, or status.attachError, within csiTimeout (2m). 1.20 watches the object; 1.30 polls the lister with backoff.':
    'waitForVolumeAttachment：在 csiTimeout（2m）内等待 status.attached 或 status.attachError。1.20 监视（watch）该对象；1.30 带退避地轮询 lister。',
  'MarkVolumeAsAttached; SuccessfulAttachVolume on each pod.':
    'MarkVolumeAsAttached；在每个 Pod 上记录 SuccessfulAttachVolume 事件。',
  'MarkVolumeAsUncertain; FailedAttachVolume on each pod; exponential backoff.':
    'MarkVolumeAsUncertain；在每个 Pod 上记录 FailedAttachVolume 事件；指数退避。',
  // detachVolumeMachine
  'A forced detach (maxWaitForUnmountDuration passed) skips verifyVolumeIsSafeToDetach.':
    '强制解除挂接（已超过 maxWaitForUnmountDuration）会跳过 verifyVolumeIsSafeToDetach。',
  'verifyVolumeIsSafeToDetach: GET the Node; the volume must not be in status.volumesInUse.':
    'verifyVolumeIsSafeToDetach：GET 该 Node；卷不得出现在 status.volumesInUse 中。',
  'Delete the VolumeAttachment: the external-attacher detaches, then removes its finalizer.':
    '删除 VolumeAttachment：external-attacher 解除挂接，然后移除它的终结器。',
  'waitForVolumeDetachment: the VolumeAttachment goes, or status.detachError, within csiTimeout (2m).':
    'waitForVolumeDetachment：在 csiTimeout（2m）内等待 VolumeAttachment 消失，或出现 status.detachError。',
  'MarkVolumeAsDetached.':
    'MarkVolumeAsDetached（把卷标记为已解除挂接）。',
  '1.20: the volume goes back in the list to report as attached; 1.29+: MarkVolumeAsUncertain (kubernetes#120595); exponential backoff.':
    '1.20：卷回到待报告为已挂接的列表中；1.29+：MarkVolumeAsUncertain（kubernetes#120595）；指数退避。',
  // statefulSetControllerMachine
  'The kube-controller-manager process is not running.':
    'kube-controller-manager 进程没有在运行。',
  'Informers are synced; the workers run syncStatefulSet for every set that changed (stateful_set.go).':
    'informer 已同步；worker 对每个发生变化的 StatefulSet 运行 syncStatefulSet（stateful_set.go）。',
  // nodeLifecycleControllerMachine
  'kube-controller-manager has not started the controller yet.':
    'kube-controller-manager 尚未启动该控制器。',
  'Watches Nodes and Pods; deletes the pods that do not tolerate a NoExecute taint of their node (taint_eviction.go).':
    '监视 Node 和 Pod；删除不容忍其所在节点某个 NoExecute 污点的 Pod（taint_eviction.go）。',
  'Every 20 s (gcCheckPeriod): force-deletes the terminating pods of out-of-service nodes that are not Ready (gc_controller.go gcTerminating).':
    '每 20 秒一次（gcCheckPeriod）：强制删除非 Ready、且停止服务（out-of-service）的节点上正在终止的 Pod（gc_controller.go gcTerminating）。',
  'Watches Nodes and Pods and checks the nodes\' heartbeats every nodeMonitorPeriod (node_lifecycle_controller.go).':
    '监视 Node 和 Pod，并每隔 nodeMonitorPeriod 检查节点的心跳（node_lifecycle_controller.go）。',
  // pvcProtectionControllerMachine
  'Watches claims and pods; removes the pvc-protection finalizer of deleted claims no pod uses.':
    '监视申领和 Pod；对被删除且没有 Pod 使用的申领，移除其 pvc-protection 终结器。',
  // expandControllerMachine
  'Watches claims and volumes; records ExternalExpanding on a bound claim of a CSI volume that asks for more than it has.':
    '监视申领和卷；对请求超过现有容量的 CSI 卷的已绑定申领，记录 ExternalExpanding。',
  // pvProtectionControllerMachine
  'Watches volumes; removes the pv-protection finalizer of deleted volumes that are no longer bound.':
    '监视卷；对被删除且不再绑定的卷，移除其 pv-protection 终结器。',
  // kubeSchedulerMachine
  'kube-scheduler is not running.':
    'kube-scheduler 没有在运行。',
  'Every change to a pod, node, claim, volume or class re-runs scheduleOne for the pending pods.':
    'Pod、节点、申领、卷或存储类的每次变化，都会为待调度的 Pod 重新运行 scheduleOne。',
  // externalProvisionerMachine
  'The csi-provisioner container is not running.':
    'csi-provisioner 容器没有在运行。',
  'Probe, GetPluginInfo, GetPluginCapabilities, ControllerGetCapabilities on the driver socket (csi-provisioner.go main).':
    '在驱动套接字上调用 Probe、GetPluginInfo、GetPluginCapabilities、ControllerGetCapabilities（csi-provisioner.go 的 main）。',
  'The provisioner controller works through claims and volumes (ProvisionController.Run).':
    '制备控制器逐个处理申领和卷（ProvisionController.Run）。',
  'A start-up call failed: the process exits (os.Exit(1) after Probe, klog.Fatalf after GetPluginInfo and the capability calls) and the kubelet starts its container again.':
    '启动时的一次调用失败了：进程退出（Probe 之后是 os.Exit(1)，GetPluginInfo 和能力查询之后是 klog.Fatalf），kubelet 再次启动它的容器。',
  // externalAttacherMachine
  'The csi-attacher container is not running.':
    'csi-attacher 容器没有在运行。',
  'rpc.ProbeForever: Probe every second until the driver is ready (csi-lib-utils rpc/common.go).':
    'rpc.ProbeForever：每秒调用一次 Probe，直到驱动就绪（csi-lib-utils 的 rpc/common.go）。',
  'GetPluginInfo, GetPluginCapabilities, ControllerGetCapabilities: choosing the real or trivial handler (main.go).':
    'GetPluginInfo、GetPluginCapabilities、ControllerGetCapabilities：选择真实处理器还是简易处理器（main.go）。',
  'CSIAttachController.Run: VA and PV workers process their queues (controller.go).':
    'CSIAttachController.Run：VA 和 PV 的 worker 处理各自的队列（controller.go）。',
  'Start-up failed: the process exits (os.Exit(1), klog.FlushAndExit) and the kubelet restarts its container, which starts over.':
    '启动失败：进程退出（os.Exit(1)，klog.FlushAndExit），kubelet 重启它的容器，一切从头开始。',
  // volumeAttachmentMachine
  'Created by the attach/detach controller; csi-attacher has not acted on it yet.':
    '由 attach/detach 控制器创建；csi-attacher 尚未处理它。',
  '"Attaching": PV finalizer, VA finalizer + node-id annotation, ControllerPublishVolume, status.attached=true.':
    '“Attaching”：PV 终结器，VA 终结器 + node-id 注解，ControllerPublishVolume，status.attached=true。',
  'The VA names a PV that exists and is not being deleted; does it carry the attacher finalizer?':
    'VA 指向的 PV 存在且未在删除中；它是否带有 attacher 的终结器？',
  'addPVFinalizer: the PV cannot go while a VolumeAttachment may attach it.':
    'addPVFinalizer：只要某个 VolumeAttachment 可能挂接该 PV，PV 就不能消失。',
  'Volume capability and the node ID from CSINode; which of the VA finalizer and node-id annotation are missing?':
    '卷能力，以及取自 CSINode 的节点 ID；VA 终结器和 node-id 注解中缺少哪些？',
  'One patch adds the VA finalizer and the csi.alpha.kubernetes.io/node-id annotation.':
    '一次 patch 同时添加 VA 终结器和 csi.alpha.kubernetes.io/node-id 注解。',
  'ControllerPublishVolume: the storage backend attaches the volume to the node.':
    'ControllerPublishVolume：存储后端把卷挂接到节点。',
  'markAsAttached: status.attached=true with the publish context as attachmentMetadata.':
    'markAsAttached：status.attached=true，并以发布上下文（publish context）作为 attachmentMetadata。',
  'saveAttachError: status.attachError = {message, time}.':
    'saveAttachError：写入 status.attachError = {message, time}。',
  'trivial_handler.go (no PUBLISH_UNPUBLISH_VOLUME): status.attached=true without any CSI call or finalizer.':
    'trivial_handler.go（没有 PUBLISH_UNPUBLISH_VOLUME）：不做任何 CSI 调用、不加终结器，直接设置 status.attached=true。',
  '"Fully attached": status.attached is true.':
    '“Fully attached”：status.attached 为 true。',
  'status.attachError is set; the VA waits in the work queue with exponential backoff (1s → 5m).':
    'status.attachError 已设置；VA 在工作队列中以指数退避等待（1s → 5m）。',
  '"Detaching": ControllerUnpublishVolume, status.attached=false, finalizer removed.':
    '“Detaching”：ControllerUnpublishVolume，status.attached=false，移除终结器。',
  "The PV (a CSI one) and the node ID, from CSINode or, as a last resort, the VA's node-id annotation.":
    'PV（须是 CSI 卷）和节点 ID：节点 ID 取自 CSINode，万不得已时取自 VA 的 node-id 注解。',
  'ControllerUnpublishVolume: the storage backend detaches the volume from the node.':
    'ControllerUnpublishVolume：存储后端把卷从节点上解除挂接。',
  'Detached in the backend: what is left to undo on the VA, its status or its finalizer?':
    '后端中已解除挂接：VA 上还剩什么要撤销，它的 status 还是它的终结器？',
  'markAsDetached: status.attached=false, attachmentMetadata and detachError cleared.':
    'markAsDetached：status.attached=false，清除 attachmentMetadata 和 detachError。',
  'The status says detached: the finalizer goes next, unless it went first.':
    'status 显示已解除挂接：接下来移除终结器，除非它已先被移除。',
  "The attacher's finalizer leaves the VA, so the API server can delete it.":
    'attacher 的终结器从 VA 上移除，API 服务器随后可以删除 VA。',
  'saveDetachError: status.detachError = {message, time}.':
    'saveDetachError：写入 status.detachError = {message, time}。',
  'status.detachError is set; the VA waits in the work queue with exponential backoff.':
    'status.detachError 已设置；VA 在工作队列中以指数退避等待。',
  '"Fully detached": the finalizer is gone, so the API server deletes the VA.':
    '“Fully detached”：终结器已移除，于是 API 服务器删除该 VA。',
  // externalResizerMachine
  'The csi-resizer container is not running.':
    'csi-resizer 容器没有在运行。',
  'Informers synced; workers run syncPVC for queued claims (controller.go Run/syncPVCs).':
    'informer 已同步；worker 为队列中的申领运行 syncPVC（controller.go 的 Run/syncPVCs）。',
  // externalSnapshotterMachine
  'The csi-snapshotter container is not running.':
    'csi-snapshotter 容器没有运行。',
  'Syncs the VolumeSnapshotContents of its driver from its informer: CreateSnapshot for a new one, DeleteSnapshot for a deleted one.':
    '从它的 informer 同步属于其驱动的 VolumeSnapshotContent：对新的调用 CreateSnapshot，对已删除的调用 DeleteSnapshot。',
  // snapshotControllerMachine
  'The snapshot-controller Deployment is not running.':
    'snapshot-controller 这个 Deployment 没有运行。',
  'Syncs VolumeSnapshots from its informers: creates their contents, and copies a ready content into the snapshot.':
    '从它的 informer 同步 VolumeSnapshot：为它们创建内容对象，并把已就绪内容对象的结果复制到快照中。',
  // csiControllerPluginMachine
  "The plugin process is not running; calls to its socket hang until the caller's deadline.":
    '插件进程没有在运行；对其套接字的调用会一直挂起，直到调用方的截止时间（deadline）。',
  'The gRPC server listens on the controller socket (csi.sock).':
    'gRPC 服务器在控制器套接字（csi.sock）上监听。',
  // csiNodePluginMachine
  "The node plugin container is not running; the kubelet's calls hang until their deadline.":
    '节点插件容器没有在运行；kubelet 的调用会一直挂起，直到各自的截止时间（deadline）。',
  'The gRPC server listens on the node socket (/var/lib/kubelet/plugins/<driver>/csi.sock).':
    'gRPC 服务器在节点套接字（/var/lib/kubelet/plugins/<driver>/csi.sock）上监听。',
  // csiVolumeLifecycleMachine
  'The volume does not exist in the backend (yet). DeleteVolume of it is OK (spec: not found -> 0 OK).':
    '卷在后端中（尚）不存在。对它调用 DeleteVolume 返回 OK（规范：not found -> 0 OK）。',
  'CreateVolume succeeded: the volume exists but is published to no node.':
    'CreateVolume 已成功：卷已存在，但尚未发布到任何节点。',
  'ControllerPublishVolume succeeded: the volume is attached to the node and may be staged there.':
    'ControllerPublishVolume 已成功：卷已挂接到节点，可以在那里暂存。',
  'NodeStageVolume succeeded: the device is formatted and mounted at the staging path.':
    'NodeStageVolume 已成功：设备已格式化并挂载到暂存路径。',
  "NodePublishVolume succeeded: the volume is bind-mounted at the pod's target path.":
    'NodePublishVolume 已成功：卷已绑定挂载到 Pod 的目标路径。',
  'DeleteVolume succeeded: the volume is gone from the backend.':
    'DeleteVolume 已成功：卷已从后端消失。',
  // kubeletMachine
  'The kubelet process is not running.':
    'kubelet 进程没有在运行。',
  'The kubelet syncs pods, runs the volume manager and the plugin manager (pkg/kubelet/kubelet.go Run).':
    'kubelet 同步 Pod，运行卷管理器和插件管理器（pkg/kubelet/kubelet.go 的 Run）。',
  // attachedVolumeMachine
  'MarkVolumeAsAttached: the attach/detach controller attached the volume (VerifyControllerAttachedVolume saw it in node.status.volumesAttached); nothing is mounted yet.':
    'MarkVolumeAsAttached：attach/detach 控制器已挂接该卷（VerifyControllerAttachedVolume 在 node.status.volumesAttached 中看到了它）；尚未挂载任何东西。',
  'MountDevice (NodeStageVolume) returned an error that is not final: the device may be staged, so UnmountDevice must still run.':
    'MountDevice（NodeStageVolume）返回了一个非最终的错误：设备可能已暂存，因此仍须运行 UnmountDevice。',
  'MountDevice succeeded: the volume is staged at its global mount path (or the driver has no STAGE_UNSTAGE_VOLUME).':
    'MountDevice 已成功：卷已暂存到其全局挂载路径（或驱动没有 STAGE_UNSTAGE_VOLUME）。',
  'MarkVolumeAsDetached: the kubelet forgets the volume (the controller detaches it).':
    'MarkVolumeAsDetached：kubelet 不再记录该卷（解除挂接由控制器完成）。',
  // mountedPodMachine
  'No mountedPod entry: SetUp (NodePublishVolume) has not run for this pod, or its unmount finished.':
    '没有 mountedPod 条目：尚未为该 Pod 运行 SetUp（NodePublishVolume），或其卸载已完成。',
  'SetUp returned an error that is not final: the volume may be published, so TearDown must still run.':
    'SetUp 返回了一个非最终的错误：卷可能已发布，因此仍须运行 TearDown。',
  'SetUp succeeded: the volume is published into the pod (for a raw block volume: MapPodDevice and the device links).':
    'SetUp 已成功：卷已发布到 Pod 中（裸块卷则是 MapPodDevice 加上设备链接）。',
  // verifyControllerAttachedVolumeMachine
  "1.30: without a claim size in the actual state of world, the claim is read first (its status.capacity); 1.20 reads none.":
    '1.30：实际状态中还没有申领大小时，先读取申领（它的 status.capacity）；1.20 不读取。',
  "GET the PV's claim for its status.capacity, which MarkVolumeAsAttached records (InitializeClaimSize); a failure fails the check.":
    '用 GET 读取 PV 的申领，取其 status.capacity，由 MarkVolumeAsAttached 记录下来（InitializeClaimSize）；读取失败则检查失败。',
  'A volume whose plugin is not attachable (CSIDriver attachRequired: false) is attached by definition; one not yet reported in node.status.volumesInUse is not verified.':
    '插件不可挂接（CSIDriver 的 attachRequired: false）的卷，按定义即视为已挂接；尚未在 node.status.volumesInUse 中报告的卷则不做确认。',
  'GET the Node from the API server, to read status.volumesAttached (the attach/detach controller writes it).':
    '从 API 服务器 GET 该 Node，以读取 status.volumesAttached（由 attach/detach 控制器写入）。',
  'MarkVolumeAsAttached: the volume is in the actual state of world.':
    'MarkVolumeAsAttached：卷已在实际状态中。',
  'The operation returned an error: it backs off before the reconciler may retry.':
    '操作返回了错误：它先进入退避，退避结束后协调器才可以重试。',
  // mountVolumeMachine
  'MountVolume.WaitForAttach: the VolumeAttachment must say attached (skipped for a volume that needs no attach).':
    'MountVolume.WaitForAttach：VolumeAttachment 必须显示已挂接（无需挂接的卷跳过此步）。',
  'MountVolume.MountDevice: csi_attacher.MountDevice stages the volume at its global mount path.':
    'MountVolume.MountDevice：csi_attacher.MountDevice 把卷暂存到其全局挂载路径。',
  'The CSI client of a registered driver.':
    '已注册驱动的 CSI 客户端。',
  'Does the node plugin advertise STAGE_UNSTAGE_VOLUME?':
    '节点插件是否通告了 STAGE_UNSTAGE_VOLUME？',
  '1.30: csi_attacher.MountDevice asks NodeGetCapabilities again, for VOLUME_MOUNT_GROUP (DelegateFSGroupToCSIDriver, GA in 1.26; v1.30.7 csi_attacher.go:392); 1.20 does not.':
    '1.30：csi_attacher.MountDevice 再次调用 NodeGetCapabilities，询问 VOLUME_MOUNT_GROUP（DelegateFSGroupToCSIDriver，1.26 起 GA；v1.30.7 csi_attacher.go:392）；1.20 不会。',
  '1.30: csi_mounter.SetUpAt asks NodeGetCapabilities again, for VOLUME_MOUNT_GROUP (v1.30.7 csi_mounter.go:246); 1.20 does not.':
    '1.30：csi_mounter.SetUpAt 再次调用 NodeGetCapabilities，询问 VOLUME_MOUNT_GROUP（v1.30.7 csi_mounter.go:246）；1.20 不会。',
  'NodeStageVolume: an error that is not final leaves the device uncertain (markDeviceErrorState).':
    'NodeStageVolume：非最终的错误会让设备处于不确定状态（markDeviceErrorState）。',
  'MountVolume.SetUp: csi_mounter.SetUpAt publishes the volume into the pod.':
    'MountVolume.SetUp：csi_mounter.SetUpAt 把卷发布到 Pod 中。',
  'With STAGE_UNSTAGE_VOLUME the publish names the staging path.':
    '有 STAGE_UNSTAGE_VOLUME 时，发布请求中会写明暂存路径。',
  "NodePublishVolume: an error that is not final leaves the pod's mount uncertain (markVolumeErrorState).":
    'NodePublishVolume：非最终的错误会让该 Pod 的挂载处于不确定状态（markVolumeErrorState）。',
  "requiresPermissionChange (fsGroupChangePolicy OnRootMismatch): the volume's top directory already has the pod's group and mode, or the kubelet walks the files.":
    'requiresPermissionChange（fsGroupChangePolicy 为 OnRootMismatch）：卷的顶层目录已经具有 Pod 的属组和权限，否则 kubelet 遍历其中的文件。',
  "SetVolumeOwnership: the kubelet walks the published volume and gives every file the pod's fsGroup; a failure leaves the pod's mount uncertain (it is mounted).":
    'SetVolumeOwnership：kubelet 遍历已发布的卷，把每个文件的属组设为 Pod 的 fsGroup；失败会让该 Pod 的挂载处于不确定状态（它已经挂载）。',
  "MarkVolumeAsMounted: the pod's volume is mounted.":
    'MarkVolumeAsMounted：该 Pod 的卷已挂载。',
  '1.20: nodeExpandVolume right after MountDevice, on the staging path, for a claim the controller expanded while no pod used it (FileSystemResizePending).':
    '1.20：MountDevice 之后立即执行 nodeExpandVolume（在暂存路径上），用于控制器在没有 Pod 使用时已扩容的申领（FileSystemResizePending）。',
  'GET the claim: is its status.capacity smaller than the PV? If not, there is nothing to expand.':
    '读取（GET）申领：它的 status.capacity 是否小于 PV？若不小于，就没有需要扩展的。',
  'Expander.NodeExpand: the CSI client of a registered driver.':
    'Expander.NodeExpand：已注册驱动的 CSI 客户端。',
  'publishVolumeForBlock: the Secret the PV names for NodePublishVolume (nodePublishSecretRef), read with a GET.':
    'publishVolumeForBlock：用 GET 读取 PV 为 NodePublishVolume 指定的 Secret（nodePublishSecretRef）。',
  '1.30: csi_client.NodeStageVolume asks NodeGetCapabilities once more, for SINGLE_NODE_MULTI_WRITER, to map the access mode (csi_client.go:408); 1.20 does not.':
    '1.30：csi_client.NodeStageVolume 会再调用一次 NodeGetCapabilities，询问 SINGLE_NODE_MULTI_WRITER，以映射访问模式（csi_client.go:408）；1.20 不会。',
  '1.30: csi_client.NodePublishVolume asks NodeGetCapabilities once more, for SINGLE_NODE_MULTI_WRITER, to map the access mode (csi_client.go:237); 1.20 does not.':
    '1.30：csi_client.NodePublishVolume 会再调用一次 NodeGetCapabilities，询问 SINGLE_NODE_MULTI_WRITER，以映射访问模式（csi_client.go:237）；1.20 不会。',
  '1.30: csi_client.NodeStageVolume asks NodeGetCapabilities once more, for SINGLE_NODE_MULTI_WRITER, to map the access mode; 1.20 does not.':
    '1.30：csi_client.NodeStageVolume 会再调用一次 NodeGetCapabilities，询问 SINGLE_NODE_MULTI_WRITER，以映射访问模式；1.20 不会。',
  '1.30: csi_client.NodePublishVolume asks NodeGetCapabilities once more, for SINGLE_NODE_MULTI_WRITER, to map the access mode; 1.20 does not.':
    '1.30：csi_client.NodePublishVolume 会再调用一次 NodeGetCapabilities，询问 SINGLE_NODE_MULTI_WRITER，以映射访问模式；1.20 不会。',
  'NodeSupportsNodeExpand: does the node plugin advertise EXPAND_VOLUME?':
    'NodeSupportsNodeExpand：节点插件是否通告了 EXPAND_VOLUME？',
  "getCredentialsFromSecret of the PV's nodeExpandSecretRef (on by default from 1.27): its keys go in NodeExpandVolume; a failure fails the expansion.":
    'getCredentialsFromSecret 读取 PV 的 nodeExpandSecretRef（1.27 起默认开启）：其中的键随 NodeExpandVolume 一起发送；读取失败则扩容失败。',
  'NodeSupportsStageUnstage: a driver that does not stage has nothing staged to expand; the try after SetUp does it.':
    'NodeSupportsStageUnstage：不做暂存的驱动没有已暂存的卷可扩展；由 SetUp 之后的那次尝试来做。',
  "NodeExpandVolume: the node plugin grows the file system to the PV's size.":
    'NodeExpandVolume：节点插件把文件系统扩到 PV 的容量。',
  "MarkFSResizeFinished: patch the claim's status: capacity the new size, the Resizing and FileSystemResizePending conditions gone.":
    'MarkFSResizeFinished：修补申领的状态：capacity 改为新容量，Resizing 和 FileSystemResizePending 条件移除。',
  "The expansion after SetUp, on the pod's publish path: always in 1.30 (expandVolumeDuringMount), in 1.20 only when the try after MountDevice did not finish it.":
    'SetUp 之后的扩展，在 Pod 的发布路径上：1.30 中总会执行（expandVolumeDuringMount），1.20 中只在 MountDevice 之后那次尝试没有完成时执行。',
  'The second NodeGetCapabilities of a NodeExpand (1.20: STAGE_UNSTAGE_VOLUME; 1.30: SINGLE_NODE_MULTI_WRITER, for the access mode).':
    'NodeExpand 的第二次 NodeGetCapabilities（1.20：STAGE_UNSTAGE_VOLUME；1.30：SINGLE_NODE_MULTI_WRITER，用于访问模式）。',
  // expandInUseVolumeMachine
  'doOnlineExpansion -> nodeExpandVolume: the volume stays mounted in the pod while its file system grows.':
    'doOnlineExpansion -> nodeExpandVolume：文件系统扩展期间，卷一直挂载在 Pod 中。',
  'MarkVolumeAsResized: the actual state of world records the new size.':
    'MarkVolumeAsResized：实际状态记录下新容量。',
  // unmountVolumeMachine
  'UnmountVolume.TearDown: the CSI client of a registered driver.':
    'UnmountVolume.TearDown：已注册驱动的 CSI 客户端。',
  "NodeUnpublishVolume: csi_mounter.TearDownAt unmounts the pod's volume directory.":
    'NodeUnpublishVolume：csi_mounter.TearDownAt 卸载该 Pod 的卷目录。',
  "MarkVolumeAsUnmounted: the pod's mount is gone.":
    'MarkVolumeAsUnmounted：该 Pod 的挂载已不复存在。',
  // mapVolumeMachine, unmapVolumeMachine, unmapDeviceMachine (raw block volumes)
  'MapVolume.WaitForAttach: the VolumeAttachment must say attached (skipped for a volume that needs no attach).':
    'MapVolume.WaitForAttach：VolumeAttachment 必须显示已挂接（不需要挂接的卷跳过这一步）。',
  'MapVolume.SetUpDevice: csi_block.SetUpDevice stages the volume for block access (NodeStageVolume with a Block capability).':
    'MapVolume.SetUpDevice：csi_block.SetUpDevice 以块方式暂存卷（带 Block 能力的 NodeStageVolume）。',
  'GET the VolumeAttachment: its attachmentMetadata is the publish context.':
    'GET VolumeAttachment：它的 attachmentMetadata 就是 publish context。',
  'The Secret the PV names for NodeStageVolume (nodeStageSecretRef), read with a GET.': 'PV 为 NodeStageVolume 指定的 Secret（nodeStageSecretRef），用一次 GET 读取。',
  'getPublishContext: GET the VolumeAttachment, whose attachmentMetadata is the publish context (none for a driver that needs no attach).': 'getPublishContext：GET 该 VolumeAttachment，它的 attachmentMetadata 就是 publish context（不需要挂接的驱动则没有这一步）。',
  'The Secret the PV names for NodePublishVolume (nodePublishSecretRef), read with a GET.': 'PV 为 NodePublishVolume 指定的 Secret（nodePublishSecretRef），用一次 GET 读取。',
  'getPublishContext again, for NodePublishVolume: GET the VolumeAttachment (none for a driver that needs no attach).': '为 NodePublishVolume 再做一次 getPublishContext：GET 该 VolumeAttachment（不需要挂接的驱动则没有这一步）。',
  'stageVolumeForBlock: does the node plugin advertise STAGE_UNSTAGE_VOLUME? Without it there is nothing to stage.':
    'stageVolumeForBlock：节点插件是否通告 STAGE_UNSTAGE_VOLUME？没有的话就无需暂存。',
  'NodeStageVolume to plugins/kubernetes.io/csi/volumeDevices/staging/<pv>: an error that is not final leaves the device uncertain (markDeviceErrorState).':
    'NodeStageVolume 到 plugins/kubernetes.io/csi/volumeDevices/staging/<pv>：非最终错误会让设备处于不确定状态（markDeviceErrorState）。',
  'MapVolume.MapPodDevice: csi_block.MapPodDevice publishes the volume to a file for this pod; then the kubelet links it into the pod.':
    'MapVolume.MapPodDevice：csi_block.MapPodDevice 把卷发布成这个 Pod 专用的一个文件，然后 kubelet 把它链接进 Pod。',
  'GET the VolumeAttachment again, for the publish context.':
    '再次 GET VolumeAttachment，取 publish context。',
  'NodePublishVolume to plugins/kubernetes.io/csi/volumeDevices/publish/<pv>/<pod uid>: an error that is not final leaves the pod\'s volume uncertain (markVolumeErrorState).':
    'NodePublishVolume 到 plugins/kubernetes.io/csi/volumeDevices/publish/<pv>/<pod uid>：非最终错误会让该 Pod 的卷处于不确定状态（markVolumeErrorState）。',
  'expandVolumeDuringMount, as after a mount: GET the claim; a claim smaller than the PV is expanded on the node first.':
    'expandVolumeDuringMount，与挂载之后相同：GET 申领；申领小于 PV 时先在节点上扩容。',
  'MarkVolumeAsMounted: the raw device is mapped into the pod.':
    'MarkVolumeAsMounted：裸设备已映射进 Pod。',
  'The pod\'s volume is marked uncertain (so that a failure below leaves it to be unmapped again), and the device links go.':
    'Pod 的卷被标记为不确定（这样后面失败时还会再次取消映射），设备链接被删除。',
  'UnmapVolume.UnmapPodDevice: csi_block.UnmapPodDevice unpublishes the pod\'s file.':
    'UnmapVolume.UnmapPodDevice：csi_block.UnmapPodDevice 取消发布该 Pod 的文件。',
  'NodeUnpublishVolume of plugins/kubernetes.io/csi/volumeDevices/publish/<pv>/<pod uid>.':
    '对 plugins/kubernetes.io/csi/volumeDevices/publish/<pv>/<pod uid> 调用 NodeUnpublishVolume。',
  'MarkVolumeAsUnmounted: the pod\'s volume is gone.':
    'MarkVolumeAsUnmounted：Pod 的卷已移除。',
  'UnmapDevice.TearDownDevice: csi_block.TearDownDevice unstages the volume.':
    'UnmapDevice.TearDownDevice：csi_block.TearDownDevice 取消暂存该卷。',
  'unstageVolumeForBlock: without STAGE_UNSTAGE_VOLUME there is nothing to unstage.':
    'unstageVolumeForBlock：没有 STAGE_UNSTAGE_VOLUME 就无需取消暂存。',
  'NodeUnstageVolume of plugins/kubernetes.io/csi/volumeDevices/staging/<pv>.':
    '对 plugins/kubernetes.io/csi/volumeDevices/staging/<pv> 调用 NodeUnstageVolume。',
  'MarkDeviceAsUnmounted: the device is no longer mapped on the node.':
    'MarkDeviceAsUnmounted：设备在节点上已不再映射。',
  // unmountDeviceMachine
  'csi_attacher.UnmountDevice: the CSI client of a registered driver.':
    'csi_attacher.UnmountDevice：已注册驱动的 CSI 客户端。',
  'Without STAGE_UNSTAGE_VOLUME there is nothing to unstage.':
    '没有 STAGE_UNSTAGE_VOLUME 时，无需取消暂存。',
  'NodeUnstageVolume: the global mount goes.':
    'NodeUnstageVolume：移除全局挂载。',
  'MarkDeviceAsUnmounted: the device is no longer globally mounted.':
    'MarkDeviceAsUnmounted：设备已不再全局挂载。',
  // nodeDriverRegistrarMachine
  'The container is not running.':
    '该容器没有在运行。',
  'main.go: GetPluginInfo on the node plugin to learn the driver name.':
    'main.go：在节点插件上调用 GetPluginInfo，以得知驱动名称。',
  'node_register.go: the registration socket is open; waiting for the kubelet.':
    'node_register.go：注册套接字已打开；等待 kubelet。',
  'The kubelet registered the driver; the registrar keeps answering GetInfo (a restarted kubelet registers it again).':
    'kubelet 已注册该驱动；registrar 继续应答 GetInfo（重启后的 kubelet 会再注册一次）。',
  'The kubelet reported a failed registration: the process exits (os.Exit(1)) before it answers, and the kubelet restarts its container.':
    'kubelet 报告注册失败：进程在应答之前退出（os.Exit(1)），kubelet 重启它的容器。',
  'GetPluginInfo failed: the process exits (os.Exit(1)) and the kubelet restarts its container.':
    'GetPluginInfo 失败：进程退出（os.Exit(1)），kubelet 重启它的容器。',
};

/** A state's description in `lang`: the Chinese where there is one, else the English as given. */
export function stateDescriptionIn(lang: Lang, english: string): string {
  if (lang === 'zh') return Object.hasOwn(STATE_DESCRIPTIONS_ZH, english) ? STATE_DESCRIPTIONS_ZH[english]! : english;
  return english;
}
