/**
 * `/session [player] [user]`: the player's latest play session (src/game/sessions.ts: matches an hour or less apart) from the
 * matches the bot recorded of them and those their profile lists now (api-spec.md endpoint 16): matches, W–L, rank change
 * with the tiers crossed, heroes, the best match; beside it the previous session and the season's average session, and the
 * matches the next division takes at the recent pace. Buttons page back through earlier sessions.
 * @throws {NotLinkedError} with nothing typed and no linked account; {@link NotFoundError} for no such player.
 */
import type { APIEmbed } from 'discord-api-types/v10';
import type { CommandContext, CommandInput, CommandModule } from '../src/discord/command.js';
import { slashCommand } from '../src/discord/command.js';
import { loadNamedProfile, playerChoices } from '../src/catalog/players.js';
import { rankSummary } from '../src/game/profile.js';
import { rankScore, rankScoreChange, scoreChangeArrow } from '../src/game/ranks.js';
import { seasonFromIndex } from '../src/game/seasons.js';
import { nextDivision, seasonAverage, sessionsOf, type Session } from '../src/game/sessions.js';
import { readForTracking, type RecordedMatch } from '../src/game/tracking.js';
import { describe } from '../src/i18n/commands.js';
import { decimal, duration, integer, ratioPercent, shortDate, winLoss } from '../src/i18n/format.js';
import { currentLocale, tr } from '../src/i18n/index.js';
import { tierName } from '../src/i18n/names.js';
import { seasonLabel } from '../src/render/common.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { clampPage, pageFromArgs, pageRow } from '../src/render/paginate.js';
import { playerAuthor } from '../src/render/scoreboard.js';
import type { View } from '../src/render/view.js';
import { chartOf, withChart } from '../src/render/view-charts.js';
import type { CardTone, TableCard } from '../src/charts/specs.js';

/** The part of a command's context /session uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api' | 'heroes' | 'links' | 'logger' | 'now' | 'recent' | 'tracking'>;

const COLOUR = 0x22c55e;
/** Heroes named in a session's line: the most played. */
const HEROES_SHOWN = 4;

/** Discord's own timestamp: shown in each member's time zone and language. */
const when = (unixSeconds: number, style: 'f' | 't' | 'R') => `<t:${Math.floor(unixSeconds)}:${style}>`;

/** "Gold I 3,650 → Platinum III 3,905 (▲ 255)"; null without ranked matches with a score. */
function rankLine(s: Session): string | null {
  if (s.scoreBefore === null || s.scoreAfter === null) return null;
  const change = s.scoreAfter - s.scoreBefore;
  return tr('session:rank', {
    before: `${tierName(s.tierBefore) ?? ''} ${rankScore(s.scoreBefore)}`.trim(),
    after: `${tierName(s.tierAfter) ?? ''} ${rankScore(s.scoreAfter)}`.trim(),
    change: `${scoreChangeArrow(change)} ${rankScoreChange(change)}`,
  });
}

function summaryLine(s: Session): string {
  return tr('session:summary', {
    count: s.matches.length,
    n: integer(s.matches.length),
    record: winLoss(s),
    rate: ratioPercent(s.matches.length > 0 ? s.wins / s.matches.length : null),
  });
}

/**
 * Session `page` (1 the latest) of the player `uid`'s sessions, from `matches`; `score` their rank score now, for the next
 * division. A player with no match gets a note.
 */
