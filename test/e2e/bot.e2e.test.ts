/**
 * End to end: the real discord.js client logs in to the fake Discord through DISCORD_API_URL's
 * /gateway/bot, receives INTERACTION_CREATE for every command, an autocomplete, a page button and a
 * select, and the test asserts on the exact JSON the bot sends back and on the 3-second rule.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { toMessagePayload } from '../../src/render/view.js';
import type { Replica } from '../../src/replica/server.js';
import { MEMBER, OTHER_MEMBER } from '../helpers/bot.js';
import { replica } from '../helpers/replica.js';
import {
  ADMIN_PERMISSIONS,
  autocompleteInteraction,
  CHANNEL_ID,
  commandInteraction,
  FEED_CHANNEL_IDS,
  LOCKED_CHANNEL_ID,
  componentInteraction,
  startFakeDiscord,
  userCommandInteraction,
  type FakeDiscord,
  type RestCall,
} from './fake-discord.js';
import { bootBot } from './helpers.js';
import { runInLocale } from '../../src/i18n/index.js';
import { t } from '../../src/render/strings.js';

let r: Replica;
let discord: FakeDiscord;
let bot: Awaited<ReturnType<typeof bootBot>>;

beforeAll(async () => {
  r = await replica();
  discord = await startFakeDiscord();
  bot = await bootBot(discord, r);
});
afterEach(() => r.setFaults({}));
afterAll(async () => {
  await bot.close();
  await discord.close();
  await r.close();
});

type Callback = { type: number; data?: Record<string, unknown> };
const callbackOf = (id: string) => discord.waitFor((c) => c.method === 'POST' && c.path.startsWith(`/interactions/${id}/`));
const body = (c: RestCall) => c.body as Callback;

/** Discord's interaction callback types. */
const REPLY = 4;
const DEFER_REPLY = 5;
const DEFER_UPDATE = 6;
const UPDATE = 7;
const AUTOCOMPLETE = 8;

describe('login', () => {
  it('identifies with the Guilds intent only, after fetching the gateway URL from the configured REST API', () => {
    expect((discord.identify as { intents: number }).intents).toBe(1);
    expect(discord.calls.some((c) => c.path === '/gateway/bot' && c.authorization === 'Bot fake-bot-token-xyz')).toBe(true);
  });
});

describe('interactions from the raw payload', () => {
  it('the bot answers from the raw payload; the Interaction object discord.js builds of its own is unused and caches nobody', async () => {
    const built: unknown[] = [];
    bot.client.on('interactionCreate', (i) => void built.push(i));
    const cached = bot.client.users.cache.size;
    const interaction = commandInteraction('424242424242424242', 'maps', {});
    discord.dispatchInteraction(interaction);
    expect(body(await callbackOf(interaction.id)).type).toBe(REPLY);
    await vi.waitFor(() => expect(built).toHaveLength(1));
    // Building it would cache the member's user, but the user cache holds nothing (src/discord/runtime.ts `UNCACHED_MANAGERS`).
    expect(bot.client.users.cache.has('424242424242424242')).toBe(false);
    expect(bot.client.users.cache.size).toBe(cached);
    bot.client.removeAllListeners('interactionCreate');
  });
});

describe('every command answers with the exact payload its handler renders', () => {
  const cases: [string, Record<string, string | number>][] = [
    ['player', { query: '1403392756' }],
    ['hero', { name: 'spider man' }],
    ['match', { match: '6713355_1740604074_322_11001_10' }],
    ['leaderboard', { hero: 'storm', platform: 'xbox' }],
    ['patch-notes', { type: 'dev-diaries' }],
    ['items', { type: 'emote' }],
    ['maps', {}],
    ['achievements', { hero: 'hulk' }],
    ['battlepass', { season: 1 }],
  ];
  it.each(cases)('/%s', async (name, options) => {
    const interaction = commandInteraction(MEMBER.userId, name, options);
    discord.dispatchInteraction(interaction);
    const call = await callbackOf(interaction.id);
    const expected = toMessagePayload(
      await bot.router.command(
        name,
        { options, user: { userId: MEMBER.userId, guildId: interaction.guild_id, locale: 'en-US' } },
        { ...bot.runtimeContext(), logger: bot.logger },
      ),
    );
    // No callback response is asked for (with_response defaults to false): the bot never reads it.
    expect(call.query).not.toMatch(/with_response=true/);
    expect(body(call).type).toBe(REPLY);
    const data = body(call).data!;
    expect(data.embeds).toEqual(expected.embeds);
    expect(data.components).toEqual(expected.components);
    expect(data.flags).toBe(0);
    expect(data.allowed_mentions).toEqual(expected.allowed_mentions);
    expect((data.allowed_mentions as { parse?: unknown[] }).parse).toEqual([]);
  });
});

