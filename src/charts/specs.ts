/**
 * Chart specs: plain structured-cloneable data, as they cross to the worker thread. Schemas are strict: an
 * unknown key is our mistake, not API drift. `title` and names come localised; the worker writes the rest in `locale`.
 */
import * as z from 'zod';
import { LOCALES, type Locale } from '../i18n/locales.js';

/** A larger value is almost surely milliseconds. */
const MAX_UNIX_SECONDS = 9_999_999_999;
/** Keep one chart's work small: a worker renders one chart at a time. `points` is per series. */
export const SPEC_LIMITS = {
  titleLength: 200,
  nameLength: 100,
  seasons: 30,
  points: 2_000,
  heroes: 200,
  scatterHeroes: 100,
} as const;

export const HERO_PERFORMANCE_TOP = 10;
/** Points of a meta scatter named, most picked first. */
export const SCATTER_LABELS = 45;

/** `time` in Unix seconds; `score` unrounded. */
export interface RankPoint {
  time: number;
  score: number;
}

/** One line per season, in any order, over tier bands; `current` marks the last point of the latest. */
export interface RankHistoryChart {
  kind: 'rank-history';
  /** Of the words the chart adds; English when absent. */
  locale?: Locale;
  title: string;
  seasons: {
    name: string;
    points: RankPoint[];
  }[];
  current?: {
    /** The game's English name ("Gold II"), drawn as the game names it in `locale`. */
    tier: string;
    score: number;
  };
}

/** `winRate` 0..1; a role other than the three is drawn grey as "Other". */
export interface HeroPerformance {
  name: string;
  role: string | null;
  playTimeSeconds: number;
  winRate: number | null;
  kda: number | null;
}

/** Top heroes' play time as bars; `heroes` in any order. */
export interface HeroPerformanceChart {
  kind: 'hero-performance';
  locale?: Locale;
  title: string;
  heroes: HeroPerformance[];
}

/** Both rates 0..1. */
export interface MetaHero {
  name: string;
  role: string | null;
  winRate: number;
  pickShare: number;
}

/** Win rate (y) against pick share (x). */
export interface MetaScatterChart {
  kind: 'meta-scatter';
  locale?: Locale;
  title: string;
  heroes: MetaHero[];
}

/** Exactly two players. */
export interface CompareRankChart {
  kind: 'compare-rank';
  locale?: Locale;
  title: string;
  players: { name: string; points: RankPoint[] }[];
}

/** Most members a ladder chart draws. */
export const LADDER_CHART_PLAYERS = 5;

/** The top members of a server's ladder over the season: one line each, 1 to {@link LADDER_CHART_PLAYERS}, in ladder order. */
export interface LadderRankChart {
  kind: 'ladder-rank';
  locale?: Locale;
  title: string;
  players: { name: string; points: RankPoint[] }[];
}

/** Most heroes a profile card shows; most results in its form row. */
export const CARD_HEROES = 3;
export const CARD_FORM = 20;

/**
 * A player's profile as an image card. Every text comes formatted in the member's locale; image fields are absolute URLs,
 * their bytes put in `images` by the runtime (src/discord/chart-attachments.ts `withCardImages`). A URL without bytes is drawn as a placeholder.
 */
export interface ProfileCard {
  kind: 'profile-card';
  locale?: Locale;
  /** The player's name (and club tag). */
  title: string;
  /** "Level 43 · Playstation": free text, cut first when the header is short of room. */
  subtitle: string;
  /** The season the tiles and heroes count, after the subtitle and never cut: "Season 3 (current)". */
  season: string;
  icon: string | null;
  /**
   * `tier`: the game's English name ("Gold II"), drawn as the game names it in `locale`; other text ("Unranked") in the locale.
   * `season`: the rank's season ("Season 1") when it is not the card's {@link ProfileCard.season}, else null.
   */
  rank: { tier: string; score: string; peak: string | null; season: string | null; icon: string | null };
  /** Up to 4 tiles, such as ranked record, win rate, KDA, MVP. */
  tiles: { label: string; value: string }[];
  /** `lines`: one or two short lines of record under the name. */
  heroes: { name: string; role: string | null; lines: string[]; image: string | null }[];
  /** Seconds by role. */
  /** `label`: the role's name and its share of the play time, as the card shows the largest ("Strategist 77 %"). */
  roles: { role: string; label: string; seconds: number }[];
  /** Newest first. */
  form: ('win' | 'loss' | 'draw')[];
  /** `record`: the wins, losses and draws of `form`, as the member's language writes them ("8 W · 6 L", "8勝6敗"). */
  labels: { heroes: string; roles: string; form: string; record: string };
  /** Image bytes by URL; added by the runtime, never by a renderer. */
  images?: Record<string, Uint8Array>;
}

