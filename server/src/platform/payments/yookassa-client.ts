// YooKassa API v3 client (https://yookassa.ru/developers/api). The same client talks to the real
// shop and to the built-in sandbox; only the base URL and credentials differ.

export type ProviderStatus = 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';

export interface ProviderPayment {
  id: string;
  status: ProviderStatus;
  cancellation_details?: { party: string; reason: string };
  paid: boolean;
  amount: { value: string; currency: string };
  description?: string;
  metadata?: Record<string, string>;
  confirmation?: { type: 'redirect'; confirmation_url?: string; return_url?: string };
  created_at: string;
  /** When the payment was captured (succeeded). */
  captured_at?: string;
  /** Until when a held payment (waiting_for_capture) may be captured; then the provider cancels it. */
  expires_at?: string;
  /** Whether the payment can still be refunded, and how much has been. */
  refundable?: boolean;
  refunded_amount?: { value: string; currency: string };
  recipient?: { account_id: string; gateway_id: string };
  test?: boolean;
}

export type ProviderRefundStatus = 'pending' | 'succeeded' | 'canceled';

/** A refund object of the API (https://yookassa.ru/developers/api#refund_object). */
export interface ProviderRefund {
  id: string;
  payment_id: string;
  status: ProviderRefundStatus;
  cancellation_details?: { party: string; reason: string };
  amount: { value: string; currency: string };
  description?: string;
  created_at: string;
}

export interface CreateRefundInput {
  paymentId: string;
  amount: number;
  description: string;
  idempotenceKey: string;
}

export interface ReceiptItem {
  description: string;
  amount: number;
}

export interface CreatePaymentInput {
  amount: number;
  description: string;
  returnUrl: string;
  metadata: Record<string, string>;
  idempotenceKey: string;
  /** 54-FZ receipt: a contact of the customer and one item per service. */
  receipt?: { email?: string; phone?: string; items: ReceiptItem[] };
}

export interface YookassaSettings {
  apiUrl: string;
  shopId: string;
  secretKey: string;
  vatCode: number;
  timeoutMs?: number;
  /** The app's public address: every return_url must lie under it. */
  returnBase?: () => string;
  /** Repeats after a 5xx, 429, time-out or network failure (same Idempotence-Key). Default 3. */
  retries?: number;
  /** First backoff step, doubled each time; Retry-After wins when the provider sends it. Default 500 ms. */
  retryBaseMs?: number;
  /** How many 202 "ask again later" answers are waited out. Default 5. */
  maxPolls?: number;
}

/** The YooKassa error object: {type: 'error', id, code, description, parameter}. */
export interface ProviderErrorBody {
  type?: string;
  id?: string;
  code?: string;
  description?: string;
  parameter?: string;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 when the provider never answered (time-out, network). */
    readonly status: number,
    readonly body: ProviderErrorBody = {},
  ) {
    super(message);
  }
  get code(): string | undefined {
    return this.body.code;
  }
  get parameter(): string | undefined {
    return this.body.parameter;
  }
  /** What the log keeps: the provider's error id and code, never the request. */
  get logFields() {
    return {
      status: this.status,
      providerErrorId: this.body.id,
      code: this.body.code,
      parameter: this.body.parameter,
      description: this.body.description?.slice(0, 300),
    };
  }
}

/** A return_url the app may hand to the provider: http(s) under the app's public address, nothing else. */
export function isAllowedReturnUrl(url: unknown, base: string): boolean {
  if (typeof url !== 'string' || url.length > 2048) return false;
  let u: URL;
  let b: URL;
  try {
    u = new URL(url);
    b = new URL(base);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return false;
  if (u.origin !== b.origin || u.username || u.password) return false;
  const basePath = b.pathname.endsWith('/') ? b.pathname : `${b.pathname}/`;
  return u.pathname === b.pathname || u.pathname.startsWith(basePath);
}

/** '1500.00': YooKassa wants amounts as strings with two decimals. */
export const money = (rubles: number) => (Math.round(rubles * 100) / 100).toFixed(2);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RETRYABLE = new Set([429, 500, 502, 503, 504]);

/** Retry-After in seconds (or an HTTP date), capped at 30 s. */
function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : new Date(header).getTime() - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), 30_000) : null;
}

export class YookassaClient {
  constructor(private readonly s: YookassaSettings) {}

  get isSandbox(): boolean {
    return !this.s.apiUrl.startsWith('https://api.yookassa.ru');
  }

