import { Messages } from '@edu/domain/common/messages';
import { formatRub } from '@edu/domain/common/format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { EntryMessages } from '@edu/domain/entries/entry';
import { EntryAdminMessages, GUESTS_PAGE } from '@edu/domain/entries/entry-admin';
import { changeLogs, entries } from '../../db/schema/index.ts';
import { rows } from '../../platform/db.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';

let t: TestApp;
let operator: Record<string, string>;
let user: Record<string, string>;
let userId: number;

beforeAll(async () => {
  t = await createTestApp();
  operator = await t.loginAs(await t.createUser({ role: 1, last_name: 'Операторова', first_name: 'Ольга', middle_name: null }));
  const u = await t.createUser();
  userId = u.id;
  user = await t.loginAs(u);
});
afterAll(() => t.close());

async function newEntry(attrs: { sections?: string[]; dict_type_id?: number; max_participants?: number } = {}) {
  const service = await makeService(t.database.db, { price: 1000, ...attrs });
  const res = await t.inject({
    method: 'POST',
    url: '/api/entry',
    headers: user,
    payload: { service_id: service.id, section_id: service.sectionIds[0] ?? null, pay_type: 1 },
  });
  expect(res.statusCode).toBe(201);
  return { service, id: res.json().data.id as number };
}
const put = (id: number, payload: object, headers = operator) => t.inject({ method: 'PUT', url: `/api/entry/${id}`, headers, payload });
const get = async (id: number) => (await t.inject({ method: 'GET', url: `/api/entry/${id}`, headers: operator })).json().data;

describe('editing an entry as an operator', () => {
  it('changes price, pay type, certificate number, section and participation; says when the pay type changed', async () => {
    const { service, id } = await newEntry({ sections: ['А', 'Б'] });
    const price = await put(id, { price: 750.5 });
    expect(price.statusCode).toBe(200);
    expect(price.json().message).toBe(EntryAdminMessages.saved);
    expect(price.json().data.price).toBe(750.5);

    const pay = await put(id, { pay_type: 4 });
    expect(pay.json().message).toBe('Тип оплаты успешно изменён!');
    expect(pay.json().data.pay_type).toBe(4);

    const cert = await put(id, { certificate_number: '1234 5678 9012', section_id: service.sectionIds[1], is_extramural: 1 });
    expect(cert.statusCode).toBe(200);
    expect(cert.json().data).toMatchObject({ certificate_number: '123456789012', section_id: service.sectionIds[1], is_extramural: 1 });
    const short = await put(id, { certificate_number: '12345' });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toEqual({ certificate_number: [EntryAdminMessages.certificateNumber] });
    expect((await put(id, { certificate_number: '' })).json().data.certificate_number).toBeNull();
    expect((await put(id, { price: -1 })).statusCode).toBe(422);
  });

  it('ignores a price or certificate number sent by the client', async () => {
    const { id } = await newEntry();
    const res = await put(id, { price: 1, certificate_number: '123456789012', pay_type: 2 }, user);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ price: 1000, certificate_number: null, pay_type: 2 });
  });
});

