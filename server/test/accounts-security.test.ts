import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages } from '@edu/domain/common/messages';
import { ProfileMessages } from '@edu/domain/users/profile';
import { createTestApp, type TestApp } from './helper.ts';
import { makeService } from './fixtures.ts';

// Issue 8, accounts and sessions: each test here failed before its fix.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ loginLimits: { perAccount: 10, perIp: 1000, windowMinutes: 15 } });
});
afterAll(() => t.close());

const profile = (over: Record<string, unknown> = {}) => ({
  email: 'kept@example.com',
  phone: '+7 (921) 555-44-33',
  organization: 'Гимназия № 2',
  job_title: 'Методист',
  ...over,
});

describe('login limits under concurrency', () => {
  it('30 parallel wrong passwords against a limit of 10: at most 10 are checked, the rest are 429', async () => {
    const u = await t.createUser({ password: 'right-one' });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.inject({ method: 'POST', url: '/login', payload: { email: u.email, password: `wrong-${i}` }, remoteAddress: `10.8.0.${i}` }),
      ),
    );
    const checked = answers.filter((r) => r.statusCode === 401).length;
    const refused = answers.filter((r) => r.statusCode === 429).length;
    expect(checked).toBeLessThanOrEqual(10);
    expect(checked + refused).toBe(30);
    expect(answers.find((r) => r.statusCode === 429)?.json().message).toBe(Messages.tooManyAttempts);
  });

  it('a right password still resets the account counter', async () => {
    const u = await t.createUser({ password: 'right-one' });
    for (let i = 0; i < 9; i++) await t.inject({ method: 'POST', url: '/login', payload: { email: u.email, password: 'nope' } });
    expect((await t.inject({ method: 'POST', url: '/login', payload: { email: u.email, password: 'right-one' } })).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) await t.inject({ method: 'POST', url: '/login', payload: { email: u.email, password: 'nope' } });
    expect((await t.inject({ method: 'POST', url: '/login', payload: { email: u.email, password: 'right-one' } })).statusCode).toBe(200);
  });
});

