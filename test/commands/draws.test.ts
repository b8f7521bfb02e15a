/**
 * A draw shown as a draw wherever a result is shown, in every language: the recent matches and their picker, the match
 * opened from them (its history row, or its scoreboard), recent form in the embed and on the card, and the match option's
 * choices. On Double C's capture of 5 June 2025, whose second row is the one real draw (docs/data.md "A draw is is_win.score 2").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { APIEmbed, APISelectMenuOption } from 'discord-api-types/v10';
import { matchView } from '../../src/catalog/match-answer.js';
import { playerView } from '../../commands/player.js';
import { parseChartSpec, type ProfileCard } from '../../src/charts/specs.js';
import { gameModeName } from '../../src/game/modes.js';
import { LOCALES, runInLocale, tr, type Locale, type MessageValues } from '../../src/i18n/index.js';
import type { MessageKey } from '../../src/i18n/keys.js';
import { withoutCards } from '../../src/render/view-charts.js';
import type { MessagePayload } from '../../src/render/view.js';
import { raw, realProfiles } from '../game/samples.js';
import { customIds, MEMBER, useReplicaBot } from '../helpers/bot.js';
import { expectWithin } from '../helpers/limits.js';

const env = useReplicaBot();
const UID = '1786151874';
const JUNE = 'doublec8-double-c-1786151874-2025-06-05.json';
const DRAW = '5517722_1749100885_1267272_11001_11';
/** The draw's own figures: Cloak & Dagger 20/10/17, +10.15 to 3,487.1 in Competitive. */
const KDA = '20/10/17';

const say = (locale: Locale, key: MessageKey, values?: MessageValues) => runInLocale(locale, () => tr(key, values));
const selectOptions = (payload: MessagePayload, prefix: string): { id: string; options: APISelectMenuOption[] } => {
  const c = payload.components.flatMap((row) => row.components).find((x) => 'custom_id' in x && x.custom_id.startsWith(prefix));
  return { id: c && 'custom_id' in c ? c.custom_id : '', options: c && 'options' in c ? (c.options ?? []) : [] };
};
const fieldsOf = (e: APIEmbed) => Object.fromEntries((e.fields ?? []).map((f) => [f.name, f.value]));

beforeAll(() => {
  // The replica serves a uid's newest capture; the June one holds the draw.
  env.r.dataset.players.set(UID, raw('player', JUNE));
});

/** The recent matches' first page in `locale`: the draw's line and its picker option. */
async function recentMatches(locale: Locale) {
  const { payload } = await runInLocale(locale, () => env.b.press(`pl.s:${UID}:`, ['matches']));
  expectWithin(payload, `recent matches in ${locale}`);
  const line = payload.embeds[0]!.description!.split('\n').find((l) => l.includes(` · ${KDA} · `))!;
  const select = selectOptions(payload, 'mt.l:');
  const option = select.options.find((o) => o.value.startsWith(`${DRAW}~`))!;
  return { line, select: select.id, option };
}

