/**
 * One-off import of the state kept by earlier versions in a key-value store (keyv): the SQLite file
 * `DATA_DIR/state.sqlite` (table `state`) or, with `REDIS_URL`, the Redis keys of namespace
 * `rivals:state`. Guild settings, feed subscriptions, account links, delivery records and the feed
 * poller's state are copied into the tables in one transaction; recent lookups are not (they now live
 * in the cache). A `meta` row marks the import done, so it runs once; the old data is left in place.
 */
import { existsSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import Keyv from 'keyv';
import * as z from 'zod';
import { redisAdapter } from '../cache/store.js';
import type { Logger } from '../core/logger.js';
import type { Db } from './database.js';
import { FEED_TYPES, parseLegacySettings, rowOf, type FeedType } from './guild-settings.js';
import { SEEN_LIMIT, storedPostSchema } from './feed-state.js';

/** The former file and namespace. */
export const LEGACY_FILE = 'state.sqlite';
export const LEGACY_NAMESPACE = 'rivals:state';
const DONE = 'keyv_import';

/** What was imported. */
export interface ImportCounts {
  guilds: number;
  links: number;
  deliveries: number;
  feeds: number;
}

const linksV1 = z.object({
  v: z.literal(1),
  accounts: z.array(z.object({ uid: z.string(), name: z.string(), linkedAt: z.number() })),
  defaultUid: z.string().nullable(),
});
const deliveryV1 = z.object({
  v: z.literal(1),
  state: z.enum(['claimed', 'done', 'failed']),
  attempts: z.number(),
  at: z.number(),
  messageId: z.string().nullable(),
});
const feedV1 = z.object({ v: z.literal(1), seen: z.array(z.string()), pending: z.array(z.object({ post: storedPostSchema, foundAt: z.number() })) });

/** Reads `[key without namespace, value]` pairs of the former SQLite file (unexpired only). */
export function readLegacySqlite(file: string, now = Date.now()): [string, unknown][] {
  const sqlite = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const rows = sqlite.prepare('select key, value from state').all() as { key: string; value: string }[];
    const out: [string, unknown][] = [];
    for (const r of rows) {
      if (!r.key.startsWith(`${LEGACY_NAMESPACE}:`)) continue;
      try {
        const parsed = JSON.parse(r.value) as { value?: unknown; expires?: number | null };
        if (typeof parsed.expires === 'number' && parsed.expires < now) continue;
        out.push([r.key.slice(LEGACY_NAMESPACE.length + 1), parsed.value]);
      } catch {
        // An unreadable record is skipped, as the former store did on read.
      }
    }
    return out;
  } finally {
    sqlite.close();
  }
}

/** Reads the pairs of the former Redis namespace. */
export async function readLegacyRedis(url: string): Promise<[string, unknown][]> {
  // Loaded only when there is a legacy Redis to import from, as the cache loads it.
  const store = new Keyv({
    store: new (redisAdapter())(url, { throwOnConnectError: true, connectionTimeout: 3_000 }),
    namespace: LEGACY_NAMESPACE,
    useKeyPrefix: false,
  });
  try {
    const out: [string, unknown][] = [];
    const iterate = store.iterator as unknown as () => AsyncIterable<[string, unknown]>;
    for await (const [key, value] of iterate.call(store)) out.push([String(key).replace(/^rivals:state:+/, ''), value]);
    return out;
  } finally {
    await store.disconnect().catch(() => undefined);
  }
}

/**
 * Imports the former state once.
 * @returns the counts, or null when already imported or there is nothing to import.
 * @throws when the old store cannot be read (the import is retried at the next start) or the write fails.
 */
