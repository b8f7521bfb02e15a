/** "Poll the feeds now" across processes (Redis pub/sub): every process passes it to its poller, and only the leader's polls. */
import type { Logger } from '../core/logger.js';
import { openRedisChannel } from '../store/redis-channel.js';

/** The Redis channel of poll requests; a message is `<process id> ` (src/store/redis-channel.ts), with no body. */
export const POLL_NOW_CHANNEL = 'rivals:feeds:poll-now';

/** A process's end of the signal. */
export interface PollSignal {
  /** Asks every other process to poll now. Never throws: a failed publish is logged (the next regular poll catches up). */
  publish(): void;
  stop(): Promise<void>;
}

/** Subscribes to other processes' poll requests, calling `onRequest` for each. @throws when Redis does not answer within `timeoutMs`. */
export async function pollSignalOverRedis(client: () => Promise<unknown>, onRequest: () => void, logger: Logger, timeoutMs = 5_000): Promise<PollSignal> {
  const channel = await openRedisChannel(client, POLL_NOW_CHANNEL, () => onRequest(), logger, 'poll signal', timeoutMs);
  return {
    publish() {
      void channel.publish('').catch((err: unknown) => logger.warn({ err }, 'poll signal: could not ask the other processes to poll'));
    },
    stop: () => channel.stop(),
  };
}
