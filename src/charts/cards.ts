/**
 * Image cards, drawn straight on the canvas (no chart.js): a player's profile and a match's scoreboard at a glance, in
 * Discord's dark colours.
 * Every text is fitted to its box and shortened with an ellipsis; an image without bytes, or bytes that do not decode,
 * is drawn as a placeholder, so a card never fails for an image.
 */
import { loadImage, type Image } from '@napi-rs/canvas';
import type { Ctx } from './canvas-kit.js';
import { fitText } from './header.js';
import type { LadderCard, MatchCard, ProfileCard } from './specs.js';
import { TIER_BANDS } from './tiers.js';
import { COLORS, SIZE, font, roleColor, withAlpha } from './theme.js';

const PAD = 28;
const GAP = 12;
/** Pixels on the 800 px canvas; 22 px is 10 CSS px where a phone shows it 360 px wide. */
const TEXT = { name: 36, big: 30, body: 24, small: 22 } as const;

/** The tier's colour from its name ("Gold II" is gold), muted grey for none. */
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

function text(
  ctx: Ctx,
  value: string,
  x: number,
  y: number,
  size: number,
  color: string,
  options: { weight?: 400 | 600; maxWidth: number; align?: 'left' | 'right' | 'center'; shrinkTo?: number },
): void {
  let spec = font(size, options.weight ?? 400);
  // A label a little too long is set smaller, down to `shrinkTo` px, before it loses letters to an ellipsis.
  for (let s = size - 1; options.shrinkTo !== undefined && s >= options.shrinkTo; s--) {
    ctx.font = spec;
    if ((ctx.measureText(value).width as number) <= options.maxWidth) break;
    spec = font(s, options.weight ?? 400);
  }
  ctx.font = spec;
  ctx.fillStyle = color;
  ctx.textAlign = options.align ?? 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText(fitText(value, spec, options.maxWidth), x, y);
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

/** Draws `spec` on `ctx` at {@link SIZE}; async only to decode the images. */
export async function drawProfileCard(ctx: Ctx, spec: ProfileCard): Promise<void> {
  const images = await decodeAll(spec);
  const image = (url: string | null) => (url ? images.get(url) : undefined);
  const { width, height } = SIZE;
  const accent = tierColor(spec.rank.tier);

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
  // The rank block takes what its texts need, at most 260 px; the name and subtitle get the rest.
  const measure = (value: string, size: number, weight: 400 | 600) => {
    ctx.font = font(size, weight);
    return ctx.measureText(value).width as number;
  };
  const rankWidth = Math.min(
    260,
    Math.max(measure(spec.rank.tier, TEXT.big, 600), measure(spec.rank.score, TEXT.body, 600), spec.rank.peak ? measure(spec.rank.peak, TEXT.small, 400) : 0),
  );
  text(ctx, spec.rank.tier, rightEdge, 40, TEXT.big, accent, { weight: 600, maxWidth: rankWidth, align: 'right' });
  text(ctx, spec.rank.score, rightEdge, 74, TEXT.body, COLORS.heading, { weight: 600, maxWidth: rankWidth, align: 'right' });
  if (spec.rank.peak) text(ctx, spec.rank.peak, rightEdge, 102, TEXT.small, COLORS.muted, { maxWidth: rankWidth, align: 'right' });
  const nameX = PAD + iconSize + 18;
  const nameWidth = rightEdge - rankWidth - GAP - nameX;
  text(ctx, spec.title, nameX, 48, TEXT.name, COLORS.heading, { weight: 600, maxWidth: nameWidth });
  text(ctx, spec.subtitle, nameX, 86, TEXT.small, COLORS.text, { maxWidth: nameWidth, shrinkTo: 17 });

  // Tiles: the season's record at a glance.
  const tilesY = 128;
  const tileH = 64;
  if (spec.tiles.length > 0) {
    const tileW = (width - 2 * PAD - (spec.tiles.length - 1) * GAP) / spec.tiles.length;
    spec.tiles.forEach((tile, i) => {
      const x = PAD + i * (tileW + GAP);
      ctx.fillStyle = COLORS.labelBackground;
      ctx.beginPath();
      ctx.roundRect(x, tilesY, tileW, tileH, 10);
      ctx.fill();
      text(ctx, tile.label, x + 14, tilesY + 20, TEXT.small, COLORS.muted, { maxWidth: tileW - 28, shrinkTo: 16 });
      text(ctx, tile.value, x + 14, tilesY + 46, TEXT.body, COLORS.heading, { weight: 600, maxWidth: tileW - 28 });
    });
  }

  // Top heroes: portrait, name in its role's colour, and one line of record.
  const heroesY = tilesY + tileH + 14;
  text(ctx, spec.labels.heroes, PAD, heroesY + 12, TEXT.small, COLORS.muted, { weight: 600, maxWidth: width - 2 * PAD });
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
    portrait(ctx, image(hero.image), x + 12, heroTop + (heroH - size) / 2, size, color, hero.name);
    const tx = x + 12 + size + 10;
    const tw = heroW - (tx - x) - 8;
    text(ctx, hero.name, tx, heroTop + 22, TEXT.small, COLORS.heading, { weight: 600, maxWidth: tw, shrinkTo: 17 });
    hero.lines.forEach((line, l) => text(ctx, line, tx, heroTop + 48 + l * 24, TEXT.small, COLORS.text, { maxWidth: tw }));
  });

  // Bottom row: play time by role as one bar (left), recent form as marks (right).
  const bottomY = heroTop + heroH + 18;
  const half = (width - 2 * PAD - 2 * GAP) / 2;
  const total = spec.roles.reduce((s, r) => s + r.seconds, 0);
  if (total > 0) {
    text(ctx, spec.labels.roles, PAD, bottomY + 10, TEXT.small, COLORS.muted, { weight: 600, maxWidth: half });
    let x = PAD;
    const barY = bottomY + 28;
    const share = spec.roles.filter((r) => r.seconds > 0);
    for (const r of share) {
      const w = (r.seconds / total) * half;
      ctx.fillStyle = roleColor(r.role);
      ctx.fillRect(x, barY, Math.max(1, w - 2), 14);
      x += w;
    }
    const top = [...share].sort((a, b) => b.seconds - a.seconds)[0]!;
    // The label carries the share in the member's language's way of writing it ("77 %", "77%").
    text(ctx, top.label, PAD, barY + 36, TEXT.small, COLORS.text, { maxWidth: half });
  }
  if (spec.form.length > 0) {
    const formX = PAD + half + 2 * GAP;
    text(ctx, spec.labels.form, formX, bottomY + 10, TEXT.small, COLORS.muted, { weight: 600, maxWidth: half });
    const cell = Math.min(22, (half - (spec.form.length - 1) * 3) / spec.form.length);
    // Newest on the left, as the embed's text lists them.
    spec.form.forEach((win, i) => {
      ctx.fillStyle = win ? '#3ba55d' : '#ed4245';
      ctx.beginPath();
      ctx.roundRect(formX + i * (cell + 3), bottomY + 26, cell, cell, 4);
      ctx.fill();
    });
    text(ctx, spec.labels.record, formX, bottomY + 26 + cell + 18, TEXT.small, COLORS.text, {
      maxWidth: half,
    });
  }
}

