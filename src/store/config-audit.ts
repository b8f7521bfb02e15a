/** The audit log of servers' settings: who changed what, when, from /config or the dashboard; kept {@link AUDIT_RETENTION_MS}. */
import { randomUUID } from 'node:crypto';
import type { Db } from './database.js';

/** How long a change stays in the log, ms: 90 days. */
export const AUDIT_RETENTION_MS = 90 * 24 * 60 * 60_000;

/** Where a change was made. */
export type AuditSource = 'command' | 'dashboard';

/** One change. `userId` null once that member deleted their data; `detail` the options the change ran with; `at` ms since the epoch. */
export interface AuditEntry {
  id: string;
  guildId: string;
  userId: string | null;
  source: AuditSource;
  action: string;
  detail: Record<string, string | number | boolean>;
  at: number;
}

/** Detail longer than this (characters of JSON) is cut: a hero filter or a rank-role map is far shorter. */
const MAX_DETAIL = 2_000;

function detailOf(raw: string): AuditEntry['detail'] {
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as AuditEntry['detail']) : {};
  } catch {
    return {};
  }
}

export class ConfigAuditRepository {
  constructor(private readonly db: Db) {}

  /** Adds a change; options that are undefined are left out. */
  async record(entry: Omit<AuditEntry, 'id' | 'detail'> & { detail: Record<string, string | number | boolean | undefined> }): Promise<void> {
    const detail = Object.fromEntries(Object.entries(entry.detail).filter(([, v]) => v !== undefined));
    let json = JSON.stringify(detail);
    if (json.length > MAX_DETAIL) json = JSON.stringify({ cut: true });
    await this.db
      .insertInto('config_audit')
      .values({ id: randomUUID(), guild_id: entry.guildId, user_id: entry.userId, source: entry.source, action: entry.action, detail: json, at: entry.at })
      .execute();
  }

  /** A server's changes, newest first, at most `limit`, kept within `now - AUDIT_RETENTION_MS`. */
  async list(guildId: string, now: number, limit = 50): Promise<AuditEntry[]> {
    const rows = await this.db
      .selectFrom('config_audit')
      .selectAll()
      .where('guild_id', '=', guildId)
      .where('at', '>=', now - AUDIT_RETENTION_MS)
      .orderBy('at', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      guildId: r.guild_id,
      userId: r.user_id,
      source: r.source === 'dashboard' ? 'dashboard' : 'command',
      action: r.action,
      detail: detailOf(r.detail),
      at: Number(r.at),
    }));
  }

  /** Deletes changes older than {@link AUDIT_RETENTION_MS}; returns how many. */
  async prune(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('config_audit')
      .where('at', '<', now - AUDIT_RETENTION_MS)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
