/**
 * The catalog in Simplified Chinese (zh-CN), for /zh/: every component's *.messages.zh.ts merged, as
 * catalog.ts merges the English. Same ids, same {placeholders}: a step or an explanation renders its
 * Chinese text from the same arguments as its English one. test/i18n/catalog-zh.test.ts keeps the
 * two complete and in step.
 */
import type { MessageCatalogZh, SummaryCatalog } from './shared/messages.ts';
import { catalog, mergeById } from './catalog.ts';
import { COMPONENT_FOLDERS } from './registry.ts';
import { messagesZh as attach_detach_controllerM, summariesZh as attach_detach_controllerS } from './attach-detach-controller/attachDetachController.messages.zh.ts';
import { messagesZh as clusterM, summariesZh as clusterS } from './cluster/cluster.messages.zh.ts';
import { messagesZh as csi_pluginM, summariesZh as csi_pluginS } from './csi-plugin/csiPlugin.messages.zh.ts';
import { messagesZh as external_attacherM, summariesZh as external_attacherS } from './external-attacher/externalAttacher.messages.zh.ts';
import { messagesZh as external_provisionerM, summariesZh as external_provisionerS } from './external-provisioner/externalProvisioner.messages.zh.ts';
import { messagesZh as external_resizerM, summariesZh as external_resizerS } from './external-resizer/externalResizer.messages.zh.ts';
import { messagesZh as external_snapshotterM, summariesZh as external_snapshotterS } from './external-snapshotter/externalSnapshotter.messages.zh.ts';
import { messagesZh as kube_schedulerM, summariesZh as kube_schedulerS } from './kube-scheduler/kubeScheduler.messages.zh.ts';
import { messagesZh as kubeletM, summariesZh as kubeletS } from './kubelet/kubelet.messages.zh.ts';
import { messagesZh as node_driver_registrarM, summariesZh as node_driver_registrarS } from './node-driver-registrar/nodeDriverRegistrar.messages.zh.ts';
import { messagesZh as node_lifecycle_controllerM, summariesZh as node_lifecycle_controllerS } from './node-lifecycle-controller/nodeLifecycleController.messages.zh.ts';
import { messagesZh as pod_gc_controllerM, summariesZh as pod_gc_controllerS } from './pod-gc-controller/podGcController.messages.zh.ts';
import { messagesZh as taint_eviction_controllerM, summariesZh as taint_eviction_controllerS } from './taint-eviction-controller/taintEvictionController.messages.zh.ts';
import { messagesZh as pv_controllerM, summariesZh as pv_controllerS } from './pv-controller/pvController.messages.zh.ts';
import { messagesZh as pv_protection_controllerM, summariesZh as pv_protection_controllerS } from './pv-protection-controller/pvProtectionController.messages.zh.ts';
import { messagesZh as expand_controllerM, summariesZh as expand_controllerS } from './expand-controller/expandController.messages.zh.ts';
import { messagesZh as pvc_protection_controllerM, summariesZh as pvc_protection_controllerS } from './pvc-protection-controller/pvcProtectionController.messages.zh.ts';
import { messagesZh as snapshot_controllerM, summariesZh as snapshot_controllerS } from './snapshot-controller/snapshotController.messages.zh.ts';
import { messagesZh as statefulset_controllerM, summariesZh as statefulset_controllerS } from './statefulset-controller/statefulSetController.messages.zh.ts';

export const CATALOG_ZH: MessageCatalogZh = mergeById([attach_detach_controllerM, clusterM, expand_controllerM, csi_pluginM, external_attacherM, external_provisionerM, external_resizerM, external_snapshotterM, kube_schedulerM, kubeletM, node_driver_registrarM, node_lifecycle_controllerM, pod_gc_controllerM, taint_eviction_controllerM, pv_controllerM, pv_protection_controllerM, pvc_protection_controllerM, snapshot_controllerM, statefulset_controllerM], 'zh-CN message');
export const SUMMARIES_ZH: SummaryCatalog = mergeById([attach_detach_controllerS, clusterS, expand_controllerS, csi_pluginS, external_attacherS, external_provisionerS, external_resizerS, external_snapshotterS, kube_schedulerS, kubeletS, node_driver_registrarS, node_lifecycle_controllerS, pod_gc_controllerS, taint_eviction_controllerS, pv_controllerS, pv_protection_controllerS, pvc_protection_controllerS, snapshot_controllerS, statefulset_controllerS], 'zh-CN summary');
/** the English step summaries, all components' (the ids SUMMARIES_ZH must cover) */
export const ALL_SUMMARIES: SummaryCatalog = mergeById(COMPONENT_FOLDERS.map((f) => (f.summaries ?? {}) as SummaryCatalog), 'step summary');

/** The placeholders of a template, each once, as name or name:q, in order of first use. */
export function placeholdersOf(tpl: string): string[] {
  return [...new Set([...tpl.matchAll(/\{([A-Za-z0-9_]+(?::[qp])?)\}/g)].map((m) => m[1]!))];
}

const same = (a: string, b: string): boolean => placeholdersOf(a).sort().join() === placeholdersOf(b).sort().join();

/** Texts whose placeholders differ from the English ("id.field: en [..] zh [..]"). */
export function zhProblems(): string[] {
  const out: string[] = [];
  for (const [id, zh] of Object.entries(CATALOG_ZH)) {
    const en = catalog[id];
    if (!en) continue;
    for (const f of ['summary', 'explain', 'cause', 'next'] as const) {
      const e = en[f]; const z = zh[f];
      if (e && z && !same(e, z)) out.push(`${id}.${f}: en [${placeholdersOf(e)}] zh [${placeholdersOf(z)}]`);
    }
    // a summary variant the English has must be said in Chinese too, with the same placeholders
    for (const [name, e] of Object.entries(en.variants ?? {})) {
      const z = zh.variants?.[name];
      if (z === undefined) out.push(`${id}.variants.${name}: no Chinese text`);
      else if (!same(e, z)) out.push(`${id}.variants.${name}: en [${placeholdersOf(e)}] zh [${placeholdersOf(z)}]`);
    }
    for (const name of Object.keys(zh.variants ?? {})) if (!en.variants?.[name]) out.push(`${id}.variants.${name}: the English has no such variant`);
  }
  for (const [id, z] of Object.entries(SUMMARIES_ZH)) {
    const e = ALL_SUMMARIES[id];
    if (e && !same(e, z)) out.push(`${id}: en [${placeholdersOf(e)}] zh [${placeholdersOf(z)}]`);
  }
  return out;
}
