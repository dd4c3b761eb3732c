/**
 * Small wording helpers shared by the component pages, the RPC page and the home page map, in
 * English and Simplified Chinese (the component pages exist in both: /components/ and /zh/components/).
 */
import type { Kind } from '../../machines/index.ts';
import type { ComponentFacts } from '../../machines/view/components.ts';
import type { Lang } from '../site/i18n.ts';

export const componentUrl = (name: string): string => `/components/${name}/`;

/** Where a component runs, as a phrase, in each language. */
export const PLACEMENT_TEXT: Record<Lang, Record<ComponentFacts['placement'], string>> = {
  en: {
    'control-plane': 'on the control plane',
    'csi-controller-pod': 'in the CSI controller pod',
    'own-deployment': 'in a Deployment of its own (one per cluster)',
    'every-node': 'on every node',
  },
  zh: {
    'control-plane': '在控制平面上',
    'csi-controller-pod': '在 CSI 控制器 Pod 中',
    'own-deployment': '在它自己的 Deployment 中（每个集群一个）',
    'every-node': '在每个节点上',
  },
};

/** Where it runs and how its lines reach a reader, in one phrase. */
export function runsText(c: ComponentFacts, lang: Lang = 'en'): string {
  const where = PLACEMENT_TEXT[lang][c.placement];
  const kcm = c.source === 'kube-controller-manager' && c.name !== c.source;
  if (lang === 'zh') {
    if (c.logKind === 'daemon') return `${where}，作为主机服务运行（日志在 journal 中，例如 journalctl -u ${c.source}）`;
    if (c.source === 'kube-controller-manager' || c.source === 'kube-scheduler') {
      return `${where}，运行在 ${c.source} 内部${kcm ? '（它的控制器之一）' : ''}；日志在 ${c.source} 容器中`;
    }
    return `${where}，作为 ${c.source} 容器运行`;
  }
  if (c.logKind === 'daemon') return `${where}, as a host service (logs in the journal, e.g. journalctl -u ${c.source})`;
  if (c.source === 'kube-controller-manager' || c.source === 'kube-scheduler') {
    return `${where}, inside ${c.source}${kcm ? ' (one of its controllers)' : ''}; logs in the ${c.source} container`;
  }
  return `${where}, as the ${c.source} container`;
}

/** The short names kubectl knows, where there is one; others are spelled out. */
export const KIND_SHORT: Partial<Record<Kind, string>> = {
  PersistentVolumeClaim: 'PVC',
  PersistentVolume: 'PV',
  StorageClass: 'SC',
  VolumeAttachment: 'VA',
  StatefulSet: 'STS',
  VolumeSnapshot: 'VS',
  VolumeSnapshotContent: 'VSC',
  VolumeSnapshotClass: 'VSClass',
};
export const kindShort = (k: Kind): string => KIND_SHORT[k] ?? k;

/** What an API verb does, in words a reader of the YAML recognises. */
export const VERB_TEXT: Record<Lang, Record<string, string>> = {
  en: {
    create: 'creates',
    update: 'updates (whole object)',
    updateStatus: 'updates status',
    patch: 'patches',
    patchStatus: 'patches status',
    delete: 'deletes',
  },
  zh: {
    create: '创建',
    update: '更新（整个对象）',
    updateStatus: '更新 status',
    patch: '打补丁',
    patchStatus: '给 status 打补丁',
    delete: '删除',
  },
};
export const verbText = (verb: string, lang: Lang = 'en'): string => VERB_TEXT[lang][verb] ?? verb;

/** klog's severity letters in words. */
export const SEVERITY_TEXT: Record<Lang, Record<string, string>> = {
  en: { I: 'Info', W: 'Warning', E: 'Error', F: 'Fatal' },
  zh: { I: '信息', W: '警告', E: '错误', F: '致命' },
};

/** A list in prose: "a, b and c"; in Chinese "a、b 和 c". */
export function andList(items: string[], lang: Lang = 'en'): string {
  if (items.length <= 1) return items.join('');
  return lang === 'zh'
    ? `${items.slice(0, -1).join('、')} 和 ${items.at(-1)}`
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The separator of a list of names in running text: ", " in English, "、" in Chinese. */
export const listSep = (lang: Lang): string => (lang === 'zh' ? '、' : ', ');

/** A fragment id from any text (message ids, machine ids). */
export const anchorId = (text: string): string => text.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
