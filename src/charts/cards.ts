/**
 * Image cards, drawn straight on the canvas (no chart.js): a player's profile and a match's scoreboard at a glance, in
 * Discord's dark colours.
 * Every text is fitted to its box. Figures, tiers and hero names are set smaller, or their box takes room from a label,
 * and are never cut; only free text (a player's name, a subtitle, a column's caption) loses letters to an ellipsis. A
 * protected text cut all the same is reported ({@link OnCut}), so that a test can find it. An image without bytes, or
 * bytes that do not decode, is drawn as a placeholder, so a card never fails for an image.
 */
import { loadImage, type Image } from '@napi-rs/canvas';
import type { Ctx, Rect } from './canvas-kit.js';
import { fitText } from './header.js';
import type { CardTone, LadderCard, MatchCard, ProfileCard, TableCard } from './specs.js';
import { chartText } from './words.js';
import { TIER_BANDS } from './tiers.js';
import { COLORS, SIZE, font, roleColor, withAlpha } from './theme.js';

const PAD = 28;
const GAP = 12;
/** Pixels on the 800 px canvas; 22 px is 10 CSS px where a phone shows it 360 px wide. */
const TEXT = { name: 36, big: 30, body: 24, small: 22 } as const;
/** The smallest a protected text is set before it is cut (and reported): 6.75 CSS px on a phone, still legible for a figure. */
const FLOOR = 15;

/** A protected text (a figure, a tier, a hero's name) that did not fit at {@link FLOOR} and was cut: `field` names it in the spec. */
export interface CardCut {
  field: string;
  text: string;
  shown: string;
}

/** Told of every protected text a card cut; free text (a player's name, a subtitle) is cut without a word. */
export type OnCut = (cut: CardCut) => void;

/**
 * Where a card put one of its parts, canvas px: `field` names it in the spec (`teams[0].players[2].hero`); a `row` is a
 * match card's row as laid out, a `text` the box of the glyphs drawn, an `image` a portrait or a badge's pill.
 */
export interface CardBox {
  field: string;
  kind: 'row' | 'text' | 'image';
  box: Rect;
}

/** Told where each part of a card went, so that a test can find parts that run into each other. */
export type OnBox = (box: CardBox) => void;

/** What a card tells as it draws: every protected text it cut, and where it put each part. */
export interface CardReport {
  onCut?: OnCut;
  onBox?: OnBox;
}

/** The canvas and where cuts and boxes are told. */
interface Painter {
  ctx: Ctx;
  onCut: OnCut;
  onBox?: OnBox;
}

function painter(ctx: Ctx, report: CardReport): Painter {
  return { ctx, onCut: report.onCut ?? (() => {}), ...(report.onBox ? { onBox: report.onBox } : {}) };
}

/** The tier's colour from its English name ("Gold II" is gold), muted grey for none. */
function tierColor(tier: string): string {
  const lower = tier.toLowerCase();
  // One Above All shares Eternity's band (src/charts/tiers.ts).
  const band = TIER_BANDS.find((b) => lower.startsWith(b.tier.toLowerCase())) ?? (lower.startsWith('one above all') ? TIER_BANDS.at(-1) : undefined);
  return band?.color ?? COLORS.muted;
}

