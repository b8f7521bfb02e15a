/**
 * The fake Discord's options for benchmarks at scale (test/e2e/fake-discord.ts, `FakeDiscordOptions`):
 * many generated guilds reach a real discord.js client, in both shapes, and answer the REST routes a
 * permission check fetches; the strict global rate limit answers 429 as Discord does past 50 requests
 * in any sliding second, and leaves the interaction routes alone.
 */
import { Client, GatewayIntentBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APP_ID,
  GENERATED_GUILD,
  generatedChannelId,
  generatedGuildId,
  generatedRoleId,
  generatedUserId,
  startFakeDiscord,
  type FakeDiscord,
} from './fake-discord.js';

let fake: FakeDiscord | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.destroy();
  await fake?.close();
  client = undefined;
  fake = undefined;
});

/** A discord.js client with the Guilds intent and default caches, logged in to the fake; resolves when ready. */
async function loggedInClient(apiUrl: string): Promise<Client<true>> {
  const c = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: apiUrl } });
  client = c;
  const ready = new Promise<Client<true>>((resolve) => c.once('clientReady', resolve));
  await c.login('Bot-scale-test-token');
  return ready;
}

describe('many guilds', () => {
  it('READY lists every guild unavailable, then each arrives by GUILD_CREATE with its channels, roles, members and emojis (full shape)', async () => {
    fake = await startFakeDiscord({ guilds: { count: 300, shape: 'full' } });
    const c = await loggedInClient(fake.apiUrl);
    await fake.ready();
    expect(c.guilds.cache.size).toBe(300);
    expect(new Set(c.guilds.cache.map((g) => g.id)).size).toBe(300);
    expect(c.guilds.cache.every((g) => g.available)).toBe(true);
    const last = c.guilds.cache.get(generatedGuildId(299))!;
    expect(last.channels.cache.size).toBe(GENERATED_GUILD.channels);
    expect(last.roles.cache.size).toBe(GENERATED_GUILD.roles);
    expect(last.members.cache.size).toBe(GENERATED_GUILD.members);
    expect(last.emojis.cache.size).toBe(GENERATED_GUILD.emojis);
    expect(last.channels.cache.has(generatedChannelId(299, 49))).toBe(true);
    expect(last.roles.everyone.id).toBe(last.id);
    // The bot's own member is there, and may post in every channel.
    expect(last.members.me?.id).toBe(APP_ID);
    expect(last.channels.cache.get(generatedChannelId(299, 0))!.permissionsFor(last.members.me!).has(['ViewChannel', 'SendMessages', 'EmbedLinks'])).toBe(true);
    // No object id is shared between two guilds.
    const channelIds = c.guilds.cache.flatMap((g) => g.channels.cache).map((ch) => ch.id);
    expect(new Set(channelIds).size).toBe(300 * GENERATED_GUILD.channels);
    expect(fake.readySentAt).toBeLessThanOrEqual(fake.guildsSentAt!);
  }, 60_000);

  it('the Guilds-intent shape sends only the bot’s own member; the REST routes of a permission check answer for every guild', async () => {
    fake = await startFakeDiscord({ guilds: { count: 50, shape: 'guilds-intent' } });
    const c = await loggedInClient(fake.apiUrl);
    expect(c.guilds.cache.size).toBe(50);
    const guild = c.guilds.cache.get(generatedGuildId(7))!;
    expect(guild.members.cache.map((m) => m.id)).toEqual([APP_ID]);
    expect(guild.memberCount).toBe(GENERATED_GUILD.members);
    expect(guild.channels.cache.size).toBe(GENERATED_GUILD.channels);

    const channel = await c.channels.fetch(generatedChannelId(7, 3), { force: true });
    expect(channel).toMatchObject({ id: generatedChannelId(7, 3), guildId: generatedGuildId(7) });
    const roles = await guild.roles.fetch(undefined, { force: true });
    expect(roles.has(generatedRoleId(7, 29))).toBe(true);
    expect((await guild.members.fetch({ user: generatedUserId(7, 42), force: true })).id).toBe(generatedUserId(7, 42));
    expect((await guild.members.fetchMe({ force: true })).id).toBe(APP_ID);
    // Unknown ids are Discord's 404s: a channel past the guild's last, a member of another guild, a guild past the count.
    await expect(c.channels.fetch(generatedChannelId(7, GENERATED_GUILD.channels), { force: true })).rejects.toMatchObject({ status: 404, code: 10003 });
    await expect(guild.members.fetch({ user: generatedUserId(8, 42), force: true })).rejects.toMatchObject({ status: 404, code: 10007 });
    const outside = await fetch(`${fake.apiUrl}/v10/guilds/${generatedGuildId(50)}/roles`, { headers: { authorization: 'Bot x' } });
    expect(outside.status).toBe(404);
    expect(fake.globalLimited).toEqual([]);
  }, 60_000);
});

