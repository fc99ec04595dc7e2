import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per process; exposed at GET /metrics in the Prometheus text format. */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'gauntlet_http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });
  readonly statusFastLane = new Counter({
    name: 'gauntlet_status_fast_lane_answers_total',
    help: 'GET /api/scans/{id}/status answers given before the Nest pipeline (token already verified, account and scan in memory)',
    registers: [this.registry],
  });
  readonly eventsAppended = new Counter({
    name: 'gauntlet_events_appended_total',
    help: 'Domain events appended to the event store, by type',
    labelNames: ['type'],
    registers: [this.registry],
  });
  readonly appendConflicts = new Counter({
    name: 'gauntlet_append_conflicts_total',
    help: 'Appends retried after an expected-revision conflict',
    registers: [this.registry],
  });
  readonly projectionLag = new Gauge({
    name: 'gauntlet_projection_lag_events',
    help: 'How far the read models are behind the head of the log (embedded: events; EventStoreDB: log bytes)',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
