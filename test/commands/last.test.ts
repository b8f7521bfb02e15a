/** `/last [player] [user]`: a player's newest match, as its scoreboard or, without one, as its history row. */
import { describe, expect, it } from 'vitest';
import type { APIEmbed } from 'discord-api-types/v10';
import { MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const UID = '1786151874';
const SIR = '1117455441';
const CARD1GAN = '1403392756';
const fieldsOf = (e: APIEmbed) => Object.fromEntries((e.fields ?? []).map((f) => [f.name, f.value]));

/** The newest row the replica's history gives the player: the match `/last` opens. */
async function newestRow(uid: string) {
  const { recentMatches } = await import('../../src/catalog/history.js');
  const p = (await env.b.ctx.api.player(uid)).data;
  const page = await recentMatches(env.b.ctx.api, p, { page: 1 });
  return [...page.rows].sort((a, b) => (b.time ?? 0) - (a.time ?? 0))[0]!;
}

describe('/last', () => {
  it('with a scoreboard, the scoreboard, headed with whose match it is', async () => {
    const row = await newestRow(UID);
    const [, sample] = [...env.r.dataset.matches.entries()][0]!;
    env.r.dataset.matches.set(row.match_uid, {
      ...(sample as Record<string, unknown>),
      match_details: { ...(sample as { match_details: object }).match_details, match_uid: row.match_uid },
    });
    try {
      const { view, payload } = await env.b.run('last', { player: UID });
      expect(view.isError).toBeFalsy();
      expect(payload.embeds[0]!.author?.name).toBe('Double C · latest match');
      expect(payload.embeds[0]!.description).toContain(`Match \`${row.match_uid}\``);
      // The summary, then one embed per team.
      expect(payload.embeds.length).toBeGreaterThanOrEqual(3);
      expect(payload.embeds[1]!.title).toMatch(/^Team [AB]/);
    } finally {
      env.r.dataset.matches.delete(row.match_uid);
    }
  });

  it('opens the member’s linked account’s newest match; without a scoreboard, its own history row, said so', async () => {
    // Each test its own player: a match read once is cached, its absence too.
    await env.b.ctx.links.link(MEMBER.userId, { uid: SIR, name: 'Sir Final' }, true, 0);
    const row = await newestRow(SIR);
    const { view, payload } = await env.b.run('last', {}, undefined, MEMBER);
    expect(view.isError).toBeFalsy();
    const e = payload.embeds[0]!;
    expect(e.author?.name).toMatch(/ · latest match$/);
    expect(e.title).toMatch(new RegExp(`^${row.player.is_win ? 'Victory' : 'Defeat'} · `));
    expect(e.description).toContain(`The API has no scoreboard for this match (\`${row.match_uid}\`)`);
    expect(e.description).toContain(`**Played** <t:${row.time}:f>`);
    const f = fieldsOf(e);
    expect(f['K/D/A']).toBe(`${row.player.kills}/${row.player.deaths}/${row.player.assists}`);
    expect(f.Hero).toBeTruthy();
    expect(f.Hero).not.toBe('No hero');
    if (row.game_mode_id === 2) expect(f['Rank score']).toMatch(/^([+−][\d.]+|±0) → [\d,]+$/);
    else expect(f['Rank score']).toBeUndefined();
  });

  it('when the scoreboard cannot be read now, the history row says so instead of failing', async () => {
    const row = await newestRow(CARD1GAN);
    env.r.setFaults({ forceStatus: 503, pathPrefix: '/api/v1/match/' });
    try {
      const { view, payload } = await env.b.run('last', { player: CARD1GAN });
      expect(view.isError).toBeFalsy();
      expect(payload.embeds[0]!.description).toContain(`The scoreboard of this match (\`${row.match_uid}\`) cannot be read right now`);
    } finally {
      env.r.setFaults({});
    }
  });

  it('names what is missing: no linked account, an unknown player', async () => {
    const unlinked = await env.b.run('last', {}, undefined, OTHER_MEMBER);
    expect(unlinked.view.isError).toBe(true);
    // Named as /last, with its own option: not /player's advice.
    expect(unlinked.payload.embeds[0]!.description).toBe(
      'You have not linked a Rivals account yet, so `/last` needs a player: give it `player:<name or UID>`, or link yours with `/link`.',
    );
    const unknown = await env.b.run('last', { player: 'Nobody123' });
    expect(unknown.view.isError).toBe(true);
    expect(unknown.payload.embeds[0]!.description).toBe('No player called “Nobody123”. Check the spelling, or use the UID.');
  });

  it('autocompletes the member’s linked accounts', async () => {
    await env.b.ctx.links.link(MEMBER.userId, { uid: UID, name: 'Double C' }, true, 0);
    const choices = await env.b.router.autocomplete('last', { focused: { name: 'player', value: '' }, options: {}, user: MEMBER }, env.b.ctx);
    expect(choices).toContainEqual({ name: 'Double C · your default', value: UID });
  });
});
