import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractMessages } from '@edu/domain/contracts/contract';
import { DocumentMessages } from '@edu/domain/documents/documents';
import { changeLogs, entries, notifications, registrationCounters, registrationNumbers } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { courseEntry, fillContractData, jpg, multipart, PDF } from '../../../test/documents-fixtures.ts';
import { rows } from '../../platform/db.ts';
import { moscowYear } from '@edu/domain/common/moscow-time';

let t: TestApp;
let operator: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  const op = await t.createUser({ role: 1, last_name: 'Операторова' });
  operator = await t.loginAs(op);
});
afterAll(() => t.close());

function uploadScan(entryId: number, h: Record<string, string>, content: Buffer = PDF, filename = 'contract.pdf') {
  const body = multipart([{ field: 'file', filename, content, type: 'application/pdf' }]);
  return t.inject({ method: 'POST', url: `/api/contract/upload?entry_id=${entryId}`, headers: { ...h, ...body.headers }, payload: body.payload });
}

/** A course client with complete contract data. */
async function readyClient(lastName = 'Иванова') {
  const u = await t.createUser({ last_name: lastName, first_name: 'Мария', middle_name: 'Сергеевна' });
  const { entryId } = await courseEntry(t, u.id, { title: `Курс для ${lastName}` });
  const h = await fillContractData(t, u);
  return { u, h, entryId };
}

async function contractOf(entryId: number, h: Record<string, string> = operator) {
  const res = await t.inject({ method: 'GET', url: `/api/contract?entry_id=${entryId}`, headers: h });
  return res.json().data[0];
}

