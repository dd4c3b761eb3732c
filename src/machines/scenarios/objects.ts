/**
 * Builders for the objects scenarios hold. Plain data, as a cluster administrator would apply it with
 * kubectl. A driver is a DriverProfile or just the driver's name.
 */
import { isIPv4, KUBELET_NODE_CONDITIONS, type K8sObject } from '../shared/k8s.ts';
import type { DriverProfile } from '../drivers/types.ts';
import type { NodeSpec } from './types.ts';

export const GiB = 1024 ** 3;

/** A driver, as a profile or by name. */
export type DriverRef = DriverProfile | string | { name: string; attachRequired?: boolean; defaultFsType?: string };
const driverName = (d: DriverRef): string => (typeof d === 'string' ? d : d.name);

export function storageClass(name: string, driver: DriverRef, opts: {
  bindingMode?: 'Immediate' | 'WaitForFirstConsumer'; reclaimPolicy?: 'Delete' | 'Retain';
  parameters?: Record<string, string>; allowVolumeExpansion?: boolean; mountOptions?: string[];
} = {}): K8sObject {
  return {
    apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name },
    provisioner: driverName(driver),
    parameters: opts.parameters ?? {},
    reclaimPolicy: opts.reclaimPolicy ?? 'Delete',
    volumeBindingMode: opts.bindingMode ?? 'Immediate',
    allowVolumeExpansion: opts.allowVolumeExpansion ?? true,
    ...(opts.mountOptions ? { mountOptions: opts.mountOptions } : {}),
  };
}

/** A VolumeSnapshotClass of the driver (snapshot.storage.k8s.io/v1: driver and deletionPolicy at the top level). */
export function volumeSnapshotClass(name: string, driver: DriverRef, deletionPolicy: 'Delete' | 'Retain' = 'Delete', parameters?: Record<string, string>): K8sObject {
  return { apiVersion: 'snapshot.storage.k8s.io/v1', kind: 'VolumeSnapshotClass', metadata: { name }, driver: driverName(driver), ...(parameters ? { parameters } : {}), deletionPolicy } as unknown as K8sObject;
}

/** A dynamic VolumeSnapshot of a claim. */
export function volumeSnapshot(namespace: string, name: string, cls: string, claim: string): K8sObject {
  return { apiVersion: 'snapshot.storage.k8s.io/v1', kind: 'VolumeSnapshot', metadata: { name, namespace }, spec: { volumeSnapshotClassName: cls, source: { persistentVolumeClaimName: claim } } };
}

/** An Opaque Secret; `data` given as plain strings, stored base64 as the API server returns it. */
export function secret(namespace: string, name: string, data: Record<string, string>, uid?: string): K8sObject {
  const b64 = (v: string) => btoa(String.fromCharCode(...new TextEncoder().encode(v)));
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace, ...(uid ? { uid } : {}) }, type: 'Opaque', data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])) } as K8sObject;
}

export function csiDriver(driver: DriverRef): K8sObject {
  return {
    apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: driverName(driver) },
    spec: { attachRequired: typeof driver === 'string' ? true : driver.attachRequired ?? true, podInfoOnMount: false, volumeLifecycleModes: ['Persistent'] },
  };
}

/** The node's InternalIP: its own, its name when that is an IPv4 address, else one of 10.0.1.11 … by its place in the list. */
export const nodeInternalIP = (n: NodeSpec, index: number): string =>
  n.internalIP ?? (isIPv4(n.name) ? n.name : `10.0.${1 + Math.floor(index / 240)}.${11 + (index % 240)}`);

/** The Node object of the `index`th node of a scenario. */
export function node(spec: NodeSpec | string, index = 0): K8sObject {
  const n: NodeSpec = typeof spec === 'string' ? { name: spec } : spec;
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: {
      name: n.name, labels: { 'kubernetes.io/hostname': n.name, 'kubernetes.io/os': 'linux', ...n.labels },
      // the kubelet set it when the node registered, long before the scenario starts
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: {},
    status: {
      conditions: KUBELET_NODE_CONDITIONS.map((c) => ({ ...c })),
      addresses: [{ type: 'InternalIP', address: nodeInternalIP(n, index) }, { type: 'Hostname', address: n.hostname ?? n.name }],
    },
  };
}

export function pvc(namespace: string, name: string, sc: string, opts: {
  size?: string; accessModes?: string[]; uid?: string; dataSource?: Record<string, string>; volumeMode?: 'Filesystem' | 'Block';
} = {}): K8sObject {
  return {
    apiVersion: 'v1', kind: 'PersistentVolumeClaim',
    metadata: { name, namespace, ...(opts.uid ? { uid: opts.uid } : {}) },
    spec: {
      accessModes: opts.accessModes ?? ['ReadWriteOnce'], storageClassName: sc, volumeMode: opts.volumeMode ?? 'Filesystem',
      resources: { requests: { storage: opts.size ?? '10Gi' } },
      ...(opts.dataSource ? { dataSource: opts.dataSource } : {}),
    },
    status: { phase: 'Pending' },
  };
}

