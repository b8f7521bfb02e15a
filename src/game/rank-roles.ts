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

/** One member's change: the role to give (`add`), the role the bot gave before to take back (`remove`); never both null. */
export interface RoleChange {
  userId: string;
  add: string | null;
  remove: string | null;
  /** The member's tier now (null: they are no longer ranked on the ladder, or rank roles are off). */
  tier: string | null;
}

/**
 * What to change so that each member holds the role of their tier and nothing else the bot gave: `targets` the ranked
 * members (their tier; none when rank roles are off), `given` the role the bot gave each member before. Members in
 * `held` are left as they are (a failure waiting for an admin or a day). Ordered by user id, for stable runs.
 */
export function roleChanges(
  targets: ReadonlyMap<string, string | null>,
  given: ReadonlyMap<string, string>,
  map: RankRoleMap,
  held: ReadonlySet<string> = new Set(),
): RoleChange[] {
  const out: RoleChange[] = [];
  for (const userId of new Set([...targets.keys(), ...given.keys()])) {
    if (held.has(userId)) continue;
    const tier = targets.get(userId) ?? null;
    const want = rankRoleOf(tier, map);
    const had = given.get(userId) ?? null;
    if (want === had) continue;
    out.push({ userId, add: want, remove: had, tier });
  }
  return out.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
}

/** Why the bot could not change a member's roles, as /config status reports it. */
export const ROLE_FAILURES = ['role-above', 'no-permission', 'member-gone'] as const;
export type RoleFailure = (typeof ROLE_FAILURES)[number];

/** A failed member is tried again after this long, or at once after an admin changes the rank roles, ms. */
export const ROLE_RETRY_MS = 24 * 60 * 60 * 1000;

/** A server's roles as the bot sees them: whether it may manage roles, and the position of its highest role. */
export interface GuildRoles {
  roles: readonly { id: string; name: string; position: number; managed: boolean }[];
  /** The bot has Manage Roles (or Administrator, or owns the server). */
  manageRoles: boolean;
  /** Position of the bot's highest role; 0 with none but @everyone. */
  botTop: number;
  guildId: string;
}

/** Why the bot cannot give `roleId`, or null when it can (Discord: "Role hierarchy": only roles below its own highest). */
export function cannotGive(roleId: string, g: GuildRoles): 'gone' | 'everyone' | 'managed' | 'role-above' | 'no-permission' | null {
  const role = g.roles.find((r) => r.id === roleId);
  if (!role) return 'gone';
  if (roleId === g.guildId) return 'everyone';
  if (role.managed) return 'managed';
  if (!g.manageRoles) return 'no-permission';
  return role.position < g.botTop ? null : 'role-above';
}
