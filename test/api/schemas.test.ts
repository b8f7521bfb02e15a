import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createImageResolver } from '../../src/api/images.js';
import { createSchemas, type Schemas } from '../../src/api/schemas.js';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';

const schemas = createSchemas(createImageResolver('https://img.test/rivals'));

/** Which schema parses the files of each samples folder. */
const SCHEMA_OF_FOLDER: Record<string, keyof Schemas> = {
  heroes: 'heroes',
  maps: 'maps',
  'match-history-v1': 'matchHistory',
  'match-history-v2': 'matchHistory',
  match: 'match',
  player: 'player',
};

/** The vendored copy, and the shared folder beside the checkout when present (CI has it). */
const SAMPLE_DIRS = [SAMPLES_DIR, resolve(import.meta.dirname, '../../../shared/api-samples')].filter((d) => existsSync(d));

function sampleFiles(): { dir: string; folder: string; file: string }[] {
  return SAMPLE_DIRS.flatMap((dir) =>
    readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'errors')
      .flatMap((d) =>
        readdirSync(join(dir, d.name))
          .filter((f) => f.endsWith('.json'))
          .map((file) => ({ dir, folder: d.name, file })),
      ),
  );
}

const load = (dir: string, folder: string, file: string) => JSON.parse(readFileSync(join(dir, folder, file), 'utf8')) as unknown;

describe('every real sample parses', () => {
  const files = sampleFiles();
  it('finds the samples (vendored and shared)', () => {
    expect(files.length).toBeGreaterThanOrEqual(14);
  });
  it.each(files.map((f) => [`${f.folder}/${f.file}`, f] as const))('%s', (_name, { dir, folder, file }) => {
    const schema = SCHEMA_OF_FOLDER[folder];
    expect(schema, `no schema mapped for samples folder "${folder}"`).toBeDefined();
    const result = schemas[schema!].safeParse(load(dir, folder, file));
    expect(result.success, result.success ? '' : JSON.stringify(result.error.issues.slice(0, 3))).toBe(true);
  });
});

describe('normalisation of the real data', () => {
  const sample = (folder: string, file: string) => load(SAMPLES_DIR, folder, file);

  it('heroes: ids as text, difficulty as a number, drifting costume and ability shapes made clean', () => {
    const heroes = schemas.heroes.parse(sample('heroes', 'xerronn-heroes-2025-03-10.json'));
    expect(heroes).toHaveLength(37);
    const hulk = heroes.find((h) => h.name === 'hulk')!;
    expect(hulk.id).toBe('1011');
    expect(hulk.difficulty).toBe(4);
    expect(hulk.image).toBe('https://img.test/rivals/heroes/card/hulk.png');
    expect(hulk.transformations[0]).toMatchObject({ id: '703', health: 200, movement_speed: 6 });
    // Costumes carry imageUrl and a quality object in real data (the spec says icon and a text).
    expect(hulk.costumes[0]).toMatchObject({
      id: '1011001',
      quality: 'Default',
      quality_color: 'gray',
      icon: 'https://img.test/rivals/costumes/bruce-banner-1011001.png',
    });
    const ultimate = hulk.abilities.find((a) => a.type === 'Ultimate')!;
    expect(ultimate.fields).toMatchObject({ Key: 'Q', 'Energy Cost': '3400' });
    // Every ability field is text, whatever the capture held.
    for (const h of heroes) for (const a of h.abilities) for (const v of Object.values(a.fields)) expect(typeof v).toBe('string');
  });

  it('player: numeric strings become numbers, win rates percentages, durations seconds', () => {
    const p = schemas.player.parse(sample('player', 'autumnnippert-card1gan-1403392756-2025-03-06.json'));
    expect(p.uid).toBe('1403392756');
    expect(p.level).toBe(42);
    expect(p.completed_achievements).toBe(111);
    expect(p.rank).toEqual({ name: 'Grandmaster III', image: 'https://img.test/rivals/ranked/grandmaster.png', color: '#EB46FF', score: null, peak: null });
    expect(p.overall.unranked.play_time).toBeCloseTo(18611.05, 1);
    expect(p.overall.unranked.win_rate).toBeCloseTo(47.06, 2);
    expect(p.rank_seasons.map((s) => s.game_id)).toEqual(['1001001', '1001002', '1001003']);
    expect(p.team).toMatchObject({ name: 'FSYR' });
    expect(p.hero_matchups[0]!.win_rate).toBe(100);
    expect(p.recent_matches.length).toBe(20);
    expect(p.heroes_ranked[0]!.hit_rate).toBeCloseTo(767 / 1779, 6);
  });

  it('player: the signed banner keeps its query string byte for byte', () => {
    const raw = sample('player', 'doublec8-double-c-1786151874-2025-05-26.json') as { player: { icon: { banner: string } } };
    const p = schemas.player.parse(raw);
    expect(p.banner).toBe(`https://img.test/rivals${raw.player.icon.banner}`);
    expect(p.banner).toMatch(/\?expires=\d+&signature=[0-9a-f]+$/);
  });

  it('player: nulls in updates and an empty team are accepted', () => {
    const p = schemas.player.parse(sample('player', 'autumnnippert-sir-final-1117455441.json'));
    expect(p.updates.last_history_update).toBeNull();
    expect(p.team).toBeNull();
  });

  it('match history v1 and v2 give one clean shape', () => {
    const v1 = schemas.matchHistory.parse(sample('match-history-v1', 'autumnnippert-card1gan-ranked-s1-page0-a.json'));
    const v2 = schemas.matchHistory.parse(sample('match-history-v2', 'doublec8-double-c-1786151874-page1-limit40-2025-05-26.json'));
    expect(v1.pagination).toBeNull();
    expect(v2.pagination).toEqual({ page: 1, limit: 40, total_matches: 77, total_pages: 2, has_more: true });
    const a = v2.matches[0]!;
    expect(a.duration).toBe(643); // "10m 43s"
    expect(a.season).toBe(2); // "2"
    expect(a.player.play_time).toBeCloseTo(601.07, 1); // {raw, formatted}
    expect(a.player.is_win).toBe(true); // {score, is_win}
    expect(a.score).toEqual([1, 0]);
    const quickPlay = v1.matches.find((m) => m.score === null);
    expect(quickPlay).toBeDefined();
    expect(typeof v1.matches[0]!.duration).toBe('number');
  });

  it('match detail: 0/1 is_win, icon ids, players who never picked a hero', () => {
    const m = schemas.match.parse(sample('match', 'autumnnippert-6713371_1740603484_820_11001_10.json'));
    expect(m.players).toHaveLength(14);
    expect(m.game_mode_name).toBe('Quick Play');
    for (const p of m.players) {
      expect(typeof p.is_win).toBe('boolean');
      expect(p.player_icon_id).toMatch(/^\d+$/);
    }
  });

  it('maps: nulls in sub_map and video, the misspelt is_competitve read', () => {
    const maps = schemas.maps.parse(sample('maps', 'spiderbyte-maps-38-2025-04-25.json'));
    expect(maps.total).toBe(38);
    expect(maps.entries.some((m) => m.video === null)).toBe(true);
    expect(maps.entries.every((m) => typeof m.is_competitive === 'boolean')).toBe(true);
    const page = schemas.maps.parse(sample('maps', 'spiderbyte-maps-p1-of-32-2025-02-16.json'));
    expect(page).toMatchObject({ total: 32 });
    expect(page.entries).toHaveLength(10);
  });
});

