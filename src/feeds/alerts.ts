/**
 * "Your heroes changed" alerts: when a new balance post or patch note changes a hero a member follows (a main or a watched hero), they are
 * told in the guild's alerts channel (one message per post, mentioning exactly them) or by direct message. A post's messages are planned
 * and stored once before any is sent (src/store/alerts.ts), each then a ledger delivery, so a crash repeats none.
 */
import { ButtonStyle, ComponentType } from 'discord-api-types/v10';
import type { RivalsApi } from '../api/client.js';
import { encodeCustomId } from '../render/custom-id.js';
import type { Verdict } from '../game/balance.js';
import { heroSummary } from '../game/profile.js';
import { currentLocale, runInLocale, tr, type Locale } from '../i18n/index.js';
import { BackgroundJob } from '../core/background-job.js';
import type { Logger } from '../core/logger.js';
import { listOf } from '../render/common.js';
import { aside } from '../i18n/format.js';
import { escapeText, LIMITS, truncate } from '../render/limits.js';
import type { View } from '../render/view.js';
import type { AccountLinksRepository } from '../store/account-links.js';
import { MAINS_COUNT, type AlertMember, type AlertsRepository, type MemberMains } from '../store/alerts.js';
import type { FeedType } from '../store/guild-settings.js';
import { FEED_TO_POST_TYPE, type FeedPost } from './render.js';

/** Users mentioned in one alert message at most (Discord: `allowed_mentions.users` holds 100). */
export const MAX_MENTIONS_PER_MESSAGE = 100;
/** Characters of an alert message's content at most (Discord: 2,000). */
const CONTENT_LIMIT = 2_000;
/** Characters kept free for the part counter " (12/34)" of the header. */
const PART_SUFFIX_ROOM = 16;
/** Feeds whose posts change heroes. */
export const ALERT_FEEDS: readonly FeedType[] = ['balances', 'patchNotes'];

const VERDICT_MARKS: Record<Verdict, string> = { buff: '🟢', nerf: '🔴', adjusted: '🟡', fixed: '🔧' };

/** The target of a direct message to `userId`. */
export const dmTarget = (userId: string) => `dm:${userId}`;

/** One planned alert message: where it goes, its part number, its view. */
export interface PlannedAlert {
  target: string;
  part: number;
  view: View;
}

/** What {@link planAlerts} needs to know beyond the post. */
export interface AlertAudience {
  members: readonly AlertMember[];
  mains: ReadonlyMap<string, MemberMains>;
  /** The alerts channel of a guild, if it has one. */
  alertsChannel(guildId: string): string | undefined;
  heroName(heroId: string): string;
  /** The language of a guild's alerts (`/config language`, else its Discord language); absent: the current locale. */
  localeOf?(guildId: string): Locale;
  /** The language a member chose for themselves (`/settings language`), null for none; absent: none. */
  memberLocale?(userId: string): Locale | null;
}

/** The embed and read button shared by alert messages, in the current locale. */
function postEmbed(type: FeedType, post: FeedPost): Pick<View, 'embeds' | 'components'> {
  return {
    embeds: [
      {
        color: 0xf59e0b,
        author: { name: tr(type === 'balances' ? 'feeds:alert.kind.balances' : 'feeds:alert.kind.patchNotes') },
        title: truncate(post.title, LIMITS.title),
        description: escapeText(post.overview ?? '', 300) || undefined,
      },
    ],
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.Button,
            style: ButtonStyle.Primary,
            label: tr('feeds:post.readAll'),
            custom_id: encodeCustomId('feed.read', FEED_TO_POST_TYPE[type], post.id),
          },
        ],
      },
    ],
  };
}

/**
 * The alert messages of `post`: per alerts channel, lines "🔴 **Hulk** (nerf): @a @b" packed into parts within Discord's limits; per member
 * who asked for direct messages, one message. Deterministic (sorted). In the reader's language: a channel's in its guild's, a direct
 * message in the member's, else that of the first (by id) of their direct-message guilds this post concerns, else the current locale.
 */
