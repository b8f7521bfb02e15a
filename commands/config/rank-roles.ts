/** `/config rank-roles`: the tier-to-role map, with the dry run before it is saved. */
import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { CommandInput, Invoker } from '../../src/discord/command.js';
import { cannotGive, rankRoleKey } from '../../src/game/rank-roles.js';
import { DIVISIONS, TIER_NAMES } from '../../src/game/ranks.js';
import { rankRolesEmbed } from '../../src/render/rank-roles.js';
import { UserFacingError } from '../../src/core/errors.js';
import { tr } from '../../src/i18n/index.js';
import { tierName } from '../../src/i18n/names.js';
import { escapeText } from '../../src/render/limits.js';
import type { View } from '../../src/render/view.js';

import { privately, type Ctx } from './common.js';

/**
 * `/config rank-roles [tier] [division] [role] [enabled]`: maps a tier or one division to a role (no role: unmaps it),
 * checked against the bot's Manage Roles and highest role first; turns the sync on or off; always shows the mapping
 * and what a sync would change now (a dry run while it is off).
 */
export async function configureRankRoles(guildId: string, o: CommandInput['options'], ctx: Ctx, user: Invoker): Promise<View> {
  if (!ctx.rankRoles || !ctx.ladder) throw new UserFacingError(tr('ladder:unavailable'));
  const { store, discord } = ctx.rankRoles;
  // Unread (Discord failing): the answer says the roles were not checked, and the sync checks them again before any change.
  const guild = discord
    ? await discord.guildRoles(guildId).catch((err: unknown) => {
        ctx.logger.warn({ err, guildId }, 'could not read the server roles for /config rank-roles');
        return null;
      })
    : null;
  const set: Record<string, string | null> = {};
  if (o.tier !== undefined) {
    const tier = TIER_NAMES.find((t) => t === o.tier);
    if (!tier) throw new UserFacingError(tr('ladder:roles.unknownTier', { tier: escapeText(String(o.tier), 40) }));
    const division = DIVISIONS.find((d) => d === o.division) ?? null;
    const key = rankRoleKey(tier, division);
    if (o.role !== undefined) {
      const roleId = String(o.role);
      // Choosing the roles the bot hands out is giving roles: Discord asks Manage Roles of whoever gives one.
      const bits = BigInt(user.permissions ?? '0');
      if ((bits & (PermissionFlagsBits.ManageRoles | PermissionFlagsBits.Administrator)) === 0n)
        return privately({ description: tr('ladder:roles.refuse.yourPermission', { role: `<@&${roleId}>` }) });
      const why = guild ? cannotGive(roleId, guild) : null;
      if (why) return privately({ description: tr(`ladder:roles.refuse.${why}`, { role: `<@&${roleId}>`, tier: tierName(key) }) });
      set[key] = roleId;
    } else set[key] = null;
  } else if (o.role !== undefined || o.division !== undefined) {
    return privately({ description: tr('ladder:roles.needTier') });
  }
  const change = { ...(typeof o.enabled === 'boolean' ? { enabled: o.enabled } : {}), ...(Object.keys(set).length > 0 ? { set } : {}) };
  const settings = Object.keys(change).length > 0 ? await store.configure(guildId, change, ctx.now()) : await store.settings(guildId);
  // While off, the dry run shows what turning them on would change.
  const plan = await store.plan(guildId, ctx.now(), { enabled: true });
  return privately(rankRolesEmbed({ settings, guild, offline: !discord, changes: plan.changes, held: plan.held, ladderOn: await ctx.ladder.enabled(guildId) }));
}
