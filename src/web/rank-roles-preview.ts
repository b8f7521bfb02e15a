/**
 * The rank roles' dry run of a mapping not saved yet, for the dashboard's Preview: what `/config rank-roles` would answer
 * after saving these options, with nothing saved. The same store's plan and the same embed as the command; a role the bot
 * could not give is marked in the mapping, and Save (which runs the command) refuses it as the command does.
 */
import type { APIEmbed } from 'discord-api-types/v10';
import type { CommandContext, CommandInput } from '../discord/command.js';
import { rankRoleKey } from '../game/rank-roles.js';
import { DIVISIONS, TIER_NAMES } from '../game/ranks.js';
import { rankRolesEmbed } from '../render/rank-roles.js';
import { tr } from '../i18n/index.js';

/**
 * The dry run of `/config rank-roles` with `options` (its own option names); `refused` when the command would refuse them
 * before anything (a division or role with no tier), with its words; null without rank roles (no store).
 */
export type RankRolesPreviewer = (guildId: string, options: CommandInput['options']) => Promise<{ embed: APIEmbed; refused: boolean } | null>;

export function rankRolesPreviewer(ctx: Pick<CommandContext, 'rankRoles' | 'ladder' | 'now' | 'logger'>): RankRolesPreviewer {
  return async (guildId, o) => {
    if (!ctx.rankRoles || !ctx.ladder) return null;
    const { store, discord } = ctx.rankRoles;
    const tier = TIER_NAMES.find((t) => t === o.tier);
    if (!tier && (o.role !== undefined || o.division !== undefined)) return { embed: { description: tr('ladder:roles.needTier') }, refused: true };
    const set: Record<string, string | null> = {};
    if (tier) set[rankRoleKey(tier, DIVISIONS.find((d) => d === o.division) ?? null)] = o.role === undefined ? null : String(o.role);
    const [plan, guild, ladderOn] = await Promise.all([
      store.plan(guildId, ctx.now(), { enabled: true, set }),
      discord
        ? discord.guildRoles(guildId).catch((err: unknown) => {
            ctx.logger.warn({ err, guildId }, 'could not read the server roles for the rank roles preview');
            return null;
          })
        : Promise.resolve(null),
      ctx.ladder.enabled(guildId),
    ]);
    const enabled = typeof o.enabled === 'boolean' ? o.enabled : plan.settings.enabled;
    return {
      embed: rankRolesEmbed({ settings: { ...plan.settings, enabled }, guild, offline: !discord, changes: plan.changes, held: plan.held, ladderOn }),
      refused: false,
    };
  };
}
