/** /privacy: what the bot stores about a member, exported, switched off, and deleted down to the last row and cache entry. */
import { describe, expect, it } from 'vitest';
import { readForTracking } from '../../src/game/tracking.js';
import type { Tables } from '../../src/store/schema.js';
import { profiles } from '../game/samples.js';
import { customIds, MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const DOUBLE_C = { uid: '1786151874', name: 'Double C' };
const CARD = { uid: '1403392756', name: 'Card1gan' };

/** Records what the tracker would have read of `uid` from a capture. */
async function recordRead(uid: string, file: string, at: number): Promise<void> {
  const read = readForTracking(profiles[file]!);
  if (read.kind !== 'read') throw new Error(file);
  const claim = (await env.b.state.tracking.claim(at, 100, 1)).find((c) => c.uid === uid);
  if (!claim) throw new Error(`${uid} is not due at ${at}`);
  await env.b.state.tracking.recordRead(claim, { ...read, changed: true }, { intervalMs: 1 }, at);
}

const embedText = (p: { embeds: { description?: string; fields?: { name: string; value: string }[] }[] }) =>
  p.embeds.map((e) => [e.description ?? '', ...(e.fields ?? []).map((f) => `${f.name}: ${f.value}`)].join('\n')).join('\n');

/** Rows that mention `userId`, or one of `uids`, in every table of the store. */
async function rowsAbout(userId: string, uids: string[]): Promise<Record<string, number>> {
  const db = env.b.state.database.db;
  const byUser = ['account_links', 'member_settings', 'alert_members', 'member_mains', 'link_verifications'] as const;
  const byUid = ['tracked_players', 'rank_snapshots', 'tracked_matches'] as const;
  const out: Record<string, number> = {};
  for (const t of byUser)
    out[t] = (
      await db
        .selectFrom(t as keyof Tables)
        .selectAll()
        .where('user_id' as never, '=', userId as never)
        .execute()
    ).length;
  for (const t of byUid) out[t] = uids.length === 0 ? 0 : (await db.selectFrom(t).selectAll().where('uid', 'in', uids).execute()).length;
  out.alert_messages = (await db.selectFrom('alert_messages').selectAll().where('target', '=', `dm:${userId}`).execute()).length;
  return out;
}

describe('/privacy', () => {
  it('show lists the links, what tracking recorded, the language, the alerts and the recent lookups', async () => {
    const t0 = env.b.ctx.now();
    await env.b.run('link', { player: DOUBLE_C.uid, default: true });
    await env.b.run('link', { player: CARD.name });
    await env.b.ctx.links.setLocale(MEMBER.userId, 'de');
    await env.b.ctx.alerts!.members.update(MEMBER.userId, MEMBER.guildId, (m) => {
      m.heroes = ['1011', '1014'];
      m.dm = true;
    });
    await recordRead(DOUBLE_C.uid, 'doublec8-double-c-1786151874-2025-08-05.json', t0 + 1_000);
    await env.b.run('player', { query: DOUBLE_C.uid });
    const { payload } = await env.b.run('privacy', {}, 'show');
    expect(payload.flags).toBe(64);
    expect(embedText(payload)).toContain('Einstellungen: Sprache: Deutsch');
    await env.b.ctx.links.setLocale(MEMBER.userId, 'en');
    const text = embedText((await env.b.run('privacy', {}, 'show')).payload);
    expect(text).toContain('Settings: Language: English');
    expect(text).toMatch(/Linked accounts: ★ Double C \(UID 1786151874\) · linked <t:\d+:D>\n• Card1gan \(UID 1403392756\)/);
    expect(text).toContain('Tracking: Double C: 20 matches and 1 snapshots recorded\nCard1gan: nothing recorded yet');
    expect(text).toContain('Hero alerts: Set in 1 place (a server, or direct messages), 2 heroes watched');
    expect(text).toMatch(/Recent lookups: 1 player, kept 30 days/);
  });

  it('export attaches everything as JSON: links, settings, alerts, tracked records, recent lookups', async () => {
    const { view } = await env.b.run('privacy', {}, 'export');
    expect(view.files).toHaveLength(1);
    const file = view.files![0]!;
    expect(file).toMatchObject({ name: `rivals-bot-data-${MEMBER.userId}.json`, contentType: 'application/json' });
    const data = JSON.parse(new TextDecoder().decode(file.data)) as Record<string, unknown> & {
      accounts: { uid: string }[];
      tracking: { uid: string; matches: unknown[]; snapshots: unknown[] }[];
      settings: { locale: string };
      alerts: { heroes: string[] }[];
      recentLookups: { uid: string }[];
    };
    expect(data.userId).toBe(MEMBER.userId);
    expect(data.accounts.map((a) => a.uid)).toEqual([DOUBLE_C.uid, CARD.uid]);
    expect(data.settings.locale).toBe('en');
    expect(data.alerts[0]!.heroes).toEqual(['1011', '1014']);
    expect(data.tracking.find((t) => t.uid === DOUBLE_C.uid)!.matches).toHaveLength(20);
    expect(data.recentLookups.map((r) => r.uid)).toContain(DOUBLE_C.uid);
  });

  it('tracking off keeps the links and removes the history of the accounts no other member tracks; on tracks them again', async () => {
    // Another member tracks Card1gan too: its history is theirs as well and stays.
    await env.b.ctx.links.link(OTHER_MEMBER.userId, CARD, true);
    await env.b.state.tracking.sync(env.b.ctx.now());
    await recordRead(CARD.uid, 'autumnnippert-card1gan-1403392756-2025-03-06.json', env.b.ctx.now() + 2_000);
    const off = await env.b.run('privacy', { enabled: false }, 'tracking');
    expect(embedText(off.payload)).toContain('Tracking is off');
    const rows = await rowsAbout(MEMBER.userId, [DOUBLE_C.uid]);
    expect(rows).toMatchObject({ account_links: 2, tracked_players: 0, rank_snapshots: 0, tracked_matches: 0 });
    expect((await env.b.state.tracking.timeline(CARD.uid)).matches.length).toBeGreaterThan(0);
    expect(embedText((await env.b.run('privacy', {}, 'show')).payload)).toContain('Tracking: Off: your accounts are not read on a schedule.');
    await env.b.run('privacy', { enabled: true }, 'tracking');
    expect((await env.b.state.tracking.timeline(DOUBLE_C.uid)).tracked).toBe(true);
  });

  it('unlinking removes the account’s history unless another member still tracks it', async () => {
    await recordRead(DOUBLE_C.uid, 'doublec8-double-c-1786151874-2025-08-05.json', env.b.ctx.now() + 3_000);
    await env.b.run('unlink', { player: DOUBLE_C.uid });
    expect(await rowsAbout('nobody', [DOUBLE_C.uid])).toMatchObject({ tracked_players: 0, rank_snapshots: 0, tracked_matches: 0 });
    await env.b.run('link', { player: DOUBLE_C.uid, default: true });
  });

  it('delete asks first; keeping deletes nothing, and nobody else can confirm', async () => {
    const ask = await env.b.run('privacy', {}, 'delete');
    expect(customIds(ask.payload)).toEqual([`pv.del:${MEMBER.userId}`, `pv.keep:${MEMBER.userId}`]);
    const other = await env.b.press(`pv.del:${MEMBER.userId}`, [], OTHER_MEMBER);
    expect(embedText(other.payload)).toContain('Only the member who asked can answer this.');
    // Someone else's press leaves the confirmation as it is: their answer is a message of its own.
    expect(other.mode).toBe('reply');
    const kept = await env.b.press(`pv.keep:${MEMBER.userId}`);
    expect(embedText(kept.payload)).toContain('Nothing was deleted.');
    // The answer takes the confirmation's place, its buttons gone: they cannot be pressed again.
    expect(kept.mode).toBe('update');
    expect(kept.payload.components).toEqual([]);
    expect((await rowsAbout(MEMBER.userId, [])).account_links).toBe(2);
  });

  it('a deleted member leaves nothing behind: no row in any table, no recent lookup, no cached profile of their accounts', async () => {
    await recordRead(DOUBLE_C.uid, 'doublec8-double-c-1786151874-2025-08-05.json', env.b.ctx.now() + 4_000);
    await env.b.state.alerts.saveMains(MEMBER.userId, { uid: DOUBLE_C.uid, heroes: ['1011'], refreshedAt: env.b.ctx.now() });
    await env.b.state.alerts.plan('balances', 'post-1', [{ target: `dm:${MEMBER.userId}`, part: 1, body: '{}' }], env.b.ctx.now());
    await env.b.run('player', { query: DOUBLE_C.uid });
    await env.b.press(`lk.v:${DOUBLE_C.uid}`);
    const before = await rowsAbout(MEMBER.userId, [DOUBLE_C.uid]);
    for (const [table, n] of Object.entries(before)) expect(n, table).toBeGreaterThan(0);
    const path = `/api/v1/player/${DOUBLE_C.uid}`;
    const asked = env.r.requests.byPath.get(path);

    // Looked up: among the players this process has seen, for everyone's suggestions.
    expect(env.b.ctx.recent.known().map((p) => p.uid)).toContain(DOUBLE_C.uid);
    const done = await env.b.press(`pv.del:${MEMBER.userId}`);
    expect(embedText(done.payload)).toContain('the bot stores nothing about you any more');
    expect(done.mode).toBe('update');
    expect(done.payload.components).toEqual([]);

    // Card1gan is still another member's: its records stay; nothing of Double C or of the member does.
    expect(await rowsAbout(MEMBER.userId, [DOUBLE_C.uid])).toEqual(Object.fromEntries(Object.keys(before).map((t) => [t, 0])));
    expect((await env.b.state.tracking.timeline(CARD.uid)).tracked).toBe(true);
    expect(await env.b.lookups.get(`recent:${MEMBER.userId}`)).toBeUndefined();
    expect(await env.b.lookups.get(`seen:${MEMBER.userId}`)).toBeUndefined();
    expect(env.b.ctx.recent.known().map((p) => p.uid)).not.toContain(DOUBLE_C.uid);
    // The profile was cached before; the next lookup asks the API again.
    await env.b.ctx.api.player(DOUBLE_C.uid);
    expect(env.r.requests.byPath.get(path)).toBe((asked ?? 0) + 1);
    expect(await env.b.ctx.links.locale(MEMBER.userId)).toBeNull();
    const show = embedText((await env.b.run('privacy', {}, 'show')).payload);
    expect(show).toContain('Linked accounts: None.');
  });
});
