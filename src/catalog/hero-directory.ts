/** Hero lookup by id, by folded name, and fuzzily (fuse.js) for autocomplete and "did you mean", over the cached hero list. */
import Fuse from 'fuse.js';
import type { CallOptions, RivalsApi } from '../api/client.js';
import type { Hero } from '../api/schemas.js';
import { UnknownHeroError } from '../core/errors.js';
import { heroDisplayName } from '../i18n/names.js';
import { foldName } from '../game/fold.js';
import { tr } from '../i18n/index.js';
import { emojiBefore } from '../render/emojis.js';
import type { HeroNamer } from '../render/scoreboard.js';

/** A name as the API spells it and with "&" and "and" swapped, each once: members write either. */
function spellings(name: string): string[] {
  return [...new Set([name, name.replace(/\s*&\s*/g, ' and '), name.replace(/\s+and\s+/gi, ' & ')])];
}

/** An autocomplete choice: the display name, the hero id as the value. */
export interface HeroChoice {
  name: string;
  value: string;
}

interface FuzzyIndex {
  fuse: Fuse<Hero>;
  byName: Fuse<Hero>;
}

interface HeroIndex {
  fetchedAt: number;
  heroes: Hero[];
  fuzzy?: FuzzyIndex;
}

/** Heroes by id, name and fuzzy match over the hero list (api-spec.md endpoint 1); the fuzzy index follows the cached list's `fetchedAt`. */
export class HeroDirectory {
  readonly #api: RivalsApi;
  #index?: HeroIndex;

  constructor(api: RivalsApi) {
    this.#api = api;
  }

  /** All heroes, sorted by name; `options` go to the API call (a stopping job need not wait its turn). @throws {ApiError}, or the abort's reason. */
  async list(options?: CallOptions): Promise<Hero[]> {
    return (await this.#load(options)).heroes;
  }

  /** Display names by id; empty when the hero list cannot be had now, so callers fall back to ids. */
  async displayNames(options?: CallOptions): Promise<Map<string, string>> {
    try {
      return new Map((await this.list(options)).map((h) => [h.id, heroDisplayName(h)]));
    } catch {
      return new Map();
    }
  }

  /** The hero meant by `query`: an id, a folded name, or one clear fuzzy match. @throws {UnknownHeroError} with up to three suggestions. */
  async resolve(query: string): Promise<Hero> {
    const index = await this.#load();
    const { heroes } = index;
    const q = query.trim();
    const exact = heroes.find((h) => h.id === q || foldName(h.name) === foldName(q) || (h.real_name && foldName(h.real_name) === foldName(q)));
    if (exact) return exact;
    const { fuse, byName } = this.#fuzzy(index);
    // One clear match on the name (a typo): a good score (0 is exact, 1 none) well ahead of the next.
    const byNameResults = byName.search(q, { limit: 2 });
    const best = byNameResults[0];
    const second = byNameResults[1];
    if (best && (best.score ?? 1) <= 0.3 && (!second || (second.score ?? 1) - (best.score ?? 1) >= 0.15)) return best.item;
    throw new UnknownHeroError(
      q,
      fuse.search(q, { limit: 3 }).map((r) => heroDisplayName(r.item)),
    );
  }

  /** Up to `limit` choices for autocomplete: all heroes by name for an empty query, else fuzzy matches. */
  async suggest(query: string, limit = 25): Promise<HeroChoice[]> {
    const index = await this.#load();
    const q = query.trim();
    const found =
      q === ''
        ? index.heroes
        : this.#fuzzy(index)
            .fuse.search(q, { limit })
            .map((r) => r.item);
    return found.slice(0, limit).map((h) => ({ name: heroDisplayName(h), value: h.id }));
  }

  async #load(options?: CallOptions) {
    const fetched = await this.#api.heroes(options);
    if (this.#index?.fetchedAt !== fetched.fetchedAt) {
      this.#index = { fetchedAt: fetched.fetchedAt, heroes: [...fetched.data].sort((a, b) => a.name.localeCompare(b.name)) };
    }
    return this.#index;
  }

  /** Built on a list's first search, so a view that only names heroes does not wait for it. */
  #fuzzy(index: HeroIndex): FuzzyIndex {
    index.fuzzy ??= {
      fuse: new Fuse(index.heroes, {
        keys: [
          { name: 'name', weight: 3, getFn: (h) => spellings(h.name) },
          { name: 'real_name', weight: 1, getFn: (h) => (h.real_name ? spellings(h.real_name) : []) },
          { name: 'id', weight: 1 },
        ],
        includeScore: true,
        threshold: 0.45,
        ignoreLocation: true,
      }),
      byName: new Fuse(index.heroes, { keys: [{ name: 'name', getFn: (h) => spellings(h.name) }], includeScore: true, threshold: 0.45, ignoreLocation: true }),
    };
    return index.fuzzy;
  }
}

/** A hero's name by id from the hero list, in the member's language; its id when the list does not have it. */
export function heroNamer(heroes: Hero[]): HeroNamer {
  const byId = new Map(heroes.map((h) => [h.id, h]));
  const name = (id: string | null) => {
    const hero = id ? byId.get(id) : undefined;
    return hero ? heroDisplayName(hero) : id ? tr('match:heroId', { id }) : tr('match:noHero');
  };
  return Object.assign(name, { emoji: (id: string | null) => emojiBefore('hero', id ? byId.get(id)?.name : null) });
}
