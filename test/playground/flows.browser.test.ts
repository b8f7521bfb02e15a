/**
 * Every flow of docs/playground.md ("Every flow"), finished in Chromium as a person would: link a player, prove it by
 * equipping another icon with the page's "In game" panel, join the ladder, move a rank role with a rank reached in game,
 * export one's data as a downloadable file, and open a card full size. Each step waits for what it expects on screen.
 * Screenshots go to test-artifacts/playground/flow-*.png.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { CHANNELS, MEMBERS, ROLES } from '../../src/playground/guild.js';
import { toMessagePayload } from '../../src/render/view.js';
import { FREE_PLAYER } from '../../src/playground/seed-ladder.js';
import { launchBrowser, screenshot, newMessage, actAs as actAsMember } from '../helpers/browser.js';
import { bootPlayground } from '../helpers/playground.js';

const SAM = MEMBERS[1]!;
const role = (name: string) => ROLES.find((r) => r.name === name)!;

let boot: Awaited<ReturnType<typeof bootPlayground>>;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  boot = await bootPlayground();
  browser = await launchBrowser();
  page = browser.page;
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(boot.playground.url);
  await page.locator('#channels .channel', { hasText: 'general' }).waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await boot?.close();
});

/** Types a line into the command bar key by key, then presses Enter, and again when the first one completed what the picker offered. */
async function type(line: string): Promise<void> {
  const input = page.locator('#command-input');
  await input.fill('');
  await input.pressSequentially(line, { delay: 5 });
  await input.press('Enter');
  if ((await input.inputValue()) !== '') await input.press('Enter');
}

/** Sends `line` and resolves to the first message it adds to the channel, as a locator by its id. */
const sent = (line: string): Promise<Locator> => newMessage(page, () => type(line), 15_000);

const actAs = (name: string): Promise<void> => actAsMember(page, name);

/** All text a locator's element shows, its web components' shadow DOM included. */
function deepText(locator: Locator): Promise<string> {
  type DomNode = { nodeType: number; textContent: string | null; childNodes: ArrayLike<DomNode>; shadowRoot?: DomNode | null };
  return locator.evaluate((root) => {
    const walk = (node: DomNode): string => {
      let text = node.shadowRoot ? walk(node.shadowRoot) : '';
      for (const child of Array.from(node.childNodes)) text += child.nodeType === 3 ? `${child.textContent} ` : walk(child);
      return text;
    };
    return walk(root).replace(/\s+/g, ' ');
  });
}

/** The member list's group a member is drawn in (its header's `data-group`), and their name's colour. */
function memberPlace(name: string): Promise<{ group: string | null; colour: string }> {
  return page.evaluate(`(() => {
    const row = document.querySelector('#members .member[data-member="${name}"]');
    let header = row.previousElementSibling;
    while (header && !header.classList.contains('member-group')) header = header.previousElementSibling;
    return { group: header?.getAttribute('data-group') ?? null, colour: getComputedStyle(row.querySelector('.member-name')).color };
  })()`);
}

/** The parts of an image element read here (the tests compile without the DOM's types). */
interface Img {
  complete: boolean;
  naturalWidth: number;
  getBoundingClientRect(): { width: number };
  click(): void;
}

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

