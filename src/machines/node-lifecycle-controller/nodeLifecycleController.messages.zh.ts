/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'nodeLifecycleController.nodeNotUpdated': {
    summary: 'Node {node} 已有 {duration} 未上报状态：控制器将其 {type} 状况标记为 Unknown。',
  },
  'nodeLifecycleController.conditionNeverUpdated': {
    summary: 'Node {node} 从未上报其 {type} 状况：控制器以 Unknown 添加它（"Kubelet never posted node status."）。',
  },
  'nodeLifecycleController.addingTaint': {
    summary: 'Node {node} 无响应：控制器将其排入队列，准备添加污点 node.kubernetes.io/unreachable:NoExecute。',
  },
  'nodeLifecycleController.recordingStatusChange': {
    summary: 'Node {node} 从 Ready 变为 {status}：控制器在该节点上记录一个事件。',
  },
  'nodeLifecycleController.markingPodsNotReady': {
    summary: '控制器把节点 {node} 上每个 Pod 的 Ready 状况置为 False（MarkPodsNotReady）。',
  },
  'nodeLifecycleController.podNotReady': {
    summary: '无响应节点上的 Pod {pod} 被标记为未就绪：Service 不再向它转发流量；在 API 看来它仍在那里运行。',
  },
});

export const summariesZh = defineSummaries({
  'nodeLifecycleController.readyUnknown': '节点生命周期控制器将节点 {node} 标记为 Ready=Unknown：其 kubelet 已停止上报状态。',
  'nodeLifecycleController.unreachableTaint': '节点生命周期控制器为节点 {node} 添加污点 node.kubernetes.io/unreachable:NoExecute。',
  'nodeLifecycleController.podReadyFalse': '节点生命周期控制器将 Pod {pod} 的 Ready 状况置为 False：其节点 {node} 未就绪。',
});