/** The decoded images of the card by URL; a URL whose bytes are missing or do not decode is absent. */
async function decodeAll(spec: ProfileCard | MatchCard): Promise<Map<string, Image>> {
  const out = new Map<string, Image>();
  await Promise.all(
    Object.entries(spec.images ?? {}).map(async ([url, bytes]) => {
      try {
        out.set(url, await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
      } catch {
        // A broken image is a placeholder, never a failed card.
      }
    }),
  );
  return out;
}

/** Pixels of `value` at `size`. */
function measure(ctx: Ctx, value: string, size: number, weight: 400 | 600 = 400): number {
  ctx.font = font(size, weight);
  return ctx.measureText(value).width as number;
}

/** The largest size from `size` down to `floor` at which `value` fits `maxWidth`; `floor` when none does. */
function fittingSize(ctx: Ctx, value: string, size: number, weight: 400 | 600, maxWidth: number, floor: number): number {
  for (let s = size; s > floor; s--) if (measure(ctx, value, s, weight) <= maxWidth) return s;
  return floor;
}

interface TextOptions {
  weight?: 400 | 600;
  maxWidth: number;
  align?: 'left' | 'right' | 'center';
  /** The smallest size before an ellipsis: {@link FLOOR} for a protected text, the size itself for free text unless told. */
  shrinkTo?: number;
  /** The spec's field this text is: a protected text (no `free`) cut all the same is told to {@link Painter.onCut} by it. */
  field: string;
  /** Free text, which may lose letters: a player's name, a subtitle, a caption. */
  free?: boolean;
  /** Drawn inside a part already told to {@link Painter.onBox} (a badge in its pill): not told again. */
  inside?: boolean;
}

/** Draws `value` fitted to `maxWidth` (set smaller first, then cut); returns the width drawn, px. */
function text(p: Painter, value: string, x: number, y: number, size: number, color: string, options: TextOptions): number {
  const { ctx } = p;
  const weight = options.weight ?? 400;
  const floor = Math.min(size, options.shrinkTo ?? (options.free ? size : FLOOR));
  const spec = font(fittingSize(ctx, value, size, weight, options.maxWidth, floor), weight);
  const shown = fitText(value, spec, Math.max(0, options.maxWidth));
  if (shown !== value && !options.free) p.onCut({ field: options.field, text: value, shown });
  ctx.font = spec;
  ctx.fillStyle = color;
  const align = options.align ?? 'left';
  ctx.textAlign = align;
  ctx.textBaseline = 'middle';
  ctx.fillText(shown, x, y);
  const m = ctx.measureText(shown);
  const w = m.width as number;
  if (p.onBox && !options.inside && shown !== '') {
    const left = align === 'left' ? x : align === 'right' ? x - w : x - w / 2;
    const top = y - (m.actualBoundingBoxAscent as number);
    p.onBox({ field: options.field, kind: 'text', box: { x: left, y: top, w, h: (m.actualBoundingBoxDescent as number) + y - top } });
  }
  return w;
}

/**
 * `value` as lines of at most `maxWidth` at `floor` px: one line when it fits, else broken after
 * its " · " separators (a label and its figure: "Play time by role · 166,071h 50m") into as few lines as fit. One line
 * too long for its box stays one, to be set at the floor by {@link text}.
 */
function wrapped(ctx: Ctx, value: string, weight: 400 | 600, maxWidth: number, floor: number): string[] {
  if (measure(ctx, value, floor, weight) <= maxWidth) return [value];
  const parts = value.split(/(?<= \u00b7 )/);
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.at(-1);
    if (last !== undefined && measure(ctx, `${last}${part}`.trimEnd(), floor, weight) <= maxWidth) lines[lines.length - 1] = `${last}${part}`;
    else lines.push(part);
  }
  return lines.map((l) => l.replace(/ \u00b7 $/, '')).filter((l, i, all) => l !== '' || all.length === 1);
}

/** Widths for boxes side by side in `room` px: equal when each fits, else each its `need` and the rest shared, else shares of `room` by `need`. */
function widths(need: number[], room: number): number[] {
  const equal = room / need.length;
  if (need.every((n) => n <= equal)) return need.map(() => equal);
  const total = need.reduce((s, n) => s + n, 0);
  if (total <= room) return need.map((n) => n + (room - total) / need.length);
  return need.map((n) => (n / total) * room);
}

/** `image` cropped to a rounded square; without it a tinted square with the name's first letter. */
function portrait(ctx: Ctx, image: Image | undefined, x: number, y: number, size: number, tint: string, name: string): void {
  ctx.save();
  ctx.beginPath();
  ctx.roundRect(x, y, size, size, size / 5);
  ctx.clip();
  if (image && image.width > 0 && image.height > 0) {
    const side = Math.min(image.width, image.height);
    ctx.drawImage(image, (image.width - side) / 2, 0, side, side, x, y, size, size);
  } else {
    ctx.fillStyle = withAlpha(tint, 0.35);
    ctx.fillRect(x, y, size, size);
    ctx.fillStyle = COLORS.heading;
    ctx.font = font(Math.round(size * 0.45), 600);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const first = new Intl.Segmenter().segment(name.trim())[Symbol.iterator]().next().value?.segment ?? '?';
    ctx.fillText(first.toUpperCase(), x + size / 2, y + size / 2 + 1);
  }
  ctx.restore();
}

/**
 * Draws `spec` on `ctx` at {@link SIZE}; async only to decode the images. `report.onCut` is told of any protected text cut.
 * The tier is the game's English name ("Gold II"), drawn as the game names it in the spec's locale (the current one).
 */
