import iconv from 'iconv-lite';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayType, Role } from '@edu/domain/common/codes';
import { BankStatementMessages, type BankLine, type ImportSummary } from '@edu/domain/bank-statements/bank-statement';
import { rows } from '../../platform/db.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { multipartForm } from '../../../test/multipart.ts';
import { saveRequisites } from '../macros/requisites.ts';
import { AppError } from '../../platform/errors.ts';
import { createStatementReader, parseStatementBytes, readStatement, STATEMENT_MAX_BYTES } from './read-statement.ts';

const CENTRE = '40702810900000000001';
const INN_A = '7801234567';

let t: TestApp;
let op: Record<string, string>;
let operatorId: number;
let userHeaders: Record<string, string>;
const client = { a: { headers: {} as Record<string, string> }, b: { headers: {} as Record<string, string> } };

interface Entry {
  id: number;
  number: string;
}
const e: Record<string, Entry> = {};

async function entryOf(who: { headers: Record<string, string> }, price: number): Promise<Entry> {
  const s = await makeService(t.database.db, { price });
  const res = await t.inject({ method: 'POST', url: '/api/entry', headers: who.headers, payload: { service_id: s.id, pay_type: 1, is_extramural: 0 } });
  expect(res.statusCode).toBe(201);
  return res.json().data as Entry;
}

interface Doc {
  number: string;
  date?: string;
  sum: string;
  payerInn: string;
  payerName: string;
  payerAccount: string;
  recipientAccount?: string;
  purpose: string;
}

/** One bank's spelling: UTF-8 with a BOM, LF, spaces around «=», Плательщик1/Получатель1, ДатаПоступило. */
function sberStatement(docs: Doc[]): Buffer {
  const lines = ['\uFEFF1CClientBankExchange', 'ВерсияФормата=1.03', 'Кодировка=Windows', 'Отправитель=Бухгалтерия', `РасчСчет=${CENTRE}`];
  for (const d of docs) {
    lines.push(
      'СекцияДокумент=Платежное поручение',
      `Номер = ${d.number}`,
      `Дата = ${d.date ?? '03.11.2026'}`,
      `Сумма = ${d.sum}`,
      `ПлательщикСчет = ${d.payerAccount}`,
      `ПлательщикИНН = ${d.payerInn}`,
      `Плательщик1 = ${d.payerName}`,
      `ПолучательСчет = ${d.recipientAccount ?? CENTRE}`,
      'Получатель1 = АНО ДПО «Центр»',
      `ДатаПоступило = ${d.date ?? '03.11.2026'}`,
      `НазначениеПлатежа = ${d.purpose}`,
      'КонецДокумента',
    );
  }
  lines.push('КонецФайла');
  return Buffer.from(lines.join('\n'), 'utf8');
}

/** Another bank's: Windows-1251, CRLF, «Плательщик=ИНН … name», …РасчСчет keys, no ДатаПоступило. */
function otherBankStatement(docs: Doc[]): Buffer {
  const lines = ['1CClientBankExchange', 'ВерсияФормата=1.03', 'Кодировка=Windows', 'СекцияРасчСчет', `РасчСчет=${CENTRE}`, 'КонецРасчСчет'];
  for (const d of docs) {
    lines.push(
      'СекцияДокумент=Платежное поручение',
      `Номер=${d.number}`,
      `Дата=${d.date ?? '04.11.2026'}`,
      `Сумма=${d.sum}`,
      `Плательщик=ИНН ${d.payerInn} ${d.payerName}`,
      `ПлательщикРасчСчет=${d.payerAccount}`,
      `ПолучательРасчСчет=${d.recipientAccount ?? CENTRE}`,
      'Получатель=АНО ДПО «Центр»',
      `НазначениеПлатежа=${d.purpose}`,
      'КонецДокумента',
    );
  }
  lines.push('КонецФайла');
  return iconv.encode(lines.join('\r\n') + '\r\n', 'win1251');
}

