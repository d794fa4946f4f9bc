import type { RoutesPlugin } from '../../platform/responses.ts';
import { idParams } from '@edu/domain/common/bounds';
import {
  priceBody,
  priceDeletedAnswer,
  priceListQuery,
  PriceMessages,
  priceSavedAnswer,
  pricesAnswer,
  type PriceBody,
} from '@edu/domain/publication-prices/publication-price';
import type { Queryable } from '../../platform/db.ts';
import { AppError, fieldError, notFound, pgError } from '../../platform/errors.ts';
import { isPublicationSubtype } from '../dictionaries/dictionaries-repository.ts';
import { deletePrice, findPrice, insertPrice, listPrices, updatePrice } from './publication-prices-repository.ts';

// Publication prices (spec 03 §2 'Цены публикаций'). The list is read by every signed-in user (the
// publication form shows the price); save and delete are registered in the operator scope.

const tags = ['publication-prices'];

async function checkSubtype(db: Queryable, body: PriceBody) {
  if (!(await isPublicationSubtype(db, body.dict_service_subtype_id))) throw fieldError('dict_service_subtype_id', PriceMessages.notPublicationSubtype);
}

/** The unique index (subtype, authors_num) answers a duplicate, also when two saves race. */
function duplicateAnswer(err: unknown): never {
  if (pgError(err)?.code === '23505') throw fieldError('authors_num', PriceMessages.duplicate);
  throw err;
}

/** GET /api/publication-price?dict_service_subtype_id=: every signed-in user. */
export const priceReadRoutes: RoutesPlugin = async (app) => {
  app.get(
    '/publication-price',
    { config: { access: 'user' }, schema: { tags, summary: 'Цены публикаций', querystring: priceListQuery, response: { 200: pricesAnswer } } },
    async (request) => ({
      data: await listPrices(app.db, { subtype: request.query.dict_service_subtype_id }),
    }),
  );
};

/** Save and delete: operator scope (app.ts). */
export const priceManagerRoutes: RoutesPlugin = async (app) => {
  app.post(
    '/publication-price',
    { schema: { tags, summary: 'Добавить цену публикации', body: priceBody, response: { 201: priceSavedAnswer } } },
    async (request, reply) => {
      await checkSubtype(app.db, request.body);
      const id = await insertPrice(app.db, request.body).catch(duplicateAnswer);
      const data = (await findPrice(app.db, id))!;
      return reply.status(201).send({ data, message: PriceMessages.saved });
    },
  );

  app.put(
    '/publication-price/:id',
    { schema: { tags, summary: 'Изменить цену публикации', params: idParams, body: priceBody, response: { 200: priceSavedAnswer } } },
    async (request) => {
      await checkSubtype(app.db, request.body);
      const id = await updatePrice(app.db, request.params.id, request.body).catch(duplicateAnswer);
      if (!id) throw notFound(PriceMessages.notFound);
      const data = (await findPrice(app.db, id))!;
      return { data, message: PriceMessages.saved };
    },
  );

  /** A price named by publications stays (the foreign key refuses it). */
  app.delete(
    '/publication-price/:id',
    { schema: { tags, summary: 'Удалить цену публикации', params: idParams, response: { 200: priceDeletedAnswer } } },
    async (request) => {
      try {
        if (!(await deletePrice(app.db, request.params.id))) throw notFound(PriceMessages.notFound);
      } catch (err) {
        if (pgError(err)?.code === '23503') throw new AppError(422, PriceMessages.inUse);
        throw err;
      }
      return { message: PriceMessages.deleted };
    },
  );
};
