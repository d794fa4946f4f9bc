import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { sandboxPayments } from '../../db/schema/index.ts';
import type { Queryable } from '../db.ts';
import { escapeHtml } from '../mail.ts';
import type { ProviderPayment, ProviderStatus } from './yookassa-client.ts';

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
}

/**
 * A small YooKassa-compatible emulator: create, get, capture and cancel payments over the v3 API,
 * a Russian confirmation page with «Оплатить» and «Отменить», then the webhook. Used when the app
 * has no shop credentials, and in tests as the provider on 127.0.0.1. Clearly marked as test mode.
 */
export const yookassaSandbox: FastifyPluginAsync<SandboxOptions> = async (app, opts) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  function authorised(request: FastifyRequest, reply: FastifyReply): boolean {
    const expected = `Basic ${Buffer.from(`${opts.shopId}:${opts.secretKey}`).toString('base64')}`;
    if (request.headers.authorization === expected) return true;
    void reply.status(401).send({ type: 'error', code: 'invalid_credentials', description: 'Invalid shop credentials' });
    return false;
  }

  async function load(id: string): Promise<ProviderPayment | null> {
    const [row] = await opts.db.select().from(sandboxPayments).where(eq(sandboxPayments.id, id));
    return row ? (row.body as unknown as ProviderPayment) : null;
  }

  async function save(p: ProviderPayment): Promise<void> {
    await opts.db
      .update(sandboxPayments)
      .set({ status: p.status, body: p as unknown as Record<string, unknown>, updated_at: new Date() })
      .where(eq(sandboxPayments.id, p.id));
  }

  function sendWebhook(p: ProviderPayment, attempt = 1): void {
    if (opts.deliverWebhooks && !opts.deliverWebhooks()) return;
    const url = opts.webhookUrl();
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'notification', event: `payment.${p.status}`, object: p }),
      signal: AbortSignal.timeout(10_000),
    })
      .then((res) => {
        if (!res.ok) throw new Error(`webhook answered ${res.status}`);
      })
      .catch((err) => {
        opts.log.warn({ err, url, attempt }, 'sandbox webhook failed');
        if (attempt < 3) setTimeout(() => sendWebhook(p, attempt + 1), 1000 * attempt).unref();
      });
  }

  async function settle(p: ProviderPayment, to: ProviderStatus): Promise<ProviderPayment> {
    if (p.status === 'succeeded' || p.status === 'canceled') return p;
    const next: ProviderPayment = { ...p, status: to, paid: to === 'succeeded' };
    await save(next);
    sendWebhook(next);
    return next;
  }

  app.post('/v3/payments', async (request, reply) => {
    if (!authorised(request, reply)) return;
    const key = String(request.headers['idempotence-key'] ?? '');
    if (!key) return reply.status(400).send({ type: 'error', code: 'invalid_request', description: 'Idempotence-Key header is required' });
    const [existing] = await opts.db
      .select()
      .from(sandboxPayments)
      .where(and(eq(sandboxPayments.shop_id, opts.shopId), eq(sandboxPayments.idempotence_key, key)));
    if (existing) return existing.body;
    const body = request.body as { amount?: { value?: string; currency?: string }; description?: string; metadata?: Record<string, string>; confirmation?: { return_url?: string } };
    if (!body?.amount?.value || !/^\d+\.\d{2}$/.test(body.amount.value) || Number(body.amount.value) <= 0) {
      return reply.status(400).send({ type: 'error', code: 'invalid_request', parameter: 'amount.value', description: 'Invalid amount' });
    }
    const id = randomUUID();
    const payment: ProviderPayment = {
      id,
      status: 'pending',
      paid: false,
      amount: { value: body.amount.value, currency: body.amount.currency ?? 'RUB' },
      description: body.description,
      metadata: body.metadata ?? {},
      confirmation: { type: 'redirect', confirmation_url: `${opts.publicUrl()}/pay/${id}`, return_url: body.confirmation?.return_url },
      created_at: new Date().toISOString(),
      test: true,
    };
    const inserted = await opts.db
      .insert(sandboxPayments)
      .values({ id, idempotence_key: key, shop_id: opts.shopId, status: 'pending', body: payment as unknown as Record<string, unknown> })
      .onConflictDoNothing()
      .returning({ id: sandboxPayments.id });
    if (inserted.length === 0) {
      // Two creates with one key at once: both get the payment that won.
      const [winner] = await opts.db.select().from(sandboxPayments).where(and(eq(sandboxPayments.shop_id, opts.shopId), eq(sandboxPayments.idempotence_key, key)));
      return winner.body;
    }
    return payment;
  });

  app.get<{ Params: { id: string } }>('/v3/payments/:id', async (request, reply) => {
    if (!authorised(request, reply)) return;
    const p = await load(request.params.id);
    if (!p) return reply.status(404).send({ type: 'error', code: 'not_found', description: 'Payment not found' });
    return p;
  });

  app.post<{ Params: { id: string } }>('/v3/payments/:id/capture', async (request, reply) => {
    if (!authorised(request, reply)) return;
    const p = await load(request.params.id);
    if (!p) return reply.status(404).send({ type: 'error', code: 'not_found' });
    return p.status === 'waiting_for_capture' ? settle(p, 'succeeded') : p;
  });

  app.post<{ Params: { id: string } }>('/v3/payments/:id/cancel', async (request, reply) => {
    if (!authorised(request, reply)) return;
    const p = await load(request.params.id);
    if (!p) return reply.status(404).send({ type: 'error', code: 'not_found' });
    return settle(p, 'canceled');
  });

  app.get<{ Params: { id: string } }>('/pay/:id', async (request, reply) => {
    const p = await load(request.params.id);
    reply.type('text/html; charset=utf-8');
    if (!p) return reply.status(404).send(page('Платёж не найден', '<p>Такого платежа нет в тестовом режиме.</p>'));
    const done = p.status === 'succeeded' || p.status === 'canceled';
    const back = p.confirmation?.return_url ? `<p><a href="${escapeHtml(p.confirmation.return_url)}">Вернуться в личный кабинет</a></p>` : '';
    const body = done
      ? `<p>Платёж уже ${p.status === 'succeeded' ? 'оплачен' : 'отменён'}.</p>${back}`
      : `<p class="sum">${escapeHtml(p.amount.value.replace('.', ','))} ₽</p>
         <p>${escapeHtml(p.description ?? '')}</p>
         <form method="post"><button name="action" value="pay" class="pay">Оплатить</button>
         <button name="action" value="cancel" class="cancel">Отменить</button></form>`;
    return page('Оплата картой', body);
  });

  app.post<{ Params: { id: string }; Body: { action?: string } }>('/pay/:id', async (request, reply) => {
    const p = await load(request.params.id);
    if (!p) return reply.status(404).type('text/html; charset=utf-8').send(page('Платёж не найден', ''));
    const next = await settle(p, request.body?.action === 'pay' ? 'succeeded' : 'canceled');
    return reply.redirect(next.confirmation?.return_url ?? '/', 303);
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
