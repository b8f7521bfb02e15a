/**
 * `/meta scope:server` on the replica's real sample profiles, recorded by the real tracker: the server's ladder members' ranked
 * matches by hero, the numbers recomputed from the stored rows, in six languages, paged, with its chart; and every way it can
 * have nothing to show says why.
 */
import { describe, expect, it } from 'vitest';
import type { MetaScatterChart } from '../../src/charts/specs.js';
import { BRACKETS, MIN_SAMPLE, wilsonInterval } from '../../src/game/server-meta.js';
import { runInLocale } from '../../src/i18n/index.js';
import { LOCALES } from '../../src/i18n/locales.js';
import { Tracker } from '../../src/jobs/tracker.js';
import { matches as details } from '../game/samples.js';
import { serverMetaView } from '../../commands/meta.js';
import { heroDisplayName } from '../../src/i18n/names.js';
import { encodeCustomId } from '../../src/render/custom-id.js';
import { ADMIN, MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();

/** Real sample players with ranked matches, each linked and proved by a member of the server. */
const PLAYERS = [
  { user: MEMBER, uid: '1786151874', name: 'Double C' },
  { user: OTHER_MEMBER, uid: '1403392756', name: 'Card1gan' },
  { user: { ...MEMBER, userId: '200000000000000003' }, uid: '1117455441', name: 'Sir Final' },
  { user: { ...MEMBER, userId: '200000000000000004' }, uid: '450703773', name: 'MrBlungy' },
];

const heroNames = (list: { id: string; name: string }[]) => new Map(list.map((h) => [h.id, heroDisplayName(h)]));
const description = (p: { embeds: { description?: string }[] }) => p.embeds[0]!.description ?? '';

async function setUp(join = true) {
  const b = env.b;
  await b.run('config', { enabled: true }, 'ladder', ADMIN);
  for (const p of PLAYERS) {
    await b.ctx.links.link(p.user.userId, { uid: p.uid, name: p.name }, true, b.clock.now);
    await b.state.database.db.updateTable('account_links').set({ verified_at: b.clock.now }).where('uid', '=', p.uid).execute();
    await b.ctx.tracking!.follow(p.uid, b.clock.now, p.user.userId);
    if (join) await b.run('ladder', {}, 'join', p.user);
  }
  await trackEveryone(false);
}

/** Reads every tracked player due now as the background tracker does, and with `matches` the details of their matches too. */
async function trackEveryone(matches: boolean) {
  const b = env.b;
  const tracker = new Tracker({
    api: b.ctx.api,
    tracking: b.state.tracking,
    ...(matches ? { matches: { api: b.ctx.api, fetches: b.state.matchFetches, store: b.state.matches, share: 1 } } : {}),
    spare: () => 0,
    logger: b.ctx.logger,
    now: () => b.clock.now,
    minMs: 60_000,
    maxMs: 3_600_000,
  });
  while ((await tracker.step()) > 0) await tracker.settled();
}

/** The latest season's counted rows of the listed members, straight from the store. */
async function storedRows() {
  const db = env.b.state.database.db;
  const rows = await db
    .selectFrom('tracked_matches')
    .selectAll()
    .where(
      'uid',
      'in',
      PLAYERS.map((p) => p.uid),
    )
    .where('ranked', '=', 1)
    .where('won', 'is not', null)
    .execute();
  const season = Math.max(...rows.map((r) => r.season ?? -1));
  return rows.filter((r) => r.season === season);
}

describe('/meta scope:server', () => {
  it('outside a server, and with the ladder off, says why it cannot answer', async () => {
    const dm = await env.b.run('meta', { scope: 'server' }, undefined, { userId: MEMBER.userId, guildId: null, locale: 'en-US' });
    expect(dm.view.isError).toBe(true);
    expect(description(dm.payload)).toContain('only in a server');
    const off = await env.b.run('meta', { scope: 'server' });
    expect(description(off.payload)).toMatch(/^This server has no ladder\./);
  });

  it('counts nobody who has not joined the ladder', async () => {
    await setUp(false);
    expect(description((await env.b.run('meta', { scope: 'server' })).payload)).toMatch(/^No ranked match of this server’s ladder members/);
  });

  it('counts the ladder members’ ranked matches of the latest season by hero, as the stored rows say', async () => {
    await setUp();
    const rows = await storedRows();
    expect(rows.length).toBeGreaterThan(MIN_SAMPLE);
    const { view, payload } = await env.b.run('meta', { scope: 'server' });
    expect(view.charts ?? []).toEqual([]);
    expect(view.isError).toBeFalsy();
    const embed = payload.embeds[0]!;
    expect(embed.title).toBe('Server meta');
    expect(embed.footer?.text).toBe('This server’s members, not the game’s statistics');
    const text = description(payload);
    expect(text).toContain(`${rows.length} matches in Season`);

    // The most played hero, recomputed from the rows: its line's win rate, interval, picks and match count.
    const byHero = new Map<string, typeof rows>();
    for (const r of rows) byHero.set(r.hero_id!, [...(byHero.get(r.hero_id!) ?? []), r]);
    const [heroId, played] = [...byHero].sort((a, b) => b[1].length - a[1].length)[0]!;
    const wins = played.filter((r) => r.won === 1).length;
    const interval = wilsonInterval(wins, played.length)!;
    const heroList = await env.b.ctx.heroes.list();
    const heroNames = new Map(heroList.map((h) => [h.id, heroDisplayName(h)]));
    const hero = heroList.find((h) => h.id === heroId)!;
    const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
    const line = text.split('\n').find((l) => l.includes(`· ${played.length} matches`) && l.toLowerCase().includes(hero.name.split(' ')[0]!.toLowerCase()));
    expect(line, text).toBeDefined();
    expect(line).toContain(`${pct(wins / played.length)} win (${pct(interval.low)}–${pct(interval.high)})`);
    expect(line).toContain(`${pct(played.length / rows.length)} picks`);

    // A hero below the sample is marked and carries its W–L, not a rate.
    const few = [...byHero].find(([, rs]) => rs.length < MIN_SAMPLE);
    expect(few).toBeDefined();
    const [, fewRows] = few!;
    const fewWins = fewRows.filter((r) => r.won === 1).length;
    expect(text).toMatch(new RegExp(`◦ .+ · ${fewWins}–${fewRows.length - fewWins} in ${fewRows.length} match(es)?: too few to rank`));
    // Its chart plots the ranked heroes only (the view as the router receives it, before a bot without a chart pool drops it).
    const drawn = await serverMetaView(MEMBER.guildId, { role: null, sort: 'win-rate', period: 'season', bracket: null, source: 'played' }, 1, env.b.ctx);
    const spec = drawn.charts?.[0]?.spec as MetaScatterChart | undefined;
    expect(spec?.kind).toBe('meta-scatter');
    expect(spec?.title).toBe('This server · win rate against pick share');
    expect(spec!.heroes.map((h) => h.name)).toEqual([...byHero].filter(([, rs]) => rs.length >= MIN_SAMPLE).map(([id]) => heroNames.get(id)));
  });

  it('has nothing for the last 30 days of old captures, or in a bracket nobody played, and says so', async () => {
    await setUp();
    expect(description((await env.b.run('meta', { scope: 'server', period: '30d' })).payload)).toMatch(
      /^No ranked match of this server’s ladder members is recorded for the last 30 days yet\./,
    );
    expect(description((await env.b.run('meta', { scope: 'server', bracket: 'Eternity' })).payload)).toMatch(
      /^No ranked match of this server’s ladder members is recorded for this season in Eternity yet\./,
    );
    // The heroes met need stored scoreboards: none of this season's matches has one here.
    const met = (await env.b.run('meta', { scope: 'server', view: 'met' })).payload;
    expect(met.embeds[0]!.title).toBe('Server meta · heroes met');
    expect(description(met)).toMatch(/^No ranked match of this server’s ladder members has a stored scoreboard for this choice yet\./);
    const rows = await storedRows();
    // The bracket most of the rows began in, by the score before each (a tier every 300 from 3,000).
    const bracketOf = (r: (typeof rows)[number]) =>
      r.new_score === null ? null : Math.min(7, Math.max(0, Math.floor((r.new_score - (r.score_change ?? 0) - 3000) / 300)));
    const counted = new Map<number, number>();
    for (const r of rows) if (bracketOf(r) !== null) counted.set(bracketOf(r)!, (counted.get(bracketOf(r)!) ?? 0) + 1);
    const [bracket, n] = [...counted].sort((a, b) => b[1] - a[1])[0]!;
    const text = description((await env.b.run('meta', { scope: 'server', bracket: BRACKETS[bracket]! })).payload);
    expect(text).toContain(`: ${n} match${n === 1 ? '' : 'es'} in Season`);
    expect(text).toContain(`Only matches begun in ${BRACKETS[bracket]!}`);
  });

  it('its buttons keep every choice: a role, a sort, a period and a bracket', async () => {
    await setUp();
    const duelists = await env.b.press(encodeCustomId('meta.s', 'Duelist', 'kda', 'season', 'all', 'played', 1, 'f'));
    expect(duelists.payload.embeds[0]!.title).toBe('Server meta · Duelist');
    expect(description(duelists.payload)).toContain('Sorted by KDA');
    expect(description(duelists.payload)).toContain('Winter Soldier');
    expect(description(duelists.payload)).not.toContain('Cloak');
    const gold = await env.b.press(encodeCustomId('meta.s', 'all', 'win-rate', '30d', 'Gold', 'played', 1, 'f'));
    expect(description(gold.payload)).toMatch(/^No ranked match .* for the last 30 days in Gold yet\./);
  });

  it('speaks every language the bot speaks', async () => {
    await setUp();
    const titles = new Set<string>();
    for (const locale of LOCALES) {
      const { payload } = await runInLocale(locale, () => env.b.run('meta', { scope: 'server' }));
      const text = description(payload);
      expect(text, locale).not.toMatch(/meta\.server|\{\{/);
      titles.add(payload.embeds[0]!.title!);
    }
    expect(titles.size).toBe(LOCALES.length);
  });

  it('scope:bot shows every stored player of every stored match, as the recorded details count them', async () => {
    await setUp();
    // The tracker reads the recorded matches' details into the store, as in the background.
    const b = env.b;
    await trackEveryone(true);
    const stored = Object.values(details).filter((d) => d.players.length > 0);
    expect(await b.state.matches.count()).toBe(stored.length);
    // By hand: each player with a result, by the hero they ended on.
    const byHero = new Map<string, { n: number; wins: number }>();
    for (const d of stored)
      for (const p of d.players) {
        if (p.result === null || p.cur_hero_id === null) continue;
        const h = byHero.get(p.cur_hero_id) ?? { n: 0, wins: 0 };
        h.n++;
        if (p.result === 'win') h.wins++;
        byHero.set(p.cur_hero_id, h);
      }
    const total = [...byHero.values()].reduce((n, h) => n + h.n, 0);
    const { payload } = await b.run('meta', { scope: 'bot' }, undefined, { userId: MEMBER.userId, guildId: null, locale: 'en-US' });
    expect(payload.embeds[0]!.title).toBe('The bot’s own meta');
    expect(payload.embeds[0]!.footer?.text).toBe('Every match this bot has stored, not the game’s statistics');
    const text = description(payload);
    expect(text).toContain(`${total} players with a result`);
    const [heroId, most] = [...byHero].sort((a, b2) => b2[1].n - a[1].n)[0]!;
    const name = heroNames(await b.ctx.heroes.list()).get(heroId)!;
    const line = text.split('\n').find((l) => l.includes(name));
    // Four matches make every hero too few to rank: each carries its W–L.
    expect(most.n).toBeLessThan(10);
    expect(line, text).toContain(`◦ ${name} · ${most.wins}–${most.n - most.wins} in ${most.n} matches: too few to rank`);
  });
});
