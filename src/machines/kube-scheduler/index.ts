import type { ComponentDescriptor } from '../shared/contract.ts';
import { kubeSchedulerMachine, type KubeSchedulerInput } from './kubeScheduler.machine.ts';
import { kubeSchedulerMessages, kubeSchedulerSummaries } from './kubeScheduler.messages.ts';

export { kubeSchedulerMachine, kubeSchedulerMessages as messages, kubeSchedulerSummaries as summaries };
export type { KubeSchedulerInput, KubeSchedulerContext } from './kubeScheduler.machine.ts';

/** kube-scheduler on the control plane (default-scheduler). */
export const descriptor: ComponentDescriptor<KubeSchedulerInput> = {
  name: 'kube-scheduler',
  machine: kubeSchedulerMachine,
  source: 'kube-scheduler',
  watches: ['Pod', 'Node', 'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass'],
  messages: kubeSchedulerMessages,
  // cmd/kube-scheduler/app/server.go only StartRecordingToSink (v1.20.5 :148, v1.30 :176): its Events are never logged
  eventLogV: { '1.20': null, '1.30': null },
};
