/** A View's charts drawn by the runtime (src/discord/chart-attachments.ts `drawCharts`): attached when drawn, the embed's image dropped when not. */
import { describe, expect, it } from 'vitest';
import type { ChartRenderer } from '../../src/charts/renderer.js';
import { createLogger } from '../../src/core/logger.js';
import { drawCharts } from '../../src/discord/chart-attachments.js';
import { chartOf, rankHistorySpec, withChart, withoutCards } from '../../src/render/view-charts.js';
import { toMessagePayload, withoutFiles, type View } from '../../src/render/view.js';

const logger = createLogger({ level: 'silent', pretty: false });
const spec = rankHistorySpec(
  'Someone',
  [
    { time: 1_700_000_000, score: 3_000, change: 12, level: 10, levelFrom: 10, season: null, source: 'match' },
    { time: 1_700_100_000, score: 3_020, change: 20, level: 10, levelFrom: 10, season: null, source: 'match' },
  ],
  { tier: null, score: 3_020, season: null, time: 1_700_100_000 },
  'Unknown season',
);
const chart = chartOf(spec, 'rank-history.png', 'alt text');
const view: View = withChart({ embeds: [{ title: 'Rank history' }] }, chart);

const renderer = (render: ChartRenderer['render']): ChartRenderer => ({ render, threads: 0, close: async () => undefined });

describe('drawCharts', () => {
  it('asks for a chart as a spec, with the embed showing its file', () => {
    expect(chart).toBeDefined();
    expect(view.charts).toEqual([chart]);
    expect(view.embeds![0]!.image).toEqual({ url: 'attachment://rank-history.png' });
    expect(view.files).toBeUndefined();
  });

  it('attaches the drawn PNG as a file and keeps the image', async () => {
    const drawn = await drawCharts(
      view,
      renderer(async () => Buffer.from('png')),
      logger,
    );
    expect(drawn.charts).toBeUndefined();
    expect(drawn.files).toEqual([{ name: 'rank-history.png', data: Buffer.from('png'), contentType: 'image/png', description: 'alt text' }]);
    expect(drawn.embeds![0]!.image).toEqual({ url: 'attachment://rank-history.png' });
  });

  it('answers without the chart, and without the image pointing at it, when it cannot be drawn', async () => {
    const drawn = await drawCharts(
      view,
      renderer(async () => {
        throw new Error('the pool is gone');
      }),
      logger,
    );
    expect(drawn.files).toBeUndefined();
    expect(drawn.charts).toBeUndefined();
    expect(drawn.embeds).toEqual([{ title: 'Rank history' }]);
  });
});

describe('an image card’s text, shown wherever the card is not', () => {
  // A card stands for fields its embed leaves out; they come back in order after the embed's own.
  const text = [
    { name: 'Top heroes', value: '1. Magik', inline: false },
    { name: 'Recent form', value: 'W L W', inline: false },
  ];
  const own = [{ name: 'Rank score', value: '4,562', inline: true }];
  const card = { ...chart!, spec: { ...chart!.spec, kind: 'profile-card' } as NonNullable<typeof chart>['spec'], name: 'profile.png', text: { fields: text } };
  const withCard: View = withChart({ embeds: [{ title: 'Card1gan', fields: own }] }, card);
  const textVersion = [{ title: 'Card1gan', fields: [...own, ...text] }];

  it('is not in the embed while the card is shown', async () => {
    expect(withCard.embeds![0]!.fields).toEqual(own);
    const drawn = await drawCharts(
      withCard,
      renderer(async () => Buffer.from('png')),
      logger,
    );
    expect(drawn.embeds![0]).toEqual({ title: 'Card1gan', fields: own, image: { url: 'attachment://profile.png' } });
    expect(drawn.files![0]!.text).toEqual({ fields: text });
  });

  it('comes back when the card cannot be drawn', async () => {
    const drawn = await drawCharts(
      withCard,
      renderer(async () => {
        throw new Error('the pool is gone');
      }),
      logger,
    );
    expect(drawn.files).toBeUndefined();
    expect(drawn.embeds).toEqual(textVersion);
  });

  it('comes back for a member who chose embeds', () => {
    const plain = withoutCards(withCard);
    expect(plain.charts).toEqual([]);
    expect(plain.embeds).toEqual(textVersion);
  });

  it('comes back when Discord refuses the upload, and an image of a plain chart just goes', async () => {
    const both: View = withChart({ ...withCard, embeds: [...withCard.embeds!, { title: 'Chart' }] }, chart, 1);
    const drawn = await drawCharts(
      both,
      renderer(async () => Buffer.from('png')),
      logger,
    );
    const refused = withoutFiles(toMessagePayload(drawn));
    expect(refused.files).toBeUndefined();
    expect(refused.embeds[0]).toMatchObject({ title: 'Card1gan', fields: [...own, ...text] });
    expect(refused.embeds[0]!.image).toBeUndefined();
    expect(refused.embeds[1]!.image).toBeUndefined();
  });
});
