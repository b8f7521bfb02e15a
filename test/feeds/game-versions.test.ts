/**
 * Game-version feed posts in the reader's language (src/feeds/render.ts `feedPostText`): the title and
 * text are the bot's words, rendered when the message is, while the poller's read of a version (its
 * stored title and overview, and the content hash that decides corrections) stays what it always was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RivalsApi } from '../../src/api/client.js';
import { digestView } from '../../src/feeds/digest.js';
import { fetchFeed } from '../../src/feeds/read.js';
import { feedPostView, type FeedPost } from '../../src/feeds/render.js';
import { LOCALES, runInLocale, trIn } from '../../src/i18n/index.js';
import type { Replica } from '../../src/replica/server.js';
import { clientFor, replica } from '../helpers/replica.js';

let r: Replica;
let api: RivalsApi;
beforeAll(async () => {
  r = await replica();
  api = clientFor(r);
});
afterAll(async () => {
  await api.close();
  await r.close();
});

/** A game version as the poller reads and stores it. */
const version: FeedPost = { id: '20251113', title: 'Game version 20251113', date: 'November 13, 2025', overview: 'Released November 13, 2025.', image: null };

describe('game-version feed posts', () => {
  it('the poller reads a version as before: same stored title and overview, same content hash (no edit after the upgrade)', async () => {
    const [newest] = await fetchFeed(api, 'gameVersions');
    expect(newest!.post).toEqual(version);
    // The hash every delivered game-version post was stored with before languages reached these posts.
    expect(newest!.hash).toBe('6c53710110c2b3982c83b93e8a933d75d4cae4f5addbe1f6d5c8c301197e2fdf');
  });

  it('a feed message shows the title and release date in the server’s language', () => {
    const fr = runInLocale('fr', () => feedPostView('gameVersions', version, null)).embeds![0]!;
    expect(fr.title).toBe('Version du jeu 20251113');
    expect(fr.description).toBe('Sortie le 13 novembre 2025.');
    const ja = runInLocale('ja', () => feedPostView('gameVersions', version, null)).embeds![0]!;
    expect(ja.title).toBe('ゲームバージョン20251113');
    expect(ja.description).toBe('2025年11月13日リリース。');
    const en = feedPostView('gameVersions', version, null).embeds![0]!;
    expect(en.title).toBe('Game version 20251113');
    expect(en.description).toBe('Released November 13, 2025.');
    // The embed's timestamp is the release day, read from the API's English date.
    expect([en.timestamp, fr.timestamp]).toEqual(['2025-11-13T00:00:00.000Z', '2025-11-13T00:00:00.000Z']);
    // A date it cannot read gives no timestamp rather than a wrong one.
    expect(feedPostView('gameVersions', { ...version, date: 'soon' }, null).embeds![0]!.timestamp).toBeUndefined();
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      const embed = runInLocale(locale, () => feedPostView('gameVersions', version, null)).embeds![0]!;
      expect(embed.title, locale).toBe(trIn(locale, 'feeds:gameVersion.title', { version: '20251113' }));
      expect(embed.description, locale).not.toMatch(/Released|November 13|Game version/);
    }
  });

  it('a digest of versions: field names, dates and menu options in the server’s language', () => {
    const older: FeedPost = { ...version, id: '20251016', title: 'Game version 20251016', date: 'October 16, 2025', overview: 'Released October 16, 2025.' };
    const view = runInLocale('de', () => digestView('gameVersions', { every: 'daily', at: 18 * 60 }, 'Europe/Berlin', [older, version], null));
    const embed = view.embeds![0]!;
    expect(embed.fields!.map((f) => f.name)).toEqual(['Spielversion 20251016', 'Spielversion 20251113']);
    expect(embed.fields![1]!.value).toBe('*13\\.11.2025* · Veröffentlicht am 13. November 2025.');
    const menu = view.components![0]!.components[0] as { options: { label: string; value: string; description?: string }[] };
    expect(menu.options).toEqual([
      { label: 'Spielversion 20251016', value: '20251016', description: '16.10.2025' },
      { label: 'Spielversion 20251113', value: '20251113', description: '13.11.2025' },
    ]);
  });
});
