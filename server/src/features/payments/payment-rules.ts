import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { EventId, PayType, Role } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { EntryMessages } from '@edu/domain/entries/entry';
import { PaymentMessages } from '@edu/domain/payments/payment';
import { fullName } from '@edu/domain/users/current-user';
import { cardTransactions, entries, paymentEntries, payments } from '../../db/schema/index.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { sendEventMail } from '../../platform/event-mail.ts';
import { scheduleJob } from '../../platform/jobs.ts';
import { money, ProviderError, type ProviderPayment, type ProviderStatus } from '../../platform/payments/yookassa-client.ts';
import { moveEntryStatus, type MovedEntry } from '../entries/entry-status.ts';

/** Pending payments are asked about after this long, in case the webhook is lost. */
export const RECONCILE_AFTER_S = 180;
/** A pending attempt younger than this is shown again instead of creating a new provider payment. */
const REUSE_ATTEMPT_MIN = 30;

const RANK: Record<string, number> = { pending: 0, waiting_for_capture: 1, succeeded: 2, canceled: 2 };
const TERMINAL = new Set(['succeeded', 'canceled']);

interface EntryToPay {
  id: number;
  number: string;
  created_by: number;
  status: number;
  price: string | number;
  pay_type: number;
  is_service_package: boolean;
  service_package_id: number | null;
  deleted_at: Date | null;
  service_title: string;
  email: string;
  phone: string | null;
}

async function loadEntries(db: Queryable, where: ReturnType<typeof sql>): Promise<EntryToPay[]> {
  return rows<EntryToPay>(
    db,
    sql`select e.id, e.number, e.created_by, e.status, e.price, e.pay_type, e.is_service_package, e.service_package_id, e.deleted_at,
          s.title as service_title, u.email, u.phone
        from entries e join services s on s.id = e.service_id join users u on u.id = e.created_by
        where ${where} order by e.id`,
  );
}

/** Mails "entry paid" for entries that moved, after the transaction committed. */
export async function mailPaid(app: FastifyInstance, moved: MovedEntry[]): Promise<void> {
  for (const e of moved) {
    const [u] = await rows<{ email: string; last_name: string; first_name: string; middle_name: string | null }>(
      app.db,
      sql`select email, last_name, first_name, middle_name from users where id = ${e.created_by}`,
    );
    if (!u) continue;
    await sendEventMail({ db: app.db, mailer: app.mailer, log: app.log }, EventId.entryPaid, u.email, {
      'user.fio': fullName(u),
      'entry.number': e.number,
      'service.title': e.service_title,
      'entry.price': e.price,
      'app.url': app.config.appUrl,
    });
  }
}

export interface PayAnswer {
  id: string | number;
  status?: number;
  immediate?: boolean;
  confirmation: { confirmation_url: string } | null;
}

/**
 * POST /api/entry/{id}/pay. Operators, and anyone for a free entry, mark it paid at once. Otherwise
 * a provider payment covers the entry (or all unpaid entries of its package enrolment). A repeated
 * click reuses the pending attempt: one attempt never makes two provider payments.
 */
