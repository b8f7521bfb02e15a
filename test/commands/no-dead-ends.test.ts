/**
 * No dead ends: a view a component opens from another view always has a way back, errors included.
 *
 * Every component route the commands register is named below with what its answer is: a view opened from another
 * (it carries a Back button to where it came from), the same view at another page, section or filter (its own
 * navigation is the way around), an answer that is always private (it never replaces the message), or the end of a
 * confirmation (nothing to return to). A route the table does not name fails the first test.
 *
 * Then, on the real samples through the replica: every recent match of every sample profile, opened from its list,
 * answers with its scoreboard or its own history row, always with Back to that page; a player picked from a scoreboard
 * keeps Back to the match through every section, page, filter and match of their profile (the Back kept in the store under
 * a key the profile's IDs carry), even with the longest IDs; and the routes that open views,
 * pressed through the acknowledgement policy (src/discord/respond.ts) under injected faults (503, a hung API, on every
 * endpoint or on the match endpoint alone), either answer privately, leaving the message as it was, or replace it with
 * a view that has its Back.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComponentType, MessageFlags, type APIEmbed, type APISelectMenuOption } from 'discord-api-types/v10';
import { commands } from '../../commands/index.js';
import { PLAYER_SECTIONS } from '../../src/render/player/common.js';
import { DISCORD_EPOCH_MS, interactionBudget } from '../../src/core/deadline.js';
import { answerComponent, type ComponentResponder } from '../../src/discord/respond.js';
import { decodeCustomId, encodeCustomId, MAX_PAGE } from '../../src/render/custom-id.js';
import { decodeMatchOrigin, encodeMatchOrigin, listBackId, listPlace } from '../../src/render/match-origin.js';
import { backKey } from '../../src/store/back-targets.js';
import type { MessagePayload } from '../../src/render/view.js';
import type { Faults } from '../../src/replica/faults.js';
import type { Replica } from '../../src/replica/server.js';
import { bot, customIds, MEMBER } from '../helpers/bot.js';
import { expectWithin } from '../helpers/limits.js';
import { cannedServer, replica } from '../helpers/replica.js';

/** What a route's answer is, and for a view opened from another, the route of its Back button. */
type Kind = { opens: string } | 'same view' | 'private' | 'ends';

const ROUTES: Record<string, Kind> = {
  // A match from a player's recent matches, back to that page.
  'mt.l': { opens: 'pl.p' },
  // A player from a scoreboard, back to the match.
  'pl.o': { opens: 'mt.o' },
  // The same answers from messages sent before the routes named the module that handles them.
  'pl.m': { opens: 'pl.p' },
  'mt.p': { opens: 'mt.o' },
  // The match again from that player, back to the recent matches it was first opened from (when it was).
  'mt.o': { opens: 'pl.p' },
  // A post from its list, and its pages, back to the list.
  'pn.o': { opens: 'pn.l' },
  'pn.r': { opens: 'pn.l' },
  'pl.s': 'same view',
  'pl.p': 'same view',
  'pl.f': 'same view',
  'hero.s': 'same view',
  'hero.p': 'same view',
  'sc.t': 'same view',
  'lb.p': 'same view',
  'lb.t': 'same view',
  'lb.f': 'same view',
  'ld.p': 'same view',
  'se.p': 'same view',
  'ld.d': 'same view',
  'meta.p': 'same view',
  'meta.s': 'same view',
  'pn.l': 'same view',
  'items.p': 'same view',
  'maps.p': 'same view',
  'ach.p': 'same view',
  'bp.p': 'same view',
  'mt.t': 'private',
  'pl.u': 'private',
  'feed.read': 'private',
  'lk.v': 'private',
  'lk.c': 'ends',
  'cfg.reset': 'ends',
  'cfg.keep': 'ends',
  'pv.del': 'ends',
  'pv.keep': 'ends',
};

