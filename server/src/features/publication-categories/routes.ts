import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams } from '@edu/domain/common/bounds';
import { rubricBody, RubricMessages, type Rubric } from '@edu/domain/publication-categories/publication-category';
import { rows } from '../../platform/db.ts';
import { AppError, fieldError, notFound, pgError } from '../../platform/errors.ts';

// Publication rubrics (spec 03 §2 'Рубрики публикаций'): the dictionary dict_publication_categories,
// saved under the dictionary URL by name (spec 03 §7). The list is the generic
// GET /api/dictionaries/dict_publication_categories. Registered in the operator scope (app.ts) with
// the prefix /api/dictionaries.

const tags = ['publication-categories'];

/** A second rubric with the same alias would give the site two pages at one address. */
async function checkAlias(app: { db: Parameters<typeof rows>[0] }, alias: string | null, id: number | null) {
  if (!alias) return;
  const [other] = await rows<{ id: number }>(
    app.db,
    sql`select id from dict_publication_categories where alias = ${alias} ${id !== null ? sql`and id <> ${id}` : sql``}`,
  );
  if (other) throw fieldError('alias', RubricMessages.aliasTaken);
}

export const rubricManagerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/dict_publication_categories', { schema: { tags, body: rubricBody } }, async (request, reply) => {
    const b = request.body;
    await checkAlias(app, b.alias, null);
    const [data] = await rows<Rubric>(
      app.db,
      sql`insert into dict_publication_categories (fdv, alias, description, joomla_category_id)
          values (${b.fdv}, ${b.alias}, ${b.description}, ${b.joomla_category_id}) returning id, fdv, alias, description, joomla_category_id`,
    );
    return reply.status(201).send({ data, message: RubricMessages.saved });
  });

  app.put('/dict_publication_categories/:id', { schema: { tags, params: idParams, body: rubricBody } }, async (request) => {
    const b = request.body;
    await checkAlias(app, b.alias, request.params.id);
    const [data] = await rows<Rubric>(
      app.db,
      sql`update dict_publication_categories set fdv = ${b.fdv}, alias = ${b.alias}, description = ${b.description}, joomla_category_id = ${b.joomla_category_id}
          where id = ${request.params.id} returning id, fdv, alias, description, joomla_category_id`,
    );
    if (!data) throw notFound(RubricMessages.notFound);
    return { data, message: RubricMessages.saved };
  });

  /** A rubric named by publications stays (the foreign key refuses it). */
  app.delete('/dict_publication_categories/:id', { schema: { tags, params: idParams } }, async (request) => {
    try {
      const [row] = await rows<{ id: number }>(app.db, sql`delete from dict_publication_categories where id = ${request.params.id} returning id`);
      if (!row) throw notFound(RubricMessages.notFound);
    } catch (err) {
      if (pgError(err)?.code === '23503') throw new AppError(422, RubricMessages.inUse);
      throw err;
    }
    return { message: RubricMessages.deleted };
  });
};