export async function importKeyvState(
  db: Db,
  source: { sqliteFile?: string; redisUrl?: string },
  logger: Logger,
  now = Date.now(),
): Promise<ImportCounts | null> {
  if (await db.selectFrom('meta').select('value').where('key', '=', DONE).executeTakeFirst()) return null;
  const entries: [string, unknown][] = [];
  const sqliteFile = source.sqliteFile && existsSync(source.sqliteFile) ? source.sqliteFile : undefined;
  if (sqliteFile) entries.push(...readLegacySqlite(sqliteFile, now));
  if (source.redisUrl) entries.push(...(await readLegacyRedis(source.redisUrl)));
  const counts: ImportCounts = { guilds: 0, links: 0, deliveries: 0, feeds: 0 };
  await db.transaction().execute(async (trx) => {
    for (const [key, value] of entries) {
      const [kind, ...rest] = key.split(':');
      if (kind === 'guild' && rest.length === 1) {
        const s = parseLegacySettings(value);
        if (!s) continue;
        const guildId = rest[0]!;
        await trx
          .insertInto('guild_settings')
          .values({
            guild_id: guildId,
            leaderboard_platform: s.leaderboardPlatform,
            ephemeral_by_default: s.ephemeralByDefault ? 1 : 0,
            version: 1,
            updated_at: now,
          })
          .onConflict((oc) => oc.column('guild_id').doNothing())
          .execute();
        for (const feed of FEED_TYPES) {
          const sub = s.feeds[feed];
          if (sub)
            await trx
              .insertInto('feed_subscriptions')
              .values(rowOf(guildId, feed, sub))
              .onConflict((oc) => oc.columns(['guild_id', 'feed']).doNothing())
              .execute();
        }
        counts.guilds++;
      } else if (kind === 'links' && rest.length === 1) {
        const l = linksV1.safeParse(value).data;
        if (!l) continue;
        for (const a of l.accounts) {
          await trx
            .insertInto('account_links')
            .values({ user_id: rest[0]!, uid: a.uid, name: a.name, linked_at: a.linkedAt, is_default: a.uid === l.defaultUid ? 1 : 0 })
            .onConflict((oc) => oc.columns(['user_id', 'uid']).doNothing())
            .execute();
        }
        counts.links++;
      } else if (kind === 'delivery' && rest.length >= 3) {
        const d = deliveryV1.safeParse(value).data;
        if (!d) continue;
        const feed = rest[0]!;
        const channelId = rest[rest.length - 1]!;
        const postId = rest.slice(1, -1).join(':');
        await trx
          .insertInto('deliveries')
          .values({ feed, post_id: postId, channel_id: channelId, state: d.state, attempts: d.attempts, at: d.at, message_id: d.messageId })
          .onConflict((oc) => oc.columns(['feed', 'post_id', 'channel_id']).doNothing())
          .execute();
        counts.deliveries++;
      } else if (kind === 'feed' && rest.length === 1 && (FEED_TYPES as readonly string[]).includes(rest[0]!)) {
        const f = feedV1.safeParse(value).data;
        if (!f) continue;
        const feed = rest[0] as FeedType;
        const seen = JSON.stringify(f.seen.slice(0, SEEN_LIMIT));
        await trx
          .insertInto('feed_state')
          .values({ feed, seen, updated_at: now })
          .onConflict((oc) => oc.column('feed').doNothing())
          .execute();
        for (const p of f.pending) {
          await trx
            .insertInto('fan_outs')
            .values({ feed, post_id: p.post.id, post: JSON.stringify(p.post), found_at: p.foundAt, finished_at: null })
            .onConflict((oc) => oc.columns(['feed', 'post_id']).doNothing())
            .execute();
        }
        counts.feeds++;
      }
    }
    await trx
      .insertInto('meta')
      .values({ key: DONE, value: JSON.stringify({ at: now, ...counts }) })
      .execute();
  });
  if (entries.length === 0) return null;
  logger.info({ ...counts, from: [sqliteFile, source.redisUrl ? 'redis' : undefined].filter(Boolean) }, 'imported the state of the former key-value store');
  return counts;
}
