/** `/last [player] [user]`: a player's newest match, as its scoreboard or, without one, as its history row. */
import { describe, expect, it } from 'vitest';
import type { APIEmbed } from 'discord-api-types/v10';
import { customIds, MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';
import { expectWithin, messageTexts } from '../helpers/limits.js';
import { LOCALES, runInLocale, tr } from '../../src/i18n/index.js';
import type { MessageKey } from '../../src/i18n/keys.js';
import { escapeText } from '../../src/render/limits.js';

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
    expect(e.title).toMatch(new RegExp(`^${{ win: 'Victory', loss: 'Defeat', draw: 'Draw' }[row.player.result!]} · `));
    expect(e.description).toContain(
      'The full scoreboard of this match is not available: the Marvel Rivals API keeps scoreboards for only some matches. Here is Sir Final’s own line from their match history.',
    );
    expect(e.description).toContain(`Match \`${row.match_uid}\``);
    // Dated by its start, as its scoreboard would be: the uid's, not the row's end.
    expect(e.description).toContain(`**Started** <t:${row.match_uid.split('_')[1]}:f>`);
    expect(e.description).not.toContain(`<t:${row.time}:`);
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
      expect(payload.embeds[0]!.description).toContain(
        'The full scoreboard of this match cannot be read right now: the Marvel Rivals API is not answering. Try again in a few minutes.',
      );
      expect(payload.embeds[0]!.description).toContain(`Match \`${row.match_uid}\``);
      expect(fieldsOf(payload.embeds[0]!)['K/D/A']).toBe(`${row.player.kills}/${row.player.deaths}/${row.player.assists}`);
    } finally {
      env.r.setFaults({});
    }
  });

  it('without a scoreboard, in every language: the row and why there is no scoreboard, within Discord’s limits, never pointing to /player', async () => {
    const row = await newestRow(SIR);
    const name = (await env.b.ctx.api.player(SIR)).data.name;
    const english = (await env.b.run('last', { player: SIR })).payload.embeds[0]!;
    for (const locale of LOCALES) {
      const { view, payload } = await runInLocale(locale, () => env.b.run('last', { player: SIR }));
      expect(view.isError, locale).toBeFalsy();
      expectWithin(payload, `/last in ${locale}`);
      const e = payload.embeds[0]!;
      const say = (key: MessageKey, values?: Record<string, string>) => runInLocale(locale, () => tr(key, values));
      expect(e.description, locale).toContain(
        say('match:noScoreboard.said', {
          reason: say('match:noScoreboard.missing'),
          source: say('match:noScoreboard.fromRow', { player: escapeText(name, 60) }),
        }),
      );
      if (locale !== 'en') expect(e.description, locale).not.toBe(english.description);
      expect(fieldsOf(e)[say('match:last.kda')], locale).toBe(`${row.player.kills}/${row.player.deaths}/${row.player.assists}`);
      // Its own answer: nothing to press that leads to /player, and no text that sends the member there.
      expect(customIds(payload), locale).toEqual([]);
      expect(messageTexts(payload).join('\n'), locale).not.toMatch(/\/player|<\/player/);
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