export async function drawProfileCard(ctx: Ctx, spec: ProfileCard, report: CardReport = {}): Promise<void> {
  const p = painter(ctx, report);
  const images = await decodeAll(spec);
  const image = (url: string | null) => (url ? images.get(url) : undefined);
  const { width, height } = SIZE;
  const accent = tierColor(spec.rank.tier);
  const tier = chartText.tier(spec.rank.tier);

  ctx.fillStyle = COLORS.background;
  ctx.fillRect(0, 0, width, height);
  const glow = ctx.createLinearGradient(0, 0, width, 0);
  glow.addColorStop(0, withAlpha(accent, 0.28));
  glow.addColorStop(1, withAlpha(accent, 0.04));
  ctx.fillStyle = glow;
  ctx.fillRect(0, 0, width, 120);
  ctx.fillStyle = accent;
  ctx.fillRect(0, 0, width, 4);

  // Header: icon, name and subtitle on the left; rank badge, tier, score and peak on the right.
  const iconSize = 76;
  portrait(ctx, image(spec.icon), PAD, 22, iconSize, accent, spec.title);
  const badge = 72;
  const badgeX = width - PAD - badge;
  const rankIcon = image(spec.rank.icon);
  if (rankIcon) ctx.drawImage(rankIcon, badgeX, 24, badge, badge);
  else {
    ctx.beginPath();
    ctx.arc(badgeX + badge / 2, 24 + badge / 2, badge / 2 - 4, 0, Math.PI * 2);
    ctx.fillStyle = withAlpha(accent, 0.35);
    ctx.fill();
    ctx.lineWidth = 4;
    ctx.strokeStyle = accent;
    ctx.stroke();
  }
  const rightEdge = badgeX - GAP;
  // Under the score, the rank's season when it is not the card's ("Season 1 · Peak 3,621"), then the season's peak.
  const below = [spec.rank.season, spec.rank.peak].filter((x): x is string => !!x).join(' \u00b7 ');
  // The rank block takes what its texts need, at most 300 px; the name and subtitle get the rest.
  const rankWidth = Math.min(
    300,
    Math.max(measure(ctx, tier, TEXT.big, 600), measure(ctx, spec.rank.score, TEXT.body, 600), below ? measure(ctx, below, TEXT.small) : 0),
  );
  text(p, tier, rightEdge, 40, TEXT.big, accent, { weight: 600, maxWidth: rankWidth, align: 'right', field: 'rank.tier' });
  text(p, spec.rank.score, rightEdge, 74, TEXT.body, COLORS.heading, { weight: 600, maxWidth: rankWidth, align: 'right', field: 'rank.score' });
  if (below)
    text(p, below, rightEdge, 102, TEXT.small, spec.rank.season ? COLORS.text : COLORS.muted, {
      maxWidth: rankWidth,
      align: 'right',
      field: spec.rank.season ? 'rank.season' : 'rank.peak',
    });
  const nameX = PAD + iconSize + 18;
  const nameWidth = rightEdge - rankWidth - GAP - nameX;
  text(p, spec.title, nameX, 48, TEXT.name, COLORS.heading, { weight: 600, maxWidth: nameWidth, free: true, field: 'title' });
  // The subtitle, then the season the tiles count: the season is never cut; the level and platform before it may be.
  const sep = ' \u00b7 ';
  const subSize = fittingSize(ctx, spec.subtitle ? `${spec.subtitle}${sep}${spec.season}` : spec.season, TEXT.small, 400, nameWidth, 17);
  const lead = spec.subtitle ? fitText(spec.subtitle, font(subSize), nameWidth - measure(ctx, `${sep}${spec.season}`, subSize)) : '';
  // Room for no letter of the subtitle: the season alone.
  const before = lead && lead !== '\u2026' ? `${lead}${sep}` : '';
  const beforeW = before ? text(p, before, nameX, 86, subSize, COLORS.text, { maxWidth: nameWidth, free: true, field: 'subtitle' }) : 0;
  text(p, spec.season, nameX + beforeW, 86, subSize, COLORS.text, { maxWidth: nameWidth - beforeW, field: 'season' });

  // Tiles: the season's record at a glance. A tile whose label names a tier ("To Grandmaster I") takes the room it needs.
  const tilesY = 128;
  const tileH = 64;
  if (spec.tiles.length > 0) {
    const need = spec.tiles.map((t) => Math.max(measure(ctx, t.label, TEXT.small), measure(ctx, t.value, TEXT.body, 600)) + 28);
    const tileWs = widths(need, width - 2 * PAD - (spec.tiles.length - 1) * GAP);
    let x = PAD;
    spec.tiles.forEach((tile, i) => {
      const tileW = tileWs[i]!;
      ctx.fillStyle = COLORS.labelBackground;
      ctx.beginPath();
      ctx.roundRect(x, tilesY, tileW, tileH, 10);
      ctx.fill();
      text(p, tile.label, x + 14, tilesY + 20, TEXT.small, COLORS.muted, { maxWidth: tileW - 28, field: `tiles[${i}].label` });
      text(p, tile.value, x + 14, tilesY + 46, TEXT.body, COLORS.heading, { weight: 600, maxWidth: tileW - 28, field: `tiles[${i}].value` });
      x += tileW + GAP;
    });
  }

  // Top heroes: the name across the tile in its role's colour strip, then the portrait and two lines of record.
  const heroesY = tilesY + tileH + 14;
  text(p, spec.labels.heroes, PAD, heroesY + 12, TEXT.small, COLORS.muted, { weight: 600, maxWidth: width - 2 * PAD, field: 'labels.heroes' });
  const heroTop = heroesY + 28;
  const heroH = 90;
  const cols = Math.max(1, spec.heroes.length);
  const heroW = (width - 2 * PAD - (cols - 1) * GAP) / cols;
  spec.heroes.forEach((hero, i) => {
    const x = PAD + i * (heroW + GAP);
    const color = roleColor(hero.role);
    ctx.fillStyle = COLORS.labelBackground;
    ctx.beginPath();
    ctx.roundRect(x, heroTop, heroW, heroH, 10);
    ctx.fill();
    ctx.fillStyle = color;
    ctx.fillRect(x, heroTop + 10, 4, heroH - 20);
    const size = 56;
    const px = x + 12;
    const tx = px + size + 10;
    const tw = heroW - (tx - x) - 8;
    // The name beside the portrait, set smaller if it must; a name that would still not fit there ("Jeff the Land
    // Shark") goes across the tile's top, over a smaller portrait.
    const beside = measure(ctx, hero.name, 17, 600) <= tw;
    if (beside) {
      portrait(ctx, image(hero.image), px, heroTop + (heroH - size) / 2, size, color, hero.name);
      text(p, hero.name, tx, heroTop + 22, TEXT.small, COLORS.heading, { weight: 600, maxWidth: tw, field: `heroes[${i}].name` });
      hero.lines.forEach((line, l) => text(p, line, tx, heroTop + 48 + l * 24, TEXT.small, COLORS.text, { maxWidth: tw, field: `heroes[${i}].lines[${l}]` }));
    } else {
      const small = 48;
      text(p, hero.name, px, heroTop + 18, TEXT.small, COLORS.heading, { weight: 600, maxWidth: heroW - 20, field: `heroes[${i}].name` });
      portrait(ctx, image(hero.image), px, heroTop + 34, small, color, hero.name);
      const lx = px + small + 10;
      hero.lines.forEach((line, l) =>
        text(p, line, lx, heroTop + 47 + l * 22, 20, COLORS.text, { maxWidth: heroW - (lx - x) - 8, field: `heroes[${i}].lines[${l}]` }),
      );
    }
  });

  // Bottom row: play time by role as one bar (left), recent form as marks (right). A heading too long for its half
  // ("Spielzeit nach Rolle · 166.071 Std. 50 Min.") breaks after its " · ", and both halves move down alike.
  const bottomY = heroTop + heroH + 18;
  const half = (width - 2 * PAD - 2 * GAP) / 2;
  const total = spec.roles.reduce((s, r) => s + r.seconds, 0);
  const lineH = 22;
  const roleLines = total > 0 ? wrapped(ctx, spec.labels.roles, 600, half, 18) : [];
  const formLines = spec.form.length > 0 ? wrapped(ctx, spec.labels.form, 600, half, 18) : [];
  const shift = (Math.max(1, roleLines.length, formLines.length) - 1) * lineH;
  const heading = (lines: string[], x: number, field: string) =>
    lines.forEach((line, l) => text(p, line, x, bottomY + 10 + l * lineH, TEXT.small, COLORS.muted, { weight: 600, maxWidth: half, field }));
  if (total > 0) {
    heading(roleLines, PAD, 'labels.roles');
    let x = PAD;
    const barY = bottomY + 28 + shift;
    const share = spec.roles.filter((r) => r.seconds > 0);
    for (const r of share) {
      const w = (r.seconds / total) * half;
      ctx.fillStyle = roleColor(r.role);
      ctx.fillRect(x, barY, Math.max(1, w - 2), 14);
      x += w;
    }
    const top = [...share].sort((a, b) => b.seconds - a.seconds)[0]!;
    // The label carries the share in the member's language's way of writing it ("77 %", "77%").
    text(p, top.label, PAD, barY + 36, TEXT.small, COLORS.text, { maxWidth: half, field: 'roles.label' });
  }
  if (spec.form.length > 0) {
    const formX = PAD + half + 2 * GAP;
    heading(formLines, formX, 'labels.form');
    const cell = Math.min(22, (half - (spec.form.length - 1) * 3) / spec.form.length);
    const marksY = bottomY + 26 + shift;
    // Newest on the left, as the embed's text lists them.
    spec.form.forEach((result, i) => {
      ctx.fillStyle = result === 'win' ? '#3ba55d' : result === 'loss' ? '#ed4245' : COLORS.muted;
      ctx.beginPath();
      ctx.roundRect(formX + i * (cell + 3), marksY, cell, cell, 4);
      ctx.fill();
    });
    text(p, spec.labels.record, formX, marksY + cell + 18, TEXT.small, COLORS.text, { maxWidth: half, field: 'labels.record' });
  }
}

