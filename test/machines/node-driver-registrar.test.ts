import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { nodeDriverRegistrarMachine } from '../../src/machines/node-driver-registrar/index.ts';
import { runScenario } from '../../src/machines/index.ts';

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

describe('plugin registration failures, as the kubelet\'s plugin manager has them (pluginmanager operation_generator.go GenerateRegisterPluginFunc, goroutinemap)', () => {
  const node1 = (t: ReturnType<typeof runScenario>) => t.steps.filter((s) => s.host === 'node-1' && (s.component === 'kubelet' || s.component === 'node-driver-registrar'));
  for (const k8s of ['1.20', '1.30'] as const) {
    it(`${k8s}: a failing GetInfo is logged by goroutinemap.go:150 with 500ms, 1s, 2s of backoff, retried at the plugin manager's next 1s pass, with no NotifyRegistrationStatus, until it registers`, () => {
      const t = runScenario('register', { k8s, faults: ['GetInfo=UNAVAILABLEx3'] });
      const steps = node1(t);
      const failed = steps.filter((s) => s.msg === 'kubelet.registerPluginFailed');
      expect(failed.map((s) => /\(durationBeforeRetry ([^)]+)\)/.exec(s.log!)![1])).toEqual(['500ms', '1s', '2s']);
      const sock = '/var/lib/kubelet/plugins_registry/com.tencent.cloud.csi.cbs-reg.sock';
      const err = `RegisterPlugin error -- failed to get plugin info using RPC GetInfo at socket ${sock}, err: rpc error: code = Unavailable desc = injected UNAVAILABLE fault`;
      // v1.20.5 quotes the error (%q), v1.30.1 does not (%v)
      expect(failed[0]!.log).toContain(`goroutinemap.go:150] Operation for "${sock}" failed. No retries permitted until `);
      expect(failed[0]!.log!.endsWith(k8s === '1.20' ? `Error: ${JSON.stringify(err)}` : `Error: ${err}`)).toBe(true);
      const getInfos = steps.filter((s) => s.kind === 'rpc' && /\/GetInfo$/.test(s.rpc!.method));
      expect(getInfos).toHaveLength(4);
      // each RegisterPlugin the plugin manager starts is logged at -v=1 with the desired state's PluginInfo, whose
      // Timestamp (when the watcher found the socket) stays the same across the retries
      const started = steps.filter((s) => s.msg === 'kubelet.registerPluginStarted').map((s) => s.log!);
      expect(started).toHaveLength(4);
      expect(new Set(started.map((l) => l.replace(/^.*?\] /, ''))).size).toBe(1);
      expect(started[0]).toMatch(k8s === '1.20'
        ? new RegExp(`reconciler\\.go:156\\] operationExecutor\\.RegisterPlugin started for plugin at "${sock}" \\(plugin details: &\\{${sock} \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:[\\d.]+ \\+0000 UTC m=\\+[\\d.]+ <nil> \\}\\) $`)
        : new RegExp(`reconciler\\.go:161\\] "OperationExecutor\\.RegisterPlugin started" plugin=\\{"SocketPath":"${sock}","Timestamp":"\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z","Handler":null,"Name":""\\}$`));
      // each retry waits out its backoff, then starts on the plugin manager's 1s grid
      for (let i = 1; i < getInfos.length; i++) {
        const backoff = [500, 1000, 2000][i - 1]!;
        expect(getInfos[i]!.t - failed[i - 1]!.t).toBeGreaterThanOrEqual(backoff);
        expect(getInfos[i]!.t - failed[i - 1]!.t).toBeLessThan(backoff + 1000);
      }
      expect(steps.some((s) => s.kind === 'rpc' && s.rpc?.method.endsWith('NotifyRegistrationStatus') && (s.rpc.request as { plugin_registered?: boolean } | undefined)?.plugin_registered === false)).toBe(false);
      expect(steps.some((s) => s.msg === 'kubelet.registerPlugin')).toBe(true);
      expect(t.final.objects.find((o) => o.kind === 'CSINode' && o.metadata.name === 'node-1')!.spec.drivers).toHaveLength(1);
    });
  }

  for (const k8s of ['1.20', '1.30'] as const) {
    it(`${k8s}: a failing NodeGetInfo: the registrar is told and exits without answering (os.Exit(1)); the kubelet's notify fails with a closed connection and goroutinemap.go:150 logs both errors, but the kubelet does not try again (kubernetes#133725): the restarted registrar re-creates its socket and the driver registers`, () => {
      const t = runScenario('register', { k8s, faults: [{ rpc: 'NodeGetInfo', code: 'INTERNAL', count: 1, node: 'node-1' }] });
      const steps = node1(t);
      const sent = 'RegisterPlugin error -- plugin registration failed with err: rpc error: code = Internal desc = injected INTERNAL fault';
      const notify = steps.find((s) => s.kind === 'rpc' && s.rpc?.method.endsWith('NotifyRegistrationStatus'))!;
      expect(notify.rpc!.request).toMatchObject({ plugin_registered: false, error: sent });
      // the registrar logs the failure and exits: no answer to that call, then the exit (main.go:93 / :111)
      const failedAt = steps.findIndex((s) => s.msg === 'nodeDriverRegistrar.registrationFailed');
      expect(failedAt).toBeGreaterThan(-1);
      expect(steps.some((s) => s.kind === 'rpc-reply' && s.rpc?.requestId === notify.rpc!.requestId)).toBe(false);
      const exit = steps.find((s) => s.component === 'node-driver-registrar' && /exits with status 1/.test(s.summary))!;
      expect(exit.summary).toContain('at once (its first restart)');
      // the kubelet's NotifyRegistrationStatus fails as its grpc-go reports a closed transport (v1.27.1 / v1.59.0)
      const closed = k8s === '1.20' ? 'transport is closing' : 'error reading from server: EOF';
      const err = `${sent}: rpc error: code = Unavailable desc = ${closed}`;
      const logged = steps.filter((s) => s.msg === 'kubelet.registerPluginFailed');
      expect(logged).toHaveLength(1);
      expect(logged[0]!.log!.endsWith(k8s === '1.20' ? `Error: ${JSON.stringify(err)}` : `Error: ${err}`)).toBe(true);
      expect(logged[0]!.log).toContain('(durationBeforeRetry 500ms)');
      // the call fails as the connection closes, a fraction of a millisecond after the exit, and the trace
      // says why: a reply of the exited registrar, caused by the reaction its exit came from (its first step)
      const reaction = steps.find((s) => s.msg === 'nodeDriverRegistrar.notifyRegistrationStatus')!.i;
      expect(logged[0]!.t - exit.t).toBeGreaterThan(0);
      expect(logged[0]!.t - exit.t).toBeLessThan(1);
      expect(logged[0]!.cause).toMatchObject({ kind: 'csi-reply', rpc: 'NotifyRegistrationStatus', code: 'UNAVAILABLE', step: reaction });
      // only the exited process's calls fail: the driver's (node plugin's) pending work is untouched
      expect(t.steps.filter((s) => s.cause?.kind === 'csi-reply' && s.cause.code === 'UNAVAILABLE')).toHaveLength(1);
      // and its restart is caused by the same step
      const restarted = steps.filter((s) => s.msg === 'nodeDriverRegistrar.version')[1]!;
      expect(restarted.cause).toMatchObject({ kind: 'start', step: reaction });
      // no retry of its own: the next GetInfo is on the socket the restarted registrar created again
      const getInfos = steps.filter((s) => s.kind === 'rpc' && /\/GetInfo$/.test(s.rpc!.method));
      expect(getInfos).toHaveLength(2);
      const names = steps.filter((s) => s.kind === 'rpc' && /GetPluginInfo$/.test(s.rpc!.method));
      expect(names).toHaveLength(2);
      expect(names[1]!.t - exit.t).toBeGreaterThanOrEqual(800);
      expect(names[1]!.t - exit.t).toBeLessThan(2100);
      expect(getInfos[1]!.t).toBeGreaterThan(names[1]!.t);
      expect(steps.filter((s) => s.msg === 'nodeDriverRegistrar.version')).toHaveLength(2);
      expect(t.final.objects.find((o) => o.kind === 'CSINode' && o.metadata.name === 'node-1')!.spec.drivers).toHaveLength(1);
    });
  }

  it('a registrar that keeps failing is restarted at once, then after the CrashLoopBackOff: 10s, then 20s (kubelet.go backOffPeriod, doBackOff)', () => {
    const t = runScenario('register', { k8s: '1.30', faults: [{ rpc: 'NodeGetInfo', code: 'INTERNAL', count: 3, node: 'node-1' }], extendBy: 30_000 });
    const steps = node1(t);
    const exits = steps.filter((s) => s.component === 'node-driver-registrar' && /exits with status 1/.test(s.summary));
    expect(exits.map((s) => /at once|of (\d+)s/.exec(s.summary)![0])).toEqual(['at once', 'of 10s', 'of 20s']);
    const starts = steps.filter((s) => s.msg === 'nodeDriverRegistrar.version');
    expect(starts).toHaveLength(4);
    for (const [i, wait] of [[1, 0], [2, 10_000], [3, 20_000]] as const) {
      expect(starts[i]!.t - exits[i - 1]!.t).toBeGreaterThanOrEqual(wait + 800);
      expect(starts[i]!.t - exits[i - 1]!.t).toBeLessThan(wait + 2100);
    }
    // the goroutinemap's backoff of the socket's operation doubles across the registrar's restarts
    expect(steps.filter((s) => s.msg === 'kubelet.registerPluginFailed').map((s) => /\(durationBeforeRetry ([^)]+)\)/.exec(s.log!)![1])).toEqual(['500ms', '1s', '2s']);
    expect(t.final.objects.find((o) => o.kind === 'CSINode' && o.metadata.name === 'node-1')!.spec.drivers).toHaveLength(1);
  });
});

