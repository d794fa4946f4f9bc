import type { FastifyInstance } from 'fastify';
import { Role } from '@edu/domain/common/codes';
import { nextMoscowHour } from '@edu/domain/common/moscow-time';
import { TelegramMessages, todoSummaryLabels, type TelegramUpdate } from '@edu/domain/telegram/telegram';
import type { Todo } from '@edu/domain/statistics/todo';
import { todoLinks } from '@edu/domain/statistics/todo';
import type { Queryable } from '../../platform/db.ts';
import { scheduleJob, type JobPayloads, type JobRunner } from '../../platform/jobs.ts';
import { escapeHtml, TelegramApiError } from '../../platform/telegram/bot-api-client.ts';
import { todoCounts } from '../statistics/todo-repository.ts';
import { firstSeen, forgetOldUpdates, linkChatByToken, nextUpdateOffset, notificationForTelegram, summaryChats, unlinkChat } from './telegram-repository.ts';

export const DAILY_SUMMARY_JOB = 'telegram-daily-summary';

/**
 * Sends one message; answers what the job runner should do. 403 (the user blocked the bot or
 * deleted the chat): the chat is unlinked and logged, the job ends. Other 4xx (400 chat not found,
 * a message Telegram refuses): logged, the job ends (a retry would be refused again). 429 beyond the
 * client's own wait: the job comes back after retry_after. 5xx and network failures left after the
 * client's retries, and 401 (a wrong token): thrown, so the job retries with its growing delay.
 */
async function send(app: FastifyInstance, chatId: number, html: string): Promise<void | { retryInSeconds: number }> {
  const client = app.telegram.client;
  if (!client) return;
  try {
    await client.sendMessage(chatId, html);
  } catch (err) {
    if (!(err instanceof TelegramApiError)) throw err;
    if (err.chatGone) {
      const userId = await app.db.transaction((tx) => unlinkChat(tx, chatId, false));
      app.log.warn({ chatId, userId, telegram: err.description }, 'telegram chat is gone; unlinked');
      return;
    }
    if (err.code === 429) return { retryInSeconds: err.retryAfter ?? 5 };
    if (err.code >= 400 && err.code < 500 && err.code !== 401) {
      app.log.warn({ chatId, telegram: err.description }, 'telegram refused the message');
      return;
    }
    throw err;
  }
}

/** Characters of a notification's text kept in its copy (a message holds 4096 after entities are parsed). */
const COPY_LIMIT = 3500;

/** The Telegram copy of a bell notification: its text (cut to COPY_LIMIT), and a link to where it leads in the cabinet. */
export function notificationHtml(appUrl: string, text: string, url: string | null): string {
  const link = `${appUrl}${url ?? '/user/notifications'}`;
  const plain = text.trim();
  const kept = plain.length > COPY_LIMIT ? `${plain.slice(0, COPY_LIMIT - 1).trimEnd()}…` : plain;
  return `${escapeHtml(kept)}\n\n<a href="${escapeHtml(link)}">${TelegramMessages.openInCabinet}</a>`;
}

async function telegramNotify(app: FastifyInstance, { notificationId }: JobPayloads['telegram-notify']) {
  if (!app.telegram.enabled) return;
  const n = await notificationForTelegram(app.db, notificationId);
  if (!n) return;
  return send(app, n.chat_id, notificationHtml(app.config.appUrl, n.text_clear, n.url));
}

async function telegramMessage(app: FastifyInstance, { chatId, html }: JobPayloads['telegram-message']) {
  return send(app, chatId, html);
}

/** The daily summary: the manager dashboard's to-do counts that are not zero, each with its list's address. */
export function summaryHtml(appUrl: string, todo: Todo): string {
  const lines = (Object.keys(todoSummaryLabels) as Array<keyof Todo>)
    .filter((k) => todo[k] > 0)
    .map((k) => `${escapeHtml(todoSummaryLabels[k])}: <a href="${escapeHtml(appUrl + todoLinks[k])}">${todo[k]}</a>`);
  return [`<b>${TelegramMessages.summaryTitle}</b>`, ...(lines.length ? lines : [TelegramMessages.summaryNothing])].join('\n');
}

export const nextSummaryRun = (hour: number, now = new Date()): Date => nextMoscowHour(hour, now);

/** Keeps one open summary job (the unique key merges repeats from every start and instance). */
export async function scheduleDailySummary(db: Queryable, hour: number, now = new Date()): Promise<void> {
  await scheduleJob(db, DAILY_SUMMARY_JOB, {}, { uniqueKey: 'daily', runAt: nextSummaryRun(hour, now) });
}

