/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'podGcController.forceDeletingPod': {
    summary: 'Pod 垃圾收集器强制删除 Pod {pod}：它正在一个非 Ready、且带有停止服务（out-of-service）污点的节点上终止，而那个节点的 kubelet 永远不会完成它。',
    explain: 'PodGC 以宽限期 0 删除 Pod（先把它标记为 Failed）：Pod 对象不等其 kubelet 确认容器已停止就被删除。在停止服务的节点上，正是这一步让它的卷得以解除挂接、替代的 Pod 得以启动。',
  },
});

export const summariesZh = defineSummaries({
  'podGcController.markFailed': 'Pod 垃圾收集器在删除 Pod {pod} 之前，把它标记为 Failed。',
  'podGcController.forceDelete': 'Pod 垃圾收集器以宽限期 0 删除 Pod {pod}：对象立即消失。',
});
