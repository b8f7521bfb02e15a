/**
 * Reading a match: from the match store when the bot has read it before (src/store/matches.ts: no API request), else from
 * the API (api-spec.md endpoint 20), then stored for good, since a match never changes once the API has it.
 */
import type { RivalsApi } from '../api/client.js';
import type { MatchDetail } from '../api/schemas.js';
import type { Fetched } from '../cache/response-cache.js';
import type { Logger } from '../core/logger.js';
import type { MatchStoreRepository } from '../store/matches.js';

/** What {@link readMatch} reads with: `matches` absent, it reads the API alone (the CLI without a store). */
export interface MatchReadContext {
  api: Pick<RivalsApi, 'match'>;
  matches?: Pick<MatchStoreRepository, 'get' | 'put'>;
  logger: Logger;
  now: () => number;
}

/**
 * Match `matchUid`: the stored detail (`source: 'cache'`, `fetchedAt` when it was stored), else the API's, which is then
 * stored, off the answer's path. A store that cannot be read or written is logged and read past: the API answers.
 * A detail without players (how the API answers for a match it keeps no scoreboard of) is not stored: it may come later.
 * @throws what `api.match` throws ({@link ApiError}, `ApiArgumentError`).
 */
export async function readMatch(matchUid: string, ctx: MatchReadContext): Promise<Fetched<MatchDetail>> {
  const stored = ctx.matches
    ? await ctx.matches.get(matchUid).catch((err: unknown) => {
        ctx.logger.warn({ err, matchUid }, 'the match store could not be read: asking the API');
        return null;
      })
    : null;
  if (stored) {
    const now = ctx.now();
    return { data: stored.detail, fetchedAt: stored.storedAt, ageMs: Math.max(0, now - stored.storedAt), stale: false, source: 'cache' };
  }
  const fetched = await ctx.api.match(matchUid);
  if (ctx.matches && fetched.data.players.length > 0) {
    void ctx.matches.put(fetched.data, ctx.now()).catch((err: unknown) => ctx.logger.warn({ err, matchUid }, 'a match read could not be stored'));
  }
  return fetched;
}
