/**
 * Snapshots of three answers in every locale of src/i18n `LOCALES`, so that a reviewer can
 * read each language's answer as Discord receives it: the `/hero` answer (Hulk, overview), the
 * `/player` answer (the replica's sample player Double C, profile) and one feed post (the replica's
 * newest patch note, as src/feeds/poller.ts `fetchFeed` reads it, rendered by src/feeds/render.ts
 * `feedPostView` inside `runInLocale`, as the poller does per server). Each is the message payload
 * (src/render/view.ts `toMessagePayload`) as JSON in `__snapshots__/<answer>.<locale>.json`; a chart
 * file, if an answer had one, would show its name and alt text but not its bytes (the chart renderer is
 * a stub here: charts have their own tests).
 *
 * Deterministic: the bot's and the replica's clocks are fixed, the replica's data is its fixed
 * dataset, and nothing random reaches the payloads. Each answer is also checked within Discord's
 * limits with nothing cut when sent (test/helpers/limits.ts), and, but in English, to differ from the
 * English answer. Update with `npx vitest run test/i18n/snapshots.test.ts -u`, then read the diff.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/discord/command.js';
import { fetchFeed } from '../../src/feeds/read.js';
import { feedPostView } from '../../src/feeds/render.js';
import { DISCORD_LOCALES, LOCALES, runInLocale, type Locale } from '../../src/i18n/index.js';
import { toMessagePayload, type View } from '../../src/render/view.js';
import type { Replica } from '../../src/replica/server.js';
import { bot, MEMBER } from '../helpers/bot.js';
import { expectFitsUncut, messageTexts } from '../helpers/limits.js';
import { replica } from '../helpers/replica.js';

/** The fixed clock of the bot and the replica: 15 January 2026, 12:00 UTC. */
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
/** Double C, a sample player of the replica's dataset (test/i18n/views-player.test.ts). */
const DOUBLE_C = '1786151874';
/** The bytes the stub chart renderer answers: a PNG signature. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let r: Replica;
let b: ReturnType<typeof bot>;
let ctx: CommandContext;
beforeAll(async () => {
  r = await replica({ now: () => NOW });
  b = bot(r);
  b.clock.now = NOW;
  ctx = { ...b.ctx, charts: { threads: 0, close: async () => {}, render: async () => PNG } };
});
afterAll(async () => {
  await b.close();
  await r.close();
});

/** A member whose Discord client speaks `locale` (its first Discord locale code, `en-US` for `en`): the router answers in it. */
const member = (locale: Locale) => ({ ...MEMBER, locale: DISCORD_LOCALES[locale][0]! });

/** The payload of `view` as readable JSON: files (chart PNGs) as their name, type and alt text, without their bytes. */
function payloadJson(view: View): string {
  const { files, ...payload } = toMessagePayload(view);
  const shown = files
    ? { ...payload, files: files.map((f) => ({ name: f.name, contentType: f.contentType, description: f.description, data: `<${f.data.byteLength} bytes>` })) }
    : payload;
  return `${JSON.stringify(shown, null, 2)}\n`;
}

/** The three answers, by name, as the member speaking `locale` gets them. */
async function answers(locale: Locale): Promise<Record<'hero' | 'player' | 'feed-post', View>> {
  const hero = await b.router.command('hero', { options: { name: 'hulk' }, user: member(locale) }, ctx);
  const player = await b.router.command('player', { options: { query: DOUBLE_C }, user: member(locale) }, ctx);
  const [newest] = await fetchFeed(ctx.api, 'patchNotes');
  const post = runInLocale(locale, () => feedPostView('patchNotes', newest!.post, null));
  return { hero, player, 'feed-post': post };
}

describe('snapshots of /hero, /player and a feed post in every locale', () => {
  for (const locale of LOCALES) {
    it(`${locale}: as Discord receives them`, async () => {
      const english = locale === 'en' ? undefined : await answers('en');
      for (const [name, view] of Object.entries(await answers(locale))) {
        expect(view.isError, `${name} in ${locale}: ${JSON.stringify(view)}`).toBeFalsy();
        expectFitsUncut(view, `${name} in ${locale}`);
        if (english) expect(messageTexts(view), `${name} in ${locale} is the English answer`).not.toEqual(messageTexts(english[name as keyof typeof english]));
        await expect(payloadJson(view)).toMatchFileSnapshot(`./__snapshots__/${name}.${locale}.json`);
      }
    });
  }
});
