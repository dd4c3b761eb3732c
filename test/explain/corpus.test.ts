/**
 * Accuracy on real logs: test/corpus holds excerpts users posted in public issues and docs (each file
 * cites its source), every line labelled by hand with its stage and component. The explainer must
 * give the hand-labelled stage for at least 95% of all lines. The per-stage table is printed so a
 * drop shows where.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildKnowledge, explainLines, type Stage } from '../../src/machines/index.ts';

const dir = new URL('../corpus/', import.meta.url);
const heldOutDir = new URL('../corpus-heldout/', import.meta.url);
/** see the held-out describe below: a regression floor, a few points under the figure measured when the sets came in (93.3%, 533/571, on 2026-12-05) */
const HELD_OUT_FLOOR = 0.9;
/**
 * The held-out lines read right at the last count (5599 of 6059, on 2026-12-08, after the rules of the tuning part of the 278th to 282nd sets): no change may read fewer. The
 * ratio floor above leaves room for sets that come in low; this count does not, and a rule that costs a held-out line shows
 * as such. Raise it with each import (the new part's hits), never lower it without saying why in the README.
 */
const HELD_OUT_KNOWN_RIGHT = 5599;
const STAGES = new Set(['provision', 'attach', 'mount', 'unmount', 'detach', 'delete', 'register', 'resize', 'snapshot', 'other']);

interface Labelled { file: string; n: number; stage: Stage; component: string; line: string }

function load(from: URL = dir): { files: Array<{ name: string; source: string; lines: Labelled[] }> } {
  const files = readdirSync(from).filter((f) => f.endsWith('.log')).sort().map((name) => {
    const text = readFileSync(new URL(name, from), 'utf8');
    const source = /^# source: (\S+)/m.exec(text)?.[1] ?? '';
    const lines = text.split('\n').filter((l) => l !== '' && !l.startsWith('# ')).map((l, i) => {
      const [stage, component, ...rest] = l.split('\t');
      return { file: name, n: i + 1, stage: stage as Stage, component: component!, line: rest.join('\t') };
    });
    return { name, source, lines };
  });
  return { files };
}

type Files = ReturnType<typeof load>['files'];

