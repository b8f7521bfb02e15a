import { describe, expect, it } from 'vitest';
import { runInLocale } from '../../src/i18n/index.js';
import { t } from '../../src/render/strings.js';
import { useReplicaBot, MEMBER, OTHER_MEMBER } from '../helpers/bot.js';

const env = useReplicaBot();

const description = (p: { embeds: { description?: string }[] }) => p.embeds[0]!.description!;

describe('account links', () => {
  it('/player with no query and nothing linked says how to link, privately', async () => {
    const { payload } = await env.b.run('player', {});
    expect(payload.flags).toBe(64);
    expect(description(payload)).toMatch(/^You have not linked a Rivals account yet\. Link one with `\/link` `player:/);
  });

  it('/link then /player with no query shows the linked profile', async () => {
    const linked = await env.b.run('link', { player: 'Card1gan' });
    expect(linked.payload.flags).toBe(64);
    expect(description(linked.payload)).toMatch(/^Linked \*\*Card1gan\*\* \(UID 1403392756\)\. `\/player` with nothing after it now shows this account\./);
    const me = await env.b.run('player', {});
    expect(me.payload.embeds[0]!.author?.name).toMatch(/^Card1gan/);
    expect(me.payload.flags).toBe(0);
  });

  it('linking starts tracking the account at once, and says so; a member who turned tracking off is not tracked', async () => {
    const now = env.b.ctx.now();
    const before = (await env.b.state.tracking.claim(now, 100, 1)).map((c) => c.uid);
    expect(before).toContain('1403392756');
    expect(description((await env.b.run('link', { player: 'Card1gan' })).payload)).toContain(
      'the bot reads this account on a schedule and keeps its rank history',
    );
    const optedOut = { ...OTHER_MEMBER, userId: '300000000000000077' };
    await env.b.state.database.db.insertInto('member_settings').values({ user_id: optedOut.userId, locale: null, tracking_off: 1, updated_at: now }).execute();
    await env.b.run('link', { player: '1117455441' }, undefined, optedOut);
    const after = (await env.b.state.tracking.claim(now + 10, 100, 1)).map((c) => c.uid);
    expect(after).not.toContain('1117455441');
  });

  it('a second account becomes the default only when asked', async () => {
    const second = await env.b.run('link', { player: '1117455441' });
    expect(description(second.payload)).toMatch(/Pick it as your default/);
    expect((await env.b.run('player', {})).payload.embeds[0]!.author?.name).toMatch(/^Card1gan/);
    await env.b.run('link', { player: 'Sir Final', default: true });
    expect((await env.b.run('player', {})).payload.embeds[0]!.author?.name).toMatch(/^Sir Final/);
  });

  it('user: shows another member’s linked profile, or says they have none', async () => {
    const none = await env.b.run('player', { user: OTHER_MEMBER.userId });
    expect(description(none.payload)).toBe(`<@${OTHER_MEMBER.userId}> has not linked a Rivals account. They can link one with \`/link\`.`);
    expect(none.payload.allowed_mentions).toEqual({ parse: [] });
    await env.b.ctx.links.link(OTHER_MEMBER.userId, { uid: '1786151874', name: 'Double C' }, true);
    expect((await env.b.run('player', { user: OTHER_MEMBER.userId })).payload.embeds[0]!.author?.name).toBe('Double C');
  });

  it('the Rivals profile context menu shows the target member’s profile', async () => {
    const view = await env.b.router.command('Rivals profile', { options: {}, targetUserId: OTHER_MEMBER.userId, user: MEMBER }, env.b.ctx);
    expect(view.embeds![0]!.author?.name).toBe('Double C');
  });

  it('autocomplete offers linked accounts first, then recent lookups', async () => {
    await env.b.run('player', { query: 'HayamaKen' });
    const choices = await env.b.router.autocomplete('player', { focused: { name: 'query', value: '' }, options: {}, user: MEMBER }, env.b.ctx);
    // Looking at Double C through user: and the context menu counts as a lookup too; newest first.
    expect(choices.map((c) => c.name)).toEqual(['Card1gan · linked', 'Sir Final · your default', 'HayamaKen · recent', 'Double C · recent']);
    expect(choices.map((c) => c.value)).toEqual(['1403392756', '1117455441', '1402468705', '1786151874']);
    const filtered = await env.b.router.autocomplete('player', { focused: { name: 'query', value: 'sir' }, options: {}, user: MEMBER }, env.b.ctx);
    expect(filtered.map((c) => c.value)).toEqual(['1117455441']);
  });

  it('/unlink removes one account by name, moving the default, or all', async () => {
    const ac = await env.b.router.autocomplete('unlink', { focused: { name: 'player', value: '' }, options: {}, user: MEMBER }, env.b.ctx);
    expect(ac.map((c) => c.value)).toEqual(['1403392756', '1117455441', 'all']);
    const one = await env.b.run('unlink', { player: 'sir final' });
    expect(description(one.payload)).toBe('Unlinked **Sir Final**.');
    expect((await env.b.run('player', {})).payload.embeds[0]!.author?.name).toMatch(/^Card1gan/);
    // The member's language's word for "all" (their option description asks for it) works as `all` does.
    expect(description((await runInLocale('fr', () => env.b.run('unlink', { player: 'Tous' }))).payload)).toBe(
      runInLocale('fr', () => t.unlinked(['Card1gan'])),
    );
    expect(description((await env.b.run('player', {})).payload)).toMatch(/^You have not linked/);
    await env.b.run('link', { player: 'Card1gan' });
    expect(description((await env.b.run('unlink', { player: 'all' })).payload)).toBe('Unlinked **Card1gan**.');
    expect(description((await env.b.run('player', {})).payload)).toMatch(/^You have not linked/);
  });

  it('/link of an unknown player says so', async () => {
    expect(description((await env.b.run('link', { player: 'no-such-player-zz' })).payload)).toBe(
      'No player called “no-such-player-zz”. Check the spelling, or use the UID.',
    );
  });

  it('refuses a sixth account with a clear message', async () => {
    for (const uid of ['1403392756', '1117455441', '1786151874', '1402468705', '161235255']) await env.b.run('link', { player: uid });
    const more = await env.b.ctx.links.get(MEMBER.userId);
    expect(more.accounts).toHaveLength(5);
    await env.b.ctx.links.unlink(MEMBER.userId, '161235255');
    await env.b.ctx.links.link(MEMBER.userId, { uid: '1', name: 'x' }, false);
    env.r.dataset.players.set('424242', { ...structuredClone(env.r.dataset.players.get('1402468705')!), uid: 424242, name: 'Sixth' });
    try {
      expect(description((await env.b.run('link', { player: '424242' })).payload)).toBe('You can link at most 5 accounts. Remove one with `/unlink` first.');
    } finally {
      env.r.dataset.players.delete('424242');
    }
  });
});