const upload = (bytes: Buffer, headers = op, filename = 'kl_to_1c.txt') => {
  const form = multipartForm({}, [{ field: 'file', filename, content: bytes, type: 'text/plain' }]);
  return t.inject({ method: 'POST', url: '/api/manager/bank-statements', headers: { ...headers, ...form.headers }, payload: form.payload });
};
const statusOf = async (entry: Entry) =>
  (await rows<{ status: number; pay_type: number }>(t.database.db, sql`select status, pay_type from entries where id = ${entry.id}`))[0];
const counts = async () =>
  (
    await rows<{ payments: number; lines: number; logs: number }>(
      t.database.db,
      sql`select (select count(*)::int from payments) as payments, (select count(*)::int from bank_statement_lines) as lines,
          (select count(*)::int from change_logs) as logs`,
    )
  )[0];
const manualLines = async () => {
  const res = await t.inject({ method: 'GET', url: '/api/manager/bank-statement-lines?status=manual&per_page=100', headers: op });
  expect(res.statusCode).toBe(200);
  return res.json().data as BankLine[];
};

let first: Buffer;
let second: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  const operator = await t.createUser({ role: Role.operator });
  op = await t.loginAs(operator);
  operatorId = operator.id;
  const a = await t.createUser({ last_name: 'Школьная', first_name: 'Анна' });
  const b = await t.createUser({ last_name: 'Лицейский', first_name: 'Борис' });
  client.a.headers = await t.loginAs(a);
  client.b.headers = await t.loginAs(b);
  userHeaders = client.a.headers;
  e.a1 = await entryOf(client.a, 1500);
  e.a2 = await entryOf(client.a, 1500);
  e.a3 = await entryOf(client.a, 900);
  e.a4 = await entryOf(client.a, 300);
  e.a5 = await entryOf(client.a, 300);
  e.a6 = await entryOf(client.a, 2500);
  e.b1 = await entryOf(client.b, 500);
  e.b2 = await entryOf(client.b, 700);

  const school = { payerInn: INN_A, payerName: 'ГБОУ СОШ № 5', payerAccount: '40702810400000000777' };
  const lyceum = { payerInn: '7701000001', payerName: 'ООО "Лицей"', payerAccount: '40702810100000000888' };
  first = otherBankStatement([
    { ...school, number: '101', sum: '1500.00', purpose: `Оплата по счёту № ${e.a1.number} от 01.11.2026 (заявка № ${e.a1.number}). НДС не облагается.` },
    { ...lyceum, number: '55', sum: '1200', purpose: `Оплата по счетам №${e.b1.number}, №${e.b2.number} за обучение` },
    { ...school, number: '102', sum: '2000.00', purpose: `Оплата по счёту ${e.a2.number}` },
    { ...school, number: '103', sum: '999.00', recipientAccount: '40702810000000009999', purpose: 'Возврат средств' },
  ]);
  second = sberStatement([
    { ...school, number: '201', sum: '900.00', purpose: 'Оплата за обучение педагога, НДС не облагается' },
    { ...school, number: '202', sum: '300.00', purpose: 'Оплата за участие в вебинаре' },
    { payerInn: '7800000000', payerName: 'ИП Неизвестный', payerAccount: '40802810000000000001', number: '9', sum: '450.00', purpose: 'Оплата' },
    { ...school, number: '203', sum: '1000.00', purpose: `Частичная оплата по счёту № ${e.a6.number}` },
  ]);
});
afterAll(() => t.close());

