/**
 * The playground's dashboard: its Dashboard link signs in as the acting member with no Discord, an admin changes the
 * pretend server's settings on the page (the playground's /config show says them), a member without Manage Server gets the 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootPlayground } from '../helpers/playground.js';
import { csrfOf, WebClient } from '../helpers/web-client.js';
import { CHANNELS, GUILD, MEMBERS } from '../../src/playground/guild.js';
import type { MessageEvent, PlaygroundMessage } from '../../src/playground/messages.js';

let env: Awaited<ReturnType<typeof bootPlayground>>;
const admin = MEMBERS.find((m) => m.admin)!;
const member = MEMBERS.find((m) => !m.admin)!;

beforeAll(async () => {
  env = await bootPlayground();
});
afterAll(async () => {
  await env?.close();
});

describe('the playground dashboard', () => {
  it('signs in as an admin and changes the pretend server’s settings through /config', async () => {
    const url = env.playground.dashboardUrl!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(env.lines.some((l) => l.includes('dashboard ready'))).toBe(true);
    const browser = new WebClient();
    const page = await browser.get(`${url}/login?member=${admin.id}`);
    expect(page.status).toBe(200);
    expect(page.url).toBe(`${url}/guilds/${GUILD.id}`);
    expect(page.html).toContain(`Signed in as ${admin.name}`);
    // The pretend server's channels in the pickers.
    const alerts = CHANNELS.find((c) => c.name !== 'general')!;
    expect(page.html).toContain(`<option value="${alerts.id}">#${alerts.name}</option>`);
    const saved = await browser.post(`${url}/guilds/${GUILD.id}/config/alerts`, { _csrf: csrfOf(page.html), channel: alerts.id });
    expect(saved.status).toBe(200);
    expect((await env.playground.state.settings.get(GUILD.id)).alertsChannelId).toBe(alerts.id);
    // The playground's own /config show, as the admin runs it in the page, says it.
    const general = CHANNELS[0]!.id;
    const show = await new Promise<PlaygroundMessage>((resolve, reject) => {
      const stop = env.playground.messages.subscribe((e: MessageEvent) => {
        if (e.type !== 'message' || e.message.channelId !== general || e.message.state !== 'done' || !e.message.interaction) return;
        stop();
        resolve(structuredClone(e.message));
      });
      const accepted = env.playground.interactions.command(admin.id, general, { command: 'config', subcommand: 'show', options: {} });
      if (!accepted.ok) reject(new Error(JSON.stringify(accepted)));
    });
    expect(JSON.stringify(show.payload)).toContain(`<#${alerts.id}>`);
    // And its audit log names the dashboard.
    expect((await env.playground.state.audit.list(GUILD.id, Date.now()))[0]).toMatchObject({ action: 'alerts', source: 'dashboard', userId: admin.id });
  });

  it('a member without Manage Server gets the 403, and a member who does not exist signs nobody in', async () => {
    const url = env.playground.dashboardUrl!;
    const page = await new WebClient().get(`${url}/login?member=${member.id}`);
    expect(page.status).toBe(403);
    expect(page.html).toContain('you need Manage Server there');
    const nobody = await new WebClient().get(`${url}/login?member=42`);
    expect(nobody.status).toBe(403);
  });
});

describe('the playground’s public page', () => {
  it('shows the seeded ladder and its duo by game names; a duo partner who leaves the ladder is no longer named', async () => {
    const url = env.playground.dashboardUrl!;
    const browser = new WebClient();
    const page = await browser.get(`${url}/login?member=${admin.id}`);
    const published = await browser.post(`${url}/guilds/${GUILD.id}/public`, { _csrf: csrfOf(page.html), action: 'publish' });
    const address = /href="(http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]{24})"/.exec(published.html)![1]!;
    const shown = await new WebClient().get(address);
    expect(shown.status).toBe(200);
    // The seeded duo: a captured player and the teammate the recorded details show most often.
    const partners = env.playground.guild.members.slice(-2);
    const duos = /<h2 id="duos-title">[\s\S]*?<\/section>/.exec(shown.html)?.[0] ?? '';
    expect(duos).toContain(partners[0]!.name);
    // No Discord identity: not the members' ids.
    for (const m of env.playground.guild.members) expect(shown.html).not.toContain(m.id);
    // The partner leaves the ladder: drawn again (here in another language, as the page keeps each language's a minute), no duo names them.
    await env.playground.state.ladder.forgetMember(partners[0]!.id);
    const after = await new WebClient().get(`${address}?lang=de`);
    expect(after.status).toBe(200);
    expect(after.html).not.toContain(partners[0]!.name);
    // The other member of that duo, Card1gan, turns their profile private: named nowhere on the page, drawn again.
    expect(duos).toContain('Card1gan');
    const card1gan = env.playground.guild.members.find((m) => m.name === 'Card1gan')!;
    const uid = (await env.playground.state.links.get(card1gan.id)).accounts[0]!.uid;
    await env.playground.state.ladder.setPrivate(uid, Date.now());
    const hidden = await new WebClient().get(`${address}?lang=fr`);
    expect(hidden.status).toBe(200);
    expect(hidden.html).not.toContain('Card1gan');
  });
});
