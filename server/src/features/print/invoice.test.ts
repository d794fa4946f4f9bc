import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PrintMessages } from '@edu/domain/documents/print';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { entries, servicePackages, servicePackageServices } from '../../db/schema/index.ts';
import { saveRequisites } from '../macros/requisites.ts';
import { pdfText } from '../../../test/documents-fixtures.ts';

let t: TestApp;
let op: Record<string, string>;
let client: { id: number };
let clientH: Record<string, string>;
let otherH: Record<string, string>;
let seq = 0;

const REQUISITES = {
  name: 'АНО ДПО «Центр»',
  full_name: 'Автономная некоммерческая организация дополнительного профессионального образования «Центр развития педагогов»',
  inn: '7801234567',
  kpp: '780101001',
  address: '190000, г. Санкт-Петербург, ул. Садовая, д. 1',
  bank: 'ПАО Сбербанк',
  bik: '044030653',
  account: '40703810955000001234',
  corr_account: '30101810500000000653',
  director: 'Петрова Е. А.',
  director_position: 'Директор',
};

async function makeEntry(serviceId: number, attrs: Partial<typeof entries.$inferInsert> = {}): Promise<{ id: number; number: string }> {
  const [row] = await t.database.db
    .insert(entries)
    .values({ number: `INV-${seq++}`, created_by: client.id, service_id: serviceId, price: 2500, status: 1, pay_type: 1, ...attrs })
    .returning({ id: entries.id, number: entries.number });
  return row;
}

const print = (id: number, headers: Record<string, string>) => t.inject({ method: 'GET', url: `/api/entry/${id}/print/invoice`, headers });

async function invoiceText(id: number, headers: Record<string, string>): Promise<string> {
  const res = await print(id, headers);
  expect(res.statusCode, res.body).toBe(200);
  const doc = await t.inject({ method: 'GET', url: res.json().url });
  expect(doc.statusCode).toBe(200);
  expect(doc.headers['content-type']).toContain('application/pdf');
  return pdfText(doc.rawPayload);
}

beforeAll(async () => {
  t = await createTestApp();
  op = await t.loginAs(await t.createUser({ role: 1 }));
  client = await t.createUser({ last_name: 'Смирнова', first_name: 'Анна', middle_name: 'Сергеевна', organization: 'ГБОУ СОШ № 5' });
  clientH = await t.loginAs(client);
  otherH = await t.loginAs(await t.createUser());
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe('bank invoice (счёт на оплату)', () => {
  it('is refused with what to fill while the centre has no bank requisites: the operator is told which, the client to wait', async () => {
    const service = await makeService(t.database.db, { title: 'Семинар без реквизитов', price: 2500 });
    const entry = await makeEntry(service.id);
    const asClient = await print(entry.id, clientH);
    expect(asClient.statusCode).toBe(422);
    expect(asClient.json().message).toBe(PrintMessages.invoiceLater);
    const asOperator = await print(entry.id, op);
    expect(asOperator.statusCode).toBe(422);
    expect(asOperator.json().message).toContain('БИК');
    expect(asOperator.json().message).toContain('Расчётный счёт');
  });

  it('prints the centre requisites, the client, the service and the sum in figures and words for a bank entry', async () => {
    await saveRequisites(t.database.db, REQUISITES);
    const service = await makeService(t.database.db, { title: 'Семинар «Цифровая школа»', price: 2500 });
    const entry = await makeEntry(service.id);
    const listed = (await t.inject({ method: 'GET', url: `/api/entry/${entry.id}`, headers: clientH })).json().data;
    expect(listed.printable).toContain('invoice');
    const text = await invoiceText(entry.id, clientH);
    expect(text).toContain(`Счёт на оплату № ${entry.number}`);
    for (const part of ['ПАО Сбербанк', '044030653', '40703810955000001234', '30101810500000000653', 'ИНН 7801234567', 'КПП 780101001'])
      expect(text).toContain(part);
    expect(text).toContain('Смирнова Анна Сергеевна');
    expect(text).toContain('ГБОУ СОШ № 5');
    expect(text).toContain('Семинар «Цифровая школа»');
    expect(text).toContain('2 500,00');
    expect(text).toContain('Две тысячи пятьсот рублей 00 копеек');
    expect(text).toContain(`заявка № ${entry.number}`);
    expect(text).toContain('Без налога (НДС)');
  });

  it('is for unpaid entries with a sum; a client prints it for bank entries only, an operator for any unpaid one; others get 404', async () => {
    const service = await makeService(t.database.db, { title: 'Вебинар для правил счёта', price: 900 });
    const online = await makeEntry(service.id, { pay_type: 3 });
    const paid = await makeEntry(service.id, { status: 2 });
    const free = await makeEntry(service.id, { price: 0 });
    const bank = await makeEntry(service.id);
    expect((await print(online.id, clientH)).json().message).toBe(PrintMessages.invoiceBankOnly);
    expect((await print(online.id, op)).statusCode).toBe(200);
    expect((await print(paid.id, clientH)).json().message).toBe(PrintMessages.invoicePaid);
    expect((await print(free.id, op)).json().message).toBe(PrintMessages.invoiceFree);
    expect((await print(bank.id, otherH)).statusCode).toBe(404);
    const listed = (await t.inject({ method: 'GET', url: `/api/entry/${online.id}`, headers: clientH })).json().data;
    expect(listed.printable).not.toContain('invoice');
  });

  it('a whole unpaid package is invoiced as one line at the package price naming all its entries', async () => {
    const db = t.database.db;
    const course = await makeService(db, { title: 'Курс «Наставничество»', price: 4900, date_type: 2, begda: null, endda: null });
    const webinar = await makeService(db, { title: 'Вебинар «Урок»', price: 700 });
    const [p] = await db.insert(servicePackages).values({ title: 'Пакет «Молодой педагог»', price: 5000 }).returning();
    await db.insert(servicePackageServices).values([course, webinar].map((s, position) => ({ service_package_id: p.id, service_id: s.id, position })));
    const res = await t.inject({
      method: 'POST',
      url: `/api/service-package/${p.id}/enroll`,
      headers: clientH,
      payload: { services: { [course.id]: null, [webinar.id]: null } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json().data.entries as Array<{ id: number; number: string }>;
    // The operator agreed to a bank transfer for this package.
    for (const e of made) await db.update(entries).set({ pay_type: 1 }).where(eq(entries.id, e.id));
    const text = await invoiceText(made[0].id, clientH);
    expect(text).toContain('Пакет услуг: Пакет «Молодой педагог» (Курс «Наставничество»; Вебинар «Урок»)');
    expect(text).toContain('5 000,00');
    expect(text).toContain('Пять тысяч рублей 00 копеек');
    // pdftotext drops the hyphen where a number wraps at the end of a line.
    expect(text.replace(/-/g, '')).toContain(`заявки № ${made.map((e) => e.number.replace(/-/g, '')).join(', ')}`);
  });
});
