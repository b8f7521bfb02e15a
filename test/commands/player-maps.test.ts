/**
 * A player's maps say each map's mode from the player's own match rows, never from the map list, whose competitive flag is
 * swapped on the Central Park twins (1217 and 1292): checked on every real profile, in every language. The rows are every
 * one the bot holds: here the profile's own and the first page of match history v2 the section reads (the replica serves
 * Double C's real one); test/commands/player-map-modes.test.ts covers the cached pages and the tracker's records.
 */
import { describe, expect, it } from 'vitest';
import type { APIEmbed } from 'discord-api-types/v10';
import { playerView } from '../../commands/player.js';
import { LOCALE_NAMES, runInLocale, tr, type Locale } from '../../src/i18n/index.js';
import { MODE_KEYS, modesByMap, modeKeyName, type ModeKey } from '../../src/game/modes.js';
import { playedMapLabels, type MapInfo } from '../../src/render/map-names.js';
import type { MatchSummary, PlayerProfile } from '../../src/api/schemas.js';
import { ApiError } from '../../src/core/api-errors.js';
import { toMessagePayload } from '../../src/render/view.js';
import { playerHero } from '../../src/game/player-hero.js';
import { realProfiles } from '../game/samples.js';
import { useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const LOCALES = Object.keys(LOCALE_NAMES) as Locale[];

/** The player's map rows in the order the section lists them. */
const mapRows = (p: PlayerProfile) => p.maps.filter((m) => m.matches > 0).sort((a, b) => b.matches - a.matches);

/** Every line of the Maps section, page by page, with its bold label. */
async function mapLines(p: PlayerProfile, locale: Locale): Promise<{ label: string; line: string }[]> {
  const fetched = { data: p, fetchedAt: Date.now(), ageMs: 0, stale: false, source: 'upstream' as const };
  const lines: string[] = [];
  const want = mapRows(p).length;
  for (let page = 1; lines.length < want && page <= 10; page++) {
    const view = await runInLocale(locale, () => playerView(fetched, 'maps', page, null, env.b.ctx));
    const e: APIEmbed = toMessagePayload(view).embeds[0]!;
    lines.push(...e.description!.split('\n'));
  }
  return lines.map((line) => ({ line, label: /^\*\*(.+?)\*\* · /.exec(line)?.[1] ?? '' }));
}

/** The player's rows the Maps section holds in this file: the profile's, and v2's first page where the API has one. */
async function heldRows(p: PlayerProfile): Promise<MatchSummary[]> {
  try {
    return [...p.recent_matches, ...(await env.b.ctx.api.matchHistoryV2(p.uid, { page: 1, limit: 40 })).data.matches];
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not_found') return p.recent_matches;
    throw err;
  }
}

const hasRanked = (rows: readonly MatchSummary[]) => rows.some((m) => m.game_mode_id === 2);

describe('the Maps section of /player', () => {
  it('covers the profiles that matter: Central Park 1217 played in Quick Play, and players with no ranked match', () => {
    const files = Object.keys(realProfiles);
    const onCentralPark = files.filter((f) => realProfiles[f]!.recent_matches.some((m) => m.map_id === '1217'));
    expect(onCentralPark.length).toBeGreaterThan(3);
    for (const f of onCentralPark) expect(realProfiles[f]!.recent_matches.filter((m) => m.map_id === '1217').every((m) => m.game_mode_id === 1)).toBe(true);
    expect(files.filter((f) => !hasRanked(realProfiles[f]!.recent_matches) && realProfiles[f]!.maps.some((m) => m.map_id === '1217')).length).toBe(2);
  });

  for (const [file, p] of Object.entries(realProfiles)) {
    it(`${file}: each map's mode label is the modes of the player's own rows on it, in all six languages`, async () => {
      const held = await heldRows(p);
      const modes = modesByMap(held);
      const rows = mapRows(p);
      for (const locale of LOCALES) {
        const lines = await mapLines(p, locale);
        expect(lines).toHaveLength(rows.length);
        const named = (key: ModeKey) => runInLocale(locale, () => modeKeyName(key));
        const flagWord = runInLocale(locale, () => tr('maps:competitive'));
        lines.forEach(({ label }, i) => {
          const own = modes.get(rows[i]!.map_id ?? '') ?? [];
          expect(label, `${locale} ${label}`).not.toBe('');
          for (const key of MODE_KEYS) expect(label.includes(named(key)), `${locale} ${label}: ${key}`).toBe(own.includes(key));
          // The map list's own word for its flag, where it differs from the mode's name, is never used.
          if (flagWord !== named('competitive')) expect(label).not.toContain(flagWord);
        });
        // No two lines alike: the twins are told apart.
        expect(new Set(lines.map((l) => l.label)).size).toBe(lines.length);
        if (!hasRanked(held)) {
          const text = lines.map((l) => l.line).join('\n');
          expect(text).not.toContain(named('competitive'));
          expect(text).not.toContain(flagWord);
        }
      }
    });
  }

  it('Double C: the maps the profile’s 20 rows say nothing of are named by the modes of the 40 rows of match history v2', async () => {
    const p = realProfiles['doublec8-double-c-1786151874-2025-08-05.json']!;
    const v2 = (await env.b.ctx.api.matchHistoryV2(p.uid, { page: 1, limit: 40 })).data.matches;
    // The maps of the review: on none is there a row in the profile, and v2 has Quick Play rows on each.
    const fromV2 = ['1201', '1235', '1032', '1034', '1240', '1170'];
    for (const id of fromV2) {
      expect(p.recent_matches.some((m) => m.map_id === id)).toBe(false);
      expect(new Set(v2.filter((m) => m.map_id === id).map((m) => m.game_mode_id))).toEqual(new Set([1]));
    }
    const lines = await mapLines(p, 'en');
    const line = (id: string) => lines[mapRows(p).findIndex((m) => m.map_id === id)]!.line;
    expect(line('1201')).toBe('**Midtown (Quick Play)** · 2 matches · 0.0 % · 18 / 13 / 7 (KDA 1.92)');
    expect(line('1032')).toMatch(/^\*\*Yggdrasill Path \(Quick Play\)\*\* · 1 match · /);
    expect(line('1034')).toMatch(/^\*\*Shin-Shibuya \(Quick Play\)\*\* · 1 match · /);
    expect(line('1240')).toMatch(/^\*\*Symbiotic Surface \(Quick Play\)\*\* · 1 match · /);
    expect(line('1235')).toMatch(/^\*\*Birnin T'Challa \(Domination, Quick Play\)\*\* · 3 matches · /);
    expect(line('1170')).toMatch(/^\*\*Royal Palace\\: Odin's Archive \(Quick Play\)\*\* · 1 match · /);
    // Midtown's twin keeps the mode of its own rows: the two lines are told apart by them.
    expect(line('1291')).toMatch(/^\*\*Midtown \(Competitive\)\*\* · 3 matches · /);
    // No row held on these: no mode.
    expect(line('1286')).toMatch(/^\*\*Unknown map \(1286\)\*\* · /);
    expect(line('1246')).toMatch(/^\*\*Ninomaru\*\* · /);
    const ja = await mapLines(p, 'ja');
    expect(ja[mapRows(p).findIndex((m) => m.map_id === '1201')]!.label).toBe(`Midtown（${runInLocale('ja', () => modeKeyName('quickPlay'))}）`);
  });

  it('a player with no ranked match reads Central Park as Quick Play, as their rows say', async () => {
    const lines = await mapLines(realProfiles['autumnnippert-fabio26614-1977315999.json']!, 'en');
    expect(lines.map((l) => l.line)).toContain('**Central Park (Quick Play)** · 2 matches · 50.0 % · 24 / 13 / 34 (KDA 4.46)');
    const de = await mapLines(realProfiles['autumnnippert-freedomfat-700459908.json']!, 'de');
    expect(de.map((l) => l.label)).toContain('Central Park (Schnelles Spiel)');
  });

  it('the twins by the rows: Quick Play on 1217, Competitive on 1292; without rows, by their ids', async () => {
    const both = await mapLines(realProfiles['autumnnippert-chob-bob-341932470.json']!, 'en');
    expect(both.map((l) => l.label).filter((l) => l.startsWith('Central Park'))).toEqual(['Central Park (Quick Play)', 'Central Park (Competitive)']);
    // A map with rows of two modes names both.
    expect(both.map((l) => l.label)).toContain('Yggdrasill Path (Quick Play, Practice vs AI)');
    const none = await mapLines(realProfiles['freddyhun-template-2025-03.json']!, 'en');
    expect(none.map((l) => l.label).filter((l) => l.startsWith('Central Park'))).toEqual(['Central Park (map 1292)', 'Central Park (map 1217)']);
    const ja = await mapLines(realProfiles['freddyhun-template-2025-03.json']!, 'ja');
    expect(ja.map((l) => l.label).filter((l) => l.startsWith('Central Park'))).toEqual(['Central Park（マップ1292）', 'Central Park（マップ1217）']);
  });
});

describe('playedMapLabels', () => {
  const twin = (id: string, competitive: boolean, location: string | null = 'Empire of Eternal Night'): MapInfo => ({
    id,
    name: 'Central Park',
    subMap: null,
    tellApart: { mode: false, id: true },
    location,
    mode: 'Convergence',
    competitive,
    image: null,
    video: null,
  });

  it('never reads the flag: a map flagged competitive with Quick Play rows is Quick Play, and one without rows names no mode', () => {
    const modes = modesByMap([{ map_id: '1217', game_mode_id: 1, play_mode_id: 0 }]);
    expect(playedMapLabels([{ id: '1217', info: twin('1217', true) }], modes)).toEqual(['Central Park (Quick Play)']);
    expect(playedMapLabels([{ id: '1292', info: twin('1292', false) }], new Map())).toEqual(['Central Park']);
    expect(playedMapLabels([{ id: '1217', info: twin('1217', true) }], new Map())).toEqual(['Central Park']);
  });

  it('tells alike lines apart by location, then by id; a map the list lacks by the profile’s name, else its id', () => {
    expect(
      playedMapLabels(
        [
          { id: '1', info: twin('1', true, 'Klyntar') },
          { id: '2', info: twin('2', false) },
        ],
        new Map(),
      ),
    ).toEqual(['Central Park (Klyntar)', 'Central Park (Empire of Eternal Night)']);
    const modes = modesByMap([
      { map_id: '1311', game_mode_id: 2, play_mode_id: 0 },
      { map_id: '1', game_mode_id: 2, play_mode_id: 0 },
      { map_id: '2', game_mode_id: 2, play_mode_id: 0 },
    ]);
    expect(
      playedMapLabels(
        [
          { id: '1', info: twin('1', false) },
          { id: '2', info: twin('2', true) },
          { id: '1311', info: undefined },
          { id: '1318', info: undefined },
          { id: '1400', info: undefined, name: 'Klyntar Arena' },
        ],
        modes,
      ),
    ).toEqual([
      'Central Park (Competitive, map 1)',
      'Central Park (Competitive, map 2)',
      'Unknown map (Competitive, map 1311)',
      'Unknown map (1318)',
      'Klyntar Arena',
    ]);
  });

  it('takes no queue from the map list’s objective either', () => {
    const royal = (id: string, mode: string): MapInfo => ({ ...twin(id, false), name: 'Royal Palace', mode, tellApart: { mode: true, id: false } });
    expect(
      playedMapLabels(
        [
          { id: '1', info: royal('1', 'Competitive') },
          { id: '2', info: royal('2', 'Domination') },
        ],
        new Map(),
      ),
    ).toEqual(['Royal Palace', 'Royal Palace (Domination)']);
  });
});

describe('/player hero:', () => {
  it('names each of a hero’s maps by the modes of the player’s matches on the hero there, for every hero played', async () => {
    // The replica serves Double C's August capture, whose heroes were played in both queues.
    const p = realProfiles['doublec8-double-c-1786151874-2025-08-05.json']!;
    const heroes = await env.b.ctx.heroes.list();
    const played = [...new Set(p.recent_matches.map((m) => m.player.hero_id).filter((id): id is string => id !== null))];
    let checked = 0;
    for (const id of played) {
      const hero = heroes.find((h) => h.id === id)!;
      const data = playerHero(p, { id, name: hero.name });
      if (data.maps.length === 0) continue;
      const modes = modesByMap(data.recent);
      const { payload } = await env.b.run('player', { query: '1786151874', hero: hero.name });
      const field = payload.embeds[0]!.fields!.find((f) => f.name.startsWith('Maps (latest'))!;
      // The map lines, not the "+N more maps" after them.
      const lines = field.value.split('\n').filter((line) => !/^\+\d+ more maps?$/.test(line));
      expect(lines.length, hero.name).toBe(Math.min(data.maps.length, 4));
      lines.forEach((line, i) => {
        const own = modes.get(data.maps[i]!.mapId ?? '') ?? [];
        for (const key of MODE_KEYS)
          expect(line.includes(` (${modeKeyName(key)}`) || line.includes(`, ${modeKeyName(key)}`), `${hero.name}: ${line}`).toBe(own.includes(key));
        checked++;
      });
    }
    expect(checked).toBeGreaterThan(5);
    const ws = await env.b.run('player', { query: '1786151874', hero: 'Winter Soldier' });
    expect(ws.payload.embeds[0]!.fields!.find((f) => f.name.startsWith('Maps (latest'))!.value).toContain('Central Park (Competitive) · 2 matches · 1 win');
  });
});
