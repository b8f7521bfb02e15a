// The one place answers name a hero and give its role, so no hero has a role in one answer and "Unknown role" in another.
import type { Hero, PlayerProfile } from '../api/schemas.js';
import { heroDisplayName, heroName } from '../i18n/names.js';
import { emojiBefore } from './emojis.js';

export interface HeroLabel {
  name: string;
  /** The API's role ("Duelist"); null when nothing says. */
  role: string | null;
  /** The hero's application emoji and a space, to go before its name; '' without one (src/render/emojis.ts). */
  emoji: string;
}

/** A hero by id: the hero list first, then the profiles' matchups; undefined for an id nothing names. */
export type HeroLookup = (id: string | null) => HeroLabel | undefined;

/** A {@link HeroLookup} over `heroes` (possibly empty) and what `profiles` say of heroes it lacks. */
export function heroLookup(heroes: readonly Hero[], profiles: readonly Pick<PlayerProfile, 'hero_matchups'>[]): HeroLookup {
  const byId = new Map<string, HeroLabel>(heroes.map((h) => [h.id, { name: heroDisplayName(h), role: h.role, emoji: emojiBefore('hero', h.name) }]));
  for (const p of profiles) {
    for (const m of p.hero_matchups) {
      if (!m.hero_id || !m.hero_name) continue;
      const known = byId.get(m.hero_id);
      if (!known) byId.set(m.hero_id, { name: heroName(m.hero_name) ?? m.hero_name, role: m.hero_class, emoji: emojiBefore('hero', m.hero_name) });
      else if (known.role === null && m.hero_class) byId.set(m.hero_id, { ...known, role: m.hero_class });
    }
  }
  return (id) => (id === null ? undefined : byId.get(id));
}
