import type { FastifyInstance } from 'fastify';
import { AuthCode, authCodeMessages, Messages, type AuthCodeValue } from '@edu/domain/common/messages';
import { parseLogin } from '@edu/domain/auth/login';
import { AppError } from '../../platform/errors.ts';
import { revokeUserSessions } from '../../platform/auth.ts';
import { clearAttempts, releaseAttempt, takeAttempt } from '../../platform/attempts.ts';
import { hashPassword, needsRehash, verifyPassword } from '../../platform/passwords.ts';
import { findUserByLogin, pendingResets, promoteReset, upgradePasswordHash, type UserRow } from './auth-repository.ts';
import { isGuest } from '../../platform/access.ts';

const authError = (code: AuthCodeValue) => new AppError(401, authCodeMessages[code], { code });

/**
 * Checks a login and password. Every attempt first takes one from the account's and the IP's budget
 * (atomically, in PostgreSQL), so parallel guesses cannot slip past the limit; past it the answer is
 * 429 before any password is checked. A right password gives the attempts back. A mailed replacement
 * password also works and becomes the account's password when first used (ending other sessions).
 * An imported account's old bcrypt hash is checked as it is and replaced by ours at its first login.
 */
export async function checkCredentials(app: FastifyInstance, input: { login: string; password: string; ip: string }): Promise<UserRow> {
  const { perAccount, perIp, windowMinutes } = app.config.loginLimits;
  const login = parseLogin(input.login);
  const accountKey = `login:${'email' in login ? login.email : login.phone}`;
  const ipKey = `login-ip:${input.ip}`;
  const accountOk = await takeAttempt(app.db, accountKey, perAccount, windowMinutes);
  const ipOk = await takeAttempt(app.db, ipKey, perIp, windowMinutes);
  if (!accountOk || !ipOk) throw new AppError(429, Messages.tooManyAttempts);

  const user = await findUserByLogin(app.db, login);
  if (!user) throw authError(AuthCode.userNotFound);
  if (user.deleted_at || isGuest(user) || !user.password) throw authError(AuthCode.invalid);

  const succeed = async () => {
    await clearAttempts(app.db, accountKey);
    await releaseAttempt(app.db, ipKey);
    return user;
  };
  if (await verifyPassword(user.password, input.password)) {
    // An account brought from the old cabinet signs in with its bcrypt hash once; then it is ours.
    if (needsRehash(user.password)) await upgradePasswordHash(app.db, user.id, user.password, await hashPassword(input.password));
    return succeed();
  }
  for (const reset of await pendingResets(app.db, user.id)) {
    if (await verifyPassword(reset.password_hash, input.password)) {
      await promoteReset(app.db, user.id, reset.password_hash);
      await revokeUserSessions(app.db, user.id);
      return succeed();
    }
  }
  throw authError(AuthCode.wrongPassword);
}
