import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { MailingMessages } from '@edu/domain/mailing/mailing';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { rows } from '../../platform/db.ts';
import { entries } from '../../db/schema/index.ts';
import { makeService } from '../../../test/fixtures.ts';
import { createMailer, type Mailer } from '../../platform/mail.ts';
import { startScriptedSmtp, type Reaction } from '../../../test/scripted-smtp.ts';
import { retryDelaySeconds, runMailingSlice } from './mailing-job.ts';
import { MailingJournal } from './mailing-journal.ts';

let t: TestApp;
let operator: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ mailing: { poolSize: 3, ratePerMinute: 0, maxAttempts: 2 } });
  operator = await t.loginAs(await t.createUser({ role: 1, email: 'operator@example.com' }));
});
afterAll(() => t.close());

const sendAll = (message: unknown, headers = operator) => t.inject({ method: 'POST', url: '/api/mail/send-all', headers, payload: { message } });
const progress = async (id: number) => (await t.inject({ method: 'GET', url: `/api/mail/mailings/${id}`, headers: operator })).json().data;
const recipientOf = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)!.value[0].address!;

/** Every active, subscribed, non-guest user with an e-mail, as the database has them now. */
async function expectedRecipients(): Promise<string[]> {
  const list = await rows<{ email: string }>(
    t.database.db,
    sql`select u.email from users u left join mail_subscriptions s on s.user_id = u.id
        where u.deleted_at is null and u.role <> 3 and s.unsubscribed_at is null order by u.email`,
  );
  return list.map((r) => r.email);
}

async function runToEnd(id: number, mailer?: Mailer) {
  for (let i = 0; i < 50; i++) {
    const r = await runMailingSlice(t.app, id, { mailer, sliceMs: 2000 });
    if (!r) return;
    // Failed addresses wait for their backoff; the test moves the clock instead of waiting.
    await t.database.db.execute(sql`update mailing_deliveries set next_attempt_at = now() where mailing_id = ${id} and status = 0`);
  }
  throw new Error('mailing did not finish');
}

function lettersOf(marker: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of t.smtp.mails.filter((x) => String(x.html).includes(marker))) counts.set(recipientOf(m), (counts.get(recipientOf(m)) ?? 0) + 1);
  return counts;
}