function sessionView(
  name: string,
  author: APIEmbed['author'],
  uid: string,
  matches: RecordedMatch[],
  score: number | null,
  page: number,
  heroes: Map<string, string>,
): View {
  const sessions = sessionsOf(matches);
  if (sessions.length === 0) return { embeds: [{ color: COLOUR, author, description: tr('session:none', { player: escapeText(name, 60) }) }] };
  const at = clampPage(page, sessions.length);
  const s = sessions[at - 1]!;
  const heroName = (id: string | null) => (id === null ? tr('session:unknownHero') : (heroes.get(id) ?? id));
  const heroLine = s.heroes
    .slice(0, HEROES_SHOWN)
    .map((h) => tr('session:hero', { hero: heroName(h.heroId), n: integer(h.matches), record: `${integer(h.wins)}–${integer(h.losses)}` }))
    .join(' · ');
  const b = s.best;
  const best = tr(b.mvp ? 'session:bestMvp' : 'session:best', {
    hero: heroName(b.heroId),
    kda: `${integer(b.kills)}/${integer(b.deaths)}/${integer(b.assists)}`,
    result: tr(b.drawn ? 'session:draw' : b.won === true ? 'session:win' : b.won === false ? 'session:loss' : 'session:noResult'),
    when: when(b.time, 't'),
  });
  const rank = rankLine(s);
  const lines = [
    tr('session:span', { start: when(s.start, 'f'), end: when(s.end, 't'), ago: when(s.end, 'R') }),
    summaryLine(s),
    ...(rank ? [rank] : []),
    tr('session:heroes', { heroes: heroLine }),
    best,
  ];
  const fields: NonNullable<APIEmbed['fields']> = [];
  const previous = sessions[at];
  if (previous) {
    const prevRank = rankLine(previous);
    fields.push({
      name: tr('session:previous'),
      value: truncate([when(previous.start, 'f'), summaryLine(previous), ...(prevRank ? [prevRank] : [])].join('\n'), LIMITS.fieldValue),
      inline: true,
    });
  }
  const average = seasonAverage(sessions, s.season);
  if (average && average.sessions > 1) {
    const season = s.season === null ? null : seasonFromIndex(s.season);
    fields.push({
      name: tr('session:average', { season: season ? seasonLabel(season) : '—' }),
      value: truncate(
        [
          tr('session:averageMatches', { count: average.sessions, n: integer(average.sessions), matches: decimal(average.matchesPerSession, 1) }),
          tr('session:averageRate', { rate: ratioPercent(average.winRate) }),
          ...(average.changePerSession !== null
            ? [tr('session:averageChange', { change: `${scoreChangeArrow(average.changePerSession)} ${rankScoreChange(average.changePerSession)}` })]
            : []),
        ].join('\n'),
        LIMITS.fieldValue,
      ),
      inline: true,
    });
  }
  // The next division from the score now, at the pace of the latest ranked matches: only beside the latest session.
  if (at === 1) {
    const latestSeason = matches.reduce<number | null>((max, m) => (m.season !== null && (max === null || m.season > max) ? m.season : max), null);
    const next = nextDivision(score, matches, latestSeason);
    const text =
      next.kind === 'climbs'
        ? tr('session:nextClimbs', {
            count: next.matches,
            points: rankScore(next.pointsToGo),
            n: integer(next.matches),
            rate: ratioPercent(next.winRate),
            win: rankScoreChange(next.gainPerWin),
            loss: rankScoreChange(-next.lossPerLoss),
            basis: integer(next.basis),
          })
        : next.kind === 'flat'
          ? tr('session:nextFlat', {
              points: rankScore(next.pointsToGo),
              rate: ratioPercent(next.winRate),
              win: rankScoreChange(next.gainPerWin),
              loss: rankScoreChange(-next.lossPerLoss),
              basis: integer(next.basis),
            })
          : next.kind === 'unknown' && next.pointsToGo !== null
            ? tr('session:nextUnknown', { points: rankScore(next.pointsToGo) })
            : null;
    if (text) fields.push({ name: tr('session:next'), value: truncate(text, LIMITS.fieldValue), inline: false });
  }
  const embed: APIEmbed = {
    color: COLOUR,
    author,
    title: tr(at === 1 ? 'session:titleLatest' : 'session:title', {
      n: integer(at),
      count: sessions.length,
      total: integer(sessions.length),
    }),
    description: truncate(lines.join('\n'), LIMITS.description),
    ...(fields.length > 0 ? { fields } : {}),
    footer: { text: tr('session:footer') },
  };
  const nav = pageRow('se.p', [uid], at, sessions.length);
  const view: View = { embeds: [embed], ...(nav ? { components: [nav] } : {}) };
  const card = chartOf(
    sessionCardSpec(`${embed.title!} · ${name}`, s, heroName),
    'session.png',
    tr('session:card.alt', { player: name, count: s.matches.length, n: integer(s.matches.length) }),
  );
  // The card shows the span, the figures and the matches; the embed keeps the hero line, the best match and its fields.
  if (!card) return view;
  const short = { ...embed, description: truncate([tr('session:heroes', { heroes: heroLine }), best].join('\n'), LIMITS.description) };
  return withChart({ ...view, embeds: [short] }, { ...card, text: { description: embed.description } });
}

/** A result as a word of its own on the card ("Win"), where the embed's sentence says "win". */
const RESULT_KEYS = {
  win: 'session:card.results.win',
  loss: 'session:card.results.loss',
  draw: 'session:card.results.draw',
  none: 'session:card.results.none',
} as const;
const resultOf = (m: RecordedMatch) => (m.drawn ? 'draw' : m.won === true ? 'win' : m.won === false ? 'loss' : 'none');

/** Matches a session card shows, the last: under its tiles, more rows would be too low for their text. */
const SESSION_CARD_ROWS = 8;

