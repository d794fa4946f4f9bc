import { z } from 'zod';
import { dataAnswer, isoTimestamp } from '../common/answers.ts';
import { flagField } from '../common/bounds.ts';
import type { Todo } from '../statistics/todo.ts';

// Telegram as one more channel of the cabinet's notifications (issue 33): a client links a chat
// from the settings with a one-time deep link to the centre's bot; operators may take a daily
// summary of their to-do counts there.

export const TelegramMessages = {
  blockTitle: 'Telegram',
  notConfigured: 'Учебный центр пока не подключил Telegram-бота: уведомления приходят в кабинет и на почту.',
  notConfiguredRefusal: 'Telegram не подключён учебным центром',
  intro: 'Уведомления из колокольчика будут приходить и в Telegram — те же, что приходят на почту.',
  connect: 'Подключить Telegram',
  openBot: 'Открыть бота в Telegram',
  linkHint: 'Откройте ссылку и нажмите «Запустить» в Telegram. Ссылка действует 30 минут и только один раз.',
  waiting: 'Ждём подтверждения из Telegram…',
  linked: 'Telegram подключён',
  disconnect: 'Отключить',
  unlinked: 'Telegram отключён',
  summaryLabel: 'Ежедневная сводка в Telegram',
  summaryHint: 'Каждое утро — число дел на сегодня: договоры, публикации, платежи.',
  summaryOn: 'Сводка включена',
  summaryOff: 'Сводка выключена',
  summaryNeedsLink: 'Сначала подключите Telegram',
  botUnavailable: 'Бот Telegram сейчас не отвечает, попробуйте позже',
  // What the bot says in the chat.
  botLinked: 'Готово! Telegram подключён к кабинету учебного центра. Сюда будут приходить ваши уведомления. Отключить: /stop или в настройках кабинета.',
  botBadToken: 'Ссылка устарела или уже использована. Откройте «Настройки» в кабинете и нажмите «Подключить Telegram» ещё раз.',
  botHello: 'Здравствуйте! Чтобы получать уведомления, откройте «Настройки» в кабинете учебного центра и нажмите «Подключить Telegram».',
  botStopped: 'Уведомления в Telegram отключены. Подключить снова можно в настройках кабинета.',
  botNotLinked: 'Этот чат не подключён к кабинету.',
  openInCabinet: 'Открыть в кабинете',
  summaryTitle: 'Дела на сегодня',
  summaryNothing: 'Срочных дел нет.',
} as const;

/** Minutes a deep-link token lives. */
export const LINK_TOKEN_MINUTES = 30;

/** GET /api/telegram: the state of the signed-in user's Telegram channel. */
export const telegramStateSchema = z.object({
  /** The centre has a bot (TELEGRAM_BOT_TOKEN is set). */
  configured: z.boolean(),
  linked: z.boolean(),
  /** The chat's @username when Telegram gave one. */
  username: z.string().nullable(),
  linked_at: isoTimestamp.nullable(),
  /** Operators only: the daily to-do summary is on. */
  daily_summary: z.boolean(),
  /** The user may take the daily summary (an operator). */
  can_summary: z.boolean(),
});
export type TelegramState = z.output<typeof telegramStateSchema>;
export const telegramStateAnswer = dataAnswer(telegramStateSchema);

/** POST /api/telegram/link: the one-time deep link. */
export const telegramLinkAnswer = dataAnswer(z.object({ url: z.string(), expires_at: isoTimestamp }));

/** PUT /api/telegram/summary. */
export const telegramSummaryBody = z.object({ daily_summary: flagField() });
export const telegramSavedAnswer = dataAnswer(telegramStateSchema).extend({ message: z.string() });

/**
 * POST /api/telegram/webhook: an Update as the Bot API sends it (only what the app reads; the rest
 * passes through unread).
 */
export const telegramUpdateSchema = z.looseObject({
  update_id: z.number().int().min(0),
  message: z
    .looseObject({
      message_id: z.number().int(),
      chat: z.looseObject({ id: z.number().int(), type: z.string() }),
      from: z.looseObject({ id: z.number().int(), username: z.string().optional() }).optional(),
      text: z.string().optional(),
    })
    .optional(),
});
export type TelegramUpdate = z.output<typeof telegramUpdateSchema>;
export const telegramWebhookAnswer = z.object({ ok: z.boolean() });

/** The lines of the daily summary: the to-do counts of the manager dashboard. */
export const todoSummaryLabels: Record<keyof Todo, string> = {
  publications_pending: 'Публикации на модерации',
  publications_pending_unpaid: '…из них не оплачены',
  contracts_to_review: 'Договоры на проверку',
  contracts_waiting_scan: 'Договоры ждут скан от клиента',
  entries_overdue: 'Просроченные неоплаченные заявки',
  payments_attention: 'Платежи требуют внимания',
  mailing_failed: 'Письма рассылки не доставлены',
  services_publish_failed: 'Услуги не опубликованы на сайте',
  templates_missing: 'Типы услуг без шаблона сертификата',
  requisites_missing: 'Не заполнены реквизиты',
};
