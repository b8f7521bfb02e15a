/**
 * What a ranked season's `win_count` counts, checked on every real capture against invariants of the data itself: the
 * season's competitive wins as the game counts them, over the whole season to its `update_time`, draws and other modes
 * left out; the profile's ranked totals hold only the matches the API recorded, so they can hold fewer. And the latest
 * season as the profile shows it (`rankedSeasons`): at the header's rank, with the wins of the matches after its entry.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { MatchSummary, PlayerProfile } from '../../src/api/schemas.js';
import { matchMode } from '../../src/game/modes.js';
import { currentSeason, rankedSeasons, rankSummary, seasonRanks, type SeasonRank } from '../../src/game/profile.js';
import { seasonOfHistoryEntry } from '../../src/game/seasons.js';
import { everyRawProfile, realProfiles, schemas } from './samples.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/api-samples/player/', import.meta.url));
/** Every real capture's raw JSON: the replica's, the fixtures' and the shared folder's, by file name. */
const RAW: Record<string, Record<string, unknown>> = {
  ...Object.fromEntries(
    readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as Record<string, unknown>]),
  ),
  ...everyRawProfile(),
};
const PROFILES: Record<string, PlayerProfile> = {
  ...Object.fromEntries(Object.entries(RAW).map(([f, body]) => [f, schemas.player.parse(body)])),
  ...realProfiles,
};

/** A raw match row's `is_win.score`: 1 a win, 0 a loss, 2 a draw (the one real draw reads 2, with 3 rounds each). */
function resultScores(file: string): Map<string, number | null> {
  const rows = (RAW[file]!.match_history ?? []) as { match_uid: string; player_performance: { is_win: { score?: number } } }[];
  return new Map(rows.map((r) => [r.match_uid, r.player_performance.is_win.score ?? null]));
}

const inSeason = (m: MatchSummary, s: SeasonRank) => seasonOfHistoryEntry(m.season, 'profile')?.index === s.season.index;
/** The season's rows up to its `update_time`, which its entry already counts. */
const counted = (p: PlayerProfile, s: SeasonRank) => p.recent_matches.filter((m) => inSeason(m, s) && m.time !== null && m.time <= s.updatedAt!);
const competitiveWins = (rows: MatchSummary[]) => rows.filter((m) => matchMode(m.game_mode_id).ranked && m.player.is_win === true).length;

