import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { describe, expect, it, inject } from 'vitest';
import { openPglite, openPostgres, rows, type Database } from '../src/platform/db.ts';
import { prepareDatabase } from '../src/platform/startup.ts';

const demo = { seedDemo: true, demoPassword: 'demo-pass' };

async function counts(database: Database) {
  const [r] = await rows<{ users: number; services: number; packages: number; regions: number }>(
    database.db,
    sql`select (select count(*) from users)::int as users, (select count(*) from services)::int as services,
               (select count(*) from service_packages)::int as packages, (select count(*) from dict_regions)::int as regions`,
  );
  return r;
}

describe('start-up', () => {
  it('the embedded database keeps its data across a restart and a second start adds nothing', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-pglite-'));
    try {
      const first = await openPglite(dir);
      const creds = await prepareDatabase(first, demo);
      expect(creds?.operator.email).toBe('demo-operator@example.com');
      await first.db.execute(sql`insert into dict_profiles (fdv) values ('Профиль, добавленный оператором')`);
      const before = await counts(first);
      await first.close();

      const second = await openPglite(dir);
      await prepareDatabase(second, demo);
      expect(await counts(second)).toEqual(before);
      const [kept] = await rows<{ n: number }>(second.db, sql`select count(*)::int as n from dict_profiles where fdv = 'Профиль, добавленный оператором'`);
      expect(kept.n).toBe(1);
      await second.close();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it.runIf(inject('dbKind') === 'postgres')('two instances starting at once on one empty PostgreSQL migrate and seed once', async () => {
    const adminUrl = inject('pgAdminUrl');
    const name = `${inject('pgTemplate')}_fstart${Date.now() % 100000}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    const a = openPostgres(u.toString(), 3);
    const b = openPostgres(u.toString(), 3);
    try {
      await Promise.all([prepareDatabase(a, demo), prepareDatabase(b, demo)]);
      const c = await counts(a);
      // The demo operator, the demo user and the demo clients of the lived-in seed, each once.
      const [dupes] = await rows<{ n: number; demo: number }>(
        a.db,
        sql`select (select count(*)::int from (select lower(email) from users group by lower(email) having count(*) > 1) d) as n,
              (select count(*)::int from users where email in ('demo-operator@example.com', 'demo-user@example.com')) as demo`,
      );
      expect(dupes).toEqual({ n: 0, demo: 2 });
      expect(c.packages).toBe(2);
      expect(c.regions).toBe(89);
      // A later start adds nothing.
      await prepareDatabase(a, demo);
      expect(await counts(a)).toEqual(c);
    } finally {
      await a.close();
      await b.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
