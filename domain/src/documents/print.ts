import { z } from 'zod';
import { EntryStatus, PayType, isOperator, isPaidStatus, PublicationStatus } from '../common/codes.ts';

// Printing (spec 01 §4 Printing, spec 02 §4 Printing rules, spec 03 §4 Print rules, §8 Print failure).

export const PRINT_KINDS = ['certificate', 'certificate-docx', 'program', 'registration-list', 'contract', 'invoice'] as const;
export type PrintKind = (typeof PRINT_KINDS)[number];
export const printKindParam = z.enum(PRINT_KINDS);

/** Menu labels of the print kinds (the spec names the kinds, not their labels). */
export const printKindLabels: Record<PrintKind, string> = {
  certificate: 'Сертификат',
  'certificate-docx': 'Сертификат (Word)',
  program: 'Программа',
  'registration-list': 'Регистрационный лист',
  contract: 'Договор',
  invoice: 'Счёт на оплату',
};

export const PrintMessages = {
  error: 'Ошибка!',
  hint: 'Если заявка, для которой вы хотите распечатать сертификат оплачена и завершена, то обратитесь к оператору.',
  // Texts the spec does not give; ours, in the same voice.
  notDone: 'Сертификат будет доступен после завершения заявки',
  needsRegistrationNumber: 'Сертификат будет доступен после присвоения регистрационного номера',
  publicationNotReady: 'Сертификат будет доступен после оплаты заявки и одобрения публикации',
  noCertificateTemplate: 'Для услуги не задан шаблон сертификата',
  noProgramTemplate: 'Для услуги не задан шаблон программы',
  noRegListTemplate: 'Не задан шаблон регистрационного листа',
  noContractTemplate: 'Не задан шаблон договора',
  noConsentTemplate: 'Не задан шаблон согласия на обработку персональных данных',
  // What a client reads instead of the operator's 'Не задан шаблон…' (issue 19): nothing to fix on their side.
  certificateLater: 'Сертификат будет доступен позже',
  programLater: 'Программа будет доступна позже',
  regListLater: 'Регистрационный лист будет доступен позже',
  contractLater: 'Договор будет доступен позже',
  consentLater: 'Согласие будет доступно позже',
  contractNotNeeded: 'Для этой услуги договор не требуется',
  entryDeleted: 'Заявка удалена',
  entryRefunded: 'Заявка отменена, оплата возвращена: документы по ней не печатаются',
  operatorsOnly: 'Сертификат в формате Word доступен только оператору',
  templateNotUploaded: 'Файл шаблона не загружен',
  batchStarted: 'Печать сертификатов запущена',
  batchNothing: 'Нет заявок, для которых можно распечатать сертификат',
  certificateNumberTaken: 'Сертификат с таким номером уже существует',
  certificateNumberFormat: 'Номер сертификата: 12 цифр',
  // Production limits (decision 021): answered 429 and 503.
  tooManyPrints: 'Документы уже готовятся, подождите немного и повторите.',
  printQueueFull: 'Сейчас готовится слишком много документов. Повторите через минуту.',
  tooManyPrintsFromAddress: 'С вашего адреса сейчас печатают слишком много документов. Подождите минуту и повторите.',
  // The bank invoice (счёт на оплату) of an unpaid entry or package.
  invoicePaid: 'Заявка уже оплачена',
  invoiceFree: 'Заявка бесплатна: оплачивать нечего',
  invoiceBankOnly: 'Счёт на оплату выставляется при оплате через банк',
  invoiceLater: 'Счёт на оплату будет доступен позже: обратитесь к оператору.',
  // A document that needs a client's personal data they have not filled (decision 031): answered 422 with errors.personal_data.
  fillPersonalData: (missing: string[]) => `Для печати документа заполните: ${missing.join(', ')}`,
  invoiceRequisites: (missing: string[]) => `Для счёта на оплату заполните реквизиты центра (Макросы → Реквизиты): ${missing.join(', ')}`,
} as const;

/** The field of the 422 that refuses a document for missing personal data (the screen shows where to fill them). */
export const PERSONAL_DATA_FIELD = 'personal_data';

