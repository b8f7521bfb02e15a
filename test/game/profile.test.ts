import { describe, expect, it } from 'vitest';
import {
  currentSeason,
  heroSummary,
  heroTotals,
  newestUpdate,
  perTenMinutes,
  playTimeByRole,
  rankSummary,
  seasonRanks,
  totalPlayTime,
} from '../../src/game/profile.js';
import { parseUpdateTime } from '../../src/game/update-times.js';
import { runInLocale } from '../../src/i18n/index.js';
import { isTierName, levelOfScore, rankScore, rankScoreChange, tierOf, tierOfLevel } from '../../src/game/ranks.js';
import { seasonFromIndex, seasonFromNumber, seasonFromRankGame, seasonOfHistoryEntry, seasonParamFor } from '../../src/game/seasons.js';
import { readdirSync, readFileSync } from 'node:fs';
import { everyRawProfile, profiles, schemas } from './samples.js';
import { matchUidStart } from '../../src/game/match-uid.js';

/** The raw JSON of every real profile: the replica's, the shared captures' and the fixtures' (test/fixtures/api-samples), by file name. */
function allRawProfiles(): Record<string, Record<string, unknown>> {
  const dir = new URL('../fixtures/api-samples/player/', import.meta.url);
  const fixtures = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f, JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Record<string, unknown>] as const);
  return { ...Object.fromEntries(fixtures), ...everyRawProfile() };
}

describe('seasons', () => {
  it('names the index numbering of v1 and the profile, the text numbering of v2 and the rank game ids alike', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 9].map((i) => seasonFromIndex(i)!.name)).toEqual([
      'Season 0',
      'Season 1',
      'Season 1.5',
      'Season 2',
      'Season 2.5',
      'Season 3',
      'Season 3.5',
      'Season 5',
    ]);
    expect(['0', '1', '1.5', '2', 2.5, '3'].map((n) => seasonFromNumber(n)!.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(seasonFromRankGame(6, '2001006')!.name).toBe('Season 3');
    expect(seasonFromRankGame(null, '1001002')!.name).toBe('Season 1');
    // The same match is "2" in v1 (Season 1.5) and "1.5" in v2.
    expect(seasonOfHistoryEntry(2, 'v1')!.name).toBe('Season 1.5');
    expect(seasonOfHistoryEntry(1.5, 'v2')!.name).toBe('Season 1.5');
    expect(seasonOfHistoryEntry(2, 'v2')!.name).toBe('Season 2');
    expect(seasonOfHistoryEntry(3, 'profile')!.name).toBe('Season 2');
  });

  it('refuses numbers no season has, and sends each endpoint its own numbering', () => {
    expect([0.5, 1.25, -1, '1.55', 'x', Number.NaN].map((n) => seasonFromNumber(n))).toEqual([null, null, null, null, null, null]);
    expect(seasonFromIndex(-1)).toBeNull();
    expect(seasonFromIndex(1.5)).toBeNull();
    const s = seasonFromNumber(1.5)!;
    expect([seasonParamFor(s, 'player'), seasonParamFor(s, 'matchHistoryV2'), seasonParamFor(s, 'matchHistoryV1')]).toEqual(['1.5', '1.5', '2']);
    expect(seasonParamFor(seasonFromNumber(0)!, 'matchHistoryV1')).toBe('0');
  });
});

describe('ranks', () => {
  it('names every level and derives the tier from the score when the level is unusable', () => {
    expect([1, 3, 4, 8, 16, 21, 22, 23].map(tierOfLevel)).toEqual([
      'Bronze III',
      'Bronze I',
      'Silver III',
      'Gold II',
      'Grandmaster III',
      'Celestial I',
      'Eternity',
      'One Above All',
    ]);
    expect([0, 24, 2.5, null].map(tierOfLevel)).toEqual([null, null, null, null]);
    expect([2999, 3000, 3752.09, 5013, 9000].map(levelOfScore)).toEqual([null, 1, 8, 21, 22]);
    expect(tierOf(null, 3507.05)).toBe('Silver I');
    expect(isTierName('Invalid level')).toBe(false);
    expect(isTierName('Grandmaster III')).toBe(true);
  });

  it('never rounds a score up into a number the game did not show', () => {
    expect(rankScore(3763.532563852457)).toBe('3,763');
    expect(rankScore(3752.0942390681694)).toBe('3,752');
    expect(rankScore(null)).toBe('—');
  });

  it("writes scores with the current language's digits", () => {
    runInLocale('de', () => {
      expect(rankScore(3763.53)).toBe('3.763');
      expect(rankScoreChange(37.97)).toBe('+38,0');
    });
    expect(runInLocale('fr', () => rankScore(3763.53))).toBe('3\u202f763');
  });
});