/** Every excerpt cites its source, every line has a known stage label. */
function expectWellFormed(files: Files): void {
  for (const f of files) {
    expect(f.source, f.name).toMatch(/^https?:\/\//);
    for (const l of f.lines) expect(STAGES.has(l.stage), `${f.name}:${l.n} label "${l.stage}"`).toBe(true);
  }
}

/** Each excerpt explained on its own, as a user would paste it: the lines with the hand-labelled stage, per stage, and the misses. */
function measure(files: Files, knowledge: ReturnType<typeof buildKnowledge>): { total: number; right: number; byStage: Map<string, { n: number; ok: number }>; misses: string[] } {
  let total = 0;
  let right = 0;
  const byStage = new Map<string, { n: number; ok: number }>();
  const misses: string[] = [];
  for (const f of files) {
    const r = explainLines(f.lines.map((l) => l.line), knowledge);
    expect(r.lines.length).toBe(f.lines.length);
    f.lines.forEach((l, i) => {
      const got = r.lines[i]!.stage;
      const s = byStage.get(l.stage) ?? { n: 0, ok: 0 };
      s.n++;
      total++;
      if (got === l.stage) { right++; s.ok++; } else misses.push(`${f.name}:${l.n} want ${l.stage} got ${got} (${r.lines[i]!.match}): ${l.line.slice(0, 110)}`);
      byStage.set(l.stage, s);
    });
  }
  return { total, right, byStage, misses };
}

const stageTable = (byStage: Map<string, { n: number; ok: number }>): string => [...byStage].map(([st, s]) => `${st.padEnd(10)} ${s.ok}/${s.n}`).join('\n');

describe('the hand-labelled corpus of real logs', () => {
  const { files } = load();
  const knowledge = buildKnowledge();

  it('is well-formed: every excerpt cites its source, every line has a known stage label', () => {
    expect(files.length).toBeGreaterThanOrEqual(25);
    expectWellFormed(files);
  });

  it('gets the hand-labelled stage for at least 95% of the lines', () => {
    const { total, right, byStage, misses } = measure(files, knowledge);
    const table = stageTable(byStage);
    const accuracy = right / total;
    // the parts, as the README tells them: 01-48 tuned on, 49-88, 89-162, 163-223, 224-268, 269-318, 319-361, 362-406, 407-453, 454-495, 496-537, 538-579, 580-621, 622-663, 664-707, 708-751, 752-797, 798-842, 843-895, 896-941, 942-981, 982-1021, 1022-1061, 1062-1101, 1102-1141, 1142-1181, 1182-1221, 1222-1261, 1262-1301 and 1302-1341 each labelled before the explainer saw them
    const part = (from: number, to: number): string => {
      const ls = files.filter((f) => { const n = Number(f.name.slice(0, f.name.indexOf('-'))); return n >= from && n <= to; }).flatMap((f) => f.lines);
      const wrong = new Set(misses.map((m) => m.slice(0, m.indexOf(' want'))));
      const ok = ls.filter((l) => !wrong.has(`${l.file}:${l.n}`)).length;
      return `${String(from).padStart(2, '0')}-${to}: ${ok}/${ls.length} (${((100 * ok) / ls.length).toFixed(1)}%)`;
    };
    console.log(`corpus: ${files.length} excerpts, ${total} lines, stage accuracy ${(accuracy * 100).toFixed(1)}%; by part ${part(1, 48)}, ${part(49, 88)}, ${part(89, 162)}, ${part(163, 223)}, ${part(224, 268)}, ${part(269, 318)}, ${part(319, 361)}, ${part(362, 406)}, ${part(407, 453)}, ${part(454, 495)}, ${part(496, 537)}, ${part(538, 579)}, ${part(580, 621)}, ${part(622, 663)}, ${part(664, 707)}, ${part(708, 751)}, ${part(752, 797)}, ${part(798, 842)}, ${part(843, 895)}, ${part(896, 941)}, ${part(942, 981)}, ${part(982, 1021)}, ${part(1022, 1061)}, ${part(1062, 1101)}, ${part(1102, 1141)}, ${part(1142, 1181)}, ${part(1182, 1221)}, ${part(1222, 1261)}, ${part(1262, 1301)}, ${part(1302, 1341)}, ${part(1342, 1381)}, ${part(1489, 1508)}, ${part(1609, 1610)}, ${part(1650, 1672)}, ${part(1674, 1692)}, ${part(1694, 1706)}, ${part(1708, 1725)}, ${part(1726, 1754)}, ${part(1755, 1765)}, ${part(1766, 1784)}, ${part(1785, 1809)}, ${part(1815, 1839)}, ${part(1845, 1884)}, ${part(1905, 1944)}, ${part(1946, 1974)}, ${part(1986, 2006)}, ${part(2025, 2057)}, ${part(2065, 2116)}, ${part(2125, 2176)}, ${part(2186, 2239)}, ${part(2245, 2296)}, ${part(2306, 2354)}, ${part(2365, 2416)}, ${part(2426, 2479)}, ${part(2486, 2539)}, ${part(2546, 2598)}, ${part(2606, 2616)}, ${part(2625, 2636)}, ${part(2646, 2657)}, ${part(2666, 2716)}, ${part(2725, 2779)}, ${part(2785, 2837)}, ${part(2846, 2903)}, ${part(2906, 2958)}, ${part(2965, 3018)}, ${part(3026, 3082)}, ${part(3086, 3118)}, ${part(3125, 3177)}, ${part(3185, 3238)}, ${part(3245, 3300)}, ${part(3306, 3358)}, ${part(3365, 3410)}, ${part(3426, 3478)}, ${part(3486, 3536)}, ${part(3546, 3598)}, ${part(3606, 3658)}, ${part(3665, 3718)}, ${part(3725, 3758)}, ${part(3765, 3780)}, ${part(3786, 3840)}, ${part(3845, 3890)}, ${part(3905, 4038)}, ${part(4045, 4137)}, ${part(4145, 4240)}, ${part(4245, 4400)}, ${part(4405, 4460)}, ${part(4465, 4520)}, ${part(4525, 4620)}, ${part(4625, 4711)}, ${part(4725, 4806)}, ${part(4825, 4918)}, ${part(4925, 5017)}, ${part(5025, 5116)}, ${part(5125, 5218)}, ${part(5226, 5316)}, ${part(5325, 5416)}, ${part(5425, 5517)}, ${part(5525, 5616)}, ${part(5625, 5720)}, ${part(5725, 5816)}, ${part(5825, 5915)}, ${part(5925, 6012)}, ${part(6026, 6116)}, ${part(6125, 6218)}, ${part(6225, 6318)}, ${part(6326, 6418)}, ${part(6425, 6516)}\n${table}\nmisses:\n${misses.join('\n')}`);
    expect(total).toBeGreaterThanOrEqual(250);
    expect(accuracy, misses.slice(0, 30).join('\n')).toBeGreaterThanOrEqual(0.95);
  });
});

/**
 * Seven sets and fifty-two halves held out (test/corpus-heldout: 1382-1405, 1406-1421, 1446-1458, 1519-1540, 1549-1562, 1579-1597,
 * 1639-1649, the odd numbers of 1651-1673, 1675, 1677, 1693, the odd numbers of 1695-1707, of 1709-1723, of 1727-1753, of 1755-1765 and of 1767-1783 but 1769, 1773 and 1775, of 1785-1839 but nine, of 1845-1883 but five, of 1909-1943 but five, of 1945-1951, 1965, 1969, 1971 and 1973, 1985 and 1987, 2031, 2035, 2037, 2039, 2045, 2047, 2049 and 2053, seventeen odd numbers of 2065-2117, eleven of 2133-2171, eighteen of 2185-2231, seven of 2265-2285, thirteen of 2305-2355, ten of 2371-2415, twelve of 2425-2473, eight of 2485-2537, fifteen of 2545-2597, seven of 2605-2645, three of 2627-2631, eleven of 2665-2715, eight of 2735-2771, six of 2791-2837, twelve of 2845-2903, seventeen of 2905-2951, eleven of 2973-3017, four of 3025-3083, nine of 3085-3117, twelve of 3125-3175, six of 3187-3225, five of 3269-3295, twelve of 3305-3357, six of 3367-3411, thirteen of 3425-3477, thirteen of 3485-3537, fifteen of 3545-3599, nine of 3605-3657, twelve of 3667-3717, seven of 3731-3755, twelve of 3785-3837, six of 3851-3891, fourteen of 3913-4037, eight of 4047-4109, seven of 4167-4233, eight of 4247-4335, eight of 4305-4395, eight of 4409-4457, six of 4465-4513, twelve of 4545-4595, sixteen of 4625-4687, 4767, 4771, 4793, twenty-four of 4833-4917, ten of 4947-5011, thirteen of 5031-5107, nine of 5127-5177, twenty of 5225-5311, eight of 5351-5415, seven of 5471-5515, six of 5553-5607, seven of 5631-5709, seven of 5731-5815, twelve of 5829-5913, five of 5929-6013, eleven of 6025-6117, sixteen of 6129-6209, twelve of 6227-6311, twenty-two of 6325-6415 and twenty-five of 6427-6513), each collected and labelled blind and never tuned on (the third to the twenty-ninth sets were measured the
 * same way, then moved to test/corpus and tuned on). Their accuracy is the explainer's figure on logs it was not tuned on
 * (95.6%, 95.3%, 90.7%, 90.8%, 93.6%, 95.8%, 95.7%, 93.9%, 66.7%, 85.7%, 95.8%, 94.0%, 87.1%, 97.8%, 89.0%, 92.6%, 76.2%, 94.2%, 100%, 100%, 95.0%, 70.4%, 95.9%, 97.0%, 98.6%, 71.4%, 78.4%, 84.8%, 92.4%, 97.7%, 80.8%, 97.1%, 91.7%, 71.9%, 100%, 88.7%, 90.2%, 73.7%, 83.6%, 77.9%, 97.1%, 92.6%, 83.2%, 89.2%, 100%, 98.7%, 92.7%, 99.0%, 81.9%, 90.3%, 81.4% and 76.0% when they came in, 91.3% together; the README gives the thirty-fourth and
 * thirty-eighth sets too, measured blind at 63.8% and 60.0% and then tuned on, and the fifteen labels of the
 * thirty-seventh set that were set to the README's rule); the
 * floor only catches a regression (it sits a few points under the figure measured when the sets came in), it is not a
 * target.
 */
describe('the held-out corpus (never tuned on)', () => {
  const { files } = load(heldOutDir);
  const knowledge = buildKnowledge();

  it('is well-formed: every excerpt cites its source, every line has a known stage label', () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    expectWellFormed(files);
  });

  it('reports the stage accuracy on lines the explainer was not tuned on', () => {
    const { total, right, byStage, misses } = measure(files, knowledge);
    const accuracy = right / total;
    // (the misses are not printed: whoever tunes the explainer reads this output, and the set stays unseen; they are in
    // the failure's message when the floor breaks)
    console.log(`held-out corpus: ${files.length} excerpts, ${total} lines, stage accuracy ${(accuracy * 100).toFixed(1)}% (${right}/${total})\n${stageTable(byStage)}`);
    expect(total).toBeGreaterThanOrEqual(150);
    expect(accuracy, misses.slice(0, 30).join('\n')).toBeGreaterThanOrEqual(HELD_OUT_FLOOR);
    // (counts only in this message: find the rule that costs the line by taking rules out one at a time, the lines unseen)
    expect(right, `${HELD_OUT_KNOWN_RIGHT - right} held-out line(s) fewer read right than the last known count`).toBeGreaterThanOrEqual(HELD_OUT_KNOWN_RIGHT);
  });
});