export async function payEntry(app: FastifyInstance, user: AuthUser, entryId: number): Promise<PayAnswer> {
  const isOperator = user.role === Role.operator;
  const owner = isOperator ? sql`true` : sql`e.created_by = ${user.id}`;
  const [entry] = await loadEntries(app.db, sql`e.id = ${entryId} and ${owner}`);
  if (!entry || entry.deleted_at) throw notFound(EntryMessages.entryNotFound);
  if (entry.status >= 2) throw new AppError(422, PaymentMessages.alreadyPaid, { errors: {} });

  if (isOperator || Number(entry.price) === 0) {
    const moved = await app.db.transaction(async (tx) => {
      const r = await moveEntryStatus(tx, { entryId, to: 2, by: user.id, payType: isOperator ? entry.pay_type : PayType.online });
      if (r.result !== 'moved') throw new AppError(422, PaymentMessages.alreadyPaid, { errors: {} });
      const [p] = await tx
        .insert(payments)
        .values({ sum: Number(entry.price), pay_type: isOperator ? entry.pay_type : PayType.online, user_id: entry.created_by, created_by: user.id, description: `Заявка № ${entry.number}` })
        .returning({ id: payments.id });
      await tx.insert(paymentEntries).values({ payment_id: p.id, entry_id: entryId, sum: Number(entry.price) });
      return r.entry;
    });
    await mailPaid(app, [moved]);
    return { id: entryId, status: 2, immediate: true, confirmation: null };
  }

  // A package enrolment is paid as one: every unpaid entry of it.
  const group = entry.is_service_package && entry.service_package_id
    ? await loadEntries(app.db, sql`e.created_by = ${entry.created_by} and e.service_package_id = ${entry.service_package_id} and e.status = 1 and e.deleted_at is null`)
    : [entry];
  const ids = group.map((e) => e.id);
  const sum = Math.round(group.reduce((a, e) => a + Number(e.price) * 100, 0)) / 100;
  const description = group.length > 1 ? `Пакет услуг: заявки № ${group.map((e) => e.number).join(', ')}` : `Заявка № ${entry.number}: ${entry.service_title}`;

  const attempt = await app.db.transaction(async (tx) => {
    await tx.execute(sql`select id from entries where id in (${sql.join(ids.map((i) => sql`${i}`), sql`, `)}) order by id for update`);
    const [open] = await rows<{ id: number; idempotence_key: string; confirmation_url: string | null; uuid: string | null }>(
      tx,
      sql`select id, idempotence_key, confirmation_url, uuid from card_transactions
          where status = 'pending' and entry_ids = ${JSON.stringify(ids)}::jsonb and sum = ${sum}
            and created_at > now() - make_interval(mins => ${REUSE_ATTEMPT_MIN})
          order by id desc limit 1`,
    );
    if (open) return open;
    const [created] = await tx
      .insert(cardTransactions)
      .values({
        provider: app.config.yookassa.sandbox ? 'sandbox' : 'yookassa',
        idempotence_key: randomUUID(),
        status: 'pending',
        sum,
        description,
        user_id: entry.created_by,
        created_by: user.id,
        entry_ids: ids,
      })
      .returning({ id: cardTransactions.id, idempotence_key: cardTransactions.idempotence_key, confirmation_url: cardTransactions.confirmation_url, uuid: cardTransactions.uuid });
    return created;
  });
  if (attempt.uuid && attempt.confirmation_url) return { id: attempt.uuid, confirmation: { confirmation_url: attempt.confirmation_url } };

  let provider: ProviderPayment;
  try {
    provider = await app.payments.createPayment({
      amount: sum,
      description,
      returnUrl: `${app.config.appUrl}/user/entry?payment=${attempt.id}`,
      metadata: { card_transaction_id: String(attempt.id), entry_ids: ids.join(',') },
      idempotenceKey: attempt.idempotence_key,
      receipt: app.config.yookassa.receipt ? { email: entry.email, phone: entry.phone ?? undefined, items: group.map((e) => ({ description: e.service_title, amount: Number(e.price) })) } : undefined,
    });
  } catch (err) {
    app.log.error({ err, entryId }, 'payment creation failed');
    throw new AppError(502, Messages.paymentFailed);
  }
  const url = provider.confirmation?.confirmation_url;
  await app.db
    .update(cardTransactions)
    .set({ uuid: provider.id, confirmation_url: url ?? null, raw: provider as unknown as Record<string, unknown>, updated_at: new Date() })
    .where(sql`id = ${attempt.id}`);
  await app.db.update(entries).set({ payment_uuid: provider.id }).where(sql`id in (${sql.join(ids.map((i) => sql`${i}`), sql`, `)}) and status = 1`);
  await scheduleJob(app.db, 'reconcile-payment', { uuid: provider.id }, { runAt: new Date(Date.now() + RECONCILE_AFTER_S * 1000), uniqueKey: provider.id });
  if (!url) throw new AppError(502, Messages.paymentFailed);
  return { id: provider.id, confirmation: { confirmation_url: url } };
}

