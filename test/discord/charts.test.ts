/** A View's charts drawn by the runtime (src/discord/charts.ts `drawCharts`): attached when drawn, the embed's image dropped when not. */
import { describe, expect, it } from 'vitest';
import type { ChartRenderer } from '../../src/charts/renderer.js';
import { createLogger } from '../../src/core/logger.js';
import { drawCharts } from '../../src/discord/charts.js';
import { chartOf, rankHistorySpec, withChart } from '../../src/render/charts.js';
import type { View } from '../../src/render/view.js';

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
