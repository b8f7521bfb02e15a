/**
 * The application's emojis for rank tiers, roles and heroes (Discord: "Emoji Resource", List/Create/Delete Application
 * Emoji under `/applications/{id}/emojis`): `npm run deploy` keeps them in step with the API's icons, the bot reads them
 * at start. Names and lookups: src/render/emojis.ts.
 */
import { createHash } from 'node:crypto';
import type { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import type { Hero } from '../api/schemas.js';
import type { ImageResolver } from '../api/images.js';
import type { ImageSource } from '../api/image-store.js';
import { EMOJI_MAX_BYTES, emojiFromIcon, roleEmoji } from '../charts/emoji-art.js';
import { ROLE_ORDER } from '../charts/theme.js';
import { TIER_NAMES } from '../game/ranks.js';
import { emojiName, emojiSlug, parseEmojiName, setAppEmojis, type AppEmoji, type EmojiKind } from '../render/emojis.js';

/** One emoji to have: what it stands for and where its image comes from. */
export interface EmojiSource {
  kind: EmojiKind;
  /** What it stands for, in English as answers name it: "Gold", "Vanguard", "hulk". */
  label: string;
  /** The image as PNG bytes; null (or a rejection) when it cannot be had now, and an emoji uploaded before is kept. */
  image(): Promise<Uint8Array | null>;
}

/** What one sync did, by emoji name (`missing`: by label). */
export interface EmojiSyncResult {
  /** Already uploaded with the same image. */
  kept: number;
  uploaded: string[];
  /** Uploaded in place of an older image of the same thing, the old one then deleted. */
  replaced: string[];
  /** This bot's emojis for things no longer in the sources (only after a complete list of sources). */
  removed: string[];
  /** Sources whose image could not be had; an emoji uploaded before for them is kept. */
  missing: string[];
  /** Uploads or deletions Discord refused, with its message. */
  failed: { name: string; message: string }[];
}

export interface EmojiSyncOptions {
  rest: Pick<REST, 'get' | 'post' | 'delete'>;
  applicationId: string;
  sources: readonly EmojiSource[];
  /** The sources name every tier, role and hero there is (the hero list was read): this bot's emojis for anything else are deleted. */
  complete: boolean;
  /** Images read at once. Default 8. */
  concurrency?: number;
}

/** The application's emojis (Discord: "List Application Emojis", `{ items }`). @throws the REST error when Discord does not answer. */
export async function listAppEmojis(rest: Pick<REST, 'get'>, applicationId: string): Promise<AppEmoji[]> {
  const answer = (await rest.get(Routes.applicationEmojis(applicationId))) as { items?: unknown } | null;
  const items = Array.isArray(answer?.items) ? (answer.items as Partial<AppEmoji>[]) : [];
  return items.filter((e): e is AppEmoji => typeof e?.id === 'string' && typeof e.name === 'string');
}

/** Reads the application's emojis into the answers' lookups (src/render/emojis.ts); returns how many are this bot's. @throws the REST error. */
export async function loadAppEmojis(rest: Pick<REST, 'get'>, applicationId: string): Promise<number> {
  return setAppEmojis(await listAppEmojis(rest, applicationId));
}

const hashOf = (png: Uint8Array) => createHash('sha256').update(png).digest('hex');

/**
 * Brings the application's emojis in step with `sources`: uploads what is new or changed (the name carries the image's
 * hash), deletes what a new image replaced, and, when `complete`, this bot's emojis for what the sources no longer name.
 * Emojis whose names this bot did not give are never touched. Uploads go one at a time; @discordjs/rest waits out 429s.
 * @throws the REST error when the list cannot be read; a refused upload or deletion is reported in `failed` instead.
 */
export async function syncEmojis(o: EmojiSyncOptions): Promise<EmojiSyncResult> {
  const result: EmojiSyncResult = { kept: 0, uploaded: [], replaced: [], removed: [], missing: [], failed: [] };
  const ours = new Map<string, AppEmoji[]>();
  for (const e of await listAppEmojis(o.rest, o.applicationId)) {
    const parts = parseEmojiName(e.name);
    if (!parts) continue;
    const key = `${parts.kind}:${parts.slug}`;
    ours.set(key, [...(ours.get(key) ?? []), e]);
  }
  const wanted = new Map<string, { source: EmojiSource; slug: string }>();
  for (const source of o.sources) {
    const slug = emojiSlug(source.kind, source.label);
    if (slug.length >= 2) wanted.set(`${source.kind}:${slug}`, { source, slug });
  }
  const images = await readImages(
    [...wanted.values()].map((w) => w.source),
    o.concurrency ?? 8,
  );

  const remove = async (e: AppEmoji, into: string[]) => {
    try {
      await o.rest.delete(Routes.applicationEmoji(o.applicationId, e.id));
      into.push(e.name);
    } catch (err) {
      result.failed.push({ name: e.name, message: (err as Error).message });
    }
  };
  for (const [key, { source, slug }] of wanted) {
    const had = ours.get(key) ?? [];
    const png = images.get(source) ?? null;
    if (!png || png.byteLength > EMOJI_MAX_BYTES) {
      result.missing.push(source.label);
      continue;
    }
    const name = emojiName(source.kind, slug, hashOf(png));
    const same = had.find((e) => e.name === name);
    if (!same) {
      try {
        await o.rest.post(Routes.applicationEmojis(o.applicationId), {
          body: { name, image: `data:image/png;base64,${Buffer.from(png).toString('base64')}` },
        });
      } catch (err) {
        result.failed.push({ name, message: (err as Error).message });
        continue;
      }
      (had.length > 0 ? result.replaced : result.uploaded).push(name);
    } else result.kept++;
    // The older images of the same thing go once the current one is there, so answers never lack it.
    for (const old of had) if (old !== same) await remove(old, []);
  }
  if (o.complete) {
    for (const [key, list] of ours) if (!wanted.has(key)) for (const e of list) await remove(e, result.removed);
  }
  return result;
}

/** Each source's image, at most `concurrency` read at once; a failure is null. */
async function readImages(sources: readonly EmojiSource[], concurrency: number): Promise<Map<EmojiSource, Uint8Array | null>> {
  const out = new Map<EmojiSource, Uint8Array | null>();
  let next = 0;
  const worker = async () => {
    while (next < sources.length) {
      const source = sources[next++]!;
      out.set(source, await source.image().catch(() => null));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, sources.length) }, worker));
  return out;
}