describe('the CrashLoopBackOff is forgotten after ten minutes without an exit (flowcontrol Backoff hasExpired: 2 × MaxContainerBackOff), and by a new kubelet', () => {
  // the registrar fails once at start-up; at `at` a process restarts and the registration fails once more
  const exits = (at: number, restart: string) => {
    const t = runScenario('register', {
      k8s: '1.30', extendBy: at + 60_000,
      faults: [{ rpc: 'NodeGetInfo', code: 'INTERNAL', count: 1, node: 'node-1' }, { rpc: 'NodeGetInfo', code: 'INTERNAL', count: 1, node: 'node-1', from: at }],
      actions: [{ at, do: 'restart', component: `${restart}/node-1` }],
    });
    return t.steps.filter((s) => s.host === 'node-1' && s.component === 'node-driver-registrar' && /exits with status 1/.test(s.summary)).map((s) => /at once|of (\d+)s/.exec(s.summary)![0]);
  };
  it('an exit 11 minutes after the last one restarts at once, as a first one does', () => {
    expect(exits(11 * 60_000, 'node-driver-registrar')).toEqual(['at once', 'at once']);
  });
  it('an exit 3 minutes after the last one waits the backoff of a second exit (10s)', () => {
    expect(exits(3 * 60_000, 'node-driver-registrar')).toEqual(['at once', 'of 10s']);
  });
  it('a kubelet restarted in between has no memory of the earlier exit (its backOff is built at start-up, kubelet.go)', () => {
    expect(exits(3 * 60_000, 'kubelet')).toEqual(['at once', 'at once']);
  });
});