  /**
   * One API call as the YooKassa documentation asks: a 5xx, 429, time-out or network failure is
   * repeated with the same Idempotence-Key after a backoff (Retry-After honoured); 202 means "ask
   * again later" (after retry_after ms). Errors become ProviderError with the provider's error object.
   */
  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, idempotenceKey?: string): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Basic ${Buffer.from(`${this.s.shopId}:${this.s.secretKey}`).toString('base64')}`,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotenceKey) headers['idempotence-key'] = idempotenceKey;
    const retries = this.s.retries ?? 3;
    const base = this.s.retryBaseMs ?? 500;
    let polls = 0;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(`${this.s.apiUrl}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.s.timeoutMs ?? 15_000),
        });
      } catch (err) {
        if (attempt < retries) {
          await sleep(base * 2 ** attempt);
          continue;
        }
        throw new ProviderError(`YooKassa ${method} ${path}: no answer (${(err as Error).name})`, 0, { code: 'no_answer' });
      }
      const text = await res.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      if (res.status === 202) {
        if (polls++ >= (this.s.maxPolls ?? 5)) throw new ProviderError(`YooKassa ${method} ${path}: still processing`, 202, { code: 'processing' });
        const wait = Number((parsed as { retry_after?: unknown } | null)?.retry_after);
        await sleep(Number.isFinite(wait) ? Math.min(Math.max(wait, 0), 30_000) : base);
        attempt--;
        continue;
      }
      if (res.ok && parsed !== null) return parsed as T;
      const errorBody = (parsed && typeof parsed === 'object' ? parsed : {}) as ProviderErrorBody;
      if ((RETRYABLE.has(res.status) || (res.ok && parsed === null)) && attempt < retries) {
        await sleep(retryAfterMs(res.headers.get('retry-after')) ?? base * 2 ** attempt);
        continue;
      }
      throw new ProviderError(`YooKassa ${method} ${path}: ${res.status} ${errorBody.code ?? ''}`.trim(), res.status, {
        type: errorBody.type,
        id: typeof errorBody.id === 'string' ? errorBody.id : undefined,
        code: typeof errorBody.code === 'string' ? errorBody.code : undefined,
        description: typeof errorBody.description === 'string' ? errorBody.description : undefined,
        parameter: typeof errorBody.parameter === 'string' ? errorBody.parameter : undefined,
      });
    }
  }

  createPayment(p: CreatePaymentInput): Promise<ProviderPayment> {
    const base = this.s.returnBase?.();
    if (!base || !isAllowedReturnUrl(p.returnUrl, base)) {
      return Promise.reject(new ProviderError('return_url outside APP_URL refused', 400, { code: 'invalid_request', parameter: 'confirmation.return_url' }));
    }
    const body: Record<string, unknown> = {
      amount: { value: money(p.amount), currency: 'RUB' },
      // Two-stage payment: the money is held, and captured only while the entries are still unpaid
      // (cancelled otherwise), so a client is never charged twice (docs/decisions/023-no-double-charge.md).
      capture: false,
      confirmation: { type: 'redirect', return_url: p.returnUrl },
      description: p.description.slice(0, 128),
      metadata: p.metadata,
    };
    if (p.receipt) {
      body.receipt = {
        customer: p.receipt.email ? { email: p.receipt.email } : { phone: p.receipt.phone?.replace(/\D/g, '') },
        items: p.receipt.items.map((i) => ({
          description: i.description.slice(0, 128),
          quantity: '1.00',
          amount: { value: money(i.amount), currency: 'RUB' },
          vat_code: this.s.vatCode,
          payment_mode: 'full_payment',
          payment_subject: 'service',
        })),
      };
    }
    return this.call('POST', '/payments', body, p.idempotenceKey);
  }

  getPayment(id: string): Promise<ProviderPayment> {
    return this.call('GET', `/payments/${encodeURIComponent(id)}`);
  }

  capturePayment(id: string, amount: { value: string; currency: string }, idempotenceKey: string): Promise<ProviderPayment> {
    return this.call('POST', `/payments/${encodeURIComponent(id)}/capture`, { amount }, idempotenceKey);
  }

  /** Releases a held payment (only waiting_for_capture can be cancelled by the shop). */
  cancelPayment(id: string, idempotenceKey: string): Promise<ProviderPayment> {
    return this.call('POST', `/payments/${encodeURIComponent(id)}/cancel`, {}, idempotenceKey);
  }

  /** POST /v3/refunds: the whole payment or a part of it, with our Idempotence-Key. */
  createRefund(r: CreateRefundInput): Promise<ProviderRefund> {
    return this.call(
      'POST',
      '/refunds',
      { payment_id: r.paymentId, amount: { value: money(r.amount), currency: 'RUB' }, description: r.description.slice(0, 250) },
      r.idempotenceKey,
    );
  }

  /** GET /v3/payments: one page, newest first (https://yookassa.ru/developers/api#get_payments_list). */
  listPayments(q: {
    createdGte?: Date;
    status?: ProviderStatus;
    limit?: number;
    cursor?: string;
  }): Promise<{ items: ProviderPayment[]; next_cursor?: string }> {
    const params = new URLSearchParams();
    if (q.createdGte) params.set('created_at.gte', q.createdGte.toISOString());
    if (q.status) params.set('status', q.status);
    params.set('limit', String(q.limit ?? 100));
    if (q.cursor) params.set('cursor', q.cursor);
    return this.call('GET', `/payments?${params.toString()}`);
  }

  getRefund(id: string): Promise<ProviderRefund> {
    return this.call('GET', `/refunds/${encodeURIComponent(id)}`);
  }
}
