/**
 * The log explainer in Chinese (/zh/explain/): the same reading of every line as the English (stage,
 * component, message, step), with the explanations, causes, next steps and the verdict in Chinese.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildKnowledge, explainText } from '../../src/machines/index.ts';

const HAN = /\p{Script=Han}/u;
const seed = readFileSync(new URL('../../src/data/seeds/seed-000.log', import.meta.url), 'utf8')
  .split('\n').filter((l) => l.trim() && !l.startsWith('#')).map((l) => l.slice(l.indexOf('\t') + 1)).join('\n');

describe('the explainer in Chinese', () => {
  const en = buildKnowledge();
  const zh = buildKnowledge({ lang: 'zh' });

  it('knows the same messages and events, says them in Chinese and links the Chinese chapters', () => {
    expect(zh.lang).toBe('zh');
    expect(zh.messages.map((m) => m.id)).toEqual(en.messages.map((m) => m.id));
    expect(zh.messages.filter((m) => !HAN.test(m.summary)).map((m) => m.id)).toEqual([]);
    expect(zh.events.filter((e) => !HAN.test(e.explanation)).map((e) => e.reason)).toEqual([]);
    expect(zh.chapters.mount).toBe('/zh/flows/mount/');
    const stepped = zh.messages.find((m) => m.step)!;
    expect(stepped.step!.url).toMatch(/^\/zh\//);
    expect(stepped.step!.summary).toMatch(HAN);
  });

  it('reads seed 000 exactly as in English, and explains it in Chinese', () => {
    const a = explainText(seed, en);
    const b = explainText(seed, zh);
    expect(b.lines.map((l) => [l.stage, l.component, l.messageId, l.match])).toEqual(a.lines.map((l) => [l.stage, l.component, l.messageId, l.match]));
    for (const l of b.lines) if (l.kind === 'log') expect(l.explanation, `line ${l.line}`).toMatch(HAN);
    expect(b.summary.verdict).toMatch(HAN);
    expect(b.summary.verdict).not.toMatch(/log records?:/);
    // the English explanation is unchanged by a Chinese run before it
    expect(explainText(seed, en).summary.verdict).toBe(a.summary.verdict);
  });
});
