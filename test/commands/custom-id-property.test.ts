/**
 * Property: anyone can send any custom ID, so every component route, pressed with hostile numbers in its arguments
 * (`1e308`, `NaN`, nothing, `-5`, `2.5`, `0x10`, digit strings of any length, any double or string), answers with a
 * page or a specific message, never the generic "Something went wrong", and nothing that reaches SQLite binds a number
 * that is not an integer. Each route starts from a custom ID the bot makes (its template below); every route the
 * commands register has one, so a new route cannot be left out; the profile's routes carry a kept Back's store key, which
 * hostile arguments replace too. The ladder's page button runs on a server with the
 * ladder on and members listed, so its page query runs on SQLite each time.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { decodeCustomId, encodeCustomId, MAX_PAGE } from '../../src/render/custom-id.js';
import { t } from '../../src/render/strings.js';
import type { Replica } from '../../src/replica/server.js';
import type { LadderQuery } from '../../src/store/ladder/index.js';
import type { SqliteConnection } from '../../src/store/sqlite-driver.js';
import { backKey } from '../../src/store/back-targets.js';
import { ADMIN, bot, customIds, MEMBER, OTHER_MEMBER } from '../helpers/bot.js';
import { replica } from '../helpers/replica.js';

/** Every number bound to a statement that is not a safe integer, with its SQL. */
const unsafe: { sql: string; value: number }[] = [];
/** How many statements ran: a press that reached SQLite moved it. */
let statements = 0;

/** The connection, with each statement's bound numbers watched (better-sqlite3's `run`, `all`, `get`, `iterate`). */
function watched(sqlite: SqliteConnection): SqliteConnection {
  const check = (sql: string, params: unknown[]) => {
    statements++;
    const look = (v: unknown): void => {
      if (typeof v === 'number' && !Number.isSafeInteger(v)) unsafe.push({ sql, value: v });
      else if (Array.isArray(v)) v.forEach(look);
      else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) Object.values(v).forEach(look);
    };
    params.forEach(look);
  };
  return new Proxy(sqlite, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key !== 'prepare') return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      return (sql: string) => {
        const statement = target.prepare(sql);
        return new Proxy(statement, {
          get(st, k) {
            const v = Reflect.get(st, k, st) as unknown;
            if (typeof v !== 'function') return v;
            const method = (v as (...a: unknown[]) => unknown).bind(st);
            if (!['run', 'all', 'get', 'iterate'].includes(String(k))) return method;
            return (...params: unknown[]) => {
              check(sql, params);
              return method(...params);
            };
          },
        });
      };
    },
  });
}

const UID = '1403392756';
const MATCH = '6713355_1740604074_322_11001_10';
/** A profile's Back to a match, kept in the store before the presses (src/store/back-targets.ts), and its key. */
const BACK = encodeCustomId('mt.o', MATCH);
const KEY = backKey(BACK);

/**
 * Each route: a custom ID the bot makes for it, and the select's values if it is one. Arguments are replaced by
 * hostile numbers one position at a time or several at once.
 */
