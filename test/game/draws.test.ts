/**
 * A draw (docs/data.md "A draw is is_win.score 2"): what marks one in the real rows, checked on every capture, and how it is read and counted.
 * The one real draw is Double C's 5517722 of 5 June 2025: `is_win` {score: 2, is_win: false}, rounds 3–3, `winner_side` 12,
 * and a rank change of +10.15.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MatchDetail } from '../../src/api/schemas.js';
import { toResult } from '../../src/api/lenient.js';
import { recentForm } from '../../src/game/form.js';
import { scoreboard } from '../../src/game/scoreboard.js';
import { readForTracking } from '../../src/game/tracking.js';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';
import { everyRawProfile, matches, raw, realProfiles, schemas } from './samples.js';

const DRAW = '5517722_1749100885_1267272_11001_11';
const JUNE = 'doublec8-double-c-1786151874-2025-06-05.json';

type Row = Record<string, unknown>;
const record = (v: unknown): Row => (typeof v === 'object' && v !== null ? (v as Row) : {});

/** Every real history row: each capture's embedded rows and the captured v1 and v2 pages, with the capture it is in. */
function everyRawRow(): { where: string; row: Row; player: Row }[] {
  const out: { where: string; row: Row; player: Row }[] = [];
  for (const [file, body] of Object.entries(everyRawProfile())) {
    for (const row of (body.match_history as Row[] | undefined) ?? []) out.push({ where: file, row, player: record(row.player_performance) });
  }
  for (const folder of ['match-history-v1', 'match-history-v2']) {
    for (const file of readdirSync(join(SAMPLES_DIR, folder)).filter((f) => f.endsWith('.json'))) {
      for (const row of raw(folder, file).match_history as Row[]) out.push({ where: `${folder}/${file}`, row, player: record(row.match_player) });
    }
  }
  return out;
}

const rounds = (row: Row): [number, number] | null => {
  const s = record(row.score_info);
  return typeof s['0'] === 'number' && typeof s['1'] === 'number' ? [s['0'], s['1']] : null;
};
const winnerSide = (row: Row) => row.winner_side ?? row.match_winner_side;

describe('what marks a draw in the real data', () => {
  it('is_win.score is 1 for a win, 0 for a loss and 2 for the draw, on every row of every capture, its Boolean agreeing', () => {
    const rows = everyRawRow();
    // The project's own captures hold 221 rows; ../shared/api-samples adds more where it is checked out beside it.
    expect(rows.length).toBeGreaterThanOrEqual(221);
    const scores = new Map<number, number>();
    for (const { where, row, player } of rows) {
      const isWin = record(player.is_win);
      const score = isWin.score as number;
      expect([0, 1, 2], `${where} ${String(row.match_uid)}`).toContain(score);
      expect(isWin.is_win, `${where} ${String(row.match_uid)}`).toBe(score === 1);
      scores.set(score, (scores.get(score) ?? 0) + 1);
    }
    expect(scores.get(2)).toBeGreaterThanOrEqual(1);
  });

  it('the three marks go together: score 2, level rounds and a winner_side naming neither team mark the same rows', () => {
    const rows = everyRawRow();
    for (const { where, row, player } of rows) {
      const drawn = record(player.is_win).score === 2;
      const r = rounds(row);
      const side = winnerSide(row);
      const at = `${where} ${String(row.match_uid)}`;
      expect(r !== null && r[0] === r[1], at).toBe(drawn);
      if (side !== undefined && side !== null) expect(side !== 0 && side !== 1, at).toBe(drawn);
    }
    const draws = rows.filter(({ player }) => record(player.is_win).score === 2);
    expect(new Set(draws.map(({ row }) => row.match_uid))).toEqual(new Set([DRAW]));
    const { row, player } = draws[0]!;
    expect([rounds(row), winnerSide(row), player.score_change]).toEqual([[3, 3], 12, 10.149674478625002]);
  });

  it('the match details (all four captured) mark each player 0 or 1, one team winning: none is a draw', () => {
    for (const [uid, m] of Object.entries(matches)) {
      expect(new Set(m.players.map((p) => p.result)), uid).toEqual(new Set(['win', 'loss']));
      expect(
        scoreboard(m).some((t) => t.drawn),
        uid,
      ).toBe(false);
    }
  });
});

