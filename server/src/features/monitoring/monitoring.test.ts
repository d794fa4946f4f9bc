import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readinessAnswer } from '@edu/domain/monitoring/monitoring';
import { cardTransactions } from '../../db/schema/index.ts';
import { scheduleJob } from '../../platform/jobs.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { bearerMatches } from './routes.ts';

const TOKEN = `metrics-${randomUUID()}`;

/** The samples of a metric in Prometheus text: its labels (as an object) and value, HELP/TYPE lines left out. */
function samples(body: string, name: string): Array<{ labels: Record<string, string>; value: number }> {
  return body.split('\n').flatMap((line) => {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) return [];
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    return [{ labels, value: Number(m[3]) }];
  });
}

describe('GET /metrics and GET /api/ready', () => {
  let off: TestApp;
  let on: TestApp;
  beforeAll(async () => {
    [off, on] = await Promise.all([createTestApp(), createTestApp({ metricsToken: TOKEN })]);
  });
  afterAll(async () => {
    await Promise.all([off?.close(), on?.close()]);
  });

  it('is off without METRICS_TOKEN: a 404 like an unknown route, and nothing is measured', async () => {
    expect(off.app.metrics).toBeNull();
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await off.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual((await off.inject({ method: 'GET', url: '/api/no-such-route' })).json());
    }
  });

  it('asks for the token: 401 without it or with another', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${TOKEN}x`, TOKEN, 'Bearer ']) {
      const res = await on.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body).not.toContain('http_requests_total');
    }
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(undefined, '')).toBe(false);
  });

  it('counts requests by route pattern and status, never by the raw URL', async () => {
    const user = await on.loginAs(await on.createUser());
    const missing = await on.inject({ method: 'GET', url: '/api/entry/2147483000', headers: user });
    expect(missing.statusCode).toBe(404);
    const res = await on.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const counted = samples(res.body, 'http_requests_total').filter((s) => s.labels.route === '/api/entry/:id');
    expect(counted).toEqual([{ labels: { method: 'GET', route: '/api/entry/:id', status_code: '404' }, value: 1 }]);
    const buckets = samples(res.body, 'http_request_duration_seconds_count').filter((s) => s.labels.route === '/api/entry/:id');
    expect(buckets.map((b) => b.value)).toEqual([1]);
    expect(res.body).not.toContain('2147483000');
    // The first scrape counts itself only once it has answered: the second sees it.
    const again = await on.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(samples(again.body, 'http_requests_total').find((s) => s.labels.route === '/metrics' && s.labels.status_code === '200')?.value).toBe(1);
  });

  it('reports the process, the pools, the queues and the backlogs, read when scraped', async () => {
    const scrape = async () => (await on.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    const before = await scrape();
    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'edu_database_up',
      'edu_db_pool_size',
      'edu_db_pool_in_use',
      'edu_db_pool_waiting',
      'edu_converter_running',
      'edu_converter_queued',
      'edu_uniqueness_pool_running',
      'edu_uniqueness_pool_queued',
      'edu_mail_oldest_event_seconds',
    ])
      expect(samples(before, name).length, name).toBeGreaterThan(0);
    expect(samples(before, 'edu_database_up')[0].value).toBe(1);
    expect(samples(before, 'edu_db_pool_size')[0].value).toBeGreaterThan(0);
    expect(
      samples(before, 'edu_converter_queued')
        .map((s) => s.labels.converter)
        .sort(),
    ).toEqual(['chromium', 'libreoffice']);
    expect(
      samples(before, 'edu_mail_backlog')
        .map((s) => s.labels.kind)
        .sort(),
    ).toEqual(['event', 'mailing']);
    expect(samples(before, 'edu_payments_awaiting_reconciliation')).toEqual(
      ['pending', 'waiting_for_capture', 'refund'].map((state) => ({ labels: { state }, value: 0 })),
    );
    for (const name of ['edu_jobs_waiting', 'edu_jobs_running', 'edu_jobs_oldest_waiting_seconds']) expect(before, name).toContain(`# TYPE ${name} gauge`);

    // A job due ten minutes ago (no runner in tests) and a payment the provider has not answered.
    await scheduleJob(on.database.db, 'purge-deleted-files', {}, { runAt: new Date(Date.now() - 600_000) });
    await on.database.db
      .insert(cardTransactions)
      .values({ uuid: randomUUID(), provider: 'yookassa', idempotence_key: randomUUID(), status: 'pending', sum: 100 });
    const after = await scrape();
    expect(samples(after, 'edu_jobs_waiting').find((s) => s.labels.name === 'purge-deleted-files')?.value).toBe(1);
    expect(samples(after, 'edu_jobs_oldest_waiting_seconds').find((s) => s.labels.name === 'purge-deleted-files')?.value).toBeGreaterThanOrEqual(599);
    expect(samples(after, 'edu_payments_awaiting_reconciliation').find((s) => s.labels.state === 'pending')?.value).toBe(1);
  });

  it('counts the connection a transaction holds, and on PGlite the statements queued behind it', async () => {
    const stats = () => on.database.poolStats!();
    expect(stats()).toMatchObject({ inUse: 0, waiting: 0 });
    let outside: Promise<unknown> | undefined;
    await on.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      expect(stats().inUse).toBe(1);
      // A statement outside the transaction: PGlite's one connection is held, so it waits until the end.
      outside = Promise.resolve(on.database.db.execute(sql`select 2`));
      await new Promise((resolve) => setImmediate(resolve));
      if (on.database.kind === 'pglite') expect(stats()).toEqual({ total: 1, inUse: 1, waiting: 1 });
    });
    await outside;
    expect(stats()).toMatchObject({ inUse: 0, waiting: 0 });
  });

  it('GET /api/ready: 200 when the database answers, with the optional parts', async () => {
    const res = await off.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    const body = readinessAnswer.parse(res.json());
    expect(body.ready).toBe(true);
    expect(body.database).toMatchObject({ ok: true, kind: off.database.kind });
    expect(body.database.ms).toBeGreaterThanOrEqual(0);
    expect(Object.keys(body.parts).sort()).toEqual(['mail', 'payments', 'printing', 'site']);
    // The test app: a real SMTP server, the payment sandbox, no Joomla site.
    expect(body.parts.mail).toMatchObject({ working: true, mode: 'smtp' });
    expect(body.parts.payments).toMatchObject({ working: true, mode: 'sandbox' });
    expect(body.parts.site).toMatchObject({ working: false, mode: 'off' });
    expect(body.parts.printing.libreoffice).toBe(off.app.converters.office.missing() === null);
    expect(body.parts.printing.chromium).toBe(off.app.converters.html.missing() === null);
  });

  it('GET /api/ready: 503 when the database does not answer', async () => {
    const down = await createTestApp();
    try {
      await down.database.close();
      const res = await down.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      const body = readinessAnswer.parse(res.json());
      expect(body).toMatchObject({ ready: false, message: 'База данных не отвечает', database: { ok: false, ms: null } });
      // The cheap liveness answer does not ask the database.
      expect((await down.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ ok: true });
    } finally {
      down.database.close = async () => {};
      await down.close();
    }
  });
});
