import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../test/fake-telegram.ts';
import { BotApiClient, escapeHtml, TelegramApiError } from './bot-api-client.ts';

// The real client against the local stand-in of the Bot API (server/test/fake-telegram.ts).
let fake: FakeTelegram;
let client: BotApiClient;
const TOKEN = '123456:test-token';
const CHAT = 5_000_001;

beforeAll(async () => {
  fake = await startFakeTelegram({ token: TOKEN });
  fake.chats.add(CHAT);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.calls.length = 0;
  fake.blocked.clear();
  fake.clearFailures();
  client = new BotApiClient({ token: TOKEN, apiUrl: fake.url, backoffMs: 20 });
});

const sendCalls = () => fake.calls.filter((c) => c.method === 'sendMessage');

async function refusal(p: Promise<unknown>): Promise<TelegramApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TelegramApiError);
  return err as TelegramApiError;
}

describe('Bot API client', () => {
  it('asks getMe and sends an HTML message with escaped text', async () => {
    expect((await client.getMe()).username).toBe(fake.username);
    const text = `Заявка <№ 2026-00001> & «Конференция»`;
    const message = await client.sendMessage(CHAT, `<b>${escapeHtml(text)}</b>`);
    expect(message.chat.id).toBe(CHAT);
    expect(message.text).toBe(text);
    expect(sendCalls()[0].params).toMatchObject({ chat_id: CHAT, parse_mode: 'HTML' });
  });

  it('waits the retry_after of a 429 before trying again', async () => {
    fake.failNext('sendMessage', { status: 429, retryAfter: 1 });
    await client.sendMessage(CHAT, 'после паузы');
    const [first, second] = sendCalls();
    expect(sendCalls()).toHaveLength(2);
    expect(second.at - first.at).toBeGreaterThanOrEqual(1000);
  });

  it('throws a 429 whose retry_after is longer than it may wait, with the seconds, for the job to come back later', async () => {
    const patient = new BotApiClient({ token: TOKEN, apiUrl: fake.url, maxWaitSeconds: 5 });
    fake.failNext('sendMessage', { status: 429, retryAfter: 120 });
    const err = await refusal(patient.sendMessage(CHAT, 'нет'));
    expect(err.code).toBe(429);
    expect(err.retryAfter).toBe(120);
    expect(sendCalls()).toHaveLength(1);
  });

  it('retries 5xx answers with backoff and gives up after its attempts', async () => {
    fake.failNext('sendMessage', { status: 502, times: 2 });
    await client.sendMessage(CHAT, 'со второй попытки');
    expect(sendCalls()).toHaveLength(3);

    fake.calls.length = 0;
    fake.failNext('sendMessage', { status: 500, times: 10 });
    const err = await refusal(client.sendMessage(CHAT, 'никак'));
    expect(err.code).toBe(500);
    expect(sendCalls()).toHaveLength(4);
  });

  it('retries a network failure', async () => {
    // A port that takes the connection and drops it the first time, then forwards to the stand-in.
    let dropped = 0;
    const flaky = http.createServer((req, res) => {
      if (dropped++ === 0) {
        req.socket.destroy();
        return;
      }
      const upstream = http.request(`${fake.url}${req.url}`, { method: req.method, headers: req.headers }, (a) => {
        res.writeHead(a.statusCode ?? 502, a.headers);
        a.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
    const via = new BotApiClient({ token: TOKEN, apiUrl: `http://127.0.0.1:${(flaky.address() as { port: number }).port}`, backoffMs: 20 });
    expect((await via.sendMessage(CHAT, 'дошло')).text).toBe('дошло');
    expect(dropped).toBe(2);
    await new Promise<void>((r) => flaky.close(() => r()));
  });

  it('does not retry 400 and 403: chat not found, a blocked bot, entities Telegram cannot parse', async () => {
    const notFound = await refusal(client.sendMessage(9_999_999, 'кому?'));
    expect([notFound.code, notFound.description]).toEqual([400, 'Bad Request: chat not found']);
    expect(notFound.chatGone).toBe(false);

    fake.blocked.add(CHAT);
    const blocked = await refusal(client.sendMessage(CHAT, 'заблокирован'));
    expect([blocked.code, blocked.description]).toEqual([403, 'Forbidden: bot was blocked by the user']);
    expect(blocked.chatGone).toBe(true);
    fake.blocked.clear();

    const unescaped = await refusal(client.sendMessage(CHAT, 'a < b <p>абзац</p>'));
    expect(unescaped.code).toBe(400);
    expect(unescaped.description).toMatch(/^Bad Request: can't parse entities/);
    expect(sendCalls()).toHaveLength(3);
  });

  it('answers 401 Unauthorized for a wrong token, without retrying', async () => {
    const wrong = new BotApiClient({ token: '123456:wrong', apiUrl: fake.url, backoffMs: 20 });
    const err = await refusal(wrong.getMe());
    expect([err.code, err.description]).toEqual([401, 'Unauthorized']);
  });

  it('sets a webhook with a secret token, and long-polls getUpdates only without one', async () => {
    await expect(client.setWebhook('http://127.0.0.1:1/api/telegram/webhook', 'bad secret!')).rejects.toThrow(/secret token contains unallowed characters/);
    await client.setWebhook('http://127.0.0.1:1/api/telegram/webhook', 'good_secret-1');
    expect(fake.webhook).toEqual({ url: 'http://127.0.0.1:1/api/telegram/webhook', secret: 'good_secret-1' });
    const conflict = await refusal(client.getUpdates(0, 0));
    expect(conflict.code).toBe(409);
    await client.deleteWebhook();

    // A long poll waits for the update the person writes, and the next offset confirms it.
    const waiting = client.getUpdates(0, 20);
    await new Promise((r) => setTimeout(r, 50));
    const id = await fake.userWrites(CHAT, '/start abc');
    const updates = await waiting;
    expect(updates.map((u) => [u.update_id, u.message?.text])).toEqual([[id, '/start abc']]);
    expect(await client.getUpdates(id + 1, 0)).toEqual([]);
  });
});
