/**
 * Words the component pages share (/components/, /components/<name>/, /components/csi-rpcs/ and
 * their /zh/ pairs), in English and Simplified Chinese. Words used by one template only live in
 * that template's own en/zh table; format.ts has the phrases built from facts (runsText, verbText).
 */
import type { ComponentGroup } from '../../machines/view/components.ts';
import type { Lang } from '../site/i18n.ts';

export const CATALOG_TEXT = {
  en: {
    components: 'Components',
    breadcrumb: 'Breadcrumb',
    csiRpcs: 'CSI RPCs',
  },
  zh: {
    components: '组件',
    breadcrumb: '面包屑导航',
    csiRpcs: 'CSI RPC',
  },
} as const satisfies Record<Lang, Record<string, string>>;

/** The component groups (COMPONENT_GROUPS, whose titles are the English) in Chinese. */
const GROUP_TITLE_ZH: Record<ComponentGroup, string> = {
  'control-plane': '控制平面控制器',
  'csi-sidecar': 'CSI 边车容器',
  'csi-plugin': 'CSI 驱动插件',
  node: '节点',
};

/** A component group's title in `lang`. */
export function groupTitle(g: { id: ComponentGroup; title: string }, lang: Lang): string {
  return lang === 'zh' ? GROUP_TITLE_ZH[g.id] : g.title;
}
