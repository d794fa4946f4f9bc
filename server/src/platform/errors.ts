import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { fieldErrorsFromZod, type FieldErrors } from '@edu/domain/common/validation';
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

export function validationError(errors: FieldErrors, message: string = Messages.required): AppError {
  return new AppError(422, message, { errors });
}

/** One field's 422. */
export function fieldError(field: string, text: string, message: string = Messages.required): AppError {
  return validationError({ [field]: [text] }, message);
}

export const notFound = (message: string = Messages.notFound) => new AppError(404, message);
export const forbidden = (message: string = Messages.forbidden) => new AppError(403, message);
export const unauthenticated = () => new AppError(401, Messages.unauthenticated);

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({ message: error.message, ...error.body });
    }
    if (error instanceof ZodError) {
      return reply.status(422).send({ message: Messages.required, errors: fieldErrorsFromZod(error) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldErrors = {};
      for (const v of error.validation) {
        const path = v.instancePath.split('/').filter(Boolean);
        const field = path.length > 0 ? path[path.length - 1] : String((v.params as { issue?: { path?: unknown[] } })?.issue?.path?.at(-1) ?? '_');
        (errors[field] ??= []).push(v.message ?? Messages.fieldRequired);
      }
      return reply.status(422).send({ message: Messages.required, errors });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ message: Messages.tooManyRequests });
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, body too large: a clear answer, not a 500.
      const message = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'Слишком большой запрос' : 'Некорректный запрос';
      return reply.status(status === 415 || status === 400 || status === 413 ? status : 400).send({ message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: Messages.serverError });
  });
}