describe("a failed GetInfo on the registration socket: the plugin manager's goroutinemap backoff, then its next loop pass", () => {
  for (const k8s of ['1.20', '1.30'] as const) {
    it(`${k8s}: goroutinemap.go:150 logs the time the retry is permitted (500ms on), and the reconciler (every second, plugin_manager.go:49) starts RegisterPlugin again at its first pass after it`, () => {
      const t = runScenario('register', { k8s, faults: [{ rpc: 'GetInfo', code: 'INTERNAL', count: 1, node: 'node-1' }] });
      const steps = t.steps.filter((s) => s.host === 'node-1' && s.component === 'kubelet');
      const failed = steps.filter((s) => s.msg === 'kubelet.registerPluginFailed');
      expect(failed).toHaveLength(1);
      const log = failed[0]!.log!;
      expect(log).toContain('(durationBeforeRetry 500ms)');
      // "No retries permitted until <the failure's own time + 500ms>", in the kubelet's clock and zone
      const own = /(\d{2}):(\d{2}):(\d{2})\.(\d{6})\s+\d+ goroutinemap/.exec(log)!;
      const until = /No retries permitted until \d{4}-\d{2}-\d{2} (\d{2}):(\d{2}):(\d{2})\.(\d+)/.exec(log)!;
      const us = (h: string, m: string, s: string, frac: string) => ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1e6 + Number(frac.padEnd(6, '0').slice(0, 6));
      expect(us(until[1]!, until[2]!, until[3]!, until[4]!) - us(own[1]!, own[2]!, own[3]!, own[4]!)).toBeGreaterThanOrEqual(499_000);
      expect(us(until[1]!, until[2]!, until[3]!, until[4]!) - us(own[1]!, own[2]!, own[3]!, own[4]!)).toBeLessThanOrEqual(501_000);
      // the next GetInfo: after the backoff, by the next whole second of the reconciler's loop
      const getInfos = steps.filter((s) => s.kind === 'rpc' && /\/GetInfo$/.test(s.rpc!.method));
      expect(getInfos).toHaveLength(2);
      const wait = getInfos[1]!.t - failed[0]!.t;
      expect(wait).toBeGreaterThan(500);
      expect(wait).toBeLessThanOrEqual(1_500);
      // and the driver registers then
      expect(t.final.objects.find((o) => o.kind === 'CSINode' && o.metadata.name === 'node-1')!.spec.drivers).toHaveLength(1);
    });
  }
});
