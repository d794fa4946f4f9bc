import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ContractStatus, EventId } from '@edu/domain/common/codes';
import { ContractMessages, formatRegistrationNumber } from '@edu/domain/contracts/contract';
import { DocumentMessages } from '@edu/domain/documents/documents';
import { contracts, registrationNumbers } from '../../db/schema/index.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { rows, type Db, type Queryable } from '../../platform/db.ts';
import { logChange } from '../../platform/change-log.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { raiseEvent } from '../../platform/events.ts';
import type { CheckedUpload, StoreUpload } from '../../platform/uploads.ts';
import { contractDataState } from '../documents/documents-repository.ts';
import { moscowYear } from '@edu/domain/common/moscow-time';
import { isOperator } from '../../platform/access.ts';
import { canReachEntry } from '../entries/entry-policy.ts';

const unprocessable = (message: string, field = 'status') => new AppError(422, message, { errors: { [field]: [message] } });

interface LockedEntry {
  id: number;
  number: string;
  created_by: number;
  service_id: number;
  registration_number: string | null;
  deleted_at: Date | string | null;
  contract_needed: boolean;
}

/** Locks the entry row; every change of its contract or registration number goes through this lock. */
async function lockEntry(tx: Queryable, entryId: number): Promise<LockedEntry | null> {
  const [e] = await rows<LockedEntry>(
    tx,
    sql`select en.id, en.number, en.created_by, en.service_id, en.registration_number, en.deleted_at,
          coalesce(t.is_contract_needed, false) as contract_needed
        from entries en join services s on s.id = en.service_id left join dict_service_types t on t.id = s.dict_type_id
        where en.id = ${entryId} for update of en`,
  );
  return e ?? null;
}

/**
 * A signed contract scan for an entry: the client's own entry of a course, once the contract data
 * are complete (is_contract_allowed); an operator may upload for anyone. A new scan replaces the
 * previous one and puts the contract back to pending; an approved contract is final.
 */
export async function uploadContractScan(tx: Queryable, me: AuthUser, entryId: number, upload: CheckedUpload, store: StoreUpload): Promise<void> {
  const entry = await lockEntry(tx, entryId);
  if (!entry || entry.deleted_at || !canReachEntry(me, entry.created_by)) throw notFound();
  if (!entry.contract_needed) throw unprocessable(ContractMessages.notContractEntry, 'entry_id');
  if (!isOperator(me)) {
    const state = await contractDataState(tx, entry.created_by);
    if (!state?.is_documents_upload_allowed) throw forbidden(DocumentMessages.onlyForCourses);
    if (!state.is_contract_allowed) throw unprocessable(ContractMessages.documentsFirst, 'file');
  }
  const [existing] = await tx.select({ status: contracts.status, file_id: contracts.file_id }).from(contracts).where(eq(contracts.entry_id, entryId));
  if (existing?.status === ContractStatus.approved) throw unprocessable(ContractMessages.alreadyApproved, 'file');
  const file = await store(tx, entry.created_by, upload);
  const now = new Date();
  await tx
    .insert(contracts)
    .values({ entry_id: entryId, user_id: entry.created_by, service_id: entry.service_id, status: ContractStatus.pending, file_id: file.id })
    .onConflictDoUpdate({
      target: contracts.entry_id,
      set: { status: ContractStatus.pending, comment: null, file_id: file.id, reviewed_by: null, reviewed_at: null, updated_at: now },
    });
  // The client's contract data changed: the log names the scan (by file), never its bytes.
  await logChange(tx, {
    type: 'user',
    entityId: entry.created_by,
    userId: me.id,
    before: { contract_scan: existing?.file_id ?? null, contract_status: existing?.status ?? null },
    after: { contract_scan: file.id, contract_status: ContractStatus.pending },
  });
}

interface ReviewedContract {
  entry_number: string;
  service_title: string;
  email: string;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  user_id: number;
}

