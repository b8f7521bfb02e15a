/**
 * Who a server's ladder lists: a member by one verified linked account (the one they chose for that server, else their
 * default, else their first verified one), resolved when the account's links or proofs change; and the version of each
 * server's ladder, so that a page read before a change is not served after it.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../database.js';

/** Whether the standing behind a row makes it listed, from the row's own columns. */
export const LISTED = sql<number>`CASE WHEN opted_out = 0 AND uid IS NOT NULL AND private = 0 AND score IS NOT NULL THEN 1 ELSE 0 END`;

/** The account a ladder row's member is listed by: their choice if verified, else their default if verified, else their first verified. */
export const LISTED_BY = sql`(SELECT a.uid FROM account_links a
  WHERE a.user_id = ladder_members.user_id AND a.verified_at IS NOT NULL
  ORDER BY CASE WHEN a.uid = ladder_members.chosen_uid THEN 0 ELSE 1 END, a.is_default DESC, a.linked_at, a.uid
  LIMIT 1)`;

/**
 * Pages read before one of this process's changes to a server's ladder are not served after it: each change bumps its
 * servers' versions, which the page cache's keys carry.
 */
const versions = new Map<string, number>();

export function touched(guildIds: Iterable<string>): void {
  for (const id of new Set(guildIds)) versions.set(id, (versions.get(id) ?? 0) + 1);
}

/** Takes `userId` off every server's ladder, with the moments about them. @returns how many ladders they were on. */
export async function forgetLadderMember(db: Db, userId: string): Promise<number> {
  await db.deleteFrom('ladder_moments').where('user_id', '=', userId).execute();
  const rows = await db.deleteFrom('ladder_members').where('user_id', '=', userId).returning('guild_id').execute();
  touched(rows.map((r) => r.guild_id));
  return rows.length;
}

/** Copies each row's standing (by the account it is listed by) and whether it is listed, for the rows `where` selects. @returns their servers. */
async function copyStandings(db: Db, where: RawBuilder<unknown>): Promise<string[]> {
  const of = (column: string) => sql`(SELECT s.${sql.ref(column)} FROM player_standings s WHERE s.uid = ladder_members.uid)`;
  await sql`UPDATE ladder_members SET score = ${of('score')}, week_delta = ${of('week_delta')}, role = ${of('role')},
    private = COALESCE(${of('private')}, 0) WHERE ${where}`.execute(db);
  const rows = await sql<{ guild_id: string }>`UPDATE ladder_members SET listed = ${LISTED} WHERE ${where} RETURNING guild_id`.execute(db);
  return rows.rows.map((r) => r.guild_id);
}

/**
 * Lists `userId` again on every server's ladder they are on: the account they are listed by and its standing. Run in
 * the same transaction as any change to their links, proofs or ladder choices.
 */
export async function relistMember(db: Db, userId: string): Promise<void> {
  await sql`UPDATE ladder_members SET uid = ${LISTED_BY} WHERE user_id = ${userId}`.execute(db);
  touched(await copyStandings(db, sql`user_id = ${userId}`));
}

/** Takes the standings of `uids` off the ladders (they are no longer tracked): their members show as without a rank read. */
export async function unlistStandings(db: Db, uids: readonly string[]): Promise<void> {
  if (uids.length === 0) return;
  const rows = await db
    .updateTable('ladder_members')
    .set({ score: null, week_delta: null, role: null, private: 0, listed: 0 })
    .where('uid', 'in', uids)
    .returning('guild_id')
    .execute();
  touched(rows.map((r) => r.guild_id));
}

/** The version of `guildId`'s ladder in this process: it moves with every change to who is listed or where. */
export function ladderVersion(guildId: string): number {
  return versions.get(guildId) ?? 0;
}
