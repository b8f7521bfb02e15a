/**
 * Durable state (STYLE.md, src/store): keyv on an embedded SQLite file under `DATA_DIR` by default,
 * or on Redis when `REDIS_URL` is set, so several processes or shards share one state. SQLite
 * commits each write before it resolves, so an acknowledged write survives `kill -9`.
 *
 * Keys are namespaced (`rivals:state`) and every record carries a schema version (`v`), so a later
 * change can migrate records as it reads them.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import Keyv from 'keyv';
import KeyvRedis from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';

/** Namespace of every state key. */
export const STATE_NAMESPACE = 'rivals:state';

export interface StateStoreOptions {
  /** `redis://` URL; absent: SQLite under `dataDir`. */
  redisUrl?: string;
  /** Directory of the SQLite file (created if missing). */
  dataDir: string;
  /** SQLite file name (default `state.sqlite`). */
  file?: string;
  /** Key namespace (default {@link STATE_NAMESPACE}). */
  namespace?: string;
}

/** Where the state lives, for logs: `redis` or the SQLite file path. */
export function describeStateStore(options: StateStoreOptions): string {
  return options.redisUrl ? 'redis' : resolve(options.dataDir, options.file ?? 'state.sqlite');
}

/**
 * Opens the state store. Writes resolve only once stored (SQLite: committed to the file).
 * @throws {Error} when `dataDir` cannot be created.
 */
export function createStateStore(options: StateStoreOptions): Keyv {
  if (options.redisUrl) {
    return new Keyv({ store: new KeyvRedis(options.redisUrl, { throwOnConnectError: false, connectionTimeout: 5_000 }), namespace: options.namespace ?? STATE_NAMESPACE, useKeyPrefix: false });
  }
  mkdirSync(options.dataDir, { recursive: true });
  const file = resolve(options.dataDir, options.file ?? 'state.sqlite');
  return new Keyv({ store: new KeyvSqlite({ uri: `sqlite://${file}`, table: 'state', busyTimeout: 5_000 }), namespace: options.namespace ?? STATE_NAMESPACE });
}
