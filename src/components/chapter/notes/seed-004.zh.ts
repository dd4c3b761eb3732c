/**
 * zh-CN text of the annotations in seed-004.ts: the same groups (one per flow), the same number of
 * notes in the same order (one per quoted line of src/data/seeds/seed-004.log), only the words
 * translated; omap keys, names and quoted log text stay as in English. test/i18n/seedNotes.zh.test.ts
 * checks the pairing.
 */
import type { NoteGroup } from '../seeds.ts';

export const SEED_004_NOTES_ZH: NoteGroup[] = [
  {
    title: '创建：先在 journal 中预留，再创建镜像',
    notes: [
      'CreateVolume 在目录 omap csi.volumes.default 中查找请求名（pvc-<uid>）。结果为空：之前没有任何尝试留下预留，所以这是一个新卷。',
      '预留：键为 csi.volume.<request name>，值为一个新的 UUID。从此以后，同一请求的重试会找到并复用它。',
      '写入这个卷自己的 omap 对象 csi.volume.<UUID>，其中记录要使用的镜像名（csi-vol-<UUID>）和请求名。',
      '组合出 CSI 卷 ID：集群 ID、存储池 ID 和 UUID。这个字符串会成为 PV 的 volumeHandle，因此之后 DeleteVolume 仅凭它就能找到 journal 条目。',
      '直到这时才创建 RBD 镜像（只启用 layering）。如果在预留和这一行之间崩溃，就会留下一个没有镜像的预留：重试时找到它，发现没有镜像，便删除这些过时的条目并重新预留，因此一个请求绝不会得到两个镜像。',
      '镜像已经存在；这个请求基本上已经完成。',
      '最后，ceph 分配的镜像 ID 被保存到这个卷自己的 omap 中（csi.imageid）；删除时要用它把镜像从回收站中彻底清除。',
    ],
  },
  {
    title: '克隆：两个快照和一个 -temp 镜像',
    notes: [
      '新申领的 dataSource 是第一个 PVC，所以 CreateVolume 到来时带着那个卷的 ID；从它的 journal 条目可以得到父镜像的名称。',
      '新的请求名还没有预留。',
      '预留：为克隆的请求名分配一个新的 UUID。',
      '克隆自己的 omap，与普通创建一样。',
      '克隆的卷 ID 和镜像名。',
      '父镜像的快照，以新镜像名加“-temp”命名。文章中的这一行止于“using mon”；“@”之前的部分在 ceph-csi 自己的消息中就是空的。',
      '从这个快照克隆出临时镜像 <new>-temp。',
      '父镜像上的这个快照随即被删除，因此源卷上不会留下额外的快照。',
      '第二个快照，这次是 -temp 镜像的快照，以最终镜像的名称命名。',
      '最终镜像从 -temp 镜像的快照克隆而来：它的父镜像是 -temp 镜像，而不是源卷。',
      '这个快照也被删除。-temp 镜像作为最终镜像的父镜像保留下来。',
      '克隆的镜像 ID 被保存；journal 条目至此完整。',
    ],
  },
  {
    title: '删除：先回收站，后 journal',
    notes: [
      'DeleteVolume 只带有卷 ID。ceph-csi 从卷 ID 的末尾取出 UUID，读取这个卷自己的 omap，得知镜像名。',
      '这个驱动会运行 rbd 命令行工具，并记录它运行的每一条命令。模拟的 ceph-csi 不打印这些日志行。',
      'rbd info 调用找到了该镜像。',
      '在删除镜像本身之前，中途被打断的克隆所遗留的 <image>-temp 会先被删除；这里没有，这是通常的情况。',
      '现在删除镜像本身。',
      '镜像被移入 RBD 回收站（trash），而不是立即删除。',
      '驱动按镜像 ID 请求 ceph manager 在后台把回收站中的这个镜像彻底清除。模拟的 ceph-csi 以上游的措辞打印同一个请求（“adding task to remove image … from trash”），这是另一条消息，所以这一行没有匹配上。',
      '把该任务排入队列的 ceph CLI 调用。',
      'manager 以排入队列的任务作答：针对镜像 id 2aa2c1b62ed876 的 action“trash remove”。',
      'CLI 调用正常结束。',
      '最后，请求名的预留从 csi.volumes.default 中删除。文章没有展示这个卷自己的 omap 被删除；在上面模拟的 journal 中，它也被删除了。',
    ],
  },
];
