import { z } from 'zod';
import { dataAnswer, isoTimestamp } from '../common/answers.ts';

// «Мои данные» (issue 33, 152-FZ): a client's archive of everything the centre holds about them,
// prepared by a durable job, and an operator's erasure of a client's personal data.

/** The states of an archive: queued, preparing (with progress), ready (a link), expired, failed. */
export const ExportStatus = { queued: 1, preparing: 2, ready: 3, expired: 4, failed: 5 } as const;
export type ExportStatusCode = (typeof ExportStatus)[keyof typeof ExportStatus];
export const exportStatusLabels: Record<ExportStatusCode, string> = {
  1: 'В очереди',
  2: 'Готовится',
  3: 'Готов',
  4: 'Срок ссылки истёк',
  5: 'Не удалось подготовить',
};
/** Whether an archive of this status is still being made (a second request is refused meanwhile). */
export const isExportRunning = (status: number): boolean => status === ExportStatus.queued || status === ExportStatus.preparing;

/** How long a ready archive and its link live. */
export const EXPORT_TTL_HOURS = 24;

/** The placeholder name of an erased person, shown wherever their entries and payments still are. */
export const ERASED_LAST_NAME = 'Удалённый пользователь';

export const PersonalDataMessages = {
  requested: 'Архив готовится. Ссылка на скачивание появится здесь, когда он будет готов.',
  running: 'Архив уже готовится. Дождитесь его готовности, прежде чем запрашивать новый.',
  notFound: 'Архив не найден',
  linkExpired: 'Ссылка на архив устарела. Запросите архив ещё раз в разделе «Мои данные».',
  failed: 'Не удалось подготовить архив. Попробуйте запросить его ещё раз.',
  erased: 'Персональные данные клиента удалены. Записи об оплатах сохранены.',
  reasonRequired: 'Укажите основание удаления (например, номер и дату письменного заявления)',
  reasonTooLong: 'Основание — не длиннее 500 символов',
  noEraseOperator: 'Данные оператора так удалить нельзя: сначала смените ему роль.',
  noEraseSelf: 'Нельзя удалить собственные данные.',
  alreadyErased: 'Персональные данные этого клиента уже удалены.',
  openMoney: 'Сейчас удалить нельзя: у клиента есть незавершённые платежи или возвраты. Дождитесь их завершения (или отмените их) и повторите.',
  erasedNoExport: 'Данные клиента удалены — готовить архив не из чего.',
} as const;

/** An archive of a person's data, as the cabinet and the operator's card show it. */
export const personalDataExportSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  /** ExportStatus. */
  status: z.number().int(),
  status_label: z.string(),
  /** 0-100 while preparing. */
  progress: z.number().int(),
  /** Who asked: the client themself or the operator (on the client's written request). */
  requested_by_operator: z.boolean(),
  /** The signed download link while the archive is ready; it stops working at expires_at. */
  url: z.string().nullable(),
  size: z.number().int().nullable(),
  error: z.string().nullable(),
  created_at: isoTimestamp,
  finished_at: isoTimestamp.nullable(),
  expires_at: isoTimestamp.nullable(),
});
export type PersonalDataExport = z.output<typeof personalDataExportSchema>;

/** The latest archive (or none yet). */
export const personalDataExportAnswer = dataAnswer(personalDataExportSchema.nullable());
/** A new archive request: 202 with its state and the notice. */
export const personalDataExportStartedAnswer = dataAnswer(personalDataExportSchema).extend({ message: z.string() });

/** POST /api/manager/users/{id}/erase: the written request the erasure rests on. */
export const eraseUserBody = z.object({
  reason: z
    .string({ error: PersonalDataMessages.reasonRequired })
    .trim()
    .min(1, { error: PersonalDataMessages.reasonRequired })
    .max(500, { error: PersonalDataMessages.reasonTooLong }),
});
export type EraseUserInput = z.input<typeof eraseUserBody>;

export const eraseUserAnswer = z.object({ message: z.string(), data: z.object({ id: z.number().int(), erased_at: isoTimestamp }) });
