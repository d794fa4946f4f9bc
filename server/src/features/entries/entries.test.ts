import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages } from '@edu/domain/common/messages';
import { EntryMessages } from '@edu/domain/entries/entry';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { rows } from '../../platform/db.ts';
import { sql } from 'drizzle-orm';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function userWithHeaders(attrs = {}) {
  const u = await t.createUser(attrs);
  return { ...u, headers: await t.loginAs(u) };
}

const post = (headers: Record<string, string>, payload: Record<string, unknown>) => t.inject({ method: 'POST', url: '/api/entry', headers, payload });

describe('creating an entry', () => {
  it('takes the price from the service, not from the client, and numbers the entry', async () => {
    const u = await userWithHeaders();
    const s = await makeService(t.database.db, { price: 1500 });
    const res = await post(u.headers, { service_id: s.id, pay_type: 3, is_extramural: 0, price: 1 });
    expect(res.statusCode).toBe(201);
    const { data, message } = res.json();
    expect(message).toBe(EntryMessages.sent);
    expect(data).toMatchObject({ price: 1500, status: 1, statusLabel: 'Не оплачена', created_by: u.id, pay_type: 3, can_edit: true });
    expect(data.number).toMatch(/^\d{4}-\d{5}$/);
    const me = (await t.inject({ method: 'GET', url: '/api/get', headers: u.headers })).json();
    expect(me.left_sum).toBe(1500);
    expect(me.entries_unpaid_num).toBe(1);
  });

  it('requires a section when the service has sections', async () => {
    const u = await userWithHeaders();
    const s = await makeService(t.database.db, { sections: ['Секция 1', 'Секция 2'] });
    const res = await post(u.headers, { service_id: s.id, pay_type: 3, is_extramural: 0 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.section_id).toEqual([EntryMessages.chooseSection]);
    const other = await makeService(t.database.db, { sections: ['Чужая'] });
    const wrong = await post(u.headers, { service_id: s.id, section_id: other.sectionIds[0], pay_type: 3, is_extramural: 0 });
    expect(wrong.json().errors.section_id).toEqual([EntryMessages.sectionNotOfService]);
  });

  it('refuses pay type 4 for users and a participation the service does not offer', async () => {
    const u = await userWithHeaders();
    const s = await makeService(t.database.db, { participation_type: 3 });
    expect((await post(u.headers, { service_id: s.id, pay_type: 4, is_extramural: 1 })).json().errors.pay_type).toEqual([EntryMessages.payTypeNotAllowed]);
    expect((await post(u.headers, { service_id: s.id, pay_type: 3, is_extramural: 0 })).json().errors.is_extramural).toEqual([EntryMessages.onlyExtramural]);
    const inPerson = await makeService(t.database.db, { participation_type: 2 });
    expect((await post(u.headers, { service_id: inPerson.id, pay_type: 1, is_extramural: 1 })).json().errors.is_extramural).toEqual([
      EntryMessages.onlyIntramural,
    ]);
  });

  it('refuses a second entry to the same service and section', async () => {
    const u = await userWithHeaders();
    const s = await makeService(t.database.db, { sections: ['А', 'Б'] });
    expect((await post(u.headers, { service_id: s.id, section_id: s.sectionIds[0], pay_type: 3, is_extramural: 0 })).statusCode).toBe(201);
    const again = await post(u.headers, { service_id: s.id, section_id: s.sectionIds[0], pay_type: 3, is_extramural: 0 });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(EntryMessages.alreadyApplied);
    expect((await post(u.headers, { service_id: s.id, section_id: s.sectionIds[1], pay_type: 3, is_extramural: 0 })).statusCode).toBe(201);
  });

  it('does not let users apply to hidden or deleted services', async () => {
    const u = await userWithHeaders();
    const hidden = await makeService(t.database.db, { is_visible: false });
    const deleted = await makeService(t.database.db, { deleted_at: new Date() });
    for (const s of [hidden, deleted]) {
      const res = await post(u.headers, { service_id: s.id, pay_type: 3, is_extramural: 0 });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.service_id).toEqual([EntryMessages.serviceUnavailable]);
    }
  });

  it('a free entry is paid at once', async () => {
    const u = await userWithHeaders();
    const s = await makeService(t.database.db, { price: 0 });
    const res = await post(u.headers, { service_id: s.id, pay_type: 3, is_extramural: 0 });
    expect(res.json().data).toMatchObject({ price: 0, status: 2, is_paid: true, can_edit: true });
  });

  it('a free entry stays the client’s to change and withdraw, as an unpaid one', async () => {
    const u = await userWithHeaders();
    const s = await makeService(t.database.db, { price: 0, sections: ['Утро', 'Вечер'] });
    const { data } = (await post(u.headers, { service_id: s.id, section_id: s.sectionIds[0], pay_type: 3, is_extramural: 0 })).json();
    const put = await t.inject({ method: 'PUT', url: `/api/entry/${data.id}`, headers: u.headers, payload: { section_id: s.sectionIds[1], is_extramural: 1 } });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({ section_id: s.sectionIds[1], is_extramural: 1 });
    expect((await t.inject({ method: 'DELETE', url: `/api/entry/${data.id}`, headers: u.headers })).statusCode).toBe(200);
    // A paid entry with a price stays frozen.
    const paidService = await makeService(t.database.db, { price: 900 });
    const paid = (await post(u.headers, { service_id: paidService.id, pay_type: 3, is_extramural: 0 })).json().data;
    await t.database.db.execute(sql`update entries set status = 2 where id = ${paid.id}`);
    const frozen = await t.inject({ method: 'PUT', url: `/api/entry/${paid.id}`, headers: u.headers, payload: { is_extramural: 1 } });
    expect(frozen.json().message).toBe(EntryMessages.paidNoEdit);
    expect((await t.inject({ method: 'DELETE', url: `/api/entry/${paid.id}`, headers: u.headers })).json().message).toBe(EntryMessages.paidNoDelete);
  });

  it('a publication service is not applied for as an ordinary entry', async () => {
    const u = await userWithHeaders();
    const s = await makeService(t.database.db, { is_publication: true, price: 1200 });
    const res = await post(u.headers, { service_id: s.id, pay_type: 3, is_extramural: 0 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.service_id).toEqual([EntryMessages.publicationNotOrdinary]);
  });

  it('the created-entry notification leads to that entry', async () => {
    const u = await userWithHeaders();
    const s = await makeService(t.database.db, { price: 300 });
    const { data } = (await post(u.headers, { service_id: s.id, pay_type: 3, is_extramural: 0 })).json();
    await t.app.jobs.runDue();
    const [note] = await rows<{ url: string }>(t.database.db, sql`select url from notifications where user_id = ${u.id} order by id desc limit 1`);
    expect(note.url).toBe(`/user/entry?number=${data.number}`);
  });

  it('max_participants 0 means 27 seats', async () => {
    const s = await makeService(t.database.db, { max_participants: 0, price: 100 });
    for (let i = 0; i < 27; i++) {
      const u = await t.createUser();
      expect((await post(await t.loginAs(u), { service_id: s.id, pay_type: 3, is_extramural: 0 })).statusCode).toBe(201);
    }
    const late = await userWithHeaders();
    const res = await post(late.headers, { service_id: s.id, pay_type: 3, is_extramural: 0 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.service_id).toEqual([EntryMessages.serviceFull]);
  });

  it('two users racing for the last seat of a section: exactly one wins', async () => {
    const s = await makeService(t.database.db, { max_participants: 1, sections: ['Единственное место'] });
    const a = await userWithHeaders();
    const b = await userWithHeaders();
    const [ra, rb] = await Promise.all([
      post(a.headers, { service_id: s.id, section_id: s.sectionIds[0], pay_type: 3, is_extramural: 0 }),
      post(b.headers, { service_id: s.id, section_id: s.sectionIds[0], pay_type: 3, is_extramural: 0 }),
    ]);
    expect([ra.statusCode, rb.statusCode].sort()).toEqual([201, 422]);
    const loser = ra.statusCode === 422 ? ra : rb;
    expect(loser.json().message).toBe(EntryMessages.sectionFull);
    const [count] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from entries where section_id = ${s.sectionIds[0]}`);
    expect(count.n).toBe(1);
  });

  it('writes a change-log row and a notification for the owner', async () => {
    const u = await userWithHeaders();
    const s = await makeService(t.database.db);
    const { data } = (await post(u.headers, { service_id: s.id, pay_type: 3, is_extramural: 0 })).json();
    const [log] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from change_logs where type = 'entry' and entity_id = ${data.id}`);
    expect(log.n).toBe(1);
    await t.app.jobs.runDue();
    const [n] = await rows<{ text_clear: string; user_id: number }>(t.database.db, sql`select text_clear, user_id from notifications where user_id = ${u.id}`);
    expect(n.text_clear).toContain(data.number);
  });
});

describe('listing, changing and removing entries', () => {
  it('lists only the user own entries with filters and pagination', async () => {
    const u = await userWithHeaders();
    const other = await userWithHeaders();
    const webinar = await makeService(t.database.db, { title: 'Вебинар по астрономии', dict_type_id: 2 });
    const course = await makeService(t.database.db, { title: 'Курс по химии', dict_type_id: 3 });
    await post(u.headers, { service_id: webinar.id, pay_type: 3, is_extramural: 0 });
    await post(u.headers, { service_id: course.id, pay_type: 3, is_extramural: 0 });
    await post(other.headers, { service_id: webinar.id, pay_type: 3, is_extramural: 0 });

    const all = (await t.inject({ method: 'GET', url: '/api/entry', headers: u.headers })).json();
    expect(all.meta).toMatchObject({ current_page: 1, last_page: 1, total: 2, per_page: 15 });
    expect(all.data.every((e: { created_by: number }) => e.created_by === u.id)).toBe(true);
    const byType = (await t.inject({ method: 'GET', url: '/api/entry?type=3', headers: u.headers })).json();
    expect(byType.data.map((e: { service: { title: string } }) => e.service.title)).toEqual(['Курс по химии']);
    const byTitle = (await t.inject({ method: 'GET', url: `/api/entry?service=${encodeURIComponent('астроном')}`, headers: u.headers })).json();
    expect(byTitle.meta.total).toBe(1);
    const num = byTitle.data[0].number as string;
    expect((await t.inject({ method: 'GET', url: `/api/entry?number=${num}`, headers: u.headers })).json().meta.total).toBe(1);
    expect((await t.inject({ method: 'GET', url: `/api/entry?created_by=${other.id}`, headers: u.headers })).json().meta.total).toBe(2);
    expect((await t.inject({ method: 'GET', url: '/api/entry?per_page=7', headers: u.headers })).statusCode).toBe(422);
    expect((await t.inject({ method: 'GET', url: '/api/entry?date=2026-01-01', headers: u.headers })).statusCode).toBe(422);
  });

  it('another user cannot read, change, remove or write theses of my entry (404)', async () => {
    const me = await userWithHeaders();
    const stranger = await userWithHeaders();
    const s = await makeService(t.database.db, { is_thesis_needed: true });
    const { data } = (await post(me.headers, { service_id: s.id, pay_type: 3, is_extramural: 0 })).json();
    const h = stranger.headers;
    expect((await t.inject({ method: 'GET', url: `/api/entry/${data.id}`, headers: h })).statusCode).toBe(404);
    expect((await t.inject({ method: 'PUT', url: `/api/entry/${data.id}`, headers: h, payload: { pay_type: 1 } })).statusCode).toBe(404);
    expect((await t.inject({ method: 'DELETE', url: `/api/entry/${data.id}`, headers: h })).statusCode).toBe(404);
    expect((await t.inject({ method: 'POST', url: '/api/entry-thesis', headers: h, payload: { entry_id: data.id, text: 'а'.repeat(1600) } })).statusCode).toBe(
      404,
    );
    expect((await t.inject({ method: 'GET', url: `/api/entry/${data.id}`, headers: me.headers })).statusCode).toBe(200);
  });

  it('changes section, pay type and participation only while unpaid; removal likewise', async () => {
    const u = await userWithHeaders();
    const s = await makeService(t.database.db, { sections: ['Первая', 'Вторая'], participation_type: 1 });
    const { data } = (await post(u.headers, { service_id: s.id, section_id: s.sectionIds[0], pay_type: 3, is_extramural: 0 })).json();
    const changed = await t.inject({
      method: 'PUT',
      url: `/api/entry/${data.id}`,
      headers: u.headers,
      payload: { section_id: s.sectionIds[1], pay_type: 1, is_extramural: 1 },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({ section_id: s.sectionIds[1], pay_type: 1, is_extramural: 1 });
    expect((await t.inject({ method: 'PUT', url: `/api/entry/${data.id}`, headers: u.headers, payload: { pay_type: 4 } })).statusCode).toBe(422);

    await t.database.db.execute(sql`update entries set status = 2 where id = ${data.id}`);
    const late = await t.inject({ method: 'PUT', url: `/api/entry/${data.id}`, headers: u.headers, payload: { pay_type: 2 } });
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe(EntryMessages.paidNoEdit);
    const remove = await t.inject({ method: 'DELETE', url: `/api/entry/${data.id}`, headers: u.headers });
    expect(remove.statusCode).toBe(422);
    expect(remove.json().message).toBe(EntryMessages.paidNoDelete);
  });

  it('removal is soft: the entry leaves the list, shows under deleted, and frees the seat', async () => {
    const u = await userWithHeaders();
    const s = await makeService(t.database.db, { max_participants: 1 });
    const { data } = (await post(u.headers, { service_id: s.id, pay_type: 3, is_extramural: 0 })).json();
    const del = await t.inject({ method: 'DELETE', url: `/api/entry/${data.id}`, headers: u.headers });
    expect(del.json().message).toBe(Messages.deleted);
    expect((await t.inject({ method: 'GET', url: `/api/entry?service_id=${s.id}`, headers: u.headers })).json().meta.total).toBe(0);
    const deleted = (await t.inject({ method: 'GET', url: `/api/entry?service_id=${s.id}&deleted=1`, headers: u.headers })).json();
    expect(deleted.data[0].deleted_at).not.toBeNull();
    const other = await userWithHeaders();
    expect((await post(other.headers, { service_id: s.id, pay_type: 3, is_extramural: 0 })).statusCode).toBe(201);
  });
});

describe('theses', () => {
  it('accept only 1500 < length < 10000 and show the banner until written', async () => {
    const u = await userWithHeaders();
    const s = await makeService(t.database.db, { is_thesis_needed: true });
    const { data } = (await post(u.headers, { service_id: s.id, pay_type: 3, is_extramural: 0 })).json();
    expect((await t.inject({ method: 'GET', url: '/api/entry', headers: u.headers })).json().meta.theses_awaited).toBe(true);
    // The banner and the total come with a page past the end, a filtered page and a page of deleted entries alike.
    for (const query of ['page=2', `service_id=${s.id}`, `service_id=${s.id + 1000}`, 'deleted=1', 'deleted=1&page=3']) {
      const { meta } = (await t.inject({ method: 'GET', url: `/api/entry?${query}`, headers: u.headers })).json();
      expect({ query, awaited: meta.theses_awaited, total: meta.total }).toEqual({
        query,
        awaited: true,
        total: query.startsWith('deleted') || query.endsWith(String(s.id + 1000)) ? 0 : 1,
      });
    }
    const save = (text: string) => t.inject({ method: 'POST', url: '/api/entry-thesis', headers: u.headers, payload: { entry_id: data.id, text } });
    expect((await save('т'.repeat(1499))).json().errors.text).toEqual([EntryMessages.thesisTooShort]);
    expect((await save('т'.repeat(1500))).json().errors.text).toEqual([EntryMessages.thesisOneMore]);
    expect((await save('т'.repeat(10000))).json().errors.text).toEqual([EntryMessages.thesisOneLess]);
    expect((await save('т'.repeat(10001))).json().errors.text).toEqual([EntryMessages.thesisTooLong]);
    expect((await save('т'.repeat(1501))).statusCode).toBe(200);
    expect((await save('т'.repeat(9999))).statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/entry', headers: u.headers })).json().meta.theses_awaited).toBe(false);
    const entry = (await t.inject({ method: 'GET', url: `/api/entry/${data.id}`, headers: u.headers })).json().data;
    expect(entry.thesis.text).toHaveLength(9999);
  });

  it('are closed once the entry is paid and has theses, except for operators', async () => {
    const u = await userWithHeaders();
    const operator = await userWithHeaders({ role: 1 });
    const s = await makeService(t.database.db, { is_thesis_needed: true });
    const { data } = (await post(u.headers, { service_id: s.id, pay_type: 3, is_extramural: 0 })).json();
    const text = 'т'.repeat(2000);
    await t.database.db.execute(sql`update entries set status = 2 where id = ${data.id}`);
    // Paid without theses: still open.
    expect((await t.inject({ method: 'POST', url: '/api/entry-thesis', headers: u.headers, payload: { entry_id: data.id, text } })).statusCode).toBe(200);
    const closed = await t.inject({ method: 'POST', url: '/api/entry-thesis', headers: u.headers, payload: { entry_id: data.id, text: text + 'x' } });
    expect(closed.statusCode).toBe(422);
    expect(closed.json().errors.text).toEqual([EntryMessages.thesisClosed]);
    expect(
      (await t.inject({ method: 'POST', url: '/api/entry-thesis', headers: operator.headers, payload: { entry_id: data.id, text: text + 'y' } })).statusCode,
    ).toBe(200);
  });
});

describe('operator date filters', () => {
  it('an impossible date is a field message, not a server error', async () => {
    const op = await t.loginAs(await t.createUser({ role: 1 }));
    const res = await t.inject({ method: 'GET', url: '/api/entry?date=31.02.2024', headers: op });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.date).toEqual(['Несуществующая дата']);
    expect((await t.inject({ method: 'GET', url: '/api/entry?date=29.02.2024', headers: op })).statusCode).toBe(200);
    const pay = await t.inject({ method: 'GET', url: '/api/payment?created_at=2024-02-31', headers: op });
    expect(pay.statusCode).toBe(422);
    expect(pay.json().errors.created_at).toEqual(['Несуществующая дата']);
  });
});
