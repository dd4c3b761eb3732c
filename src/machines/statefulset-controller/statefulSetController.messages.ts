/**
 * Log lines of the StatefulSet controller. Upstream (pkg/controller/statefulset) logs only at -v=4 and
 * above on the create path ("Syncing StatefulSet", "Finished syncing statefulset"); at the usual -v=2
 * of kube-controller-manager nothing is printed but the Events it records (SuccessfulCreate,
 * FailedCreate), which the cluster logs through the event broadcaster. So the catalog is empty on
 * purpose: no line is invented.
 */
import { defineMessages } from '../shared/messages.ts';

export const statefulSetControllerMessages = defineMessages({});
