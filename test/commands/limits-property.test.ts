/**
 * Property: for arbitrary data in the shapes the schemas accept (long texts full of markdown and
 * emoji, numbers as strings, nulls, huge lists), every View stays within Discord's limits in every
 * language of src/i18n `LOCALES` (longer languages must not break a 256-character title or
 * a 25-option menu). The data is served by the replica, so it goes through the real client, schemas,
 * handlers and renderers; each generated case is rendered once per locale, for a member whose Discord
 * client speaks it (the interaction's `locale`, one of the Discord codes that locale serves, from which
 * the router picks the language), on one bot, so the data is fetched and parsed once and the other five
 * renders read the response cache. Each answer must be within every limit as sent
 * (test/helpers/limits.ts), be in the member's language (it differs from the English answer; the
 * section menus of /hero and /player carry the locale's labels, uncut), and select menus never repeat a
 * value. Runs are fewer than with one language (every run covers all six), to keep the file's time.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_SECTIONS } from '../../src/render/player/common.js';
import { HERO_SECTIONS } from '../../commands/hero.js';
import type { CommandInput } from '../../src/discord/command.js';
import { DISCORD_LOCALES, LOCALES, trIn, type Locale } from '../../src/i18n/index.js';
import { toMessagePayload, type MessagePayload } from '../../src/render/view.js';
import type { Replica } from '../../src/replica/server.js';
import { bot, MEMBER } from '../helpers/bot.js';
import { expectWithin, messageTexts } from '../helpers/limits.js';
import { replica } from '../helpers/replica.js';

let r: Replica;
beforeAll(async () => {
  r = await replica();
});
afterAll(() => r.close());

const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '*', '_', '`', '~', '|', '\\', '>', '#', '\n', '😀', '👍🏽', 'é'), maxLength: 3000 });
const num = fc.oneof(
  fc.integer({ min: -10, max: 1e9 }),
  fc.double({ min: 0, max: 1e7, noNaN: true }),
  fc.integer({ min: 0, max: 1e6 }).map(String),
  fc.constant(null),
);
const list = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { maxLength: 60 });

/** `rank` in the older shape `{rank, image, color}` and in the August 2025 one `{rank, score: "3,752", icon, peak_rank}`. */
const rank = fc.oneof(
  fc.record({ rank: text, image: text, color: fc.oneof(text, fc.constant('#EB46FF')) }),
  fc.record({
    rank: fc.oneof(text, fc.constant('Invalid level'), fc.constant('Gold II')),
    score: fc.oneof(
      num,
      fc.integer({ min: 0, max: 9_999_999 }).map((n) => n.toLocaleString('en')),
    ),
    unit: fc.constant('RS'),
    icon: text,
    color: text,
    peak_rank: fc.oneof(fc.constant(null), fc.record({ rank: text, score: fc.oneof(num, text), icon: text })),
  }),
);
const rankSeason = fc.record({ rank_game_id: num, level: num, rank_score: num, max_level: num, max_rank_score: num, update_time: num, win_count: num });
const embeddedMatch = fc.record({
  match_uid: fc.oneof(
    text.filter((t) => t.trim() !== ''),
    fc.constant('1_2_3_4_5'),
  ),
  map_id: num,
  duration: num,
  season: num,
  game_mode_id: fc.oneof(num, fc.constantFrom(1, 2, 7)),
  match_time_stamp: num,
  player_performance: fc.record({
    hero_id: num,
    hero_name: text,
    kills: num,
    deaths: num,
    assists: num,
    is_win: fc.oneof(fc.constantFrom(0, 1, true, null), fc.record({ is_win: fc.boolean() })),
    score_change: num,
  }),
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
    info: fc.record({
      login_os: text,
      completed_achievements: num,
      rank_game_season: fc.dictionary(fc.oneof(text, fc.integer({ min: 1001001, max: 2001020 }).map(String)), rankSeason, { maxKeys: 30 }),
    }),
  }),
  overall_stats: fc.oneof(
    fc.record({
      ranked: fc.record({ total_matches: num, total_wins: num, total_kills: num, total_deaths: num, total_assists: num, total_time_played: text }),
      unranked: fc.constant(null),
    }),
    fc.record({
      total_wins: fc.record({ wins: num }),
      per_minute: fc.record({ total_damage_per_minute: num, total_healing_per_minute: num, total_damage_taken_per_minute: num }),
      roles_played: fc.dictionary(text, fc.record({ total_time_played: fc.record({ time_played: num }), matches_played: num, matches_won: num }), {
        maxKeys: 6,
      }),
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
      fc.record({
        player_uid: fc.integer({ min: 1, max: 1e9 }),
        nick_name: text,
        camp: fc.oneof(fc.constantFrom(0, 1), num),
        cur_hero_id: num,
        is_win: fc.constantFrom(0, 1, true, null),
        kills: num,
        deaths: num,
        assists: num,
        total_hero_damage: num,
        player_heroes: list(fc.record({ hero_id: num, session_hit_rate: num, play_time: num })),
      }),
      // A match without players is one the API keeps no scoreboard of, answered as such (test/commands/no-dead-ends.test.ts).
      { minLength: 1, maxLength: 40 },
    ),
  }),
});

/** For each of our locales, one of the Discord locales it serves (`es-419` or `es-ES` for `es-ES`): what a member's client sends. */
const discordLocales = fc
  .tuple(...LOCALES.map((l) => fc.constantFrom(...DISCORD_LOCALES[l])))
  .map((codes) => LOCALES.map((locale, i) => ({ locale, code: codes[i]! })));

type Bot = ReturnType<typeof bot>;
type Answer = { payload: MessagePayload; isError: boolean };

