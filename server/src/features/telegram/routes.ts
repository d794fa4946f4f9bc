import { timingSafeEqual } from 'node:crypto';
import {
  TelegramMessages,
  telegramLinkAnswer,
  telegramSavedAnswer,
  telegramStateAnswer,
  telegramSummaryBody,
  telegramUpdateSchema,
  telegramWebhookAnswer,
} from '@edu/domain/telegram/telegram';
import { Messages } from '@edu/domain/common/messages';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { currentUser } from '../../platform/auth.ts';
import { defaultAccess, isOperator } from '../../platform/access.ts';
import { AppError, fieldError, forbidden, notFound } from '../../platform/errors.ts';
import { handleUpdate } from './telegram-jobs.ts';
import { createLinkToken, setDailySummary, telegramState, unlinkUser } from './telegram-repository.ts';

const tags = ['telegram'];

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Telegram as a notification channel (issue 33, decision 042): the signed-in user's link to a chat
 * (a one-time deep link to the bot, unlinking), an operator's daily summary switch, and the bot's
 * webhook.
 */
export const telegramRoutes: RoutesPlugin = async (app) => {
  defaultAccess(app, 'user');
  const state = (userId: number, role: number) => telegramState(app.db, userId, { configured: app.telegram.enabled, operator: isOperator({ role }) });

  app.get(
    '/',
    { schema: { tags, summary: 'Telegram текущего пользователя: подключён ли, сводка', response: { 200: telegramStateAnswer } } },
    async (request) => {
      const me = currentUser(request);
      return { data: await state(me.id, me.role) };
    },
  );

  app.post(
    '/link',
    {
      config: { refuses: [409, 503] },
      schema: { tags, summary: 'Одноразовая ссылка на бота для подключения Telegram', response: { 200: telegramLinkAnswer } },
    },
    async (request) => {
      if (!app.telegram.enabled) throw new AppError(409, TelegramMessages.notConfiguredRefusal);
      let username: string;
      try {
        username = await app.telegram.botUsername();
      } catch (err) {
        request.log.warn({ err }, 'telegram getMe failed');
        throw new AppError(503, TelegramMessages.botUnavailable);
      }
      const { token, expiresAt } = await createLinkToken(app.db, currentUser(request).id);
      return { data: { url: `https://t.me/${username}?start=${token}`, expires_at: expiresAt.toISOString() } };
    },
  );

  app.delete('/link', { schema: { tags, summary: 'Отключить Telegram', response: { 200: telegramSavedAnswer } } }, async (request) => {
    const me = currentUser(request);
    await app.db.transaction((tx) => unlinkUser(tx, me.id, me.id));
    return { data: await state(me.id, me.role), message: TelegramMessages.unlinked };
  });

  app.put(
    '/summary',
    {
      config: { access: 'operator' },
      schema: { tags, summary: 'Ежедневная сводка дел в Telegram (операторы)', body: telegramSummaryBody, response: { 200: telegramSavedAnswer } },
    },
    async (request) => {
      const me = currentUser(request);
      const on = request.body.daily_summary;
      if (!(await setDailySummary(app.db, me.id, on))) throw fieldError('daily_summary', TelegramMessages.summaryNeedsLink);
      return { data: await state(me.id, me.role), message: on ? TelegramMessages.summaryOn : TelegramMessages.summaryOff };
    },
  );

  /**
   * POST /api/telegram/webhook: Telegram's updates. Only calls with the secret given to setWebhook
   * in X-Telegram-Bot-Api-Secret-Token are taken (401 without it, 403 with another); 404 when the
   * centre has no bot. Handled once per update_id, so Telegram's repeats change nothing.
   */
  app.post(
    '/webhook',
    {
      config: { access: 'public', refuses: [401, 403, 404] },
      preValidation: async (request) => {
        const secret = app.config.telegram?.webhookSecret;
        if (!secret || !app.telegram.enabled) throw notFound();
        const given = request.headers['x-telegram-bot-api-secret-token'];
        if (typeof given !== 'string' || !given) throw new AppError(401, Messages.unauthenticated);
        if (!sameSecret(given, secret)) throw forbidden();
      },
      schema: { tags, summary: 'Обновления от Telegram (вебхук бота)', body: telegramUpdateSchema, response: { 200: telegramWebhookAnswer } },
    },
    async (request) => {
      await handleUpdate(app, request.body);
      return { ok: true };
    },
  );
};
