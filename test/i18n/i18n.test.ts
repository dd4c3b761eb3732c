import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { englishPath, isTranslated, langOf, linkIn, pathIn, switchTarget, TRANSLATED, TRANSLATED_CHAPTERS, UI } from '../../src/components/site/i18n.ts';
import { CHAPTERS } from '../../src/components/chapter/chapters.ts';
import { SCENARIO_TITLES_ZH } from '../../src/components/catalog/scenarios.zh.ts';
import { SCENARIOS } from '../../src/machines/index.ts';

describe('the site languages (i18n.ts)', () => {
  it('reads the language from the URL: /zh/… is Chinese, the rest English', () => {
    expect(langOf('/zh/')).toBe('zh');
    expect(langOf('/zh')).toBe('zh');
    expect(langOf('/zh/glossary/')).toBe('zh');
    expect(langOf('/')).toBe('en');
    expect(langOf('/zhong/')).toBe('en');
    expect(englishPath('/zh/glossary/')).toBe('/glossary/');
    expect(englishPath('/zh/')).toBe('/');
    expect(pathIn('zh', '/glossary/')).toBe('/zh/glossary/');
  });

  it('switches to the same page where it is translated, else to the other home page', () => {
    expect(switchTarget('/glossary/', 'zh')).toEqual({ href: '/zh/glossary/', samePage: true });
    expect(switchTarget('/zh/glossary/', 'en')).toEqual({ href: '/glossary/', samePage: true });
    expect(switchTarget('/', 'zh')).toEqual({ href: '/zh/', samePage: true });
    expect(switchTarget('/flows/attach/', 'zh')).toEqual({ href: '/zh/flows/attach/', samePage: true });
    expect(switchTarget('/components/kubelet/', 'zh')).toEqual({ href: '/zh/components/kubelet/', samePage: true });
    expect(switchTarget('/search/', 'zh')).toEqual({ href: '/zh/', samePage: false });
  });

  it('links a translated page in the page\'s language and an untranslated one in English, saying so', () => {
    expect(linkIn('zh', '/glossary/#va')).toEqual({ href: '/zh/glossary/#va' });
    expect(linkIn('zh', '/')).toEqual({ href: '/zh/' });
    expect(linkIn('zh', '/flows/attach/')).toEqual({ href: '/zh/flows/attach/' });
    expect(linkIn('zh', '/components/kubelet/')).toEqual({ href: '/zh/components/kubelet/' });
    expect(linkIn('zh', '/components/csi-rpcs/#rpc-NodeStageVolume')).toEqual({ href: '/zh/components/csi-rpcs/#rpc-NodeStageVolume' });
    expect(linkIn('zh', '/embed/example/')).toEqual({ href: '/embed/example/', hreflang: 'en' });
    expect(linkIn('en', '/flows/attach/')).toEqual({ href: '/flows/attach/' });
    expect(linkIn('en', '/glossary/')).toEqual({ href: '/glossary/' });
  });

  it('has every shell string in both languages', () => {
    expect(Object.keys(UI.zh).sort()).toEqual(Object.keys(UI.en).sort());
    expect(Object.keys(UI.zh.nav).sort()).toEqual(Object.keys(UI.en.nav).sort());
    expect(TRANSLATED).toContain('/');
  });

  it('counts the per-scenario players and presenters as translated, and nothing else under /embed/', () => {
    expect(isTranslated('/embed/attach/')).toBe(true);
    expect(isTranslated('/present/attach/')).toBe(true);
    expect(isTranslated('/present/attach/notes/')).toBe(true);
    expect(isTranslated('/embed/example/')).toBe(false);
    expect(isTranslated('/embed/attach/notes/')).toBe(false);
    expect(isTranslated('/present/no-such/')).toBe(false);
    expect(switchTarget('/embed/example/', 'zh')).toEqual({ href: '/zh/', samePage: false });
  });

  it('counts the components page, the CSI RPC page and every component\'s page as translated, and nothing else under /components/ (test/core/componentFacts.test.ts checks every page)', () => {
    expect(isTranslated('/components/')).toBe(true);
    expect(isTranslated('/components/csi-rpcs/')).toBe(true);
    expect(isTranslated('/components/kubelet/')).toBe(true);
    expect(isTranslated('/components/attach-detach-controller/')).toBe(true);
    expect(isTranslated('/components/no-such-component/')).toBe(false);
    expect(isTranslated('/components/kubelet/extra/')).toBe(false);
  });

  it('has a Chinese title for every scenario', () => {
    expect(Object.keys(SCENARIO_TITLES_ZH).sort()).toEqual(SCENARIOS.map((x) => x.id).sort());
  });

  it('lists exactly the chapters that have a Chinese page, and every chapter has one', () => {
    const dir = new URL('../../src/pages/zh/flows/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.mdx')).map((f) => f.replace(/\.mdx$/, '')).sort();
    expect([...TRANSLATED_CHAPTERS].sort()).toEqual(files);
    expect(files).toEqual(CHAPTERS.map((c) => c.id).sort());
    for (const id of files) {
      const text = readFileSync(new URL(`${id}.mdx`, dir), 'utf8');
      expect(text, `${id}: frontmatter names its chapter`).toMatch(new RegExp(`^---\\n[\\s\\S]*?\\nchapter: ${id}\\n`));
      // prose links to other chapters stay in Chinese
      expect(text, `${id}: links to English chapters`).not.toMatch(/\]\(\/flows\//);
    }
  });
});
