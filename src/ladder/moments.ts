/**
 * Posting servers' ladder moments (rank changes across a tier, season peaks in a new division, a member entering the top
 * 3, a season's card once it ended), planned by the store when a standing changes (src/store/ladder/standings.ts), and each server's
 * weekly recap at its day and hour. Each goes once through the feeds' ledger (feed `ladder`), in the server's language,
 * mentioning the member unless they turned their mentions off, and waits out the server's quiet hours.
 */
import { BackgroundJob } from '../core/background-job.js';
import type { Logger } from '../core/logger.js';
import { TOP_PLACES, type Moment } from '../game/ladder.js';
import { rankScore, rankScoreChange } from '../game/ranks.js';
import { seasonFromIndex } from '../game/seasons.js';
import { integer } from '../i18n/format.js';
import { pickLocale, runInLocale, tr, type Locale } from '../i18n/index.js';
import { tierName } from '../i18n/names.js';
import { escapeText } from '../render/limits.js';
import { toMessagePayload, type View } from '../render/view.js';
import type { GuildSettingsRepository } from '../store/guild-settings.js';
import type { LadderRepository, PendingMoment, RecapData } from '../store/ladder/index.js';
import type { DeliveryLedger, DeliveryOutcome } from '../feeds/delivery.js';
import { localTime, minusDays, quietNow } from '../feeds/schedule.js';

/** How often planned moments and due recaps are looked for, ms. */
export const MOMENTS_EVERY_MS = 15_000;
/** Most moments one run sends. */
const BATCH = 50;
/** A recap is posted up to this long after its hour (a bot down longer skips that week), minutes. */
const RECAP_LATE_MINUTES = 24 * 60;
const DAY_MINUTES = 24 * 60;
/** Discord's "Unknown Channel": the moments' channel was deleted. */
const UNKNOWN_CHANNEL = 10003;

const COLOURS: Record<Moment['kind'] | 'recap', number> = {
  'rank-up': 0x22c55e,
  'rank-down': 0xef4444,
  peak: 0xf59e0b,
  top3: 0xeab308,
  'season-end': 0x8b5cf6,
  recap: 0x5865f2,
};

/** Hero names by id, for the season's card and the recap; absent: ids are shown. */
export type HeroNames = () => Promise<ReadonlyMap<string, string>>;

/** A moment's message: the member (mentioned only when `mention`), what changed. `heroes` names the season card's heroes. */
export function momentView(m: Pick<PendingMoment, 'userId' | 'moment' | 'name'>, mention: boolean, heroes: ReadonlyMap<string, string> = new Map()): View {
  const who = { user: `<@${m.userId}>`, name: escapeText(m.name, 60) };
  const moment = m.moment;
  const embed =
    moment.kind === 'season-end'
      ? {
          title: tr('ladder:moment.seasonEndTitle', { season: seasonFromIndex(moment.season)?.number ?? String(moment.season), name: who.name }),
          description: tr('ladder:moment.seasonEnd', { user: who.user }),
          fields: [
            { name: tr('ladder:moment.finalRank'), value: `${tierName(moment.tier) ?? tr('ladder:unranked')} · ${rankScore(moment.score)}`, inline: true },
            { name: tr('ladder:moment.peakField'), value: rankScore(moment.peak), inline: true },
            { name: tr('ladder:moment.matchesField'), value: integer(moment.matches), inline: true },
            { name: tr('ladder:moment.changeField'), value: rankScoreChange(moment.change), inline: true },
            ...(moment.heroes.length > 0
              ? [{ name: tr('ladder:moment.heroesField'), value: moment.heroes.map((id) => escapeText(heroes.get(id) ?? id, 40)).join(', '), inline: true }]
              : []),
          ],
        }
      : { description: momentText(moment, who) };
  // Only a message's content notifies: the embed names the member either way.
  return mention
    ? { content: who.user, embeds: [{ color: COLOURS[moment.kind], ...embed }], allowedUserIds: [m.userId] }
    : { embeds: [{ color: COLOURS[moment.kind], ...embed }] };
}

