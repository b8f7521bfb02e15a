/** `/scout`: every player of a finished match from their public profiles, on the replica's real match and profiles. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoutView } from '../../commands/scout.js';
import { ONE_TRICK_MIN_PLAY_SECONDS, ONE_TRICK_SHARE, SCOUT_PLAYERS } from '../../src/render/scout.js';
import { createImageResolver } from '../../src/api/images.js';
import { createSchemas } from '../../src/api/schemas.js';
import { teammateProfile } from '../../src/replica/data/teammates.js';
import { heroSummary, totalPlayTime } from '../../src/game/profile.js';
import { customIds, MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';
import { lastVersion, toMessagePayload } from '../../src/render/view.js';
import { runInLocale } from '../../src/i18n/index.js';
import { profiles } from '../game/samples.js';

const env = useReplicaBot();
const MATCH = '6713355_1740604074_322_11001_10';
/** Players of that match: Gergory-House (made private here), Alikye (given Double C's profile: a one-trick), Card1gan (real). */
const PRIVATE = '1905864126';
const ONE_TRICK = '1319212086';

/** A team embed's line of `name`. */
const lineOf = (embeds: { description?: string }[], name: string) =>
  embeds.flatMap((e) => (e.description ?? '').split('\n')).find((l) => l.startsWith(`**${name}**`))!;

/** Holds every profile read until `release()`; `restore()` releases them and puts the API client's reads back. */
function holdPlayerReads(): { release: () => void; restore: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const api = env.b.ctx.api;
  const player = api.player.bind(api);
  api.player = async (...args: Parameters<typeof player>) => {
    await held;
    return player(...args);
  };
  return {
    release,
    restore: () => {
      release();
      api.player = player;
    },
  };
}

beforeAll(() => {
  const doubleC = structuredClone(env.r.dataset.players.get('1786151874')!) as Record<string, unknown>;
  env.r.dataset.players.set(ONE_TRICK, { ...doubleC, uid: Number(ONE_TRICK), name: 'Alikye' });
  env.r.dataset.players.set(PRIVATE, {
    ...structuredClone(env.r.dataset.players.get('1402468705')!),
    uid: Number(PRIVATE),
    name: 'Gergory-House',
    isPrivate: true,
  });
});
afterAll(() => {
  env.r.dataset.players.delete(ONE_TRICK);
  env.r.dataset.players.delete(PRIVATE);
});

