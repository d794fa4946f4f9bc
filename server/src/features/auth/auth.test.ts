import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AuthCode, Messages } from '@edu/domain/common/messages';
import { LoginMessages } from '@edu/domain/auth/login';
import { users } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginLimits: { perAccount: 5, perIp: 12, windowMinutes: 15 } });
});
afterAll(() => t.close());

const attributes = (over: Record<string, unknown> = {}) => ({
  last_name: 'Кузнецова',
  first_name: 'Ольга',
  middle_name: 'Игоревна',
  phone: '+7 (912) 345-67-89',
  email: 'Olga.K@example.com',
  organization: 'МБОУ СОШ № 5',
  job_title: 'Учитель начальных классов',
  password: 'parol123',
  password_confirmation: 'parol123',
  ...over,
});

const register = (attrs: Record<string, unknown>, ip = '10.0.0.1') =>
  t.inject({
    method: 'POST',
    url: '/register',
    headers: { 'content-type': 'application/vnd.api+json' },
    payload: JSON.stringify({ data: { type: 'token', attributes: attrs } }),
    remoteAddress: ip,
  });

const login = (email: string, password: string, extra: Record<string, unknown> = {}, ip = '10.0.0.2') =>
  t.inject({ method: 'POST', url: '/login', payload: { email, password, ...extra }, remoteAddress: ip });

describe('csrf cookie', () => {
  it('answers 204 with a cookie', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/v1/sanctum/csrf-cookie' });
    expect(res.statusCode).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(/^XSRF-TOKEN=/);
  });
});

