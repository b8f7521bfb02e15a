/** Reading the Prometheus text exposition in tests (Prometheus: "Exposition formats", text format 0.0.4). */
import { expect } from 'vitest';
import { pollUntil } from '../../helpers/until.js';

/**
 * The metrics a Grafana dashboard reads, by name, with their Prometheus type: none may be renamed.
 * (`rivals_interactions_total` and the other counters are listed under their sample name.)
 */
export const FIXED_METRICS: Record<string, 'counter' | 'histogram' | 'gauge'> = {
  rivals_interactions_total: 'counter',
  rivals_interaction_ack_seconds: 'histogram',
  rivals_interaction_answer_seconds: 'histogram',
  rivals_upstream_requests_total: 'counter',
  rivals_cache_hits_total: 'counter',
  rivals_cache_misses_total: 'counter',
  rivals_rate_limiter_wait_seconds: 'histogram',
  rivals_feed_posts_found_total: 'counter',
  rivals_feed_posts_delivered_total: 'counter',
  rivals_feed_posts_failed_total: 'counter',
  rivals_gateway_latency_seconds: 'gauge',
  rivals_gateway_status: 'gauge',
  rivals_gateway_ready: 'gauge',
  nodejs_eventloop_lag_p99_seconds: 'gauge',
  nodejs_heap_size_used_bytes: 'gauge',
};

/** One sample line: `name{label="value",...} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Every sample of an exposition (comment lines skipped; label values unescaped). */
export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = raw!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels` (0 when none). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);
}

/** The `# TYPE` of a metric in an exposition, or undefined when it is not listed. */
export function typeOf(text: string, name: string): string | undefined {
  return new RegExp(`^# TYPE ${name} (\\w+)$`, 'm').exec(text)?.[1];
}

/** Runs `check` until it passes (resolves with what it returns); past `timeoutMs`, fails with its last failure. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  let last: unknown;
  const passed = await pollUntil(
    async () => {
      try {
        return { value: await check() };
      } catch (err) {
        last = err;
        return false;
      }
    },
    'the check to pass',
    { timeoutMs, context: () => `its last failure: ${last instanceof Error ? last.message : String(last)}` },
  );
  return passed.value;
}

/** Fails unless every metric of {@link FIXED_METRICS} is listed in `text` with its type. */
export function expectFixedTypes(text: string): void {
  for (const [name, type] of Object.entries(FIXED_METRICS)) expect(typeOf(text, name), name).toBe(type);
}
