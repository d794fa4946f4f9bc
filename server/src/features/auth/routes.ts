import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { noContent, parsedBody, type RoutesPlugin } from '../../platform/responses.ts';
import { EventId } from '@edu/domain/common/codes';
import { formatDate } from '@edu/domain/common/format';
import { Messages } from '@edu/domain/common/messages';
import { isRemember, loginBody } from '@edu/domain/auth/login';
import { emailField, phoneField, registerAttributes, registerBody } from '@edu/domain/auth/register';
import { messageAnswer } from '@edu/domain/common/answers';
import { oldUserAnswer, passwordForgotBody, passwordResetBody, type OldUser } from '@edu/domain/auth/password-reset';
import { createSession, currentUser, revokeSession } from '../../platform/auth.ts';
import { attemptsIn, recordAttempt, takeAttempt } from '../../platform/attempts.ts';
import { AppError, fieldError, notFound, validationError } from '../../platform/errors.ts';
import { raiseEvent } from '../../platform/events.ts';
import { logChange } from '../../platform/change-log.ts';
import { generatePassword, hashPassword } from '../../platform/passwords.ts';
import { checkCredentials } from './login.ts';
import { findUserByLogin, findUsersByEmailOrPhone, insertPasswordReset, insertUser } from './auth-repository.ts';
import { sendEventMailNow } from '../events/event-mail-now.ts';
import { defaultAccess } from '../../platform/access.ts';

/** The document's form of the registration body: the attributes are read with registerAttributes. */
const registerForm = parsedBody(registerBody.extend({ data: registerBody.shape.data.extend({ attributes: registerAttributes }) }), [
  'application/vnd.api+json',
  'application/json',
]);

const tokenAnswer = z.object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_at: z.string() });
const PASSWORD_MAIL_LIMIT = 5;
const PASSWORD_MAIL_WINDOW_MIN = 60;
const RESET_VALID_HOURS = 24;

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** a***@example.com, +7 (9**) ***-**-12: enough to recognise one's own account, not to harvest it. */
function maskEmail(email: string): string {
  const [name, domain] = email.split('@');
  return `${name.charAt(0)}${'*'.repeat(Math.max(2, name.length - 1))}@${domain}`;
}
function maskPhone(phone: string | null): string | null {
  return phone ? phone.replace(/^(\+7 \(\d)\d\d\) \d{3}-\d{2}/, '$1**) ***-**') : null;
}
/** Смирнова Анна Сергеевна -> С. А. С.: the owner recognises it, a stranger learns nothing. */
function maskName(u: { last_name: string; first_name: string; middle_name: string | null }): string {
  return [u.last_name, u.first_name, u.middle_name]
    .map((p) => p?.trim().charAt(0).toLocaleUpperCase('ru-RU'))
    .filter(Boolean)
    .map((c) => `${c}.`)
    .join(' ');
}

const ANONYMOUS_WINDOW_MIN = 15;

