import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@edu/domain/common/codes';
import { lastMonthGrowth, thousands } from '@edu/domain/statistics/statistics';
import { sql } from 'drizzle-orm';
import { entries, payments, publications } from '../../db/schema/index.ts';
import { KEPT_FOR_MS, StatisticsCache } from './statistics-repository.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';

let t: TestApp;
let headers: Record<string, string>;
let clientId: number;
let serviceId: number;

/** 'MM.YYYY' and a moment in the middle of the Moscow month `back` months ago. */
function month(back: number): { key: string; at: Date } {
  const [y, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow', year: 'numeric', month: '2-digit' }).format(new Date()).split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 - back, 15, 9, 0, 0));
  return { key: `${String(d.getUTCMonth() + 1).padStart(2, '0')}.${d.getUTCFullYear()}`, at: d };
}

beforeAll(async () => {
  t = await createTestApp();
  const op = await t.createUser({ role: Role.operator });
  headers = await t.loginAs(op);
  const db = t.database.db;
  const client = await t.createUser({ created_at: month(1).at });
  await t.createUser({ created_at: month(0).at });
  await t.createUser({ created_at: month(0).at });
  await t.createUser({ created_at: month(0).at, deleted_at: new Date() });
  await t.createUser({ created_at: month(12).at });
  const service = await makeService(db);
  clientId = client.id;
  serviceId = service.id;
  let n = 0;
  const entry = (at: Date, deleted = false) => ({
    number: `ST-${++n}`,
    created_by: client.id,
    service_id: service.id,
    price: 1000,
    created_at: at,
    deleted_at: deleted ? new Date() : null,
  });
  await db
    .insert(entries)
    .values([entry(month(0).at), entry(month(0).at), entry(month(0).at, true), entry(month(1).at), entry(month(11).at), entry(month(12).at)]);
  await db.insert(payments).values([
    { sum: 1500.5, pay_type: 3, user_id: client.id, created_at: month(0).at },
    { sum: 2000, pay_type: 1, user_id: client.id, created_at: month(0).at },
    { sum: 1000, pay_type: 3, user_id: client.id, created_at: month(1).at },
    { sum: 999, pay_type: 3, user_id: client.id, created_at: month(12).at },
  ]);
});
afterAll(() => t.close());

const get = async (url: string) => {
  const res = await t.inject({ method: 'GET', url, headers });
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe('dashboard statistics', () => {
  it('counts entries per Moscow month over the last 12 months, oldest first, deleted ones left out', async () => {
    const stats = (await get('/api/entry/statistics')) as Record<string, number>;
    const keys = Object.keys(stats);
    expect(keys).toHaveLength(12);
    expect(keys[0]).toBe(month(11).key);
    expect(keys[11]).toBe(month(0).key);
    expect(stats[month(0).key]).toBe(2);
    expect(stats[month(1).key]).toBe(1);
    expect(stats[month(11).key]).toBe(1);
    expect(stats[month(12).key]).toBeUndefined();
    expect(Object.values(stats).reduce((a, b) => a + b, 0)).toBe(4);
  });

  it('sums income per month in rubles', async () => {
    const stats = (await get('/api/payment/statistics')) as Record<string, number>;
    expect(stats[month(0).key]).toBe(3500.5);
    expect(stats[month(1).key]).toBe(1000);
    expect(stats[month(2).key]).toBe(0);
  });

  it('counts registered users per month', async () => {
    const stats = (await get('/api/user/statistics')) as Record<string, number>;
    // The operator made in beforeAll registered now as well.
    expect(stats[month(0).key]).toBe(3);
    expect(stats[month(1).key]).toBe(1);
  });

  it('counts publications per month and the ones waiting for a check', async () => {
    expect((await get('/api/publication/count-pending')).count).toBe(0);
    const client = await t.createUser();
    await t.database.db.insert(publications).values([
      { title: 'Статья 1', status: 1, created_by: client.id },
      { title: 'Статья 2', status: 2, created_by: client.id },
      { title: 'Статья 3', status: 1, created_by: client.id, deleted_at: new Date() },
    ]);
    expect((await get('/api/publication/count-pending')).count).toBe(1);
    const stats = (await get('/api/publication/statistics')) as Record<string, number>;
    expect(stats[month(0).key]).toBe(2);
  });

  it('growth against the previous month and income in thousands', () => {
    expect(lastMonthGrowth({ '10.2026': 1000, '11.2026': 3500.5 })).toEqual({ value: 3500.5, previous: 1000, growth: 250.1 });
    expect(lastMonthGrowth({ '10.2026': 0, '11.2026': 5 }).growth).toBeNull();
    expect(thousands(3500.5).replace(/\s/g, ' ')).toBe('3,5 тыс.');
  });

  it('shows a new entry or payment at once and a removed new entry at once (rows newer than the cut are counted live)', async () => {
    const before = (await get('/api/entry/statistics')) as Record<string, number>;
    const income = (await get('/api/payment/statistics')) as Record<string, number>;
    const now = month(0).key;
    const [fresh] = await t.database.db
      .insert(entries)
      .values({ number: 'ST-NEW', created_by: clientId, service_id: serviceId, price: 500 })
      .returning({ id: entries.id });
    await t.database.db.insert(payments).values({ sum: 250.25, pay_type: 3, user_id: clientId });
    expect(((await get('/api/entry/statistics')) as Record<string, number>)[now]).toBe(before[now] + 1);
    expect(((await get('/api/payment/statistics')) as Record<string, number>)[now]).toBe(income[now] + 250.25);
    await t.database.db.execute(sql`update entries set deleted_at = now() where id = ${fresh.id}`);
    expect(((await get('/api/entry/statistics')) as Record<string, number>)[now]).toBe(before[now]);
  });
});

describe('statistics cache', () => {
  it('keeps rows older than the cut for 10 minutes, then serves the stale figures while one recount runs', async () => {
    let shift = 0;
    const cache = new StatisticsCache(t.database.db, { now: () => Date.now() + shift });
    // Two first calls at once share one count.
    const [first, again] = await Promise.all([cache.monthly('entry'), cache.monthly('entry')]);
    expect(again).toEqual(first);
    const key = month(1).key;
    // An entry of last month written now (older than the cut): the kept part does not see it yet.
    await t.database.db.insert(entries).values({ number: 'ST-OLD', created_by: clientId, service_id: serviceId, price: 100, created_at: month(1).at });
    expect((await cache.monthly('entry'))[key]).toBe(first[key]);

    shift = KEPT_FOR_MS + 1_000;
    // Expired: the stale figures are served, one recount starts for all callers.
    const calls = [cache.monthly('entry')];
    const recount = cache.recounting('entry');
    expect(recount).toBeDefined();
    calls.push(cache.monthly('entry'), cache.monthly('entry'));
    expect(cache.recounting('entry')).toBe(recount);
    for (const s of await Promise.all(calls)) expect(s[key]).toBe(first[key]);
    await recount;
    expect(cache.recounting('entry')).toBeUndefined();
    expect((await cache.monthly('entry'))[key]).toBe(first[key] + 1);
  });
});
