/**
 * RunOptions.actions: what a reader adds to a scenario's timeline (the what-if panel's "shut this node
 * down now", "delete this pod now"), at story time.
 */
import { describe, expect, it } from 'vitest';
import { objectAt, runScenario, ScenarioError } from '../../src/machines/index.ts';

describe('RunOptions.actions', () => {
  it('a node shut down at a story time stops its kubelet then: the story records the shutdown at that time', () => {
    const base = runScenario('attach', { k8s: '1.30' });
    const node = base.final.objects.find((o) => o.kind === 'Pod')!.spec.nodeName as string;
    const t = runScenario('attach', { k8s: '1.30', actions: [{ at: '2s', do: 'shutdownNode', node }] });
    const user = t.steps.filter((s) => s.kind === 'user');
    expect(user.some((s) => s.t === 2000 && s.summary.includes(node))).toBe(true);
    // the same story up to then, a different one after
    const before = (tr: typeof t) => tr.steps.filter((s) => s.t < 2000).map((s) => s.summary);
    expect(before(t)).toEqual(before(base));
    expect(t.steps.map((s) => s.summary)).not.toEqual(base.steps.map((s) => s.summary));
  });

  it('a component restarted at a story time: its new process starts a second or two later', () => {
    const t = runScenario('attach', { actions: [{ at: '2s', do: 'restart', component: 'external-attacher' }] });
    const user = t.steps.find((s) => s.kind === 'user' && /restart/i.test(s.summary))!;
    expect(user.t).toBe(2000);
    const started = t.steps.find((s) => s.component === 'external-attacher' && s.t > 2000 && s.cause?.kind === 'start')!;
    expect(started.cause!.step).toBe(user.i);
    expect(started.t - 2000).toBeGreaterThanOrEqual(800);
    expect(started.t - 2000).toBeLessThan(2100);
  });

  it('a pod deleted at a story time is gone by the end', () => {
    const base = runScenario('mount', { k8s: '1.30' });
    const pod = base.final.objects.find((o) => o.kind === 'Pod')!;
    const t = runScenario('mount', { k8s: '1.30', actions: [{ at: 1000, do: 'delete', kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, gracePeriodSeconds: 0 }] });
    expect(t.steps.some((s) => s.kind === 'user' && s.t === 1000)).toBe(true);
    expect(objectAt(t, 'Pod', pod.metadata.name)).toBeUndefined();
  });

  it('a bad action is a ScenarioError naming it', () => {
    expect(() => runScenario('attach', { actions: [{ at: '2s', do: 'shutdownNode', node: 'nope' }] })).toThrow(ScenarioError);
    expect(() => runScenario('attach', { actions: [{ at: '2s', do: 'shutdownNode', node: 'nope' }] })).toThrow(/options\.actions\[0\]\.node: no node "nope" in scenario "attach"/);
    expect(() => runScenario('attach', { actions: [{ at: 'soon', do: 'shutdownNode', node: 'x' } as never] })).toThrow(/options\.actions\[0\]\.at: must be story milliseconds or a duration/);
    expect(() => runScenario('attach', { actions: [{ at: 1, do: 'explode' } as never] })).toThrow(/options\.actions\[0\]\.do: unknown action "explode"/);
    expect(() => runScenario('attach', { actions: {} as never })).toThrow(/options\.actions must be a list/);
    expect(() => runScenario('attach', { actions: [{ at: 1, do: 'restart', component: 'csi-node-plugin' }] })).toThrow(/options\.actions\[0\]\.component: restarting the CSI node plugin is not modelled/);
    expect(() => runScenario('attach', { actions: [{ at: 1, do: 'restart', component: 'kublet' }] })).toThrow(/options\.actions\[0\]\.component: unknown component "kublet" \(restartable: .*kubelet/);
    expect(() => runScenario('attach', { actions: [{ at: 1, do: 'restart', component: 'kubelet/node-9' }] })).toThrow(/options\.actions\[0\]\.component: no node "node-9"/);
    expect(() => runScenario('attach', { actions: [{ at: 1, do: 'restart' } as never] })).toThrow(/options\.actions\[0\]\.component: is required/);
  });
});
