import { sql } from 'drizzle-orm';
import { EventId } from '@edu/domain/common/codes';
import { LogReasons } from '@edu/domain/logs/log';
import type { FastifyInstance } from 'fastify';
import { logChange } from '../../platform/change-log.ts';
import { rows } from '../../platform/db.ts';
import type { JobRunner } from '../../platform/jobs.ts';
import { raiseEvent } from '../../platform/events.ts';
import { scheduleJob, type JobPayloads } from '../../platform/jobs.ts';
import type { Queryable } from '../../platform/db.ts';
import { applyProviderPayment, refreshPayment } from './payment-rules.ts';
import { sendRefundJob } from './refund-rules.ts';
import { quoted, quotedName } from '@edu/domain/common/quotes';

/** How long a payment may stay unanswered before we stop asking the provider. */
const RECONCILE_GIVE_UP_H = 24;

/** 'reconcile-payment' {uuid}: a lost webhook must not leave a paid entry unpaid. */
async function reconcilePayment(app: FastifyInstance, { uuid }: JobPayloads['reconcile-payment']) {
  await refreshPayment(app, uuid);
  const [ct] = await rows<{ status: string; age_h: number }>(
    app.db,
    sql`select status, extract(epoch from now() - created_at) / 3600 as age_h from card_transactions where uuid = ${uuid}`,
  );
  if (ct && (ct.status === 'pending' || ct.status === 'waiting_for_capture') && ct.age_h < RECONCILE_GIVE_UP_H) return { retryInSeconds: 300 };
}

export const RECONCILE_SWEEP_JOB = 'reconcile-payments-list';
/** How often the provider's list of recent payments is compared with ours, and how far back. */
const SWEEP_EVERY_S = 600;
const SWEEP_BACK_H = 48;
const SWEEP_MAX_PAGES = 20;

/** Keeps one open sweep job (the unique key merges repeats from every start and instance). */
export async function scheduleReconcileSweep(db: Queryable): Promise<void> {
  await scheduleJob(db, RECONCILE_SWEEP_JOB, {}, { uniqueKey: 'sweep', runAt: new Date(Date.now() + SWEEP_EVERY_S * 1000) });
}

/**
 * 'reconcile-payments-list': every 10 minutes the provider's list of payments of the last 48 hours
 * (GET /v3/payments, page by page) is compared with our attempts; one the provider sees further on
 * (held, paid, cancelled) is applied, whatever happened to its webhook or its own reconcile job.
 */
async function reconcileSweep(app: FastifyInstance) {
  if (app.config.yookassa.enabled) {
    let cursor: string | undefined;
    const since = new Date(Date.now() - SWEEP_BACK_H * 3600 * 1000);
    for (let page = 0; page < SWEEP_MAX_PAGES; page++) {
      const list = await app.payments.listPayments({ createdGte: since, cursor });
      const ids = list.items.map((p) => p.id);
      const ours = ids.length
        ? await rows<{ uuid: string; status: string }>(
            app.db,
            sql`select uuid, status from card_transactions where uuid in (${sql.join(
              ids.map((i) => sql`${i}`),
              sql`, `,
            )})`,
          )
        : [];
      const known = new Map(ours.map((c) => [c.uuid, c.status]));
      for (const p of list.items) {
        const status = known.get(p.id);
        if (status !== undefined && status !== 'succeeded' && status !== 'canceled' && (status !== p.status || p.status === 'waiting_for_capture'))
          await applyProviderPayment(app, p);
      }
      if (!list.next_cursor) break;
      cursor = list.next_cursor;
    }
  }
  return { retryInSeconds: SWEEP_EVERY_S, continuation: true };
}

/**
 * 'expire-package' {entryIds}: package entries unpaid 15 minutes after enrolment are removed. While
 * a provider payment for them is still open, the provider is asked first, and the removal waits.
 */
async function expirePackage(app: FastifyInstance, payload: JobPayloads['expire-package']) {
  const entryIds = payload.entryIds.filter(Number.isInteger);
  if (entryIds.length === 0) return;
  const list = sql.join(
    entryIds.map((i) => sql`${i}`),
    sql`, `,
  );
  const open = await rows<{ uuid: string; age_min: number }>(
    app.db,
    sql`select uuid, extract(epoch from now() - created_at) / 60 as age_min from card_transactions
        where uuid is not null and status in ('pending', 'waiting_for_capture')
          and exists (select 1 from jsonb_array_elements_text(entry_ids) x where x::int in (${list}))`,
  );
  for (const ct of open) await refreshPayment(app, ct.uuid);
  const stillOpen = await rows<{ n: number }>(
    app.db,
    sql`select count(*)::int as n from card_transactions where uuid is not null and status in ('pending', 'waiting_for_capture')
          and created_at > now() - interval '1 hour'
          and exists (select 1 from jsonb_array_elements_text(entry_ids) x where x::int in (${list}))`,
  );
  if (stillOpen[0].n > 0) return { retryInSeconds: 120 };

  await app.db.transaction(async (tx) => {
    const unpaid = await rows<{ id: number; number: string; created_by: number; title: string; package_title: string | null }>(
      tx,
      sql`select e.id, e.number, e.created_by, s.title, pe.title as package_title from entries e join services s on s.id = e.service_id
          left join package_enrollments pe on pe.id = e.package_enrollment_id
          where e.id in (${list}) and e.status = 1 and e.deleted_at is null and pe.broken_at is null for update of e`,
    );
    if (unpaid.length === 0) return;
    const now = new Date();
    await tx.execute(
      sql`update entries set deleted_at = ${now}, updated_at = ${now} where id in (${sql.join(
        unpaid.map((e) => sql`${e.id}`),
        sql`, `,
      )})`,
    );
    for (const e of unpaid)
      await logChange(tx, {
        type: 'entry',
        entityId: e.id,
        userId: null,
        before: { deleted_at: null },
        after: { deleted_at: now, reason: LogReasons.packageNotPaid },
      });
    await raiseEvent(tx, {
      eventId: EventId.packageExpired,
      userId: unpaid[0].created_by,
      entryId: unpaid[0].id,
      extra: {
        'package.title': unpaid[0].package_title ?? '',
        'package.name_quoted': quotedName(unpaid[0].package_title ?? ''),
        'package.entries': unpaid.map((e) => `№ ${e.number} ${quoted(e.title)}`).join(', '),
      },
    });
  });
}

export function registerPaymentJobs(runner: JobRunner): void {
  runner.register('reconcile-payment', reconcilePayment);
  runner.register('expire-package', expirePackage);
  runner.register('send-refund', sendRefundJob);
  runner.register(RECONCILE_SWEEP_JOB, reconcileSweep);
}
