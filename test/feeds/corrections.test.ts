/** Feed posts corrected in place: the API's edits to a post already sent, edited into its messages, on both engines. */
import { describe, expect, it } from 'vitest';
import { EDIT_WINDOW_MS, MAX_EDIT_ATTEMPTS } from '../../src/feeds/corrections.js';
import { correctedFooter } from '../../src/feeds/render.js';
import { ENGINES } from '../helpers/state.js';
import { pollUntil } from '../helpers/until.js';
import { addPost, channels, clock, FakeChannels, perEngine, poller, pollerOn, r, state, subscribe, withReplica } from './poller-world.js';

withReplica();

describe.each(ENGINES)('the feed poller on %s', (engine) => {
  perEngine(engine);

  describe('posts corrected in place', () => {
    /** The replica's copy of a patch note, to change it "at the API". */
    const atApi = (id: string) => r.dataset.posts.patchNotes.find((p) => p.id === id)! as Record<string, unknown>;
    const deliveryOf = (id: string, channelId: string) =>
      state.database.db
        .selectFrom('deliveries')
        .selectAll()
        .where('feed', '=', 'patchNotes')
        .where('post_id', '=', id)
        .where('channel_id', '=', channelId)
        .executeTakeFirstOrThrow();
    const pendingEdits = async () => (await state.feedPosts.pendingEdits('patchNotes')).map((e) => e.post.id);

    /** Three channels (one pinging a role) that received a new post; returns its id and the poller. */
    async function delivered() {
      const p = poller();
      await p.tick();
      await subscribe('e1', 'patchNotes', 'ce1', { roleId: 're1' });
      await subscribe('e2', 'patchNotes', 'ce2');
      await subscribe('e3', 'patchNotes', 'ce3');
      const id = addPost('Season 10 patch');
      await p.tick();
      for (const c of ['ce1', 'ce2', 'ce3']) expect(channels.count(c)).toBe(1);
      return { p, id };
    }

    it('a post changed at the API edits every message delivered for it, pings nobody, and posts nothing again', async () => {
      const { p, id } = await delivered();
      const sendsBefore = channels.sends;
      atApi(id).overview = 'What changed, corrected. The Hulk nerf is reverted.';
      await p.tick();
      expect(channels.sends).toBe(sendsBefore);
      expect(channels.edits.map((e) => e.channelId).sort()).toEqual(['ce1', 'ce2', 'ce3']);
      for (const c of ['ce1', 'ce2', 'ce3']) {
        const [message] = channels.messages.get(c)!;
        expect(message!.embeds[0]!.description).toBe('What changed, corrected. The Hulk nerf is reverted.');
        expect(message!.embeds[0]!.footer?.text).toBe(correctedFooter());
        expect((await deliveryOf(id, c)).revision).toBe(2);
      }
      // The ping stays as delivered (an edit's body has no content) and nobody is pinged again.
      const edit = channels.edits.find((e) => e.channelId === 'ce1')!;
      expect(edit.body).not.toHaveProperty('content');
      expect(edit.body.allowed_mentions).toEqual({ parse: [] });
      expect(channels.messages.get('ce1')![0]!.content).toBe('<@&re1>');
      expect((await state.settings.get('e1')).feeds.patchNotes!.lastEdit).toMatchObject({ postId: id, error: null });
      expect(await pendingEdits()).toEqual([]);
      // Nothing more to do: the next polls neither edit nor post.
      await p.tick();
      await p.tick();
      expect(channels.edits).toHaveLength(3);
      expect(channels.sends).toBe(sendsBefore);
      // A second correction is a third revision, edited again.
      atApi(id).title = 'Season 10 patch (v2)';
      await p.tick();
      expect(channels.edits).toHaveLength(6);
      expect(channels.titles('ce2')).toEqual(['Season 10 patch (v2)']);
      expect((await deliveryOf(id, 'ce2')).revision).toBe(3);
    });

    it('a change in the full text alone is a correction; formatting drift and a read missing the text are not', async () => {
      const { p, id } = await delivered();
      const post = atApi(id);
      post.fullContent = 'All of it.\r\n ';
      post.overview = '  What changed. ';
      await p.tick();
      expect(channels.edits).toHaveLength(0);
      post.overview = null;
      post.fullContent = null;
      await p.tick();
      expect(channels.edits).toHaveLength(0);
      post.overview = 'What changed.';
      post.fullContent = 'All of it, and a fix to Storm.';
      await p.tick();
      expect(channels.edits).toHaveLength(3);
    });

    it('a deleted message is recorded and never retried; the others are edited', async () => {
      const { p, id } = await delivered();
      channels.editFail.set('ce2', { status: 404, code: 10008 });
      atApi(id).overview = 'Corrected.';
      await p.tick();
      expect(channels.edits.map((e) => e.channelId).sort()).toEqual(['ce1', 'ce2', 'ce3']);
      expect(await deliveryOf(id, 'ce2')).toMatchObject({ revision: 2, edit_error: 'Unknown Message: the message was deleted' });
      expect((await state.settings.get('e2')).feeds.patchNotes!.lastEdit).toMatchObject({ postId: id, error: 'Unknown Message: the message was deleted' });
      // The subscription still works: a failed edit does not mark it broken.
      expect((await state.settings.get('e2')).feeds.patchNotes!.broken).toBeNull();
      await p.tick();
      expect(channels.edits).toHaveLength(3);
      expect(await pendingEdits()).toEqual([]);
    });

    it('a temporary failure is retried on the next polls, and given up after the last attempt', async () => {
      const { p, id } = await delivered();
      channels.editFail.set('ce3', { status: 503, code: 0 });
      atApi(id).overview = 'Corrected.';
      await p.tick();
      expect(await pendingEdits()).toEqual([id]);
      expect((await deliveryOf(id, 'ce3')).revision).toBe(1);
      for (let i = 1; i < MAX_EDIT_ATTEMPTS; i++) await p.tick();
      expect(channels.edits.filter((e) => e.channelId === 'ce3')).toHaveLength(MAX_EDIT_ATTEMPTS);
      expect((await deliveryOf(id, 'ce3')).edit_error).toMatch(/^gave up after 5 attempts/);
      expect(await pendingEdits()).toEqual([]);
      await p.tick();
      expect(channels.edits.filter((e) => e.channelId === 'ce3')).toHaveLength(MAX_EDIT_ATTEMPTS);
    });

    it('recovers when the temporary failure passes', async () => {
      const { p, id } = await delivered();
      channels.editFail.set('ce3', { status: 503, code: 0 });
      atApi(id).overview = 'Corrected.';
      await p.tick();
      channels.editFail.delete('ce3');
      await p.tick();
      expect(await deliveryOf(id, 'ce3')).toMatchObject({ revision: 2, edit_error: null });
      expect(channels.messages.get('ce3')![0]!.embeds[0]!.description).toBe('Corrected.');
    });

    it(`messages delivered more than 14 days ago are left as they are`, async () => {
      const { p, id } = await delivered();
      clock.offset += EDIT_WINDOW_MS + 60_000;
      atApi(id).overview = 'Corrected much later.';
      await p.tick();
      expect(channels.edits).toHaveLength(0);
      expect(await pendingEdits()).toEqual([]);
    });

    it('a channel the fan-out had not reached yet gets the corrected text, sent once', async () => {
      const p = poller();
      await p.tick();
      await subscribe('f1', 'patchNotes', 'cf1');
      await subscribe('f2', 'patchNotes', 'cf2');
      channels.fail.set('cf2', { status: 503, code: 0 });
      const id = addPost('Season 11 patch');
      await p.tick();
      expect(channels.count('cf1')).toBe(1);
      expect(channels.count('cf2')).toBe(0);
      channels.fail.delete('cf2');
      atApi(id).overview = 'Corrected before everyone had it.';
      clock.offset += 60_000; // past the retry's back-off
      await p.tick();
      expect(channels.messages.get('cf2')!.map((m) => m.embeds[0]!.description)).toEqual(['Corrected before everyone had it.']);
      // cf1 is edited; cf2's send was a retry, whose message may be an earlier attempt's (the nonce), so it is brought up to date too.
      expect(channels.edits.map((e) => e.channelId).sort()).toEqual(['cf1', 'cf2']);
      expect(channels.messages.get('cf1')![0]!.embeds[0]!.description).toBe('Corrected before everyone had it.');
      expect(await pendingEdits()).toEqual([]);
    });

    it('a crash in the middle of the edits: the restarted poller edits the rest and posts nothing again', async () => {
      const { id } = await delivered();
      // The "process" that dies: its edits never come back.
      const dying = pollerOn(state, Object.assign(Object.create(channels) as FakeChannels, { edit: () => new Promise<void>(() => undefined) }));
      atApi(id).overview = 'Corrected during a crash.';
      void dying.tick();
      await pollUntil(async () => (await pendingEdits()).includes(id), 'the edit pending in the store');
      const sendsBefore = channels.sends;
      await poller().tick();
      expect(channels.sends).toBe(sendsBefore);
      for (const c of ['ce1', 'ce2', 'ce3']) expect(channels.messages.get(c)!.map((m) => m.embeds[0]!.description)).toEqual(['Corrected during a crash.']);
      expect(await pendingEdits()).toEqual([]);
    });
  });
});