export type ApplyResult = 'unknown' | 'mismatch' | 'unchanged' | 'updated' | 'paid';

/**
 * Applies what the provider's API says about a payment (never what a webhook body says). Idempotent:
 * any number of repeated, late or out-of-order calls pay each entry once, record one payment row,
 * never move a status backwards. A success for entries already paid is recorded as a double payment.
 */
export async function applyProviderPayment(app: FastifyInstance, p: ProviderPayment): Promise<ApplyResult> {
  const outcome = await app.db.transaction(async (tx) => {
    const [ct] = await rows<{ id: number; status: string; sum: string | number; currency: string; entry_ids: number[]; user_id: number | null; description: string | null }>(
      tx,
      sql`select id, status, sum, currency, entry_ids, user_id, description from card_transactions where uuid = ${p.id} for update`,
    );
    if (!ct) return { result: 'unknown' as const, moved: [] as MovedEntry[] };
    if (p.amount.currency !== 'RUB' || p.amount.value !== money(Number(ct.sum))) {
      app.log.warn({ uuid: p.id, ours: ct.sum, theirs: p.amount }, 'provider amount does not match our record');
      return { result: 'mismatch' as const, moved: [] };
    }
    const status = p.status as ProviderStatus;
    if (TERMINAL.has(ct.status) || (RANK[status] ?? -1) <= (RANK[ct.status] ?? 0)) {
      await tx.execute(sql`update card_transactions set checked_at = now() where id = ${ct.id}`);
      return { result: 'unchanged' as const, moved: [] };
    }
    await tx.execute(sql`update card_transactions set status = ${status}, raw = ${JSON.stringify(p)}::jsonb, checked_at = now(), updated_at = now() where id = ${ct.id}`);
    if (status !== 'succeeded') return { result: 'updated' as const, moved: [] };

    const moved: MovedEntry[] = [];
    let double = false;
    for (const entryId of ct.entry_ids) {
      const r = await moveEntryStatus(tx, { entryId, to: 2, by: null, payType: PayType.online, paymentUuid: p.id });
      if (r.result === 'moved') moved.push(r.entry);
      else double = true;
    }
    if (ct.entry_ids.length > 0) {
      const [pay] = await tx
        .insert(payments)
        .values({ uuid: p.id, card_transaction_id: ct.id, sum: Number(ct.sum), pay_type: PayType.online, user_id: ct.user_id, is_double: double, description: ct.description })
        .onConflictDoNothing()
        .returning({ id: payments.id });
      if (pay) {
        const prices = await rows<{ id: number; price: string | number }>(tx, sql`select id, price from entries where id in (${sql.join(ct.entry_ids.map((i) => sql`${i}`), sql`, `)})`);
        await tx.insert(paymentEntries).values(prices.map((e) => ({ payment_id: pay.id, entry_id: e.id, sum: Number(e.price) })));
      }
      if (double) app.log.warn({ uuid: p.id }, 'a success arrived for entries that were already paid: recorded as a double payment');
    }
    return { result: 'paid' as const, moved };
  });
  await mailPaid(app, outcome.moved);
  if (outcome.result === 'updated' && p.status === 'waiting_for_capture') {
    // We create payments with capture: true; if the shop still holds one, capture it.
    const captured = await app.payments.capturePayment(p.id, p.amount, `capture-${p.id}`);
    return applyProviderPayment(app, captured);
  }
  return outcome.result;
}

/** Asks the provider about one of our payments and applies the answer. */
export async function refreshPayment(app: FastifyInstance, uuid: string): Promise<ApplyResult> {
  try {
    return await applyProviderPayment(app, await app.payments.getPayment(uuid));
  } catch (err) {
    if (err instanceof ProviderError && err.status === 404) return 'unknown';
    throw err;
  }
}