describe('contract scan upload (client)', () => {
  it('a course entry has a pending card without a scan from the start', async () => {
    const u = await t.createUser({ last_name: 'Безсканова' });
    const { entryId } = await courseEntry(t, u.id);
    const card = await contractOf(entryId);
    expect(card).toMatchObject({ id: null, status: 1, file: null, user: { id: u.id }, entry: { id: entryId } });
    // Accept and reject need a contract with a scan: there is none to act on.
  });

  it('needs complete contract data first, then stores the scan as pending', async () => {
    const u = await t.createUser();
    const { entryId } = await courseEntry(t, u.id);
    const h = await fillContractData(t, u, { consent: false });
    const early = await uploadScan(entryId, h);
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe(ContractMessages.documentsFirst);
    const consent = multipart([{ field: 'consent', filename: 'c.jpg', content: await jpg(), type: 'image/jpeg' }]);
    await t.inject({ method: 'POST', url: `/api/user/${u.id}/upload-documents`, headers: { ...h, ...consent.headers }, payload: consent.payload });
    const ok = await uploadScan(entryId, h);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(DocumentMessages.fileUploaded);
    expect(ok.json().data).toMatchObject({ status: 1, statusLabel: 'Ожидает проверки', file: { name: 'contract.pdf' } });
    expect(ok.json().data.id).toBeGreaterThan(0);
    // The scan is served sandboxed, like every user file (issue 29).
    const scan = await t.inject({ method: 'GET', url: ok.json().data.file.url, headers: h });
    expect(scan.statusCode).toBe(200);
    expect(scan.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });

  it("refuses wrong content, another user's entry and entries that need no contract", async () => {
    const { h, entryId } = await readyClient('Проверкина');
    const fake = await uploadScan(entryId, h, Buffer.from('PK\x03\x04 not a pdf'), 'contract.pdf');
    expect(fake.statusCode).toBe(422);
    expect(fake.json().errors.file).toEqual([DocumentMessages.fileType]);
    const stranger = await readyClient('Чужакова');
    expect((await uploadScan(entryId, stranger.h)).statusCode).toBe(404);
    const { entryId: webinar } = await courseEntry(t, stranger.u.id, { typeId: 1 });
    const res = await uploadScan(webinar, stranger.h);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(ContractMessages.notContractEntry);
    // The client's list shows own contracts only, whatever the filters say.
    const peek = await t.inject({ method: 'GET', url: `/api/contract?user_id=${stranger.u.id}&entry_id=${entryId}`, headers: stranger.h });
    expect(peek.json().data).toEqual([]);
    const own = await t.inject({ method: 'GET', url: `/api/contract?entry_id=${entryId}`, headers: h });
    expect(own.json().data).toHaveLength(1);
  });
});

describe('review (operator)', () => {
  it('reject with a comment, upload again, accept; the client is notified; actions are for operators only', async () => {
    const { u, h, entryId } = await readyClient('Отклонова');
    const first = await uploadScan(entryId, h);
    const id = first.json().data.id as number;

    expect((await t.inject({ method: 'POST', url: `/api/contract/${id}/accept`, headers: h })).statusCode).toBe(403);
    expect((await t.inject({ method: 'POST', url: `/api/contract/${id}/reject`, headers: h, payload: {} })).statusCode).toBe(403);

    const rej = await t.inject({
      method: 'POST',
      url: `/api/contract/${id}/reject`,
      headers: operator,
      payload: { comment: 'Нет подписи на второй странице' },
    });
    expect(rej.statusCode).toBe(200);
    const rejected = await contractOf(entryId, h);
    expect(rejected).toMatchObject({ id, status: 3, statusLabel: 'Отклонён', comment: 'Нет подписи на второй странице' });
    // A decided contract is not decided again.
    const again = await t.inject({ method: 'POST', url: `/api/contract/${id}/accept`, headers: operator });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(ContractMessages.alreadyReviewed);

    const second = await uploadScan(entryId, h, await jpg(), 'contract-signed.jpg');
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toMatchObject({ id, status: 1, comment: null, file: { name: 'contract-signed.jpg', mime: 'image/jpeg' } });

    expect((await t.inject({ method: 'POST', url: `/api/contract/${id}/accept`, headers: operator })).statusCode).toBe(200);
    expect(await contractOf(entryId, h)).toMatchObject({ status: 2, statusLabel: 'Одобрен' });
    const approvedAgain = await uploadScan(entryId, h);
    expect(approvedAgain.statusCode).toBe(422);
    expect(approvedAgain.json().message).toBe(ContractMessages.alreadyApproved);

    // The review raises events; their job writes the notifications after the commit.
    await t.app.jobs.runDue();
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.user_id, u.id)).orderBy(notifications.id);
    expect(notes.map((n) => n.text_clear).join(' | ')).toMatch(/отклонён\. Причина: Нет подписи на второй странице.*\| .*одобрен/);
  });

  it('two operators deciding at once: exactly one wins', async () => {
    const { h, entryId } = await readyClient('Гонкина');
    const id = (await uploadScan(entryId, h)).json().data.id as number;
    const [a, b] = await Promise.all([
      t.inject({ method: 'POST', url: `/api/contract/${id}/accept`, headers: operator }),
      t.inject({ method: 'POST', url: `/api/contract/${id}/reject`, headers: operator, payload: { comment: 'x' } }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 422]);
  });

  it('an unknown contract is 404 and the reject comment is optional', async () => {
    expect((await t.inject({ method: 'POST', url: '/api/contract/999999/accept', headers: operator })).statusCode).toBe(404);
    const { h, entryId } = await readyClient('Безкомментова');
    const id = (await uploadScan(entryId, h)).json().data.id as number;
    const res = await t.inject({ method: 'POST', url: `/api/contract/${id}/reject`, headers: operator });
    expect(res.statusCode).toBe(200);
    expect(await contractOf(entryId)).toMatchObject({ status: 3, comment: null });
  });

  it('lists the three columns by status with totals and searches by fio', async () => {
    const pending = await readyClient('Столбцова');
    await uploadScan(pending.entryId, pending.h);
    const approved = await readyClient('Столбцова-Одобренная');
    const aid = (await uploadScan(approved.entryId, approved.h)).json().data.id;
    await t.inject({ method: 'POST', url: `/api/contract/${aid}/accept`, headers: operator });
    const q = (status: number) =>
      t.inject({ method: 'GET', url: `/api/contract?status=${status}&fio=${encodeURIComponent('столбцова мария')}`, headers: operator });
    const [p, a, r] = await Promise.all([q(1), q(2), q(3)]);
    expect(p.json().data.map((c: { user: { fio: string } }) => c.user.fio)).toEqual(['Столбцова Мария Сергеевна']);
    expect(p.json().meta.total).toBe(1);
    expect(a.json().data[0].entry.id).toBe(approved.entryId);
    expect(r.json().meta.total).toBe(0);
    // Users never see the operators' board.
    const res = await t.inject({ method: 'GET', url: '/api/contract?status=1', headers: pending.h });
    expect(res.json().data.every((c: { user: { id: number } }) => c.user.id === pending.u.id)).toBe(true);
  });
});

