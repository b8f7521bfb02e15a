/** The profile's image card: the same figures as the embed beside it, asked for as a spec the worker accepts. */
import { describe, expect, it } from 'vitest';
import { playerView } from '../../commands/player.js';
import { parseChartSpec, type ProfileCard } from '../../src/charts/specs.js';
import { seasonRanks, totalPlayTime } from '../../src/game/profile.js';
import type { Season } from '../../src/game/seasons.js';
import type { PlayerProfile } from '../../src/api/schemas.js';
import { everyRawProfile, profiles, realProfiles, schemas } from '../game/samples.js';
import { useReplicaBot } from '../helpers/bot.js';
import { withoutCards } from '../../src/render/view-charts.js';

const env = useReplicaBot();
const fetchedOf = (file: string) => ({ data: profiles[file]!, fetchedAt: Date.now(), ageMs: 0, stale: false, source: 'upstream' as const });

describe('the profile card', () => {
  it('shows what the embed says: tier, score, ranked record, top heroes, recent form; the embed keeps the text and shows the card', async () => {
    const view = await playerView(fetchedOf('doublec8-double-c-1786151874-2025-08-05.json'), 'profile', 1, null, env.b.ctx);
    const embed = view.embeds![0]!;
    expect(embed.image).toEqual({ url: 'attachment://profile.png' });
    expect(embed.thumbnail).toEqual({ url: 'https://img.test/rivals/classes/gold.png' });
    expect(view.charts).toHaveLength(1);
    const card = parseChartSpec(view.charts![0]!.spec) as ProfileCard;
    expect(view.charts![0]!.description).toBe('Profile card of Double C: rank, season record, top heroes, play time by role and recent form');
    expect(card.kind).toBe('profile-card');
    expect(card.rank.tier).toBe(embed.title);
    expect(card.rank.score).toBe('3,752 RS');
    expect(card.rank.peak).toBe('Peak 3,763');
    expect(card.tiles).toEqual([
      { label: 'Ranked', value: '14 W / 26' },
      { label: 'Ranked win rate', value: '53.8 %' },
      { label: 'Ranked KDA', value: '3.87' },
      { label: 'To Gold I', value: '48 RS' },
    ]);
    // The embed leaves to the card what the card shows; its text comes back where the card is not shown.
    expect(embed.fields!.map((f) => f.name)).not.toContain('Top heroes');
    const text = withoutCards(view).embeds![0]!;
    expect(text.image).toBeUndefined();
    expect(text.fields!.slice(0, embed.fields!.length)).toEqual(embed.fields);
    // The heroes beside the ranked tiles are the ranked ones, and both say so.
    expect(card.labels.heroes).toBe('Top heroes · Ranked');
    const top = text.fields!.find((f) => f.name === card.labels.heroes)!.value.split('\n');
    expect(card.heroes.map((h) => h.name)).toEqual(top.map((line) => /^\*\*\d\. (.+?)\*\*/.exec(line)![1]));
    expect(card.heroes[0]).toMatchObject({ role: 'Duelist', lines: ['63.2 % · 19', 'KDA 4.57'] });
    // Hero portraits from the profile's own hero rows (square icons).
    expect(card.heroes[0]!.image).toMatch(/^https:\/\/img\.test\/rivals\/.+/);
    const form = text
      .fields!.find((f) => f.name.startsWith('Recent form'))!
      .value.split(' · ')[0]!
      .split(' ');
    expect(card.form.map((r) => ({ win: 'W', loss: 'L', draw: 'D' })[r])).toEqual(form);
    expect(card.labels.record).toBe(`${card.form.filter((r) => r === 'win').length} W · ${card.form.filter((r) => r === 'loss').length} L`);
    expect(card.roles.reduce((s, r) => s + r.seconds, 0)).toBeLessThanOrEqual(totalPlayTime(profiles['doublec8-double-c-1786151874-2025-08-05.json']!) + 1);
    // The largest role with its share of the roles' play time, as the card writes it.
    const share = Math.round((card.roles[0]!.seconds / card.roles.reduce((s, r) => s + r.seconds, 0)) * 100);
    expect(card.roles[0]).toMatchObject({ role: 'Duelist', label: `Duelist ${share} %` });
  });

  it('other sections have no card', async () => {
    const view = await playerView(fetchedOf('doublec8-double-c-1786151874-2025-08-05.json'), 'matchups', 1, null, env.b.ctx);
    expect(view.charts ?? []).toEqual([]);
  });

  it('a player with no ranked record still gets a card, without a pace tile', async () => {
    const view = await playerView(fetchedOf('autumnnippert-hayamaken-1402468705.json'), 'profile', 1, null, env.b.ctx);
    const card = view.charts![0]!.spec as ProfileCard;
    expect(card.tiles).toHaveLength(4);
    expect(card.tiles.every((t) => t.value.length > 0)).toBe(true);
  });
});