describe('changing one\u2019s own password or e-mail', () => {
  it('a password change asks for the current password and ends the other sessions', async () => {
    const u = await t.createUser({ password: 'old-secret' });
    const here = await t.loginAs(u);
    const elsewhere = await t.loginAs(u);
    const missing = await t.inject({
      method: 'POST',
      url: `/api/user/${u.id}/change-password`,
      headers: here,
      payload: { password: 'new-secret', password_confirmation: 'new-secret' },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.current_password).toEqual([ProfileMessages.currentPasswordRequired]);
    const wrong = await t.inject({
      method: 'POST',
      url: `/api/user/${u.id}/change-password`,
      headers: here,
      payload: { current_password: 'guess', password: 'new-secret', password_confirmation: 'new-secret' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.current_password).toEqual([ProfileMessages.currentPasswordWrong]);
    const ok = await t.inject({
      method: 'POST',
      url: `/api/user/${u.id}/change-password`,
      headers: here,
      payload: { current_password: 'old-secret', password: 'new-secret', password_confirmation: 'new-secret' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/get', headers: here })).statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/get', headers: elsewhere })).statusCode).toBe(401);
  });

  it('wrong current passwords are limited like logins', async () => {
    const u = await t.createUser({ password: 'old-secret' });
    const h = await t.loginAs(u);
    let last = 0;
    for (let i = 0; i < 11; i++) {
      last = (
        await t.inject({
          method: 'POST',
          url: `/api/user/${u.id}/change-password`,
          headers: h,
          payload: { current_password: `guess-${i}`, password: 'new-secret', password_confirmation: 'new-secret' },
        })
      ).statusCode;
    }
    expect(last).toBe(429);
  });

  it('an operator sets another user\u2019s password without theirs, and that user\u2019s sessions end', async () => {
    const u = await t.createUser({ password: 'old-secret' });
    const theirs = await t.loginAs(u);
    const op = await t.loginAs(await t.createUser({ role: 1 }));
    const res = await t.inject({
      method: 'POST',
      url: `/api/user/${u.id}/change-password`,
      headers: op,
      payload: { password: 'set-by-op', password_confirmation: 'set-by-op' },
    });
    expect(res.statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/get', headers: theirs })).statusCode).toBe(401);
  });

  it('an e-mail change asks for the current password; other fields do not', async () => {
    const u = await t.createUser({ password: 'mail-secret', email: `own-${Date.now()}@example.com` });
    const h = await t.loginAs(u);
    const same = await t.inject({ method: 'PUT', url: `/api/user/${u.id}`, headers: h, payload: profile({ email: u.email, organization: 'Лицей № 7' }) });
    expect(same.statusCode).toBe(200);
    const noPassword = await t.inject({ method: 'PUT', url: `/api/user/${u.id}`, headers: h, payload: profile({ email: 'stolen@example.com' }) });
    expect(noPassword.statusCode).toBe(422);
    expect(noPassword.json().errors.current_password).toEqual([ProfileMessages.currentPasswordRequired]);
    const wrong = await t.inject({
      method: 'PUT',
      url: `/api/user/${u.id}`,
      headers: h,
      payload: profile({ email: 'stolen@example.com', current_password: 'guess' }),
    });
    expect(wrong.json().errors.current_password).toEqual([ProfileMessages.currentPasswordWrong]);
    const ok = await t.inject({
      method: 'PUT',
      url: `/api/user/${u.id}`,
      headers: h,
      payload: profile({ email: 'moved@example.com', current_password: 'mail-secret' }),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.email).toBe('moved@example.com');
  });

  it('a mailed password, once used, ends the other sessions', async () => {
    const u = await t.createUser({ password: 'forgotten' });
    const old = await t.loginAs(u);
    const forgot = await t.inject({ method: 'POST', url: '/password-forgot', payload: { data: { email: u.email } } });
    expect(forgot.statusCode).toBe(200);
    const mail = await t.smtp.waitFor((m) => m.to !== undefined && JSON.stringify(m.to).includes(u.email));
    const password = /[A-Za-z0-9]{8,}/.exec(
      String(mail.text)
        .split(/пароль/i)
        .slice(1)
        .join(' '),
    )?.[0];
    expect(password).toBeTruthy();
    const reset = await t.inject({ method: 'POST', url: '/password-reset', payload: { data: { attributes: { email: u.email, password } } } });
    expect(reset.statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/get', headers: old })).statusCode).toBe(401);
  });
});

describe('other people\u2019s data', () => {
  it('GET /api/service?userId= honours another user\u2019s id for operators only', async () => {
    const s = await makeService(t.database.db, { title: 'Курс, на который записан только Иванов', price: 0 });
    const ivanov = await t.createUser();
    await t.inject({ method: 'POST', url: '/api/entry', headers: await t.loginAs(ivanov), payload: { service_id: s.id, pay_type: 3 } });
    const curious = await t.createUser();
    const asUser = await t.inject({ method: 'GET', url: `/api/service?userId=${ivanov.id}`, headers: await t.loginAs(curious) });
    expect(asUser.statusCode).toBe(200);
    expect(asUser.json().data.map((x: { id: number }) => x.id)).not.toContain(s.id);
    const own = await t.inject({ method: 'GET', url: `/api/service?userId=${ivanov.id}`, headers: await t.loginAs(ivanov) });
    expect(own.json().data.map((x: { id: number }) => x.id)).toContain(s.id);
    const asOperator = await t.inject({ method: 'GET', url: `/api/service?userId=${ivanov.id}`, headers: await t.loginAs(await t.createUser({ role: 1 })) });
    expect(asOperator.json().data.map((x: { id: number }) => x.id)).toContain(s.id);
  });

  it('the old-user lookup shows the surname initial and initials, not the full name', async () => {
    const u = await t.createUser({ last_name: 'Смирнова', first_name: 'Анна', middle_name: 'Сергеевна' });
    const res = await t.inject({ method: 'POST', url: '/api/old-user', payload: { email: u.email }, remoteAddress: '10.9.9.9' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.fio).toBe('С. А. С.');
    expect(res.body).not.toContain('Смирнова');
  });
});

describe('anonymous forms and tokens', () => {
  it('registration is limited per IP', async () => {
    let last = 0;
    for (let i = 0; i < 21; i++) {
      last = (
        await t.inject({
          method: 'POST',
          url: '/register',
          remoteAddress: '10.7.7.7',
          payload: {
            data: {
              type: 'token',
              attributes: {
                last_name: 'Бот',
                first_name: 'Бот',
                middle_name: 'Бот',
                phone: `+7 (900) 000-00-${String(i).padStart(2, '0')}`,
                email: `bot${i}-${Date.now()}@example.com`,
                organization: 'x',
                job_title: 'x',
                password: 'bot-pass',
                password_confirmation: 'bot-pass',
              },
            },
          },
        })
      ).statusCode;
    }
    expect(last).toBe(429);
    const other = await t.inject({ method: 'POST', url: '/register', remoteAddress: '10.7.7.8', payload: { data: { attributes: {} } } });
    expect(other.statusCode).toBe(422);
  });

  it('answers carrying a token are not stored by caches', async () => {
    const u = await t.createUser({ password: 'cache-me-not' });
    const res = await t.inject({ method: 'POST', url: '/login', payload: { email: u.email, password: 'cache-me-not' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const me = await t.inject({ method: 'GET', url: '/api/get', headers: { authorization: `Bearer ${res.json().access_token}` } });
    expect(me.headers['cache-control']).toBe('no-store');
  });

  it('every answer carries the security headers; pages also the content security policy, JSON answers not', async () => {
    for (const url of ['/api/health', '/login', '/api/get', '/sandbox/yookassa/pay/00000000-0000-0000-0000-000000000000']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('same-origin');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      const page = String(res.headers['content-type']).startsWith('text/html');
      // /login is the app's page when the web app is built, a JSON 404 otherwise.
      if (url.startsWith('/api/')) expect(page, url).toBe(false);
      if (url.startsWith('/sandbox/')) expect(page, url).toBe(true);
      if (page) {
        const csp = String(res.headers['content-security-policy']);
        expect(csp, url).toContain("default-src 'self'");
        expect(csp, url).toContain("frame-ancestors 'none'");
        expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      } else {
        expect(res.headers['content-security-policy'], url).toBeUndefined();
      }
    }
  });
});
