import type { FastifyInstance } from 'fastify';
import { Role } from '@edu/domain/common/codes';
import { AuthCode, authCodeMessages, Messages, type AuthCodeValue } from '@edu/domain/common/messages';
import { parseLogin } from '@edu/domain/auth/login';
import { AppError } from '../../platform/errors.ts';
import { attemptsIn, clearAttempts, recordAttempt } from '../../platform/attempts.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import { findUserByLogin, pendingResets, promoteReset, type UserRow } from './auth-repository.ts';

const authError = (code: AuthCodeValue) => new AppError(401, authCodeMessages[code], { code });

/**
 * Checks a login and password. Wrong passwords are counted per account and per IP; past the limit
 * the answer is 429 before any password is checked. A mailed replacement password also works and
 * becomes the account's password when first used.
 */
export async function checkCredentials(app: FastifyInstance, input: { login: string; password: string; ip: string }): Promise<UserRow> {
  const { perAccount, perIp, windowMinutes } = app.config.loginLimits;
  const login = parseLogin(input.login);
  const accountKey = `login:${'email' in login ? login.email : login.phone}`;
  const ipKey = `login-ip:${input.ip}`;
  if ((await attemptsIn(app.db, accountKey, windowMinutes)) >= perAccount || (await attemptsIn(app.db, ipKey, windowMinutes)) >= perIp) {
    throw new AppError(429, Messages.tooManyAttempts);
  }

  const user = await findUserByLogin(app.db, login);
  if (!user) {
    await recordAttempt(app.db, ipKey, windowMinutes);
    throw authError(AuthCode.userNotFound);
  }
  if (user.deleted_at || user.role === Role.guest || !user.password) {
    await recordAttempt(app.db, ipKey, windowMinutes);
    throw authError(AuthCode.invalid);
  }

  if (await verifyPassword(user.password, input.password)) {
    await clearAttempts(app.db, accountKey);
    return user;
  }
  for (const reset of await pendingResets(app.db, user.id)) {
    if (await verifyPassword(reset.password_hash, input.password)) {
      await promoteReset(app.db, user.id, reset.password_hash);
      await clearAttempts(app.db, accountKey);
      return user;
    }
  }
  await recordAttempt(app.db, accountKey, windowMinutes);
  await recordAttempt(app.db, ipKey, windowMinutes);
  throw authError(AuthCode.wrongPassword);
}
