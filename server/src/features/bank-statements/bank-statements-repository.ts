import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { BankLine, BankLineProblem, BankLineStatus, bankLineListQuery, PayableEntry } from '@edu/domain/bank-statements/bank-statement';
import { BankStatementMessages } from '@edu/domain/bank-statements/bank-statement';
import { rows, type Queryable } from '../../platform/db.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { allOf, containsPattern, fioCondition, intArray, listPage, listSort, prefixPattern, sortSql, when, type ListPage } from '../../platform/list-query.ts';

interface LineRow {
  id: number;
  status: string;
  problem: string | null;
  note: string | null;
  file_name: string;
  doc_number: string;
  doc_date: string;
  sum: string | number;
  payer_name: string;
  payer_inn: string;
  purpose: string;
  entry_ids: number[];
  candidate_ids: number[];
  ignore_reason: string | null;
  resolved_by_fio: string | null;
  created_at: Date | string;
}

const SELECT = sql`select l.id, l.status, l.problem, l.note, l.file_name, l.doc_number, l.doc_date, l.sum, l.payer_name, l.payer_inn, l.purpose,
  l.entry_ids, l.candidate_ids, l.ignore_reason, l.created_at,
  case when r.id is null then null else concat_ws(' ', r.last_name, r.first_name) end as resolved_by_fio`;
const FROM = sql`from bank_statement_lines l left join users r on r.id = l.resolved_by`;

/** The entries the lines name (paid ones and hints), in one query. */
async function withEntries(db: Queryable, list: LineRow[]): Promise<BankLine[]> {
  const ids = [...new Set(list.flatMap((l) => [...l.entry_ids, ...l.candidate_ids]))];
  const found = ids.length
    ? await rows<{ id: number; number: string; price: string | number; status: number; fio: string }>(
        db,
        sql`select e.id, e.number, e.price, e.status, concat_ws(' ', u.last_name, u.first_name, u.middle_name) as fio
            from entries e join users u on u.id = e.created_by where e.id = any(${intArray(ids)})`,
      )
    : [];
  const byId = new Map(found.map((e) => [e.id, e]));
  return list.map((l) => ({
    id: l.id,
    status: l.status as BankLineStatus,
    problem: l.problem as BankLineProblem | null,
    note: l.note,
    file_name: l.file_name,
    doc_number: l.doc_number,
    doc_date: l.doc_date,
    sum: Number(l.sum),
    payer_name: l.payer_name,
    payer_inn: l.payer_inn,
    purpose: l.purpose,
    entries: l.entry_ids.flatMap((id) => (byId.has(id) ? [{ id, number: byId.get(id)!.number }] : [])),
    candidates: l.candidate_ids.flatMap((id) => {
      const e = byId.get(id);
      return e ? [{ id, number: e.number, price: Number(e.price), status: e.status, fio: e.fio }] : [];
    }),
    ignore_reason: l.ignore_reason,
    resolved_by: l.resolved_by_fio,
    created_at: new Date(l.created_at).toISOString(),
  }));
}

/** GET /api/manager/bank-statement-lines: newest first; ?status, ?q (payer, INN, purpose, document number). */
export async function listLines(db: Queryable, q: z.output<typeof bankLineListQuery>): Promise<ListPage<BankLine>> {
  const sort = listSort(
    q.sort,
    {
      created_at: { sql: sql`l.created_at`, type: 'timestamptz' },
      sum: { sql: sql`l.sum`, type: 'numeric' },
    },
    '-created_at',
    sql`l.id`,
  );
  const page = await listPage<LineRow, LineRow>(db, {
    select: SELECT,
    from: FROM,
    where: allOf([
      when(q.status === 'all' ? undefined : q.status, (s) => sql`l.status = ${s}`),
      when(
        q.q,
        (text) =>
          sql`(l.payer_name ilike ${containsPattern(text)} or l.purpose ilike ${containsPattern(text)} or l.payer_inn like ${prefixPattern(text)} or l.doc_number = ${text})`,
      ),
    ]),
    order: sortSql(sort),
    page: q,
    map: (r) => r,
  });
  return { data: await withEntries(db, page.data), meta: page.meta };
}

export async function lineById(db: Queryable, id: number): Promise<BankLine | undefined> {
  const list = await rows<LineRow>(db, sql`${SELECT} ${FROM} where l.id = ${id}`);
  return (await withEntries(db, list))[0];
}

/** Unpaid live entries by number (a prefix) or the client's name, for assigning a line by hand. */
export async function payableEntries(db: Queryable, text: string | undefined): Promise<PayableEntry[]> {
  const q = (text ?? '').trim();
  const byNumber = /^\d{1,4}(-\d*)?$/.test(q);
  const where = allOf([sql`e.status = 1 and e.deleted_at is null`, q === '' ? null : byNumber ? sql`e.number like ${prefixPattern(q)}` : fioCondition(q, 'u')]);
  const list = await rows<{ id: number; number: string; price: string | number; fio: string; service_title: string }>(
    db,
    sql`select e.id, e.number, e.price, concat_ws(' ', u.last_name, u.first_name, u.middle_name) as fio, s.title as service_title
        from entries e join users u on u.id = e.created_by join services s on s.id = e.service_id
        where ${where} order by e.id desc limit 20`,
  );
  return list.map((e) => ({ ...e, price: Number(e.price) }));
}

export interface LockedLine {
  id: number;
  status: string;
  doc_number: string;
  doc_date: string;
  sum: string | number;
  payer_name: string;
  payer_inn: string;
  purpose: string;
}

/** Locks a line waiting for an operator («Разобрать вручную»); 404 when there is none, 422 when it is resolved. */
export async function lockManualLine(tx: Queryable, id: number): Promise<LockedLine> {
  const [line] = await rows<LockedLine>(
    tx,
    sql`select id, status, doc_number, doc_date, sum, payer_name, payer_inn, purpose from bank_statement_lines where id = ${id} for update`,
  );
  if (!line) throw notFound(BankStatementMessages.lineNotFound);
  if (line.status !== 'manual') throw new AppError(422, BankStatementMessages.lineResolved, { errors: {} });
  return line;
}

/** An operator's decision on a line: assigned to entries (with the payments made) or ignored with a reason. */
export async function setLineResolved(
  tx: Queryable,
  id: number,
  o: { status: 'assigned'; by: number; entryIds: number[]; paymentIds: number[] } | { status: 'ignored'; by: number; reason: string },
): Promise<void> {
  await tx.execute(
    o.status === 'assigned'
      ? sql`update bank_statement_lines set status = 'assigned', entry_ids = ${JSON.stringify(o.entryIds)}::jsonb,
              payment_ids = ${JSON.stringify(o.paymentIds)}::jsonb, resolved_by = ${o.by}, resolved_at = now() where id = ${id}`
      : sql`update bank_statement_lines set status = 'ignored', ignore_reason = ${o.reason}, resolved_by = ${o.by}, resolved_at = now() where id = ${id}`,
  );
}
