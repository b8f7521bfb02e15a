/** Sending the hero alerts of new posts (src/feeds/alerts.ts): planned once and stored, then each delivered exactly once. */
import type { HeroDirectory } from '../catalog/hero-directory.js';
import { classifyError } from '../core/discord-errors.js';
import type { Logger } from '../core/logger.js';
import type { Locale } from '../i18n/index.js';
import { toMessagePayload, type MessagePayload } from '../render/view.js';
import type { AccountLinksRepository } from '../store/account-links.js';
import type { AlertsRepository } from '../store/alerts.js';
import type { FeedType, GuildSettingsRepository } from '../store/guild-settings.js';
import { ALERT_FEEDS, planAlerts } from './alerts.js';
import type { DeliveryLedger } from './delivery.js';
import type { FeedPost } from './render.js';

export interface AlertDeliveryOptions {
  alerts: AlertsRepository;
  settings: GuildSettingsRepository;
  ledger: DeliveryLedger;
  /** Members' own languages (`/settings language`), for their direct messages; absent: their server's. */
  links?: Pick<AccountLinksRepository, 'localesOf'> | undefined;
  heroes?: HeroDirectory | undefined;
  /** A guild's language for its feed posts. */
  localeOf: (target: { guildId: string; locale?: Locale | undefined }) => Locale;
  logger: Logger;
  now: () => number;
  /** Aborted when the poller stops. */
  signal: AbortSignal;
}

export class AlertDelivery {
  readonly #o: AlertDeliveryOptions;

  constructor(options: AlertDeliveryOptions) {
    this.#o = options;
  }

  /** Works out a post's alerts once (who follows a hero it changes, where, in which language) and stores them before any is sent. */
  async plan(type: FeedType, post: FeedPost): Promise<void> {
    const { alerts, settings, links, logger } = this.#o;
    if (!ALERT_FEEDS.includes(type) || !post.verdicts || Object.keys(post.verdicts).length === 0) return;
    if (await alerts.planned(type, post.id)) return;
    const members = await alerts.allMembers();
    const mains = await alerts.mainsOf([...new Set(members.filter((m) => m.mains).map((m) => m.userId))]);
    const guilds = new Map<string, { alertsChannelId?: string; locale: Locale }>();
    for (const guildId of new Set(members.map((m) => m.guildId))) {
      if (guildId === '') continue;
      const s = await settings.get(guildId);
      guilds.set(guildId, { alertsChannelId: s.alertsChannelId, locale: this.#o.localeOf({ guildId, locale: s.locale }) });
    }
    // Only the members who may get a direct message need their own language (the planner decides who does).
    const dmMembers = [...new Set(members.filter((m) => m.dm || m.guildId === '').map((m) => m.userId))];
    const memberLocales = links && dmMembers.length > 0 ? await links.localesOf(dmMembers) : new Map<string, Locale>();
    const names = (await this.#o.heroes?.displayNames({ signal: this.#o.signal })) ?? new Map<string, string>();
    // Stopped while the names were read: no plan is stored with heroes named by id, as a stored plan is never redone.
    if (this.#o.signal.aborted) return;
    const planned = planAlerts(type, post, {
      members,
      mains,
      alertsChannel: (g) => guilds.get(g)?.alertsChannelId,
      heroName: (id) => names.get(id) ?? id,
      localeOf: (g) => guilds.get(g)?.locale ?? this.#o.localeOf({ guildId: g }),
      memberLocale: (u) => memberLocales.get(u) ?? null,
    });
    const messages = planned.map((p) => ({ target: p.target, part: p.part, body: toMessagePayload(p.view) }));
    if (await alerts.plan(type, post.id, messages, this.#o.now())) logger.info({ feed: type, post: post.id, messages: messages.length }, 'hero alerts planned');
  }

  /** Sends the planned alert messages not yet settled, each through the ledger (feed `alerts`): exactly once. */
  async send(): Promise<void> {
    const { alerts, ledger, logger } = this.#o;
    for (const m of await alerts.pending()) {
      let channelId = m.target;
      if (m.target.startsWith('dm:')) {
        try {
          channelId = (await ledger.openDm(m.target.slice(3))).id;
        } catch (err) {
          const c = classifyError(err);
          logger.warn({ err, target: m.target, kind: c.kind }, 'could not open a direct message for an alert');
          if (c.kind === 'broken') await alerts.settle(m, this.#o.now());
          continue;
        }
      }
      const outcome = await ledger.deliver({ feed: 'alerts', postId: `${m.feed}:${m.postId}#${m.part}`, channelId }, m.body as MessagePayload, false);
      if (outcome.status !== 'retry') await alerts.settle(m, this.#o.now());
      if (outcome.status === 'broken') logger.warn({ target: m.target, code: outcome.code }, 'an alert could not be delivered: ' + outcome.reason);
    }
  }
}
