/**
 * Property: for arbitrary data in the shapes the schemas accept (long texts full of markdown and
 * emoji, numbers as strings, nulls, huge lists), every View stays within Discord's limits. The data
 * is served by the replica, so it goes through the real client, schemas, handlers and renderers.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_SECTIONS } from '../../commands/player.js';
import { HERO_SECTIONS } from '../../commands/hero.js';
import { embedLength, LIMITS } from '../../src/render/limits.js';
import type { MessagePayload } from '../../src/render/view.js';
import type { Replica } from '../../src/replica/server.js';
import { bot } from '../helpers/bot.js';
import { replica } from '../helpers/replica.js';

let r: Replica;
beforeAll(async () => {
  r = await replica();
});
afterAll(() => r.close());

const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '*', '_', '`', '~', '|', '\\', '>', '#', '\n', '😀', '👍🏽', 'é'), maxLength: 3000 });
const num = fc.oneof(fc.integer({ min: -10, max: 1e9 }), fc.double({ min: 0, max: 1e7, noNaN: true }), fc.integer({ min: 0, max: 1e6 }).map(String), fc.constant(null));
const list = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { maxLength: 60 });

/** `rank` in the older shape `{rank, image, color}` and in the August 2025 one `{rank, score: "3,752", icon, peak_rank}`. */
const rank = fc.oneof(
  fc.record({ rank: text, image: text, color: fc.oneof(text, fc.constant('#EB46FF')) }),
  fc.record({
    rank: fc.oneof(text, fc.constant('Invalid level'), fc.constant('Gold II')),
    score: fc.oneof(num, fc.integer({ min: 0, max: 9_999_999 }).map((n) => n.toLocaleString('en'))),
    unit: fc.constant('RS'),
    icon: text,
    color: text,
    peak_rank: fc.oneof(fc.constant(null), fc.record({ rank: text, score: fc.oneof(num, text), icon: text })),
  }),
);
const rankSeason = fc.record({ rank_game_id: num, level: num, rank_score: num, max_level: num, max_rank_score: num, update_time: num, win_count: num });
const embeddedMatch = fc.record({
  match_uid: fc.oneof(text.filter((t) => t.trim() !== ''), fc.constant('1_2_3_4_5')),
  map_id: num,
  duration: num,
  season: num,
  game_mode_id: fc.oneof(num, fc.constantFrom(1, 2, 7)),
  match_time_stamp: num,
  player_performance: fc.record({ hero_id: num, hero_name: text, kills: num, deaths: num, assists: num, is_win: fc.oneof(fc.constantFrom(0, 1, true, null), fc.record({ is_win: fc.boolean() })), score_change: num }),
});

const profile = fc.record({
  uid: fc.constant(777000777),
  name: text,
  isPrivate: fc.constant(false),
  updates: fc.record({ info_update_time: fc.oneof(text, fc.constant('3/5/2025, 9:23:44 PM'), fc.constant(null)), last_history_update: fc.constant(null) }),
  player: fc.record({
    level: num,
    rank,
    team: fc.record({ club_team_mini_name: text }),
    info: fc.record({ login_os: text, completed_achievements: num, rank_game_season: fc.dictionary(fc.oneof(text, fc.integer({ min: 1001001, max: 2001020 }).map(String)), rankSeason, { maxKeys: 30 }) }),
  }),
  overall_stats: fc.oneof(
    fc.record({ ranked: fc.record({ total_matches: num, total_wins: num, total_kills: num, total_deaths: num, total_assists: num, total_time_played: text }), unranked: fc.constant(null) }),
    fc.record({
      total_wins: fc.record({ wins: num }),
      per_minute: fc.record({ total_damage_per_minute: num, total_healing_per_minute: num, total_damage_taken_per_minute: num }),
      roles_played: fc.dictionary(text, fc.record({ total_time_played: fc.record({ time_played: num }), matches_played: num, matches_won: num }), { maxKeys: 6 }),
      ranked: fc.record({ total_matches: num, total_wins: num }),
      unranked: fc.record({ total_matches: num }),
    }),
  ),
  match_history: list(embeddedMatch),
  hero_matchups: list(fc.record({ hero_id: num, hero_name: text, hero_class: text, matches: num, wins: num, win_rate: num })),
  team_mates: list(fc.record({ player_info: fc.record({ nick_name: text, player_uid: num }), matches: num, wins: num })),
  heroes_ranked: list(fc.record({ hero_id: num, hero_name: text, matches: num, wins: num, kills: num, deaths: num, assists: num, play_time: num })),
  heroes_unranked: list(fc.record({ hero_name: text, play_time: text })),
  maps: list(fc.record({ map_id: num, map_name: text, matches: num, wins: num })),
  rank_history: list(fc.record({ match_time_stamp: num, score_progression: fc.record({ add_score: num, total_score: num }) })),
});

