import { sql } from 'drizzle-orm';
import { EventId } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { PACKAGE_PAY_WINDOW_MIN, PackageMessages, type ServicePackage } from '@edu/domain/service-packages/service-package';
import { packageEnrollments } from '../../db/schema/index.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { validationError } from '../../platform/errors.ts';
import { scheduleJob } from '../../platform/jobs.ts';
import { raiseEvent } from '../../platform/events.ts';
import { createEntryIn } from '../entries/entry-rules.ts';
import { entryPaymentNote } from '@edu/domain/entries/entry';
import { packageNamed } from '@edu/domain/common/quotes';

/** The user's live entries for any of these services (any section). */
export async function appliedEntries(db: Queryable, userId: number, serviceIds: number[]) {
  if (serviceIds.length === 0) return [];
  return rows<{ service_id: number; entry_id: number; entry_number: string; title: string }>(
    db,
    sql`select e.service_id, e.id as entry_id, e.number as entry_number, s.title from entries e join services s on s.id = e.service_id
        where e.created_by = ${userId} and e.deleted_at is null and e.service_id in (${sql.join(
          serviceIds.map((i) => sql`${i}`),
          sql`, `,
        )})
        order by e.id`,
  );
}

/** Splits the package price over its services in proportion to their prices, to the kopeck, summing exactly. */
export function splitPrice(total: number, prices: number[]): number[] {
  const sum = prices.reduce((a, b) => a + b, 0);
  const totalKop = Math.round(total * 100);
  const parts = prices.map((p) => (sum > 0 ? Math.floor((p / sum) * totalKop) : Math.floor(totalKop / prices.length)));
  parts[parts.length - 1] += totalKop - parts.reduce((a, b) => a + b, 0);
  return parts.map((k) => k / 100);
}

/**
 * Enrols the user in a package, in the caller's transaction: one purchase (package_enrollments) and
 * its entries at their shares of the package price, one notification, and the 15-minute expiry job.
 * Refused when the user already has an entry for one of its services (no paying twice).
 */
export async function enrollPackageIn(
  tx: Queryable,
  user: AuthUser,
  pkg: ServicePackage,
  chosen: Record<string, number | null | undefined>,
): Promise<number[]> {
  const prices = splitPrice(
    pkg.price,
    pkg.services.map((s) => s.price),
  );
  // Under the user's row lock, so two parallel enrolments cannot both pass the check below.
  await tx.execute(sql`select id from users where id = ${user.id} for update`);
  const [dup] = await appliedEntries(
    tx,
    user.id,
    pkg.services.map((s) => s.id),
  );
  if (dup)
    throw validationError(
      { services: [PackageMessages.alreadyApplied(dup.title, dup.entry_number)] },
      PackageMessages.alreadyApplied(dup.title, dup.entry_number),
    );
  const [enrollment] = await tx
    .insert(packageEnrollments)
    .values({ user_id: user.id, service_package_id: pkg.id, title: pkg.title, price: pkg.price })
    .returning({ id: packageEnrollments.id });
  const created: number[] = [];
  for (const [i, s] of pkg.services.entries()) {
    created.push(
      await createEntryIn(
        tx,
        user,
        { service_id: s.id, section_id: chosen[String(s.id)] ?? null, pay_type: 3, is_extramural: s.participation_type === 3 ? 1 : 0 },
        { price: prices[i], servicePackageId: pkg.id, packageEnrollmentId: enrollment.id, silent: true },
      ),
    );
  }
  const numbers = await rows<{ number: string }>(
    tx,
    sql`select number from entries where id in (${sql.join(
      created.map((i) => sql`${i}`),
      sql`, `,
    )}) order by id`,
  );
  const list = numbers.map((n) => `№ ${n.number}`).join(', ');
  const reservedUntil = new Date(Date.now() + PACKAGE_PAY_WINDOW_MIN * 60_000);
  // One "entry created" event for the whole package: one letter, one notification.
  await raiseEvent(tx, {
    eventId: EventId.entryCreated,
    userId: user.id,
    entryId: created[0],
    extra: {
      'entry.number': numbers.map((n) => n.number).join(', '),
      'service.title': packageNamed(pkg.title, true),
      'service.title_quoted': packageNamed(pkg.title, true),
      'entry.price': new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 }).format(pkg.price),
      'entry.payment_note': entryPaymentNote(pkg.price, 'package', reservedUntil),
      'entry.summary': `Заявка на ${packageNamed(pkg.title, true)} (${list}) создана. Ожидает оплаты: ${formatRub(pkg.price)}.`,
    },
  });
  // Unpaid after 15 minutes: removed by a durable job (survives restarts, any instance runs it).
  await scheduleJob(tx, 'expire-package', { entryIds: created }, { runAt: reservedUntil });
  return created;
}
