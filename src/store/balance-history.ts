/** Each hero's balance history, and the posts already read so the indexer reads each once. */
import * as z from 'zod';
import type { ChangeLine, HeroChange, Verdict } from '../game/balance.js';
import { withDeadline, type Db } from './database.js';

/** api-spec.md endpoints 12 (`balance`) and 13 (`patch-note`). */
export type PostKind = 'balance' | 'patch-note';
export const POST_KINDS: readonly PostKind[] = ['balance', 'patch-note'];

export const COMPLETED_KEY = 'balance_history_completed_at';

export const MAX_PAGE = 100;

export interface IndexedPost {
  kind: PostKind;
  id: string;
  /** `YYYY-MM-DD`, other text as given, or null. */
  date: string | null;
  title: string;
}

/** `indexedAt` in epoch ms. */
export interface HistoryEntry {
  heroId: string;
  kind: PostKind;
  postId: string;
  date: string | null;
  title: string;
  verdict: Verdict;
  lines: ChangeLine[];
  indexedAt: number;
}

const verdictSchema = z.enum(['buff', 'nerf', 'adjusted', 'fixed']);
const linesSchema = z.array(z.object({ text: z.string(), verdict: verdictSchema }));

/** [] when unreadable: a row is never lost to one bad column. */
function parseLines(json: string): ChangeLine[] {
  try {
    const parsed = linesSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/**
 * Writes are the indexer's, off the reply path: no deadline. Reads for a member's answer have a deadline
 * and throw {@link StoreUnavailableError} past it or on a store failure.
 */
export class BalanceHistoryRepository {
  constructor(
    private readonly db: Db,
    private readonly deadlines: { readMs: number } = { readMs: 1_500 },
  ) {}

  /**
   * One transaction, replacing an earlier reading; a repeated hero keeps its first change.
   * @param at epoch ms.
   */
  async record(post: IndexedPost, changes: readonly HeroChange[], signature: string, at: number): Promise<void> {
    const byHero = new Map<string, HeroChange>();
    for (const c of changes) if (!byHero.has(c.heroId)) byHero.set(c.heroId, c);
    const rows = [...byHero.values()].map((c) => ({
      hero_id: c.heroId,
      kind: post.kind,
      post_id: post.id,
      post_date: post.date ?? '',
      title: post.title,
      verdict: c.verdict,
      lines: JSON.stringify(c.lines),
      indexed_at: at,
    }));
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('balance_history').where('kind', '=', post.kind).where('post_id', '=', post.id).execute();
      if (rows.length > 0) {
        // An upsert: a process recording the same post at once overwrites the same rows instead of failing on the key.
        await trx
          .insertInto('balance_history')
          .values(rows)
          .onConflict((oc) =>
            oc.columns(['hero_id', 'kind', 'post_id']).doUpdateSet((eb) => ({
              post_date: eb.ref('excluded.post_date'),
              title: eb.ref('excluded.title'),
              verdict: eb.ref('excluded.verdict'),
              lines: eb.ref('excluded.lines'),
              indexed_at: eb.ref('excluded.indexed_at'),
            })),
          )
          .execute();
      }
      await trx
        .insertInto('balance_posts')
        .values({ kind: post.kind, post_id: post.id, signature, heroes: rows.length, indexed_at: at })
        .onConflict((oc) => oc.columns(['kind', 'post_id']).doUpdateSet({ signature, heroes: rows.length, indexed_at: at }))
        .execute();
    });
  }

  async isIndexed(kind: PostKind, postId: string, signature?: string): Promise<boolean> {
    const row = await this.db.selectFrom('balance_posts').select('signature').where('kind', '=', kind).where('post_id', '=', postId).executeTakeFirst();
    return row !== undefined && (signature === undefined || row.signature === signature);
  }

  /** Post id → signature. */
  async indexed(kind: PostKind): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('balance_posts').select(['post_id', 'signature']).where('kind', '=', kind).execute();
    return new Map(rows.map((r) => [r.post_id, r.signature]));
  }

  /**
   * Newest first (patch notes before balance posts of the day); `limit` 1 to {@link MAX_PAGE}; `total` counts all.
   * @throws {StoreUnavailableError}
   */
  async forHero(heroId: string, page: { limit: number; offset?: number }): Promise<{ total: number; entries: HistoryEntry[] }> {
    const limit = Math.min(MAX_PAGE, Math.max(1, Math.trunc(page.limit) || 1));
    const offset = Math.max(0, Math.trunc(page.offset ?? 0) || 0);
    return withDeadline('read balance history', this.deadlines.readMs, async () => {
      const count = await this.db
        .selectFrom('balance_history')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('hero_id', '=', heroId)
        .executeTakeFirst();
      const rows = await this.db
        .selectFrom('balance_history')
        .selectAll()
        .where('hero_id', '=', heroId)
        .orderBy('post_date', 'desc')
        .orderBy('kind', 'desc')
        .orderBy('post_id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      return {
        total: Number(count?.n ?? 0),
        entries: rows.map((r) => ({
          heroId: r.hero_id,
          kind: r.kind === 'patch-note' ? 'patch-note' : 'balance',
          postId: r.post_id,
          date: r.post_date === '' ? null : r.post_date,
          title: r.title,
          verdict: verdictSchema.safeParse(r.verdict).data ?? 'adjusted',
          lines: parseLines(r.lines),
          indexedAt: Number(r.indexed_at),
        })),
      };
    });
  }

  /** The indexer has read every page of both lists at `at` (epoch ms). */
  async markComplete(at: number): Promise<void> {
    const value = String(at);
    await this.db
      .insertInto('meta')
      .values({ key: COMPLETED_KEY, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  /**
   * Epoch ms; null while the index is still being built.
   * @throws {StoreUnavailableError}
   */
  async completedAt(): Promise<number | null> {
    return withDeadline('read balance history state', this.deadlines.readMs, async () => {
      const row = await this.db.selectFrom('meta').select('value').where('key', '=', COMPLETED_KEY).executeTakeFirst();
      const at = row ? Number(row.value) : Number.NaN;
      return Number.isFinite(at) ? at : null;
    });
  }
}
