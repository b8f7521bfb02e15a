/**
 * `/privacy delete` on a SQLite file: deleted means gone from the file's bytes, not only from the tables. The member has
 * links, settings, alerts, a ladder place with a standing, and tracked matches and snapshots; every table was analysed, so
 * `sqlite_stat4` holds samples with their Discord id and uid. After the deletion (and the bot's work after its reply),
 * neither the database file nor its write-ahead log holds either id, and no index sample does.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readForTracking } from '../../src/game/tracking.js';
import type { Replica } from '../../src/replica/server.js';
import { DATABASE_FILE } from '../../src/store/database.js';
import { profiles } from '../game/samples.js';
import { ADMIN, bot, MEMBER } from '../helpers/bot.js';
import { replica } from '../helpers/replica.js';
import { openTestState } from '../helpers/state.js';

const DOUBLE_C = { uid: '1786151874', name: 'Double C' };
/** Other members, each with an account of their own: the tables hold more than the member deleted. */
const OTHERS = Array.from({ length: 12 }, (_, i) => ({ userId: String(200000000000000100n + BigInt(i)), uid: String(1_500_000_000 + i) }));

let r: Replica;
let b: ReturnType<typeof bot>;
let file: string;

beforeAll(async () => {
  r = await replica();
  const state = await openTestState('sqlite');
  file = join(state.where.dataDir, DATABASE_FILE);
  b = bot(r, { state });
});
afterAll(async () => {
  await b.close();
  await r.close();
});

/** The database file's bytes and its write-ahead log's (empty when there is none). */
const bytes = () => Buffer.concat([readFileSync(file), existsSync(`${file}-wal`) ? readFileSync(`${file}-wal`) : Buffer.alloc(0)]);

/** The index samples (sqlite_stat4) that hold `key`'s bytes. */
async function samplesHolding(key: string): Promise<string[]> {
  const rows = await sql<{ idx: string }>`SELECT idx FROM sqlite_stat4 WHERE instr(sample, CAST(${key} AS BLOB)) > 0`.execute(b.state.database.db);
  return rows.rows.map((row) => row.idx);
}

describe('/privacy delete on SQLite', () => {
  it('leaves neither the member’s Discord id nor their uid in the file, its write-ahead log or the index samples', async () => {
    const db = b.state.database.db;
    const now = b.ctx.now();
    await b.run('config', { enabled: true }, 'ladder', ADMIN);
    await b.run('link', { player: DOUBLE_C.uid, default: true });
    await b.ctx.links.setLocale(MEMBER.userId, 'de');
    await b.ctx.alerts!.members.update(MEMBER.userId, MEMBER.guildId, (m) => void (m.heroes = ['1011']));
    await b.state.ladder.join(MEMBER.guildId, MEMBER.userId, now);
    for (const o of OTHERS) {
      await b.ctx.links.link(o.userId, { uid: o.uid, name: `Other ${o.uid}` }, true, now);
      await b.state.ladder.join(MEMBER.guildId, o.userId, now);
    }
    await b.state.tracking.sync(now);
    const read = readForTracking(profiles['doublec8-double-c-1786151874-2025-08-05.json']!);
    if (read.kind !== 'read') throw new Error('the sample is not a read');
    const claim = (await b.state.tracking.claim(now + 1_000, 100, 1)).find((c) => c.uid === DOUBLE_C.uid)!;
    await b.state.tracking.recordRead(claim, { ...read, changed: true }, { intervalMs: 1 }, now + 1_000);
    await b.state.ladder.setStanding(
      DOUBLE_C.uid,
      { season: 9, tier: 'Gold II', score: 3100, peak: 3200, matches: 20, role: null, weekDelta: null, private: false },
      now,
    );
    expect(await db.selectFrom('tracked_matches').select('uid').where('uid', '=', DOUBLE_C.uid).execute()).not.toEqual([]);
    // Statistics over every table, as an operator's ANALYZE or the tracker's hourly one leaves them.
    await sql`ANALYZE`.execute(db);
    await sql`PRAGMA wal_checkpoint(PASSIVE)`.execute(db);
    // What the test looks for is there before: the bytes in the file, samples holding both ids.
    for (const key of [DOUBLE_C.uid, MEMBER.userId]) {
      expect(bytes().includes(key), key).toBe(true);
      expect(await samplesHolding(key), key).not.toEqual([]);
    }

    const done = await b.press(`pv.del:${MEMBER.userId}`);
    expect(done.view.isError).toBeFalsy();
    // The bot's work after the reply ran (the press waits for the answer's newer versions): its outcome is logged.
    expect(b.logLines.some((l) => l.includes("the store's write-ahead log after a member's deletion") && l.includes('"log":"emptied"'))).toBe(true);

    for (const key of [DOUBLE_C.uid, MEMBER.userId]) expect(await samplesHolding(key), key).toEqual([]);
    // The other members' rows and samples stay.
    expect(await samplesHolding(OTHERS[0]!.userId)).not.toEqual([]);
    await sql`PRAGMA wal_checkpoint(PASSIVE)`.execute(db);
    const after = bytes();
    expect(after.includes(OTHERS[0]!.uid)).toBe(true);
    for (const key of [DOUBLE_C.uid, MEMBER.userId, DOUBLE_C.name]) expect(after.includes(key), key).toBe(false);
  });
});
