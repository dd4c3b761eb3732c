/**
 * Why each step happened (TraceStep.cause): from the cluster's own routing, every step a component
 * records says what it was handling, and points at the step that caused it.
 */
import { describe, expect, it } from 'vitest';
import { causeText, runScenario, SCENARIOS, type TraceStep } from '../../src/machines/index.ts';

describe('every step says why it happened', () => {
  for (const s of SCENARIOS) {
    for (const k8s of s.profiles ?? (['1.20', '1.30'] as const)) {
      it(`${s.id} ${k8s}: a cause on every component step, pointing back in time`, () => {
        const t = runScenario(s.id, { k8s });
        const bad: string[] = [];
        for (const st of t.steps) {
          if (st.kind === 'user') continue;
          if (!st.cause) { bad.push(`${st.i} ${st.component} ${st.kind}: no cause`); continue; }
          const c = st.cause.step;
          if (c !== undefined && !(c >= 1 && c < st.i)) bad.push(`${st.i}: cause step ${c} is not an earlier step`);
          const text = causeText(st.cause);
          if (!text || /undefined|\[object/.test(text)) bad.push(`${st.i}: cause text "${text}"`);
        }
        expect(bad).toEqual([]);
      });
    }
  }
});

describe('the causes follow the flow (attach, 1.30)', () => {
  const t = runScenario('attach', { k8s: '1.30' });
  const find = (p: (s: TraceStep) => boolean, from = 0): TraceStep => {
    const hit = t.steps.slice(from).find(p);
    expect(hit).toBeDefined();
    return hit!;
  };

  it('the attacher acts on the watch event of the VolumeAttachment the controller created', () => {
    const create = find((s) => s.component === 'attach-detach-controller' && s.api?.verb === 'create' && s.api.kind === 'VolumeAttachment');
    const first = find((s) => s.component === 'external-attacher', create.i);
    expect(first.cause).toMatchObject({ kind: 'watch', event: 'added', step: create.i });
    expect(causeText(first.cause!)).toBe(`its informer saw VolumeAttachment ${create.api!.name} added`);
  });

  it('the plugin acts on the call, the attacher on the reply, the API step on the reaction that sent it', () => {
    const call = find((s) => s.kind === 'rpc' && !!s.rpc?.method.endsWith('/ControllerPublishVolume'));
    const received = find((s) => s.component === 'csi-controller-plugin', call.i);
    expect(received.cause).toMatchObject({ kind: 'csi-request', rpc: 'ControllerPublishVolume', from: 'external-attacher', step: call.i });
    const reply = find((s) => s.kind === 'rpc-reply' && !!s.rpc?.method.endsWith('/ControllerPublishVolume'));
    const heard = find((s) => s.component === 'external-attacher', reply.i);
    expect(heard.cause).toMatchObject({ kind: 'csi-reply', rpc: 'ControllerPublishVolume', code: 'OK', step: reply.i });
    const mark = find((s) => s.component === 'external-attacher' && s.api?.verb === 'patchStatus', reply.i);
    expect(mark.cause).toEqual({ kind: 'request', step: heard.i });
  });

  it('a step after an API write the same component made answers to that write', () => {
    const bind = find((s) => s.component === 'kube-scheduler' && s.kind === 'api');
    const next = find((s) => s.component === 'kube-scheduler' && s.kind === 'log', bind.i);
    expect(next.cause).toMatchObject({ kind: 'api-result', verb: bind.api!.verb, object: `Pod ${bind.api!.namespace}/${bind.api!.name}`, step: bind.i });
  });

  it('a timer names what it stands for', () => {
    expect(causeText({ kind: 'timer', key: 'podWait:uid-1' })).toBe('the 2m3s wait for the pod’s volumes ran out');
    expect(causeText({ kind: 'timer', key: 'va/csi-123' })).toBe('the rate-limited retry of VolumeAttachment csi-123 came due');
    expect(causeText({ kind: 'timer', key: 'something' })).toBe('its timer “something” fired');
    const csiDone = find((s) => s.cause?.kind === 'timer' && s.component === 'csi-controller-plugin');
    expect(causeText(csiDone.cause!)).toBe('the backend finished the work of the call');
  });
});

describe('a node shutdown and a restart are the user\'s doing', () => {
  it('pod-migration and force-detach: the steps of a shut-down node point at the shutdown', () => {
    const t = runScenario('force-detach', { k8s: '1.30' });
    const off = t.steps.find((s) => s.kind === 'user' && /shut/i.test(s.summary));
    if (!off) return;
    const after = t.steps.filter((s) => s.cause?.kind === 'user');
    for (const s of after) expect(s.cause!.step).toBe(off.i);
  });
});
