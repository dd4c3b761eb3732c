/**
 * A rehype plugin for the MDX pages under src/pages/zh/: a link from Chinese prose to a page that
 * exists only in English gets hreflang="en", as linkIn() gives the links the components write, so a
 * reader (and a browser) knows the language changes. Links to translated pages are left as written.
 */
import { isTranslated } from './i18n.ts';

interface Node { type: string; tagName?: string; properties?: Record<string, unknown>; children?: Node[] }

function walk(n: Node, f: (n: Node) => void): void {
  f(n);
  for (const c of n.children ?? []) walk(c, f);
}

export function rehypeLinkLang() {
  return (tree: Node, file: { path?: string; history?: string[] }): void => {
    const path = file.path ?? file.history?.[0] ?? '';
    if (!/[\\/]src[\\/]pages[\\/]zh[\\/]/.test(path)) return;
    walk(tree, (n) => {
      if (n.type !== 'element' || n.tagName !== 'a') return;
      const href = n.properties?.href;
      if (typeof href !== 'string' || !href.startsWith('/') || href.startsWith('/zh/')) return;
      const page = href.split('#')[0]!.split('?')[0]!;
      if (!isTranslated(page)) n.properties!.hrefLang = 'en';
    });
  };
}
