/**
 * `npm run bench:ladder`: a server's ladder (src/store/ladder/, commands/ladder.ts) for one server of `--members`
 * verified linked members, on SQLite and on PostgreSQL.
 *
 * Each run fills a fresh store (one link, one proof and one standing per member; scores, roles, platforms and the week's
 * change drawn from the replica's seeded generator), then times, in this process:
 * - the ladder's queries (`LadderRepository.page` without its page cache: a page with the asking member's row far
 *   down), cold (the first after the store is opened) and warm (`--queries` more, page by page);
 * - the `/ladder show` handler through the router, warm (its page cache holds the page), beside the cached `/player`
 *   handler on the local replica in the same process (both without Discord's transport, which is the same for both);
 * - the store's bytes per 10,000 members (SQLite: dbstat, indexes included) and this process's heap after the queries.
 * Then a rank-role sync (src/ladder/rank-roles.ts) after a season reset: `--role-members` members who each hold the
 * role of last season's tier and are ranked in another tier now, so that every one changes (a role added, one taken
 * back), through the production REST client and budget against the fake Discord with Discord's global limit of 50
 * requests a second; printed beside the floor of those calls at 50 a second, with the 429s the fake answered.
 * Printed: min / median / max over `--runs` runs. Options: `--runs 3`, `--members 50000`, `--queries 50`,
 * `--role-members 10000`, `--skip-postgres`, `--skip-sqlite`, `--skip-roles`, `--seed 1`.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { pino } from 'pino';
import { openState, type State } from '../src/store/state.js';
import { LadderRepository } from '../src/store/ladder/index.js';
import { Router } from '../src/discord/router.js';
import { commands } from '../commands/index.js';
import { bot, MEMBER } from '../test/helpers/bot.js';
import { replica } from '../test/helpers/replica.js';
import { cleanUpOnExit, removeDir, runsOn, spread, tempDir } from './bench-support.js';
import { benchUserId, fillLadder } from './bench-ladder-fill.js';
import { tmpdir } from 'node:os';
import { createDiscordClient } from '../src/discord/client.js';
import { discordRoleTransport } from '../src/ladder/discord-roles.js';
import { RankRoleSync } from '../src/ladder/rank-roles.js';
import { APP_ID, GUILD_ID, startFakeDiscord } from '../test/e2e/fake-discord.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    members: { type: 'string', default: '50000' },
    queries: { type: 'string', default: '50' },
    'skip-postgres': { type: 'boolean', default: false },
    'skip-sqlite': { type: 'boolean', default: false },
    'skip-roles': { type: 'boolean', default: false },
    'role-members': { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
  },
});
const RUNS = Math.max(1, Number(values.runs));
const MEMBERS = Math.max(100, Number(values.members));
const QUERIES = Math.max(5, Number(values.queries));
const GUILD = '900000000000000001';
const logger = pino({ level: 'silent' });
const say = (line: string) => process.stdout.write(`${line}\n`);
cleanUpOnExit(say);

const userId = benchUserId;

/** Fills `state` with the server's members; `seed` draws their standings. */
const fill = (state: State, seed: number) => fillLadder(state, { guildId: GUILD, members: MEMBERS, seed, mixed: true });

