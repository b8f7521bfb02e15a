/**
 * The playground's pretend server, with snowflake-shaped ids: one guild, three people (one an admin) and, on the replica,
 * the members of the seeded ladder (src/playground/seed-ladder.ts); a few channels; a role for feed pings, a role for each
 * of the game's tiers and the bot's own role above them. {@link PlaygroundGuild} keeps which member holds which role.
 */
import { EventEmitter } from 'node:events';
import { ChannelType, PermissionFlagsBits } from 'discord-api-types/v10';
import { TIER_NAMES } from '../game/ranks.js';
import { DISCORD_LOCALES, LOCALE_NAMES, LOCALES } from '../i18n/index.js';
import type { MemberRolesEvent, PlaygroundLanguage } from './protocol.js';
export { dmChannelOf } from './protocol.js';

export interface PlaygroundMember {
  id: string;
  name: string;
  /** Has Manage Server (and Administrator): can see and run /config. */
  admin: boolean;
  /** `#rrggbb`: the avatar's disc (a name takes its colour from the member's roles, as on Discord). */
  colour: string;
}

/** Discord channel types 0 and 5. */
export interface PlaygroundChannel {
  id: string;
  name: string;
  type: ChannelType.GuildText | ChannelType.GuildAnnouncement;
  topic: string;
}

/** Discord: a role object, as far as the playground draws and checks it. */
export interface PlaygroundRole {
  id: string;
  name: string;
  colour: string;
  /** Discord: higher is above; @everyone is 0. */
  position: number;
  /** Shown apart in the member list (Discord: "Display role members separately"). */
  hoist: boolean;
  /** The bot's own role, which Discord gives it and nobody else can hold. */
  managed: boolean;
  /** Discord's bitfield text. */
  permissions: string;
}

export const GUILD = { id: '1300000000000000001', name: 'Rivals Playground' } as const;

export const BOT = { id: '1300000000000000002', name: 'Rivals Bot' } as const;

export const MEMBERS: readonly PlaygroundMember[] = [
  { id: '1300000000000000011', name: 'Alex', admin: true, colour: '#f0b232' },
  { id: '1300000000000000012', name: 'Sam', admin: false, colour: '#5865f2' },
  { id: '1300000000000000013', name: 'Jordan', admin: false, colour: '#23a55a' },
];

/** `#patch-notes` is an announcement channel, so feed posts there can be published. */
export const CHANNELS: readonly PlaygroundChannel[] = [
  { id: '1300000000000000021', name: 'general', type: ChannelType.GuildText, topic: 'Try any command here: type / to start.' },
  { id: '1300000000000000022', name: 'patch-notes', type: ChannelType.GuildAnnouncement, topic: 'Point a feed here with /config feed.' },
  { id: '1300000000000000023', name: 'balance-talk', type: ChannelType.GuildText, topic: 'Another channel for feeds.' },
  {
    id: '1300000000000000024',
    name: 'ladder',
    type: ChannelType.GuildText,
    topic: 'The server ladder posts here: rank-ups, season cards and the weekly recap.',
  },
];

/** The tiers' roles' colours, lowest tier first, as servers often pick them (the game's badge colours). */
const TIER_COLOURS = ['#a7693f', '#99aab5', '#f1c40f', '#58e1e8', '#4e8cff', '#eb46ff', '#fe5a1d', '#e0393e', '#f4e6a6'] as const;

/** The bot's role: above every tier's, with Manage Roles, so that it may give them (Discord: "Role Hierarchy"). */
export const BOT_ROLE: PlaygroundRole = {
  id: '1300000000000000041',
  name: BOT.name,
  colour: '#000000',
  position: TIER_NAMES.length + 2,
  hoist: false,
  managed: true,
  permissions: (PermissionFlagsBits.ManageRoles | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks).toString(),
};

/** Highest first, as Discord lists a server's roles: the bot's, the tiers' (highest tier first), then Patch Pings. `#000000` is Discord's "no colour". */
export const ROLES: readonly PlaygroundRole[] = [
  BOT_ROLE,
  ...TIER_NAMES.map((name, i) => ({
    id: String(1_300_000_000_000_000_032n + BigInt(i)),
    name,
    colour: TIER_COLOURS[i]!,
    position: i + 2,
    hoist: true,
    managed: false,
    permissions: '0',
  })).reverse(),
  { id: '1300000000000000031', name: 'Patch Pings', colour: '#eb459e', position: 1, hoist: false, managed: false, permissions: '0' },
];

export const roleById = (id: string): PlaygroundRole | undefined => ROLES.find((r) => r.id === id);

/** The @everyone defaults that matter here. */
const MEMBER_PERMISSIONS =
  PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks | PermissionFlagsBits.UseApplicationCommands;

/** As Discord's bitfield text (interaction `member.permissions`). */
export function permissionsOf(member: PlaygroundMember): string {
  const admin = member.admin ? PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageGuild : 0n;
  return (MEMBER_PERMISSIONS | admin).toString();
}

/** Whether a member may see and run a command with these `default_member_permissions`. */
export function mayUse(member: PlaygroundMember, defaultMemberPermissions: string | null | undefined): boolean {
  if (defaultMemberPermissions === undefined || defaultMemberPermissions === null) return true;
  const have = BigInt(permissionsOf(member));
  if ((have & PermissionFlagsBits.Administrator) !== 0n) return true;
  const need = BigInt(defaultMemberPermissions);
  return (have & need) === need;
}

