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
 * and the fields it concerns). Declared on routes whose refusals a screen acts on.
 */
export const refusalAnswer = z.object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())).optional() });
