/**
 * Log lines of the node lifecycle controller (kube-controller-manager), all at -v=2.
 * upstream, read at v1.20.5 and v1.30.1: pkg/controller/nodelifecycle/node_lifecycle_controller.go
 * (tryUpdateNodeHealth, processTaintBaseEviction) and pkg/controller/util/node/controller_utils.go
 * (RecordNodeStatusChange, MarkPodsNotReady). 1.30's lines carry the controller's logger name: the helpers in
 * controller_utils.go log through the logger of the context or the argument the controller passes them.
 */
import { defineMessages, defineSummaries } from '../shared/messages.ts';

const SRC = 'kube-controller-manager' as const;
const LOGGER = 'logger="node-lifecycle-controller"';

export const nodeLifecycleControllerMessages = defineMessages({
  'nodeLifecycleController.nodeNotUpdated': {
    source: SRC, stage: 'other', severity: 'I',
    summary: 'Node {node} has not posted its status for {duration}: the controller marks its {type} condition Unknown.',
    formats: {
      '1.20': { file: 'node_lifecycle_controller.go', line: 1123, text: "node {node} hasn't been updated for {duration}. Last {type} is: {condition}", v: 2 },
      '1.30': { file: 'node_lifecycle_controller.go', line: 958, msg: "Node hasn't been updated", kv: `${LOGGER} node={node:q} duration={duration:q} nodeConditionType={type:q} currentCondition={condition:q}`, v: 2 },
    },
  },
  'nodeLifecycleController.conditionNeverUpdated': {
    source: SRC, stage: 'other', severity: 'I',
    summary: 'Node {node} never reported its {type} condition: the controller adds it as Unknown ("Kubelet never posted node status.").',
    formats: {
      '1.20': { file: 'node_lifecycle_controller.go', line: 1113, text: 'Condition {type} of node {node} was never updated by kubelet', v: 2 },
      '1.30': { file: 'node_lifecycle_controller.go', line: 948, msg: 'Condition of node was never updated by kubelet', kv: `${LOGGER} nodeConditionType={type:q} node={node:q}`, v: 2 },
    },
  },
  'nodeLifecycleController.addingTaint': {
    source: SRC, stage: 'other', severity: 'I',
    summary: 'Node {node} is unresponsive: the controller queues it for the taint node.kubernetes.io/unreachable:NoExecute.',
    formats: {
      '1.20': { file: 'node_lifecycle_controller.go', line: 885, text: 'Node {node} is unresponsive as of {time}. Adding it to the Taint queue.', v: 2 },
      '1.30': { file: 'node_lifecycle_controller.go', line: 797, msg: 'Node is unresponsive. Adding it to the Taint queue', kv: `${LOGGER} node={node:q} timeStamp={time:q}`, v: 2 },
    },
  },
  'nodeLifecycleController.recordingStatusChange': {
    source: SRC, stage: 'other', severity: 'I',
    summary: 'Node {node} went from Ready to {status}: the controller records it as an Event on the node.',
    formats: {
      '1.20': { file: 'controller_utils.go', line: 185, text: 'Recording status change {status} event message for node {node}', v: 2 },
      '1.30': { file: 'controller_utils.go', line: 186, msg: 'Recording status change event message for node', kv: `${LOGGER} status={status:q} node={node:q}`, v: 2 },
    },
  },
  'nodeLifecycleController.markingPodsNotReady': {
    source: SRC, stage: 'other', severity: 'I',
    summary: 'The controller turns the Ready condition of every pod on node {node} to False (MarkPodsNotReady).',
    formats: {
      '1.20': { file: 'controller_utils.go', line: 122, text: 'Update ready status of pods on node [{node}]', v: 2 },
      '1.30': { file: 'controller_utils.go', line: 123, msg: 'Update ready status of pods on node', kv: `${LOGGER} node={node:q}`, v: 2 },
    },
  },
  'nodeLifecycleController.podNotReady': {
    source: SRC, stage: 'other', severity: 'I',
    summary: 'Pod {pod} on the unresponsive node is marked not Ready: Services stop sending it traffic; it keeps running there as far as the API knows.',
    formats: {
      '1.20': { file: 'controller_utils.go', line: 140, text: 'Updating ready status of pod {name} to false', v: 2 },
      '1.30': { file: 'controller_utils.go', line: 144, msg: 'Updating ready status of pod to false', kv: `${LOGGER} pod={pod:q}`, v: 2 },
    },
  },
});

/** One-sentence trace summaries of its API writes. */
export const nodeLifecycleControllerSummaries = defineSummaries({
  'nodeLifecycleController.readyUnknown': 'The node lifecycle controller marks node {node} Ready=Unknown: its kubelet stopped posting status.',
  'nodeLifecycleController.unreachableTaint': 'The node lifecycle controller taints node {node} node.kubernetes.io/unreachable:NoExecute.',
  'nodeLifecycleController.podReadyFalse': 'The node lifecycle controller sets pod {pod}\'s Ready condition to False: its node {node} is not ready.',
});
