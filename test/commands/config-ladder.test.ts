/** `/config ladder`'s posts: which moments, the weekly recap's day, time and zone, quiet hours, and their state in `/config status`. */
import { describe, expect, it } from 'vitest';
import { ADMIN, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const description = (p: { embeds: { description?: string }[] }) => p.embeds[0]!.description!;

describe('/config ladder posts', () => {
  it('sets a channel, the kinds, the recap and quiet hours, and says them back', async () => {
    const view = await env.b.run(
      'config',
      { enabled: true, channel: '920000000000000003', 'top-3': false, recap: '1', at: '19:30', timezone: 'Europe/Paris', quiet: '23:00-07:00' },
      'ladder',
      ADMIN,
    );
    expect(description(view.payload).split('\n')).toEqual([
      'The ladder is on. Members appear once they have proved an account (`/link`) and run `/ladder show` or `/ladder join` here.',
      'Moments are posted in <#920000000000000003>: rank changes across a tier, new season peaks, a card per member when a season ends.',
      'Weekly recap: Monday at 19:30 (Europe/Paris).',
      'Quiet hours: 23:00–07:00 (Europe/Paris): posts wait until they end.',
    ]);
    expect((await env.b.state.ladder.settings(ADMIN.guildId)).kinds).toEqual(['rank', 'peak', 'season-end', 'recap']);
    // A server that had turned the recap off gets it back by choosing a day.
    await env.b.state.ladder.configure(ADMIN.guildId, { kinds: ['rank'] }, 0);
    await env.b.run('config', { enabled: true, recap: '1' }, 'ladder', ADMIN);
    expect((await env.b.state.ladder.recapTargets()).map((t) => t.guildId)).toEqual([ADMIN.guildId]);
    // Options left out are kept; the recap can be turned off alone.
    const off = await env.b.run('config', { enabled: true, recap: 'off' }, 'ladder', ADMIN);
    expect(description(off.payload)).toContain('Weekly recap: off. Choose its day with `/config ladder`.');
    expect(description(off.payload)).toContain('Quiet hours: 23:00–07:00 (Europe/Paris)');
  });

  it('names a bad time zone or window, and changes nothing', async () => {
    const zone = await env.b.run('config', { enabled: true, timezone: 'Atlantis/Nowhere' }, 'ladder', ADMIN);
    expect(zone.view.isError).toBe(true);
    expect(description(zone.payload)).toContain('Atlantis/Nowhere');
    const quiet = await env.b.run('config', { enabled: true, quiet: 'later' }, 'ladder', ADMIN);
    expect(quiet.view.isError).toBe(true);
    expect(description(quiet.payload)).toContain('later');
    expect((await env.b.state.ladder.settings(ADMIN.guildId)).timeZone).toBe('Europe/Paris');
  });

  it('/config status shows the ladder’s posts, and a deleted channel that turned them off', async () => {
    await env.b.state.ladder.setMomentsProblem(ADMIN.guildId, { code: 10003, reason: 'Unknown Channel', channelId: '920000000000000003', at: 0 }, true);
    const status = await env.b.run('config', {}, 'status', ADMIN);
    const field = (status.payload.embeds[0] as { fields: { name: string; value: string }[] }).fields.find((f) => f.name === 'Server ladder')!;
    expect(field.value.split('\n')).toEqual([
      'Moments are not posted: choose a channel for them with `/config ladder`.',
      "⚠️ The posts' channel <#920000000000000003> was deleted, so they are off: choose another channel with `/config ladder`.",
    ]);
  });
});
