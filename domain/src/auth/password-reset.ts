import { z } from 'zod';
import { emailField, passwordField, phoneField } from './register.ts';

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
export interface OldUser {
  id: number;
  fio: string;
  email: string;
  phone: string | null;
  created_at_formatted: string;
}
