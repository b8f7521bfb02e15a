/**
 * `/privacy show|export|delete|tracking`: what the bot stores about a member, as a summary or a JSON file; deleting all of
 * it from every table and the caches after a confirmation; tracking of their linked accounts on or off. See PRIVACY.md.
 */
import { ButtonStyle, ComponentType } from 'discord-api-types/v10';
import { isPlatform, PLATFORM_NAMES } from '../src/api/endpoints.js';
import { slashCommand, type CommandContext, type CommandModule } from '../src/discord/command.js';
import { describe } from '../src/i18n/commands.js';
import { discordTime, integer } from '../src/i18n/format.js';
import { isLocale, LOCALE_NAMES, tr } from '../src/i18n/index.js';
import { encodeCustomId } from '../src/render/custom-id.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import type { View } from '../src/render/view.js';
import type { MemberData } from '../src/store/member-data.js';
import { seasonFromIndex } from '../src/game/seasons.js';

/** The part of a command's context /privacy uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api' | 'links' | 'logger' | 'memberData' | 'now' | 'recent' | 'tracking'>;

const COLOUR = 0x5865f2;
const privately = (view: Omit<View, 'ephemeral'>): View => ({ ephemeral: true, ...view });
const said = (description: string, extra: Omit<View, 'ephemeral' | 'embeds'> = {}): View => privately({ embeds: [{ color: COLOUR, description }], ...extra });
/**
 * The answer to the delete confirmation, in its place and without its buttons. Not marked private: the router replaces the
 * pressed message only with an answer that is not, and the confirmation is private, so it stays so (Discord: UPDATE_MESSAGE).
 */
const answered = (description: string): View => ({ embeds: [{ color: COLOUR, description }], components: [] });

/** Seasons a profile may be cached for, by in-game number: every season the bot can name. */
const CACHED_SEASONS = Array.from({ length: 41 }, (_, i) => seasonFromIndex(i)!.number);

const definition = slashCommand('privacy')
  // A member sees and deletes their data wherever they can give it (/link, /settings): through either install.
  .addSubcommand((s) => s.setName('show').setDescription(describe('privacy.subcommands.show')))
  .addSubcommand((s) => s.setName('export').setDescription(describe('privacy.subcommands.export')))
  .addSubcommand((s) => s.setName('delete').setDescription(describe('privacy.subcommands.delete')))
  .addSubcommand((s) =>
    s
      .setName('tracking')
      .setDescription(describe('privacy.subcommands.tracking'))
      .addBooleanOption((o) => o.setName('enabled').setDescription(describe('privacy.subcommands.tracking.options.enabled')).setRequired(true)),
  )
  .toJSON();

/** The store's part of the context, or a clear "unavailable" when the bot runs without it. */
function memberData(ctx: Ctx): NonNullable<CommandContext['memberData']> {
  if (!ctx.memberData) throw new Error('the member data store is not wired in this context');
  return ctx.memberData;
}

function showView(data: MemberData, recent: number): View {
  const m = tr;
  const accounts =
    data.accounts.length === 0
      ? m('privacy:none')
      : data.accounts
          .map(
            (a) =>
              `${a.isDefault ? '★' : '•'} ${escapeText(a.name, 60)} (UID ${a.uid}) · ${m('privacy:linkedOn', { when: discordTime(a.linkedAt / 1000, 'D') })}`,
          )
          .join('\n');
  const tracking = data.settings?.trackingOff
    ? m('privacy:trackingOff')
    : data.tracking.length === 0
      ? m('privacy:none')
      : data.tracking
          .map((t) => {
            const name = escapeText(data.accounts.find((a) => a.uid === t.uid)?.name ?? t.uid, 60);
            return t.matches.length + t.snapshots.length === 0
              ? m('privacy:nothingYet', { name })
              : m('privacy:recorded', { name, count: t.matches.length, n: integer(t.matches.length), snapshots: integer(t.snapshots.length) });
          })
          .join('\n');
  const locale = data.settings?.locale;
  const platform = data.settings?.platform;
  const settings = [
    isLocale(locale) ? m('privacy:languageChosen', { language: LOCALE_NAMES[locale] }) : m('privacy:languageDiscord'),
    ...(isPlatform(platform) ? [m('privacy:platformChosen', { platform: PLATFORM_NAMES[platform] })] : []),
    ...(data.settings?.display === 'embeds' ? [m('privacy:embedsChosen')] : []),
  ].join('\n');
  const heroes = new Set(data.alerts.flatMap((a) => a.heroes)).size;
  const alerts =
    data.alerts.length === 0
      ? m('privacy:none')
      : m('privacy:alertsSet', { count: data.alerts.length, n: integer(data.alerts.length), heroes: integer(heroes) });
  const given = data.rankRoles.filter((r) => r.roleId !== null).length;
  const field = (name: string, value: string) => ({ name, value: truncate(value, LIMITS.fieldValue), inline: false });
  return privately({
    embeds: [
      {
        color: COLOUR,
        title: m('privacy:title'),
        description: m('privacy:intro'),
        fields: [
          field(m('privacy:accounts'), accounts),
          field(m('privacy:tracking'), tracking),
          field(m('privacy:settings'), settings),
          field(m('privacy:alerts'), alerts),
          field(
            m('privacy:ladders'),
            (data.ladders.length === 0 ? m('privacy:none') : m('privacy:laddersOn', { count: data.ladders.length, n: integer(data.ladders.length) })) +
              (given > 0 ? `\n${m('privacy:rankRoles', { n: integer(given) })}` : '') +
              (data.duos.length > 0
                ? `\n${m('privacy:duos', {
                    duos: integer(new Set(data.duos.filter((d) => d.together).map((d) => d.uid)).size),
                    rivals: integer(new Set(data.duos.filter((d) => !d.together).map((d) => d.uid)).size),
                  })}`
                : '') +
              (data.settingsChanges.length > 0
                ? `\n${m('privacy:settingsChanges', { count: data.settingsChanges.length, n: integer(data.settingsChanges.length) })}`
                : ''),
          ),
          field(m('privacy:recent'), recent === 0 ? m('privacy:none') : m('privacy:recentKept', { count: recent, n: integer(recent) })),
        ],
      },
    ],
  });
}