const CARD1GAN = '1403392756';
/** A real match the replica has the scoreboard of, listed in Card1gan's history. */
const MATCH = '6713355_1740604074_322_11001_10';
const MATCH_ORIGIN = `${MATCH}~1170~1~403~1740604635~0-2`;
/** A match the replica has no scoreboard of: the newest of Double C's list. */
const NO_DETAILS = '5518160_1754021020_1290140_11001_11';
const NO_DETAILS_ORIGIN = `${NO_DETAILS}~1290~2~712~1754021918~2-3`;

/**
 * One press: a custom ID and its select values, and the route of the Back button its answer carries when it replaces the
 * message; null for a top view (the same view at another page or section, or a match that was itself a command's answer).
 */
interface Press {
  id: string;
  values?: string[];
  back: string | null;
}

/** The presses the fault walk makes: the routes that open views, from IDs the bot makes, and a few of the same view. */
const FAULT_PRESSES: Press[] = [
  { id: encodeCustomId('mt.l', CARD1GAN, '', 1, ''), values: [MATCH_ORIGIN], back: 'pl.p' },
  { id: encodeCustomId('mt.l', '1786151874', '', 1, ''), values: [NO_DETAILS_ORIGIN], back: 'pl.p' },
  { id: encodeCustomId('pl.o', MATCH_ORIGIN, CARD1GAN, '', 1, ''), values: [CARD1GAN], back: 'mt.o' },
  { id: encodeCustomId('pl.o', MATCH), values: [CARD1GAN], back: 'mt.o' },
  { id: encodeCustomId('mt.o', MATCH_ORIGIN, CARD1GAN, '', 1, ''), back: 'pl.p' },
  { id: encodeCustomId('mt.o', NO_DETAILS_ORIGIN, '1786151874', '', 1, ''), back: 'pl.p' },
  // Back to a match `/match` opened: the command's own answer again.
  { id: encodeCustomId('mt.o', MATCH), back: null },
  { id: encodeCustomId('pn.o', 'balances', 1), values: ['balance-20251112'], back: 'pn.l' },
  { id: encodeCustomId('pn.r', 'patch-notes', 1, '20251113', 2, 'n'), back: 'pn.l' },
  { id: encodeCustomId('pl.s', CARD1GAN, ''), values: ['matches'], back: null },
  { id: encodeCustomId('pl.p', CARD1GAN, '', 'matches', 2, 'n'), back: null },
  { id: encodeCustomId('hero.s', '1011'), values: ['abilities'], back: null },
  { id: encodeCustomId('lb.p', '1011', 'pc', 2, 'n'), back: null },
  { id: encodeCustomId('lb.t', 'pc', '', 2, 'n'), back: null },
  { id: encodeCustomId('lb.p', '1011', 'pc', '1.5', 2, 'n'), back: null },
  { id: encodeCustomId('hero.s', '1011', '2'), values: ['leaderboard'], back: null },
  { id: encodeCustomId('lb.t', 'xbox', '2.5', 88, 'm'), back: null },
  { id: encodeCustomId('lb.f', 'pc', ''), back: null },
];

const FAULTS: { label: string; faults: Faults; warm: boolean }[] = [
  { label: 'none (a healthy API)', faults: {}, warm: false },
  { label: '503 everywhere, nothing cached', faults: { forceStatus: 503, retryAfterSeconds: 60 }, warm: false },
  { label: 'a hung API, nothing cached', faults: { hang: true }, warm: false },
  { label: 'the match endpoint 503, the lists cached', faults: { forceStatus: 503, pathPrefix: '/api/v1/match/' }, warm: true },
  { label: 'the match endpoint hung, the lists cached', faults: { hang: true, pathPrefix: '/api/v1/match/' }, warm: true },
];

/** The interaction budget of a press under a fault: short, so that a hung API costs seconds. */
const BUDGET_MS = 4_000;

const snowflakeNow = () => String((BigInt(Date.now() - DISCORD_EPOCH_MS) << 22n) | 1n);

const kindOf = (customId: string): Kind => ROUTES[customId.split(':', 1)[0]!]!;

