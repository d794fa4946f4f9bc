import { z } from 'zod';
import { flagField, flagNumber, idArray, idField, textField } from '../common/bounds.ts';
import { EntryStatus, entryStatusLabels } from '../common/codes.ts';
import { plural } from '../common/plural.ts';
import { dataAnswer, listAnswer, messageAnswer } from '../common/answers.ts';

export const MailingMessages = {
  title: 'Рассылка для всех пользователей',
  /** The page's title once the audience is counted: 'Рассылка: 2 получателя'. */
  titleFor: (n: number) => `Рассылка: ${n.toLocaleString('ru-RU')} ${plural(n, 'получатель', 'получателя', 'получателей')}`,
  titleCounting: 'Рассылка',
  send: 'Отправить',
  sent: 'Письмо успешно отправлено всем пользователем!',
  // Texts the spec does not give; ours, in the same voice.
  required: 'Обязательное поле',
  empty: 'Введите текст письма',
  tooLong: 'Слишком много символов!',
  /** Only when a caller sends the spec's bare {message} (spec 03 §7); the page always asks for a subject. */
  subject: 'Новости учебного центра',
  unsubscribe: 'Отписаться от рассылки',
  unsubscribeFooter: 'Вы получили это письмо, потому что зарегистрированы в личном кабинете учебного центра.',
  unsubscribed: 'Вы отписались от рассылки учебного центра. Письма о ваших заявках и оплатах будут приходить по-прежнему.',
  unsubscribeBadLink: 'Ссылка для отписки недействительна.',
  subscriptionLabel: 'Получать рассылку учебного центра',
  subscriptionHint: 'Новости и объявления для всех пользователей. Письма о ваших заявках и оплатах приходят всегда.',
  progress: 'Ход рассылки',
  history: 'Прошлые рассылки',
  subjectLabel: 'Тема письма',
  subjectEmpty: 'Введите тему письма',
  audience: 'Кому',
  everyone: 'Все пользователи',
  noRecipients: 'Нет получателей: измените условия',
  recipients: (n: number) => `Получателей: ${n.toLocaleString('ru-RU')}`,
  confirm: (n: number) => `Отправить письмо ${n.toLocaleString('ru-RU')} ${plural(n, 'получателю', 'получателям', 'получателям')}?`,
  testSent: (email: string) => `Тестовое письмо отправлено на ${email}`,
  testPrefix: '[Тест] ',
  preview: 'Предпросмотр',
  sendTest: 'Отправить тестовое письмо себе',
  unknownMacros: (names: string[]) => `Неизвестные макросы: ${names.join(', ')}`,
  unavailableMacros: (names: string[]) => `В рассылке нет заявки, услуги, публикации или договора, эти макросы не заполнить: ${names.join(', ')}`,
  previewFor: 'Данные получателя',
  notARecipient: 'Этот человек не получит письмо: выберите одного из получателей',
  previewNobody: 'Получателей нет: макросы заполнены вашими данными',
  macrosHint: 'Макросы заполняются данными каждого получателя: пользователь, учебный центр, адрес кабинета.',
} as const;

/**
 * Macros a mass letter can fill: the recipient (user.*), the centre's requisites (org.*) and the
 * cabinet (app.*), what an event letter offers a user without an entry. Entry, service, publication
 * and contract macros have nothing to read in a mailing, and ${password} belongs to one letter only.
 */
