/**
 * A scout's lines and buttons (`/scout`): one line a player from their public profile (rank, top heroes, their record on
 * the hero they played, a one-hero flag) and a grey button a team. Pure: commands/scout.ts reads the profiles.
 */
import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIComponentInMessageActionRow } from 'discord-api-types/v10';
import type { PlayerProfile } from '../api/schemas.js';
import { heroSummary, rankSummary, totalPlayTime, type HeroTotals } from '../game/profile.js';
import { rankScore } from '../game/ranks.js';
import { integer, kdaRatio, percent } from '../i18n/format.js';
import { tr } from '../i18n/index.js';
import { tierName } from '../i18n/names.js';
import { encodeCustomId, MAX_CUSTOM_ID_LENGTH } from './custom-id.js';
import { emojiBefore } from './emojis.js';
import { escapeText, truncate } from './limits.js';
import type { HeroNamer } from './scoreboard.js';

/** Most players a scout reads: a match has two teams of six, and a few more when someone was replaced. */
export const SCOUT_PLAYERS = 12;
/** The share of a player's play time on their most played hero from which they are flagged as playing one hero. */
export const ONE_TRICK_SHARE = 0.6;
/** Seconds of play a profile needs before its share says anything: a match or two on one hero is a sample, not a habit. */
export const ONE_TRICK_MIN_PLAY_SECONDS = 2 * 60 * 60;

/** What a player's profile read gave: the profile, a private one, none at the API, none now, not yet, or no read (past the cap). */
export type Read =
  { kind: 'profile'; profile: PlayerProfile } | { kind: 'private' } | { kind: 'missing' } | { kind: 'unavailable' } | { kind: 'reading' } | { kind: 'skipped' };

/** The hero of `heroes` with `id`, or null. */
const heroTotalsOf = (heroes: HeroTotals[], id: string | null) => (id ? (heroes.find((h) => h.hero_id === id) ?? null) : null);

/** "**Name** · Magik (6 matches, 66.7 %, KDA 2.64) · Grandmaster III 4,562 · top Magik, Human Torch, Cloak & Dagger · plays Magik 72 % of the time". */
export function playerLine(name: string, heroId: string | null, read: Read, heroName: HeroNamer): string {
  const head = `**${escapeText(name, 40)}** · ${heroName.emoji(heroId)}${escapeText(heroName(heroId), 40)}`;
  if (read.kind === 'skipped') return `${head} · *${tr('match:scout.skipped', { max: integer(SCOUT_PLAYERS) })}*`;
  if (read.kind !== 'profile') return `${head} · *${tr(`match:scout.${read.kind}`)}*`;
  const p = read.profile;
  const rank = rankSummary(p);
  const heroes = heroSummary(p).heroes;
  const played = heroTotalsOf(heroes, heroId);
  // The record on the hero played sits beside it: the line stays short enough for a phone.
  const record =
    played && played.matches > 0
      ? tr('match:scout.onHero', {
          count: played.matches,
          n: integer(played.matches),
          winRate: percent((played.wins / played.matches) * 100),
          kda: kdaRatio(played.kills, played.deaths, played.assists),
        })
      : tr('match:scout.newOnHero');
  // A full-width parenthesis (Japanese) carries its own space.
  const parts = [
    `${head}${record.startsWith('（') ? '' : ' '}${record}`,
    rank.tier ? `${emojiBefore('tier', rank.tier)}${tierName(rank.tier)} ${rankScore(rank.score)}` : tr('match:scout.unranked'),
  ];
  const top = heroes.slice(0, 3).map((h) => escapeText(heroName(h.hero_id) || h.hero_name || '?', 30));
  if (top.length > 0) parts.push(tr('match:scout.top', { heroes: top.join(', ') }));
  // A one-trick: most of the player's time on one hero (the share of the profile's total play time), over enough play.
  const total = totalPlayTime(p);
  const main = heroes[0];
  if (main && total >= ONE_TRICK_MIN_PLAY_SECONDS && main.play_time / total >= ONE_TRICK_SHARE)
    parts.push(
      `**${tr('match:scout.oneTrick', { hero: escapeText(heroName(main.hero_id) || main.hero_name || '?', 30), share: percent((main.play_time / total) * 100) })}**`,
    );
  return parts.join(' · ');
}

/** A scout's team buttons: at most five in a row, numbered from 0. */
export const SCOUT_TEAMS = 5;
/** The team a scout's team button carries (`sc.t`), read as {@link wholeArg} reads a number from a custom ID. */
export const SCOUT_TEAM_ARG = { min: 0, max: SCOUT_TEAMS - 1, fallback: 0 };

/**
 * The grey team buttons of scout `id` (`sc.t:<match uid>:<team>:<scout id>`, the team shown disabled), or none when the
 * match's UID is too long for a custom ID.
 */
export function teamButtons(matchUid: string, id: string, titles: string[], shown: number): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  if (titles.length < 2 || encodeCustomId('sc.t', matchUid, 0, id).length > MAX_CUSTOM_ID_LENGTH - 2) return [];
  return [
    {
      type: ComponentType.ActionRow,
      components: titles.slice(0, SCOUT_TEAMS).map((title, i) => ({
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        label: truncate(title, 80),
        custom_id: encodeCustomId('sc.t', matchUid, i, id),
        disabled: i === shown,
      })),
    },
  ];
}
