/**
 * Sending an event a machine cannot take is silently ignored by XState. For tests and tools that drive
 * a machine by hand, `sendChecked` says so instead, in one clear sentence.
 */
import type { AnyActorRef } from 'xstate';

export class EventNotAcceptedError extends Error {
  override name = 'EventNotAcceptedError';
}

export function sendChecked(actor: AnyActorRef, event: { type: string }): void {
  const snap = actor.getSnapshot() as { value?: unknown; status?: string; can?: (e: unknown) => boolean };
  if (snap.status !== 'active') {
    throw new EventNotAcceptedError(`${actor.id} is ${snap.status ?? 'not running'}: it cannot take "${event.type}"`);
  }
  if (snap.can && !snap.can(event)) {
    throw new EventNotAcceptedError(`${actor.id} in state ${JSON.stringify(snap.value)} cannot take "${event.type}"`);
  }
  actor.send(event);
}
