// Nightly maintenance of the embedded database (issue 29). PGlite runs PostgreSQL in single-user mode:
// no autovacuum and no autoanalyze. Every update and delete leaves a dead row version behind for
// good, and the planner has no statistics: a re-checked publication's old fingerprints stay in the
// index and every later delete of its fingerprints reads them again. A real PostgreSQL does both by
// itself, so the job is scheduled only on the embedded database.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { nextMoscowHour } from '@edu/domain/common/moscow-time';
import type { Database } from './db.ts';
import { scheduleJob, type JobRunner } from './jobs.ts';

export const VACUUM_JOB = 'vacuum-embedded-database';

/** The next 05:00 in Moscow after `now`: after the night's stop-list refresh (03:00) and file purge (04:00). */
export const nextVacuumRun = (now = new Date()): Date => nextMoscowHour(5, now);

/** Keeps one open vacuum job on the embedded database (none on PostgreSQL, which vacuums itself). */
export async function scheduleVacuum(database: Pick<Database, 'kind' | 'db'>, now = new Date()): Promise<void> {
  if (database.kind !== 'pglite') return;
  await scheduleJob(database.db, VACUUM_JOB, {}, { uniqueKey: 'nightly', runAt: nextVacuumRun(now) });
}

/**
 * VACUUM (ANALYZE) of the whole embedded database: dead row versions become free space and the
 * planner gets its statistics. It holds the database while it runs (seconds for a centre's data),
 * hence the night.
 */
export async function vacuumEmbeddedDatabase(app: FastifyInstance): Promise<void> {
  if (app.database.kind !== 'pglite') return;
  const started = performance.now();
  await app.db.execute(sql`vacuum (analyze)`);
  app.log.info({ ms: Math.round(performance.now() - started) }, 'embedded database vacuumed and analysed');
}

async function vacuumJob(app: FastifyInstance) {
  await vacuumEmbeddedDatabase(app);
  return { retryInSeconds: Math.max(60, (nextVacuumRun().getTime() - Date.now()) / 1000), continuation: true };
}

export function registerMaintenanceJobs(runner: JobRunner): void {
  runner.register(VACUUM_JOB, vacuumJob);
}