/** Who and what the playground's commands may name: members and roles. */
export interface GuildDirectory {
  readonly members: readonly PlaygroundMember[];
  readonly roles: readonly PlaygroundRole[];
}

/** The three people alone: a server with no seeded ladder. */
export const PEOPLE: GuildDirectory = { members: MEMBERS, roles: ROLES };

/** A seeded ladder member's avatar colour, by their place in the ladder. */
const LADDER_COLOURS = ['#e67e22', '#1abc9c', '#e91e63', '#9b59b6', '#3498db', '#95a5a6', '#2ecc71', '#ad1457'] as const;

/** The events of {@link PlaygroundGuild.subscribe}. */
export type GuildEvent = MemberRolesEvent;

/**
 * The pretend server's members and the roles each holds, in memory, with change events for the page. The three people
 * first, then the seeded ladder's members (`ladder`, in its order), none of them an admin.
 */
export class PlaygroundGuild implements GuildDirectory {
  readonly members: readonly PlaygroundMember[];
  readonly roles = ROLES;
  readonly #held = new Map<string, Set<string>>();
  readonly #events = new EventEmitter();

  constructor(ladder: readonly { userId: string; name: string }[] = []) {
    this.members = [...MEMBERS, ...ladder.map((m, i) => ({ id: m.userId, name: m.name, admin: false, colour: LADDER_COLOURS[i % LADDER_COLOURS.length]! }))];
    this.#events.setMaxListeners(0);
  }

  member(id: string): PlaygroundMember | undefined {
    return this.members.find((m) => m.id === id);
  }

  /** The role ids `memberId` holds, highest first; [] for none (or no such member). */
  rolesOf(memberId: string): string[] {
    const held = this.#held.get(memberId);
    return held ? ROLES.filter((r) => held.has(r.id)).map((r) => r.id) : [];
  }

  /** Gives `memberId` the role; a no-op when they hold it (as Discord's "Add Guild Member Role"). @throws {RangeError} for an unknown member or role. */
  addRole(memberId: string, roleId: string): void {
    this.#check(memberId, roleId);
    const held = this.#held.get(memberId) ?? new Set();
    if (held.has(roleId)) return;
    this.#held.set(memberId, held.add(roleId));
    this.#emit(memberId);
  }

  /** Takes the role back; a no-op when they do not hold it. @throws {RangeError} for an unknown member or role. */
  removeRole(memberId: string, roleId: string): void {
    this.#check(memberId, roleId);
    if (this.#held.get(memberId)?.delete(roleId)) this.#emit(memberId);
  }

  /** Calls `listener` on every change until the returned function is called. */
  subscribe(listener: (event: GuildEvent) => void): () => void {
    this.#events.on('change', listener);
    return () => this.#events.off('change', listener);
  }

  #check(memberId: string, roleId: string): void {
    if (!this.member(memberId)) throw new RangeError(`no member ${memberId}`);
    if (!roleById(roleId)) throw new RangeError(`no role ${roleId}`);
  }

  #emit(memberId: string): void {
    this.#events.emit('change', { type: 'member-roles', memberId, roles: this.rolesOf(memberId) } satisfies GuildEvent);
  }
}

export const DM_TOPIC = 'Your direct messages with the bot: commands here run outside any server, as in a DM on Discord.';
export const channelById = (id: string): PlaygroundChannel | undefined => CHANNELS.find((c) => c.id === id);

/** The bot's languages, each as the first Discord locale it serves, English first. */
export const LANGUAGES: readonly PlaygroundLanguage[] = LOCALES.map((locale) => ({ code: DISCORD_LOCALES[locale][0]!, locale, name: LOCALE_NAMES[locale] }));

/** Discord's default for a new member's client and a new server. */
export const DEFAULT_DISCORD_LOCALE = 'en-US';

export const isLanguageCode = (code: string): boolean => LANGUAGES.some((l) => l.code === code);

/** Each member's client locale and the server's `preferred_locale`, switched from the page; in memory, across page reloads. */
export class PlaygroundLocales {
  readonly #members = new Map<string, string>();
  readonly #directory: GuildDirectory;
  #guild = DEFAULT_DISCORD_LOCALE;

  /** `directory`: whose locales may be set. */
  constructor(directory: GuildDirectory = PEOPLE) {
    this.#directory = directory;
  }

  member(memberId: string): string {
    return this.#members.get(memberId) ?? DEFAULT_DISCORD_LOCALE;
  }

  /** `preferred_locale`. */
  get guild(): string {
    return this.#guild;
  }

  /** @throws {RangeError} when the member is not one of the server's or `code` not one of {@link LANGUAGES}. */
  setMember(memberId: string, code: string): void {
    if (!this.#directory.members.some((m) => m.id === memberId)) throw new RangeError(`no member ${memberId}`);
    if (!isLanguageCode(code)) throw new RangeError(`not a language of the playground: ${code}`);
    this.#members.set(memberId, code);
  }

  /** Sets the server's Discord locale. @throws {RangeError} when `code` is not one of {@link LANGUAGES}. */
  setGuild(code: string): void {
    if (!isLanguageCode(code)) throw new RangeError(`not a language of the playground: ${code}`);
    this.#guild = code;
  }
}
