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

/**
 * Whether a field message means "this field was left empty": the generic one, or a field's own
 * request to fill it ('Введите пароль', 'Выберите секцию!'), but not a format or range complaint
 * ('Введите число', 'Введите корректный email', 'Выберите цвет из палитры').
 */
export function isEmptyFieldMessage(message: string): boolean {
  if (message === Messages.fieldRequired) return true;
  return /^(Введите|Выберите|Укажите|Заполните)\s/.test(message) && !/числ|корректн|больше|меньше|\sиз\s/.test(message);
}

/**
 * The headline of a failed form: 'Заполните все обязательные поля!' only when a required field is
 * empty; otherwise the first field's own message (a wrong format or length says what is wrong).
 */
export function headlineOf(errors: Record<string, string[] | string | undefined>): string {
  const messages = Object.values(errors).flatMap((m) => (Array.isArray(m) ? m : m ? [m] : []));
  const first = messages[0];
  if (first === undefined || messages.some(isEmptyFieldMessage)) return Messages.required;
  return first;
}
