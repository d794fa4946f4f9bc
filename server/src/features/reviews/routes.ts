import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Role } from '@edu/domain/common/codes';
import { idParams } from '@edu/domain/common/bounds';
import { formatDate } from '@edu/domain/common/format';
import { pageMeta, pageQuery } from '@edu/domain/common/pagination';
import { fullName } from '@edu/domain/users/current-user';
import { reviewBody, reviewEditBody, ReviewAdminMessages, ReviewMessages, ReviewStatus, type PendingReview } from '@edu/domain/reviews/review';
import { reviews } from '../../db/schema/index.ts';
import { currentUser } from '../../platform/auth.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { AppError, fieldError, notFound } from '../../platform/errors.ts';

const tags = ['reviews'];

export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * POST /api/review {text, user_id}: a user's review is pending and its author is always the asker
   * (user_id ignored). An operator's review is published at once for the author picked by user_id
   * (the 'Отзывы' screen, spec 03 §2).
   */
  app.post('/', { onRequest: app.requireUser, schema: { tags, body: reviewBody } }, async (request, reply) => {
    const asker = currentUser(request);
    if (asker.role !== Role.operator) {
      const [row] = await app.db.insert(reviews).values({ user_id: asker.id, text: request.body.text }).returning();
      return reply.status(201).send({ data: { id: row.id, text: row.text, user_id: row.user_id, status: row.status }, message: ReviewMessages.sent });
    }
    const authorId = request.body.user_id;
    if (!authorId) throw fieldError('user_id', ReviewAdminMessages.authorRequired);
    const [author] = await rows<{ id: number }>(app.db, sql`select id from users where id = ${authorId} and deleted_at is null`);
    if (!author) throw fieldError('user_id', ReviewAdminMessages.unknownAuthor);
    const [row] = await app.db.insert(reviews).values({ user_id: authorId, text: request.body.text, status: ReviewStatus.accepted }).returning();
    return reply.status(201).send({ data: { id: row.id, text: row.text, user_id: row.user_id, status: row.status }, message: ReviewAdminMessages.published });
  });
};

interface ReviewRow {
  id: number;
  user_id: number;
  text: string;
  status: number;
  created_at: Date | string;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  avatar_key: string | null;
}

const toPending = (r: ReviewRow): PendingReview => ({
  id: r.id,
  user_id: r.user_id,
  text: r.text,
  status: r.status,
  user: { id: r.user_id, fio: fullName(r), avatar_url: r.avatar_key ? `/api/avatar/${r.avatar_key}` : null },
  created_at_formatted: formatDate(r.created_at),
});

const SELECT = sql`select r.id, r.user_id, r.text, r.status, r.created_at, u.last_name, u.first_name, u.middle_name,
    (select f.storage_key from files f where f.id = u.avatar_id) as avatar_key
  from reviews r join users u on u.id = r.user_id`;

async function findReview(db: Queryable, id: number): Promise<PendingReview> {
  const [row] = await rows<ReviewRow>(db, sql`${SELECT} where r.id = ${id}`);
  if (!row) throw notFound(ReviewAdminMessages.notFound);
  return toPending(row);
}

/**
 * Only a pending review changes, in one conditional update (two operators cannot both act on it);
 * a review that is gone is a 404, one already handled a Russian 422.
 */
async function changePending(db: Queryable, id: number, set: ReturnType<typeof sql>): Promise<void> {
  const changed = await rows<{ id: number }>(
    db,
    sql`update reviews set ${set}, updated_at = now() where id = ${id} and status = ${ReviewStatus.pending} and deleted_at is null returning id`,
  );
  if (changed.length) return;
  const [exists] = await rows<{ id: number }>(db, sql`select id from reviews where id = ${id} and deleted_at is null`);
  if (!exists) throw notFound(ReviewAdminMessages.notFound);
  throw new AppError(422, ReviewAdminMessages.notPending);
}

/** The 'Отзывы' screen: registered in the operator scope (app.ts) under /api/review. */
export const reviewManagerRoutes: FastifyPluginAsyncZod = async (app) => {
  /** GET /api/review: pending reviews, oldest first, paginated. */
  app.get('/review', { schema: { tags, querystring: pageQuery.extend({ status: z.literal('0').optional() }) } }, async (request) => {
    const q = request.query;
    const where = sql`r.status = ${ReviewStatus.pending} and r.deleted_at is null`;
    const [{ total }] = await rows<{ total: number }>(app.db, sql`select count(*)::int as total from reviews r where ${where}`);
    const list = await rows<ReviewRow>(app.db, sql`${SELECT} where ${where} order by r.created_at, r.id limit ${q.per_page} offset ${(q.page - 1) * q.per_page}`);
    return { data: list.map(toPending), meta: pageMeta(Number(total), q) };
  });

  /** POST /api/review/{id}/accept: published on the site. */
  app.post('/review/:id/accept', { schema: { tags, params: idParams } }, async (request) => {
    await changePending(app.db, request.params.id, sql`status = ${ReviewStatus.accepted}`);
    return { data: await findReview(app.db, request.params.id), message: ReviewAdminMessages.published };
  });

  /** PUT /api/review/{id} {text}: the operator corrects a pending review. */
  app.put('/review/:id', { schema: { tags, params: idParams, body: reviewEditBody } }, async (request) => {
    await changePending(app.db, request.params.id, sql`text = ${request.body.text}`);
    return { data: await findReview(app.db, request.params.id), message: ReviewAdminMessages.saved };
  });

  /** DELETE /api/review/{id}: declining a pending review (soft delete). */
  app.delete('/review/:id', { schema: { tags, params: idParams } }, async (request) => {
    await changePending(app.db, request.params.id, sql`deleted_at = now()`);
    return { message: ReviewAdminMessages.deleted };
  });
};
