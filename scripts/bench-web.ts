/**
 * `npm run bench:web`: the dashboard (src/web/) for a server of `--members` verified ladder members, on SQLite, in this
 * process over loopback HTTP.
 *
 * Each run fills a fresh store (one link, one proof, one standing and one ladder row per member), starts the dashboard
 * with its public page published, signs an admin in (the playground's pretend sign-in: no Discord; the server's
 * channels, roles and the admin's permissions answered at once, as the dashboard's own cache holds them between reads),
 * then times to the first byte of the answer (undici resolves a request at its headers):
 * - the server's dashboard page, warm: `--requests` reads, each running `/config show` and `/config status` and reading
 *   the audit log and the public page's state;
 * - the public ladder page, warm (drawn once a minute per page): `--requests` reads over its first 20 pages;
 * - the cached `/player` handler on the local replica in the same process, `--requests` times alone, then as many while
 *   `--clients` visitors read both pages without pause: its p99 each way, and their ratio.
 * Printed: min / median / max over `--runs` runs of each run's p95 (p99 for /player). Options: `--runs 3`,
 * `--members 10000`, `--requests 200`, `--clients 4`, `--seed 1`.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { pino } from 'pino';
import Keyv from 'keyv';
import { request } from 'undici';
import { openState, type State } from '../src/store/state.js';
import { Router } from '../src/discord/router.js';
import { commands } from '../commands/index.js';
import { LruStore } from '../src/cache/store.js';
import { createWebApp } from '../src/web/app.js';
import { pretendSignIn } from '../src/web/sign-in.js';
import type { WebDirectory } from '../src/web/directory.js';
import { definition as configDefinition } from '../commands/config/definition.js';
import { bot } from '../test/helpers/bot.js';
import { replica } from '../test/helpers/replica.js';
import { cleanUpOnExit, removeDir, spread, tempDir } from './bench-support.js';
import { fillLadder } from './bench-ladder-fill.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    members: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '200' },
    clients: { type: 'string', default: '4' },
    seed: { type: 'string', default: '1' },
  },
});
const RUNS = Math.max(1, Number(values.runs));
const MEMBERS = Math.max(100, Number(values.members));
const REQUESTS = Math.max(20, Number(values.requests));
const CLIENTS = Math.max(1, Number(values.clients));
const GUILD = '900000000000000001';
const ADMIN = '499999999999999999';
const logger = pino({ level: 'silent' });
const say = (line: string) => process.stdout.write(`${line}\n`);
cleanUpOnExit(say);

/** Fills `state` with the server's ladder: `MEMBERS` verified members with standings, every one listed; `seed` draws them. */
async function fill(state: State, seed: number): Promise<void> {
  await fillLadder(state, { guildId: GUILD, members: MEMBERS, seed, mixed: false });
  await sql`analyze`.execute(state.database.db);
}

/** The server as the dashboard reads it from Discord, answered at once. */
const directory: WebDirectory = {
  guild: async (id) => (id === GUILD ? { id, name: 'Bench Server', icon: null } : null),
  memberPermissions: async (id, user) => (id === GUILD && user === ADMIN ? 0x20n : null),
  channels: async () => Array.from({ length: 50 }, (_, i) => ({ id: String(800_000_000_000_000_000n + BigInt(i)), name: `channel-${i}`, announcement: false })),
  roles: async () => Array.from({ length: 30 }, (_, i) => ({ id: String(700_000_000_000_000_000n + BigInt(i)), name: `Role ${i}`, position: 30 - i })),
};

const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** Ms to the first byte of `url`'s answer (its status and headers); the body is read after, untimed. */
async function ttfb(url: string, cookie?: string): Promise<number> {
  const t = performance.now();
  const res = await request(url, { headers: cookie ? { cookie } : {} });
  const ms = performance.now() - t;
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  await res.body.dump();
  return ms;
}

interface RunFigures {
  dashboardP95: number;
  publicP95: number;
  firstDrawMs: number;
  playerAloneP99: number;
  playerServingP99: number;
  pagesServed: number;
}

