import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_RIVALS_API_RPM, loadConfig } from '../../src/app/config.js';

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const c = loadConfig({});
    expect(c.discord.apiUrl).toBe('https://discord.com/api');
    expect(c.rivals.baseUrl).toBe('https://marvelrivalsapi.com');
    expect(c.rivals.imageBaseUrl).toBe('https://marvelrivalsapi.com/rivals');
    expect(c.rivals.requestsPerMinute).toBe(DEFAULT_RIVALS_API_RPM);
    expect(c.rivals.apiKey).toBeUndefined();
    expect(c.dataDir).toBe('./data');
    expect(c.logLevel).toBe('info');
    expect(c.redisUrl).toBeUndefined();
  });

  it('treats empty strings as unset, as .env files write them', () => {
    const c = loadConfig({ RIVALS_API_KEY: '', DISCORD_TOKEN: '  ', RIVALS_API_RPM: '' });
    expect(c.rivals.apiKey).toBeUndefined();
    expect(c.discord.token).toBeUndefined();
    expect(c.rivals.requestsPerMinute).toBe(DEFAULT_RIVALS_API_RPM);
  });

  it('reads every contract variable', () => {
    const c = loadConfig({
      DISCORD_TOKEN: 'tok',
      DISCORD_CLIENT_ID: '123',
      DISCORD_DEV_GUILD_ID: '456',
      DISCORD_API_URL: 'http://127.0.0.1:9999/api/',
      RIVALS_API_KEY: 'key',
      RIVALS_API_BASE_URL: 'http://127.0.0.1:8080/',
      RIVALS_API_RPM: '120',
      REDIS_URL: 'redis://127.0.0.1:6379',
      DATA_DIR: '/tmp/x',
      LOG_LEVEL: 'debug',
    });
    expect(c.discord).toEqual({ token: 'tok', clientId: '123', devGuildId: '456', apiUrl: 'http://127.0.0.1:9999/api' });
    expect(c.rivals.baseUrl).toBe('http://127.0.0.1:8080');
    expect(c.rivals.imageBaseUrl).toBe('http://127.0.0.1:8080/rivals');
    expect(c.rivals.requestsPerMinute).toBe(120);
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(c.dataDir).toBe('/tmp/x');
    expect(c.logLevel).toBe('debug');
  });

  it('names each bad variable in one error', () => {
    try {
      loadConfig({ RIVALS_API_RPM: 'fast', LOG_LEVEL: 'loud', RIVALS_API_BASE_URL: 'ftp://x' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const e = err as ConfigError;
      expect(e.problems.map((p) => p.variable).sort()).toEqual(['LOG_LEVEL', 'RIVALS_API_BASE_URL', 'RIVALS_API_RPM']);
      expect(e.message).toContain('RIVALS_API_RPM');
      expect(e.message).toContain('"fast"');
    }
  });

  it('never echoes a secret value in its error', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://user:hunter2-secret@host' })).toThrow(ConfigError);
    try {
      loadConfig({ REDIS_URL: 'http://user:hunter2-secret@host' });
    } catch (err) {
      expect((err as Error).message).toContain('REDIS_URL');
      expect((err as Error).message).not.toContain('hunter2-secret');
    }
  });

  it('parses CACHE_TTL overrides in seconds, with "forever"', () => {
    const c = loadConfig({ CACHE_TTL: 'player=120, heroes=forever' });
    expect(c.cache.ttlOverrides).toEqual({ player: 120_000, heroes: Number.POSITIVE_INFINITY });
    expect(() => loadConfig({ CACHE_TTL: 'players=5' })).toThrow(/CACHE_TTL.*unknown resource "players"/s);
    expect(() => loadConfig({ CACHE_TTL: 'player=-1' })).toThrow(/CACHE_TTL/);
  });

  it('reads CACHE_MAX_BYTES, 64 MiB by default, positive and whole', () => {
    expect(loadConfig({}).cache.maxBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ CACHE_MAX_BYTES: '1048576' }).cache.maxBytes).toBe(1_048_576);
    expect(() => loadConfig({ CACHE_MAX_BYTES: '0' })).toThrow(/CACHE_MAX_BYTES/);
    expect(() => loadConfig({ CACHE_MAX_BYTES: '1.5' })).toThrow(/CACHE_MAX_BYTES/);
    expect(() => loadConfig({ CACHE_MAX_BYTES: '64MB' })).toThrow(/CACHE_MAX_BYTES/);
  });

  it('rejects a non-positive or fractional rate', () => {
    expect(() => loadConfig({ RIVALS_API_RPM: '0' })).toThrow(/RIVALS_API_RPM/);
    expect(() => loadConfig({ RIVALS_API_RPM: '1.5' })).toThrow(/RIVALS_API_RPM/);
  });

  it('reads sharding: SHARD_COUNT auto or a number, SHARDS_PER_CLUSTER, and one of SHARD_IDS and CLUSTER_IDS', () => {
    expect(loadConfig({}).sharding).toBeUndefined();
    expect(loadConfig({ SHARD_COUNT: 'auto' }).sharding).toEqual({ shardCount: 'auto', shardsPerCluster: 4, shardIds: undefined, clusterIds: undefined });
    expect(loadConfig({ SHARD_COUNT: '4', SHARDS_PER_CLUSTER: '2', SHARD_IDS: '3, 2,2' }).sharding).toEqual({
      shardCount: 4,
      shardsPerCluster: 2,
      shardIds: [2, 3],
      clusterIds: undefined,
    });
    expect(loadConfig({ SHARD_COUNT: '4', SHARDS_PER_CLUSTER: '2', CLUSTER_IDS: '1' }).sharding?.clusterIds).toEqual([1]);
    expect(() => loadConfig({ SHARD_COUNT: '0' })).toThrow(/SHARD_COUNT: must be "auto" or a whole number/);
    expect(() => loadConfig({ SHARD_COUNT: 'many' })).toThrow(/SHARD_COUNT/);
    expect(() => loadConfig({ SHARD_COUNT: '4', SHARD_IDS: '0,x' })).toThrow(/SHARD_IDS: must be whole numbers/);
    expect(() => loadConfig({ SHARD_COUNT: '4', SHARD_IDS: '4' })).toThrow(/SHARD_IDS: shard 4 is not below SHARD_COUNT \(4\)/);
    expect(() => loadConfig({ SHARD_COUNT: '4', SHARDS_PER_CLUSTER: '2', CLUSTER_IDS: '2' })).toThrow(/CLUSTER_IDS: cluster 2 does not exist/);
    expect(() => loadConfig({ SHARD_COUNT: '4', SHARD_IDS: '0', CLUSTER_IDS: '0' })).toThrow(/not both/);
    expect(() => loadConfig({ SHARD_IDS: '0' })).toThrow(/SHARD_IDS: needs SHARD_COUNT/);
  });

  it('reads the tracking intervals in seconds, 30 min and a day by default, the longest at least the shortest, and the match share from 0 to 1', () => {
    expect(loadConfig({}).tracking).toEqual({ minIntervalMs: 1_800_000, maxIntervalMs: 86_400_000, matchShare: 0.25 });
    expect(loadConfig({ TRACKING_MIN_INTERVAL_SECONDS: '2', TRACKING_MAX_INTERVAL_SECONDS: '10', TRACKING_MATCH_SHARE: '0.5' }).tracking).toEqual({
      minIntervalMs: 2_000,
      maxIntervalMs: 10_000,
      matchShare: 0.5,
    });
    expect(loadConfig({ TRACKING_MATCH_SHARE: '0' }).tracking.matchShare).toBe(0);
    expect(() => loadConfig({ TRACKING_MATCH_SHARE: '1.5' })).toThrow(/TRACKING_MATCH_SHARE: must be a number from 0 to 1 \(got "1.5"\)/);
    expect(() => loadConfig({ TRACKING_MATCH_SHARE: 'half' })).toThrow(/TRACKING_MATCH_SHARE: must be a number from 0 to 1 \(got "half"\)/);
    expect(() => loadConfig({ TRACKING_MIN_INTERVAL_SECONDS: '600', TRACKING_MAX_INTERVAL_SECONDS: '60' })).toThrow(
      /TRACKING_MAX_INTERVAL_SECONDS: must be at least TRACKING_MIN_INTERVAL_SECONDS \(600\) \(got "60"\)/,
    );
    expect(() => loadConfig({ TRACKING_MIN_INTERVAL_SECONDS: '0' })).toThrow(/TRACKING_MIN_INTERVAL_SECONDS: must be a number of seconds above 0 \(got "0"\)/);
  });

  it('names the range of every number it refuses, for a value out of it or not a number at all', () => {
    const problem = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        return (err as ConfigError).problems[0]!.message;
      }
      return 'accepted';
    };
    expect(problem({ PORT: '99999' })).toBe('must be a whole number from 0 to 65,535 (0: any free port) (got "99999")');
    expect(problem({ PORT: 'http' })).toBe('must be a whole number from 0 to 65,535 (0: any free port) (got "http")');
    expect(problem({ METRICS_PORT: '-1' })).toBe('must be a whole number from 0 to 65,535 (0: any free port) (got "-1")');
    expect(problem({ INTERACTION_BUDGET_MS: '100' })).toBe('must be a whole number from 3,000 to 900,000 milliseconds (15 min) (got "100")');
    expect(problem({ RIVALS_API_RPM: '0' })).toBe('must be a whole number from 1 (got "0")');
    expect(problem({ FEED_POLL_SECONDS: 'often' })).toBe('must be a number of seconds above 0 (got "often")');
  });

  it('reads METRICS_PORT and DISCORD_REST_PROXY', () => {
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9100', DISCORD_REST_PROXY: 'http://proxy:8080/' })).toMatchObject({
      metricsPort: 9100,
      discordRestProxy: 'http://proxy:8080',
    });
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ DISCORD_REST_PROXY: 'ftp://x' })).toThrow(/DISCORD_REST_PROXY/);
  });
});
