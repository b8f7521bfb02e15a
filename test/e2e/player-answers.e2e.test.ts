/**
 * End to end against the fake Discord: `/player … hero:`, its autocomplete from the player's own heroes, `/last`, and
 * the profile and match cards as uploads, through the real discord.js client and the replica of the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Replica } from '../../src/replica/server.js';
import { MEMBER, OTHER_MEMBER } from '../helpers/bot.js';
import { replica } from '../helpers/replica.js';
import { autocompleteInteraction, commandInteraction, componentInteraction, startFakeDiscord, type FakeDiscord } from './fake-discord.js';
import { answerOf, bootBot } from './helpers.js';
import { pino } from 'pino';
import { ImageStore } from '../../src/api/image-store.js';
import { createChartRenderer } from '../../src/charts/renderer.js';
import { withCardImages } from '../../src/discord/chart-attachments.js';

let r: Replica;
let discord: FakeDiscord;
let bot: Awaited<ReturnType<typeof bootBot>>;
const charts = createChartRenderer();

beforeAll(async () => {
  r = await replica();
  discord = await startFakeDiscord();
  // The bot's own chart path: the worker pool, the card's images through an image store (the replica serves none).
  bot = await bootBot(discord, r, undefined, withCardImages(charts, new ImageStore({ dir: null, maxDiskBytes: 1_000_000, logger: pino({ level: 'silent' }) })));
});
afterAll(async () => {
  await charts.close();
  await bot.close();
  await discord.close();
  await r.close();
});

describe('the next questions players ask', () => {
  it('/player hero: answers one player on one hero', async () => {
    const i = commandInteraction(MEMBER.userId, 'player', { query: '1786151874', hero: 'winter soldier' });
    discord.dispatchInteraction(i);
    const answer = await answerOf(discord, i);
    expect(answer.embeds[0]!.title).toBe('Winter Soldier (Duelist)');
    expect(JSON.stringify(answer.embeds[0]!.fields)).toContain('"name":"Ranked","value":"19 matches · 63.2 %');
  });

  it('the hero option autocompletes from the player’s own heroes, most played first', async () => {
    const ac = autocompleteInteraction(MEMBER.userId, 'player', 'hero', '');
    (ac.data.options as unknown[]).unshift({ name: 'query', type: 3, value: '1786151874' });
    discord.dispatchInteraction(ac);
    const call = await discord.waitFor((c) => c.method === 'POST' && c.path.startsWith(`/interactions/${ac.id}/`));
    const data = (call.body as { type: number; data: { choices: { name: string; value: string }[] } }).data;
    expect((call.body as { type: number }).type).toBe(8);
    expect(data.choices[0]).toEqual({ name: 'Winter Soldier · 4h 1m', value: '1041' });
  });

  it('/player uploads the profile card, the embed showing it beside the text', async () => {
    const i = commandInteraction(MEMBER.userId, 'player', { query: '1786151874' });
    discord.dispatchInteraction(i);
    const answer = await answerOf(discord, i);
    expect(JSON.stringify(answer.embeds[0])).toContain('"image":{"url":"attachment://profile.png"}');
    const upload = discord.calls.find((c) => (c.files ?? []).some((f) => f.filename === 'profile.png') && c.path.includes(i.token));
    const card = upload!.files!.find((f) => f.filename === 'profile.png')!;
    expect(card.contentType).toBe('image/png');
    // A PNG of 800 × 450 (its IHDR), drawn although the replica serves no images: placeholders stand in.
    expect(card.data.subarray(1, 4).toString('latin1')).toBe('PNG');
    // 800 × 450, grown to 480 for the seven rows of a team with a replacement (src/charts/cards.ts matchCardLayout).
    expect([card.data.readUInt32BE(16), card.data.readUInt32BE(20)]).toEqual([800, 450]);
  });

  it('/last answers the newest match of the player asked', async () => {
    const i = commandInteraction(MEMBER.userId, 'last', { player: '1117455441' });
    discord.dispatchInteraction(i);
    const answer = await answerOf(discord, i);
    expect(JSON.stringify(answer.embeds[0])).toMatch(/ · latest match"/);
    expect(answer.embeds[0]!.description).toMatch(/\*\*Started\*\* <t:\d+:f>/);
  });

  it('/match uploads the scoreboard card, the team embeds kept as its text for where it is not shown', async () => {
    const i = commandInteraction(MEMBER.userId, 'match', { match: '6713355_1740604074_322_11001_10' });
    discord.dispatchInteraction(i);
    const answer = await answerOf(discord, i);
    // The summary alone, showing the card: the teams are drawn on it.
    expect(answer.embeds).toHaveLength(1);
    expect(JSON.stringify(answer.embeds[0])).toContain('"image":{"url":"attachment://match.png"}');
    const upload = discord.calls.find((c) => (c.files ?? []).some((f) => f.filename === 'match.png') && c.path.includes(i.token));
    const card = upload!.files!.find((f) => f.filename === 'match.png')!;
    // 800 × 450, grown to 480 for the seven rows of a team with a replacement (src/charts/cards.ts matchCardLayout).
    expect([card.data.readUInt32BE(16), card.data.readUInt32BE(20)]).toEqual([800, 480]);
    // What the card leaves out is a button away: the team embeds, privately, to whoever presses it.
    const details = answer.components.flatMap((row) => row.components).find((c) => c.custom_id?.startsWith('mt.t:'))!;
    const press = componentInteraction(OTHER_MEMBER.userId, MEMBER.userId, details.custom_id!);
    discord.dispatchInteraction(press);
    // A private reply (type 4), or a private deferral (type 5) on a loaded machine: never an update of the card's message.
    const call = await discord.waitFor((c) => c.method === 'POST' && c.path.startsWith(`/interactions/${press.id}/`));
    const reply = call.body as { type: number; data: { flags: number } };
    expect([4, 5]).toContain(reply.type);
    expect(reply.data.flags).toBe(64);
    expect((await answerOf(discord, press)).embeds.map((e) => e.title)).toEqual(['Quick Play', 'Team A · Defeat', 'Team B · Victory']);
  });

  it('answers with the team embeds when Discord refuses the upload (no Attach Files)', async () => {
    discord.refuseUploads({ status: 403, code: 50013, message: 'Missing Permissions' });
    try {
      const i = commandInteraction(MEMBER.userId, 'match', { match: '6713355_1740604074_322_11001_10' });
      discord.dispatchInteraction(i);
      // The refused upload first, then the answer without files.
      await discord.waitFor((c) => (c.files ?? []).length > 0 && c.path.includes(i.token));
      const sent = await discord.waitFor((c) => !c.files && c.path.includes(i.token) && JSON.stringify(c.body).includes('Team B'));
      // The interaction's callback (type 4), or the edit of a deferred answer.
      type Sent = { embeds: { title?: string; image?: unknown }[] };
      const body = sent.body as Sent & { data?: Sent };
      const embeds = (body.data ?? body).embeds;
      expect(embeds.map((e) => e.title)).toEqual(['Quick Play', 'Team A · Defeat', 'Team B · Victory']);
      expect(embeds.every((e) => !e.image)).toBe(true);
      // Its "Full scoreboard" button went with the card: the teams are here already.
      expect(JSON.stringify(body)).not.toContain('mt.t:');
    } finally {
      discord.refuseUploads();
    }
  });

  it('/scout answers every player of the match by team, post-match only', async () => {
    const i = commandInteraction(MEMBER.userId, 'scout', { match: '6713355_1740604074_322_11001_10' });
    discord.dispatchInteraction(i);
    // The complete answer: the first, or the edit that had every profile read (on a loaded machine a read can take a while).
    const answer = await answerOf(discord, i, (a) => /"text":"Profiles read: \d+ of 13"/.test(JSON.stringify(a)));
    expect(answer.embeds.map((e) => e.title)).toEqual(['Lobby scout', 'Team A · Defeat']);
    expect(answer.embeds[0]!.description).toMatch(/^Post-match only: /);
    expect(answer.embeds[1]!.description).toMatch(/^\*\*Gergory-House\*\* · Storm /m);
    expect(answer.embeds[1]!.description).toMatch(/\*\*Card1gan\*\* · Cloak & Dagger \(\d+ matches, [^)]+\) · Grandmaster III 4,562 · /);
    // The other team is a grey button away; pressed, it updates the message.
    const buttons = answer.components.flatMap((row) => row.components) as { label: string; custom_id: string; style: number }[];
    expect(buttons.map((b) => [b.label, b.style])).toEqual([
      ['Team A · Defeat', 2],
      ['Team B · Victory', 2],
    ]);
    const press = componentInteraction(MEMBER.userId, MEMBER.userId, buttons[1]!.custom_id);
    discord.dispatchInteraction(press);
    const update = await answerOf(discord, press);
    expect(update.embeds.map((e) => e.title)).toEqual(['Lobby scout', 'Team B · Victory']);
    expect(update.embeds[1]!.description).toMatch(/^\*\*KingDomENT\*\* · The Thing /m);
  });

  it('/scout answers at once with the profiles at hand, then edits in the others as they are read', async () => {
    const MATCH = '6713355_1740604074_322_11001_10';
    const ctx = bot.runtimeContext();
    // Card1gan's profile is at hand (cached); every other player's is to be read from an API answering in 1.5 s.
    const players = (await ctx.api.match(MATCH)).data.players.map((p) => p.player_uid);
    await Promise.all(players.filter((uid) => uid !== '1403392756').map((uid) => ctx.api.forgetPlayer(uid)));
    await ctx.api.player('1403392756');
    r.setFaults({ latencyMs: 1_500, pathPrefix: '/api/v1/player/' });
    try {
      const i = commandInteraction(MEMBER.userId, 'scout', { match: MATCH });
      discord.dispatchInteraction(i);
      const first = await answerOf(discord, i);
      const firstText = first.embeds.map((e) => e.description ?? '').join('\n');
      expect(firstText).toMatch(/\*\*Card1gan\*\* · Cloak & Dagger \(\d+ matches, [^)]+\) · Grandmaster III 4,562 · /);
      expect(firstText).toMatch(/^\*\*Gergory-House\*\* · Storm · \*reading the profile…\*$/m);
      expect(first.embeds[0]!.footer?.text).toBe('Profiles read: 1 of 13 · more on the way');
      // The complete answer replaces it: the original response edited.
      const done = await discord.waitFor(
        (c) =>
          c.method === 'PATCH' &&
          c.path.includes(`/${i.token}/messages/@original`) &&
          !(c.body as { embeds: { footer?: { text: string } }[] }).embeds[0]!.footer!.text.includes('more on the way'),
        20_000,
      );
      const final = (done.body as { embeds: { description?: string; footer?: { text: string } }[] }).embeds;
      expect(final.map((e) => e.description ?? '').join('\n')).not.toContain('reading the profile');
      expect(final[0]!.footer!.text).toMatch(/^Profiles read: \d+ of 13$/);
    } finally {
      r.setFaults({});
    }
  }, 30_000);
});
