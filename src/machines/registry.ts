/**
 * The one list of components: each component folder's public module, with where the standard
 * cluster runs it. The log catalog (catalog.ts), the standard topology (scenarios/topology.ts) and
 * the component pages (view/components.ts) all read it, so a new component is added here once.
 * The order is the topology's: components are started, and handle simultaneous events, in it.
 */
import type { ComponentDescriptor } from './shared/contract.ts';
import type { MessageCatalog } from './shared/messages.ts';
import * as pvController from './pv-controller/index.ts';
import * as attachDetachController from './attach-detach-controller/index.ts';
import * as statefulSetController from './statefulset-controller/index.ts';
import * as nodeLifecycleController from './node-lifecycle-controller/index.ts';
import * as taintEvictionController from './taint-eviction-controller/index.ts';
import * as podGcController from './pod-gc-controller/index.ts';
import * as pvcProtectionController from './pvc-protection-controller/index.ts';
import * as expandController from './expand-controller/index.ts';
import * as pvProtectionController from './pv-protection-controller/index.ts';
import * as kubeScheduler from './kube-scheduler/index.ts';
import * as externalProvisioner from './external-provisioner/index.ts';
import * as externalAttacher from './external-attacher/index.ts';
import * as externalResizer from './external-resizer/index.ts';
import * as externalSnapshotter from './external-snapshotter/index.ts';
import * as snapshotController from './snapshot-controller/index.ts';
import * as csiPlugin from './csi-plugin/index.ts';
import * as kubelet from './kubelet/index.ts';
import * as nodeDriverRegistrar from './node-driver-registrar/index.ts';

/**
 * Where the standard cluster runs a component: in kube-controller-manager or kube-scheduler on the
 * control plane, in the CSI controller pod, or on every node.
 */
export type Placement = 'kube-controller-manager' | 'kube-scheduler' | 'csi-controller-pod' | 'node' | 'snapshot-controller-pod';

export interface RegisteredComponent {
  /** the folder's public module (index.ts): its descriptor(s), messages and the lifecycle machines it exports */
  folder: Record<string, unknown>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  descriptor: ComponentDescriptor<any>;
  placement: Placement;
  /** the id prefix of its log messages ("kubelet" in kubelet.mountVolumeStarted) */
  messagePrefix: string;
  /** why a scenario cannot restart it (restart: <component>); absent when it can */
  notRestartable?: string;
}

/** Every component, in topology order. The CSI plugin folder gives two components (controller and node plugin). */
export const COMPONENTS: readonly RegisteredComponent[] = [
  { folder: pvController, descriptor: pvController.descriptor, messagePrefix: 'pvController', placement: 'kube-controller-manager' },
  { folder: attachDetachController, descriptor: attachDetachController.descriptor, messagePrefix: 'attachDetachController', placement: 'kube-controller-manager' },
  { folder: statefulSetController, descriptor: statefulSetController.descriptor, messagePrefix: 'statefulSetController', placement: 'kube-controller-manager' },
  { folder: nodeLifecycleController, descriptor: nodeLifecycleController.descriptor, messagePrefix: 'nodeLifecycleController', placement: 'kube-controller-manager' },
  { folder: taintEvictionController, descriptor: taintEvictionController.descriptor, messagePrefix: 'taintEvictionController', placement: 'kube-controller-manager' },
  { folder: podGcController, descriptor: podGcController.descriptor, messagePrefix: 'podGcController', placement: 'kube-controller-manager' },
  { folder: pvcProtectionController, descriptor: pvcProtectionController.descriptor, messagePrefix: 'pvcProtectionController', placement: 'kube-controller-manager' },
  { folder: pvProtectionController, descriptor: pvProtectionController.descriptor, messagePrefix: 'pvProtectionController', placement: 'kube-controller-manager' },
  { folder: expandController, descriptor: expandController.descriptor, messagePrefix: 'expandController', placement: 'kube-controller-manager' },
  { folder: kubeScheduler, descriptor: kubeScheduler.descriptor, messagePrefix: 'kubeScheduler', placement: 'kube-scheduler' },
  { folder: externalProvisioner, descriptor: externalProvisioner.descriptor, messagePrefix: 'externalProvisioner', placement: 'csi-controller-pod' },
  { folder: externalAttacher, descriptor: externalAttacher.descriptor, messagePrefix: 'externalAttacher', placement: 'csi-controller-pod' },
  { folder: externalResizer, descriptor: externalResizer.descriptor, messagePrefix: 'externalResizer', placement: 'csi-controller-pod' },
  // before the sidecar, whose claim and volume informers it took over (they are delivered in this order)
  { folder: snapshotController, descriptor: snapshotController.descriptor, messagePrefix: 'snapshotController', placement: 'snapshot-controller-pod' },
  { folder: externalSnapshotter, descriptor: externalSnapshotter.descriptor, messagePrefix: 'externalSnapshotter', placement: 'csi-controller-pod' },
  {
    folder: csiPlugin, descriptor: csiPlugin.controllerDescriptor, messagePrefix: 'csiControllerPlugin', placement: 'csi-controller-pod',
    notRestartable: 'restarting the CSI controller plugin is not modelled: its state stands for the storage backend, which survives a restart',
  },
  { folder: kubelet, descriptor: kubelet.descriptor, messagePrefix: 'kubelet', placement: 'node' },
  { folder: nodeDriverRegistrar, descriptor: nodeDriverRegistrar.descriptor, messagePrefix: 'nodeDriverRegistrar', placement: 'node' },
  {
    folder: csiPlugin, descriptor: csiPlugin.nodeDescriptor, messagePrefix: 'csiNodePlugin', placement: 'node',
    notRestartable: 'restarting the CSI node plugin is not modelled: a real one finds its staged volumes in the host\'s mount table, which is left out',
  },
];

/** Each folder once, in registry order. */
export const COMPONENT_FOLDERS: ReadonlyArray<Record<string, unknown>> = [...new Set(COMPONENTS.map((c) => c.folder))];

/** The message catalogs of the component folders, in registry order (catalog.ts adds the cluster's own). */
export const COMPONENT_MESSAGES: readonly MessageCatalog[] = COMPONENT_FOLDERS.map((f) => f.messages as MessageCatalog);
