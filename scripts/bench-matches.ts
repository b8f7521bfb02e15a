/**
 * `npm run bench:matches`: the server's own matches at scale (src/store/server-matches.ts, src/store/matches.ts,
 * src/game/sessions.ts), on SQLite and on PostgreSQL.
 *
 * Each run fills a fresh store with `--members` tracked members over `--servers` servers (one server of `--big` members,
 * the rest spread evenly), `--rows` player-match rows in all (each member's matches over 60 days, 1 to 6 a session, an
 * hour or more between sessions), a `--duo-rate` share of them played with a partner from the same server (one match,
 * two rows), and the details of `--details` of the matches in the match store (12 players, 1 to 3 heroes each). Then it
 * times, in this process, after one read of each:
 * - the server meta of the big server (`heroCounts` and the figures of src/game/server-meta.ts);
 * - its duos (`members`, `pairCounts`, `resultCounts` and src/game/duos.ts);
 * - a member's sessions (`TrackingRepository.timeline` and src/game/sessions.ts);
 * each as the store reads it (a repository of its own: no kept counts) and warm (the counts a server's repository keeps for
 * a minute, as `/meta` and `/ladder duos` read them); and prints the store's bytes per stored match (SQLite's dbstat, indexes included) and the API reads one read per match
 * saves: the rows whose match another member's row names too.
 * Printed: min / median / max over `--runs` runs of each run's median of `--queries` reads.
 * Options: `--runs 3`, `--members 50000`, `--servers 5000`, `--big 10000`, `--rows 1000000`, `--duo-rate 0.15`,
 * `--details 20000`, `--queries 20`, `--skip-postgres`, `--skip-sqlite`, `--seed 1`.
 */
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { pino } from 'pino';
import { duosOf } from '../src/game/duos.js';
import { serverMeta } from '../src/game/server-meta.js';
import { sessionsOf } from '../src/game/sessions.js';
import { rng } from '../src/replica/data/handwritten.js';
import { periodStart, ServerMatchesRepository } from '../src/store/server-matches.js';
import { openState, type State } from '../src/store/state.js';
import { cleanUpOnExit, removeDir, runsOn, spread, tempDir } from './bench-support.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    members: { type: 'string', default: '50000' },
    servers: { type: 'string', default: '5000' },
    big: { type: 'string', default: '10000' },
    rows: { type: 'string', default: '1000000' },
    'duo-rate': { type: 'string', default: '0.15' },
    details: { type: 'string', default: '20000' },
    queries: { type: 'string', default: '20' },
    'skip-postgres': { type: 'boolean', default: false },
    'skip-sqlite': { type: 'boolean', default: false },
    seed: { type: 'string', default: '1' },
  },
});
const RUNS = Math.max(1, Number(values.runs));
const MEMBERS = Math.max(100, Number(values.members));
const SERVERS = Math.max(2, Number(values.servers));
const BIG = Math.min(MEMBERS, Math.max(10, Number(values.big)));
const ROWS = Math.max(MEMBERS, Number(values.rows));
const DUO_RATE = Math.min(0.9, Math.max(0, Number(values['duo-rate'])));
const DETAILS = Math.max(0, Number(values.details));
const QUERIES = Math.max(3, Number(values.queries));
const BIG_GUILD = 'g0';
const HEROES = Array.from({ length: 40 }, (_, i) => String(1011 + i));
const logger = pino({ level: 'silent' });
const say = (line: string) => process.stdout.write(`${line}\n`);
cleanUpOnExit(say);

const uidOf = (i: number) => String(2_000_000 + i);
const userOf = (i: number) => String(600_000_000_000_000_000n + BigInt(i));
/** Member `i`'s server: the big one for the first {@link BIG}, else the others in turn. */
const guildOf = (i: number) => (i < BIG ? BIG_GUILD : `g${1 + ((i - BIG) % (SERVERS - 1))}`);
/** The partner of member `i` on their server (the neighbour of the same server), for duo matches. */
const partnerOf = (i: number) => {
  const step = i < BIG ? 1 : SERVERS - 1;
  const j = i % 2 === 0 ? i + step : i - step;
  return j >= 0 && j < MEMBERS && guildOf(j) === guildOf(i) ? j : null;
};

interface Filled {
  uniqueMatches: number;
  rows: number;
  sampleUid: string;
}

