import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { rows, type Queryable } from '../../platform/db.ts';
import { scheduleJob, type JobRunner } from '../../platform/jobs.ts';
import { checkPublication } from './uniqueness-repository.ts';

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

export function registerPublicationJobs(runner: JobRunner): void {
  runner.register(UNIQUENESS_JOB, checkPublicationJob);
}
