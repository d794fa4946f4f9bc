import { createHash, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, gte, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { sandboxPayments, sandboxRefunds } from '../../db/schema/index.ts';
import type { Queryable } from '../db.ts';
import { escapeHtml } from '../html.ts';
import { isAllowedReturnUrl, type ProviderPayment, type ProviderRefund, type ProviderStatus } from './yookassa-client.ts';
import { defaultAccess } from '../access.ts';

export interface SandboxOptions {
  db: Queryable;
  shopId: string;
  secretKey: string;
  /** Where payment notifications are POSTed, as YooKassa does. */
  webhookUrl: () => string;
  /** Public base of the sandbox pages, e.g. http://localhost:8080/sandbox/yookassa. */
  publicUrl: () => string;
  log: FastifyBaseLogger;
  /** Tests turn delivery off to play a lost webhook. */
  deliverWebhooks?: () => boolean;
  /** The app's public address: a return_url outside it is refused (and never redirected to). */
  returnBase: () => string;
  /** Play a shop with 54-FZ fiscalisation: a payment without a receipt is refused. */
  requireReceipt?: () => boolean;
  /** Play a payment method whose refunds are not instant (they stay pending until a test settles them). */
  refundsPending?: () => boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/;
const CURRENCIES = new Set(['RUB']);
/** How long a held payment waits for capture: 7 days for bank cards (https://yookassa.ru/developers/payment-acceptance/getting-started/payment-process#capture-true). */
const HOLD_MS = 7 * 24 * 3600 * 1000;
const SANDBOX_GATEWAY = 'sandbox';

interface SandboxError {
  status: number;
  code: string;
  description: string;
  parameter?: string;
}
const bad = (parameter: string, description: string): SandboxError => ({ status: 400, code: 'invalid_request', description, parameter });
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON with object keys sorted at every level: two bodies that mean the same have the same text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}

/**
 * What an Idempotence-Key stands for: the method, the path and the body's data. "If you repeat a
 * request with the same key and the same data, the API answers as to the first one; the same key with
 * other data is an error" (https://yookassa.ru/developers/using-api/interaction-format#idempotence):
 * 400 invalid_request, parameter Idempotence-Key. The data are compared, not the bytes (key order and
 * spacing do not matter).
 */
const requestHash = (method: string, path: string, body: unknown) =>
  createHash('sha256')
    .update(`${method} ${path}\n${canonical(body)}`)
    .digest('hex');
const keyReused = () => bad('Idempotence-Key', 'Idempotence-Key was already used with another request');

/** A list cursor: where the previous page ended (created_at, id), opaque to the shop. */
const encodeCursor = (createdAt: string, id: string) => Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
function decodeCursor(cursor: string): [string, string] | null {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown;
    return Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && !Number.isNaN(Date.parse(v[0])) && typeof v[1] === 'string' && UUID.test(v[1])
      ? [v[0], v[1]]
      : null;
  } catch {
    return null;
  }
}
const TIME_FILTERS = ['gte', 'gt', 'lte', 'lt'] as const;

/** Amount object {value, currency} as the API checks it; kopecks or an error. */
function amountIn(v: unknown, parameter: string): number | SandboxError {
  if (!isObject(v)) return bad(parameter, 'Amount is required');
  if (typeof v.value !== 'string' || !AMOUNT.test(v.value) || Number(v.value) <= 0) return bad(`${parameter}.value`, 'Invalid amount value');
  if (typeof v.currency !== 'string' || !CURRENCIES.has(v.currency)) return bad(`${parameter}.currency`, 'Unsupported currency');
  return Math.round(Number(v.value) * 100);
}

