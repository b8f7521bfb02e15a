/** The /status answer: one embed of four fields (the bot, the game API, the data's freshness, where to report a problem). */
import type { APIEmbedField } from 'discord-api-types/v10';
import { discordTime, duration, integer } from '../i18n/format.js';
import { tr } from '../i18n/index.js';
import type { View } from './view.js';

/** The gateway shard that serves a server: its id, the shard count, and its last heartbeat's round trip (ms; null before the first). */
export interface ShardInfo {
  id: number;
  count: number;
  pingMs: number | null;
}

/** The game API now, as /status says it. Times in ms since the epoch. */
export type ApiState =
  /** `at` the answer that says so; `tookMs` when it was the probe's. */
  | { state: 'answering'; at: number; tookMs?: number }
  /**
   * No answer within the wait (`timeout`), server errors (`unavailable`), or not reached at all (`unreachable`: refused, no
   * such host); `lastAnswerAt` null: none since the start.
   */
  | { state: 'down'; why: 'timeout' | 'unavailable' | 'unreachable'; lastAnswerAt: number | null }
  /** Requests held for `forMs`: the API asked the bot to wait (`api`), or the key's rate is used up (`budget`). */
  | { state: 'held'; by: 'api' | 'budget'; forMs: number };

/** A store read: its time (null: never happened), or `unknown` when the store did not answer in time. */
export type Freshness = number | null | 'unknown';

export interface BotStatus {
  now: number;
  /** When this process started serving; null when not known (the CLI). */
  startedAt: number | null;
  shard: ShardInfo | null;
  api: ApiState;
  /** The API's last 429 to this process; null: none since it started. */
  rateLimitedAt: number | null;
  /** Absent where nothing polls or tracks (the command line). */
  feedsReadAt?: Freshness;
  trackingReadAt?: Freshness;
  reportTo: { url?: string; ownerId?: string };
}

const OK = 0x57f287;
const WARN = 0xfee75c;
const DOWN = 0xed4245;

const when = (ms: number) => discordTime(ms / 1000);

/** A freshness line: its time, "not yet", or that the store did not say in time. */
function fresh(at: Freshness | undefined, key: 'feeds' | 'tracking'): string {
  if (at === undefined) return '';
  if (at === 'unknown') return tr(`status:${key}Unknown`);
  if (at === null) return tr(`status:${key}Never`);
  return tr(`status:${key}`, { when: when(at) });
}

function apiLine(s: BotStatus): string {
  const api = s.api;
  switch (api.state) {
    case 'answering':
      return api.tookMs === undefined ? tr('status:apiAnswering', { when: when(api.at) }) : tr('status:apiChecked', { ms: integer(api.tookMs) });
    case 'held':
      return tr(api.by === 'api' ? 'status:apiHeldByApi' : 'status:apiHeldByBudget', { wait: duration(Math.ceil(api.forMs / 1000)) });
    case 'down': {
      const why = tr(api.why === 'timeout' ? 'status:apiTimeout' : api.why === 'unreachable' ? 'status:apiUnreachable' : 'status:apiErrors');
      const last = api.lastAnswerAt === null ? tr('status:apiNoAnswerSinceStart') : tr('status:apiLastAnswer', { when: when(api.lastAnswerAt) });
      return `${why}\n${last}\n${tr('status:apiDownMeans')}`;
    }
  }
}

/** The answer to /status, private to whoever asked. */
export function statusView(s: BotStatus): View {
  const bot = [tr('status:botAnswering')];
  if (s.startedAt !== null) bot.push(tr('status:upSince', { when: when(s.startedAt) }));
  bot.push(
    s.shard === null
      ? tr('status:noGateway')
      : tr('status:shard', {
          id: integer(s.shard.id),
          count: integer(s.shard.count),
          ping: s.shard.pingMs === null ? tr('status:pingUnknown') : tr('status:ping', { ms: integer(s.shard.pingMs) }),
        }),
  );
  const data = [
    fresh(s.trackingReadAt, 'tracking'),
    fresh(s.feedsReadAt, 'feeds'),
    s.rateLimitedAt === null ? tr('status:no429') : tr('status:last429', { when: when(s.rateLimitedAt) }),
  ].filter(Boolean);
  const report = s.reportTo.url
    ? tr('status:reportUrl', { url: s.reportTo.url })
    : s.reportTo.ownerId
      ? tr('status:reportOwner', { owner: `<@${s.reportTo.ownerId}>` })
      : tr('status:reportAdmins');
  const fields: APIEmbedField[] = [
    { name: tr('status:bot'), value: bot.join('\n') },
    { name: tr('status:api'), value: apiLine(s) },
    { name: tr('status:data'), value: data.join('\n') },
    { name: tr('status:report'), value: report },
  ];
  const colour = s.api.state === 'answering' ? OK : s.api.state === 'held' ? WARN : DOWN;
  return { ephemeral: true, embeds: [{ color: colour, title: tr('status:title'), fields, timestamp: new Date(s.now).toISOString() }] };
}