export function pod(namespace: string, name: string, claims: Array<{ volume: string; claim: string }>, opts: {
  nodeName?: string; uid?: string; labels?: Record<string, string>;
  /** the StatefulSet that owns the pod (its controller ownerReference) */
  ownerSet?: K8sObject;
  /** raw block claims: the container gets each as a device (volumeDevices, at /dev/xvd<a…>) instead of a mount */
  devices?: boolean;
  /** spec.securityContext.fsGroup: the group the kubelet gives the volumes' files */
  fsGroup?: number;
} = {}): K8sObject {
  const owner = opts.ownerSet;
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name, namespace, ...(opts.uid ? { uid: opts.uid } : {}),
      ...(opts.labels || owner ? { labels: { ...(owner ? owner.spec.selector.matchLabels : {}), ...opts.labels } } : {}),
      ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: owner.metadata.name, uid: owner.metadata.uid!, controller: true }] } : {}),
    },
    spec: {
      ...(opts.nodeName ? { nodeName: opts.nodeName } : {}),
      containers: [opts.devices
        ? { name: 'app', image: 'busybox:1.36', command: ['sleep', 'infinity'], volumeDevices: claims.map((c, i) => ({ name: c.volume, devicePath: `/dev/xvd${String.fromCharCode(97 + i)}` })) }
        : { name: 'app', image: 'nginx:1.25', volumeMounts: claims.map((c) => ({ name: c.volume, mountPath: `/data/${c.volume}` })) }],
      volumes: claims.map((c) => ({ name: c.volume, persistentVolumeClaim: { claimName: c.claim } })),
      terminationGracePeriodSeconds: 30,
      ...(opts.fsGroup !== undefined ? { securityContext: { fsGroup: opts.fsGroup } } : {}),
    },
    status: { phase: 'Pending' },
  };
}

export function statefulSet(namespace: string, name: string, opts: {
  replicas: number; sc: string; claimTemplate?: string; size?: string; policy?: 'OrderedReady' | 'Parallel';
}): K8sObject {
  const claim = opts.claimTemplate ?? 'data';
  // a fixed uid, so that pods existing at the start can carry their ownerReference
  const uid = `5e7f0000-0000-4000-8000-${name.replace(/[^a-f0-9]/g, '').padEnd(12, '0').slice(0, 12)}`;
  return {
    apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, namespace, uid },
    spec: {
      replicas: opts.replicas, serviceName: name, podManagementPolicy: opts.policy ?? 'OrderedReady',
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'app', image: 'nginx:1.25', volumeMounts: [{ name: claim, mountPath: '/data' }] }],
          terminationGracePeriodSeconds: 30,
        },
      },
      volumeClaimTemplates: [{
        metadata: { name: claim },
        spec: { accessModes: ['ReadWriteOnce'], storageClassName: opts.sc, resources: { requests: { storage: opts.size ?? '10Gi' } } },
      }],
    },
    status: { replicas: 0 },
  };
}

/** A PersistentVolume that exists before the scenario, bound to its claim (static or earlier provisioning). */
export function boundPv(name: string, driver: DriverRef, o: {
  volumeHandle: string; claimNamespace: string; claimName: string; claimUid: string; sc: string; size?: string;
  fsType?: string; volumeAttributes?: Record<string, string>;
}): K8sObject {
  return {
    apiVersion: 'v1', kind: 'PersistentVolume',
    metadata: { name, annotations: { 'pv.kubernetes.io/provisioned-by': driverName(driver) } },
    spec: {
      accessModes: ['ReadWriteOnce'], capacity: { storage: o.size ?? '10Gi' },
      claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: o.claimNamespace, name: o.claimName, uid: o.claimUid },
      csi: { driver: driverName(driver), volumeHandle: o.volumeHandle, fsType: o.fsType ?? (typeof driver === 'string' ? undefined : driver.defaultFsType) ?? 'ext4', volumeAttributes: o.volumeAttributes ?? {} },
      persistentVolumeReclaimPolicy: 'Delete', storageClassName: o.sc, volumeMode: 'Filesystem',
    },
    status: { phase: 'Bound' },
  };
}

/** The claim side of `boundPv`. */
export function boundPvc(namespace: string, name: string, uid: string, pvName: string, sc: string, driver: DriverRef, size = '10Gi'): K8sObject {
  return {
    apiVersion: 'v1', kind: 'PersistentVolumeClaim',
    metadata: {
      name, namespace, uid,
      annotations: {
        'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes',
        'volume.beta.kubernetes.io/storage-provisioner': driverName(driver),
      },
    },
    spec: { accessModes: ['ReadWriteOnce'], storageClassName: sc, volumeMode: 'Filesystem', volumeName: pvName, resources: { requests: { storage: size } } },
    status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: size } },
  };
}

/** Virtual microseconds from seconds, for readable scenario data. */
export const s = (seconds: number): number => Math.round(seconds * 1_000_000);
