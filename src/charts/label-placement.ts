/** Scatter-plot label placement (chart.js has none): pure geometry in canvas pixels. */
import { outside, overlap, type Rect } from './canvas-kit.js';

export interface LabelRequest {
  x: number;
  y: number;
  radius: number;
  w: number;
  h: number;
}

/** `far`: away from its point, so draw a leader line. */
export interface PlacedLabel {
  rect: Rect;
  far: boolean;
}

const DIRECTIONS: readonly [number, number][] = [
  [1, 0],
  [-1, 0],
  [0, -1],
  [0, 1],
  [1, -1],
  [1, 1],
  [-1, -1],
  [-1, 1],
];
const REACHES = [0, 14, 30, 50, 75];
/** Overlapping a dot hides data, so it costs most. */
const COST = { dot: 8, label: 5, outside: 40, reach: 4, direction: 3 } as const;
const ROUNDS = 4;

function spots(r: LabelRequest): { rect: Rect; base: number; far: boolean }[] {
  const out: { rect: Rect; base: number; far: boolean }[] = [];
  REACHES.forEach((reach, ri) => {
    const gap = r.radius + 6 + reach;
    DIRECTIONS.forEach(([dx, dy], di) => {
      // Corners sit a little closer along each axis, so the label still reads as the point's.
      const g = dx !== 0 && dy !== 0 ? gap * 0.7 : gap;
      const x = dx > 0 ? r.x + g : dx < 0 ? r.x - g - r.w : r.x - r.w / 2;
      const y = dy > 0 ? r.y + g : dy < 0 ? r.y - g - r.h : r.y - r.h / 2;
      out.push({ rect: { x, y, w: r.w, h: r.h }, base: reach * COST.reach + di * COST.direction, far: ri > 0 });
    });
  });
  return out;
}

/**
 * A few rounds of local search, each label moving to its cheapest spot given the others; same order as `requests`.
 * @param points every dot of the plot, when some have no label.
 */
export function placeLabels(
  requests: LabelRequest[],
  area: Rect,
  obstacles: Rect[] = [],
  points: Pick<LabelRequest, 'x' | 'y' | 'radius'>[] = requests,
): PlacedLabel[] {
  const dots: Rect[] = points.map((r) => ({ x: r.x - r.radius - 2, y: r.y - r.radius - 2, w: 2 * r.radius + 4, h: 2 * r.radius + 4 }));
  const options = requests.map(spots);
  const chosen: ({ rect: Rect; far: boolean } | null)[] = requests.map(() => null);
  const cost = (i: number, rect: Rect, base: number) => {
    let c = base + outside(rect, area) * COST.outside;
    for (const d of dots) c += overlap(rect, d) * COST.dot;
    for (const o of obstacles) c += overlap(rect, o) * COST.label;
    chosen.forEach((other, j) => {
      if (other && j !== i) c += overlap(rect, other.rect) * COST.label;
    });
    return c;
  };
  // The most crowded points choose first: they have the fewest good spots.
  const crowd = requests.map((r) => requests.filter((q) => Math.abs(q.x - r.x) < 140 && Math.abs(q.y - r.y) < 50).length);
  const order = requests.map((_, i) => i).sort((a, b) => crowd[b]! - crowd[a]! || requests[a]!.x - requests[b]!.x);
  for (let round = 0; round < ROUNDS; round++) {
    let moved = false;
    for (const i of order) {
      let best: { rect: Rect; far: boolean; cost: number } | null = null;
      for (const s of options[i]!) {
        const c = cost(i, s.rect, s.base);
        if (!best || c < best.cost) best = { rect: s.rect, far: s.far, cost: c };
      }
      if (chosen[i]?.rect !== best!.rect) moved = true;
      chosen[i] = { rect: best!.rect, far: best!.far };
    }
    if (!moved) break;
  }
  return chosen.map((c) => c!);
}

/**
 * In priority order, each takes a spot clear of everything or is left out (null): a crowded plot names
 * fewer points rather than covering them.
 */
export function placeLabelsWhereTheyFit(
  requests: LabelRequest[],
  area: Rect,
  obstacles: Rect[] = [],
  points: Pick<LabelRequest, 'x' | 'y' | 'radius'>[] = requests,
): (PlacedLabel | null)[] {
  const taken: Rect[] = [...obstacles, ...points.map((r) => ({ x: r.x - r.radius - 2, y: r.y - r.radius - 2, w: 2 * r.radius + 4, h: 2 * r.radius + 4 }))];
  // A leader line that passes another dot would seem to name that dot.
  const leaderHitsDot = (r: LabelRequest, rect: Rect) => {
    const end = { x: Math.min(Math.max(r.x, rect.x), rect.x + rect.w), y: Math.min(Math.max(r.y, rect.y), rect.y + rect.h) };
    return points.some((p) => (p.x !== r.x || p.y !== r.y) && distanceToSegment(p, r, end) < p.radius + 3);
  };
  return requests.map((r) => {
    let best: { rect: Rect; far: boolean; base: number } | null = null;
    for (const s of spots(r)) {
      if (best && s.base >= best.base) continue;
      if (outside(s.rect, area) > 0 || taken.some((t) => overlap(s.rect, t) > 0)) continue;
      if (s.far && leaderHitsDot(r, s.rect)) continue;
      best = s;
    }
    if (!best) return null;
    taken.push({ x: best.rect.x - 3, y: best.rect.y - 1, w: best.rect.w + 6, h: best.rect.h + 2 });
    return { rect: best.rect, far: best.far };
  });
}

function distanceToSegment(p: { x: number; y: number }, a: { x: number; y: number }, b: { x: number; y: number }): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.min(1, Math.max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}