describe('bank statements: access and refusals', () => {
  it('is for operators only: 401 without a session, 403 for a client', async () => {
    expect((await upload(first, {})).statusCode).toBe(401);
    expect((await upload(first, userHeaders)).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: '/api/manager/bank-statement-lines', headers: userHeaders })).statusCode).toBe(403);
    expect(
      (await t.inject({ method: 'POST', url: '/api/manager/bank-statement-lines/1/ignore', headers: userHeaders, payload: { reason: 'x' } })).statusCode,
    ).toBe(403);
  });

  it('says plainly that the centre’s account is missing, and changes nothing', async () => {
    const before = await counts();
    const res = await upload(first);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: BankStatementMessages.noAccount, errors: { file: [BankStatementMessages.noAccount] } });
    expect(await counts()).toEqual(before);
    await saveRequisites(t.database.db, { account: '4070 2810 9000 0000 0001', inn: '7812345678' });
  });

  it('refuses a file that is not a 1C statement with a Russian 422', async () => {
    const res = await upload(Buffer.from('Фамилия;Имя\r\nИванов;Иван\r\n'), op, 'people.csv');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: BankStatementMessages.notOneC, errors: { file: [BankStatementMessages.notOneC] } });
    const empty = await t.inject({ method: 'POST', url: '/api/manager/bank-statements', headers: op, payload: {} });
    expect(empty.statusCode).toBe(422);
  });
});

