/**
 * The presenter window and its speaker window talk over a BroadcastChannel per scenario (same
 * browser, same origin): the presenter says where it is, the speaker window asks to move.
 */
export const presentChannel = (scenario: string): string => `csi-flows-present:${scenario}`;

export type PresentMessage =
  | { type: 'step'; step: number; total: number; k8s: string }
  | { type: 'goto'; step: number }
  | { type: 'hello' };

export function isPresentMessage(x: unknown): x is PresentMessage {
  if (!x || typeof x !== 'object') return false;
  const m = x as { type?: unknown; step?: unknown };
  if (m.type === 'hello') return true;
  return (m.type === 'step' || m.type === 'goto') && typeof m.step === 'number' && Number.isInteger(m.step) && m.step >= 1;
}
