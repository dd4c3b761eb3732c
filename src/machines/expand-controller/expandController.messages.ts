/** Text of the expand controller (kube-controller-manager). */
import { defineMessages } from '../shared/messages.ts';

/** Its own Info line is left out (see the machine); the trace shows its Event. */
export const expandControllerMessages = defineMessages({});
