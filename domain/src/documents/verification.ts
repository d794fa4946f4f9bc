import { z } from 'zod';
import { dataAnswer, isoTimestamp, listAnswer } from '../common/answers.ts';

// Verification of issued documents (issue 33, decision 039): every printed certificate carries a
// random code and a QR code of APP_URL/verify/<code>; anyone can open that page.

/** Letters and digits that cannot be read one for another (no 0/O, 1/I/L, 5/S, 8/B, 2/Z, U/V). */
export const VERIFICATION_ALPHABET = '345679ACDEFGHJKMNPQRTWXY';
export const VERIFICATION_CODE_LENGTH = 12;

/** The code as typed: case, spaces and dashes do not matter. Null when it cannot be a code. */
export function normaliseVerificationCode(text: string): string | null {
  const code = text.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== VERIFICATION_CODE_LENGTH) return null;
  for (const ch of code) if (!VERIFICATION_ALPHABET.includes(ch)) return null;
  return code;
}

/** The kinds of issued documents: the certificate of an entry (its PDF and .docx are one document). */
export const IssuedDocumentKind = { certificate: 'certificate' } as const;
export const issuedDocumentKindLabels: Record<string, string> = { certificate: 'Сертификат (документ об участии или обучении)' };

export const VerificationMessages = {
  valid: 'Документ действителен',
  invalid: 'Документ не найден / отозван',
  revoked: 'Документ отозван',
  revokeReasonRequired: 'Укажите причину отзыва',
  revoked_ok: 'Документ отозван',
  alreadyRevoked: 'Документ уже отозван',
  reasonEntryRefunded: 'Возврат оплаты заявки',
  reasonEntryReturnedUnpaid: 'Оплата заявки возвращена',
  reasonEntryDeleted: 'Заявка удалена',
  reasonEntryCancelled: 'Заявка отменена',
  codeFormat: 'Код проверки — 12 латинских букв и цифр, как напечатано на документе',
} as const;

/** What the public page shows: only what the paper shows. */
export const verifiedDocumentSchema = z.object({
  code: z.string(),
  /** The document's name as printed (the template's title: «Сертификат участника конференции»). */
  title: z.string(),
  /** The holder's full name. */
  fio: z.string(),
  service: z.string(),
  /** dd.mm.yyyy: the day the entry was completed, else the day the document was issued. */
  date: z.string(),
  /** The certificate number printed on the document; null when none. */
  number: z.string().nullable(),
  centre: z.string(),
});
export type VerifiedDocument = z.output<typeof verifiedDocumentSchema>;

/**
 * GET /api/verify/{code}: 200 in both cases (a code that is unknown or revoked is an answer, not an
 * error, so the page reads the same for both and tells nothing about which codes exist).
 */
export const verificationAnswer = z.object({
  valid: z.boolean(),
  message: z.string(),
  document: verifiedDocumentSchema.nullable(),
});
export type VerificationAnswer = z.output<typeof verificationAnswer>;

/** An issued document of an entry, as operators see it. */
export const issuedDocumentSchema = z.object({
  id: z.number().int(),
  entry_id: z.number().int(),
  kind: z.string(),
  kind_label: z.string(),
  code: z.string(),
  url: z.string(),
  issued_at: isoTimestamp,
  revoked_at: isoTimestamp.nullable(),
  revoked_reason: z.string().nullable(),
});
export type IssuedDocument = z.output<typeof issuedDocumentSchema>;

/** GET /api/entry/{id}/issued-documents: newest first, revoked ones included. */
export const issuedDocumentsAnswer = listAnswer(issuedDocumentSchema);
/** POST /api/issued-document/{id}/revoke: the document as revoked, and the notice. */
export const issuedDocumentRevokedAnswer = dataAnswer(issuedDocumentSchema).extend({ message: z.string() });

export const revokeBody = z.object({
  reason: z
    .string({ error: VerificationMessages.revokeReasonRequired })
    .trim()
    .min(1, VerificationMessages.revokeReasonRequired)
    .max(500, 'Не более 500 символов'),
});
