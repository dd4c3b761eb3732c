/**
 * The component pages' words in Chinese: every component's prose (prose.zh.ts), every CSI service and
 * RPC (rpcs.zh.ts) and every state description the pages' state tables show (states.zh.ts) has its
 * zh-CN text, of the same shape, in Chinese, and keeping the English's issue references, code spans,
 * flags and names, so a text added in English without its translation, or a translation that drops a
 * fact-bearing token, fails here.
 */
import { describe, expect, it } from 'vitest';
import { PROSE, proseFor } from '../../src/components/catalog/prose.ts';
import { PROSE_ZH } from '../../src/components/catalog/prose.zh.ts';
import { RPC_PROSE, rpcProse, SERVICE_PROSE, serviceProse } from '../../src/components/catalog/rpcs.ts';
import { RPC_PROSE_ZH, SERVICE_PROSE_ZH } from '../../src/components/catalog/rpcs.zh.ts';
import { STATE_DESCRIPTIONS_ZH, stateDescriptionIn } from '../../src/components/catalog/states.zh.ts';
import { splitRefs } from '../../src/components/site/refs.ts';
import { describeStates } from '../../src/machines/index.ts';
import { componentFacts, type ComponentFacts } from '../../src/machines/view/components.ts';

const han = /\p{Script=Han}/u;

/**
 * A text that is only names (functions, RPCs), such as "processPV, isBeingUsed, removeFinalizer" or
 * "SetUp = NodePublishVolume": its Chinese may be the same text.
 */
export function isPureNames(text: string): boolean {
  return text.split(/,\s*/).every((part) => /^[A-Za-z_][\w.]*(?: = [A-Za-z_][\w.]*)?(?: \([\w./-]+\))?$/.test(part));
}

/** The issue references of a text, as the links RefText makes of them. */
const refLinks = (text: string): string[] => splitRefs(text).flatMap((p) => (typeof p === 'string' ? [] : [p.href]));

