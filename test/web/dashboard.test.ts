/**
 * The dashboard over real HTTP, signing in through the fake Discord's OAuth2, running /config through the real router and
 * store: a change made on a page is what /config show says, and each front-door check refuses what it must (a forged
 * state, a missing CSRF token, another server, an ended session, a member without Manage Server, a script in a name).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REST } from '@discordjs/rest';
import type { FastifyInstance } from 'fastify';
import Keyv from 'keyv';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { startFakeDiscord, APP_ID, CHANNEL_ID, FEED_CHANNEL_IDS, GUILD_ID, testGuildIds, type FakeDiscord } from '../e2e/fake-discord.js';
import { FAKE_CLIENT_SECRET } from '../e2e/fake-discord.js';
import { bot } from '../helpers/bot.js';
import { replica } from '../helpers/replica.js';
import { freePort } from '../helpers/free-port.js';
import { csrfOf, WebClient } from '../helpers/web-client.js';
import { LruStore } from '../../src/cache/store.js';
import {
  CHANGES_PER_MINUTE,
  createWebApp,
  PUBLIC_CACHE_MS,
  SESSION_COOKIE,
  SESSION_MAX_AGE_MS,
  SIGN_IN_PER_MINUTE,
  type WebAppOptions,
} from '../../src/web/app.js';
import { discordWebDirectory, PERMISSIONS_TTL_MS } from '../../src/web/directory.js';
import { discordSignIn } from '../../src/web/sign-in.js';
import { rankRolesPreviewer } from '../../src/web/rank-roles-preview.js';
import { definition as configDefinition } from '../../commands/config/definition.js';

/** The admin: not the owner, Manage Server through a role. */
const ADMIN_ID = '200000000000000009';
/** A member whose Discord list says Manage Server, but whose roles in the server do not give it. */
const MEMBER_ID = '200000000000000010';
const OTHER_GUILD = testGuildIds(1).guildId;

let fake: FakeDiscord;
let r: Awaited<ReturnType<typeof replica>>;
let b: ReturnType<typeof bot>;
let app: FastifyInstance;
let base: string;
let adminRole: string;
const clock = { now: Date.now() };

beforeAll(async () => {
  fake = await startFakeDiscord({ testGuilds: 2 });
  r = await replica();
  b = bot(r);
  adminRole = fake.guildRoles.addRole(GUILD_ID, {
    name: 'Admins',
    position: 1,
    permissions: PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageRoles,
  });
  fake.guildRoles.setMember(GUILD_ID, ADMIN_ID, [adminRole]);
  fake.guildRoles.setMember(GUILD_ID, MEMBER_ID, []);
  // The bot and the admin are in the second server too, where the admin has no Manage Server.
  fake.guildRoles.setMember(OTHER_GUILD, ADMIN_ID, []);
  ({ app, base } = await dashboard({ limits: { signInPerMinute: 1_000, changesPerMinute: 1_000 } }));
});

/** A dashboard over the fake Discord and the test bot, listening on a free port. */
async function dashboard(extra: Partial<WebAppOptions> = {}): Promise<{ app: FastifyInstance; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const rest = new REST({ api: fake.apiUrl, version: '10' }).setToken('bot-token');
  const app = await createWebApp({
    publicUrl: base,
    sessionSecret: 'a-test-secret-of-at-least-32-characters!',
    signIn: discordSignIn({ apiUrl: fake.apiUrl, clientId: APP_ID, clientSecret: FAKE_CLIENT_SECRET, publicUrl: base, logger: b.ctx.logger }),
    directory: discordWebDirectory(rest, () => clock.now),
    sessions: new Keyv({ store: new LruStore(100) }),
    configDefinition,
    runConfig: (input) => b.router.command('config', input, b.ctx),
    audit: b.state.audit,
    publicPages: b.state.publicPages,
    publicSources: { ladder: b.state.ladder, serverMatches: b.state.serverMatches, heroes: b.ctx.heroes },
    previewRankRoles: rankRolesPreviewer(b.ctx),
    memberLocale: (userId) => b.state.links.locale(userId),
    logger: b.ctx.logger,
    now: () => clock.now,
    ...extra,
  });
  await app.listen({ port, host: '127.0.0.1' });
  return { app, base };
}

