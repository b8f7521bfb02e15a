/**
 * `/match match:<match uid>`: mode, MVP and SVP, and both teams with each player's heroes, K/D/A,
 * damage, healing, damage taken and hit rate. Data: api-spec.md endpoint 20 (a match never changes,
 * so the cache keeps it forever).
 */
import { SlashCommandBuilder } from '@discordjs/builders';
import type { APIEmbed, APIEmbedField } from 'discord-api-types/v10';
import type { MatchDetail, MatchPlayer } from '../src/api/schemas.js';
import type { CommandContext, CommandModule } from '../src/discord/command.js';
import { staleFooter } from '../src/render/common.js';
import { compactNumber, kda, ratioPercent, titleCase } from '../src/render/format.js';
import { escapeText, LIMITS } from '../src/render/limits.js';
import type { View } from '../src/render/view.js';

const WIN_COLOUR = 0x22c55e;
const LOSS_COLOUR = 0xef4444;
const NEUTRAL_COLOUR = 0x5865f2;

const definition = new SlashCommandBuilder()
  .setName('match')
  .setDescription('Both teams of a match: heroes, K/D/A, damage, healing and hit rate')
  .addStringOption((o) => o.setName('match').setDescription('Match id, e.g. 6713355_1740604074_322_11001_10').setRequired(true).setMinLength(3).setMaxLength(100))
  .toJSON();

/** Hero names by id, for the heroes each player used (the match body has ids and icons only). */
async function heroNames(ctx: CommandContext): Promise<Map<string, string>> {
  try {
    return new Map((await ctx.heroes.list()).map((h) => [h.id, titleCase(h.name)]));
  } catch {
    return new Map();
  }
}

/** Hit rate over a player's heroes, weighted by play time; null without data. */
function hitRate(p: MatchPlayer): number | null {
  const rated = p.heroes.filter((h) => h.session_hit_rate !== null);
  if (rated.length === 0) return null;
  const weight = (h: MatchPlayer['heroes'][number]) => h.play_time ?? 1;
  const total = rated.reduce((s, h) => s + weight(h), 0);
  return total > 0 ? rated.reduce((s, h) => s + h.session_hit_rate! * weight(h), 0) / total : null;
}

function playerField(p: MatchPlayer, m: MatchDetail, names: Map<string, string>): APIEmbedField {
  const badge = p.player_uid === m.mvp_uid ? ' · MVP' : p.player_uid === m.svp_uid ? ' · SVP' : '';
  const used = [...new Set(p.heroes.map((h) => h.hero_id).filter((id): id is string => id !== null))];
  const heroes = used.map((id) => names.get(id) ?? `Hero ${id}`).join(', ') || (p.cur_hero_id ? (names.get(p.cur_hero_id) ?? `Hero ${p.cur_hero_id}`) : 'No hero');
  return {
    name: `${escapeText(p.nick_name ?? p.player_uid, 200)}${badge}`,
    value: [
      escapeText(heroes, 300),
      kda(p.kills, p.deaths, p.assists),
      `${compactNumber(p.total_hero_damage)} dmg · ${compactNumber(p.total_hero_heal)} heal · ${compactNumber(p.total_damage_taken)} taken · ${ratioPercent(hitRate(p))} hits`,
    ].join('\n'),
    inline: false,
  };
}

/** The view of a match: a summary embed, then one embed per team (camp). */
export async function matchView(matchUid: string, ctx: CommandContext): Promise<View> {
  const fetched = await ctx.api.match(matchUid);
  const m = fetched.data;
  const names = await heroNames(ctx);
  const mvp = m.players.find((p) => p.player_uid === m.mvp_uid);
  const svp = m.players.find((p) => p.player_uid === m.svp_uid);
  const heroOf = (id: string | null) => (id ? (names.get(id) ?? `Hero ${id}`) : '—');
  const summary: APIEmbed = {
    color: NEUTRAL_COLOUR,
    title: `${m.game_mode_name ?? 'Match'}`,
    // Inside inline code Discord shows backslashes literally: strip backticks instead of escaping.
    description: `Match \`${m.match_uid.replace(/`/g, '').slice(0, 120)}\`${m.replay_id ? ` · replay ${escapeText(m.replay_id, 40)}` : ''}`,
    fields: [
      { name: 'MVP', value: mvp ? `${escapeText(mvp.nick_name ?? mvp.player_uid, 200)} (${heroOf(m.mvp_hero_id)})` : '—', inline: true },
      { name: 'SVP', value: svp ? `${escapeText(svp.nick_name ?? svp.player_uid, 200)} (${heroOf(m.svp_hero_id)})` : '—', inline: true },
      { name: 'Players', value: String(m.players.length), inline: true },
    ],
    footer: staleFooter(fetched),
  };
  const camps = [...new Set(m.players.map((p) => p.camp ?? -1))].sort((a, b) => a - b);
  const teams = camps.map((camp, i): APIEmbed => {
    const players = m.players.filter((p) => (p.camp ?? -1) === camp);
    const won = players.some((p) => p.is_win === true);
    const lost = players.every((p) => p.is_win === false);
    const label = camp === -1 ? 'Unassigned' : `Team ${String.fromCharCode(65 + i)}`;
    return {
      color: won ? WIN_COLOUR : lost ? LOSS_COLOUR : NEUTRAL_COLOUR,
      title: `${label}${won ? ' · Victory' : lost ? ' · Defeat' : ''}`,
      fields: players.slice(0, LIMITS.fields).map((p) => playerField(p, m, names)),
    };
  });
  return { embeds: [summary, ...teams] };
}

export const match: CommandModule = {
  definition,
  async execute(input, ctx) {
    return matchView(String(input.options.match ?? '').trim(), ctx);
  },
};
