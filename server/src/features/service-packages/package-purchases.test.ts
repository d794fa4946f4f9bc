import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { EntryMessages } from '@edu/domain/entries/entry';
import { rows, type Database } from '../../platform/db.ts';
import { startYookassaWorld, until, type YookassaWorld } from '../../../test/yookassa-world.ts';
import { makeService } from '../../../test/fixtures.ts';
import { dictEvents, servicePackages, servicePackageServices } from '../../db/schema/index.ts';

// A package is bought, removed and paid as a whole (docs/decisions/009-package-purchases.md).
// The real YooKassa client talks to the YooKassa-like sandbox on 127.0.0.1.

let world: YookassaWorld;
let database: Database;
let app: FastifyInstance;
let smtp: YookassaWorld['smtp'];
let user: YookassaWorld['user'];
let confirmOnProvider: YookassaWorld['confirmOnProvider'];

beforeAll(async () => {
  world = await startYookassaWorld({ userTag: 'pkg' });
  ({ database, smtp, app, user, confirmOnProvider } = world);
  // The paid-entry letter is on, as the centre runs it.
  await database.db
    .update(dictEvents)
    .set({ is_mailing: true })
    .where(sql`id = 3`);
});
afterAll(async () => {
  await world.close();
});

type U = Awaited<ReturnType<typeof user>>;

/** The package: a 4 900 ₽ course and two cheaper services, sold together for 5 000 ₽. */
async function makePackage(title = 'Пакет «Молодой педагог»') {
  const course = await makeService(database.db, { title: 'Курс «Наставничество»', price: 4900, date_type: 2, begda: null, endda: null });
  const webinar = await makeService(database.db, { title: 'Вебинар «Урок»', price: 700 });
  const contest = await makeService(database.db, { title: 'Конкурс «Педагог года»', price: 600 });
  const [p] = await database.db.insert(servicePackages).values({ title, price: 5000 }).returning();
  await database.db
    .insert(servicePackageServices)
    .values([course, webinar, contest].map((s, position) => ({ service_package_id: p.id, service_id: s.id, position })));
  return { id: p.id, course, webinar, contest };
}
type Pkg = Awaited<ReturnType<typeof makePackage>>;

