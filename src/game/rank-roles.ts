/**
 * Rank roles: the Discord role a server gives each ladder member for their tier. An admin maps tiers ("Gold") or
 * divisions ("Gold II") to roles; a division's own role wins over its tier's.
 */
import { DIVISIONS, TIER_NAMES, type TierName } from './ranks.js';

export type Division = (typeof DIVISIONS)[number];

/** What an admin maps: a tier (`Gold`) or one division of it (`Gold II`), to a role id. */
export type RankRoleMap = Readonly<Record<string, string>>;

/** Tiers without divisions: a division given for them is ignored. */
const SINGLE = new Set<TierName>(['Eternity', 'One Above All']);

/** The mapping key of a tier and, for tiers that have them, a division: "Gold II", "Gold", "Eternity". */
export function rankRoleKey(tier: TierName, division?: Division | null): string {
  return division && !SINGLE.has(tier) ? `${tier} ${division}` : tier;
}

/** Every key an admin can map, lowest first, each tier before its divisions. */
export const RANK_ROLE_KEYS: readonly string[] = TIER_NAMES.flatMap((t) => (SINGLE.has(t) ? [t] : [t, ...DIVISIONS.map((d) => rankRoleKey(t, d))]));

/**
 * A tier name as the API writes it ("Gold II", also "gold 2", where 3 is the lowest division) as its tier and division;
 * null for anything else ("Invalid level", an empty name).
 */
export function parseTier(name: string | null | undefined): { tier: TierName; division: Division | null } | null {
  const text = name?.trim().replace(/\s+/g, ' ').toLowerCase();
  if (!text) return null;
  const tier = TIER_NAMES.find((t) => text === t.toLowerCase() || text.startsWith(`${t.toLowerCase()} `));
  if (!tier) return null;
  if (SINGLE.has(tier)) return { tier, division: null };
  const rest = text.slice(tier.length).trim();
  const division = DIVISIONS.find((d) => rest === d.toLowerCase()) ?? ({ '3': 'III', '2': 'II', '1': 'I' } as const)[rest] ?? null;
  return { tier, division };
}

/** The role for a member of tier `tierName` under `map`: their division's, else their tier's; null for none (no tier, or not mapped). */
export function rankRoleOf(tierName: string | null | undefined, map: RankRoleMap): string | null {
  const parsed = parseTier(tierName);
  if (!parsed) return null;
  return (parsed.division ? map[rankRoleKey(parsed.tier, parsed.division)] : undefined) ?? map[parsed.tier] ?? null;
}

/**
 * One member's change: the role to give (`add`), the role the bot gave before to take back (`remove`). Both null: the
 * member held their old rank role before the bot mapped it, so it is only forgotten, never taken.
 */
export interface RoleChange {
  userId: string;
  add: string | null;
  remove: string | null;
  /** The member's tier now (null: they are no longer ranked on the ladder, or rank roles are off). */
  tier: string | null;
  /** The role `add` goes to a member who holds no role from the bot: whether they already hold it must be read first. */
  firstGiven: boolean;
}

/** The rank role a member holds: `owned` when the bot gave it, false when they held it before (the bot never takes those). */
export interface HeldRole {
  roleId: string;
  owned: boolean;
}

/**
 * What to change so that each member holds the role of their tier and nothing else the bot gave: `targets` the ranked
 * members (their tier; none when rank roles are off), `given` the rank role each member holds as the bot recorded it.
 * Members in `held` are left as they are (a failure waiting for an admin, the cause fixed, or its time). Ordered by user id, for stable runs.
 */
export function roleChanges(
  targets: ReadonlyMap<string, string | null>,
  given: ReadonlyMap<string, HeldRole>,
  map: RankRoleMap,
  held: ReadonlySet<string> = new Set(),
): RoleChange[] {
  const out: RoleChange[] = [];
  for (const userId of new Set([...targets.keys(), ...given.keys()])) {
    if (held.has(userId)) continue;
    const tier = targets.get(userId) ?? null;
    const want = rankRoleOf(tier, map);
    const had = given.get(userId) ?? null;
    if (want === (had?.roleId ?? null)) continue;
    out.push({ userId, add: want, remove: had?.owned ? had.roleId : null, tier, firstGiven: want !== null && !had?.owned });
  }
  return out.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
}

