/**
 * Account links (issue: /link, /unlink): the game accounts a Discord user linked, and which one is
 * their default. Rows of `account_links`, keyed by (user, uid); changes are transactions. With them,
 * the member's own language for the bot's answers (`/settings language`), a row of
 * `member_settings`.
 */
import { LRUCache } from 'lru-cache';
import { isLocale, type Locale } from '../i18n/index.js';
import { withDeadline, type Db } from './database.js';

/** How long a member's language is trusted in memory without a read, ms: another process's change shows within it. */
const LOCALE_CACHE_TTL_MS = 30_000;

/** Most members whose language one batched read asks for ({@link AccountLinksRepository.locale}). */
export const LOCALE_READ_BATCH = 500;

/** Most accounts one user may link. */
export const MAX_LINKED_ACCOUNTS = 5;

/** A user's linked accounts, oldest link first. */
export interface AccountLinks {
  v: 1;
  accounts: { uid: string; name: string; linkedAt: number }[];
  defaultUid: string | null;
}

/** Thrown by {@link AccountLinksRepository.link} when the user already has the most accounts. */
export class TooManyLinksError extends Error {
  override name = 'TooManyLinksError';
  constructor() {
    super(`at most ${MAX_LINKED_ACCOUNTS} linked accounts`);
  }
}

/** Reads and writes account links. Every call has a deadline and throws {@link StoreUnavailableError} past it or on a store failure. */
export class AccountLinksRepository {
  /** Members' languages by user id; null: none chosen. */
  readonly #locales = new LRUCache<string, { locale: Locale | null }>({ max: 10_000, ttl: LOCALE_CACHE_TTL_MS });

  constructor(
    private readonly db: Db,
    private readonly deadlines: { readMs: number; writeMs: number } = { readMs: 1_500, writeMs: 3_000 },
  ) {}

  /**
   * The language the member chose for the bot's answers (`/settings language`), or null for their
   * Discord client's. A language this version does not speak reads as null.
   *
   * Reads that miss the in-memory cache in the same turn of the event loop are batched into one query
   * (at most {@link LOCALE_READ_BATCH} members each), and a member already being read joins that read:
   * a burst of 10,000 members costs 20 queries, not 10,000.
   * @throws {StoreUnavailableError}
   */
  async locale(userId: string): Promise<Locale | null> {
    const cached = this.#locales.get(userId);
    if (cached) return cached.locale;
    let reading = this.#reading.get(userId);
    if (!reading) {
      reading = this.#readInBatch(userId);
      this.#reading.set(userId, reading);
      const done = () => this.#reading.get(userId) === reading && this.#reading.delete(userId);
      reading.then(done, done);
    }
    return reading;
  }

  /** Members whose language is being read now, with that read. */
  readonly #reading = new Map<string, Promise<Locale | null>>();
  /** The batch that takes new members now, read at the end of this turn of the event loop. */
  #batch: { userIds: string[]; read: Promise<Map<string, Locale>> } | undefined;