/** Session `s` as a card (src/charts/cards.ts table card): its figures as tiles, then its matches as played (the last eight). */
export function sessionCardSpec(title: string, s: Session, heroName: (id: string | null) => string): TableCard {
  const change = s.scoreBefore !== null && s.scoreAfter !== null ? s.scoreAfter - s.scoreBefore : null;
  const tone = (n: number | null): CardTone => (n === null || n === 0 ? 'plain' : n > 0 ? 'win' : 'loss');
  const tiers =
    s.tierBefore && s.tierAfter ? (s.tierBefore === s.tierAfter ? tierName(s.tierAfter) : `${tierName(s.tierBefore)} → ${tierName(s.tierAfter)}`) : null;
  const played = s.matches.length;
  return {
    kind: 'table-card',
    locale: currentLocale(),
    title: truncate(title, 200),
    // One match has no length: the day alone.
    subtitle: truncate(
      s.end > s.start ? tr('session:card.subtitle', { date: shortDate(s.start), length: duration(s.end - s.start) }) : shortDate(s.start),
      200,
    ),
    tiles: [
      { label: tr('session:card.matches'), value: integer(played), tone: 'plain' },
      {
        label: tr('session:card.record'),
        value: `${winLoss(s)} · ${ratioPercent(played > 0 ? s.wins / played : null)}`,
        tone: tone(s.wins - s.losses),
      },
      ...(change !== null ? [{ label: tr('session:card.score'), value: `${scoreChangeArrow(change)} ${rankScoreChange(change)}`, tone: tone(change) }] : []),
      ...(tiers ? [{ label: tr('session:card.tier'), value: truncate(tiers, 200), tone: 'plain' as const }] : []),
    ],
    columns: [tr('session:card.hero'), tr('session:card.result'), tr('session:card.kda'), tr('session:card.change')],
    rows: s.matches.slice(-SESSION_CARD_ROWS).map((m) => {
      const result = resultOf(m);
      const resultTone = result === 'win' ? 'win' : result === 'loss' ? 'loss' : 'muted';
      return {
        cells: [
          { text: truncate(heroName(m.heroId), 100), tone: 'plain' },
          { text: tr(RESULT_KEYS[result]), tone: resultTone },
          { text: `${integer(m.kills)} / ${integer(m.deaths)} / ${integer(m.assists)}`, tone: 'plain' },
          {
            text: m.scoreChange === null ? '—' : `${scoreChangeArrow(m.scoreChange)} ${rankScoreChange(m.scoreChange)}`,
            tone: m.scoreChange === null ? 'muted' : tone(m.scoreChange),
          },
        ],
        you: false,
      };
    }),
  };
}

/** What the bot recorded of `uid` and what its profile lists now, each match once (the recorded row first: it may carry more). */
async function matchesOf(uid: string, profileMatches: readonly RecordedMatch[], ctx: Ctx): Promise<RecordedMatch[]> {
  const recorded = ctx.tracking ? (await ctx.tracking.timeline(uid)).matches : [];
  const byUid = new Map(profileMatches.map((m) => [m.matchUid, m]));
  for (const m of recorded) byUid.set(m.matchUid, m);
  return [...byUid.values()];
}

async function sessionFor(query: string, whose: string, page: number, input: Pick<CommandInput, 'user'>, ctx: Ctx): Promise<View> {
  const { fetched } = await loadNamedProfile(query, whose, null, input.user.userId, ctx, 'session');
  const p = fetched.data;
  const read = readForTracking(p);
  const uid = String(p.uid);
  const [matches, heroes] = await Promise.all([matchesOf(uid, read.kind === 'read' ? read.matches : [], ctx), ctx.heroes.displayNames()]);
  return sessionView(p.name, playerAuthor(p), uid, matches, rankSummary(p).score, page, heroes);
}

export const session: CommandModule = {
  draws: true,
  apiOptions: { player: 'player' },
  definition: slashCommand('session')
    .addStringOption((o) => o.setName('player').setDescription(describe('session.options.player')).setMaxLength(100).setAutocomplete(true))
    .addUserOption((o) => o.setName('user').setDescription(describe('session.options.user')))
    .toJSON(),
  async execute(input, ctx: Ctx) {
    const typed = typeof input.options.player === 'string' ? input.options.player : '';
    return sessionFor(typed, String(input.options.user ?? input.user.userId), 1, input, ctx);
  },
  components: {
    /** Earlier and later sessions: `se.p:<uid>:<page>:<kind>`, page 1 the latest. */
    'se.p': async (input, ctx: Ctx) => sessionFor(String(input.args[0] ?? ''), input.user.userId, pageFromArgs(input.args), input, ctx),
  },
  async autocomplete(input, ctx: Ctx) {
    return playerChoices(input.user.userId, input.focused.value, ctx);
  },
};
