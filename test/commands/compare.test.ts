import { loadImage } from '@napi-rs/canvas';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { compareRankSpec } from '../../commands/compare.js';
import { rankTimeline } from '../../src/game/rank-timeline.js';
import { latestSeason, seasonFromNumber } from '../../src/game/seasons.js';
import { currentSeason } from '../../src/game/profile.js';
import type { CompareRankChart } from '../../src/charts/specs.js';
import { realProfiles } from '../game/samples.js';
import { recordingCharts } from '../helpers/charts.js';
import { createChartRenderer } from '../../src/charts/renderer.js';
import { embedLength, LIMITS } from '../../src/render/limits.js';
import { useReplicaBot, MEMBER, OTHER_MEMBER } from '../helpers/bot.js';
import { readsWhileHeldBack } from '../helpers/held-read.js';

const env = useReplicaBot();
const SIR_FINAL = '1117455441';
const CARD1GAN = '1403392756';

type Field = { name: string; value: string; inline?: boolean };
const fieldsOf = (p: { embeds: { fields?: Field[] }[] }) => p.embeds[0]!.fields ?? [];

describe('/compare', () => {
  it('reads the hero list while the profiles are on their way, not after them', async () => {
    const { view, payload } = await readsWhileHeldBack(env.r, '/api/v1/player', ['/api/v1/heroes'], (b) =>
      b.run('compare', { player: SIR_FINAL, other: CARD1GAN }),
    );
    expect(view.isError).toBeUndefined();
    expect(fieldsOf(payload)[2]!.value).toMatch(/^\*\*Human Torch\*\*\n/);
  });

  it('puts the two players side by side: rank, ranked record and top heroes, then the four heroes both play most', async () => {
    const { view, payload } = await env.b.run('compare', { player: SIR_FINAL, other: 'Card1gan' });
    expect(view.isError).toBeUndefined();
    const embed = payload.embeds[0]!;
    expect(embed.title).toBe('Sir Final vs Card1gan');
    const [a, b, both] = fieldsOf(payload);
    expect(a).toMatchObject({ name: 'Sir Final', inline: true });
    expect(a!.value).toMatch(/^\*\*Grandmaster III\*\* · 4,559\n67 ranked matches · 44\.8 % won\nKDA \d+\.\d\d · 13h 51m\n/);
    // Play time by role is /player's: two columns of it wrap past a phone's first screen.
    expect(a!.value).not.toMatch(/Strategist 6h 39m/);
    expect(a!.value).toMatch(/Top: Invisible Woman, Hela, Doctor Strange/);
    expect(b).toMatchObject({ name: 'Card1gan [FSYR]', inline: true });
    expect(b!.value).toMatch(/^\*\*Grandmaster III\*\* · 4,562/);
    expect(both!.name).toBe('Heroes both play');
    // Most combined play time first, each with both records.
    expect(both!.value.match(/^\*\*[^*]+\*\*$/gm)).toHaveLength(4);
    expect(both!.value).toMatch(/^\*\*Human Torch\*\*\nSir Final: 66\.7 % · KDA 5\.14 · 6 matches\nCard1gan: 83\.3 % · KDA 3\.81 · 6 matches/);
    expect(embedLength(embed)).toBeLessThanOrEqual(LIMITS.embedTotal);
    for (const f of fieldsOf(payload)) expect(f.value.length).toBeLessThanOrEqual(LIMITS.fieldValue);
  });

  it('compares both players on one season: an older profile says its totals are from its own season, never labelled with the newer one', async () => {
    // Sir Final's capture ends in Season 1.5; Double C's newest in Season 3.
    const { payload } = await env.b.run('compare', { player: SIR_FINAL, other: '1786151874' });
    const embed = payload.embeds[0]!;
    expect(embed.description).toMatch(/^Season 3:/);
    const [a, b] = fieldsOf(payload);
    expect(a!.value).toMatch(/^\*\*No ranked record for Season 3\*\*\nTotals from Season 1\.5 \(no newer data\)\n/);
    expect(b!.value).toMatch(/^\*\*Gold II\*\* · 3,752\n/);
    expect(b!.value).not.toMatch(/Totals from/);
    // Heroes with play time but no completed match have no record to put head to head.
    expect(JSON.stringify(payload.embeds[0]!.fields)).not.toMatch(/ 0 matches/);
  });

  it('without `other`, compares with the member’s linked account, and says how to link when there is none', async () => {
    const none = await env.b.run('compare', { player: SIR_FINAL }, undefined, OTHER_MEMBER);
    expect(none.payload.flags).toBe(64);
    expect(none.payload.embeds[0]!.description).toMatch(/^You have not linked a Rivals account yet/);
    await env.b.ctx.links.link(OTHER_MEMBER.userId, { uid: CARD1GAN, name: 'Card1gan' }, true);
    const linked = await env.b.run('compare', { player: SIR_FINAL }, undefined, OTHER_MEMBER);
    expect(linked.payload.embeds[0]!.title).toBe('Sir Final vs Card1gan');
  });

  it('names the option that matched no player, and refuses the same player twice', async () => {
    const missing = await env.b.run('compare', { player: SIR_FINAL, other: 'no-such-player-anywhere' });
    expect(missing.payload.embeds[0]!.description).toMatch(/No player called “no-such-player-anywhere”/);
    const same = await env.b.run('compare', { player: SIR_FINAL, other: 'Sir Final' });
    expect(same.payload.flags).toBe(64);
    expect(same.payload.embeds[0]!.description).toBe('Both options name Sir Final. Pick two different players to compare.');
  });

  it('completes both options from the member’s recent lookups', async () => {
    await env.b.run('compare', { player: SIR_FINAL, other: CARD1GAN });
    // The lookups are recorded after the answer, not awaited by it.
    await vi.waitFor(async () => expect((await env.b.ctx.recent.list(MEMBER.userId)).map((r) => r.uid)).toContain(CARD1GAN));
    const choices = await env.b.router.autocomplete('compare', { focused: { name: 'other', value: 'card' }, options: {}, user: MEMBER }, env.b.ctx);
    expect(choices).toContainEqual({ name: 'Card1gan · recent', value: CARD1GAN });
  });

  it('builds the rank chart from both rank timelines, in time order, on the season compared', async () => {
    const a = (await env.b.ctx.api.player(SIR_FINAL)).data;
    const b = (await env.b.ctx.api.player(CARD1GAN)).data;
    const spec = compareRankSpec(a, b);
    expect(spec.players.map((p) => p.name)).toEqual(['Sir Final', 'Card1gan']);
    // Every rank_history entry, every competitive match's score after it, and each season's last change.
    const timeline = rankTimeline(a);
    expect(spec.players[0]!.points.length).toBe(timeline.length);
    expect(timeline.filter((x) => x.source === 'match').length).toBe(
      a.recent_matches.filter((m) => m.game_mode_id === 2 && m.player.new_score !== null).length,
    );
    const times = spec.players[0]!.points.map((p) => p.time);
    expect(times).toEqual([...times].sort((x, y) => x - y));
    // On one season, only that season's points.
    const s15 = compareRankSpec(a, b, seasonFromNumber('1.5'));
    expect(s15.players[0]!.points.length).toBe(timeline.filter((x) => x.season?.number === '1.5').length);
    expect(s15.players[0]!.points.length).toBeLessThan(timeline.length);
  });
});

