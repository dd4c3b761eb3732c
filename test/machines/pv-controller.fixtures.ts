/**
 * Test fixtures shared by the pv-controller, external-provisioner and kube-scheduler tests: a small
 * cluster with those three components and a stand-in CSI controller plugin.
 */
import { setup, enqueueActions } from 'xstate';
import { Cluster, type ApiFault, type CsiFault } from '../../src/machines/cluster/cluster.ts';
import { clusterMessages } from '../../src/machines/cluster/cluster.messages.ts';
import type { ClusterEmitted, ClusterEvent, ComponentDescriptor } from '../../src/machines/shared/contract.ts';
import type { K8sObject } from '../../src/machines/shared/k8s.ts';
import type { DriverProfile } from '../../src/machines/drivers/types.ts';
import { descriptor as pvDescriptor } from '../../src/machines/pv-controller/index.ts';
import { descriptor as epDescriptor } from '../../src/machines/external-provisioner/index.ts';
import { descriptor as ksDescriptor } from '../../src/machines/kube-scheduler/index.ts';
import { descriptor as pvcpDescriptor } from '../../src/machines/pvc-protection-controller/index.ts';
import { descriptor as pvpDescriptor } from '../../src/machines/pv-protection-controller/index.ts';

export const DRIVER: DriverProfile = {
  id: 'cbs', name: 'com.tencent.cloud.csi.cbs', vendorVersion: 'v1', controllerCapabilities: ['CREATE_DELETE_VOLUME', 'PUBLISH_UNPUBLISH_VOLUME'],
  nodeCapabilities: ['STAGE_UNSTAGE_VOLUME'], attachRequired: true, topologyKeys: [], latency: {}, defaultFsType: 'ext4', volumeIdStyle: 'cbs-disk',
};

/** A stand-in CSI controller plugin: answers every RPC at once, CreateVolume with a disk id. */
export const standInPlugin = setup({
  types: { context: {} as { n: number }, events: {} as ClusterEvent, emitted: {} as ClusterEmitted },
  actions: {
    reply: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'csi.request') return;
      if (event.fault) { enqueue.emit({ type: 'csi.reply', requestId: event.requestId, code: event.fault.code, message: event.fault.message }); return; }
      const response: Record<string, unknown> =
        event.rpc === 'GetPluginInfo' ? { name: DRIVER.name, vendor_version: 'v1' }
          : event.rpc === 'CreateVolume' ? { volume: { volume_id: `disk-${context.n}`, capacity_bytes: (event.request.capacity_range as { required_bytes: number }).required_bytes } } : {};
      enqueue.assign({ n: context.n + (event.rpc === 'CreateVolume' ? 1 : 0) });
      enqueue.emit({ type: 'csi.reply', requestId: event.requestId, code: 'OK', response });
    }),
  },
}).createMachine({ id: 'plugin', context: { n: 1 }, initial: 'serving', states: { serving: { on: { 'csi.request': { actions: 'reply' } } } } });
const pluginDescriptor: ComponentDescriptor = { name: 'csi-plugin', machine: standInPlugin, source: 'csi-driver-controller', watches: [], messages: {} };

export const sc = (name: string, mode: 'Immediate' | 'WaitForFirstConsumer', reclaimPolicy = 'Delete'): K8sObject =>
  ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: DRIVER.name, reclaimPolicy, volumeBindingMode: mode, parameters: { diskType: 'CLOUD_PREMIUM', 'csi.storage.k8s.io/fstype': 'ext4' } });
export const pvc = (name: string, cls: string): K8sObject =>
  ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } }, storageClassName: cls }, status: { phase: 'Pending' } });
export const node = (name: string): K8sObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });

export function storageCluster(profile: '1.20' | '1.30', objects: K8sObject[], actions: ConstructorParameters<typeof Cluster>[0]['actions'] = [], csiFaults: CsiFault[] = [], apiFaults: ApiFault[] = [], driver: DriverProfile = DRIVER): Cluster {
  const stream = { pid: 1, tzOffsetMin: 0 };
  const base = { profile, driver, provisionerIdentity: `1672314114387-8081-${driver.name}` };
  return new Cluster({
    profile, seed: 7, epochUs: Date.UTC(2023, 0, 11, 6, 0, 0) * 1000, apiServerUrl: 'https://10.0.0.1:443',
    catalog: { ...clusterMessages, ...pvDescriptor.messages, ...epDescriptor.messages, ...ksDescriptor.messages },
    objects: [node('node-1'), node('node-2'), ...objects], actions, csiFaults, apiFaults,
    components: [
      { descriptor: pvDescriptor, input: { ...base, id: 'pv-controller', host: 'master' }, stream },
      // the API server adds the protection finalizers on create (admission); these controllers remove them
      { descriptor: pvcpDescriptor, input: { ...base, id: 'pvc-protection-controller', host: 'master' }, stream },
      { descriptor: pvpDescriptor, input: { ...base, id: 'pv-protection-controller', host: 'master' }, stream },
      { descriptor: ksDescriptor, input: { ...base, id: 'kube-scheduler', host: 'master' }, stream },
      { descriptor: epDescriptor, input: { ...base, id: 'external-provisioner', host: 'csi-controller' }, stream },
      { descriptor: pluginDescriptor, input: { ...base, id: 'csi-plugin', host: 'csi-controller' }, stream, serves: { endpoint: 'controller' } },
    ],
  });
}


/** log lines of one component, without the klog header */
export const logs = (c: Cluster, who?: string): string[] => c.steps.filter((s) => s.log && (!who || s.component === who)).map((s) => s.log!.replace(/^.*?\] /, ''));
