import type { RoutesPlugin } from '../../platform/responses.ts';
import { idParams } from '@edu/domain/common/bounds';
import { rubricBody, rubricDeletedAnswer, rubricSavedAnswer, RubricMessages } from '@edu/domain/publication-categories/publication-category';
import type { Queryable } from '../../platform/db.ts';
import { AppError, fieldError, notFound, pgError } from '../../platform/errors.ts';
import { deleteRubric, insertRubric, isRubricAliasTaken, updateRubric } from './publication-categories-repository.ts';

// Publication rubrics (spec 03 §2 'Рубрики публикаций'): the dictionary dict_publication_categories,
// saved under the dictionary URL by name (spec 03 §7). The list is the generic
// GET /api/dictionaries/dict_publication_categories. Registered in the operator scope (app.ts) with
// the prefix /api/dictionaries.

const tags = ['publication-categories'];

/** A second rubric with the same alias would give the site two pages at one address. */
async function checkAlias(db: Queryable, alias: string | null, id: number | null) {
  if (alias && (await isRubricAliasTaken(db, alias, id))) throw fieldError('alias', RubricMessages.aliasTaken);
}

export const rubricManagerRoutes: RoutesPlugin = async (app) => {
  app.post(
    '/dict_publication_categories',
    { schema: { tags, summary: 'Добавить рубрику публикаций', body: rubricBody, response: { 201: rubricSavedAnswer } } },
    async (request, reply) => {
      const b = request.body;
      await checkAlias(app.db, b.alias, null);
      const data = await insertRubric(app.db, b);
      return reply.status(201).send({ data, message: RubricMessages.saved });
    },
  );

  app.put(
    '/dict_publication_categories/:id',
    { schema: { tags, summary: 'Изменить рубрику публикаций', params: idParams, body: rubricBody, response: { 200: rubricSavedAnswer } } },
    async (request) => {
      const b = request.body;
      await checkAlias(app.db, b.alias, request.params.id);
      const data = await updateRubric(app.db, request.params.id, b);
      if (!data) throw notFound(RubricMessages.notFound);
      return { data, message: RubricMessages.saved };
    },
  );

  /** A rubric named by publications stays (the foreign key refuses it). */
  app.delete(
    '/dict_publication_categories/:id',
    { schema: { tags, summary: 'Удалить рубрику публикаций', params: idParams, response: { 200: rubricDeletedAnswer } } },
    async (request) => {
      try {
        if (!(await deleteRubric(app.db, request.params.id))) throw notFound(RubricMessages.notFound);
      } catch (err) {
        if (pgError(err)?.code === '23503') throw new AppError(422, RubricMessages.inUse);
        throw err;
      }
      return { message: RubricMessages.deleted };
    },
  );
};
