import { idParams } from '@edu/domain/common/bounds';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { Messages } from '@edu/domain/common/messages';
import { pageMeta } from '@edu/domain/common/pagination';
import {
  createEntryBody,
  entryAnswer,
  entryDeletedAnswer,
  entryListAnswer,
  EntryMessages,
  entryListQuery,
  entrySavedAnswer,
  thesisBody,
  thesisSavedAnswer,
  updateEntryBody,
} from '@edu/domain/entries/entry';
import { EntryAdminMessages } from '@edu/domain/entries/entry-admin';
import { currentUser } from '../../platform/auth.ts';
import { notFound } from '../../platform/errors.ts';
import { entryFiltersOf, findEntry, listEntries } from './entries-repository.ts';
import { createEntry, deleteEntry, saveThesis, updateEntry } from './entry-rules.ts';
import { defaultAccess, isOperator } from '../../platform/access.ts';
import { entryOwnerOf } from './entry-policy.ts';

export const entryRoutes: RoutesPlugin = async (app) => {
  defaultAccess(app, 'user');

  /** GET /api/entry: a user's own entries; operators see everyone's. meta.theses_awaited feeds the banner. */
  app.get(
    '/entry',
    { schema: { tags: ['entries'], summary: 'Список заявок с фильтрами', querystring: entryListQuery, response: { 200: entryListAnswer } } },
    async (request) => {
      const user = currentUser(request);
      const operator = isOperator(user);
      const q = request.query;
      const { data, total, thesesAwaited } = await listEntries(app.database, entryFiltersOf(q, entryOwnerOf(user)), q, operator);
      return { data, meta: { ...pageMeta(total, q), theses_awaited: thesesAwaited } };
    },
  );

  app.get(
    '/entry/:id',
    {
      config: { access: { owner: 'entry' } },
      schema: { tags: ['entries'], summary: 'Заявка по идентификатору', params: idParams, response: { 200: entryAnswer } },
    },
    async (request) => {
      const user = currentUser(request);
      const entry = await findEntry(app.db, request.params.id, { ownerId: entryOwnerOf(user), asOperator: isOperator(user) });
      if (!entry) throw notFound(EntryMessages.entryNotFound);
      return { data: entry };
    },
  );

  app.post(
    '/entry',
    { schema: { tags: ['entries'], summary: 'Записаться на услугу (создать заявку)', body: createEntryBody, response: { 201: entrySavedAnswer } } },
    async (request, reply) => {
      const user = currentUser(request);
      const id = await createEntry(app.db, user, request.body);
      const entry = await findEntry(app.db, id, { asOperator: isOperator(user) });
      return reply.status(201).send({ data: entry, message: EntryMessages.sent });
    },
  );

  app.put(
    '/entry/:id',
    {
      config: { access: { owner: 'entry' } },
      schema: { tags: ['entries'], summary: 'Изменить заявку', params: idParams, body: updateEntryBody, response: { 200: entrySavedAnswer } },
    },
    async (request) => {
      const user = currentUser(request);
      const { payTypeChanged } = await updateEntry(app.db, user, request.params.id, request.body);
      const operator = isOperator(user);
      const message = payTypeChanged ? EntryAdminMessages.payTypeChanged : operator ? EntryAdminMessages.saved : Messages.saved;
      return { data: await findEntry(app.db, request.params.id, { asOperator: operator }), message };
    },
  );

  app.delete(
    '/entry/:id',
    {
      config: { access: { owner: 'entry' } },
      schema: { tags: ['entries'], summary: 'Удалить заявку', params: idParams, response: { 200: entryDeletedAnswer } },
    },
    async (request) => {
      const removed = await deleteEntry(app.db, currentUser(request), request.params.id);
      return { message: removed.length > 1 ? EntryMessages.packageRemoved : Messages.deleted, data: { removed } };
    },
  );

  /** POST /api/entry-thesis {entry_id, text}: creates or replaces the entry's theses. */
  app.post(
    '/entry-thesis',
    { schema: { tags: ['entries'], summary: 'Сохранить тезисы заявки', body: thesisBody, response: { 200: thesisSavedAnswer } } },
    async (request) => {
      const user = currentUser(request);
      await saveThesis(app.db, user, request.body.entry_id, request.body.text);
      return { data: { entry_id: request.body.entry_id, text: request.body.text }, message: Messages.saved };
    },
  );
};
