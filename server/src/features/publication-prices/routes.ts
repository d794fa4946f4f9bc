import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@edu/domain/common/bounds';
import { priceBody, priceListQuery, PriceMessages, type PriceBody, type PublicationPrice } from '@edu/domain/publication-prices/publication-price';
import { rows, type Queryable } from '../../platform/db.ts';
import { AppError, fieldError, notFound, pgError } from '../../platform/errors.ts';

// Publication prices (spec 03 §2 'Цены публикаций'). The list is read by every signed-in user (the
// publication form shows the price); save and delete are registered in the operator scope.

const tags = ['publication-prices'];

interface PriceRow {
  id: number;
  dict_service_subtype_id: number;
  subtype_fdv: string | null;
  authors_num: number;
  price: string | number;
}

async function listPrices(db: Queryable, f: { id?: number; subtype?: number }): Promise<PublicationPrice[]> {
  const list = await rows<PriceRow>(
    db,
    sql`select p.id, p.dict_service_subtype_id, st.fdv as subtype_fdv, p.authors_num, p.price
        from publication_prices p left join dict_service_subtypes st on st.id = p.dict_service_subtype_id
        where true
          ${f.id !== undefined ? sql`and p.id = ${f.id}` : sql``}
          ${f.subtype !== undefined ? sql`and p.dict_service_subtype_id = ${f.subtype}` : sql``}
        order by p.dict_service_subtype_id, p.authors_num, p.id`,
  );
  return list.map((r) => ({
    id: r.id,
    dict_service_subtype_id: r.dict_service_subtype_id,
    subtype: r.subtype_fdv ? { id: r.dict_service_subtype_id, fdv: r.subtype_fdv } : null,
    authors_num: r.authors_num,
    price: Number(r.price),
  }));
}

async function checkSubtype(db: Queryable, body: PriceBody) {
  const [subtype] = await rows<{ id: number }>(db, sql`select id from dict_service_subtypes where id = ${body.dict_service_subtype_id} and is_publication`);
  if (!subtype) throw fieldError('dict_service_subtype_id', PriceMessages.notPublicationSubtype);
}

/** The unique index (subtype, authors_num) answers a duplicate, also when two saves race. */
function duplicateAnswer(err: unknown): never {
  if (pgError(err)?.code === '23505') throw fieldError('authors_num', PriceMessages.duplicate);
  throw err;
}

/** GET /api/publication-price?dict_service_subtype_id=: every signed-in user. */
export const priceReadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/publication-price', { onRequest: app.requireUser, schema: { tags, querystring: priceListQuery } }, async (request) => ({
    data: await listPrices(app.db, { subtype: request.query.dict_service_subtype_id }),
  }));
};

/** Save and delete: operator scope (app.ts). */
export const priceManagerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/publication-price', { schema: { tags, body: priceBody } }, async (request, reply) => {
    await checkSubtype(app.db, request.body);
    const b = request.body;
    const [row] = await rows<{ id: number }>(
      app.db,
      sql`insert into publication_prices (dict_service_subtype_id, authors_num, price) values (${b.dict_service_subtype_id}, ${b.authors_num}, ${b.price}) returning id`,
    ).catch(duplicateAnswer);
    const [data] = await listPrices(app.db, { id: row.id });
    return reply.status(201).send({ data, message: PriceMessages.saved });
  });

  app.put('/publication-price/:id', { schema: { tags, params: idParams, body: priceBody } }, async (request) => {
    await checkSubtype(app.db, request.body);
    const b = request.body;
    const [row] = await rows<{ id: number }>(
      app.db,
      sql`update publication_prices set dict_service_subtype_id = ${b.dict_service_subtype_id}, authors_num = ${b.authors_num}, price = ${b.price}
          where id = ${request.params.id} returning id`,
    ).catch(duplicateAnswer);
    if (!row) throw notFound(PriceMessages.notFound);
    const [data] = await listPrices(app.db, { id: row.id });
    return { data, message: PriceMessages.saved };
  });

  /** A price named by publications stays (the foreign key refuses it). */
  app.delete('/publication-price/:id', { schema: { tags, params: idParams } }, async (request) => {
    try {
      const [row] = await rows<{ id: number }>(app.db, sql`delete from publication_prices where id = ${request.params.id} returning id`);
      if (!row) throw notFound(PriceMessages.notFound);
    } catch (err) {
      if (pgError(err)?.code === '23503') throw new AppError(422, PriceMessages.inUse);
      throw err;
    }
    return { message: PriceMessages.deleted };
  });
};
