import { z } from 'zod';
import { ContractStatus } from '../common/codes.ts';
import { pageQuery } from '../common/pagination.ts';
import { filterText, idField, textField } from '../common/bounds.ts';
import { fileRecordSchema } from '../documents/documents.ts';
import { dataAnswer, messageAnswer, pageAnswer } from '../common/answers.ts';

// Contract review (spec 02 §2 Contract review board, §3 Contract, §4 Registration number and
// Contract status, §5 Contract scan; spec 01 §4 Contract scan).

export type ContractStatusCode = (typeof ContractStatus)[keyof typeof ContractStatus];

export const ContractMessages = {
  searchPlaceholder: 'Поиск по ФИО',
  pending: 'Ожидают проверки',
  /** The board's two pending columns: scans to check (work) and contracts still without a scan (waiting). */
  toReview: 'Проверить скан',
  waitingScan: 'Ждём скан',
  approved: 'Одобренные',
  rejected: 'Отклонённые',
  noScan: 'Скан не загружен',
  commentHint: 'Оставьте поле пустым, если комментариев нет',
  setRegistrationNumber: 'Установить рег номер',
  setRegistrationNumberConfirm: 'Установить регистрационный номер и отправить договор в архив?',
  // Ours, where the spec gives no text (same voice).
  accepted: 'Договор одобрен',
  rejectedDone: 'Договор отклонён',
  registrationNumberSet: 'Регистрационный номер установлен',
  alreadyReviewed: 'Договор уже рассмотрен',
  alreadyApproved: 'Договор уже одобрен',
  notContractEntry: 'Для этой услуги договор не нужен',
  documentsFirst: 'Сначала заполните данные для договора и загрузите документы',
  notApproved: 'Регистрационный номер ставится только по одобренному договору',
  registrationNumberExists: 'Регистрационный номер уже установлен',
  entryDeleted: 'Заявка удалена',
  acceptTitle: 'Принять договор',
  acceptConfirm: (fio: string, number: string) => `Принять договор клиента ${fio} по заявке № ${number}? Клиент получит уведомление.`,
  acceptPending: (number: string) => `Договор по заявке № ${number} будет принят через несколько секунд`,
  acceptUndone: 'Принятие договора отменено',
} as const;

export const contractStatusLabels: Record<ContractStatusCode, string> = { 1: 'Ожидает проверки', 2: 'Одобрен', 3: 'Отклонён' };
export const contractStatusColors: Record<ContractStatusCode, string> = { 1: 'yellow', 2: 'teal', 3: 'red' };

export const COMMENT_MAX = 2000;

/**
 * One card of the board, and one row of the client's contract step. A client's entry for a service
 * whose type needs a contract has a card from the start (pending, no scan); id is the contract's
 * once a scan was uploaded, else null.
 */
export const contractItemSchema = z.object({
  id: z.number().int().nullable(),
  status: z.literal(Object.values(ContractStatus)),
  statusLabel: z.string(),
  statusColor: z.string(),
  comment: z.string().nullable(),
  file: fileRecordSchema.nullable(),
  user: z.object({ id: z.number().int(), fio: z.string() }),
  service: z.object({ id: z.number().int(), title: z.string(), template_certificate_id: z.number().int().nullable() }),
  entry: z.object({ id: z.number().int(), number: z.string(), status: z.number().int(), registration_number: z.string().nullable() }),
  /** Approved and given a registration number: the contract is in the archive. */
  archived: z.boolean(),
  updated_at_formatted: z.string().nullable(),
});
export type ContractItem = z.output<typeof contractItemSchema>;

/** GET /api/contract: a page of cards. */
export const contractsAnswer = pageAnswer(contractItemSchema);
/** POST /api/contract/upload: the entry's card with its new scan, and the notice. */
export const contractUploadedAnswer = dataAnswer(contractItemSchema.nullable()).extend({ message: z.string() });
/** POST /api/contract/{id}/accept, /reject. */
export const contractReviewedAnswer = messageAnswer;
/** POST /api/entry/{id}/set-registration-number. */
export const registrationNumberAnswer = dataAnswer(z.object({ id: z.number().int(), registration_number: z.string() })).extend({ message: z.string() });
/** GET /api/contract/print-excel: where to fetch the export. */
export const contractExportLinkAnswer = z.object({ url: z.string() });

/** GET /api/contract: fio, status, page, per_page (spec 02 §7 Contracts); archive=1 lists archived approved ones. */
export const contractListQuery = pageQuery.extend({
  fio: filterText(200).optional(),
  status: z.coerce.number().int().min(1).max(3).optional(),
  archive: z.coerce.number().int().min(0).max(1).optional(),
  user_id: idField().optional(),
  entry_id: idField().optional(),
  /** 1: with a signed scan uploaded (to check); 0: still without a scan (waiting for the client). */
  scan: z.coerce.number().int().min(0).max(1).optional(),
});

/** GET /api/contract/print-excel and /excel: the board's filters. */
export const contractExportQuery = z.object({
  fio: filterText(200).optional(),
  status: z.coerce.number().int().min(1).max(3).optional(),
  archive: z.coerce.number().int().min(0).max(1).optional(),
});
export type ContractListQuery = z.input<typeof contractListQuery>;

export const rejectContractBody = z.object({
  comment: textField(COMMENT_MAX).nullish(),
});

/** Registration numbers: 'YYYY-NNNN', consecutive from 1 within each (Moscow) calendar year. */
export function formatRegistrationNumber(year: number, seq: number): string {
  return `${year}-${String(seq).padStart(4, '0')}`;
}
