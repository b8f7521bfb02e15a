/**
 * The tier every answer shows is the current season's level read with its score (src/game/profile.ts `rankSummary`),
 * never the API's rank text: on every real capture, as captured and with its rank block written for another tier (a real
 * profile was headed "Platinum III" at 4,580, its season at Grandmaster III): the /player title, badge, colour, card and
 * pace, /compare, /scout, and the ladder the tracker writes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { APIEmbed } from 'discord-api-types/v10';
import { playerView } from '../../commands/player.js';
import { rankSummary } from '../../src/game/profile.js';
import { parseChartSpec, type ChartSpec, type ProfileCard } from '../../src/charts/specs.js';
import type { ChartRenderer } from '../../src/charts/renderer.js';
import { Tracker } from '../../src/jobs/tracker.js';
import { badgeSlug, floorOfLevel, levelOfTier, TIER_COLOURS, tierGroup, tierOfLevel } from '../../src/game/ranks.js';
import { toMessagePayload } from '../../src/render/view.js';
import { withoutCards } from '../../src/render/view-charts.js';
import { MEMBER, useReplicaBot } from '../helpers/bot.js';
import { otherLevel, seasonNow, withRankText } from '../helpers/rank-text.js';
import { everyRawProfile, schemas } from '../game/samples.js';

const env = useReplicaBot();
const RAW = everyRawProfile();
const CARD1GAN = '1403392756';
const CHOB_BOB = '341932470';
/** A match Card1gan played (the replica's real match detail). */
const MATCH = '6713355_1740604074_322_11001_10';

/** `body` with the API's rank block written two tiers away from the season's; as it is for a profile with no ranked season. */
function stale(body: Record<string, unknown>): Record<string, unknown> {
  const level = levelOfTier(seasonNow(schemas.player.parse(body))?.tier);
  return level === null ? body : withRankText(body, otherLevel(level));
}

beforeAll(() => {
  // Every player the replica serves is headed by another tier than its season's.
  for (const [uid, body] of env.r.dataset.players) env.r.dataset.players.set(uid, stale(body));
});

const fieldsOf = (e: APIEmbed) => Object.fromEntries((e.fields ?? []).map((f) => [f.name, f.value]));
/** "Silver I (Season 1)" → "Silver I": a tier of an older season than the current one says its season. */
const tierOfTitle = (title: string) => title.replace(/ \(.+\)$/, '');
const digits = (text: string) => Number(text.replace(/\D/g, ''));

/** The title's tier is `want`; the badge, colour, card and "To X: n points to go" agree with it. */
function expectOneTier(file: string, e: APIEmbed, card: ProfileCard, want: string): void {
  const tier = tierOfTitle(e.title!);
  expect(tier, file).toBe(want);
  expect(card.rank.tier, file).toBe(tier);
  const group = tierGroup(tier);
  if (!group) return;
  expect(e.thumbnail?.url, file).toMatch(new RegExp(`/${badgeSlug(group)}\\.png$`));
  expect(card.rank.icon, file).toBe(e.thumbnail!.url);
  expect(e.color, file).toBe(Number.parseInt(TIER_COLOURS[group].slice(1), 16));
  const f = fieldsOf(e);
  const paceName = Object.keys(f).find((k) => k.startsWith('To '));
  // Eternity has no next division (One Above All is a leaderboard place).
  if (levelOfTier(tier)! >= levelOfTier('Eternity')!) return expect(paceName, file).toBeUndefined();
  // X the division above the one shown, n its floor minus the score shown.
  const next = tierOfLevel(levelOfTier(tier)! + 1)!;
  expect(paceName, file).toBe(`To ${next}`);
  const points = (floorOfLevel(levelOfTier(next)!) - digits(tierOfTitle(f['Rank score']!))).toLocaleString('en-US');
  expect(f[paceName!], file).toMatch(new RegExp(`^${points} points? to go`));
  // The card's tiles count the card's season: a rank of another season (named on the badge) gets no pace tile there.
  if (card.rank.season)
    return expect(
      card.tiles.some((t) => t.label.startsWith('To ')),
      file,
    ).toBe(false);
  expect(card.tiles.at(-1), file).toEqual({ label: `To ${next}`, value: `${points} RS` });
}

