import type { FastifyInstance } from 'fastify';
import { fileAnswer, XLSX_TYPE, type RoutesPlugin } from '../../platform/responses.ts';
import { z } from 'zod';
import { certificateNumberField, PrintMessages, printKindParam } from '@edu/domain/documents/print';
import {
  certificateNumberAnswer,
  printBatchAnswer,
  printBatchesAnswer,
  printBatchStartedAnswer,
  printLinkAnswer,
  type PrintBatch,
} from '@edu/domain/documents/print-answers';
import { refusalAnswer } from '@edu/domain/common/answers';
import { currentUser } from '../../platform/auth.ts';
import { AppError, fieldError, notFound } from '../../platform/errors.ts';
import { signedFileUrl } from '../../platform/signed-links.ts';
import { sendXlsx } from '../../platform/xlsx-reply.ts';
import { collectStages, timed } from '../../platform/stage-timing.ts';
import { BatchStatus, documentDeps, printableCertificates, startCertificateBatch } from './certificate-batch.ts';
import { isUniqueViolation } from './certificate-number.ts';
import { assertUserReachable } from '../users/user-policy.ts';
import { entryForPrint, printConsent, printEntryDocument } from './entry-documents.ts';
import { journalExport, journalService } from './journal-excel.ts';
import { serviceExists } from '../services/services-repository.ts';
import { findPrintBatch, listServicePrintBatches, setCertificateNumber, type BatchRow } from './print-repository.ts';
import {
  issuedDocumentRevokedAnswer,
  issuedDocumentsAnswer,
  normaliseVerificationCode,
  revokeBody,
  verificationAnswer,
  VerificationMessages,
} from '@edu/domain/documents/verification';
import { Messages } from '@edu/domain/common/messages';
import { takeAttempt } from '../../platform/attempts.ts';
import { entryExists, listIssuedDocuments, revokeIssuedDocument, verifyCode } from './issued-documents.ts';

/** Public verification lookups per address (decision 039): enough for an office checking a pile of papers, too few to guess codes. */
export const VERIFY_LIMIT = { attempts: 60, windowMinutes: 10 } as const;

const id = z.coerce.number().int().positive();

