import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@edu/domain/common/codes';
import { lastMonthGrowth, thousands } from '@edu/domain/statistics/statistics';
import { entries, payments, publications } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';

let t: TestApp;
let headers: Record<string, string>;

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
  let n = 0;
  const entry = (at: Date, deleted = false) => ({ number: `ST-${++n}`, created_by: client.id, service_id: service.id, price: 1000, created_at: at, deleted_at: deleted ? new Date() : null });
  await db.insert(entries).values([entry(month(0).at), entry(month(0).at), entry(month(0).at, true), entry(month(1).at), entry(month(11).at), entry(month(12).at)]);
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
});