async function enrol(u: U, p: Pkg) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/service-package/${p.id}/enroll`,
    headers: u.headers,
    payload: { services: { [p.course.id]: null, [p.webinar.id]: null, [p.contest.id]: null } },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.entries as Array<{ id: number; number: string; price: number; service_id: number }>;
}

// An operator names the offline pay type (Банк); a user's payment goes to the provider.
const pay = (u: U, id: number) => app.inject({ method: 'POST', url: `/api/entry/${id}/pay`, headers: u.headers, payload: { pay_type: 1 } });
const remove = (u: U, id: number) => app.inject({ method: 'DELETE', url: `/api/entry/${id}`, headers: u.headers });
const liveOf = async (userId: number) =>
  rows<{ id: number; price: string; status: number }>(
    database.db,
    sql`select id, price, status from entries where created_by = ${userId} and deleted_at is null order by id`,
  );

describe('a package is bought, removed and paid as a whole', () => {
  it('a whole unpaid package says when its reservation ends (bought + 15 minutes, when the expiry job runs); a broken one does not', async () => {
    const u = await user();
    const p = await makePackage('Пакет «Бронь»');
    const before = Date.now();
    const [course] = await enrol(u, p);
    const read = async () => (await app.inject({ method: 'GET', url: `/api/entry/${course.id}`, headers: u.headers })).json().data.package_enrollment;
    const until = Date.parse((await read()).reserved_until);
    expect(until).toBeGreaterThanOrEqual(before + 15 * 60_000 - 2000);
    expect(until).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 2000);
    await database.db.execute(sql`update package_enrollments set broken_at = now() where id = ${(await read()).id}`);
    expect((await read()).reserved_until).toBeNull();
  });

  it('removing one entry of an unpaid package removes the package: the course cannot be bought at its package share', async () => {
    const u = await user();
    const p = await makePackage();
    const [course, webinar, contest] = await enrol(u, p);
    expect(course.price + webinar.price + contest.price).toBe(5000);
    // The attack of issue 8: remove the cheap entries, pay the course's share.
    const res = await remove(u, webinar.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(EntryMessages.packageRemoved);
    expect(res.json().data.removed.sort()).toEqual([course.id, webinar.id, contest.id].sort());
    expect(await liveOf(u.id)).toEqual([]);
    expect((await remove(u, contest.id)).statusCode).toBe(200);
    expect((await pay(u, course.id)).statusCode).toBe(404);
  });

  it('paying any entry of the package pays the whole package price: one provider payment, one payment row, one letter, one notification', async () => {
    const u = await user();
    const p = await makePackage('Пакет «Летняя школа»');
    const entries = await enrol(u, p);
    // The cabinet knows the package is bought: it offers the entries, not «Записаться» again.
    const purchaseOf = async () => (await app.inject({ method: 'GET', url: `/api/service-package/${p.id}`, headers: u.headers })).json().data.purchase;
    expect(await purchaseOf()).toEqual({ enrollment_id: expect.any(Number), paid: false, entry_numbers: entries.map((e) => e.number).sort() });
    const stranger = await user();
    expect((await app.inject({ method: 'GET', url: `/api/service-package/${p.id}`, headers: stranger.headers })).json().data.purchase).toBeNull();
    // Letters and notifications are delivered by the event jobs after the commit.
    await app.jobs.runDue();
    const notesBefore = (await rows<{ n: number }>(database.db, sql`select count(*)::int as n from notifications where user_id = ${u.id}`))[0].n;
    expect(notesBefore).toBe(1);
    const res = await pay(u, entries[2].id);
    expect(res.statusCode).toBe(200);
    const uuid = res.json().id as string;
    const [ct] = await rows<{ sum: string; entry_ids: number[] }>(database.db, sql`select sum, entry_ids from card_transactions where uuid = ${uuid}`);
    expect(Number(ct.sum)).toBe(5000);
    expect(ct.entry_ids.sort()).toEqual(entries.map((e) => e.id).sort());

    await confirmOnProvider(uuid);
    await until(async () => (await liveOf(u.id)).every((e) => e.status === 2));
    const pays = await rows<{ sum: string; n: number }>(
      database.db,
      sql`select p.sum, (select count(*)::int from payment_entries pe where pe.payment_id = p.id) as n from payments p where p.user_id = ${u.id}`,
    );
    expect(pays).toEqual([{ sum: '5000.00', n: 3 }]);
    expect((await purchaseOf()).paid).toBe(true);

    await app.jobs.runDue();
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes(u.email) && String(m.subject).includes('Оплата'));
    const paidMails = () => smtp.mails.filter((m) => JSON.stringify(m.to).includes(u.email) && String(m.subject).includes('Оплата'));
    await new Promise((r) => setTimeout(r, 300));
    expect(paidMails()).toHaveLength(1);
    const body = String(mail.html || mail.text);
    for (const e of entries) expect(body).toContain(e.number);
    expect(body).toContain('Летняя школа');
    // Titles quoted once: never «Пакет «…»» inside «…».
    expect(body).not.toMatch(/««|»»|Пакет «Летняя/);
    expect(body).not.toContain('{service.interval}');
    expect(body).toContain('постоянно');

    const notes = await rows<{ text_clear: string; url: string }>(
      database.db,
      sql`select text_clear, url from notifications where user_id = ${u.id} order by id`,
    );
    expect(notes).toHaveLength(2);
    expect(notes[1].text_clear).toContain('Пакет услуг «Летняя школа» оплачен');
    expect(notes[1].url).toBe(`/user/entry?number=${entries[0].number}`);

    // The Payments tab names the package.
    const mine = (await app.inject({ method: 'GET', url: '/api/payment', headers: u.headers })).json();
    expect(mine.data[0]).toMatchObject({ sum: 5000, is_package: true, package_title: 'Пакет «Летняя школа»' });
  });

  it('a payment the provider cancels leaves the package unpaid; its letter and notification say until when it stays reserved', async () => {
    const u = await user();
    const p = await makePackage('Пакет «Отказ банка»');
    const entries = await enrol(u, p);
    const reservedUntil = (await app.inject({ method: 'GET', url: `/api/entry/${entries[0].id}`, headers: u.headers })).json().data.package_enrollment
      .reserved_until as string;
    const hhmm = new Intl.DateTimeFormat('ru-RU', { timeZone: 'Europe/Moscow', hour: '2-digit', minute: '2-digit' }).format(new Date(reservedUntil));
    const uuid = (await pay(u, entries[0].id)).json().id as string;
    await confirmOnProvider(uuid, 'cancel');
    await until(
      async () => (await rows<{ status: string }>(database.db, sql`select status from card_transactions where uuid = ${uuid}`))[0].status === 'canceled',
    );
    expect((await liveOf(u.id)).map((e) => e.status)).toEqual([1, 1, 1]);
    await app.jobs.runDue();
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes(u.email) && String(m.subject).includes('не прошла'));
    expect(mail.subject).toBe('Оплата не прошла: 5 000 ₽');
    const body = String(mail.html || mail.text).replace(/\u00a0/g, ' ');
    expect(body).toContain('Оплата пакета услуг «Отказ банка»');
    expect(body).toContain('платёж не был подтверждён вовремя');
    expect(body).toContain('Деньги не списаны');
    expect(body).toContain(`Пакет забронирован за вами до ${hhmm} по московскому времени`);
    for (const e of entries) expect(body).toContain(e.number);
    const [note] = await rows<{ text_clear: string; url: string }>(
      database.db,
      sql`select text_clear, url from notifications where user_id = ${u.id} order by id desc limit 1`,
    );
    expect(note.text_clear).toContain(`до ${hhmm}`);
    expect(note.url).toBe(`/user/entry?number=${entries[0].number}`);

    // Paid by a second attempt, a late cancel of another attempt says nothing.
    const again = (await pay(u, entries[1].id)).json().id as string;
    expect(again).not.toBe(uuid);
    await confirmOnProvider(again);
    await until(async () => (await liveOf(u.id)).every((e) => e.status === 2));
    await app.jobs.runDue();
    const canceledLetters = () => smtp.mails.filter((m) => JSON.stringify(m.to).includes(u.email) && String(m.subject).includes('не прошла'));
    expect(canceledLetters()).toHaveLength(1);
  });

  it('a paid package cannot be removed by the client', async () => {
    const u = await user();
    const op = await user(1);
    const p = await makePackage();
    const entries = await enrol(u, p);
    expect((await pay(op, entries[0].id)).json()).toMatchObject({ immediate: true, status: 2 });
    expect((await liveOf(u.id)).map((e) => e.status)).toEqual([2, 2, 2]);
    const pays = await rows<{ sum: string }>(database.db, sql`select sum from payments where user_id = ${u.id}`);
    expect(pays).toEqual([{ sum: '5000.00' }]);
    const res = await remove(u, entries[1].id);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(EntryMessages.paidNoDelete);
  });

  it('broken by an operator, the remaining entries go back to their list prices', async () => {
    const u = await user();
    const op = await user(1);
    const p = await makePackage();
    const [course, webinar, contest] = await enrol(u, p);
    expect((await remove(op, webinar.id)).statusCode).toBe(200);
    const live = await liveOf(u.id);
    expect(live.map((e) => [e.id, Number(e.price)])).toEqual([
      [course.id, 4900],
      [contest.id, 600],
    ]);
    const entry = (await app.inject({ method: 'GET', url: `/api/entry/${course.id}`, headers: u.headers })).json().data;
    expect(entry.package_enrollment).toMatchObject({ broken: true });
    // Paid alone now, at the list price.
    const res = await pay(u, course.id);
    const [ct] = await rows<{ sum: string; entry_ids: number[] }>(database.db, sql`select sum, entry_ids from card_transactions where uuid = ${res.json().id}`);
    expect([Number(ct.sum), ct.entry_ids]).toEqual([4900, [course.id]]);
    const me = (await app.inject({ method: 'GET', url: '/api/get', headers: u.headers })).json();
    expect(me.left_sum).toBe(5500);
  });

  it('enrolling in a package holding a service already applied to is refused before any payment, and the package says so', async () => {
    const u = await user();
    const p = await makePackage();
    const own = await app.inject({
      method: 'POST',
      url: '/api/entry',
      headers: u.headers,
      payload: { service_id: p.webinar.id, pay_type: 3, is_extramural: 0 },
    });
    expect(own.statusCode).toBe(201);
    const list = (await app.inject({ method: 'GET', url: `/api/service-package/${p.id}`, headers: u.headers })).json().data;
    expect(list.applied).toEqual([{ service_id: p.webinar.id, entry_id: own.json().data.id, entry_number: own.json().data.number }]);
    const res = await app.inject({
      method: 'POST',
      url: `/api/service-package/${p.id}/enroll`,
      headers: u.headers,
      payload: { services: { [p.course.id]: null, [p.webinar.id]: null, [p.contest.id]: null } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.services[0]).toContain(own.json().data.number);
    expect(res.json().errors.services[0]).toContain('Вебинар «Урок»');
    expect((await liveOf(u.id)).map((e) => e.id)).toEqual([own.json().data.id]);
    // Another user sees nothing of this.
    const other = await user();
    expect((await app.inject({ method: 'GET', url: `/api/service-package/${p.id}`, headers: other.headers })).json().data.applied).toEqual([]);
  });

  it('two parallel enrolments in one package make one purchase', async () => {
    const u = await user();
    const p = await makePackage();
    const body = { services: { [p.course.id]: null, [p.webinar.id]: null, [p.contest.id]: null } };
    const codes = (
      await Promise.all([1, 2].map(() => app.inject({ method: 'POST', url: `/api/service-package/${p.id}/enroll`, headers: u.headers, payload: body })))
    )
      .map((r) => r.statusCode)
      .sort();
    expect(codes).toEqual([201, 422]);
    expect(await liveOf(u.id)).toHaveLength(3);
  });
});

describe('the public /pay return page', () => {
  it('learns the real status of its payment: cancelled is not thanked for', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/yookassa-entry/pay', payload: { fio: 'Сидоров Иван', phone: '+7 (921) 111-22-33', sum: 700 } });
    expect(res.statusCode).toBe(200);
    const uuid = res.json().id as string;
    const [ct] = await rows<{ id: number }>(database.db, sql`select id from card_transactions where uuid = ${uuid}`);
    const ask = () => app.inject({ method: 'POST', url: `/api/yookassa-entry/${ct.id}/refresh` });
    expect((await ask()).json().data.status).toBe('pending');
    await confirmOnProvider(uuid, 'cancel');
    await until(async () => (await ask()).json().data.status === 'canceled');
    // Only payments of the public form, and nothing but the status.
    const u = await user();
    const p = await makePackage();
    const entries = await enrol(u, p);
    await pay(u, entries[0].id);
    const [own] = await rows<{ id: number }>(database.db, sql`select id from card_transactions where user_id = ${u.id}`);
    expect((await app.inject({ method: 'POST', url: `/api/yookassa-entry/${own.id}/refresh` })).statusCode).toBe(404);
    expect(Object.keys((await ask()).json().data)).toEqual(['status']);
  });

  it('sandbox payments have no link to the real provider', async () => {
    const op = await user(1);
    const u = await user();
    const p = await makePackage();
    const entries = await enrol(u, p);
    const { id: uuid } = (await pay(u, entries[0].id)).json();
    await confirmOnProvider(uuid);
    await until(async () => (await liveOf(u.id)).every((e) => e.status === 2));
    const list = async () => (await app.inject({ method: 'GET', url: `/api/payment?uuid=${uuid}`, headers: op.headers })).json().data[0];
    expect((await list()).provider_url).toContain('yookassa.ru');
    await database.db.execute(sql`update card_transactions set provider = 'sandbox' where uuid = ${uuid}`);
    expect((await list()).provider_url).toBeNull();
  });
});
