/** What the ladder posts, planned in the store and sent through the feeds' delivery ledger: its moments, and the weekly recap. */
import { sql } from 'kysely';
import { kindOf, momentId, TOP_PLACES, type Moment } from '../../game/ladder.js';
import type { Db } from '../database.js';
import { idsOf, kindsOf, settingsOf, type LadderSettings } from './settings.js';

/** A server whose weekly recap may be due: its settings, the last recap's local date and its top members then. */
export interface RecapTarget {
  guildId: string;
  settings: LadderSettings;
  sentFor: string | null;
  /** Null before the first recap. */
  lastTop: string[] | null;
}

/** What a weekly recap tells, from the week's tracked matches of the listed members; `name` the account's. */
export interface RecapData {
  listed: number;
  improved: { userId: string; name: string; delta: number } | null;
  matches: { userId: string; name: string; n: number } | null;
  mvps: { userId: string; name: string; n: number } | null;
  hero: { heroId: string; n: number } | null;
  top: { userId: string; name: string; score: number }[];
  /** The two listed members with the most wins together on one team this week (at least two matches together), then fewest losses. */
  duo: { a: { userId: string; name: string }; b: { userId: string; name: string }; wins: number; losses: number } | null;
}

/** A planned moment not settled yet: `name` the account's name when it was planned. */
export interface PendingMoment {
  guildId: string;
  momentId: string;
  userId: string;
  channelId: string;
  moment: Moment;
  name: string;
  createdAt: number;
}

/** Servers with the ladder on, a moments channel and a weekly recap. */
export async function recapTargets(db: Db): Promise<RecapTarget[]> {
  const rows = await db
    .selectFrom('ladder_settings')
    .selectAll()
    .where('enabled', '=', 1)
    .where('recap_day', 'is not', null)
    .where('moments_channel_id', 'is not', null)
    .execute();
  return rows
    .map((r) => ({ guildId: r.guild_id, settings: settingsOf(r), sentFor: r.recap_sent_for ?? null, lastTop: r.recap_top ? idsOf(r.recap_top) : null }))
    .filter((t) => t.settings.kinds.includes('recap'));
}

