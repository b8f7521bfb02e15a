/**
 * The playground in a real browser: headless Chromium (test/helpers/browser.ts) driven by playwright-core against the
 * playground over the in-process replica, as `npm start` serves it with no token and no API key.
 * Every step types or clicks as a person would and asserts on the text on screen; screenshots are
 * saved to test-artifacts/playground/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { readLocaleFile, runInLocale } from '../../src/i18n/index.js';
import { t } from '../../src/render/strings.js';
import { pageMessages } from '../../src/playground/web/messages.js';
import { commandLabel, localizeDefinition } from '../../src/playground/command-line.js';
import type { Bootstrap } from '../../src/playground/protocol.js';
import { launchBrowser, screenshot, newMessage, actAs as actAsMember } from '../helpers/browser.js';
import { bootPlayground } from '../helpers/playground.js';

const PLAYER = '1403392756';

let boot: Awaited<ReturnType<typeof bootPlayground>>;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
/** Every URL the page asked for, and every uncaught error in it. */
const requested: string[] = [];
const pageErrors: string[] = [];

/** Types a line into the command bar key by key, then presses Enter. */
async function type(line: string, enter = true): Promise<void> {
  const input = page.locator('#command-input');
  await input.fill('');
  await input.pressSequentially(line, { delay: 5 });
  if (enter) await input.press('Enter');
}

/** Messages on screen (the open channel, as the acting member sees it). */
const messages = () => page.locator('#messages > discord-message');

/**
 * The latest message showing `text`, once there is one, as a locator by its id: it keeps pointing
 * at that message when a button or select later changes its text.
 */
async function messageWith(text: string | RegExp): Promise<Locator> {
  const message = messages().filter({ hasText: text }).last();
  await message.waitFor({ timeout: 10_000 });
  return page.locator(`#messages > discord-message[data-message-id="${await message.getAttribute('data-message-id')}"]`);
}

/**
 * All text a locator's element shows, its web components' shadow DOM included (innerText leaves
 * shadow DOM out: the embed's title, field names, the bot's "APP" tag).
 */
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

/** Sends `line` and resolves to the first message it adds to the channel, as a locator by its id. */
const sent = (line: string): Promise<Locator> => newMessage(page, () => type(line), 10_000);

const actAs = (name: string): Promise<void> => actAsMember(page, name);

/** Opens the `menuIndex`th select menu of a message and picks the option with `label` (or the `label`th option). */
async function choose(message: Locator, menuIndex: number, label: string | number): Promise<void> {
  const menu = message.locator('discord-string-select-menu').nth(menuIndex);
  await menu.click();
  const options = menu.locator('discord-string-select-menu-option');
  await (typeof label === 'number' ? options.nth(label) : options.filter({ hasText: label }).first()).click();
}

/** A message as the page drew it: its id, its state, and the text of its placeholder while thinking. */
interface Drawn {
  id: string;
  state: string;
  thinking?: string;
}

/**
 * Records every message the page draws from now on in `window.drawn`, so that a test does not have
 * to catch a short-lived placeholder on screen before the answer replaces it; resolves to a reader
 * of the record.
 */
async function recordDrawn(): Promise<() => Promise<Drawn[]>> {
  await page.evaluate(`(() => {
    window.drawn = [];
    if (window.drawnObserver) return;
    window.drawnObserver = new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) {
        if (node.dataset?.messageId) window.drawn.push({ id: node.dataset.messageId, state: node.className.match(/state-(\\w+)/)?.[1], thinking: node.querySelector('.thinking')?.textContent ?? undefined });
      }
    });
    window.drawnObserver.observe(document.querySelector('#messages'), { childList: true });
  })()`);
  return () => page.evaluate<Drawn[]>('window.drawn');
}

/** What the playground tells the page when it loads (`GET /api/bootstrap`), as far as the tests read it. */
async function bootstrap(): Promise<Pick<Bootstrap, 'messages' | 'commands'>> {
  return (await page.request.get(`${boot.playground.url}/api/bootstrap`)).json();
}

