// YooKassa API v3 client (https://yookassa.ru/developers/api). The same client talks to the real
// shop and to the built-in sandbox; only the base URL and credentials differ.

export type ProviderStatus = 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';

export interface ProviderPayment {
  id: string;
  status: ProviderStatus;
  paid: boolean;
  amount: { value: string; currency: string };
  description?: string;
  metadata?: Record<string, string>;
  confirmation?: { type: 'redirect'; confirmation_url?: string; return_url?: string };
  created_at: string;
  test?: boolean;
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
}

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** '1500.00': YooKassa wants amounts as strings with two decimals. */
export const money = (rubles: number) => (Math.round(rubles * 100) / 100).toFixed(2);

export class YookassaClient {
  constructor(private readonly s: YookassaSettings) {}

  get isSandbox(): boolean {
    return !this.s.apiUrl.startsWith('https://api.yookassa.ru');
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, idempotenceKey?: string): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Basic ${Buffer.from(`${this.s.shopId}:${this.s.secretKey}`).toString('base64')}`,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotenceKey) headers['idempotence-key'] = idempotenceKey;
    const res = await fetch(`${this.s.apiUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.s.timeoutMs ?? 15_000),
    });
    const text = await res.text();
    if (!res.ok) throw new ProviderError(`YooKassa ${method} ${path}: ${res.status} ${text.slice(0, 300)}`, res.status);
    return JSON.parse(text) as T;
  }

  createPayment(p: CreatePaymentInput): Promise<ProviderPayment> {
    const body: Record<string, unknown> = {
      amount: { value: money(p.amount), currency: 'RUB' },
      capture: true,
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
}
