/**
 * The dashboard as an admin uses it, in Chromium: the built bot (dist/index.js, the dashboard in its process) over the
 * fake Discord, signed in through the fake's OAuth2. The admin sets up a feed, the ladder and rank roles on the page;
 * /config show, run as a slash command through the fake gateway, says each change, and the bot acts on them (the feed's
 * test post reaches its channel). axe-core finds no serious violation on any page, at a desktop's width and a phone's.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { startRecordingBot, type RecordedBot } from '../helpers/bot-process.js';
import { freePort } from '../helpers/free-port.js';
import {
  ADMIN_PERMISSIONS,
  APP_ID,
  commandInteraction,
  FAKE_CLIENT_SECRET,
  FEED_CHANNEL_IDS,
  GUILD_ID,
  startFakeDiscord,
  type FakeDiscord,
} from './fake-discord.js';
import { answerOf } from './helpers.js';

const ADMIN = '200000000000000009';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let discord: FakeDiscord;
let bot: RecordedBot;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let base: string;
let gold: string;
const running: ChildProcess[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'rivals-dashboard-'));

beforeAll(async () => {
  discord = await startFakeDiscord();
  const g = discord.guildRoles;
  const admins = g.addRole(GUILD_ID, { name: 'Admins', position: 2, permissions: PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageRoles });
  const botRole = g.addRole(GUILD_ID, { name: 'Rivals Bot', position: 10, permissions: PermissionFlagsBits.ManageRoles | 0x4c00n, managed: true });
  gold = g.addRole(GUILD_ID, { name: 'Gold', position: 3 });
  g.setMember(GUILD_ID, APP_ID, [botRole]);
  g.setMember(GUILD_ID, ADMIN, [admins]);
  discord.oauth.signInAs = {
    user: { id: ADMIN, username: 'ada', global_name: 'Ada Admin' },
    guilds: [{ id: GUILD_ID, name: 'Rivals Test Server', icon: null, owner: false, permissions: String(PermissionFlagsBits.ManageGuild) }],
  };
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  bot = await startRecordingBot({
    scratch,
    name: 'dashboard',
    env: {
      DISCORD_TOKEN: 'fake-bot-token-xyz',
      DISCORD_CLIENT_ID: APP_ID,
      DISCORD_API_URL: discord.apiUrl,
      DISCORD_CLIENT_SECRET: FAKE_CLIENT_SECRET,
      WEB_PUBLIC_URL: base,
      WEB_PORT: String(port),
      WEB_SESSION_SECRET: 'a-browser-test-secret-of-32-characters',
      PORT: '0',
    },
    ready: /logged in to Discord/,
    running,
  });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const child of running) child.kill('SIGKILL');
  await discord?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** axe-core's serious and critical violations on the page (evaluated through the devtools protocol, which the CSP does not govern). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null; nodes: unknown[] }[] }> } }).axe;
    return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes})`);
}

/** Whether the page scrolls sideways (it must not, at any width). */
const overflows = (page: Page) =>
  page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return root.scrollWidth > root.clientWidth + 1;
  });

