/** Which process polls the feeds: with the embedded store the only one; with Redis the holder of an expiring lock it renews. Also hourly jobs' turns. */
import { randomUUID } from 'node:crypto';
import pTimeout from 'p-timeout';

export interface Leadership {
  /** True while this process holds the lead (acquiring or renewing it as needed). */
  isLeader(): Promise<boolean>;
  /** Gives the lead up (shutdown), so another process takes over at once. */
  release(): Promise<void>;
}

/** The single process of an embedded store. */
export const SOLE_LEADER: Leadership = { isLeader: async () => true, release: async () => undefined };

/** A cluster process of a machine without Redis other than its first (src/sharding): the first one polls. */
export const NEVER_LEADER: Leadership = { isLeader: async () => false, release: async () => undefined };

/** The commands of a node-redis v5 client that the lock uses. */
interface RedisLike {
  set(key: string, value: string, options: { condition: 'NX'; expiration: { type: 'PX'; value: number } }): Promise<string | null>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** A Redis lock held `ttlMs`, renewed per check. Checks time out: node-redis queues commands through an outage, which would hold the poll and the shutdown. */
export class RedisLeadership implements Leadership {
  readonly #owner = randomUUID();
  constructor(
    private readonly client: () => Promise<unknown>,
    private readonly key = 'rivals:feeds:leader',
    private readonly ttlMs = 60_000,
    private readonly timeoutMs = 2_000,
  ) {}

  /** @throws {Error} when Redis fails or does not answer in `timeoutMs`: the poll is skipped (a command still queued may renew the lock later: harmless). */
  async isLeader(): Promise<boolean> {
    return this.#bounded('check the feed leadership', async () => {
      const redis = (await this.client()) as RedisLike;
      const renewed = await redis.eval(RENEW, { keys: [this.key], arguments: [this.#owner, String(this.ttlMs)] });
      if (Number(renewed) === 1) return true;
      return (await redis.set(this.key, this.#owner, { condition: 'NX', expiration: { type: 'PX', value: this.ttlMs } })) === 'OK';
    });
  }

  /** @throws {Error} as {@link isLeader}; an unreleased lock expires after `ttlMs`. */
  async release(): Promise<void> {
    await this.#bounded('release the feed leadership', async () => {
      const redis = (await this.client()) as RedisLike;
      await redis.eval(RELEASE, { keys: [this.key], arguments: [this.#owner] });
    });
  }

  #bounded<T>(what: string, run: () => Promise<T>): Promise<T> {
    return pTimeout(run(), { milliseconds: this.timeoutMs, message: `could not ${what}: Redis did not answer within ${this.timeoutMs} ms` });
  }
}

/**
 * Turns of a job a deployment runs once per period: the first process to ask gets a Redis key (SET NX PX `periodMs`) that is never released.
 * Separate from the feed lock, so a job never takes it from the poller. Take `periodMs` a little under the job's interval.
 */
export class RedisJobTurns {
  constructor(
    private readonly client: () => Promise<unknown>,
    private readonly name: string,
    private readonly periodMs: number,
    private readonly timeoutMs = 2_000,
  ) {}

  /** Whether this process runs the job's turn now. @throws {Error} when Redis fails or does not answer within `timeoutMs` (the turn is skipped). */
  async take(): Promise<boolean> {
    const turn = (async () => {
      const redis = (await this.client()) as RedisLike;
      return (await redis.set(`rivals:jobs:${this.name}`, randomUUID(), { condition: 'NX', expiration: { type: 'PX', value: this.periodMs } })) === 'OK';
    })();
    return pTimeout(turn, {
      milliseconds: this.timeoutMs,
      message: `could not take the turn of the ${this.name} job: Redis did not answer within ${this.timeoutMs} ms`,
    });
  }
}
