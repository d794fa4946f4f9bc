import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import yazl from 'yazl';
import type { FastifyInstance } from 'fastify';
import { certificateRefusal, PERSONAL_DATA_FIELD } from '@edu/domain/documents/print';
import { AppError } from '../../platform/errors.ts';
import { rows } from '../../platform/db.ts';
import { scheduleJob, type JobRunner } from '../../platform/jobs.ts';
import { ensureCertificateNumber } from './certificate-number.ts';
import { ensureIssuedDocument, verificationValues } from './issued-documents.ts';
import { fileTitle } from './entry-documents.ts';
import { loadEntryPrintRows, toPrintContext, type EntryPrintRow } from './print-context.ts';
import { renderDocument, type DocumentDeps } from './render-document.ts';
import { insertPrintBatch, type BatchRow } from './print-repository.ts';
import { timed } from '../../platform/stage-timing.ts';
import type { JobPayloads } from '../../platform/jobs.ts';

export const BatchStatus = { queued: 1, running: 2, done: 3, failed: 4 } as const;
export const PRINT_BATCH_JOB = 'print-certificates';

/** One run of the job works at most this long, then continues in the next run (the job lease is 2 minutes). */
const SLICE_MS = 60_000;

export async function printableCertificates(deps: Pick<DocumentDeps, 'db'>, serviceId: number): Promise<{ printable: EntryPrintRow[]; skipped: number }> {
  const all = await loadEntryPrintRows(deps.db, sql`e.service_id = ${serviceId} and e.deleted_at is null`);
  const printable = all.filter((r) => certificateRefusal(toPrintContext(r, r.deleted)) === null);
  return { printable, skipped: all.length - printable.length };
}

export function documentDeps(app: FastifyInstance): DocumentDeps {
  return { db: app.db, files: app.files, office: app.converters.office, html: app.converters.html, gate: app.printGate };
}

/** Records a batch of `total` certificates of the service and schedules its job, in one transaction. */
export async function startCertificateBatch(
  app: FastifyInstance,
  b: { serviceId: number; createdBy: number; total: number; skipped: number },
): Promise<BatchRow> {
  return app.db.transaction(async (tx) => {
    const batch = await insertPrintBatch(tx, b);
    await scheduleJob(tx, PRINT_BATCH_JOB, { batchId: batch.id });
    return batch;
  });
}

/**
 * 'print-certificates' {batchId}: every printable certificate of the service as PDF (each one cached
 * like a single print), then one zip. Progress is kept in print_batches; a run stops after SLICE_MS and
 * the next run goes on from the cache, so a restart loses nothing.
 */
export async function runCertificateBatch(app: FastifyInstance, { batchId }: JobPayloads['print-certificates']): Promise<void | { retryInSeconds: number }> {
  const [batch] = await rows<{ id: number; service_id: number; status: number; created_by: number | null }>(
    app.db,
    sql`select id, service_id, status, created_by from print_batches where id = ${batchId}`,
  );
  if (!batch || batch.status === BatchStatus.done) return;
  const deps = documentDeps(app);
  const started = Date.now();
  try {
    await app.db.execute(sql`update print_batches set status = ${BatchStatus.running}, error = null where id = ${batchId}`);
    const { printable, skipped } = await printableCertificates(deps, batch.service_id);
    await app.db.execute(sql`update print_batches set total = ${printable.length}, skipped = ${skipped} where id = ${batchId}`);
    const names = new Map(
      (
        await rows<{ id: number; fio: string }>(
          app.db,
          sql`select e.id, concat_ws(' ', u.last_name, u.first_name, u.middle_name) as fio from entries e join users u on u.id = e.created_by
              where e.service_id = ${batch.service_id}`,
        )
      ).map((r) => [r.id, r.fio]),
    );
    const zip = new yazl.ZipFile();
    const used = new Set<string>();
    const keys: string[] = new Array(printable.length);
    let done = 0;
    let next = 0;
    let sliceOver = false;
    // Two documents per converter at once: each converter works on one at a time, and while it
    // converts one, the next is being prepared (number, values, fill) and queued, so it never waits.
    const lanes = 2 * Math.max(1, app.config.officeConverters);
    const lane = async () => {
      while (next < printable.length && !sliceOver) {
        const i = next++;
        const row = printable[i];
        const number = await timed('number', () => ensureCertificateNumber(app.db, row.id));
        const code = await timed('verification', () => ensureIssuedDocument(app.db, { entryId: row.id, by: batch.created_by }));
        try {
          const doc = await renderDocument(deps, {
            templateId: row.certificate_template_id!,
            subject: { entryId: row.id },
            extra: verificationValues(code),
            output: 'pdf',
            name: fileTitle('Сертификат', number),
          });
          keys[i] = `${doc.key}\n${number}`;
        } catch (err) {
          // A certificate that needs personal data its client has not filled is skipped, not the whole batch (decision 031).
          if (!(err instanceof AppError && (err.body.errors as Record<string, unknown> | undefined)?.[PERSONAL_DATA_FIELD])) throw err;
          await app.db.execute(sql`update print_batches set skipped = skipped + 1 where id = ${batchId}`);
        }
        done++;
        if (done % 10 === 0) await app.db.execute(sql`update print_batches set done = ${done} where id = ${batchId}`);
        if (Date.now() - started > SLICE_MS) sliceOver = true;
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    if (done < printable.length) {
      // Files made so far are cached: the next run goes through them quickly and goes on.
      await app.db.execute(sql`update print_batches set done = ${done} where id = ${batchId}`);
      return { retryInSeconds: 1 };
    }
    for (let i = 0; i < printable.length; i++) {
      const row = printable[i];
      if (!keys[i]) continue;
      const [key, number] = keys[i].split('\n');
      let name = `${fileTitle(names.get(row.id) ?? '', number)}.pdf`;
      if (used.has(name)) name = `${fileTitle(names.get(row.id) ?? '', number, String(row.id))}.pdf`;
      used.add(name);
      const pdf = await timed('zip-read', () => app.files.getGenerated(key));
      if (pdf) zip.addBuffer(pdf, name, { compress: false });
    }
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const key = app.files.generatedKey('batches', randomBytes(16).toString('hex'), 'zip');
    await app.files.putGenerated(key, Buffer.concat(chunks), 'application/zip');
    await app.db.execute(
      sql`update print_batches set status = ${BatchStatus.done}, done = ${done}, storage_key = ${key}, finished_at = now() where id = ${batchId}`,
    );
  } catch (err) {
    await app.db.execute(
      sql`update print_batches set status = ${BatchStatus.failed}, error = ${String((err as Error)?.message ?? err).slice(0, 1000)} where id = ${batchId}`,
    );
    throw err;
  }
}

export function registerPrintJobs(jobs: JobRunner): void {
  jobs.register(PRINT_BATCH_JOB, runCertificateBatch);
}