describe('global rate limit', () => {
  const post = (f: FakeDiscord, path: string, auth = 'Bot limit-token') =>
    fetch(`${f.apiUrl}/v10${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'x' }),
    });
  const send = (f: FakeDiscord, n: number) => Promise.all(Array.from({ length: n }, (_, i) => post(f, `/channels/${generatedChannelId(0, i % 50)}/messages`)));
  const statuses = (responses: Response[]) => responses.map((r) => r.status);
  /** The fake's clock, moved by the test only: however slowly the requests go, they arrive when it says. */
  const clock = { ms: 0 };
  const now = () => clock.ms;

  it('answers 429 with Discord’s global headers and body past 50 bot requests in a second, and exempts interaction routes', async () => {
    clock.ms = 0;
    fake = await startFakeDiscord({ globalLimit: { perSecond: 50 }, now });
    const first = await send(fake, 50);
    expect(statuses(first).every((s) => s === 200)).toBe(true);
    const over = await send(fake, 5);
    expect(statuses(over)).toEqual([429, 429, 429, 429, 429]);
    const limited = over[0]!;
    expect(limited.headers.get('x-ratelimit-global')).toBe('true');
    expect(limited.headers.get('x-ratelimit-scope')).toBe('global');
    expect(limited.headers.get('retry-after')).toBe('1');
    const body = (await limited.json()) as { message: string; retry_after: number; global: boolean };
    expect(body).toMatchObject({ message: 'You are being rate limited.', global: true });
    // The first 50 arrived at this very instant of the fake's clock: the window opens a whole second on.
    expect(body.retry_after).toBe(1);
    expect(fake.globalLimited).toHaveLength(5);
    expect(fake.globalLimited.every((c) => c.method === 'POST' && c.path.startsWith('/channels/'))).toBe(true);

    // Still inside the same second: interaction callbacks and the interaction webhooks are not bound by it.
    const callbacks = await Promise.all(Array.from({ length: 20 }, (_, i) => post(fake!, `/interactions/${1000 + i}/token-${i}/callback`)));
    expect(statuses(callbacks).every((s) => s === 204)).toBe(true);
    const webhooks = await Promise.all([
      post(fake, `/webhooks/${APP_ID}/token-1`),
      fetch(`${fake.apiUrl}/v10/webhooks/${APP_ID}/token-1/messages/@original`, {
        method: 'PATCH',
        headers: { authorization: 'Bot limit-token', 'content-type': 'application/json' },
        body: '{"content":"y"}',
      }),
    ]);
    expect(statuses(webhooks)).toEqual([200, 200]);
    // Requests without a bot token are not counted either.
    expect((await post(fake, `/channels/${generatedChannelId(0, 1)}/messages`, '')).status).toBe(200);
    expect(fake.globalLimited).toHaveLength(5);
  });

  it('counts over a sliding second, not a fixed one', async () => {
    clock.ms = 0;
    fake = await startFakeDiscord({ globalLimit: { perSecond: 50 }, now });
    expect(statuses(await send(fake, 25)).every((s) => s === 200)).toBe(true);
    clock.ms = 500;
    expect(statuses(await send(fake, 25)).every((s) => s === 200)).toBe(true);
    const over = await send(fake, 1);
    expect(statuses(over)).toEqual([429]);
    // The window opens when the first 25 are a second old, half a second on.
    expect(((await over[0]!.json()) as { retry_after: number }).retry_after).toBe(0.5);
    // The first 25 are a second old, the second 25 are not: room for exactly 25 more.
    clock.ms = 1_050;
    const third = await send(fake, 26);
    expect(statuses(third).filter((s) => s === 200)).toHaveLength(25);
    expect(statuses(third).filter((s) => s === 429)).toHaveLength(1);
    expect(fake.globalLimited).toHaveLength(2);
  });

  it('is off by default', async () => {
    fake = await startFakeDiscord();
    expect(statuses(await send(fake, 80)).every((s) => s === 200)).toBe(true);
    expect(fake.globalLimited).toEqual([]);
  });
});
