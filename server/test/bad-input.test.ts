import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { BoundMessages } from '@edu/domain/common/bounds';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/platform/config.ts';
import { dataErrorAnswer, errorForLog } from '../src/platform/errors.ts';
import { createMailer } from '../src/platform/mail.ts';
import { createTestApp, type TestApp } from './helper.ts';

// Issue 8, bad input: each of these answered 500 (or English) before the fix.

let t: TestApp;
let user: { id: number };
let h: Record<string, string>;
let op: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  user = await t.createUser({ email: 'bad-input@example.com' });
  h = await t.loginAs(user);
  op = await t.loginAs(await t.createUser({ role: 1 }));
});
afterAll(() => t.close());

const cyrillic = /[А-Яа-яЁё]/;
const profile = (over: Record<string, unknown> = {}) => ({
  email: 'bad-input@example.com',
  phone: '+7 (921) 777-44-33',
  organization: 'Школа',
  job_title: 'Учитель',
  ...over,
});

describe('bad input is a 422 with Russian field errors, never a 5xx', () => {
  it('ids past 32 bits in paths and filters', async () => {
    for (const url of [
      `/api/entry/${2 ** 31}`,
      `/api/service/${2 ** 40}`,
      `/api/entry?service_id=${2 ** 33}`,
      '/api/service?dict_type_id=99999999999999999999',
      `/api/payment?user_id=${2 ** 31}`,
    ]) {
      const res = await t.inject({ method: 'GET', url, headers: op });
      expect(res.statusCode, url).toBe(422);
      const [field, texts] = Object.entries(res.json().errors as Record<string, string[]>)[0];
      expect(texts[0], `${url} ${field}`).toMatch(cyrillic);
    }
  });

  it('the NUL character in any string: body, query or path', async () => {
    const body = await t.inject({ method: 'PUT', url: `/api/user/${user.id}`, headers: h, payload: profile({ organization: 'Шко\u0000ла' }) });
    expect(body.statusCode).toBe(422);
    expect(body.json().errors.organization).toEqual([BoundMessages.nul]);
    const query = await t.inject({ method: 'GET', url: '/api/entry?number=12%0034', headers: h });
    expect(query.statusCode).toBe(422);
    expect(query.json().errors.number).toEqual([BoundMessages.nul]);
    const search = await t.inject({ method: 'POST', url: '/api/service/search', headers: h, payload: { keywords: '\u0000' } });
    expect(search.statusCode).toBe(422);
  });

  it('impossible dates such as 31.02.2024 in filters', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/entry?date=31.02.2024', headers: h });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.date).toEqual([BoundMessages.date]);
    expect((await t.inject({ method: 'GET', url: '/api/entry?date=29.02.2024', headers: h })).statusCode).toBe(200);
  });

  it('strings longer than their columns: region, country, names set by operators', async () => {
    const long = 'Я'.repeat(300);
    const own = await t.inject({ method: 'PUT', url: `/api/user/${user.id}`, headers: h, payload: profile({ region: long, country: long }) });
    expect(own.statusCode).toBe(422);
    expect(own.json().errors.region[0]).toBe('Максимальная длина: 255 символов');
    expect(own.json().errors.country[0]).toBe('Максимальная длина: 255 символов');
    const byOperator = await t.inject({ method: 'PUT', url: `/api/user/${user.id}`, headers: op, payload: profile({ last_name: long, first_name: 'Анна' }) });
    expect(byOperator.statusCode).toBe(422);
    expect(byOperator.json().errors.last_name[0]).toMatch(cyrillic);
  });

  it('unknown dictionary ids (foreign keys)', async () => {
    const res = await t.inject({ method: 'PUT', url: `/api/user/${user.id}`, headers: h, payload: profile({ dict_region_id: 999_999 }) });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors.dict_region_id[0]).toMatch(cyrillic);
  });

  it('a list of 70 000 ids', async () => {
    const res = await t.inject({
      method: 'POST',
      url: `/api/user/store-profiles/${user.id}`,
      headers: h,
      payload: { profiles: Array.from({ length: 70_000 }, (_, i) => i + 1) },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.profiles[0]).toMatch(cyrillic);
    const inQuery = await t.inject({ method: 'GET', url: `/api/service?profile=${Array.from({ length: 5000 }, (_, i) => i + 1).join(',')}`, headers: h });
    expect(inQuery.statusCode).toBe(422);
  });

  it('field texts of query and path parameters are Russian too', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/entry?page=abc&per_page=7&status=9', headers: h });
    expect(res.statusCode).toBe(422);
    for (const texts of Object.values(res.json().errors as Record<string, string[]>)) expect(texts[0]).toMatch(cyrillic);
    const path = await t.inject({ method: 'GET', url: '/api/entry/abc', headers: h });
    expect(path.json().errors.id[0]).toMatch(cyrillic);
    const tooLongPath = await t.inject({ method: 'GET', url: `/api/entry/${'9'.repeat(200)}`, headers: h });
    expect(tooLongPath.statusCode).toBeLessThan(500);
    expect(tooLongPath.json().message).toMatch(cyrillic);
  });
});