const TEMPLATES: Record<string, { id: string; values?: string[] }> = {
  'pl.s': { id: encodeCustomId('pl.s', UID, '', KEY), values: ['matches'] },
  'pl.p': { id: encodeCustomId('pl.p', UID, '', 'matches', 'r', KEY, 2, 'n') },
  'pl.f': { id: encodeCustomId('pl.f', UID, '', 'r', KEY) },
  'mt.l': { id: encodeCustomId('mt.l', UID, '', 2, 'r', KEY), values: [MATCH] },
  'pl.u': { id: encodeCustomId('pl.u', UID) },
  'pl.o': { id: encodeCustomId('pl.o', MATCH, UID, '', 2, 'r', KEY), values: [UID] },
  'mt.o': { id: encodeCustomId('mt.o', MATCH, UID, '', 2, 'r', KEY) },
  // The routes of messages sent before each route named the module that handles it.
  'pl.m': { id: encodeCustomId('pl.m', UID, '', 2, 'r', KEY), values: [MATCH] },
  'mt.p': { id: encodeCustomId('mt.p', MATCH, UID, '', 2, 'r', KEY), values: [UID] },
  'mt.t': { id: encodeCustomId('mt.t', MATCH) },
  'sc.t': { id: encodeCustomId('sc.t', MATCH, 1, 'abc') },
  'hero.s': { id: encodeCustomId('hero.s', '1011'), values: ['abilities'] },
  'hero.p': { id: encodeCustomId('hero.p', '1011', 'abilities', 2, 'n') },
  'lb.p': { id: encodeCustomId('lb.p', '1015', 'pc', 2, 'n') },
  'lb.t': { id: encodeCustomId('lb.t', 'pc', '1.5', 2, 'n') },
  'lb.f': { id: encodeCustomId('lb.f', 'pc', '1.5') },
  'ld.p': { id: encodeCustomId('ld.p', '-', 'season', '-', 2, 'n') },
  'ld.d': { id: encodeCustomId('ld.d', 3, 2, 'n') },
  'se.p': { id: encodeCustomId('se.p', UID, 2, 'n') },
  'meta.p': { id: encodeCustomId('meta.p', 'all', 'win-rate', 2, 'n') },
  'meta.s': { id: encodeCustomId('meta.s', 'Duelist', 'kda', '30d', 'Gold', 'met', 2, 'n') },
  'pn.l': { id: encodeCustomId('pn.l', 'balances', 2, 'n') },
  'pn.o': { id: encodeCustomId('pn.o', 'balances', 2), values: ['balance-20251112'] },
  'pn.r': { id: encodeCustomId('pn.r', 'balances', 2, 'balance-20251112', 2, 'n') },
  'feed.read': { id: encodeCustomId('feed.read', 'balances', 'balance-20251112') },
  'items.p': { id: encodeCustomId('items.p', 'all', 2, 'n') },
  'maps.p': { id: encodeCustomId('maps.p', 2, 'n') },
  'ach.p': { id: encodeCustomId('ach.p', '', 2, 'n') },
  'bp.p': { id: encodeCustomId('bp.p', '', 2, 'n') },
  'lk.v': { id: encodeCustomId('lk.v', UID) },
  'lk.c': { id: encodeCustomId('lk.c', UID) },
  'pv.del': { id: encodeCustomId('pv.del', OTHER_MEMBER.userId) },
  'pv.keep': { id: encodeCustomId('pv.keep', OTHER_MEMBER.userId) },
  'cfg.reset': { id: encodeCustomId('cfg.reset', '300000000000000099') },
  'cfg.keep': { id: encodeCustomId('cfg.keep', MEMBER.guildId) },
};

const hostile = fc.oneof(
  fc.constantFrom(
    '1e308',
    '-1e308',
    'NaN',
    'Infinity',
    '',
    '-5',
    '-0',
    '0',
    '2.5',
    '0x10',
    '+1',
    ' 1',
    '9'.repeat(30),
    `-${'9'.repeat(60)}`,
    String(MAX_PAGE + 1),
  ),
  fc.double().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  // As long as the ID allows: an ID made from these arguments (a Back button) must still fit.
  fc.stringMatching(/^-?\d{40,90}$/),
  fc.string({ maxLength: 8 }),
);

/** The template's arguments with some replaced: each position hostile or as made. */
const pressArgs = (args: string[]) =>
  fc.tuple(...args.map((a) => fc.option(hostile, { freq: 2, nil: undefined }).map((h) => h ?? a))).filter((got) => got.some((g, i) => g !== args[i]));

let r: Replica;
let b: ReturnType<typeof bot>;
/** The page of each ladder read the store was asked for. */
const ladderPages: unknown[] = [];

beforeAll(async () => {
  r = await replica();
  b = bot(r, { apiTimeoutMs: 30_000, connect: watched });
  expect(await b.ctx.backTargets.keep(BACK)).toBe(KEY);
  await b.run('config', { enabled: true }, 'ladder', ADMIN);
  // Three pages of proved members with standings, the member who presses among them.
  for (let i = 0; i < 25; i++) {
    const userId = i === 0 ? MEMBER.userId : String(200000000000001000n + BigInt(i));
    const uid = String(1_000_000_000 + i);
    await b.ctx.links.link(userId, { uid, name: `Member ${i}` }, true, b.clock.now);
    await b.state.database.db.updateTable('account_links').set({ verified_at: b.clock.now }).where('user_id', '=', userId).execute();
    await b.state.ladder.join(MEMBER.guildId, userId, b.clock.now);
    const standing = { season: 9, tier: 'Gold II', score: 3000 + i, peak: 3000 + i, matches: 10, role: null, weekDelta: null, private: false };
    await b.state.ladder.setStanding(uid, standing, b.clock.now);
  }
  const ladder = b.state.ladder;
  const page = ladder.page.bind(ladder);
  ladder.page = async (q: LadderQuery) => {
    ladderPages.push(q.page);
    return page(q);
  };
});
afterAll(async () => {
  await b.close();
  await r.close();
});

