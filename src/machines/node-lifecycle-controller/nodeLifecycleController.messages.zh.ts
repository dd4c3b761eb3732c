/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'nodeLifecycleController.nodeNotUpdated': {
    summary: 'Node {node} 已有 {duration} 未上报状态：控制器将其 Ready 状况标记为 Unknown。',
  },
  'nodeLifecycleController.addingTaint': {
    summary: 'Node {node} 无响应：控制器为其添加污点 node.kubernetes.io/unreachable:NoExecute。',
  },
});

export const summariesZh = defineSummaries({
  'nodeLifecycleController.readyUnknown': '节点生命周期控制器将节点 {node} 标记为 Ready=Unknown：其 kubelet 已停止上报状态。',
  'nodeLifecycleController.unreachableTaint': '节点生命周期控制器为节点 {node} 添加污点 node.kubernetes.io/unreachable:NoExecute。',
});
