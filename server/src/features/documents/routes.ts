import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import { fileAnswer, multipartForm, STORED_FILE_TYPES, type RoutesPlugin } from '../../platform/responses.ts';
import { idField, idParams } from '@edu/domain/common/bounds';
import {
  contractDataAnswer,
  contractStepAnswer,
  contractStepBody,
  DocumentMessages,
  fileDeletedAnswer,
  fileLinkAnswer,
  identityDocumentBody,
  DOCUMENT_KINDS,
  documentKindLabels,
  identityDocumentSavedAnswer,
  identityDocumentsAnswer,
  isDocumentKind,
  MAX_FILES_PER_KIND,
  profileExtrasAnswer,
  profileExtrasBody,
  profileExtrasSavedAnswer,
  userDocumentsAnswer,
  userDocumentsUploadedAnswer,
  type DocumentKind,
} from '@edu/domain/documents/documents';
import { currentUser, type AuthUser } from '../../platform/auth.ts';
import { AppError, fieldError, forbidden, notFound, validationError } from '../../platform/errors.ts';
import { readCheckedUploads, storeUploads } from '../../platform/uploads.ts';
import { retireFiles } from '../../platform/files.ts';
import { logChange } from '../../platform/change-log.ts';
import {
  contractDataState,
  countFilesOfKinds,
  createFileLink,
  deleteUserDocumentsOfFile,
  documentFilesByKind,
  findDocumentOwner,
  findIdentityDocument,
  findLinkedFile,
  findLiveFile,
  findLiveFileOwner,
  findProfileExtras,
  insertIdentityDocumentOnce,
  insertUserDocument,
  isContractScan,
  isDocumentsUploadAllowed,
  isUserDocument,
  listUserDocuments,
  lockPassportForLog,
  lockUserForUploads,
  setContractStep,
  updateProfileExtras,
  upsertIdentityDocument,
} from './documents-repository.ts';
import { defaultAccess, isOperator } from '../../platform/access.ts';
import { assertFileReadable } from '../files/file-policy.ts';
import { assertUserReachable } from '../users/user-policy.ts';
import { userFileHeaders } from '../../platform/security-headers.ts';

/** How long a link handed to the browser for one file works. */
export const FILE_LINK_MINUTES = 2;

const hashLinkToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Sends a stored file inline, never sniffed or cached, sandboxed (USER_FILE_POLICY); the name only as a label. */
function sendFile(reply: FastifyReply, file: { mime: string; name: string; storage_key: string }, data: Buffer) {
  return userFileHeaders(reply)
    .type(file.mime)
    .header('content-disposition', `inline; filename="file.${file.storage_key.split('.').pop()}"; filename*=UTF-8''${encodeURIComponent(file.name)}`)
    .header('cache-control', 'private, no-store')
    .send(data);
}

/**
 * GET /api/file/link/{token}: the file of a short-lived link (the token is the credential, so the
 * route has no session guard). Only the SHA-256 of the token is stored; an expired or unknown token
 * is a 404. Like every user file, nothing loads or runs in it (USER_FILE_POLICY); no Referer either.
 */
export const fileLinkRoutes: RoutesPlugin = async (app) => {
  app.get(
    '/file/link/:token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['documents'],
        summary: 'Файл по временной ссылке',
        params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) }),
        response: { 200: fileAnswer('Файл', STORED_FILE_TYPES) },
      },
    },
    async (request, reply) => {
      const found = await findLinkedFile(app.db, hashLinkToken(request.params.token));
      if (!found) throw notFound();
      const data = await app.files.read(found.storage_key).catch(() => null);
      if (!data) throw notFound();
      reply.header('referrer-policy', 'no-referrer');
      return sendFile(reply, found, data);
    },
  );
};

/**
 * The client's contract data: documents, passport, profile extras, the wizard's step, and the one
 * authorised route every private file is downloaded through. Passports and SNILS are personal data
 * (152-FZ): only the owner and operators read them, the change log keeps them masked (who changed
 * them and when, never the whole number), and error answers never repeat them. Every write here
 * logs its change in its own transaction, naming the operator of a "login as" session.
 */
