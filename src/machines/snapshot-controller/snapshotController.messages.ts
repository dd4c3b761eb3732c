/**
 * Log lines of the snapshot-controller: none printed yet. Most of its lines on this path are -v=5 details of
 * pkg/common-controller, but three print at any verbosity and are left out: "createSnapshotContent: Creating content
 * for snapshot %s through the plugin ..." (snapshot_controller.go v4.0.0:633, v8.0.1:644), "Added protection finalizer
 * to persistent volume claim %s/%s" (:881 / :925), "checkandRemovePVCFinalizer[%s]: Remove Finalizer for PVC …"
 * (:960 / :1004). What it does shows as API writes and Events.
 */
import { defineMessages } from '../shared/messages.ts';

export const snapshotControllerMessages = defineMessages({});
