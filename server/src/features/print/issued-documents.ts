import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { EntryStatus } from '@edu/domain/common/codes';
import { formatDate } from '@edu/domain/common/format';
import {
  IssuedDocumentKind,
  issuedDocumentKindLabels,
  VERIFICATION_ALPHABET,
  VERIFICATION_CODE_LENGTH,
  VerificationMessages,
  type IssuedDocument,
  type VerificationAnswer,
} from '@edu/domain/documents/verification';
import { logChange } from '../../platform/change-log.ts';
import { loadConfig } from '../../platform/config.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import { readRequisites } from '../macros/requisites.ts';
import { joinFio } from '../macros/russian-words.ts';
import { isUniqueViolation } from './certificate-number.ts';

/** A new verification code: 12 characters of a 24-letter alphabet, about 55 random bits (decision 039). */
export function newVerificationCode(): string {
  let code = '';
  for (let i = 0; i < VERIFICATION_CODE_LENGTH; i++) code += VERIFICATION_ALPHABET[randomInt(VERIFICATION_ALPHABET.length)];
  return code;
}

/** The address the QR code holds. */
export const verificationUrl = (code: string) => `${loadConfig().appUrl}/verify/${code}`;

/** The macros of a document's verification: the code, the address, and the QR code of the address (render-document.ts draws it). */
export function verificationValues(code: string): Record<string, string> {
  const url = verificationUrl(code);
  return { 'cert.code': code, 'cert.url': url, 'cert.qr': url };
}

