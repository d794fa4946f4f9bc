import { z } from 'zod';
import { flagField } from '../common/bounds.ts';

export const MailingMessages = {
  title: 'Рассылка для всех пользователей',
  send: 'Отправить',
  sent: 'Письмо успешно отправлено всем пользователем!',
  // Texts the spec does not give; ours, in the same voice.
  required: 'Обязательное поле',
  empty: 'Введите текст письма',
  tooLong: 'Слишком много символов!',
  subject: 'Новости учебного центра',
  unsubscribe: 'Отписаться от рассылки',
  unsubscribeFooter: 'Вы получили это письмо, потому что зарегистрированы в личном кабинете учебного центра.',
  unsubscribed: 'Вы отписались от рассылки учебного центра. Письма о ваших заявках и оплатах будут приходить по-прежнему.',
  unsubscribeBadLink: 'Ссылка для отписки недействительна.',
  subscriptionLabel: 'Получать рассылку учебного центра',
  subscriptionHint: 'Новости и объявления для всех пользователей. Письма о ваших заявках и оплатах приходят всегда.',
  progress: 'Ход рассылки',
  history: 'Прошлые рассылки',
} as const;

/** POST /api/mail/send-all (spec 03 §7). */
export const sendAllBody = z.object({
  message: z
    .string({ error: MailingMessages.required })
    .max(200_000, { error: MailingMessages.tooLong }),
});

export type MailingStatus = 'queued' | 'sending' | 'done';
export const mailingStatusLabels: Record<MailingStatus, string> = { queued: 'В очереди', sending: 'Отправляется', done: 'Завершена' };

export interface MailingFailure {
  email: string;
  error: string | null;
  attempts: number;
}

export interface MailingProgress {
  id: number;
  status: MailingStatus;
  status_label: string;
  excerpt: string;
  recipients: number;
  sent: number;
  failed: number;
  left: number;
  /** Letters per minute over the last minute (0 when idle). */
  rate_per_minute: number;
  created_at_formatted: string;
  finished_at_formatted: string | null;
  failures: MailingFailure[];
}

export const mailSubscriptionBody = z.object({ subscribed: flagField() });
export interface MailSubscription {
  subscribed: boolean;
}
