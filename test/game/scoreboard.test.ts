import { describe, expect, it } from 'vitest';
import type { MatchDetail } from '../../src/api/schemas.js';
import { mainHeroOf, matchLength, scoreboard } from '../../src/game/scoreboard.js';
import { matches } from './samples.js';

const statusOf = (m: MatchDetail) => Object.fromEntries(scoreboard(m).flatMap((t) => t.lines.map((l) => [l.player.nick_name, l.status])));

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
