/**
 * `npm run bench:cards` (tsx scripts/bench-cards.ts [--runs 3] [--cards 40] [--burst 100] [--latency 30]): what an image
 * card costs, each figure as min / median / max over `--runs` runs, each run with a fresh renderer and image store.
 *
 * 1. Render time of each card (profile, match) through the pool with its images (src/discord/chart-attachments.ts `withCardImages`,
 *    src/api/image-store.ts), per card, ms from `render()` to the PNG: with a cold image cache (every image of the card
 *    downloaded from a local image host answering after `--latency` ms) and a warm one (all in memory). p95 of `--cards`
 *    renders each; the spec is built before the clock starts. Goal: p95 under 150 ms warm.
 * 2. The main event loop's delay while `--burst` cards render at once (warm cache): p99, ms beyond the monitor's 5 ms
 *    sampling interval. Goal: under 20 ms.
 * 3. A card's PNG size, bytes. Goal: under 500 KB.
 *
 * The cards are the golden ones (test/charts/sample-specs.ts), English and Japanese, with their images fetched over HTTP.
 */
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createCanvas } from '@napi-rs/canvas';
import { pino } from 'pino';
import { ImageStore } from '../src/api/image-store.js';
import { createChartRenderer } from '../src/charts/renderer.js';
import type { MatchCard, ProfileCard } from '../src/charts/specs.js';
import { withCardImages } from '../src/discord/chart-attachments.js';
import { goldenSpecs } from '../test/charts/sample-specs.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    cards: { type: 'string', default: '40' },
    burst: { type: 'string', default: '100' },
    latency: { type: 'string', default: '30' },
  },
});
const runs = Number(values.runs);
const cards = Number(values.cards);
const burst = Number(values.burst);
const latency = Number(values.latency);

/** A 256 px portrait, about the size of the API's hero icons. */
function portrait(hue: number): Buffer {
  const c = createCanvas(256, 256);
  const ctx = c.getContext('2d');
  for (let y = 0; y < 256; y += 8) {
    ctx.fillStyle = `hsl(${(hue + y) % 360}, 60%, ${30 + (y % 40)}%)`;
    ctx.fillRect(0, y, 256, 8);
  }
  return c.toBuffer('image/png');
}
const IMAGES = [portrait(0), portrait(90), portrait(180), portrait(270)];

const server = createServer((req, res) => {
  const n = Number(/\/(\d)\.png/.exec(req.url ?? '')?.[1] ?? 0);
  setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(IMAGES[n % IMAGES.length]), latency);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const host = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const GOLDEN = goldenSpecs();
type CardName = 'profile-card' | 'profile-card-ja' | 'match-card';

/** The golden card `name` with every image served by the local host; `key` makes the URLs new (a cold cache). */
function cardOf(name: CardName, key: string): ProfileCard | MatchCard {
  const url = (n: number) => `${host}/${key}/${n % 10}.png`;
  if (name === 'match-card') {
    const { images: _images, ...card } = GOLDEN[name] as MatchCard;
    let n = 1;
    return { ...card, image: url(0), teams: card.teams.map((t) => ({ ...t, players: t.players.map((p) => ({ ...p, image: url(n++) })) })) };
  }
  const { images: _images, ...card } = GOLDEN[name] as ProfileCard;
  return { ...card, icon: url(0), rank: { ...card.rank, icon: url(1) }, heroes: card.heroes.map((h, i) => ({ ...h, image: url(i + 2) })) };
}

function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}
const RESOLUTION = 5;

interface Times {
  coldP95: number;
  coldMedian: number;
  warmP95: number;
  warmMedian: number;
}
interface Run {
  profile: Times;
  match: Times;
  loopP99: number;
  burstWall: number;
  bytes: number;
  bytesJa: number;
  bytesMatch: number;
}

