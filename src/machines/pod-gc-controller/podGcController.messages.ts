/**
 * Log lines of the pod garbage collector (kube-controller-manager).
 * upstream: pkg/controller/podgc/gc_controller.go, read in a snapshot at the 1.30/1.31 boundary whose
 * line numbers match a v1.30.12 kube-controller-manager log (gc_controller.go:101 "Starting GC
 * controller" logger="pod-garbage-collector-controller"). 1.20 has no gcTerminating: no line.
 */
import { defineMessages, defineSummaries } from '../shared/messages.ts';

export const podGcControllerMessages = defineMessages({
  'podGcController.forceDeletingPod': {
    source: 'kube-controller-manager', stage: 'other', severity: 'I',
    summary: 'The pod garbage collector force-deletes pod {pod}: it is terminating on a node that is not Ready and is tainted out of service, whose kubelet will never finish it.',
    explain: 'PodGC deletes a pod with grace period 0 (after marking it Failed): the pod object goes without its kubelet confirming that the containers stopped. On an out-of-service node that is what lets its volumes be detached and a replacement start.',
    formats: {
      '1.30': { file: 'gc_controller.go', line: 344, msg: 'PodGC is force deleting Pod', kv: 'logger="pod-garbage-collector-controller" pod={pod:q}' },
    },
  },
});

/** One-sentence trace summaries of its API writes. */
export const podGcControllerSummaries = defineSummaries({
  'podGcController.markFailed': 'The pod garbage collector marks pod {pod} Failed before deleting it.',
  'podGcController.forceDelete': 'The pod garbage collector deletes pod {pod} with grace period 0: the object goes now.',
});