export function planAlerts(type: FeedType, post: FeedPost, audience: AlertAudience): PlannedAlert[] {
  const verdicts = post.verdicts ?? {};
  const changed = new Set(Object.keys(verdicts));
  if (changed.size === 0) return [];
  /** channel → hero → users */
  const channels = new Map<string, Map<string, Set<string>>>();
  const guildOfChannel = new Map<string, string>();
  /** user → heroes (direct messages) */
  const dms = new Map<string, Set<string>>();
  /** user → the guilds of their direct-message alerts, for the language when they chose none */
  const dmGuilds = new Map<string, string[]>();
  for (const m of audience.members) {
    const followed = new Set([...(m.mains ? (audience.mains.get(m.userId)?.heroes ?? []) : []), ...m.heroes]);
    const hits = [...followed].filter((h) => changed.has(h));
    if (hits.length === 0) continue;
    const channel = m.dm || m.guildId === '' ? undefined : audience.alertsChannel(m.guildId);
    if (channel === undefined) {
      // Direct messages, or a guild without an alerts channel: /alerts told the member; a DM-only member is written to.
      if (!m.dm && m.guildId !== '') continue;
      const set = dms.get(m.userId) ?? new Set<string>();
      for (const h of hits) set.add(h);
      dms.set(m.userId, set);
      if (m.guildId !== '') dmGuilds.set(m.userId, [...(dmGuilds.get(m.userId) ?? []), m.guildId]);
      continue;
    }
    const byHero = channels.get(channel) ?? new Map<string, Set<string>>();
    for (const h of hits) byHero.set(h, (byHero.get(h) ?? new Set<string>()).add(m.userId));
    channels.set(channel, byHero);
    guildOfChannel.set(channel, m.guildId);
  }
  const fallback = currentLocale();
  const guildLocale = (guildId: string | undefined) => (guildId !== undefined && audience.localeOf ? audience.localeOf(guildId) : fallback);
  const byName = (a: string, b: string) => audience.heroName(a).localeCompare(audience.heroName(b));
  const heroLabel = (h: string) =>
    tr('feeds:alert.hero', {
      mark: VERDICT_MARKS[verdicts[h]!],
      hero: escapeText(audience.heroName(h), 60),
      verdict: tr(`feeds:alert.verdict.${verdicts[h]!}`),
    });
  /** The messages of one alerts channel, in the current locale: lines packed into parts within Discord's limits. */
  const channelMessages = (channel: string, byHero: Map<string, Set<string>>): PlannedAlert[] => {
    const header = tr('feeds:alert.channelHeader', { title: escapeText(post.title, 200) });
    const parts: { lines: string[]; users: Set<string> }[] = [];
    let current = { lines: [] as string[], users: new Set<string>() };
    const length = () => header.length + current.lines.reduce((n, l) => n + l.length + 1, 0);
    const flush = () => {
      if (current.lines.length > 0) parts.push(current);
      current = { lines: [], users: new Set<string>() };
    };
    for (const hero of [...byHero.keys()].sort(byName)) {
      const users = [...byHero.get(hero)!].sort();
      let line = tr('feeds:alert.mentions', { hero: heroLabel(hero) });
      let lineUsers: string[] = [];
      const pushLine = () => {
        if (lineUsers.length === 0) return;
        current.lines.push(line);
        for (const u of lineUsers) current.users.add(u);
      };
      for (const u of users) {
        const mention = ` <@${u}>`;
        const newUser = !current.users.has(u) && !lineUsers.includes(u);
        const wouldUsers = current.users.size + lineUsers.filter((x) => !current.users.has(x)).length + (newUser ? 1 : 0);
        // Room is kept for the " (n/m)" the header gets when there are several parts.
        if (length() + line.length + mention.length + 1 > CONTENT_LIMIT - PART_SUFFIX_ROOM || wouldUsers > MAX_MENTIONS_PER_MESSAGE) {
          pushLine();
          flush();
          line = tr('feeds:alert.mentions', { hero: heroLabel(hero) });
          lineUsers = [];
        }
        line += mention;
        lineUsers.push(u);
      }
      pushLine();
    }
    flush();
    return parts.map((p, i) => ({
      target: channel,
      part: i + 1,
      view: {
        content: [header + (parts.length > 1 ? aside(`${i + 1}/${parts.length}`) : ''), ...p.lines].join('\n'),
        allowedUserIds: [...p.users].sort(),
        ...postEmbed(type, post),
      },
    }));
  };
  const out: PlannedAlert[] = [];
  for (const channel of [...channels.keys()].sort()) {
    out.push(...runInLocale(guildLocale(guildOfChannel.get(channel)), () => channelMessages(channel, channels.get(channel)!)));
  }
  for (const user of [...dms.keys()].sort()) {
    const locale = audience.memberLocale?.(user) ?? guildLocale(dmGuilds.get(user)?.sort()[0]);
    const heroes = [...dms.get(user)!].sort(byName);
    out.push(
      runInLocale(locale, () => ({
        target: dmTarget(user),
        part: 1,
        view: { content: tr('feeds:alert.dm', { title: escapeText(post.title, 200), heroes: listOf(heroes.map(heroLabel)) }), ...postEmbed(type, post) },
      })),
    );
  }
  return out;
}

