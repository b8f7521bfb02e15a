/** Rank pace and the standing among all players, on the real samples (src/game/pace.ts, the August 2025 profile shape). */
import { describe, expect, it } from 'vitest';
import { rankPace } from '../../src/game/pace.js';
import { rankSummary, seasonRanks } from '../../src/game/profile.js';
import { floorOfLevel, levelOfScore, tierOfLevel } from '../../src/game/ranks.js';
import { profiles, raw, schemas } from './samples.js';

const AUGUST = 'doublec8-double-c-1786151874-2025-08-05.json';

describe('rank pace', () => {
  it('counts the points to the next division and the wins at the season’s recent gain per win', () => {
    const p = profiles[AUGUST]!;
    const rank = rankSummary(p);
    const pace = rankPace(p, rank)!;
    // Gold II at 3,752.09: Gold I starts at 3,800.
    expect(rank.tier).toBe('Gold II');
    expect(pace.nextTier).toBe('Gold I');
    expect(pace.points).toBeCloseTo(3800 - rank.score!, 6);
    // The gains are the season's own competitive wins, each above 0, newest first.
    const season = rank.season!.index;
    const wins = p.recent_matches.filter((m) => m.game_mode_id === 2 && m.player.is_win === true && (m.player.score_change ?? 0) > 0);
    expect(wins.length).toBeGreaterThan(0);
    expect(pace.wins).toBe(Math.min(10, wins.filter((m) => m.season !== null).length));
    expect(pace.perWin).toBeGreaterThan(20);
    expect(pace.winsNeeded).toBe(Math.ceil(pace.points / pace.perWin!));
    expect(season).toBeGreaterThan(0);
  });

  it('counts the matches at the recent win rate and mean gains of the season’s latest 20 ranked wins and losses', () => {
    const p = profiles[AUGUST]!;
    const pace = rankPace(p, rankSummary(p))!;
    // By hand: the season's competitive rows with a result and a score change, newest first, at most 20.
    const rows = p.recent_matches
      .filter((m) => m.game_mode_id === 2 && (m.player.result === 'win' || m.player.result === 'loss') && m.player.score_change !== null)
      .sort((a, b) => b.time! - a.time!)
      .slice(0, 20);
    const wins = rows.filter((m) => m.player.result === 'win').map((m) => m.player.score_change!);
    const losses = rows.filter((m) => m.player.result === 'loss').map((m) => -m.player.score_change!);
    const rate = wins.length / rows.length;
    const gain = wins.reduce((a, b) => a + b, 0) / wins.length;
    const loss = losses.reduce((a, b) => a + b, 0) / losses.length;
    expect(pace.matches).toEqual({
      needed: Math.ceil(pace.points / (rate * gain - (1 - rate) * loss)),
      winRate: rate,
      perWin: gain,
      perLoss: loss,
      basis: rows.length,
    });
    expect(pace.matches!.needed).toBe(5);
    // A pace that does not climb: every loss as heavy as a win, at no more wins than losses.
    const flat = {
      ...p,
      recent_matches: p.recent_matches.map((m, i) => ({ ...m, player: { ...m.player, result: i % 2 ? 'win' : 'loss', score_change: i % 2 ? 20 : -20 } })),
    } as typeof p;
    expect(rankPace(flat, rankSummary(flat))!.matches).toMatchObject({ needed: null, perWin: 20, perLoss: 20 });
  });

  it('every real profile with a score below Eternity gets a pace whose next division is one above its own', () => {
    let checked = 0;
    for (const [file, p] of Object.entries(profiles)) {
      const rank = rankSummary(p);
      const pace = rankPace(p, rank);
      const level = levelOfScore(rank.score);
      if (level === null || !rank.season) {
        expect(pace, file).toBeNull();
        continue;
      }
      expect(pace!.nextTier, file).toBe(tierOfLevel(level + 1));
      expect(pace!.points, file).toBeGreaterThan(0);
      expect(pace!.points, file).toBeLessThanOrEqual(100);
      expect(rank.score! + pace!.points, file).toBeCloseTo(floorOfLevel(level + 1), 6);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  it('a division the game keeps after the score fell below its floor is counted from: the next one is above it', () => {
    const p = profiles[AUGUST]!;
    // Card1gan's Season 1 as captured: Grandmaster II (level 17) at 4,582.34, after a peak of 4,604.
    const kept = { ...rankSummary(p), tier: 'Grandmaster II', score: 4582.34 };
    const pace = rankPace(p, kept)!;
    expect(pace.nextTier).toBe('Grandmaster I');
    expect(pace.points).toBeCloseTo(4700 - 4582.34, 6);
    // A tier further from the score than one division is not trusted over it.
    expect(rankPace(p, { ...kept, tier: 'Celestial I' })!.nextTier).toBe('Grandmaster II');
  });

  it('on every real ranked season, the level is its score’s division or the one above, which its peak reached', () => {
    let kept = 0;
    let checked = 0;
    for (const [file, p] of Object.entries(profiles)) {
      for (const s of seasonRanks(p)) {
        if (s.level === null || s.score === null || s.score < 3000 || s.level >= 22) continue;
        const byScore = levelOfScore(s.score)!;
        expect([byScore, byScore + 1], `${file} ${s.season.number}`).toContain(s.level);
        if (s.level === byScore + 1) {
          kept++;
          expect(s.peakScore, `${file} ${s.season.number}`).toBeGreaterThanOrEqual(floorOfLevel(s.level));
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
    // Card1gan (Seasons 0 and 1), Sir Final (Season 1), Double C (Season 0): the division kept.
    expect(kept).toBeGreaterThanOrEqual(4);
  });

  it('without a recent win of the season, the points stand alone; Eternity has no next division', () => {
    const body = raw('player', AUGUST);
    const losing = structuredClone(body) as { match_history: { player_performance: { is_win: unknown } }[] };
    for (const m of losing.match_history) m.player_performance.is_win = { score: 0, is_win: false };
    const p = schemas.player.parse(losing);
    const pace = rankPace(p, rankSummary(p))!;
    expect(pace).toMatchObject({ perWin: null, wins: 0, winsNeeded: null });
    expect(pace.points).toBeGreaterThan(0);
    const eternity = { ...rankSummary(p), score: 5_400 };
    expect(rankPace(p, eternity)).toBeNull();
  });

  it('shows the Chrono Shield only where the season states one above 0', () => {
    const shielded = Object.values(profiles).flatMap((p) => {
      const pace = rankPace(p, rankSummary(p));
      return pace?.shield ? [pace.shield] : [];
    });
    // Real seasons hold protect_score 0, 1, 2 and 4; only the Bronze–Gold ones are above 0.
    expect(shielded.every((s) => s > 0)).toBe(true);
    // The pattern docs/data.md reads it by: above 0 only in seasons at Gold II (level 8) and below.
    const seasons = Object.values(profiles).flatMap((p) => seasonRanks(p));
    expect(seasons.filter((s) => (s.shield ?? 0) > 0).length).toBeGreaterThan(3);
    expect(seasons.filter((s) => (s.shield ?? 0) > 0).every((s) => (s.level ?? 99) <= 8)).toBe(true);
    expect(seasons.filter((s) => (s.level ?? 0) > 8).every((s) => s.shield === 0)).toBe(true);
    const june = profiles['doublec8-double-c-1786151874-2025-06-05.json']!;
    expect(rankPace(june, rankSummary(june))?.shield).toBe(2);
  });
});

describe('standing among all players (August 2025 shape)', () => {
  it('reads each placement from its text, not from percentile_raw, whose meaning differs by block', () => {
    const p = profiles[AUGUST]!;
    expect(p.overall.percentiles).toEqual({
      win_rate: { side: 'bottom', percent: 31 },
      kda: { side: 'bottom', percent: 31 },
      mvp: { side: 'bottom', percent: 0 },
      svp: { side: 'bottom', percent: 11 },
      kills: { side: 'bottom', percent: 33 },
    });
    // svp_percentage.percentile_raw is the player's own SVP rate (2 SVPs in 26 ranked matches), not a percentile.
    const svp = (raw('player', AUGUST).overall_stats as { total_svps: { svp_percentage: { percentile_raw: number } } }).total_svps.svp_percentage;
    expect(svp.percentile_raw).toBeCloseTo((2 / p.overall.ranked.matches) * 100, 6);
  });

  it('reads the misnamed max_kill_streak block, a streak no larger than the best match’s kills', () => {
    const p = profiles[AUGUST]!;
    expect(p.overall.max_kill_streak).toBe(18);
    const best = Math.max(...p.recent_matches.map((m) => m.player.kills));
    expect(p.overall.max_kill_streak!).toBeLessThanOrEqual(best);
  });

  it('the older shape has none, and odd values are dropped', () => {
    const old = profiles['autumnnippert-sir-final-1117455441.json']!;
    expect(Object.values(old.overall.percentiles).every((v) => v === null)).toBe(true);
    expect(old.overall.max_kill_streak).toBeNull();
    const body = structuredClone(raw('player', AUGUST)) as { overall_stats: Record<string, unknown> };
    body.overall_stats.overall_kda = { kda: 3.7, percentile: 'Middle 40%' };
    body.overall_stats.total_kills = { kills: 640, percentile: 'Top 140%' };
    body.overall_stats.max_kill_streak = { a: 1, b: 2 };
    const p = schemas.player.parse(body);
    expect(p.overall.percentiles.kda).toBeNull();
    expect(p.overall.percentiles.kills).toBeNull();
    expect(p.overall.max_kill_streak).toBeNull();
    expect(p.overall.percentiles.win_rate).toEqual({ side: 'bottom', percent: 31 });
  });
});
