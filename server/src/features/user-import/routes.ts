import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  IMPORT_PREVIEW_ROWS,
  importOutcomeLabels,
  ImportMessages,
  PANEL_IMPORT_MAX_ROWS,
  UserImportMessages,
  userImportAnswer,
  userImportQuery,
  type ImportReportRow,
  type UserImportState,
} from '@edu/domain/users/user-import';
import { currentUser } from '../../platform/auth.ts';
import { AppError, fieldError, notFound } from '../../platform/errors.ts';
import { fileAnswer, multipartForm, type RoutesPlugin } from '../../platform/responses.ts';
import { sendXlsx } from '../../platform/xlsx-reply.ts';
import { WorkerPool } from '../../platform/worker-pool.ts';
import { checkColumns, importUsers } from './import-users.ts';
import type { Table } from './read-table.ts';
import type { ReadTableAnswer } from './read-table-worker.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const idParams = z.object({ id: z.uuid() });
const tags = ['manager users'];
const importForm = multipartForm(z.object({}), {
  file: { description: 'CSV (UTF-8 или Windows-1251, «;» или «,») или .xlsx; первая строка — названия столбцов', required: true },
});

/** How long a finished import's report stays downloadable on this instance. */
const KEEP_MS = 60 * 60 * 1000;

interface ImportJob {
  state: UserImportState;
  report: ImportReportRow[];
  ownerId: number;
  finishedAt: number | null;
}

/**
 * The operators' import of people from the old cabinet (issue 32): upload a file for a dry run (the
 * preview) or the import itself; the import runs in the background in batches, its state (progress,
 * counts, the first rows of the report) is polled, and the whole report is an .xlsx. One real
 * import at a time. The state lives on this instance (a restart forgets it; the data stays).
 */
