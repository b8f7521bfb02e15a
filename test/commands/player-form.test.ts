/**
 * Recent form's net rank change is the player's real score movement over the form's competitive rows, rounded once to
 * one decimal: checked on every real profile against the rows' own changes (docs/data.md, "Rank score changes").
 */
import { describe, expect, it } from 'vitest';
import { playerView } from '../../commands/player.js';
import { matchMode } from '../../src/game/modes.js';
import { FORM_MATCHES } from '../../src/game/form.js';
import { rankScoreChange } from '../../src/game/ranks.js';
import type { PlayerProfile } from '../../src/api/schemas.js';
import { withoutCards } from '../../src/render/view-charts.js';
import { toMessagePayload } from '../../src/render/view.js';
import { realProfiles } from '../game/samples.js';
import { useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();

/** "+38.0", "−18.8", "±0" as a number. */
const valueOf = (text: string) => (text === '±0' ? 0 : Number(text.replace('−', '-').replace(/,/g, '')));
/** Rounded to tenths, halves away from zero: worked out here apart from the bot's formatter. */
const tenths = (x: number) => (Math.sign(x) * Math.round(Math.abs(x) * 10)) / 10;

/** The competitive changes of the rows recent form counts: the newest 20 real results, each match once. */
function formChanges(p: PlayerProfile): number[] {
  const seen = new Set<string>();
  return p.recent_matches
    .filter((m) => !seen.has(m.match_uid) && seen.add(m.match_uid))
    .sort((a, b) => (b.time ?? 0) - (a.time ?? 0))
    .filter((m) => matchMode(m.game_mode_id, m.play_mode_id).counts && m.player.result !== null)
    .slice(0, FORM_MATCHES)
    .filter((m) => matchMode(m.game_mode_id).ranked && m.player.score_change !== null)
    .map((m) => m.player.score_change!);
}

describe('recent form’s rank change', () => {
  for (const [file, p] of Object.entries(realProfiles)) {
    it(`${file}: the net shown is the rows' exact sum rounded once, within the rows' own rounding of their shown sum`, async () => {
      const fetched = { data: p, fetchedAt: Date.now(), ageMs: 0, stale: false, source: 'upstream' as const };
      const payload = toMessagePayload(withoutCards(await playerView(fetched, 'profile', 1, null, env.b.ctx)));
      const form = payload.embeds[0]!.fields!.find((f) => f.name.startsWith('Recent form'));
      const changes = formChanges(p);
      const net = form && /(?:^| · )([+−]\d[\d,]*\.\d|±0) rank score(?: · |$)/.exec(form.value)?.[1];
      if (changes.length === 0) {
        expect(net).toBeUndefined();
        return;
      }
      const exact = changes.reduce((s, c) => s + c, 0);
      expect(net).toBe(rankScoreChange(exact));
      expect(valueOf(net!)).toBe(tenths(exact));
      // Each row is rounded on its own, so their shown sum may stray from the net by up to 0.05 a row.
      const shownSum = changes.map((c) => valueOf(rankScoreChange(c))).reduce((s, c) => s + c, 0);
      expect(shownSum).toBeCloseTo(
        changes.map(tenths).reduce((s, c) => s + c, 0),
        6,
      );
      expect(Math.abs(valueOf(net!) - shownSum)).toBeLessThanOrEqual(0.05 * changes.length + 1e-9);
    });
  }

  it('on the real samples, the net and the shown rows’ sum are never more than a tenth apart, and sometimes that tenth', () => {
    const gaps = Object.entries(realProfiles).map(([file, p]) => {
      const changes = formChanges(p);
      const shown = changes.map((c) => valueOf(rankScoreChange(c))).reduce((s, c) => s + c, 0);
      return { file, gap: Math.abs(valueOf(rankScoreChange(changes.reduce((s, c) => s + c, 0))) - shown) };
    });
    for (const { gap } of gaps) expect(gap).toBeLessThanOrEqual(0.1 + 1e-9);
    // Sir Final: 17 rows summing to −19.7751 read −19.8, while the rows as shown add up to −19.9.
    expect(gaps.filter((g) => g.gap > 1e-9).map((g) => g.file)).toContain('autumnnippert-sir-final-1117455441.json');
  });
});
