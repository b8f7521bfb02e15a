/**
 * `/hero`'s "Balance history" section (commands/hero.ts) through the router, with a context whose
 * `balance` is the store after one run of the balance indexer over the replica: entries newest first
 * with verdict, date, title, quoted deciding lines and read buttons; paging with the hero paginator;
 * Discord's limits with a long hero paragraph; and what it says before the index exists, without
 * one, and for a hero no post changed.
 */
import { describe, expect, it } from 'vitest';
import { BALANCE_PER_PAGE } from '../../commands/hero.js';
import { BalanceIndexer } from '../../src/jobs/balance-indexer.js';
import { embedLength, LIMITS } from '../../src/render/limits.js';
import { bot, customIds, useReplicaBot } from '../helpers/bot.js';
import { capturingLogger } from '../helpers/replica.js';

const env = useReplicaBot();
/** Text as Discord shows it: each markdown escape (`\:`, `\.`) drawn as its character. */
const shown = (text: string) => text.replace(/\\([^0-9A-Za-z\s])/g, '$1');

/** A bot whose context has the balance history, after one run of the indexer (unless `run` is false). */
async function balanceBot(run = true) {
  const b = bot(env.r);
  const indexer = new BalanceIndexer({ api: b.ctx.api, heroes: b.ctx.heroes, history: b.state.balanceHistory, logger: capturingLogger().logger });
  if (run) expect((await indexer.run()).complete).toBe(true);
  b.ctx.balance = { history: b.state.balanceHistory, indexer };
  return b;
}

function expectWithinLimits(payload: Awaited<ReturnType<ReturnType<typeof bot>['press']>>['payload']) {
  const e = payload.embeds[0]!;
  expect(embedLength(e)).toBeLessThanOrEqual(LIMITS.embedTotal);
  expect(e.description!.length).toBeLessThanOrEqual(LIMITS.description);
  expect(payload.components.length).toBeLessThanOrEqual(LIMITS.actionRows);
  for (const id of customIds(payload)) expect(id.length).toBeLessThanOrEqual(LIMITS.customId);
  for (const row of payload.components) expect(row.components.length).toBeLessThanOrEqual(5);
}

