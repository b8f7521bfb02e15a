/** The playground's HTTP surface: the page, its guards, and the event stream. */
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duoSeats } from '../../src/playground/seed-duos.js';
import { ladderSeats } from '../../src/playground/seed-ladder.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT, CHANNELS, MEMBERS } from '../../src/playground/guild.js';
import { loadConfig } from '../../src/app/config.js';
import { readLocaleFile, runInLocale } from '../../src/i18n/index.js';
import { t } from '../../src/render/strings.js';
import { escapeText } from '../../src/render/limits.js';
import type { Bootstrap, EditablePost, GameState, MessageEvent } from '../../src/playground/protocol.js';
import { startPlayground } from '../../src/playground/start.js';
import { bootPlayground } from '../helpers/playground.js';
import { capturingLogger } from '../helpers/replica.js';
import { pollUntil } from '../helpers/until.js';

let boot: Awaited<ReturnType<typeof bootPlayground>>;
let url: string;

beforeAll(async () => {
  boot = await bootPlayground();
  url = boot.playground.url;
});
afterAll(() => boot.close());

const post = (path: string, body: unknown, type = 'application/json') =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify(body) });
const patch = (path: string, body: unknown, base = url) =>
  fetch(`${base}${path}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const latest = async (feed: string) => ((await (await fetch(`${url}/api/replica/posts?feed=${feed}`)).json()) as { posts: EditablePost[] }).posts;

/** A GET with a Host header of our choosing (fetch does not allow setting it). */
function getWithHost(path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the playground server', () => {
  it('serves the page, its bundle and stylesheet, and the bootstrap with the registered commands', async () => {
    const page = await fetch(url);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<script type="module" src="/app.js">');
    const js = await fetch(`${url}/app.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await js.text()).length).toBeGreaterThan(10_000);
    expect((await fetch(`${url}/app.css`)).status).toBe(200);
    const data = (await (await fetch(`${url}/api/bootstrap`)).json()) as Bootstrap;
    expect(data.commands.map((c) => c.name)).toEqual(
      expect.arrayContaining(['player', 'hero', 'match', 'leaderboard', 'patch-notes', 'config', 'Rivals profile']),
    );
    expect(data.members.filter((m) => m.admin)).toHaveLength(1);
    expect(data.replica).toBe(true);
  });

  it('draws avatars itself and answers an unknown route with 404', async () => {
    const avatar = await fetch(`${url}/avatar/${BOT.id}.svg`);
    expect(avatar.headers.get('content-type')).toBe('image/svg+xml');
    expect(await avatar.text()).toContain('<svg');
    expect((await fetch(`${url}/nope`)).status).toBe(404);
  });

  it('refuses another Host (DNS rebinding) and a POST that is not JSON (a cross-site form)', async () => {
    expect(await getWithHost('/api/bootstrap', 'evil.example')).toBe(421);
    const form = await post('/api/interactions/command', { memberId: MEMBERS[0]!.id }, 'text/plain');
    expect(form.status).toBe(415);
  });

  it('explains a malformed request, and a command the definitions refuse', async () => {
    const bad = await post('/api/interactions/command', { memberId: 1 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/memberId/);
    const refused = await post('/api/interactions/command', { memberId: MEMBERS[0]!.id, channelId: CHANNELS[0]!.id, command: 'hero', options: {} });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ ok: false, error: 'The option “name” is required.' });
  });

  it('streams message events to the page as server-sent events', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${url}/api/events`, { signal: controller.signal });
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = stream.body!.getReader();
    const accepted = await post('/api/interactions/command', { memberId: MEMBERS[1]!.id, channelId: CHANNELS[0]!.id, command: 'maps', options: {} });
    expect(accepted.status).toBe(202);
    let text = '';
    while (!text.includes('\n\ndata: ') || !/"state":"done"/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const event = JSON.parse(text.split('data: ')[1]!.split('\n\n')[0]!) as MessageEvent;
    expect(event).toMatchObject({ type: 'message', message: { channelId: CHANNELS[0]!.id, interaction: { userId: MEMBERS[1]!.id, command: '/maps' } } });
  });

  it('autocompletes from the bot’s handlers', async () => {
    const res = await post('/api/interactions/autocomplete', { memberId: MEMBERS[0]!.id, command: 'hero', options: { name: 'spid' }, focused: 'name' });
    const { choices } = (await res.json()) as { choices: { name: string }[] };
    expect(choices.map((c) => c.name)).toContain('Spider-Man');
  });

  it('offers a member who has looked nobody up the replica’s players as they type a player', async () => {
    const res = await post('/api/interactions/autocomplete', { memberId: MEMBERS[1]!.id, command: 'player', options: { query: '' }, focused: 'query' });
    const { choices } = (await res.json()) as { choices: { name: string; value: string }[] };
    expect(choices.length).toBeGreaterThan(0);
    // The replica's players, the seeded duo partners among them (linked accounts, src/playground/seed-duos.ts).
    const dataset = boot.services.replica!.dataset;
    const partners = duoSeats(dataset, ladderSeats(dataset.profileCaptures), 'https://img.test/rivals').map((p) => p.uid);
    const uids = new Set([...dataset.players.keys(), ...partners]);
    expect(choices.every((c) => uids.has(c.value))).toBe(true);
    expect(choices.map((c) => c.value)).toEqual(expect.arrayContaining([...dataset.players.keys()].filter((u) => u !== '341932470').slice(0, 3)));
  });

  it('serves the duo partners it seats a profile from their recorded matches, so /player on one answers', async () => {
    const dataset = boot.services.replica!.dataset;
    const partners = duoSeats(dataset, ladderSeats(dataset.profileCaptures), 'https://img.test/rivals');
    expect(partners).toHaveLength(2);
    for (const p of partners) {
      expect(dataset.provenance.get(`player:${p.uid}`)).toBe('derived');
      const read = await boot.services.api.player(p.uid, {}, { fresh: true });
      expect(read.data).toMatchObject({ uid: p.uid, name: p.name, is_private: false });
      expect(read.data.recent_matches.length).toBeGreaterThan(0);
    }
  });

  it('adds a post to the replica’s feed and polls at once', async () => {
    const res = await post('/api/replica/posts', { feed: 'devDiaries', title: 'Dev diary: the playground', overview: 'Hello.' });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const diaries = await boot.services.api.devDiaries({ page: 1, limit: 10 }, { fresh: true });
    expect(diaries.data.entries[0]).toMatchObject({ id, title: 'Dev diary: the playground' });
    expect((await post('/api/replica/posts', { feed: 'rumours', title: 'x' })).status).toBe(400);
  });

  it('lists a feed’s latest posts, newest first, with their current values', async () => {
    const res = await fetch(`${url}/api/replica/posts?feed=patchNotes`);
    expect(res.status).toBe(200);
    const { posts } = (await res.json()) as { posts: EditablePost[] };
    expect(posts.length).toBeGreaterThan(1);
    expect(posts.length).toBeLessThanOrEqual(10);
    const first = (await boot.services.api.patchNotes({ page: 1, limit: 10 }, { fresh: true })).data.entries[0]!;
    expect(posts[0]).toEqual({ id: first.id, title: first.title, date: first.date, overview: first.overview ?? '', fullContent: first.full_content ?? '' });
    expect((await fetch(`${url}/api/replica/posts?feed=rumours`)).status).toBe(400);
    expect(((await (await fetch(`${url}/api/replica/posts`)).json()) as { error: string }).error).toMatch(
      /^feed: pick one of patchNotes, balances, devDiaries/,
    );
  });

  it('changes a post at the replica and edits the message the bot delivered for it at once', async () => {
    const admin = MEMBERS.find((m) => m.admin)!;
    const channel = CHANNELS.find((c) => c.name === 'patch-notes')!;
    const subscribed = await post('/api/interactions/command', {
      memberId: admin.id,
      channelId: channel.id,
      command: 'config',
      subcommand: 'feed',
      options: { type: 'balances', channel: channel.id },
    });
    expect(subscribed.status).toBe(202);
    await boot.playground.interactions.settle();
    const added = await post('/api/replica/posts', { feed: 'balances', title: 'Balance post: before', overview: 'Hulk gets more health.' });
    const { id } = (await added.json()) as { id: string };
    const delivered = () =>
      boot.playground.messages.list(channel.id).filter((m) => !m.interaction && m.payload?.embeds.some((e) => e.title?.startsWith('Balance post:')));
    expect(delivered()).toHaveLength(1);
    expect(delivered()[0]!.editedAt).toBeUndefined();

    const res = await patch(`/api/replica/posts/balances/${encodeURIComponent(id)}`, { title: 'Balance post: after', overview: 'Hulk gets less health.' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, title: 'Balance post: after', overview: 'Hulk gets less health.', fullContent: 'Hulk gets more health.' });
    expect((await latest('balances')).find((p) => p.id === id)).toMatchObject({ title: 'Balance post: after', overview: 'Hulk gets less health.' });
    // Edited in place, not posted again.
    const [message] = delivered();
    expect(delivered()).toHaveLength(1);
    expect(message!.editedAt).toEqual(expect.any(Number));
    expect(message!.payload!.embeds[0]).toMatchObject({ title: 'Balance post: after', description: 'Hulk gets less health.' });
  });

  it('explains an edit it refuses (400), and a post the feed does not have (404)', async () => {
    const [first] = await latest('devDiaries');
    const path = `/api/replica/posts/devDiaries/${encodeURIComponent(first!.id)}`;
    const refused = async (body: unknown, at = path) => {
      const res = await patch(at, body);
      expect(res.status).toBe(400);
      return ((await res.json()) as { error: string }).error;
    };
    expect(await refused({})).toBe('body: change at least one of title, overview, fullContent');
    expect(await refused({ title: '   ' })).toBe('title: the title cannot be empty');
    expect(await refused({ overview: '', fullContent: '' })).toBe('body: a post needs an overview or a full text');
    expect(await refused({ title: 'x'.repeat(201) })).toMatch(/^title: /);
    expect(await refused({ date: '2020/01/01' })).toMatch(/date/);
    expect(await refused({ title: 7 })).toMatch(/^title: /);
    expect(await refused({ title: 'x' }, `/api/replica/posts/rumours/${first!.id}`)).toMatch(/^feed: /);
    expect((await fetch(`${url}${path}`, { method: 'PATCH', headers: { 'content-type': 'text/plain' }, body: '{}' })).status).toBe(415);
    // The refused edits changed nothing.
    expect((await latest('devDiaries'))[0]).toEqual(first);

    const unknown = await patch('/api/replica/posts/devDiaries/no-such-post', { title: 'x' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ ok: false, error: 'the devDiaries feed has no post no-such-post' });
  });

  it('alerts the members who follow a hero a new balance post changes, once, in the alerts channel, mentioning exactly them', async () => {
    const member = (name: string) => MEMBERS.find((m) => m.name === name)!;
    const [alex, sam, jordan] = [member('Alex'), member('Sam'), member('Jordan')];
    expect(alex.admin).toBe(true);
    const general = CHANNELS.find((c) => c.name === 'general')!;
    const alertsChannel = CHANNELS.find((c) => c.name === 'balance-talk')!;
    /** Runs a slash command as `who` in #general; resolves with the text of its answer once answered. */
    const run = async (who: (typeof MEMBERS)[number], command: string, subcommand: string, options: Record<string, string>) => {
      const before = new Set(boot.playground.messages.list(general.id).map((m) => m.id));
      const res = await post('/api/interactions/command', { memberId: who.id, channelId: general.id, command, subcommand, options });
      expect(res.status).toBe(202);
      await boot.playground.interactions.settle();
      const answer = boot.playground.messages
        .list(general.id)
        .find((m) => !before.has(m.id) && m.interaction?.userId === who.id && m.interaction.command === `/${command} ${subcommand}`);
      expect(answer?.state).toBe('done');
      return JSON.stringify(answer!.payload);
    };

    expect(await run(alex, 'config', 'alerts', { channel: alertsChannel.id })).toContain(`Hero alerts will be posted in <#${alertsChannel.id}>`);
    const samAnswer = await run(sam, 'alerts', 'hero', { name: 'hulk' });
    expect(samAnswer).toContain('Watching: **Hulk**');
    expect(samAnswer).toContain(`You are told in <#${alertsChannel.id}>.`);
    expect(await run(jordan, 'alerts', 'hero', { name: 'storm' })).toContain('Watching: **Storm**');

    const isAlert = (m: { interaction?: unknown; payload?: { content?: string } }) => !m.interaction && (m.payload?.content ?? '').startsWith('🔔');
    const alertsIn = (channelId: string) => boot.playground.messages.list(channelId).filter(isAlert);
    expect(alertsIn(alertsChannel.id)).toEqual([]);

    // The add route takes a title and an overview, and gives the post that overview as its full text too.
    const title = 'Balance Post: Hulk hits harder';
    const added = await post('/api/replica/posts', { feed: 'balances', title, overview: 'Vanguard\n\nHulk\n- Gamma Burst: Damage increased from 70 to 75' });
    expect(added.status).toBe(201);
    const { id } = (await added.json()) as { id: string };
    expect((await latest('balances')).find((p) => p.id === id)).toMatchObject({
      fullContent: 'Vanguard\n\nHulk\n- Gamma Burst: Damage increased from 70 to 75',
    });

    await pollUntil(() => alertsIn(alertsChannel.id).length > 0, 'the hero alert in #balance-talk');
    const [alert] = alertsIn(alertsChannel.id);
    const content = alert!.payload!.content;
    // Only Sam's hero line: the title is escaped as markdown ("Balance Post\\: …"), Sam is mentioned, nobody else.
    expect(content).toBe(`🔔 **${escapeText(title)}** changes heroes members here follow:\n🟢 **Hulk** (buff): <@${sam.id}>`);
    expect(content).toContain(`<@${sam.id}>`);
    expect(content).not.toContain(`<@${jordan.id}>`);
    expect(content).not.toContain(`<@${alex.id}>`);
    expect(content).not.toContain('Storm');
    expect(alert!.payload!.allowed_mentions).toEqual({ parse: [], users: [sam.id] });
    expect(alert!.payload!.embeds[0]).toMatchObject({ title });

    // Exactly once: another whole poll (pollNow resolves when its deliveries are done), still one alert, and none in any other channel.
    await boot.playground.poller.pollNow();
    expect(alertsIn(alertsChannel.id)).toHaveLength(1);
    expect(alertsIn(alertsChannel.id)[0]!.id).toBe(alert!.id);
    for (const channel of CHANNELS.filter((c) => c.id !== alertsChannel.id)) expect(alertsIn(channel.id)).toEqual([]);
    expect(alertsIn(`dm-${sam.id}`)).toEqual([]);
    expect(alertsIn(`dm-${jordan.id}`)).toEqual([]);
  });
});

