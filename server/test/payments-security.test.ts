import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { PaymentMessages } from '@edu/domain/payments/payment';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig, NO_SHOP_IN_PRODUCTION, sandboxCredentials } from '../src/platform/config.ts';
import { rows, type Database } from '../src/platform/db.ts';
import { createMailer } from '../src/platform/mail.ts';
import { createSession } from '../src/platform/auth.ts';
import { isAllowedReturnUrl, ProviderError, YookassaClient } from '../src/platform/payments/yookassa-client.ts';
import { yookassaSandbox } from '../src/platform/payments/yookassa-sandbox.ts';
import { sandboxPayments, users } from '../src/db/schema/index.ts';
import { openTestDatabase } from './helper.ts';
import { makeService } from './fixtures.ts';

// Issue 8, payments: each test here failed before its fix. The real client talks to the sandbox
// listening on 127.0.0.1 (with receipts on), and to a scripted fake for retries.

const silent = pino({ level: 'silent' });
let database: Database;
let provider: FastifyInstance;
let providerUrl = '';
let app: FastifyInstance;
let requireReceipt = false;
let dataDir = '';

async function appWith(over: Partial<ReturnType<typeof loadConfig>['yookassa']> = {}) {
  const config = loadConfig(
    { NODE_ENV: 'test' },
    {
      requestLog: false,
      dataDir,
      jobsIntervalMs: 0,
      yookassa: { enabled: true, sandbox: false, apiUrl: `${providerUrl}/v3`, shopId: 'shop-1', secretKey: 'secret-1', vatCode: 1, receipt: true, ...over },
    },
  );
  const a = await buildApp({ config, database, mailer: (x) => createMailer({ outboxDir: path.join(dataDir, 'mail'), from: config.mailFrom, log: x.log }) });
  await a.listen({ port: 0, host: '127.0.0.1' });
  a.config.appUrl = `http://127.0.0.1:${(a.server.address() as { port: number }).port}`;
  return a;
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-pay-sec-'));
  database = await openTestDatabase();
  provider = Fastify();
  await provider.register(yookassaSandbox, {
    db: database.db,
    shopId: 'shop-1',
    secretKey: 'secret-1',
    webhookUrl: () => `${app.config.appUrl}/api/yookassa/webhook`,
    publicUrl: () => providerUrl,
    log: silent,
    deliverWebhooks: () => false,
    returnBase: () => app.config.appUrl,
    requireReceipt: () => requireReceipt,
  });
  await provider.listen({ port: 0, host: '127.0.0.1' });
  providerUrl = `http://127.0.0.1:${(provider.server.address() as { port: number }).port}`;
  app = await appWith();
});
afterAll(async () => {
  await app.close();
  await provider.close();
  await database.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

let n = 0;
async function person(role = 2) {
  n++;
  const [u] = await database.db
    .insert(users)
    .values({
      email: `sec${n}-${Date.now()}@example.com`,
      phone: `+7 (944) ${String(100 + n).padStart(3, '0')}-00-${String(n % 100).padStart(2, '0')}`,
      last_name: 'Орлова',
      first_name: 'Вера',
      role,
    })
    .returning({ id: users.id });
  const s = await createSession(database.db, { userId: u.id, remember: false });
  return { id: u.id, headers: { authorization: `Bearer ${s.access_token}` } };
}
async function entryFor(u: { headers: Record<string, string> }, price = 1200) {
  const s = await makeService(database.db, { price });
  const res = await app.inject({ method: 'POST', url: '/api/entry', headers: u.headers, payload: { service_id: s.id, pay_type: 3 } });
  return res.json().data as { id: number };
}
const auth = { authorization: `Basic ${Buffer.from('shop-1:secret-1').toString('base64')}` };
const createOnSandbox = (body: unknown, key: string = randomUUID()) =>
  provider.inject({
    method: 'POST',
    url: '/v3/payments',
    headers: { ...auth, 'idempotence-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const goodBody = (over: Record<string, unknown> = {}) => ({
  amount: { value: '100.00', currency: 'RUB' },
  capture: true,
  confirmation: { type: 'redirect', return_url: `${app.config.appUrl}/user/entry` },
  description: 'Заявка',
  ...over,
});

describe('the sandbox is a test tool, never a payment method', () => {
  it('production without shop keys refuses to start, in Russian and English, unless payments are off', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(NO_SHOP_IN_PRODUCTION);
    expect(NO_SHOP_IN_PRODUCTION).toMatch(/Оплата не настроена/);
    expect(NO_SHOP_IN_PRODUCTION).toMatch(/Payments are not configured/);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS: 'off' }).yookassa).toMatchObject({ enabled: false, sandbox: false });
    expect(loadConfig({ NODE_ENV: 'production', YOOKASSA_SHOP_ID: '1', YOOKASSA_SECRET_KEY: 'live_x' }).yookassa).toMatchObject({
      enabled: true,
      sandbox: false,
    });
  });

  it('never mounts in production, even if a config says sandbox', async () => {
    const config = loadConfig({ NODE_ENV: 'production', PAYMENTS: 'off' }, { requestLog: false, dataDir, jobsIntervalMs: 0 });
    config.yookassa = { ...config.yookassa, enabled: true, sandbox: true };
    const prod = await buildApp({
      config,
      database,
      mailer: (x) => createMailer({ outboxDir: path.join(dataDir, 'mail'), from: config.mailFrom, log: x.log }),
    });
    await prod.ready();
    expect(prod.routeTable().some((r) => r.url.startsWith('/sandbox'))).toBe(false);
    expect((await prod.inject({ method: 'POST', url: '/sandbox/yookassa/v3/payments', payload: {} })).statusCode).toBe(404);
    expect((await prod.inject({ method: 'POST', url: `/sandbox/yookassa/pay/${randomUUID()}`, payload: {} })).statusCode).toBe(404);
    await prod.close();
  });

  it('with payments off, paying online says so and nothing reaches a provider', async () => {
    const off = await appWith({ enabled: false });
    const u = await person();
    const e = await entryFor(u);
    const res = await off.inject({ method: 'POST', url: `/api/entry/${e.id}/pay`, headers: u.headers, payload: {} });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(PaymentMessages.paymentsOff);
    await off.close();
  });

  it('its credentials are random per data folder and kept there', async () => {
    const a = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-sbx-'));
    const b = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-sbx-'));
    const first = sandboxCredentials(a);
    expect(sandboxCredentials(a)).toEqual(first);
    expect(sandboxCredentials(b)).not.toEqual(first);
    expect(first.secretKey).not.toBe('sandbox-secret');
    expect(first.secretKey.length).toBeGreaterThanOrEqual(32);
    const dev = loadConfig({ NODE_ENV: 'development' }, { dataDir: a, requestLog: false, jobsIntervalMs: 0 });
    const devApp = await buildApp({ config: dev, database, mailer: (x) => createMailer({ outboxDir: path.join(a, 'mail'), from: dev.mailFrom, log: x.log }) });
    await devApp.ready();
    expect(devApp.config.yookassa).toMatchObject(first);
    const guessed = await devApp.inject({
      method: 'GET',
      url: `/sandbox/yookassa/v3/payments/${randomUUID()}`,
      headers: { authorization: `Basic ${Buffer.from('sandbox:sandbox-secret').toString('base64')}` },
    });
    expect(guessed.statusCode).toBe(401);
    await devApp.close();
    await fs.rm(a, { recursive: true, force: true });
    await fs.rm(b, { recursive: true, force: true });
  });
});

