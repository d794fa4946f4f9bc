import { z } from 'zod';
import { idField } from '../common/bounds.ts';
import { dataAnswer, messageAnswer, pageAnswer } from '../common/answers.ts';
import { pageQuery } from '../common/pagination.ts';

export const ReviewMessages = {
  title: 'Оставить отзыв',
  note: 'Отзыв будет опубликован на сайте сразу после проверки оператором',
  sent: 'Заявка успешно отправлена!',
} as const;

export const reviewBody = z.object({
  text: z.string({ error: 'Обязательное поле' }).trim().min(1, { error: 'Обязательное поле' }).max(5000, { error: 'Максимальная длина: 5000 символов' }),
  user_id: idField().optional(),
});

// The operator's 'Отзывы' screen (spec 03 §2, §4): pending reviews, accept, edit, decline, and a
// review published for a chosen author.

export const ReviewAdminMessages = {
  title: 'Отзывы',
  publish: 'Опубликовать',
  published: 'Успешно опубликовано!',
  saved: 'Успешно сохранено!',
  deleted: 'Успешно удалено!',
  // Texts the spec does not give; ours, in the same voice.
  authorRequired: 'Выберите автора из выпадающего списка!',
  unknownAuthor: 'Пользователь не найден',
  notPending: 'Отзыв уже обработан: принять, изменить или отклонить можно только ожидающий проверки',
  notFound: 'Отзыв не найден',
  empty: 'Новых отзывов нет',
  emptyHistory: 'Отзывов с таким статусом нет',
} as const;

/** The 'Отзывы' list's status filter: pending (the default), published, declined, or all of them. */
export const REVIEW_STATUS_FILTERS = ['0', '1', 'declined', 'all'] as const;
export type ReviewStatusFilter = (typeof REVIEW_STATUS_FILTERS)[number];
export const reviewStatusFilterLabels: Record<ReviewStatusFilter, string> = {
  '0': 'На проверке',
  '1': 'Опубликованы',
  declined: 'Отклонены',
  all: 'Все',
};
/** A review's state as the history shows it. */
export const reviewStateLabels = { pending: 'Ожидает проверки', published: 'Опубликован', declined: 'Отклонён' } as const;

/** GET /api/review: a page of reviews of one status (pending by default). */
export const reviewListQuery = pageQuery.extend({
  status: z.enum(REVIEW_STATUS_FILTERS, { error: 'Неизвестный статус' }).optional(),
});

/** PUT /api/review/{id}: the text only. */
export const reviewEditBody = reviewBody.pick({ text: true });

/** A review awaiting the operator, with its author. */
export const pendingReviewSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  text: z.string(),
  status: z.number().int(),
  user: z.object({ id: z.number().int(), fio: z.string(), avatar_url: z.string().nullable() }),
  created_at_formatted: z.string(),
  /** pending, published or declined (declined reviews are kept, deleted softly). */
  state: z.enum(['pending', 'published', 'declined']),
  state_label: z.string(),
  /** When it was published or declined (dd.mm.yyyy); null while pending. */
  handled_at_formatted: z.string().nullable(),
});
export type PendingReview = z.output<typeof pendingReviewSchema>;

/** POST /api/review: 201 with the stored review and the notice. */
export const reviewCreatedAnswer = dataAnswer(pendingReviewSchema.pick({ id: true, text: true, user_id: true, status: true })).extend({ message: z.string() });
/** GET /api/review: a page of reviews (pending ones by default). */
export const pendingReviewsAnswer = pageAnswer(pendingReviewSchema);
/** POST /api/review/{id}/accept, PUT /api/review/{id}: the review as it now is, and the notice. */
export const pendingReviewAnswer = dataAnswer(pendingReviewSchema).extend({ message: z.string() });
/** DELETE /api/review/{id}. */
export const reviewDeletedAnswer = messageAnswer;
