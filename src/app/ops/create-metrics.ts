import type { PrometheusMetrics, PrometheusMetricsOptions } from './prometheus.js';

/**
 * Loads prom-client (only now: nothing of it is imported otherwise) and returns metrics in a registry
 * of their own, with Node's default metrics (event-loop delay, heap, GC, CPU) and the default label
 * `cluster` on every series. See src/app/ops/prometheus.ts for the names.
 */
export async function createMetrics(options: PrometheusMetricsOptions): Promise<PrometheusMetrics> {
  const { PrometheusMetrics } = await import('./prometheus.js');
  return new PrometheusMetrics(options);
}
