/**
 * /player → Seasons and rank history, its list of ranked seasons, on every real capture in all six languages: the
 * current season's line is the header's rank (tier, score, season peak) and the timeline's newest point; its wins say
 * that they are the season's ranked wins, are never fewer than the profile's ranked wins, and where they pass them a
 * note under the list says why (the season's count is the game's over the whole season, the totals the API's record).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIEmbed } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import type { PlayerProfile } from '../../src/api/schemas.js';
import type { Fetched } from '../../src/cache/response-cache.js';
import { playerView } from '../../commands/player.js';
import { currentSeason, rankSummary, seasonRanks } from '../../src/game/profile.js';
import { rankScore } from '../../src/game/ranks.js';
import { seasonFromIndex } from '../../src/game/seasons.js';
import { integer } from '../../src/i18n/format.js';
import { LOCALE_NAMES, runInLocale, tr, type Locale } from '../../src/i18n/index.js';
import { tierName } from '../../src/i18n/names.js';
import { seasonLabel } from '../../src/render/common.js';
import { LIMITS } from '../../src/render/limits.js';
import { toMessagePayload } from '../../src/render/view.js';
import { everyRawProfile, profiles, schemas } from '../game/samples.js';
import { useReplicaBot } from '../helpers/bot.js';
import { expectWithin } from '../helpers/limits.js';

const env = useReplicaBot();
const LOCALES = Object.keys(LOCALE_NAMES) as Locale[];

const FIXTURES = fileURLToPath(new URL('../fixtures/api-samples/player/', import.meta.url));
const RAW: Record<string, Record<string, unknown>> = {
  ...Object.fromEntries(
    readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as Record<string, unknown>]),
  ),
  ...everyRawProfile(),
};

const fetched = (data: PlayerProfile): Fetched<PlayerProfile> => ({ data, fetchedAt: 0, ageMs: 0, stale: false, source: 'upstream' });
/** A line without the application emojis before tiers (none are configured here, but a line may hold them). */
const plain = (text: string) => text.replace(/<a?:\w+:\d+> /g, '');

async function section(p: PlayerProfile, which: 'profile' | 'rank-history', locale: Locale): Promise<APIEmbed> {
  const view = await runInLocale(locale, () => playerView(fetched(p), which, 1, null, env.b.ctx));
  expectWithin(view, `${p.name} ${which} ${locale}`);
  return toMessagePayload(view).embeds[0]!;
}

/** The wins part of a season line, read back: the number it states and the text the locale writes for it. */
function winsPart(part: string, locale: Locale): { n: number; expected: string } {
  const n = Number(part.replace(/\D/g, ''));
  return { n, expected: runInLocale(locale, () => tr('player:rankHistory.wins', { count: n, n: integer(n) })) };
}

