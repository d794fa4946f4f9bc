import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { Role } from '@edu/domain/common/codes';
import type { Todo } from '@edu/domain/statistics/todo';
import {
  contracts,
  dictServiceTypes,
  entries,
  files,
  mailings,
  paymentRefunds,
  payments,
  publicationEntries,
  publications,
  services,
} from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { courseEntry } from '../../../test/documents-fixtures.ts';

let t: TestApp;
let operator: Record<string, string>;
let clientId: number;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  const op = await t.createUser({ role: Role.operator });
  operator = await t.loginAs(op);
  clientId = (await t.createUser({ last_name: 'Задачина' })).id;
});
afterAll(() => t.close());

async function todo(): Promise<Todo> {
  const res = await t.inject({ method: 'GET', url: '/api/manager/todo', headers: operator });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** The total of a list the dashboard links to. */
async function totalOf(url: string): Promise<number> {
  const res = await t.inject({ method: 'GET', url, headers: operator });
  expect(res.statusCode).toBe(200);
  return res.json().meta.total;
}

const hour = 3_600_000;
const db = () => t.database.db;

async function entryOf(serviceId: number, status = 1, attrs: Partial<typeof entries.$inferInsert> = {}) {
  const [e] = await db()
    .insert(entries)
    .values({ number: `TD-${++seq}`, created_by: clientId, service_id: serviceId, status, price: 500, ...attrs })
    .returning({ id: entries.id });
  return e.id;
}

describe('GET /api/manager/todo', () => {
  it('is for operators only', async () => {
    expect((await t.inject({ method: 'GET', url: '/api/manager/todo' })).statusCode).toBe(401);
    const client = await t.loginAs({ id: clientId });
    expect((await t.inject({ method: 'GET', url: '/api/manager/todo', headers: client })).statusCode).toBe(403);
  });

  it('counts publications waiting for moderation, and the unpaid ones among them', async () => {
    const before = await todo();
    const service = await makeService(db(), { title: 'Публикация в сборнике' });
    const publication = async (status: number, paid: boolean | null, deleted = false) => {
      const [p] = await db()
        .insert(publications)
        .values({ title: `Статья ${++seq}`, status, created_by: clientId, deleted_at: deleted ? new Date() : null })
        .returning({ id: publications.id });
      if (paid !== null)
        await db()
          .insert(publicationEntries)
          .values({ publication_id: p.id, entry_id: await entryOf(service.id, paid ? 2 : 1) });
    };
    await publication(1, true);
    await publication(1, false);
    await publication(1, null);
    await publication(2, false); // approved: not waiting
    await publication(1, false, true); // deleted
    const after = await todo();
    expect(after.publications_pending - before.publications_pending).toBe(3);
    expect(after.publications_pending_unpaid - before.publications_pending_unpaid).toBe(2);
    expect(await totalOf('/api/publication?status=1&isPaid=0')).toBe(after.publications_pending_unpaid);
  });

  it('counts scans to check apart from contracts still waiting for a scan, as the board filters them', async () => {
    const before = await todo();
    const waiting = await courseEntry(t, clientId, { title: 'Курс без скана' });
    const withScan = await courseEntry(t, clientId, { title: 'Курс со сканом' });
    const approved = await courseEntry(t, clientId, { title: 'Курс одобренный' });
    const [f] = await db()
      .insert(files)
      .values({ user_id: clientId, name: 'scan.pdf', storage_key: `k-${seq}`, mime: 'application/pdf', size: 10 })
      .returning({ id: files.id });
    await db().insert(contracts).values({ entry_id: withScan.entryId, user_id: clientId, service_id: withScan.serviceId, status: 1, file_id: f.id });
    await db().insert(contracts).values({ entry_id: approved.entryId, user_id: clientId, service_id: approved.serviceId, status: 2, file_id: f.id });
    expect(waiting.entryId).toBeGreaterThan(0);
    const after = await todo();
    expect(after.contracts_to_review - before.contracts_to_review).toBe(1);
    expect(after.contracts_waiting_scan - before.contracts_waiting_scan).toBe(1);
    expect(await totalOf('/api/contract?status=1&scan=1')).toBe(after.contracts_to_review);
    expect(await totalOf('/api/contract?status=1&scan=0')).toBe(after.contracts_waiting_scan);
    expect(await totalOf('/api/contract?status=1')).toBe(after.contracts_to_review + after.contracts_waiting_scan);
  });

  it('counts unpaid entries of dated services that have begun, as the entry list filters them', async () => {
    const before = await todo();
    const past = await makeService(db(), { title: 'Прошедший семинар', begda: new Date(Date.now() - 48 * hour), endda: new Date(Date.now() - 47 * hour) });
    const future = await makeService(db(), { title: 'Будущий семинар' });
    const permanent = await makeService(db(), { title: 'Постоянный курс', date_type: 2, begda: new Date(Date.now() - 48 * hour) });
    await entryOf(past.id, 1);
    await entryOf(past.id, 2); // paid
    await entryOf(past.id, 1, { deleted_at: new Date() });
    await entryOf(future.id, 1);
    await entryOf(permanent.id, 1);
    const after = await todo();
    expect(after.entries_overdue - before.entries_overdue).toBe(1);
    expect(await totalOf('/api/entry?overdue=1')).toBe(after.entries_overdue);
    expect(await totalOf(`/api/entry?overdue=1&service_id=${past.id}`)).toBe(1);
    expect(await totalOf(`/api/entry?service_id=${past.id}`)).toBe(2);
  });

  it('counts double payments not refunded and refunds pending or refused, as the payment list filters them', async () => {
    const before = await todo();
    const pay = async (isDouble: boolean) => {
      const [p] = await db()
        .insert(payments)
        .values({ sum: 500, pay_type: 3, user_id: clientId, is_double: isDouble, uuid: `td-${++seq}` })
        .returning({ id: payments.id });
      return p.id;
    };
    const refund = (paymentId: number, status: string) =>
      db()
        .insert(paymentRefunds)
        .values({ payment_id: paymentId, status, sum: 500, reason: 'Возврат', idempotence_key: `td-${++seq}` });
    await pay(true); // double, nothing given back: counts
    await refund(await pay(true), 'succeeded'); // double, refunded: done
    await refund(await pay(false), 'canceled'); // the provider refused: counts
    await refund(await pay(false), 'pending'); // waiting for the provider: counts
    await pay(false); // an ordinary payment
    const after = await todo();
    expect(after.payments_attention - before.payments_attention).toBe(3);
    expect(await totalOf('/api/payment?state=attention')).toBe(after.payments_attention);
  });

  it('counts mailings with failed letters of the last week and services the site refused', async () => {
    const before = await todo();
    await db().insert(mailings).values({ message: 'Письмо', status: 'done', recipients: 3, sent: 2, failed: 1 });
    await db()
      .insert(mailings)
      .values({ message: 'Старое письмо', status: 'done', recipients: 3, sent: 2, failed: 1, created_at: new Date(Date.now() - 8 * 24 * hour) });
    await db().insert(mailings).values({ message: 'Без ошибок', status: 'done', recipients: 3, sent: 3, failed: 0 });
    const failed = await makeService(db(), { title: 'Не опубликован на сайте' });
    await db()
      .update(services)
      .set({ joomla_status: 'error', joomla_error: 'HTTP 500' })
      .where(sql`id = ${failed.id}`);
    const published = await makeService(db(), { title: 'Опубликован на сайте' });
    await db()
      .update(services)
      .set({ joomla_status: 'published' })
      .where(sql`id = ${published.id}`);
    const after = await todo();
    expect(after.mailing_failed - before.mailing_failed).toBe(1);
    expect(after.services_publish_failed - before.services_publish_failed).toBe(1);
    expect(await totalOf('/api/service/overview?site=error')).toBe(after.services_publish_failed);
  });

  it('counts service types without a default certificate and requisites still missing', async () => {
    const before = await todo();
    await db().insert(dictServiceTypes).values({ fdv: 'Новый тип без шаблона' });
    const requisites = (values: Record<string, string>) => t.inject({ method: 'PUT', url: '/api/settings/requisites', headers: operator, payload: values });
    expect((await requisites({ full_name: 'АНО ДПО «Учебный центр»', inn: '7801234567' })).statusCode).toBe(200);
    const after = await todo();
    expect(after.templates_missing - before.templates_missing).toBe(1);
    // full_name, inn, bank, bik, account are needed: two filled, three missing.
    expect(after.requisites_missing).toBe(3);
    await requisites({ full_name: 'АНО ДПО «Учебный центр»', inn: '7801234567', bank: 'Банк', bik: '044525225', account: '40702810900000000001' });
    expect((await todo()).requisites_missing).toBe(0);
  });
});