function momentText(moment: Exclude<Moment, { kind: 'season-end' }>, who: { user: string; name: string }): string {
  switch (moment.kind) {
    case 'peak':
      return tr('ladder:moment.peak', { ...who, score: rankScore(moment.score) });
    case 'top3':
      return tr('ladder:moment.top3', { ...who, place: integer(moment.place), score: rankScore(moment.score) });
    default:
      return tr(moment.kind === 'rank-up' ? 'ladder:moment.rankUp' : 'ladder:moment.rankDown', {
        ...who,
        from: tierName(moment.from),
        to: tierName(moment.to),
      });
  }
}

/**
 * The weekly recap's message: the week's leaders, the most played hero and the top of the ladder, those not on top at the
 * last recap marked (`lastTop`; null before the first, which marks nobody). Nobody is pinged.
 */
export function recapView(d: RecapData, lastTop: readonly string[] | null, heroes: ReadonlyMap<string, string> = new Map()): View {
  const name = (n: string) => escapeText(n, 60);
  const none = tr('ladder:recap.none');
  const fields = [
    {
      name: tr('ladder:recap.improved'),
      value: d.improved ? `<@${d.improved.userId}> ${name(d.improved.name)} · ${rankScoreChange(d.improved.delta)}` : none,
    },
    { name: tr('ladder:recap.matches'), value: d.matches ? `<@${d.matches.userId}> ${name(d.matches.name)} · ${integer(d.matches.n)}` : none },
    { name: tr('ladder:recap.mvps'), value: d.mvps ? `<@${d.mvps.userId}> ${name(d.mvps.name)} · ${integer(d.mvps.n)}` : none },
    { name: tr('ladder:recap.hero'), value: d.hero ? `${escapeText(heroes.get(d.hero.heroId) ?? d.hero.heroId, 40)} · ${integer(d.hero.n)}` : none },
    {
      name: tr('ladder:recap.duo'),
      value: d.duo
        ? tr('ladder:recap.duoLine', {
            a: `<@${d.duo.a.userId}> ${name(d.duo.a.name)}`,
            b: `<@${d.duo.b.userId}> ${name(d.duo.b.name)}`,
            record: `${integer(d.duo.wins)}–${integer(d.duo.losses)}`,
          })
        : none,
    },
    {
      name: tr('ladder:recap.top', { n: TOP_PLACES }),
      value:
        d.top.length === 0
          ? none
          : d.top
              .map(
                (t, i) => `**${i + 1}.** <@${t.userId}> ${name(t.name)} · ${rankScore(t.score)}${lastTop === null || lastTop.includes(t.userId) ? '' : ' 🆕'}`,
              )
              .join('\n'),
    },
  ];
  return { embeds: [{ color: COLOURS.recap, title: tr('ladder:recap.title'), description: tr('ladder:recap.intro', { n: integer(d.listed) }), fields }] };
}

/**
 * The latest recap due at or before `instant` (ms): its local date and how many minutes ago it fell due, for a recap on
 * `day` (0 Sunday … 6 Saturday) at `at` (minutes after midnight) in `timeZone`.
 */
export function recapDue(day: number, at: number, timeZone: string, instant: number): { date: string; minutesAgo: number } {
  const local = localTime(instant, timeZone);
  let daysBack = (local.weekday - day + 7) % 7;
  if (daysBack === 0 && local.minutes < at) daysBack = 7;
  return { date: minusDays(local.date, daysBack), minutesAgo: daysBack * DAY_MINUTES + local.minutes - at };
}

export interface LadderMomentsOptions {
  ladder: Pick<
    LadderRepository,
    'pendingMoments' | 'settleMoment' | 'membership' | 'settings' | 'setMomentsProblem' | 'recapTargets' | 'recapData' | 'settleRecap' | 'withQuietHours'
  >;
  settings: Pick<GuildSettingsRepository, 'get'>;
  ledger: DeliveryLedger;
  /** The server's Discord language, when the bot knows it. */
  preferredLocale?: (guildId: string) => string | null | undefined;
  heroNames?: HeroNames;
  logger: Logger;
  /** The feeds' clock (src/feeds/clock.ts), ms. */
  now?: () => number;
}

/** `start()` sends planned moments and due recaps every {@link MOMENTS_EVERY_MS} until `stop()`; `send()` once (tests). */
export class LadderMoments {
  readonly #o: LadderMomentsOptions;
  readonly #job = new BackgroundJob(() => this.send());

  constructor(options: LadderMomentsOptions) {
    this.#o = options;
  }

