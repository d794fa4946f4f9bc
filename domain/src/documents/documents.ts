import { z } from 'zod';
import { Messages } from '../common/messages.ts';
import { idField, textField } from '../common/bounds.ts';
import { dataAnswer, isoDate, listAnswer, messageAnswer } from '../common/answers.ts';

// The client's contract data (spec 01 §2 Contract data wizard, §3 User documents, Identity
// document, Profile extras, §5 Documents, Passport, Profile extras).

export const DocumentMessages = {
  onlyForCourses: 'Загрузка документов доступна только записавшимся на курсы',
  fillAllForContract: 'Заполните все обязательные поля для перехода к договору!',
  allFilled: 'Все обязательные поля заполнены!',
  dataSaved: 'Данные сохранены!',
  filesUploaded: 'Файлы успешно загружены!',
  fileUploaded: 'Файл успешно загружен!',
  // Ours, where the spec gives no text (same voice).
  fileHint: 'Форматы .pdf, .jpg, .png, не больше 10 МБ',
  fileType: 'Допустимые форматы файлов: .pdf, .jpg, .png',
  fileTooLarge: 'Файл больше 10 МБ',
  tooManyFiles: 'Не больше 10 файлов за одну загрузку',
  tooManyOfKind: 'Слишком много файлов этого вида: удалите ненужные',
  noFile: 'Выберите файл',
  unknownField: 'Неизвестный вид документа',
  passportNumber: 'Номер паспорта в формате 9999 999999',
  passportLocked: 'Паспортные данные уже сохранены и не могут быть изменены',
  badDate: 'Введите корректную дату',
  futureDate: 'Дата не может быть в будущем',
  snilsFormat: 'СНИЛС в формате 999-999-999 99',
  snilsChecksum: 'Неверный СНИЛС: не сходится контрольное число',
  requiredDocument: 'Загрузите документ',
  consentMissing: 'Загрузите подписанное согласие',
  fileInUse: 'Этот файл нельзя удалить',
} as const;

/** Kinds of uploaded user documents and their dict_document_types ids (seeded 1..6). */
export const DOCUMENT_KINDS = ['passport', 'education', 'snils', 'surname', 'other', 'consent'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export const documentTypeIds: Record<DocumentKind, number> = { passport: 1, education: 2, snils: 3, surname: 4, other: 5, consent: 6 };
export const documentKindLabels: Record<DocumentKind, string> = {
  passport: 'Паспорт',
  education: 'Документ об образовании',
  snils: 'СНИЛС',
  surname: 'Документ о смене фамилии',
  other: 'Иные документы',
  consent: 'Согласие на обработку персональных данных',
};
/** Spec 01 §5 Documents: passport, education, snils required; surname and other optional. */
export const REQUIRED_DOCUMENT_KINDS: readonly DocumentKind[] = ['passport', 'education', 'snils'];
/** At most this many stored files of one kind per user (a bound on what one account can store). */
export const MAX_FILES_PER_KIND = 20;
/** At most this many files in one upload request (the server's multipart limit). */
export const MAX_FILES_PER_UPLOAD = 10;
export const WIZARD_STEPS = 3;

export function isDocumentKind(value: string): value is DocumentKind {
  return (DOCUMENT_KINDS as readonly string[]).includes(value);
}

/** A stored file as the API shows it; url is an authorised route, never a public path. */
export const fileRecordSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  mime: z.string(),
  size: z.number(),
  date_formatted: z.string(),
});
export type FileRecord = z.output<typeof fileRecordSchema>;

export const userDocumentItemSchema = fileRecordSchema.extend({
  kind: z.enum(DOCUMENT_KINDS),
  dict_document_type_id: z.number().int(),
});
export type UserDocumentItem = z.output<typeof userDocumentItemSchema>;

/** GET /api/user/{id}/documents: the files of each kind and the whole list. */
export const userDocumentsSchema = z.object({
  passport: z.array(fileRecordSchema),
  education: z.array(fileRecordSchema),
  snils: z.array(fileRecordSchema),
  surname: z.array(fileRecordSchema),
  other: z.array(fileRecordSchema),
  consent: z.array(fileRecordSchema),
  list: z.array(userDocumentItemSchema),
});
export type UserDocuments = z.output<typeof userDocumentsSchema>;
export const userDocumentsAnswer = dataAnswer(userDocumentsSchema);
/** POST /api/user/{id}/upload-documents. */
export const userDocumentsUploadedAnswer = userDocumentsAnswer.extend({ message: z.string() });

/** GET /api/file/{id}/link: a short-lived link to the file. */
export const fileLinkAnswer = z.object({ url: z.string() });
/** DELETE /api/file/{id}. */
export const fileDeletedAnswer = messageAnswer;

// ---- Passport -------------------------------------------------------------------------------

export const PASSPORT_NUMBER_RE = /^\d{4} \d{6}$/;

/** A calendar date 'YYYY-MM-DD' that exists and is not in the future (dates of documents and births). */
export function dateProblem(value: string, today: Date = new Date()): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return DocumentMessages.badDate;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || y < 1900) return DocumentMessages.badDate;
  if (value > today.toISOString().slice(0, 10)) return DocumentMessages.futureDate;
  return null;
}

