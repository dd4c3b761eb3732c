/**
 * The flow model reshapes a trace for stepping; these tests check it against the trace it came from.
 */
import { describe, expect, it } from 'vitest';
import {
  buildFlowModel, diffPaths, linesOf, objectsAt, runScenario, SCENARIOS, timersAt, toYaml, versionAt, mermaidWindow, formatOffset,
  type FlowModel, type Trace,
} from '../../src/machines/index.ts';
import { parse } from 'yaml';

const cache = new Map<string, { trace: Trace; model: FlowModel }>();
function flow(id: string, k8s: '1.20' | '1.30'): { trace: Trace; model: FlowModel } {
  const key = `${id}.${k8s}`;
  if (!cache.has(key)) {
    const trace = runScenario(id, { k8s, captureWorld: true });
    cache.set(key, { trace, model: buildFlowModel(trace) });
  }
  return cache.get(key)!;
}

describe('buildFlowModel', () => {
  for (const s of SCENARIOS) {
    it(`${s.id}: one flow step per trace step, with the same summary and log line`, () => {
      const { trace, model } = flow(s.id, '1.30');
      expect(model.steps.length).toBe(trace.steps.length);
      trace.steps.forEach((st, i) => {
        const f = model.steps[i]!;
        expect([f.i, f.t, f.instance, f.summary, f.log, f.stage]).toEqual([st.i, st.t, st.instance, st.summary, st.log, st.stage]);
      });
      expect(JSON.parse(JSON.stringify(model))).toEqual(model);
    });
  }

  it('replaying the object versions ends at the trace\'s final objects', () => {
    for (const id of ['pod-migration', 'teardown', 'wffc-provision', 'ceph-rbd-delete']) {
      const { trace, model } = flow(id, '1.20');
      const last = model.steps.length;
      const shown = objectsAt(model, last).filter((o) => o.version.yaml !== null);
      const expected = trace.final.objects.filter((o) => o.kind !== 'Event');
      expect(shown.length, id).toBe(expected.length);
      for (const o of expected) {
        const track = model.objects.findIndex((t) => t.kind === o.kind && t.name === o.metadata.name && (t.namespace ?? undefined) === o.metadata.namespace);
        expect(track, `${id}: ${o.kind} ${o.metadata.name}`).toBeGreaterThanOrEqual(0);
        const v = model.objects[track]!.versions[versionAt(model.objects[track]!.versions, last)]!;
        const got = parse(v.yaml!);
        if (o.kind === 'Node') {
          // The inspector hides a Node's addresses/images. Kubelet heartbeats are quiet status writes
          // (not steps), so a Node's heartbeat time and resourceVersion may lag; the rest must match.
          const quiet = (n: Record<string, any>): unknown => ({
            ...n, metadata: { ...n.metadata, resourceVersion: undefined },
            status: { ...n.status, addresses: undefined, images: undefined, conditions: n.status.conditions?.map((c: Record<string, unknown>) => ({ ...c, lastHeartbeatTime: undefined })) },
          });
          expect(quiet(got)).toEqual(quiet(o));
        } else expect(got).toEqual(o);
      }
    }
  });

  it('object versions are rendered once and remembered: a model built again is the same, owns its arrays, and each version marks what changed since the one before', () => {
    // several flows in a row share the remembered versions (the what-if worker builds one after another)
    const ids = ['pod-migration', 'force-detach', 'teardown', 'attach'];
    const first = ids.map((id) => flow(id, '1.20').model);
    const again = ids.map((id) => buildFlowModel(flow(id, '1.20').trace));
    expect(again).toEqual(first);
    const copy = JSON.parse(JSON.stringify(first[0])) as FlowModel;
    const v = again[0]!.objects.find((t) => t.versions.some((x) => x.changed.length))!.versions.find((x) => x.changed.length)!;
    v.changed.push(9999);
    expect(buildFlowModel(flow(ids[0]!, '1.20').trace)).toEqual(copy);
    expect(first[0]).toEqual(copy);
    let compared = 0;
    for (const model of again) {
      for (const t of model.objects) {
        if (t.kind === 'Node') continue; // quiet heartbeats change a Node between its versions
        for (let i = 1; i < t.versions.length; i++) {
          const [before, after] = [t.versions[i - 1]!.yaml, t.versions[i]!.yaml];
          if (before === null || after === null || t.versions[i]!.step === 0) continue;
          const want = linesOf(after, diffPaths(parse(before), parse(after)).changed);
          if (t.versions[i] === v) continue;
          expect(t.versions[i]!.changed, `${model.scenario} ${t.kind} ${t.name} at step ${t.versions[i]!.step}`).toEqual(want);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('the objects before step 1 are those the warm-up created (each change\'s `before` at its first change)', () => {
    const { trace, model } = flow('pod-migration', '1.20');
    for (const st of trace.steps) {
      for (const ch of st.objects ?? []) {
        if (ch.kind === 'Event') continue;
        const t = model.objects.find((o) => o.kind === ch.kind && o.name === ch.name && o.namespace === ch.namespace)!;
        const firstChange = t.versions.find((v) => v.step > 0)!;
        if (firstChange.step !== st.i) continue;
        const initial = t.versions[0]!;
        if (ch.before) expect(initial.step === 0 && parse(initial.yaml!)).toBeTruthy();
        else expect(initial.step).toBe(st.i);
      }
    }
  });

  it('each step points at the versions it wrote, and a step with a world change points at it', () => {
    const { trace, model } = flow('ad-detach-backoff', '1.20');
    for (const st of trace.steps) {
      const f = model.steps[st.i - 1]!;
      const written = (st.objects ?? []).filter((o) => o.kind !== 'Event');
      expect((f.changes ?? []).length).toBe(written.length);
      (f.changes ?? []).forEach(([o, v], k) => {
        expect(model.objects[o]!.name).toBe(written[k]!.name);
        expect(model.objects[o]!.versions[v]!.step).toBe(st.i);
      });
    }
    expect(model.worlds.map((w) => w.component).sort()).toEqual(['attach-detach-controller', 'kubelet']);
  });

  it('ad-detach-backoff on 1.20 shows the detach backoff timer doubling and capped at 2m2s', () => {
    const { model } = flow('ad-detach-backoff', '1.20');
    const windows = new Set<number>();
    for (const st of model.steps) for (const t of timersAt(model, st.i)) if (t.name === 'durationBeforeRetry') windows.add(Math.round(t.endMs - t.startMs));
    const sorted = [...windows].sort((a, b) => a - b);
    expect(sorted.slice(0, 4)).toEqual([500, 1000, 2000, 4000]);
    expect(Math.max(...sorted)).toBeLessThanOrEqual(122_000);
  });

  it('force-detach shows the 6-minute maxWaitForUnmountDuration counting until the forced detach', () => {
    const { model } = flow('force-detach', '1.30');
    const seen = model.steps.flatMap((st) => timersAt(model, st.i).filter((t) => t.name === 'maxWaitForUnmountDuration'));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]!.endMs - seen[0]!.startMs).toBe(360_000);
    const forced = model.steps.find((st) => st.msg && /force/i.test(st.log ?? ''))!;
    expect(forced).toBeDefined();
    expect(forced.t).toBeGreaterThanOrEqual(seen[0]!.endMs);
  });

  it('a pod waiting for its volumes shows the 2m3s podAttachAndMountTimeout', () => {
    const { model } = flow('multi-attach', '1.30');
    const waits = model.steps.flatMap((st) => timersAt(model, st.i).filter((t) => t.name === 'podAttachAndMountTimeout'));
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]!.endMs - waits[0]!.startMs).toBe(123_000);
  });

  it('the tables built during the warm-up are there before the first step', () => {
    const { trace, model } = flow('ad-detach-backoff', '1.30');
    expect(Object.keys(trace.worldsAtStart ?? {}).length).toBeGreaterThan(0);
    for (const w of model.worlds) {
      if (!(w.instance in (trace.worldsAtStart ?? {}))) continue;
      expect(w.versions[0]!.step, w.instance).toBe(0);
    }
    const adc = model.worlds.find((w) => w.component === 'attach-detach-controller')!;
    expect(adc.versions[0]!.step).toBe(0);
    // the pod's volume is attached before the story starts: the ADC's actual state of world says so
    expect((adc.versions[0]!.tables as { actual: unknown[] }).actual.length).toBeGreaterThan(0);
  });

  it('ceph scenarios carry the backend journal as a world track of the controller plugin', () => {
    const { model } = flow('ceph-rbd-create', '1.30');
    const w = model.worlds.find((x) => x.component === 'csi-controller-plugin');
    expect(w).toBeDefined();
    const last = w!.versions[w!.versions.length - 1]!.tables as { ceph: { omaps: Array<{ object: string }> } };
    expect(last.ceph.omaps.map((o) => o.object)).toContain('csi.volumes.default');
  });

  it('sequence messages point back to their steps, and windows declare only the lanes they use', () => {
    const { model } = flow('attach', '1.30');
    model.messages.forEach((m, k) => expect(model.steps[m.step - 1]!.message).toBe(k));
    const text = mermaidWindow(model, 2, 6);
    const arrows = text.split('\n').filter((l) => /->>|-->>/.test(l));
    expect(arrows.length).toBe(4);
    expect(text).toMatch(/… 2 earlier messages/);
    const declared = text.split('\n').filter((l) => l.trim().startsWith('participant')).map((l) => l.trim().split(' ')[1]);
    for (const a of arrows) for (const p of a.trim().split(':')[0]!.split(/-->>|->>/)) expect(declared).toContain(p);
  });
});

describe('diffPaths / linesOf', () => {
  it('marks a changed scalar, an added key and a new list entry, and lists what was removed', () => {
    const before = { metadata: { name: 'a', finalizers: ['x'] }, spec: { n: 1, gone: true } };
    const after = { metadata: { name: 'a', finalizers: ['x', 'y'] }, spec: { n: 2 }, status: { attached: true } };
    const d = diffPaths(before, after);
    expect(d.changed).toEqual([['metadata', 'finalizers', 1], ['spec', 'n'], ['status']]);
    expect(d.removed).toEqual(['spec.gone']);
    const yaml = toYaml(after);
    const lines = yaml.split('\n');
    const marked = linesOf(yaml, d.changed).map((l) => lines[l - 1]!.trim());
    expect(marked).toEqual(['- y', 'n: 2', 'status:', 'attached: true']);
  });

  it('a removed list entry is reported with its value', () => {
    expect(diffPaths({ f: ['a', 'b'] }, { f: ['b'] })).toEqual({ changed: [], removed: ['f: "a"'] });
  });

  it('formats offsets on the trace clock', () => {
    expect(formatOffset(0)).toBe('0.000s');
    expect(formatOffset(1234.5)).toBe('1.234s');
    expect(formatOffset(62_345)).toBe('1m02.345s');
  });
});
