import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { entries } from '../../db/schema/index.ts';
import { rows } from '../../platform/db.ts';
import { FIO_USERS_CAP, TITLE_SERVICES_CAP, WALK_FROM } from './entries-repository.ts';

// The operators' entry list (issue 10): page ids first, then one wide select by ids; the fio and
// title filters through the matching users or services; the type filter on entries.service_type_id.

let t: TestApp;
let op: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  op = await t.loginAs(await t.createUser({ role: 1, last_name: 'Операторова', first_name: 'Ольга', middle_name: null }));
});
afterAll(() => t.close());

let seq = 0;
/** An entry straight in the database (created_at as given: the list's order). */
async function addEntry(userId: number, serviceId: number, attrs: Partial<typeof entries.$inferInsert> = {}): Promise<number> {
  seq += 1;
  const [row] = await t.database.db
    .insert(entries)
    .values({ number: `T${String(seq).padStart(8, '0')}`, created_by: userId, service_id: serviceId, price: 100, ...attrs })
    .returning({ id: entries.id });
  return row.id;
}

type Listed = { id: number; created_by: number; deleted_at: string | null; service: { dict_type_id: number } };
async function list(query: string): Promise<{ data: Listed[]; meta: { total: number; last_page: number; per_page: number; current_page: number } }> {
  const res = await t.inject({ method: 'GET', url: `/api/entry?${query}`, headers: op });
  expect(res.statusCode).toBe(200);
  return res.json();
}
const ids = (page: { data: Listed[] }) => page.data.map((e) => e.id);
const typeOf = async (entryId: number) =>
  (await rows<{ service_type_id: number | null }>(t.database.db, sql`select service_type_id from entries where id = ${entryId}`))[0].service_type_id;

describe('entries.service_type_id (the copy of the service type the ?type= filter reads)', () => {
  it('is set on insert, follows a change of the service type and a move to another service', async () => {
    const u = await t.createUser();
    const webinar = await makeService(t.database.db, { title: 'Вебинар про копию типа', dict_type_id: 2 });
    const course = await makeService(t.database.db, { title: 'Курс про копию типа', dict_type_id: 3 });
    const a = await addEntry(u.id, webinar.id);
    const b = await addEntry(u.id, webinar.id, { deleted_at: new Date() });
    expect(await typeOf(a)).toBe(2);

    await t.database.db.execute(sql`update services set dict_type_id = 4 where id = ${webinar.id}`);
    expect(await typeOf(a)).toBe(4);
    expect(await typeOf(b)).toBe(4);

    await t.database.db.execute(sql`update entries set service_id = ${course.id} where id = ${a}`);
    expect(await typeOf(a)).toBe(3);
    // The copy cannot be written past the triggers.
    await t.database.db.execute(sql`update entries set service_type_id = 7 where id = ${a}`);
    expect(await typeOf(a)).toBe(3);
    // Other changes of the service leave it alone.
    await t.database.db.execute(sql`update services set title = 'Курс про копию типа (изменён)' where id = ${course.id}`);
    expect(await typeOf(a)).toBe(3);

    // And the operator's ?type= answers from it.
    const byType = await list(`type=4&created_by=${u.id}`);
    expect(ids(byType)).toEqual([]);
    expect(ids(await list(`type=4&created_by=${u.id}&deleted=1`))).toEqual([b]);
    expect(ids(await list(`type=3&created_by=${u.id}`))).toEqual([a]);
  });
});

