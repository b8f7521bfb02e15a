/** Digest periods across days, weeks and time zones, and the digest message within Discord's limits (src/feeds/digest.ts). */
import { describe, expect, it } from 'vitest';
import { digestPeriod, digestView, DIGEST_MAX_POSTS } from '../../src/feeds/digest.js';
import { fitView } from '../../src/render/view.js';
import { toMessagePayload } from '../../src/render/view.js';

describe('digest periods', () => {
  it('a daily digest at 18:00 names the day of its latest due moment', () => {
    const daily = { every: 'daily' as const, at: 18 * 60 };
    expect(digestPeriod(daily, 'UTC', Date.parse('2099-03-10T17:59:00Z'))).toBe('2099-03-09');
    expect(digestPeriod(daily, 'UTC', Date.parse('2099-03-10T18:00:00Z'))).toBe('2099-03-10');
    expect(digestPeriod(daily, 'UTC', Date.parse('2099-03-11T00:30:00Z'))).toBe('2099-03-10');
    // 18:00 in Tokyo is 09:00 UTC.
    expect(digestPeriod(daily, 'Asia/Tokyo', Date.parse('2099-03-10T08:59:00Z'))).toBe('2099-03-09');
    expect(digestPeriod(daily, 'Asia/Tokyo', Date.parse('2099-03-10T09:00:00Z'))).toBe('2099-03-10');
  });
  it('a weekly digest goes on Mondays: the period is named by its Monday', () => {
    const weekly = { every: 'weekly' as const, at: 9 * 60 };
    // 2099-03-09 is a Monday.
    expect(digestPeriod(weekly, 'UTC', Date.parse('2099-03-09T08:59:00Z'))).toBe('week-2099-03-02');
    expect(digestPeriod(weekly, 'UTC', Date.parse('2099-03-09T09:00:00Z'))).toBe('week-2099-03-09');
    expect(digestPeriod(weekly, 'UTC', Date.parse('2099-03-15T23:59:00Z'))).toBe('week-2099-03-09');
    expect(digestPeriod(weekly, 'UTC', Date.parse('2099-03-16T09:00:00Z'))).toBe('week-2099-03-16');
  });
});

describe('the digest message', () => {
  const post = (i: number) => ({
    id: `p${i}`,
    title: `Patch ${i} [link](https://x.y) @everyone`,
    date: '2099-03-10',
    overview: `What changed in ${i}: **a lot**`,
    image: null,
  });
  it('lists every post with its overview, pings the role only, and offers each in full', () => {
    const view = digestView('patchNotes', { every: 'daily', at: 18 * 60 }, 'Europe/Paris', [post(1), post(2), post(3)], 'r1');
    const payload = toMessagePayload(view);
    expect(payload.content).toBe('<@&r1>');
    expect(payload.allowed_mentions).toEqual({ parse: [], roles: ['r1'] });
    const embed = payload.embeds[0]!;
    expect(embed.author?.name).toBe('Patch notes of the day');
    expect(embed.title).toBe('3 posts');
    expect(embed.fields!.map((f) => f.name)).toEqual([1, 2, 3].map((i) => post(i).title));
    expect(embed.fields![0]!.value).toContain('What changed in 1\\: \\*\\*a lot\\*\\*');
    expect(embed.footer?.text).toBe('Digest · Every day at 18:00 (Europe/Paris)');
    const menu = payload.components[0]!.components[0] as { custom_id: string; options: { value: string }[] };
    expect(menu.custom_id).toBe('feed.read:patch-notes');
    expect(menu.options.map((o) => o.value)).toEqual(['p1', 'p2', 'p3']);
  });
  it("stays within Discord's limits with many long posts: the latest 25, the rest counted", () => {
    const long = Array.from({ length: 40 }, (_, i) => ({ ...post(i), title: 'T'.repeat(300), overview: 'O'.repeat(5000) }));
    const view = digestView('balances', { every: 'weekly', at: 0 }, 'UTC', long, null);
    const fitted = fitView(view);
    expect(fitted.embeds![0]!.fields).toHaveLength(DIGEST_MAX_POSTS);
    expect(fitted.embeds![0]!.description).toBe('The latest 25 are below; 15 older ones are in `/patch-notes`.');
    const e = fitted.embeds![0]!;
    const total =
      (e.title?.length ?? 0) +
      (e.description?.length ?? 0) +
      (e.author?.name.length ?? 0) +
      (e.footer?.text.length ?? 0) +
      e.fields!.reduce((n, f) => n + f.name.length + f.value.length, 0);
    expect(total).toBeLessThanOrEqual(6000);
    const menu = fitted.components![0]!.components[0] as { options: { label: string }[] };
    expect(menu.options).toHaveLength(25);
    expect(menu.options.every((o) => o.label.length <= 100)).toBe(true);
  });
});
