/** The stages of a volume's life in Chinese (shared/messages.ts Stage), for every /zh/ page that names one. */
import type { Stage } from './messages.ts';

export const STAGE_ZH: Readonly<Record<Stage, string>> = {
  register: '注册', provision: '制备', attach: '挂接', mount: '挂载', resize: '扩容', snapshot: '快照', unmount: '卸载', detach: '解除挂接', delete: '删除', other: '其他',
};