describe('the operator list', () => {
  it('filters by type (alone and with status), newest first, each item as GET /api/entry/:id shows it', async () => {
    const u = await t.createUser();
    const conference = await makeService(t.database.db, { title: 'Конференция для фильтра типа', dict_type_id: 5 });
    const olympiad = await makeService(t.database.db, { title: 'Олимпиада для фильтра типа', dict_type_id: 9 });
    const base = Date.parse('2026-03-01T10:00:00Z');
    const c1 = await addEntry(u.id, conference.id, { status: 1, created_at: new Date(base) });
    const c2 = await addEntry(u.id, conference.id, { status: 2, created_at: new Date(base + 60_000) });
    await addEntry(u.id, olympiad.id, { status: 2, created_at: new Date(base + 120_000) });
    await addEntry(u.id, conference.id, { status: 2, created_at: new Date(base + 180_000), deleted_at: new Date() });

    const byType = await list('type=5');
    expect(ids(byType)).toEqual([c2, c1]);
    expect(byType.meta.total).toBe(2);
    expect(byType.data.every((e) => e.service.dict_type_id === 5)).toBe(true);
    expect(ids(await list('type=5&status=2'))).toEqual([c2]);
    expect(ids(await list('type=5&status=3'))).toEqual([]);
    for (const e of byType.data) {
      const one = (await t.inject({ method: 'GET', url: `/api/entry/${e.id}`, headers: op })).json().data;
      expect(e).toEqual(one);
    }
  });

  it('lists deleted entries only under deleted=1, newest first', async () => {
    const u = await t.createUser();
    const s = await makeService(t.database.db, { title: 'Семинар для удалённых', dict_type_id: 6 });
    const base = Date.parse('2026-04-01T10:00:00Z');
    const live = await addEntry(u.id, s.id, { created_at: new Date(base) });
    const d1 = await addEntry(u.id, s.id, { created_at: new Date(base + 1000), deleted_at: new Date() });
    const d2 = await addEntry(u.id, s.id, { created_at: new Date(base + 2000), deleted_at: new Date() });
    const deleted = await list('deleted=1');
    expect(deleted.data.every((e) => e.deleted_at !== null)).toBe(true);
    expect(ids(deleted)).toEqual(expect.arrayContaining([d1, d2]));
    expect(ids(deleted).indexOf(d2)).toBeLessThan(ids(deleted).indexOf(d1));
    expect(ids(deleted)).not.toContain(live);
    expect(ids(await list(`service_id=${s.id}&deleted=1`))).toEqual([d2, d1]);
    expect(ids(await list(`service_id=${s.id}`))).toEqual([live]);
  });

  it('pages in a stable order (created_at desc, id desc) across pages, also for equal times', async () => {
    const u = await t.createUser();
    const s = await makeService(t.database.db, { title: 'Курс для страниц', dict_type_id: 3 });
    const at = new Date('2026-05-01T10:00:00Z');
    const made: Array<{ id: number; time: number }> = [];
    for (let i = 0; i < 20; i++) {
      // Four entries share each time: the id breaks the tie.
      const time = at.getTime() + Math.floor(i / 4) * 1000;
      made.push({ id: await addEntry(u.id, s.id, { created_at: new Date(time) }), time });
    }
    const expected = made.sort((a, b) => b.time - a.time || b.id - a.id).map((e) => e.id);
    const first = await list(`service_id=${s.id}&per_page=15&page=1`);
    const second = await list(`service_id=${s.id}&per_page=15&page=2`);
    expect(first.meta).toMatchObject({ total: 20, last_page: 2, per_page: 15, current_page: 1 });
    expect([...ids(first), ...ids(second)]).toEqual(expected);
    expect(ids(await list(`created_by=${u.id}&per_page=15&page=2`))).toEqual(expected.slice(15));
    expect(ids(await list(`service_id=${s.id}&per_page=15&page=3`))).toEqual([]);
  });

  it('finds clients by any part of the full name and by a «surname firstname» pair in either order', async () => {
    const anna = await t.createUser({ last_name: 'Сидоренко', first_name: 'Анна', middle_name: 'Игоревна' });
    const maria = await t.createUser({ last_name: 'Игнатова', first_name: 'Мария', middle_name: 'Сидоровна' });
    const noMiddle = await t.createUser({ last_name: 'Чернышёва', first_name: 'Анна', middle_name: null });
    const s = await makeService(t.database.db, { title: 'Вебинар для поиска по имени', dict_type_id: 2 });
    const ea = await addEntry(anna.id, s.id, { created_at: new Date('2026-06-01T10:00:00Z') });
    const em = await addEntry(maria.id, s.id, { created_at: new Date('2026-06-02T10:00:00Z') });
    const en = await addEntry(noMiddle.id, s.id, { created_at: new Date('2026-06-03T10:00:00Z') });
    await addEntry(anna.id, s.id, { deleted_at: new Date() });

    const fio = async (q: string) => ids(await list(`fio=${encodeURIComponent(q)}`));
    expect(await fio('Сидоренко')).toEqual([ea]); // last name
    expect(await fio('сидор')).toEqual([em, ea]); // a part, any case: Сидоренко and Сидоровна (middle name)
    expect(await fio('Игоревна')).toEqual([ea]); // middle name
    expect(await fio('Мария')).toEqual([em]); // first name
    expect(await fio('Анна')).toEqual([en, ea]); // first name, with and without a middle name
    expect(await fio('Сидоренко Анна')).toEqual([ea]);
    expect(await fio('Анна Сидоренко')).toEqual([ea]);
    expect(await fio('Чернышёва Анна')).toEqual([en]);
    expect(await fio('Сидоренко Мария')).toEqual([]);
    expect((await list(`fio=${encodeURIComponent('Сидоренко Анна')}&deleted=1`)).meta.total).toBe(1);
    expect((await list(`fio=${encodeURIComponent('100%')}`)).meta.total).toBe(0);
  });

  it(`answers a name matching more than ${FIO_USERS_CAP} users and a title matching more than ${TITLE_SERVICES_CAP} services the same way`, async () => {
    await t.database.db.execute(
      sql`insert into users (email, last_name, first_name, role) select 'namesake-' || g || '@example.com', 'Тёзкина', 'Вера', 2 from generate_series(1, ${FIO_USERS_CAP + 1}) g`,
    );
    await t.database.db.execute(
      sql`insert into services (title, dict_type_id) select 'Практикум о тёзках № ' || g, 8 from generate_series(1, ${TITLE_SERVICES_CAP + 1}) g`,
    );
    const namesakes = await rows<{ id: number }>(t.database.db, sql`select id from users where last_name = 'Тёзкина' order by id limit 3`);
    const practicums = await rows<{ id: number }>(t.database.db, sql`select id from services where title like 'Практикум о тёзках%' order by id limit 3`);
    const base = Date.parse('2026-07-01T10:00:00Z');
    const made: number[] = [];
    for (let i = 0; i < 3; i++) made.unshift(await addEntry(namesakes[i].id, practicums[i].id, { created_at: new Date(base + i * 1000) }));
    const byName = await list(`fio=${encodeURIComponent('Тёзкина Вера')}`);
    expect(ids(byName)).toEqual(made);
    expect(byName.meta.total).toBe(3);
    const byTitle = await list(`service=${encodeURIComponent('о тёзках')}`);
    expect(ids(byTitle)).toEqual(made);
    expect(byTitle.meta.total).toBe(3);
    expect(ids(await list(`service=${encodeURIComponent('о тёзках')}&fio=${encodeURIComponent('Тёзкина')}&per_page=15&page=1`))).toEqual(made);
  });

  it(`walks the newest entries when a name matches more than ${WALK_FROM} clients or a title more than ${WALK_FROM} services, with the same answer`, async () => {
    const many = WALK_FROM + 25;
    await t.database.db.execute(
      sql`insert into users (email, last_name, first_name, role) select 'walker-' || g || '@example.com', 'Ходокова', 'Нина', 2 from generate_series(1, ${many}) g`,
    );
    await t.database.db.execute(sql`insert into services (title, dict_type_id) select 'Прогулка по набережной № ' || g, 2 from generate_series(1, ${many}) g`);
    const walkers = await rows<{ id: number }>(t.database.db, sql`select id from users where last_name = 'Ходокова' order by id`);
    const walks = await rows<{ id: number }>(t.database.db, sql`select id from services where title like 'Прогулка по набережной%' order by id`);
    const other = await t.createUser({ last_name: 'Посторонняя', first_name: 'Ирина' });
    const otherService = await makeService(t.database.db, { title: 'Постороннее занятие', dict_type_id: 3 });
    const base = Date.parse('2026-06-01T10:00:00Z');
    // 40 matching entries among as many of someone else's, one deleted, statuses mixed; two at the same instant (the id breaks the tie).
    const mine: { id: number; at: number; status: number }[] = [];
    for (let i = 0; i < 40; i++) {
      const at = base + (i === 7 ? 6 : i) * 60_000;
      const status = 1 + (i % 3);
      mine.push({ id: await addEntry(walkers[i * 3].id, walks[i * 3].id, { created_at: new Date(at), status }), at, status });
      await addEntry(other.id, otherService.id, { created_at: new Date(at + 30_000) });
    }
    await addEntry(walkers[1].id, walks[1].id, { created_at: new Date(base + 3_600_000), deleted_at: new Date() });
    const newest = (keep: (e: (typeof mine)[number]) => boolean) =>
      mine
        .filter(keep)
        .sort((a, b) => b.at - a.at || b.id - a.id)
        .map((e) => e.id);
    for (const filter of [`fio=${encodeURIComponent('Ходокова')}`, `service=${encodeURIComponent('по набережной')}`]) {
      const first = await list(`${filter}&per_page=15`);
      expect(ids(first)).toEqual(newest(() => true).slice(0, 15));
      expect(first.meta.total).toBe(40);
      expect(ids(await list(`${filter}&per_page=15&page=3`))).toEqual(newest(() => true).slice(30, 45));
      expect(ids(await list(`${filter}&status=2&per_page=15`))).toEqual(newest((e) => e.status === 2).slice(0, 15));
      // Oldest first walks the same index backwards; another sort takes the matches' entries by their ids.
      expect(ids(await list(`${filter}&sort=created_at&per_page=15`))).toEqual(
        newest(() => true)
          .reverse()
          .slice(0, 15),
      );
      expect(ids(await list(`${filter}&sort=-number&per_page=15`))).toEqual(
        [...mine]
          .sort((a, b) => b.id - a.id)
          .map((e) => e.id)
          .slice(0, 15),
      );
    }
    expect((await list(`fio=${encodeURIComponent('Ходокова')}&deleted=1`)).meta.total).toBe(1);
  });

  it('finds a client by the name they have now (the names kept beside the users follow every change)', async () => {
    const s = await makeService(t.database.db, { title: 'Занятие о переменах фамилии', dict_type_id: 2 });
    const u = await t.createUser({ last_name: 'Прежнева', first_name: 'Алла', middle_name: null });
    const e = await addEntry(u.id, s.id);
    expect(ids(await list(`fio=${encodeURIComponent('Прежнева Алла')}`))).toEqual([e]);
    await t.database.db.execute(sql`update users set last_name = 'Новикова', middle_name = 'Петровна' where id = ${u.id}`);
    expect((await list(`fio=${encodeURIComponent('Прежнева')}`)).meta.total).toBe(0);
    expect(ids(await list(`fio=${encodeURIComponent('Новикова Алла Петровна')}`))).toEqual([e]);
    // Other changes of the user leave the name alone; the name goes with the user.
    await t.database.db.execute(sql`update users set organization = 'Школа № 1' where id = ${u.id}`);
    expect(ids(await list(`fio=${encodeURIComponent('Петровна')}`))).toEqual([e]);
    expect(await rows(t.database.db, sql`select full_name from user_names where user_id = ${u.id}`)).toEqual([{ full_name: 'новикова алла петровна' }]);
  });

  it('finds entries by the title a service has now (the titles kept beside the services follow every change)', async () => {
    const u = await t.createUser();
    const s = await makeService(t.database.db, { title: 'Вебинар о прежнем названии', dict_type_id: 2 });
    const e = await addEntry(u.id, s.id);
    expect(ids(await list(`service=${encodeURIComponent('ПРЕЖНЕМ')}`))).toEqual([e]);
    await t.database.db.execute(sql`update services set title = 'Вебинар «Ёлочные игрушки»' where id = ${s.id}`);
    expect((await list(`service=${encodeURIComponent('прежнем')}`)).meta.total).toBe(0);
    expect(ids(await list(`service=${encodeURIComponent('ёлочные')}`))).toEqual([e]);
    await t.database.db.execute(sql`update services set price = 100 where id = ${s.id}`);
    expect(await rows(t.database.db, sql`select title from service_titles where service_id = ${s.id}`)).toEqual([{ title: 'вебинар «ёлочные игрушки»' }]);
  });

  it('finds entries by a word of the service title through the matching services', async () => {
    const u = await t.createUser();
    const a = await makeService(t.database.db, { title: 'Вебинар о каллиграфии', dict_type_id: 2 });
    const b = await makeService(t.database.db, { title: 'Курс «Каллиграфия для всех»', dict_type_id: 3 });
    const ea = await addEntry(u.id, a.id, { created_at: new Date('2026-08-01T10:00:00Z') });
    const eb = await addEntry(u.id, b.id, { created_at: new Date('2026-08-02T10:00:00Z') });
    const byTitle = await list(`service=${encodeURIComponent('каллиграф')}`);
    expect(ids(byTitle)).toEqual([eb, ea]);
    expect(ids(await list(`service=${encodeURIComponent('каллиграф')}&type=2`))).toEqual([ea]);
    expect((await list(`service=${encodeURIComponent('нет такого слова')}`)).meta.total).toBe(0);
  });
});