export function isMailingMacro(name: string): boolean {
  return /^(user|org|app)\./.test(name.replace(/^\$?\{\s*/, ''));
}

/**
 * Who gets a mass letter: users (not guests, not deleted, with an e-mail, not unsubscribed) matching
 * every condition given. Profile and region: any of the chosen. The entry conditions together: the
 * user has a live entry of one of the services, of one of the types, in one of the statuses.
 */
export const mailingAudience = z.object({
  profile_ids: idArray(100).optional(),
  region_ids: idArray(200).optional(),
  /** 1 only St Petersburg, 0 only others, absent both. */
  is_spb: flagNumber().nullish(),
  service_ids: idArray(100).optional(),
  service_type_ids: idArray(50).optional(),
  entry_statuses: z
    .array(z.union([z.literal(EntryStatus.notPaid), z.literal(EntryStatus.paid), z.literal(EntryStatus.done)], { error: 'Неизвестный статус заявки' }))
    .max(3)
    .optional(),
});
export type MailingAudience = z.output<typeof mailingAudience>;

/** Options of the entry status condition (paid or not included). */
export const mailingEntryStatusOptions = [EntryStatus.notPaid, EntryStatus.paid, EntryStatus.done].map((value) => ({
  value: String(value),
  label: entryStatusLabels[value],
}));

const subjectField = textField(255)
  .transform((s) => s.trim())
  .refine((s) => s !== '', { error: MailingMessages.subjectEmpty });
const messageField = z.string({ error: MailingMessages.required }).max(200_000, { error: MailingMessages.tooLong });

/** POST /api/mail/send-all (spec 03 §7): the spec's {message}; subject and audience are ours (default: the usual subject, everyone). */
export const sendAllBody = z.object({
  message: messageField,
  subject: subjectField.optional(),
  audience: mailingAudience.optional(),
});

/** POST /api/mail/audience-count {audience}: {data: {count}} before sending. */
export const audienceCountBody = z.object({ audience: mailingAudience.optional() });

/**
 * POST /api/mail/preview and /api/mail/send-test {subject, message, audience?, user_id?}: the letter as
 * a recipient gets it, with that recipient's values: the chosen one (user_id, one of the audience)
 * or the audience's first.
 */
export const letterBody = z.object({
  message: messageField,
  subject: subjectField.optional(),
  audience: mailingAudience.optional(),
  user_id: idField(MailingMessages.notARecipient).nullish(),
});
export const mailingRecipientSchema = z.object({ id: z.number().int(), label: z.string() });
export type MailingRecipient = z.output<typeof mailingRecipientSchema>;
export const letterPreviewSchema = z.object({
  subject: z.string(),
  html: z.string(),
  /** Whose values filled the macros (null: nobody is in the audience, the operator's own). */
  recipient: mailingRecipientSchema.nullable(),
  /** The audience's first recipients, to choose whose letter to look at. */
  recipients: z.array(mailingRecipientSchema),
});
export type LetterPreview = z.output<typeof letterPreviewSchema>;

export const mailingStatusSchema = z.enum(['queued', 'sending', 'done']);
export type MailingStatus = z.output<typeof mailingStatusSchema>;
export const mailingStatusLabels: Record<MailingStatus, string> = { queued: 'В очереди', sending: 'Отправляется', done: 'Завершена' };

export const mailingFailureSchema = z.object({ email: z.string(), error: z.string().nullable(), attempts: z.number().int() });
export type MailingFailure = z.output<typeof mailingFailureSchema>;

export const mailingProgressSchema = z.object({
  id: z.number().int(),
  subject: z.string(),
  /** Who it was for, in words ('Все пользователи', 'Профиль: Учитель; Заявки: Оплачена'). */
  audience_label: z.string(),
  status: mailingStatusSchema,
  status_label: z.string(),
  excerpt: z.string(),
  recipients: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  left: z.number().int(),
  /** Letters per minute over the last minute (0 when idle). */
  rate_per_minute: z.number().int(),
  created_at_formatted: z.string(),
  finished_at_formatted: z.string().nullable(),
  failures: z.array(mailingFailureSchema),
});
export type MailingProgress = z.output<typeof mailingProgressSchema>;

export const mailSubscriptionBody = z.object({ subscribed: flagField() });
export const mailSubscriptionSchema = z.object({ subscribed: z.boolean() });
export type MailSubscription = z.output<typeof mailSubscriptionSchema>;

/** POST /api/mail/send-all: 201 with the queued mailing's progress and the notice. */
export const mailingQueuedAnswer = dataAnswer(mailingProgressSchema).extend({ message: z.string() });
/** POST /api/mail/audience-count: who would get the letter now. */
export const audienceCountAnswer = dataAnswer(z.object({ count: z.number().int(), label: z.string() }));
/** POST /api/mail/preview. */
export const letterPreviewAnswer = dataAnswer(letterPreviewSchema);
/** POST /api/mail/send-test: the address it went to, and the notice. */
export const testLetterAnswer = dataAnswer(z.object({ email: z.string() })).extend({ message: z.string() });
/** GET /api/mail/mailings: the latest mailings (no failures listed). */
export const mailingsAnswer = listAnswer(mailingProgressSchema);
/** GET /api/mail/mailings/{id}. */
export const mailingAnswer = dataAnswer(mailingProgressSchema);
/** GET /api/mail/subscription. */
export const mailSubscriptionAnswer = dataAnswer(mailSubscriptionSchema);
/** PUT /api/mail/subscription. */
export const mailSubscriptionSavedAnswer = dataAnswer(mailSubscriptionSchema).extend({ message: z.string() });
/** POST /api/mail/unsubscribe/{token}. */
export const unsubscribedAnswer = messageAnswer;