export const privacy: CommandModule = {
  definition,
  async execute(input, ctx: Ctx) {
    const userId = input.user.userId;
    switch (input.subcommand) {
      case 'export': {
        const [data, recent, seen] = await Promise.all([memberData(ctx).collect(userId), ctx.recent.list(userId), ctx.recent.seen(userId)]);
        const file = { v: 1, exportedAt: new Date(ctx.now()).toISOString(), ...data, recentLookups: recent, seenPlayers: seen };
        return said(tr('privacy:exported'), {
          files: [{ name: `rivals-bot-data-${userId}.json`, data: new TextEncoder().encode(JSON.stringify(file, null, 2)), contentType: 'application/json' }],
        });
      }
      case 'delete':
        return said(tr('privacy:deleteConfirm'), {
          components: [
            {
              type: ComponentType.ActionRow,
              components: [
                {
                  type: ComponentType.Button,
                  style: ButtonStyle.Danger,
                  label: tr('privacy:deleteButton'),
                  custom_id: encodeCustomId('pv.del', userId),
                },
                {
                  type: ComponentType.Button,
                  style: ButtonStyle.Secondary,
                  label: tr('privacy:keepButton'),
                  custom_id: encodeCustomId('pv.keep', userId),
                },
              ],
            },
          ],
        });
      case 'tracking': {
        const on = input.options.enabled === true;
        if (!ctx.tracking) throw new Error('the tracking store is not wired in this context');
        await ctx.tracking.setTracking(userId, on, ctx.now());
        return said(tr(on ? 'privacy:trackingOn' : 'privacy:trackingStopped'));
      }
      default: {
        const [data, recent] = await Promise.all([memberData(ctx).collect(userId), ctx.recent.list(userId)]);
        return showView(data, recent.length);
      }
    }
  },
  components: {
    /** Confirmed: `pv.del:<userId>`. Deletes every row, then what the caches hold of the member and of their accounts. */
    'pv.del': async (input, ctx: Ctx) => {
      if (input.args[0] !== input.user.userId) return said(tr('privacy:notYours'));
      const userId = input.user.userId;
      const accounts = await memberData(ctx).erase(userId, ctx.now());
      ctx.links.forgetCached(userId);
      ctx.links.forgetKnownAccounts(accounts.map((a) => a.uid));
      ctx.recent.forgetKnown(accounts.map((a) => a.uid));
      await ctx.recent.forget(userId);
      await Promise.all(accounts.flatMap((a) => [ctx.api.forgetPlayer(a.uid, CACHED_SEASONS), ctx.api.forgetPlayer(a.name, CACHED_SEASONS)]));
      ctx.logger.info({ accounts: accounts.length }, 'a member deleted their data');
      // After the reply (the runtime asks for a newer version once it is sent), with no newer version: the write-ahead log's
      // copies of the deleted rows go, and the file gets the zeroed pages.
      const truncateLog = async (): Promise<null> => {
        try {
          const log = await memberData(ctx).truncateLog();
          if (log !== 'none') ctx.logger.info({ log }, "the store's write-ahead log after a member's deletion");
        } catch (err) {
          ctx.logger.warn({ err }, "the store's write-ahead log could not be emptied after a member's deletion");
        }
        return null;
      };
      return { ...answered(tr('privacy:deleted')), next: truncateLog };
    },
    'pv.keep': async (input) => {
      if (input.args[0] !== input.user.userId) return said(tr('privacy:notYours'));
      return answered(tr('privacy:kept'));
    },
  },
};
