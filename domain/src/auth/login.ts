import { z } from 'zod';
import { flagField } from '../common/bounds.ts';
import { Messages, type AuthCodeValue } from '../common/messages.ts';
import { looksLikeEmail, normalizePhone } from '../common/phone.ts';

export const LoginMessages = {
  // Ours: an empty field asks for what is missing; a wrong one says 'Введите корректный email'.
  loginRequired: 'Введите телефон или e-mail',
  passwordRequired: 'Введите пароль',
} as const;

/** POST /login: `email` holds an e-mail or a phone number (spec 01 §2 Login). */
export const loginBody = z.object({
  email: z
    .string({ error: LoginMessages.loginRequired })
    .trim()
    .min(1, { error: LoginMessages.loginRequired, abort: true })
    .refine((v) => looksLikeEmail(v) || normalizePhone(v) !== null, { error: Messages.invalidEmail }),
  password: z.string({ error: LoginMessages.passwordRequired }).min(1, { error: LoginMessages.passwordRequired }),
  remember: flagField().optional(),
});
export type LoginBody = z.input<typeof loginBody>;

export function isRemember(value: LoginBody['remember']): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

/** Login identifiers: a phone is recognised by digits, an e-mail by '@'. */
export function parseLogin(value: string): { email: string } | { phone: string } {
  const trimmed = value.trim();
  if (trimmed.includes('@')) return { email: trimmed.toLowerCase() };
  const phone = normalizePhone(trimmed);
  return phone ? { phone } : { email: trimmed.toLowerCase() };
}

/** Error body of an auth failure: message plus the numeric code the client maps to a text. */
export interface AuthErrorBody {
  message: string;
  code: AuthCodeValue;
}
