import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import PizZip from 'pizzip';
import ExcelJS from 'exceljs';
import { ExportStatus, PersonalDataMessages } from '@edu/domain/personal-data/personal-data';
import { rows } from '../../platform/db.ts';
import { USER_FILE_POLICY } from '../../platform/security-headers.ts';
import { createTestApp } from '../../../test/helper.ts';
import { courseEntry, fillContractData, multipart, PDF, png } from '../../../test/documents-fixtures.ts';
import { expireExport } from './personal-data-export.ts';

const t = await createTestApp();
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());
const db = t.database.db;
const op = await t.createUser({ role: 1, last_name: 'Операторова', first_name: 'Ольга' });

/** A client with a passport, SNILS, documents, an avatar, a paid entry with a partly refunded payment, a publication, a certificate, a notification and a letter. */
async function richClient(name = 'Данилова') {
  const u = await t.createUser({ last_name: name, first_name: 'Дарья', middle_name: 'Денисовна' });
  const { entryId } = await courseEntry(t, u.id, { title: 'Курс «Персональные данные в школе»' });
  const h = await fillContractData(t, u);
  const avatar = multipart([{ field: 'file', filename: 'me.png', content: await png(), type: 'image/png' }]);
  const up = await t.inject({ method: 'POST', url: `/api/user/${u.id}/upload-avatar`, headers: { ...h, ...avatar.headers }, payload: avatar.payload });
  expect(up.statusCode, up.body).toBe(200);
  const [pay] = await rows<{ id: number }>(
    db,
    sql`insert into payments (sum, pay_type, user_id, created_by, description) values ('12000.00', 2, ${u.id}, ${op.id}, 'Оплата в офисе') returning id`,
  );
  await db.execute(sql`insert into payment_entries (payment_id, entry_id, sum) values (${pay.id}, ${entryId}, '12000.00')`);
  await db.execute(
    sql`insert into payment_refunds (payment_id, idempotence_key, status, sum, reason, succeeded_at, created_by)
        values (${pay.id}, ${`k-${pay.id}`}, 'succeeded', '1500.50', 'Частичный возврат за пропущенный модуль', now(), ${op.id})`,
  );
  await db.execute(
    sql`insert into issued_documents (entry_id, kind, code, issued_by) values (${entryId}, 'certificate', ${`CODE${u.id}X`.slice(0, 16)}, ${op.id})`,
  );
  await db.execute(sql`insert into notifications (user_id, text, text_clear) values (${u.id}, '<b>Заявка оплачена</b>', 'Заявка оплачена')`);
  const [m] = await rows<{ id: number }>(db, sql`insert into mailings (message, subject, status) values ('Текст', 'Весенняя школа', 'done') returning id`);
  await db.execute(sql`insert into mailing_deliveries (mailing_id, user_id, email, status, sent_at) values (${m.id}, ${u.id}, ${u.email}, 1, now())`);
  const file = await t.app.files.save(db, { userId: u.id, name: 'Статья.pdf', mime: 'application/pdf', buffer: PDF, ext: 'pdf' });
  const [pub] = await rows<{ id: number }>(
    db,
    sql`insert into publications (title, file_id, status, created_by) values ('Цифровая школа', ${file.id}, 4, ${u.id}) returning id`,
  );
  return { ...u, headers: h, entryId, paymentId: pay.id, publicationId: pub.id };
}

async function readyExport(headers: Record<string, string>) {
  const started = await t.inject({ method: 'POST', url: '/api/personal-data/export', headers });
  expect(started.statusCode, started.body).toBe(202);
  return finishedExport(headers);
}

/** Runs the due jobs and reads the newest archive. */
async function finishedExport(headers: Record<string, string>) {
  await t.app.jobs.runDue();
  const state = await t.inject({ method: 'GET', url: '/api/personal-data/export', headers });
  expect(state.statusCode).toBe(200);
  return state.json().data as { id: number; status: number; url: string | null; progress: number; expires_at: string };
}

