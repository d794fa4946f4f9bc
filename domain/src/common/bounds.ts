import { z } from 'zod';
import { Messages } from './messages.ts';

// Bounded validators shared by every route: ids that fit an `integer` column, strings that fit
// their column and carry no NUL, real calendar dates, id lists of a sane size. Input past these
// bounds is a 422 with a Russian message, never a database error.

/** Largest value of a PostgreSQL `integer` (serial ids, foreign keys, counters). */
export const MAX_INT = 2_147_483_647;
/** Longest id list a request may carry (a PostgreSQL statement takes at most 65 535 parameters). */
export const MAX_ID_LIST = 1000;

export const BoundMessages = {
  id: 'Некорректный идентификатор',
  number: 'Введите число',
  tooBig: (max: number) => `Значение не больше ${max.toLocaleString('ru-RU')}`,
  nul: 'Недопустимый символ',
  date: 'Несуществующая дата',
  dateFormat: 'Дата в формате дд.мм.гггг',
  listTooLong: (max: number) => `Не больше ${max.toLocaleString('ru-RU')} значений`,
  flag: 'Ожидается да или нет',
} as const;

/**
 * A yes/no value as clients send it, the same everywhere: true/false, 1/0, '1'/'0', 'true'/'false'
 * (JSON bodies, query strings and multipart fields alike); read as a boolean.
 */
export const flagField = () =>
  z
    .union([z.boolean(), z.literal(1), z.literal(0), z.enum(['1', '0', 'true', 'false'])], { error: BoundMessages.flag })
    .transform((v) => v === true || v === 1 || v === '1' || v === 'true');

/** A flagField stored as 1/0 (is_spb of users, subtypes and audiences). */
export const flagNumber = () => flagField().transform((v): 0 | 1 => (v ? 1 : 0));

/** NUL is refused everywhere: PostgreSQL text cannot hold it. */
export const hasNul = (s: string) => s.includes('\u0000');

/** An id: an integer 1..2^31-1, from a number or a numeric string (path and query parameters). */
export const idField = (message: string = BoundMessages.id) =>
  z.coerce.number({ error: message }).int({ error: message }).min(1, { error: message }).max(MAX_INT, { error: message });

/** `{id}` path parameters. */
export const idParams = z.object({ id: idField() });

/** An integer that fits an `integer` column. */
export const intField = (min = 0, max = MAX_INT) =>
  z.coerce
    .number({ error: BoundMessages.number })
    .int({ error: BoundMessages.number })
    .min(min, { error: `Значение не меньше ${min}` })
    .max(max, { error: BoundMessages.tooBig(max) });

/** A string of at most `max` characters (its column's length) without NUL. */
export const textField = (max: number) =>
  z
    .string({ error: Messages.fieldRequired })
    .max(max, { error: Messages.maxLength(max) })
    .refine((s) => !hasNul(s), { error: BoundMessages.nul });

/** A trimmed filter string of at most `max` characters. */
export const filterText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, { error: Messages.maxLength(max) })
    .refine((s) => !hasNul(s), { error: BoundMessages.nul });

/** Does the calendar have this day? (31.02.2024 does not.) */
export function isRealDate(year: number, month: number, day: number): boolean {
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return false;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** dd.mm.yyyy of a day that exists. */
export const ruDateField = () =>
  z
    .string()
    .trim()
    .regex(/^\d{2}\.\d{2}\.\d{4}$/, { error: BoundMessages.dateFormat })
    .refine((v) => isRealDate(Number(v.slice(6, 10)), Number(v.slice(3, 5)), Number(v.slice(0, 2))), { error: BoundMessages.date });

export const DATE_RANGE_BACKWARDS = 'Дата окончания раньше даты начала';

/** A range of days (dd.mm.yyyy) that ends before it starts; either end may be missing. */
export function dateRangeProblem(from: string | undefined, to: string | undefined): string | null {
  const key = (d: string) => `${d.slice(6, 10)}${d.slice(3, 5)}${d.slice(0, 2)}`;
  return from && to && key(from) > key(to) ? DATE_RANGE_BACKWARDS : null;
}

/** A list of ids: an array, one id, or "1,2,3"; at most `max` of them, each 1..2^31-1. */
export const idListField = (max = MAX_ID_LIST) =>
  z
    .union([z.array(z.unknown()), z.string().max(max * 11), z.number()])
    .transform((v) => (Array.isArray(v) ? v : typeof v === 'number' ? [v] : v.split(',').filter((s) => s.trim() !== '')))
    .pipe(z.array(idField()).max(max, { error: BoundMessages.listTooLong(max) }));

/** A body array of ids (e.g. chosen profiles). */
export const idArray = (max = MAX_ID_LIST) => z.array(idField()).max(max, { error: BoundMessages.listTooLong(max) });