describe('/compare rank chart: a line for each player it names', () => {
  it('gives both players points on every pair of real profiles, on the season the command shows', () => {
    const list = Object.values(realProfiles);
    let pairs = 0;
    let otherSeason = 0;
    for (const a of list) {
      for (const b of list) {
        if (a.uid === b.uid) continue;
        const season = latestSeason([currentSeason(a), currentSeason(b)]);
        const spec = compareRankSpec(a, b, season);
        for (const [i, p] of [a, b].entries()) {
          const player = spec.players[i]!;
          expect(player.points.length, `${a.name} vs ${b.name}: ${p.name}`).toBeGreaterThan(0);
          // Points of another season than the one compared say which, beside the name.
          const own = rankTimeline(p).some((x) => x.season?.index === season!.index);
          if (own) expect(player.name).toBe(p.name);
          else {
            otherSeason++;
            expect(player.name).toMatch(new RegExp(`^${p.name.replace(/[[\]()]/g, '\\$&')} \\(Season [\\d.]+\\)$`));
          }
        }
        pairs++;
      }
    }
    expect(pairs).toBeGreaterThanOrEqual(100);
    expect(otherSeason).toBeGreaterThan(0);
  });

  it('through the command: Sir Final (Season 1.5) beside Double C (Season 3) draws both, Sir Final’s season named', async () => {
    const charts = recordingCharts();
    const options = { player: SIR_FINAL, other: '1786151874' };
    await env.b.router.command('compare', { options, user: MEMBER }, { ...env.b.ctx, charts });
    const spec = charts.specs[0] as CompareRankChart;
    expect(spec.players.map((p) => p.name)).toEqual(['Sir Final (Season 1.5)', 'Double C']);
    expect(spec.players.every((p) => p.points.length > 1)).toBe(true);
    await env.b.router.command('compare', { options, user: { ...MEMBER, locale: 'fr' } }, { ...env.b.ctx, charts });
    expect((charts.specs[1] as CompareRankChart).players[0]!.name).toBe('Sir Final (Saison 1.5)');
  });
});

describe('/compare with the chart renderer', () => {
  const charts = createChartRenderer();
  afterAll(() => charts.close());

  it('attaches both rank histories as one chart, shown in the embed', async () => {
    const view = await env.b.router.command('compare', { options: { player: SIR_FINAL, other: CARD1GAN }, user: MEMBER }, { ...env.b.ctx, charts });
    expect(view.files?.map((f) => f.name)).toEqual(['compare.png']);
    expect(view.embeds![0]!.image).toEqual({ url: 'attachment://compare.png' });
    const png = await loadImage(Buffer.from(view.files![0]!.data));
    expect(png.width).toBeLessThanOrEqual(1600);
    expect(png.height).toBeLessThanOrEqual(900);
  });
});
