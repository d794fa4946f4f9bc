import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { EntryStatus, EventId, PayType } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { EntryMessages, paymentCanceledNote } from '@edu/domain/entries/entry';
import { PACKAGE_PAY_WINDOW_MIN } from '@edu/domain/service-packages/service-package';
import { OFFLINE_PAY_TYPES, PaymentMessages, type PayEntryAnswer } from '@edu/domain/payments/payment';
import { LogReasons } from '@edu/domain/logs/log';
import { cardTransactions, entries, paymentEntries, payments } from '../../db/schema/index.ts';
import { isOperator } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { logChange } from '../../platform/change-log.ts';
import { AppError, errorForLog, notFound } from '../../platform/errors.ts';
import { raiseEvent } from '../../platform/events.ts';
import { scheduleJob } from '../../platform/jobs.ts';
import { money, ProviderError, type ProviderPayment, type ProviderStatus } from '../../platform/payments/yookassa-client.ts';
import { entryOwnerFilter } from '../entries/entry-policy.ts';
import { moveEntryStatus, type MovedEntry } from '../entries/entry-status.ts';
import { breakEnrollment, enrollmentEntries, isWholeAndUnpaid, lockEnrollment } from '../entries/package-enrollments.ts';
import { formatInterval } from '@edu/domain/common/moscow-time';
import { formatRub } from '@edu/domain/common/format';
import { refundDoubleIn, sendRefund } from './refund-rules.ts';
import { packageNamed, quoted, quotedName } from '@edu/domain/common/quotes';

/**
 * A provider failure as the user should read it: a receipt or request problem is a 422 with its own
 * Russian message, an unreachable provider a 503; the log keeps the provider's error id and code.
 */
export function providerFailure(app: FastifyInstance, err: unknown, context: Record<string, unknown>): AppError {
  if (!(err instanceof ProviderError)) {
    app.log.error({ err: errorForLog(err), ...context }, 'payment creation failed');
    return new AppError(503, PaymentMessages.providerUnavailable);
  }
  app.log.error({ provider: err.logFields, ...context }, 'payment creation refused by the provider');
  if (err.status === 0 || err.status === 202 || err.status === 429 || err.status >= 500) return new AppError(503, PaymentMessages.providerUnavailable);
  if (err.status === 401 || err.status === 403) return new AppError(503, PaymentMessages.providerSettings);
  if (err.parameter?.startsWith('receipt')) return new AppError(422, PaymentMessages.providerReceipt, { errors: {} });
  return new AppError(422, PaymentMessages.providerRejected, { errors: {} });
}

/** Pending payments are asked about after this long, in case the webhook is lost. */
export const RECONCILE_AFTER_S = 180;
/** A pending attempt younger than this is shown again instead of creating a new provider payment. */
const REUSE_ATTEMPT_MIN = 30;

const RANK: Record<string, number> = { pending: 0, waiting_for_capture: 1, succeeded: 2, canceled: 2 };
const TERMINAL = new Set(['succeeded', 'canceled']);

const idList = (ids: number[]) =>
  sql.join(
    ids.map((i) => sql`${i}`),
    sql`, `,
  );

/**
 * Entries reserved by a provider payment held for capture that we decided to capture: until the
 * provider answers, nobody else may pay them (docs/decisions/023-no-double-charge.md).
 */
