/**
 * The seed notes in Chinese (src/components/chapter/notes/*.zh.ts): each English note group has its
 * Chinese counterpart in the same position, with the same number of notes (annotate() pairs notes and
 * quoted lines by position, so a missing or extra note would pair every later line with the wrong
 * note), every Chinese text is Chinese, and it keeps the English's fact-bearing tokens verbatim:
 * code spans, issue references, Go files and file:line, identifiers, keys, numbers and quoted log text.
 */
import { describe, expect, it } from 'vitest';
import { SEED_000_NOTES } from '../../src/components/chapter/notes/seed-000.ts';
import { SEED_000_NOTES_ZH } from '../../src/components/chapter/notes/seed-000.zh.ts';
import { SEED_002_NOTES, SEED_003_NOTES } from '../../src/components/chapter/notes/seed-002-003.ts';
import { SEED_002_NOTES_ZH, SEED_003_NOTES_ZH } from '../../src/components/chapter/notes/seed-002-003.zh.ts';
import { SEED_004_NOTES } from '../../src/components/chapter/notes/seed-004.ts';
import { SEED_004_NOTES_ZH } from '../../src/components/chapter/notes/seed-004.zh.ts';
import { SEED_NOTES, seed000, seed004, seedFields } from '../../src/components/chapter/seedData.ts';
import type { AnnotatedGroup, NoteGroup } from '../../src/components/chapter/seeds.ts';

const han = /\p{Script=Han}/u;

const SETS: { name: string; en: NoteGroup[]; zh: NoteGroup[] }[] = [
  { name: 'seed 000', en: SEED_000_NOTES, zh: SEED_000_NOTES_ZH },
  { name: 'seed 002', en: SEED_002_NOTES, zh: SEED_002_NOTES_ZH },
  { name: 'seed 003', en: SEED_003_NOTES, zh: SEED_003_NOTES_ZH },
  { name: 'seed 004', en: SEED_004_NOTES, zh: SEED_004_NOTES_ZH },
];

/**
 * Quotes in an English note that are the note's own paraphrase, not text printed by a program: the
 * Chinese says them in Chinese. Everything else in "…" is log or object text and stays as printed.
 */
const GLOSSES = new Set(['take this disk off that VM']);

/** Hyphenated English words (not names): the Chinese says them in Chinese. */
const ENGLISH_COMPOUNDS = new Set(['bind-mounted', 'client-side', 'in-tree', 'mid-attach', 'node-wide', 'per-volume']);

