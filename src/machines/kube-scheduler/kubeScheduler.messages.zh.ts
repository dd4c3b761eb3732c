/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'kubeScheduler.boundPod': {
    summary: 'kube-scheduler 将 Pod {pod} 绑定到节点 {node}（{evaluatedNodes} 个节点中有 {feasibleNodes} 个符合条件）。',
  },
  'kubeScheduler.unschedulable': {
    summary: '暂时没有适合 Pod {pod} 的节点：{err}',
  },
});

export const summariesZh = defineSummaries({
  'kubeScheduler.bindPod': 'kube-scheduler 将 Pod {pod} 绑定到节点 {node}。',
  'kubeScheduler.selectedNode': 'kube-scheduler 为 Pod {pod} 选定节点 {node}，并将其写入申领 {claim}（selected-node），使卷在 Pod 将要运行的位置创建。',
});
