import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../platform/auth.ts';
import { unauthenticated } from '../../platform/errors.ts';
import { loadCurrentUser } from './current-user.ts';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  /** GET /api/get: the whole current user with computed fields. */
  app.get('/get', { onRequest: app.requireUser, schema: { tags: ['users'], summary: 'Текущий пользователь' } }, async (request) => {
    const user = await loadCurrentUser(app.db, currentUser(request).id);
    if (!user) throw unauthenticated();
    return user;
  });
};
