import http from 'node:http';

/**
 * A local stand-in of the Telegram Bot API on 127.0.0.1 (https://core.telegram.org/bots/api),
 * answering as the real one does where the app depends on it:
 * - methods at `/bot<token>/<method>`, parameters as JSON, form fields or the query string; answers
 *   `{ok: true, result}` or `{ok: false, error_code, description[, parameters]}` with the same HTTP
 *   status; a wrong token is 401 "Unauthorized", an unknown method 404 "Not Found";
 * - getMe; sendMessage: 400 "Bad Request: chat_id is empty" / "message text is empty" / "message is
 *   too long" (over 4096 characters) / "chat not found" (a chat that never wrote to the bot) /
 *   "can't parse entities: ..." (parse_mode HTML with a tag Telegram does not support or an
 *   unclosed one), 403 "Forbidden: bot was blocked by the user" for a chat that blocked the bot;
 * - setWebhook (secret_token of 1-256 characters A-Z a-z 0-9 _ -), deleteWebhook, getWebhookInfo;
 *   getUpdates with offset (earlier updates are confirmed and dropped) and timeout (long polling),
 *   409 "Conflict: can't use getUpdates method while webhook is active" while a webhook is set;
 * - with a webhook set, each update is POSTed to it with the header X-Telegram-Bot-Api-Secret-Token
 *   and kept until the webhook answers 2xx (tried again on the next delivery);
 * - 429 "Too Many Requests: retry after N" with parameters.retry_after, and 5xx, when a test asks
 *   for them (failNext).
 * A test (or the e2e front) plays the person in the Telegram app with userWrites(chatId, text).
 */
export interface FakeTelegram {
  url: string;
  token: string;
  username: string;
  /** Every call, in order. */
  calls: Array<{ method: string; params: Record<string, unknown>; at: number }>;
  /** The messages the bot sent, in order. */
  sent: Array<{ chat_id: number; text: string; parse_mode?: string; message_id: number }>;
  webhook: { url: string; secret: string } | null;
  /** Chats that wrote to the bot (sendMessage to others is "chat not found"). */
  chats: Set<number>;
  /** Chats that blocked the bot. */
  blocked: Set<number>;
  /** The next `times` calls of `method` fail with this status (429 carries retry_after). */
  failNext(method: string, failure: { status: number; retryAfter?: number; description?: string; times?: number }): void;
  /** Drops failures still waiting from failNext. */
  clearFailures(): void;
  /** A person writes `text` in the private chat `chatId`: an update is queued and delivered. */
  userWrites(chatId: number, text: string, username?: string): Promise<number>;
  /** Waits until `pred` holds for a sent message. */
  waitForSent(pred: (m: FakeTelegram['sent'][number]) => boolean, ms?: number): Promise<FakeTelegram['sent'][number]>;
  close(): Promise<void>;
}

const ALLOWED_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'a', 'code', 'pre', 'tg-spoiler', 'span', 'blockquote', 'tg-emoji']);