describe('importing statements', () => {
  it('marks exact payments paid by bank transfer (one invoice, two invoices), leaves an overpayment, skips outgoing', async () => {
    const res = await upload(first);
    expect(res.statusCode).toBe(200);
    const s = res.json().data as ImportSummary;
    expect(s).toMatchObject({ documents: 4, paid: 2, manual: 1, already: 0, not_incoming: 1, unreadable: 0 });
    expect(s.paid_entries.sort()).toEqual([e.a1.number, e.b1.number, e.b2.number].sort());
    for (const x of [e.a1, e.b1, e.b2]) expect(await statusOf(x)).toEqual({ status: 2, pay_type: PayType.bank });
    expect((await statusOf(e.a2)).status).toBe(1);
    // The same rule as the operator's «Отметить оплаченной»: a payment row per entry, by the operator, by bank.
    const pays = await rows<{ sum: string; pay_type: number; n: number }>(
      t.database.db,
      sql`select p.sum, p.pay_type, count(pe.entry_id)::int as n from payments p join payment_entries pe on pe.payment_id = p.id
          where pe.entry_id in (${e.a1.id}, ${e.b1.id}, ${e.b2.id}) group by p.id order by p.id`,
    );
    expect(pays.map((p) => [Number(p.sum), p.pay_type])).toEqual([
      [1500, 1],
      [500, 1],
      [700, 1],
    ]);
    // The line is stored with its statement text and logged.
    const [line] = await rows<{ id: number; status: string; raw: string; payer_inn: string; entry_ids: number[] }>(
      t.database.db,
      sql`select id, status, raw, payer_inn, entry_ids from bank_statement_lines where doc_number = '101'`,
    );
    expect(line).toMatchObject({ status: 'paid', payer_inn: INN_A, entry_ids: [e.a1.id] });
    expect(line.raw).toContain('Сумма=1500.00');
    const logs = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from change_logs where type = 'bank_statement_line' and entity_id = ${line.id}`,
    );
    expect(logs[0].n).toBe(1);
    const [manual] = await manualLines();
    expect(manual).toMatchObject({ problem: 'excess', doc_number: '102', sum: 2000, candidates: [{ id: e.a2.id, number: e.a2.number, price: 1500 }] });
  });

  it('matches a payment with no number by the payer’s INN and the sum; several fits or none go to the manual list', async () => {
    const res = await upload(second, op, 'sber.txt');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ documents: 4, paid: 1, manual: 3, already: 0, paid_entries: [e.a3.number] });
    expect(await statusOf(e.a3)).toEqual({ status: 2, pay_type: PayType.bank });
    expect((await statusOf(e.a4)).status).toBe(1);
    expect((await statusOf(e.a6)).status).toBe(1);
    const byDoc = Object.fromEntries((await manualLines()).map((l) => [l.doc_number, l]));
    expect(byDoc['202']).toMatchObject({ problem: 'ambiguous' });
    expect(byDoc['202'].candidates.map((c) => c.id).sort()).toEqual([e.a4.id, e.a5.id].sort());
    expect(byDoc['9']).toMatchObject({ problem: 'unmatched', candidates: [] });
    expect(byDoc['203']).toMatchObject({ problem: 'partial', sum: 1000 });
  });

  it('importing the same statement again changes nothing and says so', async () => {
    const before = await counts();
    for (const [bytes, name] of [
      [first, 'again.txt'],
      [second, 'sber-again.txt'],
    ] as const) {
      const res = await upload(bytes, op, name);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ paid: 0, manual: 0, message: 'Эта выписка уже загружена: ничего не изменилось.' });
    }
    expect(await counts()).toEqual(before);
  });

  it('reads a 5 MB statement off the request thread', async () => {
    // Outgoing payments only: the import itself has nothing to store, the reading is the work.
    const payer = { payerInn: INN_A, payerName: 'ГБОУ СОШ № 5', payerAccount: '40702810400000000777', recipientAccount: '40702810000000009999' };
    const doc = (i: number): Doc => ({ ...payer, number: String(100000 + i), sum: '100.00', purpose: 'Возврат средств за участие в конференции' });
    const each = otherBankStatement([doc(1), doc(2)]).length - otherBankStatement([doc(1)]).length;
    const docs = Array.from({ length: Math.floor((STATEMENT_MAX_BYTES - 1_000) / each) }, (_, i) => doc(i));
    const big = otherBankStatement(docs);
    // What reading it costs the thread that does it.
    const t0 = performance.now();
    expect(parseStatementBytes(big).ok).toBe(true);
    const readingMs = performance.now() - t0;
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const res = await upload(big);
    delay.disable();
    expect(res.statusCode).toBe(200);
    expect((res.json().data as ImportSummary).not_incoming).toBe(docs.length);
    // The request thread's longest stall during the upload is well under the reading's own time.
    expect(delay.max / 1e6).toBeLessThan(readingMs / 2);
  });

  it("a statement beyond the reader's queue is a Russian 429, not a wait without end", async () => {
    const reader = createStatementReader({ maxQueue: 0 });
    try {
      const [a, b] = await Promise.allSettled([readStatement(reader, first), readStatement(reader, first)]);
      expect(a.status).toBe('fulfilled');
      expect(b.status).toBe('rejected');
      const err = (b as PromiseRejectedResult).reason as AppError;
      expect(err).toBeInstanceOf(AppError);
      expect(err.statusCode).toBe(429);
      expect(err.message).toBe(BankStatementMessages.othersRunning);
    } finally {
      await reader.close();
    }
  });

  it('two uploads of one statement at once pay once', async () => {
    const s = await makeService(t.database.db, { price: 750 });
    const made = await t.inject({ method: 'POST', url: '/api/entry', headers: client.b.headers, payload: { service_id: s.id, pay_type: 1, is_extramural: 0 } });
    const entry = made.json().data as Entry;
    const bytes = sberStatement([
      { payerInn: '7701000001', payerName: 'ООО "Лицей"', payerAccount: '40702810100000000888', number: '77', sum: '750.00', purpose: `Счёт ${entry.number}` },
    ]);
    const other = await t.createUser({ role: Role.operator });
    const [x, y] = await Promise.all([upload(bytes), upload(bytes, await t.loginAs(other))]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    expect(x.json().data.paid + y.json().data.paid).toBe(1);
    expect(x.json().data.already + y.json().data.already).toBe(1);
    const [n] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from payment_entries where entry_id = ${entry.id}`);
    expect(n.n).toBe(1);
  });
});