describe('registration numbers', () => {
  async function approvedEntry(lastName: string) {
    const c = await readyClient(lastName);
    const id = (await uploadScan(c.entryId, c.h)).json().data.id;
    await t.inject({ method: 'POST', url: `/api/contract/${id}/accept`, headers: operator });
    return c;
  }

  it('only for an approved contract, once, for operators; the contract goes to the archive', async () => {
    const c = await readyClient('Номерова');
    const set = () => t.inject({ method: 'POST', url: `/api/entry/${c.entryId}/set-registration-number`, headers: operator });
    const early = await set();
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe(ContractMessages.notApproved);
    const id = (await uploadScan(c.entryId, c.h)).json().data.id;
    await t.inject({ method: 'POST', url: `/api/contract/${id}/accept`, headers: operator });
    expect((await t.inject({ method: 'POST', url: `/api/entry/${c.entryId}/set-registration-number`, headers: c.h })).statusCode).toBe(403);
    const ok = await set();
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.registration_number).toMatch(new RegExp(`^${moscowYear()}-\\d{4}$`));
    const twice = await set();
    expect(twice.statusCode).toBe(422);
    expect(twice.json().message).toBe(ContractMessages.registrationNumberExists);
    const [entry] = await t.database.db.select().from(entries).where(eq(entries.id, c.entryId));
    expect(entry.registration_number).toBe(ok.json().data.registration_number);
    // Approved column without it, archive with it; the change is in the entry's change log.
    const board = await t.inject({ method: 'GET', url: `/api/contract?status=2&fio=Номерова`, headers: operator });
    expect(board.json().data).toEqual([]);
    const archive = await t.inject({ method: 'GET', url: `/api/contract?status=2&archive=1&fio=Номерова`, headers: operator });
    expect(archive.json().data[0]).toMatchObject({ archived: true, entry: { registration_number: entry.registration_number } });
    const [log] = await t.database.db
      .select()
      .from(changeLogs)
      .where(and(eq(changeLogs.type, 'entry'), eq(changeLogs.entity_id, c.entryId)));
    expect(log.diff).toMatchObject({ registration_number: { old: null, new: entry.registration_number } });
    expect((await t.inject({ method: 'POST', url: '/api/entry/999999/set-registration-number', headers: operator })).statusCode).toBe(404);
  });

  it('20 concurrent requests: unique, consecutive numbers, no gaps, none lost to a failed request', async () => {
    const list = [];
    for (let i = 0; i < 20; i++) list.push(await approvedEntry(`Параллельная${i}`));
    // A request that fails (not approved) in the middle of the race must not use up a number.
    const notApproved = await readyClient('Неодобренная');
    const year = moscowYear();
    const [before] = await t.database.db.select().from(registrationCounters).where(eq(registrationCounters.year, year));
    const answers = await Promise.all([
      ...list.map((c) => t.inject({ method: 'POST', url: `/api/entry/${c.entryId}/set-registration-number`, headers: operator })),
      t.inject({ method: 'POST', url: `/api/entry/${notApproved.entryId}/set-registration-number`, headers: operator }),
      // The same entry twice: one wins.
      t.inject({ method: 'POST', url: `/api/entry/${list[0].entryId}/set-registration-number`, headers: operator }),
    ]);
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok).toHaveLength(20);
    expect(answers.filter((a) => a.statusCode === 422)).toHaveLength(2);
    const numbers = ok.map((a) => a.json().data.registration_number as string);
    expect(new Set(numbers).size).toBe(20);
    const seqs = numbers.map((n) => Number(n.split('-')[1])).sort((a, b) => a - b);
    const start = (before?.last_seq ?? 0) + 1;
    expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => start + i));
    const stored = await t.database.db.select().from(registrationNumbers).where(eq(registrationNumbers.year, year));
    const all = stored.map((r) => r.seq).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    const [dupes] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from (select registration_number from entries where registration_number is not null group by 1 having count(*) > 1) d`,
    );
    expect(Number(dupes.n)).toBe(0);
  });
});

describe('Excel export', () => {
  it('is for operators, answers {url}, and the .xlsx holds the board', async () => {
    const c = await readyClient('Экселева');
    await uploadScan(c.entryId, c.h);
    expect((await t.inject({ method: 'GET', url: '/api/contract/print-excel', headers: c.h })).statusCode).toBe(403);
    const link = await t.inject({ method: 'GET', url: '/api/contract/print-excel?fio=Экселева&status=1', headers: operator });
    expect(link.json().url).toBe(`/api/contract/excel?fio=${encodeURIComponent('Экселева')}&status=1`);
    const file = await t.inject({ method: 'GET', url: link.json().url, headers: operator });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    const input = new PassThrough();
    input.end(file.rawPayload);
    await wb.xlsx.read(input);
    const sheet = wb.worksheets[0];
    expect(sheet.getRow(1).values).toContain('ФИО');
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(2).value).toBe('Экселева Мария Сергеевна');
    expect(sheet.getRow(2).getCell(4).value).toBe('Ожидает проверки');
    expect(sheet.getRow(2).getCell(6).value).toBe('Загружен');
    expect((await t.inject({ method: 'GET', url: '/api/contract/excel', headers: c.h })).statusCode).toBe(403);
  });
});
