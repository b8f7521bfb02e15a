/**
 * Errors that name what was asked and help: "Did you mean" from what the bot already knows, at no API
 * request; no "check what you typed" where nothing was typed; the Update button under a profile never
 * says there is no such player; /compare's own wording.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/api-errors.js';
import { errorView } from '../../src/discord/router.js';
import { toMessagePayload } from '../../src/render/view.js';
import { MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();

describe('errors that name the thing and help', () => {
  it('a player query that matches nobody suggests the member’s recent lookups and linked accounts, at no API request', async () => {
    await env.b.run('player', { query: '1117455441' });
    await env.b.ctx.links.link(MEMBER.userId, { uid: '1403392756', name: 'Card1gan' }, true);
    await expect.poll(async () => (await env.b.ctx.recent.list(MEMBER.userId)).map((r) => r.name)).toContain('Sir Final');
    const before = env.r.requests.total;
    const { payload } = await env.b.run('player', { query: 'Sir Finl' });
    expect(payload.flags).toBe(64);
    expect(payload.embeds[0]!.description).toBe('No player called “Sir Finl”. Did you mean **Sir Final**? Otherwise check the spelling, or use the UID.');
    // Only the profile read itself went to the API.
    expect(env.r.requests.total - before).toBe(1);
    const card = await env.b.run('player', { query: 'card1gn' });
    expect(card.payload.embeds[0]!.description).toMatch(/Did you mean \*\*Card1gan\*\*\?/);
    // Nothing close: the plain message, naming what was typed.
    const far = await env.b.run('player', { query: 'zzzzqqqq' });
    expect(far.payload.embeds[0]!.description).toBe('No player called “zzzzqqqq”. Check the spelling, or use the UID.');
  });

  it('the players of a match the member opened are suggested too, at no API request', async () => {
    await env.b.run('match', { match: '6713355_1740604074_322_11001_10' }, undefined, OTHER_MEMBER);
    await expect.poll(async () => (await env.b.ctx.recent.seen(OTHER_MEMBER.userId)).map((r) => r.name)).toContain('Gergory-House');
    const before = env.r.requests.total;
    const { payload } = await env.b.run('player', { query: 'Gregory-House' }, undefined, OTHER_MEMBER);
    expect(payload.embeds[0]!.description).toMatch(/^No player called “Gregory-House”\. Did you mean \*\*Gergory-House\*\*\?/);
    expect(env.r.requests.total - before).toBe(1);
    // Another member, who opened no match, gets it too: the bot has seen that player.
    const other = await env.b.run('player', { query: 'Gregory-House' }, undefined, MEMBER);
    expect(other.payload.embeds[0]!.description).toMatch(/Did you mean \*\*Gergory-House\*\*\?/);
  });

  it('/compare suggests the same way, and says /compare when the member has no account to compare with', async () => {
    const { payload } = await env.b.run('compare', { player: 'Sir Finl', other: '1117455441' }, undefined, MEMBER);
    expect(payload.embeds[0]!.description).toMatch(/^No player called “Sir Finl”\. Did you mean \*\*Sir Final\*\*\?/);
    const none = await env.b.run('compare', { player: '1117455441' }, undefined, OTHER_MEMBER);
    expect(none.payload.embeds[0]!.description).toBe(
      'You have not linked a Rivals account yet, so `/compare` has no second player. Give it `other:<name or UID>`, or link yours with `/link`.',
    );
  });

  it('the Update button under a profile never answers that there is no such player', async () => {
    env.r.setFaults({ forceStatus: 404, pathPrefix: '/api/v1/player/1403392756/update' });
    try {
      const { view, payload } = await env.b.press('pl.u:1403392756');
      expect(view.ephemeral).toBe(true);
      expect(env.r.requests.byPath.get('/api/v1/player/1403392756/update')).toBeGreaterThanOrEqual(1);
      expect(payload.embeds[0]!.description).toBe(
        'The API cannot refresh this player right now. The profile above is what it has; try **Update** again later.',
      );
      expect(payload.embeds[0]!.description).not.toMatch(/no profile|No player/);
    } finally {
      env.r.setFaults({});
    }
  });

  it('an answer the API does not have names what was typed, and never blames the typing when nothing was typed', () => {
    const logger = env.b.ctx.logger;
    const notFound = new ApiError({ kind: 'not_found', endpoint: 'heroStats', status: 404 });
    const refused = new ApiError({ kind: 'bad_request', endpoint: 'heroStats', status: 400 });
    const text = (v: ReturnType<typeof errorView>) => toMessagePayload(v).embeds[0]!.description;
    // /meta with no options: nothing typed.
    expect(text(errorView(notFound, { logger }))).toBe('The Marvel Rivals API had nothing to show for this right now. Try again in a few minutes.');
    expect(text(errorView(refused, { logger }))).toBe('The Marvel Rivals API had nothing to show for this right now. Try again in a few minutes.');
    expect(text(errorView(notFound, { logger }, 'squirrel*'))).toBe('Nothing was found for “squirrel\\*”. Check what you typed and try again.');
  });
});