const matchBody = fc.record({
  match_details: fc.record({
    match_uid: fc.constant('1_2_3_4_5'),
    game_mode: fc.record({ game_mode_name: text }),
    replay_id: text,
    mvp_uid: num,
    match_players: fc.array(
      fc.record({ player_uid: fc.integer({ min: 1, max: 1e9 }), nick_name: text, camp: fc.oneof(fc.constantFrom(0, 1), num), cur_hero_id: num, is_win: fc.constantFrom(0, 1, true, null), kills: num, deaths: num, assists: num, total_hero_damage: num, player_heroes: list(fc.record({ hero_id: num, session_hit_rate: num, play_time: num })) }),
      { maxLength: 40 },
    ),
  }),
});

function expectWithin(p: MessagePayload, where: string) {
  expect(p.embeds.length, where).toBeLessThanOrEqual(LIMITS.embeds);
  expect(p.embeds.reduce((s, e) => s + embedLength(e), 0), where).toBeLessThanOrEqual(LIMITS.embedTotal);
  for (const e of p.embeds) {
    expect(e.title?.length ?? 0, where).toBeLessThanOrEqual(LIMITS.title);
    expect(e.description?.length ?? 0, where).toBeLessThanOrEqual(LIMITS.description);
    expect(e.author?.name.length ?? 0, where).toBeLessThanOrEqual(LIMITS.author);
    expect(e.fields?.length ?? 0, where).toBeLessThanOrEqual(LIMITS.fields);
    for (const f of e.fields ?? []) expect(f.name.length <= LIMITS.fieldName && f.value.length <= LIMITS.fieldValue && f.name.length > 0 && f.value.length > 0, where).toBe(true);
  }
  expect(p.components.length, where).toBeLessThanOrEqual(LIMITS.actionRows);
  for (const row of p.components) {
    expect(row.components.length).toBeLessThanOrEqual(LIMITS.buttonsPerRow);
    for (const c of row.components) {
      if ('custom_id' in c) expect(c.custom_id.length).toBeLessThanOrEqual(LIMITS.customId);
      if ('options' in c) {
        expect(c.options.length).toBeLessThanOrEqual(LIMITS.selectOptions);
        // Discord refuses a select menu whose options repeat a value.
        expect(new Set(c.options.map((o) => o.value)).size, where).toBe(c.options.length);
      }
    }
  }
}

describe('every View stays within Discord limits for arbitrary accepted data', () => {
  it('player profiles in both shapes, all sections and pages (recent matches from the profile itself)', async () => {
    await fc.assert(
      fc.asyncProperty(profile, async (body) => {
        r.dataset.players.set('777000777', body as unknown as Record<string, unknown>);
        const b = bot(r);
        try {
          for (const section of PLAYER_SECTIONS) {
            const { payload, view } = await b.press('pl.s:777000777:', [section]);
            expect(view.isError, section).toBeFalsy();
            expectWithin(payload, section);
            const last = await b.press(`pl.p:777000777::${section}:99:l`);
            expectWithin(last.payload, `${section} last page`);
          }
        } finally {
          await b.close();
          r.dataset.players.delete('777000777');
        }
      }),
      { numRuns: 15 },
    );
  });

  it('match details', async () => {
    await fc.assert(
      fc.asyncProperty(matchBody, async (body) => {
        r.dataset.matches.set('1_2_3_4_5', body as unknown as Record<string, unknown>);
        const b = bot(r);
        try {
          const { payload, view } = await b.run('match', { match: '1_2_3_4_5' });
          expect(view.isError).toBeFalsy();
          expectWithin(payload, 'match');
        } finally {
          await b.close();
          r.dataset.matches.delete('1_2_3_4_5');
        }
      }),
      { numRuns: 20 },
    );
  });

  it('heroes and posts with huge texts', async () => {
    await fc.assert(
      fc.asyncProperty(text, text, fc.array(fc.record({ name: text, type: text, additional_fields: fc.dictionary(text, text, { maxKeys: 12 }) }), { maxLength: 30 }), async (bio, lore, abilities) => {
        const hulk = r.dataset.heroes.find((h) => h.id === 1011)!;
        const saved = { ...hulk };
        Object.assign(hulk, { bio, lore: lore.repeat(4), real_name: bio, abilities, team: [bio, lore] });
        r.dataset.posts.patchNotes.unshift({ id: 'prop-1', title: bio, date: '2026/01/01', overview: lore, fullContent: `${lore}\n\n${bio}`.repeat(5), imagePath: '/x.png' });
        const b = bot(r);
        try {
          for (const section of HERO_SECTIONS) {
            const { payload, view } = await b.press('hero.s:1011', [section]);
            expect(view.isError, section).toBeFalsy();
            expectWithin(payload, `hero ${section}`);
          }
          expectWithin((await b.run('patch-notes', {})).payload, 'patch list');
          expectWithin((await b.press('pn.o:patch-notes:1', ['prop-1'])).payload, 'patch read');
        } finally {
          await b.close();
          Object.assign(hulk, saved);
          r.dataset.posts.patchNotes.shift();
        }
      }),
      { numRuns: 15 },
    );
  });
});
