/** The game accounts a Discord user linked and their default (changes are transactions), and the member's own language. */
import { LRUCache } from 'lru-cache';
import { isLocale, type Locale } from '../i18n/index.js';
import { isPlatform, type Platform } from '../api/endpoints.js';
import { withDeadline, type Db } from './database.js';
import { settleWithin } from '../core/deadline.js';
import { relistMember } from './ladder/index.js';

/** Ms: another process's change shows within it. */
const LOCALE_CACHE_TTL_MS = 30_000;

/** How a member's profiles are shown: image cards with their embeds, or the embeds alone. */
/** How answers are shown: image cards with their text, or the text alone (`/settings display`, `/config display`). */
export const DISPLAYS = ['cards', 'embeds'] as const;
export type Display = (typeof DISPLAYS)[number];

export const LOCALE_READ_BATCH = 500;

export const MAX_LINKED_ACCOUNTS = 5;

/** Linked accounts {@link AccountLinksRepository.knownAccounts} reads at most: any such number, no order (no scan to sort them). */
export const KNOWN_ACCOUNTS_LIMIT = 5_000;
/** Ms {@link AccountLinksRepository.knownAccounts} keeps its read: a link made meanwhile is suggested after it. */
const KNOWN_ACCOUNTS_TTL_MS = 5 * 60_000;

/** Oldest link first; `linkedAt` in epoch ms. */
export interface AccountLinks {
  v: 1;
  /** `verifiedAt`: when the member proved they own it (epoch ms), null when not proven. */
  accounts: { uid: string; name: string; linkedAt: number; verifiedAt: number | null }[];
  defaultUid: string | null;
}

export class TooManyLinksError extends Error {
  override name = 'TooManyLinksError';
  constructor() {
    super(`at most ${MAX_LINKED_ACCOUNTS} linked accounts`);
  }
}

/** Every call has a deadline and throws {@link StoreUnavailableError} past it or on a store failure. */
export class AccountLinksRepository {
  readonly #locales = new LRUCache<string, { locale: Locale | null }>({ max: 10_000, ttl: LOCALE_CACHE_TTL_MS });
  /** `none`: the member chose nothing (their server's choice, else cards). */
  readonly #displays = new LRUCache<string, Display | 'none'>({ max: 10_000, ttl: LOCALE_CACHE_TTL_MS });

  constructor(
    private readonly db: Db,
    private readonly deadlines: { readMs: number; writeMs: number } = { readMs: 1_500, writeMs: 3_000 },
  ) {}

  /**
   * Null for their Discord client's, or a language this version does not speak. Cache misses in one turn of
   * the event loop are batched into one query, so a burst of members costs few queries.
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

  readonly #reading = new Map<string, Promise<Locale | null>>();
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
          // A choice saved while this read was in flight is newer: kept.
          for (const id of userIds) if (!this.#locales.has(id)) this.#locales.set(id, { locale: found.get(id) ?? null });
          return found;
        });
      });
      batch = this.#batch = { userIds, read };
    }
    batch.userIds.push(userId);
    return batch.read.then((found) => found.get(userId) ?? null);
  }

  /** The last read of {@link knownAccounts}, and the read under way. */
  #known: { at: number; accounts: { uid: string; name: string }[] } | undefined;
  #knownRead: Promise<{ uid: string; name: string }[]> | undefined;

