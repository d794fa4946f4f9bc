import type { RoutesPlugin } from '../../platform/responses.ts';
import { ReviewStatus } from '@edu/domain/common/codes';
import { idParams } from '@edu/domain/common/bounds';
import { pageMeta } from '@edu/domain/common/pagination';
import {
  pendingReviewAnswer,
  pendingReviewsAnswer,
  reviewBody,
  reviewCreatedAnswer,
  reviewDeletedAnswer,
  reviewEditBody,
  reviewListQuery,
  ReviewAdminMessages,
  ReviewMessages,
  type PendingReview,
} from '@edu/domain/reviews/review';
import { isOperator } from '../../platform/access.ts';
import { currentUser } from '../../platform/auth.ts';
import type { Queryable } from '../../platform/db.ts';
import { AppError, fieldError, notFound } from '../../platform/errors.ts';
import {
  acceptPendingReview,
  deletePendingReview,
  editPendingReview,
  findReview,
  insertReview,
  isLiveUser,
  listReviews,
  reviewExists,
} from './reviews-repository.ts';

const tags = ['reviews'];

export const reviewRoutes: RoutesPlugin = async (app) => {
  /**
   * POST /api/review {text, user_id}: a user's review is pending and its author is always the asker
   * (user_id ignored). An operator's review is published at once for the author picked by user_id
   * (the 'Отзывы' screen, spec 03 §2).
   */
  app.post(
    '/',
    {
      config: { access: 'user' },
      schema: { tags, summary: 'Оставить отзыв (оператор — опубликовать)', body: reviewBody, response: { 201: reviewCreatedAnswer } },
    },
    async (request, reply) => {
      const asker = currentUser(request);
      if (!isOperator(asker)) {
        const row = await insertReview(app.db, { user_id: asker.id, text: request.body.text });
        return reply.status(201).send({ data: { id: row.id, text: row.text, user_id: row.user_id, status: row.status }, message: ReviewMessages.sent });
      }
      const authorId = request.body.user_id;
      if (!authorId) throw fieldError('user_id', ReviewAdminMessages.authorRequired);
      if (!(await isLiveUser(app.db, authorId))) throw fieldError('user_id', ReviewAdminMessages.unknownAuthor);
      const row = await insertReview(app.db, { user_id: authorId, text: request.body.text, status: ReviewStatus.accepted });
      return reply.status(201).send({ data: { id: row.id, text: row.text, user_id: row.user_id, status: row.status }, message: ReviewAdminMessages.published });
    },
  );
};

async function findOrFail(db: Queryable, id: number): Promise<PendingReview> {
  const review = await findReview(db, id);
  if (!review) throw notFound(ReviewAdminMessages.notFound);
  return review;
}

/** A review that did not change is gone (404) or already handled (a Russian 422). */
async function mustHaveChanged(db: Queryable, id: number, changed: boolean): Promise<void> {
  if (changed) return;
  if (!(await reviewExists(db, id))) throw notFound(ReviewAdminMessages.notFound);
  throw new AppError(422, ReviewAdminMessages.notPending);
}

/** The 'Отзывы' screen: registered in the operator scope (app.ts) under /api/review. */
export const reviewManagerRoutes: RoutesPlugin = async (app) => {
  /** GET /api/review?status=0|1|declined|all: pending reviews oldest first (the default), or the history newest first; paginated. */
  app.get(
    '/review',
    { schema: { tags, summary: 'Отзывы на проверке или их история', querystring: reviewListQuery, response: { 200: pendingReviewsAnswer } } },
    async (request) => {
      const q = request.query;
      const { list, total } = await listReviews(app.db, { status: q.status ?? '0', page: q.page, per_page: q.per_page });
      return { data: list, meta: pageMeta(total, q) };
    },
  );

  /** POST /api/review/{id}/accept: published on the site. */
  app.post(
    '/review/:id/accept',
    { schema: { tags, summary: 'Опубликовать отзыв', params: idParams, response: { 200: pendingReviewAnswer } } },
    async (request) => {
      await mustHaveChanged(app.db, request.params.id, await acceptPendingReview(app.db, request.params.id));
      return { data: await findOrFail(app.db, request.params.id), message: ReviewAdminMessages.published };
    },
  );

  /** PUT /api/review/{id} {text}: the operator corrects a pending review. */
  app.put(
    '/review/:id',
    { schema: { tags, summary: 'Исправить текст отзыва на проверке', params: idParams, body: reviewEditBody, response: { 200: pendingReviewAnswer } } },
    async (request) => {
      await mustHaveChanged(app.db, request.params.id, await editPendingReview(app.db, request.params.id, request.body.text));
      return { data: await findOrFail(app.db, request.params.id), message: ReviewAdminMessages.saved };
    },
  );

  /** DELETE /api/review/{id}: declining a pending review (soft delete). */
  app.delete('/review/:id', { schema: { tags, summary: 'Отклонить отзыв', params: idParams, response: { 200: reviewDeletedAnswer } } }, async (request) => {
    await mustHaveChanged(app.db, request.params.id, await deletePendingReview(app.db, request.params.id));
    return { message: ReviewAdminMessages.deleted };
  });
};
