/** `/player … hero:<name>`: one player on one hero, on the replica's real profiles, through the router. */
import { describe, expect, it } from 'vitest';
import type { APIEmbed } from 'discord-api-types/v10';
import { readForTracking } from '../../src/game/tracking.js';
import { heroWeek, playerHero } from '../../src/game/player-hero.js';
import { everyRawProfile, profiles } from '../game/samples.js';
import { MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const UID = '1786151874';
const AUGUST = 'doublec8-double-c-1786151874-2025-08-05.json';
const fieldsOf = (e: APIEmbed) => Object.fromEntries((e.fields ?? []).map((f) => [f.name, f.value]));

describe('/player hero:', () => {
  it('adds up the ranked and unranked rows of the hero, and they add up to the profile’s own top-heroes line', async () => {
    const { payload, view } = await env.b.run('player', { query: UID, hero: 'winter soldier' });
    expect(view.isError).toBeFalsy();
    const e = payload.embeds[0]!;
    expect(e.title).toBe('Winter Soldier (Duelist)');
    expect(e.author?.name).toBe('Double C');
    const f = fieldsOf(e);
    expect(f.Ranked).toBe('19 matches · 63.2 % · 309 / 117 / 226 (KDA 4.57) · 3h 1m');
    expect(f.Unranked).toBe('7 matches · 28.6 % · 109 / 44 / 85 (KDA 4.41) · 1h 0m');
    // The profile's top heroes stand beside its ranked record: the same hero's ranked rows, 19 matches, 12 wins.
    const profile = await env.b.run('player', { query: UID });
    expect(fieldsOf(profile.payload.embeds[0]!)['Top heroes · Ranked']).toContain('**1. Winter Soldier** (Duelist) · 3h 1m · 19 matches · 63.2 %');
    expect(f['Per 10 minutes · all modes']).toMatch(/^[\d,]+ damage · 0 healing · [\d,]+ damage taken$/);
    expect(f['Accuracy · all modes']).toMatch(/^\d+\.\d %$/);
    // By mode, as the rows give them: the one SVP is the unranked one.
    const rows = profiles[AUGUST]!;
    const ws = (list: typeof rows.heroes_ranked) => list.find((h) => h.hero_id === '1041')!;
    expect(f['MVP / SVP']).toBe(
      `Ranked ${ws(rows.heroes_ranked).mvp} / ${ws(rows.heroes_ranked).svp} · Unranked ${ws(rows.heroes_unranked).mvp} / ${ws(rows.heroes_unranked).svp}`,
    );
  });

  it('gives the hero’s accuracy as hits over shots of both modes, not as the modes’ rates weighted by play time', async () => {
    const raw = everyRawProfile()['autumnnippert-mrblungy-450703773.json']!;
    type Row = { hero_id: unknown; main_attack: { total: number; hits: number } };
    const thor = (['heroes_ranked', 'heroes_unranked'] as const).map((k) => (raw[k] as Row[]).find((h) => String(h.hero_id) === '1039')!.main_attack);
    const hits = thor.reduce((n, m) => n + m.hits, 0);
    const shots = thor.reduce((n, m) => n + m.total, 0);
    // 845 of 2,429 shots: 34.8 %, where the rates weighted by play time make 34.9 %.
    expect(hits / shots).toBeCloseTo(0.3479, 4);
    const total = playerHero(profiles['autumnnippert-mrblungy-450703773.json']!, { id: '1039', name: 'thor' }).total!;
    expect(total.hit_rate).toBeCloseTo(hits / shots, 10);
    const { payload } = await env.b.run('player', { query: '450703773', hero: 'thor' });
    expect(fieldsOf(payload.embeds[0]!)['Accuracy · all modes']).toBe('34.8 %');
  });

  it('lists the maps of the recent matches on the hero, and their counts add up to those matches', async () => {
    const { payload } = await env.b.run('player', { query: UID, hero: 'Winter Soldier' });
    const f = fieldsOf(payload.embeds[0]!);
    const name = Object.keys(f).find((k) => k.startsWith('Maps (latest'))!;
    const recent = playerHero(profiles[AUGUST]!, { id: '1041', name: 'winter soldier' }).recent;
    expect(name).toBe(`Maps (latest ${recent.length} matches on this hero)`);
    const lines = f[name]!.split('\n');
    expect(lines[0]).toBe('Midtown (Competitive) · 3 matches · 2 wins');
    // The 14 matches were played on 9 maps: the 4 most played (what a phone's first screen holds), then the 5 others
    // counted; none left out unsaid.
    expect(recent).toHaveLength(14);
    const maps = playerHero(profiles[AUGUST]!, { id: '1041', name: 'winter soldier' }).maps;
    expect(maps).toHaveLength(9);
    expect(maps.reduce((sum, m) => sum + m.matches, 0)).toBe(14);
    expect(lines).toHaveLength(5);
    expect(lines.slice(0, 4).map((l) => Number(/ · (\d+) match/.exec(l)![1]))).toEqual(maps.slice(0, 4).map((m) => m.matches));
    expect(lines[4]).toBe('+5 more maps');
    // Every line is a map of a recent match on the hero, never one of another hero's.
    expect(recent.every((m) => m.player.hero_name === 'winter soldier' || m.player.hero_id === '1041')).toBe(true);
  });

  it('a hero the player never played says so and keeps the profile’s menu; an unknown hero gets a “Did you mean”', async () => {
    const none = await env.b.run('player', { query: UID, hero: 'groot' });
    expect(none.view.isError).toBeFalsy();
    const e = none.payload.embeds[0]!;
    expect(e.title).toBe('Groot (Vanguard)');
    expect(e.description).toContain('Double C has no play on Groot in these totals or recent matches.');
    expect(e.fields ?? []).toEqual([]);
    expect(JSON.stringify(none.payload.components)).toContain(`pl.s:${UID}:`);
    // "iron" fits two heroes: the member is asked which.
    const typo = await env.b.run('player', { query: UID, hero: 'iron' });
    expect(typo.view.isError).toBe(true);
    expect(typo.payload.embeds[0]!.description).toMatch(/Did you mean/);
    expect(typo.payload.embeds[0]!.description).toContain('Iron Man');
    expect(typo.payload.embeds[0]!.description).toContain('Iron Fist');
    // One clear typo is the hero itself.
    const spidr = await env.b.run('player', { query: UID, hero: 'spidr-man' });
    expect(spidr.payload.embeds[0]!.title).toBe('Spider-Man (Duelist)');
  });

  it('an unknown player with a known hero is the player’s “not found”, not the hero’s', async () => {
    const { view, payload } = await env.b.run('player', { query: 'Nobody123', hero: 'groot' });
    expect(view.isError).toBe(true);
    expect(payload.embeds[0]!.description).toBe('No player called “Nobody123”. Check the spelling, or use the UID.');
  });

  it('autocompletes from the player’s own heroes, most played first with play time, then the other heroes that fit', async () => {
    const typed = await env.b.router.autocomplete('player', { focused: { name: 'hero', value: '' }, options: { query: UID }, user: MEMBER }, env.b.ctx);
    expect(typed[0]).toEqual({ name: 'Winter Soldier · 4h 1m', value: '1041' });
    expect(typed.slice(0, 3).map((c) => c.name.split(' · ')[0])).toEqual(['Winter Soldier', 'Iron Man', 'Cloak & Dagger']);
    expect(typed.length).toBe(25);
    const iron = await env.b.router.autocomplete('player', { focused: { name: 'hero', value: 'iron' }, options: { query: UID }, user: MEMBER }, env.b.ctx);
    expect(iron[0]!.name).toBe('Iron Man · 1h 13m');
    expect(iron.some((c) => c.name === 'Iron Fist')).toBe(true);
    // No player named and none linked: the hero list alone, by name.
    const bare = await env.b.router.autocomplete('player', { focused: { name: 'hero', value: 'iron' }, options: {}, user: OTHER_MEMBER }, env.b.ctx);
    expect(bare.map((c) => c.name)).toContain('Iron Man');
    expect(bare.every((c) => !c.name.includes(' · '))).toBe(true);
  });

  it('a tracked player’s hero shows the last 7 days from the bot’s records', async () => {
    await env.b.ctx.links.link(MEMBER.userId, { uid: UID, name: 'Double C' }, true, 0);
    await env.b.state.tracking.follow(UID, 0);
    const read = readForTracking(profiles[AUGUST]!);
    if (read.kind !== 'read') throw new Error('not readable');
    const at = read.lastMatchAt! * 1000 + 60_000;
    const [claim] = await env.b.state.tracking.claim(at, 1, 60_000);
    await env.b.state.tracking.recordRead(claim!, { ...read, changed: true }, { intervalMs: 1 }, at);
    env.b.clock.now = at;
    const week = heroWeek(read.matches, '1041', at)!;
    expect(week.matches).toBeGreaterThan(0);
    const { payload } = await env.b.run('player', { hero: '1041' }, undefined, MEMBER);
    expect(fieldsOf(payload.embeds[0]!)['Last 7 days (tracked)']).toMatch(new RegExp(`^${week.matches} match(es)? · `));
    // Groot: tracked, but no match on it that week.
    const groot = await env.b.run('player', { hero: 'groot' }, undefined, MEMBER);
    expect(fieldsOf(groot.payload.embeds[0]!)['Last 7 days (tracked)']).toBe('No match on this hero recorded in the last 7 days');
  });
});