const WIN = '#3ba55d';
/** A match card's damage and healing, px: a size below the names. */
const FIGURES = 20;
const LOSS = '#ed4245';
const GOLD = '#f0b232';

/** A match card's header band, where its teams start, a team's title, and the margin under the rows, px. */
const MATCH_HEADER = 78;
const MATCH_TOP = MATCH_HEADER + 10;
const TEAM_TITLE = 34;
const MATCH_BOTTOM = 8;
/**
 * A match card's row, px: {@link ROW} when the rows fit, tighter down to {@link ROW_MIN}, where its two lines
 * ({@link LINE_GAP} apart, while a name's descenders and a hero's capitals span 21 px between them) still clear each other
 * and the next row; below that the card grows taller instead.
 */
const ROW = 56;
const ROW_MIN = 50;
/** Between the middles of a row's two lines, px. */
const LINE_GAP = 23;

/**
 * A match card's height and row height, px: {@link SIZE}'s height while its rows fit at {@link ROW_MIN} or more, else as
 * tall as its rows need at that height (a team with replacements has more than six rows). Within the chart `LIMITS` for
 * every team the spec allows (src/charts/specs.ts `MATCH_CARD_PLAYERS`).
 */
export function matchCardLayout(spec: MatchCard): { height: number; rowH: number } {
  const rows = Math.max(1, ...spec.teams.map((t) => t.players.length));
  const fitted = Math.floor((SIZE.height - MATCH_TOP - TEAM_TITLE - MATCH_BOTTOM) / rows);
  const rowH = Math.max(ROW_MIN, Math.min(ROW, fitted));
  return { height: Math.max(SIZE.height, MATCH_TOP + TEAM_TITLE + rows * rowH + MATCH_BOTTOM), rowH };
}

