/**
 * The replica's game side: an icon equipped in game reaches the profile only with an accepted update, as the proof of
 * ownership needs it; a new rank reaches it at once, in both profile shapes, read by the bot's own schemas and rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankSummary } from '../../src/game/profile.js';
import { checkOwnership } from '../../src/jobs/link-verifier.js';
import { knownIcons, rankOf, scoreOfLevel, withRank } from '../../src/replica/in-game.js';
import { loadDataset } from '../../src/replica/data/dataset.js';
import { teammateProfile } from '../../src/replica/data/teammates.js';
import { tierOfLevel } from '../../src/game/ranks.js';
import { seasonFromRankGame } from '../../src/game/seasons.js';
import type { Replica } from '../../src/replica/server.js';
import { openState, type State } from '../../src/store/state.js';
import { clientFor, replica, TEST_KEY } from '../helpers/replica.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/core/logger.js';

const CARD1GAN = '1403392756';
const DOUBLE_C = '1786151874';

let r: Replica;
let t = Date.parse('2026-03-01T12:00:00Z');
beforeAll(async () => {
  r = await replica({ now: () => t });
});
afterAll(() => r.close());

async function call(path: string, method = 'GET', body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${r.url}${path}`, {
    method,
    headers: { 'x-api-key': TEST_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const iconShown = async (uid: string) => ((await call(`/api/v1/player/${uid}`)).body.player as { icon: { player_icon_id: string } }).icon.player_icon_id;

describe('an icon equipped in game', () => {
  it('is offered from the icons the captured profiles wear, each once', () => {
    const icons = r.game.icons();
    expect(icons.map((i) => i.id)).toEqual(knownIcons(r.dataset.profileCaptures).map((i) => i.id));
    expect(new Set(icons.map((i) => i.id)).size).toBe(icons.length);
    expect(icons.map((i) => i.id)).toContain('31029203');
    expect(icons.every((i) => i.path === `/players/heads/player_head_${i.id}.png`)).toBe(true);
  });

  it('shows in the profile only after an accepted update; an update refused in its cooldown brings nothing', async () => {
    const before = await iconShown(CARD1GAN);
    const other = r.game.icons().find((i) => i.id !== before)!;
    const equipped = (await call(`/__replica/game/players/${CARD1GAN}/icon`, 'PUT', { iconId: other.id })).body;
    expect(equipped).toMatchObject({ uid: CARD1GAN, name: 'Card1gan', shown: { id: before }, equipped: { id: other.id }, updateInMs: 0 });
    expect(await iconShown(CARD1GAN)).toBe(before);

    expect((await call(`/api/v1/player/${CARD1GAN}/update`)).status).toBe(200);
    expect(await iconShown(CARD1GAN)).toBe(other.id);
    expect(r.game.status(CARD1GAN)).toMatchObject({ shown: { id: other.id }, equipped: { id: other.id } });

    // Within the cooldown: equipped again, refused, still the first.
    r.game.equipIcon(CARD1GAN, before);
    t += 60_000;
    expect((await call(`/api/v1/player/${CARD1GAN}/update`)).status).toBe(429);
    expect(await iconShown(CARD1GAN)).toBe(other.id);
    expect(r.game.status(CARD1GAN)!.updateInMs).toBe(29 * 60_000);

    // The cooldown ended early: the next update is accepted and brings the icon.
    expect((await call(`/__replica/game/players/Card1gan/update-cooldown`, 'DELETE')).body).toMatchObject({ updateInMs: 0 });
    expect((await call(`/api/v1/player/${CARD1GAN}/update`)).status).toBe(200);
    expect(await iconShown(CARD1GAN)).toBe(before);
    // And the cooldown runs again from that update.
    expect((await call(`/api/v1/player/${CARD1GAN}/update`)).status).toBe(429);
  });

  it('finishes a proof of ownership through the bot’s own check', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rivals-in-game-'));
    const state: State = await openState({ dataDir: dir, file: 'state.sqlite', logger: createLogger({ level: 'silent' }) });
    try {
      const api = clientFor(r);
      const profile = (await api.player(DOUBLE_C, {}, { fresh: true })).data;
      await state.links.link('42', { uid: DOUBLE_C, name: profile.name }, true, t);
      await state.verifications.start('42', DOUBLE_C, profile.icon_id, t, 3_600_000, 0);
      const check = async () =>
        (
          await checkOwnership((await state.verifications.get('42', DOUBLE_C))!, {
            api,
            verifications: state.verifications,
            now: () => t,
            priority: 'interactive',
          })
        ).outcome;
      // Nothing changed in game yet: the update is accepted, the icon is the same.
      expect(await check()).toBe('waiting');
      r.game.equipIcon(DOUBLE_C, r.game.icons().find((i) => i.id !== profile.icon_id)!.id);
      // Refused in the cooldown: still waiting, as on the API.
      expect(await check()).toBe('waiting');
      r.game.skipUpdateCooldown(DOUBLE_C);
      expect(await check()).toBe('verified');
      expect((await state.links.get('42')).accounts[0]!.verifiedAt).toBe(t);
    } finally {
      await state.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an icon no profile wears and a player the replica does not have', async () => {
    expect(await call(`/__replica/game/players/${CARD1GAN}/icon`, 'PUT', { iconId: '123' })).toMatchObject({
      status: 400,
      body: { error: /^no player icon 123/ },
    });
    expect(await call('/__replica/game/players/nobody-here/icon', 'PUT', { iconId: '31029203' })).toMatchObject({
      status: 404,
      body: { error: 'the replica has no player nobody-here' },
    });
    expect((await call('/__replica/game/players/nobody-here')).status).toBe(404);
  });
});

describe('a rank reached in game', () => {
  it('shows at once in either profile shape, as the bot reads a rank', async () => {
    const api = clientFor(r);
    // Card1gan: the older shape (tier in `rank.rank`, score only in the season entry).
    const diamond = (await call(`/__replica/game/players/${CARD1GAN}/rank`, 'PUT', { level: 14 })).body;
    expect(diamond).toMatchObject({ rank: { level: 14, tier: 'Diamond II' } });
    const older = rankSummary((await api.player(CARD1GAN, {}, { fresh: true })).data);
    expect(older).toMatchObject({ tier: 'Diamond II', score: scoreOfLevel(14) });
    // Double C's newest capture: the August 2025 shape, with `rank.score` and a peak beside the name.
    r.game.setRank(DOUBLE_C, 23);
    const newer = (await api.player(DOUBLE_C, {}, { fresh: true })).data;
    expect(rankSummary(newer)).toMatchObject({ tier: 'One Above All', score: Math.trunc(scoreOfLevel(23)), seasonPeak: { tier: 'One Above All' } });
    expect(newer.rank.name).toBe('One Above All');
    // Down again: the peak stays.
    r.game.setRank(DOUBLE_C, 7);
    const lower = rankSummary((await api.player(DOUBLE_C, {}, { fresh: true })).data);
    expect(lower).toMatchObject({ tier: 'Gold III', seasonPeak: { tier: 'One Above All' } });
  });

  it('refuses a level the game does not have', async () => {
    expect(await call(`/__replica/game/players/${CARD1GAN}/rank`, 'PUT', { level: 24 })).toMatchObject({
      status: 400,
      body: { error: 'level must be an integer from 1 to 23' },
    });
    expect(() => withRank({ player: {} }, 5, t)).toThrow('the profile lists no ranked season');
  });

  it('ranks a player who never played ranked in the season of their newest match, as the game would list it', () => {
    // A playground teammate's derived profile: matches of Season 1.5 (history index 2), no ranked season.
    const dataset = loadDataset();
    const uid = [...dataset.matches.values()]
      .flatMap((m) => (m.match_details as { match_players: { player_uid: number }[] }).match_players.map((p) => String(p.player_uid)))
      .find((u) => !dataset.players.has(u) && teammateProfile(dataset, u) !== undefined)!;
    const profile = teammateProfile(dataset, uid)!;
    expect(rankOf(profile)).toBeNull();
    const ranked = withRank(profile, 10, t);
    expect(rankOf(ranked)).toEqual({ level: 10, tier: tierOfLevel(10) });
    const seasons = (ranked.player as { info: { rank_game_season: Record<string, { rank_game_id: number; level: number }> } }).info.rank_game_season;
    expect(Object.keys(seasons)).toEqual(['1001003']);
    expect(seasons['1001003']).toMatchObject({ rank_game_id: 3, level: 10, win_count: 0 });
    expect(seasonFromRankGame(3)?.number).toBe('1.5');
  });
});
