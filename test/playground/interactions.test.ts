/**
 * The playground's adapter over the real router, context and replica (no browser): what each page
 * request leaves in the playground's channels, through the same acknowledgement policy as Discord.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CHANNELS, dmChannelOf, GUILD, MEMBERS } from '../../src/playground/guild.js';
import { PLAYGROUND_STATE_FILE } from '../../src/playground/start.js';
import type { MessageEvent, PlaygroundMessage } from '../../src/playground/messages.js';
import { bootPlayground } from '../helpers/playground.js';
import { pollUntil } from '../helpers/until.js';

const [ALEX, SAM] = MEMBERS as [(typeof MEMBERS)[number], (typeof MEMBERS)[number]];
const GENERAL = CHANNELS[0]!.id;

let boot: Awaited<ReturnType<typeof bootPlayground>>;

beforeAll(async () => {
  boot = await bootPlayground({ ackDeadlineMs: 150 });
});
afterAll(() => boot.close());

const LADDER = CHANNELS.find((c) => c.name === 'ladder')!.id;

/** Records message events until `done(events)` holds; the ladder's own posts, which come when they come, are left out. */
function eventsUntil(done: (events: MessageEvent[]) => boolean): Promise<MessageEvent[]> {
  return new Promise((resolve) => {
    const events: MessageEvent[] = [];
    const stop = boot.playground.messages.subscribe((e) => {
      if (e.type === 'message' && e.message.channelId === LADDER) return;
      events.push(structuredClone(e));
      if (done(events)) {
        stop();
        resolve(events);
      }
    });
  });
}
const lastDone = (events: MessageEvent[]) => events.some((e) => e.type === 'message' && e.message.state === 'done');
const messageOf = (e: MessageEvent | undefined): PlaygroundMessage => {
  if (e?.type !== 'message') throw new Error(`not a message event: ${JSON.stringify(e)}`);
  return e.message;
};

