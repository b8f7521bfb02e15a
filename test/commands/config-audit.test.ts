/** The audit log of a server's settings: /config's changes are recorded with who and from where, refusals and reads are not, and it is kept 90 days. */
import { describe, expect, it } from 'vitest';
import { ADMIN, useReplicaBot } from '../helpers/bot.js';
import { AUDIT_RETENTION_MS } from '../../src/store/config-audit.js';
import { pruneState } from '../../src/store/retention.js';

const env = useReplicaBot();

describe('/config audit log', () => {
  it('records a change with its options and who made it, and nothing for a refusal, a read or the same value again', async () => {
    const guildId = ADMIN.guildId;
    await env.b.run('config', { platform: 'xbox' }, 'platform', ADMIN);
    await env.b.run('config', {}, 'show', ADMIN);
    // A refused change (a time zone that does not exist) changes nothing.
    const refused = await env.b.run('config', { enabled: true, timezone: 'Atlantis/Nowhere' }, 'ladder', ADMIN);
    expect(refused.view.isError).toBe(true);
    env.b.clock.now += 1_000;
    // The same value again changes nothing either.
    await env.b.run('config', { platform: 'xbox' }, 'platform', ADMIN);
    // Run from the dashboard: said so.
    await env.b.router.command('config', { subcommand: 'private-answers', options: { enabled: true }, user: ADMIN, via: 'dashboard' }, env.b.ctx);
    const log = await env.b.state.audit.list(guildId, env.b.clock.now);
    expect(log.map((e) => [e.action, e.source, e.userId, e.detail])).toEqual(
      [
        ['platform', 'command', ADMIN.userId, { platform: 'xbox' }],
        ['private-answers', 'dashboard', ADMIN.userId, { enabled: true }],
      ].toReversed(),
    );
  });

  it('keeps 90 days, and a member who deletes their data stays in it as nobody', async () => {
    const guildId = ADMIN.guildId;
    const now = env.b.clock.now;
    await env.b.state.audit.record({
      guildId,
      userId: '42',
      source: 'command',
      action: 'display',
      detail: { style: 'embeds' },
      at: now - AUDIT_RETENTION_MS - 1,
    });
    const before = await env.b.state.database.db.selectFrom('config_audit').select('id').execute();
    await pruneState(env.b.state.database.db, now);
    const after = await env.b.state.database.db.selectFrom('config_audit').select(['id', 'user_id']).execute();
    expect(after).toHaveLength(before.length - 1);
    expect((await env.b.state.memberData.collect(ADMIN.userId)).settingsChanges.map((c) => c.action).sort()).toEqual(['platform', 'private-answers']);
    await env.b.state.memberData.erase(ADMIN.userId, now);
    const kept = await env.b.state.audit.list(guildId, now);
    expect(kept.map((e) => e.userId)).toEqual([null, null]);
    expect((await env.b.state.memberData.collect(ADMIN.userId)).settingsChanges).toEqual([]);
  });
});
