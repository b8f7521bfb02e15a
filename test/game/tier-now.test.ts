/**
 * The tier now: the current season's level read with its score by one rule (src/game/ranks.ts), never the API's rank
 * text, which a real profile showed at an earlier season's level. Checked on every real capture, as captured and with its
 * rank block written for another tier, down the tracker's path to the ladder, rank roles and moments.
 */
import { describe, expect, it } from 'vitest';
import { momentsBetween, standingOf, type Standing } from '../../src/game/ladder.js';
import { rankPace } from '../../src/game/pace.js';
import { rankSummary } from '../../src/game/profile.js';
import { badgeSlug, floorOfLevel, levelOfScore, levelOfTier, shownLevel, TIER_COLOURS, tierBadge, tierGroup, tierOf } from '../../src/game/ranks.js';
import { rankRoleOf } from '../../src/game/rank-roles.js';
import { readForTracking, trackedTimelinePoints, weekChange } from '../../src/game/tracking.js';
import { otherLevel, seasonNow, withRankText } from '../helpers/rank-text.js';
import { everyRawProfile, schemas } from './samples.js';

const RAW = everyRawProfile();
const parse = (body: Record<string, unknown>) => schemas.player.parse(body);

describe('the one rule: a level read with its score', () => {
  it('shows the level at its score’s division or the one above (a division kept), else the score’s division', () => {
    // Sir Final's Season 1: level 16 (Grandmaster III) at 4,473, a Diamond I score, after a peak of 4,569.
    expect(tierOf(16, 4473.49)).toBe('Grandmaster III');
    expect(tierOf(16, 4580)).toBe('Grandmaster III');
    // A level below the score, or two divisions above it, is not what the game shows for that score.
    expect(tierOf(10, 4580)).toBe('Grandmaster III');
    expect(tierOf(18, 4580)).toBe('Grandmaster III');
    // One alone says it; neither says nothing. One Above All sits on an Eternity score.
    expect([tierOf(16, null), tierOf(null, 4580), tierOf(null, null), tierOf(23, 5400), tierOf(22, 5400)]).toEqual([
      'Grandmaster III',
      'Grandmaster III',
      null,
      'One Above All',
      'Eternity',
    ]);
    expect([shownLevel(99, 3050), shownLevel(2.5, null), shownLevel(1, 0)]).toEqual([1, null, 1]);
  });

  it('names a tier’s badge from the API’s own path, rewritten only where no signature forbids it', () => {
    expect([tierGroup('Grandmaster III'), tierGroup('one above all'), tierGroup('Invalid level'), tierGroup(null)]).toEqual([
      'Grandmaster',
      'One Above All',
      null,
      null,
    ]);
    const api = 'https://img.test/rivals/ranked/platinum.png';
    expect(tierBadge('Platinum III', api)).toBe(api);
    expect(tierBadge('Grandmaster III', api)).toBe('https://img.test/rivals/ranked/grandmaster.png');
    expect(tierBadge('Gold II', 'https://img.test/rivals/classes/silver.png')).toBe('https://img.test/rivals/classes/gold.png');
    expect(tierBadge('One Above All', api)).toBe('https://img.test/rivals/ranked/one-above-all.png');
    // A signed URL of another tier cannot be rewritten, a file that names no tier is not a badge: none rather than a wrong one.
    expect(tierBadge('Gold II', 'https://img.test/premium/silver.png?expires=1&signature=x')).toBeNull();
    expect(tierBadge('Gold II', 'https://img.test/premium/gold.png?expires=1&signature=x')).toBe('https://img.test/premium/gold.png?expires=1&signature=x');
    expect(tierBadge('Gold II', 'https://img.test/rivals/players/heads/player_head_1.png')).toBeNull();
    expect([tierBadge(null, api), tierBadge('Gold II', null)]).toEqual([null, null]);
  });
});

describe('every real capture', () => {
  it('finds the captures, vendored and shared', () => {
    expect(Object.keys(RAW).length).toBeGreaterThanOrEqual(9);
  });

  it('on the captures, the API’s rank text and its badge name one tier: a stale text comes with a stale badge', () => {
    let named = 0;
    for (const [file, body] of Object.entries(RAW)) {
      const p = parse(body);
      const group = tierGroup(p.rank.name);
      if (!group) continue;
      named++;
      expect(p.rank.image, file).toMatch(new RegExp(`/${badgeSlug(group)}\\.png$`));
    }
    expect(named).toBeGreaterThanOrEqual(8);
  });

  for (const [file, body] of Object.entries(RAW)) {
    it(`${file}: the tier, badge, colour and pace come from the season’s level, whatever the API’s rank text says`, () => {
      const captured = parse(body);
      const now = seasonNow(captured);
      // A profile that lists no ranked season: the API's text, as far as the API's score bears it out.
      if (now === null) return expect(rankSummary(captured).tier).toBe(tierOf(levelOfTier(captured.rank.name), captured.rank.score));
      // As captured, and with the rank block of a tier two tiers away, as the real profile headed "Platinum III" at 4,580.
      for (const p of [captured, parse(withRankText(body, otherLevel(levelOfTier(now.tier)!)))]) {
        const rank = rankSummary(p);
        expect(rank.tier, file).toBe(now.tier);
        expect(rank.score, file).toBe(now.score);
        const group = tierGroup(rank.tier)!;
        expect(rank.image, file).toMatch(new RegExp(`/${badgeSlug(group)}\\.png$`));
        expect(rank.color, file).toBe(TIER_COLOURS[group]);
        const pace = rankPace(p, rank);
        if (levelOfScore(rank.score) !== null && rank.season) {
          // The next division above the one shown; its floor minus the score.
          const shown = levelOfTier(rank.tier)!;
          expect(pace?.nextTier, file).toBe(tierOf(shown + 1, null));
          expect(pace!.points, file).toBeCloseTo(floorOfLevel(shown + 1) - rank.score!, 6);
        }
      }
    });
  }
});

