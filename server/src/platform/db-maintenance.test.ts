import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper.ts';
import { rows } from './db.ts';
import { nextVacuumRun, scheduleVacuum, VACUUM_JOB } from './db-maintenance.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const embedded = () => t.database.kind === 'pglite';

it.runIf(process.env.TEST_DB !== 'postgres')(
  'vacuums and analyses the embedded database each night: dead rows freed, statistics gathered (issue 29)',
  async () => {
    expect(embedded()).toBe(true);
    const db = t.database.db;
    const user = await t.createUser();
    const [p] = await rows<{ id: number }>(db, sql`insert into publications (title, text, created_by) values ('Статья', 'текст', ${user.id}) returning id`);
    // A re-checked publication's old fingerprints: rows deleted, their versions still in the table.
    await db.execute(sql`insert into publication_fingerprints (hash, publication_id, position) select g, ${p.id}, g from generate_series(1, 5000) g`);
    await db.execute(sql`delete from publication_fingerprints where publication_id = ${p.id}`);
    // Measured by what a vacuum and an analyse leave: the table's dead tail pages given back, and the
    // planner's statistics (pg_stats) of a table with rows.
    const state = async () => {
      const [r] = await rows<{ bytes: number; stats: number }>(
        db,
        sql`select pg_relation_size('publication_fingerprints')::int as bytes,
                   (select count(*)::int from pg_stats where schemaname = current_schema() and tablename = 'users') as stats`,
      );
      return r;
    };
    const before = await state();
    expect(before.bytes).toBeGreaterThan(0);
    expect(before.stats).toBe(0);

    await scheduleVacuum(t.database);
    expect(await t.app.jobs.runNow(VACUUM_JOB, 'nightly')).toEqual({ state: 'done' });

    const after = await state();
    expect(after.bytes).toBe(0);
    expect(after.stats).toBeGreaterThan(0);
    // It stays scheduled for the next night.
    const [job] = await rows<{ run_at: Date; done: boolean }>(db, sql`select run_at, done_at is not null as done from jobs where name = ${VACUUM_JOB}`);
    expect(job.done).toBe(false);
    expect(new Date(job.run_at).getTime()).toBeGreaterThan(Date.now());
  },
);

it('is not scheduled on PostgreSQL, which vacuums and analyses by itself', async () => {
  const db = t.database.db;
  await db.execute(sql`delete from jobs where name = ${VACUUM_JOB}`);
  await scheduleVacuum({ kind: 'postgres', db });
  const [r] = await rows<{ n: number }>(db, sql`select count(*)::int as n from jobs where name = ${VACUUM_JOB}`);
  expect(r.n).toBe(0);
});

it('runs at 05:00 Moscow time, after the stop-list (03:00) and the file purge (04:00)', () => {
  expect(nextVacuumRun(new Date('2026-03-10T01:30:00Z')).toISOString()).toBe('2026-03-10T02:00:00.000Z');
  expect(nextVacuumRun(new Date('2026-03-10T02:00:00Z')).toISOString()).toBe('2026-03-11T02:00:00.000Z');
});
