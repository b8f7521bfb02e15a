/** A feed post opening a thread, on both engines. */
import { describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/state.js';
import { addPost, channels, perEngine, poller, r, state, subscribe, withReplica } from './poller-world.js';

withReplica();

describe.each(ENGINES)('the feed poller on %s', (engine) => {
  perEngine(engine);

  describe('threads', () => {
    const threadPosts = (messageId: string) => channels.messages.get(messageId) ?? [];
    const longText = Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1}: ${'Hulk damage increased from 70 to 75. '.repeat(6)}`).join('\n\n');

    it('posts the overview in the channel and the full text in a thread under it, in parts, once', async () => {
      const p = poller();
      await p.tick();
      await subscribe('t1', 'patchNotes', 'c-thread');
      await subscribe('t2', 'patchNotes', 'c-plain');
      await state.settings.update('t1', (s) => void (s.feeds.patchNotes!.threads = true));
      addPost('A long patch');
      r.dataset.posts.patchNotes[0]!.fullContent = longText;
      await p.tick();
      await p.tick();
      const [message] = channels.messages.get('c-thread')!;
      expect(channels.threads.get(message!.id)).toEqual({ channelId: 'c-thread', name: 'A long patch' });
      const parts = threadPosts(message!.id);
      expect(parts.length).toBeGreaterThan(1);
      expect(parts.every((m) => (m.embeds[0]!.description ?? '').length <= 4096)).toBe(true);
      expect(parts.map((m) => m.embeds[0]!.footer?.text)).toEqual(parts.map((_, i) => `Part ${i + 1} of ${parts.length}`));
      expect(parts.map((m) => m.embeds[0]!.description).join('\n\n')).toContain('Paragraph 30\\:'); // as plain text: the colon escaped
      // Only the thread channel's feed gets a thread; nothing is repeated by later polls.
      expect(channels.threads.size).toBe(1);
      const sends = channels.sends;
      await p.tick();
      expect(channels.sends).toBe(sends);
      expect(await state.feedState.pending('patchNotes')).toEqual([]);
    });

    it('a thread that failed for a while is completed by a later poll; one refused for good is given up and the post stays', async () => {
      const p = poller();
      await p.tick();
      await subscribe('t3', 'patchNotes', 'c-later');
      await state.settings.update('t3', (s) => void (s.feeds.patchNotes!.threads = true));
      channels.threadFail = { status: 503, code: 0 };
      addPost('Patch with a late thread');
      r.dataset.posts.patchNotes[0]!.fullContent = 'The full text.';
      await p.tick();
      expect(channels.count('c-later')).toBe(1);
      expect(channels.threads.size).toBe(0);
      expect(await state.feedState.pending('patchNotes')).toHaveLength(1);
      channels.threadFail = undefined;
      await p.tick();
      const [message] = channels.messages.get('c-later')!;
      expect(channels.count('c-later')).toBe(1);
      expect(threadPosts(message!.id).map((m) => m.embeds[0]!.description)).toEqual(['The full text.']);
      expect(await state.feedState.pending('patchNotes')).toEqual([]);

      await subscribe('t4', 'patchNotes', 'c-refused');
      await state.settings.update('t4', (s) => void (s.feeds.patchNotes!.threads = true));
      channels.threadFail = { status: 403, code: 50013 };
      addPost('Patch without a thread');
      await p.tick();
      expect(channels.titles('c-refused')).toEqual(['Patch without a thread']);
      expect(await state.feedState.pending('patchNotes')).toEqual([]);
      expect(p.lines.some((l) => l.includes('could not post the full text in a thread'))).toBe(true);
      channels.threadFail = undefined;
    });
  });
});
