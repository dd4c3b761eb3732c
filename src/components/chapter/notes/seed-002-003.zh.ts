/**
 * zh-CN text of the annotations in seed-002-003.ts: the same groups, the same number of notes in the
 * same order (one per quoted line of seeds 002 and 003), only the words translated; names, fields and
 * annotation keys stay as in English. test/i18n/seedNotes.zh.test.ts checks the pairing.
 */
import type { NoteGroup } from '../seeds.ts';

export const SEED_002_NOTES_ZH: NoteGroup[] = [
  {
    title: '卡住的节点的状态（文章中所示）',
    notes: [
      '由 attach/detach 控制器的节点状态更新器（node status updater）写入：它报告为已挂接到本节点的卷。',
      '树内卷在这里报告一个设备路径；CSI 卷报告的则是空值。',
      '只有一块磁盘：disk-6w87j3wv。',
      '由 kubelet 写入：它的 Pod 需要的卷。',
      '正在使用，且已挂接：一致。',
      '正在使用，却不在 volumesAttached 中：这正是该缺陷的特征。kubelet 等待这块磁盘出现在那里；控制器却认为它已挂接；对这个磁盘一直挂着的树内插件来说，它永远不会把它写回去。',
    ],
  },
];

export const SEED_003_NOTES_ZH: NoteGroup[] = [
  {
    title: '文章中的对象',
    notes: [
      '使用这个存储类的申领，由该驱动的 external-provisioner 制备。',
      '示例中的存储类立即绑定。使用 Immediate 时，申领一出现就会创建卷，早于任何 Pod 被调度。',
      '然而示例中的申领带有 selected-node。调度器只为存储类延迟绑定的申领写入这个注解，因此这个申领并非来自文中展示的那个 Immediate 存储类（或者这个注解是手工设置的）。',
      '由 PV 控制器写入：它把申领交给以该名称命名的外部制备器（external provisioner）。',
      '由 PV 控制器在把申领绑定到 PV 时写入。',
      '可用区（zone）和地域（region）标签，采用较早的 failure-domain.beta.kubernetes.io 形式。',
      'external-provisioner 给它创建的 PV 打上标记。',
      '该 PV 只能在可用区 cn-north-4a 的节点上使用。external-provisioner 根据 CreateVolume 返回的拓扑写入这一项；调度器对之后的每个 Pod 都强制执行它。',
      'CSINode：驱动为本节点给出的节点 ID 和驱动的拓扑键，由 kubelet 根据 NodeGetInfo 注册。external-provisioner 读取这些键，把选中的节点转换为可访问性要求（accessibility requirements）。',
    ],
  },
];
