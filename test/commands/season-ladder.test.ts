/**
 * `/leaderboard` without a hero: the season's ranked ladder of all players (`GET /api/v2/players/leaderboard`) on the
 * replica, paged ten at a time from API pages of 100, with the platform and season options, the member's own place and the
 * server's listed members named.
 */
import { describe, expect, it } from 'vitest';
import { encodeCustomId } from '../../src/render/custom-id.js';
import { escapeText } from '../../src/render/limits.js';
import { runInLocale } from '../../src/i18n/index.js';
import { seasonLadder } from '../../src/replica/season-ladder.js';
import { ADMIN, customIds, MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const CARD1GAN = { uid: '1403392756', name: 'Card1gan' };
const SIR = { uid: '1117455441', name: 'Sir Final' };
const THIRD = { ...MEMBER, userId: '200000000000000003' };
const LADDER = '/api/v2/players/leaderboard';

type Payload = { embeds: { title?: string; author?: { name: string }; description?: string }[]; components?: unknown[] };
const embed = (p: Payload) => p.embeds[0]!;
const ladderReads = () => env.r.requests.byPath.get(LADDER) ?? 0;
/** The replica's current PC ladder, to know where a captured player stands. */
const pcLadder = () => seasonLadder(3, 'pc', true, env.r.dataset.players.values()) as { uid: string; name: string }[];

describe('/leaderboard without a hero', () => {
  it('shows the season’s top ten with tier, rank score and record, and pages on through one API page of 100', async () => {
    const before = ladderReads();
    const first = await env.b.run('leaderboard', {});
    const e = embed(first.payload);
    expect(e.author?.name).toBe('Season ladder · PC');
    expect(e.title).toBe('Season 3');
    const top = pcLadder().slice(0, 10);
    const lines = e.description!.split('\n').filter((l) => /^\*\*\d/.test(l));
    expect(lines.map((l) => l.match(/^\*\*(\d+)\. (.+?)\*\*/)!.slice(1))).toEqual(top.map((p, i) => [String(i + 1), escapeText(p.name)]));
    expect(lines[0]).toMatch(/^\*\*1\. \S+\*\* · One Above All · [\d,]+ pts$/);
    expect(e.description).toMatch(/\n\d+–\d+ · [\d.]+ % · \d+ matches\n/);
    expect(customIds(first.payload)).toContain(encodeCustomId('lb.t', 'pc', '', 2, 'n'));
    expect(ladderReads() - before).toBe(1);
    // Pages 2 to 10 are on the API page already read; page 11 reads the next.
    const second = await env.b.press(encodeCustomId('lb.t', 'pc', '', 2, 'n'));
    expect(embed(second.payload).description).toMatch(/^\*\*11\. /);
    expect(ladderReads() - before).toBe(1);
    const eleventh = await env.b.press(encodeCustomId('lb.t', 'pc', '', 11, 'n'));
    expect(embed(eleventh.payload).description).toMatch(/^\*\*101\. /);
    expect(ladderReads() - before).toBe(2);
  });

  it('reads the platform chosen as the ladder’s device, PlayStation as psn', async () => {
    const ps = await env.b.run('leaderboard', { platform: 'ps' });
    expect(embed(ps.payload).author?.name).toBe('Season ladder · PlayStation');
    const first = seasonLadder(3, 'psn', true, [])[0] as { name: string };
    expect(embed(ps.payload).description).toMatch(new RegExp(`^\\*\\*1\\. ${first.name}\\*\\*`));
    expect(customIds(ps.payload)).toContain(encodeCustomId('lb.t', 'ps', '', 2, 'n'));
  });

  it('says the member’s own place and jumps to it; marks their line', async () => {
    await env.b.ctx.links.link(MEMBER.userId, CARD1GAN, true);
    const place = pcLadder().findIndex((p) => p.uid === CARD1GAN.uid) + 1;
    // The captured players stand low on the generated ladder: within the first API page of 1,000 places, not the first 100.
    expect(place).toBeGreaterThan(100);
    const top = await env.b.run('leaderboard', {});
    expect(embed(top.payload).description).toContain('Your linked accounts are not among places 1–100.');
    const page = Math.ceil(place / 10);
    const apiPage = Math.ceil(page / 10);
    const there = await env.b.press(encodeCustomId('lb.t', 'pc', '', (apiPage - 1) * 10 + 1, 'n'));
    const text = embed(there.payload).description!;
    expect(text).toContain(`Your place: **#${place}** (Card1gan)`);
    expect(customIds(there.payload)).toContain(encodeCustomId('lb.t', 'pc', '', page, 'm'));
    const mine = await env.b.press(encodeCustomId('lb.t', 'pc', '', page, 'm'));
    expect(embed(mine.payload).description).toMatch(new RegExp(`\\*\\*${place.toLocaleString('en-US')}\\. Card1gan\\*\\* · [^\\n]+ ← you`));
    // No jump from the page it is on.
    expect(customIds(mine.payload).some((id) => id.endsWith(':m'))).toBe(false);
  });

  it('finds the member’s place beyond the part read, at a few requests, and says when it is not in the top 1,000', async () => {
    const FINDER = { ...MEMBER, userId: '200000000000000041' };
    await env.b.ctx.links.link(FINDER.userId, SIR, true);
    const place = pcLadder().findIndex((p) => p.uid === SIR.uid) + 1;
    const top = await env.b.run('leaderboard', {}, undefined, FINDER);
    expect(customIds(top.payload)).toContain(encodeCustomId('lb.f', 'pc', ''));
    const before = ladderReads();
    const found = await env.b.press(encodeCustomId('lb.f', 'pc', ''), [], FINDER, FINDER.userId);
    const text = embed(found.payload).description!;
    expect(text).toContain(`Your place: **#${place}** (Sir Final)`);
    expect(text).toMatch(new RegExp(`\\*\\*${place}\\. Sir Final\\*\\* · [^\\n]+ ← you`));
    // A binary search over ten pages of 100: four reads at most, and a neighbour's two.
    expect(ladderReads() - before).toBeLessThanOrEqual(6);
    // An account far below the top 1,000 (Gold II): page 1, said so, no button to look again.
    const LOW = { ...MEMBER, userId: '200000000000000042' };
    await env.b.ctx.links.link(LOW.userId, { uid: '1786151874', name: 'Double C' }, true);
    const low = await env.b.press(encodeCustomId('lb.f', 'pc', ''), [], LOW, LOW.userId);
    expect(embed(low.payload).description).toMatch(/^\*\*1\. /);
    expect(embed(low.payload).description).toContain('Double C is not in the top 1,000 of this ladder.');
    expect(customIds(low.payload).some((id) => id.startsWith('lb.f'))).toBe(false);
  });

  it('names members listed on this server’s ladder, and nobody who did not join it', async () => {
    await env.b.run('config', { enabled: true }, 'ladder', ADMIN);
    for (const [user, account] of [
      [OTHER_MEMBER, SIR],
      [THIRD, CARD1GAN],
    ] as const) {
      await env.b.ctx.links.link(user.userId, account, true);
      await env.b.state.database.db.updateTable('account_links').set({ verified_at: env.b.clock.now }).where('user_id', '=', user.userId).execute();
    }
    // Sir Final's member joins the ladder and is listed by the tracker's standing; Card1gan's member never joins.
    await env.b.run('ladder', {}, 'join', OTHER_MEMBER);
    await env.b.state.database.db.updateTable('ladder_members').set({ uid: SIR.uid, score: 4559 }).where('user_id', '=', OTHER_MEMBER.userId).execute();
    const ladder = pcLadder();
    const sirPage = Math.ceil((ladder.findIndex((p) => p.uid === SIR.uid) + 1) / 10);
    const cardPage = Math.ceil((ladder.findIndex((p) => p.uid === CARD1GAN.uid) + 1) / 10);
    const sir = embed((await env.b.press(encodeCustomId('lb.t', 'pc', '', sirPage, 'n'), [], THIRD)).payload).description!;
    expect(sir).toContain(`Sir Final** (<@${OTHER_MEMBER.userId}>)`);
    const card = embed((await env.b.press(encodeCustomId('lb.t', 'pc', '', cardPage, 'n'), [], OTHER_MEMBER)).payload).description!;
    expect(card).toMatch(/Card1gan\*\* · /);
    expect(card).not.toContain(`<@${THIRD.userId}>`);
    // With the ladder off, nobody is named.
    await env.b.run('config', { enabled: false }, 'ladder', ADMIN);
    const off = embed((await env.b.press(encodeCustomId('lb.t', 'pc', '', sirPage, 'n'), [], THIRD)).payload).description!;
    expect(off).toContain('Sir Final**');
    expect(off).not.toContain(`<@${OTHER_MEMBER.userId}>`);
  });

  it('shows a past season asked for, and names a season the API does not list', async () => {
    const past = await env.b.run('leaderboard', { season: 1.5 });
    expect(embed(past.payload).title).toBe('Season 1.5');
    expect(customIds(past.payload)).toContain(encodeCustomId('lb.t', 'pc', '1.5', 2, 'n'));
    const first = seasonLadder(1.5, 'pc', false, [])[0] as { name: string };
    expect(embed(past.payload).description).toMatch(new RegExp(`^\\*\\*1\\. ${first.name}\\*\\*`));
    const missing = await env.b.run('leaderboard', { season: 9 });
    expect(missing.view.isError).toBe(true);
    expect(embed(missing.payload).description).toBe('There is no season “9”. The API lists the seasons from 0 to 3.');
    const before = ladderReads();
    const impossible = await env.b.run('leaderboard', { season: 0.5 });
    expect(embed(impossible.payload).description).toMatch(/^There is no season “0\\?\.5”/);
    expect(ladderReads()).toBe(before);
  });

  it('speaks each language', async () => {
    for (const [locale, author] of [
      ['de', 'Saisonrangliste · PC'],
      ['fr', 'Classement de la saison · PC'],
      ['es-ES', 'Clasificación de la temporada · PC'],
      ['pt-BR', 'Ranking da temporada · PC'],
      ['ja', 'シーズンランキング · PC'],
    ] as const) {
      const view = await runInLocale(locale, () => env.b.run('leaderboard', {}));
      expect(embed(view.payload).author?.name).toBe(author);
      expect(embed(view.payload).description).not.toMatch(/leaderboard:|top\./);
    }
  });

  it('says the API answered in a form the bot does not know when the ladder holds no list, and logs the shape', async () => {
    env.r.setFaults({ wrongShape: true, pathPrefix: LADDER });
    try {
      const broken = await env.b.run('leaderboard', { platform: 'xbox', season: 2 });
      expect(broken.view.isError).toBe(true);
      expect(JSON.stringify(broken.payload)).toContain('The Marvel Rivals API answered in a form the bot does not know');
      // The log says what the answer lacked, for the operators.
      expect(env.b.logLines.some((l) => l.includes('"endpoint":"topPlayers"') && l.includes('no list of players'))).toBe(true);
    } finally {
      env.r.setFaults({});
    }
  });
});
