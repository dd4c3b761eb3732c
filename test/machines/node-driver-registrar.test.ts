import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { nodeDriverRegistrarMachine } from '../../src/machines/node-driver-registrar/index.ts';

const input = { id: 'node-driver-registrar/n1', host: 'n1', profile: '1.20' as const, nodeName: 'n1' };
const DRIVER = 'com.tencent.cloud.csi.cbs';

function start() {
  const actor = createActor(nodeDriverRegistrarMachine, { input });
  const emitted: any[] = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  actor.send({ type: 'component.started', now: 0 });
  return { actor, emitted };
}

describe('node-driver-registrar', () => {
  it('asks the node plugin for its name, then opens the registration socket', () => {
    const { actor, emitted } = start();
    const call = emitted.find((e) => e.type === 'csi.call');
    expect(call).toMatchObject({ rpc: 'GetPluginInfo', endpoint: 'node' });
    actor.send({ type: 'csi.result', now: 10, requestId: call.requestId, rpc: 'GetPluginInfo', code: 'OK', response: { name: DRIVER } });
    expect(actor.getSnapshot().value).toBe('serving');
    expect(emitted).toContainEqual({ type: 'socket.created', path: `/var/lib/kubelet/plugins_registry/${DRIVER}-reg.sock` });
    expect(emitted.filter((e) => e.type === 'log').map((e) => e.msg)).toContain('nodeDriverRegistrar.serverStarted');
  });

  it('answers GetInfo with the driver endpoint and logs NotifyRegistrationStatus', () => {
    const { actor, emitted } = start();
    const call = emitted.find((e) => e.type === 'csi.call');
    actor.send({ type: 'csi.result', now: 10, requestId: call.requestId, rpc: 'GetPluginInfo', code: 'OK', response: { name: DRIVER } });
    actor.send({ type: 'csi.request', now: 20, requestId: 'k#1', rpc: 'GetInfo', request: {}, caller: 'kubelet/n1' });
    expect(emitted.find((e) => e.type === 'csi.reply')).toMatchObject({
      requestId: 'k#1', code: 'OK', response: { type: 'CSIPlugin', name: DRIVER, endpoint: `/var/lib/kubelet/plugins/${DRIVER}/csi.sock`, supported_versions: ['1.0.0'] },
    });
    actor.send({ type: 'csi.request', now: 30, requestId: 'k#2', rpc: 'NotifyRegistrationStatus', request: { plugin_registered: true }, caller: 'kubelet/n1' });
    expect(actor.getSnapshot().value).toBe('registered');
    expect(emitted).toContainEqual({ type: 'log', msg: 'nodeDriverRegistrar.notifyRegistrationStatus', args: { registered: true, error: '' } });
  });

  it('reaches every state', () => {
    const paths = getShortestPaths(nodeDriverRegistrarMachine, {
      input,
      events: [
        { type: 'component.started', now: 0 },
        { type: 'csi.result', now: 1, requestId: 'r1', rpc: 'GetPluginInfo', code: 'OK', response: { name: DRIVER } },
        { type: 'csi.result', now: 1, requestId: 'r1', rpc: 'GetPluginInfo', code: 'DEADLINE_EXCEEDED', message: 'context deadline exceeded' },
        { type: 'csi.request', now: 2, requestId: 'x', rpc: 'NotifyRegistrationStatus', request: { plugin_registered: true }, caller: 'k' },
        { type: 'csi.request', now: 2, requestId: 'y', rpc: 'NotifyRegistrationStatus', request: { plugin_registered: false, error: 'boom' }, caller: 'k' },
        { type: 'host.shutdown', now: 3 },
      ] as any,
      serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
    } as any);
    const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    for (const s of ['stopped', 'discoveringDriverName', 'serving', 'registered', 'registrationFailed', 'driverNameFailed']) expect(reached).toContain(JSON.stringify(s));
  });
});
