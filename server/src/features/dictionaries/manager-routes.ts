import { z } from 'zod';
import { parsedBody, type RoutesPlugin } from '../../platform/responses.ts';
import { Messages } from '@edu/domain/common/messages';
import { messageAnswer } from '@edu/domain/common/answers';
import { pageMeta } from '@edu/domain/common/pagination';
import {
  dictionaryBodies,
  dictionaryItemSavedAnswer,
  DictionaryMessages,
  EDITABLE_DICTIONARIES,
  leadingBody,
  leadingListQuery,
  leadingSavedAnswer,
  leadingsAnswer,
  type EditableDictionary,
} from '@edu/domain/dictionaries/dictionary-saves';
import type { Queryable } from '../../platform/db.ts';
import { AppError, fieldError, notFound, validationError } from '../../platform/errors.ts';
import {
  countLeadings,
  deleteDictionaryItem,
  deleteLeading,
  insertDictionaryItem,
  insertLeading,
  listLeadings,
  serviceTypeExists,
  updateDictionaryItem,
  updateLeading,
} from './dictionaries-repository.ts';
import { fieldErrorsFromZod } from '@edu/domain/common/validation';

const nameParams = z.object({ name: z.enum(EDITABLE_DICTIONARIES, { error: 'Справочник только для чтения' }) });
const itemParams = nameParams.extend({ id: z.coerce.number().int().positive().max(2147483647) });
const idParams = z.object({ id: z.coerce.number().int().positive().max(2147483647) });

const isForeignKeyViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23503' || e?.cause?.code === '23503';
};

/** The body of a save, checked by the dictionary's own schema (field errors as 422). */
/** The body of a save: the fields of the dictionary the path names. */
const itemBody = parsedBody(z.union(Object.values(dictionaryBodies)));

function parseBody(name: EditableDictionary, body: unknown) {
  const parsed = dictionaryBodies[name].safeParse(body ?? {});
  if (!parsed.success) throw validationError(fieldErrorsFromZod(parsed.error));
  return parsed.data;
}

async function checkType(db: Queryable, name: EditableDictionary, values: Record<string, unknown>) {
  if (name !== 'dict_service_subtypes') return;
  if (!(await serviceTypeExists(db, values.dict_service_type_id as number))) throw fieldError('dict_service_type_id', DictionaryMessages.unknownType);
}

/**
 * Dictionary saves (spec 02 §7: dict_service_types, dict_service_subtypes, dict_profiles) at
 * /api/dictionaries/{name}. Registered in the operator scope (app.ts), which guards them.
 */
export const dictionaryManagerRoutes: RoutesPlugin = async (app) => {
  const tags = ['dictionaries'];

  /** POST /api/dictionaries/{name}: a new item. */
  app.post(
    '/:name',
    { schema: { tags, summary: 'Добавить запись в справочник', params: nameParams, form: itemBody, response: { 201: dictionaryItemSavedAnswer } } },
    async (request, reply) => {
      const name = request.params.name;
      const values = parseBody(name, request.body);
      await checkType(app.db, name, values);
      const row = await insertDictionaryItem(app.db, name, values);
      return reply.status(201).send({ data: row, message: Messages.saved });
    },
  );

  /** PUT /api/dictionaries/{name}/{id}: every field of the item. */
  app.put(
    '/:name/:id',
    { schema: { tags, summary: 'Изменить запись справочника', params: itemParams, form: itemBody, response: { 200: dictionaryItemSavedAnswer } } },
    async (request) => {
      const { name, id } = request.params;
      const values = parseBody(name, request.body);
      await checkType(app.db, name, values);
      const row = await updateDictionaryItem(app.db, name, id, values);
      if (!row) throw notFound();
      return { data: row, message: Messages.saved };
    },
  );

  /** DELETE /api/dictionaries/{name}/{id}: only while nothing refers to it. */
  app.delete(
    '/:name/:id',
    { schema: { tags, summary: 'Удалить запись справочника', params: itemParams, response: { 200: messageAnswer } } },
    async (request) => {
      const { name, id } = request.params;
      try {
        if (!(await deleteDictionaryItem(app.db, name, id))) throw notFound();
      } catch (err) {
        if (isForeignKeyViolation(err)) throw new AppError(422, DictionaryMessages.inUse);
        throw err;
      }
      return { message: Messages.deleted };
    },
  );
};

/** GET /api/leading: every signed-in user reads the list (the catalogue filter), 100 per page by default. */
export const leadingReadRoutes: RoutesPlugin = async (app) => {
  app.get(
    '/leading',
    { config: { access: 'user' }, schema: { tags: ['leadings'], summary: 'Список ведущих', querystring: leadingListQuery, response: { 200: leadingsAnswer } } },
    async (request) => {
      const q = request.query;
      const total = await countLeadings(app.db, q.fio);
      const data = await listLeadings(app.db, q);
      return { data, meta: pageMeta(total, q) };
    },
  );
};

/** Leading persons: save and delete (spec 02 §7). Registered in the operator scope (app.ts). */
export const leadingManagerRoutes: RoutesPlugin = async (app) => {
  const tags = ['leadings'];
  app.post('/leading', { schema: { tags, summary: 'Добавить ведущего', body: leadingBody, response: { 201: leadingSavedAnswer } } }, async (request, reply) => {
    const row = await insertLeading(app.db, request.body);
    return reply.status(201).send({ data: row, message: Messages.saved });
  });

  app.put(
    '/leading/:id',
    { schema: { tags, summary: 'Изменить ведущего', params: idParams, body: leadingBody, response: { 200: leadingSavedAnswer } } },
    async (request) => {
      const row = await updateLeading(app.db, request.params.id, request.body);
      if (!row) throw notFound();
      return { data: row, message: Messages.saved };
    },
  );

  /** A leading person named in services stays until they are taken off those services. */
  app.delete('/leading/:id', { schema: { tags, summary: 'Удалить ведущего', params: idParams, response: { 200: messageAnswer } } }, async (request) => {
    try {
      if (!(await deleteLeading(app.db, request.params.id))) throw notFound();
    } catch (err) {
      if (isForeignKeyViolation(err)) throw new AppError(422, DictionaryMessages.inUse);
      throw err;
    }
    return { message: Messages.deleted };
  });
};
