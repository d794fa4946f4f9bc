import { z } from 'zod';
import { flagField } from '../common/bounds.ts';
import { dataAnswer, listAnswer } from '../common/answers.ts';

/** dict_events row as operators see it (spec 03 §3 Event). */
export const eventRowSchema = z.object({
  id: z.number().int(),
  fdv: z.string(),
  icon: z.string().nullable(),
  color: z.string().nullable(),
  template_id: z.number().int().nullable(),
  is_mailing: z.boolean(),
  dv: z.string().nullable(),
  content: z.string().nullable(),
});
export type EventRow = z.output<typeof eventRowSchema>;

/** A notification template (templates of type 5) for the event's dropdown. */
export const notificationTemplateSchema = z.object({ id: z.number().int(), title: z.string(), content: z.string().nullable() });
export type NotificationTemplate = z.output<typeof notificationTemplateSchema>;

/** GET /api/dictionaries/dict_events/notification-templates. */
export const notificationTemplatesAnswer = listAnswer(notificationTemplateSchema);
/** PUT /api/dictionaries/dict_events/{id}: the saved event and the notice. */
export const eventSavedAnswer = dataAnswer(eventRowSchema).extend({ message: z.string() });

export const EventMessages = {
  template: 'Шаблон',
  subject: 'Тема письма',
  body: 'Текст письма',
  save: 'Сохранить',
  saved: 'Успешно сохранено!',
  copied: 'Скопировано в буфер обмена',
  searchMacros: 'Поиск по названию или описанию',
  // Texts the spec does not give; ours, in the same voice.
  title: 'События',
  notificationTemplate: 'Шаблон уведомления',
  noNotification: 'Без уведомления',
  mailing: 'Рассылка писем',
  required: 'Обязательное поле',
  unknownMacros: (names: string[]) => `Неизвестные макросы: ${names.join(', ')}`,
  notNotificationTemplate: 'Выберите шаблон уведомления',
  eventNotFound: 'Событие не найдено',
} as const;

/**
 * Saving an event (PUT /api/dictionaries/dict_events/{id}): subject (dv) and body (content) are
 * required together (spec 03 §5; checked by the server with unknown macros); the switch and the notification template may be sent alone, as the events
 * table changes them in place.
 */
export const eventSaveBody = z.object({
  dv: z.string().max(255, { error: 'Максимальная длина: 255 символов' }).optional(),
  content: z.string().max(200_000, { error: 'Слишком много символов!' }).optional(),
  template_id: z.number().int().positive().nullable().optional(),
  is_mailing: flagField().optional(),
  icon: z.string().max(64).optional(),
  color: z.string().max(32).optional(),
});
export type EventSaveBody = z.infer<typeof eventSaveBody>;