describe('drift the samples do not show yet', () => {
  it('accepts ints as floats, numbers as strings, nulls and missing keys in a profile', () => {
    const p = schemas.player.parse({
      uid: '42',
      name: 'X',
      player: { level: 7.0, rank: null, icon: { player_icon: 5 } },
      overall_stats: { ranked: { total_matches: '10', total_wins: '4', total_time_played: '1h 2m 3s' }, unranked: null },
      hero_matchups: [{ hero_id: null, hero_name: 'Unknown', matches: '2', wins: 1 }, 'garbage', null],
      maps: 'not a list',
    });
    expect(p.level).toBe(7);
    expect(p.rank).toEqual({ name: null, image: null, color: null, score: null, peak: null });
    expect(p.icon).toBeNull();
    expect(p.overall.ranked).toMatchObject({ matches: 10, wins: 4, play_time: 3723, win_rate: 40 });
    expect(p.overall.unranked.matches).toBe(0);
    expect(p.hero_matchups).toEqual([{ hero_id: null, hero_name: 'Unknown', hero_class: null, hero_thumbnail: null, matches: 2, wins: 1, win_rate: 50 }]);
    expect(p.maps).toEqual([]);
  });

  it('rejects bodies that are unusable at the top level', () => {
    expect(schemas.heroes.safeParse({ heroes: [] }).success).toBe(false);
    expect(schemas.maps.safeParse({ total_maps: 3 }).success).toBe(false);
    expect(schemas.match.safeParse({ match_details: { game_mode: {} } }).success).toBe(false);
    expect(schemas.player.safeParse({ player: {} }).success).toBe(false);
    expect(schemas.hero.safeParse({ id: 1 }).success).toBe(false);
  });

  it('never throws on arbitrary JSON: every schema returns success or failure', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        for (const schema of Object.values(schemas)) schema.safeParse(value);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps parsing a real profile whatever happens to its leaves (strings, nulls, missing keys)', () => {
    const original = load(SAMPLES_DIR, 'player', 'freddyhun-template-2025-03.json');
    const mutate = (value: unknown, rand: () => number, depth: number): unknown => {
      if (Array.isArray(value)) return value.map((v) => mutate(v, rand, depth + 1));
      if (value && typeof value === 'object') {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(value)) {
          const r = rand();
          if (depth >= 1 && r < 0.05) continue; // key missing
          out[k] = depth >= 1 && r < 0.1 ? null : mutate(v, rand, depth + 1);
        }
        return out;
      }
      if (typeof value === 'number' && rand() < 0.3) return String(value);
      return value;
    };
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        let s = seed >>> 0;
        const rand = () => (s = (s * 1_103_515_245 + 12_345) >>> 0) / 4_294_967_296;
        const r = schemas.player.safeParse(mutate(original, rand, 0));
        expect(r.success).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