/** Every real capture: the replica's, the fixtures' and the shared ones, parsed by the client's schemas. */
const CAPTURES: Record<string, PlayerProfile> = {
  ...realProfiles,
  ...Object.fromEntries(Object.entries(everyRawProfile()).map(([f, body]) => [f, schemas.player.parse(body)])),
};
/** "Season 1.5" in a text, as English writes a season. */
const seasonIn = (text: string | undefined) => /Season \d+(?:\.\d+)?/.exec(text ?? '')?.[0] ?? null;

/**
 * The profile, current or of `season` (its totals given by the API or not, the current season's then), as the member reads
 * its rank's season in the embed and on the card: the embed names it in its title when it is not the season asked for or
 * the current one; the card names it beside the rank when it is not the season its header names, the season its tiles count.
 */
async function rankSeasons(p: PlayerProfile, season: Season | null, seasonTotals: boolean) {
  const view = await playerView({ data: p, fetchedAt: Date.now(), ageMs: 0, stale: false, source: 'upstream' }, 'profile', 1, season, env.b.ctx, seasonTotals);
  const embed = view.embeds![0]!;
  const card = parseChartSpec(view.charts![0]!.spec) as ProfileCard;
  const covered = /^Totals and heroes: the matches the API recorded in (.+)$/m.exec(embed.description ?? '')?.[1];
  const embedSeason = seasonIn(/\((Season [^)]+)\)$/.exec(embed.title ?? '')?.[1]) ?? (season ? seasonIn(`Season ${season.number}`) : seasonIn(covered));
  const cardHeaded = seasonIn(card.season);
  return { embed: embedSeason, card: card.rank.season ?? cardHeaded, named: card.rank.season, headed: cardHeaded, tiles: card.tiles };
}

describe('the profile card names its rank’s season as the embed does', () => {
  it('the reported profiles: an older season’s rank, and a season asked for whose totals the API does not keep', async () => {
    const hayama = await rankSeasons(profiles['autumnnippert-hayamaken-1402468705.json']!, null, true);
    // Silver I is Season 1's, under a card headed Season 1.5: said, and no pace of Season 1 among Season 1.5's tiles.
    expect(hayama).toMatchObject({ embed: 'Season 1', card: 'Season 1', named: 'Season 1', headed: 'Season 1.5' });
    expect(hayama.tiles.map((t) => t.label)).toEqual(['Ranked', 'Ranked win rate', 'Ranked KDA', 'Ranked MVP / SVP']);
    // Ranked MVPs and SVPs beside the ranked tiles: the unranked ones are not added in.
    const { ranked } = profiles['autumnnippert-hayamaken-1402468705.json']!.overall;
    expect(hayama.tiles.at(-1)!.value).toBe(`${ranked.mvp} / ${ranked.svp}`);
    const doubleC = profiles['doublec8-double-c-1786151874-2025-08-05.json']!;
    const season2 = seasonRanks(doubleC).find((s) => s.season.number === '2')!.season;
    // Bronze II is Season 2's, under a card headed with Season 3 (current), whose 14 wins of 26 the tiles count.
    const asked = await rankSeasons(doubleC, season2, false);
    expect(asked).toMatchObject({ embed: 'Season 2', card: 'Season 2', named: 'Season 2', headed: 'Season 3' });
    expect(asked.tiles[0]).toEqual({ label: 'Ranked', value: '14 W / 26' });
    // The current season's rank under the current season's heading needs no season.
    expect(await rankSeasons(doubleC, null, true)).toMatchObject({ embed: 'Season 3', card: 'Season 3', named: null, headed: 'Season 3' });
    expect(await rankSeasons(doubleC, season2, true)).toMatchObject({ embed: 'Season 2', card: 'Season 2', named: null, headed: 'Season 2' });
  });

  it('on every real capture, current and with each of its ranked seasons asked for, with and without that season’s totals', async () => {
    let named = 0;
    let cases = 0;
    for (const [file, p] of Object.entries(CAPTURES)) {
      const asked = [null, ...seasonRanks(p).map((s) => s.season)];
      for (const season of asked) {
        for (const totals of season ? [true, false] : [true]) {
          const seen = await rankSeasons(p, season, totals);
          const what = `${file} season ${season?.number ?? 'current'}${totals ? '' : ' without its totals'}`;
          cases++;
          expect(seen.card, what).toBe(seen.embed);
          // Named exactly when it is not the card's own season; a pace (of the rank's season) only when it is.
          expect(seen.named !== null, what).toBe(seen.embed !== null && seen.embed !== seen.headed);
          if (seen.named) {
            named++;
            expect(
              seen.tiles.some((t) => t.label.startsWith('To ')),
              what,
            ).toBe(false);
          }
        }
      }
    }
    expect(Object.keys(CAPTURES).length).toBeGreaterThanOrEqual(10);
    expect(cases).toBeGreaterThan(Object.keys(CAPTURES).length);
    expect(named).toBeGreaterThanOrEqual(2);
  });
});
