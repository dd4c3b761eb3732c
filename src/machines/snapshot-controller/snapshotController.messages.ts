/**
 * Log lines of the snapshot-controller: none printed. Its lines on this path are -v=5 details of
 * pkg/common-controller (left out); what it does shows as API writes and Events.
 */
import { defineMessages } from '../shared/messages.ts';

export const snapshotControllerMessages = defineMessages({});
