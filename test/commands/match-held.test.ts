/**
 * `/match` by id takes what its detail does not say from what the bot already holds, at no request's cost: the map of the
 * four real scoreboards (older uids, no map in them) from a profile the cache holds or the tracker's records; and a
 * well-formed id the API keeps no scoreboard for is answered as such, with the history row when one is held, never as an
 * id typed wrong (src/catalog/held-match.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { mapPlainName } from '../../src/render/map-names.js';
import { LOCALES, runInLocale, tr, type Locale, type MessageValues } from '../../src/i18n/index.js';
import type { MessageKey } from '../../src/i18n/keys.js';
import { escapeText } from '../../src/render/limits.js';
import { encodeMatchOrigin } from '../../src/render/match-origin.js';
import { realProfiles } from '../game/samples.js';
import { MEMBER, useReplicaBot } from '../helpers/bot.js';
import { expectWithin, messageTexts } from '../helpers/limits.js';

const CARD1GAN = '1403392756';
const CARD1GAN_FILE = 'autumnnippert-card1gan-1403392756-2025-03-06.json';
/** The real scoreboards: their uids embed no map, Card1gan's own rows give each one's. */
const SCOREBOARDS = [
  '4890922_1741035286_222_11001_10',
  '6713355_1740604074_322_11001_10',
  '6713371_1740603484_820_11001_10',
  '6714464_1741144336_206_11001_10',
];
/** Card1gan's newest match (what /last printed): the API keeps no scoreboard of it. */
const NO_SCOREBOARD = '4891084_1741224948_445_11001_10';

const say = (locale: Locale, key: MessageKey, values?: MessageValues) => runInLocale(locale, () => tr(key, values));
const rowOf = (uid: string) => realProfiles[CARD1GAN_FILE]!.recent_matches.find((m) => m.match_uid === uid)!;
const summaryFacts = (description: string | undefined) => description!.split('\n')[0]!;

describe('/match by id, with a profile the cache holds', () => {
  const env = useReplicaBot();
  const mapName = async (id: string) => escapeText(mapPlainName((await env.b.ctx.maps.get(id))!), 80);

  it('names no map while nothing held names one, then the map Card1gan’s rows give, as when opened from their list', async () => {
    const requests = () => env.b.ctx.api.stats.upstreamRequests;
    for (const uid of SCOREBOARDS) {
      const before = (await env.b.run('match', { match: uid })).payload.embeds[0]!;
      expect(summaryFacts(before.description), uid).toMatch(/^\*\*Duration\*\*/);
    }
    // A member opens Card1gan's profile: the bot now holds its rows.
    await env.b.run('player', { query: CARD1GAN });
    const rounded: string[] = [];
    for (const uid of SCOREBOARDS) {
      const asked = requests();
      const { payload } = await env.b.run('match', { match: uid });
      // The scoreboard and the lists are cached: naming the map asked the API nothing.
      expect(requests(), uid).toBe(asked);
      const row = rowOf(uid);
      const summary = payload.embeds[0]!;
      expect(summaryFacts(summary.description), uid).toMatch(
        new RegExp(`^\\*\\*Map\\*\\* ${(await mapName(row.map_id!)).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} · `),
      );
      expect(summary.thumbnail?.url, uid).toMatch(new RegExp(row.map_id!));
      // The same first line as the match opened from Card1gan's list.
      const origin = encodeMatchOrigin({
        matchUid: uid,
        mapId: row.map_id,
        modeId: row.game_mode_id,
        duration: row.duration,
        time: row.time,
        score: row.score,
      });
      const openedPayload = (await env.b.press(`mt.l:${CARD1GAN}`, [origin])).payload;
      const opened = openedPayload.embeds[0]!;
      expect(summaryFacts(opened.description), uid).toBe(summaryFacts(summary.description));
      // The rounds too, which the detail does not give: the teams are headed alike.
      const teams = (p: typeof payload) => p.embeds.slice(1).map((e) => e.title);
      expect(teams(payload), uid).toEqual(teams(openedPayload));
      if (row.score) rounded.push(uid);
    }
    // Rows with rounds are among them, so the heading above compared rounds and not only the result.
    expect(rounded.length).toBeGreaterThan(0);
    for (const uid of rounded) {
      const { payload } = await env.b.run('match', { match: uid });
      expect(payload.embeds[1]!.title, uid).toMatch(/ · rounds \d+–\d+$/);
    }
  });

  it('holds the pages of history the recent matches read, under the keys they read them by, without asking the API', async () => {
    const before = (await env.b.ctx.api.held(CARD1GAN)).histories;
    await env.b.press(`pl.s:${CARD1GAN}:`, ['matches']);
    const asked = env.b.ctx.api.stats.upstreamRequests;
    const held = await env.b.ctx.api.held(CARD1GAN);
    expect(env.b.ctx.api.stats.upstreamRequests).toBe(asked);
    expect(held.profile?.name).toBe('Card1gan');
    expect(before).toEqual([]);
    expect(held.histories.flatMap((h) => h.matches.map((m) => m.match_uid))).toEqual(expect.arrayContaining(SCOREBOARDS));
    expect((await env.b.ctx.api.held('1')).profile).toBeNull();
  });

  it('a well-formed id the API keeps no scoreboard for: the held row of a player the member looked up, said so, in every language', async () => {
    const row = rowOf(NO_SCOREBOARD);
    // Recorded after the answer: the member's lookup of Card1gan, before the test above ends.
    await vi.waitFor(async () => expect((await env.b.ctx.recent.list(MEMBER.userId)).map((p) => p.uid)).toContain(CARD1GAN));
    for (const locale of LOCALES) {
      const { view, payload } = await runInLocale(locale, () => env.b.run('match', { match: NO_SCOREBOARD }));
      expect(view.isError, locale).toBeFalsy();
      expectWithin(payload, `/match without a scoreboard in ${locale}`);
      const e = payload.embeds[0]!;
      expect(e.author?.name, locale).toBe('Card1gan');
      expect(e.title, locale).toMatch(new RegExp(`^${say(locale, 'match:team.defeat')} · `));
      expect(e.description, locale).toContain(
        say(locale, 'match:noScoreboard.said', {
          reason: say(locale, 'match:noScoreboard.missing'),
          source: say(locale, 'match:noScoreboard.fromRow', { player: 'Card1gan' }),
        }),
      );
      expect(e.description, locale).toContain(`<t:1741224948:f>`);
      expect(e.description, locale).toContain(`\`${NO_SCOREBOARD}\``);
      expect(e.description, locale).toContain(await runInLocale(locale, async () => mapName(row.map_id!)));
      expect(messageTexts(payload).join('\n'), locale).not.toContain('6713355_1740604074_322_11001_10');
    }
  });
});

