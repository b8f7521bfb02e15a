/**
 * `/scout [match]`: every player of a finished match, from their public profiles: rank and score, top heroes, their record
 * on the hero they played, and a flag for a player who plays one hero most of the time. Post-match only: it reads the
 * match the API has recorded, never a match in progress (NetEase treats in-game stat overlays as cheating).
 */
import { randomBytes } from 'node:crypto';
import type { APIEmbed } from 'discord-api-types/v10';
import type { MatchDetail } from '../src/api/schemas.js';
import { ApiError } from '../src/core/api-errors.js';
import { runWithDeadline, settleWithin } from '../src/core/deadline.js';
import { NotFoundError } from '../src/core/errors.js';
import type { CommandContext, CommandInput, CommandModule, ComponentInput } from '../src/discord/command.js';
import { slashCommand } from '../src/discord/command.js';
import { scoreboard } from '../src/game/scoreboard.js';
import { isMatchUid } from '../src/game/match-uid.js';
import { describe } from '../src/i18n/commands.js';
import { integer } from '../src/i18n/format.js';
import { tr } from '../src/i18n/index.js';
import { matchChoices } from '../src/catalog/choices.js';
import { heroNamer } from '../src/catalog/hero-directory.js';
import { newestRow } from '../src/catalog/match-answer.js';
import { readMatch } from '../src/catalog/match-read.js';
import { loadNamedProfile } from '../src/catalog/players.js';
import { wholeArg } from '../src/render/custom-id.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { NEUTRAL_COLOUR, teamEmbed, teamTitle, uniqueLines } from '../src/render/scoreboard.js';
import { playerLine, SCOUT_PLAYERS, SCOUT_TEAM_ARG, teamButtons, type Read } from '../src/render/scout.js';
import type { View } from '../src/render/view.js';

/** The part of a command's context /scout uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api' | 'budget' | 'heroes' | 'links' | 'logger' | 'matches' | 'now' | 'recent' | 'tracking'>;

/** A scout's first answer waits this long for profiles, ms: cached ones are in by then, and the answer comes within a second. */
export const SCOUT_FIRST_ANSWER_MS = 600;
/** While profiles arrive, a scout's answer is edited at most this often, ms (Discord rate limits a message's edits). */
export const SCOUT_EDIT_EVERY_MS = 1_500;
/** A scout's reads end this long after the interaction, ms: a profile the rate limit or the API holds longer is said unavailable. */
export const SCOUT_BUDGET_MS = 60_000;

/** One player's profile, read behind members' own lookups (`background`); never throws. */
async function readPlayer(uid: string, ctx: Ctx): Promise<Read> {
  try {
    const profile = (await ctx.api.player(uid, {}, { priority: 'background' })).data;
    return profile.is_private ? { kind: 'private' } : { kind: 'profile', profile };
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not_found') return { kind: 'missing' };
    ctx.logger.info({ err, uid }, 'scout: a player of the match could not be read');
    return { kind: 'unavailable' };
  }
}

/** The match a member means: the one typed, else the newest of their linked account's. @throws what {@link loadNamedProfile} throws. */
async function matchOf(input: CommandInput, ctx: Ctx): Promise<{ uid: string; typed: boolean; ownUid?: string } | { none: string }> {
  const typed = typeof input.options.match === 'string' ? input.options.match.trim() : '';
  if (typed) return { uid: typed, typed: true };
  const { fetched } = await loadNamedProfile('', input.user.userId, null, input.user.userId, ctx, 'scout');
  const newest = await newestRow(fetched.data, ctx);
  return newest ? { uid: newest.match_uid, typed: false, ownUid: String(fetched.data.uid) } : { none: fetched.data.name };
}

/** A scout still being read, or just read, in this process: whose it is, the team they picked, and its answer now. */
interface LiveScout {
  userId: string;
  team: number;
  teams: number;
  render(): View;
}