describe('the tracker’s path: ladder, rank roles, moments', () => {
  const MAP = { Bronze: 'r-bronze', Silver: 'r-silver', Gold: 'r-gold', Platinum: 'r-plat', Diamond: 'r-dia', Grandmaster: 'r-gm', Celestial: 'r-cel' };

  for (const [file, body] of Object.entries(RAW)) {
    it(`${file}: a standing read from a profile headed by another tier carries the season’s tier, and its rank role`, () => {
      const now = seasonNow(parse(body));
      if (now?.tier == null) return;
      const stale = parse(withRankText(body, otherLevel(levelOfTier(now.tier)!)));
      const read = readForTracking(stale);
      if (read.kind !== 'read') throw new Error(`${file} was not read: ${read.kind}`);
      expect(read.snapshot.tier, file).toBe(now.tier);
      const standing = standingOf(
        read.snapshot,
        { timeline: trackedTimelinePoints([], read.matches), matches: read.matches },
        { apiPeak: null, role: null },
        0,
      );
      expect(standing.tier, file).toBe(now.tier);
      expect(rankRoleOf(standing.tier, MAP), file).toBe(MAP[tierGroup(now.tier) as keyof typeof MAP]);
      expect(rankRoleOf(standing.tier, MAP), file).not.toBe(rankRoleOf(stale.rank.name, MAP));
    });
  }

  const standing = (tier: string, score: number | null, extra: Partial<Standing> = {}): Standing => ({
    season: 5,
    tier,
    score,
    peak: score,
    matches: 10,
    role: null,
    weekDelta: null,
    private: false,
    ...extra,
  });

  it('a tier that changes while the score stands still is a reading corrected, not a rank moment; a crossing still is one', () => {
    // A standing recorded from the API's stale text, then read again by the rule at the same score: no post.
    expect(momentsBetween(standing('Platinum III', 4580), standing('Grandmaster III', 4580))).toEqual([]);
    // Nor one whose score moved the other way.
    expect(momentsBetween(standing('Platinum III', 4585), standing('Grandmaster III', 4580, { peak: 4585 }))).toEqual([]);
    // The check that posts them ran: a real crossing, either way, and a score unknown on one side.
    expect(momentsBetween(standing('Diamond I', 4480), standing('Grandmaster III', 4510))).toEqual([
      { kind: 'rank-up', from: 'Diamond I', to: 'Grandmaster III' },
      { kind: 'peak', score: 4510 },
    ]);
    expect(momentsBetween(standing('Grandmaster III', 4410, { peak: 4600 }), standing('Diamond I', 4390, { peak: 4600 }))).toEqual([
      { kind: 'rank-down', from: 'Grandmaster III', to: 'Diamond I' },
    ]);
    expect(momentsBetween(standing('Diamond I', null), standing('Grandmaster III', 4510))).toEqual([
      { kind: 'rank-up', from: 'Diamond I', to: 'Grandmaster III' },
    ]);
  });

  it('a week’s tier counts a recorded division kept below its floor, and reads a tier once recorded from stale text by the rule', () => {
    const at = 1_000_000_000;
    const snap = (tier: string, score: number) => ({
      season: 5,
      tier,
      score,
      level: 100,
      matches: 10,
      wins: 5,
      rankedMatches: 10,
      rankedWins: 5,
      at: at * 1000,
    });
    const weekLater = (at + 8 * 86_400) * 1000;
    // Grandmaster III kept at 4,473 (a Diamond I score): a week at that tier, not "Diamond I → Grandmaster III".
    const kept = weekChange(trackedTimelinePoints([snap('Grandmaster III', 4473)], []), [], { score: 4520, tier: 'Grandmaster III', season: 5 }, weekLater);
    expect([kept?.tierFrom, kept?.tierTo]).toEqual(['Grandmaster III', 'Grandmaster III']);
    const stale = weekChange(trackedTimelinePoints([snap('Platinum III', 4580)], []), [], { score: 4590, tier: 'Grandmaster III', season: 5 }, weekLater);
    expect([stale?.tierFrom, stale?.tierTo]).toEqual(['Grandmaster III', 'Grandmaster III']);
  });
});
