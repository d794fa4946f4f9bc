import { z } from 'zod';
import { idField } from '../common/bounds.ts';

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
} as const;

/** PUT /api/review/{id}: the text only. */
export const reviewEditBody = reviewBody.pick({ text: true });

export interface PendingReview {
  id: number;
  user_id: number;
  text: string;
  status: number;
  user: { id: number; fio: string; avatar_url: string | null };
  created_at_formatted: string;
}
