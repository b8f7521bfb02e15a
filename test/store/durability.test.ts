/**
 * Nothing acknowledged is lost, on both engines: a saved setting survives SIGKILL of the process that
 * saved it, and settings changes made at the same time by two processes (or two repositories in one
 * process) to the same guilds all stay ("100 pairs of concurrent settings changes across
 * two processes, none lost").
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GuildSettingsRepository, type GuildSettings } from '../../src/store/guild-settings.js';
import type { State } from '../../src/store/state.js';
import { ENGINES, newStateLocation, openAt, type TestStateLocation } from '../helpers/state.js';

const CHILD = join(import.meta.dirname, '../helpers/state-child.ts');
const PAIRS = 100;

/** What the two sides set on pair `i` (the same values as test/helpers/state-child.ts). */
function expectedPair(i: number): Pick<GuildSettings, 'leaderboardPlatform' | 'ephemeralByDefault'> & { patchNotes: string; balances: string } {
  return { leaderboardPlatform: (['ps', 'xbox'] as const)[i % 2]!, ephemeralByDefault: true, patchNotes: `a-${i}`, balances: `b-${i}` };
}

/** A child process over the state at `where`, with its output read line by line. */
class Child {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly exited: Promise<void>;
  #out = '';
  #err = '';
  #waiters: (() => void)[] = [];

  constructor(args: string[], where: TestStateLocation) {
    const env: Record<string, string> = { PATH: process.env.PATH!, DATA_DIR: where.dataDir };
    if (where.databaseUrl) env.DATABASE_URL = where.databaseUrl;
    this.proc = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const wake = () => this.#waiters.splice(0).forEach((w) => w());
    this.proc.stdout.on('data', (c: Buffer) => {
      this.#out += c.toString();
      wake();
    });
    this.proc.stderr.on('data', (c: Buffer) => (this.#err += c.toString()));
    this.exited = new Promise((resolve) => this.proc.once('exit', () => resolve()));
    void this.exited.then(wake);
  }

  get lines(): string[] {
    return this.#out.split('\n').filter(Boolean);
  }

  /** Resolves once the child printed `line`; rejects if it exits first. */
  async waitFor(line: string): Promise<void> {
    for (;;) {
      if (this.lines.includes(line)) return;
      if (this.proc.exitCode !== null || this.proc.signalCode !== null) {
        throw new Error(
          `the child exited (${this.proc.exitCode ?? this.proc.signalCode}) without printing ${line}; stdout: ${this.#out}; stderr: ${this.#err}`,
        );
      }
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  async kill(): Promise<void> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
    await this.exited;
  }
}

const children: Child[] = [];
const cleanups: (() => void | Promise<void>)[] = [];
function child(args: string[], where: TestStateLocation): Child {
  const c = new Child(args, where);
  children.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.kill()));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function location(engine: (typeof ENGINES)[number]): Promise<TestStateLocation> {
  const where = await newStateLocation(engine);
  cleanups.push(where.cleanup);
  return where;
}

async function open(where: TestStateLocation): Promise<State> {
  const state = await openAt(where, { readDeadlineMs: 120_000, writeDeadlineMs: 120_000 });
  cleanups.push(() => state.close());
  return state;
}

async function expectEveryPair(settings: GuildSettingsRepository, pairs: number): Promise<void> {
  const lost: string[] = [];
  for (let i = 0; i < pairs; i++) {
    const s = await settings.get(`pair-${i}`);
    const want = expectedPair(i);
    if (s.leaderboardPlatform !== want.leaderboardPlatform) lost.push(`pair-${i} leaderboardPlatform`);
    if (s.ephemeralByDefault !== want.ephemeralByDefault) lost.push(`pair-${i} ephemeralByDefault`);
    if (s.feeds.patchNotes?.channelId !== want.patchNotes) lost.push(`pair-${i} patchNotes`);
    if (s.feeds.balances?.channelId !== want.balances) lost.push(`pair-${i} balances`);
  }
  expect(lost).toEqual([]);
}

describe.each(ENGINES)('on %s', (engine) => {
  it('an acknowledged setting survives kill -9 of the process that saved it', async () => {
    const where = await location(engine);
    const writer = child(['write', '310000000000000001', '320000000000000007'], where);
    await writer.waitFor('ACK');
    await writer.kill();
    expect(writer.proc.signalCode).toBe('SIGKILL');
    const reader = child(['read', '310000000000000001'], where);
    await reader.exited;
    expect(reader.lines).toEqual(['320000000000000007']);
    expect(reader.proc.exitCode).toBe(0);
  }, 60_000);

  it(`${PAIRS} pairs of concurrent settings changes across two processes, none lost`, async () => {
    const where = await location(engine);
    // Both processes open a new database at the same moment (so both migrate it), as two bot processes would.
    const a = child(['changes', 'a', String(PAIRS)], where);
    const b = child(['changes', 'b', String(PAIRS)], where);
    await Promise.all([a.waitFor('READY'), b.waitFor('READY')]);
    a.proc.stdin.write('GO\n');
    b.proc.stdin.write('GO\n');
    await Promise.all([a.waitFor('DONE'), b.waitFor('DONE')]);
    await Promise.all([a.exited, b.exited]);
    expect([a.proc.exitCode, b.proc.exitCode]).toEqual([0, 0]);
    const state = await open(where);
    await expectEveryPair(state.settings, PAIRS);
    // Each guild was changed exactly twice: two versions, not more (no change was applied twice) nor fewer.
    const versions = await state.database.db.selectFrom('guild_settings').select('version').where('guild_id', 'like', 'pair-%').execute();
    expect(versions).toHaveLength(PAIRS);
    expect(new Set(versions.map((v) => Number(v.version)))).toEqual(new Set([2]));
  }, 120_000);

  it(`${PAIRS} pairs of concurrent settings changes through two repositories in one process, none lost`, async () => {
    const where = await location(engine);
    const state = await open(where);
    // One process has one SQLite connection; on PostgreSQL the second repository gets a pool of its own.
    const second = engine === 'sqlite' ? state : await open(where);
    const options = { readDeadlineMs: 120_000, writeDeadlineMs: 120_000 };
    const a = new GuildSettingsRepository(state.database.db, options);
    const b = new GuildSettingsRepository(second.database.db, options);
    const sub = (channelId: string, since: number) => ({
      channelId,
      roleId: null,
      since,
      publish: false,
      backfill: 0,
      broken: null,
      lastDelivered: null,
      lastEdit: null,
    });
    await Promise.all(
      [...Array(PAIRS).keys()].flatMap((i) => {
        const want = expectedPair(i);
        return [
          a.update(`pair-${i}`, (s) => {
            s.leaderboardPlatform = want.leaderboardPlatform;
            s.feeds.patchNotes = sub(want.patchNotes, i);
          }),
          b.update(`pair-${i}`, (s) => {
            s.ephemeralByDefault = want.ephemeralByDefault;
            s.feeds.balances = sub(want.balances, i);
          }),
        ];
      }),
    );
    await expectEveryPair(new GuildSettingsRepository(state.database.db), PAIRS);
  }, 120_000);
});
