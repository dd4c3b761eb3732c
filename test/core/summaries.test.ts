/**
 * Step summaries live in each component's catalog (`summaries` beside `messages`): every call site
 * passes the arguments its template needs, every scenario renders them completely, and no machine
 * file builds one inline again.
 */
import { apiStepSummary } from '../../src/machines/cluster/prose.ts';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScenario, SCENARIOS } from '../../src/machines/index.ts';
import { COMPONENTS } from '../../src/machines/registry.ts';
import { summarize, type SummaryCatalog } from '../../src/machines/shared/messages.ts';

const PLACEHOLDER = /\{([A-Za-z0-9_]+)(?::q)?\}/g;
const templates = new Map<string, string>();
for (const c of COMPONENTS) for (const [id, tpl] of Object.entries((c.folder.summaries ?? {}) as SummaryCatalog)) templates.set(id, tpl);

const root = fileURLToPath(new URL('../../src/machines/', import.meta.url));
// the cluster's generic steps, scenarios, view and explainer are not component machines
const NOT_COMPONENTS = new Set(['cluster', 'scenarios', 'view', 'explain']);
function machineFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.ts') && !name.endsWith('.messages.ts')) files.push(p);
    }
  };
  for (const name of readdirSync(root)) if (!NOT_COMPONENTS.has(name) && statSync(join(root, name)).isDirectory()) walk(join(root, name));
  return files;
}

/** The text from `open` to its matching close bracket, skipping string and template literals. */
function balanced(src: string, open: number): string {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const ch = src[i]!;
    if (ch === "'" || ch === '"' || ch === '`') {
      for (i++; i < src.length && src[i] !== ch; i++) if (src[i] === '\\') i++;
    } else if ('({['.includes(ch)) depth++;
    else if (')}]'.includes(ch) && --depth === 0) return src.slice(open, i + 1);
  }
  throw new Error(`unbalanced at ${open}`);
}

/** Keys of an object literal `{ a: …, b, … }` (top level only; shorthand properties count). */
function literalKeys(obj: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let start = 1;
  const body = obj.slice(0, -1);
  for (let i = 1; i <= body.length; i++) {
    const ch = body[i];
    if (ch === "'" || ch === '"' || ch === '`') {
      for (i++; i < body.length && body[i] !== ch; i++) if (body[i] === '\\') i++;
    } else if (ch !== undefined && '({['.includes(ch)) depth++;
    else if (ch !== undefined && ')}]'.includes(ch)) depth--;
    else if (depth === 0 && (ch === ',' || ch === undefined)) {
      const key = body.slice(start, i).trim().split(':')[0]!.trim();
      if (key) keys.push(key);
      start = i + 1;
    }
  }
  return keys;
}

/** Every `summarize(catalog, 'id', { … })` in the machine files, with the keys it passes. */
function callSites(): Array<{ where: string; id: string; keys: string[] }> {
  const sites: Array<{ where: string; id: string; keys: string[] }> = [];
  for (const f of machineFiles()) {
    const src = readFileSync(f, 'utf8');
    for (const m of src.matchAll(/summarize\(\s*\w+,\s*'([^']+)',\s*/g)) {
      const call = balanced(src, m.index + 'summarize'.length);
      const obj = call.slice(call.indexOf('{', m[0].length - 'summarize'.length));
      sites.push({ where: `${f.slice(root.length)}:${src.slice(0, m.index).split('\n').length}`, id: m[1]!, keys: literalKeys(balanced(obj, 0)) });
    }
  }
  return sites;
}

describe('step summaries', () => {
  it('each component exports its summaries from its folder, ids under its message prefix', () => {
    expect(templates.size).toBeGreaterThan(0);
    for (const c of COMPONENTS) {
      for (const id of Object.keys((c.folder.summaries ?? {}) as SummaryCatalog)) expect(id.startsWith(`${c.messagePrefix}.`), id).toBe(true);
    }
    expect(() => summarize({ 'x.y': 'a {b}' }, 'x.y', {})).toThrow(/needs argument "b"/);
  });

  it('every call site names a catalog summary and passes each of its placeholders; every summary is used', () => {
    const sites = callSites();
    expect(sites.length).toBeGreaterThanOrEqual(templates.size);
    for (const s of sites) {
      const tpl = templates.get(s.id);
      expect(tpl, `${s.where}: unknown summary ${s.id}`).toBeDefined();
      const missing = [...tpl!.matchAll(PLACEHOLDER)].map((p) => p[1]!).filter((n) => !s.keys.includes(n));
      expect(missing, `${s.where} ${s.id}`).toEqual([]);
    }
    expect([...templates.keys()].filter((id) => !sites.some((s) => s.id === id))).toEqual([]);
  });

  for (const s of SCENARIOS) {
    for (const k8s of ['1.20', '1.30'] as const) {
      it(`${s.id} on ${k8s}: every step summary is fully rendered (warm-up included)`, () => {
        for (const step of runScenario(s.id, { k8s, warmUp: true }).steps) {
          expect(step.summary, `step ${step.i}`).not.toMatch(/\{[A-Za-z0-9_]+(?::q)?\}/);
        }
      });
    }
  }

  it('no machine file outside the catalogs builds a summary inline', () => {
    const files = machineFiles();
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((f) => readFileSync(f, 'utf8').includes('summary: `')).map((f) => f.slice(root.length))).toEqual([]);
  });
});

describe('the cluster\'s own sentence for a failed API write', () => {
  it('puts the verb in the infinitive after "fails to" (patch, not "patche"; the status forms too)', () => {
    const failed = { ok: false, code: 422, message: 'it is invalid', before: null, after: null } as never;
    const req = (verb: 'patch' | 'patchStatus' | 'updateStatus' | 'create' | 'get') => ({ type: 'api.request' as const, requestId: 'r', verb, kind: 'PersistentVolume' as const, name: 'pv-1' });
    expect(apiStepSummary('external-attacher', req('patch'), failed)).toBe('external-attacher fails to patch PersistentVolume pv-1: it is invalid.');
    expect(apiStepSummary('kubelet', req('patchStatus'), failed)).toBe('kubelet fails to patch the status of PersistentVolume pv-1: it is invalid.');
    expect(apiStepSummary('kubelet', req('updateStatus'), failed)).toBe('kubelet fails to update the status of PersistentVolume pv-1: it is invalid.');
    expect(apiStepSummary('x', req('get'), failed)).toBe('x fails to read PersistentVolume pv-1: it is invalid.');
  });
});
