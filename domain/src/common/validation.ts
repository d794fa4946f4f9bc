import type { z } from 'zod';
import { Messages } from './messages.ts';

/** Field errors as the API sends them: field name to a list of Russian messages. */
export type FieldErrors = Record<string, string[]>;

/** The 422 body of every validation failure. */
export interface ValidationErrorBody {
  message: string;
  errors: FieldErrors;
}

/** Turns zod issues into field errors, keeping the first path segment as the field name. */
export function fieldErrorsFromZod(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[issue.path.length === 1 ? 0 : issue.path.length - 1]) : '_';
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

export function validationBody(errors: FieldErrors, message: string = Messages.required): ValidationErrorBody {
  return { message, errors };
}
