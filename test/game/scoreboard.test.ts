import { describe, expect, it } from 'vitest';
import type { MatchDetail } from '../../src/api/schemas.js';
import { badgeName, heroTimesOf, mainHeroOf, matchLength, playTimeOf, scoreboard } from '../../src/game/scoreboard.js';
import { matches, profiles, raw, schemas } from './samples.js';

const statusOf = (m: MatchDetail) => Object.fromEntries(scoreboard(m).flatMap((t) => t.lines.map((l) => [l.player.nick_name, l.status])));

describe('a draw', () => {
  it('every player of both teams not winning is a draw for both, not two defeats; one winning side stays a win and a loss', () => {
    const real = matches['6713371_1740603484_820_11001_10']!;
    const draw: MatchDetail = { ...real, players: real.players.map((p) => ({ ...p, is_win: false })) };
    expect(scoreboard(draw).map((t) => [t.camp, t.won, t.drawn])).toEqual(scoreboard(real).map((t) => [t.camp, null, t.camp !== null]));
    expect(
      scoreboard(real)
        .filter((t) => t.camp !== null)
        .map((t) => [t.won, t.drawn])
        .sort(),
    ).toEqual([
      [false, false],
      [true, false],
    ]);
  });
});

describe('scoreboard on the real matches', () => {
  it('the main hero is the one played longest, not the last one picked', () => {
    const m = matches['6713371_1740603484_820_11001_10']!;
    const x = m.players.find((p) => p.nick_name === 'xCezovz')!;
    expect(x.cur_hero_id).toBe('1030');
    expect(mainHeroOf(x)).toBe('1029');
    expect(matchLength(m)).toBeCloseTo(468.46, 2);
  });

  it('a 13-player match: the player who left at 51 s is last, the one who took their place is a replacement', () => {
    const s = statusOf(matches['6713355_1740604074_322_11001_10']!);
    expect(s.Diijonn).toBe('left');
    expect(s.Jdog15).toBe('replacement');
    expect(Object.values(s).filter((v) => v === 'played')).toHaveLength(11);
    const team = scoreboard(matches['6713355_1740604074_322_11001_10']!).find((t) => t.lines.some((l) => l.player.nick_name === 'Diijonn'))!;
    expect(team.lines.at(-1)!.player.nick_name).toBe('Diijonn');
    expect(team.won).toBe(false);
  });

  it('a 14-player match: two left, two replacements, on the same team', () => {
    const s = statusOf(matches['6713371_1740603484_820_11001_10']!);
    expect([s.PokePig, s.kingkwlk, s.ShellyBunny, s.SpruceGunman]).toEqual(['left', 'left', 'replacement', 'replacement']);
    const team = scoreboard(matches['6713371_1740603484_820_11001_10']!).find((t) => t.camp === 1)!;
    expect(team.lines.map((l) => l.player.nick_name).slice(-2)).toEqual(['PokePig', 'kingkwlk']);
  });

  it('a full 12-player match marks nobody', () => {
    const s = statusOf(matches['4890922_1741035286_222_11001_10']!);
    expect(new Set(Object.values(s))).toEqual(new Set(['played']));
    expect(scoreboard(matches['4890922_1741035286_222_11001_10']!).map((t) => [t.camp, t.won, t.lines.length])).toEqual([
      [0, true, 6],
      [1, false, 6],
    ]);
  });

  it('a player who never picked a hero is marked and placed after those who left', () => {
    const m = structuredClone(matches['6713371_1740603484_820_11001_10']!);
    const idle = { ...m.players[0]!, player_uid: '1', nick_name: 'Idle', cur_hero_id: null, cur_hero_icon: null, heroes: [], badges: [] };
    m.players.push(idle);
    const team = scoreboard(m).find((t) => t.camp === idle.camp)!;
    expect(team.lines.at(-1)).toMatchObject({ status: 'no-hero', mainHeroId: null });
    expect(team.lines.at(-2)!.status).toBe('left');
  });
});

