/** The profile's image card: the same figures as the embed beside it, asked for as a spec the worker accepts. */
import { describe, expect, it } from 'vitest';
import { playerView } from '../../src/commands/player.js';
import { parseChartSpec, type ProfileCard } from '../../src/charts/specs.js';
import { totalPlayTime } from '../../src/game/profile.js';
import { profiles } from '../game/samples.js';
import { useReplicaBot } from '../helpers/bot.js';
import { withoutCards } from '../../src/render/charts.js';

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
      { label: 'Ranked', value: '14–12' },
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
