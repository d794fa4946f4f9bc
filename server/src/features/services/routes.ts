import { idParams } from '@edu/domain/common/bounds';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { Messages } from '@edu/domain/common/messages';
import { pageMeta } from '@edu/domain/common/pagination';
import {
  SEARCH_LIMIT,
  serviceAnswer,
  serviceFacetsAnswer,
  serviceListQuery,
  serviceSearchAnswer,
  serviceSearchBody,
  servicesAnswer,
} from '@edu/domain/services/service';
import { currentUser } from '../../platform/auth.ts';
import { notFound } from '../../platform/errors.ts';
import { catalogueFacets, getService, listServices, searchServices } from './services-repository.ts';
import { withSiteUrl } from './admin-routes.ts';
import { defaultAccess, isOperator } from '../../platform/access.ts';

export const serviceRoutes: RoutesPlugin = async (app) => {
  defaultAccess(app, 'user');

  /** GET /api/service: users see visible, not deleted services only; operators may ask for hidden ones. */
  app.get(
    '/',
    { schema: { tags: ['services'], summary: 'Каталог услуг с фильтрами', querystring: serviceListQuery, response: { 200: servicesAnswer } } },
    async (request) => {
      const q = request.query;
      const me = currentUser(request);
      const operator = isOperator(me);
      const { data, total } = await listServices(
        app.database,
        {
          visible: operator ? q.is_visible : true,
          dict_type_id: q.dict_type_id,
          dict_subtype_id: q.dict_subtype_id,
          // Someone else's enrolments are for operators only; a user asking gets their own.
          userId: operator || q.userId === undefined ? q.userId : me.id,
          profile: q.profile,
          leading: q.leading,
          past: q.past,
          title: q.title || undefined,
          isPublication: q.isPublication,
        },
        q,
      );
      return { data: operator ? data.map((s) => withSiteUrl(app, s)) : data, meta: pageMeta(total, q) };
    },
  );

  /** GET /api/service/facets: highest points per type and the leadings, for the catalogue's choosers. */
  app.get(
    '/facets',
    { schema: { tags: ['services'], summary: 'Значения для фильтров каталога услуг', response: { 200: serviceFacetsAnswer } } },
    async (request) => ({
      data: await catalogueFacets(app.db, isOperator(currentUser(request))),
    }),
  );

  app.get(
    '/:id',
    { schema: { tags: ['services'], summary: 'Услуга по идентификатору', params: idParams, response: { 200: serviceAnswer } } },
    async (request) => {
      const operator = isOperator(currentUser(request));
      const service = await getService(app.db, request.params.id, !operator);
      if (!service) throw notFound(Messages.serviceNotFound);
      return { data: operator ? withSiteUrl(app, service) : service };
    },
  );

  app.post(
    '/search',
    { schema: { tags: ['services'], summary: 'Поиск услуг по ключевым словам', body: serviceSearchBody, response: { 200: serviceSearchAnswer } } },
    async (request) => {
      const data = await searchServices(app.database, request.body.keywords, !isOperator(currentUser(request)), SEARCH_LIMIT);
      return { data };
    },
  );
};