interface RunFigures {
  coldMs: number;
  warmMs: number[];
  handlerMs: number[];
  playerMs: number[];
  bytesPer10k: number | null;
  heapMiB: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

async function run(engine: 'sqlite' | 'postgres', seed: number, databaseUrl: string | undefined): Promise<RunFigures> {
  const dir = tempDir(tmpdir(), 'bench-ladder-');
  try {
    let state = await openState({ dataDir: dir, ...(databaseUrl ? { databaseUrl } : {}), logger });
    await fill(state, seed);
    // What autovacuum (PostgreSQL: statistics and the visibility map, for index-only counts) and the tracker's hourly
    // ANALYZE (SQLite) keep after such a load.
    await sql.raw(engine === 'postgres' ? 'vacuum analyze' : 'analyze').execute(state.database.db);
    await state.close();
    // Cold: the first query of a freshly opened store.
    state = await openState({ dataDir: dir, ...(databaseUrl ? { databaseUrl } : {}), logger });
    const asking = userId(MEMBERS - 7);
    // A repository of its own per query: the store's work, not the page cache's.
    const query = (page: number) => new LadderRepository(state.database.db).page({ guildId: GUILD, period: 'season', page, pageSize: 10, userId: asking });
    let t = performance.now();
    const first = await query(1);
    const coldMs = performance.now() - t;
    if (first.rows.length !== 10) throw new Error(`the ladder listed ${first.rows.length} rows on page 1`);
    const warmMs: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      t = performance.now();
      await query(1 + (i % 20));
      warmMs.push(performance.now() - t);
    }
    let bytesPer10k: number | null = null;
    if (engine === 'sqlite') {
      const size = await sql<{
        bytes: number;
      }>`SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN ('ladder_members', 'sqlite_autoindex_ladder_members_1', 'ladder_members_user', 'ladder_members_rank', 'ladder_members_week', 'ladder_members_uid', 'player_standings', 'sqlite_autoindex_player_standings_1', 'account_links', 'sqlite_autoindex_account_links_1', 'account_links_uid')`.execute(
        state.database.db,
      );
      bytesPer10k = (Number(size.rows[0]?.bytes ?? 0) / MEMBERS) * 10_000;
    }
    // The handler, beside the cached /player on the replica, in this process.
    const r = await replica();
    const b = bot(r);
    try {
      const router = new Router(commands);
      const ctx = { ...b.ctx, ladder: state.ladder, links: state.links };
      const user = { ...MEMBER, guildId: GUILD, userId: asking };
      await router.command('ladder', { options: {}, subcommand: 'show', user }, ctx);
      await b.run('player', { query: 'Card1gan' });
      const handlerMs: number[] = [];
      const playerMs: number[] = [];
      for (let i = 0; i < QUERIES; i++) {
        t = performance.now();
        await router.command('ladder', { options: {}, subcommand: 'show', user }, ctx);
        handlerMs.push(performance.now() - t);
        t = performance.now();
        await b.run('player', { query: 'Card1gan' });
        playerMs.push(performance.now() - t);
      }
      return { coldMs, warmMs, handlerMs, playerMs, bytesPer10k, heapMiB: process.memoryUsage().heapUsed / 2 ** 20 };
    } finally {
      await b.close();
      await r.close();
      await state.close();
    }
  } finally {
    removeDir(dir);
  }
}

const fmt = spread;

async function engineFigures(engine: 'sqlite' | 'postgres'): Promise<void> {
  const runs = await runsOn(engine, RUNS, 'ladder', (i, url) => run(engine, Number(values.seed) + i, url));
  const name = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  say(`${name}, ${MEMBERS.toLocaleString('en')} members, min / median / max over ${RUNS} runs:`);
  say(`  ladder query, cold             ${fmt(runs.map((x) => x.coldMs))}`);
  say(`  ladder query, warm median      ${fmt(runs.map((x) => median(x.warmMs)))}`);
  say(`  ladder query, warm p95         ${fmt(runs.map((x) => p(x.warmMs, 0.95)))}`);
  say(`  /ladder show handler, median   ${fmt(runs.map((x) => median(x.handlerMs)))}`);
  say(`  cached /player handler, median ${fmt(runs.map((x) => median(x.playerMs)))}`);
  say(
    `  ratio /ladder ÷ /player        ${fmt(
      runs.map((x) => median(x.handlerMs) / median(x.playerMs)),
      '×',
      2,
    )}`,
  );
  if (engine === 'sqlite')
    say(
      `  store per 10,000 members       ${fmt(
        runs.map((x) => (x.bytesPer10k ?? 0) / 2 ** 20),
        'MiB',
        2,
      )}`,
    );
  say(
    `  heap after the queries         ${fmt(
      runs.map((x) => x.heapMiB),
      'MiB',
      0,
    )}`,
  );
}

say(`bench:ladder: ${RUNS} runs, ${MEMBERS.toLocaleString('en')} verified members on one server, ${QUERIES} warm queries a run`);
if (!values['skip-sqlite']) await engineFigures('sqlite');
if (!values['skip-postgres']) await engineFigures('postgres');
/** Discord's global limit, which the fake enforces: the floor of a sync's wall time is its calls at this rate. */
const DISCORD_LIMIT = 50;

