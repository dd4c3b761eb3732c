/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'snapshotController.creatingContent': {
    summary: 'snapshot-controller 为 VolumeSnapshot {snapshot} 创建 VolumeSnapshotContent：csi-snapshotter 将制作快照。',
  },
  'snapshotController.addedPvcFinalizer': {
    summary: '源申领 {pvc} 现在带有 snapshot.storage.kubernetes.io/pvc-as-source-protection：制作快照期间它不能被删除。',
  },
  'snapshotController.pvcFinalizerExists': {
    summary: '源申领 {pvc} 已经带有 pvc-as-source-protection finalizer。',
  },
  'snapshotController.removePvcFinalizer': {
    summary: '申领 {pvc} 已没有正在制作的快照：snapshot-controller 移除它的 pvc-as-source-protection finalizer。',
  },
});

export const summariesZh = defineSummaries({});
