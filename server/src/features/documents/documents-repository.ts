import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { contracts, fileLinks, files, identityDocuments, userDocuments, users } from '../../db/schema/index.ts';
import { formatDate } from '@edu/domain/common/format';
import {
  DOCUMENT_KINDS,
  DocumentMessages,
  documentTypeIds,
  PASSPORT_FIELDS,
  REQUIRED_DOCUMENT_KINDS,
  snilsProblem,
  wizardProgress,
  type ContractDataState,
  type DocumentKind,
  type FileRecord,
  type IdentityDocument,
  type ProfileExtras,
  type UserDocuments,
} from '@edu/domain/documents/documents';
import { Messages } from '@edu/domain/common/messages';
import { rows } from '../../platform/db.ts';
import type { Queryable } from '../../platform/db.ts';

interface FileRow {
  id: number;
  name: string;
  mime: string;
  size: number;
  created_at: Date | string;
}

/** Files are only ever handed out through GET /api/file/{id}, which checks who is asking. */
export function fileRecord(f: FileRow): FileRecord {
  return { id: f.id, name: f.name, url: `/api/file/${f.id}`, mime: f.mime, size: f.size, date_formatted: formatDate(f.created_at) };
}

export async function listUserDocuments(db: Queryable, userId: number): Promise<UserDocuments> {
  const found = await rows<FileRow & { kind: DocumentKind }>(
    db,
    sql`select f.id, f.name, f.mime, f.size, f.created_at, ud.kind
        from user_documents ud join files f on f.id = ud.file_id and f.deleted_at is null
        where ud.user_id = ${userId} order by ud.id`,
  );
  const out = Object.fromEntries(DOCUMENT_KINDS.map((k) => [k, [] as FileRecord[]])) as unknown as UserDocuments;
  out.list = [];
  for (const r of found) {
    const record = fileRecord(r);
    out[r.kind]?.push(record);
    out.list.push({ ...record, kind: r.kind, dict_document_type_id: documentTypeIds[r.kind] });
  }
  return out;
}

/** The SQL test of "this user has an entry for a service whose type needs a contract". */
export function documentsAllowedSql(userId: number) {
  return sql`exists (select 1 from entries en join services s on s.id = en.service_id join dict_service_types t on t.id = s.dict_type_id
                     where en.created_by = ${userId} and en.deleted_at is null and t.is_contract_needed)`;
}

export async function isDocumentsUploadAllowed(db: Queryable, userId: number): Promise<boolean> {
  const [r] = await rows<{ allowed: boolean }>(db, sql`select ${documentsAllowedSql(userId)} as allowed`);
  return Boolean(r?.allowed);
}

export async function countFilesOfKinds(db: Queryable, userId: number): Promise<Record<string, number>> {
  const found = await rows<{ kind: string; n: number }>(
    db,
    sql`select ud.kind, count(*)::int as n from user_documents ud join files f on f.id = ud.file_id and f.deleted_at is null
        where ud.user_id = ${userId} group by ud.kind`,
  );
  return Object.fromEntries(found.map((r) => [r.kind, Number(r.n)]));
}

interface StateRow {
  contract_step: number | null;
  address: string | null;
  birthday: string | null;
  snils: string | null;
  passport: boolean;
  allowed: boolean;
}

/**
 * The wizard's state of one user, computed from the data (never from the stored step):
 * is_contract_allowed needs an entry that needs a contract, and profile extras, passport, the
 * required documents and the signed consent all present.
 */