/**
 * Draws a match card on `ctx`, {@link SIZE}'s width and {@link matchCardLayout}'s height: the mode and map over the map's
 * dimmed image, then both teams side by side, a row a player (main hero portrait, name, hero, K/D/A, figures, MVP or SVP).
 * Async only to decode the images. `report.onCut` is told of any protected text cut (everything but the players' names
 * and the columns' caption), `report.onBox` of where each row and each of its parts went.
 */
export async function drawMatchCard(ctx: Ctx, spec: MatchCard, report: CardReport = {}): Promise<void> {
  const p = painter(ctx, report);
  const images = await decodeAll(spec);
  const image = (url: string | null) => (url ? images.get(url) : undefined);
  const { width } = SIZE;
  const { height, rowH } = matchCardLayout(spec);
  ctx.fillStyle = COLORS.background;
  ctx.fillRect(0, 0, width, height);

  // Header: the map's image, cropped to the band and dimmed so the text stays readable.
  const headerH = MATCH_HEADER;
  const map = image(spec.image);
  if (map && map.width > 0 && map.height > 0) {
    const scale = Math.max(width / map.width, headerH / map.height);
    const sw = width / scale;
    const sh = headerH / scale;
    ctx.drawImage(map, (map.width - sw) / 2, (map.height - sh) / 2, sw, sh, 0, 0, width, headerH);
    ctx.fillStyle = withAlpha(COLORS.background, 0.7);
    ctx.fillRect(0, 0, width, headerH);
  } else {
    ctx.fillStyle = COLORS.labelBackground;
    ctx.fillRect(0, 0, width, headerH);
  }
  text(p, spec.title, PAD, 28, TEXT.big, COLORS.heading, { weight: 600, maxWidth: width - 2 * PAD, field: 'title' });
  // The rows' figures are numbers alone, named once here: words on every row do not fit in every language. The map and
  // the match's length come first; the caption takes what they leave.
  const room = width - 2 * PAD;
  const columnsNeed = measure(ctx, spec.columns, FIGURES);
  const subtitleNeed = measure(ctx, spec.subtitle, 17);
  const columnsW = subtitleNeed + GAP + columnsNeed <= room ? columnsNeed : Math.max(0, room - subtitleNeed - GAP);
  text(p, spec.subtitle, PAD, 60, TEXT.small, COLORS.text, { maxWidth: room - columnsW - GAP, field: 'subtitle' });
  if (columnsW > 0)
    text(p, spec.columns, width - PAD, 60, FIGURES, COLORS.muted, { maxWidth: columnsW, align: 'right', shrinkTo: 16, free: true, field: 'columns' });

  const teams = spec.teams;
  if (teams.length === 0) return;
  const colW = (width - 2 * PAD + GAP - teams.length * GAP) / teams.length;
  const top = MATCH_TOP;
  const titleH = TEAM_TITLE;
  teams.forEach((team, t) => {
    const x = PAD + t * (colW + GAP);
    const color = team.won === true ? WIN : team.won === false ? LOSS : COLORS.muted;
    ctx.fillStyle = color;
    ctx.fillRect(x, top, colW, 4);
    text(p, team.title, x, top + 20, TEXT.small, color, { weight: 600, maxWidth: colW, field: `teams[${t}].title` });
    team.players.forEach((player, i) => {
      const field = `teams[${t}].players[${i}]`;
      const y = top + titleH + i * rowH;
      ctx.globalAlpha = player.dimmed ? 0.55 : 1;
      p.onBox?.({ field, kind: 'row', box: { x, y, w: colW, h: rowH } });
      if (i % 2 === 0) {
        ctx.fillStyle = withAlpha(COLORS.labelBackground, 0.6);
        ctx.fillRect(x, y, colW, rowH);
      }
      const size = rowH - 10;
      const tint = roleColor(player.role);
      // The role as a strip at the row's edge, the hero's name in plain text: a red Duelist or a green Strategist
      // must not read as the team's defeat or victory.
      ctx.fillStyle = tint;
      ctx.fillRect(x, y + 3, 3, rowH - 6);
      portrait(ctx, image(player.image), x + 6, y + 5, size, tint, player.hero);
      p.onBox?.({ field: `${field}.image`, kind: 'image', box: { x: x + 6, y: y + 5, w: size, h: size } });
      const right = x + colW - 8;
      const textX = x + 6 + size + 10;
      // Two lines about the row's middle, a little above it: a name's descenders reach further than a hero's capitals.
      const upper = y + rowH / 2 - (LINE_GAP - 1) / 2;
      const lower = upper + LINE_GAP;
      // Upper line: the name takes what the K/D/A and the badge leave, and is the one text cut.
      const kdaW = Math.min(colW * 0.4, Math.max(measure(ctx, player.kda, TEXT.small, 600), 1));
      let nameW = right - kdaW - 10 - textX;
      let pill = 0;
      if (player.badge) {
        pill = measure(ctx, player.badge, 18, 600) + 14;
        nameW -= pill + 6;
      }
      const nameShown = text(p, player.name, textX, upper, TEXT.small, COLORS.heading, { weight: 600, maxWidth: nameW, free: true, field: `${field}.name` });
      if (player.badge) {
        // The badge sits right after the name, as a pill in gold.
        const nameEnd = textX + Math.min(nameW, nameShown);
        ctx.fillStyle = withAlpha(GOLD, 0.25);
        ctx.beginPath();
        ctx.roundRect(nameEnd + 6, upper - 11, pill, 22, 6);
        ctx.fill();
        p.onBox?.({ field: `${field}.badge`, kind: 'image', box: { x: nameEnd + 6, y: upper - 11, w: pill, h: 22 } });
        text(p, player.badge, nameEnd + 6 + pill / 2, upper, 18, GOLD, { weight: 600, maxWidth: pill, align: 'center', field: `${field}.badge`, inside: true });
      }
      text(p, player.kda, right, upper, TEXT.small, COLORS.heading, { weight: 600, maxWidth: kdaW, align: 'right', field: `${field}.kda` });
      // Lower line: the hero and the figures (a size smaller: two of them share the row with the hero), each given room
      // by what it needs, both set smaller alike when together they do not fit.
      const [heroW, figuresW] = widths(
        [measure(ctx, player.hero, TEXT.small), player.figures ? measure(ctx, player.figures, FIGURES) : 0],
        right - textX - (player.figures ? 10 : 0),
      );
      text(p, player.hero, textX, lower, TEXT.small, COLORS.text, { maxWidth: heroW!, field: `${field}.hero` });
      if (player.figures) text(p, player.figures, right, lower, FIGURES, COLORS.muted, { maxWidth: figuresW!, align: 'right', field: `${field}.figures` });
      ctx.globalAlpha = 1;
    });
  });
}

