import { z } from 'zod';

export const ReviewMessages = {
  title: 'Оставить отзыв',
  note: 'Отзыв будет опубликован на сайте сразу после проверки оператором',
  sent: 'Заявка успешно отправлена!',
} as const;

export const reviewBody = z.object({
  text: z.string({ error: 'Обязательное поле' }).trim().min(1, { error: 'Обязательное поле' }).max(5000, { error: 'Максимальная длина: 5000 символов' }),
  user_id: z.coerce.number().int().optional(),
});