/** Expected rank of every real profile: tier, current score, the season it belongs to, this season's peak and the all-time peak. */
const EXPECTED: Record<string, { tier: string; score: string; season: string; current: string; peak: string; allTime: string }> = {
  'autumnnippert-card1gan-1403392756-2025-03-06.json': {
    tier: 'Grandmaster III',
    score: '4,562',
    season: 'Season 1.5',
    current: 'Season 1.5',
    peak: 'Grandmaster II 4,582',
    allTime: 'Grandmaster II 4,604 Season 1',
  },
  'autumnnippert-chob-bob-341932470.json': {
    tier: 'Platinum II',
    score: '4,046',
    season: 'Season 1.5',
    current: 'Season 1.5',
    peak: 'Platinum II 4,048',
    allTime: 'Platinum II 4,048 Season 1.5',
  },
  'autumnnippert-mrblungy-450703773.json': {
    tier: 'Grandmaster II',
    score: '4,621',
    season: 'Season 1.5',
    current: 'Season 1.5',
    peak: 'Grandmaster I 4,719',
    allTime: 'Grandmaster I 4,719 Season 1.5',
  },
  'autumnnippert-hayamaken-1402468705.json': {
    tier: 'Silver I',
    score: '3,546',
    season: 'Season 1',
    current: 'Season 1.5',
    peak: 'Gold III 3,621',
    allTime: 'Gold III 3,621 Season 1',
  },
  'autumnnippert-sir-final-1117455441.json': {
    tier: 'Grandmaster III',
    score: '4,559',
    season: 'Season 1.5',
    current: 'Season 1.5',
    peak: 'Grandmaster II 4,697',
    allTime: 'Grandmaster II 4,697 Season 1.5',
  },
  'doublec8-double-c-1786151874-2025-05-26.json': {
    tier: 'Bronze II',
    score: '3,137',
    season: 'Season 2',
    current: 'Season 2',
    peak: 'Bronze II 3,137',
    allTime: 'Silver II 3,470 Season 1.5',
  },
  'doublec8-double-c-1786151874-2025-06-05.json': {
    tier: 'Silver I',
    score: '3,507',
    season: 'Season 2.5',
    current: 'Season 2.5',
    peak: 'Silver I 3,525',
    allTime: 'Silver I 3,525 Season 2.5',
  },
  'doublec8-double-c-1786151874-2025-08-05.json': {
    tier: 'Gold II',
    score: '3,752',
    season: 'Season 3',
    current: 'Season 3',
    peak: 'Gold II 3,763',
    allTime: 'Gold II 3,763 Season 3',
  },
  // Its newest competitive match (+19.4 to 5,032) came after the season's stored 5,013.
  'freddyhun-template-2025-03.json': {
    tier: 'Celestial I',
    score: '5,032',
    season: 'Season 1.5',
    current: 'Season 1.5',
    peak: 'Celestial I 5,066',
    allTime: 'Celestial I 5,066 Season 1.5',
  },
};