  #readInBatch(userId: string): Promise<Locale | null> {
    let batch = this.#batch;
    if (!batch || batch.userIds.length >= LOCALE_READ_BATCH) {
      const userIds: string[] = [];
      const read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        if (this.#batch?.userIds === userIds) this.#batch = undefined;
        return withDeadline('read member settings', this.deadlines.readMs, async () => {
          const rows = await this.db.selectFrom('member_settings').select(['user_id', 'locale']).where('user_id', 'in', userIds).execute();
          const found = new Map<string, Locale>();
          for (const r of rows) if (isLocale(r.locale)) found.set(r.user_id, r.locale);
          // A choice saved while this read was in flight is already cached, and newer: kept.
          for (const id of userIds) if (!this.#locales.has(id)) this.#locales.set(id, { locale: found.get(id) ?? null });
          return found;
        });
      });
      batch = this.#batch = { userIds, read };
    }
    batch.userIds.push(userId);
    return batch.read.then((found) => found.get(userId) ?? null);
  }

  /**
   * The languages members chose (`/settings language`) among `userIds`, read in batches of 500 (the
   * feed poller's, for direct-message alerts: no deadline, like its other reads); a member with none,
   * or with one this version does not speak, is left out. Leaves the in-memory cache as it was.
   */
  async localesOf(userIds: readonly string[]): Promise<Map<string, Locale>> {
    const out = new Map<string, Locale>();
    for (let i = 0; i < userIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('member_settings')
        .select(['user_id', 'locale'])
        .where('user_id', 'in', userIds.slice(i, i + 500))
        .where('locale', 'is not', null)
        .execute();
      for (const r of rows) if (isLocale(r.locale)) out.set(r.user_id, r.locale);
    }
    return out;
  }

  /** {@link locale} from memory only: undefined when not cached (never reads the store). */
  peekLocale(userId: string): Locale | null | undefined {
    return this.#locales.get(userId)?.locale;
  }

  /**
   * Sets the member's language, or clears it (null: follow their Discord client). Resolves once committed.
   * @throws {StoreUnavailableError}
   */
  async setLocale(userId: string, locale: Locale | null, now = Date.now()): Promise<void> {
    await withDeadline('save member settings', this.deadlines.writeMs, () =>
      this.db
        .insertInto('member_settings')
        .values({ user_id: userId, locale, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ locale, updated_at: now }))
        .execute(),
    );
    this.#locales.set(userId, { locale });
  }

  /** @throws {StoreUnavailableError} */
  async get(userId: string): Promise<AccountLinks> {
    return withDeadline('read account links', this.deadlines.readMs, () => this.#load(this.db, userId));
  }

  /** The uid `/player` uses for this user with no query: their default, else their first link; null if none. */
  async defaultUid(userId: string): Promise<string | null> {
    const links = await this.get(userId);
    return links.defaultUid ?? links.accounts[0]?.uid ?? null;
  }

  /**
   * Links an account (or refreshes its name), making it the default when `makeDefault` or when the
   * user has no default. Resolves once committed.
   * @throws {TooManyLinksError} past {@link MAX_LINKED_ACCOUNTS}.
   * @throws {StoreUnavailableError}
   */
  async link(userId: string, account: { uid: string; name: string }, makeDefault: boolean, now = Date.now()): Promise<AccountLinks> {
    return withDeadline('save account link', this.deadlines.writeMs, () =>
      this.db.transaction().execute(async (trx) => {
        // Links keep the order they were made in, even when two share a millisecond.
        const last = await trx
          .selectFrom('account_links')
          .select((eb) => eb.fn.max('linked_at').as('at'))
          .where('user_id', '=', userId)
          .executeTakeFirst();
        const linkedAt = Math.max(now, Number(last?.at ?? Number.NEGATIVE_INFINITY) + 1);
        await trx
          .insertInto('account_links')
          .values({ user_id: userId, uid: account.uid, name: account.name, linked_at: linkedAt, is_default: 0 })
          .onConflict((oc) => oc.columns(['user_id', 'uid']).doUpdateSet({ name: account.name }))
          .execute();
        const links = await this.#load(trx, userId);
        if (links.accounts.length > MAX_LINKED_ACCOUNTS) throw new TooManyLinksError();
        if (makeDefault || links.defaultUid === null) {
          await trx
            .updateTable('account_links')
            .set((eb) => ({ is_default: eb.case().when('uid', '=', account.uid).then(1).else(0).end() }))
            .where('user_id', '=', userId)
            .execute();
          links.defaultUid = account.uid;
        }
        return links;
      }),
    ).catch((err: unknown) => {
      throw (err as { cause?: unknown }).cause instanceof TooManyLinksError ? (err as { cause: TooManyLinksError }).cause : err;
    });
  }

  /**
   * Unlinks one account (by uid or name, case-insensitive), or all with no argument; the oldest
   * remaining link becomes the default if the default went.
   * @returns the accounts removed.
   * @throws {StoreUnavailableError}
   */
  async unlink(userId: string, which?: string): Promise<AccountLinks['accounts']> {
    return withDeadline('remove account link', this.deadlines.writeMs, () =>
      this.db.transaction().execute(async (trx) => {
        const w = which?.trim().toLowerCase();
        const links = await this.#load(trx, userId);
        const removed = w === undefined ? links.accounts : links.accounts.filter((a) => a.uid === w || a.name.toLowerCase() === w);
        if (removed.length === 0) return removed;
        await trx
          .deleteFrom('account_links')
          .where('user_id', '=', userId)
          .where(
            'uid',
            'in',
            removed.map((a) => a.uid),
          )
          .execute();
        const left = links.accounts.filter((a) => !removed.includes(a));
        if (left.length > 0 && !left.some((a) => a.uid === links.defaultUid)) {
          await trx.updateTable('account_links').set({ is_default: 1 }).where('user_id', '=', userId).where('uid', '=', left[0]!.uid).execute();
        }
        return removed;
      }),
    );
  }

  async #load(db: Db, userId: string): Promise<AccountLinks> {
    const rows = await db.selectFrom('account_links').selectAll().where('user_id', '=', userId).orderBy('linked_at').orderBy('uid').execute();
    return {
      v: 1,
      accounts: rows.map((r) => ({ uid: r.uid, name: r.name, linkedAt: Number(r.linked_at) })),
      defaultUid: rows.find((r) => r.is_default === 1)?.uid ?? null,
    };
  }
}