describe('a draw in the recent matches', () => {
  it('reads as a draw in its line and its picker option, in every language, never as a loss', async () => {
    for (const locale of LOCALES) {
      const { line, option } = await recentMatches(locale);
      const draw = say(locale, 'player:matches.draw');
      expect(line, locale).toMatch(new RegExp(`^\\*\\*${draw}\\*\\* · `));
      expect(line, locale).not.toContain(say(locale, 'player:matches.loss'));
      expect(option.label, locale).toMatch(new RegExp(`^\\d+\\. ${draw} · `));
      if (locale !== 'en') expect(draw, locale).not.toBe(say('en', 'player:matches.draw'));
    }
  });

  it('opened without a scoreboard, its history row is titled a draw, neither green nor red, with its rank change', async () => {
    for (const locale of LOCALES) {
      const { select, option } = await recentMatches(locale);
      const opened = await runInLocale(locale, () => env.b.press(select, [option.value]));
      expect(opened.view.isError, locale).toBeFalsy();
      expectWithin(opened.payload, `the draw opened in ${locale}`);
      const e = opened.payload.embeds[0]!;
      expect(e.title, locale).toBe(`${say(locale, 'match:team.draw')} · ${runInLocale(locale, () => gameModeName(2))}`);
      expect(e.color, locale).toBe(0x5865f2);
      expect(fieldsOf(e)[say(locale, 'match:last.kda')], locale).toBe(KDA);
      expect(fieldsOf(e)[say(locale, 'match:last.rankScore')], locale).toMatch(/^\+10[.,]1 → 3[,.\s ]?487$/);
      // Back to the list it came from.
      expect(customIds(opened.payload), locale).toEqual([`pl.p:${UID}::matches:1:b`]);
    }
  });

  it('opened with a scoreboard that marks no winner, both teams read a draw, with the row’s rounds 3–3', async () => {
    const sample = env.r.dataset.matches.get('6713355_1740604074_322_11001_10') as { match_details: { match_players: Record<string, unknown>[] } };
    // Past the cache's memory of the API having no scoreboard for it (the test before).
    env.b.clock.now += 3 * 60_000;
    env.r.dataset.matches.set(DRAW, {
      match_details: { ...sample.match_details, match_uid: DRAW, match_players: sample.match_details.match_players.map((p) => ({ ...p, is_win: 0 })) },
    });
    try {
      for (const locale of LOCALES) {
        const { select, option } = await recentMatches(locale);
        const opened = await runInLocale(locale, () => env.b.press(select, [option.value]));
        const teams = opened.payload.embeds.slice(1);
        const title = (letter: string) =>
          `${say(locale, 'match:team.named', { letter })} · ${say(locale, 'match:team.draw')} · ${say(locale, 'match:team.rounds', { won: '3', lost: '3' })}`;
        expect(
          teams.map((t) => t.title),
          locale,
        ).toEqual([title('A'), title('B')]);
        // The card as the handler draws it (the test bot has no chart pool: its answers are text).
        const card = parseChartSpec((await runInLocale(locale, () => matchView(option.value, env.b.ctx, true))).charts![0]!.spec);
        expect(card.kind === 'match-card' && card.teams.map((t) => t.won), locale).toEqual([null, null]);
      }
    } finally {
      env.r.dataset.matches.delete(DRAW);
    }
  });
});

describe('a draw in recent form', () => {
  it('the embed marks it with the draw’s letter and counts it apart; the card draws it and counts it, in every language', async () => {
    const fetched = { data: realProfiles[JUNE]!, fetchedAt: Date.now(), ageMs: 0, stale: false, source: 'upstream' as const };
    for (const locale of LOCALES) {
      const view = await runInLocale(locale, () => playerView(fetched, 'profile', 1, null, env.b.ctx));
      const text = withoutCards(view).embeds![0]!;
      const form = text.fields!.find((f) => f.name.startsWith(say(locale, 'player:form.title', { count: 20, n: '20' }).slice(0, 6)))!.value;
      const marks = form.split(' · ')[0]!.split(' ');
      const card = parseChartSpec(view.charts![0]!.spec) as ProfileCard;
      // The draw is the second newest real result, as it is the second row.
      expect(marks[1], locale).toBe(say(locale, 'player:form.drawMark'));
      expect(card.form[1], locale).toBe('draw');
      const count = (r: string) => card.form.filter((x) => x === r).length;
      expect(
        card.form.map((r) => say(locale, `player:form.${r}Mark` as MessageKey)),
        locale,
      ).toEqual(marks.slice(0, card.form.length));
      const record = { wins: String(count('win')), losses: String(count('loss')), draws: '1' };
      expect(form, locale).toContain(say(locale, 'player:form.recordWithDraws', record));
      expect(card.labels.record, locale).toBe(say(locale, 'player:card.formRecordWithDraws', record));
      // A loss mark for each loss alone.
      expect(marks.filter((m) => m === say(locale, 'player:form.lossMark')).length, locale).toBe(count('loss'));
    }
  });
});

describe('a draw among the match option’s choices', () => {
  it('is named a draw', async () => {
    await env.b.ctx.links.link(MEMBER.userId, { uid: UID, name: 'Double C' }, true, 0);
    const choices = await env.b.router.autocomplete('match', { focused: { name: 'match', value: '' }, options: {}, user: MEMBER }, env.b.ctx);
    expect(choices.find((c) => c.value === DRAW)?.name).toMatch(/^Draw · Competitive · /);
  });
});