/** Printing: documents of an entry, the consent, certificate numbers, all certificates of a service as one zip. */
export const printRoutes: RoutesPlugin = async (app) => {
  const deps = () => documentDeps(app);

  /** GET /api/entry/{id}/print/{kind}: {url}, a link to the document valid for a few minutes. */
  app.get(
    '/entry/:id/print/:kind',
    {
      config: { access: { owner: 'entry' } },
      schema: {
        tags: ['print'],
        summary: 'Ссылка на печатный документ заявки',
        params: z.object({ id, kind: printKindParam }),
        response: { 200: printLinkAnswer, 422: refusalAnswer, 429: refusalAnswer, 503: refusalAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      // At most PRINTS_PER_USER prints of one account at a time; free accounts limited together and per address (decision 021).
      const print = () =>
        app.printGate.forAccount({ id: me.id, role: me.role, ip: request.ip }, async () => {
          const row = await timed('entry', () => entryForPrint(deps(), request.params.id, me));
          const doc = await printEntryDocument(deps(), row, request.params.kind, me);
          return { url: await timed('signed-link', () => signedFileUrl(app.db, doc)) };
        });
      // At debug level, one line per print with the time of each stage.
      if (request.log.level !== 'debug' && request.log.level !== 'trace') return print();
      return collectStages(print, (stages) => request.log.debug({ entry: request.params.id, kind: request.params.kind, stages }, 'print timing'));
    },
  );

  /** GET /api/user/{id}/consent/print: {url}; the user's own consent, or any user's for operators. */
  app.get(
    '/user/:id/consent/print',
    {
      config: { access: { owner: 'user' } },
      schema: {
        tags: ['print'],
        summary: 'Ссылка на согласие на обработку персональных данных',
        params: z.object({ id }),
        response: { 200: printLinkAnswer, 422: refusalAnswer, 429: refusalAnswer, 503: refusalAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      assertUserReachable(me, request.params.id);
      return app.printGate.forAccount({ id: me.id, role: me.role, ip: request.ip }, async () => {
        const doc = await printConsent(deps(), request.params.id, me);
        return { url: await signedFileUrl(app.db, doc) };
      });
    },
  );
};

/** GET /api/verify/{code}: anyone (no login) checks a printed document by its code (decision 039). */
export const verifyRoutes: RoutesPlugin = async (app) => {
  app.get(
    '/verify/:code',
    {
      config: { access: 'public', refuses: [429] },
      schema: {
        tags: ['print'],
        summary: 'Проверка подлинности документа по коду (без входа)',
        params: z.object({ code: z.string().max(64) }),
        response: { 200: verificationAnswer },
      },
    },
    async (request) => {
      const { attempts, windowMinutes } = VERIFY_LIMIT;
      if (!(await takeAttempt(app.db, `verify:${request.ip}`, attempts, windowMinutes))) throw new AppError(429, Messages.tooManyRequests);
      return verifyCode(app.db, normaliseVerificationCode(request.params.code));
    },
  );
};

/**
 * Operators (registered in the operator scope, app.ts): certificate numbers and all certificates of a
 * service as one zip.
 */
export const printOperatorRoutes: RoutesPlugin = async (app) => {
  const deps = () => documentDeps(app);

  /** PUT /api/entry/{id}/certificate-number {certificate_number}: an operator sets (or corrects) the number. */
  app.put(
    '/entry/:id/certificate-number',
    {
      schema: {
        tags: ['print'],
        summary: 'Задать номер сертификата заявки',
        params: z.object({ id }),
        body: z.object({ certificate_number: certificateNumberField }),
        response: { 200: certificateNumberAnswer },
      },
    },
    async (request) => {
      try {
        if (!(await setCertificateNumber(app.db, request.params.id, request.body.certificate_number))) throw notFound();
      } catch (err) {
        if (isUniqueViolation(err)) throw fieldError('certificate_number', PrintMessages.certificateNumberTaken);
        throw err;
      }
      return { data: { id: request.params.id, certificate_number: request.body.certificate_number }, message: 'Успешно сохранено!' };
    },
  );

  /** GET /api/entry/{id}/issued-documents: the documents issued for the entry with their verification codes, revoked ones too. */
  app.get(
    '/entry/:id/issued-documents',
    {
      schema: {
        tags: ['print'],
        summary: 'Выданные документы заявки и их коды проверки',
        params: z.object({ id }),
        response: { 200: issuedDocumentsAnswer },
      },
    },
    async (request) => {
      if (!(await entryExists(app.db, request.params.id))) throw notFound();
      return { data: await listIssuedDocuments(app.db, request.params.id) };
    },
  );

  /** POST /api/issued-document/{id}/revoke {reason}: the document no longer verifies; logged on its entry. */
  app.post(
    '/issued-document/:id/revoke',
    {
      schema: {
        tags: ['print'],
        summary: 'Отозвать выданный документ с указанием причины',
        params: z.object({ id }),
        body: revokeBody,
        response: { 200: issuedDocumentRevokedAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const done = await revokeIssuedDocument(app.db, { id: request.params.id, by: me.id, reason: request.body.reason });
      if (done.result === 'missing') throw notFound();
      if (done.result === 'already') throw fieldError('id', VerificationMessages.alreadyRevoked, VerificationMessages.alreadyRevoked);
      return { data: done.document, message: VerificationMessages.revoked_ok };
    },
  );

  /** POST /api/service/{id}/print-certificates: starts a durable job that prints every printable certificate into one zip. */
  app.post(
    '/service/:id/print-certificates',
    {
      schema: {
        tags: ['print'],
        summary: 'Напечатать все сертификаты услуги одним архивом',
        params: z.object({ id }),
        response: { 201: printBatchStartedAnswer },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const serviceId = request.params.id;
      if (!(await serviceExists(app.db, serviceId, { live: true }))) throw notFound();
      const { printable, skipped } = await printableCertificates(deps(), serviceId);
      if (printable.length === 0) throw fieldError('service_id', PrintMessages.batchNothing, PrintMessages.batchNothing);
      const batch = await startCertificateBatch(app, { serviceId, createdBy: me.id, total: printable.length, skipped });
      return reply.status(201).send({ data: await toBatch(app, batch), message: PrintMessages.batchStarted });
    },
  );

  /** GET /api/print-batch/{id}: progress; with {url} of the zip when done. */
  app.get(
    '/print-batch/:id',
    { schema: { tags: ['print'], summary: 'Ход печати сертификатов и ссылка на архив', params: z.object({ id }), response: { 200: printBatchAnswer } } },
    async (request) => {
      const batch = await findPrintBatch(app.db, request.params.id);
      if (!batch) throw notFound();
      return { data: await toBatch(app, batch) };
    },
  );

  /**
   * GET /api/service/{id}/journal/print-excel: {url} of the service's journal (spec 01 §6, 02 §6:
   * operators print "the journal Excel"); like the contract board's print-excel, the url is then
   * fetched with the session.
   */
  app.get(
    '/service/:id/journal/print-excel',
    { schema: { tags: ['print'], summary: 'Ссылка на выгрузку журнала услуги в Excel', params: z.object({ id }), response: { 200: printLinkAnswer } } },
    async (request) => {
      if (!(await journalService(app.db, request.params.id))) throw notFound();
      return { url: `/api/service/${request.params.id}/journal/excel` };
    },
  );

  /** GET /api/service/{id}/journal/excel: the .xlsx itself, streamed (live entries of the service). */
  app.get(
    '/service/:id/journal/excel',
    {
      schema: {
        tags: ['print'],
        summary: 'Выгрузка журнала услуги в Excel (.xlsx)',
        params: z.object({ id }),
        response: { 200: fileAnswer('Журнал услуги, .xlsx', XLSX_TYPE) },
      },
    },
    async (request, reply) => {
      const service = await journalService(app.db, request.params.id);
      if (!service) throw notFound();
      const day = new Date().toISOString().slice(0, 10);
      return sendXlsx(
        request,
        reply,
        { name: `Журнал ${service.title} ${day}.xlsx`, asciiName: `journal-${service.id}-${day}.xlsx` },
        journalExport(app.db, service.id),
      );
    },
  );

  /** GET /api/service/{id}/print-batches: the latest batches of a service. */
  app.get(
    '/service/:id/print-batches',
    { schema: { tags: ['print'], summary: 'Последние печати сертификатов услуги', params: z.object({ id }), response: { 200: printBatchesAnswer } } },
    async (request) => {
      const list = await listServicePrintBatches(app.db, request.params.id, 5);
      return { data: await Promise.all(list.map((b) => toBatch(app, b))) };
    },
  );
};

async function toBatch(app: FastifyInstance, b: BatchRow): Promise<PrintBatch> {
  return {
    id: b.id,
    service_id: b.service_id,
    status: b.status,
    total: b.total,
    done: b.done,
    skipped: b.skipped,
    error: b.status === BatchStatus.failed ? 'Не удалось распечатать сертификаты, попробуйте ещё раз' : null,
    url:
      b.status === BatchStatus.done && b.storage_key
        ? await signedFileUrl(app.db, { key: b.storage_key, name: `Сертификаты услуги ${b.service_id}.zip`, mime: 'application/zip' })
        : null,
    created_at: new Date(b.created_at).toISOString(),
  };
}
