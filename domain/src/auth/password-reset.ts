import { z } from 'zod';
import { emailField, passwordField, phoneField } from './register.ts';
import { dataAnswer } from '../common/answers.ts';

/**
 * POST /password-forgot, body {data: {email}} (or {data: {phone}} from the old-user confirmation page).
 * A new password is generated and mailed; it replaces the old one when first used.
 */
export const passwordForgotBody = z.object({
  data: z.union([z.object({ email: emailField }), z.object({ phone: phoneField })]),
});

/** POST /password-reset, body {data: {attributes: {email, password}}}: confirms the mailed password. */
export const passwordResetBody = z.object({
  data: z.object({ attributes: z.object({ email: emailField, password: passwordField }) }),
});

/** Answer of POST /api/old-user: the account that already holds the e-mail or phone, masked. */
export const oldUserSchema = z.object({
  id: z.number().int(),
  fio: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  created_at_formatted: z.string(),
});
export type OldUser = z.output<typeof oldUserSchema>;
/** POST /api/old-user: the account, masked. */
export const oldUserAnswer = dataAnswer(oldUserSchema);