/** Fills `state`: links, ladder memberships, tracked players and their matches, and stored details. */
async function fill(state: State, seed: number): Promise<Filled> {
  const random = rng(seed);
  const db = state.database.db;
  const now = Date.now();
  const nowS = Math.floor(now / 1000);
  const guilds = new Set(Array.from({ length: MEMBERS }, (_, i) => guildOf(i)));
  for (const g of guilds) await state.ladder.setEnabled(g, true, now);
  const BATCH = 2_000;
  for (let start = 0; start < MEMBERS; start += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, MEMBERS - start) }, (_, k) => start + k);
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('account_links')
        .values(ids.map((i) => ({ user_id: userOf(i), uid: uidOf(i), name: `Player${i}`, linked_at: now, is_default: 1, verified_at: now })))
        .execute();
      await trx
        .insertInto('tracked_players')
        .values(
          ids.map((i) => ({
            uid: uidOf(i),
            added_at: now,
            next_read_at: now + 86_400_000,
            deadline_at: now + 86_400_000,
            interval_ms: 1_800_000,
            failures: 0,
          })),
        )
        .execute();
      await trx
        .insertInto('ladder_members')
        .values(
          ids.map((i) => ({
            guild_id: guildOf(i),
            user_id: userOf(i),
            chosen_uid: null,
            platform: null,
            opted_out: 0,
            joined_at: now,
            uid: uidOf(i),
            score: 3000 + Math.floor(random() * 2500),
            week_delta: null,
            role: null,
            private: 0,
            listed: 1,
          })),
        )
        .execute();
    });
  }
  // Matches: each member's share of the rows, in sessions; a duo match is written for the partner too.
  const perMember = Math.floor(ROWS / MEMBERS);
  let rows = 0;
  let unique = 0;
  const detailUids: string[] = [];
  let pending: Record<string, unknown>[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    await db
      .insertInto('tracked_matches')
      .values(batch as never)
      .onConflict((oc) => oc.columns(['uid', 'match_uid']).doNothing())
      .execute();
  };
  for (let i = 0; i < MEMBERS; i++) {
    let t = nowS - 60 * 86_400 + Math.floor(random() * 86_400);
    let score = 3000 + random() * 2500;
    const partner = partnerOf(i);
    for (let k = 0; k < perMember; k++) {
      t += random() < 0.25 ? 3_600 + Math.floor(random() * 3 * 86_400) : 600 + Math.floor(random() * 600);
      const won = random() < 0.5 ? 1 : 0;
      const change = won ? 20 + random() * 15 : -(15 + random() * 10);
      score += change;
      const matchUid = `${i}_${k}`;
      const row = (uid: string, w: number) => ({
        uid,
        match_uid: matchUid,
        played_at: t,
        season: 9,
        mode_id: 2,
        ranked: 1,
        hero_id: HEROES[Math.floor(random() * HEROES.length)]!,
        won: w,
        map_id: null,
        new_score: score,
        score_change: change,
        new_level: null,
        kills: Math.floor(random() * 30),
        deaths: Math.floor(random() * 15),
        assists: Math.floor(random() * 20),
        mvp: random() < 0.08 ? 1 : 0,
        recorded_at: now,
      });
      pending.push(row(uidOf(i), won));
      rows++;
      unique++;
      // A duo: the partner's row of the same match (their own matches stay theirs: i < partner writes it).
      if (partner !== null && partner > i && random() < DUO_RATE) {
        pending.push(row(uidOf(partner), won));
        rows++;
      }
      if (detailUids.length < DETAILS && random() < DETAILS / (ROWS / 1.05)) detailUids.push(matchUid);
      if (pending.length >= 1_000) await flush();
    }
  }
  await flush();
  // Stored details: 12 players, 1 to 3 heroes each, written as the match store writes them.
  for (const matchUid of detailUids) {
    const players = Array.from({ length: 12 }, (_, s) => ({
      player_uid: s === 0 ? uidOf(Number(matchUid.split('_')[0])) : String(9_000_000 + Math.floor(random() * 1e6)),
      nick_name: `P${s}`,
      camp: s < 6 ? 0 : 1,
      cur_hero_id: HEROES[Math.floor(random() * HEROES.length)]!,
      cur_hero_icon: '/heroes/icon.png',
      kills: Math.floor(random() * 30),
      deaths: Math.floor(random() * 15),
      assists: Math.floor(random() * 20),
      total_hero_damage: random() * 30_000,
      total_hero_heal: random() * 20_000,
      total_damage_taken: random() * 30_000,
      badges: [],
      result: s < 6 ? ('win' as const) : ('loss' as const),
      is_win: s < 6,
      player_icon: '/players/heads/player_head_30000001.png',
      player_icon_id: '30000001',
      heroes: Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
        hero_id: HEROES[Math.floor(random() * HEROES.length)]!,
        play_time: random() * 600,
        kills: 5,
        deaths: 3,
        assists: 4,
        session_hit_rate: random(),
        hero_icon: '/heroes/icon.png',
      })),
    }));
    await state.matches.put(
      {
        match_uid: matchUid,
        map_id: '1245',
        map_name: 'Yggdrasill Path',
        game_mode_id: 2,
        game_mode_name: 'Competitive',
        replay_id: null,
        mvp_uid: players[0]!.player_uid,
        svp_uid: players[6]!.player_uid,
        mvp_hero_id: players[0]!.cur_hero_id,
        svp_hero_id: players[6]!.cur_hero_id,
        players,
      },
      now,
    );
  }
  return { uniqueMatches: unique, rows, sampleUid: uidOf(Math.floor(BIG / 2)) };
}

interface RunFigures {
  metaMs: number[];
  duosMs: number[];
  metaWarmMs: number[];
  duosWarmMs: number[];
  sessionMs: number[];
  bytesPerMatch: number | null;
  savedShare: number;
  rows: number;
  duos: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(n: number, work: () => Promise<unknown>): Promise<number[]> {
  await work();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await work();
    out.push(performance.now() - t);
  }
  return out;
}

