import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { rows, type Queryable } from '../../platform/db.ts';
import { scheduleJob, type JobRunner } from '../../platform/jobs.ts';
import { checkPublication, refreshStopList } from './uniqueness-repository.ts';

export const UNIQUENESS_JOB = 'check-publication-uniqueness';

/**
 * Schedules the uniqueness check of a publication (on submit and on edit: 'будет проверена
 * антиплагиатом в течение часа'). An unfinished check of the same publication is kept instead of a
 * second one; it reads the text when it runs, so it sees the latest edit.
 */
export async function scheduleUniquenessCheck(db: Queryable, publicationId: number): Promise<void> {
  await scheduleJob(db, UNIQUENESS_JOB, { publicationId }, { uniqueKey: `publication:${publicationId}` });
}

/**
 * 'check-publication-uniqueness' {publicationId}: indexes the text and stores the check's result.
 * An edit saved while the check ran (its schedule was merged into this job) makes it run again.
 */
async function checkPublicationJob(app: FastifyInstance, payload: Record<string, unknown>) {
  const id = Number(payload.publicationId);
  if (!Number.isInteger(id) || id <= 0) return;
  const result = await checkPublication(app.db, id);
  if (!result) return;
  const [pub] = await rows<{ stale: boolean }>(app.db, sql`select updated_at > uniqueness_checked_at as stale from publications where id = ${id}`);
  if (pub?.stale) return { retryInSeconds: 1 };
}

export const STOP_LIST_JOB = 'refresh-uniqueness-stop-list';

/** The next 03:00 in Moscow (UTC+3, no daylight saving) after `now`: a quiet hour for a full pass. */
export function nextNightRun(now = new Date()): Date {
  const at = new Date(now);
  at.setUTCHours(0, 0, 0, 0); // 03:00 Moscow
  if (at.getTime() <= now.getTime()) at.setUTCDate(at.getUTCDate() + 1);
  return at;
}

/**
 * Keeps one open 'refresh-uniqueness-stop-list' job (the unique key merges repeats from every
 * server start and every instance); it runs at night and reschedules itself for the next one.
 */
export async function scheduleStopListRefresh(db: Queryable, now = new Date()): Promise<void> {
  await scheduleJob(db, STOP_LIST_JOB, {}, { uniqueKey: 'nightly', runAt: nextNightRun(now) });
}

async function stopListJob(app: FastifyInstance) {
  const listed = await refreshStopList(app.db);
  app.log.info({ listed }, 'uniqueness stop-list refreshed');
  return { retryInSeconds: Math.max(60, (nextNightRun().getTime() - Date.now()) / 1000), continuation: true };
}

export function registerPublicationJobs(runner: JobRunner): void {
  runner.register(UNIQUENESS_JOB, checkPublicationJob);
  runner.register(STOP_LIST_JOB, stopListJob);
}