/** The Back buttons of a payload (grey buttons labelled "‹ Back" or a list's own "Back to …"). */
const backIds = (payload: MessagePayload): string[] =>
  payload.components
    .flatMap((row) => row.components)
    .filter((c) => c.type === ComponentType.Button && 'custom_id' in c && /(^‹ |^Back )/.test(c.label ?? ''))
    .map((c) => ('custom_id' in c ? c.custom_id : ''));

const selectOptions = (payload: MessagePayload, prefix: string): { id: string; options: APISelectMenuOption[] } | null => {
  for (const c of payload.components.flatMap((row) => row.components))
    if (c.type === ComponentType.StringSelect && c.custom_id.startsWith(prefix)) return { id: c.custom_id, options: c.options };
  return null;
};

const fieldsOf = (e: APIEmbed) => Object.fromEntries((e.fields ?? []).map((f) => [f.name, f.value]));

/** The profile's own custom IDs: its sections, pages, filter and recent matches' picker. */
const profileIds = (payload: MessagePayload): string[] => customIds(payload).filter((id) => /^pl\.[spfm]:/.test(id));

/** An enabled page button of `kind` (f, p, n, l) of the profile's paginator; undefined for none. */
function pageButton(payload: MessagePayload, kind: string): string | undefined {
  for (const c of payload.components.flatMap((row) => row.components))
    if (c.type === ComponentType.Button && 'custom_id' in c && !c.disabled && c.custom_id.startsWith('pl.p:') && c.custom_id.endsWith(`:${kind}`))
      return c.custom_id;
  return undefined;
}

let r: Replica;
let b: ReturnType<typeof bot>;

beforeAll(async () => {
  r = await replica();
  b = bot(r);
});

afterAll(async () => {
  await b.close();
  await r.close();
});

describe('every component route', () => {
  it('is named with what its answer is: a view opened from another, the same view, a private answer or an end', () => {
    const registered = commands.flatMap((c) => Object.keys(c.components ?? {}));
    expect(registered.length).toBeGreaterThan(0);
    expect(registered.filter((route) => !(route in ROUTES))).toEqual([]);
    expect(Object.keys(ROUTES).filter((route) => !registered.includes(route))).toEqual([]);
  });

  it('that is always private never replaces the message it is pressed on', async () => {
    const presses: Omit<Press, 'back'>[] = [
      { id: encodeCustomId('mt.t', MATCH) },
      { id: encodeCustomId('pl.u', CARD1GAN) },
      { id: encodeCustomId('feed.read', 'balances', 'balance-20251112') },
      { id: encodeCustomId('lk.v', CARD1GAN) },
    ];
    expect(presses.map((p) => p.id.split(':', 1)[0])).toEqual(Object.keys(ROUTES).filter((route) => ROUTES[route] === 'private'));
    for (const p of presses) {
      const answer = await b.press(p.id, p.values);
      expect(answer.mode, p.id).toBe('reply');
      expect(answer.view.ephemeral, p.id).toBe(true);
    }
  });
});