async function pickerLabels(): Promise<string[]> {
  await page.locator('.picker:not([hidden]) .picker-item').first().waitFor();
  return page.locator('.picker-item .picker-label').allInnerTexts();
}

beforeAll(async () => {
  boot = await bootPlayground();
  browser = await launchBrowser();
  page = browser.page;
  page.on('request', (r) => requested.push(r.url()));
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(boot.playground.url);
  await page.locator('#channels .channel', { hasText: 'general' }).waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await boot?.close();
});

describe('the playground in Chromium', { timeout: 60_000 }, () => {
  it('lists the real commands in the picker and runs /hero with a choice from its autocomplete', async () => {
    await page.locator('#command-input').click();
    await type('/', false);
    const labels = await pickerLabels();
    // The picker shows 25 at a time, as Discord's does; what is typed narrows it.
    expect(labels).toEqual(expect.arrayContaining(['/hero', '/player', '/leaderboard', '/patch-notes', '/match', '/ladder show']));
    await type('/con', false);
    await page.locator('.picker-item .picker-label', { hasText: '/config feed' }).first().waitFor();
    expect(await pickerLabels()).toEqual(expect.arrayContaining(['/config feed', '/config show', '/config ladder']));

    await type('/hero name:hul', false);
    await page.locator('.picker-item', { hasText: 'Hulk' }).first().waitFor();
    await page.keyboard.press('Tab');
    expect(await page.locator('#command-input').inputValue()).toBe('/hero name:Hulk ');
    await page.keyboard.press('Enter');

    const hero = await messageWith('Real name');
    const text = await deepText(hero);
    expect(text).toContain('Hulk');
    expect(text).toContain('Bruce Banner');
    expect(text).toContain('Alex'); // "Alex used /hero"
    expect(await hero.locator('discord-embed-field[inline]').count()).toBeGreaterThanOrEqual(3);
    // Offline, the hero's images are the proxy's placeholder, not broken images.
    const thumbnail = await hero.locator('discord-embed').evaluate((e) => (e as unknown as { thumbnail: string }).thumbnail);
    expect(thumbnail).toMatch(/^\/img\?kind=thumbnail&src=https?%3A/);
    const placeholder = await page.request.get(`${boot.playground.url}${thumbnail}`);
    expect(placeholder.headers()['content-type']).toBe('image/svg+xml');
    await screenshot(page, 'hero');

    // Typed straight after the command, as in Discord, the text is the first required option.
    await type('/hero Loki');
    const loki = await messageWith('Loki');
    await loki.getByText('Real name').waitFor();
  });

  it('runs /player, opens its recent matches, and opens a match from them', async () => {
    const name = (await boot.services.api.player(PLAYER)).data.name;
    const player = await sent(`/player query:${PLAYER}`);
    await player.getByText(name).first().waitFor();
    await player.getByText('Rank score').waitFor();
    await player.scrollIntoViewIfNeeded();
    await screenshot(page, 'player');

    await choose(player, 0, 'Recent matches');
    await player.locator('discord-string-select-menu', { hasText: 'Open a match' }).waitFor();
    // Page 2 of the recent matches holds one the replica has the details of (the sample match).
    await player.locator('discord-button', { hasText: '›' }).click();
    await player.getByText(/Page 2 of \d+/).waitFor();
    const recorded = [...boot.services.replica!.dataset.matches.keys()];
    const values = await player
      .locator('discord-string-select-menu')
      .nth(1)
      .locator('discord-string-select-menu-option')
      .evaluateAll((os) => os.map((o) => o.getAttribute('data-value')));
    const index = values.findIndex((v) => v !== null && recorded.includes(v.split('~')[0]));
    expect(index).toBeGreaterThanOrEqual(0);
    await choose(player, 1, index);
    await player.getByText('MVP').first().waitFor();
    expect(await deepText(player)).toContain(values[index]!.split('~')[0]);
    // Names escaped for markdown ("Zarbon\\_") are drawn as Discord draws them, escapes resolved.
    expect(await deepText(player)).toContain('Zarbon_');
    expect(await deepText(player)).not.toContain('\\_');
    // The invoker's own select updates the message in place: still one answer to /player.
    expect(await messages().filter({ hasText: 'MVP' }).count()).toBe(1);
    await screenshot(page, 'player-match');
  });

  it('runs /leaderboard and pages through it with the buttons', async () => {
    await type('/leaderboard hero:Hulk');
    const board = await messageWith('Page 1 of');
    await board.locator('discord-button', { hasText: '›' }).click();
    await board.getByText(/Page 2 of \d+/).waitFor();
    await board.locator('discord-button', { hasText: '‹' }).click();
    await board.getByText(/Page 1 of \d+/).waitFor();
    await board.locator('discord-button', { hasText: '›' }).click();
    await board.getByText(/Page 2 of \d+/).waitFor();
    // Discord markdown is drawn, not shown raw: "**21. Name** · 6,484 pts" has a bold name.
    expect(await board.locator('discord-embed-description discord-bold').count()).toBeGreaterThan(5);
    expect(await deepText(board)).not.toContain('**');
    await screenshot(page, 'leaderboard');
  });

  it('runs the Rivals profile app on a member from the member list', async () => {
    await page.locator('#members .member', { hasText: 'Jordan' }).click({ button: 'right' });
    await page.locator('#member-apps button', { hasText: 'Rivals profile' }).click();
    const answer = await messageWith('has not linked a Rivals account');
    // The mention is drawn as Discord draws it: the member's name, not <@id>.
    expect(await answer.locator('discord-mention').first().innerText()).toContain('Jordan');
    expect(await deepText(answer)).not.toContain('<@');
  });

  it('opens the acting member’s DM with the bot: the commands declared for DMs only, answered there and nowhere else', async () => {
    await page.locator('#channels .channel.dm').click();
    expect(await page.locator('#channel-name').innerText()).toBe('Rivals Bot');
    expect(await page.locator('#command-input').getAttribute('placeholder')).toBe('Message @Rivals Bot: type / for commands');
    await type('/', false);
    const labels = await pickerLabels();
    expect(labels).toEqual(expect.arrayContaining(['/hero', '/player', '/leaderboard', '/settings language']));
    // A server's commands (/config, /ladder) are not offered in a DM, as in Discord's client (#general lists them first).
    expect(labels.filter((l) => l.startsWith('/config') || l.startsWith('/ladder'))).toEqual([]);
    await type('/hero name:Groot');
    const groot = await messageWith('Real name');
    expect(await deepText(groot)).toContain('Groot');
    await screenshot(page, 'direct-message');
    // Another member has their own DM, without Alex's answer; #general never got it.
    await page.locator('#member-switch').selectOption({ label: 'Sam' });
    await page.locator('#channel-topic', { hasText: 'direct messages' }).waitFor();
    expect(await messages().filter({ hasText: 'Real name' }).count()).toBe(0);
    await page.locator('#member-switch').selectOption({ index: 0 });
    await page.locator('#channels .channel', { hasText: 'general' }).click();
    await page.locator('#channel-name', { hasText: 'general' }).waitFor();
    expect(await messages().filter({ hasText: 'A flora colossus' }).count()).toBe(0);
  });

  it('gives another member their own ephemeral copy when they press a button, and only they see it', async () => {
    const board = await messageWith(/Page 2 of \d+/);
    const before = await deepText(board);
    await actAs('Sam');
    await board.locator('discord-button', { hasText: '»' }).click();
    const copy = await messageWith(/Page (\d+) of \1/);
    expect(await copy.getAttribute('class')).toMatch(/\bephemeral\b/);
    expect(await copy.locator('.ephemeral-note').textContent()).toBe('Only you can see this • Dismiss message');
    expect(await copy.locator('.command-header').textContent()).toBe('Sam used /leaderboard');
    expect(await deepText(board)).toBe(before); // Alex's message did not move
    await screenshot(page, 'ephemeral-copy');

    await actAs('Alex');
    expect(await copy.count()).toBe(0);
    expect(await board.count()).toBe(1);
  });

  it('runs /patch-notes and pages through the list', async () => {
    await type('/patch-notes');
    // Enter completed the command name; the second Enter sends it.
    expect(await page.locator('#command-input').inputValue()).toBe('/patch-notes ');
    await page.locator('#command-input').press('Enter');
    const list = await messageWith('Season 5 begins');
    expect(await deepText(list)).toContain('Patch notes');
    await list.locator('discord-button', { hasText: '›' }).click();
    await list.getByText(/Page 2 of \d+/).waitFor();
    expect(await deepText(list)).not.toContain('Season 5 begins');
    await screenshot(page, 'patch-notes');
  });

  it('shows a slow answer as "thinking", then the answer in its place', async () => {
    // The replica answers 2.5 s late, past the 1.5 s acknowledgement deadline, so the bot defers first
    // however fast or slow the machine is.
    const drawn = await recordDrawn();
    boot.services.replica!.setFaults({ latencyMs: 2_500 });
    try {
      await type('/hero name:Thor');
      await page.waitForFunction(`window.drawn.some((m) => m.state === 'thinking')`);
      await screenshot(page, 'thinking'); // usually still thinking; the assertions below do not depend on it
      const { id, thinking } = (await drawn()).find((m) => m.state === 'thinking')!;
      const message = page.locator(`#messages > discord-message[data-message-id="${id}"]`);
      // Discord's "<bot> is thinking..." in the acting member's language (English here).
      const bot = await message.evaluate((m) => (m as unknown as { author: string }).author);
      expect(thinking).toBe(`${pageMessages('en').discordThinking(bot)}...`);
      await message.getByText('Real name').waitFor({ timeout: 15_000 });
      expect(await deepText(message)).toContain('Thor');
      expect((await drawn()).filter((m) => m.id === id).map((m) => m.state)).toEqual(['thinking', 'done']);
    } finally {
      boot.services.replica!.setFaults({});
    }
  });

  it('shows errors as a member sees them', async () => {
    await type('/hero name:Zzyzx');
    const error = page.locator('#messages > discord-message.ephemeral', { hasText: 'No hero is called' }).last();
    await error.waitFor();
    expect(await error.locator('.ephemeral-note').textContent()).toBe('Only you can see this • Dismiss message');

    await type('/hero');
    await page.locator('#command-input').press('Enter');
    await page.locator('.composer-error', { hasText: 'The option “name” is required.' }).waitFor();
    await screenshot(page, 'errors');
  });

  it('lets the admin point a feed at #patch-notes, and a new patch note arrives there once', async () => {
    await actAs('Sam');
    await type('/con', false);
    expect((await page.locator('.picker-item .picker-label').allInnerTexts()).filter((l) => l.startsWith('/config'))).toEqual([]);

    await actAs('Alex');
    await type('/config feed type:Patch notes channel:#patch-notes');
    const confirmation = await messageWith('will be posted in');
    expect(await deepText(confirmation)).toContain('patch-notes');

    const title = 'Version 20261121 Patch Notes: playground test';
    await page.locator('#add-post').click();
    await page.locator('#post-dialog input[name=title]').fill(title);
    await page.locator('#post-submit').click();
    await page.locator('#channels .channel.unread', { hasText: 'patch-notes' }).waitFor();
    await page.locator('#channels .channel', { hasText: 'patch-notes' }).click();
    await messageWith(title);
    await screenshot(page, 'feed-post');

    await boot.playground.poller.pollNow();
    await boot.playground.poller.pollNow();
    expect(await messages().filter({ hasText: title }).count()).toBe(1);
  });

  it('edits a post at the API through the dialog, and the delivered message shows the change and "(edited)"', async () => {
    const title = 'Version 20261121 Patch Notes: playground test';
    const message = await messageWith(title);
    expect(await deepText(message)).not.toContain('(edited)');

    await page.locator('#edit-post').click();
    const dialog = page.locator('#edit-dialog');
    await dialog.locator('#edit-id option', { hasText: title }).waitFor({ state: 'attached' });
    // The newest post comes first and its current values fill the fields.
    expect(await dialog.locator('#edit-id').inputValue()).toBe(
      (await boot.services.api.patchNotes({ page: 1, limit: 10 }, { fresh: true })).data.entries[0]!.id,
    );
    expect(await dialog.locator('input[name=title]').inputValue()).toBe(title);
    expect(await dialog.locator('textarea[name=overview]').inputValue()).toBe('Balance changes for Vanguards and a new Domination map.');

    await dialog.locator('#edit-submit').click();
    await dialog.locator('#edit-error', { hasText: 'Nothing changed' }).waitFor();
    await dialog.locator('input[name=title]').fill(`${title} (corrected)`);
    await dialog.locator('textarea[name=overview]').fill('Balance changes for Vanguards and Duelists, and a new Domination map.');
    await screenshot(page, 'edit-post-dialog');
    await dialog.locator('#edit-submit').click();
    await dialog.waitFor({ state: 'hidden' });

    await message.getByText('Vanguards and Duelists').waitFor();
    const text = await deepText(message);
    expect(text).toContain(`${title} (corrected)`);
    expect(await message.locator('.edited-mark').textContent()).toBe('(edited)');
    // Corrected in place: still one message for the post, and the channel's other messages are not marked edited.
    expect(await messages().filter({ hasText: 'Vanguards and Duelists' }).count()).toBe(1);
    expect(await page.locator('#messages .edited-mark').count()).toBe(1);
    await message.scrollIntoViewIfNeeded();
    await screenshot(page, 'feed-post-edited');
  });

  it('draws a chart in its embed: /player rank history, then /compare', async () => {
    const name = (await boot.services.api.player(PLAYER)).data.name;
    const player = await sent(`/player query:${PLAYER}`);
    await player.getByText(name).first().waitFor();
    await player.getByText('Rank score').waitFor();
    await choose(player, 0, 'Seasons and rank history');
    await player.getByText('Ranked seasons').waitFor();
    // The embed's image is the attached chart, drawn from the message itself (a data: URL), and it loads.
    const size = async (message: Locator) =>
      message.locator('discord-embed').evaluate(async (embed) => {
        // Structural DOM types: the tests' TypeScript has no DOM library.
        type Img = { tagName: string; src: string; complete: boolean; naturalWidth: number; naturalHeight: number };
        type El = { tagName: string; shadowRoot: Root | null };
        type Root = { querySelectorAll(selector: string): ArrayLike<El> };
        const find = (root: Root): Img | null => {
          for (const el of Array.from(root.querySelectorAll('*'))) {
            const img = el as unknown as Img;
            if (el.tagName === 'IMG' && img.src.startsWith('data:image/png')) return img;
            const inner = el.shadowRoot && find(el.shadowRoot);
            if (inner) return inner;
          }
          return null;
        };
        const root = embed as unknown as El & Root;
        const look = () => (root.shadowRoot ? find(root.shadowRoot) : null) ?? find(root);
        const deadline = Date.now() + 10_000;
        let img = look();
        while ((!img || !img.complete || img.naturalWidth === 0) && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          img = look();
        }
        return img ? { width: img.naturalWidth, height: img.naturalHeight } : null;
      });
    expect(await size(player)).toEqual({ width: 800, height: 450 });
    await player.scrollIntoViewIfNeeded();
    await screenshot(page, 'player-rank-chart');
    await type(`/compare player:${PLAYER} other:1117455441`);
    const compared = await messageWith('Heroes both play');
    expect(await size(compared)).toEqual({ width: 800, height: 450 });
    await compared.scrollIntoViewIfNeeded();
    await screenshot(page, 'compare');
  });

  it('shows the profile card at a phone’s width: 800 × 450 drawn, shown within a 400 px wide window', async () => {
    const name = (await boot.services.api.player(PLAYER)).data.name;
    await page.setViewportSize({ width: 400, height: 860 });
    try {
      const player = await sent(`/player query:${PLAYER}`);
      await player.getByText(name).first().waitFor();
      await player.getByText('Rank score').waitFor();
      const shown = await player.locator('discord-embed').evaluate(async (embed) => {
        // Structural DOM types: the tests' TypeScript has no DOM library.
        type Box = { left: number; right: number; width: number };
        type Img = { tagName: string; src: string; complete: boolean; naturalWidth: number; naturalHeight: number; getBoundingClientRect(): Box };
        type El = { tagName: string; shadowRoot: Root | null };
        type Root = { querySelectorAll(selector: string): ArrayLike<El> };
        const find = (root: Root): Img | null => {
          for (const el of Array.from(root.querySelectorAll('*'))) {
            const img = el as unknown as Img;
            if (el.tagName === 'IMG' && img.src.startsWith('data:image/png')) return img;
            const inner = el.shadowRoot && find(el.shadowRoot);
            if (inner) return inner;
          }
          return null;
        };
        const root = embed as unknown as El & Root;
        const look = () => (root.shadowRoot ? find(root.shadowRoot) : null) ?? find(root);
        const deadline = Date.now() + 10_000;
        let img = look();
        while ((!img || !img.complete || img.naturalWidth === 0) && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          img = look();
        }
        if (!img) return null;
        const box = img.getBoundingClientRect();
        return { width: img.naturalWidth, height: img.naturalHeight, left: box.left, right: box.right, shownWidth: box.width };
      });
      expect(shown).not.toBeNull();
      expect({ width: shown!.width, height: shown!.height }).toEqual({ width: 800, height: 450 });
      expect(shown!.shownWidth).toBeGreaterThan(200);
      expect(shown!.right).toBeLessThanOrEqual(400);
      await player.scrollIntoViewIfNeeded();
      await screenshot(page, 'player-card-phone');
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });

  it('switches the acting member’s Discord language and the server’s: the page and the bot’s answers follow the member’s', async () => {
    const NATIVE_NAMES = ['English', 'Español', 'Português (Brasil)', 'Français', 'Deutsch', '日本語'];
    expect(await page.locator('#member-locale option').allInnerTexts()).toEqual(NATIVE_NAMES);
    expect(await page.locator('#guild-locale option').allInnerTexts()).toEqual(NATIVE_NAMES);
    expect(await page.locator('#guild-locale').inputValue()).toBe('en-US');
    const [en, fr] = [pageMessages('en'), pageMessages('fr')];
    const realName = (locale: 'en' | 'fr') => (readLocaleFile(locale, 'hero').overview as { realName: string }).realName;
    const placeholder = () => page.locator('#command-input').getAttribute('placeholder');

    await page.locator('#channels .channel', { hasText: 'general' }).click();
    await actAs('Sam');
    expect(await page.locator('#member-locale').inputValue()).toBe('en-US');
    expect(await placeholder()).toBe(en.playgroundPlaceholder('general'));
    await page.selectOption('#member-locale', { label: 'Français' });
    await page.locator('#me-role', { hasText: fr.frame('roleMember') }).waitFor();
    expect(await placeholder()).toBe(fr.playgroundPlaceholder('general'));
    expect(await page.locator('.sidebar [data-text=textChannels]').textContent()).toBe(fr.frame('textChannels'));
    expect(await page.locator('label[for=guild-locale]').textContent()).toBe(fr.frame('serverLanguage'));
    expect(await page.locator('#add-post').innerText()).toBe(fr.frame('addPost'));
    expect(await page.evaluate('document.documentElement.lang')).toBe('fr');

    // A slow answer (as in the "thinking" test), so that the page first shows Discord's "is thinking".
    const drawn = await recordDrawn();
    boot.services.replica!.setFaults({ latencyMs: 2_500 });
    let slow: Drawn;
    try {
      // Typed with the French names (the picker's), which reach the bot as the registered ones.
      await type('/héros nom:Storm');
      await page.waitForFunction(`window.drawn.some((m) => m.state === 'thinking')`);
      slow = (await drawn()).find((m) => m.state === 'thinking')!;
      await page.locator(`#messages > discord-message[data-message-id="${slow.id}"]`).getByText(realName('fr')).waitFor({ timeout: 15_000 });
    } finally {
      boot.services.replica!.setFaults({});
    }
    const answer = page.locator(`#messages > discord-message[data-message-id="${slow.id}"]`);
    expect(await deepText(answer)).toContain('Sam');
    expect(await deepText(answer)).not.toContain(realName('en'));
    // What Discord's own client writes is in French too: "is thinking", the date by the answer, "required"
    // in the picker, and the page's names for screen readers (the app tag of the member list reads "APP",
    // as the component's next to the bot's name does in every language).
    const bot = await answer.evaluate((m) => (m as unknown as { author: string }).author);
    expect(slow.thinking).toBe(`${fr.discordThinking(bot)}...`);
    expect(fr.discordThinking(bot)).not.toBe(en.discordThinking(bot));
    const answered = new Date((await bootstrap()).messages.find((m) => m.id === slow.id)!.createdAt);
    const timestamp = () => answer.evaluate((m) => (m as unknown as { timestamp: string }).timestamp);
    expect(await timestamp()).toBe(fr.discordDate(answered));
    const appTag = () => page.locator('#members .bot-tag').textContent();
    expect(await appTag()).toBe(fr.frame('appTag'));
    expect(await page.locator('nav.servers').getAttribute('aria-label')).toBe(fr.frame('servers'));
    expect(await page.locator('#command-input').getAttribute('aria-label')).toBe(fr.frame('commandInput'));
    // The topics the page writes for its own channels.
    expect(await page.locator('#channel-topic').textContent()).toBe(fr.channelTopic('general', ''));
    expect(fr.channelTopic('general', '')).not.toBe(en.channelTopic('general', ''));
    // The command bar names commands, options and choices as a French client does, from the names the
    // bot registers for French: `/héros nom:`, not `/hero name:`.
    const heroFr = localizeDefinition(
      (await bootstrap()).commands.find((c) => c.name === 'hero')!,
      'fr',
    );
    const nameFr = heroFr.options!.find((o) => o.key === 'name')!;
    expect([heroFr.name, nameFr.name]).toEqual(['héros', 'nom']);
    await type('/hé', false);
    const heroItem = page.locator('.picker-item', { hasText: `/${heroFr.name}` });
    expect(await heroItem.locator('.picker-detail').textContent()).toBe(heroFr.description);
    expect(heroFr.description).not.toBe((await bootstrap()).commands.find((c) => c.name === 'hero')!.description);
    expect(await page.locator('.picker-item', { hasText: '/hero' }).count()).toBe(0);
    await type(`/${heroFr.name} `, false);
    await screenshot(page, 'languages-picker-french');
    expect(
      await page
        .locator('.picker-item', { hasText: `${nameFr.name}:` })
        .locator('.picker-detail')
        .textContent(),
    ).toBe(fr.playgroundPickerRequired(nameFr.description));
    // What the client refuses itself is in French too, naming the option as the member sees it.
    await type(`/${heroFr.name}`);
    await page.locator('#command-input').press('Enter');
    const refusal = runInLocale('fr', () => t.playgroundMissingOption(nameFr.name));
    expect(refusal).not.toBe(t.playgroundMissingOption('name'));
    await page.locator('.composer > .composer-error', { hasText: refusal }).waitFor();
    await answer.scrollIntoViewIfNeeded();
    await screenshot(page, 'languages-member-french');

    // Each member has their own language: Alex is still in English, and Sam still in French.
    await actAs('Alex');
    await page.locator('#me-role', { hasText: en.frame('roleAdmin') }).waitFor();
    expect(await page.locator('#member-locale').inputValue()).toBe('en-US');
    expect(await placeholder()).toBe(en.playgroundPlaceholder('general'));
    // Discord's own texts follow Alex's language: the same answer is dated as in English.
    expect(await timestamp()).toBe(en.discordDate(answered));
    expect(await page.locator('#command-input').getAttribute('aria-label')).toBe(en.frame('commandInput'));
    expect(await page.locator('#channel-topic').textContent()).toBe(en.channelTopic('general', ''));
    await actAs('Sam');
    expect(await page.locator('#member-locale').inputValue()).toBe('fr');

    // The server's language is the guild's preferred_locale the bot reads.
    await page.selectOption('#guild-locale', { label: 'Deutsch' });
    await expect.poll(() => boot.playground.locales.guild).toBe('de');
    await screenshot(page, 'languages-server-german');

    // Both last across a reload (the playground keeps them while it runs).
    await page.reload();
    await page.locator('#channels .channel', { hasText: 'general' }).waitFor();
    expect(await page.locator('#guild-locale').inputValue()).toBe('de');
    await actAs('Sam');
    expect(await page.locator('#member-locale').inputValue()).toBe('fr');
    expect(await placeholder()).toBe(fr.playgroundPlaceholder('general'));

    await page.selectOption('#member-locale', { label: 'English' });
    await page.locator('#me-role', { hasText: en.frame('roleMember') }).waitFor();
    await page.selectOption('#guild-locale', { label: 'English' });
    await expect.poll(() => boot.playground.locales.guild).toBe('en-US');
    await actAs('Alex');
  });

  it('writes “used /command”, “Only you can see this • Dismiss message” and “(edited)” in the acting member’s language', async () => {
    await page.locator('#channels .channel', { hasText: 'general' }).click();
    await actAs('Sam');
    for (const [label, locale] of [
      ['Français', 'fr'],
      ['English', 'en'],
    ] as const) {
      const texts = pageMessages(locale);
      await page.selectOption('#member-locale', { label });
      await page.locator('#me-role', { hasText: texts.frame('roleMember') }).waitFor();
      await page.locator('#channels .channel', { hasText: 'general' }).click();

      // A private answer (the bot's refusal of an unknown hero), under its header.
      const answer = await sent('/hero name:Zzyzx');
      await answer.getByText('Zzyzx').waitFor();
      const header = answer.locator('.command-header');
      const shown = (await bootstrap()).commands.map((c) => localizeDefinition(c, locale));
      expect(await header.textContent(), locale).toBe(texts.discordUsed('Sam', commandLabel('/hero', shown, 'slash')).join(''));
      expect(await header.locator('img.command-avatar + .command-user').textContent()).toBe('Sam');
      const note = answer.locator('.ephemeral-note');
      expect(await note.textContent(), locale).toBe(`${texts.discordOnlyYou()} • ${texts.discordDismissMessage()}`);
      // The component draws none of its own English: the message is not `ephemeral` to it, only to the page's style.
      expect(await answer.getAttribute('ephemeral')).toBeNull();
      expect(await answer.getAttribute('class')).toMatch(/\bephemeral\b/);
      if (locale === 'fr') {
        expect(await header.textContent()).toBe('Sam a utilisé /héros');
        expect(await note.textContent()).toBe('Vous seul(e) pouvez voir ceci • Ignorer le message');
        expect(await deepText(answer)).not.toMatch(/ used |Only you can see this|Dismiss message/);
        await answer.scrollIntoViewIfNeeded();
        await screenshot(page, 'languages-ephemeral-french');
      }
      const others = await messages().count();
      await note.locator('.ephemeral-dismiss', { hasText: texts.discordDismissMessage() }).click();
      await answer.waitFor({ state: 'detached' });
      expect(await messages().count()).toBe(others - 1);

      // The feed post the bot corrected (the test above), marked as edited.
      await page.locator('#channels .channel', { hasText: 'patch-notes' }).click();
      const corrected = await messageWith('Vanguards and Duelists');
      expect(await corrected.locator('.edited-mark').textContent(), locale).toBe(texts.discordEdited());
      if (locale === 'fr') {
        expect(await corrected.locator('.edited-mark').textContent()).toBe('(modifié)');
        expect(await deepText(corrected)).not.toContain('(edited)');
        await corrected.scrollIntoViewIfNeeded();
        await screenshot(page, 'languages-edited-french');
      }
    }
    await page.locator('#channels .channel', { hasText: 'general' }).click();
    await actAs('Alex');
  });

  it('asked for nothing beyond the playground itself, and threw no error', () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((u) => !u.startsWith(`${boot.playground.url}/`) && !u.startsWith('data:'))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
