import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reviewBody, ReviewMessages } from '@edu/domain/reviews/review';
import { reviews } from '../../db/schema/index.ts';
import { currentUser } from '../../platform/auth.ts';

export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  /** POST /api/review {text, user_id}: a pending review by the signed-in user (user_id is always the asker). */
  app.post('/', { onRequest: app.requireUser, schema: { tags: ['reviews'], body: reviewBody } }, async (request, reply) => {
    const [row] = await app.db.insert(reviews).values({ user_id: currentUser(request).id, text: request.body.text }).returning();
    return reply.status(201).send({ data: { id: row.id, text: row.text, user_id: row.user_id, status: row.status }, message: ReviewMessages.sent });
  });
};
