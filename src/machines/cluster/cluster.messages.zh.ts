/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'clientGo.throttling': {
    summary: '客户端限流器将此 API 请求推迟了 {latency} 才发送。',
    explain: 'client-go 在发送此请求前，先等待从其 QPS/burst 配额中取得一个令牌。',
    cause: '该组件发出的 API 请求超出了 --kube-api-qps/--kube-api-burst 所允许的量。',
    next: '偶尔出现无害；若等待时间不断变长，请调大该边车容器的 --kube-api-qps 和 --kube-api-burst。',
  },
  'event.recorded': {
    summary: '{kind} {object} 上记录了一个 {type} 事件 {reason}：{message}',
    explain: '该组件记录了一个 Kubernetes Event；其事件广播器（broadcaster）同时将它打印到日志中。',
  },
});

export const summariesZh = defineSummaries({});
