/**
 * `/alerts`: tell a member when a balance post or patch note changes their mains (top heroes by play time on
 * their default account) or heroes they watch, in the server's alerts channel or by DM. The feed poller sends them.
 */
import { ApplicationIntegrationType, InteractionContextType } from 'discord-api-types/v10';
import type { CommandContext, CommandModule, Invoker } from '../src/discord/command.js';
import { slashCommand } from '../src/discord/command.js';
import { UserFacingError } from '../src/core/errors.js';
import { describe } from '../src/i18n/commands.js';
import { listOf } from '../src/render/common.js';
import { discordTime } from '../src/i18n/format.js';
import type { View } from '../src/render/view.js';
import { MAX_WATCHED_HEROES, type AlertMember } from '../src/store/alerts.js';
import { t } from '../src/render/strings.js';

/** The part of a command's context /alerts uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'alerts' | 'heroes' | 'links' | 'logger' | 'now' | 'settings'>;

const COLOUR = 0xf59e0b;

const definition = slashCommand('alerts', {
  integrationTypes: [ApplicationIntegrationType.GuildInstall],
  contexts: [InteractionContextType.Guild, InteractionContextType.BotDM],
})
  .addSubcommand((s) =>
    s
      .setName('mains')
      .setDescription(describe('alerts.subcommands.mains'))
      .addBooleanOption((o) => o.setName('enabled').setDescription(describe('alerts.subcommands.mains.options.enabled')).setRequired(true))
      .addBooleanOption((o) => o.setName('dm').setDescription(describe('alerts.subcommands.mains.options.dm'))),
  )
  .addSubcommand((s) =>
    s
      .setName('hero')
      .setDescription(describe('alerts.subcommands.hero', { max: MAX_WATCHED_HEROES }))
      .addStringOption((o) =>
        o.setName('name').setDescription(describe('alerts.subcommands.hero.options.name')).setRequired(true).setAutocomplete(true).setMaxLength(60),
      )
      .addBooleanOption((o) => o.setName('dm').setDescription(describe('alerts.subcommands.hero.options.dm'))),
  )
  .addSubcommand((s) => s.setName('list').setDescription(describe('alerts.subcommands.list')))
  .addSubcommand((s) =>
    s
      .setName('off')
      .setDescription(describe('alerts.subcommands.off'))
      .addStringOption((o) => o.setName('hero').setDescription(describe('alerts.subcommands.off.options.hero')).setAutocomplete(true).setMaxLength(60)),
  )
  .toJSON();

const privately = (description: string): View => ({ ephemeral: true, embeds: [{ color: COLOUR, description }] });

/** @throws {UserFacingError} when alerts are not available (the CLI). */
function alertsOf(ctx: Ctx): NonNullable<CommandContext['alerts']> {
  if (!ctx.alerts) throw new UserFacingError(t.alertsUnavailable());
  return ctx.alerts;
}

/** '' in direct messages, where alerts can only be direct messages. */
const guildOf = (user: Invoker) => user.guildId ?? '';

/** Where the member's alerts go, as a sentence, or why they cannot go anywhere yet. */
async function whereTo(m: AlertMember, ctx: Ctx): Promise<string> {
  if (m.dm || m.guildId === '') return t.alertsByDm();
  const channel = (await ctx.settings.get(m.guildId)).alertsChannelId;
  return channel ? t.alertsInChannel(channel) : t.alertsNoChannel();
}

async function names(ids: string[], ctx: Ctx): Promise<string[]> {
  const byId = await ctx.heroes.displayNames();
  return ids.map((id) => byId.get(id) ?? id);
}

async function listView(m: AlertMember | null, userId: string, ctx: Ctx): Promise<View> {
  if (!m) return privately(t.alertsNone());
  const lines: string[] = [];
  if (m.mains) {
    const mains = (await alertsOf(ctx).members.mainsOf([userId])).get(userId);
    lines.push(
      mains && mains.heroes.length > 0 ? t.alertsMains(listOf(await names(mains.heroes, ctx)), discordTime(mains.refreshedAt / 1000)) : t.alertsMainsPending(),
    );
  }
  if (m.heroes.length > 0) lines.push(t.alertsWatching(listOf(await names(m.heroes, ctx))));
  lines.push(await whereTo(m, ctx));
  return privately(lines.join('\n'));
}

export const alerts: CommandModule = {
  definition,
  async execute(input, ctx: Ctx) {
    const a = alertsOf(ctx);
    const userId = input.user.userId;
    const guildId = guildOf(input.user);
    const dm = input.options.dm === undefined ? undefined : input.options.dm === true;
    switch (input.subcommand) {
      case 'mains': {
        const enabled = input.options.enabled === true;
        if (!enabled) return listView(await a.members.update(userId, guildId, (m) => void (m.mains = false), ctx.now()), userId, ctx);
        if (!(await ctx.links.defaultUid(userId))) return privately(t.alertsNeedLink());
        const m = await a.members.update(
          userId,
          guildId,
          (x) => {
            x.mains = true;
            if (dm !== undefined) x.dm = dm;
          },
          ctx.now(),
        );
        // Read now so the member sees them; if the API cannot answer, the background refresh reads them later.
        await a.mains.refresh(userId, 'interactive').catch((err: unknown) => ctx.logger.warn({ err }, 'could not read the mains now; the hourly refresh will'));
        return listView(m, userId, ctx);
      }
      case 'hero': {
        const hero = await ctx.heroes.resolve(String(input.options.name ?? ''));
        const current = await a.members.member(userId, guildId);
        if (current && !current.heroes.includes(hero.id) && current.heroes.length >= MAX_WATCHED_HEROES) return privately(t.alertsTooMany(MAX_WATCHED_HEROES));
        const m = await a.members.update(
          userId,
          guildId,
          (x) => {
            x.heroes = [...x.heroes, hero.id];
            if (dm !== undefined) x.dm = dm;
          },
          ctx.now(),
        );
        return listView(m, userId, ctx);
      }
      case 'off': {
        const typed = input.options.hero;
        if (typeof typed === 'string' && typed.trim() !== '') {
          const hero = await ctx.heroes.resolve(typed);
          const m = await a.members.update(userId, guildId, (x) => void (x.heroes = x.heroes.filter((h) => h !== hero.id)), ctx.now());
          return m.mains || m.heroes.length > 0 ? listView(m, userId, ctx) : privately(t.alertsNone());
        }
        await a.members.update(
          userId,
          guildId,
          (x) => {
            x.mains = false;
            x.heroes = [];
          },
          ctx.now(),
        );
        return privately(t.alertsAllOff());
      }
      default:
        return listView(await a.members.member(userId, guildId), userId, ctx);
    }
  },
  async autocomplete(input, ctx: Ctx) {
    return ctx.heroes.suggest(input.focused.value);
  },
};