describe('registration', () => {
  it('creates the user, answers a working token and mails the welcome letter (event 1)', async () => {
    const res = await register(attributes());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.token_type).toBe('Bearer');
    const me = await t.inject({ method: 'GET', url: '/api/get', headers: { authorization: `Bearer ${body.access_token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: 'olga.k@example.com',
      phone: '+7 (912) 345-67-89',
      fio: 'Кузнецова Ольга Игоревна',
      role: 2,
      role_label: 'Пользователь',
      initials: 'ОК',
      entries_num: 0,
      left_sum: 0,
      profiles: [],
    });
    const [row] = await t.database.db.select().from(users).where(eq(users.email, 'olga.k@example.com'));
    expect(row.password).toMatch(/^\$argon2id\$/);
    // The welcome event is delivered by the durable jobs after the commit.
    await t.app.jobs.runDue();
    const notes = (await t.inject({ method: 'GET', url: '/api/notification', headers: { authorization: `Bearer ${body.access_token}` } })).json();
    expect(notes.data[0].text_clear).toContain('Добро пожаловать в личный кабинет, Ольга!');
    const mail = await t.smtp.waitFor((m) => m.to !== undefined && JSON.stringify(m.to).includes('olga.k@example.com'));
    expect(mail.subject).toBe('Добро пожаловать в личный кабинет!');
    expect(mail.html || mail.text).toContain('Кузнецова Ольга Игоревна');
  });

  it('accepts plain JSON too', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/register',
      payload: { data: { type: 'token', attributes: attributes({ email: 'plain@example.com', phone: '89120000001' }) } },
    });
    expect(res.statusCode).toBe(201);
  });

  it('registers a person without a patronymic who ticks "Нет отчества", and no one else', async () => {
    const without = await register(attributes({ middle_name: '', email: 'no-middle@example.com', phone: '+7 (912) 000-11-22' }));
    expect(without.statusCode).toBe(422);
    expect(without.json().errors.middle_name).toEqual([Messages.fieldRequired]);
    const ticked = await register(attributes({ middle_name: '', no_middle_name: true, email: 'no-middle@example.com', phone: '+7 (912) 000-11-22' }));
    expect(ticked.statusCode).toBe(201);
    const me = (await t.inject({ method: 'GET', url: '/api/get', headers: { authorization: `Bearer ${ticked.json().access_token}` } })).json();
    expect(me.middle_name).toBeNull();
    expect(me.fio).toBe('Кузнецова Ольга');
    // The tick is a flag like every other (issue 19): 'true' and 1 count, anything else is named.
    const asText = await register(attributes({ middle_name: '', no_middle_name: 'true', email: 'no-middle-2@example.com', phone: '+7 (912) 000-11-23' }));
    expect(asText.statusCode).toBe(201);
    const odd = await register(attributes({ middle_name: '', no_middle_name: 'maybe', email: 'no-middle-3@example.com', phone: '+7 (912) 000-11-24' }));
    expect(odd.statusCode).toBe(422);
    expect(odd.json().errors.no_middle_name).toEqual(['Ожидается да или нет']);
  });

  it('requires every field, with a Russian message per field', async () => {
    const res = await register({});
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.message).toBe(Messages.required);
    for (const f of ['last_name', 'first_name', 'middle_name', 'phone', 'email', 'organization', 'job_title', 'password', 'password_confirmation']) {
      expect(body.errors[f], f).toBeDefined();
    }
  });

  it('checks phone format, e-mail, password length and confirmation', async () => {
    const res = await register(attributes({ phone: '12345', email: 'not-an-email', password: 'abc', password_confirmation: 'abd' }));
    expect(res.statusCode).toBe(422);
    const { errors } = res.json();
    expect(errors.phone).toEqual([Messages.phoneFormat]);
    expect(errors.email).toEqual([Messages.invalidEmail]);
    expect(errors.password).toEqual([Messages.passwordMinLength]);
    const mismatch = await register(attributes({ email: 'm@example.com', phone: '+7 (900) 111-11-11', password_confirmation: 'other123' }));
    expect(mismatch.json().errors.password_confirmation).toEqual([Messages.passwordsDontMatch]);
  });

  it('refuses a duplicate e-mail (any case) or phone (any spelling) with the message that leads to the old-user lookup', async () => {
    const byEmail = await register(attributes({ email: 'OLGA.K@example.com', phone: '+7 (999) 000-00-77' }));
    expect(byEmail.statusCode).toBe(422);
    expect(byEmail.json()).toEqual({ message: Messages.duplicateAccount, errors: { email: [Messages.emailTaken] } });
    const byPhone = await register(attributes({ email: 'other@example.com', phone: '8 912 345 67 89' }));
    expect(byPhone.json()).toEqual({ message: Messages.duplicateAccount, errors: { phone: [Messages.phoneTaken] } });
  });

  it('lets exactly one of two racing registrations with one e-mail win', async () => {
    const [a, b] = await Promise.all([
      register(attributes({ email: 'race@example.com', phone: '+7 (901) 000-00-01' })),
      register(attributes({ email: 'race@example.com', phone: '+7 (901) 000-00-02' })),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 422]);
    const loser = a.statusCode === 422 ? a : b;
    expect(loser.json().message).toBe(Messages.duplicateAccount);
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await t.inject({ method: 'POST', url: '/register', headers: { 'content-type': 'application/vnd.api+json' }, payload: '{"data":' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBeTruthy();
  });
});

describe('old-user lookup', () => {
  it('finds the account by e-mail or phone and shows it masked', async () => {
    const res = await t.inject({ method: 'POST', url: '/api/old-user', payload: attributes({ email: 'olga.k@example.com', phone: '' }) });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.fio).toBe('К. О. И.');
    expect(data.email).toBe('o*****@example.com');
    expect(data.phone).toBe('+7 (9**) ***-**-89');
    const byPhone = await t.inject({ method: 'POST', url: '/api/old-user', payload: { data: { attributes: { phone: '+7 (912) 345-67-89' } } } });
    expect(byPhone.json().data.id).toBe(data.id);
  });

  it('answers 404 for an unknown account', async () => {
    const res = await t.inject({ method: 'POST', url: '/api/old-user', payload: { email: 'nobody@example.com' } });
    expect(res.statusCode).toBe(404);
  });
});

describe('login', () => {
  it('logs in by e-mail and by phone in any spelling; remember decides the lifetime', async () => {
    const u = await t.createUser({ password: 'pass-1' });
    const short = await login(u.email.toUpperCase(), 'pass-1');
    expect(short.statusCode).toBe(200);
    const hours = (Date.parse(short.json().expires_at) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(11);
    expect(hours).toBeLessThan(13);
    const digits = u.phone.replace(/\D/g, '').replace(/^7/, '8');
    const long = await login(digits, 'pass-1', { remember: true });
    expect(long.statusCode).toBe(200);
    const days = (Date.parse(long.json().expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    // remember is a flag like every other (issue 19).
    expect((await login(u.email, 'pass-1', { remember: 1 })).statusCode).toBe(200);
    const odd = await login(u.email, 'pass-1', { remember: 'maybe' });
    expect(odd.statusCode).toBe(422);
    expect(odd.json().errors.remember).toEqual(['Ожидается да или нет']);
  });

  it('answers 422 with the e-mail message for a login that is neither e-mail nor phone', async () => {
    const res = await login('abc', 'x');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email).toEqual([Messages.invalidEmail]);
    // An empty login asks for the login, not for a correct e-mail.
    const none = await login('', '');
    expect(none.json().errors).toEqual({ email: [LoginMessages.loginRequired], password: [LoginMessages.passwordRequired] });
    const empty = await t.inject({ method: 'POST', url: '/login', payload: { email: 'a@example.com' } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toBe(Messages.required);
  });

  it('answers code 531 for an unknown user and 532 for a wrong password', async () => {
    const unknown = await login('missing@example.com', 'whatever');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: Messages.authUserNotFound, code: AuthCode.userNotFound });
    const u = await t.createUser({ password: 'right' });
    const wrong = await login(u.email, 'wrong');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: Messages.authWrongPassword, code: AuthCode.wrongPassword });
  });

  it('answers code 500 for a deleted account or a guest', async () => {
    const deleted = await t.createUser({ password: 'p4ss', deleted_at: new Date() });
    expect((await login(deleted.email, 'p4ss')).json()).toEqual({ message: Messages.authInvalid, code: AuthCode.invalid });
    const guest = await t.createUser({ password: 'p4ss', role: 3 });
    expect((await login(guest.email, 'p4ss')).json().code).toBe(AuthCode.invalid);
  });

  it('refuses a burst of wrong passwords for one account, even the right one, without locking out others', async () => {
    const victim = await t.createUser({ password: 'correct' });
    const other = await t.createUser({ password: 'correct' });
    for (let i = 0; i < 5; i++) expect((await login(victim.email, `bad${i}`, {}, `10.1.0.${i}`)).statusCode).toBe(401);
    const blocked = await login(victim.email, 'correct', {}, '10.1.0.99');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(Messages.tooManyAttempts);
    expect((await login(other.email, 'correct', {}, '10.1.0.1')).statusCode).toBe(200);
  });

  it('refuses one IP that tries many accounts, and only that IP', async () => {
    const u = await t.createUser({ password: 'correct' });
    for (let i = 0; i < 12; i++) await login(`nobody${i}@example.com`, 'x', {}, '10.9.9.9');
    expect((await login(u.email, 'correct', {}, '10.9.9.9')).statusCode).toBe(429);
    expect((await login(u.email, 'correct', {}, '10.9.9.8')).statusCode).toBe(200);
  });
});

describe('session', () => {
  it('GET /api/get needs a valid token', async () => {
    expect((await t.inject({ method: 'GET', url: '/api/get' })).statusCode).toBe(401);
    expect((await t.inject({ method: 'GET', url: '/api/get', headers: { authorization: 'Bearer nonsense' } })).statusCode).toBe(401);
  });

  it('logout revokes the token', async () => {
    const u = await t.createUser({ password: 'pw12' });
    const token = (await login(u.email, 'pw12')).json().access_token;
    const headers = { authorization: `Bearer ${token}` };
    expect((await t.inject({ method: 'GET', url: '/api/get', headers })).statusCode).toBe(200);
    expect((await t.inject({ method: 'POST', url: '/logout', headers })).statusCode).toBe(204);
    expect((await t.inject({ method: 'GET', url: '/api/get', headers })).statusCode).toBe(401);
    expect((await t.inject({ method: 'POST', url: '/logout', headers })).statusCode).toBe(401);
  });

  it('a deleted user loses the session', async () => {
    const u = await t.createUser();
    const headers = await t.loginAs(u);
    await t.database.db.update(users).set({ deleted_at: new Date() }).where(eq(users.id, u.id));
    expect((await t.inject({ method: 'GET', url: '/api/get', headers })).statusCode).toBe(401);
  });
});

describe('password forgot and reset', () => {
  it('refuses an unknown e-mail with the not-found message on the field', async () => {
    const res = await t.inject({ method: 'POST', url: '/password-forgot', payload: { data: { email: 'ghost@example.com' } } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: Messages.emailNotFound, errors: { email: [Messages.emailNotFound] } });
  });

  it('mails a new password; the old one works until the new one is used', async () => {
    const u = await t.createUser({ password: 'old-password' });
    const res = await t.inject({ method: 'POST', url: '/password-forgot', payload: { data: { email: u.email } } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(Messages.passwordSent);
    const mail = await t.smtp.waitFor((m) => JSON.stringify(m.to).includes(u.email));
    const newPassword = /новый пароль:\s*<b>([A-Za-z0-9]+)<\/b>/.exec(String(mail.html))?.[1];
    expect(newPassword, String(mail.html)).toMatch(/^[A-Za-z0-9]{10}$/);
    expect((await login(u.email, 'old-password')).statusCode).toBe(200);
    const confirm = await t.inject({ method: 'POST', url: '/password-reset', payload: { data: { attributes: { email: u.email, password: newPassword } } } });
    expect(confirm.statusCode).toBe(200);
    expect((await login(u.email, newPassword!)).statusCode).toBe(200);
    expect((await login(u.email, 'old-password')).statusCode).toBe(401);
  });

  it('finds the account by phone from the old-user confirmation page', async () => {
    const u = await t.createUser();
    const res = await t.inject({ method: 'POST', url: '/password-forgot', payload: { data: { phone: u.phone } } });
    expect(res.statusCode).toBe(200);
  });

  it('limits password mails per account', async () => {
    const u = await t.createUser();
    for (let i = 0; i < 5; i++)
      expect((await t.inject({ method: 'POST', url: '/password-forgot', payload: { data: { email: u.email } } })).statusCode).toBe(200);
    expect((await t.inject({ method: 'POST', url: '/password-forgot', payload: { data: { email: u.email } } })).statusCode).toBe(429);
  });

  it('limits password mails per IP address as registrations are, found accounts or not', async () => {
    const forgot = (email: string) => t.inject({ method: 'POST', url: '/password-forgot', payload: { data: { email } }, remoteAddress: '10.0.9.9' });
    const limit = t.app.config.registerLimitPerIp;
    for (let i = 0; i < limit; i++) expect((await forgot(`nobody-${i}@example.com`)).statusCode).toBe(422);
    const u = await t.createUser();
    const refused = await forgot(u.email);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(Messages.tooManyRequests);
    // Another address is not held back.
    expect((await t.inject({ method: 'POST', url: '/password-forgot', payload: { data: { email: u.email } }, remoteAddress: '10.0.9.10' })).statusCode).toBe(
      200,
    );
  });

  it('password-reset with a wrong password is a 532-style refusal and counts as a failed attempt', async () => {
    const u = await t.createUser({ password: 'keep-me' });
    const res = await t.inject({ method: 'POST', url: '/password-reset', payload: { data: { attributes: { email: u.email, password: 'guess' } } } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(AuthCode.wrongPassword);
  });
});
