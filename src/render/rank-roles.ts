/** The rank roles' answers: the mapping with the bot's checks and what a sync would change (`/config rank-roles`), and their state in `/config status`. */
import type { APIEmbed } from 'discord-api-types/v10';
import { cannotGive, RANK_ROLE_KEYS, ROLE_FAILURES, type GuildRoles, type RoleChange, type RoleFailureDetail } from '../game/rank-roles.js';
import { integer } from '../i18n/format.js';
import { tr } from '../i18n/index.js';
import { tierName } from '../i18n/names.js';
import type { RankRoleSettings, RoleFailureRow } from '../store/rank-roles.js';
import { escapeText, LIMITS } from './limits.js';

const COLOUR = 0x5865f2;
/** Changes and members named in one answer; the rest are counted. */
const SHOWN = 10;

/**
 * What `/config rank-roles` shows: the settings, the server's roles (null when Discord could not be read; `offline`
 * without Discord at all, as in the playground), and the sync's next changes.
 */
export interface RankRolesPreview {
  settings: RankRoleSettings;
  guild: GuildRoles | null;
  offline?: boolean;
  changes: readonly RoleChange[];
  held: number;
  ladderOn: boolean;
}

const role = (id: string) => `<@&${id}>`;

/** Why the bot cannot give `roleId`, as a short warning after it; '' when it can (or the server could not be read). */
function warning(roleId: string, guild: GuildRoles | null): string {
  const why = guild ? cannotGive(roleId, guild) : null;
  return why ? ` ⚠️ ${tr(`ladder:roles.cannot.${why}`)}` : '';
}

/** The mapping, the checks and the dry run, in one embed. */
export function rankRolesEmbed(p: RankRolesPreview): APIEmbed {
  const lines = [tr(p.settings.enabled ? 'ladder:roles.on' : 'ladder:roles.off')];
  if (!p.ladderOn) lines.push(tr('ladder:roles.ladderOff'));
  if (p.guild && !p.guild.manageRoles) lines.push(`⚠️ ${tr('ladder:roles.needManageRoles')}`);
  if (!p.guild) lines.push(tr(p.offline ? 'ladder:roles.offline' : 'ladder:roles.unchecked'));
  if (p.settings.problem?.kind === 'role-deleted') lines.push(`⚠️ ${tr('ladder:roles.roleDeleted', { tier: tierName(p.settings.problem.key) })}`);
  if (p.settings.problem?.kind === 'mfa-required') lines.push(`⚠️ ${tr('ladder:roles.needTwoFactor')}`);
  const mapped = RANK_ROLE_KEYS.filter((k) => p.settings.roles[k] !== undefined);
  const mapping = mapped.map((k) => `${tierName(k)} → ${role(p.settings.roles[k]!)}${warning(p.settings.roles[k]!, p.guild)}`);
  const adds = p.changes.filter((c) => c.add !== null).length;
  const removes = p.changes.filter((c) => c.remove !== null).length;
  const shown = p.changes.slice(0, SHOWN).map((c) => {
    const parts = [...(c.add ? [`+${role(c.add)}`] : []), ...(c.remove ? [`−${role(c.remove)}`] : [])];
    return `<@${c.userId}> ${parts.join(' ')}${c.tier ? ` (${tierName(c.tier)})` : ''}`;
  });
  const more = p.changes.length - shown.length;
  const changes =
    p.changes.length === 0
      ? tr('ladder:roles.inStep')
      : [
          tr('ladder:roles.counts', { add: integer(adds), remove: integer(removes) }),
          ...shown,
          ...(more > 0 ? [tr('ladder:roles.more', { n: integer(more) })] : []),
        ].join('\n');
  const held = p.held > 0 ? `\n${tr('ladder:roles.held', { n: integer(p.held) })}` : '';
  return {
    color: COLOUR,
    title: tr('ladder:roles.title'),
    description: lines.join('\n'),
    fields: [
      { name: tr('ladder:roles.mappingTitle'), value: mapping.length > 0 ? mapping.join('\n') : tr('ladder:roles.noMapping') },
      { name: tr(p.settings.enabled ? 'ladder:roles.pendingTitle' : 'ladder:roles.dryRunTitle'), value: `${changes}${held}` },
    ],
  };
}

/** Discord's limit on an embed field's value. */
const FIELD_ROOM = LIMITS.fieldValue;