export interface PrintContext {
  status: number;
  deleted: boolean;
  isPublication: boolean;
  /** Status of the entry's publication, null when there is none. */
  publicationStatus: number | null;
  contractNeeded: boolean;
  registrationNumber: string | null;
  /** Effective template ids: the service's own, else the default of its subtype or type. */
  certificateTemplateId: number | null;
  programTemplateId: number | null;
  regListTemplateId: number | null;
  contractTemplateId: number | null;
  /** Pay type of the entry (1 Банк, 2 Офис, 3 Онлайн, 4 Другое). */
  payType: number;
  /** What is to be paid: the entry's price, or its package's while the package is whole. */
  amount: number;
}

/**
 * Certificate rule: a non-publication entry when done and (no contract needed or a registration
 * number exists); a publication entry when paid or more and its publication approved or published.
 */
export function certificateRefusal(c: PrintContext): string | null {
  if (c.deleted) return PrintMessages.entryDeleted;
  if (c.isPublication) {
    const approved = c.publicationStatus === PublicationStatus.approved || c.publicationStatus === PublicationStatus.published;
    if (!isPaidStatus(c.status) || !approved) return PrintMessages.publicationNotReady;
  } else {
    if (c.status !== EntryStatus.done) return PrintMessages.notDone;
    if (c.contractNeeded && !c.registrationNumber) return PrintMessages.needsRegistrationNumber;
  }
  if (c.certificateTemplateId === null) return PrintMessages.noCertificateTemplate;
  return null;
}

/**
 * Invoice rule: an unpaid entry with something to pay; a client prints it when the entry is to be paid
 * through a bank (pay type «Банк»), an operator for any unpaid entry (a client may ask for one).
 */
export function invoiceRefusal(c: PrintContext, role: number): string | null {
  if (c.status !== EntryStatus.notPaid) return PrintMessages.invoicePaid;
  if (c.amount <= 0) return PrintMessages.invoiceFree;
  if (!isOperator({ role }) && c.payType !== PayType.bank) return PrintMessages.invoiceBankOnly;
  return null;
}

/** A missing template in the operator's words, and what a client reads instead. */
const LATER: Record<string, string> = {
  [PrintMessages.noCertificateTemplate]: PrintMessages.certificateLater,
  [PrintMessages.noProgramTemplate]: PrintMessages.programLater,
  [PrintMessages.noRegListTemplate]: PrintMessages.regListLater,
  [PrintMessages.noContractTemplate]: PrintMessages.contractLater,
  [PrintMessages.noConsentTemplate]: PrintMessages.consentLater,
};

/** The refusal as the asker reads it: operators see which template is missing, clients that the document comes later. */
export function refusalFor(message: string, role: number): string {
  return isOperator({ role }) ? message : (LATER[message] ?? message);
}

/** Why the asker may not print this kind now, or null when the print is allowed. */
export function printRefusal(kind: PrintKind, c: PrintContext, role: number): { status: 403 | 422; message: string } | null {
  if (kind === 'certificate-docx' && !isOperator({ role })) return { status: 403, message: PrintMessages.operatorsOnly };
  if (c.deleted) return { status: 422, message: PrintMessages.entryDeleted };
  if (c.status === EntryStatus.refunded) return { status: 422, message: PrintMessages.entryRefunded };
  let message: string | null = null;
  switch (kind) {
    case 'certificate':
    case 'certificate-docx':
      message = certificateRefusal(c);
      break;
    case 'program':
      message = c.programTemplateId === null ? PrintMessages.noProgramTemplate : null;
      break;
    case 'registration-list':
      message = c.regListTemplateId === null ? PrintMessages.noRegListTemplate : null;
      break;
    case 'contract':
      message = !c.contractNeeded ? PrintMessages.contractNotNeeded : c.contractTemplateId === null ? PrintMessages.noContractTemplate : null;
      break;
    case 'invoice':
      message = invoiceRefusal(c, role);
      break;
  }
  return message ? { status: 422, message: refusalFor(message, role) } : null;
}

/** GET /api/entry/{id}/print/{kind}, GET /api/user/{id}/consent/print: where the document is (print-answers.ts). */
export type { PrintLinkAnswer as PrintAnswer } from './print-answers.ts';

export const certificateNumberField = z.string().regex(/^\d{12}$/, { error: PrintMessages.certificateNumberFormat });
