import { afterEach, describe, expect, it, vi } from 'vitest';
import { runWithDeadline } from '../../src/core/deadline.js';
import { DiscordRestBudget, isInteractionRoute, type MakeRequest } from '../../src/discord/rest-budget.js';
import { mostInAnyWindow } from '../helpers/windows.js';

const API = 'http://discord.test/api/v10';

/** A makeRequest that records when each URL started (Date.now(): vi's fake clock where a test installs it) and answers at once. */
function recorder() {
  const starts: { url: string; at: number }[] = [];
  const makeRequest = (async (url: string) => {
    starts.push({ url, at: Date.now() });
    return new Response(null, { status: 204 });
  }) as unknown as MakeRequest;
  return { starts, makeRequest };
}

describe('isInteractionRoute (Discord: the interaction endpoints are not bound to the global limit)', () => {
  it('knows the callback and the interaction token webhook routes from the rest', () => {
    expect(isInteractionRoute(`${API}/interactions/123/tok-en/callback`)).toBe(true);
    expect(isInteractionRoute(`${API}/webhooks/9/tok-en/messages/@original`)).toBe(true);
    expect(isInteractionRoute(`${API}/webhooks/9/tok-en`)).toBe(true);
    expect(isInteractionRoute(`${API}/channels/5/messages`)).toBe(false);
    expect(isInteractionRoute(`${API}/guilds/5/members/6`)).toBe(false);
  });
});

describe('DiscordRestBudget', () => {
  // p-queue times its windows and its spacing with Date.now() and setTimeout: on vi's fake clock the
  // starts fall on exact instants, so the rate is checked to the millisecond, whatever the machine's load.
  afterEach(() => void vi.useRealTimers());

  it('never starts more than its rate in any sliding second, and lets interaction routes through at once', async () => {
    vi.useFakeTimers({ now: 1_760_000_000_000 });
    const { starts, makeRequest } = recorder();
    const send = new DiscordRestBudget(20, 0).wrap(makeRequest);
    const began = Date.now();
    const posts = Array.from({ length: 50 }, (_, n) => send(`${API}/channels/${n}/messages`, { method: 'POST' }));
    const all = Promise.all(posts);
    // The clock stands still: the first second's 20 start, the other 30 wait for the window.
    await vi.advanceTimersByTimeAsync(0);
    expect(starts.filter((s) => s.url.includes('/channels/'))).toHaveLength(20);
    // An interaction callback does not wait behind them.
    await send(`${API}/interactions/1/token/callback`, { method: 'POST' });
    expect(starts).toHaveLength(21);
    expect(starts.at(-1)).toEqual({ url: `${API}/interactions/1/token/callback`, at: began });
    await vi.runAllTimersAsync();
    await all;
    const channelStarts = starts.filter((s) => s.url.includes('/channels/')).map((s) => s.at);
    expect(channelStarts).toHaveLength(50);
    expect(mostInAnyWindow(channelStarts, 1_000)).toBe(20);
    // 50 at 20 a second: batches at 0, 1 and 2 s, each as soon as the window frees.
    expect(channelStarts.map((at) => at - began)).toEqual([...Array(20).fill(0), ...Array(20).fill(1_000), ...Array(10).fill(2_000)]);
  });

  it("spreads a second's requests over it: no two starts within the spacing, and never over the rate", async () => {
    vi.useFakeTimers({ now: 1_760_000_000_000 });
    const { starts, makeRequest } = recorder();
    const send = new DiscordRestBudget(47, 20).wrap(makeRequest);
    const all = Promise.all(Array.from({ length: 60 }, (_, n) => send(`${API}/channels/${n}/messages`, { method: 'POST' })));
    await vi.runAllTimersAsync();
    await all;
    const times = starts.map((s) => s.at);
    expect(times).toHaveLength(60);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // Spread, not in one burst: every start at least the spacing after the one before.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(20);
    expect(mostInAnyWindow(times, 1_000)).toBeLessThanOrEqual(47);
    // 47 paced over the first second, then the 48th waits for the first to leave the window.
    expect(times[46]! - times[0]!).toBe(46 * 20);
    expect(times[47]! - times[0]!).toBe(1_000);
  });

  it('starts a request made while answering an interaction before the background ones already waiting', async () => {
    vi.useFakeTimers({ now: 1_760_000_000_000 });
    const { starts, makeRequest } = recorder();
    const send = new DiscordRestBudget(5, 0).wrap(makeRequest);
    const background = Promise.all(Array.from({ length: 15 }, (_, n) => send(`${API}/channels/${n}/messages`, { method: 'POST' })));
    const check = runWithDeadline(Date.now() + 10_000, () => send(`${API}/channels/777`, { method: 'GET' }));
    await vi.runAllTimersAsync();
    await Promise.all([check, background]);
    // It went in the second slot batch, ahead of the ten posts queued before it.
    expect(starts.findIndex((s) => s.url.endsWith('/channels/777'))).toBe(5);
    expect(starts[5]!.at - starts[0]!.at).toBe(1_000);
  });
});
