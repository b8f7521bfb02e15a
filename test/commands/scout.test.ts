/** `/scout`: every player of a finished match from their public profiles, on the replica's real match and profiles. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_TRICK_SHARE, SCOUT_PLAYERS } from '../../src/commands/match.js';
import { heroSummary, totalPlayTime } from '../../src/game/profile.js';
import { MEMBER, useReplicaBot } from '../helpers/bot.js';
import { profiles } from '../game/samples.js';

const env = useReplicaBot();
const MATCH = '6713355_1740604074_322_11001_10';
/** Players of that match: Gergory-House (made private here), Alikye (given Double C's profile: a one-trick), Card1gan (real). */
const PRIVATE = '1905864126';
const ONE_TRICK = '1319212086';

/** A team embed's line of `name`. */
const lineOf = (embeds: { description?: string }[], name: string) =>
  embeds.flatMap((e) => (e.description ?? '').split('\n')).find((l) => l.startsWith(`**${name}**`))!;

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
    const [header, ...teams] = payload.embeds;
    expect(header!.title).toBe('Lobby scout');
    expect(header!.description).toMatch(/^Post-match only: /);
    expect(teams.map((t) => t.title)).toEqual(['Team A · Defeat', 'Team B · Victory']);
    // Card1gan played Cloak & Dagger: their record on it is the profile's own.
    const card1gan = profiles['autumnnippert-card1gan-1403392756-2025-03-06.json']!;
    const cloak = heroSummary(card1gan).heroes.find((h) => h.hero_name?.toLowerCase().includes('cloak'))!;
    expect(lineOf(teams, 'Card1gan')).toBe(
      `**Card1gan** · Cloak & Dagger · Grandmaster III 4,562 · top Magik, Human Torch, Cloak & Dagger · on this hero: ${cloak.matches} matches, 33.3 %, KDA 3.90`,
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
    const { payload } = await env.b.run('scout', { match: MATCH });
    const alikye = lineOf(payload.embeds.slice(1), 'Alikye');
    expect(alikye).toContain(`**plays Winter Soldier ${(share * 100).toFixed(1)} % of the time**`);
    // Alikye played Psylocke, which that profile never did.
    expect(alikye).toContain('no completed match on this hero');
    expect(lineOf(payload.embeds.slice(1), 'Card1gan')).not.toContain('of the time');
  });

  it('a match the API does not have gets a clear answer that names it', async () => {
    const { view, payload } = await env.b.run('scout', { match: '999_1740604074_322_11001_10' });
    expect(view.isError).toBe(true);
    expect(JSON.stringify(payload.embeds)).toContain('999\\\\_1740604074\\\\_322\\\\_11001\\\\_10');
  });

  it('without a match, scouts the member’s linked account’s newest match; without a link, says how to link', async () => {
    const unlinked = await env.b.run('scout', {}, undefined, { ...MEMBER, userId: '200000000000000077' });
    expect(unlinked.view.isError).toBe(true);
    expect(JSON.stringify(unlinked.payload.embeds)).toMatch(/link/i);
    await env.b.ctx.links.link(MEMBER.userId, { uid: '1117455441', name: 'Sir Final' }, true, 0);
    const { view, payload } = await env.b.run('scout', {}, undefined, MEMBER);
    // Sir Final's newest match has no scoreboard at the replica: named, not blamed on typing.
    expect(view.isError).toBe(true);
    expect(JSON.stringify(payload.embeds)).not.toMatch(/check what you typed/i);
  });
});
