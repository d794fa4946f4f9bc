import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PayType } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { kopecksOf, rublesText } from '@edu/domain/common/money';
import {
  BankStatementMessages,
  compareSum,
  digitsOf,
  entryNumbersIn,
  lineIdentityText,
  summaryMessage,
  type BankLineProblem,
  type BankLineStatus,
  type ImportSummary,
  type ParsedStatement,
  type StatementDocument,
} from '@edu/domain/bank-statements/bank-statement';
import type { AuthUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import { rows, type Db, type Queryable } from '../../platform/db.ts';
import { AppError } from '../../platform/errors.ts';
import { intArray } from '../../platform/list-query.ts';
import { enrollmentEntries, isWholeAndUnpaid, lockEnrollment } from '../entries/package-enrollments.ts';
import { markPaidIn } from '../payments/payment-rules.ts';
import { readRequisites } from '../macros/requisites.ts';

// The import of a bank statement (decision 040): each incoming payment is kept once and matched by
// the entry (invoice) numbers its purpose names, else by the payer's INN (known from the client's
// earlier bank payments) and the sum. An exact match marks the entries paid by bank transfer through
// the same rule as the operator's «Отметить оплаченной» (payments/payment-rules.ts markPaidIn).

interface FoundEntry {
  id: number;
  number: string;
  status: number;
  price: string | number;
  deleted_at: Date | null;
  package_enrollment_id: number | null;
}

/** What a due sum is made of: one entry, or a whole unpaid package (paid at the package's price). */
interface Scope {
  /** The entry markPaidIn is called with (it pays the whole package when the entry is in one). */
  entryId: number;
  kopecks: number;
  numbers: string[];
}

interface Match {
  status: Extract<BankLineStatus, 'paid' | 'manual'>;
  problem: BankLineProblem | null;
  note: string | null;
  candidates: number[];
  scopes: Scope[];
}

export const lineIdentity = (d: StatementDocument) => createHash('sha256').update(lineIdentityText(d)).digest('hex');

/** The centre's account from its requisites, digits only; null when it is not filled in. */
export async function centreAccount(db: Queryable): Promise<string | null> {
  const account = digitsOf((await readRequisites(db)).account ?? '');
  return account.length >= 20 ? account : null;
}

/** The due scopes of unpaid entries, a whole unpaid package counted once at its price. */
async function scopesOf(tx: Queryable, found: FoundEntry[]): Promise<Scope[]> {
  const scopes: Scope[] = [];
  const seenEnrollments = new Set<number>();
  for (const e of found) {
    if (e.package_enrollment_id !== null) {
      if (seenEnrollments.has(e.package_enrollment_id)) continue;
      const enrollment = await lockEnrollment(tx, e.package_enrollment_id);
      const members = enrollment && !enrollment.broken ? await enrollmentEntries(tx, enrollment.id) : [];
      if (enrollment && !enrollment.broken && isWholeAndUnpaid(members)) {
        seenEnrollments.add(enrollment.id);
        scopes.push({ entryId: e.id, kopecks: kopecksOf(enrollment.price), numbers: members.map((m) => m.number) });
        continue;
      }
    }
    scopes.push({ entryId: e.id, kopecks: kopecksOf(e.price), numbers: [e.number] });
  }
  return scopes;
}

const numbersText = (numbers: string[]) => (numbers.length === 1 ? `заявка № ${numbers[0]}` : `заявки № ${numbers.join(', ')}`);

/** Matches one incoming payment with entries (reads only; locks the entries it names). */
async function matchDocument(tx: Queryable, d: StatementDocument, kopecks: number): Promise<Match> {
  const numbers = entryNumbersIn(d.purpose);
  if (numbers.length > 0) {
    const found = await rows<FoundEntry>(
      tx,
      sql`select id, number, status, price, deleted_at, package_enrollment_id from entries
          where number in (${sql.join(
            numbers.map((n) => sql`${n}`),
            sql`, `,
          )}) order by id for update`,
    );
    if (found.length > 0) {
      const candidates = found.map((e) => e.id);
      const notPayable = found.filter((e) => e.status !== 1 || e.deleted_at);
      if (notPayable.length > 0) {
        return {
          status: 'manual',
          problem: 'excess',
          note: `В назначении ${numbersText(found.map((e) => e.number))}; не ждёт оплаты: № ${notPayable.map((e) => e.number).join(', ')} (оплачена, возвращена или удалена).`,
          candidates,
          scopes: [],
        };
      }
      const scopes = await scopesOf(tx, found);
      const due = scopes.reduce((s, x) => s + x.kopecks, 0);
      const verdict = compareSum(kopecks, due);
      if (verdict === 'exact') return { status: 'paid', problem: null, note: null, candidates, scopes };
      return {
        status: 'manual',
        problem: verdict,
        note: `В назначении ${numbersText(found.map((e) => e.number))}: к оплате ${formatRub(Number(rublesText(due)))}, пришло ${formatRub(Number(rublesText(kopecks)))}.`,
        candidates,
        scopes: [],
      };
    }
  }
  // No number we know: the payer's INN, known from the client's earlier bank payments, and the sum.
  if (d.payerInn) {
    const fits = await rows<FoundEntry>(
      tx,
      sql`select e.id, e.number, e.status, e.price, e.deleted_at, e.package_enrollment_id from entries e
          where e.status = 1 and e.deleted_at is null and e.price = ${rublesText(kopecks)}::numeric
            and e.created_by in (
              select pe.created_by from bank_statement_lines l
                cross join lateral jsonb_array_elements_text(l.entry_ids) x
                join entries pe on pe.id = x::int
              where l.payer_inn = ${d.payerInn} and l.status in ('paid', 'assigned'))
          order by e.id for update of e`,
    );
    if (fits.length === 1) {
      const scopes = await scopesOf(tx, fits);
      if (scopes.length === 1 && scopes[0].kopecks === kopecks) return { status: 'paid', problem: null, note: null, candidates: [fits[0].id], scopes };
    }
    if (fits.length > 0) {
      return {
        status: 'manual',
        problem: 'ambiguous',
        note: `Номера заявки в назначении нет. По ИНН плательщика и сумме подходят: ${numbersText(fits.map((e) => e.number))}.`,
        candidates: fits.map((e) => e.id),
        scopes: [],
      };
    }
  }
  return {
    status: 'manual',
    problem: 'unmatched',
    note: numbers.length > 0 ? `Заявки № ${numbers.join(', ')} не найдены.` : 'Номера заявки в назначении нет, и по ИНН и сумме ничего не подходит.',
    candidates: [],
    scopes: [],
  };
}

/** Pays the scopes by bank transfer through the operator's own rule; answers the entries and payments. */
export async function payScopes(tx: Queryable, by: AuthUser, entryIds: number[]): Promise<{ entryIds: number[]; numbers: string[]; paymentIds: number[] }> {
  const paid: number[] = [];
  const numbers: string[] = [];
  const paymentIds: number[] = [];
  for (const entryId of entryIds) {
    // An entry paid a moment ago with its package: nothing more to do for it.
    if (paid.includes(entryId)) continue;
    const group = await markPaidIn(tx, by, entryId, PayType.bank);
    for (const e of group.entries) {
      paid.push(e.id);
      numbers.push(e.number);
    }
    const [p] = await rows<{ payment_id: number }>(
      tx,
      sql`select payment_id from payment_entries where entry_id = ${entryId} order by payment_id desc limit 1`,
    );
    if (p) paymentIds.push(p.payment_id);
  }
  return { entryIds: paid, numbers, paymentIds };
}

/** The line's fields for its change-log row. */
export const lineLogFields = (d: { doc_number: string; doc_date: string; sum: number; payer_name: string; payer_inn: string; purpose: string }) => ({
  doc: `№ ${d.doc_number} от ${d.doc_date}`,
  sum: d.sum,
  payer: d.payer_inn ? `${d.payer_name}, ИНН ${d.payer_inn}` : d.payer_name,
  purpose: d.purpose,
});

type LineOutcome = { outcome: 'already' } | { outcome: 'paid'; numbers: string[] } | { outcome: 'manual' };

async function importDocument(
  tx: Queryable,
  d: StatementDocument & { kopecks: number },
  o: { by: AuthUser; fileName: string; refusal?: string },
): Promise<LineOutcome> {
  const sum = Number(rublesText(d.kopecks));
  const fields = {
    doc_number: d.number.slice(0, 64),
    doc_date: d.date.slice(0, 16),
    sum,
    payer_name: d.payerName.slice(0, 500),
    payer_inn: d.payerInn.slice(0, 12),
    purpose: d.purpose,
  };
  const [line] = await rows<{ id: number }>(
    tx,
    sql`insert into bank_statement_lines (identity, status, file_name, doc_number, doc_date, received_date, sum, payer_name, payer_inn, payer_account, purpose, raw, imported_by)
        values (${lineIdentity(d)}, 'manual', ${o.fileName.slice(0, 255)}, ${fields.doc_number}, ${fields.doc_date}, ${d.received.slice(0, 16) || null},
          ${rublesText(d.kopecks)}::numeric, ${fields.payer_name}, ${fields.payer_inn}, ${d.payerAccount.slice(0, 34)}, ${d.purpose}, ${d.raw}, ${o.by.id})
        on conflict (identity) do nothing returning id`,
  );
  if (!line) return { outcome: 'already' };
  let match = await matchDocument(tx, d, d.kopecks);
  // Paying was refused a moment ago (a card payment holds the entry): the operator decides.
  if (o.refusal && match.status === 'paid') match = { ...match, status: 'manual', problem: 'ambiguous', note: o.refusal, scopes: [] };
  const paid =
    match.status === 'paid'
      ? await payScopes(
          tx,
          o.by,
          match.scopes.map((s) => s.entryId),
        )
      : { entryIds: [], numbers: [], paymentIds: [] };
  await tx.execute(
    sql`update bank_statement_lines set status = ${match.status}, problem = ${match.problem}, note = ${match.note},
          entry_ids = ${JSON.stringify(paid.entryIds)}::jsonb, candidate_ids = ${JSON.stringify(match.candidates)}::jsonb,
          payment_ids = ${JSON.stringify(paid.paymentIds)}::jsonb,
          resolved_by = ${match.status === 'paid' ? o.by.id : null}, resolved_at = ${match.status === 'paid' ? sql`now()` : null}
        where id = ${line.id}`,
  );
  await logChange(tx, {
    type: 'bank_statement_line',
    entityId: line.id,
    userId: o.by.id,
    before: null,
    after: {
      status: match.status,
      problem: match.problem,
      ...lineLogFields(fields),
      entry_ids: paid.entryIds.length > 0 ? paid.entryIds : undefined,
      file_name: o.fileName,
    },
  });
  return match.status === 'paid' ? { outcome: 'paid', numbers: paid.numbers } : { outcome: 'manual' };
}

/**
 * Imports a read statement: every incoming payment in its own transaction (one line's trouble never
 * undoes another's payment). Refuses when the centre's account is not in the requisites.
 */
export async function importStatement(db: Db, statement: ParsedStatement, o: { by: AuthUser; fileName: string }): Promise<ImportSummary> {
  const account = await centreAccount(db);
  if (!account) throw new AppError(422, BankStatementMessages.noAccount, { errors: { file: [BankStatementMessages.noAccount] } });
  const s: Omit<ImportSummary, 'message'> = {
    file_name: o.fileName,
    documents: statement.documents.length,
    paid: 0,
    paid_entries: [],
    manual: 0,
    already: 0,
    not_incoming: 0,
    unreadable: 0,
  };
  for (const d of statement.documents) {
    if (d.recipientAccount !== account) {
      s.not_incoming++;
      continue;
    }
    if (d.kopecks === null) {
      s.unreadable++;
      continue;
    }
    const doc = { ...d, kopecks: d.kopecks };
    let result: LineOutcome;
    try {
      result = await db.transaction((tx) => importDocument(tx, doc, o));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      result = await db.transaction((tx) => importDocument(tx, doc, { ...o, refusal: `Отметить оплату не удалось: ${err.message}` }));
    }
    if (result.outcome === 'already') s.already++;
    else if (result.outcome === 'manual') s.manual++;
    else {
      s.paid++;
      s.paid_entries.push(...result.numbers);
    }
  }
  return { ...s, message: summaryMessage(s) };
}

/** Locks the entries an operator assigns a line to (in id order, as every payment path does). */
export async function lockPayable(tx: Queryable, ids: number[]): Promise<Array<{ id: number; number: string; status: number; deleted_at: Date | null }>> {
  return rows(tx, sql`select id, number, status, deleted_at from entries where id = any(${intArray(ids)}) order by id for update`);
}