describe('the playground adapter', () => {
  it('answers a command with one message carrying who ran what', async () => {
    const events = eventsUntil(lastDone);
    expect(boot.playground.interactions.command(ALEX.id, GENERAL, { command: 'hero', options: { name: 'Hulk' } })).toEqual({ ok: true });
    // Whether the answer beats the 150 ms deadline set above depends on the machine's speed, so either
    // path passes: one message, "thinking" at most once and then done in place (the deferral itself is
    // tested below, where a 600 ms API makes it certain).
    const all = (await events).map(messageOf);
    expect(new Set(all.map((x) => x.id)).size).toBe(1);
    expect(all.map((x) => x.state)).toEqual(all.length === 1 ? ['done'] : ['thinking', 'done']);
    const m = all.at(-1)!;
    expect(m).toMatchObject({ channelId: GENERAL, state: 'done', ephemeral: false, interaction: { userId: ALEX.id, command: '/hero', kind: 'slash' } });
    expect(m.payload!.embeds[0]!.title).toBe('Hulk');
  });

  it('shows a slow command as thinking, then replaces the placeholder with the answer', async () => {
    boot.services.replica!.setFaults({ latencyMs: 600 });
    try {
      const events = eventsUntil(lastDone);
      boot.playground.interactions.command(ALEX.id, GENERAL, { command: 'hero', options: { name: 'Thor' } });
      const [first, second] = await events;
      expect(messageOf(first)).toMatchObject({ state: 'thinking', ephemeral: false });
      expect(messageOf(second)).toMatchObject({ id: messageOf(first).id, state: 'done' });
      expect(messageOf(second).payload!.embeds[0]!.title).toBe('Thor');
    } finally {
      boot.services.replica!.setFaults({});
    }
  });

  it('gives another member a private copy when they press a button, and leaves the message as it was', async () => {
    const ran = eventsUntil(lastDone);
    boot.playground.interactions.command(ALEX.id, GENERAL, { command: 'leaderboard', options: { hero: 'Hulk' } });
    // The answer (a first leaderboard may show "thinking" first on a slow machine).
    const board = messageOf((await ran).find((e) => e.type === 'message' && e.message.state === 'done'));
    const next = board.payload!.components.flatMap((r) => r.components).find((c) => 'custom_id' in c && c.custom_id.endsWith(':n'))!;
    const customId = (next as { custom_id: string }).custom_id;

    const pressed = eventsUntil(lastDone);
    expect(boot.playground.interactions.component(SAM.id, board.id, customId, [])).toEqual({ ok: true });
    const copy = messageOf((await pressed).at(-1));
    expect(copy.id).not.toBe(board.id);
    expect(copy).toMatchObject({ ephemeral: true, visibleTo: SAM.id, interaction: { userId: SAM.id, kind: 'component' } });
    expect(JSON.stringify(copy.payload)).toContain('Page 2 of');
    expect(boot.playground.messages.get(board.id)!.payload).toEqual(board.payload);

    // Only Sam may use the buttons of Sam's private copy.
    expect(boot.playground.interactions.component(ALEX.id, copy.id, customId, [])).toEqual({
      ok: false,
      error: 'Only the member who got this private message can use its buttons.',
    });

    const own = eventsUntil(lastDone);
    boot.playground.interactions.component(ALEX.id, board.id, customId, []);
    const updated = messageOf((await own).at(-1));
    expect(updated.id).toBe(board.id);
    expect(JSON.stringify(updated.payload)).toContain('Page 2 of');
  });

  it('runs commands in a member’s DM with the bot as Discord does: no server, only the commands declared for DMs, and the DM is theirs alone', async () => {
    const dm = dmChannelOf(SAM.id);
    const events = eventsUntil(lastDone);
    expect(boot.playground.interactions.command(SAM.id, dm, { command: 'leaderboard', options: { hero: 'Hulk' } })).toEqual({ ok: true });
    const answer = messageOf((await events).at(-1));
    expect(answer).toMatchObject({ channelId: dm, ephemeral: false, interaction: { userId: SAM.id, command: '/leaderboard' } });
    expect(answer.payload!.embeds[0]!.author!.name).toBe('Leaderboard · PC · Season 3');
    // Sam's own platform stands in for the server's there, as on Discord.
    const set = eventsUntil(lastDone);
    boot.playground.interactions.command(SAM.id, dm, { command: 'settings', subcommand: 'platform', options: { platform: 'xbox' } });
    expect(messageOf((await set).at(-1)).payload!.embeds[0]!.description).toContain('**Xbox**');
    const again = eventsUntil(lastDone);
    boot.playground.interactions.command(SAM.id, dm, { command: 'leaderboard', options: { hero: 'Hulk' } });
    expect(messageOf((await again).at(-1)).payload!.embeds[0]!.author!.name).toBe('Leaderboard · Xbox · Season 3');
    // A server's command is not offered in a DM, and another member's DM is no channel of Alex's.
    expect(boot.playground.interactions.command(ALEX.id, dmChannelOf(ALEX.id), { command: 'config', subcommand: 'show', options: {} })).toMatchObject({
      ok: false,
    });
    expect(boot.playground.interactions.command(ALEX.id, dm, { command: 'hero', options: { name: 'Hulk' } })).toMatchObject({ ok: false });
    expect(boot.playground.interactions.userCommand(SAM.id, dm, 'Rivals profile', ALEX.id)).toMatchObject({ ok: false });
    expect(boot.playground.messages.list(dmChannelOf(ALEX.id))).toHaveLength(0);
  });

  it('refuses a command that does not fit its definition without asking the bot', async () => {
    const before = boot.playground.messages.list(GENERAL).length;
    expect(boot.playground.interactions.command(ALEX.id, GENERAL, { command: 'hero', options: {} })).toEqual({
      ok: false,
      error: 'The option “name” is required.',
    });
    expect(boot.playground.interactions.command('1', GENERAL, { command: 'hero', options: { name: 'Hulk' } })).toMatchObject({ ok: false });
    expect(boot.playground.interactions.component(ALEX.id, '42', 'hero.p:1', [])).toEqual({ ok: false, error: 'That message is gone. Run the command again.' });
    expect(boot.playground.messages.list(GENERAL)).toHaveLength(before);
  });

  it('runs the Rivals profile context-menu command on a member', async () => {
    const events = eventsUntil(lastDone);
    expect(boot.playground.interactions.userCommand(ALEX.id, GENERAL, 'Rivals profile', SAM.id)).toEqual({ ok: true });
    const m = messageOf((await events).at(-1));
    expect(m.interaction).toMatchObject({ command: 'Rivals profile', kind: 'user' });
    expect(JSON.stringify(m.payload)).toContain(`<@${SAM.id}> has not linked a Rivals account`);
  });

  it('makes every answer private once the admin turns private answers on', async () => {
    const set = eventsUntil(lastDone);
    boot.playground.interactions.command(ALEX.id, GENERAL, { command: 'config', subcommand: 'private-answers', options: { enabled: 'True' } });
    await set;
    const events = eventsUntil(lastDone);
    boot.playground.interactions.command(SAM.id, GENERAL, { command: 'hero', options: { name: 'Hulk' } });
    expect(messageOf((await events).at(-1))).toMatchObject({ ephemeral: true, visibleTo: SAM.id });
    // The pretend server's settings live in the playground's own store, never in the bot's.
    expect(existsSync(join(boot.dataDir, PLAYGROUND_STATE_FILE))).toBe(true);
    expect(await boot.services.state.database.db.selectFrom('guild_settings').selectAll().where('guild_id', '=', GUILD.id).execute()).toEqual([]);
    const reset = eventsUntil(lastDone);
    boot.playground.interactions.command(ALEX.id, GENERAL, { command: 'config', subcommand: 'private-answers', options: { enabled: 'False' } });
    await reset;
  });

  it('answers every slash command on the replica, as a member types them', async () => {
    const ERROR_COLOUR = 0xed4245;
    const typed: [string, Record<string, string>, string?][] = [
      ['player', { query: '1403392756' }],
      ['hero', { name: 'spider-man' }],
      ['match', { match: '6713355_1740604074_322_11001_10' }],
      ['leaderboard', { hero: 'Hulk', platform: 'PlayStation' }],
      ['patch-notes', { type: 'Dev diaries' }],
      ['items', { type: 'Sprays' }],
      ['maps', {}],
      ['achievements', { hero: 'Hulk' }],
      ['battlepass', {}],
      ['link', { player: '1403392756' }],
      ['unlink', { player: '1403392756' }],
      ['config', {}, 'show'],
      ['config', { platform: 'Xbox' }, 'platform'],
      ['config', {}, 'status'],
    ];
    for (const [command, options, subcommand] of typed) {
      const events = eventsUntil(lastDone);
      expect(boot.playground.interactions.command(ALEX.id, GENERAL, { command, subcommand, options })).toEqual({ ok: true });
      const m = messageOf((await events).at(-1));
      expect({ command, subcommand, colour: m.payload!.embeds[0]?.color }).not.toEqual({ command, subcommand, colour: ERROR_COLOUR });
      expect(m.payload!.embeds.length + m.payload!.content.length).toBeGreaterThan(0);
    }
  });

  it('sends /config test-post into the playground channel the feed points at', async () => {
    const patchNotes = CHANNELS.find((c) => c.name === 'patch-notes')!;
    const set = eventsUntil(lastDone);
    boot.playground.interactions.command(ALEX.id, GENERAL, {
      command: 'config',
      subcommand: 'feed',
      options: { type: 'Balance posts', channel: '#patch-notes' },
    });
    await set;
    const posted = eventsUntil((events) => events.some((e) => e.type === 'message' && e.message.channelId === patchNotes.id));
    boot.playground.interactions.command(ALEX.id, GENERAL, { command: 'config', subcommand: 'test-post', options: { type: 'Balance posts' } });
    const post = (await posted).map(messageOf).find((m) => m.channelId === patchNotes.id)!;
    expect(post.payload!.embeds[0]!.title).toMatch(/^Test post · /);
    expect(post.interaction).toBeUndefined(); // a channel post, not an interaction answer
  });
});

