/** `/config test-post`: the latest post of a feed, marked as a test, sent to its channel now; run inside `runInLocale` with the server's. */
import { randomBytes } from 'node:crypto';
import type { RivalsApi } from '../api/client.js';
import { tr } from '../i18n/index.js';
import { toMessagePayload } from '../render/view.js';
import type { FeedType, GuildSettingsRepository } from '../store/guild-settings.js';
import { type FeedTransport } from './delivery.js';
import { classifyError } from '../core/discord-errors.js';
import { fetchFeed } from './read.js';
import { feedPostView } from './render.js';

/** A failure's `reason` is `not-set` (no channel) or the delivery's ({@link classifyError}); `code` is Discord's JSON error code for a broken channel. */
export type TestPostResult = { ok: true; channelId: string } | { ok: false; reason: string; code?: number; channelId?: string };

/** Sends test posts, and starts polls on demand; provided by the runtime (Discord, the playground) or absent (the CLI). */
export interface FeedTester {
  testPost(guildId: string, type: FeedType): Promise<TestPostResult>;
  /** Starts a poll now (the poller's `pollNow`) without waiting, so a backfill goes out at once; the poller's rules still apply. Absent: the next poll. */
  pollNow?(): void;
}

/** The feed tester over the API and the channels' transport; `pollNow` may be bound later, as it is called only when an admin asks. */
export function createFeedTester(api: RivalsApi, settings: GuildSettingsRepository, transport: FeedTransport, pollNow?: () => void): FeedTester {
  return {
    ...(pollNow && { pollNow }),
    async testPost(guildId, type) {
      const sub = (await settings.get(guildId)).feeds[type];
      if (!sub) return { ok: false, reason: 'not-set' };
      // An admin waits for this one: members' priority, not the feeds'.
      const [latest] = await fetchFeed(api, type, undefined, undefined, 'interactive');
      const post = latest?.post ?? { id: 'test', title: tr('feeds:testPost.title'), date: null, overview: null, image: null };
      const view = feedPostView(type, post, sub.roleId, false, true);
      try {
        // A fresh nonce: a test post is never a delivery of the real post.
        await transport.send(sub.channelId, { ...toMessagePayload(view), nonce: randomBytes(9).toString('base64url'), enforce_nonce: true });
        return { ok: true, channelId: sub.channelId };
      } catch (err) {
        const c = classifyError(err);
        return { ok: false, reason: c.reason, ...(c.kind === 'broken' && { code: c.code }), channelId: sub.channelId };
      }
    },
  };
}
