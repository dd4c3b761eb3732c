/**
 * Golden traces: every scenario on every profile, with the default seed, as a readable digest (one
 * step per line: time, kind, component, summary, then its klog line). A change in any machine that
 * changes a trace shows up here as a diff to review. After reviewing, regenerate with
 * `UPDATE_GOLDEN=1 npx vitest run test/scenarios/golden.test.ts`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario, SCENARIOS, type Trace } from '../../src/machines/index.ts';

const dir = new URL('../golden/', import.meta.url);

export function digest(t: Trace): string {
  const lines = [`# ${t.scenario} --k8s ${t.k8s} --seed ${t.seed}: ${t.steps.length} steps over ${t.durationMs.toFixed(3)} ms`];
  for (const s of t.steps) {
    lines.push(`${String(s.i).padStart(4)} ${s.t.toFixed(3).padStart(12)} ${s.kind.padEnd(9)} ${s.instance} | ${s.summary}`);
    if (s.log) lines.push(`     ${s.log}`);
  }
  const objs = t.final.objects.filter((o) => o.kind !== 'Event').map((o) => `${o.kind} ${o.metadata.namespace ? o.metadata.namespace + '/' : ''}${o.metadata.name}${o.status?.phase ? ' ' + o.status.phase : ''}${o.kind === 'VolumeAttachment' ? ` attached=${!!o.status?.attached}` : ''}`);
  lines.push('# final objects', ...objs);
  return lines.join('\n') + '\n';
}

describe('golden traces', () => {
  for (const s of SCENARIOS) {
    for (const k8s of ['1.20', '1.30'] as const) {
      it(`${s.id} on ${k8s} matches its golden digest`, () => {
        const file = new URL(`${s.id}.${k8s}.txt`, dir);
        const got = digest(runScenario(s.id, { k8s }));
        if (process.env.UPDATE_GOLDEN) {
          mkdirSync(dir, { recursive: true });
          writeFileSync(file, got);
        }
        expect(existsSync(file), `missing golden file ${file.pathname}; generate it with UPDATE_GOLDEN=1`).toBe(true);
        expect(got).toBe(readFileSync(file, 'utf8'));
      });
    }
  }
});
