/** The match's image card: the same teams, heroes and figures as the team embeds, which stay its text beside it. */
import { describe, expect, it } from 'vitest';
import { parseChartSpec, type MatchCard } from '../../src/charts/specs.js';
import { runInLocale } from '../../src/i18n/index.js';
import { withoutCards } from '../../src/render/view-charts.js';
import { matchView } from '../../src/catalog/match-answer.js';
import { customIds, MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';
import { recordingCharts } from '../helpers/charts.js';
import { toMessagePayload, withoutFiles } from '../../src/render/view.js';
import { drawCharts } from '../../src/discord/chart-attachments.js';

const env = useReplicaBot();
const MATCH = '6713355_1740604074_322_11001_10';

/** The bold names of a team embed's lines, in order. */
const names = (description: string | undefined) =>
  (description ?? '').split('\n').map((l) => /^\*\*(.+?)\*\*|^~~(.+?)~~/.exec(l)?.slice(1).find(Boolean)?.replace(/\\(.)/g, '$1'));

describe('the match card', () => {
  it('shows the teams the embeds list: players in order, their K/D/A, MVP and SVP, who left early dimmed', async () => {
    const view = await matchView(MATCH, env.b.ctx);
    expect(view.embeds).toHaveLength(1);
    expect(view.embeds![0]!.image).toEqual({ url: 'attachment://match.png' });
    const chart = view.charts![0]!;
    const card = parseChartSpec(chart.spec) as MatchCard;
    expect(card.kind).toBe('match-card');
    // The alt text says what the card is, then the scoreboard in short for screen readers, within Discord's 1,024.
    expect(chart.description).toMatch(
      /^Scoreboard card: both teams, each player’s hero, K\/D\/A, damage, healing, MVP and SVP\. Team A · Defeat: Gergory-House \(Storm\) 11\/5\/13, /,
    );
    expect(chart.description).toContain('. Team B · Victory: KingDomENT (The Thing) 15/3/2, ');
    expect(chart.description.length).toBeLessThanOrEqual(1_024);
    const teams = chart.text!.embeds!;
    expect(teams.map((t) => t.title)).toEqual(card.teams.map((t) => t.title));
    expect(card.teams.map((t) => t.won)).toEqual([false, true]);
    card.teams.forEach((team, i) => {
      expect(team.players.map((p) => p.name)).toEqual(names(teams[i]!.description));
      const lines = teams[i]!.description!.split('\n');
      team.players.forEach((p, j) => {
        expect(lines[j]).toContain(` · ${p.kda} · `);
        expect(p.dimmed).toBe(/\*(left early|no hero picked)\*$/.test(lines[j]!));
        if (p.badge) expect(lines[j]).toContain(`**${p.badge}**`);
      });
    });
    const players = card.teams.flatMap((t) => t.players);
    expect(players.filter((p) => p.badge).map((p) => [p.name, p.badge])).toEqual([
      ['Card1gan', 'SVP'],
      ['Alikye', 'MVP'],
    ]);
    expect(players.find((p) => p.name === 'Diijonn')).toMatchObject({ dimmed: true, kda: '0/1/0', hero: 'Magneto' });
    // Damage and healing as numbers, named once for the card: a unit on every row does not fit in every language.
    expect(players.find((p) => p.name === 'Card1gan')!.figures).toBe('6,509 · 14,461');
    expect(players.find((p) => p.name === 'Diijonn')!.figures).toBe('1,040');
    expect(card.columns).toBe('K/D/A · damage · healing');
    // Hero portraits from the hero list: every played hero has one in the replica.
    expect(players.every((p) => p.image?.startsWith('https://img.test/rivals/'))).toBe(true);
    expect(card.subtitle).not.toMatch(/\*|<t:/);
  });

  it('gives back the team embeds wherever the card is not shown, without its "Full scoreboard" button', async () => {
    const view = await matchView(MATCH, env.b.ctx);
    const text = withoutCards(view);
    expect(text.charts).toEqual([]);
    expect(text.embeds).toEqual([{ ...view.embeds![0], image: undefined }, ...view.charts![0]!.text!.embeds!].map(({ image: _image, ...e }) => e));
    expect(customIds(toMessagePayload(view))).toContain(`mt.t:${MATCH}`);
    expect(customIds(toMessagePayload(text))).not.toContain(`mt.t:${MATCH}`);
    // Discord refusing the upload: the same, from the payload.
    expect(customIds(withoutFiles(toMessagePayload(await drawCharts(view, recordingCharts(), env.b.ctx.logger))))).not.toContain(`mt.t:${MATCH}`);
  });

  it('"Full scoreboard" answers whoever presses it privately with the team embeds the card leaves out', async () => {
    // As the handler makes it with the card (this bot draws no charts: the router leaves the card's text, without its button).
    const shown = toMessagePayload(await matchView(MATCH, env.b.ctx));
    const button = customIds(shown).find((id) => id.startsWith('mt.t:'))!;
    const labels = shown.components.flatMap((row) => row.components).map((c) => ('label' in c ? c.label : undefined));
    expect(labels).toContain('Full scoreboard');
    for (const user of [MEMBER, OTHER_MEMBER]) {
      const pressed = await env.b.press(button, [], user);
      expect(pressed.mode).toBe('reply');
      expect(pressed.view.ephemeral).toBe(true);
      expect(pressed.payload.embeds.map((e) => e.title)).toEqual(['Quick Play', 'Team A · Defeat', 'Team B · Victory']);
      // What the card leaves out is here: who left early, among others.
      expect(pressed.payload.embeds.map((e) => e.description ?? '').join('\n')).toMatch(/left early/);
      expect(pressed.view.charts ?? []).toEqual([]);
    }
  });

  it('dims only who left early: a replacement played the match to its end, on every real match', async () => {
    const seen = { replacement: 0, left: 0 };
    for (const uid of env.r.dataset.matches.keys()) {
      const view = await matchView(uid, env.b.ctx);
      const card = view.charts![0]!.spec as MatchCard;
      card.teams.forEach((team, i) => {
        const lines = view.charts![0]!.text!.embeds![i]!.description!.split('\n');
        team.players.forEach((p, j) => {
          const status = /\*(left early|replacement|no hero picked)\*$/.exec(lines[j]!)?.[1];
          if (status === 'replacement') seen.replacement++;
          if (status === 'left early') seen.left++;
          expect(p.dimmed, `${uid} ${p.name}`).toBe(status === 'left early' || status === 'no hero picked');
        });
      });
    }
    // 6713371 has two replacements and two leavers; the other matches one of each, or none.
    expect(seen.replacement).toBeGreaterThanOrEqual(4);
    expect(seen.left).toBeGreaterThanOrEqual(4);
  });

  it('is written in the member’s language', async () => {
    const view = await runInLocale('fr', () => matchView(MATCH, env.b.ctx));
    const card = view.charts![0]!.spec as MatchCard;
    expect(card.locale).toBe('fr');
    expect(card.teams[1]!.title).toBe('Équipe B · Victoire');
    expect(card.teams[1]!.players.find((p) => p.badge)!.badge).toBe('MVP');
  });
});