describe('every flow of docs/playground.md, in Chromium', { timeout: 120_000 }, () => {
  it('welcomes with the players and matches the replica holds, the free player marked', async () => {
    const welcome = page.locator('#messages .samples');
    await welcome.waitFor();
    const dataset = boot.services.replica!.dataset;
    const uids = await welcome.locator('.sample-players li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-uid')));
    expect(uids.sort()).toEqual([...dataset.players.keys()].sort());
    expect(await welcome.locator(`li[data-uid="${FREE_PLAYER}"] .sample-free`).innerText()).toBe('free to link');
    expect(await welcome.locator('.sample-free').count()).toBe(1);
    expect(await welcome.locator('.sample-matches code').allInnerTexts()).toEqual([...dataset.matches.keys()].sort());
    await screenshot(page, 'flow-welcome');
  });

  it('links a player, and proves it by equipping another icon in game', async () => {
    await actAs('Sam');
    const linked = await sent('/link player:Chob Bob');
    await linked.getByText('Chob Bob').first().waitFor();
    await linked.locator('discord-button', { hasText: 'Prove this account is yours' }).click();
    const steps = page.locator('#messages > discord-message', { hasText: 'To prove that' }).last();
    await steps.waitFor();
    // The playground's own tool, under the proof: opens "In game" on the player.
    await steps.locator('.playground-hint').click();
    const dialog = page.locator('#game-dialog');
    await dialog.waitFor();
    expect(await page.locator('#game-player').inputValue()).toBe(FREE_PLAYER);
    const shown = boot.services.replica!.game.status(FREE_PLAYER)!.shown!.id;
    expect(await page.locator('#game-status').innerText()).toContain(`icon ${shown}`);
    const pick = dialog.locator(`.game-icon:not([data-icon="${shown}"])`).first();
    const equipped = (await pick.getAttribute('data-icon'))!;
    await pick.click();
    // Worn in game now, the panel redrawn from the replica's answer.
    await dialog.locator(`.game-icon.worn[data-icon="${equipped}"]`).waitFor();
    await page.locator('#game-status', { hasText: 'which it accepts now' }).waitFor();
    await screenshot(page, 'flow-prove-in-game');
    await page.locator('#game-close').click();
    await dialog.waitFor({ state: 'hidden' });

    await steps.locator('discord-button', { hasText: 'Check now' }).click();
    await page.locator('#messages > discord-message', { hasText: 'is verified as yours' }).last().waitFor();
    expect(boot.services.replica!.game.status(FREE_PLAYER)!.shown!.id).toBe(equipped);
    await screenshot(page, 'flow-prove');
  });

  it('joins the ladder, and the rank roles follow: the dry run names members, the sync colours them', async () => {
    const joined = await sent('/ladder join');
    await joined.getByText('Chob Bob').first().waitFor();

    await actAs('Alex');
    const dryRun = await sent('/config rank-roles tier:Platinum role:@Platinum');
    await dryRun.getByText('Platinum →').waitFor();
    const text = await deepText(dryRun);
    expect(text).toMatch(/@ ?Sam \+ ?@ ?Platinum \(Platinum II ?\)/);
    expect(text).not.toContain('unknown-user');
    await screenshot(page, 'flow-rank-roles-dry-run');

    await sent('/config rank-roles tier:Diamond role:@Diamond enabled:True');
    await page.locator('#members .member-group[data-group="Platinum"] + .member[data-member="Sam"]').waitFor();
    expect(await memberPlace('Sam')).toEqual({ group: 'Platinum', colour: rgb(role('Platinum').colour) });
    await page.locator('#members .member', { hasText: 'Sam' }).click({ button: 'right' });
    await page.locator('#member-roles .role-pill[data-role="Platinum"]').waitFor();
    await screenshot(page, 'flow-rank-roles');
    await page.keyboard.press('Escape');
    await page.locator('#messages').click({ position: { x: 5, y: 5 } });
  });

  it('moves the role when the player reaches another rank in game', async () => {
    await page.locator('#in-game').click();
    await page.locator('#game-dialog').waitFor();
    await page.selectOption('#game-player', FREE_PLAYER);
    await page.selectOption('#game-rank', { label: 'Diamond III' });
    await page.locator('#game-play').click();
    // Answered once the tracker read the player and the roles are in step: Sam under Diamond, in its colour.
    await page.locator('#members .member-group[data-group="Diamond"] + .member[data-member="Sam"]').waitFor();
    expect(await memberPlace('Sam')).toEqual({ group: 'Diamond', colour: rgb(role('Diamond').colour) });
    expect(await page.locator('#members .member-group[data-group="Platinum"]').count()).toBe(0);
    expect(boot.playground.guild.rolesOf(SAM.id)).toEqual([role('Diamond').id]);
    await page.locator('#game-status', { hasText: 'Diamond III' }).waitFor();
    await screenshot(page, 'flow-rank-change');
    await page.locator('#game-close').click();
  });

  it('exports a member’s data as a file to download, holding exactly what the bot stores about them', async () => {
    await actAs('Sam');
    const exported = await sent('/privacy export');
    const file = exported.locator('.attachment-file');
    await file.waitFor();
    const name = `rivals-bot-data-${SAM.id}.json`;
    expect(await file.locator('.attachment-file-name').innerText()).toBe(name);
    expect(await file.locator('.attachment-file-size').innerText()).toMatch(/^[\d.,]+\s?(byte|kB|KB|MB)/);
    const download = page.waitForEvent('download');
    await file.locator('.attachment-file-name').click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe(name);
    const json = JSON.parse(await readFile(await saved.path(), 'utf8')) as Record<string, unknown>;
    const stored = await boot.playground.state.memberData.collect(SAM.id);
    expect(json).toMatchObject({ v: 1, ...JSON.parse(JSON.stringify(stored)) });
    expect(JSON.stringify(json)).toContain(FREE_PLAYER);
    await exported.scrollIntoViewIfNeeded();
    await screenshot(page, 'flow-export');
  });

  it('shows a card as Discord does and opens it full size, closing on Escape or a click', async () => {
    const ladder = await sent('/ladder show');
    const image = ladder.locator('discord-embed').first();
    const size = () =>
      image.evaluate((e) => {
        const img = (e as unknown as { shadowRoot: { querySelector(s: string): Img } }).shadowRoot.querySelector('img.discord-embed-image');
        return img.complete && img.naturalWidth > 0 ? { natural: img.naturalWidth, shown: img.getBoundingClientRect().width } : null;
      });
    await expect.poll(size, { timeout: 15_000 }).not.toBeNull();
    const { natural, shown } = (await size())!;
    expect(shown).toBeGreaterThanOrEqual(380);
    expect(shown).toBeLessThanOrEqual(400);
    expect(natural).toBeGreaterThan(shown);
    await ladder.scrollIntoViewIfNeeded();
    await screenshot(page, 'flow-card');

    const lightbox = page.locator('#lightbox');
    const open = async () => {
      await image.evaluate((e) =>
        (e as unknown as { shadowRoot: { querySelector(s: string): Img } }).shadowRoot.querySelector('img.discord-embed-image').click(),
      );
      await lightbox.waitFor();
    };
    await open();
    const full = await page.locator('#lightbox-image').evaluate((e) => {
      const img = e as unknown as Img;
      return { natural: img.naturalWidth, shown: img.getBoundingClientRect().width };
    });
    expect(full.natural).toBe(natural);
    expect(full.shown).toBeGreaterThan(shown);
    await screenshot(page, 'flow-card-full');
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'hidden' });
    await open();
    await page.mouse.click(10, 10);
    await lightbox.waitFor({ state: 'hidden' });
  });

  it('draws an attached image no embed shows inline, within 550 × 350, and opens it full size', async () => {
    // The bot posts the ladder card's PNG as a file of its own, as a feed post with an image would arrive.
    const card = boot.playground.messages
      .list(CHANNELS[0]!.id)
      .flatMap((m) => m.payload?.attachments ?? [])
      .find((a) => a.content_type === 'image/png')!;
    const png = Buffer.from(card.url!.slice(card.url!.indexOf(',') + 1), 'base64');
    const posted = boot.playground.messages.create({
      channelId: CHANNELS[0]!.id,
      state: 'done',
      ephemeral: false,
      payload: toMessagePayload({
        content: 'The ladder, as a file',
        files: [{ name: 'ladder.png', data: png, contentType: 'image/png', description: 'The server ladder' }],
      }),
    });
    const image = page.locator(`#messages > discord-message[data-message-id="${posted.id}"] img.attachment-image`);
    await image.waitFor();
    const size = () =>
      image.evaluate((e) => {
        const img = e as unknown as Omit<Img, 'getBoundingClientRect'> & { getBoundingClientRect(): { width: number; height: number } };
        const box = img.getBoundingClientRect();
        return img.complete && img.naturalWidth > 0 ? { natural: img.naturalWidth, width: box.width, height: box.height } : null;
      });
    await expect.poll(size, { timeout: 15_000 }).not.toBeNull();
    const drawn = (await size())!;
    expect(drawn.width).toBeLessThanOrEqual(550);
    expect(drawn.height).toBeLessThanOrEqual(350);
    expect(drawn.natural).toBeGreaterThan(drawn.width);
    expect(await image.getAttribute('alt')).toBe('The server ladder');
    await image.scrollIntoViewIfNeeded();
    await screenshot(page, 'flow-attached-image');
    await image.click();
    await page.locator('#lightbox').waitFor();
    expect(await page.locator('#lightbox-download').getAttribute('download')).toBe('ladder.png');
    await page.keyboard.press('Escape');
    await page.locator('#lightbox').waitFor({ state: 'hidden' });
    expect(pageErrors).toEqual([]);
  });
});