async function run(engine: 'sqlite' | 'postgres', seed: number, databaseUrl: string | undefined): Promise<RunFigures> {
  const dir = tempDir(tmpdir(), 'bench-matches-');
  try {
    let state = await openState({ dataDir: dir, ...(databaseUrl ? { databaseUrl } : {}), logger });
    const filled = await fill(state, seed);
    await sql.raw(engine === 'postgres' ? 'vacuum analyze' : 'analyze').execute(state.database.db);
    await state.close();
    state = await openState({ dataDir: dir, ...(databaseUrl ? { databaseUrl } : {}), logger });
    try {
      const since = periodStart(Date.now(), 30 * 86_400_000);
      const heroes = HEROES.map((id) => ({ id, name: `Hero ${id}`, role: null }));
      // The store's read: a repository of its own each time, so that none is served from the counts it keeps.
      const fresh = () => new ServerMatchesRepository(state.database.db);
      const meta = async (repo: ServerMatchesRepository) => serverMeta(await repo.heroCounts(BIG_GUILD, since), 'season', null, heroes);
      let duos = 0;
      const duosOfServer = async (repo: ServerMatchesRepository) => {
        const [, pairs, totals] = await Promise.all([repo.members(BIG_GUILD), repo.pairCounts(BIG_GUILD), repo.resultCounts(BIG_GUILD)]);
        duos = duosOf(pairs, totals).duos.length;
      };
      const metaMs = await timed(QUERIES, () => meta(fresh()));
      const duosMs = await timed(QUERIES, () => duosOfServer(fresh()));
      // Warm: what /meta and /ladder duos read while the server's counts are kept.
      const metaWarmMs = await timed(QUERIES, () => meta(state.serverMatches));
      const duosWarmMs = await timed(QUERIES, () => duosOfServer(state.serverMatches));
      const sessionMs = await timed(QUERIES, async () => sessionsOf((await state.tracking.timeline(filled.sampleUid)).matches));
      let bytesPerMatch: number | null = null;
      if (engine === 'sqlite') {
        const size = await sql<{ bytes: number }>`SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN (
          'matches', 'sqlite_autoindex_matches_1', 'match_players', 'sqlite_autoindex_match_players_1', 'match_players_player',
          'match_player_heroes', 'sqlite_autoindex_match_player_heroes_1')`.execute(state.database.db);
        const stored = await state.matches.count();
        bytesPerMatch = stored > 0 ? Number(size.rows[0]?.bytes ?? 0) / stored : null;
      }
      return {
        metaMs,
        duosMs,
        metaWarmMs,
        duosWarmMs,
        sessionMs,
        bytesPerMatch,
        savedShare: (filled.rows - filled.uniqueMatches) / filled.rows,
        rows: filled.rows,
        duos,
      };
    } finally {
      await state.close();
    }
  } finally {
    removeDir(dir);
  }
}

const fmt = spread;

async function engineFigures(engine: 'sqlite' | 'postgres'): Promise<void> {
  const runs = await runsOn(engine, RUNS, 'matches', (i, url) => run(engine, Number(values.seed) + i, url));
  const name = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  say(
    `${name}, ${runs[0]!.rows.toLocaleString('en')} player-match rows, min / median / max over ${RUNS} runs (each a median of ${QUERIES} reads after a first):`,
  );
  const big = BIG.toLocaleString('en');
  say(`  server meta, ${big}-member server, read    ${fmt(runs.map((x) => median(x.metaMs)))}`);
  say(
    `  server meta, ${big}-member server, warm    ${fmt(
      runs.map((x) => median(x.metaWarmMs)),
      'ms',
      3,
    )}`,
  );
  say(`  duos, ${big}-member server, read           ${fmt(runs.map((x) => median(x.duosMs)))}  (${runs[0]!.duos.toLocaleString('en')} duos listed)`);
  say(
    `  duos, ${big}-member server, warm           ${fmt(
      runs.map((x) => median(x.duosWarmMs)),
      'ms',
      3,
    )}`,
  );
  say(`  a member's sessions                ${fmt(runs.map((x) => median(x.sessionMs)))}`);
  if (engine === 'sqlite')
    say(
      `  store per stored match             ${fmt(
        runs.map((x) => x.bytesPerMatch ?? 0),
        'bytes',
        0,
      )}`,
    );
  say(
    `  API reads saved, one per match     ${fmt(
      runs.map((x) => x.savedShare * 100),
      '% of rows',
      1,
    )}`,
  );
}

say(
  `bench:matches: ${RUNS} runs, ${MEMBERS.toLocaleString('en')} members on ${SERVERS.toLocaleString('en')} servers (one of ${BIG.toLocaleString('en')}), ` +
    `${ROWS.toLocaleString('en')} rows, ${Math.round(DUO_RATE * 100)} % of matches with a partner, ${DETAILS.toLocaleString('en')} stored details`,
);
if (!values['skip-sqlite']) await engineFigures('sqlite');
if (!values['skip-postgres']) await engineFigures('postgres');