async function run(seed: number): Promise<RunFigures> {
  const dir = tempDir(tmpdir(), 'bench-web-');
  const r = await replica();
  const b = bot(r);
  const state = await openState({ dataDir: dir, logger });
  try {
    await fill(state, seed);
    const router = new Router(commands);
    const ctx = { ...b.ctx, settings: state.settings, ladder: state.ladder, links: state.links, audit: state.audit, serverMatches: state.serverMatches };
    const app = await createWebApp({
      sessionSecret: 'a-bench-secret-of-at-least-32-characters',
      signIn: pretendSignIn((id) =>
        id === ADMIN ? { userId: ADMIN, name: 'Admin', avatar: null, guilds: [{ id: GUILD, name: 'Bench Server', icon: null }] } : undefined,
      ),
      directory,
      sessions: new Keyv({ store: new LruStore(1_000) }),
      configDefinition,
      runConfig: (input) => router.command('config', input, ctx),
      audit: state.audit,
      publicPages: state.publicPages,
      publicSources: { ladder: state.ladder, serverMatches: state.serverMatches, heroes: b.ctx.heroes },
      logger,
      limits: { signInPerMinute: 1_000, changesPerMinute: 1_000 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      const login = await request(`${base}/login?member=${ADMIN}`);
      await login.body.dump();
      const setCookie = login.headers['set-cookie'];
      const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? '']).map((c) => c.split(';')[0]).join('; ');
      const { token } = await state.publicPages.publish(GUILD, Date.now());
      const dashboard = `${base}/guilds/${GUILD}`;
      const publicPage = (i: number) => `${base}/s/${token}?page=${1 + (i % 20)}`;
      // The first draw of a public page (the store's read and the template), then warm-up of both.
      const firstDrawMs = await ttfb(publicPage(7));
      for (let i = 0; i < 40; i++) {
        await ttfb(dashboard, cookie);
        await ttfb(publicPage(i));
      }
      const dashboardMs: number[] = [];
      const publicMs: number[] = [];
      for (let i = 0; i < REQUESTS; i++) dashboardMs.push(await ttfb(dashboard, cookie));
      for (let i = 0; i < REQUESTS; i++) publicMs.push(await ttfb(publicPage(i)));

      // The cached /player alone, then while visitors read both pages without pause.
      // Each interaction arrives as its own I/O event, as from the gateway: between two, the loop serves what is waiting.
      const player = async () => {
        await new Promise((resolve) => setImmediate(resolve));
        const t = performance.now();
        await b.run('player', { query: 'Card1gan' });
        return performance.now() - t;
      };
      for (let i = 0; i < 100; i++) await player();
      const alone: number[] = [];
      for (let i = 0; i < REQUESTS; i++) alone.push(await player());
      let serving = true;
      let pagesServed = 0;
      const visitors = Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = c; serving; i++) {
          await ttfb(i % 2 ? publicPage(i) : dashboard, i % 2 ? undefined : cookie);
          pagesServed++;
        }
      });
      const busy: number[] = [];
      for (let i = 0; i < REQUESTS; i++) busy.push(await player());
      serving = false;
      await Promise.all(visitors);
      return {
        dashboardP95: p(dashboardMs, 0.95),
        publicP95: p(publicMs, 0.95),
        firstDrawMs,
        playerAloneP99: p(alone, 0.99),
        playerServingP99: p(busy, 0.99),
        pagesServed,
      };
    } finally {
      await app.close();
    }
  } finally {
    await state.close();
    await b.close();
    await r.close();
    removeDir(dir);
  }
}

say(`bench:web: one server of ${MEMBERS.toLocaleString('en-US')} ladder members on SQLite, ${REQUESTS} requests a figure, ${RUNS} runs (min / median / max)`);
const figures: RunFigures[] = [];
for (let i = 0; i < RUNS; i++) figures.push(await run(Number(values.seed) + i));
const of = (pick: (f: RunFigures) => number, unit = 'ms', digits = 1) => spread(figures.map(pick), unit, digits);
say(`  dashboard page, time to first byte p95 (warm):      ${of((f) => f.dashboardP95)}   goal < 100 ms`);
say(`  public ladder page, time to first byte p95 (warm):  ${of((f) => f.publicP95)}   goal < 100 ms`);
say(`  public ladder page, first draw:                     ${of((f) => f.firstDrawMs)}`);
say(`  cached /player p99 alone:                           ${of((f) => f.playerAloneP99)}`);
say(`  cached /player p99 while ${CLIENTS} visitors read pages:    ${of((f) => f.playerServingP99)}`);
say(`  ratio (while serving / alone):                      ${of((f) => f.playerServingP99 / f.playerAloneP99, '×', 2)}`);
say(`  pages served meanwhile:                             ${of((f) => f.pagesServed, 'pages', 0)}`);