describe('the rank of every real profile', () => {
  it('covers every sample file', () => {
    expect(Object.keys(profiles).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [file, want] of Object.entries(EXPECTED)) {
    it(`${file}: ${want.tier} at ${want.score}`, () => {
      const p = profiles[file]!;
      const r = rankSummary(p);
      expect(r.tier).toBe(want.tier);
      expect(rankScore(r.score)).toBe(want.score);
      expect(r.season?.name).toBe(want.season);
      expect(currentSeason(p)?.name).toBe(want.current);
      expect(`${r.seasonPeak?.tier} ${rankScore(r.seasonPeak?.score)}`).toBe(want.peak);
      expect(`${r.allTimePeak?.tier} ${rankScore(r.allTimePeak?.score)} ${r.allTimePeak?.season.name}`).toBe(want.allTime);
      expect(r.tier).not.toMatch(/invalid|unranked/i);
    });
  }

  it('reads the newer shape’s comma text score and peak block', () => {
    const p = profiles['doublec8-double-c-1786151874-2025-08-05.json']!;
    expect(p.rank.score).toBe(3752);
    expect(p.rank.peak).toEqual({ name: 'Gold II', score: 3763, image: 'https://img.test/rivals/classes/gold.png' });
    expect(p.rank.image).toBe('https://img.test/rivals/classes/gold.png');
    expect(p.overall.total_wins).toBe(20);
  });

  it('a season asked for takes its tier, score and peak from that season', () => {
    const p = profiles['autumnnippert-card1gan-1403392756-2025-03-06.json']!;
    const s1 = rankSummary(p, seasonFromNumber(1));
    expect([s1.tier, rankScore(s1.score), s1.season?.name, s1.seasonPeak?.tier, rankScore(s1.seasonPeak?.score)]).toEqual([
      'Grandmaster II',
      '4,582',
      'Season 1',
      'Grandmaster II',
      '4,604',
    ]);
    const s0 = rankSummary(p, seasonFromNumber(0));
    expect([s0.tier, rankScore(s0.score), s0.season?.name]).toEqual(['Diamond II', '4,283', 'Season 0']);
    const none = rankSummary(p, seasonFromNumber(5));
    expect([none.tier, none.score, none.season?.name]).toEqual([null, null, 'Season 5']);
  });

  it('lists ranked seasons oldest first with tiers, scores, peaks and wins', () => {
    const rows = seasonRanks(profiles['doublec8-double-c-1786151874-2025-08-05.json']!).map(
      (s) => `${s.season.name} ${s.tier} ${rankScore(s.score)} ${s.peakTier} ${rankScore(s.peakScore)} ${s.wins}`,
    );
    expect(rows).toEqual([
      'Season 0 Bronze II 3,092 Bronze II 3,105 2',
      'Season 1 Bronze III 3,000 Bronze III 3,000 0',
      'Season 1.5 Silver II 3,418 Silver II 3,470 15',
      'Season 2 Bronze II 3,137 Bronze II 3,137 3',
      'Season 2.5 Gold II 3,718 Gold II 3,734 27',
      'Season 3 Gold II 3,752 Gold II 3,763 30',
    ]);
  });
});

describe('a profile at a glance', () => {
  const roles: Record<string, string> = {
    '1041': 'Duelist',
    '1034': 'Duelist',
    '1025': 'Strategist',
    '1029': 'Duelist',
    '1033': 'Duelist',
    '1027': 'Vanguard',
  };

  it('top heroes add ranked and unranked up, keep heroes with play time but no completed match, and sort by play time', () => {
    const p = profiles['doublec8-double-c-1786151874-2025-08-05.json']!;
    const top = heroTotals(p);
    expect(top.slice(0, 3).map((h) => `${h.hero_name} ${h.matches} ${h.wins}`)).toEqual(['winter soldier 26 14', 'iron man 6 2', 'cloak & dagger 5 2']);
    expect(top.every((h) => h.matches > 0 || h.play_time > 0)).toBe(true);
    // Namor: 95 s of unranked play time, no completed match.
    expect(top.filter((h) => h.matches === 0).map((h) => `${h.hero_name} ${Math.round(h.play_time)}`)).toEqual(['namor 95']);
    for (let i = 1; i < top.length; i++) expect(top[i - 1]!.play_time).toBeGreaterThanOrEqual(top[i]!.play_time);
  });

  it('play time by role adds up to the profile’s total play time (within 1 %) on every sample with hero lists', () => {
    let checked = 0;
    for (const [file, p] of Object.entries(profiles)) {
      if (heroSummary(p).source !== 'lists') continue;
      const byRole = playTimeByRole(p, (id) => roles[id ?? ''] ?? null);
      const sum = byRole.reduce((s, r) => s + r.seconds, 0);
      expect(Math.abs(sum - totalPlayTime(p)), file).toBeLessThanOrEqual(totalPlayTime(p) * 0.01);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(7);
    // Card1gan's zero-match heroes (Peni Parker, Winter Soldier) hold 458 s: without them the sum falls short.
    const card = profiles['autumnnippert-card1gan-1403392756-2025-03-06.json']!;
    expect(
      heroTotals(card)
        .filter((h) => h.matches === 0)
        .reduce((s, h) => s + h.play_time, 0),
    ).toBeCloseTo(458.6, 0);
    // Time the lists name no hero for is shown as such, never dropped.
    const may = playTimeByRole(profiles['doublec8-double-c-1786151874-2025-05-26.json']!, () => 'Duelist');
    expect(may.map((r) => `${r.role} ${Math.round(r.seconds)}`)).toEqual(['Duelist 36381', 'Not in the hero lists 1343']);
  });

  it('play time by role, and per 10 minutes stated by the newer shape or computed from the heroes', () => {
    const p = profiles['doublec8-double-c-1786151874-2025-08-05.json']!;
    const byRole = playTimeByRole(p, (id) => roles[id ?? ''] ?? null);
    // 273 s of the totals are in no hero list.
    expect(byRole.map((r) => r.role)).toEqual(['Duelist', 'Strategist', 'Unknown role', 'Not in the hero lists']);
    expect(byRole.reduce((s, r) => s + r.seconds, 0)).toBeCloseTo(totalPlayTime(p), 6);
    expect(perTenMinutes(p)).toEqual({ damage: 10_810, heal: 2_770, damage_taken: 7_290 });
    const old = perTenMinutes(profiles['autumnnippert-card1gan-1403392756-2025-03-06.json']!)!;
    expect(Math.round(old.damage!)).toBe(10_268);
    expect(Math.round(old.heal!)).toBe(3_123);
  });

  it('reads update times as US Eastern wall time, across daylight saving', () => {
    // EST (UTC-5) before the second Sunday of March 2025, EDT (UTC-4) from it on.
    expect(parseUpdateTime('3/5/2025, 9:23:44 PM')).toBe(Date.UTC(2025, 2, 6, 2, 23, 44) / 1000);
    expect(parseUpdateTime('1/15/2025, 12:03:51 AM')).toBe(Date.UTC(2025, 0, 15, 5, 3, 51) / 1000);
    expect(parseUpdateTime('3/25/2025, 1:02:49 PM')).toBe(Date.UTC(2025, 2, 25, 17, 2, 49) / 1000);
    expect(parseUpdateTime('3/9/2025, 3:30:00 AM')).toBe(Date.UTC(2025, 2, 9, 7, 30, 0) / 1000);
    expect(parseUpdateTime('11/2/2025, 12:30:00 AM')).toBe(Date.UTC(2025, 10, 2, 4, 30, 0) / 1000);
    expect(parseUpdateTime('tomorrow')).toBeNull();
  });

  it('the zone fits the data: last_inserted_match is, to the second, the start inside one of the profile’s own match uids', () => {
    let checked = 0;
    for (const [file, raw] of Object.entries(allRawProfiles())) {
      const p = schemas.player.parse(raw);
      const inserted = parseUpdateTime(p.updates.last_inserted_match);
      if (inserted === null) continue;
      const starts = p.recent_matches.map((m) => matchUidStart(m.match_uid, Date.UTC(2030, 0, 1)));
      expect(starts, file).toContain(inserted);
      // The start of the newest match the history held at its last update: the newest row, or the one before it when the
      // profile holds a match played after last_history_update.
      const history = parseUpdateTime(p.updates.last_history_update)!;
      const held = p.recent_matches.filter((m) => m.time! <= history).sort((a, b) => b.time! - a.time!);
      expect(matchUidStart(held[0]!.match_uid, Date.UTC(2030, 0, 1)), file).toBe(inserted);
      // Read as UTC (4 or 5 hours earlier) or as Central time (an hour later), the same text is no match's start.
      for (const hours of [-5, -4, 1]) expect(starts, `${file} ${hours}`).not.toContain(inserted + hours * 3_600);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('the zone fits the data: last_update_request is one hour before the signed image URLs expire, when captured right after it', () => {
    let hour = 0;
    for (const [file, raw] of Object.entries(allRawProfiles())) {
      const requested = parseUpdateTime((raw.updates as Record<string, unknown> | undefined)?.last_update_request);
      const expires = [...JSON.stringify(raw).matchAll(/expires=(\d+)/g)].map((m) => Number(m[1]));
      if (requested === null || expires.length === 0) continue;
      // A URL is signed when the response is made, for an hour: never before the update it shows.
      for (const e of expires) expect(e - 3_600 - requested, file).toBeGreaterThanOrEqual(0);
      if (expires.every((e) => e - 3_600 - requested < 10)) hour++;
    }
    // The seven March 2025 captures were taken right after an update request: 2 to 6 seconds after it, read as Eastern time.
    expect(hour).toBeGreaterThanOrEqual(7);
  });

  it('the shown update time is never earlier than the newest match in the profile, on every sample', () => {
    for (const [file, p] of Object.entries(profiles)) {
      const newestMatch = Math.max(...p.recent_matches.map((m) => m.time ?? 0));
      const updated = newestUpdate(p);
      if (p.recent_matches.length > 0) expect(updated, file).toBeGreaterThanOrEqual(newestMatch);
    }
    // A profile whose updates.* are newer than its matches shows the update time.
    expect(newestUpdate(profiles['autumnnippert-card1gan-1403392756-2025-03-06.json']!)).toBe(Date.UTC(2025, 2, 6, 5, 3, 51) / 1000);
    // One whose newest embedded match came after its last update request shows that match's time.
    const freddy = profiles['freddyhun-template-2025-03.json']!;
    expect(newestUpdate(freddy)).toBe(1742933538);
  });

  it('win rates are computed from wins and matches, not the API’s rounded text', () => {
    const p = profiles['doublec8-double-c-1786151874-2025-08-05.json']!;
    for (const list of [p.hero_matchups, p.maps, p.team_mates, p.heroes_ranked]) {
      for (const row of list) if (row.matches > 0) expect(row.win_rate).toBeCloseTo((row.wins / row.matches) * 100, 9);
    }
  });
});