/** A list card's background and head band (gold edge, title); the subtitle is the card's own, at y 56. */
function listHead(p: Painter, title: string): void {
  const { ctx } = p;
  const { width, height } = SIZE;
  ctx.fillStyle = COLORS.background;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = COLORS.labelBackground;
  ctx.fillRect(0, 0, width, 72);
  ctx.fillStyle = GOLD;
  ctx.fillRect(0, 0, width, 4);
  text(p, title, PAD, 28, TEXT.big, COLORS.heading, { weight: 600, maxWidth: width - 2 * PAD, free: true, field: 'title' });
}

/**
 * Draws a ladder card on `ctx` at {@link SIZE}: the title and filters, then one row a member: position, name, tier in its
 * band's colour, rank score and the week's change; the member asking highlighted. Synchronous: no images. A row's tier is
 * the game's English name ("Gold II"), drawn as the game names it in the spec's locale; `report.onCut` is told of any protected
 * text cut: everything but the title, the subtitle, the column's caption and the members' names.
 */
export function drawLadderCard(ctx: Ctx, spec: LadderCard, report: CardReport = {}): void {
  const p = painter(ctx, report);
  const { width, height } = SIZE;
  listHead(p, spec.title);
  const weekLabelW = Math.min(150, measure(ctx, spec.weekLabel, FIGURES));
  text(p, spec.subtitle, PAD, 56, TEXT.small, COLORS.text, { maxWidth: width - 2 * PAD - weekLabelW - GAP, shrinkTo: 18, free: true, field: 'subtitle' });
  // The change column's name over it: a bare "+12.5" could be anything.
  text(p, spec.weekLabel, width - PAD, 56, FIGURES, COLORS.muted, { maxWidth: weekLabelW, align: 'right', free: true, field: 'weekLabel' });
  const top = 80;
  const rowH = Math.min(44, Math.floor((height - top - 6) / Math.max(1, spec.rows.length)));
  const tiers = spec.rows.map((row) => chartText.tier(row.tier));
  // Columns from the right: the week's change, the score, the tier as wide as its longest; the name takes what is left.
  const weekW = 130;
  const scoreW = 90;
  const tierW = Math.min(240, Math.max(120, ...tiers.map((t) => measure(ctx, t, TEXT.small, 600))));
  // Room for two digits, wider for the places deep in the season's ladder ("1000").
  const posW = Math.max(44, ...spec.rows.map((row) => measure(ctx, row.position, TEXT.body, 600) + 4));
  spec.rows.forEach((row, i) => {
    const y = top + i * rowH;
    const mid = y + rowH / 2;
    if (row.you) {
      ctx.fillStyle = withAlpha(GOLD, 0.16);
      ctx.fillRect(PAD - 8, y + 2, width - 2 * PAD + 16, rowH - 4);
    } else if (i % 2 === 0) {
      ctx.fillStyle = withAlpha(COLORS.labelBackground, 0.6);
      ctx.fillRect(PAD - 8, y + 2, width - 2 * PAD + 16, rowH - 4);
    }
    // The podium in gold, silver and bronze.
    const podium = ['#f0b232', '#c0c6cf', '#cd7f32'][i] ?? COLORS.muted;
    text(p, row.position, PAD + posW - 8, mid, TEXT.body, row.position === String(i + 1) ? podium : COLORS.muted, {
      weight: 600,
      maxWidth: posW,
      align: 'right',
      field: `rows[${i}].position`,
    });
    const right = width - PAD;
    const weekColor = row.trend === 'up' ? WIN : row.trend === 'down' ? LOSS : COLORS.muted;
    text(p, row.week, right, mid, TEXT.small, weekColor, { weight: 600, maxWidth: weekW, align: 'right', field: `rows[${i}].week` });
    text(p, row.score, right - weekW - 12, mid, TEXT.body, COLORS.heading, { weight: 600, maxWidth: scoreW, align: 'right', field: `rows[${i}].score` });
    const tierX = right - weekW - 12 - scoreW - 16 - tierW;
    text(p, tiers[i]!, tierX, mid, TEXT.small, tierColor(row.tier), { weight: 600, maxWidth: tierW, field: `rows[${i}].tier` });
    const nameX = PAD + posW + 10;
    text(p, row.name, nameX, mid, TEXT.body, COLORS.heading, {
      weight: row.you ? 600 : 400,
      maxWidth: tierX - 14 - nameX,
      free: true,
      field: `rows[${i}].name`,
    });
  });
}