describe('sorting lines by hand', () => {
  it('assigns a line to an entry (paid by bank, logged), and refuses a second assignment or a paid entry', async () => {
    const line = (await manualLines()).find((l) => l.doc_number === '202')!;
    const wrong = await t.inject({
      method: 'POST',
      url: `/api/manager/bank-statement-lines/${line.id}/assign`,
      headers: op,
      payload: { entry_ids: [e.a1.id] },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.entry_ids[0]).toBe(BankStatementMessages.entryNotPayable(e.a1.number));
    const none = await t.inject({ method: 'POST', url: `/api/manager/bank-statement-lines/${line.id}/assign`, headers: op, payload: { entry_ids: [] } });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.entry_ids[0]).toBe(BankStatementMessages.chooseEntries);

    const res = await t.inject({ method: 'POST', url: `/api/manager/bank-statement-lines/${line.id}/assign`, headers: op, payload: { entry_ids: [e.a4.id] } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: BankStatementMessages.assigned, data: { status: 'assigned', entries: [{ id: e.a4.id }] } });
    expect(await statusOf(e.a4)).toEqual({ status: 2, pay_type: PayType.bank });
    const [log] = await rows<{ user_id: number; diff: Record<string, { new: unknown }> }>(
      t.database.db,
      sql`select user_id, diff from change_logs where type = 'bank_statement_line' and entity_id = ${line.id} order by id desc limit 1`,
    );
    expect(log.diff.status.new).toBe('assigned');
    expect(log.diff.entry_ids.new).toEqual([e.a4.id]);
    expect(log.user_id).toBe(operatorId);
    // The change log reads it in Russian, naming the entries.
    const shown = await t.inject({ method: 'GET', url: `/api/log?type=bank_statement_line&entity_id=${line.id}`, headers: op });
    expect(shown.statusCode).toBe(200);
    const [row] = shown.json().data as Array<{ type_label: string; record: { label: string }; changes: Array<{ label: string; new: string }> }>;
    expect(row.type_label).toBe('Банковская выписка');
    expect(row.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: 'Статус', new: 'Отнесена вручную' }),
        expect.objectContaining({ label: 'Заявки', new: `№ ${e.a4.number}` }),
      ]),
    );

    const again = await t.inject({
      method: 'POST',
      url: `/api/manager/bank-statement-lines/${line.id}/assign`,
      headers: op,
      payload: { entry_ids: [e.a5.id] },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(BankStatementMessages.lineResolved);
    expect((await statusOf(e.a5)).status).toBe(1);
  });

  it('ignores a line with a reason (logged); no reason is a 422; an unknown line a 404', async () => {
    const line = (await manualLines()).find((l) => l.doc_number === '9')!;
    const empty = await t.inject({ method: 'POST', url: `/api/manager/bank-statement-lines/${line.id}/ignore`, headers: op, payload: { reason: '  ' } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.reason[0]).toBe(BankStatementMessages.reasonRequired);
    const res = await t.inject({
      method: 'POST',
      url: `/api/manager/bank-statement-lines/${line.id}/ignore`,
      headers: op,
      payload: { reason: 'Не оплата услуг: возврат займа' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'ignored', ignore_reason: 'Не оплата услуг: возврат займа' });
    const [log] = await rows<{ diff: Record<string, { new: unknown }> }>(
      t.database.db,
      sql`select diff from change_logs where type = 'bank_statement_line' and entity_id = ${line.id} order by id desc limit 1`,
    );
    expect(log.diff.ignore_reason.new).toBe('Не оплата услуг: возврат займа');
    const missing = await t.inject({ method: 'POST', url: '/api/manager/bank-statement-lines/999999/ignore', headers: op, payload: { reason: 'x' } });
    expect(missing.statusCode).toBe(404);
    expect((await manualLines()).map((l) => l.doc_number).sort()).toEqual(['102', '203']);
  });

  it('finds unpaid entries to assign by number or by the client’s name', async () => {
    const byNumber = await t.inject({ method: 'GET', url: `/api/manager/bank-statement-lines/entries?q=${e.a5.number}`, headers: op });
    expect(byNumber.json().data).toEqual([expect.objectContaining({ id: e.a5.id, price: 300 })]);
    const byName = await t.inject({ method: 'GET', url: `/api/manager/bank-statement-lines/entries?q=${encodeURIComponent('Школьная')}`, headers: op });
    const ids = (byName.json().data as Entry[]).map((x) => x.id).sort();
    expect(ids).toEqual([e.a2.id, e.a5.id, e.a6.id].sort());
  });
});
