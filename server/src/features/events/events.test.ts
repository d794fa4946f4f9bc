import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { EventId } from '@edu/domain/common/codes';
import { quotedName } from '@edu/domain/common/quotes';
import { EventMessages } from '@edu/domain/events/event';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { rows } from '../../platform/db.ts';
import { raiseEvent } from '../../platform/events.ts';
import { eventValues, renderHtml, renderText, unknownEventMacros } from './event-macros.ts';

let t: TestApp;
let operator: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  operator = await t.loginAs(await t.createUser({ role: 1 }));
});
afterAll(() => t.close());

const notesOf = (userId: number) =>
  rows<{ text: string; text_clear: string; icon: string; url: string | null }>(
    t.database.db,
    sql`select text, text_clear, icon, url from notifications where user_id = ${userId} order by id`,
  );
const mailsTo = (email: string) => t.smtp.mails.filter((m) => JSON.stringify(m.to).includes(email));
const saveEvent = (id: number, payload: Record<string, unknown>, headers = operator) =>
  t.inject({ method: 'PUT', url: `/api/dictionaries/dict_events/${id}`, headers, payload });

async function entryOf(userId: number, attrs: { price?: number; title?: string } = {}) {
  const s = await makeService(t.database.db, { price: attrs.price ?? 1500, title: attrs.title ?? 'Конференция «Цифровая школа»' });
  const [e] = await rows<{ id: number; number: string }>(
    t.database.db,
    sql`insert into entries (number, created_by, service_id, price, status) values ('2026-' || lpad((floor(random() * 99999))::text, 5, '0'), ${userId}, ${s.id}, ${attrs.price ?? 1500}, 1) returning id, number`,
  );
  return { ...e, serviceId: s.id };
}

describe('macros', () => {
  it('reports macros missing from the catalogue, escapes values in HTML and leaves no macro text where data is missing', async () => {
    expect(unknownEventMacros('Здравствуйте, ${user.fio}! ${user.nickname} {entry.number} ${foo}')).toEqual(['${user.nickname}', '${foo}']);
    expect(renderHtml('<p>${user.fio}</p>', { 'user.fio': '<b>Иван</b> & Co' })).toBe('<p>&lt;b&gt;Иван&lt;/b&gt; &amp; Co</p>');
    expect(renderText('Тема  ${user.fio}', { 'user.fio': 'А & Б' })).toBe('Тема А & Б');
    const u = await t.createUser({ first_name: 'Вера' });
    const values = await eventValues(t.database.db, { userId: u.id }, { 'app.url': 'https://lk.example.ru' });
    expect(renderHtml('${user.first_name}: ${contract.comment}|${app.url}', values)).toBe('Вера: |https://lk.example.ru');
  });
});

