/**
 * The season ladder on answers the replica does not give: a ladder shorter than a button of an older message points
 * into, and one without `total_players`. A loopback API serves 250 players, 100 a page.
 */
import { describe, expect, it } from 'vitest';
import { encodeCustomId } from '../../src/render/custom-id.js';
import { MEMBER, useReplicaBot } from '../helpers/bot.js';
import { useLoopbackApi } from '../helpers/replica.js';

const env = useReplicaBot();
const PLAYERS = Array.from({ length: 250 }, (_, i) => ({
  uid: String(500_000_000 + i),
  name: `Player${i + 1}`,
  rank: { rank: { rank: 'Celestial 1' }, rank_score: 5_000 - i, level: 21, win_count: 60, battle_count: 100, season_number: 3 },
}));

let withTotal = true;
const pagesAsked: number[] = [];
const loopback = useLoopbackApi((req, res) => {
  const url = new URL(req.url!, 'http://x');
  res.writeHead(200, { 'content-type': 'application/json' });
  if (url.pathname === '/api/v1/seasons') return void res.end(JSON.stringify({ seasons: [0, 1, 1.5, 2, 2.5, 3] }));
  const page = Number(url.searchParams.get('page'));
  pagesAsked.push(page);
  const players = PLAYERS.slice((page - 1) * 100, page * 100);
  res.end(JSON.stringify(withTotal ? { page, limit: 100, total_players: 250, total_pages: 3, players } : { players }));
});

const press = (customId: string) => env.b.router.component(customId, [], MEMBER, MEMBER.userId, { ...env.b.ctx, api: loopback.api });
type Answer = Awaited<ReturnType<typeof press>>;
const description = (a: Answer) => a.view.embeds![0]!.description!;
const pageLabel = (a: Answer) =>
  (a.view.components ?? []).flatMap((row) => ('components' in row ? row.components : [])).find((c) => 'custom_id' in c && c.custom_id.endsWith(':i'));

describe('the season ladder on odd answers', () => {
  it('a button past the end of a ladder that shrank shows its last page, read again', async () => {
    pagesAsked.length = 0;
    const answer = await press(encodeCustomId('lb.t', 'pc', '', 40, 'n'));
    expect(description(answer)).toMatch(/^\*\*241\. Player241\*\* · Celestial I · /);
    expect(pageLabel(answer)).toMatchObject({ label: 'Page 25 of 25' });
    expect(pagesAsked).toEqual([4, 3]);
  });

  it('without total_players, counts the pages the part read shows, one more while a page of 100 is full', async () => {
    withTotal = false;
    try {
      const first = await press(encodeCustomId('lb.t', 'xbox', '', 1, 'n'));
      expect(pageLabel(first)).toMatchObject({ label: 'Page 1 of 11' });
      const last = await press(encodeCustomId('lb.t', 'xbox', '', 21, 'n'));
      expect(description(last)).toMatch(/^\*\*201\. /);
      expect(pageLabel(last)).toMatchObject({ label: 'Page 21 of 25' });
    } finally {
      withTotal = true;
    }
  });
});