describe('/hero balance history', () => {
  it('is a section of the menu, and lists every post that changed the hero, newest first, with its lines quoted', async () => {
    const b = await balanceBot();
    const menu = (await b.run('hero', { name: 'hulk' })).payload.components[0]!.components[0]!;
    expect('options' in menu && menu.options.map((o) => [o.label, o.value])).toContainEqual(['Balance history', 'balance']);

    const { payload, view } = await b.press('hero.s:1011', ['balance']);
    expect(view.isError).toBeFalsy();
    const e = payload.embeds[0]!;
    expect(e.author?.name).toBe('Hulk · Balance history');
    expect(shown(e.description!)).toBe(
      [
        '**1.** ▲ **Buff** · Nov 13, 2025 · Version 20251113 Patch Notes: Season 5 begins (Patch notes)',
        '> ▲ Hulk: Gamma Burst damage increased from 70 to 75.',
        '',
        '**2.** ▲ **Buff** · Nov 12, 2025 · Balance Post: Hulk and friends (Balance post)',
        '> ▲ Bruce Banner · Gamma Ray Gun: Increase damage per round from 5 to 6',
        '> ▲ Bruce Banner · Base Health increased from 275 to 300',
        '> ▲ Hero Hulk · Gamma Burst: Damage increased from 70 to 75',
        '> ▲ Hero Hulk · Indestructible Guard: Cooldown reduced from 15s to 12s',
        "> ✔ Fixed an issue where Hulk's Incredible Leap could pass through some walls.",
      ].join('\n'),
    );
    // The API's text is escaped: its colons cannot start a link or an emoji.
    expect(e.description).toContain('Hulk\\: Gamma Burst damage increased from 70 to 75.');
    expect(e.footer?.text).toMatch(/^2 posts · ▲ buff ▼ nerf ◆ adjusted ✔ fixed/);
    // One read button per post (the feed's button), no paginator for one page.
    expect(customIds(payload)).toEqual(['hero.s:1011', 'feed.read:patch-notes:20251113', 'feed.read:balances:balance-20251112']);
    const read = await b.press('feed.read:balances:balance-20251112');
    expect(read.payload.embeds[0]!.title).toBe('Balance Post: Hulk and friends');
    expect(read.payload.flags).toBe(64);
    await b.close();
  });

  it('shows each verdict with its marker: mixed changes are adjusted, a paragraph of fixes is fixed', async () => {
    const b = await balanceBot();
    const hela = shown((await b.press('hero.s:1024', ['balance'])).payload.embeds[0]!.description!);
    expect(hela).toMatch(/^\*\*1\.\*\* ✔ \*\*Fixed\*\* · Sep 12, 2025 · Balance Post: Luna Snow and friends/);
    expect(hela).toContain(
      '**2.** ◆ **Adjusted** · May 12, 2025 · Balance Post: Hela and friends (Balance post)\n> ▼ Nightsword Thorn: Damage per round reduced from 100 to 95\n> ▲ Astral Flock: Duration increased from 3s to 4s\n> ▼ Soul Drainer: Cooldown increased from 12s to 15s',
    );
    const luna = shown((await b.press('hero.s:1031', ['balance'])).payload.embeds[0]!.description!);
    expect(
      luna
        .split('\n')
        .filter((l) => /^\*\*\d+\.\*\*/.test(l))
        .map((l) => l.match(/\*\*(Buff|Nerf|Adjusted|Fixed)\*\*/)![1]),
    ).toEqual(['Nerf', 'Nerf']);
    await b.close();
  });

  it('pages with the hero paginator, clamps a page past the end, and stays within Discord limits with a long paragraph', async () => {
    // Seven more posts about Thor, one of them a very long paragraph.
    const extra = Array.from({ length: 7 }, (_, i) => ({
      id: `balance-2026010${i + 1}`,
      title: `Balance Post: Thor, part ${i + 1}`,
      date: `2026/01/0${i + 1}`,
      overview: 'Thor.',
      fullContent:
        i === 3
          ? `Thor\n${Array.from({ length: 60 }, (_, n) => `- Hammer Throw: Damage against *shields* and [barriers] increased from ${n} to ${n + 1} in round ${n}`).join('\n')}`
          : `Thor\n- Hammer Throw: Cooldown ${i % 2 ? 'reduced from 8s to 7s' : 'increased from 7s to 8s'}`,
      imagePath: '/t.jpg',
    }));
    env.r.dataset.posts.balances.unshift(...extra.reverse());
    try {
      const b = await balanceBot();
      const first = await b.press('hero.s:1039', ['balance']);
      expectWithinLimits(first.payload);
      const text = shown(first.payload.embeds[0]!.description!);
      const numbers = text.split('\n').filter((l) => /^\*\*\d+\.\*\*/.test(l));
      expect(numbers).toHaveLength(BALANCE_PER_PAGE);
      expect(numbers[0]).toMatch(/^\*\*1\.\*\* ▼ \*\*Nerf\*\* · Jan 7, 2026 · Balance Post: Thor, part 7/);
      expect(numbers[1]).toMatch(/^\*\*2\.\*\* ▲ \*\*Buff\*\* · Jan 6, 2026 /);
      // The long paragraph is cut to what fits, and says how many lines are left out; its markdown is escaped.
      expect(text).toMatch(/> …and \d+ more lines/);
      expect(first.payload.embeds[0]!.description).toContain('\\*shields\\* and \\[barriers\\]');
      // Seven posts here and the Halloween patch note.
      expect(first.payload.embeds[0]!.footer?.text).toMatch(/^8 posts /);
      const ids = customIds(first.payload);
      expect(ids).toContain('hero.p:1039:balance:2:n');
      expect(ids.filter((id) => id.startsWith('feed.read:'))).toHaveLength(BALANCE_PER_PAGE);

      const second = await b.press('hero.p:1039:balance:2:n');
      expectWithinLimits(second.payload);
      const rest = shown(second.payload.embeds[0]!.description!)
        .split('\n')
        .filter((l) => /^\*\*\d+\.\*\*/.test(l));
      expect(rest.map((l) => l.match(/^\*\*(\d+)\./)![1])).toEqual(['6', '7', '8']);
      expect(rest.at(-1)).toMatch(/Oct 16, 2025 · Version 20251016 Patch Notes: Halloween event \(Patch notes\)$/);
      expect(customIds(second.payload).filter((id) => id.startsWith('feed.read:'))).toEqual([
        'feed.read:balances:balance-20260102',
        'feed.read:balances:balance-20260101',
        'feed.read:patch-notes:20251016',
      ]);
      const buttons = second.payload.components.at(-1)!.components.map((c) => ('label' in c ? c.label : ''));
      expect(buttons).toEqual(['Read 6', 'Read 7', 'Read 8']);
      // A stale button past the end shows the last page.
      const past = await b.press('hero.p:1039:balance:99:l');
      expect(shown(past.payload.embeds[0]!.description!)).toBe(shown(second.payload.embeds[0]!.description!));
      await b.close();
    } finally {
      env.r.dataset.posts.balances.splice(0, extra.length);
    }
  });

  it('says the history is still being built before the first complete run, and that no post changed a hero after it', async () => {
    const b = await balanceBot(false);
    const building = await b.press('hero.s:1011', ['balance']);
    expect(building.view.isError).toBeFalsy();
    expect(building.payload.embeds[0]!.description).toBe(
      'The balance history is still being built from every balance post and patch note, and nothing about Hulk has been found so far. Try again in a few minutes.',
    );
    expect(customIds(building.payload)).toEqual(['hero.s:1011']);
    await b.state.balanceHistory.markComplete(Date.now());
    const none = await b.press('hero.s:1011', ['balance']);
    expect(none.payload.embeds[0]!.description).toBe('No balance post or patch note has changed Hulk so far.');
    await b.close();
  });

  it('says it is unavailable on a bot without the balance history', async () => {
    const { payload, view } = await env.b.press('hero.s:1025', ['balance']);
    expect(view.isError).toBeFalsy();
    expect(payload.embeds[0]!.author?.name).toBe('Cloak & Dagger · Balance history');
    expect(payload.embeds[0]!.description).toBe('The balance history is not available on this bot right now.');
  });

  it('renders the section of every hero within Discord limits', async () => {
    const b = await balanceBot();
    for (const hero of env.r.dataset.heroes) {
      const { payload, view } = await b.press(`hero.s:${String(hero.id)}`, ['balance']);
      expect(view.isError, String(hero.id)).toBeFalsy();
      expectWithinLimits(payload);
      expect(payload.embeds[0]!.description, String(hero.id)).toMatch(
        /^\*\*1\.\*\* [▲▼◆✔] \*\*(Buff|Nerf|Adjusted|Fixed)\*\* · [A-Z][a-z]{2} \d{1,2}, \d{4} · /,
      );
    }
    await b.close();
  });
});
