/** INTERACTION_CREATE payloads (Discord: "Interaction Object") read raw into router inputs, never throwing: cheaper in a burst than discord.js's classes. */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  ComponentType,
  InteractionType,
  type APIApplicationCommandInteractionDataOption,
} from 'discord-api-types/v10';
import type { AutocompleteInput, CommandInput, Invoker } from './command.js';

/** What the runtime needs of any interaction: its id and token (for the callback and the webhook routes) and who sent it. */
export interface InteractionHead {
  id: string;
  /** The interaction token: valid 15 minutes, authorises the callback and the webhook routes. Never logged. */
  token: string;
  applicationId: string;
  user: Invoker;
}

/** A slash command or user context-menu command (interaction type 2). */
export interface CommandCall extends InteractionHead {
  kind: 'command';
  commandName: string;
  input: CommandInput;
}

/** A button press or string-select choice (interaction type 3). */
export interface ComponentCall extends InteractionHead {
  kind: 'component';
  customId: string;
  values: string[];
  /** Who ran the command the message answers (`message.interaction_metadata.user.id`, or the deprecated `message.interaction.user.id`), if it says. */
  invokerId?: string;
}

/** An autocomplete request (interaction type 4). */
export interface AutocompleteCall extends InteractionHead {
  kind: 'autocomplete';
  commandName: string;
  input: AutocompleteInput;
}

/** Any interaction type 1 (PING) or another type or component the bot does not answer. */
export interface OtherCall extends InteractionHead {
  kind: 'other';
  type: number;
}

export type InteractionCall = CommandCall | ComponentCall | AutocompleteCall | OtherCall;

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The invoker of a raw interaction: `member.user` in a server, `user` in a DM (Discord: "Interaction Object"); undefined without a user id. */
export function invokerOf(raw: Raw): Invoker | undefined {
  const member = isObject(raw.member) ? raw.member : undefined;
  const user = isObject(member?.user) ? member.user : isObject(raw.user) ? raw.user : undefined;
  const userId = str(user?.id);
  if (!userId) return undefined;
  const guildId = str(raw.guild_id) ?? null;
  const owners = isObject(raw.authorizing_integration_owners) ? raw.authorizing_integration_owners : undefined;
  return {
    userId,
    guildId,
    locale: str(raw.locale),
    guildLocale: str(raw.guild_locale),
    permissions: str(member?.permissions),
    ...(owners && guildId ? { serverInstall: str(owners[String(ApplicationIntegrationType.GuildInstall)]) === guildId } : {}),
  };
}

function valueOf(v: unknown): string | number | boolean | undefined {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : undefined;
}

/** Options (Discord: "Application Command Interaction Data Option") flattened to name → value, with the subcommand and focused option if any. */
export function optionsOf(data: unknown): { subcommand?: string; options: CommandInput['options']; focused?: { name: string; value: string } } {
  const list = Array.isArray(data) ? (data.filter(isObject) as unknown as APIApplicationCommandInteractionDataOption[]) : [];
  const first = list[0];
  if (first && (first.type === ApplicationCommandOptionType.Subcommand || first.type === ApplicationCommandOptionType.SubcommandGroup)) {
    const inner = optionsOf('options' in first ? first.options : undefined);
    // A subcommand group (not used by this bot's commands) reads as its subcommand.
    return first.type === ApplicationCommandOptionType.Subcommand ? { ...inner, subcommand: first.name } : inner;
  }
  const options: CommandInput['options'] = {};
  let focused: { name: string; value: string } | undefined;
  for (const o of list as unknown as Raw[]) {
    const name = str(o.name);
    if (!name) continue;
    options[name] = valueOf(o.value);
    if (o.focused === true) focused = { name, value: String(o.value ?? '') };
  }
  return focused ? { options, focused } : { options };
}

/** An INTERACTION_CREATE payload read for the router, or undefined without id, token, application id or user (logged by the caller). */
export function readInteraction(payload: unknown): InteractionCall | undefined {
  if (!isObject(payload)) return undefined;
  const id = str(payload.id);
  const token = str(payload.token);
  const applicationId = str(payload.application_id);
  const user = invokerOf(payload);
  if (!id || !token || !applicationId || !user) return undefined;
  const head = { id, token, applicationId, user };
  const data = isObject(payload.data) ? payload.data : {};
  const type = typeof payload.type === 'number' ? payload.type : -1;
  const commandName = str(data.name);
  if (type === InteractionType.ApplicationCommand && commandName) {
    if (data.type === ApplicationCommandType.ChatInput) {
      const { subcommand, options } = optionsOf(data.options);
      return { ...head, kind: 'command', commandName, input: { subcommand, options, user } };
    }
    if (data.type === ApplicationCommandType.User) {
      const targetUserId = str(data.target_id);
      const resolved = isObject(data.resolved) && isObject(data.resolved.users) ? data.resolved.users : {};
      const target = targetUserId && isObject(resolved[targetUserId]) ? resolved[targetUserId] : undefined;
      if (!targetUserId) return { ...head, kind: 'other', type };
      return { ...head, kind: 'command', commandName, input: { options: {}, targetUserId, targetName: str(target?.username) ?? targetUserId, user } };
    }
  }
  if (type === InteractionType.MessageComponent) {
    const customId = str(data.custom_id);
    if (customId !== undefined && (data.component_type === ComponentType.Button || data.component_type === ComponentType.StringSelect)) {
      const values = Array.isArray(data.values) ? data.values.filter((v): v is string => typeof v === 'string') : [];
      const message = isObject(payload.message) ? payload.message : {};
      // `interaction_metadata` since 2024; older messages carry the deprecated `interaction` instead.
      const metadata = isObject(message.interaction_metadata) ? message.interaction_metadata : isObject(message.interaction) ? message.interaction : undefined;
      const invokerId = isObject(metadata?.user) ? str(metadata.user.id) : undefined;
      return { ...head, kind: 'component', customId, values, invokerId };
    }
  }
  if (type === InteractionType.ApplicationCommandAutocomplete && commandName) {
    const { subcommand, options, focused } = optionsOf(data.options);
    return { ...head, kind: 'autocomplete', commandName, input: { subcommand, options, user, focused: focused ?? { name: '', value: '' } } };
  }
  return { ...head, kind: 'other', type };
}