async function oneRun(run: number): Promise<Run> {
  const pool = createChartRenderer();
  const store = new ImageStore({ dir: null, maxDiskBytes: 100 * 1024 * 1024, logger: pino({ level: 'silent' }) });
  const charts = withCardImages(pool, store);
  try {
    // Thread start, fonts (both), the first decode: not part of a card's time.
    await charts.render(cardOf('profile-card-ja', `warmup-${run}`));
    let bytes = 0;
    const times = async (name: CardName): Promise<Times> => {
      const cold: number[] = [];
      for (let i = 0; i < cards; i++) {
        const spec = cardOf(name, `cold-${name}-${run}-${i}`);
        const t = performance.now();
        const png = await charts.render(spec);
        cold.push(performance.now() - t);
        if (name === 'profile-card') bytes = png.byteLength;
      }
      const warm: number[] = [];
      for (let i = 0; i < cards; i++) {
        const spec = cardOf(name, `cold-${name}-${run}-0`);
        const t = performance.now();
        await charts.render(spec);
        warm.push(performance.now() - t);
      }
      return { coldP95: quantile(cold, 0.95), coldMedian: quantile(cold, 0.5), warmP95: quantile(warm, 0.95), warmMedian: quantile(warm, 0.5) };
    };
    const profile = await times('profile-card');
    const match = await times('match-card');
    const bytesJa = (await charts.render(cardOf('profile-card-ja', `cold-profile-card-${run}-0`))).byteLength;
    const bytesMatch = (await charts.render(cardOf('match-card', `cold-match-card-${run}-0`))).byteLength;
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION });
    histogram.enable();
    const specs = Array.from({ length: burst }, (_, i) =>
      i % 3 === 2 ? cardOf('match-card', `cold-match-card-${run}-0`) : cardOf(i % 3 ? 'profile-card' : 'profile-card-ja', `cold-profile-card-${run}-0`),
    );
    const started = performance.now();
    await Promise.all(specs.map((spec) => charts.render(spec)));
    const burstWall = performance.now() - started;
    histogram.disable();
    return {
      profile,
      match,
      loopP99: Math.max(0, histogram.percentile(99) / 1e6 - RESOLUTION),
      burstWall,
      bytes,
      bytesJa,
      bytesMatch,
    };
  } finally {
    await pool.close();
  }
}

process.stdout.write(
  `image card benchmark: ${runs} runs, ${cards} cards per measure, burst of ${burst}, image host latency ${latency} ms, node ${process.version}\n\n`,
);
const results: Run[] = [];
for (let run = 0; run < runs; run++) {
  results.push(await oneRun(run));
  await delay(100);
}
const row = (label: string, pick: (r: Run) => number, unit: string, digits = 1) => {
  const xs = results.map(pick).sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(digits).padStart(10);
  process.stdout.write(`  ${label.padEnd(52)} ${f(xs[0]!)} ${f(quantile(xs, 0.5))} ${f(xs.at(-1)!)}  ${unit}\n`);
};
process.stdout.write(`${''.padEnd(54)}       min     median        max\n`);
for (const card of ['profile', 'match'] as const) {
  row(`${card} card, cold image cache: median`, (r) => r[card].coldMedian, 'ms');
  row(`${card} card, cold image cache: p95`, (r) => r[card].coldP95, 'ms');
  row(`${card} card, warm image cache: median`, (r) => r[card].warmMedian, 'ms');
  row(`${card} card, warm image cache: p95 (goal < 150)`, (r) => r[card].warmP95, 'ms');
}
row(`event loop delay p99 while ${burst} cards render (goal < 20)`, (r) => r.loopP99, 'ms');
row(`wall time of the ${burst}-card burst`, (r) => r.burstWall, 'ms', 0);
row('profile card PNG size, English (goal < 500,000)', (r) => r.bytes, 'bytes', 0);
row('profile card PNG size, Japanese', (r) => r.bytesJa, 'bytes', 0);
row('match card PNG size', (r) => r.bytesMatch, 'bytes', 0);
const worst = (pick: (r: Run) => number) => Math.max(...results.map(pick));
process.stdout.write(
  `\ngoals: warm p95 < 150 ms ${worst((r) => Math.max(r.profile.warmP95, r.match.warmP95)) < 150 ? 'met' : 'NOT met'}; loop p99 < 20 ms ${worst((r) => r.loopP99) < 20 ? 'met' : 'NOT met'}; size < 500 KB ${worst((r) => Math.max(r.bytes, r.bytesJa, r.bytesMatch)) < 500_000 ? 'met' : 'NOT met'}\n`,
);
server.closeAllConnections();
server.close();