describe('the seeded tracking history', () => {
  it('starts with the history of a player captured several times: /player shows each capture’s score on the rank timeline', async () => {
    const uid = '1786151874';
    const snapshots = await boot.playground.state.tracking.snapshots(uid);
    expect(snapshots.length).toBeGreaterThanOrEqual(3);
    const events = eventsUntil(lastDone);
    boot.playground.interactions.command(ALEX.id, GENERAL, { command: 'player', options: { query: uid } });
    const profile = (await events).map(messageOf).at(-1)!;
    // Page through the rank history until the June capture's newest match shows (rank score 3,525: the API's August profile no longer has it).
    let message = profile;
    let found = false;
    for (let page = 1; page <= 12 && !found; page++) {
      const next = eventsUntil(lastDone);
      const id = page === 1 ? `pl.s:${uid}:` : `pl.p:${uid}::rank-history:${page}:n`;
      boot.playground.interactions.component(ALEX.id, message.id, id, page === 1 ? ['rank-history'] : []);
      message = (await next).map(messageOf).at(-1)!;
      const description = message.payload!.embeds[0]!.description ?? '';
      expect(description).not.toContain('Link this account');
      found = description.includes('3,525');
    }
    expect(found).toBe(true);
  });
});

describe('the seeded server ladder', () => {
  it('starts with the ladder on and every captured player listed by the rank score of their latest capture', async () => {
    // As a member who chose text: the list with its mentions is the embed's (with cards, the card draws it).
    const chosen = eventsUntil(lastDone);
    boot.playground.interactions.command(SAM.id, GENERAL, { command: 'settings', subcommand: 'display', options: { style: 'embeds' } });
    await chosen;
    const events = eventsUntil(lastDone);
    boot.playground.interactions.command(SAM.id, GENERAL, { command: 'ladder', subcommand: 'show', options: {} });
    const message = (await events).map(messageOf).at(-1)!;
    const restored = eventsUntil(lastDone);
    boot.playground.interactions.command(SAM.id, GENERAL, { command: 'settings', subcommand: 'display', options: { style: 'cards' } });
    await restored;
    const lines = (message.payload!.embeds[0]!.description ?? '').split('\n');
    const listed = lines.filter((l) => /^\*\*\d+\.\*\* <@\d+> /.test(l));
    expect(listed.length).toBeGreaterThanOrEqual(6);
    expect(lines[0]).toMatch(/^\*\*1\.\*\* <@\d+> Freddyhun · Celestial I /);
    // In rank score order, as the lines print it.
    const scores = listed.map((l) => Number(/ (\d[\d,]*) · peak/.exec(l)![1]!.replaceAll(',', '')));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('posts in #ladder the season cards of the player captured over several seasons, and a first weekly recap', async () => {
    const titles = () => boot.playground.messages.list(LADDER).map((m) => m.payload?.embeds[0]?.title ?? '');
    await pollUntil(() => titles().includes('This week on the ladder'), 'the recap in #ladder', { timeoutMs: 30_000 });
    expect(titles().filter((t) => t.startsWith('Season'))).toEqual(['Season 2 is over · Double C', 'Season 2.5 is over · Double C']);
    const texts = boot.playground.messages.list(LADDER).map((m) => m.payload?.embeds[0]?.description ?? '');
    // Double C crossed from Bronze to Silver among the matches of their second capture, and was Gold at the third.
    expect(texts.filter((t) => t.includes('ranked up')).map((t) => t.replace(/^<@\d+> /, ''))).toEqual([
      'ranked up on **Double C**: Bronze I → **Silver III**.',
      'ranked up on **Double C**: Silver II → **Gold II**.',
    ]);
    const recap = boot.playground.messages.list(LADDER).find((m) => m.payload?.embeds[0]?.title === 'This week on the ladder')!;
    expect(recap.payload!.embeds[0]!.fields!.at(-1)!.value).toMatch(/^\*\*1\.\*\* <@\d+> Freddyhun · 5,032\n/);
    const events = eventsUntil(lastDone);
    boot.playground.interactions.command(ALEX.id, GENERAL, { command: 'config', subcommand: 'status', options: {} });
    const status = (await events).map(messageOf).at(-1)!.payload!.embeds[0]!;
    expect(status.fields!.find((f) => f.name === 'Server ladder')!.value).toMatch(/Weekly recap: \w+day at \d\d:\d\d \(UTC\)\./);
  });
});