  /**
   * Accounts members linked, any member's, each once (at most {@link KNOWN_ACCOUNTS_LIMIT}): names the bot has seen, for
   * "Did you mean …?" and autocomplete at no API request. One read shared by every caller, kept {@link KNOWN_ACCOUNTS_TTL_MS};
   * [] when the store fails or is slow (the read goes on and serves the next caller).
   */
  async knownAccounts(now = Date.now()): Promise<{ uid: string; name: string }[]> {
    const known = this.#known;
    if (known && now - known.at < KNOWN_ACCOUNTS_TTL_MS) return known.accounts;
    this.#knownRead ??= this.db
      .selectFrom('account_links')
      .select(['uid', 'name'])
      .limit(KNOWN_ACCOUNTS_LIMIT)
      .execute()
      .then((rows) => {
        const byUid = new Map(rows.map((r) => [r.uid, r.name]));
        const accounts = [...byUid].map(([uid, name]) => ({ uid, name }));
        this.#known = { at: now, accounts };
        return accounts;
      })
      .finally(() => {
        this.#knownRead = undefined;
      });
    return settleWithin(this.#knownRead, this.deadlines.readMs, () => known?.accounts ?? []).catch(() => known?.accounts ?? []);
  }

  /** Drops `uids` from this process's {@link knownAccounts} until its next read (a member deleted their data). */
  forgetKnownAccounts(uids: readonly string[]): void {
    const gone = new Set(uids);
    if (this.#known) this.#known = { ...this.#known, accounts: this.#known.accounts.filter((a) => !gone.has(a.uid)) };
  }

  /** Drops this process's cached language of `userId` (their data was deleted); other processes' copies expire within 30 s. */
  forgetCached(userId: string): void {
    this.#locales.delete(userId);
    this.#displays.delete(userId);
  }

  /** For the feed poller: no deadline, like its other reads. Members without a known language are left out; the cache is untouched. */
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

  /** Undefined when not cached; never reads the store. */
  peekLocale(userId: string): Locale | null | undefined {
    return this.#locales.get(userId)?.locale;
  }

  /**
   * Null: follow their Discord client. Resolves once committed.
   * @throws {StoreUnavailableError}
   */
  async setLocale(userId: string, locale: Locale | null, now = Date.now()): Promise<void> {
    await this.#saveSetting(userId, { locale }, now);
    this.#locales.set(userId, { locale });
  }

  /**
   * The member's own default platform (`/settings platform`), for answers outside a server that installed the bot; null
   * when they chose none. @throws {StoreUnavailableError}
   */
  async platformOf(userId: string): Promise<Platform | null> {
    const row = await withDeadline('read member settings', this.deadlines.readMs, () =>
      this.db.selectFrom('member_settings').select('platform').where('user_id', '=', userId).executeTakeFirst(),
    );
    return isPlatform(row?.platform) ? row.platform : null;
  }

  /**
   * How answers are shown to the member (`/settings display`): "cards" (image cards with their text) or "embeds" (text
   * alone); null when they chose neither (their server's choice applies, else cards). Cached for the process like the
   * language. @throws {StoreUnavailableError}
   */
  async display(userId: string): Promise<Display | null> {
    const cached = this.#displays.get(userId);
    if (cached) return cached === 'none' ? null : cached;
    const row = await withDeadline('read member settings', this.deadlines.readMs, () =>
      this.db.selectFrom('member_settings').select('display').where('user_id', '=', userId).executeTakeFirst(),
    );
    const display: Display | null = row?.display === 'embeds' || row?.display === 'cards' ? row.display : null;
    this.#displays.set(userId, display ?? 'none');
    return display;
  }

  /** Null: none (the server's choice, else cards). Resolves once committed. @throws {StoreUnavailableError} */
  async setDisplay(userId: string, display: Display | null, now = Date.now()): Promise<void> {
    await this.#saveSetting(userId, { display }, now);
    this.#displays.set(userId, display ?? 'none');
  }

  /** Null: none (PC, or a server's default). Resolves once committed. @throws {StoreUnavailableError} */
  async setPlatform(userId: string, platform: Platform | null, now = Date.now()): Promise<void> {
    await this.#saveSetting(userId, { platform }, now);
  }

  /** One of a member's settings, the others left as they are (a new row holds none of them). */
  async #saveSetting(
    userId: string,
    setting: { locale: Locale | null } | { display: Display | null } | { platform: Platform | null },
    now: number,
  ): Promise<void> {
    await withDeadline('save member settings', this.deadlines.writeMs, () =>
      this.db
        .insertInto('member_settings')
        .values({ user_id: userId, locale: null, ...setting, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...setting, updated_at: now }))
        .execute(),
    );
  }

  /** @throws {StoreUnavailableError} */
  async get(userId: string): Promise<AccountLinks> {
    return withDeadline('read account links', this.deadlines.readMs, () => this.#load(this.db, userId));
  }

  /** Their default, else their first link. @throws {StoreUnavailableError} */
  async defaultUid(userId: string): Promise<string | null> {
    const links = await this.get(userId);
    return links.defaultUid ?? links.accounts[0]?.uid ?? null;
  }

  /**
   * Or refreshes its name; it becomes the default when `makeDefault` or there is none. Resolves once committed.
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
        await relistMember(trx, userId);
        return links;
      }),
    ).catch((err: unknown) => {
      throw (err as { cause?: unknown }).cause instanceof TooManyLinksError ? (err as { cause: TooManyLinksError }).cause : err;
    });
  }

  /**
   * By uid or name (case-insensitive), or all with no argument; the oldest remaining link becomes the default.
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
        const uids = removed.map((a) => a.uid);
        // The proofs of ownership under way go with their links.
        for (const table of ['account_links', 'link_verifications'] as const) {
          await trx.deleteFrom(table).where('user_id', '=', userId).where('uid', 'in', uids).execute();
        }
        const left = links.accounts.filter((a) => !removed.includes(a));
        if (left.length > 0 && !left.some((a) => a.uid === links.defaultUid)) {
          await trx.updateTable('account_links').set({ is_default: 1 }).where('user_id', '=', userId).where('uid', '=', left[0]!.uid).execute();
        }
        await relistMember(trx, userId);
        return removed;
      }),
    );
  }

  async #load(db: Db, userId: string): Promise<AccountLinks> {
    const rows = await db.selectFrom('account_links').selectAll().where('user_id', '=', userId).orderBy('linked_at').orderBy('uid').execute();
    return {
      v: 1,
      accounts: rows.map((r) => ({
        uid: r.uid,
        name: r.name,
        linkedAt: Number(r.linked_at),
        verifiedAt: r.verified_at === null || r.verified_at === undefined ? null : Number(r.verified_at),
      })),
      defaultUid: rows.find((r) => r.is_default === 1)?.uid ?? null,
    };
  }
}