/** Tokens of an English text its translation must keep verbatim. */
export function keptTokens(text: string): string[] {
  const found = [
    ...splitRefs(text).flatMap((p) => (typeof p === 'string' ? [] : [p.text])),
    ...(text.match(/`[^`\n]+`/g) ?? []),
    // flags: --timeout, --disable-force-detach-on-timeout
    ...(text.match(/(?<![\w-])--[a-z][a-z0-9-]*/g) ?? []),
    // code names with an inner capital: syncClaim, ControllerPublishVolume, volumesInUse
    ...(text.match(/\b[A-Za-z]*[a-z][A-Z]\w*/g) ?? []),
    // constants: PUBLISH_UNPUBLISH_VOLUME, FAILED_PRECONDITION
    ...(text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []),
    // field paths, files and annotation keys: node.status.volumesInUse, pv_controller.go
    ...(text.match(/\b[a-z][\w-]*(?:\.[\w-]+)+/g) ?? []).filter((t) => !/^(e\.g|i\.e)$/.test(t)),
    // numbers, versions and durations: 1.23, 409, 2m2s
    ...(text.match(/\d+(?:\.\d+)*/g) ?? []),
  ];
  return [...new Set(found)];
}

interface Pair {
  where: string;
  en: string;
  zh: string;
}

/** Every translated text with its English, across the three tables and the generic introduction. */
function pairs(): Pair[] {
  const out: Pair[] = [];
  for (const [name, en] of Object.entries(PROSE)) {
    const zh = PROSE_ZH[name];
    if (!zh) continue;
    out.push({ where: `prose ${name}.tagline`, en: en.tagline, zh: zh.tagline });
    en.purpose.forEach((p, i) => out.push({ where: `prose ${name}.purpose[${i}]`, en: p, zh: zh.purpose[i] ?? '' }));
    en.loop.forEach((p, i) => out.push({ where: `prose ${name}.loop[${i}]`, en: p, zh: zh.loop[i] ?? '' }));
    en.upstream.forEach((u, i) => out.push({ where: `prose ${name}.notes[${i}]`, en: u.note, zh: zh.notes[i] ?? '' }));
  }
  for (const [s, en] of Object.entries(SERVICE_PROSE)) {
    const zh = SERVICE_PROSE_ZH[s as keyof typeof SERVICE_PROSE_ZH];
    out.push({ where: `service ${s}.title`, en: en.title, zh: zh?.title ?? '' });
    out.push({ where: `service ${s}.summary`, en: en.summary, zh: zh?.summary ?? '' });
  }
  for (const [rpc, en] of Object.entries(RPC_PROSE)) {
    const zh = RPC_PROSE_ZH[rpc];
    if (!zh) continue;
    out.push({ where: `rpc ${rpc}.does`, en: en.does, zh: zh.does });
    out.push({ where: `rpc ${rpc}.caller`, en: en.caller, zh: zh.caller });
    en.codes.forEach((c, i) => out.push({ where: `rpc ${rpc}.codes[${i}] ${c.code}`, en: c.when, zh: zh.codes[i]?.when ?? '' }));
  }
  for (const [en, zh] of Object.entries(STATE_DESCRIPTIONS_ZH)) out.push({ where: `state "${en}"`, en, zh });
  const generic = { name: 'no-such-component', group: 'node', source: 'kubelet' } as unknown as ComponentFacts;
  const genEn = proseFor(generic);
  const genZh = proseFor(generic, 'zh');
  out.push({ where: 'generic tagline', en: genEn.tagline, zh: genZh.tagline });
  genEn.purpose.forEach((p, i) => out.push({ where: `generic purpose[${i}]`, en: p, zh: genZh.purpose[i] ?? '' }));
  return out;
}

/** The descriptions the component pages' state tables show (as StateCharts.astro reads them). */
function pageDescriptions(): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of componentFacts()) {
    for (const m of c.machines) {
      for (const s of describeStates(m.machine)) if (s.description && !out.has(s.description)) out.set(s.description, `${c.name} ${m.exportName} ${s.path}`);
    }
  }
  return out;
}

describe('the component pages in Chinese (zh-CN)', () => {
  it('has the prose of every component, with as many paragraphs and upstream notes as the English', () => {
    const problems: string[] = [];
    for (const [name, en] of Object.entries(PROSE)) {
      const zh = PROSE_ZH[name];
      if (!zh) { problems.push(`${name}: no Chinese`); continue; }
      if (zh.purpose.length !== en.purpose.length) problems.push(`${name}: purpose ${zh.purpose.length} ≠ ${en.purpose.length}`);
      if (zh.loop.length !== en.loop.length) problems.push(`${name}: loop ${zh.loop.length} ≠ ${en.loop.length}`);
      if (zh.notes.length !== en.upstream.length) problems.push(`${name}: notes ${zh.notes.length} ≠ upstream ${en.upstream.length}`);
    }
    for (const name of Object.keys(PROSE_ZH)) if (!PROSE[name]) problems.push(`${name}: Chinese of a component PROSE does not have`);
    expect(problems).toEqual([]);
  });

  it('gives proseFor the language: the English exactly as before, the Chinese with the same upstream references', () => {
    for (const c of componentFacts()) {
      const en = proseFor(c);
      expect(proseFor(c, 'en')).toEqual(en);
      const zh = proseFor(c, 'zh');
      expect(zh.generic).toBe(en.generic);
      const written = PROSE[c.name];
      if (written) {
        expect(en).toEqual({ ...written, generic: false });
        expect(zh.tagline).toBe(PROSE_ZH[c.name]!.tagline);
        expect(zh.purpose).toEqual(PROSE_ZH[c.name]!.purpose);
        expect(zh.loop).toEqual(PROSE_ZH[c.name]!.loop);
        expect(zh.upstream.map(({ note: _n, ...ref }) => ref)).toEqual(written.upstream.map(({ note: _n, ...ref }) => ref));
        expect(zh.upstream.map((u) => u.note)).toEqual(PROSE_ZH[c.name]!.notes);
      }
    }
    const generic = { name: 'no-such-component', group: 'csi-sidecar', source: 'csi-attacher' } as unknown as ComponentFacts;
    expect(proseFor(generic)).toMatchObject({ generic: true, tagline: 'no-such-component is a CSI sidecar of the simulation.', loop: [], upstream: [] });
    expect(proseFor(generic, 'zh')).toMatchObject({ generic: true, tagline: 'no-such-component 是本模拟中的一个 CSI 边车容器。', loop: [], upstream: [] });
    expect(proseFor(generic, 'zh').purpose[0]).toContain('csi-attacher');
  });

  it('has every CSI service and RPC, with the same codes in the same order', () => {
    expect(Object.keys(SERVICE_PROSE_ZH).sort()).toEqual(Object.keys(SERVICE_PROSE).sort());
    expect(Object.keys(RPC_PROSE).filter((rpc) => !RPC_PROSE_ZH[rpc])).toEqual([]);
    expect(Object.keys(RPC_PROSE_ZH).filter((rpc) => !RPC_PROSE[rpc])).toEqual([]);
    for (const [rpc, en] of Object.entries(RPC_PROSE)) {
      expect(RPC_PROSE_ZH[rpc]!.codes.map((c) => c.code), rpc).toEqual(en.codes.map((c) => c.code));
    }
    expect(serviceProse()).toBe(SERVICE_PROSE);
    expect(serviceProse('en')).toBe(SERVICE_PROSE);
    expect(serviceProse('zh')).toBe(SERVICE_PROSE_ZH);
    expect(rpcProse()).toBe(RPC_PROSE);
    expect(rpcProse('en')).toBe(RPC_PROSE);
    expect(rpcProse('zh')).toBe(RPC_PROSE_ZH);
  });

  it('has every state description the component pages show, and none they do not', () => {
    const shown = pageDescriptions();
    expect(shown.size).toBeGreaterThan(50);
    expect([...shown].filter(([en]) => !Object.hasOwn(STATE_DESCRIPTIONS_ZH, en)).map(([en, where]) => `${where}: ${en}`)).toEqual([]);
    expect(Object.keys(STATE_DESCRIPTIONS_ZH).filter((en) => !shown.has(en))).toEqual([]);
  });

  it('looks a state description up by its English, and keeps the English otherwise', () => {
    const [en, zh] = Object.entries(STATE_DESCRIPTIONS_ZH)[0]!;
    expect(stateDescriptionIn('zh', en)).toBe(zh);
    expect(stateDescriptionIn('en', en)).toBe(en);
    expect(stateDescriptionIn('zh', 'No such description.')).toBe('No such description.');
    expect(stateDescriptionIn('zh', 'toString')).toBe('toString');
  });

  it('is Chinese text, not English copied over (only a list of names may stay as it is)', () => {
    const notChinese = pairs().filter((p) => !han.test(p.zh) && !(p.zh === p.en && isPureNames(p.en)));
    expect(notChinese.map((p) => `${p.where}: ${p.zh}`)).toEqual([]);
  });

  it('keeps the issue references (as the same links), code spans, flags, names and numbers of the English', () => {
    const problems: string[] = [];
    for (const p of pairs()) {
      // Chinese has no plural: "VolumeAttachments" is kept as VolumeAttachment
      const missing = keptTokens(p.en).filter((t) => !p.zh.includes(t) && !(/[A-Z]\w*[a-z]s$/.test(t) && p.zh.includes(t.slice(0, -1))));
      const zhLinks = refLinks(p.zh);
      missing.push(...refLinks(p.en).filter((href) => !zhLinks.includes(href)));
      if (missing.length) problems.push(`${p.where}: ${missing.join(' ')}`);
    }
    expect(problems).toEqual([]);
  });

  it('the token checks read what they should', () => {
    expect(isPureNames('processPV, isBeingUsed, removeFinalizer')).toBe(true);
    expect(isPureNames('SetUp = NodePublishVolume, TearDown = NodeUnpublishVolume')).toBe(true);
    expect(isPureNames('FindPodVolumes, AssumePodVolumes, BindPodVolumes (selected-node)')).toBe(true);
    expect(isPureNames('the node status patch')).toBe(false);
    expect(keptTokens('Since kubernetes#110721 `x` uses --timeout on node.status.volumesInUse (PUBLISH_UNPUBLISH_VOLUME), 2m2s, e.g. syncClaim'))
      .toEqual(expect.arrayContaining(['kubernetes#110721', '`x`', '--timeout', 'node.status.volumesInUse', 'PUBLISH_UNPUBLISH_VOLUME', '2', 'syncClaim', 'volumesInUse']));
    expect(keptTokens('e.g. a word')).toEqual([]);
  });
});
