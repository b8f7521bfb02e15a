/** Who is on a server's ladder, with their choices there (the account, the platform, opting out, mentions). */
import type { Db } from '../database.js';
import { LISTED, relistMember, touched } from './listing.js';

/** A member's place on one server's ladder, for `/ladder join` and `/privacy`. */
export interface LadderMembership {
  guildId: string;
  chosenUid: string | null;
  platform: string | null;
  optedOut: boolean;
  mentionsOff: boolean;
  joinedAt: number;
}

/** Puts `userId` on `guildId`'s ladder (listed), or changes their choices there; options left undefined keep theirs. */
export async function joinLadder(
  db: Db,
  guildId: string,
  userId: string,
  now: number,
  choices: { chosenUid?: string | null; platform?: string | null; optedOut?: boolean; mentionsOff?: boolean } = {},
): Promise<void> {
  const changes = choices.chosenUid !== undefined || choices.platform !== undefined || choices.optedOut !== undefined || choices.mentionsOff !== undefined;
  const set = {
    ...(choices.chosenUid !== undefined ? { chosen_uid: choices.chosenUid } : {}),
    ...(choices.platform !== undefined ? { platform: choices.platform } : {}),
    ...(choices.optedOut !== undefined ? { opted_out: choices.optedOut ? 1 : 0 } : {}),
    ...(choices.mentionsOff !== undefined ? { mentions_off: choices.mentionsOff ? 1 : 0 } : {}),
  };
  await db.transaction().execute(async (trx) => {
    const added = await trx
      .insertInto('ladder_members')
      .values({
        guild_id: guildId,
        user_id: userId,
        chosen_uid: choices.chosenUid ?? null,
        platform: choices.platform ?? null,
        opted_out: choices.optedOut ? 1 : 0,
        joined_at: now,
        uid: null,
        score: null,
        week_delta: null,
        role: null,
        private: 0,
        listed: 0,
        mentions_off: choices.mentionsOff ? 1 : 0,
      })
      .onConflict((oc) =>
        Object.keys(set).length > 0 ? oc.columns(['guild_id', 'user_id']).doUpdateSet(set) : oc.columns(['guild_id', 'user_id']).doNothing(),
      )
      .executeTakeFirst();
    // Nothing changed for a member already on it: their row is as listed as it was.
    if (Number(added.numInsertedOrUpdatedRows ?? 0n) > 0) await relistMember(trx, userId);
  });
  if (changes) touched([guildId]);
}

export async function membership(db: Db, guildId: string, userId: string): Promise<LadderMembership | null> {
  const row = await db.selectFrom('ladder_members').selectAll().where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst();
  return row ? membershipOf(row) : null;
}

/** Every server's ladder `userId` is on. */
export async function memberships(db: Db, userId: string): Promise<LadderMembership[]> {
  const rows = await db.selectFrom('ladder_members').selectAll().where('user_id', '=', userId).orderBy('joined_at').execute();
  return rows.map(membershipOf);
}

/**
 * Which of `uids` (game accounts) stand for members listed on `guildId`'s ladder: by uid, that member's Discord user ID.
 * Only listed members (joined, not opted out, shown by a verified account): no one else is ever named by the server's bot.
 */
export function listedMembersByUid(db: Db, guildId: string, uids: readonly string[]): Promise<Map<string, string>> {
  return membersByUid(db, guildId, uids, 'listed');
}

/**
 * Which of `uids` stand for members of `guildId`'s ladder whose game names may be shown beyond it (the public page's
 * duos): listed by a proved account, not opted out, the profile not private; ranked or not. By uid: their user IDs.
 */
export function shownMembersByUid(db: Db, guildId: string, uids: readonly string[]): Promise<Map<string, string>> {
  return membersByUid(db, guildId, uids, 'shown');
}

/** `uids`' members of `guildId`'s ladder by uid, their user IDs: `listed` ones ({@link LISTED}), or `shown` ones (not opted out, not private). */
async function membersByUid(db: Db, guildId: string, uids: readonly string[], which: 'listed' | 'shown'): Promise<Map<string, string>> {
  if (uids.length === 0) return new Map();
  const members = db
    .selectFrom('ladder_members')
    .select(['uid', 'user_id'])
    .where('guild_id', '=', guildId)
    .where('uid', 'in', [...new Set(uids)]);
  const rows = await (which === 'listed' ? members.where(LISTED, '=', 1) : members.where('opted_out', '=', 0).where('private', '=', 0)).execute();
  return new Map(rows.flatMap((r) => (r.uid ? [[r.uid, r.user_id] as const] : [])));
}

function membershipOf(r: {
  guild_id: string;
  chosen_uid: string | null;
  platform: string | null;
  opted_out: number;
  mentions_off: number;
  joined_at: number | string;
}): LadderMembership {
  return {
    guildId: r.guild_id,
    chosenUid: r.chosen_uid,
    platform: r.platform,
    optedOut: r.opted_out === 1,
    mentionsOff: r.mentions_off === 1,
    joinedAt: Number(r.joined_at),
  };
}
