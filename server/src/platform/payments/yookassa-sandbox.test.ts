import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { YooCheckout } from '@a2seven/yoo-checkout';
import type { Database } from '../db.ts';
import { createTestApp, openTestDatabase, type TestApp } from '../../../test/helper.ts';
import { until } from '../../../test/yookassa-world.ts';
import { yookassaSandbox } from './yookassa-sandbox.ts';

// Issue 20: the built-in sandbox driven by a YooKassa client written by someone else (the community
// SDK @a2seven/yoo-checkout, axios underneath), so the stand-in answers what a real client expects:
// create, capture, cancel, idempotence, the list, refunds, notifications and error objects.

const SHOP = 'sdk-shop';
const SECRET = 'sdk-secret';
let database: Database;
let provider: FastifyInstance;
let hooks: FastifyInstance;
let base = '';
const notifications: Array<{ event: string; object: { id: string; status: string } }> = [];
let checkout: YooCheckout;

/** The SDK's errors wrap axios's: the provider's status and error object. */
interface SdkError {
  response?: { status: number; data: { type: string; id: string; code: string; description: string; parameter?: string } };
}
async function refusal(call: Promise<unknown>): Promise<{ status: number; body: NonNullable<SdkError['response']>['data'] }> {
  const err = (await call.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  )) as SdkError;
  expect(err.response).toBeDefined();
  return { status: err.response!.status, body: err.response!.data };
}