/**
 * Most teams, and rows a team, a match card draws: a match has two teams of six, and each player who left and their
 * replacement take a row each (a real team has had eight). Twice a team's six leaves room for any match seen.
 */
export const MATCH_CARD_TEAMS = 2;
export const MATCH_CARD_PLAYERS = 12;

/**
 * A finished match's scoreboard as an image card: both teams side by side. Texts come formatted in the member's locale;
 * `image` (the map) and each player's `image` (their main hero) are absolute URLs, their bytes put in `images` by the runtime.
 */
export interface MatchCard {
  kind: 'match-card';
  locale?: Locale;
  /** The mode ("Competitive · Domination"). */
  title: string;
  /** "Hydra Charteris Base · 12m 30s". */
  subtitle: string;
  /** What each row's figures are, once for the card, in the locale: "K/D/A · damage · healing". */
  columns: string;
  /** The map's image, drawn dimmed behind the header. */
  image: string | null;
  teams: {
    /** "Team A · Victory · rounds 2–0". */
    title: string;
    won: boolean | null;
    players: {
      name: string;
      /** The main hero's name, and its role for the colour. */
      hero: string;
      role: string | null;
      image: string | null;
      /** "11/5/13". */
      kda: string;
      /** Damage, then healing when there was some, numbers only ({@link MatchCard.columns} names them): "12,286 · 8,532". */
      figures: string;
      /** "MVP" or "SVP", in the locale. */
      badge: string | null;
      /** Left early or picked no hero: drawn dimmed (a replacement played to the end, and is not). */
      dimmed: boolean;
    }[];
  }[];
  /** Image bytes by URL; added by the runtime, never by a renderer. */
  images?: Record<string, Uint8Array>;
}

/** Most rows a ladder card draws. */
export const LADDER_CARD_ROWS = 10;

/** The top of a server's ladder as an image card: one row a member, in ladder order. Texts come formatted in the member's locale. */
export interface LadderCard {
  kind: 'ladder-card';
  locale?: Locale;
  title: string;
  /** "PC · 14 members". */
  subtitle: string;
  /** What the last column is, over it: "this week". */
  weekLabel: string;
  rows: {
    /** "1". */
    position: string;
    name: string;
    /** The tier's English name ("Gold II"), coloured by its band and drawn as the game names it in `locale`; "Unranked" (in the locale) in grey. */
    tier: string;
    /** "4,562". */
    score: string;
    /** "▲ +32.5"; empty for no week recorded. */
    week: string;
    /** The week's direction: up, down, or none. */
    trend: 'up' | 'down' | 'none';
    /** The member asking: highlighted. */
    you: boolean;
  }[];
}

/** Most rows, columns and tiles a table card draws. */
export const TABLE_CARD_ROWS = 10;
export const TABLE_CARD_COLUMNS = 4;
export const TABLE_CARD_TILES = 4;

/** How a table card colours a text: a win, a loss, the usual, or set back. */
export type CardTone = 'win' | 'loss' | 'plain' | 'muted';

/**
 * A list as an image card (`/ladder duos`, `/session`): a title and a subtitle, up to {@link TABLE_CARD_TILES} figures over
 * the table, then the table. The first column is names, and takes the room the other columns (figures, right-aligned)
 * leave; `columns` are the captions, one for each cell of a row. Texts come formatted in the member's locale.
 */
