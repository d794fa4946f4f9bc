import type { FastifyPluginAsync, FastifySerializerCompiler, FastifyTypeProvider, RawServerDefault } from 'fastify';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

// Every route declares the answer it sends (`schema.response`, a zod schema from domain/), so the
// OpenAPI document at /api/docs describes answers and the web takes its types from the same schema
// (`z.output<typeof …>`). A response schema describes the JSON on the wire: dates are ISO strings
// there, while handlers return the rows they read (Date objects), hence `Wire<…>` below.
//
// Answers are written with JSON.stringify as before: a schema never strips a field or changes a
// value. Under tests each answer is also checked against its schema (in its JSON form), so a test
// that gets an answer its schema does not describe fails loudly; in development (and the browser
// journeys) a mismatch is logged; in production the check is skipped (no CPU on the hot path, never
// a 500 for a described-wrong field).

/** What a handler may return for a wire type: Date wherever the JSON has a string. */
export type Wire<T> = T extends FileBody
  ? T
  : T extends string
    ? string | Date
    : T extends readonly (infer U)[]
      ? readonly Wire<U>[]
      : T extends object
        ? { [K in keyof T]: Wire<T[K]> }
        : T;

export interface ZodWireTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? Wire<z.output<this['schema']>> : unknown;
}

/** A feature's routes plugin, typed by its zod schemas. */
export type RoutesPlugin<Options extends Record<string, unknown> = Record<never, never>> = FastifyPluginAsync<Options, RawServerDefault, ZodWireTypeProvider>;

/** An answer that its route's schema does not describe (only outside production). */
export class ResponseShapeError extends Error {
  constructor(
    readonly url: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(`The answer of ${url} does not match its response schema: ${issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
}

export type ResponseCheck = 'throw' | 'warn' | 'off';

/** The check for an environment: tests throw, development warns, production skips. */
export const responseCheckFor = (env: 'production' | 'development' | 'test'): ResponseCheck =>
  env === 'test' ? 'throw' : env === 'development' ? 'warn' : 'off';

/**
 * In development, answers longer than this are written unchecked: reading a publication's 480 000
 * characters back and checking them would cost the request thread as much again as writing them,
 * for everyone's requests (issue 29). Tests check every answer, whatever its length.
 */
export const DEV_CHECK_MAX_CHARS = 100_000;

/** JSON.stringify, after checking the JSON form against the route's response schema (see above). */
export function responseSerializerCompiler(check: ResponseCheck, warn: (error: ResponseShapeError) => void = () => {}): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, url }) =>
    (data) => {
      const json = JSON.stringify(data);
      if (check === 'throw' || (check === 'warn' && (json === undefined || json.length <= DEV_CHECK_MAX_CHARS))) {
        const parsed = schema.safeParse(json === undefined ? undefined : JSON.parse(json));
        if (!parsed.success) {
          const error = new ResponseShapeError(url, parsed.error.issues);
          if (check === 'throw') throw error;
          warn(error);
        }
      }
      return json;
    };
}

/**
 * The answer of a route that sends a file (an export, a printed document, a download): its bytes go
 * out as they are, and the OpenAPI document names the types the file can have.
 */
export const fileAnswer = (description: string, type: string | readonly string[] = 'application/octet-stream') => ({
  description,
  content: Object.fromEntries([type].flat().map((t) => [t, { schema: fileBody }])),
});

/** What a stored upload can be (platform/files.ts DOCUMENT_MIMES), as a file answer's types. */
export const STORED_FILE_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;

/** A printed document: a PDF, or the .docx where the converter is not asked for one. */
export const PRINTED_TYPES = ['application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'] as const;

/** What the handler of a file answer sends: the bytes, or a stream of them. */
export type FileBody = Buffer | Readable;

/** A binary string in the document; the bytes (or a stream) in the handler's type. */
const fileBody = z.string().meta({ format: 'binary' }) as unknown as z.ZodType<FileBody>;

/** The type of the .xlsx exports. */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An answer without a body: 204 No Content, or a redirect (3xx, to the Location header). */
export const noContent = z.undefined();

type SwaggerTransform = typeof jsonSchemaTransform;

/** A file part of a multipart form, in the document. */
const filePart = z.string().meta({ format: 'binary' });

/**
 * The body of a route that reads it itself: a multipart form (platform/uploads.ts) with its text
 * fields (the zod object the handler parses them with) and its file parts, or a JSON body the handler
 * parses with its own messages. For the document only: the route validates nothing before its
 * handler reads the body through the same schema. `types`: the media types accepted.
 */
export interface FormBody {
  schema: z.ZodType;
  types: readonly string[];
}

declare module 'fastify' {
  interface FastifySchema {
    /** A body the handler reads itself (multipartForm, parsedBody), described in the document. */
    form?: FormBody;
  }
}

/** Describes a multipart body: `files` names each file part (`many`: the part may repeat). */
export function multipartForm(
  fields: z.ZodObject,
  files: Record<string, { description: string; many?: boolean; required?: boolean }>,
  opts: { json?: boolean } = {},
): FormBody {
  const parts = Object.fromEntries(
    Object.entries(files).map(([name, f]) => {
      const part = f.many ? z.array(filePart).meta({ description: f.description }) : filePart.meta({ description: f.description });
      return [name, f.required ? part : part.optional()];
    }),
  );
  return { schema: fields.extend(parts), types: opts.json ? ['multipart/form-data', 'application/json'] : ['multipart/form-data'] };
}

/** Describes a JSON body the handler parses itself with `schema` (for its own refusal messages). */
export const parsedBody = (schema: z.ZodType, types: readonly string[] = ['application/json']): FormBody => ({ schema, types });

const BODYLESS: Record<string, string> = { 204: 'Без содержимого', 301: 'Перенаправление', 302: 'Перенаправление', 303: 'Перенаправление' };

/**
 * The zod transform of @fastify/swagger, with 204 and redirect answers described as body-less ones
 * and a multipart form (`schema.form`) described as the request body.
 */
export const openApiTransform: SwaggerTransform = (document) => {
  const { form, ...schema } = (document.schema ?? {}) as NonNullable<typeof document.schema> & { form?: FormBody };
  const withForm = form ? { ...schema, body: form.schema, consumes: form.types } : schema;
  const response = withForm.response as Record<string, unknown> | undefined;
  const bodyless = Object.keys(response ?? {}).filter((code) => BODYLESS[code]);
  const rest = Object.fromEntries(Object.entries(response ?? {}).filter(([code]) => !BODYLESS[code]));
  const transformed = jsonSchemaTransform({ ...document, schema: response ? { ...withForm, response: rest } : withForm });
  // A plugin's root route ('/api/service/') answers without the slash too: the document names that form.
  const out = { ...transformed, url: transformed.url.replace(/(.)\/$/, '$1') };
  if (bodyless.length === 0) return out;
  const described = Object.fromEntries(bodyless.map((code) => [code, { type: 'null', description: BODYLESS[code] }]));
  return { ...out, schema: { ...out.schema, response: { ...(out.schema?.response as object), ...described } } };
};
