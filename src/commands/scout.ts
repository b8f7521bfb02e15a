/**
 * `/scout [match]`: every player of a finished match, from their public profiles: rank and score, top heroes, their record
 * on the hero they played, and a flag for a player who plays one hero most of the time. Post-match only: it reads the
 * match the API has recorded, never a match in progress (NetEase treats in-game stat overlays as cheating).
 */
import { SlashCommandBuilder } from '@discordjs/builders';
import type { APIEmbed } from 'discord-api-types/v10';
import type { MatchDetail, PlayerProfile } from '../api/schemas.js';
import { recentMatches } from '../catalog/history.js';
import { heroDisplayName } from '../catalog/hero-directory.js';
import { loadNamedProfile } from '../catalog/players.js';
import { ApiError } from '../core/api-errors.js';
import { NotFoundError } from '../core/errors.js';
import type { CommandContext, CommandInput, CommandModule } from '../discord/command.js';
import { EVERYWHERE } from '../discord/command.js';
import { heroSummary, rankSummary, totalPlayTime, type HeroTotals } from '../game/profile.js';
import { rankScore } from '../game/ranks.js';
import { scoreboard, type ScoreTeam } from '../game/scoreboard.js';
import { describe } from '../i18n/commands.js';
import { integer, kdaRatio, percent } from '../i18n/format.js';
import { tr } from '../i18n/index.js';
import { escapeText, LIMITS, truncate } from '../render/limits.js';
import type { View } from '../render/view.js';

/** Most players a scout reads: a match has two teams of six, and a few more when someone was replaced. */
export const SCOUT_PLAYERS = 12;
/** The share of a player's play time on their most played hero from which they are flagged as playing one hero. */
export const ONE_TRICK_SHARE = 0.6;
const WIN_COLOUR = 0x3ba55d;
const LOSS_COLOUR = 0xed4245;
const NEUTRAL_COLOUR = 0x5865f2;

const definition = new SlashCommandBuilder()
  .setName('scout')
  .setDescription(describe('scout'))
  .setIntegrationTypes(...EVERYWHERE.integrationTypes)
  .setContexts(...EVERYWHERE.contexts)
  .addStringOption((o) => o.setName('match').setDescription(describe('scout.options.match')).setMinLength(3).setMaxLength(100))
  .toJSON();

/** What a player's profile read gave: the profile, a private one, none at the API, none now, or no read (past the cap). */
type Read = { kind: 'profile'; profile: PlayerProfile } | { kind: 'private' } | { kind: 'missing' } | { kind: 'unavailable' } | { kind: 'skipped' };

/** One player's profile, read behind members' own lookups (`background`); never throws. */
async function readPlayer(uid: string, ctx: CommandContext): Promise<Read> {
  try {
    const profile = (await ctx.api.player(uid, {}, { priority: 'background' })).data;
    return profile.is_private ? { kind: 'private' } : { kind: 'profile', profile };
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not_found') return { kind: 'missing' };
    ctx.logger.info({ err, uid }, 'scout: a player of the match could not be read');
    return { kind: 'unavailable' };
  }
}

/** The hero of `heroes` with `id`, or null. */
const heroOf = (heroes: HeroTotals[], id: string | null) => (id ? (heroes.find((h) => h.hero_id === id) ?? null) : null);

/** "Grandmaster III 4,562 · top Magik, Human Torch, Cloak & Dagger · on Magik: 6 matches, 66.7 %, KDA 2.64 · plays Magik 72 %". */
function playerLine(name: string, heroId: string | null, read: Read, heroName: (id: string | null) => string): string {
  const head = `**${escapeText(name, 40)}** · ${escapeText(heroName(heroId), 40)}`;
  if (read.kind === 'skipped') return `${head} · *${tr('match:scout.skipped', { max: integer(SCOUT_PLAYERS) })}*`;
  if (read.kind !== 'profile') return `${head} · *${tr(`match:scout.${read.kind}`)}*`;
  const p = read.profile;
  const rank = rankSummary(p);
  const heroes = heroSummary(p).heroes;
  const parts = [head, rank.tier ? `${rank.tier} ${rankScore(rank.score)}` : tr('match:scout.unranked')];
  const top = heroes.slice(0, 3).map((h) => escapeText(heroName(h.hero_id) || h.hero_name || '?', 30));
  if (top.length > 0) parts.push(tr('match:scout.top', { heroes: top.join(', ') }));
  const played = heroOf(heroes, heroId);
  parts.push(
    played && played.matches > 0
      ? tr('match:scout.onHero', {
          count: played.matches,
          n: integer(played.matches),
          winRate: percent((played.wins / played.matches) * 100),
          kda: kdaRatio(played.kills, played.deaths, played.assists),
        })
      : tr('match:scout.newOnHero'),
  );
  // A one-trick: most of the player's time on one hero (the share of the profile's total play time).
  const total = totalPlayTime(p);
  const main = heroes[0];
  if (main && total > 0 && main.play_time / total >= ONE_TRICK_SHARE)
    parts.push(
      `**${tr('match:scout.oneTrick', { hero: escapeText(heroName(main.hero_id) || main.hero_name || '?', 30), share: percent((main.play_time / total) * 100) })}**`,
    );
  return parts.join(' · ');
}

