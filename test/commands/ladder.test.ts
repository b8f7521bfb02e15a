/** `/ladder` and `/config ladder` on the replica's real sample profiles, with standings written by the real tracker. */
import { describe, expect, it } from 'vitest';
import type { ChartRenderer } from '../../src/charts/renderer.js';
import type { ChartSpec } from '../../src/charts/specs.js';
import { Tracker } from '../../src/jobs/tracker.js';
import { encodeCustomId } from '../../src/render/custom-id.js';
import { ADMIN, MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();

const THIRD = { ...MEMBER, userId: '200000000000000003' };
const FOURTH = { ...MEMBER, userId: '200000000000000004' };
const description = (p: { embeds: { description?: string }[] }) => p.embeds[0]!.description!;

/** Links `uid` for `user`, proved unless told. */
async function linked(user: { userId: string }, uid: string, name: string, proved = true) {
  await env.b.ctx.links.link(user.userId, { uid, name }, true, env.b.clock.now);
  await env.b.ctx.tracking!.follow(uid, env.b.clock.now, user.userId);
  if (proved)
    await env.b.state.database.db
      .updateTable('account_links')
      .set({ verified_at: env.b.clock.now })
      .where('user_id', '=', user.userId)
      .where('uid', '=', uid)
      .execute();
}

/** Reads every tracked player due now, as the background tracker does, writing their standings. */
async function trackEveryone() {
  const heroes = env.b.ctx.heroes;
  const tracker = new Tracker({
    api: env.b.ctx.api,
    tracking: env.b.state.tracking,
    ladder: {
      standings: env.b.state.ladder,
      roleOf: async () => {
        const roles = new Map((await heroes.list()).map((h) => [h.id, h.role]));
        return (id) => (id === null ? null : (roles.get(id) ?? null));
      },
    },
    spare: () => 0,
    logger: env.b.ctx.logger,
    now: () => env.b.clock.now,
    minMs: 60_000,
    maxMs: 3_600_000,
  });
  while ((await tracker.step()) > 0) await tracker.settled();
}

describe('/ladder', () => {
  it('says how to turn it on until an admin does; only members with Manage Server can', async () => {
    expect(description((await env.b.run('ladder', {}, 'show')).payload)).toMatch(
      /^This server has no ladder\. A server admin turns it on with `\/config ladder`\./,
    );
    const refused = await env.b.run('config', { enabled: true }, 'ladder');
    expect(refused.view.isError).toBe(true);
    const on = await env.b.run('config', { enabled: true }, 'ladder', ADMIN);
    expect(on.payload.flags).toBe(64);
    expect(description(on.payload)).toMatch(/^The ladder is on\./);
  });

  it('with the ladder on and nobody proved, says how to get listed rather than show an empty list', async () => {
    const view = await env.b.run('ladder', {}, 'show');
    expect(description(view.payload)).toMatch(/^Nobody is listed yet\. To appear here: link your account with `\/link`/);
  });

  it('lists proved members by the rank score the tracker read, the member’s own row marked, and says who is left out and why without names', async () => {
    await linked(MEMBER, '1403392756', 'Card1gan');
    await linked(OTHER_MEMBER, '341932470', 'Chob Bob');
    await linked(THIRD, '1402468705', 'HayamaKen', false);
    await linked(FOURTH, '1117455441', 'Sir Final');
    await trackEveryone();
    const standings = await env.b.state.database.db.selectFrom('player_standings').selectAll().orderBy('score', 'desc').execute();
    expect(standings.map((s) => s.uid).sort()).toEqual(['1117455441', '1402468705', '1403392756', '341932470']);
    for (const s of standings) expect(s).toMatchObject({ private: 0, season: expect.any(Number) as number });

    const joined = await env.b.run('ladder', {}, 'join', OTHER_MEMBER);
    expect(description(joined.payload)).toBe("You are on this server's ladder, listed by **Chob Bob**.");
    // Asking for the ladder puts a member who linked an account on it.
    await env.b.run('ladder', {}, 'show', THIRD);
    await env.b.run('ladder', {}, 'join', FOURTH);
    expect(description((await env.b.run('ladder', {}, 'leave', FOURTH)).payload)).toMatch(/^You are no longer listed on this server's ladder\./);

    const shown = await env.b.run('ladder', {}, 'show');
    expect(shown.payload.flags).toBe(0);
    expect(shown.payload.allowed_mentions).toEqual({ parse: [] });
    const lines = description(shown.payload).split('\n');
    expect(lines[0]).toMatch(new RegExp(`^\\*\\*1\\.\\*\\* <@${MEMBER.userId}> Card1gan \\(you\\) · Grandmaster III [\\d,]+ · peak [\\d,]+ · \\d+ match`));
    expect(lines[1]).toMatch(new RegExp(`^\\*\\*2\\.\\*\\* <@${OTHER_MEMBER.userId}> Chob Bob · Platinum II [\\d,]+ · peak`));
    expect(lines.at(-1)).toBe('2 members not listed: 1 left the ladder, 1 has not proved an account yet.');
    expect(description(shown.payload)).not.toMatch(/HayamaKen|Sir Final/);
    expect(shown.payload.embeds[0]!.footer?.text).toMatch(/^2 members listed/);
  });

  it('the first page carries a chart of the top members’ rank score this season, from the matches the tracker recorded', async () => {
    // A renderer that keeps what it was asked to draw: the router draws a View's charts into its files.
    const asked: ChartSpec[] = [];
    const charts: ChartRenderer = { threads: 1, close: async () => undefined, render: async (spec) => (asked.push(spec), Buffer.from('png')) };
    const view = await env.b.router.command('ladder', { options: {}, subcommand: 'show', user: MEMBER }, { ...env.b.ctx, charts });
    // The top ten as a card on the first embed, the season chart on the second.
    expect(view.files?.map((f) => f.name)).toEqual(['ladder-top.png', 'ladder.png']);
    expect(view.embeds!.map((e) => e.image?.url)).toEqual(['attachment://ladder-top.png', 'attachment://ladder.png']);
    const card = asked.find((s) => s.kind === 'ladder-card');
    const rows = card?.kind === 'ladder-card' ? card.rows : [];
    expect(rows.map((r) => [r.position, r.name])).toEqual([
      ['1', 'Card1gan'],
      ['2', 'Chob Bob'],
    ]);
    expect(rows.every((r) => /^[\d,]+$/.test(r.score))).toBe(true);
    // The member list with its mentions is the card's text, shown wherever the card is not.
    expect(view.files![0]!.text?.description).toMatch(/^\*\*1\.\*\* <@\d+> Card1gan/);
    expect(view.embeds![0]!.description ?? '').not.toContain('<@');
    const spec = asked.find((s) => s.kind === 'ladder-rank');
    expect(spec?.kind).toBe('ladder-rank');
    const players = spec?.kind === 'ladder-rank' ? spec.players : [];
    expect(players.map((p) => p.name)).toEqual(['Card1gan', 'Chob Bob']);
    const recorded = await env.b.state.database.db
      .selectFrom('tracked_matches')
      .select(['played_at', 'new_score'])
      .where('uid', '=', '1403392756')
      .where('ranked', '=', 1)
      .where('new_score', 'is not', null)
      .execute();
    expect(players[0]!.points.length).toBeGreaterThan(0);
    expect(players[0]!.points.length).toBeLessThanOrEqual(recorded.length);
    expect(view.files![1]!.description).toBe("Rank score this season of the ladder's top 2: Card1gan, Chob Bob");
  });

  it('a member picks which linked account lists them; one that is not theirs is named back', async () => {
    await linked(MEMBER, '1117455441', 'Sir Final');
    const picked = await env.b.run('ladder', { account: 'sir final' }, 'join');
    expect(description(picked.payload)).toBe("You are on this server's ladder, listed by **Sir Final**.");
    expect(description((await env.b.run('ladder', {}, 'show')).payload)).toMatch(new RegExp(`<@${MEMBER.userId}> Sir Final \\(you\\)`));
    expect(description((await env.b.run('ladder', { account: 'Nobody Here' }, 'join')).payload)).toMatch(/^“Nobody Here” is not one of your linked accounts/);
  });

  it('the page buttons answer with the ladder; a filter nobody matches says so', async () => {
    const pressed = await env.b.press(encodeCustomId('ld.p', '-', 'season', '-', 1, 'f'));
    expect(description(pressed.payload)).toMatch(/^\*\*1\.\*\* /);
    const none = await env.b.run('ladder', { platform: 'xbox' }, 'show');
    expect(description(none.payload)).toMatch(/^\*Xbox\*\nNobody listed matches these filters\./);
  });

  it('outside a server it says a ladder belongs to one', async () => {
    const view = await env.b.run('ladder', {}, 'show', { userId: MEMBER.userId, locale: 'en-US' });
    expect(view.view.isError).toBe(true);
    expect(description(view.payload)).toMatch(/A ladder belongs to a server/);
  });

  it('/privacy shows the member’s ladder places, and delete takes them off the ladder', async () => {
    const shown = await env.b.run('privacy', {}, 'show', OTHER_MEMBER);
    // Chob Bob and Sir Final (the account that now lists MEMBER) won match 6713785_1741147395_1378_11001_10 on one team.
    expect(shown.payload.embeds[0]!.fields!.find((f) => f.name === 'Server ladders')?.value).toBe(
      "On 1 server's ladder\nLadder members you played with, from your recorded matches: 1 on your team, 0 against you",
    );
    await env.b.ctx.memberData!.erase(OTHER_MEMBER.userId, env.b.clock.now);
    expect(await env.b.state.ladder.membership(MEMBER.guildId, OTHER_MEMBER.userId)).toBeNull();
    expect(description((await env.b.run('ladder', {}, 'show')).payload)).not.toMatch(new RegExp(OTHER_MEMBER.userId));
  });
});
