/**
 * The standard cluster every scenario runs on, as real deployments lay it out:
 * - kube-controller-manager (one process: PV controller, attach/detach controller, StatefulSet
 *   controller, node lifecycle controller, PVC and PV protection controllers) and kube-scheduler on
 *   the control plane;
 * - the CSI controller pod: external-provisioner, external-attacher, external-resizer,
 *   external-snapshotter sidecars next to the driver's controller plugin;
 * - on every node: the kubelet, and the CSI node pod (node-driver-registrar + node plugin).
 */
import type { ComponentSpec } from '../cluster/cluster.ts';
import type { ComponentDescriptor } from '../shared/contract.ts';
import type { LogStream } from '../shared/klog.ts';
import type { ProfileId } from '../shared/messages.ts';
import type { DriverProfile } from '../drivers/types.ts';
import type { ScenarioData } from './types.ts';
import { descriptor as pvController } from '../pv-controller/index.ts';
import { descriptor as attachDetachController } from '../attach-detach-controller/index.ts';
import { descriptor as nodeLifecycleController } from '../node-lifecycle-controller/index.ts';
import { descriptor as pvcProtectionController } from '../pvc-protection-controller/index.ts';
import { descriptor as pvProtectionController } from '../pv-protection-controller/index.ts';
import { descriptor as statefulSetController } from '../statefulset-controller/index.ts';
import { descriptor as kubeScheduler } from '../kube-scheduler/index.ts';
import { descriptor as externalProvisioner } from '../external-provisioner/index.ts';
import { descriptor as externalAttacher } from '../external-attacher/index.ts';
import { descriptor as externalResizer } from '../external-resizer/index.ts';
import { descriptor as externalSnapshotter } from '../external-snapshotter/index.ts';
import { controllerDescriptor as csiControllerPlugin, nodeDescriptor as csiNodePlugin } from '../csi-plugin/index.ts';
import { descriptor as kubelet } from '../kubelet/index.ts';
import { descriptor as nodeDriverRegistrar } from '../node-driver-registrar/index.ts';

export const CONTROL_PLANE_HOST = 'master-1';
export const CSI_CONTROLLER_HOST = 'csi-controller-0';

const UTC = 0;

/**
 * Inputs are one shared bag of facts about where a component runs; each machine reads the fields its
 * Input type names and ignores the rest.
 */
export function buildComponents(data: ScenarioData, driver: DriverProfile, profile: ProfileId, seed: number, epochUs: number): ComponentSpec[] {
  const host = data.hostTz.offsetMin;
  const specs: ComponentSpec[] = [];
  const add = (
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    d: ComponentDescriptor<any>, id: string, hostName: string, stream: LogStream, extra: Record<string, unknown> = {},
    more: Partial<ComponentSpec> = {},
  ): void => {
    const apiClient = data.apiClients?.[d.name];
    specs.push({
      descriptor: d, stream,
      input: {
        id, host: hostName, profile, driver, driverName: driver.name, seed: hashSeed(seed, id), tz: data.hostTz, epochUs,
        attachRequiredDrivers: driver.attachRequired ? [driver.name] : [],
        // kube-controller-manager and other control-plane processes have been up for a while
        uptimeAtStartUs: 3_000_000_000,
        provisionerIdentity: data.provisionerIdentity ?? `1672314114387-8081-${driver.name}`,
        heartbeat: data.heartbeats ?? true, ...extra, ...data.componentInputs?.[d.name],
      },
      ...(apiClient ? { apiClient } : {}),
      ...more,
    });
  };
  // kube-controller-manager: a static pod with the host's clock (seed 000 prints 14:58 local time, PID 1)
  const kcm: LogStream = { pid: 1, tzOffsetMin: host };
  add(pvController, 'pv-controller', CONTROL_PLANE_HOST, kcm);
  add(attachDetachController, 'attach-detach-controller', CONTROL_PLANE_HOST, kcm);
  add(statefulSetController, 'statefulset-controller', CONTROL_PLANE_HOST, kcm);
  add(nodeLifecycleController, 'node-lifecycle-controller', CONTROL_PLANE_HOST, kcm);
  add(pvcProtectionController, 'pvc-protection-controller', CONTROL_PLANE_HOST, kcm);
  add(pvProtectionController, 'pv-protection-controller', CONTROL_PLANE_HOST, kcm);
  add(kubeScheduler, 'kube-scheduler', CONTROL_PLANE_HOST, { pid: 1, tzOffsetMin: host });
  // the CSI controller pod: containers log in UTC (seed 000: 06:58 while the hosts say 14:58)
  const container: LogStream = { pid: 1, tzOffsetMin: UTC };
  add(externalProvisioner, 'external-provisioner', CSI_CONTROLLER_HOST, container);
  add(externalAttacher, 'external-attacher', CSI_CONTROLLER_HOST, container);
  add(externalResizer, 'external-resizer', CSI_CONTROLLER_HOST, container);
  add(externalSnapshotter, 'external-snapshotter', CSI_CONTROLLER_HOST, container);
  add(csiControllerPlugin, 'csi-controller-plugin', CSI_CONTROLLER_HOST, container, {
    volumes: (data.backend ?? []).map((b) => ({
      volumeId: b.volumeId, name: b.name, capacityBytes: b.capacityBytes, publishedNodeIds: b.publishedTo ?? [],
      ...(b.volumeContext ? { volumeContext: b.volumeContext } : {}),
    })),
  }, { serves: { endpoint: 'controller' } });
  data.nodes.forEach((n, i) => {
    const root = n.kubeletRoot ?? '/var/lib/kubelet';
    const pid = n.kubeletPid ?? 1000 + ((i * 7919) % 30000);
    const uptime = n.kubeletUptimeUs ?? 86_400_000_000 + i * 3_600_000_000;
    add(kubelet, `kubelet/${n.name}`, n.name, { pid, tzOffsetMin: host, journald: { host: n.hostname ?? n.name, ident: 'kubelet' } }, {
      nodeName: n.name, kubeletRoot: root, monotonic: { processStartUs: 0, uptimeAtStartUs: uptime },
      // spread periodic node status updates over the 10s period, as real kubelets started at different times do
      statusUpdateOffset: ((i * 3_700_000) % 10_000_000) + 1_234_567,
    });
    add(nodeDriverRegistrar, `node-driver-registrar/${n.name}`, n.name, container, { nodeName: n.name, kubeletRoot: root }, { serves: { endpoint: 'registrar', node: n.name } });
    const zone = n.labels?.['topology.kubernetes.io/zone'];
    add(csiNodePlugin, `csi-node-plugin/${n.name}`, n.name, container, { nodeName: n.name, nodeId: n.nodeId ?? n.name, ...(zone ? { zone } : {}) }, { serves: { endpoint: 'node', node: n.name } });
  });
  return specs;
}

function hashSeed(seed: number, id: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619) >>> 0;
  return h;
}
