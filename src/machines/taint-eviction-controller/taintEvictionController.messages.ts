/**
 * Log lines of the taint eviction controller (kube-controller-manager).
 * 1.30: pkg/controller/tainteviction/taint_eviction.go, read in a snapshot of upstream at the
 * 1.30/1.31 boundary whose line numbers match a v1.30.12 kube-controller-manager log
 * (taint_eviction.go:285/291/359). "Deleting pod" carries no logger key: a real log of a later release
 * prints it without one (the timed worker's context does not carry the controller's logger).
 * 1.20: the NoExecuteTaintManager of the node lifecycle controller,
 * pkg/controller/nodelifecycle/scheduler/taint_manager.go, read in a 1.18-era copy (k8s.io/klog v1):
 * lines 106 and 352 there; 1.20 is assumed to keep them.
 */
import { defineMessages, defineSummaries } from '../shared/messages.ts';

const SRC = 'kube-controller-manager' as const;
const LOGGER = 'logger="taint-eviction-controller"';

export const taintEvictionControllerMessages = defineMessages({
  'taintEvictionController.notAllTaintsTolerated': {
    source: SRC, stage: 'other', severity: 'I',
    summary: 'Pod {pod} does not tolerate a NoExecute taint of node {node}: the controller deletes it at once.',
    explain: 'A NoExecute taint that the pod has no toleration for: the pod is evicted now, not after a toleration period.',
    formats: {
      '1.20': { file: 'taint_manager.go', line: 352, text: 'Not all taints are tolerated after update for Pod {pod} on {node}', v: 2 },
      '1.30': { file: 'taint_eviction.go', line: 471, msg: 'Not all taints are tolerated after update for pod on node', kv: `${LOGGER} pod={pod:q} node={node:q}`, v: 2 },
    },
  },
  'taintEvictionController.deletingPod': {
    source: SRC, stage: 'other', severity: 'I',
    summary: 'The taint eviction controller deletes pod {pod}: its node has a NoExecute taint the pod does not tolerate (any more).',
    explain: 'A taint-based eviction: the pod is deleted gracefully, so on a node whose kubelet is down it stays Terminating.',
    formats: {
      '1.20': { file: 'taint_manager.go', line: 106, text: 'NoExecuteTaintManager is deleting Pod: {pod}' },
      '1.30': { file: 'taint_eviction.go', line: 113, msg: 'Deleting pod', kv: 'controller="taint-eviction-controller" pod={pod:q}' },
    },
  },
});

/** One-sentence trace summaries of its API writes. */
export const taintEvictionControllerSummaries = defineSummaries({
  'taintEvictionController.disruptionTarget': 'The taint eviction controller adds the condition DisruptionTarget (DeletionByTaintManager) to pod {pod}.',
  'taintEvictionController.deletePod': 'The taint eviction controller deletes pod {pod} (gracefully: its kubelet is to stop the containers).',
});
