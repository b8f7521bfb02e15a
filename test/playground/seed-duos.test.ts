/**
 * The playground's seeded duo (src/playground/seed-duos.ts), built from the replica's real samples: the captured player
 * and the two teammates the recorded match details show most often are on the ladder, and `/ladder duos` lists them with
 * the record the raw details give, counted here straight from the sample files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { loadDataset } from '../../src/replica/data/dataset.js';
import { duoSeats, seedDuos } from '../../src/playground/seed-duos.js';
import { ladderSeats, seedLadder } from '../../src/playground/seed-ladder.js';
import type { Replica } from '../../src/replica/server.js';
import { encodeCustomId } from '../../src/render/custom-id.js';
import { bot } from '../helpers/bot.js';
import { recordingCharts } from '../helpers/charts.js';
import type { TableCard } from '../../src/charts/specs.js';
import { LOCALES } from '../../src/i18n/locales.js';
import { replica } from '../helpers/replica.js';
import { addTeammateProfile } from '../../src/replica/data/teammates.js';
import { memoryState } from '../helpers/state.js';

const dataset = loadDataset();
const IMAGES = 'https://img.test/rivals';
const GUILD = '300000000000000001';
const logger = pino({ level: 'silent' });

type RawPlayer = { player_uid: number | string; nick_name: string; camp: number; is_win: number | { is_win: number } };
const raw = [...dataset.matches.values()].map((m) => {
  const d = (m.match_details ?? m) as { match_players: RawPlayer[] };
  return d.match_players.map((p) => ({
    uid: String(p.player_uid),
    name: p.nick_name,
    camp: p.camp,
    won: typeof p.is_win === 'object' ? p.is_win.is_win : p.is_win,
  }));
});

/** Matches `a` and `b` played on one team, and how many of them `a` won, from the sample files themselves. */
function together(a: string, b: string): { wins: number; losses: number } {
  let wins = 0;
  let losses = 0;
  for (const players of raw) {
    const pa = players.find((p) => p.uid === a);
    const pb = players.find((p) => p.uid === b);
    if (!pa || !pb || pa.camp !== pb.camp) continue;
    if (pa.won === 1) wins++;
    else losses++;
  }
  return { wins, losses };
}

