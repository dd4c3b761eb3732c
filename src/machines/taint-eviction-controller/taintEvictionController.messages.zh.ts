/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'taintEvictionController.notAllTaintsTolerated': {
    summary: 'Pod {pod} 不容忍节点 {node} 的某个 NoExecute 污点：控制器立即删除它。',
    explain: '一个 Pod 没有对应容忍度的 NoExecute 污点：Pod 立即被驱逐，而不是在容忍期过后。',
  },
  'taintEvictionController.deletingPod': {
    summary: '污点驱逐控制器删除 Pod {pod}：它所在节点有一个它（已）不再容忍的 NoExecute 污点。',
    explain: '基于污点的驱逐：Pod 被体面地（gracefully）删除，因此在 kubelet 已停止的节点上，它会一直停在 Terminating。',
  },
});

export const summariesZh = defineSummaries({
  'taintEvictionController.disruptionTarget': '污点驱逐控制器为 Pod {pod} 添加状况 DisruptionTarget（DeletionByTaintManager）。',
  'taintEvictionController.deletePod': '污点驱逐控制器删除 Pod {pod}（体面删除：由其 kubelet 停止容器）。',
});