const TONES: Record<CardTone, string> = { win: WIN, loss: LOSS, plain: COLORS.heading, muted: COLORS.muted };

/**
 * Draws a table card on `ctx` at {@link SIZE}: the title and subtitle, the tiles in a row, the columns' captions, then one
 * row each, the member's own highlighted. The first column (names) takes the width the others leave; the others are
 * figures, right-aligned, each as wide as its widest text up to a bound. Synchronous: no images. `report.onCut` is told of
 * any protected text cut: everything but the title, the subtitle, the captions and the first column.
 */
export function drawTableCard(ctx: Ctx, spec: TableCard, report: CardReport = {}): void {
  const p = painter(ctx, report);
  const { width, height } = SIZE;
  listHead(p, spec.title);
  text(p, spec.subtitle, PAD, 56, TEXT.small, COLORS.text, { maxWidth: width - 2 * PAD, shrinkTo: 18, free: true, field: 'subtitle' });
  let top = 84;
  if (spec.tiles.length > 0) {
    // Each tile as wide as its text needs ("Gold I → Platinum III" more than "4"), as the profile card's tiles.
    const need = spec.tiles.map((t) => Math.max(measure(ctx, t.label, 18), measure(ctx, t.value, TEXT.body, 600)) + 24);
    const tileWs = widths(need, width - 2 * PAD - GAP * (spec.tiles.length - 1));
    const tileH = 64;
    let x = PAD;
    spec.tiles.forEach((tile, i) => {
      const tileW = tileWs[i]!;
      ctx.fillStyle = COLORS.labelBackground;
      ctx.fillRect(x, top, tileW, tileH);
      text(p, tile.label, x + 12, top + 18, 18, COLORS.muted, { maxWidth: tileW - 24, shrinkTo: 13, free: true, field: `tiles[${i}].label` });
      text(p, tile.value, x + 12, top + 44, TEXT.body, TONES[tile.tone], { weight: 600, maxWidth: tileW - 24, field: `tiles[${i}].value` });
      x += tileW + GAP;
    });
    top += tileH + GAP;
  }
  // Figure columns from the right, each as wide as its widest text (caption or cell), within bounds; names take the rest.
  const columnWs = spec.columns.map((caption, c) =>
    c === 0 ? 0 : Math.min(260, Math.max(56, measure(ctx, caption, 18), ...spec.rows.map((r) => measure(ctx, r.cells[c]?.text ?? '', TEXT.small, 600)))),
  );
  const rights: number[] = [];
  let right = width - PAD;
  for (let c = spec.columns.length - 1; c >= 1; c--) {
    rights[c] = right;
    right -= columnWs[c]! + 20;
  }
  const nameRight = right;
  const captionY = top + 12;
  spec.columns.forEach((caption, c) => {
    if (c === 0) text(p, caption, PAD, captionY, 18, COLORS.muted, { maxWidth: nameRight - PAD, free: true, field: 'columns[0]' });
    else text(p, caption, rights[c]!, captionY, 18, COLORS.muted, { maxWidth: columnWs[c]!, align: 'right', free: true, field: `columns[${c}]` });
  });
  top += 26;
  const rowH = Math.min(44, Math.floor((height - top - 6) / Math.max(1, spec.rows.length)));
  spec.rows.forEach((row, i) => {
    const y = top + i * rowH;
    const mid = y + rowH / 2;
    if (row.you || i % 2 === 0) {
      ctx.fillStyle = row.you ? withAlpha(GOLD, 0.16) : withAlpha(COLORS.labelBackground, 0.6);
      ctx.fillRect(PAD - 8, y + 2, width - 2 * PAD + 16, rowH - 4);
    }
    p.onBox?.({ field: `rows[${i}]`, kind: 'row', box: { x: PAD - 8, y: y + 2, w: width - 2 * PAD + 16, h: rowH - 4 } });
    row.cells.forEach((cell, c) => {
      const field = `rows[${i}].cells[${c}]`;
      if (c === 0) text(p, cell.text, PAD, mid, TEXT.body, TONES[cell.tone], { weight: row.you ? 600 : 400, maxWidth: nameRight - PAD - 8, free: true, field });
      else text(p, cell.text, rights[c]!, mid, TEXT.small, TONES[cell.tone], { weight: 600, maxWidth: columnWs[c]!, align: 'right', field });
    });
  });
}
