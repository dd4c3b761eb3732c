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
import { COMPONENTS } from '../registry.ts';
import { nodeInternalIP } from './objects.ts';

export const CONTROL_PLANE_HOST = 'master-1';
export const CSI_CONTROLLER_HOST = 'csi-controller-0';
/** the snapshot-controller's own pod (a Deployment in kube-system, one per cluster) */
export const SNAPSHOT_CONTROLLER_HOST = 'snapshot-controller-0';

const UTC = 0;

/**
 * Inputs are one shared bag of facts about where a component runs; each machine reads the fields its
 * Input type names and ignores the rest.
 */
/** external-provisioner's identity when a scenario names none (a file cannot: scenarioFile.ts). */
export const defaultProvisionerIdentity = (driverName: string): string => `1672314114387-8081-${driverName}`;

export function buildComponents(data: ScenarioData, driver: DriverProfile, profile: ProfileId, seed: number, epochUs: number): ComponentSpec[] {
  const host = data.hostTz.offsetMin;
  const specs: ComponentSpec[] = [];
  const add = (
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    d: ComponentDescriptor<any>, id: string, hostName: string, stream: LogStream, extra: Record<string, unknown> = {},
    more: Partial<ComponentSpec> = {},
  ): void => {
    const apiClient = data.apiClients?.[d.name];
    const startAt = data.startAt?.[id] ?? data.startAt?.[d.name];
    specs.push({
      descriptor: d, stream,
      input: {
        id, host: hostName, profile, driver, driverName: driver.name, seed: hashSeed(seed, id), tz: data.hostTz, epochUs,
        attachRequiredDrivers: driver.attachRequired ? [driver.name] : [],
        // kube-controller-manager and other control-plane processes have been up for a while
        uptimeAtStartUs: 3_000_000_000,
        provisionerIdentity: data.provisionerIdentity ?? defaultProvisionerIdentity(driver.name),
        heartbeat: data.heartbeats ?? true, ...extra, ...data.componentInputs?.[d.name],
      },
      ...(apiClient ? { apiClient } : {}),
      ...(startAt !== undefined ? { startAt } : {}),
      ...more,
    });
  };
  // kube-controller-manager: a static pod with the host's clock (seed 000 prints 14:58 local time, PID 1)
  const kcm: LogStream = { pid: 1, tzOffsetMin: host };
  // the CSI controller pod: containers log in UTC (seed 000: 06:58 while the hosts say 14:58)
  const container: LogStream = { pid: 1, tzOffsetMin: UTC };
  for (const name of data.without ?? []) {
    if (!COMPONENTS.some((c) => c.descriptor.name === name)) throw new Error(`without: unknown component "${name}" (known: ${COMPONENTS.map((c) => c.descriptor.name).join(', ')})`);
  }
  for (const key of Object.keys(data.startAt ?? {})) {
    const name = key.split('/')[0]!;
    if (!COMPONENTS.some((c) => c.descriptor.name === name)) throw new Error(`startAt: unknown component "${key}" (known: ${COMPONENTS.map((c) => c.descriptor.name).join(', ')}, or one of them followed by /<node>)`);
  }
  const deployed = COMPONENTS.filter((c) => !data.without?.includes(c.descriptor.name));
  for (const { descriptor: d, placement } of deployed) {
    if (placement === 'kube-controller-manager') add(d, d.name, CONTROL_PLANE_HOST, kcm);
    else if (placement === 'kube-scheduler') add(d, d.name, CONTROL_PLANE_HOST, { pid: 1, tzOffsetMin: host });
    else if (placement === 'csi-controller-pod' && d.name === 'csi-controller-plugin') {
      add(d, d.name, CSI_CONTROLLER_HOST, container, {
        volumes: (data.backend ?? []).map((b) => ({
          volumeId: b.volumeId, name: b.name, capacityBytes: b.capacityBytes, publishedNodeIds: b.publishedTo ?? [],
          ...(b.volumeContext ? { volumeContext: b.volumeContext } : {}),
        })),
      }, { serves: { endpoint: 'controller' } });
    } else if (placement === 'csi-controller-pod') add(d, d.name, CSI_CONTROLLER_HOST, container);
    else if (placement === 'snapshot-controller-pod') add(d, d.name, SNAPSHOT_CONTROLLER_HOST, container);
  }
  const onNodes = deployed.filter((c) => c.placement === 'node').map((c) => c.descriptor);
  data.nodes.forEach((n, i) => {
    const root = n.kubeletRoot ?? '/var/lib/kubelet';
    for (const d of onNodes) {
      const id = `${d.name}/${n.name}`;
      if (d.name === 'kubelet') {
        const pid = n.kubeletPid ?? 1000 + ((i * 7919) % 30000);
        const uptime = n.kubeletUptimeUs ?? 86_400_000_000 + i * 3_600_000_000;
        add(d, id, n.name, { pid, tzOffsetMin: host, journald: { host: n.hostname ?? n.name, ident: 'kubelet' } }, {
          nodeName: n.name, nodeIP: nodeInternalIP(n, i), kubeletRoot: root, monotonic: { processStartUs: 0, uptimeAtStartUs: uptime },
          // spread periodic node status updates over the 10s period, as real kubelets started at different times do
          statusUpdateOffset: n.nodeStatusOffsetUs ?? ((i * 3_700_000) % 10_000_000) + 1_234_567,
        });
      } else if (d.name === 'node-driver-registrar') {
        add(d, id, n.name, container, { nodeName: n.name, kubeletRoot: root }, { serves: { endpoint: 'registrar', node: n.name } });
      } else if (d.name === 'csi-node-plugin') {
        const zone = n.labels?.['topology.kubernetes.io/zone'] ?? driver.instanceZone;
        add(d, id, n.name, container, { nodeName: n.name, nodeId: n.nodeId ?? n.name, ...(zone ? { zone } : {}) }, { serves: { endpoint: 'node', node: n.name } });
      } else add(d, id, n.name, container, { nodeName: n.name });
    }
  });
  return specs;
}

function hashSeed(seed: number, id: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619) >>> 0;
  return h;
}
