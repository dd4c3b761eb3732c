/**
 * The Markdown processor's hast plugin that marks links from Chinese prose to English-only pages
 * (astro.config.mjs). The build was checked by hand to run it (a zh chapter's link to /search/ came out
 * with hreflang="en"); this pins its rule.
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { leadsToEnglishOnly, linkLangPlugin } from '../../src/components/site/rehypeLinkLang.ts';

describe('links from Chinese prose', () => {
  it('an English-only page is marked, a translated page or another site is not', () => {
    expect(leadsToEnglishOnly('/search/')).toBe(true);
    expect(leadsToEnglishOnly('/search/?q=x#top')).toBe(true);
    expect(leadsToEnglishOnly('/components/kubelet/')).toBe(false);
    expect(leadsToEnglishOnly('/flows/attach/#step-3')).toBe(false);
    expect(leadsToEnglishOnly('/zh/flows/attach/')).toBe(false);
    expect(leadsToEnglishOnly('https://kubernetes.io/docs/')).toBe(false);
    expect(leadsToEnglishOnly('//example.com/')).toBe(false);
    expect(leadsToEnglishOnly(undefined)).toBe(false);
  });

  it('runs on src/pages/zh only, and sets hreflang="en" through the processor', () => {
    expect(linkLangPlugin({ fileURL: pathToFileURL('/repo/src/pages/flows/attach.mdx') })).toBeNull();
    expect(linkLangPlugin({ fileURL: undefined })).toBeNull();
    const plugin = linkLangPlugin({ fileURL: pathToFileURL('/repo/src/pages/zh/flows/attach.mdx') })!;
    expect(plugin.element.filter).toEqual(['a']);
    const set: unknown[][] = [];
    const ctx = { setProperty: (...a: unknown[]) => set.push(a) };
    const search = { tagName: 'a', properties: { href: '/search/' } };
    plugin.element.visit(search, ctx);
    plugin.element.visit({ tagName: 'a', properties: { href: '/zh/glossary/' } }, ctx);
    expect(set).toEqual([[search, 'hrefLang', 'en']]);
  });
});
