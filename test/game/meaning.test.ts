/**
 * What the real API's fields mean, checked on every real sample against an invariant of the data
 * itself: matchup counts against the profile's own ranked record, modes against the matches that
 * carry them, the rank timeline against the rank the profile states.
 */
import { describe, expect, it } from 'vitest';
import { recentForm } from '../../src/game/form.js';
import { matchupExtremes, playerMatchups } from '../../src/game/matchups.js';
import { matchMode } from '../../src/game/modes.js';
import { newestUpdate, rankSummary, seasonRanks } from '../../src/game/profile.js';
import { rankScore } from '../../src/game/ranks.js';
import { rankTimeline } from '../../src/game/rank-timeline.js';
import { rankHistorySpec } from '../../src/render/view-charts.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';
import { everyRawProfile, matches, profiles, schemas, SHARED_SAMPLES_DIR } from './samples.js';

describe('hero matchups count the opposing hero’s wins', () => {
  it('a player who won both of their 2 ranked matches won every matchup', () => {
    const p = profiles['autumnnippert-chob-bob-341932470.json']!;
    expect(p.overall.ranked).toMatchObject({ matches: 2, wins: 2 });
    const rows = playerMatchups(p);
    expect(rows.length).toBe(10);
    // The API says 0 wins on each row; the player's own record is the reverse.
    expect(p.hero_matchups.filter((m) => m.matches > 0).every((m) => m.wins === 0)).toBe(true);
    expect(rows.every((m) => m.wins === m.matches && m.winRate === 100)).toBe(true);
  });

  it('the player’s wins over every matchup row match the profile’s ranked win rate, where the API’s own counts give its loss rate', () => {
    let checked = 0;
    for (const [file, p] of Object.entries(profiles)) {
      const rows = playerMatchups(p);
      const matches = rows.reduce((s, m) => s + m.matches, 0);
      if (matches < 10 || p.overall.ranked.matches === 0) continue;
      const own = rows.reduce((s, m) => s + m.wins, 0) / matches;
      const ranked = p.overall.ranked.wins / p.overall.ranked.matches;
      expect(Math.abs(own - ranked), file).toBeLessThan(Math.abs(1 - own - ranked) + 1e-9);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(6);
    // Exactly, on a profile of 67 ranked matches: 30 wins, 44.8 %.
    const sir = profiles['autumnnippert-sir-final-1117455441.json']!;
    const rows = playerMatchups(sir);
    expect(rows.reduce((s, m) => s + m.wins, 0) / rows.reduce((s, m) => s + m.matches, 0)).toBeCloseTo(30 / 67, 3);
  });

  it('best and worst matchups need 3 matches, never overlap, and read from the player’s side', () => {
    const sir = matchupExtremes(profiles['autumnnippert-sir-final-1117455441.json']!);
    expect(sir.best.map((m) => `${m.hero_name} ${m.wins}/${m.matches}`)).toEqual([
      'magik 6/8',
      'groot 5/7',
      'moon knight 8/12',
      'the punisher 7/12',
      'hela 7/12',
    ]);
    expect(sir.worst.map((m) => `${m.hero_name} ${m.wins}/${m.matches}`)).toEqual([
      'mister fantastic 0/3',
      'psylocke 1/4',
      'thor 2/8',
      'namor 4/15',
      'jeff the land shark 2/7',
    ]);
    expect(sir.tooFew).toBe(5);
    for (const p of Object.values(profiles)) {
      const e = matchupExtremes(p);
      expect([...e.best, ...e.worst].every((m) => m.matches >= 3)).toBe(true);
      const best = new Set(e.best.map((m) => m.hero_id));
      expect(e.worst.some((m) => best.has(m.hero_id))).toBe(false);
    }
    // Two ranked matches: nothing to judge.
    expect(matchupExtremes(profiles['autumnnippert-chob-bob-341932470.json']!)).toMatchObject({ best: [], worst: [], tooFew: 10 });
  });
});

describe('game modes', () => {
  it('names each mode of the table; practice and unknown modes are never a real result', () => {
    expect([1, 2, 3, 4, 5, 7, 9, 10, 6, null].map((id) => matchMode(id).key)).toEqual([
      'quickPlay',
      'competitive',
      'custom',
      'arcade',
      'tutorial',
      'vsAi',
      'tournament',
      'tournament',
      'other',
      'other',
    ]);
    expect(matchMode(2)).toMatchObject({ ranked: true, counts: true, practice: false });
    expect(matchMode(7)).toMatchObject({ ranked: false, counts: false, practice: true });
    expect(matchMode(6)).toMatchObject({ ranked: false, counts: false, practice: false });
    expect(matchMode(6, 1)).toMatchObject({ key: 'custom', practice: true });
  });

  it('a match reads the same mode and map in every capture that holds it: the profiles’ rows, v1, v2 and the match detail', () => {
    // Every capture, vendored and shared, each file once: the profiles' embedded rows and both history versions.
    const histories = (folder: string) => {
      const files = new Map<string, string>();
      for (const dir of [SAMPLES_DIR, SHARED_SAMPLES_DIR]) {
        const path = join(dir, folder);
        if (existsSync(path)) for (const f of readdirSync(path).filter((x) => x.endsWith('.json'))) if (!files.has(f)) files.set(f, join(path, f));
      }
      return [...files].map(([f, path]) => ({ source: `${folder}/${f}`, rows: schemas.matchHistory.parse(JSON.parse(readFileSync(path, 'utf8'))).matches }));
    };
    const captures = [
      ...Object.entries(everyRawProfile()).map(([f, body]) => ({ source: `player/${f}`, rows: schemas.player.parse(body).recent_matches })),
      ...histories('match-history-v1'),
      ...histories('match-history-v2'),
    ];
    expect(captures.filter((c) => c.source.startsWith('match-history-v1/')).length).toBeGreaterThanOrEqual(1);
    expect(captures.filter((c) => c.source.startsWith('match-history-v2/')).length).toBeGreaterThanOrEqual(1);
    const seen = new Map<string, { source: string; mode: string }[]>();
    for (const c of captures)
      for (const m of c.rows) {
        // Every row names its mode and map.
        expect(m.game_mode_id, `${c.source} ${m.match_uid}`).not.toBeNull();
        expect(m.map_id, `${c.source} ${m.match_uid}`).not.toBeNull();
        seen.set(m.match_uid, [...(seen.get(m.match_uid) ?? []), { source: c.source, mode: `${m.game_mode_id}/${m.play_mode_id}/${m.map_id}` }]);
      }
    const shared = [...seen.values()].filter((held) => held.length > 1);
    const kinds = (prefix: string) =>
      shared.filter((held) => held.some((h) => h.source.startsWith(prefix)) && held.some((h) => h.source.startsWith('player/'))).length;
    expect(kinds('match-history-v1/')).toBeGreaterThanOrEqual(18);
    expect(kinds('match-history-v2/')).toBeGreaterThanOrEqual(20);
    for (const held of shared) expect(new Set(held.map((h) => h.mode)), JSON.stringify(held)).toHaveProperty('size', 1);
    // The match detail names its mode with the same id, and the API's own name for it.
    const details = Object.values(matches);
    expect(details.length).toBeGreaterThanOrEqual(4);
    for (const d of details) {
      const rows = seen.get(d.match_uid) ?? [];
      expect(rows.length, d.match_uid).toBeGreaterThan(0);
      for (const r of rows) expect(Number(r.mode.split('/')[0])).toBe(d.game_mode_id);
      // The name the table gives id 1 is the API's own.
      if (d.game_mode_id === 1) expect(d.game_mode_name).toBe('Quick Play');
    }
    expect(details.some((d) => d.game_mode_id === 1)).toBe(true);
  });

  it('every real match of game mode 7 has the marks of a bot match: a win of under 7 minutes, no rank change', () => {
    const bots = Object.values(profiles).flatMap((p) => p.recent_matches.filter((m) => m.game_mode_id === 7));
    expect(bots.length).toBeGreaterThanOrEqual(8);
    for (const m of bots) {
      expect(m.player.is_win).toBe(true);
      expect(m.duration!).toBeLessThan(7 * 60);
      expect(m.player.score_change ?? 0).toBe(0);
    }
    // Quick Play rows state a score change too, on a scale of their own: never a rank-score point.
    const sir = profiles['freddyhun-template-2025-03.json']!;
    const quick = sir.recent_matches.filter((m) => m.game_mode_id === 1 && m.player.new_score !== null);
    expect(quick.length).toBeGreaterThan(0);
    expect(Math.max(...quick.map((m) => m.player.new_score!))).toBeLessThan(4000);
    expect(rankSummary(sir).score!).toBeGreaterThan(5000);
    for (const p of Object.values(profiles)) {
      const uids = new Set(rankTimeline(p).flatMap((x) => (x.matchUid ? [x.matchUid] : [])));
      expect(p.recent_matches.filter((m) => uids.has(m.match_uid)).every((m) => matchMode(m.game_mode_id).ranked)).toBe(true);
    }
  });

  it('recent form leaves bot and practice matches out', () => {
    const p = profiles['freddyhun-template-2025-03.json']!;
    const bots = p.recent_matches.filter((m) => m.game_mode_id === 7).length;
    expect(bots).toBe(4);
    const form = recentForm(p.recent_matches)!;
    expect(form.leftOut).toBe(4);
    expect(form.results.length).toBe(p.recent_matches.length - 4);
    expect(form.wins + form.losses + form.draws).toBe(form.results.length);
    // The newest real match first: the competitive win of 3/25 (+19.4).
    expect(form.results[0]).toBe('win');
    const ranked = p.recent_matches.filter((m) => m.game_mode_id === 2).reduce((s, m) => s + (m.player.score_change ?? 0), 0);
    expect(form.rankChange).toBeCloseTo(ranked, 6);
    // Counting the bot wins would have made the record better than it is.
    const allWins = p.recent_matches.filter((m) => m.player.is_win === true).length;
    expect(form.wins).toBe(allWins - 4);
  });
});

describe('the rank timeline', () => {
  it('every point has its season and time, and the current season ends at the rank the header states', () => {
    for (const [file, p] of Object.entries(profiles)) {
      const timeline = rankTimeline(p);
      for (const point of timeline) {
        expect(point.season, `${file} ${point.time}`).not.toBeNull();
        expect(Number.isFinite(point.time) && Number.isFinite(point.score)).toBe(true);
      }
      for (let i = 1; i < timeline.length; i++) expect(timeline[i]!.time).toBeGreaterThan(timeline[i - 1]!.time);
      const rank = rankSummary(p);
      const inSeason = timeline.filter((x) => x.season?.index === rank.season?.index);
      // As shown: the newer profile shape states its score as rounded text ("3,752").
      if (rank.score !== null && inSeason.length > 0) expect(rankScore(inSeason.at(-1)!.score), file).toBe(rankScore(rank.score));
    }
  });

  it('the August 2025 profile: its matches are Season 3, and the chart ends at the header’s Gold II 3,752', () => {
    const p = profiles['doublec8-double-c-1786151874-2025-08-05.json']!;
    const timeline = rankTimeline(p);
    const season3 = timeline.filter((x) => x.season?.number === '3');
    expect(season3.filter((x) => x.source === 'match').length).toBe(19);
    // The rank_history entries, which name no season, fall in Season 3: its last change is the first after them.
    expect(timeline.filter((x) => x.source === 'rank-history').map((x) => x.season?.number)).toEqual(['3', '3']);
    const rank = rankSummary(p);
    const spec = rankHistorySpec(p.name, timeline, { tier: rank.tier, score: rank.score, season: rank.season, time: newestUpdate(p) }, 'Season ?');
    const line = spec.seasons.find((s) => s.name === 'Season 3')!;
    expect(line.points.at(-1)!.score).toBeCloseTo(3752.09, 1);
    expect(spec.current).toEqual({ tier: 'Gold II', score: rank.score });
    // Older seasons keep their own lines, each ending at that season's final score.
    for (const s of seasonRanks(p).filter((x) => x.season.number !== '3' && !(x.wins === 0 && x.score === 3000))) {
      expect(spec.seasons.find((l) => l.name === s.season.name)!.points.at(-1)!.score).toBeCloseTo(s.score!, 6);
    }
  });
});
