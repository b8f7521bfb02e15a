/** Feed digests: a day's or a week's posts in one message at its time, on both engines. */
import { describe, expect, it } from 'vitest';
import { digestPeriod } from '../../src/feeds/digest.js';
import { ENGINES } from '../helpers/state.js';
import { pollUntil } from '../helpers/until.js';
import { addPost, channels, clock, perEngine, poller, state, subscribe, withReplica } from './poller-world.js';

withReplica();

describe.each(ENGINES)('the feed poller on %s', (engine) => {
  perEngine(engine);

  describe('digests', () => {
    const at = (iso: string) => {
      clock.offset = Date.parse(iso) - Date.now();
    };
    const digestSub = async (guildId: string, channelId: string, every: 'daily' | 'weekly', atMinutes: number) => {
      await subscribe(guildId, 'patchNotes', channelId, { roleId: 'r-digest' });
      await state.settings.update(guildId, (s) => {
        s.feeds.patchNotes!.digest = { every, at: atMinutes };
        s.feeds.patchNotes!.digestPeriod = digestPeriod({ every, at: atMinutes }, 'UTC', clock.now());
      });
    };

    it('a daily digest of three posts is one message at its time, listing all three; the next days send nothing empty', async () => {
      at('2099-04-01T08:00:00Z');
      const p = poller();
      await p.tick();
      await digestSub('d1', 'c-digest', 'daily', 18 * 60);
      await subscribe('d2', 'patchNotes', 'c-each');
      const ids: string[] = [];
      for (const [hour, title] of [
        ['09', 'Morning patch'],
        ['12', 'Noon patch'],
        ['16', 'Afternoon patch'],
      ] as const) {
        at(`2099-04-01T${hour}:00:00Z`);
        ids.push(addPost(title));
        await p.tick();
      }
      expect(channels.titles('c-each')).toEqual(['Morning patch', 'Noon patch', 'Afternoon patch']);
      expect(channels.count('c-digest')).toBe(0);
      expect((await state.feedDigests.items('d1', 'patchNotes')).map((i) => i.post.id)).toEqual(ids);
      at('2099-04-01T17:59:00Z');
      await p.tick();
      expect(channels.count('c-digest')).toBe(0);
      at('2099-04-01T18:00:30Z');
      await p.tick();
      await p.tick();
      const [digest] = channels.messages.get('c-digest')!;
      expect(channels.count('c-digest')).toBe(1);
      expect(digest!.embeds[0]!.author?.name).toBe('Patch notes of the day');
      expect(digest!.embeds[0]!.fields!.map((f) => f.name)).toEqual(['Morning patch', 'Noon patch', 'Afternoon patch']);
      expect(digest!.content).toBe('<@&r-digest>');
      expect(await state.feedDigests.items('d1', 'patchNotes')).toEqual([]);
      expect((await state.settings.get('d1')).feeds.patchNotes!.digestPeriod).toBe('2099-04-01');
      // A day with no post sends nothing; a post the next day comes in the next digest alone.
      at('2099-04-02T18:01:00Z');
      await p.tick();
      expect(channels.count('c-digest')).toBe(1);
      at('2099-04-03T10:00:00Z');
      addPost('Next patch');
      await p.tick();
      at('2099-04-03T18:00:10Z');
      await p.tick();
      expect(channels.messages.get('c-digest')!.map((m) => m.embeds[0]!.fields!.map((f) => f.name))).toEqual([
        ['Morning patch', 'Noon patch', 'Afternoon patch'],
        ['Next patch'],
      ]);
    });

    it('a digest sent before a crash is not sent again, and the posts it listed are not listed again', async () => {
      at('2099-05-01T08:00:00Z');
      const p = poller();
      await p.tick();
      await digestSub('d3', 'c-crash', 'daily', 12 * 60);
      at('2099-05-01T09:00:00Z');
      addPost('Before the crash');
      await p.tick();
      // The digest reaches Discord, then the process dies before recording it.
      at('2099-05-01T12:00:30Z');
      channels.fail.set('c-crash', 'hang-after-post');
      void poller().tick();
      await pollUntil(() => channels.count('c-crash') === 1, 'the digest at Discord');
      channels.fail.delete('c-crash');
      // The restarted poller, once the claim's lease is past: Discord answers the nonce with the message it has.
      at('2099-05-01T12:06:00Z');
      await poller().tick();
      expect(channels.count('c-crash')).toBe(1);
      expect(await state.feedDigests.items('d3', 'patchNotes')).toEqual([]);
      expect((await state.settings.get('d3')).feeds.patchNotes!.digestPeriod).toBe('2099-05-01');
    });
  });
});