describe('POST /api/mail/send-all', () => {
  it('is for operators only', async () => {
    const u = await t.createUser();
    expect((await sendAll('<p>Привет</p>', await t.loginAs(u))).statusCode).toBe(403);
    expect((await sendAll('<p>Привет</p>', {})).statusCode).toBe(401);
    expect((await t.inject({ method: 'GET', url: '/api/mail/mailings', headers: await t.loginAs(u) })).statusCode).toBe(403);
  });

  it('refuses an empty or missing message with a field error', async () => {
    const empty = await sendAll('<p> </p><script>alert(1)</script>');
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({ message: 'Заполните все обязательные поля!', errors: { message: [MailingMessages.empty] } });
    const missing = await t.inject({ method: 'POST', url: '/api/mail/send-all', headers: operator, payload: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.message).toBeDefined();
  });

  it('queues the letter, then every active user with an e-mail gets it once: sanitised, with a text part and an unsubscribe link', async () => {
    const active = await t.createUser({ email: 'active@example.com' });
    await t.createUser({ email: 'guest@example.com', role: 3 });
    await t.createUser({ email: 'deleted@example.com', deleted_at: new Date() });
    const optedOut = await t.createUser({ email: 'opted-out@example.com' });
    await t.inject({ method: 'PUT', url: '/api/mail/subscription', headers: await t.loginAs(optedOut), payload: { subscribed: false } });

    const res = await sendAll(
      '<p>Приглашаем на <b>форум</b> «Школа 2027»!</p><script>steal()</script><a href="javascript:alert(1)">ссылка</a><img src=x onerror=alert(1)> [m1]',
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('Письмо успешно отправлено всем пользователем!');
    const id = res.json().data.id as number;
    expect(t.smtp.mails.filter((m) => String(m.html).includes('[m1]'))).toHaveLength(0);
    const [job] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from jobs where name = 'mailing' and done_at is null`);
    expect(job.n).toBe(1);

    await t.app.jobs.runDue();
    const expected = await expectedRecipients();
    expect(expected).toContain('active@example.com');
    expect(expected).not.toContain('opted-out@example.com');
    const got = lettersOf('[m1]');
    expect([...got.keys()].sort()).toEqual(expected);
    expect([...got.values()].every((n) => n === 1)).toBe(true);

    const letter = t.smtp.mails.find((m) => recipientOf(m) === active.email && String(m.html).includes('[m1]'))!;
    expect(letter.subject).toBe(MailingMessages.subject);
    expect(letter.from?.value).toEqual([{ name: 'Учебный центр', address: 'no-reply@example.ru' }]);
    expect(new Date(letter.date!).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(letter.html).toContain('<b>форум</b>');
    expect(letter.html).not.toMatch(/script|javascript:|onerror|<img/);
    expect(letter.text).toContain('Приглашаем на форум «Школа 2027»!');
    const [sub] = await rows<{ token: string }>(t.database.db, sql`select token from mail_subscriptions where user_id = ${active.id}`);
    expect(letter.html).toContain(`/unsubscribe/${sub.token}`);
    expect(letter.text).toContain(`Отписаться от рассылки: http://localhost:8080/unsubscribe/${sub.token}`);
    const header = (key: string) => letter.headerLines.find((h) => h.key === key)?.line.replace(/\r\n\s+/g, ' ');
    expect(header('list-unsubscribe')).toBe(`List-Unsubscribe: <http://localhost:8080/api/mail/unsubscribe/${sub.token}>`);
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(letter.messageId).toBe(`<mailing-${id}-${active.id}@localhost>`);

    const p = await progress(id);
    expect(p).toMatchObject({ id, status: 'done', recipients: expected.length, sent: expected.length, failed: 0, left: 0, failures: [] });
    const list = (await t.inject({ method: 'GET', url: '/api/mail/mailings', headers: operator })).json().data;
    expect(list[0]).toMatchObject({ id, status: 'done', excerpt: expect.stringContaining('Приглашаем на форум') });
  });
});

describe('mass letter MIME', () => {
  it('encodes long Russian headers in words of at most 75 characters', async () => {
    const { encodeWords } = await import('../../platform/mass-letter.ts');
    const subject = 'Приглашаем на Всероссийский педагогический форум «Школа будущего — 2027»';
    const encoded = encodeWords(subject);
    expect(encoded.split('\r\n ').every((w) => w.length <= 75)).toBe(true);
    const decoded = encoded
      .split('\r\n ')
      .map((w) => Buffer.from(/^=\?UTF-8\?B\?(.*)\?=$/.exec(w)![1], 'base64').toString())
      .join('');
    expect(decoded).toBe(subject);
    expect(encodeWords('Plain ASCII')).toBe('Plain ASCII');
  });
});

describe('unsubscribing', () => {
  it('works from the letter without a session, also as a one-click POST; the next mailing skips the person', async () => {
    const u = await t.createUser({ email: 'leaver@example.com' });
    await t.database.db.execute(sql`insert into mail_subscriptions (user_id) values (${u.id})`);
    const [{ token }] = await rows<{ token: string }>(t.database.db, sql`select token from mail_subscriptions where user_id = ${u.id}`);
    expect((await t.inject({ method: 'POST', url: '/api/mail/unsubscribe/not-a-token' })).statusCode).toBe(404);
    expect((await t.inject({ method: 'POST', url: '/api/mail/unsubscribe/00000000-0000-4000-8000-000000000000' })).json().message).toBe(
      MailingMessages.unsubscribeBadLink,
    );
    const oneClick = await t.inject({
      method: 'POST',
      url: `/api/mail/unsubscribe/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.json().message).toBe(MailingMessages.unsubscribed);
    expect((await t.inject({ method: 'POST', url: `/api/mail/unsubscribe/${token}` })).statusCode).toBe(200);
    const headers = await t.loginAs(u);
    expect((await t.inject({ method: 'GET', url: '/api/mail/subscription', headers })).json().data).toEqual({ subscribed: false });

    const id = (await sendAll('<p>Вторая рассылка [m2]</p>')).json().data.id;
    await runToEnd(id);
    expect(lettersOf('[m2]').has('leaver@example.com')).toBe(false);
    // The settings switch brings the person back.
    expect((await t.inject({ method: 'PUT', url: '/api/mail/subscription', headers, payload: { subscribed: true } })).json().data).toEqual({
      subscribed: true,
    });
    expect((await t.inject({ method: 'GET', url: '/api/mail/subscription' })).statusCode).toBe(401);
  });
});

describe('delivery guarantees', () => {
  it('exactly once across a crash: a sender that claimed letters and died is replaced, nobody gets two and nobody none', async () => {
    for (let i = 0; i < 12; i++) await t.createUser({ email: `crowd-${i}@example.com` });
    const id = (await sendAll('<p>Рассылка после сбоя [m3]</p>')).json().data.id;
    // The first sender delivers 7 letters, then hangs forever mid-send, as a killed process would.
    let sent = 0;
    const dying: Mailer = {
      describe: () => 'dying',
      send: (m) => (sent++ < 7 ? t.app.mailer.send(m) : new Promise(() => {})),
    };
    void runMailingSlice(t.app, id, { mailer: dying, sliceMs: 60_000 });
    // Wait for the seven letters (a loaded CI machine needs more than a fixed pause), then a little
    // longer, to be sure no eighth arrives.
    for (const end = Date.now() + 30_000; lettersOf('[m3]').size < 7 && Date.now() < end;) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    expect(lettersOf('[m3]').size).toBe(7);
    const [claimed] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from mailing_deliveries where mailing_id = ${id} and status = 0 and locked_until > now()`,
    );
    expect(claimed.n).toBeGreaterThan(0);
    // The 7 accepted letters are in the sender's journal only: it died before telling the database.
    const [told] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from mailing_deliveries where mailing_id = ${id} and status = 1`);
    expect(told.n).toBe(0);
    // Its leases run out; a new process takes over the job.
    await t.database.db.execute(sql`update mailing_deliveries set locked_until = now() - interval '1 second' where mailing_id = ${id} and status = 0`);
    await runToEnd(id);
    const got = lettersOf('[m3]');
    expect([...got.keys()].sort()).toEqual(await expectedRecipients());
    expect([...got.values()].filter((n) => n !== 1)).toEqual([]);
    expect(await progress(id)).toMatchObject({ status: 'done', failed: 0, left: 0 });
  });

  it('a failing address is retried with backoff, then reported, not retried forever', async () => {
    await t.createUser({ email: 'bounce@example.com' });
    const id = (await sendAll('<p>С отказом [m4]</p>')).json().data.id;
    let bounceTries = 0;
    const picky: Mailer = {
      describe: () => 'picky',
      send: async (m) => {
        if (m.to === 'bounce@example.com') {
          bounceTries++;
          throw new Error('550 5.1.1 mailbox unavailable');
        }
        return t.app.mailer.send(m);
      },
    };
    const first = await runMailingSlice(t.app, id, { mailer: picky, sliceMs: 2000 });
    expect(first).toMatchObject({ continuation: true });
    expect(first!.retryInSeconds).toBeGreaterThan(20);
    const mid = await progress(id);
    expect(mid).toMatchObject({ status: 'sending', failed: 0, left: 1 });
    await runToEnd(id, picky);
    expect(bounceTries).toBe(2);
    const done = await progress(id);
    expect(done).toMatchObject({ status: 'done', failed: 1, left: 0 });
    expect(done.sent).toBe((await expectedRecipients()).length - 1);
    expect(done.failures).toEqual([{ email: 'bounce@example.com', error: '550 5.1.1 mailbox unavailable', attempts: 2 }]);
    expect(retryDelaySeconds(1)).toBe(30);
    expect(retryDelaySeconds(3)).toBe(120);
    expect(retryDelaySeconds(20)).toBe(3600);
  });

  it('keeps to the throttle setting', async () => {
    const id = (await sendAll('<p>Медленно [m5]</p>')).json().data.id;
    const n = (await expectedRecipients()).length;
    t.app.config.mailing.ratePerMinute = 1200; // 20 letters a second
    try {
      const started = Date.now();
      await runToEnd(id);
      const ms = Date.now() - started;
      expect(lettersOf('[m5]').size).toBe(n);
      expect(ms).toBeGreaterThanOrEqual(((n - 1) * 60_000) / 1200 - 50);
    } finally {
      t.app.config.mailing.ratePerMinute = 0;
    }
  });
});

describe('exactly once at the SMTP boundary (issue 13)', () => {
  const mailerFor = (url: string) => createMailer({ smtpUrl: url, outboxDir: os.tmpdir(), from: t.app.config.mailFrom, log: t.app.log, poolSize: 2 });
  const messageIdsOf = (id: number) => (r: { messageId: string }) => r.messageId.startsWith(`<mailing-${id}-`);

  it('a letter the server received whole but whose 250 never came back before the crash is not sent again by the next sender', async () => {
    await t.createUser({ email: 'lost-reply@example.com' });
    for (let i = 0; i < 6; i++) await t.createUser({ email: `crowd-b-${i}@example.com` });
    // The server takes the letter whole and the sender dies waiting for the 250.
    const smtp = await startScriptedSmtp({ onLetter: (to, nth): Reaction => (to === 'lost-reply@example.com' && nth === 1 ? 'hang' : 'ok') });
    const first = mailerFor(smtp.url);
    const second = mailerFor(smtp.url);
    try {
      const id = (await sendAll('<p>Ответ потерян [m6]</p>')).json().data.id;
      const expected = await expectedRecipients();
      const dying = runMailingSlice(t.app, id, { mailer: first, sliceMs: 60_000 });
      for (let i = 0; i < 200 && smtp.received.filter(messageIdsOf(id)).length < expected.length; i++) await new Promise((r) => setTimeout(r, 25));
      expect(smtp.received.filter(messageIdsOf(id))).toHaveLength(expected.length);
      const [told] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from mailing_deliveries where mailing_id = ${id} and status = 1`);
      expect(told.n).toBe(0);
      // Its leases run out; another sender takes over.
      await t.database.db.execute(sql`update mailing_deliveries set locked_until = now() - interval '1 second' where mailing_id = ${id} and status = 0`);
      await runToEnd(id, second);
      const got = smtp.received.filter(messageIdsOf(id));
      expect(got.map((r) => r.to).sort()).toEqual(expected);
      expect(await progress(id)).toMatchObject({ status: 'done', sent: expected.length, failed: 0, left: 0 });
      await smtp.close(); // the hung connection breaks: the dead sender's letter still counts as sent
      await dying;
      expect(smtp.received.filter(messageIdsOf(id))).toHaveLength(expected.length);
    } finally {
      await first.close?.();
      await second.close?.();
      await smtp.close();
    }
  });

  it('a letter whose 250 is lost because the server drops the connection after the dot counts as sent and is not sent again', async () => {
    await t.createUser({ email: 'dropped-reply@example.com' });
    const smtp = await startScriptedSmtp({ onLetter: (to, nth): Reaction => (to === 'dropped-reply@example.com' && nth === 1 ? 'drop' : 'ok') });
    const mailer = mailerFor(smtp.url);
    try {
      const id = (await sendAll('<p>Соединение оборвано [m7]</p>')).json().data.id;
      await runToEnd(id, mailer);
      const expected = await expectedRecipients();
      expect(
        smtp.received
          .filter(messageIdsOf(id))
          .map((r) => r.to)
          .sort(),
      ).toEqual(expected);
      expect(await progress(id)).toMatchObject({ status: 'done', sent: expected.length, failed: 0 });
    } finally {
      await mailer.close?.();
      await smtp.close();
    }
  });

  it('an address the server refuses after the dot is journaled x, retried, then reported failed', async () => {
    const full = await t.createUser({ email: 'full-box@example.com' });
    const smtp = await startScriptedSmtp({ onLetter: (to): Reaction => (to === 'full-box@example.com' ? { code: 552, message: 'mailbox full' } : 'ok') });
    const mailer = mailerFor(smtp.url);
    try {
      const id = (await sendAll('<p>Ящик полон [m8]</p>')).json().data.id;
      const first = await runMailingSlice(t.app, id, { mailer, sliceMs: 2000 });
      expect(first).toMatchObject({ continuation: true });
      const [d] = await rows<{ id: number }>(t.database.db, sql`select id from mailing_deliveries where mailing_id = ${id} and user_id = ${full.id}`);
      const dir = path.join(t.app.config.dataDir, 'mailing-journal');
      const lines = fs
        .readdirSync(dir)
        .filter((f) => f.startsWith(`${id}-`))
        .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n'));
      expect(lines).toContain(`h ${d.id}`);
      expect(lines).toContain(`x ${d.id}`);
      // A sender taking over now would retry it.
      expect(MailingJournal.read(dir, id, 60_000).ids).not.toContain(d.id);
      await runToEnd(id, mailer);
      const done = await progress(id);
      expect(done).toMatchObject({ status: 'done', failed: 1, left: 0 });
      expect(done.failures).toEqual([{ email: 'full-box@example.com', error: expect.stringContaining('552 mailbox full'), attempts: 2 }]);
      expect(smtp.received.filter((r) => r.to === 'full-box@example.com' && messageIdsOf(id)(r))).toHaveLength(2);
      expect(smtp.delivered('full-box@example.com')).toBe(0);
    } finally {
      await mailer.close?.();
      await smtp.close();
    }
  });

  it('the journal counts a letter as sent when its last line is a hand-over or a 250', () => {
    expect(MailingJournal.sentIds('h 1\n1\nh 2\nh 3\nx 3\nh 4\nx 4\nh 4\n5\nh 6').sort()).toEqual([1, 2, 4, 5, 6]);
  });

  it('without SMTP the mass letters go to the outbox folder', async () => {
    const outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'edu-mass-outbox-'));
    try {
      const mailer = createMailer({ outboxDir: outbox, from: t.app.config.mailFrom, log: t.app.log });
      const id = (await sendAll('<p>В папку [m9]</p>')).json().data.id;
      await runToEnd(id, mailer);
      const expected = await expectedRecipients();
      const files = fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'));
      expect(files).toHaveLength(expected.length);
      expect(files.every((f) => f.includes(`Message-ID: <mailing-${id}-`))).toBe(true);
      expect(await progress(id)).toMatchObject({ status: 'done', sent: expected.length, failed: 0 });
    } finally {
      fs.rmSync(outbox, { recursive: true, force: true });
    }
  });
});

