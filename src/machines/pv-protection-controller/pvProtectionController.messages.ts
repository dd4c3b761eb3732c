/** Text of the PV protection controller (kube-controller-manager). */
import { defineMessages, defineSummaries } from '../shared/messages.ts';

/** Its lines are V(4): not printed at kube-controller-manager's usual -v=2; the trace shows its writes. */
export const pvProtectionControllerMessages = defineMessages({});

/** One-sentence trace summaries of its API writes. */
export const pvProtectionControllerSummaries = defineSummaries({
  'pvProtectionController.removeFinalizer': 'The PV protection controller removes {finalizer} from PersistentVolume {pv}: it is no longer bound.',
});
