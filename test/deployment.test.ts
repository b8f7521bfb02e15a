/**
 * The deployment files (docs/operations.md, "Self-hosting"): compose.yaml, .env.example and the table of
 * docs/configuration.md list every variable the config module reads (CONFIG_VARIABLES), so the three stay
 * in step with src/app/config.ts; the Dockerfile and the compose services keep the properties docs/operations.md
 * promises; and every query of the Grafana dashboard names metrics the bot exports, since a misspelt
 * name draws an empty panel rather than an error; and npm installed one undici. Reads files
 * only: no Docker engine, no Prometheus.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES } from '../src/app/config.js';
import { productionNodeFlags } from '../scripts/bench-support.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string | string[];
  environment?: Record<string, unknown> | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  volumes?: (string | { type?: string; source?: string; target?: string })[];
  profiles?: string[];
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const compose = parse(read('compose.yaml'), { merge: true }) as ComposeFile;
const service = (name: string): ComposeService => {
  const found = compose.services[name];
  if (!found) throw new Error(`compose.yaml has no service "${name}"`);
  return found;
};

/** The variable names of a service's `environment`, in either of its two forms (map, or `NAME=value` list). */
function environmentNames(s: ComposeService): string[] {
  if (Array.isArray(s.environment)) return s.environment.map((entry) => entry.split('=')[0]!);
  return Object.keys(s.environment ?? {});
}

/** The named volumes a service mounts (short `name:/path` or long syntax); bind mounts and anonymous volumes are left out. */
function namedVolumes(s: ComposeService): string[] {
  return (s.volumes ?? []).flatMap((v) => {
    if (typeof v !== 'string') return v.type === 'volume' && v.source ? [v.source] : [];
    const [source, target] = v.split(':');
    return target && source && !/^[./~]/.test(source) ? [source] : [];
  });
}

describe('every variable the config module reads is listed', () => {
  it('has variables to check', () => {
    // A sanity floor: an empty list would make every test below pass vacuously.
    expect(CONFIG_VARIABLES.length).toBeGreaterThan(20);
    expect(CONFIG_VARIABLES).toEqual(expect.arrayContaining(['DISCORD_TOKEN', 'SHARD_COUNT', 'METRICS_PORT', 'DISCORD_REST_PROXY']));
  });

  it("in compose.yaml, under the bot service's environment", () => {
    const listed = new Set(environmentNames(service('bot')));
    expect(
      CONFIG_VARIABLES.filter((name) => !listed.has(name)),
      'missing from compose.yaml services.bot.environment',
    ).toEqual([]);
  });

  it('in .env.example, as NAME= or # NAME= at the start of a line', () => {
    const text = read('.env.example');
    expect(
      CONFIG_VARIABLES.filter((name) => !new RegExp(`^(# ?)?${name}=`, 'm').test(text)),
      'missing from .env.example',
    ).toEqual([]);
  });

  it('in the table of docs/configuration.md, as a row of its own', () => {
    const page = read('docs/configuration.md');
    expect(
      CONFIG_VARIABLES.filter((name) => !page.includes(`| \`${name}\` |`)),
      'missing from the table of docs/configuration.md',
    ).toEqual([]);
  });
});

/** The Dockerfile's instructions, continuation lines joined and comments dropped, each as [keyword, rest]. */
function dockerInstructions(text: string): [string, string][] {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return [keyword!.toUpperCase(), rest.join(' ')];
    });
}

describe('Dockerfile', () => {
  const instructions = dockerInstructions(read('Dockerfile'));
  const froms = instructions.flatMap(([k, rest], i) => (k === 'FROM' ? [{ image: rest.split(/\s+/)[0]!, index: i }] : []));
  const final = instructions.slice(froms.at(-1)?.index ?? 0);

  it('builds in stages and runs on the Node 24 LTS slim image', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    expect(froms.at(-1)!.image).toMatch(/^node:24(\.\d+)*(-[a-z]+)?-slim(@sha256:[0-9a-f]+)?$/);
  });

  it('runs the built JavaScript, with what dist/ reads beside it, as a user that is not root', () => {
    const users = final.filter(([k]) => k === 'USER').map(([, rest]) => rest.split(':')[0]);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)$/);
    const copied = final.filter(([k]) => k === 'COPY').map(([, rest]) => rest);
    // package.json says "type": "module" (dist/ is ES modules); the fonts, the locale files, the replica's
    // samples and the playground page's HTML and stylesheet are read from the checkout's places.
    for (const path of ['package.json', 'dist', 'node_modules', 'assets', 'src']) {
      expect(
        copied.some((c) => c.split(/\s+/).includes(path) || c.includes(`/app/${path}`)),
        `the final stage copies ${path}`,
      ).toBe(true);
    }
    const cmd = final.filter(([k]) => k === 'CMD').at(-1)?.[1];
    expect(cmd).toContain('dist/index.js');
  });

  it('runs node with the flags of npm start, as the supervisor command and systemd unit of docs/operations.md do', () => {
    const flags = productionNodeFlags(ROOT);
    expect(flags).toContain('--max-semi-space-size=2');
    expect(flags).toContain('--v8-pool-size=1');
    const cmd = JSON.parse(final.filter(([k]) => k === 'CMD').at(-1)![1]) as string[];
    expect(cmd.slice(0, 1 + flags.length)).toEqual(['node', ...flags]);
    const operations = read('docs/operations.md');
    expect(operations).toContain(`\nnode ${flags.join(' ')} dist/index.js`);
    expect(operations).toContain(`ExecStart=/usr/bin/node ${flags.join(' ')} dist/index.js`);
  });

  it('has a HEALTHCHECK on /healthz', () => {
    const healthchecks = final.filter(([k]) => k === 'HEALTHCHECK').map(([, rest]) => rest);
    expect(healthchecks).toHaveLength(1);
    expect(healthchecks[0]).not.toMatch(/^NONE/i);
    expect(healthchecks[0]).toContain('/healthz');
  });

  it('leaves installed and built files, data and secrets out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', 'data', '.git', '.env']));
  });
});

