import { AuthCode, authCodeMessages, Messages, type AuthCodeValue } from '@edu/domain/common/messages';
import { LoginMessages } from '@edu/domain/auth/login';
import { isApiError } from '../../../lib/api-client';

export interface LoginProblem {
  message: string;
  link?: { to: string; label: string };
}

/** Maps a failed login to the text of spec 01 §8. */
export function loginProblem(error: unknown): LoginProblem {
  if (!isApiError(error)) return { message: Messages.serverError };
  if (error.status === 422) {
    // A wrong login says so; only missing fields get 'Заполните все обязательные поля!'.
    const emailErrors = error.errors?.email ?? [];
    const wrongEmail = emailErrors.length > 0 && !emailErrors.includes(LoginMessages.loginRequired);
    return { message: wrongEmail ? Messages.invalidEmail : Messages.required };
  }
  const code = error.code as AuthCodeValue | undefined;
  if (code !== undefined && code in authCodeMessages) {
    const message = authCodeMessages[code];
    if (code === AuthCode.userNotFound) return { message, link: { to: '/register', label: 'Пройти регистрацию' } };
    if (code === AuthCode.wrongPassword) return { message, link: { to: '/password/reset', label: 'Восстановить пароль' } };
    return { message };
  }
  return { message: error.message || Messages.serverError };
}
