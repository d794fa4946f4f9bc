import { z } from 'zod';
import {
  assignLineBody,
  BankStatementMessages,
  bankLineListQuery,
  bankLinesAnswer,
  ignoreLineBody,
  importSummaryAnswer,
  lineActionAnswer,
  payableEntriesAnswer,
  payableEntriesQuery,
} from '@edu/domain/bank-statements/bank-statement';
import { currentUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import { AppError, fieldError } from '../../platform/errors.ts';
import { multipartForm, type RoutesPlugin } from '../../platform/responses.ts';
import { lineById, listLines, lockManualLine, payableEntries, setLineResolved } from './bank-statements-repository.ts';
import { importStatement, lineLogFields, lockPayable, payScopes } from './import-statement.ts';
import { createStatementReader, readStatement, STATEMENT_MAX_BYTES } from './read-statement.ts';

const tags = ['bank statements'];
const idParams = z.object({ id: z.coerce.number().int().positive() });
const uploadForm = multipartForm(z.object({}), {
  file: { description: 'Выписка в формате 1С (1CClientBankExchange), Windows-1251 или UTF-8, до 5 МБ', required: true },
});

/**
 * The operators' bank statements (issue 33): upload a 1C statement (incoming payments matched and
 * marked paid by bank transfer, the rest left «Разобрать вручную»), the list of imported lines, and
 * assigning a line to entries or ignoring it. Manager area: operators only (app.ts).
 */
export const bankStatementRoutes: RoutesPlugin = async (app) => {
  // One statement at a time per operator: a second upload while the first is matched is a 429.
  const importing = new Set<number>();
  const reader = createStatementReader();
  app.addHook('onClose', () => reader.close());

  /** POST /api/manager/bank-statements (multipart: file): imports the statement; answers what it did. */
  app.post(
    '/manager/bank-statements',
    {
      config: { refuses: [429] },
      schema: {
        tags,
        summary: 'Загрузить банковскую выписку (формат 1С) и отметить оплаченные заявки',
        form: uploadForm,
        response: { 200: importSummaryAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      if (importing.has(me.id)) throw new AppError(429, BankStatementMessages.ownRunning);
      importing.add(me.id);
      try {
        const part = request.isMultipart() ? await request.file({ limits: { fileSize: STATEMENT_MAX_BYTES + 1 } }) : undefined;
        if (!part || part.fieldname !== 'file') throw fieldError('file', BankStatementMessages.fileRequired);
        const bytes = await part.toBuffer();
        if (part.file.truncated) throw fieldError('file', BankStatementMessages.tooLarge, BankStatementMessages.tooLarge);
        const statement = await readStatement(reader, bytes);
        const fileName = (part.filename || 'выписка.txt').slice(0, 255);
        return { data: await importStatement(app.db, statement, { by: me, fileName }) };
      } finally {
        importing.delete(me.id);
      }
    },
  );

  /** GET /api/manager/bank-statement-lines: the imported incoming payments (?status=manual: «Разобрать вручную»). */
  app.get(
    '/manager/bank-statement-lines',
    { schema: { tags, summary: 'Строки банковских выписок', querystring: bankLineListQuery, response: { 200: bankLinesAnswer } } },
    async (request) => listLines(app.db, request.query),
  );

  /** GET /api/manager/bank-statement-lines/entries?q=: unpaid entries by number or client, to assign a line to. */
  app.get(
    '/manager/bank-statement-lines/entries',
    { schema: { tags, summary: 'Неоплаченные заявки для разбора строки выписки', querystring: payableEntriesQuery, response: { 200: payableEntriesAnswer } } },
    async (request) => ({ data: await payableEntries(app.db, request.query.q) }),
  );

  /** POST /api/manager/bank-statement-lines/{id}/assign {entry_ids}: the payment pays these entries (by bank transfer). */
  app.post(
    '/manager/bank-statement-lines/:id/assign',
    {
      schema: {
        tags,
        summary: 'Отнести платёж из выписки к заявкам (отметить их оплаченными)',
        params: idParams,
        body: assignLineBody,
        response: { 200: lineActionAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const ids = [...new Set(request.body.entry_ids)];
      await app.db.transaction(async (tx) => {
        const line = await lockManualLine(tx, request.params.id);
        const entries = await lockPayable(tx, ids);
        if (entries.length < ids.length) throw fieldError('entry_ids', BankStatementMessages.entryMissing);
        const refused = entries.find((e) => e.status !== 1 || e.deleted_at);
        if (refused) throw fieldError('entry_ids', BankStatementMessages.entryNotPayable(refused.number));
        const paid = await payScopes(tx, me, ids);
        await setLineResolved(tx, line.id, { status: 'assigned', by: me.id, entryIds: paid.entryIds, paymentIds: paid.paymentIds });
        await logChange(tx, {
          type: 'bank_statement_line',
          entityId: line.id,
          userId: me.id,
          before: { status: 'manual', ...lineLogFields({ ...line, sum: Number(line.sum) }) },
          after: { status: 'assigned', ...lineLogFields({ ...line, sum: Number(line.sum) }), entry_ids: paid.entryIds },
        });
      });
      const data = await lineById(app.db, request.params.id);
      return { message: BankStatementMessages.assigned, data: data! };
    },
  );

  /** POST /api/manager/bank-statement-lines/{id}/ignore {reason}: the line is not a payment for entries. */
  app.post(
    '/manager/bank-statement-lines/:id/ignore',
    {
      schema: { tags, summary: 'Пропустить строку выписки с причиной', params: idParams, body: ignoreLineBody, response: { 200: lineActionAnswer } },
    },
    async (request) => {
      const me = currentUser(request);
      await app.db.transaction(async (tx) => {
        const line = await lockManualLine(tx, request.params.id);
        await setLineResolved(tx, line.id, { status: 'ignored', by: me.id, reason: request.body.reason });
        await logChange(tx, {
          type: 'bank_statement_line',
          entityId: line.id,
          userId: me.id,
          before: { status: 'manual' },
          after: { status: 'ignored', ignore_reason: request.body.reason, ...lineLogFields({ ...line, sum: Number(line.sum) }) },
        });
      });
      const data = await lineById(app.db, request.params.id);
      return { message: BankStatementMessages.ignored, data: data! };
    },
  );
};
