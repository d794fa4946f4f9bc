import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ENTRY_SORTS } from '@edu/domain/entries/entry';
import { PAYMENT_SORTS } from '@edu/domain/payments/payment';
import { PUBLICATION_SORTS } from '@edu/domain/publications/publication';
import { USER_SORTS } from '@edu/domain/users/manager-user';
import { createTestApp, type TestApp } from './helper.ts';
import { makeService } from './fixtures.ts';
import { entries, paymentEntries, payments, publications } from '../src/db/schema/index.ts';
import { entriesExport } from '../src/features/entries/entries-excel.ts';
import { entryFiltersOf } from '../src/features/entries/entries-repository.ts';
import { paymentsExport } from '../src/features/payments/payments-excel.ts';
import { writeXlsx } from '../src/platform/xlsx-export.ts';
import { entryListQuery } from '@edu/domain/entries/entry';

// Sorting of the operators' lists (issue 22): every whitelisted key in both directions gives the
// order of the sorted values with the id as tie-breaker (in the same direction), pages of any size
// put together give exactly that order (nothing repeated or skipped, ties included), an unknown key
// is a 422 with the field's message, and the exports follow the list's sort across their batches.

let t: TestApp;
let op: Record<string, string>;
let clients: Array<{ id: number; fio: string }>;
const tag = 'Сортировкин';

beforeAll(async () => {
  t = await createTestApp();
  op = await t.loginAs(await t.createUser({ role: 1, last_name: 'Операторова', first_name: 'Ольга', middle_name: null }));
  // Three clients with the tag in the name (two namesakes: the name sort needs the tie-breaker).
  clients = [];
  for (const [first, middle] of [
    ['Борис', 'Ильич'],
    ['Анна', 'Петровна'],
    ['Анна', 'Петровна'],
  ]) {
    const u = await t.createUser({ last_name: tag, first_name: first, middle_name: middle });
    clients.push({ id: u.id, fio: `${tag} ${first} ${middle}` });
  }
  const services = [
    await makeService(t.database.db, { title: 'Сорт: Вебинар Б', dict_type_id: 2 }),
    await makeService(t.database.db, { title: 'Сорт: Абонемент', dict_type_id: 3 }),
    await makeService(t.database.db, { title: 'Сорт: Вебинар Б', dict_type_id: 2 }),
  ];
  // 23 entries with repeating prices, statuses, services and creation times: every sort has ties.
  const base = Date.parse('2026-03-01T09:00:00Z');
  for (let i = 0; i < 23; i++) {
    await t.database.db.insert(entries).values({
      number: `S26-${String((i * 7) % 23).padStart(4, '0')}`,
      created_by: clients[i % 3].id,
      service_id: services[i % 3].id,
      price: [500, 1500, 0, 1500, 2750][i % 5],
      status: (i % 3) + 1,
      created_at: new Date(base + Math.floor(i / 2) * 60_000),
    });
  }
});
afterAll(() => t.close());

interface Listed {
  id: number;
  number: string;
  price: number;
  status: number;
  created_at: string;
  user: { fio: string };
  service: { title: string };
}

async function get<T>(url: string): Promise<{ data: T[]; meta: { total: number; last_page: number } }> {
  const res = await t.inject({ method: 'GET', url, headers: op });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
}

/** Every row of a list, page by page (the order the pages put together give). */
async function allPages<T>(path: string, query: string, perPage = 15): Promise<T[]> {
  const first = await get<T>(`${path}?${query}&per_page=${perPage}`);
  const out = [...first.data];
  for (let page = 2; page <= first.meta.last_page; page++) out.push(...(await get<T>(`${path}?${query}&per_page=${perPage}&page=${page}`)).data);
  return out;
}

type Key = string | number;
/** The expected order: by the key (asc or desc), ties by id in the same direction. */
function sortedBy<T extends { id: number }>(list: T[], key: (row: T) => Key, desc: boolean): number[] {
  const dir = desc ? -1 : 1;
  return [...list]
    .sort((a, b) => {
      const x = key(a);
      const y = key(b);
      // The database compares text byte-wise here (C collation), as JavaScript compares code units for these letters.
      if (x !== y) return (x < y ? -1 : 1) * dir;
      return (a.id - b.id) * dir;
    })
    .map((r) => r.id);
}

const entryKeys: Record<(typeof ENTRY_SORTS)[number], (e: Listed) => Key> = {
  created_at: (e) => e.created_at,
  number: (e) => e.number,
  fio: (e) => e.user.fio,
  service: (e) => e.service.title,
  price: (e) => e.price,
  status: (e) => e.status,
};

