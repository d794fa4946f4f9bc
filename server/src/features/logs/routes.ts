import type { RoutesPlugin } from '../../platform/responses.ts';
import { changeLogListQuery, changeLogsAnswer, requestLogListQuery, requestLogsAnswer } from '@edu/domain/logs/log';
import { listChangeLogs, listRequestLogs } from './logs-repository.ts';

/**
 * The change log and the request log (spec 02 §2, §7). Registered in the operator scope with the
 * prefix /api (app.ts), which guards them.
 */
export const logRoutes: RoutesPlugin = async (app) => {
  /** GET /api/log: type, entity_id, fio (who acted), date_from, date_to (dd.mm.yyyy, Moscow), page, per_page. */
  app.get(
    '/log',
    { schema: { tags: ['logs'], summary: 'Журнал изменений с фильтрами', querystring: changeLogListQuery, response: { 200: changeLogsAnswer } } },
    async (request) => {
      const { page, per_page, ...filters } = request.query;
      return listChangeLogs(app.database, filters, { page, per_page });
    },
  );

  /** GET /api/telescope/requests: type=request, errorsOnly. */
  app.get(
    '/telescope/requests',
    { schema: { tags: ['logs'], summary: 'Журнал запросов к API', querystring: requestLogListQuery, response: { 200: requestLogsAnswer } } },
    async (request) => {
      const q = request.query;
      return listRequestLogs(app.database, { errorsOnly: q.errorsOnly === '1' || q.errorsOnly === 'true' }, q);
    },
  );
};