/** The week's recap of `guildId` over tracked matches played from `fromSec` to before `toSec` (Unix seconds). */
export async function recapData(db: Db, guildId: string, fromSec: number, toSec: number): Promise<RecapData> {
  const listed = sql`m.guild_id = ${guildId} AND m.listed = 1`;
  const names = sql`LEFT JOIN account_links l ON l.user_id = m.user_id AND l.uid = m.uid`;
  const week = sql`t.played_at >= ${fromSec} AND t.played_at < ${toSec}`;
  const listedUids = sql`SELECT m.uid FROM ladder_members m WHERE ${listed} AND m.uid IS NOT NULL`;
  const [count, improved, played, hero, top, duo] = await Promise.all([
    sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ladder_members m WHERE ${listed}`.execute(db),
    sql<{ user_id: string; name: string; d: number | string }>`
      SELECT m.user_id, COALESCE(l.name, m.uid) AS name, m.week_delta AS d FROM ladder_members m ${names}
      WHERE ${listed} AND m.week_delta > 0 ORDER BY m.week_delta DESC, m.user_id LIMIT 1`.execute(db),
    sql<{ user_id: string; name: string; n: number | string; mvps: number | string | null }>`
      SELECT m.user_id, COALESCE(l.name, m.uid) AS name, COUNT(*) AS n, SUM(t.mvp) AS mvps
      FROM ladder_members m JOIN tracked_matches t ON t.uid = m.uid ${names}
      WHERE ${listed} AND ${week} GROUP BY m.user_id, l.name, m.uid`.execute(db),
    sql<{ hero_id: string; n: number | string }>`
      SELECT t.hero_id, COUNT(*) AS n FROM ladder_members m JOIN tracked_matches t ON t.uid = m.uid
      WHERE ${listed} AND ${week} AND t.hero_id IS NOT NULL GROUP BY t.hero_id ORDER BY COUNT(*) DESC, t.hero_id LIMIT 1`.execute(db),
    sql<{ user_id: string; name: string; score: number | string }>`
      SELECT m.user_id, COALESCE(l.name, m.uid) AS name, m.score FROM ladder_members m ${names}
      WHERE ${listed} ORDER BY m.score DESC, m.user_id DESC LIMIT ${TOP_PLACES}`.execute(db),
    // One team by their results, which a team shares (src/game/duos.ts); draws say nothing.
    sql<{ a: string; b: string; w: number | string; l: number | string }>`
      SELECT a.uid AS a, b.uid AS b, SUM(CASE WHEN a.won = 1 THEN 1 ELSE 0 END) AS w, SUM(CASE WHEN a.won = 0 THEN 1 ELSE 0 END) AS l
      FROM tracked_matches a JOIN tracked_matches b ON b.match_uid = a.match_uid AND a.uid < b.uid
      WHERE a.uid IN (${listedUids}) AND b.uid IN (${listedUids})
        AND a.played_at >= ${fromSec} AND a.played_at < ${toSec} AND a.won IN (0, 1) AND b.won = a.won
      GROUP BY a.uid, b.uid HAVING COUNT(*) >= 2
      ORDER BY 3 DESC, 4 ASC, a.uid, b.uid LIMIT 1`.execute(db),
  ]);
  const pair = duo.rows[0];
  const who = async (uid: string) => {
    const r = await sql<{ user_id: string; name: string }>`
      SELECT m.user_id, COALESCE(l.name, m.uid) AS name FROM ladder_members m ${names} WHERE ${listed} AND m.uid = ${uid} ORDER BY m.user_id LIMIT 1`.execute(
      db,
    );
    return r.rows[0] ? { userId: r.rows[0].user_id, name: r.rows[0].name } : null;
  };
  const [da, db2] = pair ? await Promise.all([who(pair.a), who(pair.b)]) : [null, null];
  const best = (key: 'n' | 'mvps') => {
    const rows = played.rows.map((r) => ({ userId: r.user_id, name: r.name, n: Number(r[key] ?? 0) })).filter((r) => r.n > 0);
    rows.sort((a, b) => b.n - a.n || (a.userId < b.userId ? -1 : 1));
    return rows[0] ?? null;
  };
  const i = improved.rows[0];
  const h = hero.rows[0];
  return {
    listed: Number(count.rows[0]?.n ?? 0),
    improved: i ? { userId: i.user_id, name: i.name, delta: Number(i.d) } : null,
    matches: best('n'),
    mvps: best('mvps'),
    hero: h ? { heroId: h.hero_id, n: Number(h.n) } : null,
    top: top.rows.map((r) => ({ userId: r.user_id, name: r.name, score: Number(r.score) })),
    duo: pair && da && db2 ? { a: da, b: db2, wins: Number(pair.w), losses: Number(pair.l) } : null,
  };
}

/** The recap of local date `sentFor` is settled: posted, with `top` the members on top of the ladder then, or skipped (no `top`). */
export async function settleRecap(db: Db, guildId: string, sentFor: string, top?: readonly string[]): Promise<void> {
  await db
    .updateTable('ladder_settings')
    .set({ recap_sent_for: sentFor, ...(top ? { recap_top: JSON.stringify(top) } : {}) })
    .where('guild_id', '=', guildId)
    .execute();
}

/** Planned moments not settled, oldest first, but those of `exceptGuilds` (servers in their quiet hours). */
export async function pendingMoments(db: Db, limit: number, exceptGuilds: readonly string[] = []): Promise<PendingMoment[]> {
  let query = db.selectFrom('ladder_moments').selectAll().where('settled_at', 'is', null);
  if (exceptGuilds.length > 0) query = query.where('guild_id', 'not in', exceptGuilds);
  const rows = await query.orderBy('created_at').limit(limit).execute();
  return rows.flatMap((r) => {
    try {
      const data = JSON.parse(r.data) as { moment: Moment; name: string };
      return [
        {
          guildId: r.guild_id,
          momentId: r.moment_id,
          userId: r.user_id,
          channelId: r.channel_id,
          moment: data.moment,
          name: data.name,
          createdAt: Number(r.created_at),
        },
      ];
    } catch {
      return [];
    }
  });
}

export async function settleMoment(db: Db, m: Pick<PendingMoment, 'guildId' | 'momentId'>, now: number): Promise<void> {
  await db.updateTable('ladder_moments').set({ settled_at: now }).where('guild_id', '=', m.guildId).where('moment_id', '=', m.momentId).execute();
}

/** The members listed by `uid` on ladders that post top-3 moments. */
export async function topWatchers(db: Db, uid: string): Promise<{ guild_id: string; user_id: string }[]> {
  const rows = await db
    .selectFrom('ladder_members as m')
    .innerJoin('ladder_settings as s', 's.guild_id', 'm.guild_id')
    .select(['m.guild_id', 'm.user_id', 's.moment_kinds'])
    .where('m.uid', '=', uid)
    .where('m.listed', '=', 1)
    .where('s.enabled', '=', 1)
    .where('s.moments_channel_id', 'is not', null)
    .execute();
  return rows.filter((r) => kindsOf(r.moment_kinds).includes('top3'));
}

/** The members on top of `guildId`'s ladder, first first. */
export async function topOf(db: Db, guildId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('ladder_members')
    .select('user_id')
    .where('guild_id', '=', guildId)
    .where('listed', '=', 1)
    .orderBy('score', 'desc')
    .orderBy('user_id', 'desc')
    .limit(TOP_PLACES)
    .execute();
  return rows.map((r) => r.user_id);
}

/** What the bot recorded of `uid`'s ranked matches in `season`: the heroes most played first, and the rank score gained since its first. */
export async function seasonRecord(db: Db, uid: string, season: number): Promise<{ heroes: string[]; change: number | null }> {
  const matches = await db
    .selectFrom('tracked_matches')
    .select(['hero_id', 'new_score', 'score_change', 'played_at'])
    .where('uid', '=', uid)
    .where('season', '=', season)
    .where('ranked', '=', 1)
    .orderBy('played_at')
    .execute();
  const counts = new Map<string, number>();
  for (const m of matches) if (m.hero_id) counts.set(m.hero_id, (counts.get(m.hero_id) ?? 0) + 1);
  const heroes = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
  const scored = matches.filter((m) => m.new_score !== null);
  const first = scored[0];
  const last = scored.at(-1);
  const change = first && last && first.score_change !== null ? Number(last.new_score) - (Number(first.new_score) - Number(first.score_change)) : null;
  return { heroes: heroes.slice(0, 3), change };
}

/**
 * Plans `moments` of `uid` on every server that lists a member by it and posts that kind (only `guildId`'s when given);
 * a moment planned before is kept as it was.
 */
export async function planMoments(db: Db, uid: string, season: number, moments: readonly Moment[], now: number, guildId?: string): Promise<void> {
  let query = db
    .selectFrom('ladder_members as m')
    .innerJoin('ladder_settings as s', 's.guild_id', 'm.guild_id')
    .leftJoin('account_links as l', (j) => j.onRef('l.user_id', '=', 'm.user_id').onRef('l.uid', '=', 'm.uid'))
    .select(['m.guild_id', 'm.user_id', 's.moments_channel_id', 's.moment_kinds', 'l.name'])
    .where('m.uid', '=', uid)
    .where('m.listed', '=', 1)
    .where('s.enabled', '=', 1)
    .where('s.moments_channel_id', 'is not', null);
  if (guildId !== undefined) query = query.where('m.guild_id', '=', guildId);
  const targets = await query.execute();
  for (const t of targets) {
    const kinds = kindsOf(t.moment_kinds);
    for (const moment of moments) {
      if (!kinds.includes(kindOf(moment))) continue;
      await db
        .insertInto('ladder_moments')
        .values({
          guild_id: t.guild_id,
          moment_id: momentId(uid, season, moment, now),
          user_id: t.user_id,
          channel_id: t.moments_channel_id!,
          data: JSON.stringify({ moment, name: t.name ?? uid }),
          created_at: now,
          settled_at: null,
        })
        .onConflict((oc) => oc.columns(['guild_id', 'moment_id']).doNothing())
        .execute();
    }
  }
}