describe('GET /api/entry?sort=', () => {
  it.each([
    ['the matching clients', `fio=${encodeURIComponent(tag)}`],
    ['the matching services', `service=${encodeURIComponent('Сорт:')}`],
  ])('sorts by every key both ways, the id breaking ties, and pages put together give the same order (through %s)', async (_, filter) => {
    const everything = await allPages<Listed>('/api/entry', filter, 100);
    expect(everything).toHaveLength(23);
    // The default order: newest first.
    expect(everything.map((e) => e.id)).toEqual(sortedBy(everything, entryKeys.created_at, true));
    for (const key of ENTRY_SORTS) {
      for (const desc of [false, true]) {
        const sort = `${desc ? '-' : ''}${key}`;
        const expected = sortedBy(everything, entryKeys[key], desc);
        const whole = await get<Listed>(`/api/entry?${filter}&sort=${sort}&per_page=100`);
        expect(
          whole.data.map((e) => e.id),
          sort,
        ).toEqual(expected);
        // Paged by 15 (two pages): the same order, nothing repeated or skipped.
        expect(
          (await allPages<Listed>('/api/entry', `${filter}&sort=${sort}`)).map((e) => e.id),
          `${sort} paged`,
        ).toEqual(expected);
      }
    }
  });

  it('sorts the unfiltered list, the type filter with a title sort, and the deleted ones', async () => {
    const byPrice = await get<Listed>('/api/entry?sort=-price&per_page=100');
    expect(byPrice.data.map((e) => e.id)).toEqual(sortedBy(byPrice.data, entryKeys.price, true));
    const byTitle = await get<Listed & { service: { title: string; dict_type_id: number } }>('/api/entry?type=2&sort=service&per_page=100');
    expect(byTitle.data.length).toBeGreaterThan(0);
    expect(byTitle.data.every((e) => e.service.dict_type_id === 2)).toBe(true);
    expect(byTitle.meta.total).toBe(byTitle.data.length);
    expect(byTitle.data.map((e) => e.id)).toEqual(sortedBy(byTitle.data, entryKeys.service, false));
    const deleted = await get<Listed>('/api/entry?deleted=1&sort=number');
    expect(deleted.data).toEqual([]);
  });

  it('refuses an unknown sort with 422 and the field message, never 500', async () => {
    for (const sort of ['title', 'price;drop table entries', '--price', 'PRICE', 'user.fio']) {
      const res = await t.inject({ method: 'GET', url: `/api/entry?sort=${encodeURIComponent(sort)}`, headers: op });
      expect(res.statusCode, sort).toBe(422);
      expect(res.json()).toEqual({ message: 'Неизвестная сортировка', errors: { sort: ['Неизвестная сортировка'] } });
    }
    // An empty value is the default order.
    expect((await t.inject({ method: 'GET', url: '/api/entry?sort=', headers: op })).statusCode).toBe(200);
  });
});

/** The rows of a written workbook (header and totals included), as cell values. */
async function sheetRows(write: (out: PassThrough) => Promise<number>, name: string): Promise<unknown[][]> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await write(out);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet(name)!;
  const list: unknown[][] = [];
  sheet.eachRow((row) => list.push((row.values as unknown[]).slice(1)));
  return list;
}

describe('GET /api/entry/excel follows the sort', () => {
  it('writes the rows in the list order across keyset batches, with the totals row', async () => {
    const filter = `fio=${encodeURIComponent(tag)}`;
    for (const sort of ['-price', 'fio', 'created_at', '-status', 'service']) {
      const listed = (await get<Listed>(`/api/entry?${filter}&sort=${sort}&per_page=100`)).data;
      const q = entryListQuery.parse({ fio: tag, sort });
      // Batches of 4 rows: the keyset on (sort column, id) carries across ties.
      const written = await sheetRows((out) => writeXlsx(entriesExport(t.database.db, entryFiltersOf(q)), out, 4), 'Заявки');
      const body = written.slice(1, -1);
      expect(
        body.map((r) => r[1]),
        sort,
      ).toEqual(listed.map((e) => e.number));
      const totals = written[written.length - 1];
      expect(totals[1]).toBe('Итого');
      expect(totals[2]).toBe(`Заявок: ${listed.length}`);
      expect(totals[10]).toBe(listed.reduce((s, e) => s + e.price, 0));
    }
    // Through the route too (the same sort parameter; a bad one is a 422).
    const res = await t.inject({ method: 'GET', url: `/api/entry/excel?${filter}&sort=-price`, headers: op });
    expect(res.statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: `/api/entry/excel?sort=bad`, headers: op })).statusCode).toBe(422);
  });
});