/** The match a member means: the one typed, else the newest of their linked account's. @throws what {@link loadNamedProfile} throws. */
async function matchOf(input: CommandInput, ctx: CommandContext): Promise<{ uid: string; typed: boolean } | { none: string }> {
  const typed = typeof input.options.match === 'string' ? input.options.match.trim() : '';
  if (typed) return { uid: typed, typed: true };
  const { fetched } = await loadNamedProfile('', input.user.userId, null, input.user.userId, ctx);
  const history = await recentMatches(ctx.api, fetched.data, { page: 1, logger: ctx.logger });
  const newest = [...history.rows].sort((a, b) => (b.time ?? 0) - (a.time ?? 0))[0];
  return newest ? { uid: newest.match_uid, typed: false } : { none: fetched.data.name };
}

function teamEmbed(team: ScoreTeam, i: number, lines: string[]): APIEmbed {
  const label = team.camp === null ? tr('match:team.unassigned') : tr('match:team.named', { letter: String.fromCharCode(65 + i) });
  const result = team.won === true ? ` · ${tr('match:team.victory')}` : team.won === false ? ` · ${tr('match:team.defeat')}` : '';
  return {
    color: team.won === true ? WIN_COLOUR : team.won === false ? LOSS_COLOUR : NEUTRAL_COLOUR,
    title: `${label}${result}`,
    description: truncate(lines.join('\n'), LIMITS.description),
  };
}

/**
 * The scout of match `uid` (`typed` by the member, else their latest): a header saying it is post-match only, then one
 * embed a team, a line a player.
 * @throws {NotFoundError} when the API has no such latest match; {@link ApiError} when it has no typed one or cannot answer.
 */
export async function scoutView(uid: string, ctx: CommandContext, typed = true): Promise<View> {
  let m: MatchDetail;
  try {
    m = (await ctx.api.match(uid)).data;
  } catch (err) {
    // The member's own latest match missing is named as such, not blamed on typing.
    if (!typed && err instanceof ApiError && err.kind === 'not_found') throw new NotFoundError('match', uid, true);
    throw err;
  }
  const heroes = await ctx.heroes.list().catch(() => []);
  const names = new Map(heroes.map((h) => [h.id, heroDisplayName(h)]));
  const heroName = (id: string | null) => (id ? (names.get(id) ?? tr('match:heroId', { id })) : tr('match:noHero'));
  const teams = scoreboard(m, null);
  const seen = new Set<string>();
  const players = teams.flatMap((t) => t.lines).filter((l) => !seen.has(l.player.player_uid) && seen.add(l.player.player_uid));
  // Every profile at once: the rate limiter spaces them, members' own lookups first. Who played longest first, if some must wait.
  const scouted = [...players].sort((a, b) => Number(a.status !== 'played') - Number(b.status !== 'played')).slice(0, SCOUT_PLAYERS);
  const reads = new Map<string, Read>(await Promise.all(scouted.map(async (l) => [l.player.player_uid, await readPlayer(l.player.player_uid, ctx)] as const)));
  const read = [...reads.values()].filter((r) => r.kind === 'profile' || r.kind === 'private').length;
  const header: APIEmbed = {
    color: NEUTRAL_COLOUR,
    title: tr('match:scout.title'),
    description: [tr('match:scout.postMatch'), tr('match:summary.matchId', { uid: m.match_uid.replace(/`/g, '').slice(0, 120) })].join('\n'),
    footer: { text: tr('match:scout.footer', { read: integer(read), total: integer(players.length) }) },
  };
  const embeds = teams.slice(0, LIMITS.embeds - 1).map((team, i) =>
    teamEmbed(
      team,
      i,
      team.lines.flatMap((l) => {
        const r = reads.get(l.player.player_uid) ?? { kind: 'skipped' as const };
        return [playerLine(l.player.nick_name ?? l.player.player_uid, l.mainHeroId, r, heroName)];
      }),
    ),
  );
  return { embeds: [header, ...embeds] };
}

export const scout: CommandModule = {
  definition,
  async execute(input, ctx) {
    const which = await matchOf(input, ctx);
    if ('none' in which) return { embeds: [{ color: NEUTRAL_COLOUR, description: tr('match:last.none', { player: escapeText(which.none, 60) }) }] };
    return scoutView(which.uid, ctx, which.typed);
  },
};