export interface MainsRefresherOptions {
  api: RivalsApi;
  links: AccountLinksRepository;
  alerts: AlertsRepository;
  logger: Logger;
  now?: () => number;
}

/** Members whose mains are read per hourly run: what the `bulk` priority's share of the API's rate limit reads in well under an hour. */
const REFRESH_BATCH = 400;

/** Reads members' mains from their default linked account (src/game/profile.ts `heroSummary`). */
export class MainsRefresher {
  readonly #o: MainsRefresherOptions;
  readonly #job = new BackgroundJob(() => this.refreshStale());
  /** Aborted by {@link stop}: the profile read of a run under way is given up, even while it waits for the rate limit. */
  #abort = new AbortController();
  constructor(options: MainsRefresherOptions) {
    this.#o = options;
  }

  /** Reads and stores one member's mains now; null without a linked account; `signal` gives the read up. @throws {ApiError} when the profile cannot be read. */
  async refresh(userId: string, priority: 'interactive' | 'bulk' = 'bulk', signal?: AbortSignal): Promise<MemberMains | null> {
    const uid = await this.#o.links.defaultUid(userId);
    if (!uid) return null;
    const profile = (await this.#o.api.player(uid, {}, { priority, signal })).data;
    const heroes = heroSummary(profile)
      .heroes.map((h) => h.hero_id)
      .filter((id): id is string => id !== null)
      .slice(0, MAINS_COUNT);
    const mains = { uid, heroes, refreshedAt: (this.#o.now ?? Date.now)() };
    await this.#o.alerts.saveMains(userId, mains);
    return mains;
  }

  /** Reads the mains of up to {@link REFRESH_BATCH} members whose mains are a day old or missing, oldest first; failures are logged and tried next run. */
  async refreshStale(): Promise<void> {
    const { signal } = (this.#abort = new AbortController());
    const users = await this.#o.alerts.staleMains((this.#o.now ?? Date.now)(), REFRESH_BATCH);
    for (const userId of users) {
      if (this.#job.stopped || signal.aborted) return;
      try {
        await this.refresh(userId, 'bulk', signal);
      } catch (err) {
        if (signal.aborted) return;
        this.#o.logger.warn({ err, user: userId }, 'could not read a member’s mains; tried again next run');
      }
    }
  }

  /** Runs {@link refreshStale} now and `intervalMs` after each run ends; with `when`, only on turns it grants (mains are shared: one process reads them). */
  start(intervalMs = 60 * 60_000, when?: () => Promise<boolean>): void {
    // A turn that cannot be asked for (Redis down) is skipped, and said so: no refresh was tried.
    const turn =
      when &&
      (() =>
        when().catch((err: unknown) => {
          this.#o.logger.warn({ err }, 'mains refresh turn skipped');
          return false;
        }));
    this.#job.start(intervalMs, (err) => this.#o.logger.warn({ err }, 'mains refresh failed'), undefined, turn);
  }

  /** Stops the timer, gives up a run's profile read (also while it waits for the rate limit), and waits for the run to end. */
  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#job.stop();
  }
}
