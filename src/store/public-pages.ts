/** Servers' public pages (src/web/): on or off, and the address that can be shared, a random token replaced to revoke it. */
import { randomBytes } from 'node:crypto';
import type { Db } from './database.js';

/** A server's published page: `token` its address's last part; `publishedAt` ms since the epoch. */
export interface PublicPage {
  token: string;
  publishedAt: number;
}

/** 18 random bytes as base64url: 24 characters nobody guesses. */
const newToken = (): string => randomBytes(18).toString('base64url');

export class PublicPagesRepository {
  constructor(private readonly db: Db) {}

  async get(guildId: string): Promise<PublicPage | null> {
    const row = await this.db.selectFrom('public_pages').select(['token', 'published_at']).where('guild_id', '=', guildId).executeTakeFirst();
    return row ? { token: row.token, publishedAt: Number(row.published_at) } : null;
  }

  /** Turns the page on, or gives it a new address (the old one then leads nowhere). @returns the page as it is now. */
  async publish(guildId: string, now: number): Promise<PublicPage> {
    const token = newToken();
    await this.db
      .insertInto('public_pages')
      .values({ guild_id: guildId, token, published_at: now })
      .onConflict((oc) => oc.column('guild_id').doUpdateSet({ token, published_at: now }))
      .execute();
    return { token, publishedAt: now };
  }

  /** Turns the page off; its address leads nowhere. */
  async unpublish(guildId: string): Promise<void> {
    await this.db.deleteFrom('public_pages').where('guild_id', '=', guildId).execute();
  }

  /** The server whose page is at `token`, or null (never published, revoked, off, or not a token). */
  async guildOf(token: string): Promise<string | null> {
    if (!/^[\w-]{24}$/.test(token)) return null;
    const row = await this.db.selectFrom('public_pages').select('guild_id').where('token', '=', token).executeTakeFirst();
    return row?.guild_id ?? null;
  }
}
