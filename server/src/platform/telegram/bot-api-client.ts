/**
 * A small client of the Telegram Bot API (https://core.telegram.org/bots/api), plain fetch:
 * `POST <apiUrl>/bot<token>/<method>` with a JSON body, answered `{ok: true, result}` or
 * `{ok: false, error_code, description, parameters?: {retry_after, migrate_to_chat_id}}`.
 *
 * Retries: a 429 waits the `retry_after` seconds Telegram asks for (when it is longer than
 * `maxWaitSeconds` the error is thrown with it, so a durable job can come back later); 5xx answers
 * and network failures are retried with a growing delay; other 4xx (400 chat not found, 401 a wrong
 * token, 403 blocked by the user) are final and thrown at once.
 */
export interface BotApiOptions {
  token: string;
  /** https://api.telegram.org, or a stand-in on 127.0.0.1 in tests. */
  apiUrl: string;
  /** Tries of one call, the first included. */
  attempts?: number;
  /** The first backoff after a 5xx or a network failure; it doubles each time. */
  backoffMs?: number;
  /** Longest 429 wait done inside a call; a longer retry_after is thrown. */
  maxWaitSeconds?: number;
  /** Per-request limit (long polling adds its own timeout to it). */
  timeoutMs?: number;
}

export class TelegramApiError extends Error {
  constructor(
    /** The HTTP status / error_code; 0 for a network failure. */
    readonly code: number,
    readonly description: string,
    /** Seconds to wait, from a 429's parameters.retry_after. */
    readonly retryAfter?: number,
  ) {
    super(`Telegram ${code || 'network'}: ${description}`);
  }

  /** The user blocked the bot or deleted the chat: stop writing to it. */
  get chatGone(): boolean {
    return this.code === 403;
  }
}

export interface BotUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}

export interface BotMessage {
  message_id: number;
  date: number;
  chat: { id: number; type: string; username?: string };
  text?: string;
}

export interface BotUpdate {
  update_id: number;
  message?: BotMessage & { from?: { id: number; username?: string } };
  [key: string]: unknown;
}

type Answer<T> = { ok: true; result: T } | { ok: false; error_code: number; description: string; parameters?: { retry_after?: number } };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class BotApiClient {
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly maxWaitSeconds: number;
  private readonly timeoutMs: number;

  constructor(private readonly opts: BotApiOptions) {
    this.attempts = opts.attempts ?? 4;
    this.backoffMs = opts.backoffMs ?? 500;
    this.maxWaitSeconds = opts.maxWaitSeconds ?? 30;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
  }

  /** One Bot API method with its retries; answers its `result`. */
  async call<T>(method: string, params: Record<string, unknown> = {}, extraTimeoutMs = 0): Promise<T> {
    const url = `${this.opts.apiUrl.replace(/\/$/, '')}/bot${this.opts.token}/${method}`;
    let last: TelegramApiError | null = null;
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      let answer: Answer<T> | null = null;
      let status = 0;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(params),
          signal: AbortSignal.timeout(this.timeoutMs + extraTimeoutMs),
        });
        status = res.status;
        answer = (await res.json().catch(() => null)) as Answer<T> | null;
      } catch (err) {
        last = new TelegramApiError(0, String((err as Error)?.message ?? err));
      }
      if (answer?.ok) return answer.result;
      if (answer && !answer.ok) last = new TelegramApiError(answer.error_code || status, answer.description ?? 'error', answer.parameters?.retry_after);
      else if (status) last = new TelegramApiError(status, `HTTP ${status}`);
      const error = last!;
      if (error.code === 429) {
        const wait = error.retryAfter ?? 1;
        if (wait > this.maxWaitSeconds || attempt === this.attempts) throw error;
        await sleep(wait * 1000);
        continue;
      }
      if (error.code !== 0 && error.code < 500) throw error;
      if (attempt < this.attempts) await sleep(this.backoffMs * 2 ** (attempt - 1));
    }
    throw last!;
  }

  getMe(): Promise<BotUser> {
    return this.call<BotUser>('getMe');
  }

  /** A message in HTML parse mode: the caller escapes what is not markup (escapeHtml). */
  sendMessage(chatId: number, html: string, opts: { disablePreview?: boolean } = {}): Promise<BotMessage> {
    return this.call<BotMessage>('sendMessage', {
      chat_id: chatId,
      text: html,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: opts.disablePreview ?? true },
    });
  }

  /** Updates are POSTed to `url` with the header X-Telegram-Bot-Api-Secret-Token: `secretToken`. */
  setWebhook(url: string, secretToken: string): Promise<true> {
    return this.call<true>('setWebhook', { url, secret_token: secretToken, allowed_updates: ['message'] });
  }

  deleteWebhook(): Promise<true> {
    return this.call<true>('deleteWebhook', {});
  }

  /** Long polling: waits up to `timeout` seconds for updates with update_id >= offset (confirming the earlier ones). */
  getUpdates(offset: number, timeout = 25): Promise<BotUpdate[]> {
    return this.call<BotUpdate[]>('getUpdates', { offset, timeout, allowed_updates: ['message'] }, timeout * 1000);
  }
}

/** Escapes text for parse_mode HTML (the Bot API asks for &lt; &gt; &amp; and &quot; in attributes). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
