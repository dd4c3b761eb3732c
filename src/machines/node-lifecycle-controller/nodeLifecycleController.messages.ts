/**
 * Log lines of the node lifecycle controller (kube-controller-manager).
 * upstream: pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeHealth,
 * processTaintBaseEviction), pkg/controller/util/node/controller_utils.go (RecordNodeStatusChange).
 * Wording recalled from 1.20/master-era source, NOT re-read here; line numbers are estimates.
 */
import { defineMessages, defineSummaries } from '../shared/messages.ts';

const SRC = 'kube-controller-manager' as const;

export const nodeLifecycleControllerMessages = defineMessages({
  'nodeLifecycleController.nodeNotUpdated': {
    source: SRC, stage: 'other', severity: 'I',
    summary: 'Node {node} has not posted its status for {duration}: the controller marks its Ready condition Unknown.',
    formats: {
      '1.20': { file: 'node_lifecycle_controller.go', line: 1243, text: "node {node} hasn't been updated for {duration}. Last Ready is: {condition}", v: 2 },
      '1.30': { file: 'node_lifecycle_controller.go', line: 958, msg: "Node hasn't been updated", kv: 'logger="node-lifecycle-controller" node={node:q} duration={duration:q} nodeConditionType="Ready" currentCondition={condition:q}', v: 2 },
    },
  },
  'nodeLifecycleController.addingTaint': {
    source: SRC, stage: 'other', severity: 'I',
    summary: 'Node {node} is unresponsive: the controller taints it node.kubernetes.io/unreachable:NoExecute.',
    formats: {
      '1.20': { file: 'node_lifecycle_controller.go', line: 1012, text: 'Node {node} is unresponsive as of {time}. Adding it to the Taint queue.', v: 2 },
      '1.30': { file: 'node_lifecycle_controller.go', line: 797, msg: 'Node is unresponsive. Adding it to the Taint queue', kv: 'logger="node-lifecycle-controller" node={node:q} timeStamp={time:q}', v: 2 },
    },
  },
});

/** One-sentence trace summaries of its API writes. */
export const nodeLifecycleControllerSummaries = defineSummaries({
  'nodeLifecycleController.readyUnknown': 'The node lifecycle controller marks node {node} Ready=Unknown: its kubelet stopped posting status.',
  'nodeLifecycleController.unreachableTaint': 'The node lifecycle controller taints node {node} node.kubernetes.io/unreachable:NoExecute.',
});
