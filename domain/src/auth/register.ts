import { z } from 'zod';
import { flagField } from '../common/bounds.ts';
import { Messages } from '../common/messages.ts';
import { looksLikeEmail, normalizePhone } from '../common/phone.ts';

export const PASSWORD_MIN_LENGTH = 4;

const required = (max = 255) =>
  z
    .string({ error: Messages.fieldRequired })
    .trim()
    .min(1, { error: Messages.fieldRequired })
    .max(max, { error: Messages.maxLength(max) });

export const phoneField = z
  .string({ error: Messages.fieldRequired })
  .trim()
  .min(1, { error: Messages.fieldRequired })
  .transform((value, ctx) => {
    const phone = normalizePhone(value);
    if (!phone) {
      ctx.addIssue({ code: 'custom', message: Messages.phoneFormat });
      return z.NEVER;
    }
    return phone;
  });

export const emailField = z
  .string({ error: Messages.fieldRequired })
  .trim()
  .min(1, { error: Messages.fieldRequired })
  .max(255, { error: Messages.maxLength(255) })
  .refine(looksLikeEmail, { error: Messages.invalidEmail })
  .transform((v) => v.toLowerCase());

export const passwordField = z
  .string({ error: Messages.fieldRequired })
  .min(PASSWORD_MIN_LENGTH, { error: Messages.passwordMinLength })
  .max(200, { error: Messages.maxLength(200) });

export const registerAttributes = z
  .object({
    last_name: required(),
    first_name: required(),
    // Required, unless the person ticks 'Нет отчества'.
    middle_name: z
      .string()
      .trim()
      .max(255, { error: Messages.maxLength(255) })
      .optional()
      .default(''),
    no_middle_name: flagField().optional(),
    phone: phoneField,
    email: emailField,
    organization: required(),
    job_title: required(),
    password: passwordField,
    password_confirmation: z.string({ error: Messages.fieldRequired }),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    error: Messages.passwordsDontMatch,
  })
  .refine((v) => (typeof v.middle_name === 'string' && v.middle_name.trim().length > 0) || hasNoMiddleName(v.no_middle_name), {
    path: ['middle_name'],
    error: Messages.fieldRequired,
    // Said together with the other fields' errors, not only once they are right.
    when: () => true,
  });

/** 'Нет отчества' ticked: the patronymic may stay empty. */
export function hasNoMiddleName(value: boolean | number | string | undefined): boolean {
  return value === true || value === 1 || value === '1';
}
export type RegisterAttributes = z.input<typeof registerAttributes>;

/** The JSON-API body of POST /register (spec 01 §7). */
export const registerBody = z.object({
  data: z.object({ type: z.literal('token').optional(), attributes: z.record(z.string(), z.unknown()) }),
});
export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';

/** Everything the submit button needs to be enabled (spec 01 §5). */
export function registrationPasswordReady(password: string, confirmation: string): boolean {
  return password.length >= PASSWORD_MIN_LENGTH && password === confirmation;
}

/** Answer of /login and /register. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_at: string;
}
