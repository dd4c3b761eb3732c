/**
 * The one log catalog: every component's message definitions, merged. The cluster renders log lines
 * from it, and the log explainer reads it to recognise real lines, so the two cannot drift.
 */
import type { MessageCatalog } from './shared/messages.ts';
import { clusterMessages } from './cluster/cluster.messages.ts';
import { messages as pvController } from './pv-controller/index.ts';
import { messages as attachDetachController } from './attach-detach-controller/index.ts';
import { messages as nodeLifecycleController } from './node-lifecycle-controller/index.ts';
import { messages as statefulSetController } from './statefulset-controller/index.ts';
import { messages as kubeScheduler } from './kube-scheduler/index.ts';
import { messages as externalProvisioner } from './external-provisioner/index.ts';
import { messages as externalAttacher } from './external-attacher/index.ts';
import { messages as externalResizer } from './external-resizer/index.ts';
import { messages as externalSnapshotter } from './external-snapshotter/index.ts';
import { messages as csiPlugin } from './csi-plugin/index.ts';
import { messages as kubelet } from './kubelet/index.ts';
import { messages as nodeDriverRegistrar } from './node-driver-registrar/index.ts';
import { messages as pvcProtectionController } from './pvc-protection-controller/index.ts';
import { messages as pvProtectionController } from './pv-protection-controller/index.ts';

const parts: MessageCatalog[] = [
  clusterMessages, pvController, attachDetachController, nodeLifecycleController, statefulSetController, kubeScheduler,
  externalProvisioner, externalAttacher, externalResizer, externalSnapshotter, csiPlugin, kubelet, nodeDriverRegistrar,
  pvcProtectionController, pvProtectionController,
];

function merge(all: MessageCatalog[]): MessageCatalog {
  const out: MessageCatalog = {};
  for (const part of all) {
    for (const [id, def] of Object.entries(part)) {
      if (out[id]) throw new Error(`log message id "${id}" is defined twice`);
      out[id] = def;
    }
  }
  return out;
}

export const catalog: MessageCatalog = merge(parts);
