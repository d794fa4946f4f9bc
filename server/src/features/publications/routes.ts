import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fileAnswer, multipartForm, parsedBody, STORED_FILE_TYPES, type RoutesPlugin } from '../../platform/responses.ts';
import { z } from 'zod';
import { filterText, idParams } from '@edu/domain/common/bounds';
import { fieldErrorsFromZod } from '@edu/domain/common/validation';
import {
  addedToReleaseAnswer,
  addToReleaseBody,
  authorOptionsAnswer,
  declineBody,
  PublicationMessages,
  publicationActionAnswer,
  publicationAnswer,
  publicationCheckStateAnswer,
  publicationDeletedAnswer,
  publicationListQuery,
  publicationPageAnswer,
  publicationSlotsAnswer,
  publicationSlotsQuery,
  publishAcceptedAnswer,
  publishAcceptedBody,
  publicationPlainText,
  rejectBody,
  savePublicationAnswer,
  savePublicationBody,
  unpaidConfirmBody,
  type Publication,
} from '@edu/domain/publications/publication';
import { currentUser, type AuthUser } from '../../platform/auth.ts';
import type { Queryable } from '../../platform/db.ts';
import { logChange } from '../../platform/change-log.ts';
import { AppError, fieldError, notFound, validationError } from '../../platform/errors.ts';
import { JoomlaError } from '../../platform/cms/joomla-client.ts';
import { sendPrivateFile } from '../../platform/signed-links.ts';
import { retireFiles } from '../../platform/files.ts';
import { readCheckedUploads, storeUploads, type UploadForm } from '../../platform/uploads.ts';
import { checkPublicationNow, limitSavesWhileChecked, refuseSpentSaves } from './jobs.ts';
import { RememberedAttempts } from '../../platform/attempts.ts';
import { cleanPublicationText, type CleanedText } from './uniqueness/clean-text.ts';
import { asHeavy } from '../../platform/work-priority.ts';
import { PoolBusyError } from '../../platform/worker-pool.ts';
import { refusalAnswer } from '@edu/domain/common/answers';
import { removePublicationIndex } from './uniqueness-repository.ts';
import { createPublication, updatePublication } from './publication-save.ts';
import { movePublication, unpaidGuard } from './publication-status.ts';
import { cancelUnpaidEntriesOf } from './publication-entries.ts';
import {
  canSee,
  findCheckState,
  textLength,
  findLiveRelease,
  findLiveUserFio,
  findPublication,
  findPublicationFile,
  insertPublicationAuthor,
  listApprovedInternetPublications,
  listPublications,
  listPublicationSlots,
  loadPublicationText,
  loadRecord,
  lockPublicationsForRelease,
  publicationAuthorPositions,
  publicationFileIds,
  searchAuthors,
  setPublicationRelease,
  softDeletePublication,
} from './publications-repository.ts';
import { assertPublicationDeletable } from './publication-policy.ts';
import { answerInvitation, pendingInvitations } from './co-authors.ts';
import { coAuthorInvitationsAnswer, invitationAnsweredAnswer } from '@edu/domain/publications/co-authors';
import { defaultAccess, isOperator } from '../../platform/access.ts';

const tags = ['publications'];
const FILE_FIELDS = new Set(['file', 'additionalFiles']);
/** The body of create and update: multipart with the files, or JSON without them. */
const saveForm = multipartForm(
  savePublicationBody,
  {
    file: { description: 'Файл публикации: pdf, jpg или png' },
    additionalFiles: { description: 'Дополнительные файлы (только при создании)', many: true },
  },
  { json: true },
);

/** Multipart (file, additionalFiles[] and fields) or JSON; fields checked by the save schema. */
/**
 * The saved text cleaned in the uniqueness worker pool before the transaction (0.5-0.75 s for a
 * 480 000-character text would otherwise hold the request thread); with the pool's queue full, the
 * save cleans it in process as before (and so after a worker's failure).
 */
