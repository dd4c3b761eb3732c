/**
 * The embed's postMessage API: the player tells its parent page each step (csi-flows:step) and obeys
 * csi-flows:goto, :play, :pause and :whatif from it, from the origins ?parentOrigin= allows. Loaded
 * only in a frame (or when ?parentOrigin= is given, to report a bad one): a chapter ships none of it.
 */
import { parentOrigins } from './model.ts';

/** The message types: a contract with embedding pages, keep them exactly. */
export const MSG_STEP = 'csi-flows:step';
export const MSG_GOTO = 'csi-flows:goto';
export const MSG_PLAY = 'csi-flows:play';
export const MSG_PAUSE = 'csi-flows:pause';
/** { type: 'csi-flows:whatif', faults: ['ControllerPublishVolume=DEADLINE_EXCEEDEDx2'], shutdown?: [{ node, step }], delete?: [{ pod, step }], driver?: { attachRequired?, stageUnstage? } }; no change at all: back to the original */
export const MSG_WHATIF = 'csi-flows:whatif';

export interface StepMessage { scenario: string; step: number; total: number; k8s: string; summary: string }

export interface Bridge {
  /** what is wrong with ?parentOrigin=, for the player to show */
  notice: string | null;
  /** tell the parent page the step shown (to the allowed origins only: the browser drops the rest) */
  postStep(m: StepMessage): void;
  dispose(): void;
}

export function connect(search: string, on: {
  goto(step: number | string): void; play(): void; pause(): void; whatIf(message: unknown): void;
}): Bridge {
  const { origins, notice } = parentOrigins(search);
  const framed = window.parent !== window;
  // Only the parent window may drive us; anything unexpected is ignored silently.
  const onMessage = (e: MessageEvent): void => {
    if (e.source !== window.parent) return;
    if (origins && !origins.includes(e.origin)) return;
    const d = e.data as { type?: unknown; step?: unknown } | null;
    if (!d || typeof d !== 'object') return;
    if (d.type === MSG_GOTO && (typeof d.step === 'number' || typeof d.step === 'string')) on.goto(d.step);
    else if (d.type === MSG_PLAY) on.play();
    else if (d.type === MSG_PAUSE) on.pause();
    else if (d.type === MSG_WHATIF) on.whatIf(d);
  };
  if (framed) window.addEventListener('message', onMessage);
  return {
    notice,
    postStep: (m) => {
      if (!framed) return;
      for (const origin of origins ?? ['*']) window.parent.postMessage({ type: MSG_STEP, ...m }, origin);
    },
    dispose: () => window.removeEventListener('message', onMessage),
  };
}