describe('every real sample through Discord', () => {
  it('/player answers for every sample player, by uid and by name', async () => {
    for (const [uid, profile] of r.dataset.players) {
      for (const query of [uid, String(profile.name)]) {
        const i = commandInteraction(MEMBER.userId, 'player', { query });
        discord.dispatchInteraction(i);
        const call = await callbackOf(i.id);
        expect(body(call)).toMatchObject({ type: REPLY, data: { flags: 0 } });
        expect(JSON.stringify(body(call).data!.embeds)).toContain(` · UID ${uid} · `);
      }
    }
  });
  it('/match answers for every sample match', async () => {
    for (const uid of r.dataset.matches.keys()) {
      const i = commandInteraction(MEMBER.userId, 'match', { match: uid });
      discord.dispatchInteraction(i);
      const call = await callbackOf(i.id);
      expect(body(call)).toMatchObject({ type: REPLY, data: { flags: 0 } });
      expect((body(call).data!.embeds as unknown[]).length).toBe(3);
    }
  });
});

describe('components and autocomplete', () => {
  it('a page button pressed by the invoker updates the message', async () => {
    const press = componentInteraction(MEMBER.userId, MEMBER.userId, 'lb.p:1015:pc:2:n');
    discord.dispatchInteraction(press);
    const call = await callbackOf(press.id);
    expect(body(call).type).toBe(UPDATE);
    expect(String((body(call).data!.embeds as { description: string }[])[0]!.description)).toMatch(/^\*\*11\. /);
  });

  it('a select pressed by another member gets their own ephemeral copy', async () => {
    const press = componentInteraction(OTHER_MEMBER.userId, MEMBER.userId, 'hero.s:1011', ['lore']);
    discord.dispatchInteraction(press);
    const call = await callbackOf(press.id);
    expect(body(call).type).toBe(REPLY);
    expect(body(call).data!.flags).toBe(64);
    expect((body(call).data!.embeds as { author: { name: string } }[])[0]!.author.name).toBe('Hulk · Lore');
  });

  it('a select of a recent match opens the match', async () => {
    const press = componentInteraction(MEMBER.userId, MEMBER.userId, 'mt.l:1403392756', ['6714464_1741144336_206_11001_10']);
    discord.dispatchInteraction(press);
    const call = await callbackOf(press.id);
    expect(body(call).type).toBe(UPDATE);
    expect((body(call).data!.embeds as unknown[]).length).toBe(3);
  });

  it('an unknown custom ID gets a clear ephemeral message', async () => {
    const press = componentInteraction(MEMBER.userId, MEMBER.userId, 'old-bot-button:7');
    discord.dispatchInteraction(press);
    const call = await callbackOf(press.id);
    expect(body(call)).toMatchObject({ type: REPLY, data: { flags: 64 } });
    expect(JSON.stringify(body(call).data!.embeds)).toMatch(/older version of the bot or has expired/);
  });

  it('autocomplete answers with hero choices', async () => {
    const ac = autocompleteInteraction(MEMBER.userId, 'hero', 'name', 'spid');
    discord.dispatchInteraction(ac);
    const call = await callbackOf(ac.id);
    expect(body(call).type).toBe(AUTOCOMPLETE);
    expect((body(call).data!.choices as { name: string; value: string }[])[0]).toEqual({ name: 'Spider-Man', value: '1036' });
  });

  it('an error is ephemeral and specific', async () => {
    const i = commandInteraction(MEMBER.userId, 'player', { query: 'no-such-player-anywhere' });
    discord.dispatchInteraction(i);
    const call = await callbackOf(i.id);
    expect(body(call)).toMatchObject({ type: REPLY, data: { flags: 64 } });
    expect(JSON.stringify(body(call).data!.embeds)).toMatch(/No player called “no-such-player-anywhere”\. Check the spelling, or use the UID\./);
  });
});