export async function contractDataState(db: Queryable, userId: number): Promise<ContractDataState | null> {
  const [r] = await rows<StateRow>(
    db,
    sql`select u.contract_step, u.address, u.birthday::text as birthday, u.snils,
          exists (select 1 from identity_documents d where d.user_id = u.id) as passport,
          ${documentsAllowedSql(userId)} as allowed
        from users u where u.id = ${userId} and u.deleted_at is null`,
  );
  if (!r) return null;
  const kinds = await countFilesOfKinds(db, userId);
  const missing: Record<string, string[]> = {};
  if (!r.address?.trim()) missing.address = [Messages.fieldRequired];
  if (!r.birthday) missing.birthday = [Messages.fieldRequired];
  const snils = r.snils ? snilsProblem(r.snils) : Messages.fieldRequired;
  if (snils) missing.snils = [snils];
  // Keyed as the wizard's fields: profile extras by name, the passport's fields and the files by
  // their form ('snils' the number, 'documents.snils' its scan: never one message under the other's field).
  if (!r.passport) for (const f of PASSPORT_FIELDS) missing[`passport.${f}`] = [Messages.fieldRequired];
  for (const k of REQUIRED_DOCUMENT_KINDS) if (!kinds[k]) missing[`documents.${k}`] = [DocumentMessages.requiredDocument];
  if (!kinds.consent) missing['documents.consent'] = [DocumentMessages.consentMissing];
  const state = {
    profile_valid: !missing.address && !missing.birthday && !missing.snils,
    passport_valid: r.passport,
    documents_valid: REQUIRED_DOCUMENT_KINDS.every((k) => kinds[k] > 0),
    consent_valid: Boolean(kinds.consent),
  };
  const { valid, maxStep } = wizardProgress(state);
  return {
    ...state,
    contract_step: Math.min(Math.max(r.contract_step ?? 1, 1), 3),
    is_documents_upload_allowed: r.allowed,
    is_contract_allowed: r.allowed && valid && state.consent_valid,
    valid,
    max_step: maxStep,
    missing,
  };
}

export async function findIdentityDocument(db: Queryable, userId: number, asOperator: boolean): Promise<IdentityDocument | null> {
  const [r] = await rows<Omit<IdentityDocument, 'locked'>>(
    db,
    sql`select id, user_id, dict_document_type_id, number, date::text as date, issued_by from identity_documents where user_id = ${userId}`,
  );
  return r ? { ...r, locked: !asOperator } : null;
}

/** Locks the user's row for the rest of the transaction: one user's uploads run one after another. */
export async function lockUserForUploads(tx: Queryable, userId: number): Promise<void> {
  await tx.execute(sql`select id from users where id = ${userId} for update`);
}

// ---- Files --------------------------------------------------------------------------------------

/** A live (not deleted) stored file, every column. */
export async function findLiveFile(db: Queryable, id: number): Promise<typeof files.$inferSelect | undefined> {
  const [file] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), isNull(files.deleted_at)));
  return file;
}

/** A live stored file's id and owner. */
export async function findLiveFileOwner(db: Queryable, id: number): Promise<{ id: number; user_id: number | null } | undefined> {
  const [file] = await db
    .select({ id: files.id, user_id: files.user_id })
    .from(files)
    .where(and(eq(files.id, id), isNull(files.deleted_at)));
  return file;
}

export interface LinkedFileRow {
  mime: string;
  name: string;
  storage_key: string;
}

/** The live file of a link that has not expired (by the SHA-256 of its token), of a live user. */
export async function findLinkedFile(db: Queryable, tokenHash: string): Promise<LinkedFileRow | undefined> {
  const [found] = await db
    .select({ mime: files.mime, name: files.name, storage_key: files.storage_key })
    .from(fileLinks)
    .innerJoin(files, eq(files.id, fileLinks.file_id))
    .innerJoin(users, eq(users.id, fileLinks.user_id))
    .where(and(eq(fileLinks.token_hash, tokenHash), gt(fileLinks.expires_at, new Date()), isNull(files.deleted_at), isNull(users.deleted_at)));
  return found;
}

/** Drops expired links and stores a new one (its token's hash) to the file for the user. */
export async function createFileLink(db: Queryable, link: { tokenHash: string; fileId: number; userId: number; expiresAt: Date }): Promise<void> {
  await db.delete(fileLinks).where(lt(fileLinks.expires_at, new Date()));
  await db.insert(fileLinks).values({ token_hash: link.tokenHash, file_id: link.fileId, user_id: link.userId, expires_at: link.expiresAt });
}

/** Whether the file is a contract's scan. */
export async function isContractScan(db: Queryable, fileId: number): Promise<boolean> {
  const [scan] = await db.select({ id: contracts.id }).from(contracts).where(eq(contracts.file_id, fileId));
  return Boolean(scan);
}

/** Whether the file is one of a user's documents. */
export async function isUserDocument(db: Queryable, fileId: number): Promise<boolean> {
  const [doc] = await db.select({ id: userDocuments.id }).from(userDocuments).where(eq(userDocuments.file_id, fileId));
  return Boolean(doc);
}

/**
 * A user's live documents as the change log compares them: `documents.<kind>` → sorted file ids
 * (the log screen shows each file by its name; the log never holds the bytes).
 */
