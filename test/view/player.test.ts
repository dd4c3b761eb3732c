/**
 * The flow player's machine: stepping, clamping, playing on ticks. Pure (no DOM): the island only
 * adds a timer and the page around it.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { clampStep, periodMs, playerMachine, type PlayerEvent } from '../../src/machines/view/player.machine.ts';

function started(total = 10, step?: number | string) {
  const actor = createActor(playerMachine).start();
  actor.send({ type: 'player.load', total, step });
  return actor;
}
const view = (a: ReturnType<typeof started>) => {
  const s = a.getSnapshot();
  return { state: s.value, step: s.context.step, notice: s.context.notice };
};

describe('clampStep', () => {
  it.each([
    ['7', 7, null],
    [7, 7, null],
    [' +3 ', 3, null],
    [1, 1, null],
    [138, 138, null],
  ] as const)('%j is step %d of 138 with no notice', (raw, step, notice) => {
    expect(clampStep(raw, 138)).toEqual({ step, notice });
  });

  it('a step past the end shows the last one and says so', () => {
    expect(clampStep('99999', 1027)).toEqual({ step: 1027, notice: 'Step 99999 does not exist; showing step 1027, the last.' });
  });

  it('zero and negative steps show the first one and say so', () => {
    expect(clampStep('0', 50)).toEqual({ step: 1, notice: 'Step 0 does not exist; showing step 1, the first.' });
    expect(clampStep(-3, 50)).toEqual({ step: 1, notice: 'Step -3 does not exist; showing step 1, the first.' });
  });

  it('text that is not a whole number shows the first step and quotes the text', () => {
    expect(clampStep('abc', 50)).toEqual({ step: 1, notice: '“abc” is not a step number; showing step 1, the first.' });
    expect(clampStep('2.5', 50).step).toBe(1);
    expect(clampStep(2.5, 50).step).toBe(1);
    expect(clampStep('', 50).step).toBe(1);
    expect(clampStep('1e3', 50).step).toBe(1);
    expect(clampStep(Number.NaN, 50).step).toBe(1);
    expect(clampStep('9'.repeat(40), 50).notice).toMatch(/^“9{24}…” is not a step number/);
  });
});

describe('playerMachine', () => {
  it('waits in `empty` until a model is loaded, ignoring navigation', () => {
    const a = createActor(playerMachine).start();
    a.send({ type: 'player.next' });
    a.send({ type: 'player.play' });
    expect(view(a)).toEqual({ state: 'empty', step: 0, notice: null });
    a.send({ type: 'player.load', total: 5 });
    expect(view(a)).toEqual({ state: 'paused', step: 1, notice: null });
  });

  it('loads on the requested step, clamped with a notice', () => {
    expect(view(started(138, '7'))).toEqual({ state: 'paused', step: 7, notice: null });
    expect(view(started(1027, '99999'))).toMatchObject({ step: 1027, notice: expect.stringContaining('1027, the last') });
    expect(view(started(10, 'abc'))).toMatchObject({ step: 1, notice: expect.stringContaining('not a step number') });
  });

  it('steps forward and back without leaving [1, total]', () => {
    const a = started(3);
    a.send({ type: 'player.prev' });
    expect(view(a).step).toBe(1);
    a.send({ type: 'player.next' });
    a.send({ type: 'player.next' });
    a.send({ type: 'player.next' });
    expect(view(a).step).toBe(3);
    a.send({ type: 'player.first' });
    expect(view(a).step).toBe(1);
    a.send({ type: 'player.last' });
    expect(view(a).step).toBe(3);
  });

  it('goto clamps like a deep link, and the next move clears the notice', () => {
    const a = started(20);
    a.send({ type: 'player.goto', step: 12 });
    expect(view(a)).toEqual({ state: 'paused', step: 12, notice: null });
    a.send({ type: 'player.goto', step: 400 });
    expect(view(a)).toEqual({ state: 'paused', step: 20, notice: 'Step 400 does not exist; showing step 20, the last.' });
    a.send({ type: 'player.prev' });
    expect(view(a)).toEqual({ state: 'paused', step: 19, notice: null });
  });

  it('plays one step per tick and stops at the last step', () => {
    const a = started(4, 2);
    a.send({ type: 'player.tick' }); // ignored while paused
    expect(view(a).step).toBe(2);
    a.send({ type: 'player.play' });
    expect(view(a).state).toBe('playing');
    a.send({ type: 'player.tick' });
    expect(view(a)).toMatchObject({ state: 'playing', step: 3 });
    a.send({ type: 'player.tick' });
    expect(view(a)).toMatchObject({ state: 'paused', step: 4 });
  });

  it('play on the last step starts again from the first; toggle pauses', () => {
    const a = started(5, 5);
    a.send({ type: 'player.toggle' });
    expect(view(a)).toMatchObject({ state: 'playing', step: 1 });
    a.send({ type: 'player.toggle' });
    expect(view(a)).toMatchObject({ state: 'paused', step: 1 });
  });

  it('a one-step trace never enters `playing`', () => {
    const a = started(1);
    a.send({ type: 'player.play' });
    expect(view(a).state).toBe('paused');
  });

  it('loading another model while playing pauses on the requested step', () => {
    const a = started(10);
    a.send({ type: 'player.play' });
    a.send({ type: 'player.load', total: 6, step: 9 });
    expect(view(a)).toMatchObject({ state: 'paused', step: 6 });
  });

  it('accepts only the offered speeds, and 1× is one step per second', () => {
    const a = started(10);
    a.send({ type: 'player.speed', speed: 4 });
    expect(a.getSnapshot().context.speed).toBe(4);
    a.send({ type: 'player.speed', speed: 3 });
    expect(a.getSnapshot().context.speed).toBe(4);
    expect(periodMs(1)).toBe(1000);
    expect(periodMs(0.5)).toBe(2000);
    expect(periodMs(4)).toBe(250);
  });

  it('reaches every state', () => {
    const events: PlayerEvent[] = [
      { type: 'player.load', total: 3 }, { type: 'player.play' }, { type: 'player.pause' }, { type: 'player.tick' },
    ];
    const paths = getShortestPaths(playerMachine, { events, serializeState: (s) => JSON.stringify(s.value) });
    expect(new Set(paths.map((p) => p.state.value))).toEqual(new Set(['empty', 'paused', 'playing']));
  });
});

describe('the ?parentOrigin= allow-list of an embed', () => {
  it('reads origins, fails closed on anything that is not one, and is absent by default', async () => {
    const { parentOrigins } = await import('../../src/components/player/model.ts');
    expect(parentOrigins('')).toEqual({ origins: null, notice: null });
    expect(parentOrigins('?parentOrigin=https://wiki.example.com,https://slides.example.com:8443')).toEqual({
      origins: ['https://wiki.example.com', 'https://slides.example.com:8443'], notice: null,
    });
    expect(parentOrigins('?parentOrigin=https://wiki.example.com/')).toEqual({ origins: ['https://wiki.example.com'], notice: null });
    const bad = parentOrigins('?parentOrigin=wiki.example.com');
    expect(bad.origins).toEqual([]);
    expect(bad.notice).toBe('parentOrigin: “wiki.example.com” is not an origin (scheme://host[:port]); no page may drive this player.');
    const path = parentOrigins('?parentOrigin=https://a.example/page,https://b.example');
    expect(path.origins).toEqual(['https://b.example']);
    expect(path.notice).toMatch(/“https:\/\/a.example\/page” is not an origin .* only the others are allowed/);
  });
});
