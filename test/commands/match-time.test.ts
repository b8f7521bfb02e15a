/**
 * One time for a match, whichever way it is seen: its start (the uid's, src/game/match-uid.ts rowStart; docs/data.md "When a
 * match was played"). The recent matches' line, the match opened from it (its scoreboard or its history row), the same match
 * typed by id and `/last` all give the same instant, labelled as the start in every language.
 */
import { describe, expect, it } from 'vitest';
import type { APISelectMenuOption } from 'discord-api-types/v10';
import { LOCALES, runInLocale, tr } from '../../src/i18n/index.js';
import type { MessagePayload } from '../../src/render/view.js';
import { decodeMatchOrigin } from '../../src/render/match-origin.js';
import { useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const CARD1GAN = '1403392756';

const optionsOf = (payload: MessagePayload): { id: string; options: APISelectMenuOption[] } => {
  const c = payload.components.flatMap((row) => row.components).find((x) => 'custom_id' in x && x.custom_id.startsWith('mt.l:'))!;
  return { id: 'custom_id' in c ? c.custom_id : '', options: 'options' in c ? (c.options ?? []) : [] };
};
/** The `<t:…:f>` after the start's label in a view's first embed. */
const startedIn = (payload: MessagePayload) => /\*\*Started\*\* <t:(\d+):f>/.exec(payload.embeds[0]!.description ?? '')?.[1];

describe('when a match was played', () => {
  it('the list, the match opened from it, the match typed by id and /last say the same start, never the row’s end', async () => {
    let scoreboards = 0;
    let rows = 0;
    for (const page of [1, 2]) {
      const list = (await env.b.press(`pl.p:${CARD1GAN}::matches:${page}:n`)).payload;
      const lines = list.embeds[0]!.description!.split('\n').filter((l) => /<t:\d+:R>$/.test(l));
      const { id, options } = optionsOf(list);
      expect(options.length).toBe(lines.length);
      for (const [i, option] of options.entries()) {
        const origin = decodeMatchOrigin(option.value);
        const listed = /<t:(\d+):R>$/.exec(lines[i]!)![1];
        // The start its uid holds: before the end the row (and the menu value) carry.
        expect(listed, origin.matchUid).toBe(origin.matchUid.split('_')[1]);
        expect(Number(listed), origin.matchUid).toBeLessThan(origin.time!);
        const opened = (await env.b.press(id, [option.value])).payload;
        expect(startedIn(opened), origin.matchUid).toBe(listed);
        const typed = (await env.b.run('match', { match: origin.matchUid })).payload;
        expect(startedIn(typed), origin.matchUid).toBe(listed);
        if (opened.embeds[0]!.fields?.some((f) => f.name === 'MVP')) scoreboards++;
        else rows++;
      }
    }
    // Both kinds of view were compared: the four captured scoreboards and history rows without one.
    expect(scoreboards).toBe(4);
    expect(rows).toBeGreaterThan(0);
    const newest = optionsOf((await env.b.press(`pl.p:${CARD1GAN}::matches:1:n`)).payload).options[0]!;
    const last = (await env.b.run('last', { player: CARD1GAN })).payload;
    expect(startedIn(last)).toBe(decodeMatchOrigin(newest.value).matchUid.split('_')[1]);
  });

  it('is labelled as the start in every language', async () => {
    for (const locale of LOCALES) {
      const { payload } = await runInLocale(locale, () => env.b.run('match', { match: '6713355_1740604074_322_11001_10' }));
      expect(payload.embeds[0]!.description, locale).toContain(runInLocale(locale, () => tr('match:facts.started', { time: '<t:1740604074:f>' })));
    }
  });
});