export async function documentFilesByKind(db: Queryable, userId: number): Promise<Record<string, number[]>> {
  const found = await rows<{ kind: string; id: number }>(
    db,
    sql`select ud.kind, f.id from user_documents ud join files f on f.id = ud.file_id and f.deleted_at is null
        where ud.user_id = ${userId} order by f.id`,
  );
  const out: Record<string, number[]> = {};
  for (const r of found) (out[`documents.${r.kind}`] ??= []).push(r.id);
  return out;
}

/** The user whose document the file is (null when it is nobody's document). */
export async function findDocumentOwner(db: Queryable, fileId: number): Promise<number | null> {
  const [doc] = await db.select({ user_id: userDocuments.user_id }).from(userDocuments).where(eq(userDocuments.file_id, fileId));
  return doc?.user_id ?? null;
}

/** Removes the user-document rows of a file (the caller retires the file). */
export async function deleteUserDocumentsOfFile(tx: Queryable, fileId: number): Promise<void> {
  await tx.delete(userDocuments).where(eq(userDocuments.file_id, fileId));
}

export async function insertUserDocument(tx: Queryable, doc: { userId: number; kind: DocumentKind; fileId: number }): Promise<void> {
  await tx.insert(userDocuments).values({ user_id: doc.userId, kind: doc.kind, file_id: doc.fileId, dict_document_type_id: documentTypeIds[doc.kind] });
}

// ---- Passport and profile extras -----------------------------------------------------------------

export type IdentityDocumentValues = typeof identityDocuments.$inferInsert;

/**
 * The user's passport as the change log compares it, the row locked for the transaction; the number
 * is masked by the log itself (platform/change-log.ts).
 */
export async function lockPassportForLog(tx: Queryable, userId: number): Promise<Record<string, unknown> | null> {
  const [r] = await rows<{ number: string; date: string; issued_by: string }>(
    tx,
    sql`select number, date::text as date, issued_by from identity_documents where user_id = ${userId} for update`,
  );
  return r ? { passport_number: r.number, passport_date: r.date, passport_issued_by: r.issued_by } : null;
}

/** An operator's save: inserts or overwrites the user's passport. */
export async function upsertIdentityDocument(db: Queryable, values: IdentityDocumentValues): Promise<void> {
  await db
    .insert(identityDocuments)
    .values(values)
    .onConflictDoUpdate({ target: identityDocuments.user_id, set: { ...values, updated_at: new Date() } });
}

/** A client's save: only when the user has no passport yet; false when one exists. */
export async function insertIdentityDocumentOnce(db: Queryable, values: IdentityDocumentValues): Promise<boolean> {
  const inserted = await db
    .insert(identityDocuments)
    .values(values)
    .onConflictDoNothing({ target: identityDocuments.user_id })
    .returning({ id: identityDocuments.id });
  return inserted.length > 0;
}

/** Address, birthday and SNILS of a user (pass a transaction's `forUpdate` to lock the row for a save). */
export async function findProfileExtras(db: Queryable, userId: number, forUpdate = false): Promise<ProfileExtras | undefined> {
  const query = db.select({ address: users.address, birthday: users.birthday, snils: users.snils }).from(users).where(eq(users.id, userId));
  const [u] = forUpdate ? await query.for('update') : await query;
  return u;
}

/** Saves a live user's address, birthday and SNILS; undefined when there is no such user. */
export async function updateProfileExtras(
  db: Queryable,
  userId: number,
  v: { address: string; birthday: string; snils: string },
): Promise<ProfileExtras | undefined> {
  const [u] = await db
    .update(users)
    .set({ address: v.address, birthday: v.birthday, snils: v.snils, updated_at: new Date() })
    .where(and(eq(users.id, userId), isNull(users.deleted_at)))
    .returning({ address: users.address, birthday: users.birthday, snils: users.snils });
  return u;
}

/** Stores the wizard's step; answers the previous one (undefined when there is no such user). */
export async function setContractStep(tx: Queryable, userId: number, step: number): Promise<{ contract_step: number | null } | undefined> {
  const [before] = await rows<{ contract_step: number | null }>(tx, sql`select contract_step from users where id = ${userId} for update`);
  await tx.update(users).set({ contract_step: step, updated_at: new Date() }).where(eq(users.id, userId));
  return before;
}