describe('/player on every real capture: the title’s tier is the season’s, and the badge, colour, card and pace agree with it', () => {
  for (const [file, body] of Object.entries(RAW)) {
    it(file, async () => {
      const now = seasonNow(schemas.player.parse(body));
      const answers: string[] = [];
      for (const raw of [body, stale(body)]) {
        const fetched = { data: schemas.player.parse(raw), fetchedAt: Date.now(), ageMs: 0, stale: false, source: 'upstream' as const };
        const view = await playerView(fetched, 'profile', 1, null, env.b.ctx);
        const e = toMessagePayload(withoutCards(view)).embeds[0]!;
        const card = parseChartSpec(view.charts![0]!.spec) as ProfileCard;
        answers.push(JSON.stringify({ embed: e, card }));
        // No ranked season listed: what the one function makes of the API's own rank (test/game/tier-now.test.ts).
        expectOneTier(file, e, card, now?.tier ?? rankSummary(fetched.data).tier ?? 'Unranked');
      }
      // The API's rank text changes nothing a member sees.
      expect(answers[1], file).toBe(answers[0]);
    });
  }
});

describe('the other answers that name a tier, from profiles headed by another tier', () => {
  it('/compare shows each player’s season tier', async () => {
    const { payload } = await env.b.run('compare', { player: CARD1GAN, other: CHOB_BOB });
    const [a, b] = payload.embeds[0]!.fields!;
    expect(a!.value).toMatch(/^\*\*Grandmaster III\*\* · 4,562\n/);
    expect(b!.value).toMatch(/^\*\*Platinum II\*\* · 4,046\n/);
  });

  it('/scout shows the season tier on a player’s line', async () => {
    const { payload } = await env.b.run('scout', { match: MATCH });
    // One team a page: the other team is a button away.
    const buttons = payload.components.flatMap((row) => row.components) as { custom_id?: string; disabled?: boolean }[];
    const other = (await env.b.press(buttons.find((b) => !b.disabled)!.custom_id!)).payload;
    const lines = [...payload.embeds, ...other.embeds].flatMap((e) => (e.description ?? '').split('\n'));
    const card1gan = lines.find((l) => l.startsWith('**Card1gan**'));
    expect(card1gan).toMatch(/ · Grandmaster III 4,562 · /);
  });

  it('the ladder the tracker writes lists the season tier, in its text and on its card', async () => {
    await env.b.run('config', { enabled: true }, 'ladder', { ...MEMBER, permissions: String(0x20 | 0x400 | 0x800) });
    await env.b.ctx.links.link(MEMBER.userId, { uid: CARD1GAN, name: 'Card1gan' }, true, env.b.clock.now);
    await env.b.ctx.tracking!.follow(CARD1GAN, env.b.clock.now, MEMBER.userId);
    await env.b.state.database.db.updateTable('account_links').set({ verified_at: env.b.clock.now }).where('user_id', '=', MEMBER.userId).execute();
    const tracker = new Tracker({
      api: env.b.ctx.api,
      tracking: env.b.state.tracking,
      ladder: { standings: env.b.state.ladder, roleOf: async () => () => null },
      spare: () => 0,
      logger: env.b.ctx.logger,
      now: () => env.b.clock.now,
      minMs: 60_000,
      maxMs: 3_600_000,
    });
    while ((await tracker.step()) > 0) await tracker.settled();
    const standing = await env.b.state.database.db.selectFrom('player_standings').selectAll().where('uid', '=', CARD1GAN).executeTakeFirstOrThrow();
    expect(standing.tier).toBe('Grandmaster III');
    const asked: ChartSpec[] = [];
    const charts: ChartRenderer = { threads: 1, close: async () => undefined, render: async (spec) => (asked.push(spec), Buffer.from('png')) };
    const view = await env.b.router.command('ladder', { options: {}, subcommand: 'show', user: MEMBER }, { ...env.b.ctx, charts });
    expect(view.files![0]!.text?.description).toMatch(/Card1gan \(you\) · Grandmaster III 4,562/);
    const card = asked.find((s) => s.kind === 'ladder-card');
    expect(card?.kind === 'ladder-card' ? card.rows.map((r) => r.tier) : []).toEqual(['Grandmaster III']);
  });
});
