/**
 * The one log catalog: every component's message definitions, merged. The cluster renders log lines
 * from it, and the log explainer reads it to recognise real lines, so the two cannot drift.
 */
import type { MessageCatalog } from './shared/messages.ts';
import { clusterMessages } from './cluster/cluster.messages.ts';
import { COMPONENT_MESSAGES } from './registry.ts';

const parts: MessageCatalog[] = [clusterMessages, ...COMPONENT_MESSAGES];

/** Parts keyed by id merged into one table; an id in two parts is an error (`what` names the kind of id). */
export function mergeById<T>(all: ReadonlyArray<Readonly<Record<string, T>>>, what: string): Record<string, T> {
  const out: Record<string, T> = {};
  for (const part of all) {
    for (const [id, def] of Object.entries(part)) {
      if (id in out) throw new Error(`${what} id "${id}" is defined twice`);
      out[id] = def;
    }
  }
  return out;
}

export const catalog: MessageCatalog = mergeById(parts, 'log message');