interface IssuedRow {
  id: number;
  entry_id: number;
  kind: string;
  code: string;
  issued_at: Date | string;
  revoked_at: Date | string | null;
  revoked_reason: string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function toIssued(r: IssuedRow): IssuedDocument {
  return {
    id: r.id,
    entry_id: r.entry_id,
    kind: r.kind,
    kind_label: issuedDocumentKindLabels[r.kind] ?? r.kind,
    code: r.code,
    url: verificationUrl(r.code),
    issued_at: iso(r.issued_at)!,
    revoked_at: iso(r.revoked_at),
    revoked_reason: r.revoked_reason,
  };
}

/**
 * The live verification code of the entry's document of this kind, issued on its first print: later
 * prints (the PDF, the .docx, the service's zip) read the same code. Two prints at once agree on one
 * (the live pair is unique; the loser reads the winner's).
 */
export async function ensureIssuedDocument(db: Queryable, o: { entryId: number; kind?: string; by: number | null }): Promise<string> {
  const kind = o.kind ?? IssuedDocumentKind.certificate;
  for (let attempt = 0; attempt < 10; attempt++) {
    const [live] = await rows<{ code: string }>(
      db,
      sql`select code from issued_documents where entry_id = ${o.entryId} and kind = ${kind} and revoked_at is null`,
    );
    if (live) return live.code;
    try {
      const [made] = await rows<{ code: string }>(
        db,
        sql`insert into issued_documents (entry_id, kind, code, issued_by) values (${o.entryId}, ${kind}, ${newVerificationCode()}, ${o.by})
            on conflict (entry_id, kind) where revoked_at is null do nothing returning code`,
      );
      if (made) return made.code;
    } catch (err) {
      // A code taken already (about never): try another.
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new Error('could not issue a verification code');
}

/**
 * Revokes every live document of the entries (refunded, cancelled, deleted), in the caller's
 * transaction, with a change-log row on the entry for each. Answers how many were revoked.
 */
export async function revokeEntryDocuments(tx: Queryable, o: { entryIds: number[]; by: number | null; reason: string }): Promise<number> {
  if (o.entryIds.length === 0) return 0;
  const revoked = await rows<{ id: number; entry_id: number; code: string }>(
    tx,
    sql`update issued_documents set revoked_at = now(), revoked_by = ${o.by}, revoked_reason = ${o.reason}
        where revoked_at is null and entry_id in (${sql.join(
          o.entryIds.map((id) => sql`${id}`),
          sql`, `,
        )}) returning id, entry_id, code`,
  );
  for (const r of revoked) await logRevoked(tx, r, o);
  return revoked.length;
}

/** The change-log row of a revoked code, on its entry. */
function logRevoked(tx: Queryable, r: { entry_id: number; code: string }, o: { by: number | null; reason: string }): Promise<void> {
  return logChange(tx, {
    type: 'entry',
    entityId: r.entry_id,
    userId: o.by,
    before: { verification_code: r.code, verification_revoked: false },
    after: { verification_code: r.code, verification_revoked: true, reason: o.reason },
  });
}

/** Whether the entry exists (deleted ones too: their revoked documents are still listed). */
export async function entryExists(db: Queryable, entryId: number): Promise<boolean> {
  return (await rows<{ id: number }>(db, sql`select id from entries where id = ${entryId}`)).length > 0;
}

/** The issued documents of an entry, newest first (revoked ones too). */
export async function listIssuedDocuments(db: Queryable, entryId: number): Promise<IssuedDocument[]> {
  const list = await rows<IssuedRow>(
    db,
    sql`select id, entry_id, kind, code, issued_at, revoked_at, revoked_reason from issued_documents where entry_id = ${entryId} order by id desc`,
  );
  return list.map(toIssued);
}

/**
 * An operator revokes one document with a reason (logged on the entry). 'missing' for an unknown id,
 * 'already' when it was revoked before.
 */
export async function revokeIssuedDocument(
  db: Queryable,
  o: { id: number; by: number; reason: string },
): Promise<{ result: 'revoked' | 'already'; document: IssuedDocument } | { result: 'missing' }> {
  const [current] = await rows<IssuedRow>(
    db,
    sql`select id, entry_id, kind, code, issued_at, revoked_at, revoked_reason from issued_documents where id = ${o.id}`,
  );
  if (!current) return { result: 'missing' };
  if (current.revoked_at) return { result: 'already', document: toIssued(current) };
  // The change and its change-log row in one transaction.
  const row = await db.transaction(async (tx) => {
    const [updated] = await rows<IssuedRow>(
      tx,
      sql`update issued_documents set revoked_at = now(), revoked_by = ${o.by}, revoked_reason = ${o.reason}
          where id = ${o.id} and revoked_at is null
          returning id, entry_id, kind, code, issued_at, revoked_at, revoked_reason`,
    );
    if (updated) await logRevoked(tx, updated, o);
    return updated;
  });
  if (!row) return { result: 'already', document: toIssued(current) };
  return { result: 'revoked', document: toIssued(row) };
}

/**
 * What the public page answers for a code: valid only while the document is not revoked and its entry
 * is live, not refunded, and its service not deleted (a state reached by a path that did not revoke
 * still reads as invalid). Only what the paper shows.
 */
export async function verifyCode(db: Queryable, code: string | null): Promise<VerificationAnswer> {
  const invalid: VerificationAnswer = { valid: false, message: VerificationMessages.invalid, document: null };
  if (!code) return invalid;
  const [r] = await rows<{
    code: string;
    revoked_at: Date | null;
    issued_at: Date | string;
    entry_deleted: boolean;
    status: number;
    certificate_number: string | null;
    done_at: Date | string | null;
    service_title: string;
    service_deleted: boolean;
    template_title: string | null;
    last_name: string;
    first_name: string;
    middle_name: string | null;
  }>(
    db,
    sql`select d.code, d.revoked_at, d.issued_at, e.deleted_at is not null as entry_deleted, e.status, e.certificate_number, e.done_at,
               s.title as service_title, s.deleted_at is not null as service_deleted,
               (select tp.title from templates tp where tp.id = coalesce(s.template_certificate_id, t.template_certificate_id)) as template_title,
               u.last_name, u.first_name, u.middle_name
        from issued_documents d join entries e on e.id = d.entry_id join services s on s.id = e.service_id
        join dict_service_types t on t.id = s.dict_type_id join users u on u.id = e.created_by
        where d.code = ${code}`,
  );
  if (!r || r.revoked_at || r.entry_deleted || r.service_deleted || r.status === EntryStatus.refunded) return invalid;
  const requisites = await readRequisites(db);
  return {
    valid: true,
    message: VerificationMessages.valid,
    document: {
      code: r.code,
      title: r.template_title ?? 'Сертификат',
      fio: joinFio({ last: r.last_name, first: r.first_name, middle: r.middle_name ?? '' }),
      service: r.service_title,
      date: formatDate(r.done_at ?? r.issued_at),
      number: r.certificate_number,
      centre: requisites.full_name || requisites.name || '',
    },
  };
}
