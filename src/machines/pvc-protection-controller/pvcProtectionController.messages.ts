/** Text of the PVC protection controller (kube-controller-manager). */
import { defineMessages, defineSummaries } from '../shared/messages.ts';

/** Its lines are V(4): not printed at kube-controller-manager's usual -v=2; the trace shows its writes. */
export const pvcProtectionControllerMessages = defineMessages({});

/** One-sentence trace summaries of its API writes. */
export const pvcProtectionControllerSummaries = defineSummaries({
  'pvcProtectionController.removeFinalizer': 'The PVC protection controller removes {finalizer} from claim {claim}: no pod uses it any more, so it can be deleted.',
});
