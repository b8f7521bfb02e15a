import { describe, expect, it } from 'vitest';
import { runWithDeadline } from '../../src/core/deadline.js';
import { DiscordRestBudget, isInteractionRoute, type MakeRequest } from '../../src/discord/rest-budget.js';
import { mostInAnyWindow } from '../helpers/windows.js';

const API = 'http://discord.test/api/v10';

/** A makeRequest that records when each URL started and answers at once. */
function recorder() {
  const starts: { url: string; at: number }[] = [];
  const makeRequest = (async (url: string) => {
    starts.push({ url, at: performance.now() });
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
  it('never starts more than its rate in any sliding second, and lets interaction routes through at once', async () => {
    const { starts, makeRequest } = recorder();
    const send = new DiscordRestBudget(20, 0).wrap(makeRequest);
    const began = performance.now();
    const posts = Array.from({ length: 50 }, (_, n) => send(`${API}/channels/${n}/messages`, { method: 'POST' }));
    await new Promise((r) => setTimeout(r, 50));
    // 20 posts went; the other 30 wait, but an interaction callback does not.
    await send(`${API}/interactions/1/token/callback`, { method: 'POST' });
    expect(starts.filter((s) => s.url.includes('/channels/'))).toHaveLength(20);
    expect(starts.at(-1)!.url).toContain('/callback');
    await Promise.all(posts);
    const channelStarts = starts.filter((s) => s.url.includes('/channels/')).map((s) => s.at);
    // p-queue times its window on Date.now(), whole milliseconds: a slot frees up to 1 ms early.
    expect(mostInAnyWindow(channelStarts, 998)).toBe(20);
    // 50 at 20 a second: the last batch starts after 2 s, not much later.
    const took = Math.max(...channelStarts) - began;
    expect(took).toBeGreaterThanOrEqual(1_990);
    expect(took).toBeLessThan(3_500);
  });

  it("spreads a second's requests over it: no two starts within the spacing, and never over the rate", async () => {
    const { starts, makeRequest } = recorder();
    const send = new DiscordRestBudget(47, 20).wrap(makeRequest);
    await Promise.all(Array.from({ length: 60 }, (_, n) => send(`${API}/channels/${n}/messages`, { method: 'POST' })));
    const times = starts.map((s) => s.at);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // Spread, not in one burst: the typical gap is the spacing (timers fire on whole milliseconds, and
    // on a loaded machine one start may run late and the next on time, so the smallest gap says little).
    const sortedGaps = [...gaps].sort((a, b) => a - b);
    expect(sortedGaps[Math.floor(gaps.length / 2)]).toBeGreaterThanOrEqual(19);
    expect(gaps.filter((g) => g < 5).length).toBeLessThanOrEqual(3);
    expect(mostInAnyWindow(times, 998)).toBeLessThanOrEqual(47);
    // 47 paced over the first second, then the 48th waits for the first to leave the window.
    expect(times[47]! - times[0]!).toBeGreaterThanOrEqual(990);
  });

  it('starts a request made while answering an interaction before the background ones already waiting', async () => {
    const { starts, makeRequest } = recorder();
    const send = new DiscordRestBudget(5, 0).wrap(makeRequest);
    const background = Array.from({ length: 15 }, (_, n) => send(`${API}/channels/${n}/messages`, { method: 'POST' }));
    const check = runWithDeadline(Date.now() + 10_000, () => send(`${API}/channels/777`, { method: 'GET' }));
    await check;
    // It went in the second slot batch, ahead of the ten posts queued before it.
    expect(starts.findIndex((s) => s.url.endsWith('/channels/777'))).toBe(5);
    await Promise.all(background);
  });
});