/** Opens a form of the server's page, fills it and saves; resolves on the page that follows, with its result. */
async function submit(page: Page, form: string, fields: Record<string, string>, button = 'button[type=submit]'): Promise<string> {
  // A form whose answer is shown is open already.
  if (!(await page.locator(`#form-${form}`).evaluate((e) => (e as unknown as { open: boolean }).open))) await page.locator(`#form-${form} summary`).click();
  for (const [name, value] of Object.entries(fields)) {
    const control = page.locator(`#${form}-${name}`);
    if ((await control.evaluate((e) => e.tagName)) === 'SELECT') await control.selectOption(value);
    else await control.fill(value);
  }
  await Promise.all([page.waitForURL(/#result$/), page.locator(`#form-${form} ${button}`).first().click()]);
  return (await page.locator('#result').innerText()).trim();
}

/** /config show as the admin runs it in Discord: its answer's fields, name → value. */
async function configShow(): Promise<Map<string, string>> {
  const show = commandInteraction(ADMIN, 'config', {}, { subcommand: 'show', permissions: ADMIN_PERMISSIONS });
  discord.dispatchInteraction(show);
  const answer = await answerOf(discord, show);
  return new Map((answer.embeds[0]!.fields ?? []).map((f) => [f.name, f.value]));
}

describe('the dashboard in Chromium', () => {
  it('signs in through Discord, sets up a feed, the ladder and rank roles, and the bot follows', async () => {
    const page = browser.page;
    expect(bot.output()).toContain('dashboard ready');
    await page.goto(`${base}/`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-landing');
    await Promise.all([page.waitForURL(`${base}/`), page.getByRole('link', { name: 'Sign in with Discord' }).click()]);
    await expect.poll(() => page.getByText('Signed in as Ada Admin').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-servers');
    await Promise.all([page.waitForURL(`${base}/guilds/${GUILD_ID}`), page.getByRole('link', { name: 'Rivals Test Server' }).click()]);
    expect(await seriousViolations(page)).toEqual([]);

    // A feed: its channel from the picker, then a test post, which the bot sends to that channel.
    const feed = await submit(page, 'feed', { type: 'patchNotes', channel: FEED_CHANNEL_IDS[0] });
    expect(feed).toContain('#feed-1');
    expect((await configShow()).get('Patch notes')).toContain(`<#${FEED_CHANNEL_IDS[0]}>`);
    const posted = discord.waitFor((c) => c.method === 'POST' && c.path === `/channels/${FEED_CHANNEL_IDS[0]}/messages`);
    const test = await submit(page, 'test-post', { type: 'patchNotes' });
    expect(test).toContain('#feed-1');
    await posted;

    // The ladder, its moments in the second feed channel.
    const ladder = await submit(page, 'ladder', { enabled: 'true', channel: FEED_CHANNEL_IDS[1] });
    expect(ladder).toContain('The ladder is on');
    expect((await configShow()).get('Server ladder')).toContain(`<#${FEED_CHANNEL_IDS[1]}>`);

    // Rank roles: Gold to the Gold role, its dry run shown before it is saved, then saved and on.
    const preview = await submit(page, 'rank-roles', { tier: 'Gold', role: gold }, 'button[name=preview]');
    expect(preview).toContain('Not saved');
    expect(preview).toContain('Gold → @Gold');
    expect((await configShow()).get('Rank roles')).not.toContain(gold);
    const roles = await submit(page, 'rank-roles', { tier: 'Gold', role: gold, enabled: 'true' });
    expect(roles).toContain('@Gold');
    const shown = (await configShow()).get('Rank roles')!;
    expect(shown).toContain(`<@&${gold}>`);
    expect(shown.split('\n')[0]).toBe('On');

    // The page's own /config show panel says them all, and the audit log lists the three changes from the dashboard.
    await page.goto(`${base}/guilds/${GUILD_ID}`);
    const panel = await page.locator('section[aria-labelledby=settings-title]').innerText();
    expect(panel).toContain('#feed-1');
    expect(panel).toContain('@Gold');
    const audit = await page.locator('section[aria-labelledby=audit-title] tbody tr').allInnerTexts();
    expect(audit.filter((row) => row.includes('dashboard'))).toHaveLength(3);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-guild');
  });

  it('works at a phone’s width, and its refusals are pages too', async () => {
    const page = browser.page;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${base}/guilds/${GUILD_ID}`);
      expect(await overflows(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await page.locator('#form-feed summary').click();
      await screenshot(page, 'dashboard-guild-phone');
      // Another server: the 403 page.
      const refused = await page.goto(`${base}/guilds/910000000000000099`);
      expect(refused?.status()).toBe(403);
      expect(await overflows(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'dashboard-403-phone');
      await page.goto(`${base}/`);
      expect(await overflows(page)).toBe(false);
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });
});