describe('the playground’s seeded duo', () => {
  const seats = ladderSeats(dataset.profileCaptures);
  const partners = duoSeats(dataset, seats, IMAGES);
  let r: Replica;
  beforeAll(async () => {
    r = await replica();
  });
  afterAll(async () => r?.close());

  /** A bot on a store holding the seeded ladder and its duo partners, as the playground starts. */
  async function seededBot() {
    const state = memoryState();
    await seedLadder(state, dataset.profileCaptures, IMAGES, GUILD, logger);
    await seedDuos(state, dataset, partners, IMAGES, GUILD, logger);
    return bot(r, { state });
  }

  it('seats the two teammates the recorded details show most often beside a captured player', () => {
    expect(partners).toHaveLength(2);
    const seated = new Set(seats.map((s) => s.uid));
    for (const p of partners) expect(seated.has(p.uid)).toBe(false);
    // Seated after the captured players, with ids of their own.
    expect(new Set([...seats, ...partners].map((s) => s.userId)).size).toBe(seats.length + 2);
    const [first] = partners;
    const captured = seats.find((s) => raw.some((players) => players.some((p) => p.uid === s.uid)))!;
    expect(together(captured.uid, first!.uid).wins + together(captured.uid, first!.uid).losses).toBe(raw.length);
    expect(first!.name).toBe(raw[0]!.find((p) => p.uid === first!.uid)!.name);
  });

  it('lists them on /ladder duos with the record the details give, and each one’s rate apart', async () => {
    const state = memoryState();
    await seedLadder(state, dataset.profileCaptures, IMAGES, GUILD, logger);
    expect(await seedDuos(state, dataset, partners, IMAGES, GUILD, logger)).toBe(2);
    // Once: a restart seeds nothing again.
    expect(await seedDuos(state, dataset, partners, IMAGES, GUILD, logger)).toBe(0);
    expect(await state.matches.count()).toBe(dataset.matches.size);

    const b = bot(r, { state });
    try {
      const captured = seats.find((s) => raw.some((players) => players.some((p) => p.uid === s.uid)))!;
      const member = { userId: partners[0]!.userId, guildId: GUILD, locale: 'en-US' };
      const { payload } = await b.run('ladder', { min: 1 }, 'duos', member);
      const text = payload.embeds[0]!.description!;
      const lines = text.split('\n').filter((l) => /^\*\*\d+\.\*\*/.test(l));
      // Every pair of the three who shared a team is a duo.
      const pairs: [string, string][] = [
        [captured.uid, partners[0]!.uid],
        [captured.uid, partners[1]!.uid],
        [partners[0]!.uid, partners[1]!.uid],
      ].filter(([a, b2]) => together(a!, b2!).wins + together(a!, b2!).losses > 0) as [string, string][];
      expect(lines).toHaveLength(pairs.length);
      const seatOf = (uid: string) => [...seats, ...partners].find((s) => s.uid === uid)!;
      for (const [a, b2] of pairs) {
        const { wins, losses } = together(a, b2);
        const line = lines.find((l) => l.includes(`<@${seatOf(a).userId}>`) && l.includes(`<@${seatOf(b2).userId}>`));
        expect(line, text).toBeDefined();
        expect(line).toContain(` · ${wins}–${losses} together · `);
      }
      // The same duos on a card, in every language: by their game names, the record of the details, the asker's rows lit.
      for (const locale of LOCALES) {
        const charts = recordingCharts();
        const shown = await b.router.command('ladder', { options: { min: 1 }, subcommand: 'duos', user: { ...member, locale } }, { ...b.ctx, charts });
        const card = charts.specs.find((s): s is TableCard => s.kind === 'table-card')!;
        expect(card.locale).toBe(locale);
        expect(shown.embeds![0]!.image?.url).toBe('attachment://duos.png');
        expect(card.rows).toHaveLength(pairs.length);
        for (const [a, b2] of pairs) {
          const { wins, losses } = together(a, b2);
          const row = card.rows.find((x) => x.cells[0]!.text.includes(seatOf(a).name) && x.cells[0]!.text.includes(seatOf(b2).name));
          expect(row, locale).toBeDefined();
          expect(row!.cells[1]!.text).toBe(`${wins}–${losses}`);
          expect(row!.you).toBe(a === partners[0]!.uid || b2 === partners[0]!.uid);
        }
        // Names only: no member's mention on an image.
        expect(JSON.stringify(card)).not.toMatch(/<@\d+>/);
      }
      // The default (3 together) keeps the real duo alone.
      const main = together(captured.uid, partners[0]!.uid);
      const byDefault = (await b.run('ladder', {}, 'duos', member)).payload.embeds[0]!.description!;
      expect(byDefault.split('\n').filter((l) => /^\*\*\d+\.\*\*/.test(l))).toEqual([expect.stringContaining(` · ${main.wins}–${main.losses} together · `)]);
    } finally {
      await b.close();
    }
  });

  it('shows each member their duos in /privacy show and export, and /privacy delete takes them off every duo', async () => {
    const b = await seededBot();
    try {
      const captured = seats.find((s) => raw.some((players) => players.some((p) => p.uid === s.uid)))!;
      const partner = { userId: partners[0]!.userId, guildId: GUILD, locale: 'en-US' };
      const shown = (await b.run('privacy', {}, 'show', partner)).payload.embeds[0]!.fields!.map((f) => f.value).join('\n');
      expect(shown).toContain('Ladder members you played with, from your recorded matches: 2 on your team, 0 against you');
      const data = await b.state.memberData.collect(partner.userId);
      const { wins, losses } = together(partners[0]!.uid, captured.uid);
      expect(data.duos).toContainEqual({ guildId: GUILD, uid: captured.uid, name: captured.name, together: true, wins, losses, draws: 0 });

      // Deleted: the other members' duos no longer name them.
      await b.state.memberData.erase(partner.userId, Date.now());
      const after = (await b.run('ladder', { min: 1 }, 'duos', { userId: captured.userId, guildId: GUILD, locale: 'en-US' })).payload.embeds[0]!.description!;
      expect(after).not.toContain(`<@${partners[0]!.userId}>`);
      expect(after).not.toContain(partners[0]!.name);
      expect(after).toContain(`<@${partners[1]!.userId}>`);
    } finally {
      await b.close();
    }
  });

  it('answers /player for a seated teammate once the replica serves the profile their recorded matches give, as the playground does', async () => {
    const own = await replica();
    const state = memoryState();
    await seedLadder(state, dataset.profileCaptures, IMAGES, GUILD, logger);
    await seedDuos(state, dataset, partners, IMAGES, GUILD, logger);
    const partner = partners[0]!;
    const member = { userId: partner.userId, guildId: GUILD, locale: 'en-US' };
    const b = bot(own, { state });
    try {
      // Without it, the partner's own /player is a dead end.
      expect((await b.run('player', {}, undefined, member)).view.isError).toBe(true);
      expect(addTeammateProfile(own.dataset, partner.uid)).toBe(true);
      // The miss read a moment ago is cached, as a real miss is: the playground adds the profile before anyone reads.
      await b.ctx.api.forgetPlayer(partner.uid);
      const { payload, view } = await b.run('player', {}, undefined, member);
      expect(view.isError, JSON.stringify(payload.embeds)).toBeFalsy();
      expect(payload.embeds[0]!.description).toContain(` · UID ${partner.uid} · `);
      expect(JSON.stringify(payload.embeds)).toContain(partner.name);
    } finally {
      await b.close();
      await own.close();
    }
  });

  it('shows a ladder member’s duos and rivals on this server beside their teammates on /player, and nobody else’s', async () => {
    const b = await seededBot();
    try {
      const captured = seats.find((s) => raw.some((players) => players.some((p) => p.uid === s.uid)))!;
      const member: { userId: string; guildId: string | null; locale: string } = { userId: partners[1]!.userId, guildId: GUILD, locale: 'en-US' };
      const teammates = async (uid: string, user: typeof member) =>
        (await b.press(encodeCustomId('pl.s', uid, ''), ['teammates'], user as Parameters<typeof b.press>[2])).payload.embeds[0]!.fields ?? [];
      const fields = await teammates(captured.uid, member);
      const duos = fields.find((f) => f.name === 'Played with members of this server');
      const { wins, losses } = together(captured.uid, partners[0]!.uid);
      expect(duos?.value).toContain(`<@${partners[0]!.userId}> ${partners[0]!.name} · ${wins}–${losses}`);
      // Card1gan met Chob Bob's captured team, but Chob Bob is on no ladder here: never named.
      expect(fields.map((f) => f.value).join('\n')).not.toContain('Chob Bob');
      // Outside a server, and for a player not on this server's ladder: the teammates alone.
      expect(await teammates(captured.uid, { userId: member.userId, guildId: null, locale: 'en-US' })).toEqual([]);
      expect(await teammates('341932470', member)).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
