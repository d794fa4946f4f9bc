import { sql } from 'drizzle-orm';
import { rublesOf } from '@edu/domain/common/money';
import { EntryStatus, EventId, PayType } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { canEditThesis, clientMayChange, EntryMessages, participationProblem, thesisLengthProblem } from '@edu/domain/entries/entry';
import { seatLimit } from '@edu/domain/services/service';
import { entries, entryTheses } from '../../db/schema/index.ts';
import { isOperator } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import { rows, type Db, type Queryable } from '../../platform/db.ts';
import { AppError, fieldError, notFound } from '../../platform/errors.ts';
import { raiseEvent } from '../../platform/events.ts';
import { entryOwnerFilter } from './entry-policy.ts';
import { entryUrl } from './entry-status.ts';
import { breakEnrollment, enrollmentEntries, isWholeAndUnpaid, lockEnrollment } from './package-enrollments.ts';
import { LogReasons } from '@edu/domain/logs/log';
import { moscowYymm } from '@edu/domain/common/moscow-time';
import { quoted } from '@edu/domain/common/quotes';
import { VerificationMessages } from '@edu/domain/documents/verification';
import { revokeEntryDocuments } from '../print/issued-documents.ts';

interface LockedService {
  id: number;
  title: string;
  price: string | number;
  is_visible: boolean;
  is_done: boolean;
  participation_type: number;
  max_participants: number;
  is_publication: boolean;
}

/** Locks the service row: every seat count and duplicate check of one service runs one at a time. */
export async function lockService(tx: Queryable, serviceId: number): Promise<LockedService | undefined> {
  const [s] = await rows<LockedService>(
    tx,
    sql`select id, title, price, is_visible, is_done, participation_type, max_participants, is_publication
        from services where id = ${serviceId} and deleted_at is null for update`,
  );
  return s;
}

async function sectionIdsOf(tx: Queryable, serviceId: number): Promise<number[]> {
  const list = await rows<{ id: number }>(tx, sql`select id from service_sections where service_id = ${serviceId} and deleted_at is null`);
  return list.map((r) => r.id);
}

/** Section choice, seats and the one-entry-per-service-and-section rule, under the service lock. */
export async function checkPlace(tx: Queryable, o: { service: LockedService; sectionId: number | null; userId: number; exceptEntryId?: number }) {
  const sections = await sectionIdsOf(tx, o.service.id);
  if (sections.length > 0 && !o.sectionId) throw fieldError('section_id', EntryMessages.chooseSection);
  if (o.sectionId && !sections.includes(o.sectionId)) throw fieldError('section_id', EntryMessages.sectionNotOfService);
  const except = o.exceptEntryId ? sql`and id <> ${o.exceptEntryId}` : sql``;
  const [dup] = await rows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from entries where created_by = ${o.userId} and service_id = ${o.service.id}
        and section_id is not distinct from ${o.sectionId} and deleted_at is null and status <> ${EntryStatus.refunded} ${except}`,
  );
  if (dup.n > 0) throw fieldError(o.sectionId ? 'section_id' : 'service_id', EntryMessages.alreadyApplied, EntryMessages.alreadyApplied);
  const scope = o.sectionId ? sql`section_id = ${o.sectionId}` : sql`service_id = ${o.service.id}`;
  const [taken] = await rows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from entries where ${scope} and deleted_at is null and status <> ${EntryStatus.refunded} ${except}`,
  );
  if (taken.n >= seatLimit(o.service.max_participants)) {
    const text = o.sectionId ? EntryMessages.sectionFull : EntryMessages.serviceFull;
    throw fieldError(o.sectionId ? 'section_id' : 'service_id', text, text);
  }
}

function checkPayType(payType: number, user: AuthUser) {
  if (payType === PayType.other && !isOperator(user)) throw fieldError('pay_type', EntryMessages.payTypeNotAllowed);
}

function checkParticipation(service: LockedService, isExtramural: number) {
  const problem = participationProblem(service.participation_type, isExtramural);
  if (problem) throw fieldError('is_extramural', problem);
}

/** 'YYMM-NNNNN': month of creation (Moscow) and the entry id, unique and easy to say on the phone. */
export const entryNumber = (id: number, at: Date | number = Date.now()) => `${moscowYymm(at)}-${String(id).padStart(5, '0')}`;

export interface CreateEntryInput {
  service_id: number;
  section_id?: number | null;
  pay_type: number;
  is_extramural: number;
}

/**
 * Creates an entry at the service's price. Free entries are paid at once (nothing to pay).
 * Runs in the caller's transaction so a package can create several entries all or nothing.
 */
