/**
 * zh-CN text of the annotations in seed-000.ts: the same groups, the same number of notes in the same
 * order (one per quoted line of src/data/seeds/seed-000.log), only the words translated; names, fields,
 * files and quoted log text stay as in English. test/i18n/seedNotes.zh.test.ts checks the pairing.
 */
import type { NoteGroup } from '../seeds.ts';

export const SEED_000_NOTES_ZH: NoteGroup[] = [
  {
    title: '旧节点 11.142.61.164：kubelet 拆除该卷',
    intro: 'Pod 已被删除。它所在节点上的 kubelet 按相反的顺序撤销两次挂载：先是 Pod 的绑定挂载，再是节点范围的暂存挂载。它不会等待磁盘解除挂接：那不是它的工作。',
    notes: [
      'NodeUnpublishVolume 返回 OK：卷已不再挂载在 Pod 的目录中。InnerVolumeSpecName 是 PV 的名称，OuterVolumeSpecName 是 Pod spec 中使用的名称。',
      '本节点上已没有其他 Pod 使用该卷，于是 kubelet 开始取消暂存（unstage）：对全局挂载点调用 NodeUnstageVolume。',
      '取消暂存成功。末尾的“%!(EXTRA string=…)”是 Go 的 fmt 包在报告：有一个参数在格式字符串中没有对应的格式动词（verb）。这是 1.20 中这条日志调用的一个只影响显示的缺陷，这里照打印的原样重现。这一行也说明脱敏并不彻底（disk-adge0gvc 在这里保留了下来）。',
      '“Volume detached”是 kubelet 的说法，意思是它把该卷从自己的实际状态（actual state of world）中去掉了。此时还没有任何东西从虚拟机上解除挂接。DevicePath 是 VolumeAttachment 的名称，CSI 插件把它用作设备路径。',
    ],
  },
  {
    title: 'kube-controller-manager：attach/detach 控制器解除挂接',
    intro: '控制器的期望状态已不再要求该卷挂接在旧节点上，kubelet 也已把它从 volumesInUse 中去掉。这里的时间戳与 kubelet 的一样是 UTC+8；下面的边车容器以 UTC 记录日志（06:58 是同一分钟）。',
    notes: [
      '协调器开始解除挂接。就在此前，它已把该卷从节点的 status.volumesAttached 中移除，因此不会再有 kubelet 开始挂载它。',
      '安全检查：该操作读取了 Node 对象，卷不在其 status.volumesInUse 中。如果在，解除挂接就会失败并重试。',
      '六秒半之后，解除挂接完成：对 CSI 而言，这意味着控制器删除的那个 VolumeAttachment 已经消失，而这只会在 external-attacher 移除了自己的终结器之后发生。',
    ],
  },
  {
    title: 'csi-attacher：旧节点的 VolumeAttachment',
    notes: [
      'VolumeAttachment csi-3a36… 被设置了 deletionTimestamp；这次更新进入 external-attacher 的工作队列。',
      'CSI 处理器（CSI handler）接手处理它（csi_handler.go syncVA）。',
      'deletionTimestamp 已设置，所以这是一次解除挂接。',
      '即将为这次挂接调用 ControllerUnpublishVolume。',
      '六秒之后，驱动应答 OK。',
      'external-attacher 写入 status.attached=false。',
      'client-go 的客户端限流器把这个 PATCH 推迟了约 200 ms。无害，但说明这个边车容器发出的 API 调用很多。',
      'external-attacher 的终结器被移除；没有剩余的终结器后，API 服务器删除该对象，控制器的等待随之结束。',
      '从 attacher 这一侧看，解除挂接已经完成。',
    ],
  },
  {
    title: 'cbs-csi 控制器插件：解除挂接调用',
    notes: [
      'gRPC 拦截器会记录它处理的每一个调用：这里是 ControllerUnpublishVolume。',
      'node_id 是来自 CSINode 对象的 CVM 实例 ID，volume_id 是云盘：意思是“把这块磁盘从那台虚拟机上摘下来”。',
    ],
  },
  {
    title: 'kube-controller-manager：挂接到新节点',
    intro: '该卷是 ReadWriteOnce：只要它还挂接在旧节点上，控制器就不会把它挂接到 11.142.60.212（播放器中可以看到 Multi-Attach 拒绝）。挂接在解除挂接完成的同一秒内开始。',
    notes: [
      '挂接操作开始。1.20 的措辞即使对挂接也写作“from node”；1.30 则以结构化的键值对（volumeName=…, nodeName=…）打印同一件事。',
      '十二秒后，新的 VolumeAttachment 报告 status.attached=true。',
      '记录在新 Pod 上的 Normal 事件 SuccessfulAttachVolume：kubectl describe pod 显示的就是它。',
    ],
  },
  {
    title: 'csi-attacher：新的 VolumeAttachment',
    notes: [
      '一个新的 VolumeAttachment，csi-ef62…：名称是对卷句柄、驱动和节点计算的哈希，所以换一个节点就是另一个对象。',
      '处理器接手处理它。',
      '没有 deletionTimestamp：这是一次挂接。',
      '它收集 ControllerPublishVolume 所需的信息：PV、来自 CSINode 的节点 ID、访问模式。',
      '在调用驱动之前，它先把自己的终结器加到 VolumeAttachment 上，这样该对象不会在挂接进行到一半时消失。',
      '节点 ID 在同一次 patch 中写入注解 csi.alpha.kubernetes.io/node-id。',
      '又是限流器，这次让 PATCH 等了半秒。',
      '大约十一秒后，ControllerPublishVolume 返回 OK：云平台已挂接了磁盘。',
      '它写入 status.attached=true，并把发布上下文（publish context）写为 attachmentMetadata；cbs 的发布上下文为空。',
      '状态写入已保存。',
      '完成：挂接已就位，并已记录下来。',
      '这个工作条目处理完毕，它的重试退避被重置。',
    ],
  },
  {
    title: 'cbs-csi 控制器插件：挂接调用',
    notes: [
      'ControllerPublishVolume 到达驱动。',
      '新节点的实例 ID、卷能力（文件系统 ext4，访问模式 1 = SINGLE_NODE_WRITER），以及制备器保存在 PV 中的卷上下文（volume context）。这里没有脱敏：磁盘是 disk-adge0gvc。',
    ],
  },
  {
    title: '新节点 11.142.60.212：kubelet 先等待，再挂载',
    intro: '这些 kubelet 日志行在旧节点上的解除挂接完成之前就开始了：新 Pod 立即被调度，它的 kubelet 以指数退避轮询，直到该卷出现在它的节点状态中。',
    notes: [
      'VerifyControllerAttachedVolume：该卷是否在本节点的 status.volumesAttached 中？',
      '还根本没有检查：kubelet 首先必须在 status.volumesInUse 中报告该卷（这样控制器就绝不会在 Pod 运行时把它解除挂接）。500 ms 后重试。',
      '下一次尝试。',
      '现在 volumesInUse 已报告，但卷还没有挂接：每一次正常的挂接在 ControllerPublishVolume 运行期间都会产生这个失败。4 s 后重试。',
      '退避之后的又一次尝试。',
      '控制器已把该卷写入 status.volumesAttached：kubelet 将其标记为已挂接。device path 为空，所有 CSI 卷都是如此。',
      '挂载操作开始。',
      '对 CSI 而言，WaitForAttach 直接检查 VolumeAttachment 本身。',
      '它已挂接；返回的 DevicePath 就是 VolumeAttachment 的名称。',
      'NodeStageVolume 成功：磁盘在需要时被格式化，并挂载到该 PV 的 globalmount 目录，该目录位于这个 kubelet 的根目录下（在这些节点上是 /data_online/1/kubelet）。',
      'NodePublishVolume 成功：以绑定挂载的方式挂载进 Pod。容器可以启动了。',
    ],
  },
];
