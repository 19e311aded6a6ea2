/** Prometheus metrics: what the rest of the app may use of src/metrics. */
export { Metrics } from './metrics';
export { MetricsModule } from './metrics.module';
export { registerMetrics } from './metrics-route';