  start(): void {
    this.#job.start(MOMENTS_EVERY_MS, (err) => this.#o.logger.warn({ err }, 'ladder moments: could not read the planned ones; trying again'));
  }

  stop(): Promise<void> {
    return this.#job.stop();
  }

  /**
   * Delivers the planned moments not settled and the recaps due, each through the ledger: exactly once across processes
   * and crashes. A server in its quiet hours keeps them for after. A channel that refuses settles them and is reported in
   * `/config status`; a deleted one turns the posts off. A temporary failure leaves them for the next run.
   * @returns how many messages were sent.
   */
  async send(): Promise<number> {
    const { ladder } = this.#o;
    const now = this.#o.now ?? Date.now;
    const heroes = await this.#heroes();
    let sent = 0;
    // Left out of the batch, so that a server in its quiet hours never holds up the others' posts.
    const quiet = (await ladder.withQuietHours()).filter((g) => g.settings.quiet && quietNow(g.settings.quiet, g.settings.timeZone, now()).quiet);
    for (const m of await ladder.pendingMoments(
      BATCH,
      quiet.map((g) => g.guildId),
    )) {
      const membership = await ladder.membership(m.guildId, m.userId);
      const payload = await this.#render(m.guildId, () => momentView(m, membership?.mentionsOff !== true, heroes));
      const outcome = await this.#o.ledger.deliver({ feed: 'ladder', postId: `${m.guildId}:${m.momentId}`, channelId: m.channelId }, payload, false);
      if (outcome.status === 'retry') continue;
      await ladder.settleMoment(m, now());
      if (outcome.status === 'sent') sent++;
      await this.#settled(m.guildId, m.channelId, outcome, now());
    }
    for (const target of await ladder.recapTargets()) {
      const s = target.settings;
      const due = recapDue(s.recapDay!, s.recapAt, s.timeZone, now());
      if (target.sentFor === due.date || !s.momentsChannelId) continue;
      // Too late (the bot was down past it, or the recap was just set up): that week is skipped, not posted days after.
      if (due.minutesAgo >= RECAP_LATE_MINUTES) {
        await ladder.settleRecap(target.guildId, due.date);
        continue;
      }
      if (s.quiet && quietNow(s.quiet, s.timeZone, now()).quiet) continue;
      const endSec = Math.floor((now() - due.minutesAgo * 60_000) / 1000);
      const data = await ladder.recapData(target.guildId, endSec - 7 * 86_400, endSec);
      const payload = await this.#render(target.guildId, () => recapView(data, target.lastTop, heroes));
      const channelId = s.momentsChannelId;
      const outcome = await this.#o.ledger.deliver({ feed: 'ladder', postId: `${target.guildId}:recap:${due.date}`, channelId }, payload, false);
      if (outcome.status === 'retry') continue;
      await ladder.settleRecap(
        target.guildId,
        due.date,
        data.top.map((t) => t.userId),
      );
      if (outcome.status === 'sent') sent++;
      await this.#settled(target.guildId, channelId, outcome, now());
    }
    return sent;
  }

  async #heroes(): Promise<ReadonlyMap<string, string>> {
    try {
      return (await this.#o.heroNames?.()) ?? new Map();
    } catch (err) {
      this.#o.logger.warn({ err }, 'ladder moments: hero names unavailable; their ids are shown');
      return new Map();
    }
  }

  async #render(guildId: string, view: () => View) {
    const settings = await this.#o.settings.get(guildId);
    const locale: Locale = settings.locale ?? pickLocale(this.#o.preferredLocale?.(guildId));
    return runInLocale(locale, () => toMessagePayload(view()));
  }

  /** Records a channel's refusal for `/config status` (a deleted channel turns the posts off); a post that went clears it. */
  async #settled(guildId: string, channelId: string, outcome: DeliveryOutcome, at: number): Promise<void> {
    if (outcome.status === 'sent') {
      const s = await this.#o.ladder.settings(guildId);
      if (s.problem) await this.#o.ladder.setMomentsProblem(guildId, null);
      return;
    }
    if (outcome.status !== 'broken') return;
    this.#o.logger.warn({ guildId, channelId, code: outcome.code }, `a ladder post could not be made: ${outcome.reason}`);
    await this.#o.ladder.setMomentsProblem(guildId, { code: outcome.code, reason: outcome.reason, channelId, at }, outcome.code === UNKNOWN_CHANNEL);
  }
}