describe('paying, completing, deleting and restoring', () => {
  it('completes only a paid entry, once, through the status rule; users may not', async () => {
    const { id } = await newEntry();
    const early = await t.inject({ method: 'POST', url: `/api/entry/${id}/complete`, headers: operator });
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe(EntryAdminMessages.notPaidYet);
    expect((await t.inject({ method: 'POST', url: `/api/entry/${id}/complete`, headers: user })).statusCode).toBe(403);

    await put(id, { pay_type: 2 });
    const paid = await t.inject({ method: 'POST', url: `/api/entry/${id}/pay`, headers: operator, payload: { immediate: true, pay_type: 2 } });
    expect(paid.statusCode).toBe(200);
    expect((await get(id)).pay_type).toBe(2);
    const done = await t.inject({ method: 'POST', url: `/api/entry/${id}/complete`, headers: operator });
    expect(done.statusCode).toBe(200);
    expect(done.json().data.status).toBe(3);
    const again = await t.inject({ method: 'POST', url: `/api/entry/${id}/complete`, headers: operator });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(EntryAdminMessages.alreadyDone);
  });

  it('completes once when two operators press at the same time', async () => {
    const { id } = await newEntry();
    await t.inject({ method: 'POST', url: `/api/entry/${id}/pay`, headers: operator, payload: { pay_type: 1 } });
    const both = await Promise.all([0, 1].map(() => t.inject({ method: 'POST', url: `/api/entry/${id}/complete`, headers: operator })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    const [{ n }] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from change_logs where type = 'entry' and entity_id = ${id} and diff->'status'->>'new' = '3'`,
    );
    expect(n).toBe(1);
  });

  it('restores a deleted entry, unless the client has applied again meanwhile', async () => {
    const { service, id } = await newEntry();
    expect((await t.inject({ method: 'DELETE', url: `/api/entry/${id}`, headers: operator })).statusCode).toBe(200);
    const deleted = (await t.inject({ method: 'GET', url: `/api/entry?deleted=1&service_id=${service.id}`, headers: operator })).json().data;
    expect(deleted.map((e: { id: number }) => e.id)).toEqual([id]);
    const restored = await t.inject({ method: 'POST', url: `/api/entry/${id}/restore`, headers: operator });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data.deleted_at).toBeNull();
    expect(restored.json().message).toBe(EntryAdminMessages.restored);

    await t.inject({ method: 'DELETE', url: `/api/entry/${id}`, headers: operator });
    const second = await t.inject({ method: 'POST', url: '/api/entry', headers: user, payload: { service_id: service.id, pay_type: 1 } });
    expect(second.statusCode).toBe(201);
    const refused = await t.inject({ method: 'POST', url: `/api/entry/${id}/restore`, headers: operator });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(EntryMessages.alreadyApplied);
    expect((await get(id)).deleted_at).not.toBeNull();
  });

  it("keeps the entry's history: who changed which fields, newest first, 'Система' for changes by nobody", async () => {
    const { id } = await newEntry();
    await put(id, { price: 900 });
    await t.database.db.insert(changeLogs).values({ type: 'entry', entity_id: id, user_id: null, diff: { status: { old: 1, new: 2 } } });
    const res = await t.inject({ method: 'GET', url: `/api/entry/${id}/history`, headers: operator });
    expect(res.statusCode).toBe(200);
    const list = res.json().data;
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({ user: 'Система', diff: { status: { old: 1, new: 2 } } });
    expect(list[1]).toMatchObject({ user: 'Операторова Ольга', diff: { price: { old: 1000, new: 900 } } });
    expect(list[1].diff.id).toBeUndefined();
    expect(list[2].user).toBe('Петров Пётр Петрович');
    expect(list[1].created_at).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
    // In Russian: labels, code names, rubles.
    expect(list[0].changes).toEqual([{ field: 'status', label: 'Статус', old: 'Не оплачена', new: 'Оплачена' }]);
    expect(list[1].changes).toEqual([{ field: 'price', label: 'Цена', old: formatRub(1000), new: formatRub(900) }]);
    const created = list[2].changes.map((c: { label: string; new: string }) => `${c.label}: ${c.new}`);
    expect(created).toContain('Клиент: Петров Пётр Петрович');
    expect(created.join('\n')).not.toMatch(/_id|created_by|true|false/);
    expect((await t.inject({ method: 'GET', url: `/api/entry/${id}/history`, headers: user })).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: '/api/entry/999999/history', headers: operator })).statusCode).toBe(404);
  });

  it('lets operators change theses after payment', async () => {
    const { id } = await newEntry();
    await t.database.db.execute(sql`update services set is_thesis_needed = true where id = (select service_id from entries where id = ${id})`);
    const text = 'Т'.repeat(1600);
    expect((await t.inject({ method: 'POST', url: '/api/entry-thesis', headers: user, payload: { entry_id: id, text } })).statusCode).toBe(200);
    await t.inject({ method: 'POST', url: `/api/entry/${id}/pay`, headers: operator, payload: { pay_type: 1 } });
    expect((await t.inject({ method: 'POST', url: '/api/entry-thesis', headers: user, payload: { entry_id: id, text: text + 'a' } })).statusCode).toBe(422);
    const byOperator = await t.inject({ method: 'POST', url: '/api/entry-thesis', headers: operator, payload: { entry_id: id, text: text + 'b' } });
    expect(byOperator.statusCode).toBe(200);
    expect((await get(id)).thesis.text).toBe(text + 'b');
  });
});

describe('competition member', () => {
  it('is kept for contest entries only, every field required, and shown in the entry', async () => {
    const other = await newEntry();
    const refused = await t.inject({
      method: 'POST',
      url: '/api/competition-member',
      headers: operator,
      payload: { entry_id: other.id, fio: 'Иванов Иван', title: 'Работа', comment: 'Комментарий' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(EntryAdminMessages.memberNotContest);

    const { id } = await newEntry({ dict_type_id: 11 });
    const empty = await t.inject({
      method: 'POST',
      url: '/api/competition-member',
      headers: operator,
      payload: { entry_id: id, fio: ' ', title: '', comment: '' },
    });
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().errors).sort()).toEqual(['comment', 'fio', 'title']);

    const saved = await t.inject({
      method: 'POST',
      url: '/api/competition-member',
      headers: operator,
      payload: { entry_id: id, fio: 'Сидорова Анна', title: 'Урок будущего', comment: 'Ученица 7 класса' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().message).toBe('Данные сохранены!');
    expect(saved.json().data.competition_member).toEqual({ entry_id: id, fio: 'Сидорова Анна', title: 'Урок будущего', comment: 'Ученица 7 класса' });
    await t.inject({
      method: 'POST',
      url: '/api/competition-member',
      headers: operator,
      payload: { entry_id: id, fio: 'Сидорова Анна', title: 'Урок будущего 2', comment: 'Ученица 7 класса' },
    });
    expect((await get(id)).competition_member.title).toBe('Урок будущего 2');
    // Users never see or write it.
    expect((await t.inject({ method: 'GET', url: `/api/entry/${id}`, headers: user })).json().data.competition_member).toBeNull();
    expect(
      (await t.inject({ method: 'POST', url: '/api/competition-member', headers: user, payload: { entry_id: id, fio: 'a', title: 'b', comment: 'c' } }))
        .statusCode,
    ).toBe(403);
  });
});

describe('guests', () => {
  it('lists guests not yet in the service, 50 per load, by name', async () => {
    const service = await makeService(t.database.db, { sections: ['Пленарная', 'Секция 2'] });
    for (let i = 0; i < GUESTS_PAGE + 2; i++) await t.createUser({ role: 3, last_name: `Гостев${String(i).padStart(2, '0')}`, is_spb: i % 2 });
    const first = (await t.inject({ method: 'GET', url: `/api/guest?service_id=${service.id}`, headers: operator })).json();
    expect(first.data).toHaveLength(GUESTS_PAGE);
    expect(first.meta.total).toBeGreaterThanOrEqual(GUESTS_PAGE + 2);
    expect(first.data[0]).toMatchObject({ fio: expect.any(String), organization: 'Школа № 1', job_title: 'Учитель' });
    const byName = (
      await t.inject({ method: 'GET', url: `/api/guest?service_id=${service.id}&fio=${encodeURIComponent('гостев07')}`, headers: operator })
    ).json();
    expect(byName.data.map((g: { fio: string }) => g.fio)).toEqual(['Гостев07 Пётр Петрович']);
    const spb = (
      await t.inject({ method: 'GET', url: `/api/guest?service_id=${service.id}&is_spb=1&fio=${encodeURIComponent('Гостев')}`, headers: operator })
    ).json();
    expect(spb.data.every((g: { is_spb: number }) => g.is_spb === 1)).toBe(true);
    // A flag like every other (issue 19).
    const spbTrue = await t.inject({
      method: 'GET',
      url: `/api/guest?service_id=${service.id}&is_spb=true&fio=${encodeURIComponent('Гостев')}`,
      headers: operator,
    });
    expect(spbTrue.json().meta.total).toBe(spb.meta.total);
    // Regular users are never in the guest list.
    expect(first.data.some((g: { id: number }) => g.id === userId)).toBe(false);
  });

  it('without a chosen section a guest goes to the section with the fewest participants (spec 02 §4)', async () => {
    const service = await makeService(t.database.db, { sections: ['Пленарная', 'Секция 2', 'Секция 3'] });
    // Пленарная has one participant; Секция 2 and 3 none: the first of the emptiest is taken, then the next.
    await t.inject({ method: 'POST', url: '/api/entry', headers: user, payload: { service_id: service.id, section_id: service.sectionIds[0], pay_type: 1 } });
    const sectionOf = async (lastName: string) => {
      const guest = await t.createUser({ role: 3, last_name: lastName });
      const res = await t.inject({ method: 'POST', url: '/api/entry/guest', headers: operator, payload: { service_id: service.id, user_id: guest.id } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.section_id as number;
    };
    expect(await sectionOf('Первогостев')).toBe(service.sectionIds[1]);
    expect(await sectionOf('Второгостев')).toBe(service.sectionIds[2]);
    // A new guest made with the service and no section is placed the same way, and told so.
    const made = await t.inject({ method: 'POST', url: '/api/guest', headers: operator, payload: { fio: 'Третьегостев Иван', service_id: service.id } });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data.entry.section_id).toBe(service.sectionIds[0]);
    expect(made.json().message).toBe(EntryAdminMessages.guestCreated);
    // A guest made without a service has no entry: the answer does not say they were added.
    const alone = await t.inject({ method: 'POST', url: '/api/guest', headers: operator, payload: { fio: 'Одинокий Гость' } });
    expect(alone.statusCode).toBe(201);
    expect(alone.json()).toMatchObject({ data: { entry: null }, message: EntryAdminMessages.guestCreatedOnly });
    expect(alone.json().message).not.toContain('добавлен');
  });

  it('adds a guest as a done, free entry with the online pay type, in the section the operator chose', async () => {
    const service = await makeService(t.database.db, { sections: ['Пленарная', 'Секция 2'] });
    await t.inject({ method: 'POST', url: '/api/entry', headers: user, payload: { service_id: service.id, section_id: service.sectionIds[0], pay_type: 1 } });
    const guest = await t.createUser({ role: 3, last_name: 'Гостья' });
    const other = await makeService(t.database.db, { sections: ['Чужая'] });
    const foreign = await t.inject({
      method: 'POST',
      url: '/api/entry/guest',
      headers: operator,
      payload: { service_id: service.id, user_id: guest.id, section_id: other.sectionIds[0] },
    });
    expect(foreign.json().errors).toEqual({ section_id: [EntryMessages.sectionNotOfService] });
    const res = await t.inject({
      method: 'POST',
      url: '/api/entry/guest',
      headers: operator,
      payload: { service_id: service.id, user_id: guest.id, section_id: service.sectionIds[1] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(EntryAdminMessages.guestAdded);
    expect(res.json().data).toMatchObject({ status: 3, pay_type: 3, price: 0, section_id: service.sectionIds[1], created_by: guest.id });
    const [row] = await rows<{ author_id: number | null }>(t.database.db, sql`select author_id from entries where id = ${res.json().data.id}`);
    expect(row.author_id).not.toBeNull();
    // Gone from the guest list of that service; a second add is refused.
    const list = (await t.inject({ method: 'GET', url: `/api/guest?service_id=${service.id}&fio=${encodeURIComponent('Гостья')}`, headers: operator })).json();
    expect(list.data).toHaveLength(0);
    const twice = await t.inject({
      method: 'POST',
      url: '/api/entry/guest',
      headers: operator,
      payload: { service_id: service.id, user_id: guest.id, section_id: service.sectionIds[0] },
    });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().message).toBe(EntryAdminMessages.guestAlready);
    const notGuest = await t.inject({
      method: 'POST',
      url: '/api/entry/guest',
      headers: operator,
      payload: { service_id: service.id, user_id: userId, section_id: service.sectionIds[0] },
    });
    expect(notGuest.statusCode).toBe(422);
    expect(notGuest.json().errors).toEqual({ user_id: [EntryAdminMessages.guestOnly] });
  });

  it('creates a new guest and adds them in one go, or neither when the service is full', async () => {
    const service = await makeService(t.database.db, {});
    const res = await t.inject({
      method: 'POST',
      url: '/api/guest',
      headers: operator,
      payload: { fio: 'Новикова Дарья Сергеевна', organization: 'Гимназия № 5', job_title: 'Директор', service_id: service.id },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.entry).toMatchObject({ status: 3, user: { fio: 'Новикова Дарья Сергеевна' } });
    const [g] = await rows<{ role: number; password: string | null; email: string }>(
      t.database.db,
      sql`select role, password, email from users where id = ${res.json().data.id}`,
    );
    expect(g.role).toBe(3);
    expect(g.password).toBeNull();
    expect(g.email).toMatch(/@guests\.invalid$/);

    const full = await makeService(t.database.db, { max_participants: 1 });
    await t.database.db.insert(entries).values({ number: `F-${full.id}`, created_by: userId, service_id: full.id });
    const refused = await t.inject({ method: 'POST', url: '/api/guest', headers: operator, payload: { fio: 'Лишний Гость', service_id: full.id } });
    expect(refused.statusCode).toBe(422);
    const [{ n }] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from users where last_name = 'Лишний'`);
    expect(n).toBe(0);
    expect((await t.inject({ method: 'POST', url: '/api/guest', headers: operator, payload: { fio: '' } })).statusCode).toBe(422);
    // A service with sections: a section of another service is refused, and then no guest is made.
    const sectioned = await makeService(t.database.db, { sections: ['Утро', 'Вечер'] });
    const stranger = await makeService(t.database.db, { sections: ['Чужая'] });
    const missectioned = await t.inject({
      method: 'POST',
      url: '/api/guest',
      headers: operator,
      payload: { fio: 'Безсекционный Гость', service_id: sectioned.id, section_id: stranger.sectionIds[0] },
    });
    expect(missectioned.json().errors).toEqual({ section_id: [EntryMessages.sectionNotOfService] });
    expect((await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from users where last_name = 'Безсекционный'`))[0].n).toBe(0);
    const placed = await t.inject({
      method: 'POST',
      url: '/api/guest',
      headers: operator,
      payload: { fio: 'Вечерний Гость', service_id: sectioned.id, section_id: sectioned.sectionIds[1] },
    });
    expect(placed.statusCode).toBe(201);
    expect(placed.json().data.entry).toMatchObject({ section_id: sectioned.sectionIds[1] });
  });
});

describe('the entries export (issue 22)', () => {
  it('streams exactly the filtered entries to .xlsx with a totals row; operators only', async () => {
    const service = await makeService(t.database.db, { title: `Экспортный семинар ${Date.now()}`, price: 1200 });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const u = await t.createUser({ last_name: `Экспортова${i}` });
      const res = await t.inject({ method: 'POST', url: '/api/entry', headers: await t.loginAs(u), payload: { service_id: service.id, pay_type: 1 } });
      ids.push(res.json().data.id);
    }
    await t.inject({ method: 'POST', url: `/api/entry/${ids[0]}/pay`, headers: operator, payload: { immediate: true, pay_type: 2 } });
    const xlsx = await t.inject({ method: 'GET', url: `/api/entry/excel?service_id=${service.id}`, headers: operator });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toContain("filename*=UTF-8''%D0%97%D0%B0%D1%8F%D0%B2%D0%BA%D0%B8");
    const ExcelJS = (await import('exceljs')).default;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Заявки')!;
    expect(sheet.rowCount).toBe(5);
    const fios = [2, 3, 4].map((r) => sheet.getRow(r).getCell(4).value);
    expect(fios).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Экспортова0/), expect.stringMatching(/^Экспортова1/), expect.stringMatching(/^Экспортова2/)]),
    );
    expect(sheet.getRow(5).getCell(2).value).toBe('Итого');
    expect(sheet.getRow(5).getCell(3).value).toBe('Заявок: 3');
    expect(sheet.getRow(5).getCell(9).value).toBe('Оплачено: 1\u00a0200\u00a0₽');
    expect(sheet.getRow(5).getCell(11).value).toBe(3600);
    // Typed cells: the date is a date, the price a number with two decimals.
    expect(sheet.getRow(2).getCell(3).value).toBeInstanceOf(Date);
    expect(sheet.getRow(2).getCell(3).numFmt).toBe('dd.mm.yyyy hh:mm');
    expect(sheet.getRow(2).getCell(11).value).toBe(1200);
    expect(sheet.getRow(2).getCell(11).numFmt).toBe('#,##0.00');
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getRow(5).getCell(11).font?.bold).toBe(true);
    // The list's other filters apply too: only the unpaid ones.
    const unpaid = await t.inject({ method: 'GET', url: `/api/entry/excel?service_id=${service.id}&status=1`, headers: operator });
    const again = new ExcelJS.Workbook();
    await again.xlsx.load(unpaid.rawPayload as unknown as ArrayBuffer);
    expect(again.getWorksheet('Заявки')!.rowCount).toBe(4);
    expect((await t.inject({ method: 'GET', url: '/api/entry/excel', headers: user })).statusCode).toBe(403);
  });

  it('streams one export per operator at a time: another while one runs is 429', async () => {
    const op = await t.createUser({ role: 1, last_name: 'Выгрузкина' });
    const headers = await t.loginAs(op);
    // An export of this operator is streaming (inject waits for a whole body, so the slot is held here).
    const release = t.app.exportSlots.take(op.id)!;
    for (const url of ['/api/entry/excel', '/api/payment/excel', '/api/contract/excel']) {
      const busy = await t.inject({ method: 'GET', url, headers });
      expect(busy.statusCode).toBe(429);
      expect(busy.json().message).toBe(Messages.exportRunning);
    }
    // Another operator is not held up.
    expect((await t.inject({ method: 'GET', url: '/api/entry/excel?status=1', headers: operator })).statusCode).toBe(200);
    release();
    expect((await t.inject({ method: 'GET', url: '/api/entry/excel?status=1', headers })).statusCode).toBe(200);
    // The slot is given back when the file is written.
    expect(t.app.exportSlots.inUse).toBe(0);
  });
});
