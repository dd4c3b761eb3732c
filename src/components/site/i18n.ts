/**
 * The site's two languages: English at /…, Simplified Chinese at /zh/…. A page's language comes from
 * its URL; the language switch on every page lands on the same page in the other language where it
 * is translated, and on the other language's home page (saying so) where it is not yet.
 * UI strings of the shell (header, footer, skip link, search box) live here in both languages.
 */
import { SCENARIOS } from '../../machines/scenarios/index.ts';
import { COMPONENTS } from '../../machines/registry.ts';

export type Lang = 'en' | 'zh';

/** The chapters with a Chinese page (src/pages/zh/flows/<id>.mdx; test/i18n/i18n.test.ts checks the files). */
export const TRANSLATED_CHAPTERS: readonly string[] = [
  'provision', 'wffc-provision', 'attach', 'mount', 'teardown', 'multi-attach', 'no-attach', 'pod-migration', 'node-failure',
  'ad-detach-backoff', 'mount-failure', 'ceph-rbd', 'provision-failure', 'attach-failure', 'driver-not-registered', 'register', 'expand', 'snapshot',
];

/** The pages that exist in both languages, by their English path (the zh one is /zh + it). */
export const TRANSLATED: readonly string[] = [
  '/', '/glossary/', '/flows/', '/explain/', '/embed/', '/playground/', '/components/', '/components/csi-rpcs/',
  ...TRANSLATED_CHAPTERS.map((id) => `/flows/${id}/`),
];

/** Pages made per scenario that exist in both languages: the player for embedding, the presenter and its notes. */
const PER_SCENARIO = /^\/(embed|present)\/([a-z0-9-]+)\/(notes\/)?$/;
const SCENARIO_IDS = new Set(SCENARIOS.map((x) => x.id));

/** Pages made per component (src/pages/components/[name].astro and src/pages/zh/components/[name].astro). */
const PER_COMPONENT = /^\/components\/([a-z0-9-]+)\/$/;
/** The components' names, from the registry (the same names componentFacts() gives the pages). */
const COMPONENT_NAMES = new Set(COMPONENTS.map((c) => c.descriptor.name));

/** Whether the page at this English path exists in Chinese too (/embed/example/ is no scenario's). */
export function isTranslated(englishPathname: string): boolean {
  if (TRANSLATED.includes(englishPathname)) return true;
  const c = PER_COMPONENT.exec(englishPathname);
  if (c) return COMPONENT_NAMES.has(c[1]!);
  const m = PER_SCENARIO.exec(englishPathname);
  return !!m && SCENARIO_IDS.has(m[2]!) && (m[1] === 'present' || !m[3]);
}

export const HTML_LANG: Record<Lang, string> = { en: 'en', zh: 'zh-CN' };

export function langOf(pathname: string): Lang {
  return /^\/zh(\/|$)/.test(pathname) ? 'zh' : 'en';
}

/** The English path of a page, whichever language the path is in. */
export function englishPath(pathname: string): string {
  return langOf(pathname) === 'zh' ? pathname.replace(/^\/zh/, '') || '/' : pathname;
}

/** A path in `lang`: /glossary/ → /zh/glossary/ and back. */
export function pathIn(lang: Lang, englishHref: string): string {
  return lang === 'zh' ? `/zh${englishHref}` : englishHref;
}

/** Where the switch to `to` leads from this page, and whether that is the same page. */
export function switchTarget(pathname: string, to: Lang): { href: string; samePage: boolean } {
  const en = englishPath(pathname);
  const samePage = isTranslated(en);
  return { href: pathIn(to, samePage ? en : '/'), samePage };
}

/**
 * A link from a page in `lang` to the page at `englishHref` (a fragment allowed): to its `lang` version
 * where it is translated, else to the English page with hreflang="en", so a reader (and a browser)
 * knows the language changes. Spread on an <a>: <a {...linkIn(lang, '/explain/')}>.
 */
export function linkIn(lang: Lang, englishHref: string): { href: string; hreflang?: string } {
  const [pagePath] = englishHref.split('#');
  if (lang === 'en' || isTranslated(pagePath!)) return { href: pathIn(lang, englishHref) };
  return { href: englishHref, hreflang: 'en' };
}

export const UI = {
  en: {
    skip: 'Skip to content',
    navLabel: 'Main',
    nav: { '/flows/': 'Flows', '/components/': 'Components', '/explain/': 'Explain', '/playground/': 'Playground', '/embed/': 'Embed', '/search/': 'Search' } as Record<string, string>,
    searchLabel: 'Search the site',
    searchPlaceholder: 'Search',
    searchButton: 'Search',
    switchLabel: '中文',
    switchTitle: '这一页的中文版',
    switchTitleHome: '中文版首页（这一页还没有中文版）',
    footer: ['CSI Flows simulates Kubernetes storage components. It is a learning aid, not a Kubernetes distribution: every diagram, log line and object on these pages comes from a simulated trace. New to the words? See the ', 'glossary', '.'],
    defaultDescription: 'Kubernetes CSI storage flows, simulated component by component.',
  },
  zh: {
    skip: '跳到正文',
    navLabel: '主导航',
    nav: { '/flows/': '流程', '/components/': '组件', '/explain/': '日志解读', '/playground/': '演练场', '/embed/': '嵌入', '/search/': '搜索' } as Record<string, string>,
    searchLabel: '搜索本站',
    searchPlaceholder: '搜索',
    searchButton: '搜索',
    switchLabel: 'English',
    switchTitle: 'This page in English',
    switchTitleHome: 'The English home page (this page has no English version yet)',
    footer: ['CSI Flows 模拟 Kubernetes 的存储组件。它是学习工具，不是 Kubernetes 发行版：这些页面上的每张图、每行日志和每个对象都来自一次模拟运行。不熟悉这些术语？请看', '术语表', '。'],
    defaultDescription: 'Kubernetes CSI 存储流程，逐个组件模拟。',
  },
} as const;