async function heldForCapture(db: Queryable, entryIds: number[], exceptTransaction = 0): Promise<boolean> {
  if (entryIds.length === 0) return false;
  const [r] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from card_transactions c
        where c.status = 'waiting_for_capture' and c.hold_decision = 'capture' and c.id <> ${exceptTransaction}
          and exists (select 1 from jsonb_array_elements_text(c.entry_ids) x where x::int in (${idList(entryIds)}))`,
  );
  return r.n > 0;
}

/** Locks the entries (in id order, as every payment path does) and answers their statuses; missing ones are left out. */
async function lockEntries(tx: Queryable, entryIds: number[]): Promise<Array<{ id: number; status: number }>> {
  if (entryIds.length === 0) return [];
  return rows<{ id: number; status: number }>(tx, sql`select id, status from entries where id in (${idList(entryIds)}) order by id for update`);
}

interface EntryToPay {
  id: number;
  number: string;
  created_by: number;
  status: number;
  price: string | number;
  pay_type: number;
  package_enrollment_id: number | null;
  deleted_at: Date | null;
  service_title: string;
  email: string;
  phone: string | null;
}

async function loadEntries(db: Queryable, where: ReturnType<typeof sql>): Promise<EntryToPay[]> {
  return rows<EntryToPay>(
    db,
    sql`select e.id, e.number, e.created_by, e.status, e.price, e.pay_type, e.package_enrollment_id, e.deleted_at,
          s.title as service_title, u.email, u.phone
        from entries e join services s on s.id = e.service_id join users u on u.id = e.created_by
        where ${where} order by e.id`,
  );
}

const DATE_TYPE_WORDS: Record<number, string> = { 2: 'постоянно', 3: 'открытые даты' };

/** What one payment paid, for its one letter and one notification. */
export interface PaidGroup {
  userId: number;
  entries: MovedEntry[];
  sum: number;
  /** The package's name when the payment paid a package. */
  packageTitle: string | null;
}

async function packageTitleOf(db: Queryable, entryIds: number[]): Promise<string | null> {
  if (entryIds.length === 0) return null;
  const [r] = await rows<{ title: string; n: number }>(
    db,
    sql`select pe.title, count(*)::int as n from entries e join package_enrollments pe on pe.id = e.package_enrollment_id
        where e.id in (${sql.join(
          entryIds.map((i) => sql`${i}`),
          sql`, `,
        )}) group by pe.title`,
  );
  return r && r.n === entryIds.length ? r.title : null;
}

/**
 * One "entry paid" event (EventId.entryPaid) for one payment, in its transaction: one letter and
 * one notification listing what it paid (a package, several entries or one), through the event's
 * templates with these macro values; the notification leads to the first entry paid.
 */
async function raisePaid(tx: Queryable, g: PaidGroup): Promise<void> {
  if (g.entries.length === 0) return;
  const ids = g.entries.map((e) => e.id);
  const dates = await rows<{ id: number; title: string; date_type: number; begda: Date | null; endda: Date | null }>(
    tx,
    sql`select e.id, s.title, s.date_type, s.begda, s.endda from entries e join services s on s.id = e.service_id
        where e.id in (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )}) order by e.id`,
  );
  const intervalOf = (d: (typeof dates)[number]) =>
    (d.date_type === 1 ? formatInterval(d.begda, d.endda) : null) ?? DATE_TYPE_WORDS[d.date_type] ?? 'уточняются';
  const titles = g.entries.map((e) => quoted(e.service_title)).join(', ');
  const list = g.entries.map((e) => `№ ${e.number} ${quoted(e.service_title)}`).join(', ');
  const summary = g.packageTitle
    ? `${packageNamed(g.packageTitle)} оплачен (${formatRub(g.sum)}): заявки ${list}.`
    : g.entries.length === 1
      ? `Заявка ${list} оплачена.`
      : `Заявки ${list} оплачены (${formatRub(g.sum)}).`;
  await raiseEvent(tx, {
    eventId: EventId.entryPaid,
    userId: g.userId,
    entryId: g.entries[0].id,
    extra: {
      'entry.number': g.entries.map((e) => e.number).join(', '),
      'service.title': g.packageTitle ? `${packageNamed(g.packageTitle, true)}: ${titles}` : titles,
      'service.title_quoted': g.packageTitle ? `${packageNamed(g.packageTitle, true)}: ${titles}` : titles,
      'service.interval': dates.length === 1 ? intervalOf(dates[0]) : dates.map((d) => `${quoted(d.title)} — ${intervalOf(d)}`).join('; '),
      'entry.price': formatRub(g.sum),
      'payment.summary': summary,
    },
  });
}

/**
 * The "payment did not go through" event (EventId.paymentCanceled) for a client's payment the
 * provider cancelled (declined, expired unconfirmed), in its transaction: only while what it was for
 * is still unpaid and not removed (a later payment may have paid it; an expired package is gone).
 * A package's letter says until when the package stays reserved.
 */
async function raiseCanceled(tx: Queryable, o: { userId: number; entryIds: number[]; sum: number; reason: string | null }): Promise<void> {
  if (o.entryIds.length === 0) return;
  const list = await rows<{ id: number; number: string; title: string; package_title: string | null; package_created_at: Date | string | null }>(
    tx,
    sql`select e.id, e.number, s.title, pe.title as package_title, case when pe.broken_at is null then pe.created_at end as package_created_at
        from entries e join services s on s.id = e.service_id left join package_enrollments pe on pe.id = e.package_enrollment_id
        where e.id in (${idList(o.entryIds)}) and e.status = 1 and e.deleted_at is null order by e.id`,
  );
  if (list.length < o.entryIds.length) return;
  const numbers = list.map((e) => e.number).join(', ');
  const pkg = list.every((e) => e.package_title && e.package_title === list[0].package_title) ? list[0] : null;
  const what = pkg
    ? `пакета услуг ${quotedName(pkg.package_title ?? '')} (заявки № ${numbers})`
    : list.length === 1
      ? `заявки № ${numbers} ${quoted(list[0].title)}`
      : `заявок № ${numbers}`;
  const reservedUntil = pkg?.package_created_at ? new Date(new Date(pkg.package_created_at).getTime() + PACKAGE_PAY_WINDOW_MIN * 60_000) : null;
  await raiseEvent(tx, {
    eventId: EventId.paymentCanceled,
    userId: o.userId,
    entryId: list[0].id,
    extra: {
      'entry.number': numbers,
      'entry.price': formatRub(o.sum),
      'payment.canceled_summary': paymentCanceledNote({
        what,
        sum: o.sum,
        reason: o.reason,
        reservedUntil: reservedUntil && reservedUntil.getTime() > Date.now() ? reservedUntil : null,
      }),
    },
  });
}

/**
 * The entries one payment covers and its sum, in the caller's transaction. A package purchase is
 * paid as a whole at its price; one found broken (part of it removed or paid) is broken for good
 * and the entry is paid alone at its list price (docs/decisions/009-package-purchases.md).
 */
async function paymentScopeIn(tx: Queryable, entry: EntryToPay, by: number): Promise<{ group: EntryToPay[]; sum: number; packageTitle: string | null }> {
  if (entry.package_enrollment_id) {
    const enrollmentId = entry.package_enrollment_id;
    const enrollment = await lockEnrollment(tx, enrollmentId);
    if (enrollment && !enrollment.broken) {
      const list = await enrollmentEntries(tx, enrollmentId);
      if (isWholeAndUnpaid(list)) {
        const group = await loadEntries(tx, sql`e.package_enrollment_id = ${enrollmentId} and e.status = 1 and e.deleted_at is null`);
        return { group, sum: enrollment.price, packageTitle: enrollment.title };
      }
      await breakEnrollment(tx, enrollmentId, { by, reason: LogReasons.packageBrokenPaidInPart });
    }
    [entry] = await loadEntries(tx, sql`e.id = ${entry.id}`);
  }
  return { group: [entry], sum: Number(entry.price), packageTitle: null };
}

/**
 * Marks an entry paid at once, with its whole package when it is one: one payment row, one
 * notification. For operators (with the pay type they chose) and free entries. The caller mails
 * the answer after the commit (the entry-paid event's job).
 */
/** Why an entry that is not «Не оплачена» cannot be paid: paid already, or cancelled with its money refunded. */
const notPayable = (status: number) =>
  new AppError(422, status === EntryStatus.refunded ? PaymentMessages.entryRefunded : PaymentMessages.alreadyPaid, { errors: {} });

export async function markPaidIn(tx: Queryable, by: AuthUser, entryId: number, payType?: number): Promise<PaidGroup> {
  const [found] = await loadEntries(tx, sql`e.id = ${entryId}`);
  if (!found || found.deleted_at) throw notFound(EntryMessages.entryNotFound);
  if (found.status !== EntryStatus.notPaid) throw notPayable(found.status);
  const { group, sum, packageTitle } = await paymentScopeIn(tx, found, by.id);
  // The locks first, then the check: a capture decided meanwhile is seen after its commit.
  await lockEntries(
    tx,
    group.map((e) => e.id),
  );
  if (
    await heldForCapture(
      tx,
      group.map((e) => e.id),
    )
  )
    throw new AppError(422, PaymentMessages.awaitingCapture, { errors: {} });
  const entry = group.find((e) => e.id === entryId) ?? group[0];
  const type = payType ?? (isOperator(by) ? entry.pay_type : PayType.online);
  const moved: MovedEntry[] = [];
  for (const e of group) {
    const r = await moveEntryStatus(tx, { entryId: e.id, to: 2, by: by.id, payType: type, silent: true });
    if (r.result !== 'moved') throw new AppError(422, PaymentMessages.alreadyPaid, { errors: {} });
    moved.push(r.entry);
  }
  const description = (packageTitle ? `${packageNamed(packageTitle)}: заявки № ${group.map((e) => e.number).join(', ')}` : `Заявка № ${entry.number}`).slice(
    0,
    500,
  );
  const [p] = await tx
    .insert(payments)
    .values({ sum, pay_type: type, user_id: entry.created_by, created_by: by.id, description })
    .returning({ id: payments.id });
  await tx.insert(paymentEntries).values(group.map((e) => ({ payment_id: p.id, entry_id: e.id, sum: Number(e.price) })));
  await logChange(tx, {
    type: 'payment',
    entityId: p.id,
    userId: by.id,
    before: null,
    after: { sum, pay_type: type, client_id: entry.created_by, description, entries: group.map((e) => e.number) },
  });
  const g: PaidGroup = { userId: entry.created_by, entries: moved, sum, packageTitle };
  await raisePaid(tx, g);
  return g;
}

/**
 * POST /api/entry/{id}/pay. Operators, and anyone for a free entry, mark it paid at once. Otherwise
 * a provider payment covers the entry (or its whole package purchase). A repeated click reuses the
 * pending attempt: one attempt never makes two provider payments.
 */
export async function payEntry(app: FastifyInstance, user: AuthUser, entryId: number, opts: { payType?: number } = {}): Promise<PayEntryAnswer> {
  const operator = isOperator(user);
  // An operator marking an entry paid names how the money came (Банк, Офис, Другое): never online.
  if (operator && !(OFFLINE_PAY_TYPES as readonly number[]).includes(opts.payType ?? 0)) {
    throw new AppError(422, PaymentMessages.chooseOfflinePayType, { errors: { pay_type: [PaymentMessages.chooseOfflinePayType] } });
  }
  const owner = entryOwnerFilter(user, 'e');
  const [found] = await loadEntries(app.db, sql`e.id = ${entryId} and ${owner}`);
  if (!found || found.deleted_at) throw notFound(EntryMessages.entryNotFound);
  if (found.status !== EntryStatus.notPaid) throw notPayable(found.status);

  if (operator || Number(found.price) === 0) {
    await app.db.transaction((tx) => markPaidIn(tx, user, entryId, operator ? opts.payType : PayType.online));
    return { id: entryId, status: 2, immediate: true, confirmation: null };
  }

  if (!app.config.yookassa.enabled) throw new AppError(422, PaymentMessages.paymentsOff, { errors: {} });

  const { group, sum, packageTitle } = await app.db.transaction((tx) => paymentScopeIn(tx, found, user.id));
  const entry = group.find((e) => e.id === entryId) ?? group[0];
  const ids = group.map((e) => e.id);
  if (sum === 0) {
    await app.db.transaction((tx) => markPaidIn(tx, user, entryId));
    return { id: entryId, status: 2, immediate: true, confirmation: null };
  }
  const description = (
    packageTitle ? `${packageNamed(packageTitle)}: заявки № ${group.map((e) => e.number).join(', ')}` : `Заявка № ${entry.number}: ${entry.service_title}`
  ).slice(0, 500);
  // The provider takes at most 128 characters.
  const providerDescription = description.slice(0, 128);

  const attempt = await app.db.transaction(async (tx) => {
    await lockEntries(tx, ids);
    if (await heldForCapture(tx, ids)) throw new AppError(422, PaymentMessages.awaitingCapture, { errors: {} });
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
      .returning({
        id: cardTransactions.id,
        idempotence_key: cardTransactions.idempotence_key,
        confirmation_url: cardTransactions.confirmation_url,
        uuid: cardTransactions.uuid,
      });
    return created;
  });
  if (attempt.uuid && attempt.confirmation_url) return { id: attempt.uuid, confirmation: { confirmation_url: attempt.confirmation_url } };

  let provider: ProviderPayment;
  try {
    provider = await app.payments.createPayment({
      amount: sum,
      description: providerDescription,
      returnUrl: `${app.config.appUrl}/user/entry?payment=${attempt.id}`,
      metadata: { card_transaction_id: String(attempt.id), entry_ids: ids.join(',') },
      idempotenceKey: attempt.idempotence_key,
      receipt: app.config.yookassa.receipt
        ? { email: entry.email, phone: entry.phone ?? undefined, items: group.map((e) => ({ description: e.service_title, amount: Number(e.price) })) }
        : undefined,
    });
  } catch (err) {
    throw providerFailure(app, err, { entryId });
  }
  const url = provider.confirmation?.confirmation_url;
  await app.db
    .update(cardTransactions)
    .set({ uuid: provider.id, confirmation_url: url ?? null, raw: provider as unknown as Record<string, unknown>, updated_at: new Date() })
    .where(sql`id = ${attempt.id}`);
  await app.db
    .update(entries)
    .set({ payment_uuid: provider.id })
    .where(
      sql`id in (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )}) and status = 1`,
    );
  await scheduleJob(app.db, 'reconcile-payment', { uuid: provider.id }, { runAt: new Date(Date.now() + RECONCILE_AFTER_S * 1000), uniqueKey: provider.id });
  if (!url) throw new AppError(502, Messages.paymentFailed);
  return { id: provider.id, confirmation: { confirmation_url: url } };
}

export type ApplyResult = 'unknown' | 'mismatch' | 'unchanged' | 'updated' | 'paid';
type HoldDecision = 'capture' | 'cancel';

/**
 * What to do with a payment held for capture, in the transaction that saw it held: capture it while
 * every entry it covers is unpaid and reserved by no other held payment (the entries are then
 * reserved for it: markPaidIn waits for the provider), cancel it otherwise, so the client is not
 * charged for entries paid meanwhile (an operator's office payment, another attempt).
 */
async function decideHold(tx: Queryable, entryIds: number[], transactionId: number): Promise<HoldDecision> {
  if (entryIds.length === 0) return 'capture';
  const locked = await lockEntries(tx, entryIds);
  if (locked.length < entryIds.length || locked.some((e) => e.status !== 1)) return 'cancel';
  if (await heldForCapture(tx, entryIds, transactionId)) return 'cancel';
  return 'capture';
}

/**
 * Applies what the provider's API says about a payment (never what a webhook body says). Idempotent:
 * any number of repeated, late or out-of-order calls pay each entry once, record one payment row,
 * never move a status backwards. Payments are two-stage (capture: false): a held payment is
 * captured or cancelled as decideHold says, with its own Idempotence-Key, and the answer applied.
 * A success for entries already paid (a shop that captures by itself, a payment captured by hand)
 * is recorded as a double payment and refunded in full at once (refund-rules.ts).
 */
export async function applyProviderPayment(app: FastifyInstance, p: ProviderPayment, depth = 0): Promise<ApplyResult> {
  const outcome = await app.db.transaction(async (tx) => {
    const none = { paid: null as PaidGroup | null, hold: null as HoldDecision | null, refundId: null as number | null };
    const [ct] = await rows<{
      id: number;
      status: string;
      sum: string | number;
      currency: string;
      entry_ids: number[];
      user_id: number | null;
      description: string | null;
      hold_decision: HoldDecision | null;
    }>(tx, sql`select id, status, sum, currency, entry_ids, user_id, description, hold_decision from card_transactions where uuid = ${p.id} for update`);
    if (!ct) return { ...none, result: 'unknown' as const };
    if (p.amount.currency !== 'RUB' || p.amount.value !== money(Number(ct.sum))) {
      app.log.warn({ uuid: p.id, ours: ct.sum, theirs: p.amount }, 'provider amount does not match our record');
      return { ...none, result: 'mismatch' as const };
    }
    const status = p.status as ProviderStatus;
    if (status === 'waiting_for_capture' && ct.status === 'waiting_for_capture') {
      // Still held: the capture or the cancel we decided did not go through yet; do it again.
      await tx.execute(sql`update card_transactions set checked_at = now() where id = ${ct.id}`);
      return { ...none, result: 'unchanged' as const, hold: ct.hold_decision };
    }
    if (TERMINAL.has(ct.status) || (RANK[status] ?? -1) <= (RANK[ct.status] ?? 0)) {
      await tx.execute(sql`update card_transactions set checked_at = now() where id = ${ct.id}`);
      return { ...none, result: 'unchanged' as const };
    }
    await tx.execute(
      sql`update card_transactions set status = ${status}, raw = ${JSON.stringify(p)}::jsonb, checked_at = now(), updated_at = now() where id = ${ct.id}`,
    );
    if (status === 'waiting_for_capture') {
      const hold = await decideHold(tx, ct.entry_ids, ct.id);
      await tx.execute(sql`update card_transactions set hold_decision = ${hold} where id = ${ct.id}`);
      if (hold === 'cancel') app.log.warn({ uuid: p.id }, 'a held payment covers entries paid meanwhile: cancelling it at the provider');
      return { ...none, result: 'updated' as const, hold };
    }
    if (status === 'canceled' && ct.hold_decision !== 'cancel' && ct.user_id)
      await raiseCanceled(tx, { userId: ct.user_id, entryIds: ct.entry_ids, sum: Number(ct.sum), reason: p.cancellation_details?.reason ?? null });
    if (status !== 'succeeded' || ct.entry_ids.length === 0) return { ...none, result: 'updated' as const };

    // All or nothing: when any entry is paid already, the whole payment is a double and goes back.
    const locked = await lockEntries(tx, ct.entry_ids);
    const double = locked.length < ct.entry_ids.length || locked.some((e) => e.status >= 2);
    const moved: MovedEntry[] = [];
    if (!double) {
      for (const entryId of ct.entry_ids) {
        const r = await moveEntryStatus(tx, { entryId, to: 2, by: null, payType: PayType.online, paymentUuid: p.id, silent: true });
        if (r.result === 'moved') moved.push(r.entry);
      }
    }
    let refundId: number | null = null;
    const [pay] = await tx
      .insert(payments)
      .values({
        uuid: p.id,
        card_transaction_id: ct.id,
        sum: Number(ct.sum),
        pay_type: PayType.online,
        user_id: ct.user_id,
        is_double: double,
        description: ct.description,
      })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    if (pay) {
      const prices = await rows<{ id: number; price: string | number }>(tx, sql`select id, price from entries where id in (${idList(ct.entry_ids)})`);
      await tx.insert(paymentEntries).values(prices.map((e) => ({ payment_id: pay.id, entry_id: e.id, sum: Number(e.price) })));
      // The provider acted: the log's user is the system.
      await logChange(tx, {
        type: 'payment',
        entityId: pay.id,
        userId: null,
        before: null,
        after: { sum: Number(ct.sum), pay_type: PayType.online, client_id: ct.user_id, uuid: p.id, is_double: double, description: ct.description },
      });
      if (double) {
        app.log.warn({ uuid: p.id }, 'a success arrived for entries that were already paid: recorded as a double payment and refunded');
        refundId = await refundDoubleIn(tx, { paymentId: pay.id, uuid: p.id, sum: Number(ct.sum) });
      }
    }
    const paid: PaidGroup = {
      userId: ct.user_id ?? moved[0]?.created_by,
      entries: moved,
      sum: Number(ct.sum),
      packageTitle: await packageTitleOf(tx, ct.entry_ids),
    };
    if (moved.length > 0 && paid.userId) await raisePaid(tx, paid);
    return { ...none, result: 'paid' as const, paid: moved.length > 0 && paid.userId ? paid : null, refundId };
  });
  if (outcome.hold && p.status === 'waiting_for_capture' && depth < 3) {
    let next: ProviderPayment;
    try {
      next =
        outcome.hold === 'capture'
          ? await app.payments.capturePayment(p.id, p.amount, `capture-${p.id}`)
          : await app.payments.cancelPayment(p.id, `cancel-${p.id}`);
    } catch (err) {
      // Refused (the hold expired, the payment was cancelled meanwhile): what the API says now wins.
      if (!(err instanceof ProviderError) || err.status !== 400) throw err;
      next = await app.payments.getPayment(p.id);
    }
    return applyProviderPayment(app, next, depth + 1);
  }
  if (outcome.refundId) {
    // At once; the 'send-refund' job committed with the payment retries if the provider does not answer.
    await sendRefund(app, outcome.refundId).catch((err: unknown) =>
      app.log.warn({ err: err instanceof ProviderError ? err.logFields : errorForLog(err) }, 'double payment refund not sent yet'),
    );
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
