/**
 * `/session` on the replica's real sample profiles: the latest session as the profile's own match rows group (recounted here
 * by hand), earlier sessions by button, the recorded matches joined in, a missing link named, and six languages.
 */
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/i18n/locales.js';
import { runInLocale } from '../../src/i18n/index.js';
import { encodeCustomId } from '../../src/render/custom-id.js';
import { profiles } from '../game/samples.js';
import { MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';
import { recordingCharts } from '../helpers/charts.js';
import type { TableCard } from '../../src/charts/specs.js';

const env = useReplicaBot();
const description = (p: { embeds: { description?: string }[] }) => p.embeds[0]!.description ?? '';

/** Double C's newest capture, as the replica serves it. */
const DOUBLE_C = profiles['doublec8-double-c-1786151874-2025-08-05.json']!;

/** The profile's match rows grouped by hand: a new group at a gap of an hour or more; the latest group first. */
function groupsByHand(rows: { time: number | null; is_win: boolean | null }[]) {
  const sorted = rows.filter((r) => r.time !== null).sort((a, b) => a.time! - b.time!);
  const groups: (typeof sorted)[] = [];
  for (const r of sorted) {
    const last = groups[groups.length - 1];
    if (last && r.time! - last[last.length - 1]!.time! < 3600) last.push(r);
    else groups.push([r]);
  }
  return groups.reverse();
}

describe('/session', () => {
  it('names the missing link, and the option to give instead', async () => {
    const { view, payload } = await env.b.run('session', {});
    expect(view.isError).toBe(true);
    expect(description(payload)).toMatch(/^You have not linked a Rivals account yet, so `\/session` needs a player: give it `player:<name or UID>`/);
  });

  it('shows the linked player’s latest session as their match rows group, with the previous one and the next division', async () => {
    await env.b.ctx.links.link(MEMBER.userId, { uid: '1786151874', name: 'Double C' }, true, env.b.clock.now);
    const groups = groupsByHand(DOUBLE_C.recent_matches.map((r) => ({ time: r.time, is_win: r.player.is_win })));
    expect(groups.length).toBeGreaterThan(1);
    const latest = groups[0]!;
    const wins = latest.filter((r) => r.is_win === true).length;
    const losses = latest.filter((r) => r.is_win === false).length;
    const { view, payload } = await env.b.run('session', {});
    expect(view.isError).toBeFalsy();
    const embed = payload.embeds[0]!;
    expect(embed.title).toBe('Latest session');
    expect(embed.author?.name).toBe('Double C');
    const text = description(payload);
    expect(text).toContain(`${latest.length} match${latest.length === 1 ? '' : 'es'} · ${wins}–${losses}`);
    expect(text).toContain(`<t:${latest[0]!.time}:f> – <t:${latest[latest.length - 1]!.time}:t>`);
    expect(text).toMatch(/\nHeroes: .+ ×\d+ \(\d+–\d+\)/);
    expect(text).toMatch(/\nBest match: /);
    const previous = embed.fields?.find((f) => f.name === 'Previous session');
    expect(previous?.value).toContain(`<t:${groups[1]![0]!.time}:f>`);
    expect(previous?.value).toContain(`${groups[1]!.length} match`);
    expect(embed.fields?.some((f) => f.name === 'Next division')).toBe(true);
    // Earlier sessions by button, each once; the last page has no previous one beyond it.
    const ids = payload.components.flatMap((r) => r.components.map((c) => ('custom_id' in c ? c.custom_id : '')));
    expect(ids).toContain(encodeCustomId('se.p', '1786151874', 2, 'n'));
    const second = await env.b.press(encodeCustomId('se.p', '1786151874', 2, 'n'));
    expect(second.payload.embeds[0]!.title).toBe(`Session 2 of ${groups.length}`);
    expect(description(second.payload)).toContain(`<t:${groups[1]![0]!.time}:f>`);
    expect(second.payload.embeds[0]!.fields?.some((f) => f.name === 'Next division')).toBe(false);
  });

  it('joins the matches the bot recorded to those the profile lists, each once', async () => {
    const recorded = DOUBLE_C.recent_matches[0]!;
    // A recorded match an hour and a half after the profile's newest: a session of its own, the latest.
    const newest = Math.max(...DOUBLE_C.recent_matches.map((r) => r.time!));
    await env.b.ctx.tracking!.follow('1786151874', env.b.clock.now, MEMBER.userId);
    const [claim] = (await env.b.state.tracking.claim(env.b.clock.now, 10, 60_000)).filter((c) => c.uid === '1786151874');
    const extra = {
      matchUid: 'later_1',
      time: newest + 5400,
      season: 5,
      modeId: 2,
      ranked: true,
      heroId: '1014',
      won: false,
      newScore: null,
      scoreChange: null,
      newLevel: null,
      kills: 1,
      deaths: 9,
      assists: 0,
    };
    const again = {
      matchUid: recorded.match_uid,
      time: recorded.time!,
      season: 5,
      modeId: 2,
      ranked: true,
      heroId: '1014',
      won: true,
      newScore: null,
      scoreChange: null,
      newLevel: null,
      kills: 1,
      deaths: 1,
      assists: 1,
    };
    await env.b.state.tracking.recordRead(
      claim!,
      { snapshot: null, matches: [extra, again], lastMatchAt: null, changed: false },
      { intervalMs: 60_000 },
      env.b.clock.now,
    );
    const text = description((await env.b.run('session', {})).payload);
    expect(text).toContain(`<t:${newest + 5400}:f>`);
    expect(text).toContain('1 match · 0–1');
    const groups = groupsByHand(DOUBLE_C.recent_matches.map((r) => ({ time: r.time, is_win: r.player.is_win })));
    expect((await env.b.run('session', {})).payload.components[0]!.components.map((c) => ('custom_id' in c ? c.custom_id : ''))).toContain(
      encodeCustomId('se.p', '1786151874', groups.length + 1, 'l'),
    );
  });

  it('draws the latest session as a card: its matches as played with their results, the embed keeping the rest', async () => {
    await env.b.ctx.links.link(MEMBER.userId, { uid: '1786151874', name: 'Double C' }, true, env.b.clock.now);
    const latest = groupsByHand(DOUBLE_C.recent_matches.map((r) => ({ time: r.time, is_win: r.player.is_win })))[0]!;
    const charts = recordingCharts();
    const view = await env.b.router.command('session', { options: {}, user: MEMBER }, { ...env.b.ctx, charts });
    const card = charts.specs.find((s): s is TableCard => s.kind === 'table-card')!;
    expect(card.title).toBe('Latest session · Double C');
    expect(card.tiles[0]).toEqual({ label: 'Matches', value: String(latest.length), tone: 'plain' });
    // Oldest first, as played; a win green, a loss red.
    expect(card.rows.map((r) => r.cells[1]!.text)).toEqual(latest.slice(-8).map((r) => (r.is_win ? 'Win' : 'Loss')));
    expect(card.rows.map((r) => r.cells[1]!.tone)).toEqual(latest.slice(-8).map((r) => (r.is_win ? 'win' : 'loss')));
    expect(view.embeds![0]!.image?.url).toBe('attachment://session.png');
    expect(view.files?.map((f) => f.name)).toEqual(['session.png']);
    // The span and the record are on the card; the heroes and the best match stay in the embed.
    expect(view.embeds![0]!.description).toMatch(/^Heroes: .+\nBest match: /);
  });

  it('heads the card with the session’s day, and its length only when it has one (more than one match)', async () => {
    const seen = new Set<string>();
    for (const file of Object.keys(profiles)) {
      const p = profiles[file]!;
      const latest = groupsByHand(p.recent_matches.map((r) => ({ time: r.time, is_win: r.player.is_win })))[0];
      if (!latest) continue;
      const charts = recordingCharts();
      await env.b.router.command('session', { options: { player: String(p.uid) }, user: MEMBER }, { ...env.b.ctx, charts });
      const card = charts.specs.find((s): s is TableCard => s.kind === 'table-card');
      // A capture the replica serves another version of has other sessions: only those it serves as captured count.
      if (!card || card.tiles[0]!.value !== String(latest.length)) continue;
      expect(card.subtitle.includes(' · '), file).toBe(latest[latest.length - 1]!.time! > latest[0]!.time!);
      seen.add(latest.length === 1 ? 'one match' : 'several');
    }
    expect([...seen].sort()).toEqual(['one match', 'several']);
  });

  it('shows a player typed by name, and another member’s linked account', async () => {
    const typed = await env.b.run('session', { player: '1117455441' });
    expect(typed.payload.embeds[0]!.author?.name).toBe('Sir Final');
    await env.b.ctx.links.link(OTHER_MEMBER.userId, { uid: '450703773', name: 'Mrblungy' }, true, env.b.clock.now);
    const theirs = await env.b.run('session', { user: OTHER_MEMBER.userId });
    expect(theirs.payload.embeds[0]!.author?.name).toMatch(/^mrblungy$/i);
  });

  it('speaks every language the bot speaks', async () => {
    const titles = new Set<string>();
    for (const locale of LOCALES) {
      const { payload } = await runInLocale(locale, () => env.b.run('session', {}));
      const text = [description(payload), ...(payload.embeds[0]!.fields ?? []).flatMap((f) => [f.name, f.value])].join('\n');
      expect(text, locale).not.toMatch(/session\.|\{\{/);
      titles.add(payload.embeds[0]!.title!);
    }
    expect(titles.size).toBe(LOCALES.length);
  });
});
