import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { EventId } from '@edu/domain/common/codes';
import { TelegramMessages, todoSummaryLabels } from '@edu/domain/telegram/telegram';
import { todoLinks, type Todo } from '@edu/domain/statistics/todo';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { startFakeTelegram, type FakeTelegram } from '../../../test/fake-telegram.ts';
import { rows } from '../../platform/db.ts';
import { raiseEvent } from '../../platform/events.ts';
import { notify } from '../../platform/notify.ts';
import { scheduleDailySummary, sendDailySummary, startTelegram } from './telegram-jobs.ts';

// Telegram as a notification channel, end to end: the app (listening, so the stand-in can call its
// webhook) with the real Bot API client against the local stand-in (server/test/fake-telegram.ts).
const TOKEN = '7000000001:AAtest-token';
const SECRET = 'test_webhook-secret';
let fake: FakeTelegram;
let t: TestApp;
let off: TestApp;
let nextChat = 8_100_000_001;

beforeAll(async () => {
  fake = await startFakeTelegram({ token: TOKEN, username: 'edu_centre_bot' });
  t = await createTestApp({ telegram: { token: TOKEN, apiUrl: fake.url, mode: 'webhook', webhookSecret: SECRET, summaryHour: 9 } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  t.app.config.appUrl = address;
  await startTelegram(t.app);
  off = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await off.close();
  await fake.close();
});
beforeEach(() => fake.clearFailures());

const linkOf = async (userId: number) =>
  (
    await rows<{ chat_id: number; daily_summary: boolean }>(
      t.database.db,
      sql`select chat_id::float8 as chat_id, daily_summary from telegram_links where user_id = ${userId}`,
    )
  )[0];
const logsOf = async (userId: number) =>
  (
    await rows<{ user_id: number | null; diff: Record<string, { old: unknown; new: unknown }> }>(
      t.database.db,
      sql`select user_id, diff from change_logs where type = 'user' and entity_id = ${userId} order by id`,
    )
  ).filter((l) => 'telegram' in l.diff);
const sentTo = (chatId: number) => fake.sent.filter((m) => m.chat_id === chatId);

/** The client asks for a deep link and the person presses «Start» in Telegram: /start <token> reaches the webhook. */
async function link(user: { id: number }, chatId = nextChat++) {
  const headers = await t.loginAs(user);
  const res = await t.inject({ method: 'POST', url: '/api/telegram/link', headers });
  expect(res.statusCode).toBe(200);
  const url = new URL(res.json().data.url);
  await fake.userWrites(chatId, `/start ${url.searchParams.get('start')}`, `user${chatId}`);
  await t.app.jobs.runDue();
  return { chatId, headers, token: url.searchParams.get('start')! };
}

describe('linking a chat', () => {
  it('sets the webhook with the secret at start', () => {
    expect(fake.webhook).toEqual({ url: `${t.app.config.appUrl}/api/telegram/webhook`, secret: SECRET });
  });

  it('gives a one-time deep link to the bot; /start <token> links the chat, replies in Russian and logs the change', async () => {
    const u = await t.createUser();
    const headers = await t.loginAs(u);
    const before = await t.inject({ method: 'GET', url: '/api/telegram', headers });
    expect(before.json().data).toMatchObject({ configured: true, linked: false, can_summary: false });

    const res = await t.inject({ method: 'POST', url: '/api/telegram/link', headers });
    const { url, expires_at } = res.json().data as { url: string; expires_at: string };
    expect(url).toMatch(/^https:\/\/t\.me\/edu_centre_bot\?start=[A-Za-z0-9_-]{43}$/);
    expect(new Date(expires_at).getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    const token = new URL(url).searchParams.get('start')!;
    // Only the hash is stored.
    const stored = await rows<{ token_hash: string }>(t.database.db, sql`select token_hash from telegram_link_tokens where user_id = ${u.id}`);
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).not.toContain(token);

    const chatId = nextChat++;
    await fake.userWrites(chatId, `/start ${token}`, 'anna_teacher');
    await t.app.jobs.runDue();
    expect(await linkOf(u.id)).toEqual({ chat_id: chatId, daily_summary: false });
    expect(sentTo(chatId).map((m) => m.text)).toEqual([TelegramMessages.botLinked]);
    const after = (await t.inject({ method: 'GET', url: '/api/telegram', headers })).json().data;
    expect(after).toMatchObject({ linked: true, username: 'anna_teacher' });
    expect(await logsOf(u.id)).toEqual([{ user_id: u.id, diff: { telegram: { old: null, new: '@anna_teacher' } } }]);

    // The same token again, from another chat: refused, nothing moves.
    const other = nextChat++;
    await fake.userWrites(other, `/start ${token}`);
    await t.app.jobs.runDue();
    expect(sentTo(other).map((m) => m.text)).toEqual([TelegramMessages.botBadToken]);
    expect((await linkOf(u.id)).chat_id).toBe(chatId);
  });

  it('refuses an expired token, and an older token once a newer one is asked for', async () => {
    const u = await t.createUser();
    const headers = await t.loginAs(u);
    const first = new URL((await t.inject({ method: 'POST', url: '/api/telegram/link', headers })).json().data.url).searchParams.get('start')!;
    const second = new URL((await t.inject({ method: 'POST', url: '/api/telegram/link', headers })).json().data.url).searchParams.get('start')!;
    const chatId = nextChat++;
    await fake.userWrites(chatId, `/start ${first}`);
    await t.database.db.execute(sql`update telegram_link_tokens set expires_at = now() - interval '1 second' where user_id = ${u.id}`);
    await fake.userWrites(chatId, `/start ${second}`);
    await t.app.jobs.runDue();
    expect(sentTo(chatId).map((m) => m.text)).toEqual([TelegramMessages.botBadToken, TelegramMessages.botBadToken]);
    expect(await linkOf(u.id)).toBeUndefined();
  });

  it('/start without a token and other text get the way to link; /stop unlinks the chat', async () => {
    const u = await t.createUser();
    const { chatId } = await link(u);
    await fake.userWrites(chatId, '/start');
    await fake.userWrites(chatId, 'Здравствуйте');
    await fake.userWrites(chatId, '/stop');
    await t.app.jobs.runDue();
    expect(sentTo(chatId).map((m) => m.text)).toEqual([
      TelegramMessages.botLinked,
      TelegramMessages.botHello,
      TelegramMessages.botHello,
      TelegramMessages.botStopped,
    ]);
    expect(await linkOf(u.id)).toBeUndefined();
    expect((await logsOf(u.id)).map((l) => [l.user_id, l.diff.telegram.new])).toEqual([
      [u.id, `@user${chatId}`],
      [u.id, null],
    ]);
  });

  it('a chat linked to one account and then to another moves to the second (one user per chat), both logged', async () => {
    const first = await t.createUser();
    const second = await t.createUser();
    const { chatId } = await link(first);
    await link(second, chatId);
    expect(await linkOf(first.id)).toBeUndefined();
    expect((await linkOf(second.id)).chat_id).toBe(chatId);
    expect((await logsOf(first.id)).at(-1)).toMatchObject({ user_id: null, diff: { telegram: { new: null } } });
    expect((await logsOf(second.id)).at(-1)).toMatchObject({ user_id: second.id, diff: { telegram: { old: null, new: `@user${chatId}` } } });
  });

  it('«Отключить» unlinks from the settings', async () => {
    const u = await t.createUser();
    const { headers } = await link(u);
    const res = await t.inject({ method: 'DELETE', url: '/api/telegram/link', headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: TelegramMessages.unlinked, data: { linked: false } });
    expect(await linkOf(u.id)).toBeUndefined();
    expect((await logsOf(u.id)).at(-1)!.diff.telegram.new).toBeNull();
  });
});

describe('the webhook', () => {
  const update = (updateId: number, text: string, chatId = 8_200_000_001) => ({
    update_id: updateId,
    message: { message_id: 1, date: 1, chat: { id: chatId, type: 'private' }, text },
  });

  it('takes only calls with the secret header: 401 without it, 403 with another', async () => {
    const payload = update(900_000_001, '/start');
    expect((await t.inject({ method: 'POST', url: '/api/telegram/webhook', payload })).statusCode).toBe(401);
    const wrong = await t.inject({ method: 'POST', url: '/api/telegram/webhook', payload, headers: { 'x-telegram-bot-api-secret-token': 'nope' } });
    expect(wrong.statusCode).toBe(403);
    const [seen] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from telegram_updates where update_id = 900000001`);
    expect(seen.n).toBe(0);
  });

  it('handles an update once: a repeat of the same update_id changes nothing', async () => {
    const chatId = nextChat++;
    fake.chats.add(chatId);
    const headers = { 'x-telegram-bot-api-secret-token': SECRET };
    for (let i = 0; i < 2; i++) {
      const res = await t.inject({ method: 'POST', url: '/api/telegram/webhook', payload: update(900_000_002, 'привет', chatId), headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
    }
    await t.app.jobs.runDue();
    expect(sentTo(chatId)).toHaveLength(1);
  });

  it('answers 404 when the centre has no bot, and 422 to a body that is not an update', async () => {
    expect((await off.inject({ method: 'POST', url: '/api/telegram/webhook', payload: update(1, '/start') })).statusCode).toBe(404);
    const bad = await t.inject({
      method: 'POST',
      url: '/api/telegram/webhook',
      payload: { update_id: 'x' },
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
    });
    expect(bad.statusCode).toBe(422);
  });
});

describe('notifications go to Telegram by the settings that govern e-mail', () => {
  async function entryOf(userId: number) {
    const s = await makeService(t.database.db, { price: 1500, title: 'Вебинар «Проектная деятельность»' });
    const [e] = await rows<{ id: number; number: string }>(
      t.database.db,
      sql`insert into entries (number, created_by, service_id, price, status) values ('2026-' || lpad((floor(random() * 99999))::text, 5, '0'), ${userId}, ${s.id}, 1500, 1) returning id, number`,
    );
    return e;
  }
  const setMailing = (on: boolean) => t.database.db.execute(sql`update dict_events set is_mailing = ${on} where id = ${EventId.entryDone}`);

  it('an event with its mailing switch on reaches the linked chat, with a link into the cabinet; off, only the bell', async () => {
    const u = await t.createUser();
    const { chatId } = await link(u);
    const e = await entryOf(u.id);
    await setMailing(true);
    await t.database.db.transaction((tx) => raiseEvent(tx, { eventId: EventId.entryDone, userId: u.id, entryId: e.id }));
    await t.app.jobs.runDue();
    const copy = await fake.waitForSent((m) => m.chat_id === chatId && m.text.includes(e.number));
    expect(copy.parse_mode).toBe('HTML');
    expect(copy.text).toContain(`Заявка № ${e.number} на услугу «Вебинар „Проектная деятельность“» завершена.`);
    expect(copy.text).toContain(`<a href="${t.app.config.appUrl}/user/entry`);

    await setMailing(false);
    const e2 = await entryOf(u.id);
    await t.database.db.transaction((tx) => raiseEvent(tx, { eventId: EventId.entryDone, userId: u.id, entryId: e2.id }));
    await t.app.jobs.runDue();
    const bell = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from notifications where user_id = ${u.id} and text_clear like ${'%' + e2.number + '%'}`,
    );
    expect(bell[0].n).toBe(1);
    expect(sentTo(chatId).some((m) => m.text.includes(e2.number))).toBe(false);
    await setMailing(true);
  });

  it('a user without a linked chat gets no Telegram job; notifications without a letter go to a linked chat, escaped', async () => {
    const lone = await t.createUser();
    await t.database.db.transaction((tx) => notify(tx, { userId: lone.id, text: 'Без Telegram' }));
    const [jobs] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from jobs where name = 'telegram-notify' and owner_id = ${lone.id}`);
    expect(jobs.n).toBe(0);

    const u = await t.createUser();
    const { chatId } = await link(u);
    await t.database.db.transaction((tx) => notify(tx, { userId: u.id, text: '<p>Соавтор <b>А &amp; Б</b> &lt;приглашает&gt;</p>', url: '/user/publication' }));
    await t.app.jobs.runDue();
    const copy = await fake.waitForSent((m) => m.chat_id === chatId && m.text.includes('Соавтор'));
    expect(copy.text.startsWith('Соавтор А &amp; Б &lt;приглашает&gt;')).toBe(true);

    // A text longer than a message holds is cut, so Telegram takes it.
    await t.database.db.transaction((tx) => notify(tx, { userId: u.id, text: `<p>Длинное ${'слово '.repeat(1200)}</p>` }));
    await t.app.jobs.runDue();
    const long = await fake.waitForSent((m) => m.chat_id === chatId && m.text.startsWith('Длинное'));
    expect(long.text).toContain('…');
  });

  it('a chat that blocked the bot is unlinked and logged; the job ends', async () => {
    const u = await t.createUser();
    const { chatId } = await link(u);
    fake.blocked.add(chatId);
    await t.database.db.transaction((tx) => notify(tx, { userId: u.id, text: 'Не дойдёт' }));
    await t.app.jobs.runDue();
    expect(await linkOf(u.id)).toBeUndefined();
    expect((await logsOf(u.id)).at(-1)).toMatchObject({ user_id: null, diff: { telegram: { new: null } } });
    const [job] = await rows<{ done: boolean }>(
      t.database.db,
      sql`select done_at is not null as done from jobs where name = 'telegram-notify' and owner_id = ${u.id} order by id desc limit 1`,
    );
    expect(job.done).toBe(true);
  });

  it('a 429 longer than the client waits brings the job back after retry_after', async () => {
    const u = await t.createUser();
    const { chatId } = await link(u);
    fake.failNext('sendMessage', { status: 429, retryAfter: 300 });
    await t.database.db.transaction((tx) => notify(tx, { userId: u.id, text: 'Позже' }));
    await t.app.jobs.runDue();
    const [job] = await rows<{ done: boolean; wait: number }>(
      t.database.db,
      sql`select done_at is not null as done, extract(epoch from run_at - now())::float8 as wait from jobs where name = 'telegram-notify' and owner_id = ${u.id} order by id desc limit 1`,
    );
    expect(job.done).toBe(false);
    expect(job.wait).toBeGreaterThan(250);
    expect(sentTo(chatId).some((m) => m.text.includes('Позже'))).toBe(false);
  });
});

describe("the operators' daily summary", () => {
  it('is switched by operators with a linked chat only', async () => {
    const user = await t.createUser();
    const asUser = await t.loginAs(user);
    expect((await t.inject({ method: 'PUT', url: '/api/telegram/summary', headers: asUser, payload: { daily_summary: true } })).statusCode).toBe(403);
    const op = await t.createUser({ role: 1 });
    const asOp = await t.loginAs(op);
    const unlinked = await t.inject({ method: 'PUT', url: '/api/telegram/summary', headers: asOp, payload: { daily_summary: true } });
    expect(unlinked.statusCode).toBe(422);
    expect(unlinked.json().errors.daily_summary).toEqual([TelegramMessages.summaryNeedsLink]);
  });

  it('sends the to-do counts to operators who asked, at the fixed hour, and schedules the next day', async () => {
    const op = await t.createUser({ role: 1 });
    const { chatId, headers } = await link(op);
    const quiet = await t.createUser({ role: 1 });
    const { chatId: quietChat } = await link(quiet);
    const on = await t.inject({ method: 'PUT', url: '/api/telegram/summary', headers, payload: { daily_summary: true } });
    expect(on.json()).toMatchObject({ message: TelegramMessages.summaryOn, data: { daily_summary: true, can_summary: true } });
    expect(await sendDailySummary(t.app)).toBe(1);
    await t.app.jobs.runDue();
    const summary = await fake.waitForSent((m) => m.chat_id === chatId && m.text.startsWith(`<b>${TelegramMessages.summaryTitle}</b>`));
    // The dashboard's counts, each line leading to its filtered list; zeros left out.
    const counts = (await t.inject({ method: 'GET', url: '/api/manager/todo', headers })).json() as Todo;
    const due = (Object.keys(counts) as Array<keyof Todo>).filter((k) => counts[k] > 0);
    expect(due.length).toBeGreaterThan(0);
    expect(summary.text.split('\n').slice(1)).toEqual(
      due.map((k) => `${todoSummaryLabels[k]}: <a href="${t.app.config.appUrl}${todoLinks[k].replace(/&/g, '&amp;')}">${counts[k]}</a>`),
    );
    expect(sentTo(quietChat).filter((m) => m.text.includes(TelegramMessages.summaryTitle))).toHaveLength(0);

    const now = new Date('2026-11-29T12:00:00Z');
    await scheduleDailySummary(t.database.db, 9, now);
    const [job] = await rows<{ run_at: Date }>(t.database.db, sql`select run_at from jobs where name = 'telegram-daily-summary' and done_at is null`);
    // 09:00 in Moscow (UTC+3) the next day.
    expect(new Date(job.run_at).toISOString()).toBe('2026-11-30T06:00:00.000Z');
  });
});

describe('without TELEGRAM_BOT_TOKEN', () => {
  it('says Telegram is not connected by the centre, gives no link, sends nothing', async () => {
    const u = await off.createUser();
    const headers = await off.loginAs(u);
    expect((await off.inject({ method: 'GET', url: '/api/telegram', headers })).json().data).toMatchObject({ configured: false, linked: false });
    const res = await off.inject({ method: 'POST', url: '/api/telegram/link', headers });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(TelegramMessages.notConfiguredRefusal);
  });
});

describe('long polling (TELEGRAM_MODE=polling)', () => {
  it('drops the webhook, takes updates by getUpdates with the next offset, and links the chat', async () => {
    const bot = await startFakeTelegram({ token: TOKEN, username: 'edu_polling_bot' });
    await bot.userWrites(1, 'старое сообщение до запуска');
    bot.webhook = { url: 'http://127.0.0.1:9/unused', secret: 'x' };
    const polling = await createTestApp({ telegram: { token: TOKEN, apiUrl: bot.url, mode: 'polling', webhookSecret: SECRET, summaryHour: 9 } });
    try {
      await startTelegram(polling.app);
      expect(bot.webhook).toBeNull();
      const u = await polling.createUser();
      const res = await polling.inject({ method: 'POST', url: '/api/telegram/link', headers: await polling.loginAs(u) });
      expect(res.json().data.url).toMatch(/^https:\/\/t\.me\/edu_polling_bot\?start=/);
      const chatId = nextChat++;
      await bot.userWrites(chatId, `/start ${new URL(res.json().data.url).searchParams.get('start')}`);
      // The poller handles the update in its own time: wait for the link it makes.
      await expect
        .poll(async () => (await rows<{ n: number }>(polling.database.db, sql`select count(*)::int as n from telegram_links where user_id = ${u.id}`))[0].n, {
          timeout: 20_000,
        })
        .toBe(1);
      await polling.app.jobs.runDue();
      expect(bot.sent.filter((m) => m.chat_id === chatId).map((m) => m.text)).toEqual([TelegramMessages.botLinked]);
      // The earlier update was handled too (and answered), each once; the next offset confirms them.
      const polls = bot.calls.filter((c) => c.method === 'getUpdates').map((c) => Number(c.params.offset));
      expect(polls[0]).toBe(0);
      expect(Math.max(...polls)).toBeGreaterThan(700_000_001);
    } finally {
      await polling.close();
      await bot.close();
    }
  });
});