async function cleanOffThread(app: FastifyInstance, html: string | undefined | null): Promise<CleanedText | undefined> {
  if (!html) return undefined;
  // A short text is cleaned here at once (a few milliseconds) rather than queued behind the
  // uniqueness checks running in the pool: 2-3 s each for a 480 000-character text (issue 29).
  if (html.length <= IN_PROCESS_CLEAN_MAX) return cleanPublicationText(html);
  try {
    return await app.uniqueness.clean(html);
  } catch (err) {
    if (!(err instanceof PoolBusyError)) app.log.warn({ err }, 'cleaning a publication text in the worker pool failed; cleaning it in process');
    return undefined;
  }
}

/** Texts up to this many characters are cleaned on the request thread (about 5 ms for 8 000). */
export const IN_PROCESS_CLEAN_MAX = 8000;

/**
 * A save of a text longer than this holds the embedded database for 5 ms or more (40-90 ms for
 * 480 000 characters): its transaction runs as heavy work (work-priority.ts), after other people's
 * short statements waiting then.
 */
export const HEAVY_TEXT_CHARS = 50_000;
/** Runs fn as heavy work when the text it saves or reads has more than HEAVY_TEXT_CHARS characters. */
const asHeavyIfLong = <T>(chars: number, fn: () => Promise<T>): Promise<T> => (chars > HEAVY_TEXT_CHARS ? asHeavy(fn) : fn());

async function readSave(request: FastifyRequest, opts: { update?: boolean } = {}) {
  let raw: Record<string, unknown>;
  let form: UploadForm = { files: [], fields: {} };
  if (request.isMultipart()) {
    form = await readCheckedUploads(request, { allowedFields: (f) => FILE_FIELDS.has(f) });
    raw = form.fields;
    const files = form.files;
    if (files.filter((f) => f.field === 'file').length > 1) throw fieldError('file', PublicationMessages.attachFile);
    if (opts.update && files.some((f) => f.field === 'additionalFiles')) throw fieldError('additionalFiles', PublicationMessages.additionalFilesOnCreate);
  } else {
    raw = (request.body ?? {}) as Record<string, unknown>;
    if (typeof raw !== 'object' || Array.isArray(raw)) raw = {};
  }
  const parsed = savePublicationBody.safeParse(raw);
  if (!parsed.success) throw validationError(fieldErrorsFromZod(parsed.error));
  return { input: parsed.data, form, sent: { authors: 'authors' in raw } };
}

/**
 * The publication as GET /{id} gives it; `known`: the text a save has just stored (not read back).
 * A save reads it in its own transaction: on the embedded PGlite a read after the commit waits again
 * behind whatever took the database meanwhile (issue 29).
 */
async function answerOne(db: Queryable, user: AuthUser, id: number, known?: { text: string | null }): Promise<Publication> {
  const p = await findPublication(db, user, id, known);
  if (!p) throw notFound(PublicationMessages.notFound);
  return p;
}

