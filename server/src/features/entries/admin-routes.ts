import { z } from 'zod';
import { fileAnswer, XLSX_TYPE, type RoutesPlugin } from '../../platform/responses.ts';
import { formatDateTime } from '@edu/domain/common/format';
import { pageMeta } from '@edu/domain/common/pagination';
import { EntryMessages, entryListQuery, entrySavedAnswer, guestCreatedAnswer } from '@edu/domain/entries/entry';
import {
  createGuestBody,
  EntryAdminMessages,
  entryHistoryAnswer,
  entryHistoryQuery,
  guestEntryBody,
  guestListQuery,
  guestsAnswer,
  GUESTS_PAGE,
  memberBody,
  type EntryHistoryItem,
} from '@edu/domain/entries/entry-admin';
import { SYSTEM_USER_LABEL } from '@edu/domain/logs/log';
import { currentUser } from '../../platform/auth.ts';
import { notFound } from '../../platform/errors.ts';
import { countEntryHistory, entryExists, entryFiltersOf, findEntry, listEntryHistory } from './entries-repository.ts';
import { entriesExport } from './entries-excel.ts';
import { sendXlsx } from '../../platform/xlsx-reply.ts';
import { addGuestEntry, completeEntry, createGuest, listGuests, restoreEntry, saveMember } from './entry-admin.ts';
import { diffPresenter } from '../../platform/change-log.ts';

const idParams = z.object({ id: z.coerce.number().int().positive() });

/** Operator-only entry calls (spec 02 §2 Entry modals, §4 Guest entry), registered in the operator scope (app.ts). */
export const entryAdminRoutes: RoutesPlugin = async (app) => {
  const answer = async (id: number) => findEntry(app.db, id, { asOperator: true });

  /** POST /api/entry/{id}/complete: a paid entry becomes done (after the operator's confirmation). */
  app.post(
    '/entry/:id/complete',
    { schema: { tags: ['entries'], summary: 'Завершить оплаченную заявку', params: idParams, response: { 200: entrySavedAnswer } } },
    async (request) => {
      await completeEntry(app.db, currentUser(request), request.params.id);
      return { data: await answer(request.params.id), message: EntryAdminMessages.completed };
    },
  );

  /** POST /api/entry/{id}/restore: clears deleted_at. */
  app.post(
    '/entry/:id/restore',
    { schema: { tags: ['entries'], summary: 'Восстановить удалённую заявку', params: idParams, response: { 200: entrySavedAnswer } } },
    async (request) => {
      await restoreEntry(app.db, currentUser(request), request.params.id);
      return { data: await answer(request.params.id), message: EntryAdminMessages.restored };
    },
  );

  /** GET /api/entry/{id}/history: the change log of one entry, newest first; a missing user reads 'Система'. */
  app.get(
    '/entry/:id/history',
    {
      schema: {
        tags: ['entries'],
        summary: 'История изменений заявки',
        params: idParams,
        querystring: entryHistoryQuery,
        response: { 200: entryHistoryAnswer },
      },
    },
    async (request) => {
      if (!(await entryExists(app.db, request.params.id))) throw notFound(EntryMessages.entryNotFound);
      const q = request.query;
      const total = await countEntryHistory(app.db, request.params.id);
      const list = await listEntryHistory(app.db, request.params.id, q);
      const present = await diffPresenter(
        app.db,
        list.map((r) => ({ type: 'entry' as const, diff: r.diff })),
      );
      const data: EntryHistoryItem[] = list.map((r) => ({
        id: r.id,
        user: r.fio ?? SYSTEM_USER_LABEL,
        impersonator: r.impersonator,
        created_at: formatDateTime(r.created_at),
        diff: r.diff,
        changes: present({ type: 'entry', diff: r.diff }),
      }));
      return { data, meta: pageMeta(total, q) };
    },
  );

  /** POST /api/competition-member {entry_id, fio, title, comment}. */
  app.post(
    '/competition-member',
    { schema: { tags: ['entries'], summary: 'Сохранить участника конкурса по заявке', body: memberBody, response: { 200: entrySavedAnswer } } },
    async (request) => {
      await saveMember(app.db, currentUser(request), request.body);
      return { data: await answer(request.body.entry_id), message: EntryAdminMessages.memberSaved };
    },
  );

  /** GET /api/guest?service_id=N: guests not yet in the service, 50 per load. */
  app.get(
    '/guest',
    { schema: { tags: ['entries'], summary: 'Гости, ещё не записанные на услугу', querystring: guestListQuery, response: { 200: guestsAnswer } } },
    async (request) => {
      const q = request.query;
      const { data, total } = await listGuests(app.db, q);
      return { data, meta: pageMeta(total, { page: q.page, per_page: GUESTS_PAGE }) };
    },
  );

  /** GET /api/entry/excel: the entries the list's filters choose, as .xlsx with a totals row (streamed). */
  app.get(
    '/entry/excel',
    {
      schema: {
        tags: ['entries'],
        summary: 'Выгрузка заявок в Excel (.xlsx)',
        querystring: entryListQuery,
        response: { 200: fileAnswer('Заявки, .xlsx', XLSX_TYPE) },
      },
    },
    async (request, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return sendXlsx(request, reply, { name: `Заявки ${day}.xlsx`, asciiName: `entries-${day}.xlsx` }, entriesExport(app.db, entryFiltersOf(request.query)));
    },
  );

  /** POST /api/guest {fio, organization, job_title[, service_id, section_id]}: a new guest, added to the service when given (in the section given, or the one with the fewest participants). */
  app.post(
    '/guest',
    { schema: { tags: ['entries'], summary: 'Создать гостя (и записать на услугу)', body: createGuestBody, response: { 201: guestCreatedAnswer } } },
    async (request, reply) => {
      const serviceId = request.body.service_id;
      // The guest and the entry, both or neither.
      const { id, entryId } = await app.db.transaction(async (tx) => {
        const guestId = await createGuest(tx, request.body);
        return { id: guestId, entryId: serviceId ? await addGuestEntry(tx, currentUser(request), serviceId, guestId, request.body.section_id ?? null) : null };
      });
      // «…и добавлен в услугу» only when an entry was made.
      const message = entryId ? EntryAdminMessages.guestCreated : EntryAdminMessages.guestCreatedOnly;
      return reply.status(201).send({ data: { id, entry: entryId ? await answer(entryId) : null }, message });
    },
  );

  /** POST /api/entry/guest {service_id, user_id[, section_id]}: without a section, the one with the fewest participants. */
  app.post(
    '/entry/guest',
    { schema: { tags: ['entries'], summary: 'Записать гостя на услугу', body: guestEntryBody, response: { 201: entrySavedAnswer } } },
    async (request, reply) => {
      const id = await addGuestEntry(app.db, currentUser(request), request.body.service_id, request.body.user_id, request.body.section_id ?? null);
      return reply.status(201).send({ data: await answer(id), message: EntryAdminMessages.guestAdded });
    },
  );
};
