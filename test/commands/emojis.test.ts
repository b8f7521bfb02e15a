/** Answers with the application's emojis for tiers, roles and heroes (src/render/emojis.ts), and as text without them. */
import { afterEach, describe, expect, it } from 'vitest';
import { emojiName, emojiSlug, setAppEmojis, type EmojiKind } from '../../src/render/emojis.js';
import { customIds, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const MATCH = '6713355_1740604074_322_11001_10';
const CARD1GAN = '1403392756';

/** Emojis as a deploy names them, ids from 900…; returns the markup of each by `kind:label`. */
function uploaded(list: [EmojiKind, string][]): Map<string, string> {
  const markup = new Map<string, string>();
  setAppEmojis(
    list.map(([kind, label], i) => {
      const e = { id: String(900_000 + i), name: emojiName(kind, emojiSlug(kind, label), 'abc123') };
      markup.set(`${kind}:${label}`, `<:${e.name}:${e.id}>`);
      return e;
    }),
  );
  return markup;
}

afterEach(() => setAppEmojis([]));

const EMOJIS: [EmojiKind, string][] = [
  ['tier', 'Grandmaster'],
  ['role', 'Duelist'],
  ['role', 'Vanguard'],
  ['hero', 'cloak & dagger'],
  ['hero', 'magik'],
  ['hero', 'doctor strange'],
  ['hero', 'storm'],
];

describe('application emojis in answers', () => {
  it('/scout writes each player’s hero and tier with their emojis', async () => {
    const e = uploaded(EMOJIS);
    const { payload } = await env.b.run('scout', { match: MATCH });
    const teamB = await env.b.press(customIds(payload)[1]!);
    const lines = [...payload.embeds, ...teamB.payload.embeds].flatMap((x) => (x.description ?? '').split('\n'));
    const card1gan = lines.find((l) => l.startsWith('**Card1gan**'))!;
    expect(card1gan).toMatch(
      new RegExp(`^\\*\\*Card1gan\\*\\* · ${e.get('hero:cloak & dagger')} Cloak & Dagger \\([^)]+\\) · ${e.get('tier:Grandmaster')} Grandmaster III 4,562 ·`),
    );
    // A hero without an emoji is named as text alone.
    expect(lines.find((l) => l.startsWith('**KingDomENT**'))).toBe('**KingDomENT** · The Thing · *no public profile*');
  });

  it('/match marks each player’s main hero; /player the rank, the peaks and the top heroes; /hero the role', async () => {
    const e = uploaded(EMOJIS);
    const match = await env.b.run('match', { match: MATCH });
    const matchText = match.payload.embeds.map((x) => x.description ?? '').join('\n');
    expect(matchText).toMatch(new RegExp(`^\\*\\*Card1gan\\*\\* · ${e.get('hero:cloak & dagger')} Cloak & Dagger`, 'm'));
    const player = await env.b.run('player', { query: CARD1GAN });
    const [profile] = player.payload.embeds;
    expect(profile!.fields!.find((f) => f.name === 'Rank score')!.value).toMatch(new RegExp(`^${e.get('tier:Grandmaster')} 4,562`));
    // Card1gan's one ranked hero, beside the ranked record.
    const top = player.payload.embeds.flatMap((x) => x.fields ?? []).find((f) => f.name === 'Top heroes · Ranked')!;
    expect(top.value).toContain(`**1. ${e.get('hero:doctor strange')} Doctor Strange**`);
    const hero = await env.b.run('hero', { name: 'storm' });
    expect(hero.payload.embeds[0]!.fields!.find((f) => f.name === 'Role')!.value).toBe(`${e.get('role:Duelist')} Duelist`);
  });

  it('without emojis (the playground, the CLI, a failed upload) the same answers are text alone', async () => {
    setAppEmojis([]);
    for (const [name, options] of [
      ['scout', { match: MATCH }],
      ['match', { match: MATCH }],
      ['player', { query: CARD1GAN }],
      ['hero', { name: 'storm' }],
    ] as const) {
      const { payload } = await env.b.run(name, options);
      expect(JSON.stringify(payload)).not.toMatch(/<a?:\w+:\d+>/);
    }
    const { payload } = await env.b.run('player', { query: CARD1GAN });
    expect(payload.embeds[0]!.fields!.find((f) => f.name === 'Rank score')!.value).toMatch(/^4,562/);
  });
});