describe('database data errors in the one error handler', () => {
  it('maps class 22, 23503 and 23505 (also under a Drizzle wrapper) to 422 with a Russian message and the column', () => {
    const wrapped = (code: string, extra: Record<string, string> = {}) => ({ message: 'Failed query: select ...', cause: { code, ...extra } });
    expect(dataErrorAnswer(wrapped('22003'))?.message).toBe('Число вне допустимого диапазона');
    expect(dataErrorAnswer(wrapped('22001', { column: 'region' }))?.errors).toEqual({ region: ['Слишком длинное значение'] });
    expect(dataErrorAnswer(wrapped('22008'))?.message).toBe('Несуществующая дата');
    expect(dataErrorAnswer(wrapped('22021'))?.message).toBe('Недопустимый символ');
    expect(dataErrorAnswer(wrapped('23503', { detail: 'Key (dict_region_id)=(999) is not present in table "dict_regions".' }))?.errors).toEqual({
      dict_region_id: ['Связанная запись не найдена'],
    });
    expect(dataErrorAnswer(wrapped('23505', { detail: 'Key (email)=(a@b.c) already exists.' }))?.errors).toEqual({ email: ['Такая запись уже существует'] });
    expect(dataErrorAnswer(wrapped('40001'))).toBeNull();
    expect(dataErrorAnswer(new Error('plain'))).toBeNull();
  });

  it('a log line never carries a 100 KB query', async () => {
    const huge = `select ${'x'.repeat(100_000)}`;
    const logged = errorForLog({ name: 'DrizzleQueryError', message: `Failed query: ${huge}\nparams: ${'1,'.repeat(50_000)}`, cause: { code: '22003' } });
    expect(JSON.stringify(logged).length).toBeLessThan(3000);

    // The whole app: an error on a request whose query string is 100 KB writes short lines only.
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-log-'));
    const config = loadConfig({ NODE_ENV: 'test' }, { requestLog: false, dataDir: dir, jobsIntervalMs: 0 });
    const app = await buildApp({
      config,
      database: t.database,
      mailer: (x) => createMailer({ outboxDir: dir, from: config.mailFrom, log: x.log }),
      loggerInstance: pino({ level: 'info' }, sink),
    });
    app.get('/api/test-throws', { config: { access: 'public' } }, async () => {
      throw Object.assign(new Error(`Failed query: ${huge}`), { cause: { code: '57014' } });
    });
    await app.ready();
    const res = await app.inject({ method: 'GET', url: `/api/test-throws?q=${'y'.repeat(100_000)}` });
    expect(res.statusCode).toBe(500);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.length).toBeLessThan(4000);
    await app.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
});