/** 54-FZ receipt as YooKassa validates it: a customer contact, 1..100 items, their sum equal to the payment. */
function receiptProblem(receipt: unknown, totalKop: number): SandboxError | null {
  if (!isObject(receipt)) return bad('receipt', 'Receipt must be an object');
  const customer = receipt.customer;
  const email = isObject(customer) ? customer.email : undefined;
  const phone = isObject(customer) ? customer.phone : undefined;
  const emailOk = typeof email === 'string' && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) && email.length <= 64;
  const phoneOk = typeof phone === 'string' && /^\d{11,15}$/.test(phone);
  if (!emailOk && !phoneOk) return bad('receipt.customer', 'Receipt needs customer.email or customer.phone');
  const items = receipt.items;
  if (!Array.isArray(items) || items.length === 0 || items.length > 100) return bad('receipt.items', 'Receipt needs 1 to 100 items');
  let sum = 0;
  for (const [i, item] of items.entries()) {
    if (!isObject(item)) return bad(`receipt.items[${i}]`, 'Invalid item');
    if (typeof item.description !== 'string' || item.description.length === 0 || item.description.length > 128)
      return bad(`receipt.items[${i}].description`, 'Item description must be 1 to 128 characters');
    const quantity = Number(item.quantity);
    if (!(typeof item.quantity === 'string' || typeof item.quantity === 'number') || !Number.isFinite(quantity) || quantity <= 0)
      return bad(`receipt.items[${i}].quantity`, 'Invalid quantity');
    const kop = amountIn(item.amount, `receipt.items[${i}].amount`);
    if (typeof kop !== 'number') return kop;
    if (!Number.isInteger(item.vat_code) || (item.vat_code as number) < 1 || (item.vat_code as number) > 12)
      return bad(`receipt.items[${i}].vat_code`, 'Invalid vat_code');
    sum += Math.round(kop * quantity);
  }
  if (sum !== totalKop) return bad('receipt', 'The sum of receipt items does not match the payment amount');
  return null;
}

/**
 * A small YooKassa-compatible emulator: create, get, capture and cancel payments over the v3 API,
 * a Russian confirmation page with «Оплатить» and «Отменить», then the webhook. Used when the app
 * has no shop credentials, and in tests as the provider on 127.0.0.1. Clearly marked as test mode.
 */