export async function createEntryIn(
  tx: Queryable,
  user: AuthUser,
  input: CreateEntryInput,
  opts: { ownerId?: number; price?: number; servicePackageId?: number; packageEnrollmentId?: number; silent?: boolean; ordinary?: boolean } = {},
): Promise<number> {
  const service = await lockService(tx, input.service_id);
  const operator = isOperator(user);
  if (!service || (!operator && (!service.is_visible || service.is_done)))
    throw fieldError('service_id', EntryMessages.serviceUnavailable, EntryMessages.serviceUnavailable);
  // A publication is applied for with its article (the publications area), not as an ordinary entry.
  if (opts.ordinary && service.is_publication && !operator)
    throw fieldError('service_id', EntryMessages.publicationNotOrdinary, EntryMessages.publicationNotOrdinary);
  const ownerId = opts.ownerId ?? user.id;
  const sectionId = input.section_id ?? null;
  checkPayType(input.pay_type, user);
  checkParticipation(service, input.is_extramural);
  await checkPlace(tx, { service, sectionId, userId: ownerId });

  const price = opts.price ?? Number(service.price);
  const [{ id }] = await rows<{ id: number }>(tx, sql`select nextval(pg_get_serial_sequence('entries', 'id'))::int as id`);
  const free = price === 0;
  const values = {
    id,
    number: entryNumber(id),
    created_by: ownerId,
    author_id: ownerId === user.id ? null : user.id,
    service_id: service.id,
    section_id: sectionId,
    pay_type: input.pay_type,
    is_extramural: input.is_extramural,
    price,
    status: free ? 2 : 1,
    paid_at: free ? new Date() : null,
    is_service_package: opts.servicePackageId !== undefined,
    service_package_id: opts.servicePackageId ?? null,
    package_enrollment_id: opts.packageEnrollmentId ?? null,
  };
  await tx.insert(entries).values(values);
  await logChange(tx, { type: 'entry', entityId: id, userId: user.id, before: null, after: values });
  // A package enrolment raises one event for all its entries (enroll-package.ts).
  if (!opts.silent) {
    await raiseEvent(tx, {
      eventId: EventId.entryCreated,
      userId: ownerId,
      entryId: id,
      serviceId: service.id,
      extra: { 'entry.summary': `Заявка № ${values.number} на услугу ${quoted(service.title)} создана${free ? '' : '. Ожидает оплаты'}.` },
    });
  }
  return id;
}

export { entryUrl };

/** POST /api/entry: an ordinary entry (not a package's, not a publication's). */
export function createEntry(db: Db, user: AuthUser, input: CreateEntryInput): Promise<number> {
  return db.transaction((tx) => createEntryIn(tx, user, input, { ordinary: true }));
}

interface EntryState {
  id: number;
  created_by: number;
  service_id: number;
  section_id: number | null;
  pay_type: number;
  is_extramural: number;
  status: number;
  price: string | number;
  package_enrollment_id: number | null;
  certificate_number: string | null;
  deleted_at: Date | string | null;
}

export async function lockEntry(tx: Queryable, id: number, user: AuthUser): Promise<EntryState> {
  const owner = entryOwnerFilter(user);
  const [e] = await rows<EntryState>(
    tx,
    sql`select id, created_by, service_id, section_id, pay_type, is_extramural, status, price, package_enrollment_id, certificate_number, deleted_at
        from entries where id = ${id} and ${owner} for update`,
  );
  if (!e) throw notFound(EntryMessages.entryNotFound);
  return e;
}

export interface EntryPatch {
  section_id?: number | null;
  pay_type?: number;
  is_extramural?: number;
  /** Kopecks. Operators only (ignored for clients, as a price sent at creation is). */
  price?: number;
  certificate_number?: string | null;
}

/**
 * A client changes section, pay type or participation while the entry is unpaid; an operator at
 * any time, and also the price and the certificate number. Answers what changed.
 */
