/**
 * The flow player's own logic: which step is shown, whether it plays and how fast. Pure XState v5
 * (no timers, no DOM): the island owns the clock and sends `player.tick` once per period while the
 * machine is `playing`, so the same machine runs in a browser, in Vitest and in any other view.
 *
 * Steps are 1-based (step N is `model.steps[N - 1]`), as in `?step=N` and the postMessage API.
 * Requests for a step that does not exist (0, -3, "abc", 99999) are clamped into [1, total] and
 * leave a `notice` saying what happened, so a bad deep link never crashes or blanks the player.
 */
import { assign, setup } from 'xstate';

export const SPEEDS = [0.5, 1, 2, 4] as const;
export type Speed = (typeof SPEEDS)[number];

/** Milliseconds between two steps while playing: 1× is one step per second. */
export const periodMs = (speed: Speed): number => 1000 / speed;

export interface PlayerContext {
  /** 1-based current step; 0 only while no model is loaded */
  step: number;
  total: number;
  speed: Speed;
  /** a polite message after a clamped request, until the next navigation */
  notice: string | null;
}

/** A step request as it comes from a URL or a message: a number or the text of one. */
export type StepRequest = number | string;

export type PlayerEvent =
  | { type: 'player.load'; total: number; step?: StepRequest | null }
  | { type: 'player.goto'; step: StepRequest }
  | { type: 'player.next' }
  | { type: 'player.prev' }
  | { type: 'player.first' }
  | { type: 'player.last' }
  | { type: 'player.play' }
  | { type: 'player.pause' }
  | { type: 'player.toggle' }
  | { type: 'player.tick' }
  | { type: 'player.speed'; speed: number }
  | { type: 'player.dismissNotice' };

/**
 * Turn a requested step into one that exists, with a notice when it had to change. `total` must be
 * at least 1. Only whole numbers count: "7", 7 and "+7" are step 7; "7.5", "abc" and "" are not steps.
 */
export function clampStep(raw: StepRequest, total: number): { step: number; notice: string | null } {
  const text = typeof raw === 'number' ? String(raw) : raw.trim();
  const n = typeof raw === 'number' ? raw : /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n)) {
    const shown = text.length > 24 ? `${text.slice(0, 24)}…` : text;
    return { step: 1, notice: `“${shown}” is not a step number; showing step 1, the first.` };
  }
  if (n < 1) return { step: 1, notice: `Step ${n} does not exist; showing step 1, the first.` };
  if (n > total) return { step: total, notice: `Step ${n} does not exist; showing step ${total}, the last.` };
  return { step: n, notice: null };
}

const isSpeed = (s: number): s is Speed => (SPEEDS as readonly number[]).includes(s);

export const playerMachine = setup({
  types: {
    context: {} as PlayerContext,
    events: {} as PlayerEvent,
  },
  actions: {
    load: assign(({ event }) => {
      if (event.type !== 'player.load') return {};
      const total = Math.max(1, Math.floor(event.total));
      if (event.step === undefined || event.step === null) return { total, step: 1, notice: null };
      return { total, ...clampStep(event.step, total) };
    }),
    goto: assign(({ context, event }) => (event.type === 'player.goto' ? clampStep(event.step, context.total) : {})),
    next: assign(({ context }) => ({ step: Math.min(context.total, context.step + 1), notice: null })),
    prev: assign(({ context }) => ({ step: Math.max(1, context.step - 1), notice: null })),
    first: assign({ step: 1, notice: null }),
    last: assign(({ context }) => ({ step: context.total, notice: null })),
    /** Playing from the last step starts again at the first, as a media player does. */
    rewindIfAtEnd: assign(({ context }) => (context.step >= context.total ? { step: 1 } : {})),
    speed: assign(({ event }) => (event.type === 'player.speed' && isSpeed(event.speed) ? { speed: event.speed } : {})),
    dismissNotice: assign({ notice: null }),
  },
  guards: {
    atLastStep: ({ context }) => context.step >= context.total,
    singleStep: ({ context }) => context.total <= 1,
  },
}).createMachine({
  id: 'player',
  initial: 'empty',
  context: { step: 0, total: 0, speed: 1, notice: null },
  on: {
    'player.speed': { actions: 'speed' },
    'player.dismissNotice': { actions: 'dismissNotice' },
  },
  states: {
    /** No model yet: navigation waits for the data. */
    empty: {
      on: { 'player.load': { target: 'paused', actions: 'load' } },
    },
    paused: {
      on: {
        'player.load': { actions: 'load' },
        'player.goto': { actions: 'goto' },
        'player.next': { actions: 'next' },
        'player.prev': { actions: 'prev' },
        'player.first': { actions: 'first' },
        'player.last': { actions: 'last' },
        'player.play': [{ guard: 'singleStep' }, { target: 'playing', actions: 'rewindIfAtEnd' }],
        'player.toggle': [{ guard: 'singleStep' }, { target: 'playing', actions: 'rewindIfAtEnd' }],
      },
    },
    playing: {
      on: {
        // A new model (version switch) stops playback: the reader is looking at something new.
        'player.load': { target: 'paused', actions: 'load' },
        'player.goto': { actions: 'goto' },
        'player.next': { actions: 'next' },
        'player.prev': { actions: 'prev' },
        'player.first': { actions: 'first' },
        'player.last': { target: 'paused', actions: 'last' },
        'player.pause': { target: 'paused' },
        'player.toggle': { target: 'paused' },
        'player.tick': { actions: 'next' },
      },
      // Reaching the last step ends playback (checked after every transition in this state).
      always: { guard: 'atLastStep', target: 'paused' },
    },
  },
});
