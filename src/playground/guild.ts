/**
 * The playground's pretend Discord server: one guild, three members (one an admin), a few
 * channels and a role. Ids are Discord-shaped snowflakes so every handler treats them as real.
 */
import { ChannelType, PermissionFlagsBits } from 'discord-api-types/v10';

/** A member of the playground guild. */
export interface PlaygroundMember {
  id: string;
  name: string;
  /** Has Manage Server (and Administrator): can see and run /config. */
  admin: boolean;
  /** Role colour shown on the name, `#rrggbb`. */
  colour: string;
}

/** A channel of the playground guild (Discord channel types 0 and 5). */
export interface PlaygroundChannel {
  id: string;
  name: string;
  type: ChannelType.GuildText | ChannelType.GuildAnnouncement;
  topic: string;
}

/** A role of the playground guild. */
export interface PlaygroundRole {
  id: string;
  name: string;
  colour: string;
}

/** The pretend server (Discord: guild). */
export const GUILD = { id: '1300000000000000001', name: 'Rivals Playground' } as const;

/** The bot as members see it. */
export const BOT = { id: '1300000000000000002', name: 'Rivals Bot' } as const;

/** Its members: Alex is the admin; Sam and Jordan are members. */
export const MEMBERS: readonly PlaygroundMember[] = [
  { id: '1300000000000000011', name: 'Alex', admin: true, colour: '#f0b232' },
  { id: '1300000000000000012', name: 'Sam', admin: false, colour: '#5865f2' },
  { id: '1300000000000000013', name: 'Jordan', admin: false, colour: '#23a55a' },
];

/** Its text channels; `#patch-notes` is an announcement channel, so feed posts there can be published. */
export const CHANNELS: readonly PlaygroundChannel[] = [
  { id: '1300000000000000021', name: 'general', type: ChannelType.GuildText, topic: 'Try any command here: type / to start.' },
  { id: '1300000000000000022', name: 'patch-notes', type: ChannelType.GuildAnnouncement, topic: 'Point a feed here with /config feed.' },
  { id: '1300000000000000023', name: 'balance-talk', type: ChannelType.GuildText, topic: 'Another channel for feeds.' },
];

/** A role a feed may ping. */
export const ROLES: readonly PlaygroundRole[] = [{ id: '1300000000000000031', name: 'Patch Pings', colour: '#eb459e' }];

/** What every member may do in a channel (Discord: the @everyone defaults that matter here). */
const MEMBER_PERMISSIONS = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks | PermissionFlagsBits.UseApplicationCommands;

/** A member's permissions as Discord's bitfield text (interaction `member.permissions`). */
export function permissionsOf(member: PlaygroundMember): string {
  const admin = member.admin ? PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageGuild : 0n;
  return (MEMBER_PERMISSIONS | admin).toString();
}

/** Whether a member may see and run a command with these `default_member_permissions` (Discord hides it otherwise). */
export function mayUse(member: PlaygroundMember, defaultMemberPermissions: string | null | undefined): boolean {
  if (defaultMemberPermissions === undefined || defaultMemberPermissions === null) return true;
  const have = BigInt(permissionsOf(member));
  if ((have & PermissionFlagsBits.Administrator) !== 0n) return true;
  const need = BigInt(defaultMemberPermissions);
  return (have & need) === need;
}

/** A member by id; undefined for anyone else. */
export const memberById = (id: string): PlaygroundMember | undefined => MEMBERS.find((m) => m.id === id);
/** A channel by id; undefined for any other. */
export const channelById = (id: string): PlaygroundChannel | undefined => CHANNELS.find((c) => c.id === id);
