/**
 * Posting servers' ladder moments (rank changes across a tier, season peaks in a new division), planned by the store when
 * a standing changes (src/store/ladder.ts), each delivered once through the feeds' ledger (feed `ladder`), in the
 * server's language, mentioning the member unless they turned their mentions off.
 */
import { BackgroundJob } from '../core/background-job.js';
import type { Logger } from '../core/logger.js';
import type { Moment } from '../game/ladder.js';
import { rankScore } from '../game/ranks.js';
import { pickLocale, runInLocale, tr, type Locale } from '../i18n/index.js';
import { escapeText } from '../render/limits.js';
import { toMessagePayload, type View } from '../render/view.js';
import type { GuildSettingsRepository } from '../store/guild-settings.js';
import type { LadderRepository, PendingMoment } from '../store/ladder.js';
import type { DeliveryLedger } from './delivery.js';

/** How often planned moments are looked for, ms. */
export const MOMENTS_EVERY_MS = 15_000;
/** Most moments one run sends. */
const BATCH = 50;

const COLOURS: Record<Moment['kind'], number> = { 'rank-up': 0x22c55e, 'rank-down': 0xef4444, peak: 0xf59e0b };

/** A moment's message: the member (mentioned only when `mention`), what changed. */
export function momentView(m: Pick<PendingMoment, 'userId' | 'moment' | 'name'>, mention: boolean): View {
  const who = { user: `<@${m.userId}>`, name: escapeText(m.name, 60) };
  const text =
    m.moment.kind === 'peak'
      ? tr('ladder:moment.peak', { ...who, score: rankScore(m.moment.score) })
      : tr(m.moment.kind === 'rank-up' ? 'ladder:moment.rankUp' : 'ladder:moment.rankDown', { ...who, from: m.moment.from, to: m.moment.to });
  // Only a message's content notifies: the embed names the member either way.
  return mention
    ? { content: who.user, embeds: [{ color: COLOURS[m.moment.kind], description: text }], allowedUserIds: [m.userId] }
    : { embeds: [{ color: COLOURS[m.moment.kind], description: text }] };
}

export interface LadderMomentsOptions {
  ladder: Pick<LadderRepository, 'pendingMoments' | 'settleMoment' | 'membership'>;
  settings: Pick<GuildSettingsRepository, 'get'>;
  ledger: DeliveryLedger;
  /** The server's Discord language, when the bot knows it. */
  preferredLocale?: (guildId: string) => string | null | undefined;
  logger: Logger;
  now?: () => number;
}

/** `start()` sends planned moments every {@link MOMENTS_EVERY_MS} until `stop()`; `send()` once (tests). */
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
   * Delivers the planned moments not settled, each through the ledger: exactly once across processes and crashes. A channel
   * that refuses (deleted, no access) settles the moment, logged; a temporary failure leaves it for the next run.
   * @returns how many were sent.
   */
  async send(): Promise<number> {
    const { ladder, ledger, logger } = this.#o;
    const now = this.#o.now ?? Date.now;
    let sent = 0;
    for (const m of await ladder.pendingMoments(BATCH)) {
      const [settings, membership] = await Promise.all([this.#o.settings.get(m.guildId), ladder.membership(m.guildId, m.userId)]);
      const locale: Locale = settings.locale ?? pickLocale(this.#o.preferredLocale?.(m.guildId));
      const payload = runInLocale(locale, () => toMessagePayload(momentView(m, membership?.mentionsOff !== true)));
      const outcome = await ledger.deliver({ feed: 'ladder', postId: `${m.guildId}:${m.momentId}`, channelId: m.channelId }, payload, false);
      if (outcome.status === 'retry') continue;
      await ladder.settleMoment(m, now());
      if (outcome.status === 'sent') sent++;
      if (outcome.status === 'broken')
        logger.warn({ guildId: m.guildId, channelId: m.channelId, code: outcome.code }, `a ladder moment could not be posted: ${outcome.reason}`);
    }
    return sent;
  }
}
