/** The playground's pretend server: one guild, three members (one an admin), a few channels and a role, with snowflake-shaped ids. */
import { ChannelType, PermissionFlagsBits } from 'discord-api-types/v10';
import { DISCORD_LOCALES, LOCALE_NAMES, LOCALES } from '../i18n/index.js';
import type { PlaygroundLanguage } from './protocol.js';
export { dmChannelOf } from './protocol.js';

export interface PlaygroundMember {
  id: string;
  name: string;
  /** Has Manage Server (and Administrator): can see and run /config. */
  admin: boolean;
  /** `#rrggbb`. */
  colour: string;
}

/** Discord channel types 0 and 5. */
export interface PlaygroundChannel {
  id: string;
  name: string;
  type: ChannelType.GuildText | ChannelType.GuildAnnouncement;
  topic: string;
}

export interface PlaygroundRole {
  id: string;
  name: string;
  colour: string;
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

export const ROLES: readonly PlaygroundRole[] = [{ id: '1300000000000000031', name: 'Patch Pings', colour: '#eb459e' }];

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

export const memberById = (id: string): PlaygroundMember | undefined => MEMBERS.find((m) => m.id === id);

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
  #guild = DEFAULT_DISCORD_LOCALE;

  member(memberId: string): string {
    return this.#members.get(memberId) ?? DEFAULT_DISCORD_LOCALE;
  }

  /** `preferred_locale`. */
  get guild(): string {
    return this.#guild;
  }

  /** @throws {RangeError} when the member is not one of {@link MEMBERS} or `code` not one of {@link LANGUAGES}. */
  setMember(memberId: string, code: string): void {
    if (!memberById(memberId)) throw new RangeError(`no member ${memberId}`);
    if (!isLanguageCode(code)) throw new RangeError(`not a language of the playground: ${code}`);
    this.#members.set(memberId, code);
  }

  /** Sets the server's Discord locale. @throws {RangeError} when `code` is not one of {@link LANGUAGES}. */
  setGuild(code: string): void {
    if (!isLanguageCode(code)) throw new RangeError(`not a language of the playground: ${code}`);
    this.#guild = code;
  }
}