/**
 * Scouts by their own ID (in their buttons' custom IDs), kept until their reads end and a moment after: a team picked
 * while profiles arrive is kept by the edits that follow, which would otherwise put the first team back.
 */
const liveScouts = new Map<string, LiveScout>();
const LIVE_SCOUT_GRACE_MS = 10_000;

/** What a scout shows, besides its match. */
export interface ScoutOptions {
  /** Typed by the member (default), else their latest match: a missing one is then named as theirs. */
  typed?: boolean;
  /** The member asking: their scout is kept live for its team buttons ({@link liveScouts}). */
  userId?: string;
  /** The team shown (an index into the scoreboard's teams); default the first, or the opponents of `ownUid`. */
  team?: number;
  /** The member's own player UID, when known: their opponents are shown first. */
  ownUid?: string;
}

/**
 * The scout of match `uid`: a header saying it is post-match only, then one team's embed, a line a player, with a grey
 * button for each team (a phone shows one team without scrolling). Every player's profile is read at once; the first
 * answer comes with those read within {@link SCOUT_FIRST_ANSWER_MS}, newer versions ({@link View.next}) as the others arrive.
 * @throws {NotFoundError} when the API has no such latest match, or none of a well-formed id; {@link ApiError} when it has
 *   no typed one of another shape or cannot answer.
 */