export interface TableCard {
  kind: 'table-card';
  locale?: Locale;
  title: string;
  subtitle: string;
  /** "Matches" over "7". */
  tiles: { label: string; value: string; tone: CardTone }[];
  columns: string[];
  rows: {
    cells: { text: string; tone: CardTone }[];
    /** The member asking (or their row): highlighted. */
    you: boolean;
  }[];
}

/** The image cards: drawn from a spec with image URLs, their text kept beside them (src/render/view.ts `CardText`). */
export type CardSpec = ProfileCard | MatchCard | LadderCard | TableCard;
export const isCard = (spec: ChartSpec): spec is CardSpec =>
  spec.kind === 'profile-card' || spec.kind === 'match-card' || spec.kind === 'ladder-card' || spec.kind === 'table-card';
/** The cards that draw images from URLs, their bytes put in `images` by the runtime. */
export const hasCardImages = (spec: ChartSpec): spec is ProfileCard | MatchCard => spec.kind === 'profile-card' || spec.kind === 'match-card';
/** Every image URL a card draws, once each. */
export function cardImageUrls(spec: ProfileCard | MatchCard): string[] {
  const urls =
    spec.kind === 'profile-card'
      ? [spec.icon, spec.rank.icon, ...spec.heroes.map((h) => h.image)]
      : [spec.image, ...spec.teams.flatMap((t) => t.players.map((p) => p.image))];
  return [...new Set(urls.filter((u): u is string => !!u))];
}

export type ChartSpec =
  RankHistoryChart | HeroPerformanceChart | MetaScatterChart | CompareRankChart | LadderRankChart | ProfileCard | MatchCard | LadderCard | TableCard;
export type ChartKind = ChartSpec['kind'];

/** `message` lists each problem with its path. */
export class ChartSpecError extends Error {
  override name = 'ChartSpecError';
  constructor(
    message: string,
    readonly issues: readonly { path: readonly PropertyKey[]; message: string }[],
  ) {
    super(message);
  }
}

const title = z.string().max(SPEC_LIMITS.titleLength);
const locale = z.enum(LOCALES).optional();
const name = z.string().min(1).max(SPEC_LIMITS.nameLength);
const unixSeconds = z
  .number()
  .min(0)
  .max(MAX_UNIX_SECONDS, { error: `must be Unix seconds (at most ${MAX_UNIX_SECONDS}); milliseconds?` });
const score = z.number().min(0);
const fraction = z.number().min(0).max(1);
const role = z.string().max(SPEC_LIMITS.nameLength).nullable();
const points = z.array(z.strictObject({ time: unixSeconds, score })).max(SPEC_LIMITS.points);

const rankHistory = z.strictObject({
  kind: z.literal('rank-history'),
  locale,
  title,
  seasons: z.array(z.strictObject({ name, points })).max(SPEC_LIMITS.seasons),
  current: z.strictObject({ tier: z.string().max(SPEC_LIMITS.nameLength), score }).optional(),
}) satisfies z.ZodType<RankHistoryChart>;

const heroPerformance = z.strictObject({
  kind: z.literal('hero-performance'),
  locale,
  title,
  heroes: z
    .array(
      z.strictObject({
        name,
        role,
        playTimeSeconds: z.number().min(0),
        winRate: fraction.nullable(),
        kda: z.number().min(0).nullable(),
      }),
    )
    .max(SPEC_LIMITS.heroes),
}) satisfies z.ZodType<HeroPerformanceChart>;

const metaScatter = z.strictObject({
  kind: z.literal('meta-scatter'),
  locale,
  title,
  heroes: z.array(z.strictObject({ name, role, winRate: fraction, pickShare: fraction })).max(SPEC_LIMITS.scatterHeroes),
}) satisfies z.ZodType<MetaScatterChart>;

const compareRank = z.strictObject({
  kind: z.literal('compare-rank'),
  locale,
  title,
  players: z.array(z.strictObject({ name, points })).length(2, { error: 'a comparison has exactly 2 players' }),
}) satisfies z.ZodType<CompareRankChart>;

