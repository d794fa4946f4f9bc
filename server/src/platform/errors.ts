import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { fieldErrorsFromZod, headlineOf, type FieldErrors } from '@edu/domain/common/validation';
import { Messages } from '@edu/domain/common/messages';

/** A business failure with its HTTP answer. Thrown by rules; mapped to the response in one place. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function validationError(errors: FieldErrors, message: string = headlineOf(errors)): AppError {
  return new AppError(422, message, { errors });
}

/** One field's 422. */
export function fieldError(field: string, text: string, message: string = headlineOf({ [field]: [text] })): AppError {
  return validationError({ [field]: [text] }, message);
}

export const notFound = (message: string = Messages.notFound) => new AppError(404, message);
export const forbidden = (message: string = Messages.forbidden) => new AppError(403, message);
export const unauthenticated = () => new AppError(401, Messages.unauthenticated);

/** The PostgreSQL error under a driver or Drizzle wrapper, if any. */
export function pgError(err: unknown): { code: string; detail?: string; column?: string; constraint?: string } | null {
  let e = err as { code?: unknown; cause?: unknown; detail?: string; column?: string; constraint?: string } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return { code: e.code, detail: e.detail, column: e.column, constraint: e.constraint };
    e = e.cause as typeof e;
  }
  return null;
}

export const DataErrorMessages = {
  tooLong: 'Слишком длинное значение',
  outOfRange: 'Число вне допустимого диапазона',
  badDate: 'Несуществующая дата',
  badValue: 'Некорректное значение',
  badChar: 'Недопустимый символ',
  missingRef: 'Связанная запись не найдена',
  duplicate: 'Такая запись уже существует',
} as const;

/**
 * Database data errors (class 22), foreign keys (23503) and unique keys (23505) come from input the
 * validators let through: a 422 with a Russian message and the column when PostgreSQL names it.
 */
export function dataErrorAnswer(err: unknown): { message: string; errors: FieldErrors } | null {
  const pg = pgError(err);
  if (!pg) return null;
  let text: string | null = null;
  if (pg.code === '22001') text = DataErrorMessages.tooLong;
  else if (pg.code === '22003') text = DataErrorMessages.outOfRange;
  else if (pg.code === '22007' || pg.code === '22008') text = DataErrorMessages.badDate;
  else if (pg.code === '22021' || pg.code === '22P05') text = DataErrorMessages.badChar;
  else if (pg.code.startsWith('22')) text = DataErrorMessages.badValue;
  else if (pg.code === '23503') text = DataErrorMessages.missingRef;
  else if (pg.code === '23505') text = DataErrorMessages.duplicate;
  else if (pg.code === '23514' || pg.code === '23502') text = DataErrorMessages.badValue;
  if (!text) return null;
  const field = pg.column ?? /^Key \(([a-z_]+)\)/.exec(pg.detail ?? '')?.[1] ?? '_';
  return { message: text, errors: { [field]: [text] } };
}

/** What the log keeps of an error: never a whole SQL statement with its parameters or a huge input. */
export function errorForLog(err: unknown): Record<string, unknown> {
  const e = err as { name?: string; message?: string; code?: string; stack?: string };
  const pg = pgError(err);
  return {
    type: e?.name,
    code: pg?.code ?? e?.code,
    message: String(e?.message ?? err).slice(0, 500),
    stack: e?.stack?.split('\n').slice(0, 8).join('\n').slice(0, 2000),
  };
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({ message: error.message, ...error.body });
    }
    if (error instanceof ZodError) {
      const errors = fieldErrorsFromZod(error);
      return reply.status(422).send({ message: headlineOf(errors), errors });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldErrors = {};
      for (const v of error.validation) {
        const path = v.instancePath.split('/').filter(Boolean);
        const field = path.length > 0 ? path[path.length - 1] : String((v.params as { issue?: { path?: unknown[] } })?.issue?.path?.at(-1) ?? '_');
        (errors[field] ??= []).push(v.message ?? Messages.fieldRequired);
      }
      return reply.status(422).send({ message: headlineOf(errors), errors });
    }
    const data = dataErrorAnswer(error);
    if (data) {
      request.log.warn({ err: errorForLog(error), url: request.url.slice(0, 200) }, 'database refused the input');
      return reply.status(422).send(data);
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ message: Messages.tooManyRequests });
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, body too large: a clear answer, not a 500.
      const message = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'Слишком большой запрос' : 'Некорректный запрос';
      return reply.status(status === 415 || status === 400 || status === 413 ? status : 400).send({ message });
    }
    request.log.error({ err: errorForLog(error), method: request.method, url: request.url.slice(0, 200) }, 'unhandled error');
    return reply.status(500).send({ message: Messages.serverError });
  });
}