export const userImportRoutes: RoutesPlugin = async (app) => {
  const jobs = new Map<string, ImportJob>();
  // Files are read in one worker thread, made at the first import and ended with the app; an
  // operator has one import (or dry run) going at a time, so a few files wait at most.
  let reader: WorkerPool<Uint8Array, ReadTableAnswer> | null = null;
  const readFile = async (bytes: Buffer): Promise<Table> => {
    reader ??= new WorkerPool({ entry: new URL('./read-table-worker.ts', import.meta.url), size: 1, maxQueue: 16, maxHeapMb: 512 });
    const answer = await reader.run(bytes);
    if ('refused' in answer) throw fieldError('file', answer.refused, answer.refused);
    return answer.table;
  };
  app.addHook('onClose', async () => reader?.close());
  const forget = () => {
    for (const [id, job] of jobs) if (job.finishedAt !== null && Date.now() - job.finishedAt > KEEP_MS) jobs.delete(id);
  };

  /** POST /api/manager/user-imports?dry_run=1 (multipart: file): starts a dry run or an import. */
  app.post(
    '/manager/user-imports',
    {
      config: { refuses: [409, 429] },
      schema: {
        tags,
        summary: 'Импорт пользователей из файла (или пробный прогон)',
        querystring: userImportQuery,
        form: importForm,
        response: { 202: userImportAnswer },
      },
    },
    async (request, reply) => {
      forget();
      const dryRun = request.query.dry_run === '1';
      const ownerId = currentUser(request).id;
      const running = [...jobs.values()].filter((j) => j.state.status === 'running');
      if (running.some((j) => j.ownerId === ownerId)) throw new AppError(429, UserImportMessages.ownRunning);
      if (!dryRun && running.some((j) => !j.state.dry_run)) throw new AppError(409, UserImportMessages.running);
      // Taken before the first await, so that two requests at once cannot both pass the checks above.
      const state: UserImportState = {
        id: randomUUID(),
        file_name: 'файл',
        dry_run: dryRun,
        status: 'running',
        total: 0,
        processed: 0,
        counts: { new: 0, merged: 0, unchanged: 0, refused: 0 },
        rows: [],
        unknown_columns: [],
        error: null,
      };
      const job: ImportJob = { state, report: [], ownerId, finishedAt: null };
      jobs.set(state.id, job);
      let table: Table;
      try {
        const part = request.isMultipart() ? await request.file() : undefined;
        if (!part || part.fieldname !== 'file') throw fieldError('file', UserImportMessages.fileRequired);
        const bytes = await part.toBuffer();
        if (part.file.truncated) throw fieldError('file', ImportMessages.unreadable);
        table = await readFile(bytes);
        if (table.rows.length > PANEL_IMPORT_MAX_ROWS) throw fieldError('file', ImportMessages.tooManyRows(PANEL_IMPORT_MAX_ROWS));
        const header = checkColumns(table);
        Object.assign(state, { file_name: part.filename || 'файл', total: table.rows.length, unknown_columns: header.unknown });
      } catch (err) {
        jobs.delete(state.id);
        throw err;
      }
      importUsers(app.db, table, {
        fileName: state.file_name,
        dryRun,
        actorId: job.ownerId,
        onProgress: (processed, counts) => Object.assign(state, { processed, counts }),
      })
        .then((result) => {
          job.report = result.report;
          Object.assign(state, { status: 'done', processed: result.total, counts: result.counts, rows: result.report.slice(0, IMPORT_PREVIEW_ROWS) });
        })
        .catch((err: unknown) => {
          request.log.error({ err }, 'user import failed');
          Object.assign(state, { status: 'failed', error: 'Импорт прервался из-за ошибки сервера. Запустите его снова: уже внесённые строки не повторятся.' });
        })
        .finally(() => (job.finishedAt = Date.now()));
      return reply.status(202).send({ data: state });
    },
  );

  const jobOf = (id: string) => {
    const job = jobs.get(id);
    if (!job) throw notFound(UserImportMessages.notFound);
    return job;
  };

  /** GET /api/manager/user-imports/{id}: progress, counts and the first rows of the report. */
  app.get(
    '/manager/user-imports/:id',
    { schema: { tags, summary: 'Ход импорта пользователей и начало отчёта', params: idParams, response: { 200: userImportAnswer } } },
    async (request) => ({
      data: jobOf(request.params.id).state,
    }),
  );

  /** GET /api/manager/user-imports/{id}/report: the whole report, row by row, as .xlsx. */
  app.get(
    '/manager/user-imports/:id/report',
    {
      schema: {
        tags,
        summary: 'Отчёт об импорте пользователей (.xlsx)',
        params: idParams,
        response: { 200: fileAnswer('Отчёт об импорте, .xlsx', XLSX_TYPE) },
      },
    },
    async (request, reply) => {
      const job = jobOf(request.params.id);
      if (job.state.status !== 'done') throw notFound(UserImportMessages.notFound);
      const report = job.report;
      return sendXlsx(
        request,
        reply,
        { name: `Импорт ${job.state.file_name}.xlsx`, asciiName: 'import-report.xlsx' },
        {
          sheet: job.state.dry_run ? 'Пробный прогон' : 'Импорт',
          columns: {
            line: { header: 'Строка', width: 8, type: 'number', value: (r: ImportReportRow) => r.line },
            fio: { header: 'ФИО', width: 36, value: (r: ImportReportRow) => r.fio },
            email: { header: 'E-mail', width: 30, value: (r: ImportReportRow) => r.email },
            outcome: { header: 'Итог', width: 12, value: (r: ImportReportRow) => importOutcomeLabels[r.outcome] },
            account: { header: 'Аккаунт №', width: 11, type: 'number', value: (r: ImportReportRow) => r.account_id },
            message: { header: 'Причина / примечание', width: 70, value: (r: ImportReportRow) => r.message },
          },
          // The report is in memory: a page is the rows after the last one written.
          page: async (after, limit) => {
            const start = after ? report.indexOf(after) + 1 : 0;
            return report.slice(start, start + limit);
          },
        },
      );
    },
  );
};