describe('events raised by the app', () => {
  it('registration (event 1) sends the welcome letter and notification after the commit, with macros filled', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/register',
      payload: {
        data: {
          type: 'token',
          attributes: {
            last_name: 'Смирнова',
            first_name: 'Анна',
            middle_name: 'Павловна',
            phone: '+7 (921) 111-22-33',
            email: 'anna.s@example.com',
            organization: 'Гимназия № 5',
            job_title: 'Методист',
            password: 'secret12',
            password_confirmation: 'secret12',
          },
        },
      },
    });
    expect(res.statusCode).toBe(201);
    const [u] = await rows<{ id: number }>(t.database.db, sql`select id from users where email = 'anna.s@example.com'`);
    // Nothing is sent from inside the request: the outbox row waits for the job.
    expect(mailsTo('anna.s@example.com')).toHaveLength(0);
    const [outbox] = await rows<{ event_id: number }>(t.database.db, sql`select event_id from event_outbox where user_id = ${u.id}`);
    expect(outbox.event_id).toBe(EventId.welcome);
    await t.app.jobs.runDue();
    const mail = await t.smtp.waitFor((m) => JSON.stringify(m.to).includes('anna.s@example.com'));
    expect(mail.subject).toBe('Добро пожаловать в личный кабинет!');
    expect(mail.html).toContain('Здравствуйте, Смирнова Анна Павловна!');
    expect(mail.text).toContain('anna.s@example.com');
    const notes = await notesOf(u.id);
    expect(notes).toHaveLength(1);
    expect(notes[0].text_clear).toBe('Добро пожаловать в личный кабинет, Анна! Выберите услугу в разделе «Услуги» или пакет услуг.');
    expect(notes[0].url).toBe('/user/service');
    // Delivering again changes nothing: one notification, one letter.
    await t.app.jobs.runDue();
    const [{ id: outboxId }] = await rows<{ id: number }>(t.database.db, sql`select id from event_outbox where user_id = ${u.id}`);
    const { deliverEvent } = await import('./event-delivery.ts');
    await deliverEvent(t.app, { outboxId });
    expect(await notesOf(u.id)).toHaveLength(1);
    expect(mailsTo('anna.s@example.com')).toHaveLength(1);
  });

  it("a free entry's letter asks for no payment", async () => {
    const u = await t.createUser({ last_name: 'Бесплатнова', first_name: 'Ольга', middle_name: null });
    const s = await makeService(t.database.db, { price: 0, title: 'Открытый вебинар' });
    const created = await t.inject({
      method: 'POST',
      url: '/api/entry',
      headers: await t.loginAs(u),
      payload: { service_id: s.id, pay_type: 3, is_extramural: 1 },
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.app.jobs.runDue();
    const mail = await t.smtp.waitFor((m) => JSON.stringify(m.to).includes(u.email) && String(m.subject).includes('принята'));
    expect(mail.text).toContain('Участие бесплатное, оплачивать ничего не нужно.');
    expect(mail.text).not.toMatch(/Оплатить|Стоимость участия/);
  });

  it('entry created and entry paid send their letters and notifications with the entry and service macros', async () => {
    const u = await t.createUser({ last_name: 'Орлов', first_name: 'Денис', middle_name: 'Ильич' });
    const headers = await t.loginAs(u);
    const s = await makeService(t.database.db, { price: 2500, title: 'Семинар «Функциональная грамотность»' });
    const created = await t.inject({ method: 'POST', url: '/api/entry', headers, payload: { service_id: s.id, pay_type: 3, is_extramural: 0 } });
    expect(created.statusCode).toBe(201);
    const entry = created.json().data as { id: number; number: string };
    await t.app.jobs.runDue();
    const createdMail = await t.smtp.waitFor((m) => JSON.stringify(m.to).includes(u.email) && String(m.subject).includes('принята'));
    expect(createdMail.subject).toBe(`Заявка № ${entry.number} принята`);
    expect(createdMail.html).toContain('«Семинар „Функциональная грамотность“»');
    expect(createdMail.html).not.toContain('««');
    expect(createdMail.text).toMatch(/Стоимость участия: 2\s500\s₽/);
    expect(createdMail.text).toContain('Оплатить заявку можно в разделе «Мои заявки».');

    const paid = await t.inject({ method: 'POST', url: `/api/entry/${entry.id}/pay`, headers: operator, payload: { pay_type: 2 } });
    expect(paid.statusCode).toBe(200);
    await t.app.jobs.runDue();
    const paidMail = await t.smtp.waitFor((m) => JSON.stringify(m.to).includes(u.email) && String(m.subject).includes('Оплата'));
    expect(paidMail.subject).toBe(`Оплата заявки № ${entry.number} получена`);
    expect(paidMail.html).toContain('Здравствуйте, Орлов Денис Ильич!');
    const notes = await notesOf(u.id);
    expect(notes.map((n) => n.text_clear)).toEqual([
      `Заявка № ${entry.number} на услугу «Семинар „Функциональная грамотность“» создана. Ожидает оплаты.`,
      `Заявка № ${entry.number} «Семинар „Функциональная грамотность“» оплачена.`,
    ]);
    expect(notes.map((n) => n.url)).toEqual([`/user/entry?number=${entry.number}`, `/user/entry?number=${entry.number}`]);
  });

  it('contract, publication and package events fill their own macros', async () => {
    const u = await t.createUser({ last_name: 'Лебедева', first_name: 'Мария', middle_name: 'Олеговна' });
    const e = await entryOf(u.id, { title: 'Курсы «Наставничество»' });
    const [c] = await rows<{ id: number }>(
      t.database.db,
      sql`insert into contracts (entry_id, user_id, service_id, status, comment) values (${e.id}, ${u.id}, ${e.serviceId}, 3, 'Нет подписи на второй странице') returning id`,
    );
    const [p] = await rows<{ id: number }>(
      t.database.db,
      sql`insert into publications (title, status, manager_comment, created_by, url) values ('Игровые технологии <на уроке>', 2, 'Добавьте список литературы', ${u.id}, 'https://journal.example.ru/p/1') returning id`,
    );
    await t.database.db.transaction(async (tx) => {
      await raiseEvent(tx, { eventId: EventId.contractApproved, userId: u.id, contractId: c.id });
      await raiseEvent(tx, { eventId: EventId.contractRejected, userId: u.id, contractId: c.id });
      await raiseEvent(tx, { eventId: EventId.publicationApproved, userId: u.id, publicationId: p.id });
      await raiseEvent(tx, { eventId: EventId.publicationRework, userId: u.id, publicationId: p.id });
      await raiseEvent(tx, { eventId: EventId.publicationPublished, userId: u.id, publicationId: p.id });
      await raiseEvent(tx, {
        eventId: EventId.packageExpired,
        userId: u.id,
        entryId: e.id,
        // As the expiry job gives them: a title with the kind and quotes of its own reads «Старт педагога», never «Пакет «…»».
        extra: {
          'package.title': 'Пакет «Старт педагога»',
          'package.name_quoted': quotedName('Пакет «Старт педагога»'),
          'package.entries': `№ ${e.number} «Курсы „Наставничество“»`,
        },
      });
    });
    await t.app.jobs.runDue();
    const subjects = mailsTo(u.email)
      .map((m) => m.subject)
      .sort();
    expect(subjects).toEqual(
      [
        `Договор по заявке № ${e.number} одобрен`,
        `Договор по заявке № ${e.number} отклонён`,
        'Публикация «Игровые технологии <на уроке>» одобрена',
        'Публикация «Игровые технологии <на уроке>» требует доработок',
        'Публикация «Игровые технологии <на уроке>» размещена на сайте',
        'Заявки пакета «Старт педагога» удалены',
      ].sort(),
    );
    const rejected = mailsTo(u.email).find((m) => String(m.subject).includes('отклонён'))!;
    expect(rejected.html).toContain('Причина: Нет подписи на второй странице');
    const published = mailsTo(u.email).find((m) => String(m.subject).includes('размещена'))!;
    expect(published.html).toContain('Игровые технологии &lt;на уроке&gt;');
    expect(published.html).toContain('href="https://journal.example.ru/p/1"');
    const notes = (await notesOf(u.id)).map((n) => n.text_clear);
    expect(notes).toContain(`Договор по заявке № ${e.number} («Курсы „Наставничество“») отклонён. Причина: Нет подписи на второй странице`);
    expect(notes).toContain('Публикация «Игровые технологии <на уроке>» требует доработок. Комментарий модератора: Добавьте список литературы');
    expect(notes).toContain(`Заявки пакета услуг «Старт педагога» (№ ${e.number} «Курсы „Наставничество“») удалены: пакет не был оплачен в течение 15 минут.`);
  });

  it('a rolled-back change raises nothing', async () => {
    const u = await t.createUser();
    await expect(
      t.database.db.transaction(async (tx) => {
        await raiseEvent(tx, { eventId: EventId.welcome, userId: u.id });
        throw new Error('change failed');
      }),
    ).rejects.toThrow('change failed');
    const [n] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from event_outbox where user_id = ${u.id}`);
    expect(n.n).toBe(0);
    const [j] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from jobs where name = 'deliver-event' and done_at is null`);
    expect(j.n).toBe(0);
  });

  it('with the mailing switch off, the notification comes and no letter', async () => {
    expect((await saveEvent(EventId.entryDone, { is_mailing: false })).statusCode).toBe(200);
    const u = await t.createUser();
    const e = await entryOf(u.id);
    await t.database.db.transaction((tx) => raiseEvent(tx, { eventId: EventId.entryDone, userId: u.id, entryId: e.id }));
    await t.app.jobs.runDue();
    expect((await notesOf(u.id)).map((n) => n.text_clear)).toEqual([`Заявка № ${e.number} на услугу «Конференция „Цифровая школа“» завершена.`]);
    await new Promise((r) => setTimeout(r, 200));
    expect(mailsTo(u.email)).toHaveLength(0);
    const [o] = await rows<{ mail_result: string }>(t.database.db, sql`select mail_result from event_outbox where user_id = ${u.id}`);
    expect(o.mail_result).toBe('off');
    expect((await saveEvent(EventId.entryDone, { is_mailing: true })).statusCode).toBe(200);
    // Flags take 0/1 as everywhere else, and refuse anything else in Russian.
    const mailingOn = async () =>
      (await rows<{ on: boolean }>(t.database.db, sql`select is_mailing as on from dict_events where id = ${EventId.entryDone}`))[0].on;
    expect((await saveEvent(EventId.entryDone, { is_mailing: 0 })).statusCode).toBe(200);
    expect(await mailingOn()).toBe(false);
    expect((await saveEvent(EventId.entryDone, { is_mailing: 1 })).statusCode).toBe(200);
    expect(await mailingOn()).toBe(true);
    const odd = await saveEvent(EventId.entryDone, { is_mailing: 'maybe' });
    expect(odd.statusCode).toBe(422);
    expect(odd.json().errors.is_mailing).toEqual(['Ожидается да или нет']);
  });

  it('the «entry done» letter names the service without declining its title, quotes nested once', async () => {
    const u = await t.createUser();
    const e = await entryOf(u.id);
    await t.database.db.transaction((tx) => raiseEvent(tx, { eventId: EventId.entryDone, userId: u.id, entryId: e.id }));
    await t.app.jobs.runDue();
    const mail = await t.smtp.waitFor((m) => JSON.stringify(m.to).includes(u.email));
    expect(mail.subject).toBe('Участие завершено: «Конференция „Цифровая школа“»');
    expect(mail.html).toContain('Благодарим за участие в мероприятии «Конференция „Цифровая школа“».');
  });

  it('a failed send is retried by the job without a second notification', async () => {
    const u = await t.createUser();
    const send = t.app.mailer.send;
    let calls = 0;
    t.app.mailer.send = async (m) => {
      calls++;
      if (calls === 1) throw new Error('421 try again later');
      return send(m);
    };
    try {
      await t.database.db.transaction((tx) => raiseEvent(tx, { eventId: EventId.welcome, userId: u.id }));
      await t.app.jobs.runDue();
      const [o] = await rows<{ mail_result: string | null; last_error: string }>(
        t.database.db,
        sql`select mail_result, last_error from event_outbox where user_id = ${u.id}`,
      );
      expect(o).toEqual({ mail_result: null, last_error: '421 try again later' });
      await t.database.db.execute(sql`update jobs set run_at = now() where name = 'deliver-event' and done_at is null`);
      await t.app.jobs.runDue();
      await t.smtp.waitFor((m) => JSON.stringify(m.to).includes(u.email));
      expect(await notesOf(u.id)).toHaveLength(1);
    } finally {
      t.app.mailer.send = send;
    }
  });
});

