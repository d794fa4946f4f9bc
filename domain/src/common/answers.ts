import { z } from 'zod';
import { pageMetaSchema } from './pagination.ts';

// The envelopes every answer of the API uses (spec: `{data}`, lists `{data, meta}`, notices
// `{message}`). A route's response schema is built from these and the record's own schema, and the
// web takes the answer's type from the same schema (`z.output<typeof …>`).

/** `{ data: item }`. */
export const dataAnswer = <T extends z.ZodType>(item: T) => z.object({ data: item });

/** `{ data: [item], meta }`: a page of a list. */
export const pageAnswer = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: pageMetaSchema });

/** `{ data: [item] }`: a whole list without pages. */
export const listAnswer = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

/** `{ message }`: a notice the screen shows. */
export const messageAnswer = z.object({ message: z.string() });

/** A timestamp on the wire: an ISO 8601 string (the server's Date objects serialise to it). */
export const isoTimestamp = z.string();

/** A calendar date on the wire: yyyy-mm-dd. */
export const isoDate = z.string();

/**
 * A refusal: 422 `{message, errors?: {field: [messages]}}` (the Russian message the screen shows,
 * and the fields it concerns). Every route with a body, a query or path parameters declares it.
 */
export const refusalAnswer = z
  .object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())).optional() })
  .meta({ description: 'Отказ: сообщение и поля, к которым оно относится' });

/** Any other error answer (400, 403, 404, 429, 503…): `{message}` in Russian. */
export const errorAnswer = z.object({ message: z.string() }).meta({ description: 'Ошибка: сообщение для экрана' });

/**
 * 401: no session, or a refused login with its code (531 no such user, 532 wrong password, 500
 * malformed) the sign-in screen acts on.
 */
export const authErrorAnswer = z
  .object({ message: z.string(), code: z.number().int().optional() })
  .meta({ description: 'Нет сессии или вход отклонён (code: 531 нет пользователя, 532 неверный пароль)' });