describe('the playground’s languages', () => {
  const general = CHANNELS.find((c) => c.name === 'general')!;
  const bootstrap = async () => (await (await fetch(`${url}/api/bootstrap`)).json()) as Bootstrap;
  /** The message `hero.overview.realName` of a locale file: the /hero field name of a hero’s real name. */
  const realName = (locale: 'en' | 'fr') => (readLocaleFile(locale, 'hero').overview as { realName: string }).realName;

  it('offers the six languages by their own names, everyone and the server in American English at first', async () => {
    const data = await bootstrap();
    expect(data.languages).toEqual([
      { code: 'en-US', locale: 'en', name: 'English' },
      { code: 'es-ES', locale: 'es-ES', name: 'Español' },
      { code: 'pt-BR', locale: 'pt-BR', name: 'Português (Brasil)' },
      { code: 'fr', locale: 'fr', name: 'Français' },
      { code: 'de', locale: 'de', name: 'Deutsch' },
      { code: 'ja', locale: 'ja', name: '日本語' },
    ]);
    // The three people, then the seeded ladder's members.
    expect(data.members.map((m) => m.id).slice(0, MEMBERS.length)).toEqual(MEMBERS.map((m) => m.id));
    expect(data.members.length).toBeGreaterThan(MEMBERS.length);
    expect(data.members.map((m) => m.locale)).toEqual(data.members.map(() => 'en-US'));
    expect(data.guild.preferredLocale).toBe('en-US');
  });

  it('answers a member whose Discord client is set to French in French, and only them', async () => {
    const [alex, sam] = [MEMBERS[0]!, MEMBERS[1]!];
    const switched = await post('/api/locales/member', { memberId: sam.id, locale: 'fr' });
    expect(switched.status).toBe(200);
    try {
      expect((await bootstrap()).members.find((m) => m.id === sam.id)!.locale).toBe('fr');
      const answerOf = async (memberId: string) => {
        const before = new Set(boot.playground.messages.list(general.id).map((m) => m.id));
        expect((await post('/api/interactions/command', { memberId, channelId: general.id, command: 'hero', options: { name: 'hulk' } })).status).toBe(202);
        await boot.playground.interactions.settle();
        const answer = boot.playground.messages.list(general.id).find((m) => !before.has(m.id) && m.interaction?.userId === memberId);
        expect(answer?.state).toBe('done');
        return answer!.payload!.embeds[0]!.fields!.map((f) => f.name);
      };
      expect(realName('fr')).not.toBe(realName('en'));
      const french = await answerOf(sam.id);
      expect(french).toContain(realName('fr'));
      expect(french).not.toContain(realName('en'));
      expect(await answerOf(alex.id)).toContain(realName('en'));
      // What the client refuses before the bot sees it is in the member’s language too, naming the
      // option as their client does (French `nom` for `name`); the page sends registered names.
      const refused = await post('/api/interactions/command', { memberId: sam.id, channelId: general.id, command: 'hero', options: {} });
      expect(refused.status).toBe(400);
      const sentence = runInLocale('fr', () => t.playgroundMissingOption('nom'));
      expect(sentence).not.toBe(t.playgroundMissingOption('name'));
      expect(await refused.json()).toEqual({ ok: false, error: sentence });
      const alexRefused = await post('/api/interactions/command', { memberId: alex.id, channelId: general.id, command: 'hero', options: {} });
      expect(await alexRefused.json()).toEqual({ ok: false, error: t.playgroundMissingOption('name') });
    } finally {
      await post('/api/locales/member', { memberId: sam.id, locale: 'en-US' });
    }
  });

  it('refuses a language it does not offer, and an unknown member', async () => {
    const bad = await post('/api/locales/member', { memberId: MEMBERS[1]!.id, locale: 'fr-CA' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('locale: pick one of en-US, es-ES, pt-BR, fr, de, ja');
    expect((await post('/api/locales/member', { memberId: '1', locale: 'fr' })).status).toBe(400);
    expect((await post('/api/locales/guild', { locale: 'ko' })).status).toBe(400);
    const data = await bootstrap();
    expect(data.members.find((m) => m.id === MEMBERS[1]!.id)!.locale).toBe('en-US');
    expect(data.guild.preferredLocale).toBe('en-US');
  });

  it('delivers feed posts in the server’s language once it is switched to German', async () => {
    const admin = MEMBERS.find((m) => m.admin)!;
    const channel = CHANNELS.find((c) => c.name === 'balance-talk')!;
    const feeds = (locale: 'en' | 'de') => readLocaleFile(locale, 'feeds').post as { new: { devDiaries: string }; readAll: string };
    expect(feeds('de').new.devDiaries).not.toBe(feeds('en').new.devDiaries);
    const subscribed = await post('/api/interactions/command', {
      memberId: admin.id,
      channelId: channel.id,
      command: 'config',
      subcommand: 'feed',
      options: { type: 'devDiaries', channel: channel.id },
    });
    expect(subscribed.status).toBe(202);
    await boot.playground.interactions.settle();
    const delivered = (title: string) => boot.playground.messages.list(channel.id).find((m) => !m.interaction && m.payload?.embeds[0]?.title === title);
    const add = async (title: string) => {
      expect((await post('/api/replica/posts', { feed: 'devDiaries', title, overview: 'Notes.' })).status).toBe(201);
      const message = delivered(title);
      expect(message, title).toBeDefined();
      return message!.payload!;
    };
    try {
      const english = await add('Dev diary: before the switch');
      expect(english.embeds[0]!.author!.name).toBe(feeds('en').new.devDiaries);

      expect((await post('/api/locales/guild', { locale: 'de' })).status).toBe(200);
      expect((await bootstrap()).guild.preferredLocale).toBe('de');
      const german = await add('Dev diary: after the switch');
      expect(german.embeds[0]!.author!.name).toBe(feeds('de').new.devDiaries);
      expect(JSON.stringify(german.components)).toContain(`"label":"${feeds('de').readAll}"`);
    } finally {
      await post('/api/locales/guild', { locale: 'en-US' });
    }
  });
});

describe('the playground over the real API (no replica)', () => {
  it('refuses to list, add or change posts, or play the game, with 409 over the real API; only the three people are members', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rivals-playground-'));
    const playground = await startPlayground({
      config: loadConfig({ DATA_DIR: dataDir }),
      services: { ...boot.services, replica: undefined, mode: 'real' },
      logger: capturingLogger().logger,
      port: 0,
      feedPollSeconds: 3600,
    });
    try {
      const bootstrap = (await (await fetch(`${playground.url}/api/bootstrap`)).json()) as Bootstrap;
      expect(bootstrap.replica).toBe(false);
      const list = await fetch(`${playground.url}/api/replica/posts?feed=patchNotes`);
      expect(list.status).toBe(409);
      expect(((await list.json()) as { error: string }).error).toMatch(/in-process replica/);
      expect(
        (
          await fetch(`${playground.url}/api/replica/posts`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ feed: 'patchNotes', title: 'x' }),
          })
        ).status,
      ).toBe(409);
      expect((await patch('/api/replica/posts/patchNotes/1', { title: 'x' }, playground.url)).status).toBe(409);
      // No replica, no seeded ladder: its members and the welcome's list are absent.
      expect(bootstrap.members.map((m) => m.id)).toEqual(MEMBERS.map((m) => m.id));
      expect(bootstrap.samples).toBeUndefined();
      const game = await fetch(`${playground.url}/api/replica/game?memberId=${MEMBERS[0]!.id}`);
      expect(game.status).toBe(409);
      expect(((await game.json()) as { error: string }).error).toMatch(/played on the in-process replica/);
      const rank = await fetch(`${playground.url}/api/replica/game/rank`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uid: '1403392756', level: 5 }),
      });
      expect(rank.status).toBe(409);
    } finally {
      await playground.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the In game panel’s routes', () => {
  it('list every replica player with its icons and rank, the icons to equip, the ranks to reach, and the member’s links', async () => {
    const res = await fetch(`${url}/api/replica/game?memberId=${MEMBERS[2]!.id}`);
    expect(res.status).toBe(200);
    const state = (await res.json()) as GameState;
    expect(state.players.map((p) => p.uid).sort()).toEqual([...boot.services.replica!.dataset.players.keys()].sort());
    const card1gan = state.players.find((p) => p.name === 'Card1gan')!;
    expect(card1gan).toMatchObject({ uid: '1403392756', shown: { id: '31029203' }, equipped: { id: '31029203' }, rank: { tier: 'Grandmaster III' } });
    // Image URLs on the API's image host, as the page asks the playground's proxy for them.
    expect(card1gan.shown!.url).toMatch(/^https?:\/\/[^/]+\/.*players\/heads\/player_head_31029203\.png$/);
    expect(state.icons.map((i) => i.id)).toContain('31029203');
    expect(state.ranks.at(0)).toEqual({ level: 1, name: 'Bronze III' });
    expect(state.ranks.at(-1)).toEqual({ level: 23, name: 'One Above All' });
    expect(state.linked).toEqual([]);
    expect((await fetch(`${url}/api/replica/game?memberId=42`)).status).toBe(400);
  });

  it('refuses an icon id that is not digits and a rank outside 1 to 23, naming the field', async () => {
    const icon = await post('/api/replica/game/icon', { uid: '1403392756', iconId: '../x' });
    expect(icon.status).toBe(400);
    expect(((await icon.json()) as { error: string }).error).toBe('iconId: an icon id is digits');
    const rank = await post('/api/replica/game/rank', { uid: '1403392756', level: 0 });
    expect(rank.status).toBe(400);
    expect(((await rank.json()) as { error: string }).error).toMatch(/^level: /);
  });
});
