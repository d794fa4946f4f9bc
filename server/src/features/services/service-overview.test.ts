import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceOverviewRow } from '@edu/domain/services/service-overview';
import { entries, publicationPrices } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';

// GET /api/service/overview, «Все услуги» (issue 22): every service with seats and sales.

let t: TestApp;
let operator: Record<string, string>;
let user: Record<string, string>;
let clientId: number;
const ids: Record<string, number> = {};
let serial = 0;

/** Live or deleted entries of one service at one status and price. */
async function addEntries(serviceId: number, n: number, o: { status: 1 | 2 | 3; price: number; deleted?: boolean; sectionId?: number }) {
  for (let i = 0; i < n; i++) {
    serial += 1;
    await t.database.db.insert(entries).values({
      number: `OV-${serviceId}-${serial}`,
      created_by: clientId,
      service_id: serviceId,
      section_id: o.sectionId ?? null,
      price: o.price,
      status: o.status,
      deleted_at: o.deleted ? new Date() : null,
    });
  }
}

const day = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * day);

beforeAll(async () => {
  t = await createTestApp();
  operator = await t.loginAs(await t.createUser({ role: 1 }));
  const client = await t.createUser();
  clientId = client.id;
  user = await t.loginAs(client);
  // A webinar with two sections of 10 seats: 3 unpaid, 2 paid at 500, 1 done at 400, 1 paid but deleted.
  const webinar = await makeService(t.database.db, {
    title: 'Обзор вебинар альфа',
    dict_type_id: 2,
    dict_subtype_id: 7,
    max_participants: 10,
    price: 500,
    sections: ['Секция 1', 'Секция 2'],
  });
  ids.webinar = webinar.id;
  await addEntries(webinar.id, 3, { status: 1, price: 500, sectionId: webinar.sectionIds[0] });
  await addEntries(webinar.id, 2, { status: 2, price: 500, sectionId: webinar.sectionIds[1] });
  await addEntries(webinar.id, 1, { status: 3, price: 400, sectionId: webinar.sectionIds[1] });
  await addEntries(webinar.id, 1, { status: 2, price: 500, deleted: true, sectionId: webinar.sectionIds[0] });
  // A hidden conference a month ahead, no sections, the default 27 seats, no entries.
  ids.hidden = (
    await makeService(t.database.db, {
      title: 'Обзор конференция бета',
      dict_type_id: 1,
      dict_subtype_id: 1,
      is_visible: false,
      price: 0,
      begda: at(30),
      endda: at(31),
    })
  ).id;
  // A past course with one paid entry at 12 345.50.
  ids.past = (await makeService(t.database.db, { title: 'Обзор курс гамма', dict_type_id: 3, begda: at(-60), endda: at(-59), price: 12345.5 })).id;
  await addEntries(ids.past, 1, { status: 2, price: 12345.5 });
  // A publication service: no seat limit.
  ids.publication = (
    await makeService(t.database.db, {
      title: 'Обзор публикация дельта',
      dict_type_id: 5,
      dict_subtype_id: 5,
      is_publication: true,
      date_type: 2,
      begda: null,
      endda: null,
    })
  ).id;
  await addEntries(ids.publication, 4, { status: 2, price: 300 });
  // A deleted service is never listed.
  ids.deleted = (await makeService(t.database.db, { title: 'Обзор удалённая эпсилон', deleted_at: new Date() })).id;
});
afterAll(() => t.close());

const list = async (query: string, headers = operator) => {
  const res = await t.inject({ method: 'GET', url: `/api/service/overview?${query}`, headers });
  return res;
};
const rowsOf = async (query: string) => {
  const res = await list(query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: ServiceOverviewRow[]; meta: { total: number; per_page: number; current_page: number } };
};
const titles = (data: ServiceOverviewRow[]) => data.map((r) => r.title);

describe('who may see «Все услуги»', () => {
  it('answers 401 without a session and 403 to a user', async () => {
    expect((await t.inject({ method: 'GET', url: '/api/service/overview' })).statusCode).toBe(401);
    expect((await list('', user)).statusCode).toBe(403);
    expect((await list('')).statusCode).toBe(200);
  });
});

describe('every service with its seats and sales', () => {
  it('lists services of every type, not deleted ones, with entries, paid, free places and income', async () => {
    const { data, meta } = await rowsOf('q=Обзор');
    expect(meta.total).toBe(4);
    expect(titles(data)).not.toContain('Обзор удалённая эпсилон');
    const webinar = data.find((r) => r.id === ids.webinar);
    // Deleted entries count nowhere; paid covers paid and done; income sums their prices.
    expect(webinar).toMatchObject({
      dict_type_id: 2,
      dict_subtype_id: 7,
      entries: 6,
      paid: 3,
      seats: 20,
      free: 14,
      income: 1400,
      price: 500,
      is_visible: true,
      is_publication: false,
    });
    expect(webinar?.type).toMatchObject({ id: 2, fdv: 'Вебинары' });
    expect(webinar?.subtype?.id).toBe(7);
    expect(webinar?.interval_formatted).toBeTruthy();
    expect(data.find((r) => r.id === ids.hidden)).toMatchObject({ entries: 0, paid: 0, seats: 27, free: 27, income: 0, is_visible: false });
    expect(data.find((r) => r.id === ids.past)).toMatchObject({ entries: 1, paid: 1, income: 12345.5 });
    expect(data.find((r) => r.id === ids.publication)).toMatchObject({
      entries: 4,
      paid: 4,
      income: 1200,
      seats: null,
      free: null,
      is_publication: true,
      interval_formatted: null,
    });
  });

  it('puts upcoming services first (nearest first), then past ones, undated last', async () => {
    const { data } = await rowsOf('q=Обзор');
    expect(data.map((r) => r.id)).toEqual([ids.webinar, ids.hidden, ids.past, ids.publication]);
  });
});

