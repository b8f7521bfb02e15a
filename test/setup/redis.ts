/** The redis, postgres and e2e tiers' setup: Debian's redis-server, installed when missing (test/helpers/redis.ts). */
import { ensureRedisServer } from '../helpers/redis.js';

export default async function setup(): Promise<void> {
  await ensureRedisServer();
}
