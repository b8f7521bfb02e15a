/** Reading a feed: the first page of a feed's posts, fresh from the API at background priority. */
import type { RivalsApi } from '../api/client.js';
import type { Priority } from '../api/rate-limiter.js';
import { heroCatalog, heroChanges, type HeroCatalog } from '../game/balance.js';
import type { HeroDirectory } from '../catalog/hero-directory.js';
import type { Logger } from '../core/logger.js';
import type { FeedType } from '../store/guild-settings.js';
import { contentHash, isCredibleCorrection } from './corrections.js';
import type { FeedPost } from './render.js';

/** A post as the poller read it: what a feed message shows, and the {@link contentHash} of what a correction may change. */
export interface ReadPost {
  post: FeedPost;
  hash: string;
  /** Whether a change in this read counts as a correction ({@link isCredibleCorrection}). */
  credible: boolean;
}

/**
 * Reads the first page of a feed, newest first (api-spec.md, Endpoints > Patch notes area); with a hero `catalog`, balance posts and patch
 * notes carry the heroes they change. `signal` gives the read up, also while it waits behind members' requests for the rate limit;
 * `priority` is the rate limiter's (src/api/rate-limiter.ts), the feeds' by default.
 * @throws {ApiError} when the API does not answer with the feed; the signal's reason when aborted.
 */
export async function fetchFeed(
  api: RivalsApi,
  type: FeedType,
  catalog?: HeroCatalog,
  signal?: AbortSignal,
  priority: Priority = 'background',
): Promise<ReadPost[]> {
  const options = { fresh: true, priority, ...(signal ? { signal } : {}) };
  const page = { page: 1, limit: 10 };
  if (type === 'gameVersions') {
    const versions = (await api.gameVersions(page, options)).data.entries;
    return versions.map((v) => {
      // Stored and hashed in English, so no delivered post reads as corrected; feedPostText writes it in each server's language.
      const post = { id: v.version, title: `Game version ${v.version}`, date: v.release, overview: v.release ? `Released ${v.release}.` : null, image: null };
      return { post, hash: contentHash({ title: post.title, overview: post.overview, content: null }), credible: Boolean(v.release) };
    });
  }
  const fetched =
    type === 'patchNotes' ? await api.patchNotes(page, options) : type === 'balances' ? await api.balances(page, options) : await api.devDiaries(page, options);
  return fetched.data.entries.map((p) => {
    const content = { title: p.title, overview: p.overview, content: p.full_content };
    const changes = catalog && p.full_content ? heroChanges(p.full_content, catalog) : undefined;
    const heroes = changes ? [...new Set(changes.map((c) => c.heroId))] : undefined;
    const verdicts = changes ? Object.fromEntries(changes.map((c) => [c.heroId, c.verdict])) : undefined;
    const post: FeedPost = {
      id: p.id,
      title: p.title ?? p.id,
      date: p.date,
      overview: p.overview,
      image: p.image,
      ...(heroes ? { heroes, verdicts } : {}),
      ...(p.full_content ? { content: p.full_content } : {}),
    };
    return { post, hash: contentHash(content), credible: isCredibleCorrection(content) };
  });
}

/** {@link fetchFeed} with the heroes posts change; heroes unreadable now are logged and posts go without them. @throws as {@link fetchFeed}. */
export async function readFeed(
  api: RivalsApi,
  type: FeedType,
  options: { heroes?: HeroDirectory | undefined; signal: AbortSignal; logger: Logger },
): Promise<ReadPost[]> {
  return fetchFeed(api, type, await catalogFor(type, options), options.signal);
}

async function catalogFor(type: FeedType, { heroes, signal, logger }: { heroes?: HeroDirectory | undefined; signal: AbortSignal; logger: Logger }) {
  if (!heroes || (type !== 'balances' && type !== 'patchNotes')) return undefined;
  try {
    return heroCatalog(await heroes.list({ signal }));
  } catch (err) {
    // Stopping: the poll ends here, rather than record new posts without their heroes.
    if (signal.aborted) throw err;
    logger.warn({ err, feed: type }, "could not read the heroes: hero filters let this poll's new posts through");
    return undefined;
  }
}