describe('an interaction payload the bot cannot read', () => {
  it('is logged and left alone, and the next interaction is answered', async () => {
    const broken = { ...commandInteraction(MEMBER.userId, 'maps'), token: undefined };
    discord.dispatchInteraction(broken);
    const next = commandInteraction(MEMBER.userId, 'maps');
    discord.dispatchInteraction(next);
    expect(body(await callbackOf(next.id)).type).toBe(REPLY);
    expect(bot.logLines.some((l) => l.includes('interaction payload not understood') && l.includes(broken.id))).toBe(true);
    expect(discord.calls.some((c) => c.path.includes(broken.id))).toBe(false);
  });
});

describe('account links through Discord', () => {
  it('/link, then /player with no query shows the linked profile; the context menu shows a member’s', async () => {
    const none = commandInteraction(OTHER_MEMBER.userId, 'player', {});
    discord.dispatchInteraction(none);
    expect(JSON.stringify(body(await callbackOf(none.id)).data!.embeds)).toMatch(/You have not linked a Rivals account yet/);

    const link = commandInteraction(OTHER_MEMBER.userId, 'link', { player: 'Freddyhun' });
    discord.dispatchInteraction(link);
    const linked = body(await callbackOf(link.id));
    expect(linked).toMatchObject({ type: REPLY, data: { flags: 64 } });
    expect(JSON.stringify(linked.data!.embeds)).toMatch(/Linked \*\*Freddyhun\*\* \(UID 161235255\)/);

    const me = commandInteraction(OTHER_MEMBER.userId, 'player', {});
    discord.dispatchInteraction(me);
    const profile = body(await callbackOf(me.id));
    expect(profile).toMatchObject({ type: REPLY, data: { flags: 0 } });
    expect((profile.data!.embeds as { author: { name: string } }[])[0]!.author.name).toBe('Freddyhun [VENT]');

    const menu = userCommandInteraction(MEMBER.userId, 'Rivals profile', OTHER_MEMBER.userId);
    discord.dispatchInteraction(menu);
    const viaMenu = body(await callbackOf(menu.id));
    expect((viaMenu.data!.embeds as { author: { name: string } }[])[0]!.author.name).toBe('Freddyhun [VENT]');
  });
});

describe('/config through Discord', () => {
  it('a member without Manage Server is refused; an admin sets a feed; a channel the bot cannot post in is refused', async () => {
    const member = commandInteraction(MEMBER.userId, 'config', { type: 'patchNotes', channel: { channel: CHANNEL_ID } }, { subcommand: 'feed' });
    discord.dispatchInteraction(member);
    const refused = body(await callbackOf(member.id));
    expect(refused).toMatchObject({ type: REPLY, data: { flags: 64 } });
    expect(JSON.stringify(refused.data!.embeds)).toMatch(/You need the Manage Server permission/);

    const admin = commandInteraction(
      MEMBER.userId,
      'config',
      { type: 'patchNotes', channel: { channel: CHANNEL_ID }, role: { role: '940000000000000001' } },
      { subcommand: 'feed', permissions: ADMIN_PERMISSIONS },
    );
    discord.dispatchInteraction(admin);
    const set = body(await callbackOf(admin.id));
    expect(set).toMatchObject({ type: REPLY, data: { flags: 64, content: `Patch notes will be posted in <#${CHANNEL_ID}>.` } });
    expect(JSON.stringify(set.data!.embeds)).toContain(`<#${CHANNEL_ID}> · pings <@&940000000000000001>`);

    const locked = commandInteraction(
      MEMBER.userId,
      'config',
      { type: 'balances', channel: { channel: LOCKED_CHANNEL_ID } },
      { subcommand: 'feed', permissions: ADMIN_PERMISSIONS },
    );
    discord.dispatchInteraction(locked);
    expect(JSON.stringify(body(await callbackOf(locked.id)).data!.embeds)).toMatch(/it lacks Send Messages there/);
  });

  it('checks a channel over REST (no channel or role cache), keeps a passed check, and looks again at a failed one', async () => {
    const gets = (channelId: string) => discord.calls.filter((c) => c.method === 'GET' && c.path === `/channels/${channelId}`).length;
    const set = (type: string, channelId: string) => {
      const i = commandInteraction(MEMBER.userId, 'config', { type, channel: { channel: channelId } }, { subcommand: 'feed', permissions: ADMIN_PERMISSIONS });
      discord.dispatchInteraction(i);
      return callbackOf(i.id).then(body);
    };
    const okBefore = gets(FEED_CHANNEL_IDS[1]);
    expect(JSON.stringify(await set('gameVersions', FEED_CHANNEL_IDS[1]))).toContain('will be posted in');
    // Run again with the same options: checked again, and nothing changed.
    expect(JSON.stringify(await set('gameVersions', FEED_CHANNEL_IDS[1]))).toContain('nothing changed');
    // The first check fetched the channel (with the guild and the bot's member); the second reused it.
    expect(gets(FEED_CHANNEL_IDS[1]) - okBefore).toBe(1);
    expect(discord.calls.some((c) => c.method === 'GET' && /^\/guilds\/\d+\/members\/\d+$/.test(c.path))).toBe(true);

    const lockedBefore = gets(LOCKED_CHANNEL_ID);
    for (let n = 0; n < 2; n++) expect(JSON.stringify((await set('balances', LOCKED_CHANNEL_ID)).data!.embeds)).toMatch(/it lacks Send Messages there/);
    expect(gets(LOCKED_CHANNEL_ID) - lockedBefore).toBe(2);

    expect(JSON.stringify((await set('balances', '929999999999999999')).data!.embeds)).toContain('The channel 929999999999999999 no longer exists');

    const off = commandInteraction(MEMBER.userId, 'config', { type: 'gameVersions' }, { subcommand: 'feed-off', permissions: ADMIN_PERMISSIONS });
    discord.dispatchInteraction(off);
    await callbackOf(off.id);
  });
});