describe('/scout', () => {
  it('lists every player by team with rank, top heroes and their record on the hero they played, and says it is post-match only', async () => {
    const { view, payload } = await env.b.run('scout', { match: MATCH });
    expect(view.isError).toBeFalsy();
    const [header, ...teamA] = payload.embeds;
    expect(header!.title).toBe('Lobby scout');
    expect(header!.description).toMatch(/^Post-match only: /);
    // One team a page, so that a phone shows it without scrolling; a grey button for each team, the one shown disabled.
    expect(teamA.map((t) => t.title)).toEqual(['Team A · Defeat']);
    const buttons = payload.components.flatMap((row) => row.components) as { label?: string; style?: number; disabled?: boolean; custom_id?: string }[];
    expect(buttons.map((b) => [b.label, b.style, b.disabled ?? false])).toEqual([
      ['Team A · Defeat', 2, true],
      ['Team B · Victory', 2, false],
    ]);
    const teamB = (await env.b.press(buttons[1]!.custom_id!)).payload.embeds.slice(1);
    expect(teamB.map((t) => t.title)).toEqual(['Team B · Victory']);
    const teams = [...teamA, ...teamB];
    // Card1gan played Cloak & Dagger: their record on it is the profile's own, beside the hero.
    const card1gan = profiles['autumnnippert-card1gan-1403392756-2025-03-06.json']!;
    const cloak = heroSummary(card1gan).heroes.find((h) => h.hero_name?.toLowerCase().includes('cloak'))!;
    expect(lineOf(teams, 'Card1gan')).toBe(
      `**Card1gan** · Cloak & Dagger (${cloak.matches} matches, 33.3 %, KDA 3.90) · Grandmaster III 4,562 · top Magik, Human Torch, Cloak & Dagger`,
    );
    expect(lineOf(teams, 'Gergory-House')).toBe('**Gergory-House** · Storm · *private profile*');
    // A player the API has no profile of is said so; the 13th player (who left early) is past the cap of 12.
    expect(lineOf(teams, 'KingDomENT')).toBe('**KingDomENT** · The Thing · *no public profile*');
    expect(SCOUT_PLAYERS).toBe(12);
    expect(lineOf(teams, 'Diijonn')).toBe('**Diijonn** · Magneto · *not read: a scout reads 12 profiles at most*');
    expect(header!.footer?.text).toBe('Profiles read: 3 of 13');
  });

  it('flags a player who plays one hero most of the time, by the share of the profile’s play time', async () => {
    const doubleC = profiles['doublec8-double-c-1786151874-2025-08-05.json']!;
    const share = heroSummary(doubleC).heroes[0]!.play_time / totalPlayTime(doubleC);
    expect(share).toBeGreaterThanOrEqual(ONE_TRICK_SHARE);
    expect(totalPlayTime(doubleC)).toBeGreaterThanOrEqual(ONE_TRICK_MIN_PLAY_SECONDS);
    const { payload } = await env.b.run('scout', { match: MATCH });
    const teamB = (await env.b.press(customIds(payload)[1]!)).payload.embeds.slice(1);
    const alikye = lineOf(teamB, 'Alikye');
    expect(alikye).toContain(`**plays Winter Soldier ${(share * 100).toFixed(1)} % of the time**`);
    // Alikye played Psylocke, which that profile never did.
    expect(alikye).toContain('Psylocke (no matches)');
    expect(lineOf(payload.embeds.slice(1), 'Card1gan')).not.toContain('of the time');
  });

  it('does not flag a player whose profile holds a match or two, whatever the share: a sample is not a habit', async () => {
    // KnightHawkDIE, known from one recorded match: 62 % of its nine minutes on Winter Soldier.
    const lobby = '6714464_1741144336_206_11001_10';
    const uid = '1138496562';
    const body = teammateProfile(env.r.dataset, uid)!;
    const profile = createSchemas(createImageResolver('https://img.test')).player.parse(body);
    const share = heroSummary(profile).heroes[0]!.play_time / totalPlayTime(profile);
    expect(share).toBeGreaterThanOrEqual(ONE_TRICK_SHARE);
    expect(totalPlayTime(profile)).toBeLessThan(ONE_TRICK_MIN_PLAY_SECONDS);
    env.r.dataset.players.set(uid, body);
    try {
      const { payload } = await env.b.run('scout', { match: lobby });
      const line = lineOf(payload.embeds.slice(1), 'KnightHawkDIE');
      // Read: the line holds the profile's own record, and no flag.
      expect(line).toContain('Winter Soldier (1 match, 0.0 %, KDA 1.25)');
      expect(line).not.toContain('of the time');
    } finally {
      env.r.dataset.players.delete(uid);
    }
  });

  it('keeps the team the member picked while profiles still arrive: the edits that follow show it, not the first team', async () => {
    // Every read of the lobby's profiles held until released, so the scout is live when the button is pressed.
    const { release, restore } = holdPlayerReads();
    try {
      const first = await env.b.router.command('scout', { options: { match: MATCH }, user: MEMBER }, env.b.ctx);
      // The same member scouts the same match again, in another message: a press on the first must not move the second.
      const again = await env.b.router.command('scout', { options: { match: MATCH }, user: MEMBER }, env.b.ctx);
      expect(first.embeds![0]!.footer?.text).toMatch(/more on the way/);
      expect(first.next).toBeDefined();
      const teamB = customIds(toMessagePayload(first))[1]!;
      expect(customIds(toMessagePayload(again))).not.toContain(teamB);
      const pressed = await env.b.router.component(teamB, [], MEMBER, MEMBER.userId, env.b.ctx);
      expect(pressed.mode).toBe('update');
      expect(pressed.view.embeds!.slice(1).map((e) => e.title)).toEqual(['Team B · Victory']);
      // The press shows what the live scout has; its own edits carry on (no second chain of edits).
      expect(pressed.view.next).toBeUndefined();
      release();
      const firstDone = await lastVersion(first);
      expect(firstDone.embeds![0]!.footer?.text).toBe('Profiles read: 3 of 13');
      expect(firstDone.embeds!.slice(1).map((e) => e.title)).toEqual(['Team B · Victory']);
      expect((await lastVersion(again)).embeds!.slice(1).map((e) => e.title)).toEqual(['Team A · Defeat']);
      // A forged team number shows the first team, not an error.
      const forged = teamB.replace(/:1:/, ':7:');
      expect((await env.b.router.component(forged, [], MEMBER, MEMBER.userId, env.b.ctx)).view.embeds!.slice(1).map((e) => e.title)).toEqual([
        'Team A · Defeat',
      ]);
    } finally {
      restore();
    }
  });

  it('a team picked while the last edit is on its way gets one more edit, with the team picked', async () => {
    const { release, restore } = holdPlayerReads();
    try {
      const first = await env.b.router.command('scout', { options: { match: MATCH }, user: MEMBER }, env.b.ctx);
      release();
      // The complete version, drawn with Team A: as the runtime would be sending it, the member presses Team B.
      let complete = first;
      while (!complete.embeds![0]!.footer!.text.endsWith('of 13')) complete = (await complete.next!())!;
      expect(complete.embeds!.slice(1).map((e) => e.title)).toEqual(['Team A · Defeat']);
      await env.b.router.component(customIds(toMessagePayload(first))[1]!, [], MEMBER, MEMBER.userId, env.b.ctx);
      const corrected = await complete.next!();
      expect(corrected!.embeds!.slice(1).map((e) => e.title)).toEqual(['Team B · Victory']);
      // Nothing changed since: the edits end.
      expect(await corrected!.next!()).toBeNull();
    } finally {
      restore();
    }
  });

  it('someone else’s press gets their own private copy of the team, and leaves the member’s scout as it is', async () => {
    const { payload } = await env.b.run('scout', { match: MATCH });
    const result = await env.b.press(customIds(payload)[1]!, [], OTHER_MEMBER);
    expect(result.mode).toBe('reply');
    expect(result.view.ephemeral).toBe(true);
    expect(result.payload.embeds.slice(1).map((e) => e.title)).toEqual(['Team B · Victory']);
    // The member's own press of Team A still finds Team A.
    const own = await env.b.press(customIds(payload)[0]!);
    expect(own.payload.embeds.slice(1).map((e) => e.title)).toEqual(['Team A · Defeat']);
  });

  it('scouting your own match shows your opponents first, your team a button away', async () => {
    // Card1gan played on Team A: their linked member scouting their latest match sees Team B first.
    const view = await scoutView(MATCH, env.b.ctx, { typed: false, userId: MEMBER.userId, ownUid: '1403392756' });
    const payload = toMessagePayload(await lastVersion(view));
    expect(payload.embeds.slice(1).map((e) => e.title)).toEqual(['Team B · Victory']);
    const buttons = payload.components[0]!.components as { disabled?: boolean; custom_id: string }[];
    expect(buttons.map((b) => b.disabled ?? false)).toEqual([false, true]);
    const own = await env.b.press(buttons[0]!.custom_id);
    expect(own.payload.embeds[1]!.description).toContain('**Card1gan**');
  });

  it('is written in the member’s language, the record beside the hero as each language sets it', async () => {
    const ja = await runInLocale('ja', () => env.b.run('scout', { match: MATCH }));
    expect(lineOf(ja.payload.embeds.slice(1), 'Card1gan')).toMatch(/^\*\*Card1gan\*\* · Cloak & Dagger（\d+試合、33\.3%、KDA 3\.90） · /);
    const de = await runInLocale('de', () => env.b.run('scout', { match: MATCH }));
    expect(lineOf(de.payload.embeds.slice(1), 'Card1gan')).toMatch(/^\*\*Card1gan\*\* · Cloak & Dagger \(\d+ Matches, 33,3 %, KDA 3,90\) · /);
  });

  it('a match the API does not have gets a clear answer that names it', async () => {
    const { view, payload } = await env.b.run('scout', { match: '999_1740604074_322_11001_10' });
    expect(view.isError).toBe(true);
    expect(JSON.stringify(payload.embeds)).toContain('999\\\\_1740604074\\\\_322\\\\_11001\\\\_10');
  });

  it('without a match, scouts the member’s linked account’s newest match; without a link, says how to link', async () => {
    const unlinked = await env.b.run('scout', {}, undefined, { ...MEMBER, userId: '200000000000000077' });
    expect(unlinked.view.isError).toBe(true);
    expect(unlinked.payload.embeds[0]!.description).toBe(
      'You have not linked a Rivals account yet, so `/scout` has no latest match of yours to read: give it `match:<match ID>`, or link yours with `/link`.',
    );
    await env.b.ctx.links.link(MEMBER.userId, { uid: '1117455441', name: 'Sir Final' }, true, 0);
    const { view, payload } = await env.b.run('scout', {}, undefined, MEMBER);
    // Sir Final's newest match has no scoreboard at the replica: named, not blamed on typing.
    expect(view.isError).toBe(true);
    expect(JSON.stringify(payload.embeds)).not.toMatch(/check what you typed/i);
  });
});