/** Reasons about the role itself: the role is named after the member. */
const ROLE_NAMED = new Set<string>(['role-above', 'managed', 'elevated', 'everyone']);
/** The longest of Discord's own message shown for a refusal, characters. */
const DISCORD_MESSAGE_ROOM = 80;

/** What Discord answered, after a refused member's role: its JSON code and message, escaped (Discord's words, in English). */
function refusal(d: RoleFailureDetail | null): string {
  const parts = [
    ...(d?.code !== undefined ? [String(d.code)] : d?.status !== undefined ? [String(d.status)] : []),
    ...(d?.message ? [escapeText(d.message, DISCORD_MESSAGE_ROOM)] : []),
  ];
  return parts.join(' ');
}

/** How Discord failed on a member set aside, and when they are tried again (a Discord timestamp, shown in the reader's own time). */
function setAside(r: RoleFailureRow): string {
  const kind = r.detail?.kind;
  const how = kind ? tr(`ladder:roles.failureKind.${kind}`, { status: String(r.detail?.status ?? '') }) : null;
  return [...(how ? [how] : []), tr('ladder:roles.nextTry', { when: `<t:${Math.ceil(r.retryAt / 1000)}:R>` })].join(', ');
}

/** A member in the status line: their mention, and what the admin needs to know (the role, Discord's answer, the next try). */
function memberText(r: RoleFailureRow): string {
  const about = r.reason === 'refused' ? refusal(r.detail) : r.reason === 'discord-error' ? setAside(r) : '';
  const named = r.roleId !== null && (ROLE_NAMED.has(r.reason) || about !== '') ? role(r.roleId) : '';
  const note = [named, about].filter((part) => part !== '').join(': ');
  return note ? `<@${r.userId}> (${note})` : `<@${r.userId}>`;
}

/**
 * The rank roles' line in `/config status`: on or off, the server's problem, and every member not updated, by reason: the
 * role for a role the bot may not give, Discord's code and message for a refusal, how Discord failed and the next try for
 * a member set aside.
 */
export function rankRolesStatus(settings: RankRoleSettings, failures: { rows: readonly RoleFailureRow[]; total: number }): { name: string; value: string } {
  const lines = [tr(settings.enabled ? 'ladder:roles.statusOn' : 'ladder:roles.statusOff')];
  if (settings.problem?.kind === 'role-deleted') lines.push(`⚠️ ${tr('ladder:roles.roleDeleted', { tier: tierName(settings.problem.key) })}`);
  if (settings.problem?.kind === 'no-permission') lines.push(`⚠️ ${tr('ladder:roles.needManageRoles')}`);
  if (settings.problem?.kind === 'mfa-required') lines.push(`⚠️ ${tr('ladder:roles.needTwoFactor')}`);
  // Members set aside have their own next try; the others wait for an admin, the cause fixed, or a day.
  const retry = failures.rows.some((r) => r.reason !== 'discord-error') || failures.total > failures.rows.length ? tr('ladder:roles.retry') : null;
  // The closing lines' room is kept first: the "N more" line (at its longest) and the retry hint always fit.
  const closing = tr('ladder:roles.more', { n: integer(failures.total) }).length + 1 + (retry === null ? 0 : retry.length + 1);
  let used = lines.join('\n').length + closing;
  let named = 0;
  for (const reason of ROLE_FAILURES) {
    const rows = failures.rows.filter((r) => r.reason === reason);
    if (rows.length === 0) continue;
    const label = `⚠️ ${tr(`ladder:roles.failure.${reason}`)}: `;
    // A reason is listed only with someone after its label.
    if (used + 1 + label.length + memberText(rows[0]!).length > FIELD_ROOM) continue;
    used += 1 + label.length;
    const members: string[] = [];
    for (const r of rows) {
      const text = memberText(r);
      const cost = text.length + (members.length > 0 ? 2 : 0);
      if (used + cost > FIELD_ROOM) break;
      used += cost;
      members.push(text);
    }
    named += members.length;
    lines.push(`${label}${members.join(', ')}`);
  }
  if (failures.total > named) lines.push(tr('ladder:roles.more', { n: integer(failures.total - named) }));
  if (retry !== null) lines.push(retry);
  return { name: tr('ladder:roles.title'), value: lines.join('\n') };
}