/** Opens every row of every page of `uid`'s recent matches from its list, checking each answer; counts scoreboards and rows. */
async function openEveryRow(b: ReturnType<typeof bot>, uid: string, sample: string): Promise<{ scoreboards: number; rows: number }> {
  let scoreboards = 0;
  let rows = 0;
  const first = await b.press(encodeCustomId('pl.s', uid, ''), ['matches']);
  expect(first.view.isError, sample).toBeFalsy();
  const pages = Number(/Page 1 of (\d+)/.exec(JSON.stringify(first.payload.components))?.[1] ?? 1);
  for (let page = 1; page <= pages; page++) {
    const list = page === 1 ? first : await b.press(encodeCustomId('pl.p', uid, '', 'matches', page, 'n'));
    const select = selectOptions(list.payload, 'mt.l:');
    if (!select) continue;
    const back = `pl.p:${uid}::matches:${page}:b`;
    for (const option of select.options) {
      const where = `${sample} page ${page}: ${option.label}`;
      const opened = await b.press(select.id, [option.value]);
      expect(opened.view.isError, where).toBeFalsy();
      expect(opened.mode, where).toBe('update');
      expectWithin(opened.payload, where);
      expect(backIds(opened.payload), where).toEqual([back]);
      const origin = decodeMatchOrigin(option.value);
      const e = opened.payload.embeds[0]!;
      expect(e.description, where).toContain(`\`${origin.matchUid}\``);
      if (customIds(opened.payload).some((id) => id.startsWith('pl.o:'))) {
        scoreboards++;
        expect(
          e.fields?.map((f) => f.name),
          where,
        ).toEqual(['MVP', 'SVP', 'Players']);
        continue;
      }
      rows++;
      // "3. Loss · Winter Soldier · 11/12/7": the row the member picked, said the same way.
      const [, result, hero, kda] = /^\d+\. (\w+) · (.+) · (\d+\/\d+\/\d+)$/.exec(option.label)!;
      expect(e.title, where).toMatch(new RegExp(`^${{ Win: 'Victory', Loss: 'Defeat', Draw: 'Draw' }[result!] ?? 'Match'}\\b`));
      expect(fieldsOf(e), where).toMatchObject({ Hero: hero, 'K/D/A': kda });
      expect(e.description, where).toContain('The full scoreboard of this match is not available');
      expect(e.description, where).toContain('own line from their match history');
      // Dated by its start, as the scoreboard is: the uid's, never the row's end the menu value carries.
      if (origin.time !== null) expect(e.description, where).toContain(`**Started** <t:${origin.matchUid.split('_')[1]}:f>`);
      // Back leads to the same page of the same list.
      const returned = await b.press(back);
      expect(returned.payload.embeds[0]!.description, where).toBe(list.payload.embeds[0]!.description);
    }
  }
  return { scoreboards, rows };
}

