/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'expandController.waitingForExternalController': {
    summary: '扩容控制器找不到能扩容 claim {claim} 的树内插件：它把这个 claim 交给外部扩容器（csi-resizer），不再重新入队。',
  },
});

export const summariesZh = defineSummaries({});
