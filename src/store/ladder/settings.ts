/** A server's ladder settings: on or off, the moments' channel and kinds, quiet hours, the weekly recap. */
import { MOMENT_KINDS, type MomentKind } from '../../game/ladder.js';
import type { Db } from '../database.js';
import { touched } from './listing.js';

/** Why moments could not be posted last: the Discord error `code` and its reason, in `channelId`, at `at` (ms). */
export interface MomentsProblem {
  code: number | null;
  reason: string;
  channelId: string;
  at: number;
}

/**
 * A server's ladder settings: `momentsChannelId` null when moments are not posted; the weekly recap on `recapDay`
 * (0 Sunday … 6 Saturday, null: off) at `recapAt` (minutes after midnight), in `timeZone`; moments held during `quiet` (local minutes).
 */
export interface LadderSettings {
  enabled: boolean;
  momentsChannelId: string | null;
  kinds: MomentKind[];
  recapDay: number | null;
  /** Minutes after local midnight. */
  recapAt: number;
  timeZone: string;
  quiet: { start: number; end: number } | null;
  problem: MomentsProblem | null;
}

/** What {@link LadderRepository.configure} changes; what is undefined is kept. */
export interface LadderChange {
  enabled?: boolean;
  momentsChannelId?: string | null;
  kinds?: MomentKind[];
  recapDay?: number | null;
  recapAt?: number;
  timeZone?: string | null;
  quiet?: { start: number; end: number } | null;
}

export async function readSettings(db: Db, guildId: string): Promise<LadderSettings> {
  const row = await db.selectFrom('ladder_settings').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
  return settingsOf(row);
}

/**
 * Changes what is given and keeps the rest; `momentsChannelId: null` stops the posts. Setting the moments' channel
 * clears the last problem posting them.
 */
export async function configureLadder(db: Db, guildId: string, change: LadderChange, now: number): Promise<LadderSettings> {
  touched([guildId]);
  const set = {
    ...(change.enabled !== undefined ? { enabled: change.enabled ? 1 : 0 } : {}),
    ...(change.momentsChannelId !== undefined ? { moments_channel_id: change.momentsChannelId, moments_problem: null } : {}),
    ...(change.kinds !== undefined ? { moment_kinds: change.kinds.join(',') } : {}),
    ...(change.recapDay !== undefined ? { recap_day: change.recapDay } : {}),
    ...(change.recapAt !== undefined ? { recap_at: change.recapAt } : {}),
    ...(change.timeZone !== undefined ? { time_zone: change.timeZone } : {}),
    ...(change.quiet !== undefined ? { quiet_start: change.quiet?.start ?? null, quiet_end: change.quiet?.end ?? null } : {}),
    updated_at: now,
  };
  await db
    .insertInto('ladder_settings')
    .values({ guild_id: guildId, enabled: 0, moments_channel_id: null, moment_kinds: MOMENT_KINDS.join(','), ...set })
    .onConflict((oc) => oc.column('guild_id').doUpdateSet(set))
    .execute();
  return readSettings(db, guildId);
}

/**
 * Records why moments could not be posted (null: they can again). `turnOff`: the channel is gone, so moments stop
 * until an admin picks another.

/**
 * Records why moments could not be posted (null: they can again). `turnOff`: the channel is gone, so moments stop
 * until an admin picks another.
 */
export async function setMomentsProblem(db: Db, guildId: string, problem: MomentsProblem | null, turnOff = false): Promise<void> {
  // About a channel an admin has replaced since (a moment planned for the old one): nothing to report or turn off.
  const current = await db.selectFrom('ladder_settings').select('moments_channel_id').where('guild_id', '=', guildId).executeTakeFirst();
  if (problem && current?.moments_channel_id !== problem.channelId) return;
  await db
    .updateTable('ladder_settings')
    .set({ moments_problem: problem ? JSON.stringify(problem) : null, ...(turnOff ? { moments_channel_id: null } : {}) })
    .where('guild_id', '=', guildId)
    .execute();
}

/** The servers with quiet hours for their ladder's posts, with those settings. */
export async function withQuietHours(db: Db): Promise<{ guildId: string; settings: LadderSettings }[]> {
  const rows = await db.selectFrom('ladder_settings').selectAll().where('quiet_start', 'is not', null).execute();
  return rows.map((r) => ({ guildId: r.guild_id, settings: settingsOf(r) }));
}

/** Whether `guildId` runs a ladder (no row: off). */
export async function readEnabled(db: Db, guildId: string): Promise<boolean> {
  const row = await db.selectFrom('ladder_settings').select('enabled').where('guild_id', '=', guildId).executeTakeFirst();
  return row?.enabled === 1;
}

export function idsOf(text: string): string[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function settingsOf(
  row:
    | {
        enabled: number;
        moments_channel_id: string | null;
        moment_kinds: string;
        recap_day?: number | null;
        recap_at: number;
        time_zone?: string | null;
        quiet_start?: number | null;
        quiet_end?: number | null;
        moments_problem?: string | null;
      }
    | undefined,
): LadderSettings {
  let problem: MomentsProblem | null;
  try {
    problem = row?.moments_problem ? (JSON.parse(row.moments_problem) as MomentsProblem) : null;
  } catch {
    problem = null;
  }
  const quiet = row && row.quiet_start !== null && row.quiet_start !== undefined && row.quiet_end !== null && row.quiet_end !== undefined;
  return {
    enabled: row?.enabled === 1,
    momentsChannelId: row?.moments_channel_id ?? null,
    kinds: row ? kindsOf(row.moment_kinds) : [...MOMENT_KINDS],
    recapDay: row?.recap_day ?? null,
    recapAt: row ? Number(row.recap_at) : 18 * 60,
    timeZone: row?.time_zone ?? 'UTC',
    quiet: quiet ? { start: Number(row.quiet_start), end: Number(row.quiet_end) } : null,
    problem,
  };
}

export function kindsOf(text: string): MomentKind[] {
  return MOMENT_KINDS.filter((k) => text.split(',').includes(k));
}