export const authRoutes: RoutesPlugin = async (app) => {
  // Signing in, registering and recovering a password need no session; /logout declares its own.
  defaultAccess(app, 'public');
  /** GET /api/v1/sanctum/csrf-cookie. Sessions are Bearer tokens, so no CSRF token is needed; the call is kept for the client and sets a harmless cookie. */
  app.get(
    '/api/v1/sanctum/csrf-cookie',
    { schema: { tags: ['auth'], summary: 'Cookie CSRF для совместимости со старым клиентом', response: { 204: noContent } } },
    async (_request, reply) => {
      reply.header('set-cookie', `XSRF-TOKEN=${randomBytes(16).toString('hex')}; Path=/; SameSite=Lax`);
      return reply.status(204).send();
    },
  );

  app.post(
    '/login',
    {
      config: { refuses: [401, 429, 503] },
      schema: { tags: ['auth'], summary: 'Вход по логину и паролю: токен сессии', body: loginBody, response: { 200: tokenAnswer } },
    },
    async (request, reply) => {
      const user = await checkCredentials(app, { login: request.body.email, password: request.body.password, ip: request.ip });
      reply.header('cache-control', 'no-store');
      return createSession(app.db, { userId: user.id, remember: isRemember(request.body.remember), ip: request.ip, userAgent: request.headers['user-agent'] });
    },
  );

  /** POST /register: at most REGISTER_LIMIT_PER_IP attempts per IP (default 20) in 15 minutes, like the other anonymous forms. */
  app.post(
    '/register',
    {
      config: { refuses: [429, 503] },
      schema: { tags: ['auth'], summary: 'Регистрация нового пользователя', body: registerBody, form: registerForm, response: { 201: tokenAnswer } },
    },
    async (request, reply) => {
      if (!(await takeAttempt(app.db, `register:${request.ip}`, app.config.registerLimitPerIp, ANONYMOUS_WINDOW_MIN)))
        throw new AppError(429, Messages.tooManyRequests);
      const parsed = registerAttributes.safeParse(request.body.data.attributes);
      if (!parsed.success) throw parsed.error;
      const a = parsed.data;
      const taken = await findUsersByEmailOrPhone(app.db, a.email, a.phone);
      if (taken.length > 0) {
        const errors: Record<string, string[]> = {};
        if (taken.some((u) => u.email.toLowerCase() === a.email)) errors.email = [Messages.emailTaken];
        if (taken.some((u) => u.phone === a.phone)) errors.phone = [Messages.phoneTaken];
        throw validationError(errors, Messages.duplicateAccount);
      }
      const password = await hashPassword(a.password);
      let userId: number;
      try {
        userId = await app.db.transaction(async (tx) => {
          const person = {
            email: a.email,
            phone: a.phone,
            last_name: a.last_name,
            first_name: a.first_name,
            middle_name: a.middle_name || null,
            organization: a.organization,
            job_title: a.job_title,
          };
          const row = await insertUser(tx, { ...person, password });
          // The person's own data, as given: the change log's first row of the account (152-FZ).
          await logChange(tx, { type: 'user', entityId: row.id, userId: row.id, before: null, after: person });
          // The welcome event (id 1): its mail and notification go out after the commit.
          await raiseEvent(tx, { eventId: EventId.welcome, userId: row.id });
          return row.id;
        });
      } catch (err) {
        // Two registrations racing for one e-mail or phone: the loser gets the duplicate answer.
        if (isUniqueViolation(err)) throw validationError({ email: [Messages.emailTaken] }, Messages.duplicateAccount);
        throw err;
      }
      const session = await createSession(app.db, { userId, remember: false, ip: request.ip, userAgent: request.headers['user-agent'] });
      return reply.status(201).header('cache-control', 'no-store').send(session);
    },
  );

  app.post(
    '/logout',
    { config: { access: 'user' }, schema: { tags: ['auth'], summary: 'Выход: завершить текущую сессию', response: { 204: noContent } } },
    async (request, reply) => {
      await revokeSession(app.db, currentUser(request).tokenId);
      return reply.status(204).send();
    },
  );

  /** POST /api/old-user: the existing account holding the e-mail or phone of a failed registration, masked. */
  app.post(
    '/api/old-user',
    {
      config: { refuses: [404, 429] },
      schema: {
        tags: ['auth'],
        summary: 'Найти прежний аккаунт с теми же e-mail или телефоном',
        body: z
          .object({
            email: z.string().optional(),
            phone: z.string().optional(),
            data: z.object({ attributes: z.object({ email: z.string().optional(), phone: z.string().optional() }).loose() }).optional(),
          })
          .loose(),
        response: { 200: oldUserAnswer },
      },
    },
    async (request) => {
      const key = `old-user:${request.ip}`;
      if ((await attemptsIn(app.db, key, 15)) >= 30) throw new AppError(429, Messages.tooManyRequests);
      await recordAttempt(app.db, key, 15);
      const attrs = request.body.data?.attributes ?? request.body;
      const email = attrs.email ? emailField.safeParse(attrs.email).data : undefined;
      const phone = attrs.phone ? phoneField.safeParse(attrs.phone).data : undefined;
      const [user] = (await findUsersByEmailOrPhone(app.db, email, phone)).filter((u) => !u.deleted_at);
      if (!user) throw notFound(Messages.authUserNotFound);
      const data: OldUser = {
        id: user.id,
        fio: maskName(user),
        email: maskEmail(user.email),
        phone: maskPhone(user.phone),
        created_at_formatted: formatDate(user.created_at),
      };
      return { data };
    },
  );

  /**
   * POST /password-forgot: a new password is generated and mailed; the old one works until the new one
   * is used. Limited per account (PASSWORD_MAIL_LIMIT) and, like /register, per IP address: every
   * request counts, found or not, so one address can neither flood mailboxes nor try many logins.
   */
  app.post(
    '/password-forgot',
    {
      config: { refuses: [429, 503] },
      schema: { tags: ['auth'], summary: 'Выслать новый пароль на почту', body: passwordForgotBody, response: { 200: messageAnswer } },
    },
    async (request) => {
      if (!(await takeAttempt(app.db, `password-mail-ip:${request.ip}`, app.config.registerLimitPerIp, ANONYMOUS_WINDOW_MIN)))
        throw new AppError(429, Messages.tooManyRequests);
      const login = 'email' in request.body.data ? { email: request.body.data.email } : { phone: request.body.data.phone };
      const user = await findUserByLogin(app.db, login);
      if (!user || user.deleted_at) throw fieldError('email', Messages.emailNotFound, Messages.emailNotFound);
      const key = `password-mail:${user.id}`;
      if ((await attemptsIn(app.db, key, PASSWORD_MAIL_WINDOW_MIN)) >= PASSWORD_MAIL_LIMIT) throw new AppError(429, Messages.tooManyRequests);
      await recordAttempt(app.db, key, PASSWORD_MAIL_WINDOW_MIN);
      const password = generatePassword();
      await insertPasswordReset(app.db, {
        user_id: user.id,
        email: user.email,
        password_hash: await hashPassword(password),
        expires_at: new Date(Date.now() + RESET_VALID_HOURS * 3600 * 1000),
      });
      const sent = await sendEventMailNow(app, EventId.passwordForgot, user, { password });
      if (!sent) throw new AppError(503, 'Не удалось отправить письмо. Попробуйте позже.');
      return { message: Messages.passwordSent };
    },
  );

  /** POST /password-reset: confirms the mailed password (it becomes the account's password); the client then logs in. */
  app.post(
    '/password-reset',
    {
      config: { refuses: [429, 503] },
      schema: { tags: ['auth'], summary: 'Подтвердить высланный пароль', body: passwordResetBody, response: { 200: messageAnswer } },
    },
    async (request) => {
      const { email, password } = request.body.data.attributes;
      await checkCredentials(app, { login: email, password, ip: request.ip });
      return { message: Messages.passwordUpdated };
    },
  );
};