describe('filters', () => {
  it('finds by title words in any order and by the service number', async () => {
    expect(titles((await rowsOf('q=бета Обзор')).data)).toEqual(['Обзор конференция бета']);
    expect((await rowsOf(`q=${ids.past}`)).data.map((r) => r.id)).toContain(ids.past);
    expect((await rowsOf(`q=%23${ids.past}`)).data.map((r) => r.id)).toEqual([ids.past]);
    expect((await rowsOf('q=нет-такой-услуги')).meta.total).toBe(0);
  });

  it('narrows by type, subtype and visibility', async () => {
    expect(titles((await rowsOf('q=Обзор&dict_type_id=1')).data)).toEqual(['Обзор конференция бета']);
    expect(titles((await rowsOf('q=Обзор&dict_type_id=2&dict_subtype_id=7')).data)).toEqual(['Обзор вебинар альфа']);
    expect(titles((await rowsOf('q=Обзор&is_visible=0')).data)).toEqual(['Обзор конференция бета']);
    expect((await rowsOf('q=Обзор&is_visible=1')).meta.total).toBe(3);
  });

  it('keeps the services whose days overlap the chosen range (dd.mm.yyyy, Moscow days)', async () => {
    const ru = (d: Date) => {
      const m = new Date(d.getTime() + 3 * 3600_000);
      return `${String(m.getUTCDate()).padStart(2, '0')}.${String(m.getUTCMonth() + 1).padStart(2, '0')}.${m.getUTCFullYear()}`;
    };
    expect(titles((await rowsOf(`q=Обзор&date_from=${ru(at(-61))}&date_to=${ru(at(-58))}`)).data)).toEqual(['Обзор курс гамма']);
    // From a day on: what is still on or later; undated services are left out.
    expect(titles((await rowsOf(`q=Обзор&date_from=${ru(at(1))}`)).data)).toEqual(['Обзор вебинар альфа', 'Обзор конференция бета']);
    expect(titles((await rowsOf(`q=Обзор&date_to=${ru(at(0))}`)).data)).toEqual(['Обзор курс гамма']);
  });

  it('refuses impossible dates and a range that ends before it starts', async () => {
    expect((await list('date_from=31.02.2026')).statusCode).toBe(422);
    expect((await list('date_from=2026-01-01')).statusCode).toBe(422);
    const backwards = await list('date_from=10.01.2026&date_to=01.01.2026');
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().errors.date_to).toBeTruthy();
  });
});

describe('sorting', () => {
  it('sorts by sales and by the service columns, both ways', async () => {
    const order = async (sort: string) => (await rowsOf(`q=Обзор&sort=${sort}`)).data.map((r) => r.id);
    expect(await order('-entries')).toEqual([ids.webinar, ids.publication, ids.past, ids.hidden]);
    expect(await order('-income')).toEqual([ids.past, ids.webinar, ids.publication, ids.hidden]);
    expect(await order('-paid')).toEqual([ids.publication, ids.webinar, ids.past, ids.hidden]);
    // Publications have no seats: last either way.
    expect(await order('-free')).toEqual([ids.hidden, ids.past, ids.webinar, ids.publication]);
    expect(await order('title')).toEqual([ids.webinar, ids.hidden, ids.past, ids.publication]);
    const byPrice = await order('-price');
    expect(byPrice[0]).toBe(ids.past);
    expect(byPrice.at(-1)).toBe(ids.hidden);
  });

  it('answers 422 for an unknown sort (as every operator list does), keeps the default order without one, and pages the rows', async () => {
    const unknown = await list('q=Обзор&sort=password');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual({ message: 'Неизвестная сортировка', errors: { sort: ['Неизвестная сортировка'] } });
    expect((await list('sort=1;drop')).statusCode).toBe(422);
    expect((await rowsOf('q=Обзор')).data.map((r) => r.id)).toEqual([ids.webinar, ids.hidden, ids.past, ids.publication]);
    const firstPage = await rowsOf('q=Обзор&per_page=15&page=1');
    expect(firstPage.meta).toMatchObject({ total: 4, per_page: 15, current_page: 1 });
  });
});

describe('the list price', () => {
  it('is the publication price of the subtype for one author for a publication service (as the catalogue shows it)', async () => {
    await t.database.db
      .insert(publicationPrices)
      .values({ dict_service_subtype_id: 5, authors_num: 1, price: 275 })
      .onConflictDoUpdate({ target: [publicationPrices.dict_service_subtype_id, publicationPrices.authors_num], set: { price: 275 } });
    expect((await rowsOf(`q=%23${ids.publication}`)).data[0].price).toBe(275);
    expect((await rowsOf(`q=%23${ids.webinar}`)).data[0].price).toBe(500);
  });
});