describe('compose.yaml', () => {
  it('runs PostgreSQL and Redis each with a health check and a named volume', () => {
    for (const name of ['postgres', 'redis']) {
      const s = service(name);
      expect(s.healthcheck?.test, `${name} has a healthcheck`).toBeTruthy();
      expect(s.healthcheck?.disable).not.toBe(true);
      const volumes = namedVolumes(s);
      expect(volumes.length, `${name} mounts a named volume`).toBeGreaterThan(0);
      for (const v of volumes) expect(Object.keys(compose.volumes ?? {})).toContain(v);
    }
  });

  it('runs Redis with the append-only file', () => {
    const command = service('redis').command;
    const line = Array.isArray(command) ? command.join(' ') : (command ?? '');
    expect(line).toMatch(/--appendonly\s+yes/);
  });

  it('starts the bot once PostgreSQL and Redis are healthy, and points it at them', () => {
    const bot = service('bot');
    expect(Array.isArray(bot.depends_on)).toBe(false);
    const deps = bot.depends_on as Record<string, { condition?: string }>;
    expect(deps.postgres?.condition).toBe('service_healthy');
    expect(deps.redis?.condition).toBe('service_healthy');
    const env = bot.environment as Record<string, string>;
    expect(env.DATABASE_URL).toMatch(/^\$\{DATABASE_URL:-postgres:\/\/[^@]+@postgres:5432\//);
    expect(env.REDIS_URL).toBe('${REDIS_URL:-redis://redis:6379}');
    expect(env.METRICS_PORT).toBe('${METRICS_PORT:-9100}');
  });

  it('keeps the REST proxy behind the `proxy` profile, and the bot not depending on it', () => {
    const proxy = service('rest-proxy');
    expect(proxy.profiles).toEqual(['proxy']);
    expect(JSON.stringify(proxy.command)).toContain('dist/rest-proxy.js');
    expect(JSON.stringify(proxy.healthcheck?.test)).toContain('/healthz');
    // A dependency on a service whose profile is off makes the whole project invalid for a plain `docker compose up`.
    expect(Object.keys(service('bot').depends_on ?? {})).not.toContain('rest-proxy');
  });

  it("keeps the dashboard's own service behind the `web` profile, with the bot's environment", () => {
    const web = service('web');
    expect(web.profiles).toEqual(['web']);
    expect(JSON.stringify(web.command)).toContain('dist/web.js');
    expect(web.environment).toEqual(service('bot').environment);
    expect(Object.keys(service('bot').depends_on ?? {})).not.toContain('web');
  });
});

/**
 * The metrics the bot exports (src/ops); a histogram also exports `_bucket`, `_sum` and `_count`.
 * Every series also has the label `cluster`.
 */
const COUNTERS_AND_GAUGES = [
  'rivals_interactions_total',
  'rivals_upstream_requests_total',
  'rivals_cache_hits_total',
  'rivals_cache_misses_total',
  'rivals_feed_posts_found_total',
  'rivals_feed_posts_delivered_total',
  'rivals_feed_posts_failed_total',
  'rivals_gateway_latency_seconds',
  'rivals_gateway_status',
  'rivals_gateway_ready',
  'nodejs_eventloop_lag_p99_seconds',
  'nodejs_heap_size_used_bytes',
  'process_resident_memory_bytes',
];
const HISTOGRAMS = ['rivals_interaction_ack_seconds', 'rivals_interaction_answer_seconds', 'rivals_rate_limiter_wait_seconds'];
const EXPORTED = new Set([...COUNTERS_AND_GAUGES, ...HISTOGRAMS.flatMap((h) => [`${h}_bucket`, `${h}_sum`, `${h}_count`])]);
/** The metric a series name belongs to: a histogram's `_bucket`, `_sum` and `_count` belong to the histogram. */
const metricOf = (series: string) => {
  const histogram = /^(.*)_(bucket|sum|count)$/.exec(series)?.[1];
  return histogram && HISTOGRAMS.includes(histogram) ? histogram : series;
};
/** PromQL's functions, aggregation operators and keywords that the dashboard may use. */
const PROMQL_WORDS = new Set([
  'sum',
  'avg',
  'min',
  'max',
  'count',
  'topk',
  'bottomk',
  'quantile',
  'rate',
  'irate',
  'increase',
  'delta',
  'deriv',
  'histogram_quantile',
  'clamp_min',
  'clamp_max',
  'abs',
  'vector',
  'scalar',
  'time',
  'avg_over_time',
  'max_over_time',
  'min_over_time',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
]);

/** The metric names in a PromQL expression: its identifiers once label matchers, ranges, groupings, strings, numbers and PromQL's own words are removed. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  return (bare.match(/[A-Za-z_:][A-Za-z0-9_:]*/g) ?? []).filter((word) => !PROMQL_WORDS.has(word));
}