export const documentRoutes: RoutesPlugin = async (app) => {
  defaultAccess(app, 'user');

  /** Writes by a client need an entry for a course (a service whose type needs a contract). */
  async function assertMayWrite(me: AuthUser, userId: number) {
    if (isOperator(me)) return;
    if (!(await isDocumentsUploadAllowed(app.db, userId))) throw forbidden(DocumentMessages.onlyForCourses);
  }

  /** GET /api/user/{id}/documents: passport, education, snils, surname, other, consent and the whole list. */
  app.get(
    '/user/:id/documents',
    {
      config: { access: { owner: 'user' } },
      schema: { tags: ['documents'], summary: 'Документы пользователя по видам', params: idParams, response: { 200: userDocumentsAnswer } },
    },
    async (request) => {
      assertUserReachable(currentUser(request), request.params.id);
      return { data: await listUserDocuments(app.db, request.params.id) };
    },
  );

  /** POST /api/user/{id}/upload-documents: multipart, one field per kind (several files each, "passport[]" too). */
  app.post(
    '/user/:id/upload-documents',
    {
      config: { access: { owner: 'user' } },
      schema: {
        tags: ['documents'],
        summary: 'Загрузить документы пользователя',
        params: idParams,
        form: multipartForm(
          z.object({}),
          Object.fromEntries(
            DOCUMENT_KINDS.map((kind) => [
              kind,
              { description: `${documentKindLabels[kind]}: pdf, jpg или png (можно несколько, поле «${kind}[]» тоже)`, many: true },
            ]),
          ),
        ),
        response: { 200: userDocumentsUploadedAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const userId = request.params.id;
      assertUserReachable(me, userId);
      await assertMayWrite(me, userId);
      const form = await readCheckedUploads(request, { allowedFields: isDocumentKind });
      const uploads = form.files;
      if (uploads.length === 0) throw fieldError('file', DocumentMessages.noFile);
      await storeUploads(request, form, async (tx, store) => {
        // Serialise one user's uploads so the per-kind bound holds under parallel requests.
        await lockUserForUploads(tx, userId);
        const have = await countFilesOfKinds(tx, userId);
        const adding: Record<string, number> = {};
        for (const u of uploads) adding[u.field] = (adding[u.field] ?? 0) + 1;
        const over = Object.keys(adding).filter((k) => (have[k] ?? 0) + adding[k] > MAX_FILES_PER_KIND);
        if (over.length) throw validationError(Object.fromEntries(over.map((k) => [k, [DocumentMessages.tooManyOfKind]])));
        const before = await documentFilesByKind(tx, userId);
        for (const u of uploads) {
          const kind = u.field as DocumentKind;
          const file = await store(tx, userId, u);
          await insertUserDocument(tx, { userId, kind, fileId: file.id });
        }
        await logChange(tx, { type: 'user', entityId: userId, userId: me.id, before, after: await documentFilesByKind(tx, userId) });
      });
      return { data: await listUserDocuments(app.db, userId), message: DocumentMessages.filesUploaded };
    },
  );

  /** GET /api/file/{id}: a private file, to its owner and operators only; sent as an attachment-safe inline. */
  app.get(
    '/file/:id',
    {
      config: { access: { owner: 'file' } },
      schema: {
        tags: ['documents'],
        summary: 'Закрытый файл (владельцу и операторам)',
        params: idParams,
        response: { 200: fileAnswer('Файл', STORED_FILE_TYPES) },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const file = await findLiveFile(app.db, request.params.id);
      assertFileReadable(me, file);
      const data = await app.files.read(file.storage_key).catch(() => null);
      if (!data) throw notFound();
      return sendFile(reply, file, data);
    },
  );

  /**
   * GET /api/file/{id}/link: {url} of a link to the file that works for FILE_LINK_MINUTES without the
   * session header, for opening a document in a new browser tab (the tab cannot send the Bearer token).
   */
  app.get(
    '/file/:id/link',
    {
      config: { access: { owner: 'file' } },
      schema: { tags: ['documents'], summary: 'Временная ссылка на файл для открытия в новой вкладке', params: idParams, response: { 200: fileLinkAnswer } },
    },
    async (request) => {
      const me = currentUser(request);
      const file = await findLiveFileOwner(app.db, request.params.id);
      assertFileReadable(me, file);
      const token = randomBytes(32).toString('base64url');
      await createFileLink(app.db, {
        tokenHash: hashLinkToken(token),
        fileId: file.id,
        userId: me.id,
        expiresAt: new Date(Date.now() + FILE_LINK_MINUTES * 60_000),
      });
      return { url: `/api/file/link/${token}` };
    },
  );

  /** DELETE /api/file/{id}: a user document of the owner (operators: anyone's). Contract scans stay. */
  app.delete(
    '/file/:id',
    {
      config: { access: { owner: 'file' } },
      schema: { tags: ['documents'], summary: 'Удалить документ пользователя', params: idParams, response: { 200: fileDeletedAnswer } },
    },
    async (request) => {
      const me = currentUser(request);
      const file = await findLiveFile(app.db, request.params.id);
      assertFileReadable(me, file);
      const scan = await isContractScan(app.db, file.id);
      const doc = await isUserDocument(app.db, file.id);
      if (scan || !doc) throw new AppError(422, DocumentMessages.fileInUse, { errors: { file: [DocumentMessages.fileInUse] } });
      if (file.user_id !== null) await assertMayWrite(me, file.user_id);
      await app.db.transaction(async (tx) => {
        const owner = (await findDocumentOwner(tx, file.id)) ?? file.user_id;
        const before = owner === null ? null : await documentFilesByKind(tx, owner);
        await deleteUserDocumentsOfFile(tx, file.id);
        await retireFiles(tx, [file.id]);
        if (owner !== null) await logChange(tx, { type: 'user', entityId: owner, userId: me.id, before, after: await documentFilesByKind(tx, owner) });
      });
      return { message: 'Успешно удалено' };
    },
  );

  /** GET /api/identity-document?user_id=: the passport as a one-item list (spec 01 §7: first item used). */
  app.get(
    '/identity-document',
    {
      schema: {
        tags: ['documents'],
        summary: 'Паспортные данные пользователя',
        querystring: z.object({ user_id: idField().optional() }),
        response: { 200: identityDocumentsAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const userId = request.query.user_id ?? me.id;
      assertUserReachable(me, userId);
      const doc = await findIdentityDocument(app.db, userId, isOperator(me));
      return { data: doc ? [doc] : [] };
    },
  );

  /** POST /api/identity-document: saves the passport once; afterwards only an operator can change it. */
  app.post(
    '/identity-document',
    { schema: { tags: ['documents'], summary: 'Сохранить паспортные данные', body: identityDocumentBody, response: { 201: identityDocumentSavedAnswer } } },
    async (request, reply) => {
      const me = currentUser(request);
      const b = request.body;
      const userId = b.user_id ?? me.id;
      assertUserReachable(me, userId);
      await assertMayWrite(me, userId);
      const values = { user_id: userId, dict_document_type_id: 1, number: b.number, date: b.date, issued_by: b.issued_by };
      await app.db.transaction(async (tx) => {
        const before = await lockPassportForLog(tx, userId);
        if (isOperator(me)) {
          await upsertIdentityDocument(tx, values);
        } else {
          if (!(await insertIdentityDocumentOnce(tx, values)))
            throw new AppError(422, DocumentMessages.passportLocked, { errors: { number: [DocumentMessages.passportLocked] } });
        }
        // The number is masked by the log (152-FZ): only its last digits are kept.
        await logChange(tx, { type: 'user', entityId: userId, userId: me.id, before, after: await lockPassportForLog(tx, userId) });
      });
      return reply.status(201).send({ data: await findIdentityDocument(app.db, userId, isOperator(me)), message: DocumentMessages.dataSaved });
    },
  );

  /** GET /api/user/{id}/profile-extras: address, birthday, snils. */
  app.get(
    '/user/:id/profile-extras',
    {
      config: { access: { owner: 'user' } },
      schema: { tags: ['documents'], summary: 'Адрес, дата рождения и СНИЛС пользователя', params: idParams, response: { 200: profileExtrasAnswer } },
    },
    async (request) => {
      assertUserReachable(currentUser(request), request.params.id);
      const u = await findProfileExtras(app.db, request.params.id);
      if (!u) throw notFound();
      return { data: u };
    },
  );

  /** POST /api/user/{id}/profile-extras {address, birthday, snils}: all required; SNILS by mask and check number. */
  app.post(
    '/user/:id/profile-extras',
    {
      config: { access: { owner: 'user' } },
      schema: {
        tags: ['documents'],
        summary: 'Сохранить адрес, дату рождения и СНИЛС',
        params: idParams,
        body: profileExtrasBody,
        response: { 200: profileExtrasSavedAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      assertUserReachable(me, request.params.id);
      await assertMayWrite(me, request.params.id);
      const b = request.body;
      const u = await app.db.transaction(async (tx) => {
        const before = await findProfileExtras(tx, request.params.id, true);
        const after = await updateProfileExtras(tx, request.params.id, b);
        if (!before || !after) throw notFound();
        // SNILS is masked by the log (152-FZ).
        await logChange(tx, { type: 'user', entityId: request.params.id, userId: me.id, before: { ...before }, after: { ...after } });
        return after;
      });
      return { data: u, message: DocumentMessages.dataSaved };
    },
  );

  /** GET /api/user/{id}/contract-data: the wizard's state, computed from the data. */
  app.get(
    '/user/:id/contract-data',
    {
      config: { access: { owner: 'user' } },
      schema: { tags: ['documents'], summary: 'Состояние мастера данных для договора', params: idParams, response: { 200: contractDataAnswer } },
    },
    async (request) => {
      assertUserReachable(currentUser(request), request.params.id);
      const state = await contractDataState(app.db, request.params.id);
      if (!state) throw notFound();
      return { data: state };
    },
  );

  /**
   * POST /api/user/{id}/contract-step {contract_step}: Next in the wizard. A step is stored only when
   * every earlier step is complete; otherwise 422 with what is missing.
   */
  app.post(
    '/user/:id/contract-step',
    {
      config: { access: { owner: 'user' } },
      schema: {
        tags: ['documents'],
        summary: 'Перейти к следующему шагу мастера данных для договора',
        params: idParams,
        body: contractStepBody,
        response: { 200: contractStepAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const userId = request.params.id;
      assertUserReachable(me, userId);
      const state = await contractDataState(app.db, userId);
      if (!state) throw notFound();
      if (!state.is_documents_upload_allowed) throw forbidden(DocumentMessages.onlyForCourses);
      const step = request.body.contract_step;
      if (step > state.max_step) throw validationError(state.missing, DocumentMessages.fillAllForContract);
      await app.db.transaction(async (tx) => {
        const before = await setContractStep(tx, userId, step);
        await logChange(tx, { type: 'user', entityId: userId, userId: me.id, before: before ?? null, after: { contract_step: step } });
      });
      return { data: await contractDataState(app.db, userId), message: DocumentMessages.dataSaved };
    },
  );
};
