import { existsSync } from 'node:fs';
import path from 'node:path';

/** The site's main sections, in header order. */
// (no "Home": the site name links home, and six items do not fit a 360 px phone in two rows)
export const NAV_ITEMS = [
  { href: '/flows/', label: 'Flows' },
  { href: '/components/', label: 'Components' },
  { href: '/explain/', label: 'Explain' },
  { href: '/embed/', label: 'Embed' },
  { href: '/search/', label: 'Search' },
] as const;

export type NavItem = (typeof NAV_ITEMS)[number];

/** Strips a trailing `index.html` and adds the trailing slash, so `/flows` and `/flows/` compare equal. */
export function normalizePath(pathname: string): string {
  const stripped = pathname.replace(/index\.html$/, '');
  if (stripped.endsWith('/') || /\.[a-z0-9]+$/i.test(stripped)) return stripped;
  return `${stripped}/`;
}

/**
 * `aria-current` for a nav link: "page" on the section's own page, "true" anywhere below it (a
 * chapter under Flows), nothing elsewhere. Home only matches itself, or it would contain every page.
 */
export function navCurrent(pathname: string, href: string): 'page' | 'true' | undefined {
  const current = normalizePath(pathname);
  if (current === href) return 'page';
  if (href !== '/' && current.startsWith(href)) return 'true';
  return undefined;
}

const PAGE_EXTENSIONS = ['astro', 'mdx', 'md', 'html'];
const warned = new Set<string>();

/**
 * Whether src/pages has a page for a section path such as `/flows/` (flows/index.* or flows.*).
 * Runs at build time only (Astro frontmatter), from the project root that npm scripts run in.
 */
export function hasPage(href: string, pagesDir = path.join(process.cwd(), 'src', 'pages')): boolean {
  const section = href.replace(/^\/|\/$/g, '');
  if (section === '') return true;
  const candidates = PAGE_EXTENSIONS.flatMap((ext) => [
    path.join(pagesDir, section, `index.${ext}`),
    path.join(pagesDir, `${section}.${ext}`),
  ]);
  return candidates.some((file) => existsSync(file));
}

/**
 * The nav items whose section page exists. The sections are written in parallel; linking to a
 * section before its page exists would give every page a broken link, so until then the item is
 * left out (and the build says so once per missing section).
 */
export function availableNavItems(pagesDir?: string): NavItem[] {
  const items = NAV_ITEMS.filter((item) => hasPage(item.href, pagesDir));
  for (const item of NAV_ITEMS) {
    if (!items.includes(item) && !warned.has(item.href)) {
      warned.add(item.href);
      console.warn(`[site nav] no page for ${item.href} yet; its nav link is left out`);
    }
  }
  return items;
}