interface Panel {
  type: string;
  title?: string;
  datasource?: { type?: string; uid?: string };
  targets?: { expr?: string; datasource?: { uid?: string } }[];
  panels?: Panel[];
}

describe('the Grafana dashboard (deploy/grafana/rivals-bot.json)', () => {
  const dashboard = JSON.parse(read('deploy/grafana/rivals-bot.json')) as {
    __inputs: { name: string; type: string; pluginId: string }[];
    schemaVersion: number;
    panels: Panel[];
    templating: { list: { name: string; query?: string | { query: string } }[] };
  };
  const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]).filter((p) => p.type !== 'row');

  it('reads the metric names right', () => {
    expect(metricNames('histogram_quantile(0.95, sum by (le, kind) (rate(rivals_interaction_answer_seconds_bucket{cluster=~"$cluster"}[5m])))')).toEqual([
      'rivals_interaction_answer_seconds_bucket',
    ]);
    expect(metricNames('sum(rate(a_total[$__rate_interval])) / (sum(rate(a_total[5m])) + sum(rate(b_total{x="y"}[5m])))')).toEqual([
      'a_total',
      'a_total',
      'b_total',
    ]);
  });

  it('imports anywhere: a Prometheus data source input, used by every panel and query', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' })]);
    expect(panels.length).toBeGreaterThan(5);
    for (const p of panels) {
      expect(p.datasource?.uid, p.title).toBe('${DS_PROMETHEUS}');
      for (const t of p.targets ?? []) expect(t.datasource?.uid ?? '${DS_PROMETHEUS}', p.title).toBe('${DS_PROMETHEUS}');
    }
  });

  it('queries only metrics the bot exports, and each of them', () => {
    const used = new Set<string>();
    for (const p of panels) {
      expect(p.targets?.length, `${p.title} has a query`).toBeGreaterThan(0);
      for (const t of p.targets ?? []) {
        const names = metricNames(t.expr ?? '');
        expect(names.length, `${p.title}: ${t.expr} names a metric`).toBeGreaterThan(0);
        expect(
          names.filter((n) => !EXPORTED.has(n)),
          `${p.title}: ${t.expr}`,
        ).toEqual([]);
        for (const n of names) used.add(metricOf(n));
      }
    }
    expect(
      [...COUNTERS_AND_GAUGES, ...HISTOGRAMS].filter((m) => !used.has(m)),
      'metrics no panel shows',
    ).toEqual([]);
    for (const variable of dashboard.templating.list) {
      const query = typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? '');
      const labelValues = /^label_values\((\w+),\s*(\w+)\)$/.exec(query);
      if (labelValues) expect(EXPORTED.has(labelValues[1]!), `variable ${variable.name}: ${query}`).toBe(true);
    }
  });
});

describe('deploy/prometheus.yml', () => {
  it('scrapes /metrics of the bot', () => {
    const config = parse(read('deploy/prometheus.yml')) as {
      scrape_configs: { job_name: string; metrics_path?: string; static_configs: { targets: string[] }[] }[];
    };
    const job = config.scrape_configs.find((j) => j.job_name === 'rivals-bot');
    expect(job?.metrics_path ?? '/metrics').toBe('/metrics');
    expect(job?.static_configs.flatMap((c) => c.targets)).toContain('127.0.0.1:9100');
  });
});

describe('installed packages', () => {
  it('one copy of undici: the bot, discord.js and @discordjs/rest share it (two more copies cost about 30 MiB of RSS and start-up time)', () => {
    const version = (dir: string) => (JSON.parse(read(join(dir, 'package.json'))) as { version: string }).version;
    const ours = version('node_modules/undici');
    expect((JSON.parse(read('package.json')) as { dependencies: Record<string, string> }).dependencies.undici).toBe(ours);
    for (const dependent of ['discord.js', '@discordjs/rest']) {
      // Node resolves `undici` from a package to its own node_modules first: no copy there means it gets ours.
      expect(() => readFileSync(join(ROOT, 'node_modules', dependent, 'node_modules/undici/package.json')), `${dependent} has its own undici`).toThrow();
    }
  });
});
