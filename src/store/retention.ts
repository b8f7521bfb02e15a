/** Prunes settled records so the database does not grow with time; work still pending is never pruned. */
import type { Db } from './database.js';
import { AUDIT_RETENTION_MS } from './config-audit.js';

/** Ms: far past any retry or backfill. */
export const RETENTION_MS = 30 * 24 * 60 * 60_000;
/** Ms. */
export const PRUNE_INTERVAL_MS = 60 * 60_000;

export interface PruneResult {
  deliveries: number;
  fanOuts: number;
}

/** Deletes what settled before `now - retentionMs` (ms); returns the deliveries and fan-outs deleted. */
export async function pruneState(db: Db, now: number, retentionMs = RETENTION_MS): Promise<PruneResult> {
  const cutoff = now - retentionMs;
  const deliveries = await db.deleteFrom('deliveries').where('at', '<', cutoff).where('state', 'in', ['done', 'failed']).executeTakeFirst();
  const fanOuts = await db.deleteFrom('fan_outs').where('finished_at', '<', cutoff).executeTakeFirst();
  // The settings' audit log keeps its own 90 days, whatever the records' retention.
  await db
    .deleteFrom('config_audit')
    .where('at', '<', now - AUDIT_RETENTION_MS)
    .execute();
  // Left waiting by a digest turned off (a digest sends at least weekly).
  await db.deleteFrom('digest_items').where('found_at', '<', cutoff).execute();
  // Then the plans left with no message waiting.
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