describe('return_url lies under APP_URL', () => {
  it('the rule', () => {
    const base = 'https://lk.example.ru';
    expect(isAllowedReturnUrl('https://lk.example.ru/user/entry?payment=1', base)).toBe(true);
    expect(isAllowedReturnUrl('javascript:alert(document.domain)', base)).toBe(false);
    expect(isAllowedReturnUrl('https://evil.example.com/lk.example.ru', base)).toBe(false);
    expect(isAllowedReturnUrl('https://lk.example.ru.evil.com/', base)).toBe(false);
    expect(isAllowedReturnUrl('https://user:pw@lk.example.ru/', base)).toBe(false);
    expect(isAllowedReturnUrl('https://lk.example.ru/cabinet/x', 'https://lk.example.ru/cabinet')).toBe(true);
    expect(isAllowedReturnUrl('https://lk.example.ru/other', 'https://lk.example.ru/cabinet')).toBe(false);
  });

  it('the sandbox refuses a javascript: or foreign return_url when the payment is created', async () => {
    for (const url of ['javascript:alert(localStorage.token)', 'https://evil.example.com/']) {
      const res = await createOnSandbox(goodBody({ confirmation: { type: 'redirect', return_url: url } }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ type: 'error', code: 'invalid_request', parameter: 'confirmation.return_url' });
    }
  });

  it('the sandbox page never redirects or links to a stored bad return_url', async () => {
    const id = randomUUID();
    const body = {
      id,
      status: 'pending',
      paid: false,
      amount: { value: '10.00', currency: 'RUB' },
      confirmation: { type: 'redirect', return_url: 'javascript:alert(1)' },
      created_at: new Date().toISOString(),
    };
    await database.db.insert(sandboxPayments).values({ id, idempotence_key: `legacy-${id}`, shop_id: 'shop-1', status: 'pending', body });
    const page = await provider.inject({ method: 'GET', url: `/pay/${id}` });
    expect(page.body).not.toContain('javascript:');
    const res = await provider.inject({
      method: 'POST',
      url: `/pay/${id}`,
      payload: 'action=cancel',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
  });

  it('the client refuses to send a return_url outside APP_URL', async () => {
    const client = new YookassaClient({
      apiUrl: `${providerUrl}/v3`,
      shopId: 'shop-1',
      secretKey: 'secret-1',
      vatCode: 1,
      returnBase: () => 'https://lk.example.ru',
    });
    await expect(
      client.createPayment({ amount: 10, description: 'x', returnUrl: 'javascript:alert(1)', metadata: {}, idempotenceKey: randomUUID() }),
    ).rejects.toMatchObject({ parameter: 'confirmation.return_url' });
  });
});

describe('the sandbox behaves like the real API where it matters', () => {
  it('Idempotence-Key longer than 64 is a 400 naming the header; errors carry an id', async () => {
    const res = await createOnSandbox(goodBody(), 'k'.repeat(65));
    expect(res.statusCode).toBe(400);
    const err = res.json();
    expect(err).toMatchObject({ type: 'error', code: 'invalid_request', parameter: 'Idempotence-Key' });
    expect(err.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('checks currency and description (length and type) without a 500', async () => {
    expect((await createOnSandbox(goodBody({ amount: { value: '10.00', currency: 'USD' } }))).json().parameter).toBe('amount.currency');
    expect((await createOnSandbox(goodBody({ description: 'д'.repeat(129) }))).json().parameter).toBe('description');
    const notString = await createOnSandbox(goodBody({ description: { nested: true } }));
    expect(notString.statusCode).toBe(400);
    expect(notString.json().parameter).toBe('description');
  });

  it('capture false waits for capture; capture succeeds it; cancel carries cancellation_details', async () => {
    const created = (await createOnSandbox(goodBody({ capture: false }))).json();
    await provider.inject({
      method: 'POST',
      url: `/pay/${created.id}`,
      payload: 'action=pay',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const held = (await provider.inject({ method: 'GET', url: `/v3/payments/${created.id}`, headers: auth })).json();
    expect(held.status).toBe('waiting_for_capture');
    const canceled = (
      await provider.inject({ method: 'POST', url: `/v3/payments/${created.id}/cancel`, headers: { ...auth, 'idempotence-key': randomUUID() } })
    ).json();
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_details: { party: 'merchant', reason: 'canceled_by_merchant' } });

    const second = (await createOnSandbox(goodBody({ capture: false }))).json();
    await provider.inject({
      method: 'POST',
      url: `/pay/${second.id}`,
      payload: 'action=pay',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const captured = (
      await provider.inject({ method: 'POST', url: `/v3/payments/${second.id}/capture`, headers: { ...auth, 'idempotence-key': randomUUID() } })
    ).json();
    expect(captured.status).toBe('succeeded');

    const third = (await createOnSandbox(goodBody())).json();
    await provider.inject({
      method: 'POST',
      url: `/pay/${third.id}`,
      payload: 'action=cancel',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const declined = (await provider.inject({ method: 'GET', url: `/v3/payments/${third.id}`, headers: auth })).json();
    expect(declined.status).toBe('canceled');
    expect(declined.cancellation_details).toEqual({ party: 'yoo_money', reason: 'expired_on_confirmation' });
  });

  it('validates receipts when sent: a customer contact and items summing to the amount', async () => {
    const item = {
      description: 'Курс',
      quantity: '1.00',
      amount: { value: '100.00', currency: 'RUB' },
      vat_code: 1,
      payment_mode: 'full_payment',
      payment_subject: 'service',
    };
    expect((await createOnSandbox(goodBody({ receipt: { customer: { email: 'a@example.com' }, items: [item] } }))).statusCode).toBe(200);
    expect((await createOnSandbox(goodBody({ receipt: { customer: {}, items: [item] } }))).json().parameter).toBe('receipt.customer');
    expect(
      (
        await createOnSandbox(
          goodBody({ receipt: { customer: { email: 'a@example.com' }, items: [{ ...item, amount: { value: '90.00', currency: 'RUB' } }] } }),
        )
      ).json().parameter,
    ).toBe('receipt');
    expect((await createOnSandbox(goodBody({ receipt: { customer: { email: 'a@example.com' }, items: [{ ...item, vat_code: 99 }] } }))).json().parameter).toBe(
      'receipt.items[0].vat_code',
    );
  });

  it('our client with receipts on pays a package of entries against it', async () => {
    const u = await person();
    const e = await entryFor(u, 1500.5);
    const res = await app.inject({ method: 'POST', url: `/api/entry/${e.id}/pay`, headers: u.headers, payload: {} });
    expect(res.statusCode).toBe(200);
    const [stored] = await rows<{ body: { amount: { value: string } } }>(database.db, sql`select body from sandbox_payments where id = ${res.json().id}`);
    expect(stored.body.amount.value).toBe('1500.50');
  });
});

describe('the YooKassa client, as its documentation asks', () => {
  let fake: FastifyInstance;
  let fakeUrl = '';
  const script: Array<(reply: import('fastify').FastifyReply) => unknown> = [];
  const seenKeys: string[] = [];
  beforeAll(async () => {
    fake = Fastify();
    fake.post('/v3/payments', async (request, reply) => {
      seenKeys.push(String(request.headers['idempotence-key']));
      const step = script.shift();
      return step ? step(reply) : reply.status(500).send({ type: 'error', id: 'e-x', code: 'internal_server_error' });
    });
    await fake.listen({ port: 0, host: '127.0.0.1' });
    fakeUrl = `http://127.0.0.1:${(fake.server.address() as { port: number }).port}`;
  });
  afterAll(() => fake.close());

  const client = (over: Record<string, unknown> = {}) =>
    new YookassaClient({
      apiUrl: `${fakeUrl}/v3`,
      shopId: 's',
      secretKey: 'k',
      vatCode: 1,
      returnBase: () => 'https://lk.example.ru',
      retryBaseMs: 5,
      timeoutMs: 1500,
      ...over,
    });
  const input = (key: string) => ({ amount: 10, description: 'x', returnUrl: 'https://lk.example.ru/pay', metadata: {}, idempotenceKey: key });
  const ok = (reply: import('fastify').FastifyReply) =>
    reply.send({
      id: 'p-1',
      status: 'pending',
      paid: false,
      amount: { value: '10.00', currency: 'RUB' },
      confirmation: { type: 'redirect', confirmation_url: 'https://pay' },
      created_at: '',
    });

  it('repeats 500, 429 (honouring Retry-After) and time-outs with the same Idempotence-Key', async () => {
    seenKeys.length = 0;
    script.length = 0;
    script.push(
      (r) => r.status(500).send({ type: 'error', id: 'e1', code: 'internal_server_error' }),
      (r) => r.status(429).header('retry-after', '0').send({ type: 'error', id: 'e2', code: 'too_many_requests' }),
      async (r) => {
        await new Promise((resolve) => setTimeout(resolve, 2500));
        return ok(r);
      },
      ok,
    );
    const p = await client().createPayment(input('key-1'));
    expect(p.id).toBe('p-1');
    expect(seenKeys).toEqual(['key-1', 'key-1', 'key-1', 'key-1']);
  });

  it('treats 202 as "ask again later"', async () => {
    seenKeys.length = 0;
    script.length = 0;
    script.push((r) => r.status(202).send({ type: 'processing', retry_after: 10 }), ok);
    expect((await client().createPayment(input('key-2'))).id).toBe('p-1');
    expect(seenKeys).toEqual(['key-2', 'key-2']);
  });

  it('parses the error object; a receipt problem reaches the user as a receipt message, not a server error', async () => {
    script.length = 0;
    script.push((r) =>
      r.status(400).send({ type: 'error', id: 'err-42', code: 'invalid_request', parameter: 'receipt.customer', description: 'Receipt is missing' }),
    );
    const err = await client()
      .createPayment(input('key-3'))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).logFields).toMatchObject({ status: 400, providerErrorId: 'err-42', code: 'invalid_request', parameter: 'receipt.customer' });

    requireReceipt = true;
    const noReceipt = await appWith({ receipt: false });
    noReceipt.config.appUrl = app.config.appUrl; // the sandbox checks return urls against the main app
    try {
      const u = await person();
      const e = await entryFor(u);
      const res = await noReceipt.inject({ method: 'POST', url: `/api/entry/${e.id}/pay`, headers: u.headers, payload: {} });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(PaymentMessages.providerReceipt);
    } finally {
      requireReceipt = false;
      await noReceipt.close();
    }
  });
});

describe('the public /pay form', () => {
  const form = (over: Record<string, unknown> = {}) => ({ fio: 'Соколов Илья', phone: '+7 (901) 222-33-44', sum: 1500, ...over });
  it('one key per submitted form: a repeat never creates a second payment', async () => {
    const key = randomUUID();
    const first = await app.inject({ method: 'POST', url: '/api/yookassa-entry/pay', payload: form({ key }) });
    const again = await app.inject({ method: 'POST', url: '/api/yookassa-entry/pay', payload: form({ key }) });
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const [count] = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from card_transactions where idempotence_key = ${key}`);
    expect(count.n).toBe(1);
    const changed = await app.inject({ method: 'POST', url: '/api/yookassa-entry/pay', payload: form({ key, sum: 2 }) });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().message).toBe(PaymentMessages.formKeyReused);
  });
});

describe('bad input to payment routes', () => {
  it('a webhook whose object id is ".." is a 422, not a 5xx', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/yookassa/webhook', payload: { event: 'payment.succeeded', object: { id: '..' } } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.id[0]).toMatch(/[А-Яа-я]/);
  });

  it('an id past 32 bits is a 422 with a Russian message', async () => {
    const u = await person();
    const res = await app.inject({ method: 'POST', url: `/api/entry/${2 ** 40}/pay`, headers: u.headers, payload: {} });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.id[0]).toMatch(/[А-Яа-я]/);
  });
});