describe('«Мои данные»: the client’s archive', () => {
  it('holds an HTML summary, a workbook with a sheet per section and the original files, numbers masked', async () => {
    const c = await richClient();
    const none = await t.inject({ method: 'GET', url: '/api/personal-data/export', headers: c.headers });
    expect(none.json()).toEqual({ data: null });

    const started = await t.inject({ method: 'POST', url: '/api/personal-data/export', headers: c.headers });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json().data).toMatchObject({ status: ExportStatus.queued, url: null, status_label: 'В очереди' });
    expect(started.json().message).toBe(PersonalDataMessages.requested);

    const done = (await finishedExport(c.headers)) as { id: number; status: number; url: string; progress: number; expires_at: string };
    expect(done).toMatchObject({ status: ExportStatus.ready, progress: 100 });
    expect(done.url).toMatch(/^\/api\/file\/signed\?t=/);
    expect(new Date(done.expires_at).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);

    const res = await t.inject({ method: 'GET', url: done.url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-security-policy']).toBe(USER_FILE_POLICY);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);

    const zip = new PizZip(res.rawPayload);
    const names = Object.keys(zip.files).sort();
    expect(names).toEqual(
      [
        'Мои данные.html',
        'Мои данные.xlsx',
        'Аватар/me.png',
        'Документы/Паспорт/passport.pdf',
        'Документы/Документ об образовании/diploma.png',
        'Документы/СНИЛС/snils.jpg',
        'Документы/Согласие на обработку персональных данных/consent.pdf',
        `Публикации/${c.publicationId}/Статья.pdf`,
      ].sort(),
    );
    expect(zip.file('Документы/Паспорт/passport.pdf')!.asNodeBuffer().equals(PDF)).toBe(true);

    const html = zip.file('Мои данные.html')!.asText();
    for (const heading of ['Профиль', 'Заявки', 'Оплаты', 'Возвраты', 'Публикации', 'Сертификаты и коды проверки', 'Отправленные письма', 'Согласия'])
      expect(html).toContain(`<h2>${heading}</h2>`);
    expect(html).toContain('Данилова Дарья Денисовна');
    expect(html).toContain(`CODE${c.id}X`.slice(0, 16));
    expect(html).toContain('Весенняя школа');
    expect(html).toContain('Частичный возврат за пропущенный модуль');
    expect(html).toContain('1\u00a0500,5\u00a0₽');
    // Passport 4010 123456 and SNILS 112-233-445 95: only the last three digits.
    expect(html).toContain('•••• •••456');
    expect(html).toContain('•••-•••-••5 95');
    expect(html).not.toContain('123456');
    expect(html).not.toContain('112-233-445');
    expect(html).not.toMatch(/<script/i);

    const book = new ExcelJS.Workbook();
    await book.xlsx.load(zip.file('Мои данные.xlsx')!.asNodeBuffer() as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(
      expect.arrayContaining(['Профиль', 'Заявки', 'Оплаты', 'Возвраты', 'Договоры', 'Сертификаты', 'Письма', 'Согласия']),
    );
    const payments = book.getWorksheet('Оплаты')!;
    expect(payments.getRow(2).getCell(2).value).toBe('12\u00a0000\u00a0₽');
    const consents = book.getWorksheet('Согласия')!;
    expect(String(consents.getRow(2).getCell(1).value)).toContain('при регистрации');
  });

  it('one archive at a time: a second request while one is queued gets 429 in Russian', async () => {
    const u = await t.createUser();
    const h = await t.loginAs(u);
    expect((await t.inject({ method: 'POST', url: '/api/personal-data/export', headers: h })).statusCode).toBe(202);
    const again = await t.inject({ method: 'POST', url: '/api/personal-data/export', headers: h });
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toBe(PersonalDataMessages.running);
    await t.app.jobs.runDue();
    expect((await t.inject({ method: 'POST', url: '/api/personal-data/export', headers: h })).statusCode).toBe(202);
  });

  it('two requests at once: one archive is queued, the other refused', async () => {
    const u = await t.createUser();
    const h = await t.loginAs(u);
    const both = await Promise.all([1, 2].map(() => t.inject({ method: 'POST', url: '/api/personal-data/export', headers: h })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([202, 429]);
    const [n] = await rows<{ n: number }>(db, sql`select count(*)::int as n from personal_data_exports where user_id = ${u.id}`);
    expect(n.n).toBe(1);
  });

  it('another user reaches neither the archive nor its state; without a session 401', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const mine = await readyExport(await t.loginAs(a));
    const other = await t.inject({ method: 'GET', url: `/api/personal-data/export/${mine.id}`, headers: await t.loginAs(b) });
    expect(other.statusCode).toBe(404);
    const own = await t.inject({ method: 'GET', url: `/api/personal-data/export/${mine.id}`, headers: await t.loginAs(a) });
    expect(own.json().data.url).toBe(mine.url);
    expect((await t.inject({ method: 'GET', url: '/api/personal-data/export', headers: await t.loginAs(b) })).json().data).toBeNull();
    expect((await t.inject({ method: 'GET', url: '/api/personal-data/export' })).statusCode).toBe(401);
    expect((await t.inject({ method: 'POST', url: '/api/personal-data/export' })).statusCode).toBe(401);
    // A forged token (another key in a re-signed body) is refused.
    const forged = mine.url!.replace(/t=([^.]+)\./, (_, body: string) => `t=${body.slice(0, -2)}xx.`);
    expect((await t.inject({ method: 'GET', url: forged })).statusCode).toBe(404);
  });

  it('the link expires: past its time it no longer works, and the expiry job removes the zip', async () => {
    const u = await t.createUser();
    const h = await t.loginAs(u);
    const ready = await readyExport(h);
    const [row] = await rows<{ storage_key: string }>(db, sql`select storage_key from personal_data_exports where id = ${ready.id}`);
    expect(await t.app.files.getGenerated(row.storage_key)).not.toBeNull();

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 25 * 3600_000);
    expect((await t.inject({ method: 'GET', url: ready.url! })).statusCode).toBe(404);
    const lapsed = (await t.inject({ method: 'GET', url: '/api/personal-data/export', headers: h })).json().data;
    expect(lapsed).toMatchObject({ status: ExportStatus.expired, url: null });
    vi.useRealTimers();

    const [job] = await rows<{ run_at: Date }>(
      db,
      sql`select run_at from jobs where name = 'expire-personal-data-export' and unique_key = ${String(ready.id)}`,
    );
    expect(new Date(job.run_at).toISOString()).toBe(ready.expires_at);
    await expireExport(t.app, { exportId: ready.id });
    expect(await t.app.files.getGenerated(row.storage_key)).toBeNull();
    const after = (await t.inject({ method: 'GET', url: '/api/personal-data/export', headers: h })).json().data;
    expect(after).toMatchObject({ status: ExportStatus.expired, url: null });
  });
});

describe('the operator: a client’s archive on a written request, and erasure', () => {
  it('prepares the same archive for a client, logged naming the operator; clients get 403', async () => {
    const c = await t.createUser({ last_name: 'Заявителева' });
    const oh = await t.loginAs(op);
    const res = await t.inject({ method: 'POST', url: `/api/manager/users/${c.id}/personal-data/export`, headers: oh });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data.requested_by_operator).toBe(true);
    await t.app.jobs.runDue();
    const card = await t.inject({ method: 'GET', url: `/api/manager/users/${c.id}/personal-data`, headers: oh });
    expect(card.json().data).toMatchObject({ user_id: c.id, erased_at: null, export: { status: ExportStatus.ready } });
    const zip = await t.inject({ method: 'GET', url: card.json().data.export.url });
    expect(new PizZip(zip.rawPayload).file('Мои данные.html')!.asText()).toContain('Заявителева');
    const [log] = await rows<{ user_id: number; diff: Record<string, { new: string }> }>(
      db,
      sql`select user_id, diff from change_logs where type = 'user' and entity_id = ${c.id} and diff ? 'personal_data_export'`,
    );
    expect(log).toMatchObject({ user_id: op.id, diff: { personal_data_export: { new: `Архив № ${res.json().data.id}` } } });

    const ch = await t.loginAs(c);
    expect((await t.inject({ method: 'POST', url: `/api/manager/users/${c.id}/personal-data/export`, headers: ch })).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: `/api/manager/users/${c.id}/personal-data`, headers: ch })).statusCode).toBe(403);
    expect((await t.inject({ method: 'POST', url: `/api/manager/users/${c.id}/erase`, headers: ch, payload: { reason: 'x' } })).statusCode).toBe(403);
    expect((await t.inject({ method: 'POST', url: `/api/manager/users/${c.id}/erase`, payload: { reason: 'x' } })).statusCode).toBe(401);
  });

  it('erases personal data, keeps entries, payments and refunds with their sums, ends sessions and logs the operator and the reason', async () => {
    const c = await richClient('Стиралова');
    const oh = await t.loginAs(op);
    // An archive made before the erasure holds the person's data: it goes too.
    const archive = await readyExport(c.headers);
    const [zipRow] = await rows<{ storage_key: string }>(db, sql`select storage_key from personal_data_exports where id = ${archive.id}`);
    const fileKeys = await rows<{ storage_key: string }>(
      db,
      sql`select f.storage_key from files f where f.id in (select file_id from user_documents where user_id = ${c.id}) or f.id = (select avatar_id from users where id = ${c.id})`,
    );
    expect(fileKeys.length).toBe(5);

    const empty = await t.inject({ method: 'POST', url: `/api/manager/users/${c.id}/erase`, headers: oh, payload: { reason: '  ' } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.reason).toEqual([PersonalDataMessages.reasonRequired]);

    const res = await t.inject({ method: 'POST', url: `/api/manager/users/${c.id}/erase`, headers: oh, payload: { reason: 'Заявление № 17 от 20.11.2026' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(PersonalDataMessages.erased);

    const [u] = await rows<Record<string, unknown>>(db, sql`select * from users where id = ${c.id}`);
    expect(u).toMatchObject({
      last_name: 'Удалённый пользователь',
      first_name: '',
      middle_name: null,
      email: `erased-${c.id}@erased.invalid`,
      phone: null,
      password: null,
      snils: null,
      address: null,
      birthday: null,
      avatar_id: null,
      organization: null,
    });
    expect(u.erased_at).not.toBeNull();
    expect(u.deleted_at).not.toBeNull();
    // The operator's card says so: the modal shows it read-only.
    const managed = await t.inject({ method: 'GET', url: `/api/manager/users/${c.id}`, headers: oh });
    expect(managed.json().data.erased_at).toBe(new Date(u.erased_at as string).toISOString());
    for (const table of ['identity_documents', 'user_documents', 'notifications', 'access_tokens', 'user_profiles']) {
      const [n] = await rows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.raw(table)} where user_id = ${c.id}`);
      expect(n.n, table).toBe(0);
    }
    for (const f of fileKeys) expect(await t.app.files.getGeneratedOrFile(f.storage_key)).toBeNull();
    expect(await t.app.files.getGenerated(zipRow.storage_key)).toBeNull();
    expect((await t.inject({ method: 'GET', url: archive.url! })).statusCode).toBe(404);

    // Money records stay, whole.
    const [money] = await rows<{ sum: string; refund: string; entry_price: string; entry_owner: number; status: number }>(
      db,
      sql`select p.sum, r.sum as refund, e.price as entry_price, e.created_by as entry_owner, e.status
          from payments p join payment_refunds r on r.payment_id = p.id join payment_entries pe on pe.payment_id = p.id join entries e on e.id = pe.entry_id
          where p.id = ${c.paymentId}`,
    );
    expect(money).toEqual({ sum: '12000.00', refund: '1500.50', entry_price: '12000.00', entry_owner: c.id, status: 2 });
    const [code] = await rows<{ n: number }>(db, sql`select count(*)::int as n from issued_documents where entry_id = ${c.entryId}`);
    expect(code.n).toBe(1);

    // Login is impossible: the old session and the old password.
    expect((await t.inject({ method: 'GET', url: '/api/personal-data/export', headers: c.headers })).statusCode).toBe(401);
    expect((await t.inject({ method: 'POST', url: '/login', payload: { email: c.email, password: c.password } })).statusCode).toBe(401);

    // The log: the field changes (numbers masked) and the erasure with its reason, both naming the operator.
    const logs = await rows<{ user_id: number; diff: Record<string, { old: unknown; new: unknown }> }>(
      db,
      sql`select user_id, diff from change_logs where type = 'user' and entity_id = ${c.id} and (diff ? 'personal_data_erased' or diff ? 'erased_at') order by id`,
    );
    expect(logs.map((l) => l.user_id)).toEqual([op.id, op.id]);
    expect(logs[0].diff.last_name).toEqual({ old: 'Стиралова', new: 'Удалённый пользователь' });
    expect(logs[0].diff.passport_number).toEqual({ old: '•••• •••456', new: null });
    expect(logs[0].diff.snils).toEqual({ old: '•••-•••-••5 95', new: null });
    expect(logs[0].diff.password).toEqual({ old: '••••••', new: null });
    expect(logs[1].diff.personal_data_erased).toEqual({ old: null, new: 'Заявление № 17 от 20.11.2026' });
    expect(JSON.stringify(logs)).not.toContain('123456');

    // Never twice, never restored, no archive of nothing.
    const again = await t.inject({ method: 'POST', url: `/api/manager/users/${c.id}/erase`, headers: oh, payload: { reason: 'ещё раз' } });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(PersonalDataMessages.alreadyErased);
    const restore = await t.inject({ method: 'POST', url: `/api/manager/users/${c.id}/restore`, headers: oh });
    expect(restore.statusCode).toBe(422);
    const exp = await t.inject({ method: 'POST', url: `/api/manager/users/${c.id}/personal-data/export`, headers: oh });
    expect(exp.statusCode).toBe(422);
    // Nor written back through the user card.
    const card = await t.inject({
      method: 'PUT',
      url: `/api/manager/users/${c.id}`,
      headers: oh,
      payload: {
        last_name: 'Стиралова',
        first_name: 'Дарья',
        email: c.email,
        phone: c.phone,
        organization: 'Школа',
        job_title: 'Учитель',
        role: 2,
        profiles: [1],
      },
    });
    expect(card.statusCode, card.body).toBe(422);
    expect(card.json().message).toBe(PersonalDataMessages.alreadyErased);

    // Lists still show the entry, with the placeholder name.
    const list = await t.inject({ method: 'GET', url: `/api/manager/users/${c.id}`, headers: oh });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.last_name).toBe('Удалённый пользователь');
  });

  it('refuses operators, oneself and a client with a payment in progress, saying why', async () => {
    const oh = await t.loginAs(op);
    const other = await t.createUser({ role: 1 });
    const opRes = await t.inject({ method: 'POST', url: `/api/manager/users/${other.id}/erase`, headers: oh, payload: { reason: 'Заявление' } });
    expect(opRes.statusCode).toBe(422);
    expect(opRes.json().message).toBe(PersonalDataMessages.noEraseOperator);
    const self = await t.inject({ method: 'POST', url: `/api/manager/users/${op.id}/erase`, headers: oh, payload: { reason: 'Заявление' } });
    expect(self.json().message).toBe(PersonalDataMessages.noEraseSelf);

    const c = await t.createUser();
    await db.execute(
      sql`insert into card_transactions (provider, idempotence_key, status, sum, user_id, created_by) values ('sandbox', ${`pend-${c.id}`}, 'pending', '500.00', ${c.id}, ${c.id})`,
    );
    const busy = await t.inject({ method: 'POST', url: `/api/manager/users/${c.id}/erase`, headers: oh, payload: { reason: 'Заявление' } });
    expect(busy.statusCode).toBe(422);
    expect(busy.json().message).toBe(PersonalDataMessages.openMoney);
    const [still] = await rows<{ erased_at: Date | null }>(db, sql`select erased_at from users where id = ${c.id}`);
    expect(still.erased_at).toBeNull();
    expect((await t.inject({ method: 'POST', url: '/api/manager/users/999999/erase', headers: oh, payload: { reason: 'Заявление' } })).statusCode).toBe(404);
  });
});
