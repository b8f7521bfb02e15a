/**
 * End to end: `/leaderboard` without a hero through the fake Discord and the replica, with the real chart renderer: the
 * season's ladder as a card with its text, the platform and season options, the member's own place and the button to it,
 * in the member's language.
 */
import { loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { seasonLadder } from '../../src/replica/season-ladder.js';
import { MEMBER } from '../helpers/bot.js';
import { commandInteraction, componentInteraction, type RestCall } from './fake-discord.js';
import { useChartBot } from './helpers.js';

const env = useChartBot();

type Data = {
  embeds: { title?: string; author?: { name: string }; description?: string; image?: { url: string } }[];
  components?: { components: { custom_id?: string; label?: string }[] }[];
  attachments?: { filename: string }[];
};

/** The answer to `interaction` as the member sees it: the first response, or the edit after a deferral. */
async function answerOf(interaction: { id: string; token: string }): Promise<{ call: RestCall; data: Data }> {
  const first = await env.discord.waitFor((c) => c.path.startsWith(`/interactions/${interaction.id}/`), 15_000);
  const type = (first.body as { type: number }).type;
  if (type === 4 || type === 7) return { call: first, data: (first.body as { data: Data }).data };
  const edit = await env.discord.waitFor((c) => c.method === 'PATCH' && c.path.includes(interaction.token), 15_000);
  return { call: edit, data: edit.body as Data };
}

const ids = (data: Data) => (data.components ?? []).flatMap((row) => row.components.map((c) => c.custom_id ?? ''));

describe('/leaderboard without a hero through Discord', () => {
  it('answers with the season ladder as a card, in the member’s language, and pages on', async () => {
    const command = { ...commandInteraction(MEMBER.userId, 'leaderboard', {}), locale: 'de' };
    env.discord.dispatchInteraction(command);
    const { call, data } = await answerOf(command);
    expect(data.embeds[0]!.author?.name).toBe('Saisonrangliste · PC');
    expect(data.embeds[0]!.title).toBe('Saison 3');
    expect(call.files?.map((f) => f.filename)).toEqual(['season-ladder.png']);
    expect(data.embeds[0]!.image).toEqual({ url: 'attachment://season-ladder.png' });
    const png = await loadImage(call.files![0]!.data);
    expect([png.width, png.height]).toEqual([800, 450]);
    expect(ids(data)).toContain('lb.t:pc::2:n');
    const press = { ...componentInteraction(MEMBER.userId, MEMBER.userId, 'lb.t:pc::2:n'), locale: 'de' };
    env.discord.dispatchInteraction(press);
    const next = await answerOf(press);
    expect(next.call.files?.map((f) => f.filename)).toEqual(['season-ladder.png']);
    expect(ids(next.data)).toContain('lb.t:pc::3:n');
  });

  it('takes the platform and a past season, and says the member’s own place with a button to it', async () => {
    await env.bot.runtimeContext().links.link(MEMBER.userId, { uid: '1403392756', name: 'Card1gan' }, true);
    const place = (seasonLadder(3, 'pc', true, env.r.dataset.players.values()) as { uid: string }[]).findIndex((p) => p.uid === '1403392756') + 1;
    const past = commandInteraction(MEMBER.userId, 'leaderboard', { platform: 'ps', season: 2 });
    env.discord.dispatchInteraction(past);
    const ps = await answerOf(past);
    expect(ps.data.embeds[0]!.author?.name).toBe('Season ladder · PlayStation');
    expect(ps.data.embeds[0]!.title).toBe('Season 2');
    expect(ids(ps.data)).toContain('lb.t:ps:2:2:n');
    // On the current PC ladder, from the page of 100 it stands in: its place and the button to its page.
    const from = Math.floor((place - 1) / 100) * 10 + 1;
    const press = componentInteraction(MEMBER.userId, MEMBER.userId, `lb.t:pc::${from}:n`);
    env.discord.dispatchInteraction(press);
    const there = await answerOf(press);
    expect(there.data.embeds[0]!.description).toContain(`Your place: **#${place}** (Card1gan)`);
    expect(ids(there.data)).toContain(`lb.t:pc::${Math.ceil(place / 10)}:m`);
  });
});
