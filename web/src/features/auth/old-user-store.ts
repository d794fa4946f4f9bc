import type { OldUser } from '@edu/domain/auth/password-reset';
import { readSessionJson, removeSession, writeSessionJson } from '../../lib/storage';

const KEY = 'oldUser';

/** The old-user lookup result plus what the visitor typed, kept for the confirmation page. */
export interface KeptOldUser {
  user: OldUser;
  email: string;
  phone: string;
  /** Which typed value matched the existing account: it is the one the new password is sent by. */
  matchedBy: 'email' | 'phone';
}

export function keepOldUser(value: KeptOldUser): void {
  writeSessionJson(KEY, value);
}

export function readOldUser(): KeptOldUser | null {
  const value = readSessionJson<KeptOldUser>(KEY);
  return value && value.user && typeof value.user === 'object' ? value : null;
}

export function dropOldUser(): void {
  removeSession(KEY);
}

const DRAFT = 'registerDraft';

/** What was typed on the registration form (never the passwords), kept while the visitor checks an old account. */
export type RegisterDraft = Record<string, string | boolean>;

export function keepRegisterDraft(values: RegisterDraft): void {
  writeSessionJson(DRAFT, Object.fromEntries(Object.entries(values).filter(([k]) => !k.startsWith('password'))));
}

export function takeRegisterDraft(): RegisterDraft | null {
  const value = readSessionJson<RegisterDraft>(DRAFT);
  removeSession(DRAFT);
  return value && typeof value === 'object' ? value : null;
}
