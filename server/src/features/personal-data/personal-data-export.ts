import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isOperator } from '@edu/domain/common/codes';
import {
  EXPORT_TTL_HOURS,
  ExportStatus,
  exportStatusLabels,
  PersonalDataMessages,
  type ExportStatusCode,
  type PersonalDataExport,
} from '@edu/domain/personal-data/personal-data';
import { AppError } from '../../platform/errors.ts';
import { logEvent } from '../../platform/change-log.ts';
import type { Db } from '../../platform/db.ts';
import { scheduleJob, type JobPayloads, type JobRunner } from '../../platform/jobs.ts';
import { signedFileUrl } from '../../platform/signed-links.ts';
import { buildArchive } from './archive.ts';
import {
  collectPersonalData,
  expireExports,
  failExport,
  findExport,
  finishExport,
  insertExport,
  setExportProgress,
  type ExportRow,
} from './personal-data-repository.ts';

export const EXPORT_JOB = 'personal-data-export';
export const EXPIRE_JOB = 'expire-personal-data-export';

/**
 * Queues an archive of the person's data: the row, its job and (when an operator asks on the
 * person's written request) the change-log event, in one transaction. One archive in the making per
 * person: a second request meanwhile gets 429.
 */
export async function requestExport(db: Db, userId: number, actor: { id: number }): Promise<number> {
  return db.transaction(async (tx) => {
    const id = await insertExport(tx, userId, actor.id);
    if (id === null) throw new AppError(429, PersonalDataMessages.running);
    await scheduleJob(tx, EXPORT_JOB, { exportId: id }, { ownerId: userId, uniqueKey: String(id) });
    await logEvent(tx, { type: 'user', entityId: userId, userId: actor.id, diff: { personal_data_export: { old: null, new: `Архив № ${id}` } } });
    return id;
  });
}

/** An archive as the screens show it; a ready one past its time reads as expired (the job removes it soon). */
export async function exportView(db: Db, row: ExportRow): Promise<PersonalDataExport> {
  const expiresAt = row.expires_at ? new Date(row.expires_at) : null;
  const lapsed = row.status === ExportStatus.ready && (!expiresAt || expiresAt.getTime() <= Date.now() || !row.storage_key);
  const status = (lapsed ? ExportStatus.expired : row.status) as ExportStatusCode;
  const url =
    status === ExportStatus.ready && row.storage_key && expiresAt
      ? await signedFileUrl(
          db,
          { key: row.storage_key, name: `Мои данные ${row.id}.zip`, mime: 'application/zip' },
          Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
        )
      : null;
  return {
    id: row.id,
    user_id: row.user_id,
    status,
    status_label: exportStatusLabels[status],
    progress: status === ExportStatus.ready ? 100 : row.progress,
    requested_by_operator: row.requested_by !== row.user_id && isOperator({ role: row.requested_by_role }),
    url,
    size: status === ExportStatus.ready ? row.size : null,
    error: status === ExportStatus.failed ? PersonalDataMessages.failed : null,
    created_at: new Date(row.created_at).toISOString(),
    finished_at: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    expires_at: expiresAt ? expiresAt.toISOString() : null,
  };
}

/**
 * 'personal-data-export' {exportId}: reads the person's data, writes the zip (summary, workbook,
 * original files) to the file store, and schedules its removal when the link expires. Progress is
 * kept in the row. A failure is final for this archive (the person asks again), never retried.
 */
export async function runExport(app: FastifyInstance, { exportId }: JobPayloads['personal-data-export']): Promise<void> {
  const row = await findExport(app.db, exportId);
  if (!row || (row.status !== ExportStatus.queued && row.status !== ExportStatus.preparing)) return;
  try {
    await setExportProgress(app.db, exportId, 1);
    const data = await collectPersonalData(app.db, row.user_id);
    if (!data) throw new Error('no such user');
    await setExportProgress(app.db, exportId, 10);
    let last = 10;
    const zip = await buildArchive(
      data,
      (key) => app.files.getGeneratedOrFile(key),
      async (share) => {
        // A write per few percent, not per file.
        if (share - last < 5) return;
        last = share;
        await setExportProgress(app.db, exportId, share);
      },
    );
    const key = app.files.generatedKey('exports', randomBytes(16).toString('hex'), 'zip');
    await app.files.putGenerated(key, zip, 'application/zip');
    const expiresAt = new Date(Date.now() + EXPORT_TTL_HOURS * 3600_000);
    const ready = await app.db.transaction(async (tx) => {
      if (!(await finishExport(tx, exportId, { key, size: zip.length, expiresAt }))) return false;
      await scheduleJob(tx, EXPIRE_JOB, { exportId }, { runAt: expiresAt, uniqueKey: String(exportId) });
      return true;
    });
    if (!ready) await removeArchives(app, [key]);
  } catch (err) {
    app.log.error({ err, exportId }, 'personal data export failed');
    await failExport(app.db, exportId, String((err as Error)?.message ?? err));
  }
}

/** Removes the zips of the given archives (after their rows were marked expired). */
export async function removeArchives(app: FastifyInstance, keys: string[]): Promise<void> {
  for (const key of keys) {
    await app.files.remove(key).catch((err: unknown) => app.log.warn({ err, key }, 'could not remove a personal-data archive'));
  }
}

/** 'expire-personal-data-export' {exportId}: the link's time is over, the zip goes. */
export async function expireExport(app: FastifyInstance, { exportId }: JobPayloads['expire-personal-data-export']): Promise<void> {
  await removeArchives(app, await expireExports(app.db, { id: exportId }));
}

export function registerPersonalDataJobs(runner: JobRunner): void {
  // One archive at a time per person, two at once on an instance: the rest wait their turn.
  runner.register(EXPORT_JOB, runExport, { concurrency: 2, perOwner: 1 });
  runner.register(EXPIRE_JOB, expireExport);
}
