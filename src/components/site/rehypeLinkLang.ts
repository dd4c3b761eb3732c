/**
 * A hast plugin of Astro's Markdown processor (Sätteri) for the MDX pages under src/pages/zh/: a link
 * from Chinese prose to a page that exists only in English gets hreflang="en", as linkIn() gives the
 * links the components write, so a reader (and a browser) knows the language changes. Links to
 * translated pages are left as written. (Astro 7's MDX ignores rehype plugins unless the unified
 * processor is installed: this is the same rule in the processor the site uses.)
 */
import { fileURLToPath } from 'node:url';
import { isTranslated } from './i18n.ts';

/** Whether a link from a Chinese page to `href` leads to an English-only page. */
export function leadsToEnglishOnly(href: unknown): boolean {
  if (typeof href !== 'string' || !href.startsWith('/') || href.startsWith('//') || href.startsWith('/zh/')) return false;
  return !isTranslated(href.split('#')[0]!.split('?')[0]!);
}

interface Ctx { setProperty(node: unknown, key: string, value: unknown): void }
interface A { tagName: string; properties?: Record<string, unknown> }

/** The plugin's factory: runs only on documents under src/pages/zh/. */
export function linkLangPlugin(doc: { fileURL: URL | undefined }) {
  const path = doc.fileURL ? fileURLToPath(doc.fileURL) : '';
  if (!/[\\/]src[\\/]pages[\\/]zh[\\/]/.test(path)) return null;
  return {
    name: 'csi-flows-link-lang',
    element: {
      filter: ['a'],
      visit(node: A, ctx: Ctx): void {
        if (leadsToEnglishOnly(node.properties?.href)) ctx.setProperty(node, 'hrefLang', 'en');
      },
    },
  };
}