describe('a draw as read', () => {
  it('every real row reads as its is_win.score says: the draw a draw, never a loss', () => {
    for (const [file, p] of Object.entries(realProfiles)) {
      for (const m of p.recent_matches) {
        const expected = m.match_uid === DRAW ? 'draw' : m.player.is_win ? 'win' : 'loss';
        expect(m.player.result, `${file} ${m.match_uid}`).toBe(expected);
      }
    }
    const row = realProfiles[JUNE]!.recent_matches.find((m) => m.match_uid === DRAW)!;
    expect([row.player.result, row.player.is_win, row.score, row.winner_side]).toEqual(['draw', null, [3, 3], 12]);
  });

  it('a row with no score in its is_win is a draw when its rounds are level or its winner names neither team; its score decides when given', () => {
    const body = raw('player', JUNE);
    const base = (body.match_history as Row[]).find((r) => r.match_uid === DRAW)!;
    const read = (changes: Row, performance: Row = {}) =>
      schemas.player.parse({ ...body, match_history: [{ ...base, ...changes, player_performance: { ...record(base.player_performance), ...performance } }] })
        .recent_matches[0]!.player.result;
    expect(read({})).toBe('draw');
    expect(read({}, { is_win: false })).toBe('draw');
    expect(read({ winner_side: 0, score_info: { 0: 3, 1: 3 } }, { is_win: false })).toBe('draw');
    expect(read({ winner_side: 12, score_info: { 0: 3, 1: 2 } }, { is_win: false })).toBe('draw');
    expect(read({ winner_side: 1, score_info: { 0: 2, 1: 3 } }, { is_win: false })).toBe('loss');
    expect(read({ winner_side: 1, score_info: null }, { is_win: 0 })).toBe('loss');
    expect(read({}, { is_win: true })).toBe('win');
    // A score given is the row's word: a loss with level rounds stays a loss.
    expect(read({ winner_side: 1 }, { is_win: { score: 0, is_win: false } })).toBe('loss');
    expect([toResult(2), toResult('2'), toResult({ score: 2 }), toResult(1), toResult(0), toResult(null), toResult('x')]).toEqual([
      'draw',
      'draw',
      'draw',
      'win',
      'loss',
      null,
      null,
    ]);
  });

  it('a scoreboard whose players are marked 2 is a draw for both teams', () => {
    const real = matches['6713355_1740604074_322_11001_10']!;
    const body = raw('match', 'autumnnippert-6713355_1740604074_322_11001_10.json');
    const details = record(body.match_details);
    const drawn: MatchDetail = schemas.match.parse({
      ...body,
      match_details: { ...details, match_players: (details.match_players as Row[]).map((p) => ({ ...p, is_win: 2 })) },
    });
    expect(drawn.players.every((p) => p.result === 'draw' && p.is_win === null)).toBe(true);
    expect(scoreboard(drawn).map((t) => [t.camp, t.won, t.drawn])).toEqual(scoreboard(real).map((t) => [t.camp, null, t.camp !== null]));
  });
});

describe('a draw as counted', () => {
  it('recent form counts the draw as a draw: neither a win nor a loss, its rank change in the net', () => {
    const p = realProfiles[JUNE]!;
    const form = recentForm(p.recent_matches)!;
    const index = [...p.recent_matches].sort((a, b) => (b.time ?? 0) - (a.time ?? 0)).findIndex((m) => m.match_uid === DRAW);
    expect(form.results[index]).toBe('draw');
    expect(form.draws).toBe(1);
    expect(form.wins + form.losses + form.draws).toBe(form.results.length);
    const rows = p.recent_matches.filter((m) => m.game_mode_id !== 7);
    expect(form.losses).toBe(rows.filter((m) => m.player.result === 'loss').length);
    expect(form.wins).toBe(rows.filter((m) => m.player.result === 'win').length);
  });

  it('the tracker records the draw as a draw, with its row’s map', () => {
    const read = readForTracking(realProfiles[JUNE]!);
    expect(read.kind).toBe('read');
    const m = read.kind === 'read' ? read.matches.find((x) => x.matchUid === DRAW)! : null;
    expect(m).toMatchObject({ won: null, drawn: true, mapId: '1267', scoreChange: 10.149674478625002 });
  });
});