describe('the events screen (operators)', () => {
  it('refuses empty subject or body and unknown macros with field errors, and keeps the old template', async () => {
    const empty = await saveEvent(EventId.welcome, { dv: '', content: '<p></p>' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({ message: 'Заполните все обязательные поля!', errors: { dv: [EventMessages.required], content: [EventMessages.required] } });
    const unknown = await saveEvent(EventId.welcome, { dv: 'Привет, ${user.nick}', content: '<p>${user.fio} ${bonus.code}</p>' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ dv: ['Неизвестные макросы: ${user.nick}'], content: ['Неизвестные макросы: ${bonus.code}'] });
    const [ev] = await rows<{ dv: string }>(t.database.db, sql`select dv from dict_events where id = 1`);
    expect(ev.dv).toBe('Добро пожаловать в личный кабинет!');
  });

  it('a saved template is what the next letter says', async () => {
    const res = await saveEvent(EventId.welcome, { dv: 'Рады видеть вас, ${user.first_name}!', content: '<p>Ваша организация: ${user.organization}</p>' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Успешно сохранено!', data: { id: 1, dv: 'Рады видеть вас, ${user.first_name}!' } });
    const u = await t.createUser({ first_name: 'Глеб', organization: 'Лицей «Вектор»' });
    await t.database.db.transaction((tx) => raiseEvent(tx, { eventId: EventId.welcome, userId: u.id }));
    await t.app.jobs.runDue();
    const mail = await t.smtp.waitFor((m) => JSON.stringify(m.to).includes(u.email));
    expect(mail.subject).toBe('Рады видеть вас, Глеб!');
    expect(mail.html).toContain('Ваша организация: Лицей «Вектор»');
  });

  it('offers notification templates of type 5 and refuses others', async () => {
    const list = await t.inject({ method: 'GET', url: '/api/dictionaries/dict_events/notification-templates', headers: operator });
    expect(list.statusCode).toBe(200);
    const templates = list.json().data as Array<{ id: number; title: string }>;
    expect(templates.map((x) => x.title)).toContain('Добро пожаловать');
    const [cert] = await rows<{ id: number }>(
      t.database.db,
      sql`insert into templates (title, content, dict_type_id) values ('Сертификат', '', 1) returning id`,
    );
    const wrong = await saveEvent(EventId.welcome, { template_id: cert.id });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ template_id: [EventMessages.notNotificationTemplate] });
    const other = templates.find((x) => x.title === 'Заявка оплачена')!;
    expect((await saveEvent(EventId.welcome, { template_id: other.id })).json().data.template_id).toBe(other.id);
    const none = await saveEvent(EventId.welcome, { template_id: null });
    expect(none.json().data.template_id).toBeNull();
    const welcome = templates.find((x) => x.title === 'Добро пожаловать')!;
    expect((await saveEvent(EventId.welcome, { template_id: welcome.id })).statusCode).toBe(200);
  });

  it('only operators may change events; users do not see mail bodies', async () => {
    const u = await t.createUser();
    const headers = await t.loginAs(u);
    expect((await saveEvent(EventId.welcome, { is_mailing: false }, headers)).statusCode).toBe(403);
    expect((await saveEvent(EventId.welcome, { is_mailing: false }, {})).statusCode).toBe(401);
    expect((await t.inject({ method: 'GET', url: '/api/dictionaries/dict_events/notification-templates', headers })).statusCode).toBe(403);
    const list = (await t.inject({ method: 'GET', url: '/api/dictionaries/dict_events', headers })).json().data.data;
    expect(list[0]).not.toHaveProperty('content');
    expect((await saveEvent(999, { is_mailing: false })).statusCode).toBe(404);
  });

  it('seeds one event per moment, each with its notification template', async () => {
    const list = await rows<{ id: number; template_id: number | null }>(t.database.db, sql`select id, template_id from dict_events order by id`);
    expect(list.map((e) => e.id)).toEqual(expect.arrayContaining(Object.values(EventId)));
    for (const e of list) if (e.id !== EventId.passwordForgot) expect(e.template_id).not.toBeNull();
  });
});
