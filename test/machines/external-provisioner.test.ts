import { describe, it, expect } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { ClusterEmitted } from '../../src/machines/shared/contract.ts';
import { externalProvisionerMachine } from '../../src/machines/external-provisioner/index.ts';
import { pvc, sc, storageCluster } from './pv-controller.fixtures.ts';

const DRIVER = { id: 'cbs', name: 'com.tencent.cloud.csi.cbs', vendorVersion: 'v1', controllerCapabilities: [], nodeCapabilities: [], attachRequired: true, topologyKeys: [], latency: {}, defaultFsType: 'ext4', volumeIdStyle: 'cbs-disk' } as const;
const input = { id: 'external-provisioner', host: 'csi-controller', profile: '1.20' as const, driver: { ...DRIVER, controllerCapabilities: [], nodeCapabilities: [], topologyKeys: [] }, provisionerIdentity: '1672314114387-8081-com.tencent.cloud.csi.cbs' };

describe('externalProvisionerMachine', () => {
  it('calls Probe, GetPluginInfo, GetPluginCapabilities and ControllerGetCapabilities before it starts the controller', () => {
    const actor = createActor(externalProvisionerMachine, { input });
    const emitted: ClusterEmitted[] = [];
    actor.on('*', (e) => emitted.push(e as ClusterEmitted));
    actor.start();
    actor.send({ type: 'component.started', now: 0 });
    for (let i = 0; i < 4; i++) {
      const call = emitted.filter((e) => e.type === 'csi.call').at(-1) as Extract<ClusterEmitted, { type: 'csi.call' }>;
      actor.send({ type: 'csi.result', now: i + 1, requestId: call.requestId, rpc: call.rpc, code: 'OK', response: call.rpc === 'GetPluginInfo' ? { name: DRIVER.name } : {} });
    }
    expect(emitted.filter((e) => e.type === 'csi.call').map((e) => (e as { rpc: string }).rpc)).toEqual(['Probe', 'GetPluginInfo', 'GetPluginCapabilities', 'ControllerGetCapabilities']);
    expect(actor.getSnapshot().value).toBe('running');
  });

  it('reaches every state', () => {
    const paths = getShortestPaths(externalProvisionerMachine, {
      input,
      events: [{ type: 'component.started', now: 0 }, { type: 'host.shutdown', now: 1 }, ...['ep-1', 'ep-2', 'ep-3', 'ep-4'].map((requestId) => ({ type: 'csi.result', now: 1, requestId, rpc: 'Probe', code: 'OK' }))],
      serializeState: (s: { value: unknown; context: { startup: number } }) => JSON.stringify(s.value) + s.context.startup,
    } as never);
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(['stopped', 'connecting', 'running']));
  });
});

describe('CreateVolume errors', () => {
  it('treats a final error as final: ProvisioningFailed, "Final error received", retry after 1s then 2s', () => {
    const c = storageCluster('1.20', [sc('cbs', 'Immediate')], [{ at: 1_000_000, do: 'create', object: pvc('data', 'cbs') }], [{ rpc: 'CreateVolume', code: 'INVALID_ARGUMENT', count: 2, message: 'bad disk type' }]);
    c.run(60_000_000);
    const lines = c.steps.filter((s) => s.component === 'external-provisioner' && s.log).map((s) => s.log!.replace(/^.*?\] /, ''));
    expect(lines.filter((l) => l.startsWith('Final error received, removing PVC'))).toHaveLength(2);
    expect(lines).toContain('Retrying syncing claim "default/data", failure 0');
    expect(lines).toContain('Retrying syncing claim "default/data", failure 1');
    expect(lines).toContain('GRPC error: rpc error: code = InvalidArgument desc = bad disk type');
    const failed = c.api.list('Event').find((e) => e.reason === 'ProvisioningFailed')!;
    expect(failed.message).toBe('failed to provision volume with StorageClass "cbs": rpc error: code = InvalidArgument desc = bad disk type');
    expect(failed.count).toBe(2);
    const creates = c.steps.filter((s) => s.rpc?.method === '/csi.v1.Controller/CreateVolume' && s.kind === 'rpc');
    expect(creates.map((s) => Math.round(s.t - creates[0]!.t) >= 0)).toEqual([true, true, true]);
    expect(Math.round((creates[1]!.t - creates[0]!.t) / 1000)).toBe(1);
    expect(Math.round((creates[2]!.t - creates[1]!.t) / 1000)).toBe(2);
    expect(c.api.get('PersistentVolumeClaim', 'default', 'data')!.status.phase).toBe('Bound');
  });

  it('keeps the claim in progress on DEADLINE_EXCEEDED and retries with the same volume name', () => {
    const c = storageCluster('1.20', [sc('cbs', 'Immediate')], [{ at: 1_000_000, do: 'create', object: pvc('data', 'cbs') }], [{ rpc: 'CreateVolume', code: 'DEADLINE_EXCEEDED', count: 1 }]);
    c.run(60_000_000);
    const lines = c.steps.filter((s) => s.component === 'external-provisioner' && s.log).map((s) => s.log!.replace(/^.*?\] /, ''));
    expect(lines.some((l) => l.startsWith('Temporary error received, adding PVC'))).toBe(true);
    const names = c.steps.filter((s) => s.rpc?.method === '/csi.v1.Controller/CreateVolume' && s.kind === 'rpc').map((s) => (s.rpc!.request as { name?: string }).name);
    expect(names).toHaveLength(2);
    expect(names[0]).toBe(names[1]);
  });
});
