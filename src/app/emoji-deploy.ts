/** `npm run deploy`'s second step: the application's emojis in step with the API's icons (src/discord/application-emojis.ts). */
import { REST } from '@discordjs/rest';
import { RivalsApi } from '../api/client.js';
import { createImageResolver } from '../api/images.js';
import { ImageStore } from '../api/image-store.js';
import type { Hero } from '../api/schemas.js';
import type { Logger } from '../core/logger.js';
import { emojiSources, syncEmojis, type EmojiSyncResult } from '../discord/application-emojis.js';
import type { Config } from './config.js';

export interface EmojiDeploy extends EmojiSyncResult {
  /** Why the hero list could not be read (no hero emojis changed, none removed); absent when it was. */
  heroesError?: string;
}

/**
 * Uploads what is new or changed among the tier, role and hero emojis and deletes what is gone. The hero list comes
 * from the API (`RIVALS_API_KEY`), or offline from the replica; icons from `RIVALS_IMAGE_BASE_URL`.
 * @throws the REST error when Discord refuses to list the application's emojis (e.g. a bad token).
 */
export async function deployEmojis(config: Config, logger: Logger): Promise<EmojiDeploy> {
  const { token, clientId, apiUrl } = config.discord;
  const replica = config.rivals.apiKey
    ? undefined
    : await (await import('../replica/server.js')).startReplica({ logger: logger.child({ component: 'replica' }) });
  const api = new RivalsApi({
    baseUrl: replica?.url ?? config.rivals.baseUrl,
    apiKey: replica?.apiKey ?? config.rivals.apiKey,
    imageBaseUrl: config.rivals.imageBaseUrl,
    timeoutMs: config.rivals.timeoutMs,
    logger: logger.child({ component: 'api' }),
  });
  try {
    let heroes: Hero[] = [];
    let heroesError: string | undefined;
    try {
      heroes = (await api.heroes()).data;
    } catch (err) {
      heroesError = (err as Error).message;
    }
    const images = new ImageStore({ dir: null, maxDiskBytes: 0, logger: logger.child({ component: 'images' }) });
    const result = await syncEmojis({
      rest: new REST({ api: apiUrl }).setToken(token!),
      applicationId: clientId!,
      sources: emojiSources(heroes, createImageResolver(config.rivals.imageBaseUrl), images),
      complete: heroesError === undefined && heroes.length > 0,
    });
    return { ...result, ...(heroesError ? { heroesError } : {}) };
  } finally {
    await api.close();
    await replica?.close();
  }
}

/** The lines `npm run deploy` prints for a sync. */
export function emojiReport(r: EmojiDeploy): string[] {
  const lines = [`deploy: emojis: ${r.uploaded.length} uploaded, ${r.replaced.length} replaced, ${r.kept} unchanged, ${r.removed.length} removed`];
  if (r.heroesError) lines.push(`deploy: emojis: the hero list could not be read (${r.heroesError}): hero emojis were left as they were`);
  if (r.missing.length > 0) {
    const some = r.missing.slice(0, 5).join(', ') + (r.missing.length > 5 ? `, and ${r.missing.length - 5} more` : '');
    lines.push(`deploy: emojis: no icon could be read for ${some}: answers name those as text until a deploy reads them`);
  }
  for (const f of r.failed) lines.push(`deploy: emojis: Discord refused ${f.name}: ${f.message}`);
  return lines;
}
