import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { expandControllerMachine } from '../../src/machines/expand-controller/index.ts';
import { runScenario } from '../../src/machines/index.ts';

const pv = { kind: 'PersistentVolume', metadata: { name: 'pvc-1' }, spec: { csi: { driver: 'rbd.csi.ceph.com', volumeHandle: 'h' }, claimRef: { namespace: 'default', name: 'data', uid: 'u1' } } };
const claim = (request: string, capacity: string, phase = 'Bound') => ({
  kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default', uid: 'u1' },
  spec: { volumeName: 'pvc-1', resources: { requests: { storage: request } } }, status: { phase, capacity: { storage: capacity } },
});

function start(profile: '1.20' | '1.30') {
  const actor = createActor(expandControllerMachine, { input: { id: 'expand-controller', host: 'master', profile } });
  const emitted: any[] = [];
  actor.on('*', (e: any) => emitted.push(e));
  actor.start();
  actor.send({ type: 'component.started', now: 0 } as any);
  actor.send({ type: 'watch.added', now: 0, object: pv } as any);
  const before = claim('1Gi', '1Gi');
  actor.send({ type: 'watch.added', now: 0, object: before } as any);
  return { actor, emitted, before };
}

describe('expand controller (kube-controller-manager, "volume_expand")', () => {
  it('a bound CSI claim whose request grows past its capacity: syncHandler finds no in-tree plugin, records ExternalExpanding, a Warning, with the release\'s message, and logs that it waits for an external controller (expand_controller.go syncHandler)', () => {
    for (const [profile, message] of [
      ['1.20', "Ignoring the PVC: didn't find a plugin capable of expanding the volume; waiting for an external controller to process this PVC."],
      ['1.30', 'waiting for an external controller to expand this PVC'],
    ] as const) {
      const { actor, emitted, before } = start(profile);
      expect(emitted).toEqual([]);
      actor.send({ type: 'watch.modified', now: 1, object: claim('2Gi', '1Gi'), oldObject: before } as any);
      expect([profile, emitted]).toEqual([profile, [
        { type: 'event.recorded', involved: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data' }, eventType: 'Warning', reason: 'ExternalExpanding', message },
        { type: 'log', msg: 'expandController.waitingForExternalController', args: { claim: 'default/data', uid: 'u1' }, ownStream: true },
      ]]);
    }
  });

  it('only once: csi-resizer\'s condition writes do not grow the request or the capacity, and a capacity that catches up leaves nothing to do (UpdateFunc, syncHandler\'s size check)', () => {
    const { actor, emitted, before } = start('1.30');
    const grown = claim('2Gi', '1Gi');
    actor.send({ type: 'watch.modified', now: 1, object: grown, oldObject: before } as any);
    const resizing = { ...grown, status: { ...grown.status, conditions: [{ type: 'Resizing', status: 'True' }] } };
    actor.send({ type: 'watch.modified', now: 2, object: resizing, oldObject: grown } as any);
    actor.send({ type: 'watch.modified', now: 3, object: claim('2Gi', '2Gi'), oldObject: resizing } as any);
    expect(emitted.filter((e) => e.reason === 'ExternalExpanding')).toHaveLength(1);
  });

  it('leaves alone a claim that is not Bound, and one whose volume is bound to another claim', () => {
    const { actor, emitted, before } = start('1.30');
    actor.send({ type: 'watch.modified', now: 1, object: claim('2Gi', '1Gi', 'Pending'), oldObject: before } as any);
    actor.send({ type: 'watch.modified', now: 1, object: { ...pv, spec: { ...pv.spec, claimRef: { namespace: 'default', name: 'data', uid: 'other' } } }, oldObject: pv } as any);
    actor.send({ type: 'watch.modified', now: 2, object: claim('3Gi', '1Gi'), oldObject: claim('2Gi', '1Gi') } as any);
    expect(emitted).toEqual([]);
  });

  it('in the expand flows, its event comes first, before csi-resizer\'s Resizing, on both profiles', () => {
    for (const id of ['expand-online', 'expand-offline']) {
      for (const k8s of ['1.20', '1.30'] as const) {
        const t = runScenario(id, { k8s });
        const reasons = t.steps.filter((st) => st.kind === 'event').map((st) => `${st.component} ${st.summary.match(/event (\w+)/)?.[1]}`);
        expect([id, k8s, reasons.slice(0, 2)]).toEqual([id, k8s, ['expand-controller ExternalExpanding', 'external-resizer Resizing']]);
        expect(reasons.filter((r) => r.endsWith('ExternalExpanding'))).toHaveLength(1);
      }
    }
  });

  it('reaches every state', () => {
    const paths = getShortestPaths(expandControllerMachine as any, {
      input: { id: 'expand-controller', host: 'h', profile: '1.30' },
      events: [{ type: 'component.started', now: 0 }, { type: 'host.shutdown', now: 1 }],
      serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
    } as any);
    expect(paths.map((p) => JSON.stringify(p.state.value)).sort()).toEqual(['"running"', '"stopped"']);
  });
});
