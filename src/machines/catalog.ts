/**
 * The one log catalog: every component's message definitions, merged. The cluster renders log lines
 * from it, and the log explainer reads it to recognise real lines, so the two cannot drift.
 */
import type { MessageCatalog } from './shared/messages.ts';
import { clusterMessages } from './cluster/cluster.messages.ts';
import { COMPONENT_MESSAGES } from './registry.ts';

const parts: MessageCatalog[] = [clusterMessages, ...COMPONENT_MESSAGES];

function merge(all: MessageCatalog[]): MessageCatalog {
  const out: MessageCatalog = {};
  for (const part of all) {
    for (const [id, def] of Object.entries(part)) {
      if (out[id]) throw new Error(`log message id "${id}" is defined twice`);
      out[id] = def;
    }
  }
  return out;
}

export const catalog: MessageCatalog = merge(parts);