describe('the ranked seasons of Seasons and rank history, on every real capture', () => {
  for (const [file, body] of Object.entries(RAW)) {
    it(`${file}: the current season's line is the header's rank, and its wins are the season's ranked wins, in all six languages`, async () => {
      const p = schemas.player.parse(body);
      const header = rankSummary(p);
      const totals = p.overall.ranked;
      for (const locale of LOCALES) {
        const at = `${file} ${locale}`;
        const [profile, history] = [await section(p, 'profile', locale), await section(p, 'rank-history', locale)];
        const name = runInLocale(locale, () => tr('player:rankHistory.rankedSeasons'));
        const field = history.fields?.find((f) => f.name === name);
        if (seasonRanks(p).length === 0) {
          expect(field, at).toBeUndefined();
          continue;
        }
        const lines = field!.value.split('\n');
        const parts = plain(lines[0]!).split(' · ');
        const t = <T>(f: () => T) => runInLocale(locale, f);

        // The header's rank: its title names the tier, its fields the score and the season's peak.
        expect(parts[0], at).toBe(`**${t(() => seasonLabel(header.season!))}**`);
        expect(parts[1], at).toBe(t(() => tierName(header.tier)));
        expect(plain(profile.title!).startsWith(parts[1]!), at).toBe(true);
        expect(parts[2], at).toBe(t(() => rankScore(header.score)));
        const scoreField = profile.fields!.find((f) => f.name === t(() => tr('player:profile.rankScore')))!;
        expect(plain(scoreField.value).startsWith(parts[2]!), at).toBe(true);
        const peak = header.seasonPeak!;
        expect(parts[3], at).toBe(t(() => tr('player:rankHistory.peak', { rank: `${tierName(peak.tier)} ${rankScore(peak.score)}` })));
        // The timeline's newest point, right above the list, ends at the same score.
        const newest = history.description!.split('\n').find((l) => l.startsWith('<t:'));
        if (newest) expect(newest.split(' · ')[1]!.split(' → ').at(-1), at).toBe(parts[2]);

        // The wins say what they count.
        const { n, expected } = winsPart(parts.at(-1)!, locale);
        expect(parts.at(-1), at).toBe(expected);
        if (header.season!.index !== currentSeason(p)?.index) continue;
        // The profile's ranked totals are matches of this season: never more wins than the season's count.
        expect(n, at).toBeGreaterThanOrEqual(totals.wins);
        const note = t(() =>
          tr('player:rankHistory.winsNote', {
            season: seasonLabel(header.season!),
            wins: expected,
            matches: tr('player:count.matches', { count: totals.matches, n: integer(totals.matches) }),
            recorded: tr('player:count.wins', { count: totals.wins, n: integer(totals.wins) }),
          }),
        );
        if (n > totals.wins) expect(lines.at(-1), at).toBe(`*${note}*`);
        else expect(field!.value, at).not.toContain(note);
      }
    });
  }

  it('the review’s profiles: Freddyhun reads 5,032 and 69 ranked wins, as its header; Double C’s 30 ranked wins say why the totals hold 14', async () => {
    const fred = (await section(profiles['freddyhun-template-2025-03.json']!, 'rank-history', 'en')).fields![0]!.value.split('\n');
    expect(fred[0]).toBe('**Season 1.5** · Celestial I · 5,032 · peak Celestial I 5,066 · 69 ranked wins');
    expect(fred.at(-1)).toBe('**Season 0** · Grandmaster III · 4,568 · peak Grandmaster II 4,606 · 64 ranked wins');
    const double = (await section(profiles['doublec8-double-c-1786151874-2025-08-05.json']!, 'rank-history', 'en')).fields![0]!.value.split('\n');
    expect(double[0]).toBe('**Season 3** · Gold II · 3,752 · peak Gold II 3,763 · 30 ranked wins');
    expect(double.at(-1)).toBe(
      "*Season 3: 30 ranked wins by the game's own count, over the whole season. The profile's ranked totals (26 matches · 14 wins) count only the matches the API has recorded.*",
    );
    const de = (await section(profiles['autumnnippert-chob-bob-341932470.json']!, 'rank-history', 'de')).fields![0]!.value;
    expect(de).toContain('6 Wettkampfsiege');
    expect(de).toContain('(2 Matches · 2 Siege)');
  });

  it('a season’s count read before ranked totals that hold more wins shows at least theirs: the totals are of its matches', async () => {
    // Freddyhun without the newest row, a win the ranked totals hold (69) and the season's entry, read before it, does not (68).
    const raw = structuredClone(RAW['freddyhun-template-2025-03.json']!) as { match_history: { match_time_stamp: number }[] };
    raw.match_history = raw.match_history.filter((m) => m.match_time_stamp !== 1742933538);
    const p = schemas.player.parse(raw);
    expect([seasonRanks(p).at(-1)!.wins, p.overall.ranked.wins]).toEqual([68, 69]);
    const line = (await section(p, 'rank-history', 'en')).fields![0]!.value.split('\n')[0];
    expect(line).toBe('**Season 1.5** · Celestial I · 5,013 · peak Celestial I 5,066 · 69 ranked wins');
  });

  it('a long list of seasons gives way from the oldest: the note stays whole and the field within Discord’s 1,024 characters', async () => {
    const raw = structuredClone(RAW['doublec8-double-c-1786151874-2025-08-05.json']!) as {
      player: { info: { rank_game_season: Record<string, Record<string, unknown>> } };
    };
    const seasons = raw.player.info.rank_game_season;
    // Twenty later seasons at the longest tier name, each with a peak and a three-digit win count the totals do not reach.
    for (let id = 7; id <= 26; id++) {
      seasons[`20010${String(id).padStart(2, '0')}`] = {
        ...seasons['2001006'],
        rank_game_id: id,
        level: 16,
        rank_score: 4550.5,
        max_level: 16,
        max_rank_score: 4599.5,
        win_count: 999,
        update_time: 1760000000 + id,
      };
    }
    const p = schemas.player.parse(raw);
    expect(seasonRanks(p)).toHaveLength(26);
    for (const locale of LOCALES) {
      const field = (await section(p, 'rank-history', locale)).fields![0]!;
      expect(field.value.length, locale).toBeLessThanOrEqual(LIMITS.fieldValue);
      const lines = field.value.split('\n');
      // The newest season first, the note last and whole; the oldest seasons are the ones cut.
      expect(lines[0], locale).toContain(runInLocale(locale, () => seasonLabel(seasonFromIndex(25)!)));
      expect(lines.at(-1)!.startsWith('*') && lines.at(-1)!.endsWith('*'), `${locale}: ${lines.at(-1)}`).toBe(true);
      expect(lines.at(-1), locale).toContain(runInLocale(locale, () => tr('player:rankHistory.wins', { count: 999, n: integer(999) })));
      expect(field.value, locale).not.toContain(runInLocale(locale, () => `**${seasonLabel(seasonFromIndex(0)!)}**`));
    }
  });
});