/** One rank-role sync after a season reset; SQLite (the store's engine is not what limits a sync: Discord is). */
async function roleSyncRun(
  members: number,
): Promise<{ wallS: number; calls: number; limited: number; floorS: number; planMs: number; planMiBPer10k: number | null }> {
  const fake = await startFakeDiscord({ globalLimit: { perSecond: DISCORD_LIMIT } });
  const dir = tempDir(tmpdir(), 'bench-roles-');
  const state = await openState({ dataDir: dir, logger });
  try {
    const g = fake.guildRoles;
    g.setMember(GUILD_ID, APP_ID, [g.addRole(GUILD_ID, { name: 'Bot', position: 50, permissions: 1n << 28n, managed: true })]);
    const gold = g.addRole(GUILD_ID, { name: 'Gold', position: 3 });
    const silver = g.addRole(GUILD_ID, { name: 'Silver', position: 2 });
    const db = state.database.db;
    const now = Date.now();
    await state.ladder.setEnabled(GUILD_ID, true, now);
    await state.rankRoles.configure(GUILD_ID, { enabled: true, set: { Gold: gold, Silver: silver } }, now);
    const BATCH = 2_000;
    for (let start = 0; start < members; start += BATCH) {
      const ids = Array.from({ length: Math.min(BATCH, members - start) }, (_, k) => start + k);
      for (const i of ids) g.setMember(GUILD_ID, userId(i), [gold]);
      await db.transaction().execute(async (trx) => {
        const uid = (i: number) => String(2_000_000 + i);
        await trx
          .insertInto('player_standings')
          .values(
            ids.map((i) => ({
              uid: uid(i),
              season: 10,
              tier: 'Silver I',
              score: 3500,
              peak: 3500,
              matches: 1,
              role: null,
              week_delta: null,
              private: 0,
              updated_at: now,
            })),
          )
          .execute();
        await trx
          .insertInto('ladder_members')
          .values(
            ids.map((i) => ({
              guild_id: GUILD_ID,
              user_id: userId(i),
              chosen_uid: null,
              platform: null,
              opted_out: 0,
              joined_at: now,
              uid: uid(i),
              score: 3500,
              week_delta: null,
              role: null,
              private: 0,
              listed: 1,
            })),
          )
          .execute();
        // Last season every member was Gold, and the bot gave them that role.
        await trx
          .insertInto('rank_role_members')
          .values(
            ids.map((i) => ({
              guild_id: GUILD_ID,
              user_id: userId(i),
              role_id: gold,
              failure: null,
              failure_role_id: null,
              failed_at: null,
              failed_generation: null,
            })),
          )
          .execute();
      });
    }
    // The sync holds a server's plan while it works: its heap per 10,000 members (with --expose-gc, as the npm script runs).
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const planStart = performance.now();
    const plan = await state.rankRoles.plan(GUILD_ID, Date.now());
    const planMs = performance.now() - planStart;
    gc?.();
    const planMiBPer10k = gc ? ((process.memoryUsage().heapUsed - heapBefore) / 2 ** 20 / members) * 10_000 : null;
    if (plan.changes.length !== members) throw new Error(`the plan holds ${plan.changes.length} changes of ${members}`);
    // The production REST client and budget (src/discord/client.ts), without a gateway.
    const client = createDiscordClient({ apiUrl: fake.apiUrl });
    client.rest.setToken('bench-token');
    // One run measures the whole sync: no time budget cuts it into several.
    const sync = new RankRoleSync({
      roles: state.rankRoles,
      transport: discordRoleTransport(client.rest, () => APP_ID),
      logger,
      runBudgetMs: Number.POSITIVE_INFINITY,
    });
    const from = fake.calls.length;
    const start = performance.now();
    const result = await sync.syncGuild(GUILD_ID);
    const wallS = (performance.now() - start) / 1000;
    if (result.added !== members || result.removed !== members) throw new Error(`the sync changed ${result.added} / ${result.removed} of ${members}`);
    const calls = fake.calls.slice(from).filter((c) => /\/roles\/\d+$/.test(c.path)).length;
    await client.destroy();
    return { wallS, calls, limited: fake.globalLimited.length + fake.routeLimited.length, floorS: calls / DISCORD_LIMIT, planMs, planMiBPer10k };
  } finally {
    await state.close();
    await fake.close();
    removeDir(dir);
  }
}

if (!values['skip-roles']) {
  const members = Math.max(10, Number(values['role-members']));
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await roleSyncRun(members));
  say(`rank-role sync after a season reset, ${members.toLocaleString('en')} members (every one changes), min / median / max over ${RUNS} runs:`);
  say(
    `  REST calls                     ${fmt(
      runs.map((x) => x.calls),
      'calls',
      0,
    )}`,
  );
  say(`  planning the changes           ${fmt(runs.map((x) => x.planMs))}`);
  const heaps = runs.flatMap((x) => (x.planMiBPer10k === null ? [] : [x.planMiBPer10k]));
  say(`  plan's heap per 10,000 members ${heaps.length > 0 ? fmt(heaps, 'MiB', 2) : 'not measured (run with --expose-gc)'}`);
  say(
    `  wall time                      ${fmt(
      runs.map((x) => x.wallS),
      's',
      1,
    )}`,
  );
  say(
    `  floor at ${DISCORD_LIMIT} requests/s         ${fmt(
      runs.map((x) => x.floorS),
      's',
      1,
    )}`,
  );
  say(
    `  ratio wall ÷ floor             ${fmt(
      runs.map((x) => x.wallS / x.floorS),
      '×',
      3,
    )}`,
  );
  say(
    `  429 answers                    ${fmt(
      runs.map((x) => x.limited),
      '',
      0,
    )}`,
  );
}
process.exit(0);
