/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({});

export const summariesZh = defineSummaries({
  'pvcProtectionController.removeFinalizer': 'PVC 保护控制器从申领 {claim} 上移除 {finalizer}：已没有 Pod 使用它，因此可以将其删除。',
});
