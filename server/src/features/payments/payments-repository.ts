import { sql, type SQL } from 'drizzle-orm';
import { kopecksOf, rublesOf, rublesText } from '@edu/domain/common/money';
import { payTypeLabels, type PayTypeCode } from '@edu/domain/common/codes';
import { formatDateTime } from '@edu/domain/common/format';
import type { PageQuery, SortValue } from '@edu/domain/common/pagination';
import { formatRub } from '@edu/domain/common/format';
import {
  PaymentMessages,
  providerPaymentUrl,
  providerStatusLabels,
  type CardTransaction,
  type Payment,
  type PaymentRefund,
  type PaymentSortKey,
  type PaymentTotals,
} from '@edu/domain/payments/payment';
import { cardTransactions, entries } from '../../db/schema/index.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { moscowDayStart } from '@edu/domain/common/moscow-time';
import {
  allOf,
  containsPattern,
  fioCondition,
  listPage,
  listSort,
  prefixPattern,
  sortSql,
  when,
  type ListPage,
  type ListSort,
  type SortColumn,
} from '../../platform/list-query.ts';

export interface PaymentFilters {
  userId?: number;
  entry_number?: string;
  fio?: string;
  serviceType?: number;
  serviceTitle?: string;
  /** Kopecks. */
  sum?: number;
  payType?: number;
  uuid?: string;
  created_at?: string;
  state?: 'double' | 'refunded' | 'attention';
  /** Moscow days, dd.mm.yyyy, both included. */
  date_from?: string;
  date_to?: string;
  sort?: SortValue<PaymentSortKey>;
}

/** The sortable columns of the payment list and its export (alias p); payments_created_at_idx and payments_sum_idx serve them. */
const PAYMENT_SORT_COLUMNS: Record<PaymentSortKey, SortColumn> = {
  created_at: { sql: sql`p.created_at`, type: 'timestamptz' },
  sum: { sql: sql`p.sum`, type: 'numeric' },
};

/** The payment list's order for `?sort=`; newest first by default. */
export const paymentSort = (sort: SortValue<PaymentSortKey> | undefined): ListSort => listSort(sort, PAYMENT_SORT_COLUMNS, '-created_at', sql`p.id`);

/** Conditions on the entries a payment covers (any of them matching is enough). */
function entryCondition(f: { entry_number?: string; fio?: string; serviceType?: number; serviceTitle?: string }, entryIds: SQL): SQL | null {
  const parts = [
    when(f.entry_number, (v) => sql`e.number ilike ${containsPattern(v)}`),
    fioCondition(f.fio, 'u'),
    when(f.serviceType, (v) => sql`s.dict_type_id = ${v}`),
    when(f.serviceTitle, (v) => sql`s.title ilike ${containsPattern(v)}`),
  ].filter((p): p is SQL => p !== null);
  if (parts.length === 0) return null;
  return sql`exists (select 1 from entries e join users u on u.id = e.created_by join services s on s.id = e.service_id where e.id in (${entryIds}) and ${allOf(parts)})`;
}

interface PaymentRow {
  id: number;
  uuid: string | null;
  sum: string | number;
  pay_type: number;
  is_double: boolean;
  description: string | null;
  created_at: Date | string;
  entries: Array<{ id: number; number: string; user_id: number; fio: string; title: string; type: string | null }> | null;
  package_title: string | null;
  provider: string | null;
  refunds: RefundRow[] | null;
  refunded_sum: string | number;
  refund_pending_sum: string | number;
}

interface RefundRow {
  id: number;
  sum: string | number;
  status: PaymentRefund['status'];
  reason: string;
  automatic: boolean;
  entry_action: PaymentRefund['entry_action'];
  created_at: Date | string;
}

const refundOf = (r: RefundRow): PaymentRefund => ({
  id: r.id,
  sum: Number(r.sum),
  status: r.status,
  reason: r.reason,
  automatic: r.automatic,
  entry_action: r.entry_action,
  created_at_formatted: formatDateTime(r.created_at),
});

/** One refund as the list shows it. */
export async function refundOfPayment(db: Queryable, refundId: number): Promise<PaymentRefund> {
  const [r] = await rows<RefundRow>(db, sql`select id, sum, status, reason, automatic, entry_action, created_at from payment_refunds where id = ${refundId}`);
  return refundOf(r);
}

/**
 * A payment (alias p) an operator should look at: nothing was given back yet, and it is a double
 * payment or its refund is still pending or was refused by the provider (the dashboard's to-do).
 */
export const PAYMENT_NEEDS_ATTENTION = sql`(not exists (select 1 from payment_refunds r where r.payment_id = p.id and r.status = 'succeeded')
  and (p.is_double or exists (select 1 from payment_refunds r where r.payment_id = p.id and r.status in ('pending', 'canceled'))))`;