describe('every hero a player used, with its time', () => {
  it('a five-hero player lists all five, longest first, and their times add up to the play time', () => {
    const m = matches['6713371_1740603484_820_11001_10']!;
    const x = m.players.find((p) => p.nick_name === 'xCezovz')!;
    const heroes = heroTimesOf(x);
    expect(heroes.map((h) => h.heroId)).toEqual(['1029', '1047', '1030', '1039', '1040']);
    expect(heroes.map((h) => Math.round(h.playTime))).toEqual([202, 109, 94, 54, 11]);
    expect(heroes.reduce((s, h) => s + h.playTime, 0)).toBeCloseTo(playTimeOf(x), 6);
  });

  it('on every real player: each hero with time once, the first one the main hero, none left out', () => {
    for (const m of Object.values(matches)) {
      for (const line of scoreboard(m).flatMap((t) => t.lines)) {
        const p = line.player;
        const ids = new Set(p.heroes.filter((h) => h.hero_id !== null && (h.play_time ?? 0) >= 0.5).map((h) => h.hero_id));
        expect(line.heroes.map((h) => h.heroId).sort(), `${m.match_uid} ${p.nick_name}`).toEqual([...ids].sort());
        expect(line.heroes[0]?.heroId ?? null, `${m.match_uid} ${p.nick_name}`).toBe(line.mainHeroId);
        for (let i = 1; i < line.heroes.length; i++) expect(line.heroes[i - 1]!.playTime).toBeGreaterThanOrEqual(line.heroes[i]!.playTime);
      }
    }
    // The samples do hold players with several heroes: the check above is not only about one-hero lines.
    expect(
      Object.values(matches)
        .flatMap((m) => scoreboard(m).flatMap((t) => t.lines))
        .filter((l) => l.heroes.length >= 3).length,
    ).toBeGreaterThanOrEqual(5);
  });

  it('a hero listed twice counts once with both times; a sub-second pick and a null hero are left out', () => {
    const p = structuredClone(matches['6713371_1740603484_820_11001_10']!.players.find((q) => q.nick_name === 'voidwalkerz')!);
    const [first] = p.heroes;
    p.heroes.push({ ...first!, play_time: 10 }, { ...first!, hero_id: '1011', play_time: 0.2 }, { ...first!, hero_id: null, play_time: 99 });
    const heroes = heroTimesOf(p);
    expect(heroes.map((h) => h.heroId)).toEqual(['1038', '1050', '1046']);
    expect(heroes[1]!.playTime).toBeCloseTo(first!.play_time! + 10, 6);
  });

  it('a player who never picked a hero lists none', () => {
    const m = structuredClone(matches['6713355_1740604074_322_11001_10']!);
    m.players.push({ ...m.players[0]!, player_uid: '1', nick_name: 'Idle', cur_hero_id: null, heroes: [] });
    const idle = scoreboard(m)
      .flatMap((t) => t.lines)
      .find((l) => l.player.nick_name === 'Idle')!;
    expect(idle).toMatchObject({ status: 'no-hero', heroes: [] });
  });
});

describe('badge names', () => {
  const allNames = Object.values(matches).flatMap((m) => m.players.flatMap((p) => p.badges.map((b) => b.name)));

  it('the API’s misspelling in real data is corrected, on the scoreboard too', () => {
    expect(allNames).toContain('Impentrable Defence');
    expect(badgeName('Impentrable Defence')).toBe('Impenetrable Defence');
    const burnbot = scoreboard(matches['4890922_1741035286_222_11001_10']!)
      .flatMap((t) => t.lines)
      .find((l) => l.player.nick_name === 'BURNBOT')!;
    expect(burnbot.player.badges.map((b) => b.name)).toEqual(['Impentrable Defence']);
    expect(burnbot.badges).toEqual([{ name: 'Impenetrable Defence', count: 1 }]);
  });

  it('every badge name in the real matches comes out spelt as the game spells it', () => {
    expect(new Set(allNames.map(badgeName))).toEqual(
      new Set(['Gifted Healer', 'Impenetrable Defence', 'MVP', 'Mighty Vanquisher', 'Quad!', 'Relentless Offense', 'SVP', 'Triple!', 'Trusty Sidekick']),
    );
  });

  it('an unknown badge passes through unchanged (but trimmed)', () => {
    expect(badgeName('Brand New Badge')).toBe('Brand New Badge');
    expect(badgeName(' Triple! ')).toBe('Triple!');
  });
});

describe('the round score', () => {
  /** Every history row of the real samples: v1 histories and the profiles' own recent matches. */
  const rows = [
    ...schemas.matchHistory.parse(raw('match-history-v1', 'autumnnippert-card1gan-ranked-s1-page0-a.json')).matches,
    ...Object.values(profiles).flatMap((p) => p.recent_matches),
  ];

  it('a real history row’s score_info gives each team its rounds, the winners the more', () => {
    let checked = 0;
    for (const row of rows) {
      const m = matches[row.match_uid];
      if (!m || !row.score) continue;
      const teams = scoreboard(m, row.score);
      const winner = teams.find((t) => t.won === true)!;
      const loser = teams.find((t) => t.won === false)!;
      expect(winner.rounds!.won, row.match_uid).toBeGreaterThan(winner.rounds!.lost);
      expect(loser.rounds, row.match_uid).toEqual({ won: winner.rounds!.lost, lost: winner.rounds!.won });
      checked++;
    }
    // Two of the four captured matches have a score in a history row (the other two are Quick Play rows with null).
    expect(checked).toBeGreaterThanOrEqual(2);
    const m = matches['6713355_1740604074_322_11001_10']!;
    expect(rows.find((r) => r.match_uid === m.match_uid)!.score).toEqual([0, 2]);
    expect(scoreboard(m, [0, 2]).map((t) => [t.camp, t.won, t.rounds])).toEqual([
      [0, false, { won: 0, lost: 2 }],
      [1, true, { won: 2, lost: 0 }],
    ]);
  });

  it('no score, no rounds; a team that is neither camp 0 nor 1 has none', () => {
    expect(scoreboard(matches['6713355_1740604074_322_11001_10']!).map((t) => t.rounds)).toEqual([null, null]);
    const m = structuredClone(matches['6713355_1740604074_322_11001_10']!);
    m.players.push({ ...m.players[0]!, player_uid: '1', nick_name: 'Stray', camp: null });
    expect(scoreboard(m, [0, 2]).map((t) => t.rounds)).toEqual([{ won: 0, lost: 2 }, { won: 2, lost: 0 }, null]);
  });
});
