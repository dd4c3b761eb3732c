/** The player's "Kind" fact in Chinese: every step kind the trace has a Chinese name. */
import { describe, expect, it } from 'vitest';
import { PLAYER_TEXT_EN } from '../../src/components/player/text.ts';
import { PLAYER_TEXT_ZH } from '../../src/components/player/text.zh.ts';
import type { StepKind } from '../../src/machines/cluster/trace.ts';

const KINDS: Record<StepKind, true> = { log: true, api: true, rpc: true, 'rpc-reply': true, host: true, state: true, event: true, user: true };

describe('step kinds', () => {
  it('have a Chinese name each, and the English player shows the kinds as they are', () => {
    for (const k of Object.keys(KINDS)) expect(PLAYER_TEXT_ZH.kinds[k], k).toMatch(/\p{Script=Han}/u);
    expect(Object.keys(PLAYER_TEXT_ZH.kinds).sort()).toEqual(Object.keys(KINDS).sort());
    expect(PLAYER_TEXT_EN.kinds).toEqual({});
  });
});
