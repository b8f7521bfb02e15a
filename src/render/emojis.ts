/**
 * The application's own emojis (Discord: "Emoji Resource", application emojis) for rank tiers, roles and heroes, as
 * answers write them. `npm run deploy` uploads them (src/discord/application-emojis.ts); the bot reads their ids at start. Where
 * none are known (the playground, the CLI, a failed upload) every lookup is empty and answers read as text alone.
 *
 * An emoji's name is `<kind>_<slug>_<hash>`: readable where Discord shows it (`:hero_hulk_3fa1c2:`), and the hash of its
 * source image lets a deploy tell a changed icon from a kept one without a record of its own.
 */
import { TIER_NAMES } from '../game/ranks.js';

export type EmojiKind = 'tier' | 'role' | 'hero';

/** An application emoji as Discord lists it: `id` a snowflake, `name` 2 to 32 of `[A-Za-z0-9_]`. */
export interface AppEmoji {
  id: string;
  name: string;
  animated?: boolean;
}

/** Discord's bound on an emoji's name, characters. */
export const EMOJI_NAME_MAX = 32;
/** Hex digits of the source hash in a name. */
export const EMOJI_HASH_LENGTH = 6;
const NAME = /^(tier|role|hero)_([a-z0-9]+(?:_[a-z0-9]+)*)_([0-9a-f]{6})$/;

/** `text` as a name part: ASCII letters and digits in lower case, words joined by `_`, cut to fit a name of `kind`. */
export function emojiSlug(kind: EmojiKind, text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '' && w !== 'and');
  const room = EMOJI_NAME_MAX - kind.length - EMOJI_HASH_LENGTH - 2;
  return words.join('_').slice(0, room).replace(/_+$/, '');
}

/** The emoji name for `slug` of `kind` from a source whose hash starts with `hash`. */
export function emojiName(kind: EmojiKind, slug: string, hash: string): string {
  return `${kind}_${slug}_${hash.slice(0, EMOJI_HASH_LENGTH).toLowerCase()}`;
}

/** The parts of a name this bot gave; null for any other emoji of the application (the owner's own are left alone). */
export function parseEmojiName(name: string): { kind: EmojiKind; slug: string; hash: string } | null {
  const m = NAME.exec(name);
  return m ? { kind: m[1] as EmojiKind, slug: m[2]!, hash: m[3]! } : null;
}

const known = new Map<string, AppEmoji>();

/** Replaces the known emojis with this bot's among `emojis` (others ignored); returns how many are known. */
export function setAppEmojis(emojis: readonly AppEmoji[]): number {
  known.clear();
  for (const e of emojis) {
    const parts = parseEmojiName(e.name);
    if (parts && /^\d{1,20}$/.test(e.id)) known.set(`${parts.kind}:${parts.slug}`, e);
  }
  return known.size;
}

/** The tier part of a rank label ("Gold II" → "Gold"); null when it names no tier. */
function tierOfLabel(label: string): string | null {
  return TIER_NAMES.find((t) => label === t || label.startsWith(`${t} `)) ?? null;
}

function find(kind: EmojiKind, name: string | null | undefined): AppEmoji | undefined {
  if (!name || known.size === 0) return undefined;
  const key = kind === 'tier' ? tierOfLabel(name.trim()) : name;
  return key ? known.get(`${kind}:${emojiSlug(kind, key)}`) : undefined;
}

/**
 * The emoji's markup and a space, to go before the name it stands for: `<:hero_hulk_3fa1c2:123> `; '' when there is none.
 * `name`: a tier or rank label in English ("Gold II"), a role ("Vanguard"), a hero's name as the API or players spell it.
 */
export function emojiBefore(kind: EmojiKind, name: string | null | undefined): string {
  const e = find(kind, name);
  return e ? `<${e.animated ? 'a' : ''}:${e.name}:${e.id}> ` : '';
}

/** The emoji as a component takes it (a select menu option, a button); undefined when there is none. */
export function componentEmoji(kind: EmojiKind, name: string | null | undefined): { id: string; name: string; animated?: boolean } | undefined {
  const e = find(kind, name);
  return e ? { id: e.id, name: e.name, ...(e.animated ? { animated: true } : {}) } : undefined;
}
