import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, rows, type Database } from '../../platform/db.ts';
import { seedDemo, seedDictionaries } from '../../db/seed/seed.ts';
import { demoUser } from '../../db/seed/demo-data.ts';

let database: Database;
beforeAll(async () => {
  database = await openPglite(undefined);
  await database.migrate();
  await seedDictionaries(database.db);
  await seedDemo(database.db, { password: 'demo1234', now: new Date('2026-03-10T09:00:00Z') });
}, 120_000);
afterAll(() => database?.close());

describe('demo publications', () => {
  it('the demo user has publications in every status but the journal one, priced on their entries; others wait for the check', async () => {
    const mine = await rows<{ status: number; price: string; entry_price: string; manager_comment: string | null }>(
      database.db,
      sql`select p.status, pp.price, e.price as entry_price, p.manager_comment from publications p
          join users u on u.id = p.created_by join publication_prices pp on pp.id = p.price_id
          join publication_entries pe on pe.publication_id = p.id join entries e on e.id = pe.entry_id
          where lower(u.email) = ${demoUser.email.toLowerCase()} order by p.status`,
    );
    expect(mine.map((p) => p.status)).toEqual([0, 1, 2, 3, 4]);
    expect(mine.every((p) => Number(p.price) === Number(p.entry_price))).toBe(true);
    expect(mine.find((p) => p.status === 3)?.manager_comment).toBeTruthy();
    const [{ n }] = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from publications where status = 1`);
    expect(n).toBeGreaterThanOrEqual(3);
  });
});