describe('a mailing to an audience (subject, audience, count, preview, test letter)', () => {
  const count = async (audience: unknown) => t.inject({ method: 'POST', url: '/api/mail/audience-count', headers: operator, payload: { audience } });

  it('counts and sends only to users matching every condition, never to unsubscribed ones, with its subject; the list says whom', async () => {
    const db = t.database.db;
    const tag = `aud${Date.now()}`;
    const service = await makeService(db, { title: `Вебинар ${tag}`, price: 900 });
    const other = await makeService(db, { title: `Семинар ${tag}`, price: 500 });
    const make = (name: string, attrs: Record<string, unknown> = {}) => t.createUser({ email: `${tag}-${name}@example.com`, ...attrs });
    const spbUnpaid = await make('spb-unpaid', { is_spb: 1, profiles: [1] });
    const spbPaid = await make('spb-paid', { is_spb: 1, profiles: [1] });
    const otherCity = await make('msk-unpaid', { is_spb: 0, profiles: [1] });
    const otherService = await make('spb-other', { is_spb: 1, profiles: [1] });
    const optedOut = await make('spb-optout', { is_spb: 1, profiles: [1] });
    await t.inject({ method: 'PUT', url: '/api/mail/subscription', headers: await t.loginAs(optedOut), payload: { subscribed: false } });
    const entry = (u: { id: number }, serviceId: number, status: number) =>
      db.insert(entries).values({ number: `${tag}-${u.id}-${serviceId}`, created_by: u.id, service_id: serviceId, price: 900, status });
    await entry(spbUnpaid, service.id, 1);
    await entry(spbPaid, service.id, 2);
    await entry(otherCity, service.id, 1);
    await entry(otherService, other.id, 1);
    await entry(optedOut, service.id, 1);

    const audience = { is_spb: 1, service_ids: [service.id], entry_statuses: [1], profile_ids: [1] };
    const counted = await count(audience);
    expect(counted.statusCode).toBe(200);
    expect(counted.json().data.count).toBe(1);
    // is_spb is a flag like every other (issue 19): true counts as 1.
    expect((await count({ ...audience, is_spb: true })).json().data.count).toBe(1);
    expect(counted.json().data.label).toBe(
      `Профиль: ${(await rows<{ fdv: string }>(db, sql`select fdv from dict_profiles where id = 1`))[0].fdv}; Санкт-Петербург; Услуги: Вебинар ${tag}; Статус заявки: Не оплачена`,
    );
    expect((await count({ service_ids: [service.id] })).json().data.count).toBe(3);
    expect((await count({ service_ids: [service.id], entry_statuses: [2, 3] })).json().data.count).toBe(1);

    const res = await t.inject({
      method: 'POST',
      url: '/api/mail/send-all',
      headers: operator,
      payload: { message: `<p>Напоминаем об оплате ${tag}</p>`, subject: 'Оплатите участие в вебинаре', audience },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ subject: 'Оплатите участие в вебинаре', audience_label: counted.json().data.label });
    await runToEnd(res.json().data.id as number);
    expect([...lettersOf(tag).keys()]).toEqual([`${tag}-spb-unpaid@example.com`]);
    const mail = t.smtp.mails.find((m) => String(m.html).includes(tag))!;
    expect(mail.subject).toBe('Оплатите участие в вебинаре');
    expect((await progress(res.json().data.id as number)).recipients).toBe(1);
  });

  it('refuses an audience nobody is in, a blank subject and unknown statuses, in Russian', async () => {
    const none = await t.inject({
      method: 'POST',
      url: '/api/mail/send-all',
      headers: operator,
      payload: { message: '<p>Никому</p>', audience: { service_ids: [2_000_000_000] } },
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.audience).toEqual([MailingMessages.noRecipients]);
    const blank = await t.inject({ method: 'POST', url: '/api/mail/send-all', headers: operator, payload: { message: '<p>Тема?</p>', subject: '   ' } });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors.subject).toEqual([MailingMessages.subjectEmpty]);
    const status = await count({ entry_statuses: [7] });
    expect(status.statusCode).toBe(422);
    const asUser = await t.inject({ method: 'POST', url: '/api/mail/audience-count', headers: await t.loginAs(await t.createUser()), payload: {} });
    expect(asUser.statusCode).toBe(403);
  });

  it('previews the letter as recipients get it and sends a test letter to the operator only', async () => {
    const tag = `test${Date.now()}`;
    const preview = await t.inject({
      method: 'POST',
      url: '/api/mail/preview',
      headers: operator,
      payload: { message: `<p>Новость ${tag}</p><script>x()</script>`, subject: 'Новости' },
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data.subject).toBe('Новости');
    expect(preview.json().data.html).toContain(`Новость ${tag}`);
    expect(preview.json().data.html).not.toContain('<script');
    expect(preview.json().data.html).toContain(MailingMessages.unsubscribe);
    const sent = await t.inject({
      method: 'POST',
      url: '/api/mail/send-test',
      headers: operator,
      payload: { message: `<p>Новость ${tag}</p>`, subject: 'Новости' },
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().message).toBe(MailingMessages.testSent('operator@example.com'));
    const mail = await t.smtp.waitFor((m) => String(m.html).includes(tag));
    expect(recipientOf(mail)).toBe('operator@example.com');
    expect(mail.subject).toBe('[Тест] Новости');
    expect(lettersOf(tag).size).toBe(1);
  });
});

describe('macros in a mass letter (issue 28)', () => {
  it('each recipient gets their own values in the subject, the HTML (escaped) and the text part', async () => {
    const tag = `macro${Date.now()}`;
    const db = t.database.db;
    const service = await makeService(db, { title: `Курс ${tag}`, price: 700 });
    const anna = await t.createUser({ email: `${tag}-anna@example.com`, last_name: 'Орлова', first_name: 'Анна', middle_name: 'Павловна' });
    const boris = await t.createUser({ email: `${tag}-boris@example.com`, last_name: 'Зуев', first_name: 'Борис <b>', middle_name: 'Ильич' });
    for (const u of [anna, boris])
      await db.insert(entries).values({ number: `${tag}-${u.id}`, created_by: u.id, service_id: service.id, price: 700, status: 1 });

    const res = await t.inject({
      method: 'POST',
      url: '/api/mail/send-all',
      headers: operator,
      payload: {
        subject: '${user.first_name}, новости',
        message: `<p>Здравствуйте, \${user.first_name}! ${tag}</p><p>\${user.fio}, \${user.email}, [\${user.snils}]</p>`,
        audience: { service_ids: [service.id] },
      },
    });
    expect(res.statusCode).toBe(201);
    await runToEnd(res.json().data.id as number);

    const mails = t.smtp.mails.filter((m) => String(m.html).includes(tag));
    expect(mails.map(recipientOf).sort()).toEqual([anna.email, boris.email].sort());
    const toAnna = mails.find((m) => recipientOf(m) === anna.email)!;
    const toBoris = mails.find((m) => recipientOf(m) === boris.email)!;
    expect(toAnna.subject).toBe('Анна, новости');
    expect(toAnna.html).toContain('Здравствуйте, Анна!');
    expect(toAnna.html).toContain(`Орлова Анна Павловна, ${anna.email}, []`);
    expect(toAnna.text).toContain('Здравствуйте, Анна!');
    expect(toBoris.subject).toBe('Борис <b>, новости');
    // Values are escaped in HTML like event letters; the text part has them as they are.
    expect(toBoris.html).toContain('Здравствуйте, Борис &lt;b&gt;!');
    expect(toBoris.html).not.toContain('Борис <b>');
    expect(toBoris.text).toContain('Здравствуйте, Борис <b>!');
    for (const m of mails) expect(`${m.subject} ${m.html} ${m.text}`).not.toContain('${');
  });

  it('refuses unknown macros and macros a mailing cannot fill, naming them under their field, before anything is queued', async () => {
    const before = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from mailings`);
    const res = await t.inject({
      method: 'POST',
      url: '/api/mail/send-all',
      headers: operator,
      payload: { subject: 'Привет, ${user.nickname}', message: '<p>${user.fio}: ${user.shoe_size}, ${entry.number}</p>' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      subject: [MailingMessages.unknownMacros(['${user.nickname}'])],
      message: [MailingMessages.unknownMacros(['${user.shoe_size}']), MailingMessages.unavailableMacros(['${entry.number}'])],
    });
    expect(res.json().message).toMatch(/Неизвестные макросы/);
    const after = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from mailings`);
    expect(after[0].n).toBe(before[0].n);
    for (const url of ['/api/mail/preview', '/api/mail/send-test']) {
      const r = await t.inject({ method: 'POST', url, headers: operator, payload: { subject: 'Тема', message: '<p>${user.nickname}</p>' } });
      expect(r.statusCode).toBe(422);
      expect(r.json().errors.message).toEqual([MailingMessages.unknownMacros(['${user.nickname}'])]);
    }
  });

  it('previews with the first recipient’s values or a chosen one’s, and the test letter to the operator has them too', async () => {
    const tag = `prev${Date.now()}`;
    const db = t.database.db;
    const service = await makeService(db, { title: `Семинар ${tag}`, price: 300 });
    const first = await t.createUser({ email: `${tag}-1@example.com`, last_name: 'Первова', first_name: 'Ольга', middle_name: 'Петровна' });
    const second = await t.createUser({ email: `${tag}-2@example.com`, last_name: 'Второв', first_name: 'Олег', middle_name: 'Иванович' });
    const outsider = await t.createUser({ email: `${tag}-3@example.com` });
    for (const u of [first, second])
      await db.insert(entries).values({ number: `${tag}-${u.id}`, created_by: u.id, service_id: service.id, price: 300, status: 1 });
    const audience = { service_ids: [service.id] };
    const payload = { subject: 'Для ${user.first_name}', message: `<p>Здравствуйте, \${user.fio}! ${tag}</p>`, audience };

    const preview = await t.inject({ method: 'POST', url: '/api/mail/preview', headers: operator, payload });
    expect(preview.statusCode).toBe(200);
    const data = preview.json().data;
    expect(data.subject).toBe('Для Ольга');
    expect(data.html).toContain('Здравствуйте, Первова Ольга Петровна!');
    expect(data.recipient).toEqual({ id: first.id, label: `Первова Ольга Петровна (${first.email})` });
    expect(data.recipients.map((r: { id: number }) => r.id)).toEqual([first.id, second.id]);

    const chosen = await t.inject({ method: 'POST', url: '/api/mail/preview', headers: operator, payload: { ...payload, user_id: second.id } });
    expect(chosen.json().data.subject).toBe('Для Олег');
    expect(chosen.json().data.html).toContain('Здравствуйте, Второв Олег Иванович!');

    const stranger = await t.inject({ method: 'POST', url: '/api/mail/preview', headers: operator, payload: { ...payload, user_id: outsider.id } });
    expect(stranger.statusCode).toBe(422);
    expect(stranger.json().errors.user_id).toEqual([MailingMessages.notARecipient]);
    const huge = await t.inject({ method: 'POST', url: '/api/mail/preview', headers: operator, payload: { ...payload, user_id: 2 ** 40 } });
    expect(huge.statusCode).toBe(422);
    expect(huge.json().errors.user_id).toEqual([MailingMessages.notARecipient]);

    const sent = await t.inject({ method: 'POST', url: '/api/mail/send-test', headers: operator, payload: { ...payload, user_id: second.id } });
    expect(sent.statusCode).toBe(200);
    const mail = await t.smtp.waitFor((m) => String(m.html).includes(tag));
    expect(recipientOf(mail)).toBe('operator@example.com');
    expect(mail.subject).toBe('[Тест] Для Олег');
    expect(mail.html).toContain('Здравствуйте, Второв Олег Иванович!');
  });
});
