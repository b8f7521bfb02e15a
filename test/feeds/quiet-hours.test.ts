/** Feed quiet hours: a post found in a channel's quiet hours is held and delivered once when they end, on both engines. */
import { describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/state.js';
import { pollUntil } from '../helpers/until.js';
import { addPost, channels, clock, perEngine, poller, state, subscribe, withReplica } from './poller-world.js';

withReplica();

describe.each(ENGINES)('the feed poller on %s', (engine) => {
  perEngine(engine);

  describe('quiet hours', () => {
    /** Moves the poller's clock to `hh:mm` UTC of a fixed day, or of the day after (`nextDay`). */
    const at = (hhmm: string, nextDay = false) => {
      clock.offset = Date.parse(`2099-03-${nextDay ? 11 : 10}T${hhmm}:00Z`) - Date.now();
    };

    it("a post found during quiet hours is held, then delivered once at the window's end, in order; other channels get it at once", async () => {
      at('21:00');
      const p = poller();
      await p.tick();
      await subscribe('q1', 'patchNotes', 'c-quiet');
      await subscribe('q2', 'patchNotes', 'c-open');
      await state.settings.update('q1', (s) => void (s.feeds.patchNotes!.quiet = { start: 22 * 60, end: 8 * 60 }));
      at('23:00');
      const first = addPost('Night patch one');
      await p.tick();
      at('02:30', true);
      const second = addPost('Night patch two');
      await p.tick();
      expect(channels.titles('c-open')).toEqual(['Night patch one', 'Night patch two']);
      expect(channels.count('c-quiet')).toBe(0);
      // Held in the database: both fan-outs are still pending.
      expect((await state.feedState.pending('patchNotes')).map((x) => x.post.id)).toEqual([first, second]);
      at('07:59', true);
      await p.tick();
      expect(channels.count('c-quiet')).toBe(0);
      at('08:00', true);
      await p.tick();
      await p.tick();
      expect(channels.titles('c-quiet')).toEqual(['Night patch one', 'Night patch two']);
      expect(channels.titles('c-open')).toEqual(['Night patch one', 'Night patch two']);
      expect(await state.feedState.pending('patchNotes')).toEqual([]);
    });

    it("quiet hours are read in the channel's time zone", async () => {
      at('12:00');
      const p = poller();
      await p.tick();
      await subscribe('tz', 'patchNotes', 'c-tokyo');
      // 22:00–08:00 in Tokyo (UTC+9) is 13:00–23:00 UTC.
      await state.settings.update('tz', (s) => {
        s.feeds.patchNotes!.quiet = { start: 22 * 60, end: 8 * 60 };
        s.feeds.patchNotes!.timeZone = 'Asia/Tokyo';
      });
      at('14:00');
      addPost('Tokyo night');
      await p.tick();
      expect(channels.count('c-tokyo')).toBe(0);
      at('23:00');
      await p.tick();
      expect(channels.titles('c-tokyo')).toEqual(['Tokyo night']);
    });

    it('a poller holding a post polls again when the window ends, before its next regular poll', async () => {
      // Quiet hours ending in about 2 s of real time.
      const now = new Date(clock.now());
      const minute = now.getUTCHours() * 60 + now.getUTCMinutes();
      clock.offset += (60 - now.getUTCSeconds()) * 1000 - 2_000 - now.getUTCMilliseconds();
      const p = poller();
      await p.tick();
      await subscribe('w', 'patchNotes', 'c-wake');
      await state.settings.update('w', (s) => void (s.feeds.patchNotes!.quiet = { start: (minute + 1439) % 1440, end: (minute + 1) % 1440 }));
      addPost('At the end of the night');
      await p.tick(); // intervalSeconds is 600: only the wake-up can deliver it in time
      expect(channels.count('c-wake')).toBe(0);
      await pollUntil(() => channels.count('c-wake') === 1, 'the delivery at the end of the quiet hours');
      await p.stop();
    });
  });
});
