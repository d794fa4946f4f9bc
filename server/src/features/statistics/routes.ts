import type { RoutesPlugin } from '../../platform/responses.ts';
import { monthlyFiguresSchema, pendingCountAnswer } from '@edu/domain/statistics/statistics';
import { todoAnswer } from '@edu/domain/statistics/todo';
import { pendingPublications, StatisticsCache } from './statistics-repository.ts';
import { todoCounts } from './todo-repository.ts';

/**
 * Dashboard statistics (spec 02 §7), each a map of month label to number. Registered in the
 * operator scope (app.ts) with the prefix /api, which guards them. The rows older than a few
 * minutes are counted at most every 10 minutes per server (docs/decisions/016-dashboard-statistics.md).
 */
export const statisticsRoutes: RoutesPlugin = async (app) => {
  const tags = ['statistics'];
  const schema = { tags, response: { 200: monthlyFiguresSchema } };
  const cache = new StatisticsCache(app.db, { onError: (error) => app.log.error({ err: error }, 'statistics recount failed') });
  app.get('/entry/statistics', { schema: { ...schema, summary: 'Заявки по месяцам' } }, async () => cache.monthly('entry'));
  app.get('/payment/statistics', { schema: { ...schema, summary: 'Доход по месяцам (за вычетом возвратов)' } }, async () => cache.income());
  app.get('/payment/statistics/refunds', { schema: { ...schema, summary: 'Возвраты по месяцам' } }, async () => cache.monthly('refund'));
  app.get('/user/statistics', { schema: { ...schema, summary: 'Новые пользователи по месяцам' } }, async () => cache.monthly('user'));
  app.get('/publication/statistics', { schema: { ...schema, summary: 'Публикации по месяцам' } }, async () => cache.monthly('publication'));
  /** GET /api/publication/count-pending: {count} publications awaiting a check (the sidebar badge). */
  app.get(
    '/publication/count-pending',
    { schema: { tags, summary: 'Число публикаций, ждущих проверки', response: { 200: pendingCountAnswer } } },
    async () => ({
      count: await pendingPublications(app.db),
    }),
  );
  /** GET /api/manager/todo: what needs a person today, one count per kind of work (the dashboard's to-do). */
  app.get('/manager/todo', { schema: { tags, summary: 'Дела на сегодня: число задач каждого вида', response: { 200: todoAnswer } } }, async () =>
    todoCounts(app.db),
  );
};