/** Permissions a rank role must not carry: the ladder would hand them to whoever ranks (Discord: "Permissions"). */
const ELEVATED =
  (1n << 3n) | // Administrator
  (1n << 1n) | // Kick Members
  (1n << 2n) | // Ban Members
  (1n << 4n) | // Manage Channels
  (1n << 5n) | // Manage Server
  (1n << 13n) | // Manage Messages
  (1n << 17n) | // Mention Everyone
  (1n << 28n) | // Manage Roles
  (1n << 29n) | // Manage Webhooks
  (1n << 40n); // Moderate Members

/**
 * Why the bot could not change a member's roles, as /config status reports it: the role's place or kind
 * ({@link cannotGive}), no Manage Roles, the member gone, Discord refusing for no cause the bot can see (`refused`, with
 * Discord's code and message), or Discord failing on this member's route again and again (`discord-error`: a 429 that
 * does not clear, 5xx, no answer in time).
 */
export const ROLE_FAILURES = ['role-above', 'no-permission', 'managed', 'elevated', 'everyone', 'refused', 'discord-error', 'member-gone'] as const;
export type RoleFailure = (typeof ROLE_FAILURES)[number];

/** What Discord answered for a `refused` or `discord-error` failure: its JSON error `code` and `message`, the HTTP `status`, or how it failed (`kind`). */
export interface RoleFailureDetail {
  kind?: 'rate-limited' | 'server-error' | 'timeout' | 'network';
  status?: number;
  code?: number;
  message?: string;
}

/** A failed member is tried again after this long, or at once after an admin changes the rank roles, ms. */
export const ROLE_RETRY_MS = 24 * 60 * 60 * 1000;
/** The first wait of a member Discord keeps failing for, ms: five syncs, far above any Retry-After worth waiting out. */
export const ROLE_BACKOFF_FIRST_MS = 5 * 60 * 1000;

/**
 * How long a member who failed `failures` times in a row (1 the first) for `reason` is left alone, ms. Discord failing
 * on their route (`discord-error`) may clear by itself: 5 minutes, doubling with each failure, up to {@link ROLE_RETRY_MS}
 * (a day, from the ninth failure on); every other reason waits for an admin or a day.
 */
export function roleRetryDelay(reason: RoleFailure, failures: number): number {
  if (reason !== 'discord-error') return ROLE_RETRY_MS;
  return Math.min(ROLE_RETRY_MS, ROLE_BACKOFF_FIRST_MS * 2 ** Math.max(0, Math.min(failures, 20) - 1));
}

/** A server's roles as the bot sees them: whether it may manage roles, and the position of its highest role. */
export interface GuildRoles {
  /** `permissions` a decimal bit set, as Discord gives it. */
  roles: readonly { id: string; name: string; position: number; managed: boolean; permissions?: string }[];
  /** The bot has Manage Roles (or Administrator, or owns the server). */
  manageRoles: boolean;
  /** Position of the bot's highest role; 0 with none but @everyone. */
  botTop: number;
  guildId: string;
}

/**
 * Why the bot cannot give `roleId`, or null when it can (Discord: "Role hierarchy": only roles below its own highest).
 * A role with moderation or administration permissions is never a rank role (`elevated`).
 */
export function cannotGive(roleId: string, g: GuildRoles): 'gone' | 'everyone' | 'managed' | 'elevated' | 'role-above' | 'no-permission' | null {
  const role = g.roles.find((r) => r.id === roleId);
  if (!role) return 'gone';
  if (roleId === g.guildId) return 'everyone';
  if (role.managed) return 'managed';
  if (role.permissions !== undefined && (BigInt(role.permissions) & ELEVATED) !== 0n) return 'elevated';
  if (!g.manageRoles) return 'no-permission';
  return role.position < g.botTop ? null : 'role-above';
}

/**
 * Why Discord refused to give or take `roleId` (403 Missing Permissions), from the server's roles read after the refusal:
 * Discord's own rules only (Discord: "Add Guild Member Role" needs Manage Roles; "Role Hierarchy": a role below the
 * bot's highest; "Role Object": a managed role is given by its integration alone). Null when none of them explains it:
 * the caller reports Discord's answer itself rather than a guess.
 */
export function refusalCause(roleId: string, g: GuildRoles): 'no-permission' | 'managed' | 'role-above' | null {
  const role = g.roles.find((r) => r.id === roleId);
  if (!role) return null;
  if (!g.manageRoles) return 'no-permission';
  if (role.managed) return 'managed';
  return role.position < g.botTop ? null : 'role-above';
}