/**
 * Accept (pending to approved) or reject (pending to rejected, optional comment). One conditional
 * update: only a pending contract with a scan moves, so two operators cannot both decide. The
 * client gets a notification in the same transaction and the event's e-mail after it.
 */
export async function reviewContract(
  app: FastifyInstance,
  me: AuthUser,
  contractId: number,
  decision: { approve: true } | { approve: false; comment: string | null },
): Promise<void> {
  const approve = decision.approve;
  const comment = decision.approve ? null : decision.comment?.trim() || null;
  await app.db.transaction(async (tx) => {
    const moved = await tx
      .update(contracts)
      .set({
        status: approve ? ContractStatus.approved : ContractStatus.rejected,
        comment,
        reviewed_by: me.id,
        reviewed_at: new Date(),
        updated_at: new Date(),
      })
      .where(and(eq(contracts.id, contractId), eq(contracts.status, ContractStatus.pending), isNotNull(contracts.file_id)))
      .returning({ id: contracts.id });
    if (moved.length === 0) {
      const [c] = await tx.select({ status: contracts.status, file_id: contracts.file_id }).from(contracts).where(eq(contracts.id, contractId));
      if (!c) throw notFound();
      if (c.file_id === null) throw unprocessable(ContractMessages.noScan, 'file');
      throw unprocessable(ContractMessages.alreadyReviewed);
    }
    const [r] = await rows<ReviewedContract & { file_id: number | null }>(
      tx,
      sql`select en.number as entry_number, s.title as service_title, u.email, u.last_name, u.first_name, u.middle_name, u.id as user_id, c.file_id
          from contracts c join entries en on en.id = c.entry_id join services s on s.id = c.service_id join users u on u.id = c.user_id
          where c.id = ${contractId}`,
    );
    await logChange(tx, {
      type: 'user',
      entityId: r.user_id,
      userId: me.id,
      before: { contract_status: ContractStatus.pending, contract_comment: null },
      after: { contract_status: approve ? ContractStatus.approved : ContractStatus.rejected, contract_comment: comment },
    });
    // One event: its notification and e-mail come from the event's templates after the commit.
    await raiseEvent(tx, {
      eventId: approve ? EventId.contractApproved : EventId.contractRejected,
      userId: r.user_id,
      contractId,
      extra: { 'contract.comment': comment ?? '—' },
    });
    return r;
  });
}

/**
 * Gives the entry of an approved contract the next registration number of the year. The entry row
 * is locked first (one number per entry), then the year's counter row is bumped by an upsert whose
 * row lock queues concurrent operators; the counter, the number's record and the entry change in one
 * transaction, so a failure gives the number back and there are no gaps or duplicates.
 */
export async function setRegistrationNumber(db: Db, me: AuthUser, entryId: number, now: Date = new Date()): Promise<string> {
  return db.transaction(async (tx) => {
    const entry = await lockEntry(tx, entryId);
    if (!entry) throw notFound();
    if (entry.deleted_at) throw unprocessable(ContractMessages.entryDeleted, 'entry_id');
    if (entry.registration_number) throw unprocessable(ContractMessages.registrationNumberExists, 'registration_number');
    const [c] = await tx.select({ status: contracts.status }).from(contracts).where(eq(contracts.entry_id, entryId));
    if (c?.status !== ContractStatus.approved) throw unprocessable(ContractMessages.notApproved, 'registration_number');
    const year = moscowYear(now);
    const [{ last_seq: seq }] = await rows<{ last_seq: number }>(
      tx,
      sql`insert into registration_counters (year, last_seq) values (${year}, 1)
          on conflict (year) do update set last_seq = registration_counters.last_seq + 1 returning last_seq`,
    );
    const number = formatRegistrationNumber(year, seq);
    await tx.insert(registrationNumbers).values({ year, seq, number, entry_id: entryId, created_by: me.id });
    await tx.execute(sql`update entries set registration_number = ${number}, updated_at = now() where id = ${entryId}`);
    await logChange(tx, { type: 'entry', entityId: entryId, userId: me.id, before: { registration_number: null }, after: { registration_number: number } });
    return number;
  });
}
