/** /status: the bot, the game API now, the data's freshness, the shard, and where to report a problem, in every language. */
import { afterEach, describe, expect, it } from 'vitest';
import { LOCALES, runInLocale } from '../../src/i18n/index.js';
import { readBotStatus, RECENT_ANSWER_MS, STATUS_WAIT_MS, type BotStatusSource } from '../../src/catalog/bot-status.js';
import { UpstreamRateLimiter } from '../../src/api/rate-limiter.js';
import { clientFor } from '../helpers/replica.js';
import { statusView, type BotStatus } from '../../src/render/status.js';
import { embedLength } from '../../src/render/limits.js';
import { MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();

/** A status source as the runtime gives it: shard 2 of 4, a feed read and a tracking read at the given times. */
function source(over: Partial<BotStatusSource> = {}): BotStatusSource {
  return {
    startedAt: env.b.clock.now - 3_600_000,
    shard: (guildId) => (guildId ? { id: 2, count: 4, pingMs: 41 } : { id: 0, count: 4, pingMs: 38 }),
    reportTo: () => ({ url: 'https://example.org/support' }),
    lastFeedRead: async () => env.b.clock.now - 120_000,
    lastTrackingRead: async () => env.b.clock.now - 30_000,
    ...over,
  };
}

const text = (view: Awaited<ReturnType<typeof env.b.run>>['view']) => JSON.stringify(view.embeds);

afterEach(() => {
  env.r.setFaults({});
  delete env.b.ctx.status;
});

describe('/status', () => {
  it('probes the API when nothing recent says it answers, and not when an answer is recent', async () => {
    env.b.ctx.status = source();
    const before = env.b.ctx.api.stats.upstreamRequests;
    const first = await env.b.run('status', {});
    // Nothing had asked the API yet: one probe, and it answered.
    expect(env.b.ctx.api.stats.upstreamRequests).toBe(before + 1);
    expect(first.view.ephemeral).toBe(true);
    expect(text(first.view)).toMatch(/✅ Answering \(checked just now, [\d,]+ ms\)/);
    // The probe is an answer: a second /status within the minute asks nothing more.
    const second = await env.b.run('status', {});
    expect(env.b.ctx.api.stats.upstreamRequests).toBe(before + 1);
    expect(text(second.view)).toContain('✅ Answering (last answer <t:');
    // Past the minute, it asks again.
    env.b.clock.now += RECENT_ANSWER_MS + 1;
    await env.b.run('status', {});
    expect(env.b.ctx.api.stats.upstreamRequests).toBe(before + 2);
  });

  it('says the shard serving the server, the freshness of tracking and feeds, and where to report', async () => {
    env.b.ctx.status = source();
    const { view } = await env.b.run('status', {});
    const fields = view.embeds![0]!.fields!;
    expect(fields.map((f) => f.name)).toEqual(['Bot', 'Game API', 'How fresh the data is', 'Something wrong?']);
    expect(fields[0]!.value).toContain('Shard 2 of 4 serves you · heartbeat 41 ms');
    expect(fields[0]!.value).toContain(`Running since <t:${Math.round((env.b.clock.now - 3_600_000) / 1000)}:R>`);
    expect(fields[2]!.value).toContain(`Last rank check of a tracked player: <t:${Math.round((env.b.clock.now - 30_000) / 1000)}:R>`);
    expect(fields[2]!.value).toContain(`Last check for patch notes and balance posts: <t:${Math.round((env.b.clock.now - 120_000) / 1000)}:R>`);
    expect(fields[3]!.value).toBe('Report it here: https://example.org/support');
    // In a DM: shard 0, which holds the DMs.
    const dm = await env.b.run('status', {}, undefined, { userId: MEMBER.userId, locale: 'en-US' });
    expect(dm.view.embeds![0]!.fields![0]!.value).toContain('Shard 0 of 4');
  });

  it('names the application’s owner when no support address is set', async () => {
    env.b.ctx.status = source({ reportTo: () => ({ ownerId: '100000000000000042' }) });
    const { view } = await env.b.run('status', {});
    expect(view.embeds![0]!.fields![3]!.value).toBe('Tell the bot’s owner, <@100000000000000042>.'.replace('’', "'"));
    expect(view.allowedUserIds ?? []).toEqual([]);
  });

  it('answers with the API hanging: not answering, with its last answer, and what members get meanwhile', async () => {
    env.b.ctx.status = source();
    // An answer first, then the API stops answering: past the minute, the probe finds it silent.
    await env.b.run('status', {});
    const answeredAt = env.b.ctx.api.health().answeredAt!;
    env.b.clock.now += RECENT_ANSWER_MS + 1;
    env.r.setFaults({ hang: true });
    const hangingBefore = env.b.ctx.api.stats.upstreamRequests;
    const { view } = await env.b.run('status', {});
    // The probe was sent (the thing that would have answered ran), and given up within the wait.
    expect(env.b.ctx.api.stats.upstreamRequests).toBe(hangingBefore + 1);
    expect(STATUS_WAIT_MS).toBeLessThan(1_000);
    const api = view.embeds![0]!.fields![1]!.value;
    expect(api).toContain('❌ Not answering: no answer within a second');
    expect(api).toContain(`Last answer <t:${Math.round(answeredAt / 1000)}:R>.`);
    expect(view.embeds![0]!.color).toBe(0xed4245);
  });

  it('says so when the API answers with server errors', async () => {
    env.b.ctx.status = source();
    env.b.clock.now += RECENT_ANSWER_MS + 1;
    env.r.setFaults({ forceStatus: 503 });
    const { view } = await env.b.run('status', {});
    expect(view.embeds![0]!.fields![1]!.value).toContain('❌ Not answering: it answers with server errors');
  });

  it('says the API asked the bot to slow down, and for how long, after a 429 with Retry-After', async () => {
    env.b.ctx.status = source();
    env.b.clock.now += RECENT_ANSWER_MS + 1;
    env.r.setFaults({ forceStatus: 429, retryAfterSeconds: 30 });
    const { view } = await env.b.run('status', {});
    const fields = view.embeds![0]!.fields!;
    expect(fields[1]!.value).toBe('⏸️ Answering, but it asked the bot to slow down: requests wait 0m 30s');
    expect(fields[2]!.value).toContain(`The API's last “too many requests”: <t:${Math.round(env.b.clock.now / 1000)}:R>`);
    expect(view.embeds![0]!.color).toBe(0xfee75c);
  });

  it('says the bot’s share of the key is used up, without queueing a probe behind it, when a request would wait past the probe’s time', async () => {
    const limiter = new UpstreamRateLimiter({ requestsPerMinute: 1, windowMs: 60_000 });
    const api = clientFor(env.r, { limiter });
    try {
      // The window's one request, then nothing may go for a minute.
      await api.heroes();
      expect(api.health().queuedMs).toBeGreaterThan(STATUS_WAIT_MS);
      const sent = api.stats.upstreamRequests;
      const status = await readBotStatus({ api, logger: env.b.ctx.logger, now: () => Date.now() + RECENT_ANSWER_MS + 1 }, null);
      expect(status.api).toMatchObject({ state: 'held', by: 'budget' });
      expect(api.stats.upstreamRequests).toBe(sent);
      expect(runInLocale('en', () => statusView(status)).embeds![0]!.fields![1]!.value).toMatch(
        /^⏸️ Answering, but the bot's share of its API key is used up: requests wait /,
      );
    } finally {
      limiter.stop();
      await api.close();
    }
  });

  it('shares one probe between members who ask at once', async () => {
    env.b.ctx.status = source();
    env.b.clock.now += RECENT_ANSWER_MS + 1;
    const before = env.b.ctx.api.stats.upstreamRequests;
    const answers = await Promise.all([env.b.run('status', {}), env.b.run('status', {}), env.b.run('status', {})]);
    expect(env.b.ctx.api.stats.upstreamRequests).toBe(before + 1);
    for (const a of answers) expect(a.view.embeds![0]!.fields![1]!.value).toMatch(/^✅ /);
  });

  it('says when the store does not answer in time, rather than waiting for it', async () => {
    env.b.ctx.status = source({ lastFeedRead: () => new Promise(() => undefined), lastTrackingRead: async () => Promise.reject(new Error('store gone')) });
    const { view } = await env.b.run('status', {});
    const data = view.embeds![0]!.fields![2]!.value;
    expect(data).toContain('Last check for patch notes and balance posts: not known');
    expect(data).toContain('Last rank check of a tracked player: not known');
    expect(env.b.logLines.some((l) => l.includes('could not read the last time for /status'))).toBe(true);
  });

  it('reads well in every language, within Discord’s embed limits, for each state of the API', () => {
    const now = Date.UTC(2026, 11, 7);
    const states: BotStatus['api'][] = [
      { state: 'answering', at: now - 5_000 },
      { state: 'answering', at: now, tookMs: 120 },
      { state: 'held', by: 'api', forMs: 30_000 },
      { state: 'held', by: 'budget', forMs: 90_000 },
      { state: 'down', why: 'timeout', lastAnswerAt: null },
      { state: 'down', why: 'unavailable', lastAnswerAt: now - 600_000 },
      { state: 'down', why: 'unreachable', lastAnswerAt: null },
    ];
    const english = new Set<string>();
    for (const locale of LOCALES) {
      for (const api of states) {
        const view = runInLocale(locale, () =>
          statusView({
            now,
            startedAt: now - 86_400_000,
            shard: { id: 0, count: 1, pingMs: null },
            api,
            rateLimitedAt: now - 1_000,
            feedsReadAt: null,
            trackingReadAt: 'unknown',
            reportTo: {},
          }),
        );
        const embed = view.embeds![0]!;
        expect(embedLength(embed)).toBeLessThan(6_000);
        for (const f of embed.fields!) expect(f.value.length, `${locale} ${f.name}`).toBeLessThanOrEqual(1_024);
        if (locale === 'en') english.add(JSON.stringify(embed.fields));
        else expect(english.has(JSON.stringify(embed.fields)), `${locale} is not English`).toBe(false);
      }
    }
  });
});