export async function scoutView(uid: string, ctx: Ctx, options: ScoutOptions = {}): Promise<View> {
  let m: MatchDetail;
  try {
    m = (await readMatch(uid, ctx)).data;
  } catch (err) {
    // The member's own latest match missing, or a well-formed id the API keeps no scoreboard for, is named as such, not
    // blamed on typing.
    if ((options.typed === false || isMatchUid(uid, ctx.now())) && err instanceof ApiError && err.kind === 'not_found')
      throw new NotFoundError('match', uid, true);
    throw err;
  }
  const heroName = heroNamer(await ctx.heroes.list().catch(() => []));
  // Names the bot has seen, for everyone's suggestions.
  ctx.recent.remember(m.players.flatMap((p) => (p.nick_name ? [{ uid: p.player_uid, name: p.nick_name }] : [])));
  const teams = scoreboard(m, null).slice(0, 5);
  const players = uniqueLines(teams);
  // Every profile at once: the rate limiter spaces them, members' own lookups first. Who played longest first, if some must wait.
  const scouted = new Set(
    [...players]
      .sort((a, b) => Number(a.status !== 'played') - Number(b.status !== 'played'))
      .slice(0, SCOUT_PLAYERS)
      .map((l) => l.player.player_uid),
  );
  // The reads outlive the interaction's budget (the answer is edited as they come), within the scout's own.
  const readBy = (ctx.budget?.createdAt ?? Date.now()) + SCOUT_BUDGET_MS;
  const reads = new Map<string, Read>();
  const all = Promise.all([...scouted].map(async (uid) => reads.set(uid, await runWithDeadline(readBy, () => readPlayer(uid, ctx)))));
  const ownTeam = options.ownUid ? teams.findIndex((t) => t.lines.some((l) => l.player.player_uid === options.ownUid)) : -1;
  const requested = options.team ?? (ownTeam >= 0 && teams.length === 2 ? 1 - ownTeam : 0);
  const live: LiveScout = { userId: options.userId ?? '', team: teamIn(requested, teams.length), teams: teams.length, render: () => view() };
  const id = randomBytes(6).toString('base64url');
  const titles = teams.map((team, i) => teamTitle(team, i));
  const view = (): View => {
    const done = reads.size === scouted.size;
    const read = [...reads.values()].filter((r) => r.kind === 'profile' || r.kind === 'private').length;
    const footer = { read: integer(read), total: integer(players.length) };
    const header: APIEmbed = {
      color: NEUTRAL_COLOUR,
      title: tr('match:scout.title'),
      description: [tr('match:scout.postMatch'), tr('match:summary.matchId', { uid: m.match_uid.replace(/`/g, '').slice(0, 120) })].join('\n'),
      footer: { text: done ? tr('match:scout.footer', footer) : tr('match:scout.footerReading', footer) },
    };
    const buttons = teamButtons(m.match_uid, id, titles, live.team);
    // Without buttons (one team, or no custom ID for this match) every team is shown.
    const visible = buttons.length > 0 ? [live.team] : teams.map((_, i) => i);
    const embeds = visible.slice(0, LIMITS.embeds - 1).map((i) => {
      const team = teams[i]!;
      const lines = team.lines.map((l) => {
        const uid = l.player.player_uid;
        const state: Read = reads.get(uid) ?? (scouted.has(uid) ? { kind: 'reading' } : { kind: 'skipped' });
        return playerLine(l.player.nick_name ?? uid, l.mainHeroId, state, heroName);
      });
      return teamEmbed(team, titles[i]!, truncate(lines.join('\n'), LIMITS.description));
    });
    // Complete, it has one more version only if the member picked another team meanwhile: an edit drawn before the
    // press may have landed after it, and this one puts their team back.
    const team = live.team;
    const picked = async (): Promise<View | null> => (live.team === team ? null : view());
    return { embeds: [header, ...embeds], components: buttons, next: done ? picked : next };
  };
  let shown = 0;
  // The next version once more profiles are in: all of them, or those read within an edit's interval.
  const next = async (): Promise<View> => {
    do await settleWithin(all, SCOUT_EDIT_EVERY_MS, () => undefined);
    while (reads.size === shown);
    shown = reads.size;
    return view();
  };
  if (options.userId) {
    liveScouts.set(id, live);
    void all.then(() => {
      setTimeout(() => liveScouts.delete(id), LIVE_SCOUT_GRACE_MS).unref();
    });
  }
  await settleWithin(all, SCOUT_FIRST_ANSWER_MS, () => undefined);
  shown = reads.size;
  return view();
}

/** `team` as a team index of a scoreboard of `count` teams; the first for anything else. */
const teamIn = (team: number, count: number) => (Number.isInteger(team) && team >= 0 && team < count ? team : 0);

/**
 * A scout's team button (`sc.t:<match uid>:<team>:<scout id>`): the member's own scout still live in this process shows
 * the team from the profiles it has, and its next edits keep that team; otherwise (someone else's press, another process,
 * a scout read a while ago) the scout is made again, its profiles from the cache.
 */
async function scoutTeam(input: ComponentInput, ctx: Ctx): Promise<View> {
  const [uid = '', teamArg, id = ''] = input.args;
  const team = wholeArg(teamArg, SCOUT_TEAM_ARG);
  const live = liveScouts.get(id);
  if (live && live.userId === input.user.userId && (input.invokerId === undefined || input.invokerId === input.user.userId)) {
    live.team = teamIn(team, live.teams);
    const { next: _ongoing, ...now } = live.render();
    return now;
  }
  return scoutView(uid, ctx, { userId: input.user.userId, team });
}

export const scout: CommandModule = {
  draws: true,
  apiOptions: { match_uid: 'match' },
  definition: slashCommand('scout')
    .addStringOption((o) => o.setName('match').setDescription(describe('scout.options.match')).setMinLength(3).setMaxLength(100).setAutocomplete(true))
    .toJSON(),
  async execute(input, ctx: Ctx) {
    const which = await matchOf(input, ctx);
    if ('none' in which) return { embeds: [{ color: NEUTRAL_COLOUR, description: tr('match:last.none', { player: escapeText(which.none, 60) }) }] };
    return scoutView(which.uid, ctx, { typed: which.typed, userId: input.user.userId, ownUid: which.ownUid });
  },
  /** `match`: the member's recent matches, as for /match. */
  async autocomplete(input, ctx: Ctx) {
    return input.focused.name === 'match' ? matchChoices(input.focused.value, input.user.userId, ctx) : [];
  },
  components: {
    'sc.t': scoutTeam,
  },
};
