import { z } from 'zod';
import { fileAnswer, multipartForm, XLSX_TYPE, type RoutesPlugin } from '../../platform/responses.ts';
import { pageMeta } from '@edu/domain/common/pagination';
import { idField, idParams } from '@edu/domain/common/bounds';
import {
  ContractMessages,
  contractExportLinkAnswer,
  contractExportQuery,
  contractListQuery,
  contractReviewedAnswer,
  contractsAnswer,
  contractUploadedAnswer,
  registrationNumberAnswer,
  rejectContractBody,
} from '@edu/domain/contracts/contract';
import { DocumentMessages } from '@edu/domain/documents/documents';
import { currentUser } from '../../platform/auth.ts';
import { fieldError } from '../../platform/errors.ts';
import { readCheckedUploads, storeUploads } from '../../platform/uploads.ts';
import { sendXlsx } from '../../platform/xlsx-reply.ts';
import { reviewContract, setRegistrationNumber, uploadContractScan } from './contract-rules.ts';
import { findContractByEntry, listContracts } from './contracts-repository.ts';
import { contractsExport } from './contracts-excel.ts';
import { defaultAccess, isOperator } from '../../platform/access.ts';

const exportQuery = contractExportQuery;

/** Contracts as the client sees them: own contract cards and the scan upload. */
export const contractRoutes: RoutesPlugin = async (app) => {
  defaultAccess(app, 'user');

  /** GET /api/contract: fio, status, page, per_page. A client sees only own contracts; operators all. */
  app.get(
    '/contract',
    { schema: { tags: ['contracts'], summary: 'Список договоров с фильтрами', querystring: contractListQuery, response: { 200: contractsAnswer } } },
    async (request) => {
      const me = currentUser(request);
      const q = request.query;
      const operator = isOperator(me);
      const { data, total } = await listContracts(
        app.db,
        {
          ownerId: operator ? q.user_id : me.id,
          fio: operator ? q.fio : undefined,
          status: q.status,
          archive: q.archive === 1,
          entryId: q.entry_id,
          scan: q.scan === undefined ? undefined : q.scan === 1,
        },
        q,
      );
      return { data, meta: pageMeta(total, q) };
    },
  );

  /** POST /api/contract/upload?entry_id= (multipart "file"): the signed scan of the entry's contract. */
  app.post(
    '/contract/upload',
    {
      schema: {
        tags: ['contracts'],
        summary: 'Загрузить скан подписанного договора',
        querystring: z.object({ entry_id: idField() }),
        form: multipartForm(z.object({}), { file: { description: 'Скан подписанного договора: pdf, jpg или png', required: true } }),
        response: { 200: contractUploadedAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const form = await readCheckedUploads(request, { allowedFields: (f) => f === 'file' });
      if (form.files.length !== 1) throw fieldError('file', DocumentMessages.noFile);
      await storeUploads(request, form, (tx, store) => uploadContractScan(tx, me, request.query.entry_id, form.files[0], store));
      return { data: await findContractByEntry(app.db, request.query.entry_id), message: DocumentMessages.fileUploaded };
    },
  );
};

/**
 * The operators' contract review (spec 02 §2 Contract review board): registered inside the operator
 * scope (app.ts), whose guard answers 401 / 403; the paths are listed in platform/manager-scope.ts.
 */
export const contractManagerRoutes: RoutesPlugin = async (app) => {
  app.post(
    '/contract/:id/accept',
    { schema: { tags: ['contracts'], summary: 'Одобрить договор', params: idParams, response: { 200: contractReviewedAnswer } } },
    async (request) => {
      await reviewContract(app, currentUser(request), request.params.id, { approve: true });
      return { message: ContractMessages.accepted };
    },
  );

  app.post(
    '/contract/:id/reject',
    {
      schema: {
        tags: ['contracts'],
        summary: 'Отклонить договор с комментарием',
        params: idParams,
        body: rejectContractBody.nullish(),
        response: { 200: contractReviewedAnswer },
      },
    },
    async (request) => {
      await reviewContract(app, currentUser(request), request.params.id, { approve: false, comment: request.body?.comment ?? null });
      return { message: ContractMessages.rejectedDone };
    },
  );

  /** POST /api/entry/{id}/set-registration-number: the next number of the year for an approved contract's entry. */
  app.post(
    '/entry/:id/set-registration-number',
    {
      schema: {
        tags: ['contracts'],
        summary: 'Присвоить заявке регистрационный номер договора',
        params: idParams,
        response: { 200: registrationNumberAnswer },
      },
    },
    async (request) => {
      const registration_number = await setRegistrationNumber(app.db, currentUser(request), request.params.id);
      return { data: { id: request.params.id, registration_number }, message: ContractMessages.registrationNumberSet };
    },
  );

  /** GET /api/contract/print-excel: {url} of the board's export with the same filters (fetched with the session). */
  app.get(
    '/contract/print-excel',
    { schema: { tags: ['contracts'], summary: 'Ссылка на выгрузку договоров в Excel', querystring: exportQuery, response: { 200: contractExportLinkAnswer } } },
    async (request) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(request.query)) if (v !== undefined && v !== '') params.set(k, String(v));
      const qs = params.toString();
      return { url: `/api/contract/excel${qs ? `?${qs}` : ''}` };
    },
  );

  /** GET /api/contract/excel: the .xlsx itself, streamed. */
  app.get(
    '/contract/excel',
    {
      schema: {
        tags: ['contracts'],
        summary: 'Выгрузка договоров в Excel (.xlsx)',
        querystring: exportQuery,
        response: { 200: fileAnswer('Договоры, .xlsx', XLSX_TYPE) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const day = new Date().toISOString().slice(0, 10);
      return sendXlsx(
        request,
        reply,
        { name: `Договоры ${day}.xlsx`, asciiName: `contracts-${day}.xlsx` },
        contractsExport(app.db, { fio: q.fio, status: q.status, archive: q.archive === 1 }),
      );
    },
  );
};