describe('a ranked season’s win_count', () => {
  it('is never below the competitive wins its season’s rows list up to its update_time, on every capture', () => {
    let checked = 0;
    for (const [file, p] of Object.entries(PROFILES)) {
      for (const s of seasonRanks(p)) {
        if (s.wins === null || s.updatedAt === null) continue;
        expect(s.wins, `${file} ${s.season.name}`).toBeGreaterThanOrEqual(competitiveWins(counted(p, s)));
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  it('counts no other mode: Card1gan’s Season 1.5 reads 0 beside 9 Quick Play wins of the same season before its update_time', () => {
    const p = PROFILES['autumnnippert-card1gan-1403392756-2025-03-06.json']!;
    const s = seasonRanks(p).at(-1)!;
    const rows = counted(p, s);
    expect(s.wins).toBe(0);
    expect(rows.filter((m) => m.player.is_win === true).length).toBe(9);
    expect(competitiveWins(rows)).toBe(0);
  });

  it('counts no draw: Double C’s June capture lists Season 2.5 from its first match, 9 wins and a draw, and reads 9', () => {
    const file = 'doublec8-double-c-1786151874-2025-06-05.json';
    const p = PROFILES[file]!;
    const [previous, s] = seasonRanks(p).slice(-2) as [SeasonRank, SeasonRank];
    const rows = p.recent_matches.filter((m) => inSeason(m, s) && matchMode(m.game_mode_id).ranked).sort((a, b) => a.time! - b.time!);
    // A half-season goes on from the season before it: the first row starts at Season 2's final score, so none is missing.
    expect(rows[0]!.player.new_score! - rows[0]!.player.score_change!).toBeCloseTo(previous.score!, 6);
    const scores = resultScores(file);
    const results = rows.map((m) => scores.get(m.match_uid));
    expect(results.filter((r) => r === 1).length).toBe(9);
    expect(results.filter((r) => r === 2).length).toBe(1);
    expect(s.wins).toBe(9);
  });

  it('with the wins its season’s rows list after it, is never below the profile’s ranked wins, and equals them where the API recorded the whole season', () => {
    let checked = 0;
    for (const [file, p] of Object.entries(PROFILES)) {
      // The ranked totals are the current season's.
      const s = seasonRanks(p).at(-1);
      if (!s || s.wins === null || s.updatedAt === null || s.season.index !== currentSeason(p)?.index) continue;
      const newer = p.recent_matches.filter((m) => inSeason(m, s) && m.time !== null && m.time > s.updatedAt!);
      expect(s.wins + competitiveWins(newer), file).toBeGreaterThanOrEqual(p.overall.ranked.wins);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(10);
    // Read before its newest match, a win: 68 and that win are the 69 ranked wins of its 126 ranked matches.
    const fred = PROFILES['freddyhun-template-2025-03.json']!;
    expect(seasonRanks(fred).at(-1)!.wins).toBe(68);
    expect(fred.overall.ranked).toMatchObject({ matches: 126, wins: 69 });
    for (const [file, wins] of [
      ['doublec8-double-c-1786151874-2025-05-26.json', 3],
      ['doublec8-double-c-1786151874-2025-06-05.json', 9],
      ['autumnnippert-card1gan-1403392756-2025-03-06.json', 0],
    ] as const) {
      expect(seasonRanks(PROFILES[file]!).at(-1)!.wins, file).toBe(wins);
      expect(PROFILES[file]!.overall.ranked.wins, file).toBe(wins);
    }
  });

  it('passes the ranked totals where the API recorded only part of the season: the season’s climb needs more wins than they hold', () => {
    // A half-season starts from the season before's final score, so its climb is its score minus that. No win gains more
    // than the best of the player's own (a row's change, or the entry's last change), so the climb needs at least this many.
    const needed = (p: PlayerProfile): number | null => {
      const [previous, s] = seasonRanks(p).slice(-2);
      if (!previous || !s || !s.season.number.endsWith('.5') || previous.score === null || s.score === null) return null;
      const gains = p.recent_matches.filter((m) => matchMode(m.game_mode_id).ranked && m.player.is_win === true).map((m) => m.player.score_change ?? 0);
      const last = p.rank_seasons.find((r) => r.rank_game_id === s.season.index + 1)?.diff_score ?? 0;
      const best = Math.max(...gains, last);
      return best > 0 ? Math.max(0, Math.ceil((s.score - previous.score) / best)) : null;
    };
    const passed: string[] = [];
    for (const [file, p] of Object.entries(PROFILES)) {
      const least = needed(p);
      if (least === null) continue;
      const s = seasonRanks(p).at(-1)!;
      expect(s.wins, file).toBeGreaterThanOrEqual(least);
      if (least > p.overall.ranked.wins) passed.push(file);
    }
    // Chob Bob's Season 1.5 rose 114.9 points from Season 1's 3,931.3: 5 wins at his best +23.2 at least, beside 2 ranked wins.
    expect(passed).toContain('autumnnippert-chob-bob-341932470.json');
    const chob = PROFILES['autumnnippert-chob-bob-341932470.json']!;
    expect(needed(chob)).toBe(5);
    expect(seasonRanks(chob).at(-1)!.wins).toBe(6);
    expect(chob.overall.ranked).toMatchObject({ matches: 2, wins: 2 });
  });

  it('the ranked totals are the matches the API stored: Double C’s June 14 are its 14 competitive rows, and the season moved after them', () => {
    const p = PROFILES['doublec8-double-c-1786151874-2025-06-05.json']!;
    const s = seasonRanks(p).at(-1)!;
    const rows = p.recent_matches.filter((m) => matchMode(m.game_mode_id).ranked).sort((a, b) => a.time! - b.time!);
    expect(p.overall.ranked).toMatchObject({ matches: rows.length, wins: competitiveWins(rows) });
    const last = rows.at(-1)!;
    expect(s.updatedAt!).toBeGreaterThan(last.time!);
    expect(s.score!).not.toBeCloseTo(last.player.new_score!, 1);
  });
});

describe('the ranked seasons as the profile shows them', () => {
  it('the latest is at the header’s rank, score and season peak on every capture; the older ones are their entries', () => {
    for (const [file, p] of Object.entries(PROFILES)) {
      const shown = rankedSeasons(p);
      const entries = seasonRanks(p);
      expect(shown.length, file).toBe(entries.length);
      if (shown.length === 0) continue;
      const header = rankSummary(p);
      const latest = shown.at(-1)!;
      expect({ tier: latest.tier, score: latest.score, season: latest.season.index }, file).toEqual({
        tier: header.tier,
        score: header.score,
        season: header.season!.index,
      });
      if (header.seasonPeak?.score != null) expect({ tier: latest.peakTier, score: latest.peakScore }, file).toEqual(header.seasonPeak);
      expect(shown.slice(0, -1), file).toEqual(entries.slice(0, -1));
    }
  });

  it('a profile read before its newest match, a win: the line is at 5,032 and counts 69 ranked wins, as the header and the ranked totals', () => {
    const p = PROFILES['freddyhun-template-2025-03.json']!;
    const latest = rankedSeasons(p).at(-1)!;
    expect(seasonRanks(p).at(-1)).toMatchObject({ score: expect.closeTo(5013.15, 2) as number, wins: 68 });
    expect(latest).toMatchObject({ tier: 'Celestial I', score: expect.closeTo(5032.55, 2) as number, wins: 69, updatedAt: 1742933538 });
  });
});