describe('each recent match of each sample profile, opened from its list', () => {
  it('answers with its scoreboard or its own history row, always with Back to the page it came from', { timeout: 180_000 }, async () => {
    let scoreboards = 0;
    let rows = 0;
    const served = new Map(r.dataset.players);
    try {
      // Every capture of every sample player, each served in turn as its player's profile, read by a bot of its own.
      for (const capture of r.dataset.profileCaptures) {
        r.serveCapture(capture.file);
        const own = bot(r);
        try {
          const opened = await openEveryRow(own, capture.uid, capture.file);
          scoreboards += opened.scoreboards;
          rows += opened.rows;
        } finally {
          await own.close();
        }
      }
    } finally {
      for (const [uid, body] of served) r.dataset.players.set(uid, body);
    }
    // Both kinds were met: real lists hold matches with a scoreboard and (most) without.
    expect(scoreboards).toBeGreaterThan(0);
    expect(rows).toBeGreaterThan(scoreboards);
  });

  it('a scoreboard opened from the list, then one of its players, then Back, is the match again with its Back to the list', async () => {
    const opened = await b.press(encodeCustomId('mt.l', CARD1GAN, '', 2, ''), [MATCH_ORIGIN]);
    const playerSelect = selectOptions(opened.payload, 'pl.o:')!;
    let profiles = 0;
    for (const option of playerSelect.options) {
      const player = await b.press(playerSelect.id, [option.value]);
      // A player whose profile the replica does not have is a private answer: the scoreboard stays as it was.
      if (player.mode === 'reply') {
        expect(player.view.ephemeral).toBe(true);
        continue;
      }
      const [toMatch] = backIds(player.payload);
      expect(toMatch).toBe(`mt.o:${MATCH_ORIGIN}:${CARD1GAN}::2:`);
      const again = await b.press(toMatch!);
      expect(again.payload.embeds).toEqual(opened.payload.embeds);
      expect(backIds(again.payload)).toEqual([`pl.p:${CARD1GAN}::matches:2:b`]);
      profiles++;
    }
    // Card1gan, who played it, has a profile at the replica.
    expect(profiles).toBeGreaterThanOrEqual(1);
  });

  it('a match without a scoreboard reached back from a player keeps its history row and its Back', async () => {
    const again = await b.press(encodeCustomId('mt.o', NO_DETAILS_ORIGIN, '1786151874', '', 1, ''));
    expect(again.mode).toBe('update');
    expect(fieldsOf(again.payload.embeds[0]!)['K/D/A']).toBe('11/12/7');
    expect(backIds(again.payload)).toEqual(['pl.p:1786151874::matches:1:b']);
  });

  it('an empty answer is the API having no scoreboard, not the API failing: an empty object, no players, zero bytes', async () => {
    const fresh = bot(r);
    const [, sample] = [...r.dataset.matches.entries()][0]!;
    const details = (sample as { match_details: Record<string, unknown> }).match_details;
    const cases = [
      { origin: '5517834_1753994498_1291018_11001_11~1291~2~624~1753995313~1-2', body: {}, kda: '29/7/18' },
      {
        origin: '5517759_1753993461_1292126_11001_11~1292~2~795~1753994458~2-3',
        body: { match_details: { ...details, match_uid: '5517759_1753993461_1292126_11001_11', match_players: [] } },
        kda: '24/6/20',
      },
    ];
    try {
      for (const c of cases) {
        const uid = c.origin.split('~')[0]!;
        r.dataset.matches.set(uid, c.body);
        const opened = await fresh.press('mt.l:1786151874::1:', [c.origin]);
        expect(opened.mode, uid).toBe('update');
        const e = opened.payload.embeds[0]!;
        expect(fieldsOf(e)['K/D/A'], uid).toBe(c.kda);
        expect(e.description, uid).toContain(
          'The full scoreboard of this match is not available: the Marvel Rivals API keeps scoreboards for only some matches.',
        );
        expect(backIds(opened.payload), uid).toEqual(['pl.p:1786151874::matches:1:b']);
      }
    } finally {
      for (const c of cases) r.dataset.matches.delete(c.origin.split('~')[0]!);
      await fresh.close();
    }
    // Every answer of zero bytes: nothing of the player can be read either, and the menu value is what is left.
    const empty = await cannedServer(200, '');
    const silent = bot({ ...r, url: empty.url });
    try {
      const opened = await silent.press('mt.l:1786151874::1:', [NO_DETAILS_ORIGIN]);
      expect(opened.mode).toBe('update');
      expect(opened.payload.embeds[0]!.description!.split('\n').slice(1)).toEqual([
        'The full scoreboard of this match is not available: the Marvel Rivals API keeps scoreboards for only some matches. Here is what the list of recent matches knew of it.',
        'Match 5518160\\_1754021020\\_1290140\\_11001\\_11',
      ]);
      expect(backIds(opened.payload)).toEqual(['pl.p:1786151874::matches:1:b']);
    } finally {
      await silent.close();
      empty.close();
    }
  });

  it('property: any match pressed from any list page replaces the list with a view that has Back to that page', { timeout: 120_000 }, async () => {
    const players = [...r.dataset.players.keys(), '424242', '9'.repeat(12)];
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          uid: fc.constantFrom(...players),
          season: fc.constantFrom('', '2', '1.5', 'x'),
          page: fc.integer({ min: 1, max: 1_000_000 }),
          filter: fc.constantFrom<'' | 'r'>('', 'r'),
          backKey: fc.option(fc.constantFrom(backKey('mt.o:x'), 'AAAAAAAAAA'), { nil: undefined }),
          match: fc.stringMatching(/^[0-9]{5,9}_[0-9]{10}_[0-9]{1,9}_11001_1[0-9]$/),
          mapId: fc.option(fc.constantFrom('1290', '1217', '9999'), { nil: null }),
          modeId: fc.option(fc.integer({ min: 0, max: 9 }), { nil: null }),
          duration: fc.option(fc.integer({ min: 0, max: 3_600 }), { nil: null }),
          time: fc.option(fc.integer({ min: 1_733_000_000, max: 1_760_000_000 }), { nil: null }),
        }),
        async (p) => {
          const place = { uid: p.uid, season: p.season, page: p.page, filter: p.filter, ...(p.backKey ? { backKey: p.backKey } : {}) };
          const value = encodeMatchOrigin({ matchUid: p.match, mapId: p.mapId, modeId: p.modeId, duration: p.duration, time: p.time });
          const answer = await b.press(encodeCustomId('mt.l', p.uid, p.season, p.page, p.filter, ...(p.backKey ? [p.backKey] : [])), [value]);
          // Whatever the API has of the match or the player, what the menu value knew is always there to show.
          expect(answer.mode).toBe('update');
          expectWithin(answer.payload, value);
          expect(backIds(answer.payload)).toEqual([listBackId(place)]);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('a player picked from a scoreboard', () => {
  /**
   * Checks a view of the profile opened from `toMatch`'s scoreboard: within Discord's limits, its one Back to the match, and
   * every ID of its own carrying the key the Back is kept under.
   */
  const expectWayBack = (opened: Awaited<ReturnType<typeof b.press>>, toMatch: string, where: string) => {
    expect(opened.view.isError, where).toBeFalsy();
    expect(opened.mode, where).toBe('update');
    expectWithin(opened.payload, where);
    expect(backIds(opened.payload), where).toEqual([toMatch]);
    const own = profileIds(opened.payload);
    expect(own.length, where).toBeGreaterThan(0);
    for (const id of own) expect(decodeCustomId(id)!.args, `${where}: ${id}`).toContain(backKey(toMatch));
  };

  it('keeps Back to the match through every section, page and filter, and a match opened from the profile and left again', { timeout: 60_000 }, async () => {
    const scoreboards = [
      { label: 'a match from the recent matches', scoreboard: await b.press(encodeCustomId('mt.l', CARD1GAN, '', 2, ''), [MATCH_ORIGIN]) },
      { label: '/match', scoreboard: await b.run('match', { match: MATCH }) },
    ];
    for (const { label, scoreboard } of scoreboards) {
      const players = selectOptions(scoreboard.payload, 'pl.o:')!;
      const profile = await b.press(players.id, [CARD1GAN]);
      const toMatch = encodeCustomId('mt.o', ...decodeCustomId(players.id)!.args);
      expectWayBack(profile, toMatch, `${label}: the profile`);
      let paged = 0;
      for (const section of PLAYER_SECTIONS) {
        const where = `${label}: ${section}`;
        const shown = await b.press(
          profileIds(profile.payload).find((id) => id.startsWith('pl.s:'))!,
          [section],
        );
        expectWayBack(shown, toMatch, where);
        for (const kind of ['n', 'l']) {
          const page = pageButton(shown.payload, kind);
          if (!page) continue;
          expectWayBack(await b.press(page), toMatch, `${where}, page button ${kind}`);
          paged++;
        }
      }
      // Card1gan's recent matches have more than one page.
      expect(paged, label).toBeGreaterThanOrEqual(2);

      // The filter, both ways.
      const matches = await b.press(
        profileIds(profile.payload).find((id) => id.startsWith('pl.s:'))!,
        ['matches'],
      );
      const hide = profileIds(matches.payload).find((id) => id.startsWith('pl.f:'))!;
      const filtered = await b.press(hide);
      expectWayBack(filtered, toMatch, `${label}: filtered`);
      expectWayBack(await b.press(profileIds(filtered.payload).find((id) => id.startsWith('pl.f:'))!), toMatch, `${label}: unfiltered`);

      // The scoreboard again from page 2 of the profile's own matches, one of its players, and back out step by step.
      const second = await b.press(pageButton(matches.payload, 'n')!);
      const picker = selectOptions(second.payload, 'mt.l:')!;
      expect(
        picker.options.map((o) => decodeMatchOrigin(o.value).matchUid),
        label,
      ).toContain(MATCH);
      const inner = await b.press(picker.id, [MATCH_ORIGIN]);
      const [toList] = backIds(inner.payload);
      expect(decodeCustomId(toList!)!.args, label).toContain(backKey(toMatch));
      const innerPlayers = selectOptions(inner.payload, 'pl.o:')!;
      expect(listPlace(decodeCustomId(innerPlayers.id)!.args.slice(1))?.backKey, label).toBe(backKey(toMatch));
      const innerProfile = await b.press(innerPlayers.id, [CARD1GAN]);
      const toInner = encodeCustomId('mt.o', ...decodeCustomId(innerPlayers.id)!.args);
      expectWayBack(innerProfile, toInner, `${label}: the profile from the profile's match`);
      const innerAgain = await b.press(toInner);
      expect(innerAgain.payload.embeds, label).toEqual(inner.payload.embeds);
      expect(backIds(innerAgain.payload), label).toEqual([toList]);
      const listAgain = await b.press(toList!);
      expectWayBack(listAgain, toMatch, `${label}: the list again`);
      expect(listAgain.payload.embeds[0]!.description, label).toBe(second.payload.embeds[0]!.description);

      // And Back to the match the member started from.
      const again = await b.press(toMatch);
      expect(again.view.isError, label).toBeFalsy();
      expect(again.payload.embeds.slice(1), label).toEqual(scoreboard.payload.embeds.slice(1));
    }
  });

  it('whose kept Back the store no longer has: the profile without a Back, never an error, and the key carried on', async () => {
    const scoreboard = await b.press(encodeCustomId('mt.l', CARD1GAN, '', 2, ''), [MATCH_ORIGIN]);
    const players = selectOptions(scoreboard.payload, 'pl.o:')!;
    const profile = await b.press(players.id, [CARD1GAN]);
    const toMatch = encodeCustomId('mt.o', ...decodeCustomId(players.id)!.args);
    const sections = profileIds(profile.payload).find((id) => id.startsWith('pl.s:'))!;
    // The same press finds it while it is kept: what follows is the store's miss, not a press that never looks.
    expectWayBack(await b.press(sections, ['ranked']), toMatch, 'kept');
    expect(await b.lookups.delete(`back:${backKey(toMatch)}`)).toBe(true);
    const gone = await b.press(sections, ['ranked']);
    expect(gone.view.isError).toBeFalsy();
    expect(gone.mode).toBe('update');
    expect(backIds(gone.payload)).toEqual([]);
    expect(profileIds(gone.payload)).toContain(sections);
    // Picked again from the scoreboard, the Back is kept again under the same key.
    const picked = await b.press(players.id, [CARD1GAN]);
    expect(profileIds(picked.payload)).toContain(sections);
    expectWayBack(await b.press(sections, ['ranked']), toMatch, 'kept again');
  });

  it('with the longest player uid, season, page, filter and match uid, every ID fits and the way back holds', async () => {
    const [, sample] = [...r.dataset.matches.entries()].find(([uid]) => uid === MATCH)!;
    const details = (sample as { match_details: Record<string, unknown> }).match_details;
    const LONG = '999999999_1760000000_999999999_11001_19';
    const origin = encodeMatchOrigin({ matchUid: LONG, mapId: '1292', modeId: 9, duration: 3_600, time: 1_760_000_000, score: [3, 3] });
    r.dataset.matches.set(LONG, { match_details: { ...details, match_uid: LONG } });
    try {
      // The kept Back of the profile whose list the match is opened from: itself one of the longest.
      const outer = encodeCustomId('mt.o', LONG, '9'.repeat(12), '99.5', MAX_PAGE, 'r', 'AAAAAAAAAA');
      const key = (await b.ctx.backTargets.keep(outer))!;
      expect(key).toBe(backKey(outer));
      const scoreboard = await b.press(encodeCustomId('mt.l', '9'.repeat(12), '99.5', MAX_PAGE, 'r', key), [origin]);
      expect(scoreboard.view.isError).toBeFalsy();
      expectWithin(scoreboard.payload, 'the longest scoreboard');
      expect(backIds(scoreboard.payload)).toEqual([encodeCustomId('pl.p', '9'.repeat(12), '99.5', 'matches', 'r', key, MAX_PAGE, 'b')]);
      // The match as opened and the place do not fit together: the place, key and all, goes with the bare match uid.
      const players = selectOptions(scoreboard.payload, 'pl.o:')!;
      expect(players.id).toBe(encodeCustomId('pl.o', LONG, '9'.repeat(12), '99.5', MAX_PAGE, 'r', key));
      const profile = await b.press(players.id, [CARD1GAN]);
      const toMatch = encodeCustomId('mt.o', LONG, '9'.repeat(12), '99.5', MAX_PAGE, 'r', key);
      expectWayBack(profile, toMatch, 'the profile from the longest scoreboard');
      const shown = await b.press(
        profileIds(profile.payload).find((id) => id.startsWith('pl.s:'))!,
        ['matches'],
      );
      expectWayBack(shown, toMatch, 'matches');
      expectWayBack(await b.press(pageButton(shown.payload, 'l')!), toMatch, 'matches, last page');
      const again = await b.press(toMatch);
      expect(again.view.isError).toBeFalsy();
      expect(backIds(again.payload)).toEqual([encodeCustomId('pl.p', '9'.repeat(12), '99.5', 'matches', 'r', key, MAX_PAGE, 'b')]);
    } finally {
      r.dataset.matches.delete(LONG);
    }
  });
});

/** What pressing `p` through the acknowledgement policy left: whether it replaced the message, and the final payload. */
async function deliver(p: Press, b: ReturnType<typeof bot>): Promise<{ replaced: boolean; payload: MessagePayload; calls: string[] }> {
  const budget = interactionBudget(snowflakeNow(), Date.now(), BUDGET_MS);
  const ctx = { ...b.ctx, budget };
  const calls: string[] = [];
  let final: MessagePayload | undefined;
  let replaced = false;
  const responder: ComponentResponder = {
    update: async (payload) => void (calls.push('update'), (replaced = true), (final = payload)),
    reply: async (payload) => void (calls.push('reply'), (final = payload)),
    deferUpdate: async () => void calls.push('deferUpdate'),
    deferEphemeralReply: async () => void calls.push('deferEphemeralReply'),
    // After a deferred update, the edit replaces the message pressed; after a private placeholder, it fills that.
    edit: async (payload) => void (calls.push('edit'), (replaced = calls.includes('deferUpdate')), (final = payload)),
    followUp: async (payload) => void (calls.push('followUp'), (final = payload)),
  };
  await answerComponent(b.router.component(p.id, p.values ?? [], MEMBER, MEMBER.userId, ctx), true, responder, { budget });
  if (!final) throw new Error(`${p.id}: no answer (${calls.join(', ')})`);
  return { replaced, payload: final, calls };
}

describe.each(FAULTS)('under a fault: $label', ({ faults, warm }) => {
  it('a press either answers privately, leaving the message as it was, or replaces it with a view that has its way back', { timeout: 60_000 }, async () => {
    // Its own cache; a hung request ends within seconds after the answer, so that the bot closes soon after.
    const fresh = bot(r, { apiTimeoutMs: BUDGET_MS });
    try {
      if (warm) for (const p of FAULT_PRESSES) await fresh.press(p.id, p.values);
      r.setFaults(faults);
      const answers = await Promise.all(FAULT_PRESSES.map(async (p) => ({ p, ...(await deliver(p, fresh)) })));
      let replacedOpening = 0;
      for (const { p, replaced, payload, calls } of answers) {
        const where = `${p.id} (${calls.join(', ')})`;
        expectWithin(payload, where);
        if (!replaced) {
          expect(payload.flags, where).toBe(MessageFlags.Ephemeral);
          continue;
        }
        const kind = kindOf(p.id);
        if (p.back === null) {
          // A top view keeps its own menu, pages or player select.
          expect(kind === 'same view' || typeof kind === 'object', where).toBe(true);
          expect(payload.components.length, where).toBeGreaterThan(0);
          continue;
        }
        expect(kind, where).toEqual({ opens: p.back });
        const backs = backIds(payload);
        expect(backs, where).toHaveLength(1);
        expect(backs[0]!.split(':', 1)[0], where).toBe(p.back);
        replacedOpening++;
      }
      // The matches opened from a list stood in for their scoreboards: the faults reached what the walk presses.
      expect(replacedOpening).toBeGreaterThanOrEqual(2);
    } finally {
      r.setFaults({});
      await fresh.close();
    }
  });
});