/** The payments the filters choose (alias p): one condition for the list, its totals and its export. */
export function paymentsWhere(f: PaymentFilters): SQL {
  return allOf([
    when(f.userId, (v) => sql`p.user_id = ${v}`),
    when(f.sum, (v) => sql`p.sum = ${rublesText(v)}::numeric`),
    when(f.payType, (v) => sql`p.pay_type = ${v}`),
    when(f.uuid, (v) => sql`p.uuid ilike ${containsPattern(v)}`),
    when(f.created_at, (v) => sql`to_char(p.created_at at time zone 'Europe/Moscow', 'YYYY-MM-DD HH24:MI:SS') like ${prefixPattern(v)}`),
    when(f.date_from, (v) => sql`p.created_at >= ${moscowDayStart(v)}::timestamptz`),
    when(f.date_to, (v) => sql`p.created_at < ${moscowDayStart(v)}::timestamptz + interval '1 day'`),
    when(f.state, (v) =>
      v === 'double'
        ? sql`p.is_double`
        : v === 'attention'
          ? PAYMENT_NEEDS_ATTENTION
          : sql`exists (select 1 from payment_refunds r where r.payment_id = p.id and r.status in ('pending', 'succeeded'))`,
    ),
    entryCondition(f, sql`select pe.entry_id from payment_entries pe where pe.payment_id = p.id`),
  ]);
}

/** How many payments the filters choose, their sum (received, before refunds), the refunded sum and the income net of it. */
export async function paymentsTotals(db: Queryable, f: PaymentFilters): Promise<PaymentTotals> {
  const [t] = await rows<{ count: number; sum: string | number | null; refunded: string | number | null }>(
    db,
    sql`select count(*)::int as count, coalesce(sum(p.sum), 0) as sum,
          coalesce(sum((select coalesce(sum(r.sum), 0) from payment_refunds r where r.payment_id = p.id and r.status = 'succeeded')), 0) as refunded
        from payments p where ${paymentsWhere(f)}`,
  );
  const sum = kopecksOf(t.sum);
  const refunded = kopecksOf(t.refunded);
  return { count: t.count, sum: rublesOf(sum), refunded: rublesOf(refunded), net: rublesOf(sum - refunded) };
}

export async function listPayments(db: Queryable, f: PaymentFilters, page: PageQuery): Promise<ListPage<Payment>> {
  const where = paymentsWhere(f);
  return listPage<PaymentRow, Payment>(db, {
    select: sql`select p.id, p.uuid, p.sum, p.pay_type, p.is_double, p.description, p.created_at,
          (select json_agg(json_build_object('id', e.id, 'number', e.number, 'user_id', u.id,
              'fio', concat_ws(' ', u.last_name, u.first_name, u.middle_name), 'title', s.title, 'type', t.fdv) order by e.id)
           from payment_entries pe join entries e on e.id = pe.entry_id join users u on u.id = e.created_by
           join services s on s.id = e.service_id left join dict_service_types t on t.id = s.dict_type_id
           where pe.payment_id = p.id) as entries,
          (select en.title from payment_entries pe join entries e on e.id = pe.entry_id join package_enrollments en on en.id = e.package_enrollment_id
           where pe.payment_id = p.id limit 1) as package_title,
          (select ct.provider from card_transactions ct where ct.id = p.card_transaction_id) as provider,
          (select json_agg(json_build_object('id', r.id, 'sum', r.sum, 'status', r.status, 'reason', r.reason, 'automatic', r.automatic, 'entry_action', r.entry_action, 'created_at', r.created_at) order by r.id)
           from payment_refunds r where r.payment_id = p.id) as refunds,
          (select coalesce(sum(r.sum), 0) from payment_refunds r where r.payment_id = p.id and r.status = 'succeeded') as refunded_sum,
          (select coalesce(sum(r.sum), 0) from payment_refunds r where r.payment_id = p.id and r.status = 'pending') as refund_pending_sum`,
    from: sql`from payments p`,
    where,
    order: sortSql(paymentSort(f.sort)),
    page,
    map: (r) => {
      const es = r.entries ?? [];
      const first = es[0];
      const refunded = Number(r.refunded_sum);
      const pending = Number(r.refund_pending_sum);
      const online = r.uuid !== null && r.provider !== null;
      // What is left to refund, in kopecks so the subtraction stays exact.
      const leftKop = online ? Math.max(kopecksOf(r.sum) - kopecksOf(r.refunded_sum) - kopecksOf(r.refund_pending_sum), 0) : 0;
      const refundLabel = refunded > 0 ? PaymentMessages.refundLabel(formatRub(refunded)) : null;
      return {
        id: r.id,
        uuid: r.uuid,
        sum: Number(r.sum),
        pay_type: r.pay_type,
        payTypeLabel: payTypeLabels[r.pay_type as PayTypeCode] ?? '',
        created_at: new Date(r.created_at).toISOString(),
        created_at_formatted: formatDateTime(r.created_at),
        entries: es.map((e) => ({ id: e.id, number: e.number })),
        entry: first
          ? {
              id: first.id,
              number: first.number,
              user: { id: first.user_id, fio: first.fio },
              service: { title: r.package_title ?? (es.length > 1 ? PaymentMessages.packageLabel : first.title), type: first.type },
            }
          : null,
        entry_number: first?.number ?? null,
        is_package: es.length > 1 || r.package_title !== null,
        package_title: r.package_title,
        is_double: r.is_double,
        status_label: r.is_double ? PaymentMessages.doublePayment : (refundLabel ?? PaymentMessages.paid),
        color: r.is_double ? 'orange' : refundLabel ? 'grape' : 'teal',
        description: r.description,
        // Only the real provider's payments have a page there; sandbox ones do not.
        provider_url: r.uuid && r.provider === 'yookassa' ? providerPaymentUrl(r.uuid) : null,
        refunded_sum: refunded,
        refund_pending_sum: pending,
        refundable_sum: leftKop / 100,
        refunds: (r.refunds ?? []).map(refundOf),
      };
    },
  });
}

