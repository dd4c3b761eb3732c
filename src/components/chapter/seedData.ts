/**
 * The quoted seed lines of each chapter, parsed, matched to simulated steps and paired with the
 * chapter's notes. Build time only (the files are read as text by Vite's ?raw import).
 */
import seed000Text from '../../data/seeds/seed-000.log?raw';
import seed002Text from '../../data/seeds/seed-002.log?raw';
import seed003Text from '../../data/seeds/seed-003.log?raw';
import seed004Text from '../../data/seeds/seed-004.log?raw';
import type { ProfileId } from '../../machines/shared/messages.ts';
import { flowModel } from '../flows/data.ts';
import type { Lang } from '../site/i18n.ts';
import { SEED_000_NOTES } from './notes/seed-000.ts';
import { SEED_000_NOTES_ZH } from './notes/seed-000.zh.ts';
import { SEED_002_NOTES, SEED_003_NOTES } from './notes/seed-002-003.ts';
import { SEED_002_NOTES_ZH, SEED_003_NOTES_ZH } from './notes/seed-002-003.zh.ts';
import { SEED_004_NOTES } from './notes/seed-004.ts';
import { SEED_004_NOTES_ZH } from './notes/seed-004.zh.ts';
import { annotate, locateHeaderlessLines, locateKlogLines, parseSeedFile, type AnnotatedGroup, type NoteGroup } from './seeds.ts';

export const SEED_TEXT = { '000': seed000Text, '002': seed002Text, '003': seed003Text, '004': seed004Text } as const;

/** The notes of each seed in each language (the zh files translate the English ones, same shape and order). */
export const SEED_NOTES: Record<Lang, Record<keyof typeof SEED_TEXT, NoteGroup[]>> = {
  en: { '000': SEED_000_NOTES, '002': SEED_002_NOTES, '003': SEED_003_NOTES, '004': SEED_004_NOTES },
  zh: { '000': SEED_000_NOTES_ZH, '002': SEED_002_NOTES_ZH, '003': SEED_003_NOTES_ZH, '004': SEED_004_NOTES_ZH },
};

/** Seed 000 against pod-migration on 1.20, the version its cluster ran; notes in `lang`. */
export function seed000(k8s: ProfileId = '1.20', lang: Lang = 'en'): AnnotatedGroup[] {
  const lines = parseSeedFile(seed000Text).sections.flatMap((s) => s.lines);
  return annotate(lines, locateKlogLines(flowModel('pod-migration', k8s), lines), SEED_NOTES[lang]['000']);
}

/**
 * Seed 004, one group per section; each section names the ceph-rbd scenario its lines belong to and is
 * matched against that flow. Returns the groups (notes in `lang`) and the flow of each.
 */
export function seed004(k8s: ProfileId = '1.30', lang: Lang = 'en'): { groups: AnnotatedGroup[]; flows: string[] } {
  const sections = parseSeedFile(seed004Text).sections;
  const notes = SEED_NOTES[lang]['004'];
  if (sections.length !== notes.length) throw new Error(`seed 004: ${sections.length} sections for ${notes.length} note groups`);
  const groups = sections.flatMap((s, i) => {
    if (!s.scenario) throw new Error('seed 004: a section without "# scenario:"');
    return annotate(s.lines, locateHeaderlessLines(flowModel(s.scenario, k8s), s.lines), [notes[i]!]);
  });
  return { groups, flows: sections.map((s) => s.scenario!) };
}

/** Seeds 002 and 003 quote no log lines, only object text: paired with notes (in `lang`), matched to nothing. */
export function seedFields(which: '002' | '003', lang: Lang = 'en'): AnnotatedGroup[] {
  const lines = parseSeedFile(SEED_TEXT[which]).sections.flatMap((s) => s.lines);
  return annotate(lines, lines.map(() => ({})), SEED_NOTES[lang][which]);
}