describe('hostile numbers in a custom ID', () => {
  it('every route the commands register has a template the bot could have made', () => {
    const routes = commands.flatMap((c) => Object.keys(c.components ?? {}));
    expect(Object.keys(TEMPLATES).sort()).toEqual([...routes].sort());
    for (const [route, { id }] of Object.entries(TEMPLATES)) expect(decodeCustomId(id)?.route).toBe(route);
  });

  it('the ladder’s page button on SQLite: 1e308, NaN, nothing and other non-pages open the first page, a huge page the last', async () => {
    const [asked, bound] = [ladderPages.length, unsafe.length];
    const pageShown = async (page: string) => {
      const pressed = await b.press(encodeCustomId('ld.p', '-', 'season', '-', page, 'n'));
      expect(pressed.view.isError, page).toBeFalsy();
      return customIds(pressed.payload)
        .map((id) => decodeCustomId(id)!.args)
        .find((args) => args.at(-1) === 'i')
        ?.at(-2);
    };
    for (const page of ['1e308', 'NaN', '', '-5', '0', '2.5', '0x10', 'Infinity']) expect(await pageShown(page), page).toBe('1');
    expect(await pageShown('2')).toBe('2');
    for (const page of ['9'.repeat(30), String(MAX_PAGE), '4']) expect(await pageShown(page), page).toBe('3');
    expect(ladderPages.length).toBeGreaterThan(asked);
    for (const page of ladderPages.slice(asked)) expect(Number.isSafeInteger(page), String(page)).toBe(true);
    expect(statements).toBeGreaterThan(0);
    expect(unsafe.slice(bound)).toEqual([]);
  });

  it('a recent match picked from a crafted ID too long to make its Back button from: the match, without one', async () => {
    const id = `mt.l:${'9'.repeat(45)}:${'9'.repeat(45)}:2:r`;
    expect(id).toHaveLength(100);
    const pressed = await b.press(id, [MATCH]);
    expect(pressed.view.isError).toBeFalsy();
    expect(customIds(pressed.payload).filter((c) => c.startsWith('pl.p:'))).toEqual([]);
    const fits = await b.press(encodeCustomId('mt.l', UID, '', '1e308', 'r'), [MATCH]);
    expect(customIds(fits.payload)).toContain(encodeCustomId('pl.p', UID, '', 'matches', 'r', 1, 'b'));
  });

  for (const [route, template] of Object.entries(TEMPLATES)) {
    it(`${route}: never the generic error, never a non-integer at SQLite`, async () => {
      const { args } = decodeCustomId(template.id)!;
      await fc.assert(
        fc.asyncProperty(pressArgs(args), async (got) => {
          const id = `${route}:${got.map((a) => a.replace(/%/g, '%25').replace(/:/g, '%3A')).join(':')}`;
          fc.pre(id.length <= 100);
          const [bound, logged] = [unsafe.length, b.logLines.length];
          const pressed = await b.press(id, template.values ?? []);
          const said = pressed.payload.embeds.map((e) => e.description ?? '').join('\n');
          expect(said, id).not.toContain(t.unexpected('').split('`')[0]!);
          expect(unsafe.slice(bound), id).toEqual([]);
          expect(b.logLines.slice(logged).filter((l) => l.includes('unexpected error in a handler'))).toEqual([]);
        }),
        { numRuns: 30 },
      );
    });
  }

  it('a button of a message sent before the routes were renamed answers as its new route does', async () => {
    const strip = (p: unknown) => JSON.stringify(p).replaceAll('pl.m', 'mt.l').replaceAll('mt.p', 'pl.o');
    for (const [old, now] of [
      ['pl.m', 'mt.l'],
      ['mt.p', 'pl.o'],
    ] as const) {
      const before = await b.press(TEMPLATES[old]!.id, TEMPLATES[old]!.values);
      const after = await b.press(TEMPLATES[now]!.id, TEMPLATES[now]!.values);
      expect(before.view.isError, old).toBeFalsy();
      expect(strip(before.payload), old).toBe(strip(after.payload));
    }
  });
});
