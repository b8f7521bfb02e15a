/**
 * The latest hero meta snapshot, so a restart serves `/meta` at once. Every process writes here; a write
 * never replaces a newer snapshot, so processes finishing out of order keep the newest.
 */
import * as z from 'zod';
import type { MetaSnapshot } from '../game/meta.js';
import { withDeadline, type Db } from './database.js';

export const LATEST_SNAPSHOT = 'latest';

const rowSchema = z.object({
  heroId: z.string(),
  name: z.string(),
  role: z.string().nullable(),
  matches: z.number(),
  winRate: z.number().nullable(),
  pickShare: z.number().nullable(),
  kda: z.number().nullable(),
});
const rowsSchema = z.array(rowSchema);
const namesSchema = z.array(z.string());

function parseJson<T>(json: string, schema: z.ZodType<T>): T | undefined {
  try {
    return schema.safeParse(JSON.parse(json)).data;
  } catch {
    return undefined;
  }
}

/** Both calls have a deadline and throw {@link StoreUnavailableError} past it or on a store failure. */
export class HeroMetaRepository {
  constructor(
    private readonly db: Db,
    private readonly deadlines: { readMs: number; writeMs: number } = { readMs: 1_500, writeMs: 3_000 },
  ) {}

  /**
   * Unless the stored one completed later (another process's).
   * @throws {StoreUnavailableError}
   */
  async save(snapshot: MetaSnapshot): Promise<void> {
    const values = {
      id: LATEST_SNAPSHOT,
      rows: JSON.stringify(snapshot.rows),
      missing: JSON.stringify(snapshot.missing),
      answered: snapshot.answered,
      total: snapshot.total,
      stale: snapshot.stale ? 1 : 0,
      gathered_at: snapshot.gatheredAt,
      completed_at: snapshot.completedAt,
    };
    await withDeadline('save the hero meta', this.deadlines.writeMs, () =>
      this.db
        .insertInto('hero_meta_snapshots')
        .values(values)
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet((eb) => ({
              rows: eb.ref('excluded.rows'),
              missing: eb.ref('excluded.missing'),
              answered: eb.ref('excluded.answered'),
              total: eb.ref('excluded.total'),
              stale: eb.ref('excluded.stale'),
              gathered_at: eb.ref('excluded.gathered_at'),
              completed_at: eb.ref('excluded.completed_at'),
            }))
            .where((eb) => eb('hero_meta_snapshots.completed_at', '<=', eb.ref('excluded.completed_at'))),
        )
        .execute(),
    );
  }

  /**
   * Undefined when none was stored or it cannot be read whole.
   * @throws {StoreUnavailableError}
   */
  async latest(): Promise<MetaSnapshot | undefined> {
    const row = await withDeadline('read the hero meta', this.deadlines.readMs, () =>
      this.db.selectFrom('hero_meta_snapshots').selectAll().where('id', '=', LATEST_SNAPSHOT).executeTakeFirst(),
    );
    if (!row) return undefined;
    const rows = parseJson(row.rows, rowsSchema);
    const missing = parseJson(row.missing, namesSchema);
    if (!rows || !missing) return undefined;
    return {
      rows,
      missing,
      answered: Number(row.answered),
      total: Number(row.total),
      stale: Number(row.stale) === 1,
      gatheredAt: Number(row.gathered_at),
      completedAt: Number(row.completed_at),
    };
  }
}