describe('/config test-post through Discord', () => {
  const admin = (sub: string, options: Parameters<typeof commandInteraction>[2]) =>
    commandInteraction(MEMBER.userId, 'config', options, { subcommand: sub, permissions: ADMIN_PERMISSIONS });
  it('sends the latest post to the feed channel now, and reports a channel that refuses it', async () => {
    const set = admin('feed', { type: 'devDiaries', channel: { channel: FEED_CHANNEL_IDS[0] } });
    discord.dispatchInteraction(set);
    await callbackOf(set.id);
    const before = discord.channelMessages.get(FEED_CHANNEL_IDS[0])?.length ?? 0;
    const test = admin('test-post', { type: 'devDiaries' });
    discord.dispatchInteraction(test);
    expect(JSON.stringify(body(await callbackOf(test.id)).data!.embeds)).toContain(`A test post of dev diaries was sent to <#${FEED_CHANNEL_IDS[0]}>.`);
    const sent = discord.channelMessages.get(FEED_CHANNEL_IDS[0])!;
    expect(sent).toHaveLength(before + 1);
    expect((sent.at(-1)!.embeds as { title: string }[])[0]!.title).toBe('Test post · Dev Diary #6: Designing Season 5');

    discord.failChannel(FEED_CHANNEL_IDS[0], { status: 403, code: 50013, message: 'Missing Permissions' });
    const failing = admin('test-post', { type: 'devDiaries' });
    discord.dispatchInteraction(failing);
    expect(JSON.stringify(body(await callbackOf(failing.id)).data!.embeds)).toMatch(/The test post to <#\d+> failed: Missing Permissions/);
    discord.failChannel(FEED_CHANNEL_IDS[0]);

    const unset = admin('test-post', { type: 'gameVersions' });
    discord.dispatchInteraction(unset);
    expect(JSON.stringify(body(await callbackOf(unset.id)).data!.embeds)).toContain('Game versions have no channel yet.');
  });
});

describe('the 3-second rule with a slow API', () => {
  it('defers within the window, then edits the reply when the answer is ready', async () => {
    r.setFaults({ latencyMs: 2_600, pathPrefix: '/api/v1/player/1786151874' });
    // A season makes its own cache key, so this lookup really goes to the slow API.
    const i = commandInteraction(MEMBER.userId, 'player', { query: '1786151874', season: 2 });
    discord.dispatchInteraction(i);
    // The API answers 2.6 s late, past the 1.5 s deadline: the acknowledgement is a deferral (not a
    // reply) and comes first, and the answer edits it in place.
    const defer = await callbackOf(i.id);
    expect(body(defer).type).toBe(DEFER_REPLY);
    const edit = await discord.waitFor((c) => c.method === 'PATCH' && c.path.includes(`/${i.token}/messages/@original`));
    expect(discord.calls.indexOf(defer)).toBeLessThan(discord.calls.indexOf(edit));
    expect((edit.body as { embeds: { title: string }[] }).embeds[0]!.title).toBe('Bronze II');
  }, 15_000);

  it('a slow error replaces the deferred reply with an ephemeral follow-up', async () => {
    r.setFaults({ latencyMs: 2_000, forceStatus: 404, pathPrefix: '/api/v1/player/late-ghost' });
    const i = commandInteraction(MEMBER.userId, 'player', { query: 'late-ghost' });
    discord.dispatchInteraction(i);
    expect(body(await callbackOf(i.id)).type).toBe(DEFER_REPLY);
    await discord.waitFor((c) => c.method === 'DELETE' && c.path.includes(`/${i.token}/messages/@original`));
    const follow = await discord.waitFor((c) => c.method === 'POST' && c.path.endsWith(`/${i.token}`));
    expect((follow.body as { flags: number }).flags).toBe(64);
  }, 15_000);

  it('a slow page button defers the update, then edits the message', async () => {
    r.setFaults({ latencyMs: 2_000, pathPrefix: '/api/v1/heroes/leaderboard/1024' });
    const press = componentInteraction(MEMBER.userId, MEMBER.userId, 'lb.p:1024:ps:2:n');
    discord.dispatchInteraction(press);
    expect(body(await callbackOf(press.id)).type).toBe(DEFER_UPDATE);
    const edit = await discord.waitFor((c) => c.method === 'PATCH' && c.path.includes(`/${press.token}/messages/@original`));
    expect(JSON.stringify((edit.body as { embeds: unknown[] }).embeds)).toMatch(/\*\*11\. /);
  }, 15_000);
});

describe('a burst against a slow API', () => {
  // How fast (acknowledged within 3 s, answered within the budget) depends on the machine's load, so
  // `npm run bench:burst` measures it; this test checks what the runtime decides, whatever the load.
  it('acknowledges 400 simultaneous /player lookups by deferring before any handler work, and answers each once', async () => {
    r.setFaults({ latencyMs: 2_500, pathPrefix: '/api/v1/player/burst-' });
    const interactions = Array.from({ length: 400 }, (_, n) => commandInteraction(MEMBER.userId, 'player', { query: `burst-${n}` }));
    for (const i of interactions) discord.dispatchInteraction(i);
    const acks = await Promise.all(interactions.map((i) => callbackOf(i.id)));
    // A handler run before the acknowledgement would have waited 2.5 s for its lookup and replied (type 4) instead.
    expect(acks.filter((a) => body(a).type === DEFER_REPLY).length).toBeGreaterThan(350);
    const isFinal = (i: { token: string }) => (c: { path: string; method: string }) =>
      c.path.includes(`/${i.token}`) && (c.method === 'PATCH' || (c.method === 'POST' && !c.path.includes('/callback')));
    await Promise.all(interactions.map((i) => discord.waitFor(isFinal(i), 45_000)));
    for (const i of interactions) expect(discord.calls.filter((c) => c.path.includes(`/interactions/${i.id}/`)).length).toBe(1);
  }, 90_000);
});

describe('secrets', () => {
  it('the bot token never appears in a log line', () => {
    expect(bot.logLines.join('')).not.toContain('fake-bot-token-xyz');
  });
});

describe('the texts the runtime sends itself', () => {
  // Last in this file: the bot stops taking work here.
  it('are in the member’s /settings language when it is in memory, else their client’s', async () => {
    const french = '515151515151515151';
    await bot.runtimeContext().links.setLocale(french, 'fr');
    bot.runtime.stopTaking();
    const chose = commandInteraction(french, 'maps', {});
    discord.dispatchInteraction(chose);
    const other = { ...commandInteraction(MEMBER.userId, 'maps', {}), locale: 'de' };
    discord.dispatchInteraction(other);
    const toFrench = body(await callbackOf(chose.id)).data!.content as string;
    const toGerman = body(await callbackOf(other.id)).data!.content as string;
    expect(toFrench).toBe(runInLocale('fr', () => t.restarting()));
    expect(toGerman).toBe(runInLocale('de', () => t.restarting()));
    expect(toFrench).not.toBe(toGerman);
  });
});
