/**
 * What a server's public page shows: its ladder (place, game name, tier, rank score, the week's change), its top heroes and
 * its duos from the members' recorded matches. Game names only: no Discord id or name is read into it. The ladder's own
 * listing decides who is on it, so a member who left the ladder or deleted their data is not.
 */
import { duosOf } from '../game/duos.js';
import { rankScore, rankScoreChange } from '../game/ranks.js';
import { RECENT_MS, serverMeta } from '../game/server-meta.js';
import type { HeroDirectory } from '../catalog/hero-directory.js';
import { integer, ratioPercent } from '../i18n/format.js';
import { heroDisplayName, tierName } from '../i18n/names.js';
import { tr } from '../i18n/index.js';
import type { LadderRepository } from '../store/ladder/index.js';
import { periodStart, type ServerMatchesRepository } from '../store/server-matches.js';

/** Members a page of the public ladder lists. */
export const PUBLIC_PAGE_SIZE = 50;
/** Heroes and duos the page shows. */
const TOP_HEROES = 10;
const TOP_DUOS = 5;

/** Where the public page reads from: the same store /ladder, `/meta scope:server` and `/ladder duos` read. */
export interface PublicSources {
  ladder: Pick<LadderRepository, 'enabled' | 'page' | 'shownMembersByUid'>;
  serverMatches?: Pick<ServerMatchesRepository, 'heroCounts' | 'pairCounts' | 'resultCounts' | 'members'>;
  heroes: Pick<HeroDirectory, 'list'>;
}

/** The page's content, its texts in the current locale. */
export interface PublicContent {
  ladderOn: boolean;
  page: number;
  pages: number;
  listed: string;
  rows: { position: string; name: string; tier: string; score: string; week: string }[];
  heroes: { name: string; matches: string; winRate: string }[];
  duos: { names: string; record: string; winRate: string }[];
}

/**
 * Page `page` (from 1, clamped) of `guildId`'s public page, read now. The heroes are the last 30 days' ranked
 * (at least the meta's least sample), most played first; the duos those with the most matches together.
 */
export async function publicContent(guildId: string, page: number, src: PublicSources, now: number): Promise<PublicContent> {
  const ladderOn = await src.ladder.enabled(guildId);
  if (!ladderOn) return { ladderOn, page: 1, pages: 1, listed: integer(0), rows: [], heroes: [], duos: [] };
  const first = await src.ladder.page({ guildId, period: 'season', page: 1, pageSize: PUBLIC_PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(first.listed / PUBLIC_PAGE_SIZE));
  const at = Math.min(Math.max(1, Math.trunc(page) || 1), pages);
  const shown = at === 1 ? first : await src.ladder.page({ guildId, period: 'season', page: at, pageSize: PUBLIC_PAGE_SIZE });
  const rows = shown.rows.map((r) => ({
    position: integer(r.position),
    name: r.name,
    tier: tierName(r.standing.tier) ?? tr('ladder:unranked'),
    // As /ladder writes them: the score truncated, as the game shows it; the week's change to one decimal.
    score: rankScore(r.standing.score),
    week: rankScoreChange(r.standing.weekDelta),
  }));
  let heroes: PublicContent['heroes'] = [];
  let duos: PublicContent['duos'] = [];
  if (src.serverMatches) {
    const since = periodStart(now, RECENT_MS);
    const [counts, list, members, pairs, totals] = await Promise.all([
      src.serverMatches.heroCounts(guildId, since),
      src.heroes.list().catch(() => []),
      src.serverMatches.members(guildId),
      src.serverMatches.pairCounts(guildId),
      src.serverMatches.resultCounts(guildId),
    ]);
    const refs = list.map((h) => ({ id: h.id, name: heroDisplayName(h), role: h.role }));
    heroes = serverMeta(counts, '30d', null, refs)
      .rows.filter((r) => r.enough)
      .sort((a, b) => b.matches - a.matches || (b.winRate ?? 0) - (a.winRate ?? 0))
      .slice(0, TOP_HEROES)
      .map((r) => ({ name: r.name, matches: integer(r.matches), winRate: ratioPercent(r.winRate) }));
    // Game names only, of members on the ladder whose profile is not private (unranked ones too, as /ladder duos counts
    // them): a member with no name recorded, opted out or private is left out.
    const listed = await src.ladder.shownMembersByUid(guildId, [...new Set(pairs.flatMap((p) => [p.a, p.b]))]);
    const names = new Map(members.filter((m) => m.name && listed.has(m.uid)).map((m) => [m.uid, m.name!]));
    duos = duosOf(pairs, totals)
      .duos.filter((d) => names.has(d.a) && names.has(d.b))
      .sort((x, y) => y.together.matches - x.together.matches)
      .slice(0, TOP_DUOS)
      .map((d) => ({
        names: `${names.get(d.a)!} & ${names.get(d.b)!}`,
        record: `${integer(d.together.wins)}–${integer(d.together.losses)}`,
        winRate: ratioPercent(d.together.winRate),
      }));
  }
  return { ladderOn, page: at, pages, listed: integer(first.listed), rows, heroes, duos };
}