export const yookassaSandbox: FastifyPluginAsync<SandboxOptions> = async (app, opts) => {
  // The provider's API takes the shop's Basic credentials (checked by each call); its pay pages are public.
  defaultAccess(app, 'shop');
  // These routes emulate the provider's API (and its payment form); they are not our API, so the
  // OpenAPI document at /api/docs leaves them out rather than describe someone else's answers.
  app.addHook('onRoute', (route) => {
    route.schema = { ...(route.schema ?? {}), hide: true };
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  /** The API's error object: type, id, code, description, parameter. */
  function fail(reply: FastifyReply, e: SandboxError) {
    return reply
      .status(e.status)
      .send({ type: 'error', id: randomUUID(), code: e.code, description: e.description, ...(e.parameter ? { parameter: e.parameter } : {}) });
  }

  function authorised(request: FastifyRequest, reply: FastifyReply): boolean {
    const expected = `Basic ${Buffer.from(`${opts.shopId}:${opts.secretKey}`).toString('base64')}`;
    if (request.headers.authorization === expected) return true;
    void fail(reply, { status: 401, code: 'invalid_credentials', description: 'Invalid shop credentials' });
    return false;
  }

  /** A return_url we may send the browser to: under the app's address, never javascript: or another host. */
  const safeReturn = (url: string | undefined) => (url && isAllowedReturnUrl(url, opts.returnBase()) ? url : null);

  /** A stored payment and its request's capture flag; a held payment past expires_at is cancelled as the API does. */
  async function loadRow(id: string): Promise<{ p: ProviderPayment; capture: boolean } | null> {
    if (!UUID.test(id)) return null;
    const [row] = await opts.db
      .select()
      .from(sandboxPayments)
      .where(and(eq(sandboxPayments.id, id), eq(sandboxPayments.shop_id, opts.shopId)));
    if (!row) return null;
    let p = row.body as unknown as ProviderPayment;
    // "If you don't capture or cancel the payment before expires_at, it is cancelled automatically"
    // (https://yookassa.ru/developers/payment-acceptance/getting-started/payment-process#capture-true),
    // cancellation_details reason expired_on_capture.
    if (p.status === 'waiting_for_capture' && p.expires_at && Date.parse(p.expires_at) < Date.now()) {
      p = await settle(p, 'canceled', { party: 'yoo_money', reason: 'expired_on_capture' });
    }
    return { p, capture: row.capture };
  }

  async function load(id: string): Promise<ProviderPayment | null> {
    return (await loadRow(id))?.p ?? null;
  }

  async function save(p: ProviderPayment): Promise<void> {
    await opts.db
      .update(sandboxPayments)
      .set({ status: p.status, body: p as unknown as Record<string, unknown>, updated_at: new Date() })
      .where(eq(sandboxPayments.id, p.id));
  }

  /** A notification {type: 'notification', event: 'payment.succeeded' | 'refund.succeeded' | ..., object}. */
  function sendWebhook(kind: 'payment' | 'refund', p: ProviderPayment | ProviderRefund, attempt = 1): void {
    if (opts.deliverWebhooks && !opts.deliverWebhooks()) return;
    const url = opts.webhookUrl();
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'notification', event: `${kind}.${p.status}`, object: p }),
      signal: AbortSignal.timeout(10_000),
    })
      .then((res) => {
        if (!res.ok) throw new Error(`webhook answered ${res.status}`);
      })
      .catch((err) => {
        opts.log.warn({ err, url, attempt }, 'sandbox webhook failed');
        if (attempt < 3) setTimeout(() => sendWebhook(kind, p, attempt + 1), 1000 * attempt).unref();
      });
  }

  /**
   * Moves a payment on, with the fields the API's payment object carries in that status: expires_at
   * while held (7 days for bank cards), captured_at and refundable once succeeded, cancellation_details
   * when cancelled (https://yookassa.ru/developers/api#payment_object).
   */
  async function settle(p: ProviderPayment, to: ProviderStatus, cancellation?: { party: string; reason: string }): Promise<ProviderPayment> {
    if (p.status === 'succeeded' || p.status === 'canceled') return p;
    const next: ProviderPayment = { ...p, status: to, paid: to === 'succeeded' || to === 'waiting_for_capture' };
    delete next.expires_at;
    if (to === 'waiting_for_capture') next.expires_at = new Date(Date.now() + HOLD_MS).toISOString();
    if (to === 'succeeded') {
      next.captured_at = new Date().toISOString();
      next.refundable = true;
    }
    if (to === 'canceled') next.cancellation_details = cancellation ?? { party: 'merchant', reason: 'canceled_by_merchant' };
    await save(next);
    sendWebhook('payment', next);
    return next;
  }

  app.post('/v3/payments', async (request, reply) => {
    if (!authorised(request, reply)) return;
    const key = request.headers['idempotence-key'];
    if (typeof key !== 'string' || key.length === 0) return fail(reply, bad('Idempotence-Key', 'Idempotence-Key header is required'));
    if (key.length > 64) return fail(reply, bad('Idempotence-Key', 'Idempotence-Key must be at most 64 characters'));
    const body = request.body;
    const hash = requestHash('POST', '/v3/payments', body);
    const [existing] = await opts.db
      .select()
      .from(sandboxPayments)
      .where(and(eq(sandboxPayments.shop_id, opts.shopId), eq(sandboxPayments.idempotence_key, key)));
    if (existing) return existing.request_hash && existing.request_hash !== hash ? fail(reply, keyReused()) : ((await load(existing.id)) ?? existing.body);
    if (!isObject(body)) return fail(reply, bad('body', 'Request body must be a JSON object'));
    const totalKop = amountIn(body.amount, 'amount');
    if (typeof totalKop !== 'number') return fail(reply, totalKop);
    if (body.description !== undefined && (typeof body.description !== 'string' || body.description.length > 128)) {
      return fail(reply, bad('description', 'Description must be a string of at most 128 characters'));
    }
    if (body.capture !== undefined && typeof body.capture !== 'boolean') return fail(reply, bad('capture', 'capture must be a boolean'));
    if (body.metadata !== undefined) {
      const m = body.metadata;
      if (!isObject(m) || Object.keys(m).length > 16 || Object.entries(m).some(([k, v]) => k.length > 32 || typeof v !== 'string' || v.length > 512)) {
        return fail(reply, bad('metadata', 'Metadata: at most 16 string values, keys up to 32 and values up to 512 characters'));
      }
    }
    const confirmation = body.confirmation;
    if (!isObject(confirmation) || confirmation.type !== 'redirect')
      return fail(reply, bad('confirmation.type', 'Only the redirect confirmation is supported'));
    if (!safeReturn(confirmation.return_url as string | undefined))
      return fail(reply, bad('confirmation.return_url', 'return_url must be an https or http address of the shop'));
    if (body.receipt !== undefined) {
      const problem = receiptProblem(body.receipt, totalKop);
      if (problem) return fail(reply, problem);
    } else if (opts.requireReceipt?.()) {
      return fail(reply, bad('receipt', 'Receipt is missing or illegal'));
    }
    const id = randomUUID();
    const payment: ProviderPayment = {
      id,
      status: 'pending',
      paid: false,
      amount: { value: (totalKop / 100).toFixed(2), currency: (body.amount as { currency: string }).currency },
      description: body.description as string | undefined,
      metadata: (body.metadata as Record<string, string> | undefined) ?? {},
      confirmation: { type: 'redirect', confirmation_url: `${opts.publicUrl()}/pay/${id}`, return_url: confirmation.return_url as string },
      recipient: { account_id: opts.shopId, gateway_id: SANDBOX_GATEWAY },
      created_at: new Date().toISOString(),
      test: true,
      refundable: false,
    };
    const inserted = await opts.db
      .insert(sandboxPayments)
      // capture is a request field (the API holds a payment for capture unless capture: true is
      // sent) and not part of the payment object: kept beside it.
      .values({
        id,
        idempotence_key: key,
        shop_id: opts.shopId,
        status: 'pending',
        capture: body.capture === true,
        request_hash: hash,
        body: payment as unknown as Record<string, unknown>,
      })
      .onConflictDoNothing()
      .returning({ id: sandboxPayments.id });
    if (inserted.length === 0) {
      // Two creates with one key at once: both get the payment that won (if they asked the same).
      const [winner] = await opts.db
        .select()
        .from(sandboxPayments)
        .where(and(eq(sandboxPayments.shop_id, opts.shopId), eq(sandboxPayments.idempotence_key, key)));
      return winner.request_hash && winner.request_hash !== hash ? fail(reply, keyReused()) : winner.body;
    }
    return payment;
  });

  /**
   * GET /v3/payments (https://yookassa.ru/developers/api#get_payments_list): newest first, `limit`
   * 1..100 (default 10), filters `status`, `created_at.gte|gt|lte|lt`, `captured_at.gte|gt|lte|lt`,
   * and `cursor` from the previous page's `next_cursor`; answers {type: 'list', items, next_cursor?}.
   * A bad parameter is 400 invalid_request naming it.
   */
  app.get<{ Querystring: Record<string, string | string[] | undefined> }>('/v3/payments', async (request, reply) => {
    if (!authorised(request, reply)) return;
    const q = request.query;
    const one = (name: string) => (Array.isArray(q[name]) ? (q[name] as string[])[0] : (q[name] as string | undefined));
    const known = new Set([
      'limit',
      'status',
      'cursor',
      'payment_method',
      ...['created_at', 'captured_at'].flatMap((f) => TIME_FILTERS.map((m) => `${f}.${m}`)),
    ]);
    const unknown = Object.keys(q).find((k) => !known.has(k));
    if (unknown) return fail(reply, bad(unknown, `Unknown parameter ${unknown}`));
    const limit = one('limit') === undefined ? 10 : Number(one('limit'));
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return fail(reply, bad('limit', 'limit must be an integer from 1 to 100'));
    const where: SQL[] = [eq(sandboxPayments.shop_id, opts.shopId)];
    const status = one('status');
    if (status !== undefined) {
      if (!['pending', 'waiting_for_capture', 'succeeded', 'canceled'].includes(status)) return fail(reply, bad('status', 'Unknown payment status'));
      where.push(eq(sandboxPayments.status, status));
    }
    const ops = { gte, gt, lte, lt };
    for (const field of ['created_at', 'captured_at'] as const) {
      for (const mode of TIME_FILTERS) {
        const value = one(`${field}.${mode}`);
        if (value === undefined) continue;
        if (Number.isNaN(Date.parse(value))) return fail(reply, bad(`${field}.${mode}`, 'Expected an ISO 8601 date and time'));
        where.push(ops[mode](sql`(${sandboxPayments.body}->>${field})::timestamptz`, new Date(value).toISOString()));
      }
    }
    const cursor = one('cursor');
    if (cursor !== undefined) {
      const at = decodeCursor(cursor);
      if (!at) return fail(reply, bad('cursor', 'Invalid cursor'));
      const created = sql`(${sandboxPayments.body}->>'created_at')::timestamptz`;
      where.push(or(lt(created, at[0]), and(eq(created, at[0]), lt(sandboxPayments.id, at[1])))!);
    }
    const found = await opts.db
      .select({ id: sandboxPayments.id })
      .from(sandboxPayments)
      .where(and(...where))
      .orderBy(desc(sql`(${sandboxPayments.body}->>'created_at')::timestamptz`), desc(sandboxPayments.id))
      .limit(limit + 1);
    const items: ProviderPayment[] = [];
    for (const { id } of found.slice(0, limit)) {
      const p = await load(id);
      if (p) items.push(p);
    }
    const last = items[items.length - 1];
    return { type: 'list', items, ...(found.length > limit && last ? { next_cursor: encodeCursor(last.created_at, last.id) } : {}) };
  });

  app.get<{ Params: { id: string } }>('/v3/payments/:id', async (request, reply) => {
    if (!authorised(request, reply)) return;
    const p = await load(request.params.id);
    if (!p) return fail(reply, { status: 404, code: 'not_found', description: 'Payment not found' });
    return p;
  });

  app.post<{ Params: { id: string } }>('/v3/payments/:id/capture', async (request, reply) => {
    if (!authorised(request, reply)) return;
    const p = await load(request.params.id);
    if (!p) return fail(reply, { status: 404, code: 'not_found', description: 'Payment not found' });
    if (p.status === 'succeeded') return p;
    if (p.status !== 'waiting_for_capture') return fail(reply, bad('status', `Payment in status ${p.status} cannot be captured`));
    return settle(p, 'succeeded');
  });

  app.post<{ Params: { id: string } }>('/v3/payments/:id/cancel', async (request, reply) => {
    if (!authorised(request, reply)) return;
    const p = await load(request.params.id);
    if (!p) return fail(reply, { status: 404, code: 'not_found', description: 'Payment not found' });
    if (p.status === 'canceled') return p;
    // As in the real API, the shop cancels only a payment held for capture.
    if (p.status !== 'waiting_for_capture') return fail(reply, bad('status', `Payment in status ${p.status} cannot be canceled`));
    return settle(p, 'canceled', { party: 'merchant', reason: 'canceled_by_merchant' });
  });

  /**
   * POST /v3/refunds (https://yookassa.ru/developers/api#create_refund): only a succeeded payment,
   * at most what is left of it (partial refunds allowed), description up to 250 characters,
   * Idempotence-Key required. A bank-card refund succeeds at once; `refund.succeeded` is notified.
   */
  app.post('/v3/refunds', async (request, reply) => {
    if (!authorised(request, reply)) return;
    const key = request.headers['idempotence-key'];
    if (typeof key !== 'string' || key.length === 0) return fail(reply, bad('Idempotence-Key', 'Idempotence-Key header is required'));
    if (key.length > 64) return fail(reply, bad('Idempotence-Key', 'Idempotence-Key must be at most 64 characters'));
    const body = request.body;
    const hash = requestHash('POST', '/v3/refunds', body);
    const [existing] = await opts.db
      .select()
      .from(sandboxRefunds)
      .where(and(eq(sandboxRefunds.shop_id, opts.shopId), eq(sandboxRefunds.idempotence_key, key)));
    if (existing) return existing.request_hash && existing.request_hash !== hash ? fail(reply, keyReused()) : existing.body;
    if (!isObject(body)) return fail(reply, bad('body', 'Request body must be a JSON object'));
    if (typeof body.payment_id !== 'string' || body.payment_id.length === 0) return fail(reply, bad('payment_id', 'payment_id is required'));
    const kop = amountIn(body.amount, 'amount');
    if (typeof kop !== 'number') return fail(reply, kop);
    if (body.description !== undefined && (typeof body.description !== 'string' || body.description.length > 250)) {
      return fail(reply, bad('description', 'Description must be a string of at most 250 characters'));
    }
    const refund = await opts.db.transaction(async (tx) => {
      // One refund at a time per payment: the row is locked while the refundable rest is computed.
      const [row] = await tx
        .select()
        .from(sandboxPayments)
        .where(and(eq(sandboxPayments.id, body.payment_id as string), eq(sandboxPayments.shop_id, opts.shopId)))
        .for('update');
      if (!row) return { status: 404, code: 'not_found', description: 'Payment not found', parameter: 'payment_id' } satisfies SandboxError;
      const p = row.body as unknown as ProviderPayment;
      if (p.status !== 'succeeded') return bad('payment_id', `Payment in status ${p.status} cannot be refunded`);
      const refundedKop = Math.round(Number(p.refunded_amount?.value ?? 0) * 100);
      const leftKop = Math.round(Number(p.amount.value) * 100) - refundedKop;
      if (kop > leftKop) return bad('amount.value', 'The refund amount exceeds the amount left to refund');
      const r: ProviderRefund = {
        id: randomUUID(),
        payment_id: p.id,
        // Bank-card refunds succeed at once; some methods answer pending first (https://yookassa.ru/developers/api#refund_object_status).
        status: opts.refundsPending?.() ? 'pending' : 'succeeded',
        amount: { value: (kop / 100).toFixed(2), currency: p.amount.currency },
        ...(body.description ? { description: body.description as string } : {}),
        created_at: new Date().toISOString(),
      };
      const inserted = await tx
        .insert(sandboxRefunds)
        .values({
          id: r.id,
          payment_id: p.id,
          idempotence_key: key,
          shop_id: opts.shopId,
          status: r.status,
          request_hash: hash,
          body: r as unknown as Record<string, unknown>,
        })
        .onConflictDoNothing()
        .returning({ id: sandboxRefunds.id });
      if (inserted.length === 0) {
        const [winner] = await tx
          .select()
          .from(sandboxRefunds)
          .where(and(eq(sandboxRefunds.shop_id, opts.shopId), eq(sandboxRefunds.idempotence_key, key)));
        return winner.request_hash && winner.request_hash !== hash ? keyReused() : (winner.body as unknown as ProviderRefund);
      }
      const total = refundedKop + kop;
      const next: ProviderPayment = {
        ...p,
        refunded_amount: { value: (total / 100).toFixed(2), currency: p.amount.currency },
        refundable: total < Math.round(Number(p.amount.value) * 100),
      };
      await tx
        .update(sandboxPayments)
        .set({ body: next as unknown as Record<string, unknown>, updated_at: new Date() })
        .where(eq(sandboxPayments.id, p.id));
      return r;
    });
    if ('code' in refund) return fail(reply, refund);
    if (refund.status === 'succeeded') sendWebhook('refund', refund);
    return refund;
  });

  app.get<{ Params: { id: string } }>('/v3/refunds/:id', async (request, reply) => {
    if (!authorised(request, reply)) return;
    const [row] = UUID.test(request.params.id)
      ? await opts.db
          .select()
          .from(sandboxRefunds)
          .where(and(eq(sandboxRefunds.id, request.params.id), eq(sandboxRefunds.shop_id, opts.shopId)))
      : [];
    if (!row) return fail(reply, { status: 404, code: 'not_found', description: 'Refund not found' });
    return row.body;
  });

  // Any other path is the API's 404 error object, never a page (https://yookassa.ru/developers/using-api/response-handling/response-format).
  app.setNotFoundHandler((_request, reply) => fail(reply, { status: 404, code: 'not_found', description: 'The requested resource does not exist' }));

  app.get<{ Params: { id: string } }>('/pay/:id', { config: { access: 'public' } }, async (request, reply) => {
    const p = await load(request.params.id);
    reply.type('text/html; charset=utf-8');
    if (!p) return reply.status(404).send(page('Платёж не найден', '<p>Такого платежа нет в тестовом режиме.</p>'));
    const done = p.status !== 'pending';
    const back = `<p><a href="${escapeHtml(safeReturn(p.confirmation?.return_url) ?? '/')}">Вернуться в личный кабинет</a></p>`;
    const body = done
      ? `<p>Платёж уже ${p.status === 'succeeded' ? 'оплачен' : p.status === 'canceled' ? 'отменён' : 'подтверждён и ждёт списания магазином'}.</p>${back}`
      : `<p class="sum">${escapeHtml(p.amount.value.replace('.', ','))} ₽</p>
         <p>${escapeHtml(p.description ?? '')}</p>
         <form method="post"><button name="action" value="pay" class="pay">Оплатить</button>
         <button name="action" value="cancel" class="cancel">Отменить</button></form>`;
    return page('Оплата картой', body);
  });

  app.post<{ Params: { id: string }; Body: { action?: string } }>('/pay/:id', { config: { access: 'public' } }, async (request, reply) => {
    const row = await loadRow(request.params.id);
    if (!row) return reply.status(404).type('text/html; charset=utf-8').send(page('Платёж не найден', ''));
    const { p, capture } = row;
    const next =
      p.status !== 'pending'
        ? p
        : request.body?.action === 'pay'
          ? await settle(p, capture ? 'succeeded' : 'waiting_for_capture')
          : await settle(p, 'canceled', { party: 'yoo_money', reason: 'expired_on_confirmation' });
    return reply.redirect(safeReturn(next.confirmation?.return_url) ?? '/', 303);
  });
};

function page(title: string, body: string): string {
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — тестовый режим</title><style>
body{font-family:system-ui,sans-serif;background:#f6f7f9;margin:0;display:flex;justify-content:center;padding:40px 16px}
main{background:#fff;border-radius:12px;padding:28px;max-width:420px;width:100%;box-shadow:0 2px 10px rgba(0,0,0,.08)}
.test{background:#fff4e5;color:#9a5b00;border-radius:8px;padding:8px 12px;font-size:14px}
.sum{font-size:32px;font-weight:700;margin:16px 0 4px}
button{font-size:16px;border:0;border-radius:8px;padding:12px 20px;margin:16px 8px 0 0;cursor:pointer}
.pay{background:#0f9d58;color:#fff}.cancel{background:#e9ecef;color:#333}
</style></head><body><main><div class="test">Тестовый режим ЮKassa: деньги не списываются</div><h1>${title}</h1>${body}</main></body></html>`;
}
