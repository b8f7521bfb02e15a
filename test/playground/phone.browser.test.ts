/**
 * Every answer's first screen on a phone: the playground in headless Chromium at 400 × 860 CSS pixels
 * (a phone's viewport; the playground shows the channel alone below 600 px, as Discord's mobile app does).
 * The whole answer — embed, image card and components — must be visible in the channel without scrolling.
 * Screenshots are saved to test-artifacts/playground/phone-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { bootPlayground } from '../helpers/playground.js';

let boot: Awaited<ReturnType<typeof bootPlayground>>;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  boot = await bootPlayground();
  browser = await launchBrowser();
  page = browser.page;
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.setViewportSize({ width: 400, height: 860 });
  await page.goto(boot.playground.url);
  await page.locator('#channel-name', { hasText: 'general' }).waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await boot?.close();
});

/** Sends `line` and resolves to the message it adds, once the answer is in (not thinking, its images loaded). */
async function answer(line: string): Promise<Locator> {
  const before = await page.locator('#messages > discord-message').evaluateAll((ms) => ms.map((m) => m.getAttribute('data-message-id')));
  const input = page.locator('#command-input');
  await input.fill('');
  await input.pressSequentially(line, { delay: 2 });
  await input.press('Enter');
  const id = await page.waitForFunction(
    `[...document.querySelectorAll('#messages > discord-message.state-done')].map((m) => m.dataset.messageId).find((id) => !${JSON.stringify(before)}.includes(id))`,
    undefined,
    { timeout: 15_000 },
  );
  const message = page.locator(`#messages > discord-message[data-message-id="${String(await id.jsonValue())}"]`);
  // Every image in the message, shadow DOM included, loaded or failed: its height is final.
  await message.evaluate(async (root) => {
    type Img = { tagName: string; complete: boolean; addEventListener(type: string, listener: () => void): void };
    type El = { tagName: string; shadowRoot: Root | null };
    type Root = { querySelectorAll(selector: string): ArrayLike<El> };
    const images = (r: Root): Img[] =>
      Array.from(r.querySelectorAll('*')).flatMap((el) => [
        ...(el.tagName === 'IMG' ? [el as unknown as Img] : []),
        ...(el.shadowRoot ? images(el.shadowRoot) : []),
      ]);
    const self = root as unknown as El & Root;
    const all = () => [...images(self), ...(self.shadowRoot ? images(self.shadowRoot) : [])];
    const settled = (img: Img) =>
      new Promise<void>((resolve) => {
        img.addEventListener('load', resolve);
        img.addEventListener('error', resolve);
        if (img.complete) resolve();
      });
    await Promise.all(all().map(settled));
  });
  return message;
}

/** The message's height and the channel's visible height, in CSS pixels. */
async function fit(message: Locator): Promise<{ message: number; channel: number }> {
  const channel = await page.locator('.scroller').evaluate((el) => (el as unknown as { clientHeight: number }).clientHeight);
  const box = (await message.boundingBox())!;
  return { message: Math.round(box.height), channel };
}

/** A recorded match of the replica that no other answer here scouts. */
const SCOUTED = '6714464_1741144336_206_11001_10';

describe('every answer’s first screen on a phone (400 × 860)', { timeout: 60_000 }, () => {
  const ANSWERS: [string, string][] = [
    ['player', '/player query:1403392756'],
    ['player-newer-shape', '/player query:1786151874'],
    ['player-hero', '/player query:1403392756 hero:Magik'],
    ['last', '/last player:1403392756'],
    ['hero', '/hero name:Hulk'],
    ['leaderboard', '/leaderboard hero:Hulk'],
    ['patch-notes', '/patch-notes '],
    ['compare', '/compare player:1403392756 other:1117455441'],
    ['meta', '/meta '],
    ['maps', '/maps '],
    ['match', '/match match:6713355_1740604074_322_11001_10'],
    ['ladder', '/ladder show '],
    ['items', '/items '],
    ['achievements', '/achievements hero:Hulk'],
    ['battlepass', '/battlepass '],
    ['scout', '/scout match:6713355_1740604074_322_11001_10'],
  ];

  it.each(ANSWERS)('%s: %s fits the channel without scrolling', async (name, line) => {
    const message = await answer(line);
    const { message: height, channel } = await fit(message);
    await message.scrollIntoViewIfNeeded();
    await screenshot(page, `phone-${name}`);
    expect(height, `${line}: ${height} px tall in a ${channel} px channel`).toBeLessThanOrEqual(channel);
  });

  it('scout of a lobby whose 12 players all have public profiles fits the channel without scrolling', async () => {
    // The recorded lobby has one public profile: every other player gets a copy of it, so each line is full.
    const players = boot.services.replica!.dataset.players;
    const template = players.get('1403392756')!;
    const detail = JSON.stringify(boot.services.replica!.dataset.matches.get(SCOUTED) ?? {});
    const uids = [...new Set([...detail.matchAll(/"player_uid":"?(\d+)/g)].map((m) => m[1]!))];
    expect(uids.length).toBeGreaterThanOrEqual(12);
    // Captured profiles stay; the rest (none, or the seated teammates' derived ones, shorter) get the copy.
    const provenance = boot.services.replica!.dataset.provenance;
    for (const uid of uids) if (provenance.get(`player:${uid}`) !== 'real') players.set(uid, { ...structuredClone(template), uid: Number(uid) });
    // The bot's background reads (the hero meta's) may have cached these players as missing before they had a profile.
    await Promise.all(uids.map((uid) => boot.services.api.forgetPlayer(uid)));
    const line = `/scout match:${SCOUTED}`;
    const message = await answer(line);
    // The answer is edited as profiles arrive: measured once every profile is in.
    const selector = JSON.stringify(`#messages > discord-message[data-message-id="${await message.getAttribute('data-message-id')}"]`);
    await page.waitForFunction(`!document.querySelector(${selector})?.textContent?.includes('reading')`, undefined, { timeout: 30_000 });
    // Twelve read: the scout's most.
    expect(await message.textContent()).toMatch(/Profiles read: 12 of 1[2-9]/);
    const { message: height, channel } = await fit(message);
    await message.scrollIntoViewIfNeeded();
    await screenshot(page, 'phone-scout-full-lobby');
    expect(height, `${line}: ${height} px tall in a ${channel} px channel`).toBeLessThanOrEqual(channel);
  });

  it('threw no error', () => {
    expect(pageErrors).toEqual([]);
  });
});
