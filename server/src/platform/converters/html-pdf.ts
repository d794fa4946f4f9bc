import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { ConverterUnavailable } from './converter-errors.ts';

export const CHROMIUM_MISSING = 'Печать программ и регистрационных листов недоступна: на сервере не установлен Chromium (пакет chromium, см. README).';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * HTML -> PDF (A4) in one Chromium kept open between requests; each document gets its own page in
 * a fresh context, at most `concurrency` at a time. Pages cannot reach the network.
 */
export class HtmlPdfConverter {
  private browser: Promise<Browser> | null = null;
  private active = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly opts: { executablePath: string; concurrency?: number }) {}

  missing(): string | null {
    return this.opts.executablePath && existsSync(this.opts.executablePath) ? null : CHROMIUM_MISSING;
  }

  private launch(): Promise<Browser> {
    if (!this.browser) {
      this.browser = chromium.launch({ executablePath: this.opts.executablePath, args: ARGS, headless: true }).then((b) => {
        b.on('disconnected', () => {
          this.browser = null;
        });
        return b;
      });
      this.browser.catch(() => {
        this.browser = null;
      });
    }
    return this.browser;
  }

  async toPdf(html: string): Promise<Buffer> {
    const missing = this.missing();
    if (missing) throw new ConverterUnavailable(missing);
    await this.slot();
    try {
      const browser = await this.launch().catch(() => {
        throw new ConverterUnavailable(CHROMIUM_MISSING);
      });
      const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
      try {
        const page = await context.newPage();
        await page.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
        await page.setContent(html, { waitUntil: 'load', timeout: 30_000 });
        return await page.pdf({ format: 'A4', printBackground: true, margin: { top: '15mm', bottom: '15mm', left: '15mm', right: '15mm' } });
      } finally {
        await context.close();
      }
    } finally {
      this.release();
    }
  }

  private async slot(): Promise<void> {
    if (this.active < (this.opts.concurrency ?? 2)) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.active++;
  }

  private release(): void {
    this.active--;
    this.waiters.shift()?.();
  }

  describe(): string {
    return this.missing() ? 'Chromium не установлен' : 'Chromium';
  }

  async close(): Promise<void> {
    const b = this.browser;
    this.browser = null;
    if (b) await (await b.catch(() => null))?.close();
  }
}