/** The game's rank badge paths (real data: `player.rank.image` is "/ranked/grandmaster.png"), by tier. */
export function tierIconPath(tier: string): string {
  return `/ranked/${tier.toLowerCase().replace(/\s+/g, '-')}.png`;
}

/**
 * Every emoji the answers use: each tier's rank badge, each role's drawn badge, and each hero's head icon (its first
 * transformation's, else its card image), the API's images read through `images` and fitted by src/charts/emoji-art.ts.
 */
export function emojiSources(heroes: readonly Pick<Hero, 'name' | 'image' | 'transformations'>[], resolve: ImageResolver, images: ImageSource): EmojiSource[] {
  const fromIcon = (url: string | null) => async () => {
    const bytes = url ? await images.get(url) : null;
    return bytes ? emojiFromIcon(bytes) : null;
  };
  return [
    ...TIER_NAMES.map((tier) => ({ kind: 'tier' as const, label: tier, image: fromIcon(resolve(tierIconPath(tier))) })),
    ...ROLE_ORDER.map((role) => ({ kind: 'role' as const, label: role, image: () => roleEmoji(role) })),
    ...heroes.map((h) => ({
      kind: 'hero' as const,
      label: h.name,
      image: fromIcon(h.transformations.find((t) => t.icon)?.icon ?? h.image ?? null),
    })),
  ];
}
