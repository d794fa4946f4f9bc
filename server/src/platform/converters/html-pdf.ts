import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ConversionFailed, ConverterUnavailable } from './converter-errors.ts';
import { FairQueue } from './fair-queue.ts';
import type { ConvertOwner } from './office-converter.ts';
import { SYSTEM_OWNER } from './office-converter.ts';
import { LOW_PRIORITY_NICE } from '../thread-priority.ts';

export const CHROMIUM_MISSING = 'Печать программ и регистрационных листов недоступна: на сервере не установлен Chromium (пакет chromium, см. README).';

// No name resolves (`MAP * ~NOTFOUND`): a request that slipped past the page's interception still
// finds no host.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND',
];

const NICE = ['/usr/bin/nice', '/bin/nice'].find((p) => existsSync(p));
/** Run as root, Chromium raises its own threads' priority back (kDefault 0, compositing -8): it must lose CAP_SYS_NICE. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

/**
 * An executable that starts `executablePath` under `nice` (a script in a fresh temporary folder), or
 * null where there is no `nice` (not Linux or BSD): Playwright starts the browser itself, and every
 * process Chromium forks (zygote, renderers) inherits the niceness of the one it starts.
 */
function nicedExecutable(executablePath: string, nice: number): string | null {
  if (!NICE || process.platform === 'win32') return null;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edu-chromium-'));
  const file = path.join(dir, 'chromium-low-priority');
  const quote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
  // As root, without the capability to lower a niceness (the other users cannot anyway).
  const dropNice = process.getuid?.() === 0 && SETPRIV ? `${quote(SETPRIV)} --bounding-set -sys_nice --inh-caps -sys_nice ` : '';
  writeFileSync(file, `#!/bin/sh\nexec ${dropNice}${quote(NICE)} -n ${nice} ${quote(executablePath)} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

/** A page kept open for the next document (decision 045), with the browser it belongs to. */
interface WarmPage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  documents: number;
}

/**
 * HTML -> PDF (A4) in one Chromium kept open between requests (and a second one, started at a lower
 * CPU priority, for free accounts' documents: `low` owners, issue 29). At most `concurrency`
 * documents render at a time, the others waiting in a fair, bounded queue (decision 021). A page is
 * kept open between documents (decision 045): a new context and page start a renderer process, about
 * 0.5 s and 1.5 s of CPU, ten times the document itself. A page whose document failed, and every
 * page after `documentsPerPage` documents (100), is closed. Pages run no JavaScript and cannot reach the
 * network: every request but data: URLs is cancelled, navigations away from the document (a meta
 * refresh) included.
 */
export class HtmlPdfConverter {
  private browser: Promise<Browser> | null = null;
  private lowBrowser: Promise<Browser> | null = null;
  private lowExecutable: string | null | undefined;
  private active = 0;
  private closed = false;
  /** Settled when no document is being rendered (close waits for it). */
  private drained: (() => void) | null = null;
  private readonly waiting: FairQueue<() => void>;
  /** Pages between documents, per browser (`low`: the free accounts' one). */
  private idle: { usual: WarmPage[]; low: WarmPage[] } = { usual: [], low: [] };

  constructor(private readonly opts: { executablePath: string; concurrency?: number; queueLimit?: number; documentsPerPage?: number }) {
    this.waiting = new FairQueue(opts.queueLimit ?? 32);
  }

  missing(): string | null {
    return this.opts.executablePath && existsSync(this.opts.executablePath) ? null : CHROMIUM_MISSING;
  }

  private launch(low = false): Promise<Browser> {
    if (low) {
      if (this.lowExecutable === undefined) this.lowExecutable = nicedExecutable(this.opts.executablePath, LOW_PRIORITY_NICE);
      // Without `nice` free accounts' documents share the one browser.
      if (!this.lowExecutable) return this.launch(false);
      // A machine where the wrapper cannot start the browser (setpriv refused in a container, say)
      // prints free accounts' documents in the usual browser rather than not at all.
      this.lowBrowser ??= this.start(this.lowExecutable, () => (this.lowBrowser = null)).catch(() => {
        this.lowExecutable = null;
        return this.launch(false);
      });
      return this.lowBrowser;
    }
    this.browser ??= this.start(this.opts.executablePath, () => (this.browser = null));
    return this.browser;
  }

  private start(executablePath: string, forget: () => void): Promise<Browser> {
    // The server's own signal handlers close the browser after the requests in flight (main.ts);
    // Playwright's would close it under them (and exit on SIGINT). Its exit hook still kills the
    // browser's process group if the process ends any other way.
    const launch = { executablePath, args: ARGS, headless: true, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false };
    const browser = chromium.launch(launch).then((b) => {
      b.on('disconnected', forget);
      return b;
    });
    browser.catch(forget);
    return browser;
  }

  async toPdf(html: string, owner: ConvertOwner = SYSTEM_OWNER): Promise<Buffer> {
    const missing = this.missing();
    if (missing) throw new ConverterUnavailable(missing);
    if (this.closed) throw new ConverterUnavailable(CHROMIUM_MISSING);
    await this.slot(owner);
    try {
      if (this.closed) throw new ConverterUnavailable(CHROMIUM_MISSING);
      const lane = owner.low === true ? 'low' : 'usual';
      const warm = await this.takePage(lane);
      let keep = false;
      try {
        await warm.page.setContent(html, { waitUntil: 'load', timeout: 30_000 });
        const pdf = await warm.page.pdf({ format: 'A4', printBackground: true, margin: { top: '15mm', bottom: '15mm', left: '15mm', right: '15mm' } });
        keep = ++warm.documents < (this.opts.documentsPerPage ?? 100);
        return pdf;
      } catch (err) {
        // Whatever a template's content does, it is that document's failure (422), not the server's.
        if (!warm.browser.isConnected()) throw new ConverterUnavailable(CHROMIUM_MISSING);
        throw new ConversionFailed((err as Error)?.message ?? String(err));
      } finally {
        if (keep && !this.closed && warm.browser.isConnected()) this.idle[lane].push(warm);
        else await warm.context.close().catch(() => undefined);
      }
    } finally {
      this.release();
    }
  }

  /** A page of the lane's browser left by an earlier document, or a new one in a fresh context. */
  private async takePage(lane: 'usual' | 'low'): Promise<WarmPage> {
    const browser = await this.launch(lane === 'low').catch(() => {
      throw new ConverterUnavailable(CHROMIUM_MISSING);
    });
    for (let warm = this.idle[lane].pop(); warm; warm = this.idle[lane].pop()) {
      // A page of a browser that has since gone (or of the usual one, where the low one could not start) is dropped.
      if (warm.browser === browser && browser.isConnected() && !warm.page.isClosed()) return warm;
      await warm.context.close().catch(() => undefined);
    }
    let context: BrowserContext;
    try {
      context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    } catch {
      throw new ConverterUnavailable(CHROMIUM_MISSING);
    }
    try {
      const page = await context.newPage();
      // The document comes from setContent, not from a request. ERR_ABORTED (not ERR_FAILED) makes
      // a cancelled navigation leave the document in place instead of showing an error page.
      await page.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort('aborted')));
      return { browser, context, page, documents: 0 };
    } catch {
      await context.close().catch(() => undefined);
      throw new ConverterUnavailable(CHROMIUM_MISSING);
    }
  }

  private async slot(owner: ConvertOwner): Promise<void> {
    if (this.active < (this.opts.concurrency ?? 2)) {
      this.active++;
      return;
    }
    // The releasing document hands its slot over (active stays the same).
    await new Promise<void>((resolve) => this.waiting.push(owner.key, resolve, { bounded: owner.bounded ?? true }));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
    if (this.active === 0) this.drained?.();
  }

  /** Documents rendering now and waiting for a page (metrics). */
  stats(): { running: number; queued: number } {
    return { running: this.active, queued: this.waiting.length };
  }

  describe(): string {
    return this.missing() ? 'Chromium не установлен' : 'Chromium без доступа к сети';
  }

  /** Stops taking documents, lets those being rendered finish (each has its 30 s limit), then closes the browser. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.active > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    const browsers = [this.browser, this.lowBrowser];
    this.browser = this.lowBrowser = null;
    // Closing a browser closes its pages.
    this.idle.usual = [];
    this.idle.low = [];
    await Promise.all(browsers.map(async (b) => (b ? (await b.catch(() => null))?.close() : undefined)));
  }
}
