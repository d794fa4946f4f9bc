import { z } from 'zod';
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
    middle_name: required(),
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
  });
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