/** The tokens of an English text its Chinese must contain verbatim. */
export function keptTokens(text: string): string[] {
  const found = [
    // code spans
    ...(text.match(/`[^`\n]+`/g) ?? []),
    // issue references: kubernetes#110721, ceph/ceph-csi#123
    ...(text.match(/[\w./-]*#\d+/g) ?? []),
    // Go files, with their line where given: operation_generator.go:782, csi_handler.go
    ...(text.match(/[\w./-]+\.go(?::\d+)?\b/g) ?? []),
    // code names with an inner capital: ControllerPublishVolume, volumesInUse, gRPC
    ...(text.match(/\b[A-Za-z]*[a-z][A-Z]\w*/g) ?? []),
    // snake_case fields: node_id, volume_id
    ...(text.match(/\b[a-z]\w*_\w+/g) ?? []),
    // constants: SINGLE_NODE_WRITER
    ...(text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []),
    // field paths, keys and domains: status.volumesAttached, csi.volumes.default, failure-domain.beta.kubernetes.io
    ...(text.match(/\b[a-z][\w-]*(?:\.[\w-]+)+/g) ?? []),
    // placeholders: csi.volume.<UUID>, <new>-temp
    ...(text.match(/<[^<>\s][^<>]*>/g) ?? []),
    // names with a dash: disk-adge0gvc, csi-3a36…, external-attacher, kube-controller-manager
    ...(text.match(/\w+(?:[.-]\w+)+/g) ?? []).filter((t) => t.includes('-') && !ENGLISH_COMPOUNDS.has(t)),
    // numbers, versions, addresses, times: 1.20, 11.142.60.212, 06:58, 500
    ...(text.match(/\d+(?:[.:]\d+)*/g) ?? []),
    // text quoted from a log line or object, without its quote marks (the Chinese may use “…”)
    ...[...text.matchAll(/"([^"]+)"/g)].map((m) => m[1]!).filter((q) => !GLOSSES.has(q)),
  ];
  return [...new Set(found)];
}

/** Every text of a note set with where it is: titles, intros and notes. */
function texts(groups: NoteGroup[]): { where: string; text: string | undefined }[] {
  return groups.flatMap((g, gi) => [
    { where: `group ${gi} title`, text: g.title },
    { where: `group ${gi} intro`, text: g.intro },
    ...g.notes.map((n, ni) => ({ where: `group ${gi} note ${ni}`, text: n })),
  ]);
}

describe('seed notes in Chinese', () => {
  for (const { name, en, zh } of SETS) {
    it(`${name}: the same groups with the same number of notes, an intro where the English has one`, () => {
      expect(zh.map((g) => [g.notes.length, g.intro === undefined])).toEqual(en.map((g) => [g.notes.length, g.intro === undefined]));
    });

    it(`${name}: every Chinese title, intro and note is in Chinese`, () => {
      for (const t of texts(zh)) if (t.text !== undefined) expect(t.text, `${name} ${t.where}`).toMatch(han);
    });

    it(`${name}: every Chinese text keeps the English's code spans, issues, file:line, names and quoted log text`, () => {
      const zhTexts = texts(zh);
      texts(en).forEach((t, i) => {
        if (t.text === undefined) return;
        const other = zhTexts[i]!.text ?? '';
        for (const token of keptTokens(t.text)) expect(other, `${name} ${t.where} keeps ${token}\n  en: ${t.text}\n  zh: ${other}`).toContain(token);
      });
    });
  }

  it('the token list catches what a translation must keep', () => {
    expect(keptTokens('See kubernetes#110721 and `IsOperationSafeToRetry` at reconciler.go:204 (csi_handler.go syncVA).')).toEqual(
      expect.arrayContaining(['kubernetes#110721', '`IsOperationSafeToRetry`', 'reconciler.go:204', 'csi_handler.go', 'syncVA']),
    );
    expect(keptTokens('The 1.20 wording says "from node"; "take this disk off that VM".')).toEqual(['1.20', 'from node']);
    expect(keptTokens('key csi.volume.<request name>, node_id, SINGLE_NODE_WRITER')).toEqual(
      expect.arrayContaining(['csi.volume', '<request name>', 'node_id', 'SINGLE_NODE_WRITER']),
    );
  });

  it('the seed functions pair the Chinese notes with the same lines and steps as the English', () => {
    expect(Object.keys(SEED_NOTES.zh)).toEqual(Object.keys(SEED_NOTES.en));
    const shape = (groups: AnnotatedGroup[]) => groups.map((g) => g.lines.map((l) => [l.stream, l.line, l.located]));
    const notesOf = (groups: AnnotatedGroup[]) => groups.map((g) => g.lines.map((l) => l.note));
    const cases: [AnnotatedGroup[], AnnotatedGroup[], NoteGroup[]][] = [
      [seed000('1.20'), seed000('1.20', 'zh'), SEED_000_NOTES_ZH],
      [seed004('1.30').groups, seed004('1.30', 'zh').groups, SEED_004_NOTES_ZH],
      [seedFields('002'), seedFields('002', 'zh'), SEED_002_NOTES_ZH],
      [seedFields('003'), seedFields('003', 'zh'), SEED_003_NOTES_ZH],
    ];
    for (const [en, zh, notes] of cases) {
      expect(shape(zh)).toEqual(shape(en));
      expect(notesOf(zh)).toEqual(notes.map((g) => g.notes));
      expect(zh.map((g) => g.title)).toEqual(notes.map((g) => g.title));
    }
    // English stays the English notes
    expect(notesOf(seed000('1.20'))).toEqual(SEED_000_NOTES.map((g) => g.notes));
    expect(seed004('1.30', 'zh').flows).toEqual(seed004('1.30').flows);
  });
});