describe('/match by id, with nothing held but the tracker’s records', () => {
  const env = useReplicaBot();

  it('names the map a tracked player’s recorded row gave, read by the match’s uid', async () => {
    const uid = SCOREBOARDS[0]!;
    const before = (await env.b.run('match', { match: uid })).payload.embeds[0]!;
    expect(summaryFacts(before.description)).toMatch(/^\*\*Duration\*\*/);
    // A player of the match the tracker read once: its record keeps the row's map.
    const tracking = env.b.state.tracking;
    await tracking.follow('999', 0);
    const [claim] = await tracking.claim(1, 1, 60_000);
    const match = { matchUid: uid, time: 1741035700, season: 2, modeId: 1, ranked: false, heroId: null, won: true, mapId: '1032' };
    await tracking.recordRead(
      claim!,
      {
        snapshot: { season: 2, tier: null, score: null, level: null, matches: 1, wins: 1, rankedMatches: 0, rankedWins: 0 },
        matches: [{ ...match, newScore: null, scoreChange: null, newLevel: null, kills: 1, deaths: 1, assists: 1 }],
        lastMatchAt: match.time,
        changed: true,
      },
      { intervalMs: 60_000 },
      2,
    );
    expect((await tracking.recordsOfMatch(uid)).map((r) => [r.uid, r.mapId])).toEqual([['999', '1032']]);
    const after = (await env.b.run('match', { match: uid })).payload.embeds[0]!;
    expect(summaryFacts(after.description)).toMatch(/^\*\*Map\*\* Yggdrasill Path · /);
  });
});

describe('/match by id the API keeps no scoreboard for, with nothing held', () => {
  const env = useReplicaBot();

  it('says the scoreboard is not kept and what the id tells, in every language: never that the id is wrong', async () => {
    const english = (await env.b.run('match', { match: NO_SCOREBOARD })).payload.embeds[0]!;
    for (const locale of LOCALES) {
      const { view, payload } = await runInLocale(locale, () => env.b.run('match', { match: NO_SCOREBOARD }));
      expect(view.isError, locale).toBeFalsy();
      expectWithin(payload, `/match without a scoreboard in ${locale}`);
      const e = payload.embeds[0]!;
      expect(e.description!.split('\n'), locale).toEqual([
        say(locale, 'match:facts.started', { time: '<t:1741224948:f>' }),
        say(locale, 'match:noScoreboard.said', { reason: say(locale, 'match:noScoreboard.missing'), source: say(locale, 'match:noScoreboard.fromId') }),
        say(locale, 'match:noScoreboard.matchId', { uid: escapeText(NO_SCOREBOARD, 120) }),
      ]);
      expect(messageTexts(payload).join('\n'), locale).not.toContain('6713355_1740604074_322_11001_10');
      if (locale !== 'en') expect(e.description, locale).not.toBe(english.description);
    }
  });

  it('text that is no match id is still told what a match id looks like; /scout, that there are no details; a scoreboard the API cannot give now, that it is not answering', async () => {
    const typo = await env.b.run('match', { match: 'abc_123' });
    expect(typo.view.isError).toBe(true);
    expect(typo.payload.embeds[0]!.description).toBe('No match with the id “abc\\_123” was found. Match ids look like 6713355_1740604074_322_11001_10.');
    // /scout has no row to show: it says the API has no details, not that the id is wrong.
    const scout = await env.b.run('scout', { match: NO_SCOREBOARD });
    expect(scout.view.isError).toBe(true);
    expect(scout.payload.embeds[0]!.description).toBe(
      `The API has no details for match ${escapeText(NO_SCOREBOARD, 100)}. It may be too old, or not stored yet.`,
    );
    env.r.setFaults({ forceStatus: 503, pathPrefix: '/api/v1/match/' });
    try {
      const down = await env.b.run('match', { match: '4891084_1741224948_446_11001_10' });
      expect(down.view.isError).toBe(true);
      expect(down.payload.embeds[0]!.description).toBe('The Marvel Rivals API is not answering right now. Please try again in a minute.');
    } finally {
      env.r.setFaults({});
    }
  });
});
