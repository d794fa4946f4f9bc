import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openPostgres } from '../src/platform/db.ts';
import { prepareDatabase } from '../src/platform/startup.ts';
import { createTestApp } from './helper.ts';

// Upgrades (issue 32): a database made by an older release, with its demo data, is migrated to the
// current schema on PostgreSQL and keeps every row; the app then works on it (the old accounts sign
// in, their entries and payments read as before). The fixtures are plain pg_dump files of each
// release's own `npm start` (demo data) on PostgreSQL, kept in test/fixtures/upgrade/ (name: the
// release's day and commit); server/test/fixtures/upgrade/README.md says how to make one.

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'upgrade');
const releases = fs.existsSync(FIXTURES) ? fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.sql.gz')) : [];

/** The dump's SQL without psql's meta-commands (\restrict of pg_dump 15.14+), for the pg client. */
const dumpSql = (file: string) =>
  zlib
    .gunzipSync(fs.readFileSync(path.join(FIXTURES, file)))
    .toString('utf8')
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n');

async function tableCounts(client: pg.Client): Promise<Record<string, number>> {
  const tables = await client.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' order by 1`);
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) counts[name] = Number((await client.query(`select count(*) from "${name}"`)).rows[0].count);
  return counts;
}

const onPostgres = inject('dbKind') === 'postgres';

describe.skipIf(!onPostgres)('a database made by an older release', () => {
  it('there are releases to upgrade from', () => {
    expect(releases.length).toBeGreaterThanOrEqual(2);
  });

  for (const release of releases) {
    it(`migrates ${release} to the current schema with its data intact, and the app works on it`, { timeout: 180_000 }, async () => {
      const adminUrl = inject('pgAdminUrl');
      const name = `upgrade_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const client = new pg.Client({ connectionString: url.toString() });
      try {
        await client.connect();
        await client.query(dumpSql(release));
        // pg_dump empties the search path for its own session.
        await client.query('set search_path to public');
        const before = await tableCounts(client);
        const oldUsers = (await client.query<{ id: number; email: string; password: string }>('select id, email, password from users order by id')).rows;
        const oldEntries = (
          await client.query<{ id: number; number: string; price: string; status: number }>('select id, number, price::text, status from entries order by id')
        ).rows;
        // The demo accounts at least (the first release seeded only them; later ones clients, entries, payments).
        expect(oldUsers.map((u) => u.email)).toEqual(expect.arrayContaining(['demo-operator@example.com', 'demo-user@example.com']));

        const database = openPostgres(url.toString(), 5);
        await prepareDatabase(database, { seedDemo: false, demoPassword: 'demo1234' });

        // Every row of every old table is still there (new tables may have rows of their own).
        const after = await tableCounts(client);
        for (const [table, count] of Object.entries(before)) {
          if (table === '__drizzle_migrations') continue;
          expect(after[table] ?? 0, table).toBeGreaterThanOrEqual(count);
          // Only reference lists gain rows (new dictionary items, shipped templates).
          if (!table.startsWith('dict_') && !['templates', 'files', 'macros', 'settings', 'dict_events'].includes(table))
            expect(after[table], table).toBe(count);
        }
        const users = (await client.query<{ id: number; email: string; password: string }>('select id, email, password from users order by id')).rows;
        expect(users).toEqual(oldUsers);
        const entries = (
          await client.query<{ id: number; number: string; price: string; status: number }>('select id, number, price::text, status from entries order by id')
        ).rows;
        expect(entries).toEqual(oldEntries);

        // The app on the upgraded database: the old demo accounts sign in and read their records.
        const t = await createTestApp({}, { database });
        try {
          const login = await t.inject({ method: 'POST', url: '/login', payload: { email: 'demo-operator@example.com', password: 'demo1234' } });
          expect(login.statusCode, login.body).toBe(200);
          const headers = { authorization: `Bearer ${login.json().access_token}` };
          // Every live entry of the old release is in the operators' list, and the demo client reads her own.
          const live = (await client.query<{ n: string }>('select count(*) as n from entries where deleted_at is null')).rows[0].n;
          const all = await t.inject({ method: 'GET', url: '/api/entry?per_page=15', headers });
          expect(all.statusCode, all.body).toBe(200);
          expect(all.json().meta.total).toBe(Number(live));
          const found = await t.inject({ method: 'GET', url: '/api/manager/users?email=demo-user@example.com', headers });
          expect(found.json().data.map((u: { email: string }) => u.email)).toEqual(['demo-user@example.com']);
          const user = await t.inject({ method: 'POST', url: '/login', payload: { email: 'demo-user@example.com', password: 'demo1234' } });
          expect(user.statusCode, user.body).toBe(200);
          const own = await t.inject({ method: 'GET', url: '/api/entry?per_page=15', headers: { authorization: `Bearer ${user.json().access_token}` } });
          expect(own.statusCode, own.body).toBe(200);
          const demoUserId = oldUsers.find((u) => u.email === 'demo-user@example.com')!.id;
          const ownCount = (await client.query<{ n: string }>('select count(*) as n from entries where deleted_at is null and created_by = $1', [demoUserId]))
            .rows[0].n;
          expect(own.json().meta.total).toBe(Number(ownCount));
        } finally {
          await t.close();
        }
      } finally {
        await client.end().catch(() => undefined);
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    });
  }
});