const returnUrl = 'http://127.0.0.1:9/user/entry?payment=1';
const newPayment = (value = '1500.00', extra: Record<string, unknown> = {}) => ({
  amount: { value, currency: 'RUB' },
  capture: false,
  confirmation: { type: 'redirect', return_url: returnUrl },
  description: 'Заявка № 1',
  ...extra,
});
/** The payer presses «Оплатить» on the sandbox's page. */
const payerConfirms = (id: string) =>
  fetch(`${base}/pay/${id}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=pay', redirect: 'manual' });

beforeAll(async () => {
  database = await openTestDatabase();
  hooks = Fastify();
  hooks.post('/hook', async (request) => {
    notifications.push(request.body as (typeof notifications)[number]);
    return { ok: true };
  });
  await hooks.listen({ port: 0, host: '127.0.0.1' });
  const hookUrl = `http://127.0.0.1:${(hooks.server.address() as { port: number }).port}/hook`;
  provider = Fastify();
  await provider.register(yookassaSandbox, {
    db: database.db,
    shopId: SHOP,
    secretKey: SECRET,
    webhookUrl: () => hookUrl,
    publicUrl: () => base,
    returnBase: () => 'http://127.0.0.1:9',
    log: pino({ level: 'silent' }),
  });
  await provider.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(provider.server.address() as { port: number }).port}`;
  checkout = new YooCheckout({ shopId: SHOP, secretKey: SECRET });
  // The SDK speaks to https://api.yookassa.ru/v3; here, to the sandbox.
  (checkout as unknown as { root: string }).root = `${base}/v3`;
});
afterAll(async () => {
  await provider.close();
  await hooks.close();
  await database.close();
});

describe('the sandbox through a community YooKassa SDK', () => {
  it('creates a held payment, then captures it; the objects carry what the API’s do', async () => {
    const created = await checkout.createPayment(newPayment() as never, crypto.randomUUID());
    expect(created).toMatchObject({
      status: 'pending',
      paid: false,
      refundable: false,
      amount: { value: '1500.00', currency: 'RUB' },
      recipient: { account_id: SHOP },
    });
    // capture is a request field, not part of the payment object.
    expect(created).not.toHaveProperty('capture');
    expect(created.confirmation).toMatchObject({ type: 'redirect', confirmation_url: `${base}/pay/${created.id}` });
    expect((await payerConfirms(created.id)).status).toBe(303);
    const held = await checkout.getPayment(created.id);
    expect(held).toMatchObject({ status: 'waiting_for_capture', paid: true });
    // A held bank-card payment waits 7 days for capture.
    const days = (Date.parse(held.expires_at as string) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const captured = await checkout.capturePayment(created.id, { amount: { value: '1500.00', currency: 'RUB' } } as never, crypto.randomUUID());
    expect(captured).toMatchObject({ status: 'succeeded', paid: true, refundable: true });
    expect(Date.parse(captured.captured_at as string)).toBeGreaterThan(0);
    expect(captured).not.toHaveProperty('expires_at');
    await until(async () => notifications.some((n) => n.object.id === created.id && n.event === 'payment.succeeded'));
    expect(notifications.filter((n) => n.object.id === created.id).map((n) => n.event)).toEqual(['payment.waiting_for_capture', 'payment.succeeded']);
  });

  it('cancels a held payment; a pending one cannot be cancelled or captured by the shop', async () => {
    const pending = await checkout.createPayment(newPayment('10.00') as never, crypto.randomUUID());
    const notHeld = await refusal(checkout.cancelPayment(pending.id, crypto.randomUUID()));
    expect(notHeld.status).toBe(400);
    expect(notHeld.body).toMatchObject({ type: 'error', code: 'invalid_request' });
    expect((await refusal(checkout.capturePayment(pending.id, { amount: { value: '10.00', currency: 'RUB' } } as never))).status).toBe(400);
    await payerConfirms(pending.id);
    const canceled = await checkout.cancelPayment(pending.id, crypto.randomUUID());
    expect(canceled).toMatchObject({ status: 'canceled', paid: false, cancellation_details: { party: 'merchant', reason: 'canceled_by_merchant' } });
  });

  it('one Idempotence-Key is one request: the same data answer the same payment, other data a 400 naming Idempotence-Key', async () => {
    const key = crypto.randomUUID();
    const first = await checkout.createPayment(newPayment('700.00') as never, key);
    const again = await checkout.createPayment(newPayment('700.00') as never, key);
    expect(again.id).toBe(first.id);
    // The data are compared, not the bytes: the same body with its keys in another order is a repeat.
    const reordered = await fetch(`${base}/v3/payments`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${SHOP}:${SECRET}`).toString('base64')}`, 'idempotence-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        description: 'Заявка № 1',
        confirmation: { return_url: returnUrl, type: 'redirect' },
        capture: false,
        amount: { currency: 'RUB', value: '700.00' },
      }),
    });
    expect(((await reordered.json()) as { id: string }).id).toBe(first.id);
    const other = await refusal(checkout.createPayment(newPayment('701.00') as never, key));
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ type: 'error', code: 'invalid_request', parameter: 'Idempotence-Key' });
    expect(typeof other.body.id).toBe('string');
  });

  it('lists payments newest first with limit, cursor, status and created_at filters; bad parameters are named', async () => {
    const since = new Date(Date.now() - 1).toISOString();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await checkout.createPayment(newPayment(`${100 + i}.00`) as never, crypto.randomUUID())).id);
      await new Promise((r) => setTimeout(r, 5));
    }
    await payerConfirms(ids[1]);
    const page1 = (await checkout.getPaymentList({ created_at: { value: since, mode: 'gte' }, limit: 2 } as never)) as {
      type: string;
      items: Array<{ id: string }>;
      next_cursor?: string;
    };
    expect(page1.type).toBe('list');
    expect(page1.items.map((p) => p.id)).toEqual([ids[2], ids[1]]);
    expect(page1.next_cursor).toBeTruthy();
    const page2 = (await checkout.getPaymentList({ created_at: { value: since, mode: 'gte' }, limit: 2, cursor: page1.next_cursor } as never)) as typeof page1;
    expect(page2.items.map((p) => p.id)).toEqual([ids[0]]);
    expect(page2.next_cursor).toBeUndefined();
    const held = (await checkout.getPaymentList({ status: 'waiting_for_capture', created_at: { value: since, mode: 'gte' } } as never)) as typeof page1;
    expect(held.items.map((p) => p.id)).toEqual([ids[1]]);
    const before = (await checkout.getPaymentList({ created_at: { value: since, mode: 'lt' }, limit: 100 } as never)) as typeof page1;
    expect(before.items.some((p) => ids.includes(p.id))).toBe(false);
    for (const [filters, parameter] of [
      [{ limit: 101 }, 'limit'],
      [{ status: 'paid' }, 'status'],
      [{ created_at: { value: 'yesterday', mode: 'gte' } }, 'created_at.gte'],
      [{ cursor: 'not-a-cursor' }, 'cursor'],
    ] as const) {
      const bad = await refusal(checkout.getPaymentList(filters as never));
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ type: 'error', code: 'invalid_request', parameter });
    }
  });

  it('refunds a succeeded payment in parts, never more than it is; refund.succeeded is notified; errors are the API’s', async () => {
    const p = await checkout.createPayment(newPayment('900.00', { capture: true }) as never, crypto.randomUUID());
    expect(
      (await refusal(checkout.createRefund({ payment_id: p.id, amount: { value: '100.00', currency: 'RUB' } } as never, crypto.randomUUID()))).body,
    ).toMatchObject({ code: 'invalid_request', parameter: 'payment_id' });
    await payerConfirms(p.id);
    const key = crypto.randomUUID();
    const part = await checkout.createRefund({ payment_id: p.id, amount: { value: '400.00', currency: 'RUB' }, description: 'Часть' } as never, key);
    expect(part).toMatchObject({ payment_id: p.id, status: 'succeeded', amount: { value: '400.00', currency: 'RUB' }, description: 'Часть' });
    expect((await checkout.createRefund({ payment_id: p.id, amount: { value: '400.00', currency: 'RUB' }, description: 'Часть' } as never, key)).id).toBe(
      part.id,
    );
    expect((await refusal(checkout.createRefund({ payment_id: p.id, amount: { value: '1.00', currency: 'RUB' } } as never, key))).body).toMatchObject({
      parameter: 'Idempotence-Key',
    });
    expect(await checkout.getRefund(part.id)).toMatchObject({ id: part.id, status: 'succeeded' });
    expect(await checkout.getPayment(p.id)).toMatchObject({ refundable: true, refunded_amount: { value: '400.00', currency: 'RUB' } });
    const tooMuch = await refusal(checkout.createRefund({ payment_id: p.id, amount: { value: '500.01', currency: 'RUB' } } as never, crypto.randomUUID()));
    expect(tooMuch).toMatchObject({ status: 400, body: { type: 'error', code: 'invalid_request', parameter: 'amount.value' } });
    await checkout.createRefund({ payment_id: p.id, amount: { value: '500.00', currency: 'RUB' } } as never, crypto.randomUUID());
    expect(await checkout.getPayment(p.id)).toMatchObject({ refundable: false, refunded_amount: { value: '900.00' } });
    await until(
      async () => notifications.filter((n) => n.event === 'refund.succeeded' && (n.object as { payment_id?: string }).payment_id === p.id).length === 2,
    );
    const unknown = await refusal(checkout.getRefund(crypto.randomUUID()));
    expect(unknown).toMatchObject({ status: 404, body: { type: 'error', code: 'not_found' } });
    expect(
      (await refusal(checkout.createRefund({ payment_id: crypto.randomUUID(), amount: { value: '1.00', currency: 'RUB' } } as never, crypto.randomUUID())))
        .status,
    ).toBe(404);
  });

  it('wrong shop keys are 401 invalid_credentials; an unknown payment or path is a 404 error object', async () => {
    const stranger = new YooCheckout({ shopId: SHOP, secretKey: 'wrong' });
    (stranger as unknown as { root: string }).root = `${base}/v3`;
    expect(await refusal(stranger.getPaymentList())).toMatchObject({ status: 401, body: { type: 'error', code: 'invalid_credentials' } });
    expect(await refusal(checkout.getPayment(crypto.randomUUID()))).toMatchObject({ status: 404, body: { type: 'error', code: 'not_found' } });
    const res = await fetch(`${base}/v3/receipts-unknown`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toMatchObject({ type: 'error', code: 'not_found' });
  });
});

describe('unknown paths of the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A built web app: its page answers the app's own routes only.
    const webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-web-'));
    await fs.writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Кабинет</title>');
    t = await createTestApp({ webDist });
  });
  afterAll(() => t.close());

  it('an unknown path under /api or /sandbox is a JSON 404 (the sandbox’s in YooKassa’s shape), never the page', async () => {
    for (const url of ['/api', '/api/', '/api/no-such-thing', '/api/no-such-thing?x=1', '/sandbox', '/sandbox/other']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('application/json');
      expect(res.json().message, url).toBeTruthy();
    }
    for (const url of ['/sandbox/yookassa/v3/payments-unknown', '/sandbox/yookassa/nothing']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ type: 'error', code: 'not_found' });
    }
    const page = await t.inject({ method: 'GET', url: '/user/entry' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });
});
