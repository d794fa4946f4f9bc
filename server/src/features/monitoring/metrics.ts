import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import {
  jobBacklog,
  mailBacklog,
  paymentsAwaitingReconciliation,
  type JobBacklogRow,
  type MailBacklog,
  type ProviderBacklogRow,
} from './monitoring-repository.ts';

// The Prometheus metrics of GET /metrics (routes.ts), measured only when METRICS_TOKEN is set:
// - requests by route pattern (`/api/entry/:id`, never the raw URL), method and status: a counter
//   and a latency histogram, from one callback hook per request;
// - the process (prom-client's default metrics: event-loop lag, heap, CPU, handles…);
// - live state read when Prometheus scrapes, never on a timer: the database pool, the converters'
//   and the uniqueness pool's queues from memory, the jobs, the mail backlog and the payments
//   awaiting reconciliation from the database (one read per scrape, shared by their gauges).

declare module 'fastify' {
  interface FastifyInstance {
    /** The metrics registry; null when METRICS_TOKEN is not set (nothing is measured). */
    metrics: Registry | null;
  }
}

/** The route label of a request that matched no route (an unknown path, the web app's pages). */
export const UNMATCHED_ROUTE = '(unmatched)';

/** Seconds: from a cached read to an .xlsx export or a print. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

interface Snapshot {
  jobs: JobBacklogRow[];
  mail: MailBacklog;
  payments: ProviderBacklogRow[];
}

export const metricsPlugin = fp(async (app: FastifyInstance) => {
  if (!app.config.metricsToken) {
    app.decorate('metrics', null);
    return;
  }
  const registry = new Registry();
  app.decorate('metrics', registry);
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'Requests answered, by route pattern, method and status.', labelNames, registers });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to its answer, by route pattern, method and status.',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  // A callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status_code: reply.statusCode };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  // The database's rows, read once per scrape: every gauge below asks for the same read while it runs.
  let reading: Promise<Snapshot | null> | null = null;
  const snapshot = () =>
    (reading ??= Promise.all([jobBacklog(app.db), mailBacklog(app.db), paymentsAwaitingReconciliation(app.db)])
      .then(([jobs, mail, payments]) => ({ jobs, mail, payments }))
      .catch((err: unknown) => {
        app.log.warn({ err }, 'metrics: the database could not be read');
        return null;
      })
      .finally(() => {
        reading = null;
      }));

  new Gauge({
    name: 'edu_database_up',
    help: 'Whether the metrics read from the database answered (1) or failed (0).',
    registers,
    async collect() {
      this.set((await snapshot()) ? 1 : 0);
    },
  });

  const pool = (name: string, help: string, pick: (s: { total: number; inUse: number; waiting: number }) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const stats = app.database.poolStats?.();
        if (stats) this.set(pick(stats));
      },
    });
  pool('edu_db_pool_size', 'Database connections open (PGlite: its one connection).', (s) => s.total);
  pool('edu_db_pool_in_use', 'Database connections running a query or holding a transaction.', (s) => s.inUse);
  pool('edu_db_pool_waiting', 'Queries waiting for a database connection (PGlite: statements queued for its worker).', (s) => s.waiting);

  /** A gauge with labels set afresh from the snapshot at each scrape (labels gone from it disappear). */
  const fromSnapshot = <L extends string>(
    name: string,
    help: string,
    labels: readonly L[],
    fill: (set: (l: Record<L, string>, v: number) => void, s: Snapshot) => void,
  ) =>
    new Gauge<L>({
      name,
      help,
      labelNames: labels,
      registers,
      async collect() {
        const s = await snapshot();
        this.reset();
        if (s) fill((l, v) => (labels.length ? this.set(l, v) : this.set(v)), s);
      },
    });
  fromSnapshot('edu_jobs_waiting', 'Durable jobs due and not taken by a runner, by name (the whole install).', ['name'], (set, s) => {
    for (const j of s.jobs) set({ name: j.name }, j.waiting);
  });
  fromSnapshot('edu_jobs_running', 'Durable jobs a runner holds now, by name (the whole install).', ['name'], (set, s) => {
    for (const j of s.jobs) set({ name: j.name }, j.running);
  });
  fromSnapshot('edu_jobs_oldest_waiting_seconds', 'Seconds since the oldest waiting job of each name was due.', ['name'], (set, s) => {
    for (const j of s.jobs) set({ name: j.name }, j.oldest_s);
  });
  fromSnapshot('edu_mail_backlog', 'Letters not sent yet: event letters (event) and mass-mailing letters (mailing).', ['kind'], (set, s) => {
    set({ kind: 'event' }, s.mail.events);
    set({ kind: 'mailing' }, s.mail.mailing);
  });
  fromSnapshot('edu_mail_oldest_event_seconds', 'Seconds the oldest undelivered event letter has waited.', [], (set, s) => set({}, s.mail.events_oldest_s));
  const PAYMENT_STATES = ['pending', 'waiting_for_capture', 'refund'];
  fromSnapshot(
    'edu_payments_awaiting_reconciliation',
    'Card payments of the last 48 hours (pending, waiting_for_capture) and refunds (refund) the provider has not settled.',
    ['state'],
    (set, s) => {
      for (const state of PAYMENT_STATES) set({ state }, s.payments.find((p) => p.state === state)?.count ?? 0);
    },
  );
  fromSnapshot('edu_payments_oldest_awaiting_seconds', 'Seconds since the oldest unsettled payment or refund of each state was made.', ['state'], (set, s) => {
    for (const p of s.payments) if (p.count > 0) set({ state: p.state }, p.oldest_s);
  });

  const converters = { libreoffice: () => app.converters.office.stats(), chromium: () => app.converters.html.stats() };
  const converterGauge = (name: string, help: string, pick: 'running' | 'queued') =>
    new Gauge({
      name,
      help,
      labelNames: ['converter'],
      registers,
      collect() {
        for (const [converter, stats] of Object.entries(converters)) this.set({ converter }, stats()[pick]);
      },
    });
  converterGauge('edu_converter_running', 'Documents converting now, by converter (this instance).', 'running');
  converterGauge('edu_converter_queued', 'Documents waiting for a converter, by converter (this instance).', 'queued');
  new Gauge({
    name: 'edu_uniqueness_pool_running',
    help: 'Uniqueness tasks running in the worker threads (this instance).',
    registers,
    collect() {
      this.set(app.uniqueness.stats().running);
    },
  });
  new Gauge({
    name: 'edu_uniqueness_pool_queued',
    help: 'Uniqueness tasks waiting for a worker thread (this instance).',
    registers,
    collect() {
      this.set(app.uniqueness.stats().queued);
    },
  });
});
