/**
 * Every catalog message and step summary has its Chinese text, with the same placeholders, so the
 * English and Chinese sites cannot drift: a message added in English without its zh-CN text, or a
 * translation that drops or renames a {placeholder}, fails here.
 */
import { describe, expect, it } from 'vitest';
import { placeholdersOf, zhProblems } from '../../src/machines/catalog.zh.ts';
import { catalog } from '../../src/machines/catalog.ts';
import { CATALOG_ZH, SUMMARIES_ZH, ALL_SUMMARIES } from '../../src/machines/catalog.zh.ts';

describe('the Chinese catalog (zh-CN)', () => {
  it('has a summary for every log message, and cause/next/explain wherever the English has one', () => {
    const missing: string[] = [];
    for (const [id, def] of Object.entries(catalog)) {
      const zh = CATALOG_ZH[id];
      if (!zh) { missing.push(id); continue; }
      for (const f of ['explain', 'cause', 'next'] as const) if (def[f] && !zh[f]) missing.push(`${id}.${f}`);
    }
    expect(missing).toEqual([]);
  });

  it('has a text for every step summary', () => {
    expect(Object.keys(ALL_SUMMARIES).filter((id) => !SUMMARIES_ZH[id])).toEqual([]);
  });

  it('names no message or summary the English does not have', () => {
    expect(Object.keys(CATALOG_ZH).filter((id) => !catalog[id])).toEqual([]);
    expect(Object.keys(SUMMARIES_ZH).filter((id) => !(id in ALL_SUMMARIES))).toEqual([]);
  });

  it('keeps each text’s placeholders exactly (same names, same quoting)', () => {
    expect(zhProblems()).toEqual([]);
  });

  it('is Chinese text, not English copied over', () => {
    const han = /\p{Script=Han}/u;
    const notChinese = [
      ...Object.entries(CATALOG_ZH).flatMap(([id, { variants, ...t }]) => Object.entries({ ...t, ...Object.fromEntries(Object.entries(variants ?? {}).map(([k, v]) => [`variants.${k}`, v])) })
        .filter(([, v]) => v && !han.test(v)).map(([f]) => `${id}.${f}`)),
      ...Object.entries(SUMMARIES_ZH).filter(([, v]) => !han.test(v)).map(([id]) => id),
    ];
    expect(notChinese).toEqual([]);
  });

  it('the placeholder check reads names and quoting', () => {
    expect(placeholdersOf('a {x} b {y:q} {x}')).toEqual(['x', 'y:q']);
  });
});