const WIN = '#3ba55d';
/** A match card's damage and healing, px: a size below the names. */
const FIGURES = 20;
const LOSS = '#ed4245';
const GOLD = '#f0b232';

/**
 * Draws a match card on `ctx` at {@link SIZE}: the mode and map over the map's dimmed image, then both teams side by side,
 * a row a player (main hero portrait, name, hero, K/D/A, figures, MVP or SVP). Async only to decode the images.
 */
export async function drawMatchCard(ctx: Ctx, spec: MatchCard): Promise<void> {
  const images = await decodeAll(spec);
  const image = (url: string | null) => (url ? images.get(url) : undefined);
  const { width, height } = SIZE;
  ctx.fillStyle = COLORS.background;
  ctx.fillRect(0, 0, width, height);

  // Header: the map's image, cropped to the band and dimmed so the text stays readable.
  const headerH = 78;
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
  text(ctx, spec.title, PAD, 28, TEXT.big, COLORS.heading, { weight: 600, maxWidth: width - 2 * PAD });
  // The rows' figures are numbers alone, named once here: words on every row do not fit in every language.
  ctx.font = font(FIGURES, 400);
  const columnsW = Math.min((width - 2 * PAD) * 0.45, ctx.measureText(spec.columns).width as number);
  text(ctx, spec.subtitle, PAD, 60, TEXT.small, COLORS.text, { maxWidth: width - 2 * PAD - columnsW - GAP, shrinkTo: 17 });
  text(ctx, spec.columns, width - PAD, 60, FIGURES, COLORS.muted, { maxWidth: columnsW, align: 'right' });

  const teams = spec.teams;
  if (teams.length === 0) return;
  const colW = (width - 2 * PAD + GAP - teams.length * GAP) / teams.length;
  const top = headerH + 10;
  const titleH = 34;
  const rows = Math.max(1, ...teams.map((t) => t.players.length));
  const rowH = Math.min(56, Math.floor((height - top - titleH - 8) / rows));
  teams.forEach((team, t) => {
    const x = PAD + t * (colW + GAP);
    const color = team.won === true ? WIN : team.won === false ? LOSS : COLORS.muted;
    ctx.fillStyle = color;
    ctx.fillRect(x, top, colW, 4);
    text(ctx, team.title, x, top + 20, TEXT.small, color, { weight: 600, maxWidth: colW });
    team.players.forEach((p, i) => {
      const y = top + titleH + i * rowH;
      ctx.globalAlpha = p.dimmed ? 0.55 : 1;
      if (i % 2 === 0) {
        ctx.fillStyle = withAlpha(COLORS.labelBackground, 0.6);
        ctx.fillRect(x, y, colW, rowH);
      }
      const size = rowH - 10;
      const tint = roleColor(p.role);
      // The role as a strip at the row's edge, the hero's name in plain text: a red Duelist or a green Strategist
      // must not read as the team's defeat or victory.
      ctx.fillStyle = tint;
      ctx.fillRect(x, y + 3, 3, rowH - 6);
      portrait(ctx, image(p.image), x + 6, y + 5, size, tint, p.hero);
      const right = x + colW - 8;
      ctx.font = font(TEXT.small, 600);
      const kdaW = Math.min(colW * 0.4, Math.max(ctx.measureText(p.kda).width as number, 1));
      const textX = x + 6 + size + 10;
      // The hero's name first (up to half the row), the figures take the rest and are shortened if they must.
      ctx.font = font(TEXT.small, 400);
      const heroW = Math.min((right - textX) * 0.5, ctx.measureText(p.hero).width as number);
      // The figures a size smaller: two of them share the row with the hero.
      ctx.font = font(FIGURES, 400);
      const figuresW = Math.min(ctx.measureText(p.figures).width as number, right - textX - heroW - 10);
      const upper = y + rowH * 0.32;
      const lower = y + rowH * 0.72;
      let nameW = right - kdaW - 10 - textX;
      if (p.badge) {
        // The badge sits right after the name, as a pill in gold.
        ctx.font = font(18, 600);
        const pill = (ctx.measureText(p.badge).width as number) + 14;
        nameW -= pill + 6;
        ctx.font = font(TEXT.small, 600);
        const shownName = fitText(p.name, font(TEXT.small, 600), nameW);
        const nameEnd = textX + Math.min(nameW, ctx.measureText(shownName).width as number);
        ctx.fillStyle = withAlpha(GOLD, 0.25);
        ctx.beginPath();
        ctx.roundRect(nameEnd + 6, upper - 11, pill, 22, 6);
        ctx.fill();
        text(ctx, p.badge, nameEnd + 6 + pill / 2, upper, 18, GOLD, { weight: 600, maxWidth: pill, align: 'center' });
      }
      text(ctx, p.name, textX, upper, TEXT.small, COLORS.heading, { weight: 600, maxWidth: nameW });
      text(ctx, p.hero, textX, lower, TEXT.small, COLORS.text, { maxWidth: Math.max(heroW, right - figuresW - 10 - textX), shrinkTo: 17 });
      text(ctx, p.kda, right, upper, TEXT.small, COLORS.heading, { weight: 600, maxWidth: kdaW, align: 'right' });
      text(ctx, p.figures, right, lower, FIGURES, COLORS.muted, { maxWidth: figuresW, align: 'right' });
      ctx.globalAlpha = 1;
    });
  });
}

