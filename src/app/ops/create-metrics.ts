import type { PrometheusMetrics, PrometheusMetricsOptions } from './prometheus.js';

/** Metrics in a registry of their own, with Node's default metrics and the label `cluster`; prom-client loads only now. */
export async function createMetrics(options: PrometheusMetricsOptions): Promise<PrometheusMetrics> {
  const { PrometheusMetrics } = await import('./prometheus.js');
  return new PrometheusMetrics(options);
}
