/**
 * Log lines of kube-scheduler (-v=2).
 * upstream: pkg/scheduler/scheduler.go (1.20: klog.InfoS "Successfully bound pod to node" after
 * bind, under klog.V(2).Enabled()), pkg/scheduler/schedule_one.go (1.30), pkg/scheduler/factory.go
 * MakeDefaultErrorFunc (1.20) / schedule_one.go handleSchedulingFailure (1.30):
 * "Unable to schedule pod; no fit; waiting". file:line from real logs: scheduler.go:604 (EKS 2021,
 * ~1.20), schedule_one.go:304 (kind 1.30, kueue CI), factory.go:338 and schedule_one.go:987 (the
 * last two: versions not certain). v1.20.5 has "no fit" at factory.go:321 (read there; 338 is a later release's).
 */
import { defineMessages, defineSummaries } from '../shared/messages.ts';

const S = 'kube-scheduler' as const;

export const kubeSchedulerMessages = defineMessages({
  'kubeScheduler.boundPod': {
    // (placing a pod is the scheduler's own step, as its Scheduled Event is: the attach/detach controller attaches after it)
    source: S, stage: 'other', severity: 'I',
    summary: 'kube-scheduler binds pod {pod} to node {node} ({feasibleNodes} of {evaluatedNodes} nodes fit).',
    formats: {
      '1.20': { file: 'scheduler.go', line: 604, msg: 'Successfully bound pod to node', kv: 'pod={pod:q} node={node:q} evaluatedNodes={evaluatedNodes} feasibleNodes={feasibleNodes}', v: 2 },
      '1.30': { file: 'schedule_one.go', line: 304, msg: 'Successfully bound pod to node', kv: 'pod={pod:q} node={node:q} evaluatedNodes={evaluatedNodes} feasibleNodes={feasibleNodes}', v: 2 },
    },
  },
  'kubeScheduler.unschedulable': {
    source: S, stage: 'other', severity: 'I',
    summary: 'Pod {pod} fits no node yet: {err}',
    formats: {
      '1.20': { file: 'factory.go', line: 321, msg: 'Unable to schedule pod; no fit; waiting', kv: 'pod={pod:q} err={err:q}', v: 2 },
      '1.30': { file: 'schedule_one.go', line: 1049, msg: 'Unable to schedule pod; no fit; waiting', kv: 'pod={pod:q} err={err:q}', v: 2 },
    },
  },
});

/** One-sentence trace summaries of its API writes. */
export const kubeSchedulerSummaries = defineSummaries({
  'kubeScheduler.bindPod': 'kube-scheduler binds pod {pod} to node {node}.',
  'kubeScheduler.selectedNode': 'kube-scheduler picks node {node} for pod {pod} and writes it into claim {claim} (selected-node), so the volume is created where the pod will run.',
});