const ladderRank = z.strictObject({
  kind: z.literal('ladder-rank'),
  locale,
  title,
  players: z.array(z.strictObject({ name, points })).min(1).max(LADDER_CHART_PLAYERS),
}) satisfies z.ZodType<LadderRankChart>;

const text = z.string().max(SPEC_LIMITS.titleLength);
const imageUrl = z.string().max(2_000).nullable();
const profileCard = z.strictObject({
  kind: z.literal('profile-card'),
  locale,
  title,
  subtitle: text,
  season: text,
  icon: imageUrl,
  rank: z.strictObject({ tier: text, score: text, peak: text.nullable(), season: text.nullable(), icon: imageUrl }),
  tiles: z.array(z.strictObject({ label: text, value: text })).max(4),
  heroes: z.array(z.strictObject({ name, role, lines: z.array(text).max(2), image: imageUrl })).max(CARD_HEROES),
  roles: z.array(z.strictObject({ role: z.string().max(SPEC_LIMITS.nameLength), label: text, seconds: z.number().min(0) })).max(8),
  form: z.array(z.enum(['win', 'loss', 'draw'])).max(CARD_FORM),
  labels: z.strictObject({ heroes: text, roles: text, form: text, record: text }),
  images: z.record(z.string(), z.instanceof(Uint8Array)).optional(),
}) satisfies z.ZodType<ProfileCard>;

const matchCard = z.strictObject({
  kind: z.literal('match-card'),
  locale,
  title,
  subtitle: text,
  columns: text,
  image: imageUrl,
  teams: z
    .array(
      z.strictObject({
        title: text,
        won: z.boolean().nullable(),
        players: z
          .array(z.strictObject({ name, hero: text, role, image: imageUrl, kda: text, figures: text, badge: text.nullable(), dimmed: z.boolean() }))
          .max(MATCH_CARD_PLAYERS),
      }),
    )
    .max(MATCH_CARD_TEAMS),
  images: z.record(z.string(), z.instanceof(Uint8Array)).optional(),
}) satisfies z.ZodType<MatchCard>;

const ladderCard = z.strictObject({
  kind: z.literal('ladder-card'),
  locale,
  title,
  subtitle: text,
  weekLabel: text,
  rows: z
    .array(
      z.strictObject({
        position: text,
        name,
        tier: text,
        score: text,
        week: text,
        trend: z.enum(['up', 'down', 'none']),
        you: z.boolean(),
      }),
    )
    .max(LADDER_CARD_ROWS),
}) satisfies z.ZodType<LadderCard>;

const tone = z.enum(['win', 'loss', 'plain', 'muted']);
const tableCard = z
  .strictObject({
    kind: z.literal('table-card'),
    locale,
    title,
    subtitle: text,
    tiles: z.array(z.strictObject({ label: text, value: text, tone })).max(TABLE_CARD_TILES),
    columns: z.array(text).min(1).max(TABLE_CARD_COLUMNS),
    rows: z.array(z.strictObject({ cells: z.array(z.strictObject({ text, tone })), you: z.boolean() })).max(TABLE_CARD_ROWS),
  })
  .refine((card) => card.rows.every((row) => row.cells.length === card.columns.length), {
    error: 'every row has one cell a column',
    path: ['rows'],
  }) satisfies z.ZodType<TableCard>;

const chartSpec = z.discriminatedUnion('kind', [
  rankHistory,
  heroPerformance,
  metaScatter,
  compareRank,
  ladderRank,
  profileCard,
  matchCard,
  ladderCard,
  tableCard,
]);

/**
 * @returns a copy holding only the spec's own fields.
 * @throws {ChartSpecError} naming the kind and every problem with its path.
 */
export function parseChartSpec(input: unknown): ChartSpec {
  const result = chartSpec.safeParse(input);
  if (result.success) return result.data;
  const kind = typeof input === 'object' && input !== null && 'kind' in input ? JSON.stringify(input.kind) : 'missing';
  const issues = result.error.issues.map((i) => ({ path: i.path, message: i.message }));
  throw new ChartSpecError(`invalid chart spec (kind ${kind}): ${z.prettifyError(result.error).replaceAll('\n', ' ')}`, issues);
}