export interface CardTransactionFilters extends Omit<PaymentFilters, 'payType' | 'created_at' | 'userId'> {
  status?: string;
  withoutUser?: boolean;
}

interface CardRow {
  id: number;
  uuid: string | null;
  status: string;
  sum: string | number;
  description: string | null;
  user_id: number | null;
  fio: string | null;
  user_fio: string | null;
  phone: string | null;
  entry_ids: number[];
  numbers: string[] | null;
  provider: string;
  hold_decision: string | null;
  created_at: Date | string;
  refunded: string | number;
}

/** A succeeded card payment's label and colour once money went back: «Возвращён» or «Частично возвращён» with the sum. */
function cardStatus(r: CardRow): { label: string; color: string } {
  // A hold we cancelled because the entries were paid meanwhile says so (docs/decisions/023-no-double-charge.md).
  if (r.status === 'canceled' && r.hold_decision === 'cancel') return { label: PaymentMessages.canceledAlreadyPaid, color: 'red' };
  const refunded = kopecksOf(r.refunded);
  if (r.status === 'succeeded' && refunded > 0) {
    const sum = formatRub(rublesOf(refunded));
    return refunded >= kopecksOf(r.sum)
      ? { label: PaymentMessages.cardRefunded(sum), color: 'grape' }
      : { label: PaymentMessages.cardPartlyRefunded(sum), color: 'grape' };
  }
  return { label: providerStatusLabels[r.status]?.label ?? r.status, color: providerStatusLabels[r.status]?.color ?? 'gray' };
}

export async function listCardTransactions(db: Queryable, f: CardTransactionFilters, page: PageQuery): Promise<ListPage<CardTransaction>> {
  const entryIds = sql`select (jsonb_array_elements_text(c.entry_ids))::int`;
  const fioWords = (f.fio ?? '').split(/\s+/).filter(Boolean).slice(0, 3);
  const where = allOf([
    when(f.status, (v) => sql`c.status = ${v}`),
    when(f.uuid, (v) => sql`c.uuid ilike ${containsPattern(v)}`),
    when(f.sum, (v) => sql`c.sum = ${rublesText(v)}::numeric`),
    f.withoutUser && sql`c.user_id is null`,
    entryCondition({ entry_number: f.entry_number, serviceType: f.serviceType, serviceTitle: f.serviceTitle }, entryIds),
    // The buyer is a user or, on the public form, a typed name.
    ...fioWords.map((w) => sql`(c.fio ilike ${containsPattern(w)} or exists (select 1 from users u where u.id = c.user_id and ${fioCondition(w, 'u')}))`),
  ]);
  return listPage<CardRow, CardTransaction>(db, {
    select: sql`select c.id, c.uuid, c.status, c.sum, c.description, c.user_id, c.fio, c.phone, c.entry_ids, c.provider, c.hold_decision, c.created_at,
          (select concat_ws(' ', u.last_name, u.first_name, u.middle_name) from users u where u.id = c.user_id) as user_fio,
          (select array_agg(e.number order by e.id) from entries e where e.id in (${entryIds})) as numbers,
          (select coalesce(sum(r.sum), 0) from payments p join payment_refunds r on r.payment_id = p.id
            where p.card_transaction_id = c.id and r.status = 'succeeded') as refunded`,
    from: sql`from card_transactions c`,
    where,
    order: sql`c.created_at desc, c.id desc`,
    page,
    map: (r) => ({
      id: r.id,
      uuid: r.uuid,
      status: r.status,
      status_label: cardStatus(r).label,
      color: cardStatus(r).color,
      sum: Number(r.sum),
      refunded_sum: rublesOf(kopecksOf(r.refunded)),
      order: r.numbers?.length ? r.numbers.join(', ') : null,
      buyer: r.user_fio ?? (r.fio ? `${r.fio}${r.phone ? `, ${r.phone}` : ''}` : null),
      user_id: r.user_id,
      comment: r.description,
      created_at_formatted: formatDateTime(r.created_at),
      provider_url: r.uuid && r.provider === 'yookassa' ? providerPaymentUrl(r.uuid) : null,
      test: r.provider === 'sandbox',
    }),
  });
}

