import { afterEach, describe, expect, it } from 'vitest';
import { PLAYER_SECTIONS } from '../../commands/player.js';
import { embedLength, LIMITS } from '../../src/render/limits.js';
import { bot, customIds, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
afterEach(() => env.r.setFaults({}));

const withinLimits = (payload: { embeds: Parameters<typeof embedLength>[0][] }) =>
  expect(payload.embeds.reduce((s, e) => s + embedLength(e), 0)).toBeLessThanOrEqual(LIMITS.embedTotal);

describe('/player on every sample player', () => {
  it('shows rank, level, matches, win rate, K/D/A, play time, MVP/SVP, by uid and by name', async () => {
    for (const [uid, profile] of env.r.dataset.players) {
      for (const query of [uid, String(profile.name)]) {
        const { payload, view } = await env.b.run('player', { query });
        expect(view.isError, query).toBeFalsy();
        const e = payload.embeds[0]!;
        const fields = Object.fromEntries(e.fields!.map((f) => [f.name, f.value]));
        expect(Object.keys(fields)).toEqual(expect.arrayContaining(['Level', 'Ranked', 'Unranked', 'Ranked K / D / A', 'Play time', 'MVP / SVP']));
        expect(fields.UID).toBe(uid);
        expect(e.thumbnail?.url).toMatch(/^https:\/\/img\.test\/rivals\/ranked\//);
        expect(customIds(payload)).toEqual([`pl.s:${uid}:`]);
      }
    }
  });

  it('renders every section of every sample player within limits', async () => {
    for (const uid of env.r.dataset.players.keys()) {
      for (const section of PLAYER_SECTIONS) {
        const { payload, view } = await env.b.press(`pl.s:${uid}:`, [section]);
        expect(view.isError, `${uid} ${section}`).toBeFalsy();
        withinLimits(payload);
        for (const id of customIds(payload)) expect(id.length).toBeLessThanOrEqual(100);
      }
    }
  });

  it('pluralises and shows numbers for people', async () => {
    const { payload } = await env.b.run('player', { query: 'HayamaKen' });
    const fields = Object.fromEntries(payload.embeds[0]!.fields!.map((f) => [f.name, f.value]));
    expect(fields.Unranked).toBe('1 match · 0 wins · 0.0 %');
    expect(fields.Ranked).toBe('0 matches · 0 wins · —');
  });

  it('recent matches: version 2 pages, then a match opens from the select menu', async () => {
    const first = await env.b.press('pl.s:1403392756:', ['matches']);
    const lines = first.payload.embeds[0]!.description!.split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toMatch(/^\*\*(Win|Loss)\*\* · /);
    const next = customIds(first.payload).find((id) => id.startsWith('pl.p:') && id.endsWith(':n'))!;
    expect(next).toBe('pl.p:1403392756::matches:2:n');
    const second = await env.b.press(next);
    const select = second.payload.components.flatMap((row) => row.components).find((c) => 'custom_id' in c && c.custom_id === 'pl.m:1403392756')!;
    const options = (select as { options: { value: string }[] }).options.map((o) => o.value);
    expect(options).toContain('6713355_1740604074_322_11001_10');
    const opened = await env.b.press('pl.m:1403392756', ['6713355_1740604074_322_11001_10']);
    expect(opened.payload.embeds[0]!.title).toBe('Quick Play');
    expect(opened.payload.embeds).toHaveLength(3);
  });

  it('a recent match the API no longer has is reported by its match id, not the player uid', async () => {
    const gone = await env.b.press('pl.m:1403392756', ['6799999_1741000000_100_11001_10']);
    expect(gone.view.isError).toBe(true);
    expect(gone.payload.embeds[0]!.description).toMatch(/^No match with the id “6799999_1741000000_100_11001_10” was found/);
  });

  it('falls back to match history version 1 when version 2 fails', async () => {
    const fresh = bot(env.r); // a cold cache, so version 2 is really asked
    env.r.setFaults({ forceStatus: 500, pathPrefix: '/api/v2/' });
    const before = env.r.requests.byPath.get('/api/v1/player/1117455441/match-history') ?? 0;
    const { payload, view } = await fresh.press('pl.s:1117455441:', ['matches']);
    expect(view.isError).toBeFalsy();
    expect(payload.embeds[0]!.description!.split('\n')).toHaveLength(10);
    expect(env.r.requests.byPath.get('/api/v1/player/1117455441/match-history')).toBe(before + 1);
    await fresh.close();
  });

  it('says a player is not found, and a private profile is private', async () => {
    const missing = await env.b.run('player', { query: 'no-such-player' });
    expect(missing.payload.embeds[0]!.description).toMatch(/^No player “no-such-player” was found/);
    expect(missing.payload.flags).toBe(64);
    const profile = structuredClone(env.r.dataset.players.get('1402468705')!);
    env.r.dataset.players.set('999000999', { ...profile, uid: 999000999, name: 'Hidden One', isPrivate: true });
    try {
      const hidden = await env.b.run('player', { query: '999000999' });
      expect(hidden.payload.embeds[0]!.description).toBe('Hidden One’s profile is private. They can make it public in the game’s settings.');
    } finally {
      env.r.dataset.players.delete('999000999');
    }
  });

  it('refuses a bad season before asking the API', async () => {
    const { payload } = await env.b.run('player', { query: '1403392756', season: 1.55 });
    expect(payload.embeds[0]!.description).toBe('The option “season” must be a season number such as 1 or 1.5.');
  });
});

describe('/match on every sample match', () => {
  it('shows mode, MVP, SVP and both teams with heroes, K/D/A, damage, healing, taken and hit rate', async () => {
    for (const uid of env.r.dataset.matches.keys()) {
      const { payload, view } = await env.b.run('match', { match: uid });
      expect(view.isError).toBeFalsy();
      withinLimits(payload);
      const [summary, ...teams] = payload.embeds;
      expect(summary!.title).toBe('Quick Play');
      expect(summary!.fields!.map((f) => f.name)).toEqual(['MVP', 'SVP', 'Players']);
      expect(teams).toHaveLength(2);
      const players = teams.flatMap((t) => t.fields!);
      expect(players.length).toBe(Number(summary!.fields![2]!.value));
      for (const p of players) expect(p.value).toMatch(/KDA [\d.]+\)\n.* dmg · .* heal · .* taken · .* hits$/);
      expect(teams.some((t) => /Victory/.test(t.title!)) && teams.some((t) => /Defeat/.test(t.title!))).toBe(true);
      expect(players.filter((p) => / · MVP$/.test(p.name))).toHaveLength(1);
    }
  });
  it('shows the match id as code, unescaped', async () => {
    const { payload } = await env.b.run('match', { match: '6713355_1740604074_322_11001_10' });
    expect(payload.embeds[0]!.description).toMatch(/^Match `6713355_1740604074_322_11001_10`/);
  });
});
