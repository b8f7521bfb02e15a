/**
 * End to end: /player's chart sections through the fake Discord with the real chart renderer (worker
 * pool): the rank-history and hero sections upload a PNG their embed shows; moving to a section
 * without a chart clears the message's attachments; with the renderer closed, the same sections
 * still answer, without the chart.
 */
import { loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { MEMBER } from '../helpers/bot.js';
import { componentInteraction, type RestCall } from './fake-discord.js';
import { useChartBot } from './helpers.js';

const UID = '1117455441';
const env = useChartBot();

type Data = { embeds: { image?: { url: string } }[]; attachments?: { id: number; filename: string }[] };

/** Picks `section` in the section menu of the member's own /player message, and returns the first response. */
async function pick(section: string): Promise<{ call: RestCall; data: Data }> {
  const press = componentInteraction(MEMBER.userId, MEMBER.userId, `pl.s:${UID}:`, [section]);
  env.discord.dispatchInteraction(press);
  const first = await env.discord.waitFor((c) => c.path.startsWith(`/interactions/${press.id}/`), 15_000);
  if ((first.body as { type: number }).type === 7) return { call: first, data: (first.body as { data: Data }).data };
  // Deferred (a slow machine): the answer is the edit of the message.
  const edit = await env.discord.waitFor((c) => c.method === 'PATCH' && c.path.includes(press.token), 15_000);
  return { call: edit, data: edit.body as Data };
}

describe('/player charts through Discord', () => {
  it.each([
    ['rank-history', 'rank-history.png'],
    ['ranked', 'ranked-heroes.png'],
  ])('the %s section uploads %s, a PNG its embed shows', async (section, filename) => {
    const { call, data } = await pick(section);
    expect(call.files?.map((f) => f.filename)).toEqual([filename]);
    expect(data.attachments).toEqual([expect.objectContaining({ id: 0, filename })]);
    expect(data.embeds[0]!.image).toEqual({ url: `attachment://${filename}` });
    const png = await loadImage(call.files![0]!.data);
    expect(png.width).toBeGreaterThan(400);
    expect(png.width).toBeLessThanOrEqual(1600);
    expect(png.height).toBeLessThanOrEqual(900);
  });

  it('a section without a chart clears the attachments of the one before', async () => {
    const { call, data } = await pick('maps');
    expect(call.files).toBeUndefined();
    expect(data.attachments).toEqual([]);
    expect(data.embeds[0]!.image).toBeUndefined();
  });

  it('with the renderer closed, the chart sections answer without a chart, and the log says why', async () => {
    await env.charts.close();
    const { call, data } = await pick('rank-history');
    expect(call.files).toBeUndefined();
    expect(data.embeds[0]!.image).toBeUndefined();
    expect(data.attachments).toEqual([]);
    expect(env.bot.logLines.some((l) => l.includes('chart not drawn'))).toBe(true);
  });
});