export async function updateEntry(db: Db, user: AuthUser, id: number, patch: EntryPatch): Promise<{ payTypeChanged: boolean }> {
  return db.transaction(async (tx) => {
    const before = await lockEntry(tx, id, user);
    if (before.deleted_at) throw notFound(EntryMessages.entryNotFound);
    const operator = isOperator(user);
    if (!operator && !clientMayChange({ status: before.status, price: Number(before.price) })) {
      throw new AppError(422, EntryMessages.paidNoEdit, { errors: {} });
    }
    const service = await lockService(tx, before.service_id);
    if (!service) throw notFound(Messages.serviceNotFound);
    const next = {
      section_id: patch.section_id !== undefined ? patch.section_id : before.section_id,
      pay_type: patch.pay_type ?? before.pay_type,
      is_extramural: patch.is_extramural ?? before.is_extramural,
      price: operator && patch.price !== undefined ? rublesOf(patch.price) : Number(before.price),
      certificate_number: operator && patch.certificate_number !== undefined ? patch.certificate_number || null : before.certificate_number,
    };
    if (next.pay_type !== before.pay_type) checkPayType(next.pay_type, user);
    if (next.is_extramural !== before.is_extramural) checkParticipation(service, next.is_extramural);
    if (next.section_id !== before.section_id) await checkPlace(tx, { service, sectionId: next.section_id, userId: before.created_by, exceptEntryId: id });
    await tx
      .update(entries)
      .set({ ...next, updated_at: new Date() })
      .where(sql`id = ${id}`);
    await logChange(tx, { type: 'entry', entityId: id, userId: user.id, before: { ...before, price: Number(before.price) }, after: { ...before, ...next } });
    return { payTypeChanged: next.pay_type !== before.pay_type };
  });
}

/**
 * Soft delete; a client may remove only unpaid (or free) entries. An entry of an intact unpaid
 * package takes the whole package with it for a client; an operator removing one entry breaks the
 * package, and what remains goes back to list prices. Answers the ids removed.
 */
export async function deleteEntry(db: Db, user: AuthUser, id: number): Promise<number[]> {
  return db.transaction(async (tx) => {
    const operator = isOperator(user);
    // Lock order as in paying a package: the enrolment first, then its entries.
    const [link] = await rows<{ package_enrollment_id: number | null }>(tx, sql`select package_enrollment_id from entries where id = ${id}`);
    const enrollment = link?.package_enrollment_id ? await lockEnrollment(tx, link.package_enrollment_id) : undefined;
    const first = await lockEntry(tx, id, user);
    if (first.deleted_at) return [];
    if (!operator && !clientMayChange({ status: first.status, price: Number(first.price) }))
      throw new AppError(422, EntryMessages.paidNoDelete, { errors: {} });
    let ids = [id];
    let whole = false;
    if (enrollment && !enrollment.broken) {
      const list = await enrollmentEntries(tx, enrollment.id);
      whole = !operator && isWholeAndUnpaid(list);
      if (whole) ids = list.map((e) => e.id);
    }
    const deletedAt = new Date();
    await tx.execute(
      sql`update entries set deleted_at = ${deletedAt}, updated_at = ${deletedAt} where id in (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )})`,
    );
    for (const entryId of ids) {
      await logChange(tx, {
        type: 'entry',
        entityId: entryId,
        userId: user.id,
        before: { deleted_at: null },
        after: { deleted_at: deletedAt, ...(whole ? { reason: LogReasons.packageRemovedWhole } : {}) },
      });
    }
    await revokeEntryDocuments(tx, { entryIds: ids, by: user.id, reason: VerificationMessages.reasonEntryDeleted });
    if (enrollment && !enrollment.broken && !whole) await breakEnrollment(tx, enrollment.id, { by: user.id, reason: LogReasons.packageBrokenEntryRemoved });
    return ids;
  });
}

/** Theses of an entry: 1500 < length < 10000; closed once paid with theses, except for operators. */
export async function saveThesis(db: Db, user: AuthUser, entryId: number, text: string): Promise<void> {
  const problem = thesisLengthProblem(text);
  if (problem) throw fieldError('text', problem);
  await db.transaction(async (tx) => {
    const entry = await lockEntry(tx, entryId, user);
    if (entry.deleted_at) throw notFound(EntryMessages.entryNotFound);
    const [existing] = await rows<{ text: string }>(tx, sql`select text from entry_theses where entry_id = ${entryId}`);
    if (!canEditThesis({ status: entry.status, hasThesis: Boolean(existing) }, isOperator(user))) {
      throw fieldError('text', EntryMessages.thesisClosed, EntryMessages.thesisClosed);
    }
    await tx
      .insert(entryTheses)
      .values({ entry_id: entryId, text })
      .onConflictDoUpdate({ target: entryTheses.entry_id, set: { text, updated_at: new Date() } });
    await logChange(tx, {
      type: 'entry',
      entityId: entryId,
      userId: user.id,
      before: { thesis_length: existing?.text.length ?? null },
      after: { thesis_length: text.length },
    });
  });
}
