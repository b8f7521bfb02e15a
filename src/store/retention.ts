/**
 * Retention: settled delivery records and finished fan-outs are deleted once they are older than
 * the retention period, so the database does not grow with time. A delivery still being retried and
 * a fan-out still pending are never pruned.
 */
import type { Db } from './database.js';

/** How long settled deliveries and finished fan-outs are kept (ms): far past any retry or backfill. */
export const RETENTION_MS = 30 * 24 * 60 * 60_000;
/** How often the poller prunes (ms). */
export const PRUNE_INTERVAL_MS = 60 * 60_000;

/** Rows deleted by one {@link pruneState}. */
export interface PruneResult {
  deliveries: number;
  fanOuts: number;
}

/**
 * Deletes settled deliveries (`done`, `failed`) and finished fan-outs last changed before `now - retentionMs`.
 * Both deletes use an index (`deliveries_by_time`, `fan_outs_by_finish`).
 */
export async function pruneState(db: Db, now: number, retentionMs = RETENTION_MS): Promise<PruneResult> {
  const cutoff = now - retentionMs;
  const deliveries = await db.deleteFrom('deliveries').where('at', '<', cutoff).where('state', 'in', ['done', 'failed']).executeTakeFirst();
  const fanOuts = await db.deleteFrom('fan_outs').where('finished_at', '<', cutoff).executeTakeFirst();
  // Posts left waiting by a digest that was turned off (a digest sends at least weekly).
  await db.deleteFrom('digest_items').where('found_at', '<', cutoff).execute();
  // Alerts sent long ago: their messages, then the plans left with no message waiting.
  await db.deleteFrom('alert_messages').where('settled_at', '<', cutoff).execute();
  await db
    .deleteFrom('alert_plans')
    .where('planned_at', '<', cutoff)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('alert_messages')
            .select('alert_messages.post_id')
            .whereRef('alert_messages.feed', '=', 'alert_plans.feed')
            .whereRef('alert_messages.post_id', '=', 'alert_plans.post_id'),
        ),
      ),
    )
    .execute();
  return { deliveries: Number(deliveries.numDeletedRows), fanOuts: Number(fanOuts.numDeletedRows) };
}