const pastDate = z
  .string({ error: Messages.fieldRequired })
  .trim()
  .min(1, { error: Messages.fieldRequired })
  .max(10, { error: DocumentMessages.badDate })
  .superRefine((v, ctx) => {
    const problem = dateProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** POST /api/identity-document: number 9999 999999, date, issued_by (spec 01 §5 Passport). */
export const identityDocumentBody = z.object({
  user_id: idField().optional(),
  number: z
    .string({ error: Messages.fieldRequired })
    .trim()
    .min(1, { error: Messages.fieldRequired })
    .regex(PASSPORT_NUMBER_RE, { error: DocumentMessages.passportNumber }),
  date: pastDate,
  issued_by: textField(500)
    .transform((v) => v.trim())
    .pipe(z.string().min(1, { error: Messages.fieldRequired })),
});
export type IdentityDocumentInput = z.input<typeof identityDocumentBody>;
/** The passport form's fields, as the wizard's `missing` names them ('passport.number', …). */
export const PASSPORT_FIELDS = ['number', 'date', 'issued_by'] as const;

export const identityDocumentSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  dict_document_type_id: z.number().int(),
  number: z.string(),
  date: isoDate,
  issued_by: z.string(),
  /** The client can no longer change a saved passport; operators can. */
  locked: z.boolean(),
});
export type IdentityDocument = z.output<typeof identityDocumentSchema>;
/** GET /api/identity-document: the passport as a one-item list (empty without one). */
export const identityDocumentsAnswer = listAnswer(identityDocumentSchema);
/** POST /api/identity-document: the saved passport and a notice. */
export const identityDocumentSavedAnswer = dataAnswer(identityDocumentSchema.nullable()).extend({ message: z.string() });

// ---- SNILS and profile extras ---------------------------------------------------------------

export const SNILS_RE = /^\d{3}-\d{3}-\d{3} \d{2}$/;

/**
 * SNILS check number: digits 1..9 weighted 9..1; a sum under 100 is the check number, 100 and
 * 101 give 00, above that the remainder of division by 101 (100 again giving 00). Numbers up to
 * 001-001-998 were issued before the rule and are not checked.
 */
export function snilsChecksumValid(value: string): boolean {
  const digits = value.replace(/\D/g, '');
  if (digits.length !== 11) return false;
  const body = digits.slice(0, 9);
  if (Number(body) <= 1001998) return true;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(body[i]) * (9 - i);
  let check = sum < 100 ? sum : sum === 100 || sum === 101 ? 0 : sum % 101;
  if (check === 100) check = 0;
  return check === Number(digits.slice(9));
}

export function snilsProblem(value: string): string | null {
  if (!SNILS_RE.test(value)) return DocumentMessages.snilsFormat;
  if (!snilsChecksumValid(value)) return DocumentMessages.snilsChecksum;
  return null;
}

/** POST /api/user/{id}/profile-extras: address, birthday, snils all required (spec 01 §5). */
export const profileExtrasBody = z.object({
  address: textField(500)
    .transform((v) => v.trim())
    .pipe(z.string().min(1, { error: Messages.fieldRequired })),
  birthday: pastDate,
  snils: z
    .string({ error: Messages.fieldRequired })
    .trim()
    .min(1, { error: Messages.fieldRequired })
    .superRefine((v, ctx) => {
      const problem = snilsProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
});
export type ProfileExtrasInput = z.input<typeof profileExtrasBody>;

export const profileExtrasSchema = z.object({
  address: z.string().nullable(),
  birthday: isoDate.nullable(),
  snils: z.string().nullable(),
});
export type ProfileExtras = z.output<typeof profileExtrasSchema>;
/** GET /api/user/{id}/profile-extras. */
export const profileExtrasAnswer = dataAnswer(profileExtrasSchema);
/** POST /api/user/{id}/profile-extras. */
export const profileExtrasSavedAnswer = profileExtrasAnswer.extend({ message: z.string() });

// ---- The wizard -----------------------------------------------------------------------------

/** GET /api/user/{id}/contract-data: what the wizard needs to know, computed on the server. */
export const contractDataStateSchema = z.object({
  contract_step: z.number().int(),
  is_documents_upload_allowed: z.boolean(),
  is_contract_allowed: z.boolean(),
  profile_valid: z.boolean(),
  passport_valid: z.boolean(),
  documents_valid: z.boolean(),
  consent_valid: z.boolean(),
  /** Profile, passport and documents valid: the documents step is done. */
  valid: z.boolean(),
  /** Highest step the client may open now. */
  max_step: z.number().int(),
  /**
   * What is still missing, by field: profile extras by name ('address', 'birthday', 'snils'), the
   * passport's fields as 'passport.<field>', the files as 'documents.<kind>' (consent included).
   */
  missing: z.record(z.string(), z.array(z.string())),
});
export type ContractDataState = z.output<typeof contractDataStateSchema>;
export const contractDataAnswer = dataAnswer(contractDataStateSchema);
/** POST /api/user/{id}/contract-step: the state after the step (null only if the user is gone meanwhile). */
export const contractStepAnswer = dataAnswer(contractDataStateSchema.nullable()).extend({ message: z.string() });

export const contractStepBody = z.object({
  contract_step: z.coerce.number({ error: Messages.fieldRequired }).int({ error: Messages.fieldRequired }).min(1).max(WIZARD_STEPS),
});

/**
 * The wizard's rules (spec 01 §4 Wizard steps): the documents step needs profile extras, passport
 * and the required documents; the consent step is passed once the signed consent is uploaded; the
 * contract step is then open.
 */
export function wizardProgress(s: { profile_valid: boolean; passport_valid: boolean; documents_valid: boolean; consent_valid: boolean }): {
  valid: boolean;
  maxStep: number;
} {
  const valid = s.profile_valid && s.passport_valid && s.documents_valid;
  return { valid, maxStep: !valid ? 1 : !s.consent_valid ? 2 : 3 };
}