afterAll(async () => {
  await app?.close();
  await b?.close();
  await r?.close();
  await fake?.close();
});

beforeEach(() => {
  fake.oauth.signInAs = {
    user: { id: ADMIN_ID, username: 'admin', global_name: 'Ada Admin' },
    guilds: [
      { id: GUILD_ID, name: 'Rivals Test Server', icon: null, owner: false, permissions: String(PermissionFlagsBits.ManageGuild) },
      { id: OTHER_GUILD, name: 'Rivals Test Server 2', icon: null, owner: false, permissions: '0' },
      // Managed, but the bot is not in it.
      { id: '999000000000000001', name: 'No Bot Here', icon: null, owner: true, permissions: String(PermissionFlagsBits.Administrator) },
    ],
  };
});

async function signedIn(): Promise<WebClient> {
  const browser = new WebClient();
  const page = await browser.get(`${base}/login`);
  expect(page.status).toBe(200);
  expect(page.url).toBe(`${base}/`);
  return browser;
}

describe('signing in with Discord', () => {
  it('lists the servers the admin manages where the bot is, and keeps no Discord token', async () => {
    const browser = new WebClient();
    const page = await browser.get(`${base}/login`);
    expect(page.html).toContain('Signed in as Ada Admin');
    expect(page.html).toContain(`href="/guilds/${GUILD_ID}"`);
    // Not managed there, and not a server the bot is in.
    expect(page.html).not.toContain(OTHER_GUILD);
    expect(page.html).not.toContain('No Bot Here');
    const session = page.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    // Served over plain http here: not Secure (it is behind https).
    expect(session).not.toMatch(/Secure/);
    // The token was used for the two reads, then revoked.
    expect(fake.oauth.revoked).toHaveLength(1);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('speaks the language the admin chose with /settings language, else the browser’s', async () => {
    await b.state.links.setLocale(ADMIN_ID, 'fr', clock.now);
    try {
      const page = await new WebClient().get(`${base}/login`);
      expect(page.html).toContain('<html lang="fr">');
      expect(page.html).toContain('Connecté en tant que Ada Admin');
    } finally {
      await b.state.links.setLocale(ADMIN_ID, null, clock.now);
    }
    expect((await new WebClient().get(`${base}/login`)).html).toContain('<html lang="en">');
  });

  it('keeps a visitor’s language in a cookie of its own: no session for anyone not signed in, and a repeated lang is no error', async () => {
    const visitor = new WebClient();
    const french = await visitor.get(`${base}/?lang=fr`);
    expect(french.html).toContain('<html lang="fr">');
    expect(french.setCookies.some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    expect(visitor.cookie(base, 'rivals_lang')).toBe('fr');
    expect((await visitor.get(`${base}/`)).html).toContain('Se connecter avec Discord');
    // Nor does a server's page asked without signing in.
    const refused = await visitor.get(`${base}/guilds/${GUILD_ID}`);
    expect(refused.status).toBe(401);
    expect(refused.setCookies.some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    const twice = await visitor.get(`${base}/?lang=de&lang=ja`);
    expect(twice.status).toBe(200);
    expect(twice.html).toContain('<html lang="de">');
  });

  it('shows the forms in the admin’s language, as the command is registered in it', async () => {
    const browser = await signedIn();
    const page = await browser.get(`${base}/guilds/${GUILD_ID}?lang=fr`);
    expect(page.html).toContain('Quelles publications');
    expect(page.html).toContain('Notes de patch');
    expect(page.html).not.toContain('Which posts');
    // Discord autocompletes the time zone; the page suggests the zones from a list of its own.
    expect(page.html).toMatch(/id="feed-timezone" name="timezone" type="text" list="zones"/);
    expect(page.html).toContain('<option value="Europe/Paris"></option>');
  });

  it('refuses a forged state, and signs nobody in', async () => {
    const browser = new WebClient();
    // The browser starts a sign-in (it gets its state cookie), and an attacker's link brings it back with another state.
    const start = await browser.get(`${base}/login`, false);
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.location as string);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    const atDiscord = await browser.get(authorize.toString(), false);
    const back = new URL(atDiscord.headers.location as string);
    back.searchParams.set('state', 'forged');
    const page = await browser.get(back.toString());
    expect(page.status).toBe(403);
    expect(page.html).toContain('The sign-in could not be checked');
    // The code was never traded: the same callback with the real state still works once.
    const home = await browser.get(`${base}/`);
    expect(home.html).toContain('Sign in with Discord');
    expect(fake.calls.filter((c) => c.path === '/oauth2/token' && c.at >= 0).length).toBeGreaterThanOrEqual(1);
  });
});

describe('changing the settings', () => {
  it('a change on the page goes through /config: /config show says it, and the audit log names the dashboard', async () => {
    const browser = await signedIn();
    const page = await browser.get(`${base}/guilds/${GUILD_ID}`);
    expect(page.status).toBe(200);
    // The pickers offer the server's channels by name.
    expect(page.html).toContain(`<option value="${FEED_CHANNEL_IDS[0]}">#feed-1</option>`);
    const saved = await browser.post(`${base}/guilds/${GUILD_ID}/config/platform`, { _csrf: csrfOf(page.html), platform: 'xbox' });
    expect(saved.status).toBe(200);
    expect(saved.url).toBe(`${base}/guilds/${GUILD_ID}#result`);
    expect((await b.state.settings.get(GUILD_ID)).leaderboardPlatform).toBe('xbox');
    const show = await b.router.command('config', { subcommand: 'show', options: {}, user: { userId: ADMIN_ID, guildId: GUILD_ID, permissions: '32' } }, b.ctx);
    expect(JSON.stringify(show.embeds)).toContain('Xbox');
    const log = await b.state.audit.list(GUILD_ID, Date.now());
    expect(log[0]).toMatchObject({ action: 'platform', source: 'dashboard', userId: ADMIN_ID, detail: { platform: 'xbox' } });
    expect(saved.html).toContain('dashboard');
  });

  it('a feed channel from the picker is set, and a refusal of /config is shown as /config says it', async () => {
    const browser = await signedIn();
    const csrf = csrfOf((await browser.get(`${base}/guilds/${GUILD_ID}`)).html);
    const set = await browser.post(`${base}/guilds/${GUILD_ID}/config/feed`, { _csrf: csrf, type: 'patchNotes', channel: FEED_CHANNEL_IDS[0] });
    expect((await b.state.settings.get(GUILD_ID)).feeds.patchNotes?.channelId).toBe(FEED_CHANNEL_IDS[0]);
    expect(set.html).toContain('#feed-1');
    // The audit log names the channel as the picker does.
    expect(set.html).toContain('type:patchNotes channel:#feed-1');
    // A channel that is not one of the server's is refused before /config runs, naming it.
    const bad = await browser.post(`${base}/guilds/${GUILD_ID}/config/feed`, { _csrf: csrfOf(set.html), type: 'balances', channel: '123' });
    expect(bad.html).toContain('“123” is not a choice for channel.');
    expect((await b.state.settings.get(GUILD_ID)).feeds.balances).toBeUndefined();
  });

  it('previews a rank-role mapping without saving it, then saves it', async () => {
    const browser = await signedIn();
    const page = await browser.get(`${base}/guilds/${GUILD_ID}`);
    expect(page.html).toContain('name="preview" value="1"');
    const preview = await browser.post(`${base}/guilds/${GUILD_ID}/config/rank-roles`, {
      _csrf: csrfOf(page.html),
      tier: 'Gold',
      role: adminRole,
      preview: '1',
    });
    expect(preview.html).toContain('Not saved: this is what the sync would change with this mapping.');
    expect(preview.html).toContain('Gold → <span class="mention">@Admins</span>');
    expect((await b.state.rankRoles.settings(GUILD_ID)).roles).toEqual({});
    const saved = await browser.post(`${base}/guilds/${GUILD_ID}/config/rank-roles`, { _csrf: csrfOf(preview.html), tier: 'Gold', role: adminRole });
    expect(saved.html).not.toContain('Not saved');
    expect((await b.state.rankRoles.settings(GUILD_ID)).roles).toEqual({ Gold: adminRole });
    await b.state.rankRoles.configure(GUILD_ID, { set: { Gold: null } }, clock.now);
  });

  it('refuses a required option left out, and says what an empty choice means where it is not “keep”', async () => {
    const browser = await signedIn();
    const page = await browser.get(`${base}/guilds/${GUILD_ID}`);
    await b.state.ladder.setEnabled(GUILD_ID, true, clock.now);
    const missing = await browser.post(`${base}/guilds/${GUILD_ID}/config/ladder`, { _csrf: csrfOf(page.html) });
    expect(missing.html).toContain('“enabled” is required.');
    expect(await b.state.ladder.enabled(GUILD_ID)).toBe(true);
    // Left empty, the alerts channel turns them off and the rank role unmaps the tier: the form says so.
    expect(page.html).toMatch(/id="alerts-channel"[^>]*>\s*<option value="">Off<\/option>/);
    expect(page.html).toMatch(/id="rank-roles-role"[^>]*>\s*<option value="">No role: unmap this tier<\/option>/);
    // A preview the command would refuse says so, as Save would.
    const preview = await browser.post(`${base}/guilds/${GUILD_ID}/config/rank-roles`, { _csrf: csrfOf(missing.html), division: 'II', preview: '1' });
    expect(preview.html).not.toContain('Not saved');
    expect(preview.html).toContain('class="result error"');
  });

  it('refuses a change without the CSRF token', async () => {
    const browser = await signedIn();
    const before = (await b.state.settings.get(GUILD_ID)).ephemeralByDefault;
    const forged = await browser.post(`${base}/guilds/${GUILD_ID}/config/private-answers`, { enabled: String(!before) });
    expect(forged.status).toBe(403);
    expect(forged.html).toContain('This form has expired');
    expect((await b.state.settings.get(GUILD_ID)).ephemeralByDefault).toBe(before);
    // The same change with the token goes through.
    const csrf = csrfOf((await browser.get(`${base}/guilds/${GUILD_ID}`)).html);
    await browser.post(`${base}/guilds/${GUILD_ID}/config/private-answers`, { _csrf: csrf, enabled: String(!before) });
    expect((await b.state.settings.get(GUILD_ID)).ephemeralByDefault).toBe(!before);
  });

  it('refuses another server’s pages and changes', async () => {
    const browser = await signedIn();
    const csrf = csrfOf((await browser.get(`${base}/guilds/${GUILD_ID}`)).html);
    expect((await browser.get(`${base}/guilds/${OTHER_GUILD}`)).status).toBe(403);
    const change = await browser.post(`${base}/guilds/${OTHER_GUILD}/config/platform`, { _csrf: csrf, platform: 'ps' });
    expect(change.status).toBe(403);
    expect((await b.state.settings.get(OTHER_GUILD)).leaderboardPlatform).toBe('pc');
    // A server the bot is not in, and an id that is no id.
    expect((await browser.get(`${base}/guilds/999000000000000001`)).status).toBe(403);
    expect((await browser.get(`${base}/guilds/not-an-id`)).status).toBe(403);
  });

  it('refuses a member whose roles do not give Manage Server, whatever Discord’s list said at sign-in', async () => {
    fake.oauth.signInAs = { user: { id: MEMBER_ID, username: 'member' }, guilds: fake.oauth.signInAs!.guilds };
    const browser = await signedIn();
    const page = await browser.get(`${base}/guilds/${GUILD_ID}`);
    expect(page.status).toBe(403);
    expect(page.html).toContain('you need Manage Server there');
  });

  it('reads the admin’s permission again: a role taken away refuses the next change within a minute', async () => {
    const browser = await signedIn();
    const csrf = csrfOf((await browser.get(`${base}/guilds/${GUILD_ID}`)).html);
    fake.guildRoles.setMember(GUILD_ID, ADMIN_ID, []);
    try {
      clock.now += PERMISSIONS_TTL_MS + 1;
      const change = await browser.post(`${base}/guilds/${GUILD_ID}/config/platform`, { _csrf: csrf, platform: 'ps' });
      expect(change.status).toBe(403);
      expect((await b.state.settings.get(GUILD_ID)).leaderboardPlatform).not.toBe('ps');
    } finally {
      fake.guildRoles.setMember(GUILD_ID, ADMIN_ID, [adminRole]);
      clock.now += PERMISSIONS_TTL_MS + 1;
    }
  });

  it('an ended session changes nothing and asks to sign in again', async () => {
    const browser = await signedIn();
    const csrf = csrfOf((await browser.get(`${base}/guilds/${GUILD_ID}`)).html);
    const before = (await b.state.settings.get(GUILD_ID)).display;
    clock.now += SESSION_MAX_AGE_MS;
    const change = await browser.post(`${base}/guilds/${GUILD_ID}/config/display`, { _csrf: csrf, style: before === 'embeds' ? 'cards' : 'embeds' });
    expect(change.status).toBe(401);
    expect(change.html).toContain('Your session has ended');
    expect((await b.state.settings.get(GUILD_ID)).display).toBe(before);
    expect((await browser.get(`${base}/`)).html).toContain('Sign in with Discord');
    // Signing in again from the ended page leads back to that server's page, and never to another site.
    const again = await browser.get(`${base}/guilds/${GUILD_ID}`);
    const link = /href="(\/login\?next=[^"]+)"/.exec(again.html)![1]!;
    expect(decodeURIComponent(link)).toBe(`/login?next=/guilds/${GUILD_ID}`);
    expect((await browser.get(`${base}${link}`)).url).toBe(`${base}/guilds/${GUILD_ID}`);
    const elsewhere = await new WebClient().get(`${base}/login?next=${encodeURIComponent('https://evil.example/')}`);
    expect(elsewhere.url).toBe(`${base}/`);
  });

  it('shows a channel named with a script as text', async () => {
    fake.renameChannel(CHANNEL_ID, '<script>alert(1)</script>');
    const browser = await signedIn();
    const page = await browser.get(`${base}/guilds/${GUILD_ID}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toMatch(/<script/i);
    expect(page.html).toContain('#&lt;script&gt;alert(1)&lt;/script&gt;');
    // Set as a feed channel, its name in /config's answer (a mention named on the page) is escaped too.
    const saved = await browser.post(`${base}/guilds/${GUILD_ID}/config/alerts`, { _csrf: csrfOf(page.html), channel: CHANNEL_ID });
    expect(saved.html).not.toMatch(/<script/i);
    expect(saved.html).toContain('#&#60;script&#62;alert(1)&#60;/script&#62;');
  });
});

describe('rate limits', () => {
  it('limits sign-ins from one address, and changes by one admin', async () => {
    const limited = await dashboard();
    try {
      const admin = new WebClient();
      expect((await admin.get(`${limited.base}/login`)).url).toBe(`${limited.base}/`);
      const statuses: number[] = [];
      for (let i = 1; i <= SIGN_IN_PER_MINUTE; i++) statuses.push((await new WebClient().get(`${limited.base}/login`, false)).status);
      expect(statuses.slice(0, -1)).toEqual(Array(SIGN_IN_PER_MINUTE - 1).fill(302));
      expect(statuses.at(-1)).toBe(429);
      const csrf = csrfOf((await admin.get(`${limited.base}/guilds/${GUILD_ID}`)).html);
      const changes: number[] = [];
      for (let i = 0; i <= CHANGES_PER_MINUTE; i++)
        changes.push((await admin.post(`${limited.base}/guilds/${GUILD_ID}/config/platform`, { _csrf: csrf, platform: i % 2 ? 'pc' : 'xbox' }, false)).status);
      expect(changes.slice(0, -1)).toEqual(Array(CHANGES_PER_MINUTE).fill(303));
      expect(changes.at(-1)).toBe(429);
      const refused = await admin.post(`${limited.base}/guilds/${GUILD_ID}/config/platform`, { _csrf: csrf, platform: 'ps' });
      expect(refused.html).toContain('Too many attempts');
    } finally {
      await limited.app.close();
    }
  });
});

describe('the public page', () => {
  /** `user` proved account `uid` (game name `name`), ranked, on the server's ladder. */
  async function ranked(user: string, uid: string, name: string, tier: string, score: number, weekDelta: number | null = null) {
    const { state } = b;
    await state.links.link(user, { uid, name }, false, clock.now);
    await state.database.db.updateTable('account_links').set({ verified_at: clock.now }).where('user_id', '=', user).execute();
    await state.ladder.setStanding(uid, { season: 9, tier, score, peak: score, matches: 5, role: 'Duelist', weekDelta, private: false }, clock.now);
    await state.ladder.join(GUILD_ID, user, clock.now);
  }

  it('is off until published; its address shows the ladder with game names only, and can be revoked and turned off', async () => {
    await b.state.ladder.setEnabled(GUILD_ID, true, clock.now);
    await ranked('300000000000000001', '81000001', 'Storm<b>Chaser</b>', 'Diamond II', 4_210.8, 35);
    await ranked('300000000000000002', '81000002', 'Quiet Owl', 'Gold I', 3_050, -12);
    const browser = await signedIn();
    const page = await browser.get(`${base}/guilds/${GUILD_ID}`);
    expect(page.html).toContain('Off: the server’s ladder is not shown outside Discord.');
    expect((await new WebClient().get(`${base}/s/${'x'.repeat(24)}`)).status).toBe(404);

    const published = await browser.post(`${base}/guilds/${GUILD_ID}/public`, { _csrf: csrfOf(page.html), action: 'publish' });
    expect(published.html).toContain('The public page is on.');
    const address = /href="(http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]{24})"/.exec(published.html)![1]!;
    const visitor = new WebClient();
    const shown = await visitor.get(address);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain('Rivals Test Server · server ladder');
    expect(shown.html).toContain('Storm&lt;b&gt;Chaser&lt;/b&gt;');
    expect(shown.html).toContain('Quiet Owl');
    expect(shown.html).toContain('Diamond II');
    // Written as /ladder writes them: the score truncated as the game shows it, the week's change to one decimal.
    expect(shown.html).toContain('4,210');
    expect(shown.html).not.toContain('4,211');
    expect(shown.html).toContain('+35.0');
    expect(shown.html).toContain('−12.0');
    // Never a Discord identity: not the members' ids, not the admin who published it, no sign-in form.
    for (const id of ['300000000000000001', '300000000000000002', ADMIN_ID]) expect(shown.html).not.toContain(id);
    expect(shown.html).not.toContain('Ada Admin');
    expect(shown.html).not.toContain('_csrf');
    expect(shown.html).toContain('<meta name="robots" content="noindex">');
    // Nothing a shared cache could hand to the next visitor: no session cookie, kept privately.
    expect(shown.setCookies).toEqual([]);
    expect(shown.headers['cache-control']).toBe('private, max-age=60');
    expect((await browser.get(address)).setCookies).toEqual([]);
    expect((await b.state.audit.list(GUILD_ID, clock.now))[0]).toMatchObject({ action: 'public-page', source: 'dashboard', detail: { action: 'publish' } });

    // A member who leaves the ladder is off the page once it is drawn again.
    await b.state.ladder.forgetMember('300000000000000002');
    clock.now += PUBLIC_CACHE_MS + 1;
    expect((await visitor.get(address)).html).not.toContain('Quiet Owl');

    // A new address: the old one leads nowhere.
    const again = await browser.get(`${base}/guilds/${GUILD_ID}`);
    const revoked = await browser.post(`${base}/guilds/${GUILD_ID}/public`, { _csrf: csrfOf(again.html), action: 'revoke' });
    const fresh = /href="(http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]{24})"/.exec(revoked.html)![1]!;
    expect(fresh).not.toBe(address);
    expect((await visitor.get(address)).status).toBe(404);
    expect((await visitor.get(fresh)).status).toBe(200);
    const off = await browser.post(`${base}/guilds/${GUILD_ID}/public`, { _csrf: csrfOf(revoked.html), action: 'off' });
    expect(off.html).toContain('The public page is off.');
    expect((await visitor.get(fresh)).status).toBe(404);
  });

  it('cannot be published without the CSRF token, nor for another server', async () => {
    const browser = await signedIn();
    const csrf = csrfOf((await browser.get(`${base}/guilds/${GUILD_ID}`)).html);
    expect((await browser.post(`${base}/guilds/${GUILD_ID}/public`, { action: 'publish' })).status).toBe(403);
    expect((await browser.post(`${base}/guilds/${OTHER_GUILD}/public`, { _csrf: csrf, action: 'publish' })).status).toBe(403);
    expect(await b.state.publicPages.get(GUILD_ID)).toBeNull();
    expect(await b.state.publicPages.get(OTHER_GUILD)).toBeNull();
  });
});

describe('a public page that fails', () => {
  it('says so with a reference, and logs it without the page’s address', async () => {
    const broken = await dashboard({
      publicSources: {
        ladder: {
          enabled: () => Promise.reject(new Error('the store is down')),
          page: b.state.ladder.page.bind(b.state.ladder),
          shownMembersByUid: b.state.ladder.shownMembersByUid.bind(b.state.ladder),
        },
        heroes: b.ctx.heroes,
      },
    });
    try {
      const { token } = await b.state.publicPages.publish(GUILD_ID, clock.now);
      const from = b.logLines.length;
      const page = await new WebClient().get(`${broken.base}/s/${token}`);
      expect(page.status).toBe(500);
      expect(page.html).toMatch(/Something went wrong on our side \(reference [0-9a-f]{8}\)/);
      const logged = b.logLines.slice(from).join('\n');
      expect(logged).toContain('a dashboard page failed');
      expect(logged).toContain('/s/…');
      expect(logged).not.toContain(token);
    } finally {
      await b.state.publicPages.unpublish(GUILD_ID);
      await broken.app.close();
    }
  });
});

describe('when Discord does not answer', () => {
  it('shows and changes nothing, and says so', async () => {
    const dead = await freePort();
    const down = await dashboard({
      directory: discordWebDirectory(new REST({ api: `http://127.0.0.1:${dead}/api`, version: '10', retries: 0, timeout: 2_000 }).setToken('bot-token')),
    });
    try {
      const browser = new WebClient();
      const home = await browser.get(`${down.base}/login`);
      // The sign-in itself is Discord's OAuth2 (it answers); the servers cannot be checked, so none is listed.
      expect(home.html).toContain('Signed in as Ada Admin');
      expect(home.html).not.toContain(`/guilds/${GUILD_ID}`);
      const page = await browser.get(`${down.base}/guilds/${GUILD_ID}`);
      expect(page.status).toBe(502);
      expect(page.html).toContain('Discord did not answer in time');
      const before = (await b.state.settings.get(GUILD_ID)).leaderboardPlatform;
      const change = await browser.post(`${down.base}/guilds/${GUILD_ID}/config/platform`, {
        _csrf: csrfOf(home.html),
        platform: before === 'ps' ? 'xbox' : 'ps',
      });
      expect(change.status).toBe(502);
      expect((await b.state.settings.get(GUILD_ID)).leaderboardPlatform).toBe(before);
    } finally {
      await down.app.close();
    }
  });
});
