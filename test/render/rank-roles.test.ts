/** The rank roles' field of /config status within Discord's 1,024 characters, however many members failed and why. */
import { describe, expect, it } from 'vitest';
import { ROLE_FAILURES } from '../../src/game/rank-roles.js';
import { integer } from '../../src/i18n/format.js';
import { LOCALES, runInLocale, tr } from '../../src/i18n/index.js';
import { rankRolesStatus } from '../../src/render/rank-roles.js';
import type { RankRoleSettings, RoleFailureRow } from '../../src/store/rank-roles.js';

const T0 = Date.UTC(2026, 11, 1);
const settings: RankRoleSettings = { enabled: true, roles: {}, generation: 1, problem: { kind: 'no-permission', at: T0 } };

/** `n` members failing for `reason`, with Discord's longest answers where the reason carries one. */
function rows(reason: (typeof ROLE_FAILURES)[number], n: number, from: number): RoleFailureRow[] {
  return Array.from({ length: n }, (_, i) => ({
    userId: String(300_000_000_000_000_000n + BigInt(from + i)),
    reason,
    roleId: '400000000000000001',
    at: T0,
    failures: 3,
    retryAt: T0 + 3_600_000,
    detail: reason === 'refused' ? { code: 50013, status: 403, message: 'Missing Permissions '.repeat(10) } : { kind: 'rate-limited', status: 429 },
  }));
}

describe('rankRolesStatus', () => {
  it.each([
    ['40 members held for one reason and one for each other', [40, 1, 1, 1, 1, 1, 1, 1]],
    ['one member for each reason', [1, 1, 1, 1, 1, 1, 1, 1]],
    ['200 members for each reason', [200, 200, 200, 200, 200, 200, 200, 200]],
  ])('%s: within 1,024 characters in every language, each label followed by a member, the rest counted', (_, counts) => {
    const all = ROLE_FAILURES.flatMap((reason, i) => rows(reason, counts[i]!, i * 1_000));
    for (const locale of LOCALES) {
      const field = runInLocale(locale, () => rankRolesStatus(settings, { rows: all, total: all.length }));
      expect(field.value.length, locale).toBeLessThanOrEqual(1_024);
      const lines = field.value.split('\n');
      // Every failure line names at least one member.
      const labels = runInLocale(locale, () => ROLE_FAILURES.map((r) => `⚠️ ${tr(`ladder:roles.failure.${r}`)}: `));
      const failureLines = lines.filter((l) => labels.some((label) => l.startsWith(label)));
      expect(failureLines.length, locale).toBeGreaterThan(0);
      for (const line of failureLines) expect(line, locale).toMatch(/: <@\d+>/);
      const named = (field.value.match(/<@\d+>/g) ?? []).length;
      expect(named, locale).toBeGreaterThan(0);
      // Those not named are counted, and the hint about when they are tried again closes the field.
      const more = runInLocale(locale, () => tr('ladder:roles.more', { n: integer(all.length - named) }));
      if (named < all.length) expect(lines, locale).toContain(more);
      expect(lines.at(-1), locale).toBe(runInLocale(locale, () => tr('ladder:roles.retry')));
    }
  });
});