/** `b`'s slash commands and components for a member whose Discord client speaks `code` (the interaction's `locale`). */
function member(b: Bot, code: string) {
  const user = { ...MEMBER, locale: code };
  return {
    run: async (name: string, options: CommandInput['options']): Promise<Answer> => {
      const view = await b.router.command(name, { options, user }, b.ctx);
      return { payload: toMessagePayload(view), isError: view.isError === true };
    },
    press: async (customId: string, values: string[] = []): Promise<Answer> => {
      const { view } = await b.router.component(customId, values, user, MEMBER.userId, b.ctx);
      return { payload: toMessagePayload(view), isError: view.isError === true };
    },
  };
}

/**
 * Renders `answers` (named answers of one member) for a member speaking each locale of `codes`, and
 * checks each within every limit and in its language: not an error, and, but in English, not the
 * English answer word for word. Returns the payloads by locale and name, for more checks.
 */
async function inEveryLocale(b: Bot, codes: { locale: Locale; code: string }[], answers: (m: ReturnType<typeof member>) => Promise<Record<string, Answer>>) {
  const out = new Map<Locale, Record<string, MessagePayload>>();
  for (const { locale, code } of codes) {
    const got = await answers(member(b, code));
    const payloads: Record<string, MessagePayload> = {};
    for (const [name, { payload, isError }] of Object.entries(got)) {
      const where = `${name} in ${locale} (${code})`;
      expect(isError, where).toBe(false);
      expectWithin(payload, where);
      payloads[name] = payload;
    }
    out.set(locale, payloads);
  }
  const english = out.get('en')!;
  for (const [locale, payloads] of out) {
    if (locale === 'en') continue;
    for (const [name, payload] of Object.entries(payloads))
      expect(messageTexts(payload), `${name} in ${locale} is the English answer`).not.toEqual(messageTexts(english[name]!));
  }
  return out;
}

/** The option labels of the select menu whose custom ID starts with `prefix` (undefined when there is none). */
function menuLabels(p: MessagePayload, prefix: string): string[] | undefined {
  for (const row of p.components) for (const c of row.components) if ('options' in c && c.custom_id.startsWith(prefix)) return c.options.map((o) => o.label);
  return undefined;
}

describe('every View stays within Discord limits for arbitrary accepted data, in every locale', () => {
  it('player profiles in both shapes, all sections and pages (recent matches from the profile itself)', async () => {
    await fc.assert(
      fc.asyncProperty(profile, discordLocales, async (body, codes) => {
        r.dataset.players.set('777000777', body);
        const b = bot(r);
        try {
          const rendered = await inEveryLocale(b, codes, async (m) => {
            const answers: Record<string, Answer> = {};
            for (const section of PLAYER_SECTIONS) {
              answers[section] = await m.press('pl.s:777000777:', [section]);
              answers[`${section} last page`] = await m.press(`pl.p:777000777::${section}:99:l`);
            }
            return answers;
          });
          for (const [locale, payloads] of rendered) {
            const labels = PLAYER_SECTIONS.map((s) => trIn(locale, `player:sections.${s}`));
            for (const section of PLAYER_SECTIONS) expect(menuLabels(payloads[section]!, 'pl.s:'), `${section} in ${locale}`).toEqual(labels);
          }
        } finally {
          await b.close();
          r.dataset.players.delete('777000777');
        }
      }),
      { numRuns: 5 },
    );
  });

  it('match details', async () => {
    await fc.assert(
      fc.asyncProperty(matchBody, discordLocales, async (body, codes) => {
        r.dataset.matches.set('1_2_3_4_5', body);
        const b = bot(r);
        try {
          await inEveryLocale(b, codes, async (m) => ({ match: await m.run('match', { match: '1_2_3_4_5' }) }));
        } finally {
          await b.close();
          r.dataset.matches.delete('1_2_3_4_5');
        }
      }),
      { numRuns: 8 },
    );
  });

  it('heroes and posts with huge texts', async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        text,
        fc.array(fc.record({ name: text, type: text, additional_fields: fc.dictionary(text, text, { maxKeys: 12 }) }), { maxLength: 30 }),
        discordLocales,
        async (bio, lore, abilities, codes) => {
          const hulk = r.dataset.heroes.find((h) => h.id === 1011)!;
          const saved = { ...hulk };
          Object.assign(hulk, { bio, lore: lore.repeat(4), real_name: bio, abilities, team: [bio, lore] });
          r.dataset.posts.patchNotes.unshift({
            id: 'prop-1',
            title: bio,
            date: '2026/01/01',
            overview: lore,
            fullContent: `${lore}\n\n${bio}`.repeat(5),
            imagePath: '/x.png',
          });
          const b = bot(r);
          try {
            const rendered = await inEveryLocale(b, codes, async (m) => {
              const answers: Record<string, Answer> = {};
              for (const section of HERO_SECTIONS) answers[`hero ${section}`] = await m.press('hero.s:1011', [section]);
              answers['patch list'] = await m.run('patch-notes', {});
              answers['patch read'] = await m.press('pn.o:patch-notes:1', ['prop-1']);
              return answers;
            });
            for (const [locale, payloads] of rendered) {
              const labels = HERO_SECTIONS.map((s) => trIn(locale, `hero:sections.${s}`));
              for (const section of HERO_SECTIONS) expect(menuLabels(payloads[`hero ${section}`]!, 'hero.s:'), `${section} in ${locale}`).toEqual(labels);
            }
          } finally {
            await b.close();
            Object.assign(hulk, saved);
            r.dataset.posts.patchNotes.shift();
          }
        },
      ),
      { numRuns: 5 },
    );
  });
});