// The entry and card-transaction lookups of the payment calls (routes.ts).

/** A card_transactions row as Drizzle reads it. */
export type CardTransactionRow = typeof cardTransactions.$inferSelect;

/** The entry's id when it exists and `owner` (the asker's entry filter, entry-policy.ts) lets them reach it. */
export async function reachableEntryId(db: Queryable, entryId: number, owner: SQL): Promise<number | null> {
  const [entry] = await rows<{ id: number }>(db, sql`select id from entries where id = ${entryId} and ${owner}`);
  return entry ? entry.id : null;
}

/** Whether the provider payment `uuid` is recorded as covering the entry. */
export async function cardTransactionCoversEntry(db: Queryable, uuid: string, entryId: number): Promise<boolean> {
  const [ct] = await rows<{ id: number }>(db, sql`select id from card_transactions where uuid = ${uuid} and entry_ids @> ${JSON.stringify([entryId])}::jsonb`);
  return ct !== undefined;
}

/** Links the entry to a provider payment. */
export async function setEntryPaymentUuid(db: Queryable, entryId: number, uuid: string): Promise<void> {
  await db
    .update(entries)
    .set({ payment_uuid: uuid })
    .where(sql`id = ${entryId}`);
}

/** The provider id of a card transaction `owner` (card-transaction-policy.ts) lets the asker reach; undefined when none. */
export async function reachableCardTransaction(db: Queryable, id: number, owner: SQL): Promise<{ uuid: string | null } | undefined> {
  const [ct] = await rows<{ uuid: string | null }>(db, sql`select uuid from card_transactions where id = ${id} and ${owner}`);
  return ct;
}

/** A card transaction of the public form (no user, a typed name); undefined when none. */
export async function publicCardTransaction(db: Queryable, id: number): Promise<{ uuid: string | null } | undefined> {
  const [ct] = await rows<{ uuid: string | null }>(db, sql`select uuid from card_transactions where id = ${id} and user_id is null and fio is not null`);
  return ct;
}

/** The stored status of a card transaction (the caller knows it exists). */
export async function cardTransactionStatus(db: Queryable, id: number): Promise<string> {
  const [after] = await rows<{ status: string }>(db, sql`select status from card_transactions where id = ${id}`);
  return after.status;
}

/** The card transaction made for one submitted form (its idempotence key). */
export async function findCardTransactionByKey(db: Queryable, idempotenceKey: string): Promise<CardTransactionRow | undefined> {
  const [ct] = await db
    .select()
    .from(cardTransactions)
    .where(sql`idempotence_key = ${idempotenceKey}`);
  return ct;
}

/** Records a payment of the public form; a concurrent submit of the same form keeps the first row. */
export async function insertPublicCardTransaction(
  db: Queryable,
  t: { provider: string; idempotenceKey: string; sum: number; description: string; fio: string; phone: string },
): Promise<CardTransactionRow> {
  const inserted = await db
    .insert(cardTransactions)
    .values({
      provider: t.provider,
      idempotence_key: t.idempotenceKey,
      status: 'pending',
      sum: t.sum,
      description: t.description,
      fio: t.fio,
      phone: t.phone,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted.length) return inserted[0];
  const [ct] = await db
    .select()
    .from(cardTransactions)
    .where(sql`idempotence_key = ${t.idempotenceKey}`);
  return ct;
}

/** Stores the provider's payment on its card transaction. */
export async function setCardTransactionPayment(
  db: Queryable,
  id: number,
  p: { uuid: string; confirmationUrl: string | null; raw: Record<string, unknown> },
): Promise<void> {
  await db
    .update(cardTransactions)
    .set({ uuid: p.uuid, confirmation_url: p.confirmationUrl, raw: p.raw })
    .where(sql`id = ${id}`);
}