/** GET list, GET one, create, update, delete and file downloads: any signed-in user, on what they may see. */
export const publicationRoutes: RoutesPlugin = async (app) => {
  defaultAccess(app, 'user');

  /** GET /api/publication: users their own and co-authored ones (userId and fio ignored); operators all. */
  app.get(
    '/',
    { schema: { tags, summary: 'Список публикаций с фильтрами', querystring: publicationListQuery, response: { 200: publicationPageAnswer } } },
    async (request) => {
      const { page, per_page, ...filters } = request.query;
      return listPublications(app.db, currentUser(request), filters, { page, per_page });
    },
  );

  /**
   * GET /api/publication/authors?fio=: co-author lookup for the publication form (spec 03 §5: search
   * by fio, page 1, only for non-empty text). Active users and operators, id and full name only, at
   * most 20; every word of the query must match a part of the name.
   */
  app.get(
    '/authors',
    {
      schema: {
        tags,
        summary: 'Поиск соавторов по ФИО',
        querystring: z.object({ fio: filterText(200).default(''), page: z.coerce.number().int().min(1).max(1000).default(1) }),
        response: { 200: authorOptionsAnswer },
      },
    },
    async (request) => {
      const words = request.query.fio.split(/\s+/).filter(Boolean);
      if (words.length === 0 || request.query.fio.length < 2) return { data: [] };
      const offset = (request.query.page - 1) * 20;
      return { data: await searchAuthors(app.db, request.query.fio, offset) };
    },
  );

  app.get(
    '/:id',
    {
      config: { access: { owner: 'publication' } },
      schema: { tags, summary: 'Публикация по идентификатору', params: idParams, response: { 200: publicationAnswer } },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = request.params;
      // A long text's read holds the embedded database as its save does (20-40 ms for 480 000 characters).
      return { data: await asHeavyIfLong(await textLength(app.db, id), () => answerOne(app.db, user, id)) };
    },
  );

  /**
   * GET /api/publication/{id}/uniqueness-state: the check's state, percent and time, without the text;
   * the cabinet polls it while a check waits or runs and reads the whole publication once it is done.
   */
  app.get(
    '/:id/uniqueness-state',
    {
      config: { access: { owner: 'publication' } },
      schema: { tags, summary: 'Состояние проверки уникальности публикации', params: idParams, response: { 200: publicationCheckStateAnswer } },
    },
    async (request) => {
      const state = await findCheckState(app.db, currentUser(request), request.params.id);
      if (!state) throw notFound(PublicationMessages.notFound);
      return { data: state };
    },
  );

  /** GET /api/publication/invitations: co-author invitations waiting for the signed-in user's answer. */
  app.get(
    '/invitations',
    { schema: { tags, summary: 'Приглашения в соавторы, ждущие ответа', response: { 200: coAuthorInvitationsAnswer } } },
    async (request) => ({
      data: await pendingInvitations(app.db, currentUser(request).id),
    }),
  );

  /**
   * GET /api/publication/slots: the asker's entries of publication services still without their
   * article (a package's publication, a paid entry whose article was deleted), best first; a new
   * publication goes there before any new entry is made. Operators name the client by `user_id`.
   */
  app.get(
    '/slots',
    { schema: { tags, summary: 'Заявки на публикацию, ещё без статьи', querystring: publicationSlotsQuery, response: { 200: publicationSlotsAnswer } } },
    async (request) => {
      const user = currentUser(request);
      const ownerId = isOperator(user) && request.query.user_id ? request.query.user_id : user.id;
      return { data: await listPublicationSlots(app.db, ownerId) };
    },
  );

  /** POST /api/publication/{id}/accept-invitation and …/decline-invitation: the invited person's answer (co-authors.ts). */
  for (const answer of ['accept', 'decline'] as const) {
    app.post(
      `/:id/${answer}-invitation`,
      {
        config: { access: { owner: 'publication', selfOnly: true } },
        schema: {
          tags,
          summary: answer === 'accept' ? 'Принять приглашение в соавторы' : 'Отклонить приглашение в соавторы',
          params: idParams,
          response: { 200: invitationAnsweredAnswer },
        },
      },
      async (request) => {
        const me = currentUser(request);
        return { message: await app.db.transaction((tx) => answerInvitation(tx, me, request.params.id, answer === 'accept')) };
      },
    );
  }

  /** POST /api/publication (multipart: file, additionalFiles[], fields). */
  app.post(
    '/',
    { schema: { tags, summary: 'Создать публикацию', form: saveForm, response: { 200: savePublicationAnswer, 429: refusalAnswer } } },
    async (request) => {
      const user = currentUser(request);
      const { input, form } = await readSave(request);
      const cleaned = await cleanOffThread(app, input.text);
      const { result, data } = await asHeavyIfLong(input.text?.length ?? 0, () =>
        storeUploads(request, form, async (tx, store) => {
          const result = await createPublication(tx, store, user, input, form.files, { pendingChecks: app.config.uniqueness.pendingPerUser, cleaned });
          return { result, data: await answerOne(tx, user, result.id, result) };
        }),
      );
      return {
        message: PublicationMessages.saved,
        info: result.scheduled ? PublicationMessages.willBeChecked : null,
        entry_note: result.entryNote ?? null,
        data,
      };
    },
  );

  /**
   * Whether the publication may be saved (onRequest of both update routes, after the session's check):
   * seen by this user, and a client's save while its check waits or runs within the limit. Refused
   * before the body is read, so a loop of 480 000-character saves costs the request thread nothing
   * for each refused one (issue 29: decoding and parsing the refused bodies was most of its work).
   */
  const saveAttempts = new RememberedAttempts();
  const admitSave = async (request: FastifyRequest<{ Params: { id: number } }>) => {
    const user = currentUser(request);
    // Before validation: the id is still the path's text.
    const id = Number(request.params.id);
    if (!Number.isSafeInteger(id) || id <= 0) return; // the params' validation answers
    if (!isOperator(user)) refuseSpentSaves(user.id, id, saveAttempts);
    if (!(await canSee(app.db, user, id))) throw notFound(PublicationMessages.notFound);
    const limits = app.config.uniqueness;
    if (!isOperator(user))
      await limitSavesWhileChecked(app.db, user.id, id, {
        perWindow: limits.savesWhilePending,
        windowMinutes: limits.saveWindowMinutes,
        attempts: saveAttempts,
      });
  };
  const update = async (request: FastifyRequest<{ Params: { id: number } }>) => {
    const user = currentUser(request);
    const { id } = request.params;
    const { input, form, sent } = await readSave(request, { update: true });
    const cleaned = await cleanOffThread(app, input.text);
    const { result, data } = await asHeavyIfLong(input.text?.length ?? 0, () =>
      storeUploads(request, form, async (tx, store) => {
        const result = await updatePublication(tx, store, user, id, input, form.files, sent, { pendingChecks: app.config.uniqueness.pendingPerUser, cleaned });
        return { result, data: await answerOne(tx, user, id, result) };
      }),
    );
    return {
      message: result.moved ? PublicationMessages.typeAndReleaseUpdated : PublicationMessages.saved,
      info: result.scheduled ? PublicationMessages.willBeChecked : null,
      entry_note: null,
      data,
    };
  };
  /** PUT /api/publication/{id}; the form sends POST /api/publication/{id}?_method=PUT (or the field in the body). */
  app.put(
    '/:id',
    {
      config: { access: { owner: 'publication' } },
      onRequest: admitSave,
      schema: { tags, summary: 'Изменить публикацию', params: idParams, form: saveForm, response: { 200: savePublicationAnswer, 429: refusalAnswer } },
    },
    update,
  );
  app.post(
    '/:id',
    {
      config: { access: { owner: 'publication' } },
      onRequest: admitSave,
      schema: {
        tags,
        summary: 'Изменить публикацию (форма с _method=PUT)',
        params: idParams,
        form: saveForm,
        response: { 200: savePublicationAnswer, 429: refusalAnswer },
      },
    },
    update,
  );

  /** DELETE /api/publication/{id}: the creator only a rejected one; operators any (soft delete). */
  app.delete(
    '/:id',
    {
      config: { access: { owner: 'publication' } },
      schema: { tags, summary: 'Удалить публикацию', params: idParams, response: { 200: publicationDeletedAnswer } },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = request.params;
      await app.db.transaction(async (tx) => {
        const p = await loadRecord(tx, id, { lock: true });
        if (!p || !(await canSee(tx, user, id))) throw notFound(PublicationMessages.notFound);
        assertPublicationDeletable(user, p);
        const at = new Date();
        await softDeletePublication(tx, id, at);
        await retireFiles(tx, await publicationFileIds(tx, id));
        await removePublicationIndex(tx, id);
        await logChange(tx, { type: 'publication', entityId: id, userId: user.id, before: { deleted_at: null }, after: { deleted_at: at } });
        // Nothing is owed for a deleted publication (decision 025).
        await cancelUnpaidEntriesOf(tx, id, { by: user.id, deleted: true });
      });
      return { message: PublicationMessages.deleted };
    },
  );

  /** GET /api/publication/{id}/file/{fileId}: the main or an additional file, to whoever may see the publication. */
  app.get(
    '/:id/file/:fileId',
    {
      schema: {
        tags,
        summary: 'Файл публикации',
        params: z.object({ id: idParams.shape.id, fileId: idParams.shape.id }),
        response: { 200: fileAnswer('Файл публикации (pdf, jpg или png)', STORED_FILE_TYPES) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { id, fileId } = request.params;
      if (!(await canSee(app.db, user, id))) throw notFound();
      const file = await findPublicationFile(app.db, id, fileId);
      if (!file) throw notFound();
      const data = await app.files.read(file.storage_key).catch(() => null);
      if (!data) throw notFound();
      return sendPrivateFile(reply, file, data);
    },
  );
};

const statusAnswer = async (app: FastifyInstance, user: AuthUser, id: number) => ({
  message: PublicationMessages.statusChanged,
  data: await answerOne(app.db, user, id),
});

/**
 * Operator actions (registered inside the operator scope in app.ts, prefix /api/publication): accept,
 * decline, reject, send to the journal, check, add an author, publish the approved ones, add to a release.
 */
export const publicationOperatorRoutes: RoutesPlugin = async (app) => {
  /** «Одобрить»: an unpaid publication only with `confirm_unpaid` (422 on that field otherwise; issue 28). */
  app.post(
    '/:id/accept',
    { schema: { tags, summary: 'Одобрить публикацию', params: idParams, body: unpaidConfirmBody.nullish(), response: { 200: publicationActionAnswer } } },
    async (request) => {
      const user = currentUser(request);
      const guard = unpaidGuard(request.body?.confirm_unpaid ?? false, PublicationMessages.confirmUnpaidApprove);
      await app.db.transaction((tx) => movePublication(tx, { publicationId: request.params.id, action: 'accept', by: user.id, guard }));
      return statusAnswer(app, user, request.params.id);
    },
  );

  app.post(
    '/:id/decline',
    {
      schema: { tags, summary: 'Вернуть публикацию на доработку', params: idParams, body: declineBody.optional(), response: { 200: publicationActionAnswer } },
    },
    async (request) => {
      const user = currentUser(request);
      const comment = request.body?.manager_comment?.trim() || null;
      await app.db.transaction((tx) =>
        movePublication(tx, { publicationId: request.params.id, action: 'decline', by: user.id, set: comment ? { manager_comment: comment } : {} }),
      );
      return statusAnswer(app, user, request.params.id);
    },
  );

  app.post(
    '/:id/reject',
    { schema: { tags, summary: 'Отклонить публикацию', params: idParams, form: parsedBody(rejectBody), response: { 200: publicationActionAnswer } } },
    async (request) => {
      const user = currentUser(request);
      const parsed = rejectBody.safeParse(request.body ?? {});
      if (!parsed.success) throw validationError(fieldErrorsFromZod(parsed.error), PublicationMessages.rejectReason);
      const comment = parsed.data.manager_comment?.trim() || null;
      await app.db.transaction((tx) =>
        movePublication(tx, {
          publicationId: request.params.id,
          action: 'reject',
          by: user.id,
          silent: parsed.data.is_silent ?? false,
          set: comment ? { manager_comment: comment } : {},
        }),
      );
      return statusAnswer(app, user, request.params.id);
    },
  );

  /** «В журнал» (only when is_journal); an unpaid publication only with `confirm_unpaid`, as «Одобрить». */
  app.post(
    '/:id/send-to-journal',
    { schema: { tags, summary: 'Взять публикацию в журнал', params: idParams, body: unpaidConfirmBody.nullish(), response: { 200: publicationActionAnswer } } },
    async (request) => {
      const user = currentUser(request);
      const unpaid = unpaidGuard(request.body?.confirm_unpaid ?? false, PublicationMessages.confirmUnpaidJournal);
      await app.db.transaction((tx) =>
        movePublication(tx, {
          publicationId: request.params.id,
          action: 'sendToJournal',
          by: user.id,
          guard: (p) => {
            if (!p.is_journal) throw new AppError(422, PublicationMessages.notJournal);
            return unpaid(p);
          },
        }),
      );
      return statusAnswer(app, user, request.params.id);
    },
  );

  /**
   * Runs the uniqueness check now (in the worker pool) and stores percent and matches; a file without
   * text cannot be checked. A check already queued or running is not started again: 202 says so, as
   * does a check put in the queue because the pool is full.
   */
  app.post(
    '/:id/check-uniqueness',
    {
      schema: {
        tags,
        summary: 'Проверить уникальность текста публикации',
        params: idParams,
        response: { 200: publicationActionAnswer, 202: publicationActionAnswer },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const p = await loadRecord(app.db, request.params.id);
      if (!p) throw notFound(PublicationMessages.notFound);
      const text = await loadPublicationText(app.db, p.id);
      const plain = text ? publicationPlainText(text).trim() : '';
      if (!plain) throw new AppError(422, p.file_id ? PublicationMessages.checkFileOnly : PublicationMessages.noText);
      const { state } = await checkPublicationNow(app, p.id, p.created_by);
      const message = {
        done: PublicationMessages.checkDone,
        queued: PublicationMessages.checkQueued,
        running: PublicationMessages.checkRunning,
        postponed: PublicationMessages.checkPostponed,
      }[state];
      if (state !== 'done') reply.code(202);
      return { message, data: await answerOne(app.db, user, p.id) };
    },
  );

  /** Adds a registered user as a co-author; authorId must be a user picked from the dropdown. */
  app.post(
    '/:id/add-author/:authorId',
    {
      schema: {
        tags,
        summary: 'Добавить соавтора к публикации',
        params: z.object({ id: idParams.shape.id, authorId: z.string().max(40) }),
        response: { 200: publicationActionAnswer },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id, authorId: rawAuthor } = request.params;
      const authorId = /^\d{1,10}$/.test(rawAuthor) ? Number(rawAuthor) : NaN;
      if (!Number.isInteger(authorId) || authorId < 1 || authorId > 2_147_483_647)
        throw fieldError('authorId', PublicationMessages.chooseAuthor, PublicationMessages.chooseAuthor);
      await app.db.transaction(async (tx) => {
        const p = await loadRecord(tx, id, { lock: true });
        if (!p) throw notFound(PublicationMessages.notFound);
        const author = await findLiveUserFio(tx, authorId);
        if (!author) throw fieldError('authorId', PublicationMessages.chooseAuthor, PublicationMessages.chooseAuthor);
        const list = await publicationAuthorPositions(tx, id);
        if (authorId === p.created_by || list.some((a) => a.user_id === authorId))
          throw fieldError('authorId', PublicationMessages.authorAlready, PublicationMessages.authorAlready);
        const max = Math.max(0, (p.authors_num ?? 1) - 1);
        const extra = list.filter((a) => a.position > 0).length;
        if (extra >= max) throw fieldError('authorId', PublicationMessages.tooManyAuthors(max), PublicationMessages.tooManyAuthors(max));
        const position = Math.max(0, ...list.map((a) => a.position)) + 1;
        await insertPublicationAuthor(tx, { publication_id: id, user_id: authorId, fio: author.fio.slice(0, 255), position, accepted_at: new Date() });
        await logChange(tx, { type: 'publication', entityId: id, userId: user.id, before: { author_added: null }, after: { author_added: author.fio } });
      });
      return { message: PublicationMessages.authorAdded, data: await answerOne(app.db, user, id) };
    },
  );

  /**
   * Publishes every approved internet publication (subtype 5) to the journal's site (CMS_JOURNAL_URL,
   * decision 026) through the CMS client: one article each (alias publication-{id}; an article a lost
   * answer left on the site is adopted, never duplicated), then status 4 with the article's address.
   * The rubric's category is checked against the site's first (Joomla would make a new category for
   * an unknown id). The title is cut to the site's 255 characters in the article only. The journal
   * site off: 422, nothing changes (docs/decisions/014).
   */
  app.post(
    '/publish-accepted',
    {
      schema: {
        tags,
        summary: 'Опубликовать одобренные интернет-публикации на сайте журнала',
        body: publishAcceptedBody.nullish(),
        response: { 200: publishAcceptedAnswer },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const client = app.cms.client('journal');
      if (!client) throw new AppError(422, PublicationMessages.cmsOff);
      const approved = await listApprovedInternetPublications(app.db);
      if (approved.length === 0) throw new AppError(422, PublicationMessages.nothingToPublish);
      // Unpaid ones stay approved unless the operator asked for them too (issue 28); the message counts them.
      const includeUnpaid = request.body?.include_unpaid ?? false;
      const skipped = includeUnpaid ? [] : approved.filter((p) => !p.is_paid).map((p) => p.id);
      const list = approved.filter((p) => !skipped.includes(p.id));
      if (list.length === 0) throw new AppError(422, PublicationMessages.nothingPaidToPublish(skipped.length));
      const withSkipped = (message: string) => (skipped.length ? `${message} ${PublicationMessages.skippedUnpaid(skipped.length)}` : message);
      let siteCategories: Set<number>;
      try {
        siteCategories = new Set((await client.categories()).map((c) => c.id));
      } catch (err) {
        if (!(err instanceof JoomlaError)) throw err;
        throw new AppError(422, PublicationMessages.cmsFailed, { failed: list.map((p) => ({ id: p.id, message: err.message })) });
      }
      const published: number[] = [];
      const failed: Array<{ id: number; message: string }> = [];
      for (const p of list) {
        if (!p.joomla_category_id) {
          failed.push({ id: p.id, message: PublicationMessages.rubricWithoutCategory(p.rubric) });
          continue;
        }
        if (!siteCategories.has(p.joomla_category_id)) {
          failed.push({ id: p.id, message: PublicationMessages.rubricUnknownCategory(p.rubric ?? '', p.joomla_category_id) });
          continue;
        }
        try {
          const { article } = await client.saveArticle(
            {
              title: p.title,
              alias: `publication-${p.id}`,
              catid: p.joomla_category_id,
              introtext: p.authors ? `<p><em>${p.authors.replace(/[<>&]/g, '')}</em></p>` : '',
              fulltext: p.text ?? '',
              state: 1,
            },
            null,
          );
          const url = client.articleUrl({ id: article.id, catid: article.catid ?? p.joomla_category_id });
          await app.db.transaction((tx) => movePublication(tx, { publicationId: p.id, action: 'publish', by: user.id, set: { url } }));
          published.push(p.id);
        } catch (err) {
          if (err instanceof JoomlaError) failed.push({ id: p.id, message: err.message });
          else if (err instanceof AppError) failed.push({ id: p.id, message: err.message });
          else throw err;
        }
      }
      if (published.length === 0) throw new AppError(422, withSkipped(PublicationMessages.cmsFailed), { failed, skipped_unpaid: skipped });
      return {
        message: withSkipped(failed.length ? PublicationMessages.cmsFailed : PublicationMessages.acceptedPublished),
        published,
        failed,
        skipped_unpaid: skipped,
      };
    },
  );

  /** Puts the checked publications into a release (their subtype must be the release's); unpaid ones only with `confirm_unpaid`. */
  app.post(
    '/add-to-release',
    { schema: { tags, summary: 'Добавить публикации в выпуск журнала', body: addToReleaseBody, response: { 200: addedToReleaseAnswer } } },
    async (request) => {
      const user = currentUser(request);
      const parsed = addToReleaseBody.safeParse(request.body ?? {});
      if (!parsed.success) throw validationError(fieldErrorsFromZod(parsed.error));
      const { ids, release_id, confirm_unpaid } = parsed.data;
      const unique = [...new Set(ids)];
      await app.db.transaction(async (tx) => {
        const release = await findLiveRelease(tx, release_id);
        if (!release) throw fieldError('release_id', PublicationMessages.chooseRelease);
        const list = await lockPublicationsForRelease(tx, unique);
        if (list.length !== unique.length) throw fieldError('ids', PublicationMessages.unknownPublications, PublicationMessages.unknownPublications);
        if (release.dict_service_subtype_id !== null && list.some((p) => p.dict_subtype_id !== release.dict_service_subtype_id)) {
          throw fieldError('release_id', PublicationMessages.releaseNotOfSubtype, PublicationMessages.releaseNotOfSubtype);
        }
        // Unpaid ones go into a release only when the operator confirmed it (issue 28).
        const unpaid = list.filter((p) => p.release_id !== release_id && !p.is_paid).length;
        if (unpaid > 0 && !confirm_unpaid) {
          const message = PublicationMessages.confirmUnpaidRelease(unpaid);
          throw fieldError('confirm_unpaid', message, message);
        }
        for (const p of list) {
          if (p.release_id === release_id) continue;
          await setPublicationRelease(tx, p.id, release_id);
          await logChange(tx, {
            type: 'publication',
            entityId: p.id,
            userId: user.id,
            before: { release_id: p.release_id },
            after: { release_id, ...(p.is_paid ? {} : { confirmed_unpaid: true }) },
          });
        }
      });
      return { message: PublicationMessages.selectedUpdated, ids: unique };
    },
  );
};
