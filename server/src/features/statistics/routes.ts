import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { monthlyStatistic, pendingPublications } from './statistics-repository.ts';

/**
 * Dashboard statistics (spec 02 §7), each a map of month label to number. Registered in the
 * operator scope (app.ts) with the prefix /api, which guards them.
 */
export const statisticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const schema = { tags: ['statistics'] };
  app.get('/entry/statistics', { schema }, async () => monthlyStatistic(app.db, 'entry'));
  app.get('/payment/statistics', { schema }, async () => monthlyStatistic(app.db, 'payment'));
  app.get('/user/statistics', { schema }, async () => monthlyStatistic(app.db, 'user'));
  app.get('/publication/statistics', { schema }, async () => monthlyStatistic(app.db, 'publication'));
  /** GET /api/publication/count-pending: {count} publications awaiting a check (the sidebar badge). */
  app.get('/publication/count-pending', { schema }, async () => ({ count: await pendingPublications(app.db) }));
};