/** Sends the summary to every operator who asked for it (one 'telegram-message' job each), then waits for the next day. */
export async function sendDailySummary(app: FastifyInstance): Promise<number> {
  if (!app.telegram.enabled) return 0;
  const chats = await summaryChats(app.db, [Role.operator]);
  if (chats.length) {
    const html = summaryHtml(app.config.appUrl, await todoCounts(app.db));
    await app.db.transaction(async (tx) => {
      for (const chatId of chats) await scheduleJob(tx, 'telegram-message', { chatId, html });
    });
  }
  await forgetOldUpdates(app.db);
  return chats.length;
}

async function dailySummaryJob(app: FastifyInstance) {
  await sendDailySummary(app);
  const hour = app.config.telegram?.summaryHour ?? 9;
  return { retryInSeconds: Math.max(60, (nextSummaryRun(hour).getTime() - Date.now()) / 1000), continuation: true };
}

const reply = (db: Queryable, chatId: number, text: string) => scheduleJob(db, 'telegram-message', { chatId, html: escapeHtml(text) });

/**
 * One update from Telegram (webhook or long polling), handled once by update_id. In a private
 * chat: `/start <token>` links the chat to the token's user, `/start` alone and any other text get
 * the way to link, `/stop` unlinks. Replies are 'telegram-message' jobs committed with the change.
 */
export async function handleUpdate(app: FastifyInstance, update: TelegramUpdate): Promise<void> {
  await app.db.transaction(async (tx) => {
    if (!(await firstSeen(tx, update.update_id))) return;
    const message = update.message;
    if (!message || message.chat.type !== 'private' || typeof message.text !== 'string') return;
    const chatId = message.chat.id;
    const username = (message.chat.username as string | undefined) ?? message.from?.username ?? null;
    const [command, ...args] = message.text.trim().split(/\s+/);
    const name = command.replace(/@\w+$/, '').toLowerCase();
    if (name === '/start' && args[0]) {
      const userId = await linkChatByToken(tx, args[0], { id: chatId, username });
      await reply(tx, chatId, userId ? TelegramMessages.botLinked : TelegramMessages.botBadToken);
      if (userId) app.log.info({ userId, chatId }, 'telegram chat linked');
    } else if (name === '/stop') {
      const userId = await unlinkChat(tx, chatId, true);
      await reply(tx, chatId, userId ? TelegramMessages.botStopped : TelegramMessages.botNotLinked);
    } else {
      await reply(tx, chatId, TelegramMessages.botHello);
    }
  });
}

/**
 * Where updates come from, once the app listens: webhook mode sets the webhook to
 * `${appUrl}/api/telegram/webhook` with the secret; polling mode drops any webhook and asks
 * getUpdates in a loop until the app closes (one instance only: Telegram answers 409 to a second).
 * A bot that does not answer is logged, the app starts anyway.
 */
export async function startTelegram(app: FastifyInstance): Promise<void> {
  const cfg = app.config.telegram;
  const client = app.telegram.client;
  if (!cfg || !client) return;
  const stopped = () => app.telegram.closed;
  if (cfg.mode === 'webhook') {
    // Tried again with a growing pause while the Bot API does not answer (it may be down at boot).
    const url = `${app.config.appUrl}/api/telegram/webhook`;
    for (let pause = 2000; !stopped(); pause = Math.min(pause * 2, 120_000)) {
      try {
        await client.setWebhook(url, cfg.webhookSecret);
        return;
      } catch (err) {
        app.log.warn({ err }, 'telegram setWebhook failed; trying again');
        if (err instanceof TelegramApiError && err.code >= 400 && err.code < 500 && err.code !== 429) return;
        await new Promise((r) => setTimeout(r, pause).unref());
      }
    }
    return;
  }
  await client.deleteWebhook().catch((err: unknown) => app.log.warn({ err }, 'telegram deleteWebhook failed'));
  void (async () => {
    while (!stopped()) {
      try {
        const updates = await client.getUpdates(await nextUpdateOffset(app.db), 25);
        for (const u of updates) await handleUpdate(app, u as TelegramUpdate);
      } catch (err) {
        if (stopped()) break;
        app.log.warn({ err }, 'telegram getUpdates failed');
        await new Promise((r) => setTimeout(r, 5000).unref());
      }
    }
  })();
}

export function registerTelegramJobs(runner: JobRunner): void {
  runner.register('telegram-notify', telegramNotify);
  runner.register('telegram-message', telegramMessage);
  runner.register(DAILY_SUMMARY_JOB, dailySummaryJob);
}
