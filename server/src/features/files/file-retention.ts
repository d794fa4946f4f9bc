import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../platform/db.ts';
import { scheduleJob, type JobRunner } from '../../platform/jobs.ts';
import { sweepUploadTmp } from '../../platform/uploads.ts';
import { filesToPurge, markPurged } from './files-repository.ts';
import { nextMoscowHour } from '@edu/domain/common/moscow-time';

export const PURGE_FILES_JOB = 'purge-deleted-files';

/** Files removed per pass; a longer backlog continues in the next pass a second later. */
const PURGE_BATCH = 200;

/** The next 04:00 in Moscow after `now`: after the night's stop-list refresh. */
export const nextPurgeRun = (now = new Date()): Date => nextMoscowHour(4, now);

/** Keeps one open purge job (the unique key merges repeats from every start and instance). */
export async function scheduleFilePurge(db: Queryable, now = new Date()): Promise<void> {
  await scheduleJob(db, PURGE_FILES_JOB, {}, { uniqueKey: 'nightly', runAt: nextPurgeRun(now) });
}

/**
 * Removes from storage (disk or S3) the bytes of files retired more than DELETED_FILES_RETENTION_DAYS
 * ago, and marks their rows purged (the rows stay: the records that named them keep their history).
 * Also clears this instance's temporary uploads left by a crash. Runs every night.
 */
export async function purgeDeletedFiles(app: FastifyInstance): Promise<{ purged: number; more: boolean }> {
  const due = await filesToPurge(app.db, app.config.uploads.retentionDays, PURGE_BATCH);
  const done: number[] = [];
  for (const f of due) {
    try {
      await app.files.remove(f.storage_key);
      done.push(f.id);
    } catch (err) {
      app.log.warn({ err, file: f.id }, 'could not remove a retired file from storage');
    }
  }
  await markPurged(app.db, done);
  return { purged: done.length, more: due.length === PURGE_BATCH && done.length > 0 };
}

async function purgeJob(app: FastifyInstance) {
  const { purged, more } = await purgeDeletedFiles(app);
  if (purged) app.log.info({ purged }, 'retired files removed from storage');
  if (more) return { retryInSeconds: 1, continuation: true };
  await sweepUploadTmp(app.config.dataDir);
  return { retryInSeconds: Math.max(60, (nextPurgeRun().getTime() - Date.now()) / 1000), continuation: true };
}

export function registerFileJobs(runner: JobRunner): void {
  runner.register(PURGE_FILES_JOB, purgeJob);
}