/** Telegram's HTML check, as far as the app can trip it: unknown tags, unclosed or stray tags, a bare '<'. */
function htmlProblem(text: string): string | null {
  const stack: string[] = [];
  const re = /<(\/?)([a-zA-Z-]*)([^>]*)>|<|&(?!(?:lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const offset = Buffer.byteLength(text.slice(0, m.index));
    if (m[0] === '<') return `Unexpected end tag at byte offset ${offset}`;
    if (m[0].startsWith('&')) return `Unsupported start tag "" at byte offset ${offset}`;
    const [, closing, name] = m;
    const tag = (name ?? '').toLowerCase();
    if (!ALLOWED_TAGS.has(tag)) return `Unsupported start tag "${tag}" at byte offset ${offset}`;
    if (closing) {
      if (stack.pop() !== tag) return `Unmatched end tag at byte offset ${offset}, expected "</${stack.at(-1) ?? ''}>", found "</${tag}>"`;
    } else stack.push(tag);
  }
  if (stack.length) return `Can't find end tag corresponding to start tag "${stack.at(-1)}"`;
  return null;
}

function plainOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

async function readParams(req: http.IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const type = req.headers['content-type'] ?? '';
  if (raw && type.includes('application/json')) Object.assign(params, JSON.parse(raw));
  else if (raw && type.includes('application/x-www-form-urlencoded')) Object.assign(params, Object.fromEntries(new URLSearchParams(raw)));
  return params;
}

export async function startFakeTelegram(opts: { token: string; username?: string; port?: number }): Promise<FakeTelegram> {
  const failures = new Map<string, Array<{ status: number; retryAfter?: number; description?: string }>>();
  const updates: Array<Record<string, unknown> & { update_id: number }> = [];
  const waiters = new Set<() => void>();
  let nextUpdateId = 700_000_001;
  let nextMessageId = 1;
  let delivering: Promise<void> = Promise.resolve();

  const fake: FakeTelegram = {
    url: '',
    token: opts.token,
    username: opts.username ?? 'edu_centre_test_bot',
    calls: [],
    sent: [],
    webhook: null,
    chats: new Set(),
    blocked: new Set(),
    failNext(method, failure) {
      const list = failures.get(method) ?? [];
      for (let i = 0; i < (failure.times ?? 1); i++) list.push(failure);
      failures.set(method, list);
    },
    clearFailures() {
      failures.clear();
    },
    async userWrites(chatId, text, username) {
      fake.chats.add(chatId);
      fake.blocked.delete(chatId);
      const update = {
        update_id: nextUpdateId++,
        message: {
          message_id: nextMessageId++,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: 'private', ...(username ? { username } : {}), first_name: 'Тест' },
          from: { id: chatId, is_bot: false, first_name: 'Тест', ...(username ? { username } : {}), language_code: 'ru' },
          text,
          ...(text.startsWith('/') ? { entities: [{ type: 'bot_command', offset: 0, length: (text.split(' ')[0] ?? '').length }] } : {}),
        },
      };
      updates.push(update);
      for (const w of waiters) w();
      await deliver();
      return update.update_id;
    },
    async waitForSent(pred, ms = 10_000) {
      const until = Date.now() + ms;
      for (;;) {
        const found = fake.sent.find(pred);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no message matched within ${ms} ms; sent: ${JSON.stringify(fake.sent.map((s) => s.text))}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  /** Posts the queued updates to the webhook, one by one; an update stays queued until it is taken. */
  function deliver(): Promise<void> {
    delivering = delivering.then(async () => {
      while (fake.webhook && updates.length) {
        const hook = fake.webhook;
        try {
          const res = await fetch(hook.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': hook.secret },
            body: JSON.stringify(updates[0]),
            signal: AbortSignal.timeout(30_000),
          });
          if (!res.ok) return;
          updates.shift();
        } catch {
          return;
        }
      }
    });
    return delivering;
  }

  const fail = (res: http.ServerResponse, status: number, description: string, parameters?: Record<string, unknown>) => {
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) }));
  };
  const ok = (res: http.ServerResponse, result: unknown, description?: string) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result, ...(description ? { description } : {}) }));
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
      if (!m) return fail(res, 404, 'Not Found');
      const token = m[1] ?? '';
      const rawMethod = m[2] ?? '';
      const params = await readParams(req, url).catch(() => null);
      if (!params) return fail(res, 400, 'Bad Request: invalid JSON');
      if (token !== fake.token) return fail(res, 401, 'Unauthorized');
      const method = rawMethod.toLowerCase();
      fake.calls.push({ method: rawMethod, params, at: Date.now() });
      const queued = failures.get(method) ?? failures.get(rawMethod);
      const failure = queued?.shift();
      if (failure) {
        if (failure.status === 429) {
          const after = failure.retryAfter ?? 1;
          return fail(res, 429, failure.description ?? `Too Many Requests: retry after ${after}`, { retry_after: after });
        }
        return fail(res, failure.status, failure.description ?? (failure.status >= 500 ? 'Internal Server Error' : 'Bad Request'));
      }
      switch (method) {
        case 'getme':
          return ok(res, {
            id: 7_000_000_001,
            is_bot: true,
            first_name: 'Учебный центр',
            username: fake.username,
            can_join_groups: false,
            can_read_all_group_messages: false,
            supports_inline_queries: false,
          });
        case 'sendmessage': {
          const chatId = Number(params.chat_id);
          const text = typeof params.text === 'string' ? params.text : '';
          if (params.chat_id === undefined || params.chat_id === '') return fail(res, 400, 'Bad Request: chat_id is empty');
          if (!text.trim()) return fail(res, 400, 'Bad Request: message text is empty');
          if (!fake.chats.has(chatId)) return fail(res, 400, 'Bad Request: chat not found');
          if (fake.blocked.has(chatId)) return fail(res, 403, 'Forbidden: bot was blocked by the user');
          const parseMode = typeof params.parse_mode === 'string' ? params.parse_mode : undefined;
          if (parseMode === 'HTML') {
            const problem = htmlProblem(text);
            if (problem) return fail(res, 400, `Bad Request: can't parse entities: ${problem}`);
          }
          const shown = parseMode === 'HTML' ? plainOf(text) : text;
          if (shown.length > 4096) return fail(res, 400, 'Bad Request: message is too long');
          const message = { message_id: nextMessageId++, date: Math.floor(Date.now() / 1000), chat: { id: chatId, type: 'private' }, text: shown };
          fake.sent.push({ chat_id: chatId, text, parse_mode: parseMode, message_id: message.message_id });
          return ok(res, message);
        }
        case 'setwebhook': {
          const hookUrl = typeof params.url === 'string' ? params.url : '';
          const secret = typeof params.secret_token === 'string' ? params.secret_token : '';
          if (!hookUrl) {
            fake.webhook = null;
            return ok(res, true, 'Webhook was deleted');
          }
          if (!/^https?:\/\//.test(hookUrl)) return fail(res, 400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
          if (secret && !/^[A-Za-z0-9_-]{1,256}$/.test(secret)) return fail(res, 400, 'Bad Request: secret token contains unallowed characters');
          fake.webhook = { url: hookUrl, secret };
          ok(res, true, 'Webhook was set');
          void deliver();
          return;
        }
        case 'deletewebhook':
          fake.webhook = null;
          return ok(res, true, 'Webhook was deleted');
        case 'getwebhookinfo':
          return ok(res, { url: fake.webhook?.url ?? '', has_custom_certificate: false, pending_update_count: updates.length });
        case 'getupdates': {
          if (fake.webhook)
            return fail(res, 409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
          const offset = Number(params.offset ?? 0);
          const timeout = Math.min(50, Math.max(0, Number(params.timeout ?? 0)));
          const limit = Math.min(100, Math.max(1, Number(params.limit ?? 100)));
          if (offset > 0) while ((updates[0]?.update_id ?? offset) < offset) updates.shift();
          if (!updates.length && timeout > 0) {
            await new Promise<void>((resolve) => {
              const done = () => {
                clearTimeout(timer);
                waiters.delete(done);
                resolve();
              };
              const timer = setTimeout(done, timeout * 1000);
              waiters.add(done);
              req.socket.once('close', done);
            });
          }
          return ok(res, updates.slice(0, limit));
        }
        default:
          return fail(res, 404, 'Not Found');
      }
    })().catch((err) => {
      if (!res.headersSent) fail(res, 500, `Internal Server Error: ${String(err)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return fake;
}