/**
 * Draws a ladder card on `ctx` at {@link SIZE}: the title and filters, then one row a member: position, name, tier in its
 * band's colour, rank score and the week's change; the member asking highlighted. Synchronous: no images.
 */
export function drawLadderCard(ctx: Ctx, spec: LadderCard): void {
  const { width, height } = SIZE;
  ctx.fillStyle = COLORS.background;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = COLORS.labelBackground;
  ctx.fillRect(0, 0, width, 72);
  ctx.fillStyle = GOLD;
  ctx.fillRect(0, 0, width, 4);
  text(ctx, spec.title, PAD, 28, TEXT.big, COLORS.heading, { weight: 600, maxWidth: width - 2 * PAD });
  ctx.font = font(FIGURES, 400);
  const weekLabelW = Math.min(150, ctx.measureText(spec.weekLabel).width as number);
  text(ctx, spec.subtitle, PAD, 56, TEXT.small, COLORS.text, { maxWidth: width - 2 * PAD - weekLabelW - GAP, shrinkTo: 18 });
  // The change column's name over it: a bare "+12.5" could be anything.
  text(ctx, spec.weekLabel, width - PAD, 56, FIGURES, COLORS.muted, { maxWidth: weekLabelW, align: 'right' });
  const top = 80;
  const rowH = Math.min(44, Math.floor((height - top - 6) / Math.max(1, spec.rows.length)));
  // Columns from the right: the week's change, the score, the tier; the name takes what is left.
  const weekW = 130;
  const scoreW = 90;
  const tierW = 190;
  const posW = 44;
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
    text(ctx, row.position, PAD + posW - 8, mid, TEXT.body, row.position === String(i + 1) ? podium : COLORS.muted, {
      weight: 600,
      maxWidth: posW,
      align: 'right',
    });
    const right = width - PAD;
    const weekColor = row.trend === 'up' ? WIN : row.trend === 'down' ? LOSS : COLORS.muted;
    text(ctx, row.week, right, mid, TEXT.small, weekColor, { weight: 600, maxWidth: weekW, align: 'right' });
    text(ctx, row.score, right - weekW - 12, mid, TEXT.body, COLORS.heading, { weight: 600, maxWidth: scoreW, align: 'right' });
    const tierX = right - weekW - 12 - scoreW - 16 - tierW;
    text(ctx, row.tier, tierX, mid, TEXT.small, tierColor(row.tier), { weight: 600, maxWidth: tierW });
    const nameX = PAD + posW + 10;
    text(ctx, row.name, nameX, mid, TEXT.body, COLORS.heading, { weight: row.you ? 600 : 400, maxWidth: tierX - 14 - nameX });
  });
}
