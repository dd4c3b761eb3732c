/**
 * zh-CN text of the messages and step summaries in the English catalog beside this file (same ids,
 * same placeholders; see shared/messages.ts MessageTextZh). test/i18n/catalog-zh.test.ts checks both.
 */
import { defineMessagesZh, defineSummaries } from '../shared/messages.ts';

export const messagesZh = defineMessagesZh({
  'pvController.claimBoundToVolume': {
    summary: 'PV 控制器将 claimRef {claim} 写入 PersistentVolume {volume}。',
  },
  'pvController.volumeEnteredPhase': {
    summary: 'PersistentVolume {volume} 进入 {phase} 阶段。',
  },
  'pvController.volumeBoundToClaim': {
    summary: 'PV 控制器将 spec.volumeName {volume} 和 bind-completed 注解写入申领 {claim}。',
  },
  'pvController.claimEnteredPhase': {
    summary: 'PersistentVolumeClaim {claim} 进入 {phase} 阶段。',
  },
  'pvController.volumeReleased': {
    summary: 'PersistentVolume {volume} 的申领已不存在：该卷变为 Released，并按其回收策略 {policy} 处理。',
  },
});

export const summariesZh = defineSummaries({
  'pvController.bindVolume': 'PV 控制器将 PersistentVolume {volume} 绑定到申领 {claim}（spec.claimRef）。',
  'pvController.bindClaim': 'PV 控制器将申领 {claim} 绑定到 PersistentVolume {volume}（spec.volumeName、bind-completed）。',
  'pvController.volumePhase': 'PV 控制器将 PersistentVolume {volume} 的阶段设为 {phase}。',
  'pvController.claimPhase': 'PV 控制器将申领 {claim} 的阶段设为 {phase}。',
  'pvController.externalProvisioning': 'PV 控制器将申领 {claim} 交给外部制备器 {provisioner}（storage-provisioner 注解）。',
});