describe('GET /api/payment?sort= and its export', () => {
  it('sorts by date and sum both ways, stable across pages, and the export follows', async () => {
    const client = clients[0];
    const [entry] = await t.database.db.select({ id: entries.id }).from(entries).limit(1);
    const base = Date.parse('2026-04-01T09:00:00Z');
    for (let i = 0; i < 19; i++) {
      const [p] = await t.database.db
        .insert(payments)
        .values({ sum: [300, 1200, 300, 999.5][i % 4], pay_type: (i % 4) + 1, user_id: client.id, created_at: new Date(base + Math.floor(i / 3) * 60_000) })
        .returning({ id: payments.id });
      if (i === 0) await t.database.db.insert(paymentEntries).values({ payment_id: p.id, entry_id: entry.id, sum: 300 });
    }
    type Pay = { id: number; sum: number; created_at_formatted: string };
    const all = await allPages<Pay & { created: string }>('/api/payment', `user_id=${client.id}`, 100);
    expect(all).toHaveLength(19);
    const created = new Map(
      (await t.database.db.select({ id: payments.id, created_at: payments.created_at }).from(payments)).map((r) => [r.id, new Date(r.created_at).getTime()]),
    );
    const keys: Record<(typeof PAYMENT_SORTS)[number], (p: Pay) => Key> = { created_at: (p) => created.get(p.id)!, sum: (p) => p.sum };
    expect(all.map((p) => p.id)).toEqual(sortedBy(all, keys.created_at, true));
    for (const key of PAYMENT_SORTS) {
      for (const desc of [false, true]) {
        const sort = `${desc ? '-' : ''}${key}`;
        const expected = sortedBy(all, keys[key], desc);
        expect(
          (await allPages<Pay>('/api/payment', `user_id=${client.id}&sort=${sort}`)).map((p) => p.id),
          sort,
        ).toEqual(expected);
        const written = await sheetRows((out) => writeXlsx(paymentsExport(t.database.db, { userId: client.id, sort: sort as never }), out, 5), 'Платежи');
        expect(
          written.slice(1, -1).map((r) => r[6]),
          `${sort} export`,
        ).toEqual(expected.map((id) => all.find((p) => p.id === id)!.sum));
        expect(written[written.length - 1][2]).toBe('Платежей: 19');
      }
    }
    const bad = await t.inject({ method: 'GET', url: '/api/payment?sort=uuid', headers: op });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ message: 'Неизвестная сортировка', errors: { sort: ['Неизвестная сортировка'] } });
    expect((await t.inject({ method: 'GET', url: '/api/payment/excel?sort=-uuid', headers: op })).statusCode).toBe(422);
  });
});

describe('GET /api/publication?sort=', () => {
  it('sorts by date, title and status both ways, stable across pages', async () => {
    const author = clients[1];
    const base = Date.parse('2026-05-01T09:00:00Z');
    for (let i = 0; i < 17; i++) {
      await t.database.db.insert(publications).values({
        title: `Статья ${['В', 'А', 'Б'][i % 3]}`,
        status: [1, 2, 0, 4][i % 4],
        created_by: author.id,
        created_at: new Date(base + Math.floor(i / 4) * 60_000),
      });
    }
    type Pub = { id: number; title: string; status: number; created_at: string };
    const all = await allPages<Pub>('/api/publication', `userId=${author.id}`, 100);
    expect(all).toHaveLength(17);
    const keys: Record<(typeof PUBLICATION_SORTS)[number], (p: Pub) => Key> = {
      created_at: (p) => p.created_at,
      title: (p) => p.title,
      status: (p) => p.status,
    };
    expect(all.map((p) => p.id)).toEqual(sortedBy(all, keys.created_at, true));
    for (const key of PUBLICATION_SORTS) {
      for (const desc of [false, true]) {
        const sort = `${desc ? '-' : ''}${key}`;
        expect(
          (await allPages<Pub>('/api/publication', `userId=${author.id}&sort=${sort}`)).map((p) => p.id),
          sort,
        ).toEqual(sortedBy(all, keys[key], desc));
      }
    }
    expect((await t.inject({ method: 'GET', url: '/api/publication?sort=authors', headers: op })).statusCode).toBe(422);
  });
});

describe('GET /api/manager/users?sort=', () => {
  it('sorts by every key both ways, stable across pages (name and e-mail through the pattern path too)', async () => {
    for (let i = 0; i < 14; i++)
      await t.createUser({ last_name: `${tag}а`, first_name: ['Вера', 'Алла'][i % 2], middle_name: 'Юрьевна', email: `sort-${(i * 5) % 14}@example.com` });
    type User = { id: number; fio: string; email: string | null; left_sum: number };
    const all = await allPages<User>('/api/manager/users', `fio=${encodeURIComponent(tag)}`, 100);
    expect(all.length).toBe(17);
    const keys: Record<(typeof USER_SORTS)[number], ((u: User) => Key) | null> = {
      id: (u) => u.id,
      fio: (u) => u.fio,
      email: (u) => (u.email ?? '').toLowerCase(),
      created_at: null,
      left_sum: (u) => u.left_sum,
    };
    for (const key of USER_SORTS) {
      const of = keys[key];
      if (!of) continue;
      for (const desc of [false, true]) {
        const sort = `${desc ? '-' : ''}${key}`;
        expect(
          (await allPages<User>('/api/manager/users', `fio=${encodeURIComponent(tag)}&sort=${sort}`)).map((u) => u.id),
          sort,
        ).toEqual(sortedBy(all, of, desc));
      }
    }
    const bad = await t.inject({ method: 'GET', url: '/api/manager/users?sort=password', headers: op });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ sort: ['Неизвестная сортировка'] });
  });
});
