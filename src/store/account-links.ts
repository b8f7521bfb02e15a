/**
 * Account links (issue: /link, /unlink): the game accounts a Discord user linked, and which one is
 * their default. Stored under `links:<userId>`, versioned.
 */
import type Keyv from 'keyv';
import { z } from 'zod';

/** Most accounts one user may link. */
export const MAX_LINKED_ACCOUNTS = 5;

const linksV1 = z.object({
  v: z.literal(1),
  accounts: z.array(z.object({ uid: z.string(), name: z.string(), linkedAt: z.number() })).max(MAX_LINKED_ACCOUNTS),
  defaultUid: z.string().nullable(),
});
/** A user's linked accounts. */
export type AccountLinks = z.output<typeof linksV1>;

const key = (userId: string) => `links:${userId}`;
const empty = (): AccountLinks => ({ v: 1, accounts: [], defaultUid: null });

/** Thrown by {@link AccountLinksRepository.link} when the user already has the most accounts. */
export class TooManyLinksError extends Error {
  override name = 'TooManyLinksError';
  constructor() {
    super(`at most ${MAX_LINKED_ACCOUNTS} linked accounts`);
  }
}

export class AccountLinksRepository {
  constructor(private readonly store: Keyv) {}

  async get(userId: string): Promise<AccountLinks> {
    const parsed = linksV1.safeParse(await this.store.get(key(userId)));
    return parsed.success ? parsed.data : empty();
  }

  /** The uid `/player` uses for this user with no query: their default, else their first link; null if none. */
  async defaultUid(userId: string): Promise<string | null> {
    const links = await this.get(userId);
    return links.defaultUid ?? links.accounts[0]?.uid ?? null;
  }

  /**
   * Links an account (or refreshes its name), making it the default when `makeDefault` or when it is
   * the first. Resolves once durable.
   * @throws {TooManyLinksError} past {@link MAX_LINKED_ACCOUNTS}.
   */
  async link(userId: string, account: { uid: string; name: string }, makeDefault: boolean, now = Date.now()): Promise<AccountLinks> {
    const links = await this.get(userId);
    const existing = links.accounts.find((a) => a.uid === account.uid);
    if (existing) existing.name = account.name;
    else {
      if (links.accounts.length >= MAX_LINKED_ACCOUNTS) throw new TooManyLinksError();
      links.accounts.push({ ...account, linkedAt: now });
    }
    if (makeDefault || links.defaultUid === null) links.defaultUid = account.uid;
    await this.store.set(key(userId), linksV1.parse(links));
    return links;
  }

  /** Unlinks one account (by uid or name, case-insensitive), or all with no argument. @returns the accounts removed. */
  async unlink(userId: string, which?: string): Promise<AccountLinks['accounts']> {
    const links = await this.get(userId);
    const w = which?.trim().toLowerCase();
    const removed = w === undefined ? links.accounts : links.accounts.filter((a) => a.uid === w || a.name.toLowerCase() === w);
    links.accounts = links.accounts.filter((a) => !removed.includes(a));
    if (links.defaultUid !== null && !links.accounts.some((a) => a.uid === links.defaultUid)) links.defaultUid = links.accounts[0]?.uid ?? null;
    if (links.accounts.length === 0) await this.store.delete(key(userId));
    else await this.store.set(key(userId), linksV1.parse(links));
    return removed;
  }
}
